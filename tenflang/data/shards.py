"""The data of a distributed run: shard directories, their manifest, chunks.

    write_shards(arrays, "shards/", rows=100_000)      # what `tenflang shard` writes
    data = describe("shards/", chunk_size=None)        # reads no examples
    data.validate(signature(gcp).inputs)
    arrays = load_chunk(data.chunks[0], data.shapes, "float64", "cpu", False)

Conventions:

* DATA is a directory of ``.npz`` shards (``tenflang shard`` makes one, with a
  ``manifest.json``; without a manifest every ``*.npz`` in it, in name order)
  or a single data file cut into chunks of `chunk_size` rows; with
  `chunk_size`, consecutive shards are combined into chunks of at most that
  many rows.  A *chunk* is a tuple of `Piece`s (absolute path, row range):
  workers load it themselves, so every path must name the same file on every
  worker (shared storage) and the client never sends examples.  `load_chunk`
  is a pure function of its arguments: when a worker dies, Dask recomputes
  the chunks it held.
* Describing DATA reads a manifest or .npz headers only (a single text or CSV
  file is read whole); examples are read by `load_chunk`, on the workers.
* Nothing here imports dask: `tenflang shard` and the command line use this
  module without a cluster, and `tenflang.distributed` sends `load_chunk` to
  the workers, which import it from here.
* Errors: a bad data file, shard or manifest is a `TenflangError` at its
  location (exit 2), also when a worker finds it (the error pickles with its
  location).  `load_chunk` checks what a local run checks in its data file:
  NaN (`load_examples`) and the class and row indices `one_hot` and `take`
  read (`Examples.check_indices`), on the file as read, so that a message
  names the shard (or the file) and the example's row in it.
"""
from __future__ import annotations

import json
import math
import os

import numpy as np

from tenflang.base.frozen import frozen, mutable
from tenflang.base import limits
from tenflang.base.errors import Location, TenflangError
from tenflang.base.outputs import write_file
from tenflang.base.inputs import read_input, require_regular
from .examples import Examples
from .npzfiles import npz_header
from .vectors import load_examples, save_examples

MANIFEST = "manifest.json"
SHARD_FORMAT = "shard-{:05d}.npz"
MANIFEST_FORMAT = "tenflang-shards"
DEFAULT_CHUNK_ROWS = 100_000

# ----------------------------------------------------------------------------- the data

@frozen
class Piece:
    """What one file gives a chunk: a whole shard (start is None) or rows
    [start, stop) of a data file.  `rows`: the example count expected;
    `stamp`: the file's `file_stamp` when the run described it."""
    path: str
    start: int | None = None
    stop: int | None = None
    rows: int | None = None
    stamp: tuple | None = None


