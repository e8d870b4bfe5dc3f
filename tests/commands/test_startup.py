"""Start-up: what a short run imports, and the parser's tables cached on disk.

A plain run of each tool imports neither the optional packages (numba, Dask,
matplotlib, TensorBoard, ONNX) nor lark, nor what only an option needs (json
for checkpoints, the TensorBoard hook), nor hashlib (its import sets up OpenSSL:
tenflang/base/hashing.py): the fast lane reads the grammar's
tables from the cache directory; once the cache is filled, no C compiler
runs (not even `subprocess` is imported).  The commands set OpenBLAS's spin
before numpy loads it (tenflang/cli/__init__.py).  The cache file is checked: a missing,
damaged or foreign one is ignored and written again, never an error
(tenflang/lang/syntax.py)."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys

import pytest

from support.commands import cli_env, command_line
from support.paths import SAMPLES_DIR
from tenflang.lang import larkpath, parse_source, syntax

HEAVY = ("lark", "numba", "dask", "distributed", "scipy", "matplotlib", "tqdm", "pygments",
         "tensorboardX", "onnx", "onnxruntime", "torch", "jax", "sklearn", "json")
# what only an option needs (--checkpoint, --logdir): a plain run does not load it
OPTIONAL = ("tenflang.training.checkpoints", "tenflang.training.tensorboard_log")
SLOW = ("hashlib",)     # OpenSSL's digests set up on import: ~3 ms (tenflang/base/hashing.py)

# runs a command's script, then writes the names of the modules it imported
IMPORTED = ("import atexit, runpy, sys; out = sys.argv.pop(1); "
            "atexit.register(lambda: open(out, 'w').write('\\n'.join(sys.modules))); "
            "sys.argv.pop(0); runpy.run_path(sys.argv[0], run_name='__main__')")


def imported_by(args, out, env) -> set[str]:
    script, *rest = command_line(args)[1:]
    done = subprocess.run([sys.executable, "-c", IMPORTED, str(out), script, *rest],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    names = set(out.read_text().split())
    return names | {name.split(".")[0] for name in names}


def test_a_plain_run_imports_no_optional_package_and_not_lark(tmp_path):
    env = {**cli_env(), "TENFLANG_CACHE_DIR": str(tmp_path / "cache")}
    shape, gcp, weights = SAMPLES_DIR / "example_shape.tf", tmp_path / "g.tf", tmp_path / "w.txt"
    runs = [["tfcompiler", shape, "-o", gcp],
            ["tfweightcalc", gcp, SAMPLES_DIR / "example_train.txt", "-o", weights,
             "--max-iters", "5"],
            ["tfevaluate", shape, SAMPLES_DIR / "example_inputs.txt", weights,
             "-o", tmp_path / "out.txt"]]
    first = [imported_by(args, tmp_path / "first", env) for args in runs]
    assert "lark" in first[0]           # the cache was empty: lark built the tables
    for args in runs:                   # the cache filled: nothing to build, no compiler to run
        imported = imported_by(args, tmp_path / "modules", env)
        heavy = imported & {*HEAVY, *OPTIONAL, *SLOW, "subprocess"}
        assert not heavy, f"{args[0]} imported {sorted(heavy)}"


def test_a_syntax_error_still_gets_lark_s_message(tmp_path):
    code = ("import sys; from tenflang.lang import parse_source\n"
            "try:\n    parse_source('declare input x\\ndefine y = \\n', 'p.tf')\n"
            "except Exception as err:\n    print(err.render(), 'lark' in sys.modules)")
    env = {**cli_env(), "TENFLANG_CACHE_DIR": str(tmp_path)}
    for _ in range(2):                  # the second run reads the cached tables
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, timeout=60)
        assert "p.tf:2" in done.stdout and "expected" in done.stdout, done.stderr
        assert done.stdout.split()[-1] == "True"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh cache directory, the fast lane forgotten before and after."""
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(tmp_path))
    syntax.fast_parser.cache_clear()
    yield tmp_path
    syntax.fast_parser.cache_clear()


