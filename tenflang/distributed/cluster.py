"""Data-parallel full-batch training on a Dask cluster (dask.distributed).

    with connect("local:2") as client:                     # or "tcp://host:8786"
        data = describe("shards/", chunk_size=None)        # reads no examples
        data.validate(signature(gcp).inputs)
        result = train(client, gcp, data, TrainConfig(lr=0.5, max_iters=100))

Conventions:

* DATA is described by `tenflang.shards.describe` (importable from here
  too) as chunks, tuples of `Piece`s that the workers load themselves
  (`load_chunk`): the client never sends examples, and Dask loads a dead
  worker's chunks again.
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
import logging
import os
import re
import time
import uuid

import numpy as np

from ..errors import RunFailure, TenflangError
from ..lang.ast import Program
from ..lang.printer import print_program
from ..data.shards import Dataset, describe, forget_file, load_chunk  # noqa: F401 (describe: API)
from ..training.loop import (Interrupted, State, TrainConfig, TrainResult, descend, gradient_plan,
                    host_state, signature, start_state)

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
        from distributed import Client
    except ImportError:
        raise TenflangError("--scheduler needs dask.distributed, which is not installed; "
                            "pip install 'tenflang[dask]'") from None
    with contextlib.ExitStack() as stack:
        try:
            if kind == "local":
                client = _start_local(stack, value)
            else:
                client = Client(value, timeout=timeout)
                stack.callback(_quietly, client.close)
        except Exception as err:      # refused, timed out, or not a Dask scheduler at all
            raise RunFailure(_cannot_connect(kind, value, timeout, err)) from None
        if kind != "local":
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (OSError, asyncio.TimeoutError, TimeoutError):
                raise RunFailure(f"the Dask scheduler at {value} has no workers (none joined "
                                 f"within {timeout:g} s); start some with: dask worker "
                                 f"{value}") from None
        yield client


def _start_local(stack: contextlib.ExitStack, count: int):
    """A Client of a new LocalCluster of `count` single-threaded worker
    processes that ignore Ctrl-C, both closed (quietly) by `stack`."""
    import dask
    from distributed import Client, LocalCluster
    stack.enter_context(_hide_main_script())
    stack.enter_context(dask.config.set({MMAP_KEY: MMAP_THRESHOLD}))
    # no dashboard, its HTTP server on a free port; worker logs off: the
    # client reports what matters (a user error raised on a worker)
    cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.CRITICAL,
                           scheduler_kwargs={"dashboard": False,
                                             "dashboard_address": "127.0.0.1:0"})
    stack.callback(_quietly, cluster.close)
    client = Client(cluster)
    stack.callback(_quietly, client.close)
    ignore_ctrl_c(client)
    return client


def _cannot_connect(kind: str, value, timeout: float, err: Exception) -> str:
    """Why `connect` failed, for a `RunFailure`: `kind` and `value` as from
    `parse_scheduler`, `err` what starting or reaching the cluster raised."""
    if kind == "local":
        what = f"cannot start a local Dask cluster of {value} workers"
    elif isinstance(err, (OSError, TimeoutError, asyncio.TimeoutError)):
        what = f"cannot reach the Dask scheduler at {value} within {timeout:g} s"
    else:
        what = f"what answers at {value} does not talk like a Dask scheduler"
    return f"{what} ({type(err).__name__}: {str(err)[:200]})"


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
    its own.  The workers need nothing from that script (their tasks are
    functions of the tenflang package), so its path is hidden while the local
    cluster lives."""
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


def ignore_ctrl_c(client) -> None:
    """Make the workers of `client` ignore SIGINT (local workers only: Ctrl-C
    reaches the whole terminal process group, and the client, which stops
    cleanly after the step as in a local run, then shuts them down itself).
    The plugin class is made here, not at import, so that importing this
    module does not import dask.distributed; Dask pickles it by value."""
    from distributed import WorkerPlugin

    class IgnoreCtrlC(WorkerPlugin):
        def setup(self, worker):
            import signal
            import threading
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    client.register_plugin(IgnoreCtrlC(), name="tenflang-ignore-ctrl-c")


# ----------------------------------------------------------------------------- worker side

_PLANS = {}       # GCP digest -> (plan, signature), per worker process


def plan_for(digest: str, text: str):
    """(plan, signature) of the GCP `text` whose sha256 is `digest`, made once
    per worker process and kept for the GCP last asked for (runs on a worker)."""
    if digest not in _PLANS:
        from ..lang import parse
        gcp = parse(text, "<gcp>")
        sig = signature(gcp)
        _PLANS.clear()
        _PLANS[digest] = (gradient_plan(gcp, sig), sig)
    return _PLANS[digest]


def chunk_sums(chunk: dict, step: tuple) -> dict:
    """{"rows", "loss", "grads"}: sums over the chunk's examples (runs on a
    worker; the sums come back in host memory as float64)."""
    from ..interp.device import to_host
    from ..gpu import run_on
    digest, text, weights, dtype = step
    plan, sig = plan_for(digest, text)
    xp = _module_of(next(iter(chunk.values()))) if chunk else np
    # on a GPU worker the plan's fused groups run as CUDA kernels
    values = run_on(xp)(plan, {**chunk, **weights}, xp=xp, dtype=dtype, reduce="sum")
    rows = len(next(iter(chunk.values()))) if chunk else 1
    return {"rows": rows,
            "loss": sum(float(values[name]) for name in sig.losses),
            "grads": {w: np.asarray(to_host(values[g]), dtype=np.float64)
                      for w, g in sig.gradients.items()}}


def _module_of(array):
    """numpy or cupy, whichever `array` belongs to (cupy is imported only for
    a chunk on a GPU worker)."""
    if isinstance(array, np.ndarray):
        return np
    import cupy
    return cupy


def _identity(value):
    """`value`: a task whose result is the step's weights, so that workers
    copy them from each other (see the module docstring)."""
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
