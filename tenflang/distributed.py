"""Data-parallel full-batch training on a Dask cluster (dask.distributed).

    with connect("local:2") as client:                     # or "tcp://host:8786"
        data = describe("shards/", chunk_size=None)        # reads no examples
        data.validate(signature(gcp).inputs)
        result = train(client, gcp, data, TrainConfig(lr=0.5, max_iters=100))

Conventions:

* DATA is a directory of ``.npz`` shards (``tenflang shard`` makes one, with a
  ``manifest.json``; without a manifest every ``*.npz`` in it, in name order)
  or a single data file cut into chunks of `chunk_size` rows; with
  `chunk_size`, consecutive shards are combined into chunks of at most that
  many rows.  A *chunk* is a tuple of `Piece`s (absolute path, row range):
  workers load it themselves, so every path must name the same file on every
  worker (shared storage) and the client never sends examples.  `load_chunk` is a pure function of its
  arguments: when a worker dies, Dask recomputes the chunks it held.
* Chunks stay in worker memory for the whole run (the client holds their
  futures).  One iteration:
  1. the weights (with the GCP's text) go out as one small task whose result
     they are; workers copy it from each other as their chunks need it.  Not
     `scatter`: scattered data cannot be recomputed, and a scatter to a
     worker that has just died hangs;
  2. `chunk_sums` runs on every chunk where it lives: the SUMS over its
     examples of each weight's gradient and of the loss, by the batched
     interpreter (`run_plan(..., reduce="sum")`);
  3. the sums are added in a fixed tree, in chunk order, so the total does not
     depend on which worker ran what: groups of FAN_IN by `add_sums` tasks on
     the cluster while more than FAN_IN remain, the last few on the client;
  4. the client divides by the example count and `descend` takes the
     optimizer step, so progress, checkpoints, divergence and SIGINT behave
     as in a single-process run.
  Full batch only: one iteration is one step over every example.
* Results equal the single-process run's to float64 round-off (the sums are
  split differently).  Worker computation is in `cfg.dtype` on the array
  module each worker picks for `device` (cupy where it has a GPU and device is
  auto or gpu); the optimizer runs in numpy on the client.
* Errors: a bad option or data file is a `TenflangError` (exit 2), also when a
  worker finds it (the error pickles with its location).  A cluster that
  cannot be reached is a `RunFailure` (exit 1); one that loses every worker,
  or a chunk whose workers keep dying, stops training with `Interrupted`
  (exit 1) carrying the last good weights.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import os
import re
import time
import uuid
import zipfile
from dataclasses import dataclass

import numpy as np

from .errors import Location, RunFailure, TenflangError
from .parser.ast import Program
from .parser.printer import print_program
from .train import (Interrupted, State, TrainConfig, TrainResult, descend, host_state,
                    signature, start_state)

MANIFEST = "manifest.json"
SHARD_FORMAT = "shard-{:05d}.npz"
MANIFEST_FORMAT = "tenflang-shards"
DEFAULT_CHUNK_ROWS = 100_000
FAN_IN = 8                       # partial sums added per add_sums task
RETRIES = 3                      # times an iteration is retried after a cluster failure
# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_ set, which turns off
# glibc's adaptive mmap threshold: every temporary array over 128 KiB is then a
# fresh mmap, page-faulted in, and the batched interpreter ran ~1.5-2x slower.
# Local workers get the largest fixed threshold glibc takes (docs/distributed.md
# shows the same for remote workers).
MMAP_KEY = "distributed.nanny.pre-spawn-environ.MALLOC_MMAP_THRESHOLD_"
MMAP_THRESHOLD = 32 * 1024 * 1024
_SCHEDULER_RE = re.compile(r"[a-z][a-z0-9+]*://\S+|[^\s/:]+:\d+")   # tcp://host:8786, host:8786


class ClusterFailure(RunFailure):
    """The cluster lost what an iteration needed and could not recover."""


# ----------------------------------------------------------------------------- the scheduler

def parse_scheduler(text: str) -> tuple[str, int | str]:
    """("local", worker count) for ``local:N`` (``local``: one per core), else
    ("address", text) for a scheduler address such as ``tcp://host:8786``."""
    text = text.strip()
    if text == "local" or text.startswith("local:"):
        count = text[6:] if text != "local" else str(os.cpu_count() or 1)
        if not count.isdigit() or int(count) < 1:
            raise TenflangError(f"--scheduler {text}: local:N needs a worker count N >= 1")
        return "local", int(count)
    if not _SCHEDULER_RE.fullmatch(text):
        raise TenflangError(f"--scheduler {text!r}: expected a Dask scheduler address such as "
                            "tcp://HOST:8786, or local:N to start N local worker processes")
    return "address", text


