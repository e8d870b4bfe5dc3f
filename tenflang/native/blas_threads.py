"""numpy's BLAS threads and the loop threads: one set runs at a time, and none spins.

    quiet_idle_threads()           # before numpy loads: OpenBLAS's idle threads sleep at once
    with one_thread():             # BLAS on one thread inside (a parallel region of the loops)
        ...
    settle()                       # once: BLAS outside the regions on `outside()` threads (1)
    control()                      # (set, get) of BLAS's thread count, None where not found

Conventions:

* One pool: the loop threads (loop_pool.py).  BLAS runs on one thread, in the
  thread that calls it (a convolution chunk's GEMM in a loop thread), unless
  the user asks for BLAS threads ($OPENBLAS_NUM_THREADS or $MKL_NUM_THREADS
  set to more than 1: `outside`, at most `loop_pool.threads()`, the one
  definition of the count).  A threaded BLAS waits for its slowest thread,
  spinning (sched_yield) meanwhile: on a busy machine, where that thread waits
  for a core, the digits LeNet's step took 4x the wall time and 4x the CPU time
  with BLAS on two threads than on one (2 cores, load 9-12), and on a quiet
  one BLAS's threads gained it 8 % (docs/guide/language.md).
* Even then the two never run at once: while a parallel region of the loops
  runs (`one_thread`, entered by `loop_pool.parallel`) BLAS is on one thread,
  and a large product outside them has BLAS's threads to itself.  Entering and
  leaving a region costs two calls into OpenBLAS (0.3 µs); none where BLAS is
  on one thread already.
* OpenBLAS's threads spin after each call, 2^28 cycles (about 0.1 s) by default,
  waiting for the next: on a busy machine they take the cores the other
  processes (and this one's loop threads) need; a transformer's step under load
  was 13x slower with them than without.  `quiet_idle_threads` sets
  $OPENBLAS_THREAD_TIMEOUT (log2 of the cycles; OpenBLAS clamps it to 4..30,
  reads it once when it loads) to `IDLE_SPIN` unless the user set it: an idle
  thread waits on a condition variable, woken by the next threaded call.  The
  loop threads wait on a queue (concurrent.futures), asleep too.
* numpy's OpenBLAS is found in its wheel's libraries (numpy.libs, through
  ctypes, no dependency); elsewhere (a system numpy, MKL) through threadpoolctl
  where installed; else not at all: `one_thread` then does nothing and the
  image kernels keep their GEMMs on the calling thread (c/image_c.py).
* Regions nest and may be entered from several threads (a data loader's
  checksum beside a step): BLAS gets its count back when the last one leaves.
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import sys
import threading

from .loop_pool import thread_count, threads

IDLE_SPIN = "4"             # $OPENBLAS_THREAD_TIMEOUT: 16 cycles, OpenBLAS's least
BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")    # the user asks for BLAS threads
SYMBOLS = ("scipy_openblas_{}_num_threads64_", "scipy_openblas_{}_num_threads",
           "openblas_{}_num_threads64_", "openblas_{}_num_threads")

_regions = [0]              # parallel regions open now (all threads)
_lock = threading.Lock()


def quiet_idle_threads() -> None:
    """Make OpenBLAS's idle threads sleep at once (module docstring), unless the
    user set $OPENBLAS_THREAD_TIMEOUT or numpy (and so OpenBLAS) is loaded already."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", IDLE_SPIN)


@functools.lru_cache(maxsize=1)
def control():
    """(set, get) of numpy's BLAS thread count, or None where it cannot be found."""
    return bundled_openblas() or through_threadpoolctl()


def bundled_openblas():
    """(set, get) of the OpenBLAS in numpy's wheel (numpy.libs), or None."""
    lib = numpy_openblas()
    for symbol in SYMBOLS if lib is not None else ():
        if hasattr(lib, symbol.format("set")) and hasattr(lib, symbol.format("get")):
            return getattr(lib, symbol.format("set")), getattr(lib, symbol.format("get"))
    return None


@functools.lru_cache(maxsize=1)
def numpy_openblas():
    """The OpenBLAS library of numpy's wheel (numpy.libs), loaded, or None
    (numpy built against another BLAS)."""
    import numpy as np
    folder = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if "openblas" in name:
            try:
                return ctypes.CDLL(os.path.join(folder, name))
            except OSError:
                continue
    return None


def through_threadpoolctl():
    """(set, get) of every BLAS threadpoolctl finds loaded, or None."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    libs = ThreadpoolController().select(user_api="blas").lib_controllers
    if not libs:
        return None

    def set_count(count):
        for lib in libs:
            lib.set_num_threads(count)
    return set_count, lambda: max(lib.get_num_threads() or 1 for lib in libs)


def found() -> bool:
    """Whether numpy's BLAS thread count can be set (`one_thread` does something)."""
    return control() is not None


@functools.lru_cache(maxsize=1)
def started() -> int:
    """BLAS's thread count when first asked: its own reading of the environment
    ($OPENBLAS_NUM_THREADS, $OMP_NUM_THREADS, the CPUs)."""
    return control()[1]() if found() else 1


def outside() -> int:
    """BLAS's thread count outside the regions: 1, unless a variable of
    `BLAS_VARIABLES` asks for more; never more than `threads()`, nor than BLAS
    started with."""
    asked = max(thread_count(os.environ.get(var, "")) or 1 for var in BLAS_VARIABLES)
    return min(threads(), asked, started())


@functools.lru_cache(maxsize=1)
def settle() -> None:
    """Give BLAS its count outside the regions (`outside`), once a process
    (a run's first step asks), unless a region is open."""
    if found():
        with _lock:
            if not _regions[0]:
                control()[0](outside())


@contextlib.contextmanager
def one_thread():
    """BLAS on one thread while the block runs (a parallel region of the loops)."""
    if not found():
        yield
        return
    count = outside()
    with _lock:
        _regions[0] += 1
        if _regions[0] == 1 and count > 1:
            control()[0](1)
    try:
        yield
    finally:
        with _lock:
            _regions[0] -= 1
            if not _regions[0] and count > 1:
                control()[0](count)
