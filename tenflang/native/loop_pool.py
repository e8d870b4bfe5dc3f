"""The threads that run compiled loops: how many, and the pool they share.

    future = submit(f, *args)      # f(*args) on a loop thread
    threads()                      # $TENFLANG_NUM_THREADS, else $OMP_NUM_THREADS, else the CPUs
    with parallel():               # a parallel region: submit, run a piece, collect
        ...

ctypes releases the GIL during a call, so a compiled loop cut in pieces runs them
on several threads at once.  Every piece handed to the pool is handed inside
`parallel()`, which keeps numpy's BLAS on one thread meanwhile (blas_threads.py):
the two never run their threads at once.  Threads waiting for work sleep on the
executor's queue; none spins.
"""
from __future__ import annotations

import functools
import os
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:                   # only a name in an annotation: a run imports it when it needs it
    from concurrent.futures import ThreadPoolExecutor

MIN_WORK = 1 << 17          # elements a loop thread should touch at least: below, one thread
                            # (handing work to a thread and back costs tens of µs)


@functools.lru_cache(maxsize=1)
def threads() -> int:
    """Threads a compiled loop may use: $TENFLANG_NUM_THREADS, else $OMP_NUM_THREADS,
    else the CPUs this process may run on.  Read once, as OpenMP reads its variable
    (the pool below is sized by the first answer): reading the environment and the
    affinity at each of a LeNet step's 14 calls cost 3 % of the step."""
    for var in ("TENFLANG_NUM_THREADS", "OMP_NUM_THREADS"):
        if count := thread_count(os.environ.get(var, "")):
            return count
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def thread_count(value: str) -> int | None:
    """A thread-count variable's value as a count, None when it is not one
    (unset and empty read as not set, as OpenMP reads them)."""
    value = value.strip()     # ASCII digits only: str.isdigit takes '²', which int refuses
    return int(value) if value.isascii() and value.isdigit() and int(value) > 0 else None


@functools.lru_cache(maxsize=None)
def pool() -> ThreadPoolExecutor:
    """The threads that run compiled loops (ctypes releases the GIL during a call)."""
    from concurrent.futures import ThreadPoolExecutor      # a one-thread run needs none
    return ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="tenflang-loop")


def parallel():
    """A parallel region of the loops: BLAS on one thread while it runs."""
    from .blas_threads import one_thread       # it imports this module
    return one_thread()


def submit(f, *args):
    """`f(*args)` on the pool, as a future; where no thread can be started (a
    limit on a user's processes), here and now.  The pool has queued the call
    before it finds that it cannot start a thread, and a thread it started
    earlier would run it again later, over buffers the step has moved on to:
    whichever takes the call first runs it, the other does nothing."""
    from concurrent.futures import Future
    done, taken = Future(), threading.Lock()

    def once():
        if not taken.acquire(blocking=False):
            return
        try:
            done.set_result(f(*args))
        except Exception as err:         # noqa: BLE001 - the caller's result() raises it
            done.set_exception(err)
    try:
        pool().submit(once)
    except RuntimeError:                 # "can't start new thread"
        once()
    return done


if hasattr(os, "register_at_fork"):      # a forked child has none of the pool's threads
    os.register_at_fork(after_in_child=pool.cache_clear)