@contextlib.contextmanager
def connect(spec: str, timeout: float = 10.0):
    """A `distributed.Client` for `spec` (see `parse_scheduler`), closed on exit;
    ``local:N`` starts (and stops) a LocalCluster of N single-threaded worker
    processes.  Waits up to `timeout` seconds for a remote scheduler and for
    one of its workers."""
    kind, value = parse_scheduler(spec)
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise TenflangError("--scheduler needs dask.distributed, which is not installed; "
                            "pip install 'tenflang[dask]'") from None
    with contextlib.ExitStack() as stack:
        try:
            if kind == "local":
                stack.enter_context(_hide_main_script())
                stack.enter_context(dask.config.set({MMAP_KEY: MMAP_THRESHOLD}))
                # no dashboard, its HTTP server on a free port; worker logs off: the
                # client reports what matters (a user error raised on a worker)
                cluster = LocalCluster(n_workers=value, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.CRITICAL,
                                       scheduler_kwargs={"dashboard": False,
                                                         "dashboard_address": "127.0.0.1:0"})
                stack.callback(_quietly, cluster.close)
                client = Client(cluster)
                stack.callback(_quietly, client.close)
                client.register_plugin(IgnoreCtrlC(), name="tenflang-ignore-ctrl-c")
            else:
                client = Client(value, timeout=timeout)
                stack.callback(_quietly, client.close)
        except Exception as err:      # refused, timed out, or not a Dask scheduler at all
            if kind == "local":
                what = f"cannot start a local Dask cluster of {value} workers"
            elif isinstance(err, (OSError, TimeoutError, asyncio.TimeoutError)):
                what = f"cannot reach the Dask scheduler at {value} within {timeout:g} s"
            else:
                what = f"what answers at {value} does not talk like a Dask scheduler"
            raise RunFailure(f"{what} ({type(err).__name__}: {str(err)[:200]})") from None
        if kind != "local":
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (OSError, asyncio.TimeoutError, TimeoutError):
                raise RunFailure(f"the Dask scheduler at {value} has no workers (none joined "
                                 f"within {timeout:g} s); start some with: dask worker "
                                 f"{value}") from None
        yield client


def _quietly(close) -> None:
    """Shutting down must not hide why training stopped (a lost worker may make
    closing complain)."""
    with contextlib.suppress(Exception):
        close()


@contextlib.contextmanager
def _hide_main_script():
    """Local workers are spawned processes, and Python re-runs the parent's
    main script in each one unless it is guarded by `if __name__ ==
    "__main__"` (bin/tfweightcalc is not): the child would start a cluster of
    its own.  The workers need nothing from that script (their tasks are this
    module's functions), so its path is hidden while the local cluster lives."""
    import sys
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if path is None or getattr(main, "__spec__", None) is not None:
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def _plugin_base():
    try:
        from distributed import WorkerPlugin
        return WorkerPlugin
    except ImportError:          # only used once dask.distributed imports
        return object


class IgnoreCtrlC(_plugin_base()):
    """Local workers ignore SIGINT: Ctrl-C reaches the whole terminal process
    group, and the client (which stops cleanly after the step, as in a local
    run) then shuts them down itself.  Not used for remote workers."""

    def setup(self, worker):
        import signal
        import threading
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)


# ----------------------------------------------------------------------------- the data

@dataclass(frozen=True)
class Piece:
    """What one file gives a chunk: a whole shard (start is None) or rows
    [start, stop) of a data file.  `rows`: the example count expected."""
    path: str
    start: int | None = None
    stop: int | None = None
    rows: int | None = None


