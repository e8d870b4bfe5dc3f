"""Fuzzing every file format a user hands TenFlang: whatever the bytes, loading
returns a value or raises `TenflangError` — never a numpy, zipfile, json or
Unicode exception, a RecursionError or a MemoryError.

Formats: data in vector notation, CSV and .npz; weights in vector notation
and .npz; shard manifests (and the shard directory they describe); training
checkpoints.  Inputs: random bytes, and random mutations (bytes flipped,
inserted, deleted, duplicated; for archives also inside the stored members)
of a valid file of each format.  Kept to about 20 s.
"""
from __future__ import annotations

import io
import json
import os
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenflang.data import vectors
from tenflang.data.shards import describe, load_piece
from tenflang.base.errors import TenflangError
from tenflang.training.checkpoints import load_checkpoint, save_checkpoint
from tenflang.training.config import TrainConfig
from tenflang.training.loop import State

# TENFLANG_FUZZ_EXAMPLES=1500 for a longer hunt (about 3 minutes on 2 cores)
FUZZ = settings(max_examples=int(os.environ.get("TENFLANG_FUZZ_EXAMPLES", "120")), deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

# zipfile warns of duplicate member names, numpy of odd .npy headers: expected here
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

ARRAYS = {"x": np.array([[1.0, 2.0, 3.0], [4.0, -5.5, 6e-3]]), "y": np.array([0.5, 1.5]),
          "M": np.arange(8.0).reshape(2, 2, 2)}
WEIGHT_SHAPES = {"w": (3,), "b": ()}
ADAM = TrainConfig(optimizer="adam")
WEIGHTS = {"w": np.array([1.0, -2.0, 0.25]), "b": np.array(0.5)}


def valid_files() -> dict[str, bytes]:
    """One valid file of each format, by its name (the extension picks the reader)."""
    def npz(arrays):
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        return buffer.getvalue()
    lines = list(vectors.format_examples(ARRAYS, "txt"))
    return {
        "data.txt": ("# data\n" + "\n".join(lines) + "\n").encode(),
        "data.csv": ("\n".join(vectors.format_examples(ARRAYS, "csv")) + "\n").encode(),
        "data.npz": npz(ARRAYS),
        "weights.txt": vectors.format_weights(WEIGHTS).encode(),
        "weights.npz": npz(WEIGHTS),
    }


VALID = valid_files()


def load(path: str):
    if "weights" in path:
        return vectors.load_weights(path)
    return vectors.load_examples(path, shapes={"x": (3,), "y": (), "M": (2, 2)})


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """`data` with a few random byte edits."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "repeat", "truncate"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
                [b"[", b"]", b"{", b"}", b",", b":", b"null", b"nan", b"1e999", b"\x1b", b"\n",
                 b"\xff", b"#", b"x[0,0]", b'"', b"[" * 40]))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        elif kind == "repeat":
            data[at:at] = data[at:at + draw(st.integers(1, 64))] * draw(st.integers(1, 4))
        elif kind == "truncate":
            del data[at:]
    return bytes(data)


def mutated_archive(draw, data: bytes) -> bytes:
    """An .npz whose members are themselves mutated (the archive stays readable)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            member = source.read(info)
            if draw(st.booleans()):
                member = draw(mutated(member))
            name = info.filename if draw(st.integers(0, 9)) else draw(st.sampled_from(
                ["x.npy", "a b.npy", "../x.npy", "meta.npy", "w:w.npy", "s:m:w.npy", "q", "w:w",
                 "meta", "x"]))
            target.writestr(name, member)
    return out.getvalue()


def only_tenflang_errors(call, *args):
    try:
        call(*args)
    except TenflangError:
        pass


@pytest.mark.parametrize("name", list(VALID))
@FUZZ
@given(data=st.data())
def test_mutated_files_load_or_fail_cleanly(tmp_path, name, data):
    raw = VALID[name]
    if name.endswith(".npz") and data.draw(st.booleans()):
        raw = mutated_archive(data.draw, raw)
    else:
        raw = data.draw(mutated(raw))
    path = tmp_path / name
    path.write_bytes(raw)
    only_tenflang_errors(load, str(path))


@pytest.mark.parametrize("name", list(VALID))
@FUZZ
@given(raw=st.binary(max_size=400))
def test_random_bytes_load_or_fail_cleanly(tmp_path, name, raw):
    path = tmp_path / name
    path.write_bytes(raw)
    only_tenflang_errors(load, str(path))


@pytest.mark.parametrize("name", [n for n in VALID if not n.endswith(".npz")])
@FUZZ
@given(text=st.text(alphabet=st.sampled_from(list("{}[],:#\n \t-+.e0123456789xyMwbnulaif\x1b")),
                    max_size=200))
def test_token_soup_loads_or_fails_cleanly(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    only_tenflang_errors(load, str(path))


# ----------------------------------------------------------------------------- manifests

@pytest.fixture(scope="module")
def shard_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shards")
    rows = 2
    for k in range(2):
        vectors.save_examples(str(folder / f"shard-{k:05d}.npz"),
                              {n: a for n, a in ARRAYS.items()}, "npz")
    manifest = {"format": "tenflang-shards", "version": 1, "source": "data.txt",
                "rows": 2 * rows, "variables": {"x": [3], "y": [], "M": [2, 2]},
                "shards": [{"file": f"shard-{k:05d}.npz", "rows": rows} for k in range(2)]}
    return folder, json.dumps(manifest).encode()


def describe_and_load(folder: str):
    data = describe(folder)
    for chunk in data.chunks:
        for piece in chunk:
            load_piece(piece, data.shapes, False)


@FUZZ
@given(data=st.data())
def test_mutated_manifests_describe_or_fail_cleanly(shard_folder, data):
    folder, manifest = shard_folder
    raw = data.draw(mutated(manifest) | st.binary(max_size=200))
    (folder / "manifest.json").write_bytes(raw)
    only_tenflang_errors(describe_and_load, str(folder))


@FUZZ
@given(data=st.data())
def test_manifests_with_odd_json_values_fail_cleanly(shard_folder, data):
    folder, manifest = shard_folder
    meta = json.loads(manifest)
    odd = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() |
                       st.text(max_size=12), lambda inner: st.lists(inner, max_size=3) |
                       st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
    path = data.draw(st.sampled_from([("rows",), ("variables",), ("variables", "x"),
                                      ("shards",), ("shards", 0), ("shards", 0, "file"),
                                      ("shards", 0, "rows"), ("format",)]))
    target = meta
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(odd)
    (folder / "manifest.json").write_text(json.dumps(meta))
    only_tenflang_errors(describe_and_load, str(folder))


# ----------------------------------------------------------------------------- checkpoints

@pytest.fixture(scope="module")
def checkpoint_bytes(tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "c.npz"
    state = State(dict(WEIGHTS), {"m:w": np.ones(3), "v:w": np.ones(3), "m:b": np.array(1.0),
                                  "v:b": np.array(2.0)}, 7, [3.0, 2.0, 1.0])
    save_checkpoint(str(path), state, ADAM)
    return path.read_bytes()


@FUZZ
@given(data=st.data())
def test_mutated_checkpoints_resume_or_fail_cleanly(tmp_path, checkpoint_bytes, data):
    if data.draw(st.booleans()):
        raw = mutated_archive(data.draw, checkpoint_bytes)
    else:
        raw = data.draw(mutated(checkpoint_bytes) | st.binary(max_size=300))
    path = tmp_path / "c.npz"
    path.write_bytes(raw)
    only_tenflang_errors(load_checkpoint, str(path), WEIGHT_SHAPES, ADAM)


@FUZZ
@given(meta=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() |
                         st.text(max_size=12), lambda inner: st.lists(inner, max_size=3) |
                         st.dictionaries(st.sampled_from(["iteration", "optimizer", "seed", "x"]),
                                         inner, max_size=4), max_leaves=8))
def test_checkpoints_with_odd_meta_fail_cleanly(tmp_path, checkpoint_bytes, meta):
    with np.load(io.BytesIO(checkpoint_bytes)) as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays["meta"] = np.asarray(json.dumps(meta))
    path = tmp_path / "c.npz"
    np.savez(path, **arrays)
    only_tenflang_errors(load_checkpoint, str(path), WEIGHT_SHAPES, ADAM)