def parses_like_lark():
    text = (SAMPLES_DIR / "mlp_digits.tf").read_text()
    fast = syntax.fast_parser()
    assert fast is not None
    assert fast.parse(text) == larkpath.parser().parse(text)
    assert parse_source(text).statements == larkpath.parser().parse(text)


def test_the_tables_are_written_once_and_read_back(cache, monkeypatch):
    parses_like_lark()
    files = list(cache.glob("parser-*.pickle"))
    assert len(files) == 1
    syntax.fast_parser.cache_clear()

    def no_lark():
        raise AssertionError("the tables were built again")
    monkeypatch.setattr(syntax, "built_tables", no_lark)
    parses_like_lark()


def damaged(good: bytes) -> dict[str, bytes]:
    """Cache files that must be ignored, made from a good one."""
    digest = len(good) - len(good[syntax.DIGEST:])

    def signed(payload: bytes) -> bytes:
        from tenflang.base.hashing import blake2b
        return blake2b(payload).digest() + payload
    flipped = bytearray(good)
    flipped[-20] ^= 0x40
    return {"empty": b"", "text": b"not a cache file\n", "truncated": good[: len(good) // 2],
            "a flipped bit": bytes(flipped), "digest only": good[:digest],
            "a class in the pickle": signed(pickle.dumps(os.system)),
            "not a dict": signed(pickle.dumps([1, 2, 3])),
            "another layout": signed(pickle.dumps({"table": {0: {"NAME": (9, 99, "x")}},
                                                   "rules": []}))}


@pytest.mark.parametrize("kind", list(damaged(b"x" * 64)))
def test_a_damaged_cache_file_is_ignored_and_rewritten(cache, kind):
    syntax.fast_parser()
    path = next(cache.glob("parser-*.pickle"))
    good = path.read_bytes()
    path.write_bytes(damaged(good)[kind])
    syntax.fast_parser.cache_clear()
    parses_like_lark()
    assert syntax.read_tables(str(path)) == syntax.tables_from(good)


def test_another_grammar_is_another_file(cache, monkeypatch):
    key = syntax.tables_key()
    grammar = syntax.grammar_text()
    monkeypatch.setattr(syntax, "grammar_text", lambda: grammar + "// a comment\n")
    assert syntax.tables_key() != key


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(blocker / "cache"))
    syntax.fast_parser.cache_clear()
    try:
        parses_like_lark()
    finally:
        syntax.fast_parser.cache_clear()


def test_the_commands_shorten_openblas_spin_unless_the_user_set_it():
    from tenflang.native.blas_threads import IDLE_SPIN
    code = ("import os, sys, tenflang.cli; "
            "print(os.environ['OPENBLAS_THREAD_TIMEOUT'], 'numpy' in sys.modules)")
    for given, expected in ((None, IDLE_SPIN), ("28", "28")):
        env = {k: v for k, v in cli_env().items() if k != "OPENBLAS_THREAD_TIMEOUT"}
        env |= {"OPENBLAS_THREAD_TIMEOUT": given} if given else {}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, timeout=60)
        assert done.stdout.split() == [expected, "False"], done.stderr  # set before numpy loads


@pytest.mark.parametrize("sample", ["mlp_digits.tf", "lenet_digits.tf", "rnn_digits.tf",
                                    "example_shape.tf"])
def test_tfcompiler_runs_without_numpy(tmp_path, sample):
    """Compiling runs no op: numpy (0.1 s of a start-up) is not imported, also
    where the -O1 clean-up folds constants by arithmetic (example_shape.tf's
    `pow diff 2` gives `sub 2 1`; backprop/simplify.py)."""
    env = {**cli_env(), "TENFLANG_CACHE_DIR": str(tmp_path / "cache")}
    args = ["tfcompiler", SAMPLES_DIR / sample, "-o", tmp_path / "g.tf"]
    imported_by(args, tmp_path / "first", env)          # fills the parser's cache
    assert "numpy" not in imported_by(args, tmp_path / "modules", env)