@dataclass
class Dataset:
    """DATA as chunks (each a tuple of consecutive `Piece`s), with the
    per-example shape of every variable it binds."""
    path: str
    chunks: list
    shapes: dict
    rows: int | None = None

    def chunk_rows(self) -> list:
        return [sum(piece.rows for piece in chunk) for chunk in self.chunks]

    def validate(self, inputs: dict) -> None:
        """Same rule and messages as a single-process run (`Examples.validate`)."""
        from .vectors import Examples
        arrays = {n: np.empty((0,) + tuple(s)) for n, s in self.shapes.items()}
        Examples(self.path, arrays, None).validate(inputs, required=set(inputs))


def describe(path: str, chunk_size: int | None = None, allow_nan: bool = False) -> Dataset:
    """The chunks of DATA: a single file cut into chunks of `chunk_size` rows
    (default DEFAULT_CHUNK_ROWS), or a shard directory whose consecutive shards
    are combined into chunks of at most `chunk_size` rows (default: one chunk
    per shard; a bigger shard stays one chunk).  Reads a directory's manifest
    or the .npz headers, and a single .npz file's headers; a single text or
    CSV file is read (and checked) here, since its example count is not known
    otherwise."""
    if os.path.isdir(path):
        data = _describe_directory(path)
        if chunk_size:
            data.chunks = combine([piece for chunk in data.chunks for piece in chunk], chunk_size)
        return data
    from . import vectors
    size = chunk_size or DEFAULT_CHUNK_ROWS
    full = os.path.abspath(path)
    if path.lower().endswith(".npz"):
        shapes, rows = npz_header(path)
    else:
        examples = vectors.load_examples(path, allow_nan=allow_nan)
        shapes = {n: a.shape[1:] for n, a in examples.arrays.items() if a is not None}
        rows = len(examples)
    chunks = [(Piece(full, a, min(a + size, rows), min(a + size, rows) - a),)
              for a in range(0, rows, size)]
    return Dataset(path, chunks, shapes, rows)


def combine(pieces: list, limit: int) -> list:
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
    manifest = os.path.join(path, MANIFEST)
    if os.path.exists(manifest):
        meta = read_manifest(manifest)
        chunks = [(Piece(os.path.abspath(os.path.join(path, s["file"])), rows=s["rows"]),)
                  for s in meta["shards"]]
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
    chunks, shapes, total = [], None, 0
    for name in files:
        shard = os.path.join(path, name)
        these, rows = npz_header(shard)
        if shapes is None:
            shapes, first = these, shard
        elif these != shapes:
            raise TenflangError(f"the shard's variables {_describe_shapes(these)} differ from "
                                f"{_describe_shapes(shapes)} in {first}", Location(shard))
        chunks.append((Piece(os.path.abspath(shard), rows=rows),))
        total += rows
    return Dataset(path, chunks, shapes, total)


def _describe_shapes(shapes: dict) -> str:
    return "{" + ", ".join(f"{n} {list(s)}" for n, s in shapes.items()) + "}"


def npz_header(path: str) -> tuple[dict, int]:
    """(per-example shape by name, example count) of a data .npz file, from the
    array headers only."""
    shapes, lengths = {}, set()
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.filename.endswith(".npy"):
                    continue
                with archive.open(info) as f:
                    version = np.lib.format.read_magic(f)
                    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                            else np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(f)
                if dtype.kind not in "biuf":
                    raise ValueError(f"array '{info.filename[:-4]}' holds {dtype} values")
                if not shape:
                    raise ValueError(f"array '{info.filename[:-4]}' has no example axis")
                shapes[info.filename[:-4]] = tuple(shape[1:])
                lengths.add(shape[0])
    except OSError as err:
        raise TenflangError(f"cannot read data file: {err.strerror or err}",
                            Location(path)) from None
    except Exception as err:       # zipfile and numpy raise many kinds for a bad file
        raise TenflangError(f"not a valid data .npz file: {err}", Location(path)) from None
    if len(lengths) > 1:
        raise TenflangError(f"the arrays of a data .npz file need one common leading example "
                            f"axis; their lengths: {sorted(lengths)}", Location(path))
    if not lengths or 0 in lengths:
        raise TenflangError("no examples in file", Location(path))
    return shapes, lengths.pop()


