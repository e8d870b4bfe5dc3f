"""Data-parallel training on a Dask cluster (dask.distributed).

    with connect("local:2") as client:                     # or "tcp://host:8786"
        data = describe("shards/", chunk_size=None)        # reads no examples
        result = train(gcp, data, TrainConfig(lr=0.5, max_iters=100),
                       ClusterGradients(client))           # tenflang.training.loop.train

This module connects (`connect`, a LocalCluster for ``local:N``);
`ClusterGradients` is tenflang.distributed.descent's, the tasks the workers run are in
tenflang.distributed.tasks.  Conventions:

* DATA is described by `tenflang.data.shards.describe` (importable from here
  too) as chunks, tuples of `Piece`s that the workers load themselves
  (`load_chunk`): the client never sends examples, and Dask loads a dead
  worker's chunks again.
* Chunks stay in worker memory for the whole run (the client holds their
  futures).  One round is ONE round trip to the cluster:
  1. the weights (with the GCP's text) go out as one small task whose result
     they are; workers copy it from each other as their chunks need it.  Not
     `scatter`: scattered data cannot be recomputed, and a scatter to a
     worker that has just died hangs;
  2. one task runs on every chunk where it lives: the SUMS over its batch of
     each weight's gradient and of the loss (`chunk_sums`, a synchronous
     step), or K optimizer steps on the chunk alone (`local_steps`,
     ``--sync-every K``) returning its weights and optimizer slots scaled by
     its batch share;
  3. the sums are added in a fixed tree, in chunk order, so the total does not
     depend on which worker ran what: groups of FAN_IN by `add_sums` tasks on
     the cluster while more than FAN_IN remain, the last few on the client;
  4. the client divides by the batch size and `descend` takes the optimizer
     step (or adopts the averaged weights), so progress, checkpoints,
     divergence and SIGINT behave as in a single-process run.
* Mini-batches (`batch_size` below the example count) are drawn chunk by
  chunk (tenflang.training.sampling): each chunk gives its share of the
  batch, from its own seeded order.  A run is a function of the seed and
  the chunking, not of the workers: bit-identical on 1 or 100 workers, or
  when a worker dies on the way.
* Results equal the single-process run of the same batches to float64
  round-off (the sums are split differently).  Worker computation is in
  `cfg.dtype` on the array module each worker picks for `device` (cupy where
  it has a GPU and device is auto or gpu); the client's optimizer runs in
  numpy.
* Errors: a bad option or data file is a `TenflangError` (exit 2), also when a
  worker finds it (the error pickles with its location).  A cluster that
  cannot be reached is a `RunFailure` (exit 1); one that loses every worker,
  or a chunk whose workers keep dying, stops training with `Interrupted`
  (exit 1) carrying the last good weights.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging

from tenflang.base import limits
from tenflang.base.errors import RunFailure, TenflangError
from .address import parse_scheduler, within
from tenflang.data.shards import describe  # noqa: F401 (API)
from .descent import ClusterFailure, ClusterGradients  # noqa: F401 (API)

# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_ set, which turns off
# glibc's adaptive mmap threshold: every temporary array over 128 KiB is then a
# fresh mmap, page-faulted in, and the batched interpreter ran ~1.5-2x slower.
# Local workers get the largest fixed threshold glibc takes (docs/distributed.md
# shows the same for remote workers).
MMAP_KEY = "distributed.nanny.pre-spawn-environ.MALLOC_MMAP_THRESHOLD_"
MMAP_THRESHOLD = 32 * 1024 * 1024


# ----------------------------------------------------------------------------- the scheduler

@contextlib.contextmanager
def connect(spec: str, timeout: float = 10.0, should_stop=lambda: False):
    """A `distributed.Client` for `spec` (see `parse_scheduler`), closed on exit;
    ``local:N`` starts (and stops) a LocalCluster of N single-threaded worker
    processes.  Waits up to `timeout` seconds for a remote scheduler and for
    one of its workers, and only while `should_stop()` is false (`within`)."""
    kind, value = parse_scheduler(spec)
    try:
        from distributed import Client
    except ImportError:
        raise TenflangError("--scheduler needs dask.distributed, which is not installed; "
                            "pip install 'tenflang[dask]'") from None
    if kind == "local":
        check_open_files(value)
    else:
        check_tls_settings(value)
    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet_client_logs())
        try:
            if kind == "local":
                client = within(limits.LOCAL_CLUSTER_START_S, lambda: _start_local(stack, value),
                                should_stop, "the local cluster to start")
            else:
                client = within(timeout, lambda: Client(value, timeout=timeout),
                                should_stop, f"the Dask scheduler at {value}", slack=2)
                stack.callback(_quietly, client.close)
        except RunFailure:
            raise
        except Exception as err:      # refused, timed out, or not a Dask scheduler at all
            raise RunFailure(_cannot_connect(kind, value, timeout, err)) from None
        if kind != "local":
            try:
                within(timeout, lambda: client.wait_for_workers(1, timeout=timeout),
                       should_stop, f"a worker of the Dask scheduler at {value}", slack=2)
            except (OSError, asyncio.TimeoutError, TimeoutError):
                raise RunFailure(f"the Dask scheduler at {value} has no workers (none joined "
                                 f"within {timeout:g} s); start some with: dask worker "
                                 f"{value}") from None
            check_tenflang_importable(client, value)
        yield client


def check_tls_settings(address: str) -> None:
    """A tls:// or wss:// address needs the client's certificate settings in
    Dask's configuration (distributed.comm.tls); without them Dask fails with
    an internal TypeError, where this says what to set (exit 2)."""
    scheme, separator, _ = address.partition("://")
    if not separator or scheme not in ("tls", "wss"):
        return
    from distributed.security import Security
    if Security().get_connection_args("client").get("ssl_context") is None:
        raise TenflangError(f"--scheduler {address!r}: TLS needs Dask's TLS settings "
                            "(distributed.comm.tls: ca-file, and client cert and key, in Dask's "
                            "configuration or DASK_DISTRIBUTED__COMM__TLS__... variables), and "
                            "none are set; see docs/distributed.md")


def check_tenflang_importable(client, address: str) -> None:
    """A scheduler or worker without TenFlang cannot read its tasks: the scheduler
    failed with Dask's traceback, a worker died at the first task and the run
    waited a minute for workers."""
    def has_tenflang() -> bool:       # nested: sent by value, read without TenFlang
        import importlib.util
        return importlib.util.find_spec("tenflang") is not None
    try:
        missing = [] if client.run_on_scheduler(has_tenflang) else [f"the scheduler {address}"]
        missing += [f"the worker {w}" for w, ok in client.run(has_tenflang).items() if not ok]
    except Exception:       # noqa: BLE001 - a cluster that cannot answer fails later, clearly
        return
    if missing:
        raise TenflangError(f"{', '.join(missing)} cannot import TenFlang: install the "
                            "TenFlang of this client where the scheduler and every worker run "
                            "(docs/distributed.md)")


# the loggers of the client and of the local cluster's scheduler (in this process)
QUIET = ("distributed", "tornado", "asyncio")


@contextlib.contextmanager
def _quiet_client_logs():
    """The client's own logs off while it runs: a scheduler that dies makes it
    log tracebacks, and a local scheduler short of file descriptors logs one per
    connection it cannot accept (hundreds of thousands a minute), where the run
    reports the failure as one message."""
    for name in QUIET:                         # made, should Dask not have made them yet
        logging.getLogger(name)
    loggers = [logger for name, logger in logging.root.manager.loggerDict.items()
               if name.split(".")[0] in QUIET and isinstance(logger, logging.Logger)]
    levels = [logger.level for logger in loggers]     # Dask's config sets some of its own
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def check_open_files(count: int) -> None:
    """A local cluster of `count` workers needs file descriptors for its
    connections: below `limits.LOCAL_CLUSTER_FILES` (+ 16 a worker) its
    scheduler spins on connections it cannot accept, and never starts."""
    import resource
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = limits.LOCAL_CLUSTER_FILES + 16 * count
    if soft != resource.RLIM_INFINITY and soft < need:
        raise TenflangError(f"--scheduler local:{count} needs at least {need} open files, and "
                            f"this process may open {soft} (ulimit -n); raise the limit "
                            f"(ulimit -n {max(need, 1024)})")


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
    """Make the workers of `client` ignore SIGINT and SIGHUP (local workers
    only: Ctrl-C, or a closed terminal, reaches the whole terminal process
    group, and the client, which stops cleanly after the step as in a local
    run, then shuts them down itself).
    The plugin class is made here, not at import, so that importing this
    module does not import dask.distributed; Dask pickles it by value."""
    from distributed import WorkerPlugin

    class IgnoreCtrlC(WorkerPlugin):
        def setup(self, worker):
            import signal
            import threading
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGHUP, signal.SIG_IGN)     # a closed terminal too

    client.register_plugin(IgnoreCtrlC(), name="tenflang-ignore-ctrl-c")