def file_stamp(path: str) -> tuple | None:
    """(modification time in ns, size) of `path`, None when it cannot be read
    (a missing file is reported where it is loaded)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


@mutable
class Dataset:
    """DATA as chunks (each a tuple of consecutive `Piece`s), with the
    per-example shape of every variable it binds."""
    path: str
    chunks: list
    shapes: dict
    rows: int | None = None

    def chunk_rows(self) -> list:
        """The example count of each chunk, in chunk order."""
        return [sum(piece.rows for piece in chunk) for chunk in self.chunks]

    def validate(self, inputs: dict) -> None:
        """Same rule and messages as a single-process run (`Examples.validate`)."""
        arrays = {n: np.empty((0,) + tuple(s)) for n, s in self.shapes.items()}
        Examples(self.path, arrays, None).validate(inputs, required=set(inputs))


def describe(path: str, chunk_size: int | None = None, allow_nan: bool = False,
             shapes: dict | None = None) -> Dataset:
    """The chunks of DATA: a single file cut into chunks of `chunk_size` rows
    (default DEFAULT_CHUNK_ROWS), or a shard directory whose consecutive shards
    are combined into chunks of at most `chunk_size` rows (default: one chunk
    per shard; a bigger shard stays one chunk).  Reads a directory's manifest
    or the .npz headers, and a single .npz file's headers; a single text or
    CSV file is read (and checked, each example against `shapes` when given:
    `load_examples`) here, since its example count is not known
    otherwise.  Tiny chunks are made larger (`smallest_chunk`): `--chunk-size 1`
    would cost a task per example and round."""
    if os.path.isdir(path):
        data = _describe_directory(path)
        floor = smallest_chunk(data.rows or 0)
        if chunk_size or len(data.chunks) > limits.MAX_SMALL_CHUNKS:
            data.chunks = chunks_of([piece for chunk in data.chunks for piece in chunk],
                                    max(chunk_size or 0, floor))
        return data
    require_regular(path, "data file", "a distributed run's workers each read DATA again")
    full = os.path.abspath(path)
    if path.lower().endswith(".npz"):
        shapes, rows = npz_header(path)
    else:
        examples = load_examples(path, allow_nan=allow_nan, shapes=shapes)
        shapes = {n: a.shape[1:] for n, a in examples.arrays.items() if a is not None}
        rows = len(examples)
    size = max(chunk_size or DEFAULT_CHUNK_ROWS, smallest_chunk(rows))
    chunks = [(Piece(full, a, min(a + size, rows), min(a + size, rows) - a, file_stamp(full)),)
              for a in range(0, rows, size)]
    return Dataset(path, chunks, shapes, rows)


def smallest_chunk(rows: int) -> int:
    """The fewest rows a chunk is given: tiny chunks cost a task per round each,
    so at most MAX_SMALL_CHUNKS chunks under SMALL_CHUNK_ROWS rows (limits)."""
    return min(-(-rows // limits.MAX_SMALL_CHUNKS), limits.SMALL_CHUNK_ROWS)


def chunks_of(pieces: list, limit: int) -> list:
    """Consecutive pieces grouped into chunks of at most `limit` rows (a piece
    of more rows alone)."""
    chunks, current, rows = [], [], 0
    for piece in pieces:
        if current and rows + piece.rows > limit:
            chunks.append(tuple(current))
            current, rows = [], 0
        current.append(piece)
        rows += piece.rows
    if current:
        chunks.append(tuple(current))
    return chunks


def _describe_directory(path: str) -> Dataset:
    """A shard directory, one chunk per shard: as its manifest lists them, or
    without one every *.npz in it in name order (see `_scan_shards`)."""
    manifest = os.path.join(path, MANIFEST)
    if os.path.exists(manifest):
        meta = read_manifest(manifest)
        shards = [os.path.abspath(os.path.join(path, s["file"])) for s in meta["shards"]]
        chunks = [(Piece(f, rows=s["rows"], stamp=file_stamp(f)),)
                  for f, s in zip(shards, meta["shards"])]
        shapes = {n: tuple(s) for n, s in meta["variables"].items()}
        return Dataset(path, chunks, shapes, meta["rows"])
    try:
        files = sorted(f for f in os.listdir(path) if f.lower().endswith(".npz"))
    except OSError as err:
        raise TenflangError(f"cannot list the shard directory: {err.strerror or err}",
                            Location(path)) from None
    if not files:
        raise TenflangError("the directory holds no .npz shards (make them with tenflang shard)",
                            Location(path))
    return _scan_shards(path, files)


def _scan_shards(path: str, files: list) -> Dataset:
    """The shards `files` of directory `path`, from their headers; all must
    bind the same variables with the same per-example shapes."""
    chunks, shapes, total = [], None, 0
    for name in files:
        shard = os.path.join(path, name)
        require_regular(shard, "shard", "an .npz archive is read by seeking in it")
        these, rows = npz_header(shard)
        if shapes is None:
            shapes, first = these, shard
        elif these != shapes:
            raise TenflangError(f"the shard's variables {_describe_shapes(these)} differ from "
                                f"{_describe_shapes(shapes)} in {first}", Location(shard))
        chunks.append((Piece(os.path.abspath(shard), rows=rows, stamp=file_stamp(shard)),))
        total += rows
    return Dataset(path, chunks, shapes, total)


def _describe_shapes(shapes: dict) -> str:
    """Shapes by name for a message: ``{x [3], y []}``."""
    return "{" + ", ".join(f"{n} {list(s)}" for n, s in shapes.items()) + "}"


def read_manifest(path: str) -> dict:
    """{"shards": [{"file", "rows"}], "variables": {name: shape}, "rows"} of a
    manifest written by `manifest`, checked for its format and types."""
    try:
        meta = json.loads(read_input(path, "shard manifest"))     # a device refused, a stream capped
        if meta.get("format") != MANIFEST_FORMAT:
            raise ValueError(f"its format is {meta.get('format')!r}, not {MANIFEST_FORMAT!r}")
        shards = [{"file": str(s["file"]), "rows": int(s["rows"])} for s in meta["shards"]]
        variables = {str(n): [int(d) for d in s] for n, s in meta["variables"].items()}
        rows = int(meta["rows"])
    except (MemoryError, TenflangError):
        raise
    except Exception as err:
        raise TenflangError(f"not a tenflang shard manifest ({type(err).__name__}: {err})",
                            Location(path)) from None
    if not shards:
        raise TenflangError("the manifest lists no shards", Location(path))
    check_manifest(path, shards, variables, rows)
    return {"shards": shards, "variables": variables, "rows": rows}


def check_manifest(path: str, shards: list, variables: dict, rows: int) -> None:
    """A manifest names only files of its own directory (a plain file name:
    no directory part, no '..', so a run never reads outside the shard
    directory), each once, row counts >= 1 that add up, and shapes within the
    limit."""
    seen = set()
    for shard in shards:
        name = shard["file"]
        if name in seen:            # listed twice, its examples would count twice
            raise TenflangError(f"the manifest lists the shard '{name}' more than once",
                                Location(path))
        seen.add(name)
        if name in ("", ".", "..") or os.path.basename(name) != name or "\\" in name \
                or "\0" in name:
            raise TenflangError(f"the manifest names the shard '{name}', which is not a file "
                                "name in the manifest's own directory", Location(path))
        if shard["rows"] < 1:
            raise TenflangError(f"the manifest gives shard '{name}' {shard['rows']} rows",
                                Location(path))
    if rows != sum(shard["rows"] for shard in shards):
        raise TenflangError(f"the manifest's total of {rows} rows is not the sum of its "
                            "shards' rows", Location(path))
    for name, shape in variables.items():
        if any(d < 0 for d in shape) or math.prod(shape) > limits.MAX_TENSOR_ELEMENTS:
            raise TenflangError(f"the manifest gives '{name}' the shape {shape}: negative, or "
                                f"more than {limits.MAX_TENSOR_ELEMENTS} elements",
                                Location(path))


def write_shards(arrays: dict, directory: str, rows: int, source: str = "") -> list:
    """`arrays` (name -> array with a leading example axis) written into the
    existing `directory` as ``shard-00000.npz``, ... of at most `rows`
    examples each, in order, then the manifest (last, so a directory with a
    manifest is complete); each file atomically.  Returns [(file, rows)]."""
    total = len(next(iter(arrays.values())))
    written = []
    for k, start in enumerate(range(0, total, rows)):
        name = SHARD_FORMAT.format(k)
        save_examples(os.path.join(directory, name),
                              {n: a[start:start + rows] for n, a in arrays.items()}, "npz")
        written.append((name, min(rows, total - start)))
    shapes = {n: a.shape[1:] for n, a in arrays.items()}
    write_file(os.path.join(directory, MANIFEST),
               json.dumps(manifest(source, written, shapes), indent=1) + "\n")
    return written


def manifest(source: str, shards: list, shapes: dict) -> dict:
    """What `tenflang shard` writes next to its shards: [(file, rows)]."""
    return {"format": MANIFEST_FORMAT, "version": 1, "source": os.path.basename(source),
            "rows": sum(rows for _, rows in shards),
            "variables": {n: list(s) for n, s in shapes.items()},
            "shards": [{"file": f, "rows": rows} for f, rows in shards]}


# ----------------------------------------------------------------------------- worker side

_FILE = {}        # the last single data file a worker read: {key: arrays}


def load_chunk(pieces: tuple, shapes: dict, dtype: str, device: str, allow_nan: bool,
               indices: dict | None = None) -> dict:
    """The arrays of one chunk, in worker memory (runs on a worker); `indices`:
    the variables read as class or row indices (`Examples.check_indices`)."""
    from tenflang.interp.device import array_module
    parts = [load_piece(piece, shapes, allow_nan, indices, dtype) for piece in pieces]
    xp = array_module(device)
    return {n: xp.asarray(np.array(parts[0][n] if len(parts) == 1 else
                                   np.concatenate([part[n] for part in parts]), dtype=dtype))
            for n in parts[0]}


def load_piece(piece: Piece, shapes: dict, allow_nan: bool, indices: dict | None = None,
               dtype: str = "float64") -> dict:
    """The arrays `piece` names, checked against the data set's `shapes`, the
    piece's expected row count and, as a local run checks its data file, the
    index variables `indices` and the values `dtype` holds (runs on a worker)."""
    if not os.path.isfile(piece.path):
        import socket
        raise TenflangError(f"worker {socket.gethostname()} (pid {os.getpid()}) cannot see this "
                            "file: every worker must read the data at the same path as the "
                            "client (shared storage)", Location(piece.path))
    if piece.stamp is not None and file_stamp(piece.path) != piece.stamp:
        raise TenflangError("the file changed after the run began (its time or size differs), "
                            "so its chunks would mix two versions of the data; run again on "
                            "data that stays as it is", Location(piece.path))
    arrays = {n: a for n, a in _read_piece(piece, allow_nan, indices or {}, dtype).items()
              if a is not None}
    found = {n: a.shape[1:] for n, a in arrays.items()}
    if found != {n: tuple(s) for n, s in shapes.items()}:
        raise TenflangError(f"the file's variables {_describe_shapes(found)} differ from "
                            f"the data set's {_describe_shapes(shapes)}", Location(piece.path))
    rows = len(next(iter(arrays.values()))) if arrays else 0
    if piece.rows is not None and rows != piece.rows:
        raise TenflangError(f"the file has {rows} examples, {piece.rows} expected (was it "
                            "changed after the manifest was written?)", Location(piece.path))
    return arrays


def _read_piece(piece: Piece, allow_nan: bool, indices: dict, dtype: str) -> dict:
    """The arrays of a whole shard, or rows [start, stop) of a single data
    file, which stays in `_FILE` (one file at a time, keyed by its path,
    mtime and size) while the worker cuts it into chunks.  The index check
    runs on the file as read, so that its message names the file's own line
    or example (a row of the shard, or of the whole file), never a row of
    the chunk or of a batch.  So does the check of the values a float32 run
    holds (`Examples.check_fits`)."""
    if piece.start is None:
        return _checked(load_examples(piece.path, allow_nan=allow_nan, dtype=dtype), indices)
    stat = os.stat(piece.path)
    key = (piece.path, allow_nan, tuple(sorted(indices.items())), dtype, stat.st_mtime_ns,
           stat.st_size)
    if key not in _FILE:
        _FILE.clear()
        _FILE[key] = _checked(load_examples(piece.path, allow_nan=allow_nan, dtype=dtype),
                              indices)
    return {n: None if a is None else a[piece.start:piece.stop] for n, a in _FILE[key].items()}


def _checked(examples: Examples, indices: dict) -> dict:
    """The arrays of `examples` once its `indices` are checked."""
    examples.check_indices(indices)
    return examples.arrays


def forget_file() -> None:
    """Drop the single data file a worker kept while cutting it into chunks."""
    _FILE.clear()