def read_manifest(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
        if meta.get("format") != MANIFEST_FORMAT:
            raise ValueError(f"its format is {meta.get('format')!r}, not {MANIFEST_FORMAT!r}")
        shards = [{"file": str(s["file"]), "rows": int(s["rows"])} for s in meta["shards"]]
        variables = {str(n): [int(d) for d in s] for n, s in meta["variables"].items()}
        rows = int(meta["rows"])
    except OSError as err:
        raise TenflangError(f"cannot read the shard manifest: {err.strerror or err}",
                            Location(path)) from None
    except Exception as err:
        raise TenflangError(f"not a tenflang shard manifest ({type(err).__name__}: {err})",
                            Location(path)) from None
    if not shards:
        raise TenflangError("the manifest lists no shards", Location(path))
    return {"shards": shards, "variables": variables, "rows": rows}


def manifest(source: str, shards: list, shapes: dict) -> dict:
    """What `tenflang shard` writes next to its shards: [(file, rows)]."""
    return {"format": MANIFEST_FORMAT, "version": 1, "source": os.path.basename(source),
            "rows": sum(rows for _, rows in shards),
            "variables": {n: list(s) for n, s in shapes.items()},
            "shards": [{"file": f, "rows": rows} for f, rows in shards]}


# ----------------------------------------------------------------------------- worker side

_FILE = {}        # the last single data file a worker read: {key: arrays}
_PLANS = {}       # GCP digest -> (plan, signature), per worker process


def load_chunk(pieces: tuple, shapes: dict, dtype: str, device: str, allow_nan: bool) -> dict:
    """The arrays of one chunk, in worker memory (runs on a worker)."""
    from .gpu import array_module
    parts = [load_piece(piece, shapes, allow_nan) for piece in pieces]
    xp = array_module(device)
    return {n: xp.asarray(np.array(parts[0][n] if len(parts) == 1 else
                                   np.concatenate([part[n] for part in parts]), dtype=dtype))
            for n in parts[0]}


def load_piece(piece: Piece, shapes: dict, allow_nan: bool) -> dict:
    from . import vectors
    if not os.path.isfile(piece.path):
        import socket
        raise TenflangError(f"worker {socket.gethostname()} (pid {os.getpid()}) cannot see this "
                            "file: every worker must read the data at the same path as the "
                            "client (shared storage)", Location(piece.path))
    if piece.start is None:
        arrays = vectors.load_examples(piece.path, allow_nan=allow_nan).arrays
    else:
        stat = os.stat(piece.path)
        key = (piece.path, allow_nan, stat.st_mtime_ns, stat.st_size)
        if key not in _FILE:
            _FILE.clear()
            _FILE[key] = vectors.load_examples(piece.path, allow_nan=allow_nan).arrays
        arrays = {n: None if a is None else a[piece.start:piece.stop]
                  for n, a in _FILE[key].items()}
    arrays = {n: a for n, a in arrays.items() if a is not None}
    found = {n: a.shape[1:] for n, a in arrays.items()}
    if found != {n: tuple(s) for n, s in shapes.items()}:
        raise TenflangError(f"the file's variables {_describe_shapes(found)} differ from "
                            f"the data set's {_describe_shapes(shapes)}", Location(piece.path))
    rows = len(next(iter(arrays.values()))) if arrays else 0
    if piece.rows is not None and rows != piece.rows:
        raise TenflangError(f"the file has {rows} examples, {piece.rows} expected (was it "
                            "changed after the manifest was written?)", Location(piece.path))
    return arrays


def forget_file() -> None:
    """Drop the single data file a worker kept while cutting it into chunks."""
    _FILE.clear()


def plan_for(digest: str, text: str):
    if digest not in _PLANS:
        from .interp import make_plan
        from .parser import parse
        gcp = parse(text, "<gcp>")
        sig = signature(gcp)
        plan = make_plan(gcp, set(sig.inputs) | set(sig.weights),
                         list(sig.gradients.values()) + list(sig.losses))
        _PLANS.clear()
        _PLANS[digest] = (plan, sig)
    return _PLANS[digest]


def chunk_sums(chunk: dict, step: tuple) -> dict:
    """{"rows", "loss", "grads"}: sums over the chunk's examples (runs on a
    worker; the sums come back in host memory as float64)."""
    from .gpu import to_host
    from .interp import run_plan
    digest, text, weights, dtype = step
    plan, sig = plan_for(digest, text)
    xp = _module_of(next(iter(chunk.values()))) if chunk else np
    values = run_plan(plan, {**chunk, **weights}, xp=xp, dtype=dtype, reduce="sum")
    rows = len(next(iter(chunk.values()))) if chunk else 1
    return {"rows": rows,
            "loss": sum(float(values[name]) for name in sig.losses),
            "grads": {w: np.asarray(to_host(values[g]), dtype=np.float64)
                      for w, g in sig.gradients.items()}}


def _module_of(array):
    if isinstance(array, np.ndarray):
        return np
    import cupy       # a chunk on a GPU worker
    return cupy


def _identity(value):
    return value


def add_sums(*parts: dict) -> dict:
    """The sum of partial sums, added in argument order."""
    total = {"rows": parts[0]["rows"], "loss": parts[0]["loss"],
             "grads": {w: g.copy() for w, g in parts[0]["grads"].items()}}
    for part in parts[1:]:
        total["rows"] += part["rows"]
        total["loss"] += part["loss"]
        for w, g in part["grads"].items():
            total["grads"][w] += g
    return total


# ----------------------------------------------------------------------------- client side

def persist_chunks(client, data: Dataset, dtype: str, device: str, allow_nan: bool,
                   waiting=None) -> list:
    """Submit one load task per chunk and wait for all; returns their futures.
    A load error (a bad shard) is raised here."""
    run = uuid.uuid4().hex[:8]
    futures = [client.submit(load_chunk, chunk, data.shapes, dtype, device, allow_nan,
                             key=f"tenflang-chunk-{run}-{i:05d}", pure=True)
               for i, chunk in enumerate(data.chunks)]
    (waiting or Waiting(client))(futures)
    for future, chunk in zip(futures, data.chunks):
        if future.status != "error":
            continue
        try:
            future.result()          # raises the worker's error (a TenflangError pickles)
        except MemoryError:
            raise ClusterFailure(f"a worker ran out of memory loading {chunk[0].path}: use "
                                 "smaller chunks or more workers") from None
        except cluster_errors() as err:
            raise ClusterFailure(f"loading {chunk[0].path} failed: its workers died "
                                 f"(out of memory?) ({type(err).__name__}: {err})") from None
    if any(piece.start is not None for chunk in data.chunks for piece in chunk):
        client.run(forget_file, on_error="ignore")
    return futures


class Stopped(Exception):
    """`should_stop()` turned true while the client waited on the cluster."""


class Waiting:
    """Waits for futures, checking twice a second whether to stop (Ctrl-C
    sets the flag but cannot break a blocking wait) and whether the cluster
    has been without workers for `worker_timeout` seconds (Dask would wait
    for one forever)."""

    def __init__(self, client, should_stop=lambda: False, worker_timeout: float = 60.0):
        self.client, self.should_stop, self.worker_timeout = client, should_stop, worker_timeout

    def __call__(self, futures: list) -> None:
        from distributed import wait
        alone_since = None
        while True:
            try:
                wait(futures, timeout=0.5)
                return
            except TimeoutError:
                pass
            if self.should_stop():
                raise Stopped()
            if self.client.nthreads():
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > self.worker_timeout:
                raise ClusterFailure(f"the Dask cluster has had no workers for "
                                     f"{self.worker_timeout:g} s")


def tree_sum(client, parts: list, waiting=None) -> dict:
    """The sum of the partial sums `parts` (futures): groups of FAN_IN added by
    add_sums tasks on the cluster while more than FAN_IN remain, the last ones
    fetched and added here; a fixed tree, in chunk order."""
    while len(parts) > FAN_IN:
        parts = [client.submit(add_sums, *parts[i:i + FAN_IN], pure=False)
                 if len(parts[i:i + FAN_IN]) > 1 else parts[i]
                 for i in range(0, len(parts), FAN_IN)]
    (waiting or Waiting(client))(parts)
    return add_sums(*client.gather(parts))


def cluster_errors() -> tuple:
    """The exceptions that mean the cluster, not the computation, failed."""
    from distributed import KilledWorker
    from distributed.comm import CommClosedError
    return (KilledWorker, CommClosedError, OSError, TimeoutError, asyncio.TimeoutError,
            asyncio.CancelledError, concurrent.futures.CancelledError)


def dask_gradient(client, gcp: Program, sig, chunks: list, cfg: TrainConfig, waiting=None):
    """`gradient(weights, iteration) -> (mean gradient by weight, mean loss)`
    over every chunk, for `descend` (full batch: `iteration` is not used)."""
    waiting = waiting or Waiting(client)
    text = print_program(gcp)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    failures = cluster_errors()

    def once(weights):
        host = {n: np.array(w, dtype=cfg.dtype) for n, w in weights.items()}
        step = client.submit(_identity, (digest, text, host, cfg.dtype), pure=False)
        parts = [client.submit(chunk_sums, chunk, step, pure=False) for chunk in chunks]
        return tree_sum(client, parts, waiting)

    def gradient(weights: dict, iteration: int):
        for attempt in range(RETRIES + 1):
            try:
                total = once(weights)
                break
            except MemoryError:
                raise ClusterFailure("a worker ran out of memory: use smaller chunks or more "
                                     "workers") from None
            except failures as err:
                if attempt == RETRIES:
                    raise ClusterFailure(f"the Dask cluster failed ({type(err).__name__}: "
                                         f"{err})") from None
                try:
                    client.wait_for_workers(1, timeout=waiting.worker_timeout)
                except Exception:
                    raise ClusterFailure(f"the Dask cluster lost every worker "
                                         f"({type(err).__name__}: {err})") from None
        n = total["rows"]
        grads = {w: (g / n).astype(cfg.dtype, copy=False) for w, g in total["grads"].items()}
        return grads, total["loss"] / n
    return gradient


def train(client, gcp: Program, data: Dataset, cfg: TrainConfig, device: str = "auto",
          allow_nan: bool = False, init: dict | None = None, resume: State | None = None,
          worker_timeout: float = 60.0, **loop) -> TrainResult:
    """`tenflang.train.train` with the gradient computed on the cluster behind
    `client` (full batch; see the module docstring).  `loop` passes progress,
    should_stop, checkpoint and checkpoint_every to `descend`; should_stop is
    also checked while waiting on the cluster.  A cluster without workers for
    `worker_timeout` seconds stops training (`Interrupted`)."""
    if cfg.batch_size:
        raise TenflangError("--batch-size is not supported with --scheduler: distributed "
                            "training is full-batch only")
    if cfg.val_fraction:
        raise TenflangError("--val-fraction is not supported with --scheduler; evaluate the "
                            "learned weights on held-out data with tfevaluate")
    started = time.perf_counter()
    sig = signature(gcp)
    state = start_state(sig, cfg, np, init, resume)
    waiting = Waiting(client, loop.get("should_stop") or (lambda: False), worker_timeout)
    try:
        chunks = persist_chunks(client, data, cfg.dtype, device, allow_nan, waiting)
        loss, norm, reason = descend(state, dask_gradient(client, gcp, sig, chunks, cfg, waiting),
                                     cfg, np, **loop)
    except Stopped:
        raise Interrupted(f"interrupted at iteration {state.iteration}",
                          host_state(state)) from None
    except ClusterFailure as failure:
        raise Interrupted(f"{failure.message}; training stopped at iteration "
                          f"{state.iteration}", host_state(state)) from None
    final = host_state(state)
    return TrainResult(final.weights, state.iteration, loss, norm, reason,
                       time.perf_counter() - started, final.history, None, final)

