"""Generated C compiled by the system's C compiler and loaded with ctypes.

    lib = library(source)          # a ctypes.CDLL; raises Unavailable when it cannot be had
    lib.f(address(a))              # numpy array a's data, for a c_void_p argument

Conventions:

* The compiler is `$CC`, else `cc`; flags are `FLAGS`: optimised, IEEE
  arithmetic kept (no fast-math, no contraction of a*b+c into one rounding,
  so results equal numpy's to round-off), errno not set by math functions
  (results are the same; it lets the compiler inline sqrt and friends).
* A library is named by the hash of its source, compiler, flags and machine
  type (a home directory shared by different machines keeps one of each) and kept in
  the cache directory (`files.cache_dir("native")`), so a program's second run
  loads machine code in about a millisecond and pays no compilation.  It is
  compiled to a temporary name and renamed into place, so processes that
  compile the same source at once never load a half-written file; a cached
  file that does not load is built again.  Without a
  writable cache directory each run compiles into a temporary directory,
  removed once the library is loaded.
* The compiler runs in a process group of its own, ended whole when the
  compile passes `limits.COMPILE_SECONDS` or is interrupted (`Abandoned`).
* No compiler, or a compile that fails, raises `Unavailable` with the reason;
  callers fall back to code that needs no compiler (numpy or numba).  The
  reason is kept (`unavailable_reason`) so `tenflang plan --fused` and the
  tests can say why.
* A numpy array's data reaches a compiled function through numpy's public
  array struct: its data pointer (`PyArrayObject_fields.data`) is the field
  right after the object header, `OBJECT_HEAD` bytes into the object.  Either
  the array object itself is passed (ctypes `py_object`, no conversion) and C
  reads the pointer with `TF_DATA` (`DATA_POINTER`: the fused loops, Adam's
  update), or Python reads it (`address(a)`, 0.4 µs) and passes the address
  (`c_void_p`).  numpy's own `a.ctypes.data` costs ~3 µs an array, more than
  a small kernel.  The read is checked once per process against
  `a.ctypes.data` (`struct_read`; CPython only, where an object's id is its
  address and `py_object` passes that address); where it does not hold,
  `address` returns `a.ctypes.data` and callers of `TF_DATA` pass addresses
  instead.  An address is good while its array lives: the array must outlive
  the call (held in a variable, never a temporary made for the call, whose
  memory is freed as soon as the address is taken); a `py_object` argument
  keeps its array alive through the call by itself.
* A tuple of arrays reaches C the same way (Adam's update of every weight):
  passed as a `py_object`, its items read at `TUPLE_HEAD` bytes into the
  tuple (`TF_ITEMS`, `TUPLE_ITEMS`: CPython's tuple struct, whose items follow
  its `tuple.__basicsize__` bytes), checked once per process (`tuple_read`).
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import platform
import shutil
import signal
import sys
import threading
import time

from . import limits, stopping
from .digests import blake2b
from .files import cache_dir

FLAGS = ("-O2", "-shared", "-fPIC", "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off",
         "-std=c99")


OBJECT_HEAD = object.__basicsize__     # bytes before an object's first field: numpy's data pointer
# C that reads a numpy array's data pointer from the array passed as a py_object
DATA_POINTER = f"#define TF_DATA(a) (*(char *const *)((const char *)(a) + {OBJECT_HEAD}))"
# C that gives a function marked WIDE an AVX2 copy too, picked when the library loads
# on a CPU that has it (the same arithmetic, wider registers; FLAGS forbid FMA
# contraction); compiled with NO_CLONES defined, one plain copy (a toolchain
# without target_clones)
WIDE = """#if defined(__GNUC__) && defined(__x86_64__) && !defined(NO_CLONES)
#define WIDE __attribute__((target_clones("avx2", "default")))
#else
#define WIDE
#endif"""
TUPLE_HEAD = tuple.__basicsize__      # bytes before a tuple's first item
# C that reads the items of a tuple passed as a py_object
TUPLE_ITEMS = f"#define TF_ITEMS(t) ((void *const *)((const char *)(t) + {TUPLE_HEAD}))"


class Unavailable(RuntimeError):
    """No compiled library could be had (the message says why)."""


# a plain flag, not a threading.Event: a signal handler sets it, and an Event's
# lock, taken again by a second signal's handler on the same thread, never frees
_ABANDON = [False]


def abandon_compiles() -> None:
    """From now on a compile under way, or asked for, is `Abandoned` at once
    (a run told to stop: its step should not wait for a compiler).  Safe in a
    signal handler: it takes no lock."""
    _ABANDON[0] = True


class Abandoned(RuntimeError):
    """The compile was stopped (its time limit, Ctrl-C, SIGTERM): callers run
    without compiled loops rather than start another long compile (numba)."""


NOT_BUILT = (Unavailable, Abandoned)      # what a caller that can do without a library catches


@functools.lru_cache(maxsize=1)
def compiler() -> str:
    """The C compiler's path; Unavailable when there is none."""
    name = os.environ.get("CC") or "cc"
    path = shutil.which(name)
    if path is None:
        raise Unavailable(f"no C compiler ('{name}' is not on PATH; set CC to use another)")
    return path


@functools.lru_cache(maxsize=128)
def library(source: str, extra: tuple = (), libs: tuple = ()) -> ctypes.CDLL:
    """`source` compiled into a shared library (cached on disk) and loaded;
    `extra`: flags after `FLAGS` (image_c's -O3, for its vectorised loops);
    `libs`: linker arguments after the source (c_loops' vector math)."""
    cc = compiler()
    flags = FLAGS + tuple(extra)
    key = (source, cc, platform.machine(), sys.platform) + flags + ("--libs",) + tuple(libs)
    digest = blake2b("\0".join(key).encode(), digest_size=12).hexdigest()
    folder = cache_dir("native")
    if folder is None:
        return built_apart(cc, source, digest, flags, libs)
    path = os.path.join(folder, f"lib_{digest}.so")
    if os.path.exists(path):
        try:
            return load(path)
        except Unavailable:      # a damaged file: built again
            pass
    try:
        build(cc, source, path, flags, libs)
    except OSError:              # a cache that takes no file (a full disk): as without one
        return built_apart(cc, source, digest, flags, libs)
    return load(path)


def built_apart(cc: str, source: str, digest: str, flags: tuple, libs: tuple) -> ctypes.CDLL:
    """`source` built in a temporary directory and loaded (a loaded library stays
    mapped after its file is gone); Unavailable when no directory takes it."""
    import tempfile          # here and in `build`: a run whose library is cached needs none
    try:
        with tempfile.TemporaryDirectory(prefix="tenflang-native-") as folder:
            path = os.path.join(folder, f"lib_{digest}.so")
            build(cc, source, path, flags, libs)
            return load(path)
    except OSError as e:
        raise Unavailable(f"no directory takes the compiled library: {e}") from None


def library_any_width(source: str, extra: tuple = ()):
    """`library(source, extra)` for a source whose functions are marked `WIDE`;
    where that is refused (a toolchain without target_clones' ifunc, or one
    refusing `extra`), the plain copies alone, without `extra`."""
    try:
        return library(source, extra)
    except Unavailable:
        return library("#define NO_CLONES\n" + source)


def load(path: str) -> ctypes.CDLL:
    try:
        return ctypes.CDLL(path)
    except OSError as e:         # a damaged cache file, or one this system cannot load
        raise Unavailable(f"cannot load the compiled library {path}: {e}") from None


def build(cc: str, source: str, path: str, flags: tuple = FLAGS, libs: tuple = ()) -> None:
    """Compile `source` into the library `path` (atomically, see the docstring)."""
    import tempfile
    folder = os.path.dirname(path)
    with tempfile.TemporaryDirectory(dir=folder) as work:
        c_file, so_file = os.path.join(work, "source.c"), os.path.join(work, "lib.so")
        with open(c_file, "w", encoding="utf-8") as f:
            f.write(source)
        code, errors = compile_c([cc, *flags, "-o", so_file, c_file, *libs, "-lm"], work)
        if code:
            raise Unavailable(f"the C compiler failed: {errors.strip()[:2000]}")
        os.replace(so_file, path)


def compile_c(argv: list, work: str) -> tuple[int, str]:
    """Run the compiler in a process group of its own, its temporary files in
    `work`: (exit status, stderr).  Past `limits.COMPILE_SECONDS`, or on
    Ctrl-C/SIGTERM, the whole group (cc1, as) is ended at once and `Abandoned`
    raised (after the signal's own handler ran: a training run's stop flag is
    set, a default handler raises or ends the process): no compiler outlives
    the run, and no signal waits for the compile."""
    import subprocess           # here: a run that loads its libraries from the cache starts no process
    if _ABANDON[0]:
        raise Abandoned("the run is stopping: no compile")
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ, TMPDIR=work), start_new_session=True)
    except OSError as e:
        raise Unavailable(f"the C compiler did not run: {e}") from None
    deadline = time.monotonic() + limits.COMPILE_SECONDS
    try:
        with signals_noted() as noted:
            while True:
                try:
                    _, errors = proc.communicate(timeout=0.1)
                    return proc.returncode, errors
                except subprocess.TimeoutExpired:
                    if noted or _ABANDON[0]:
                        raise Abandoned("the C compile was interrupted") from None
                    if time.monotonic() > deadline:
                        raise Abandoned(f"the C compiler took more than "
                                        f"{limits.COMPILE_SECONDS} s") from None
    except BaseException:
        end_group(proc)
        raise


@contextlib.contextmanager
def signals_noted():
    """Within: the stop signals (SIGINT, SIGTERM, SIGHUP) are noted in the
    yielded list, then passed to the handler they had (a handler that raises
    still raises).  One whose handler was the default action is sent again
    when the block ends."""
    noted: list = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    old: dict = {}

    def note(signum, frame):
        noted.append(signum)
        if callable(old.get(signum)):
            old[signum](signum, frame)
    old.update(stopping.install(note))
    try:
        yield noted
    finally:
        stopping.restore(old)
        for sig in set(noted):
            if old[sig] == signal.SIG_DFL:
                os.kill(os.getpid(), sig)


def end_group(proc) -> None:
    """End the compiler's process group: SIGTERM (cc removes its temporary
    files), then SIGKILL for whatever is left a second later."""
    import subprocess
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(1.0)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def unavailable_reason() -> str | None:
    """Why no library can be compiled here, or None when a compiler is found."""
    try:
        compiler()
    except Unavailable as e:
        return str(e)
    return None


@functools.lru_cache(maxsize=1)
def struct_read() -> bool:
    """Whether an array's data pointer can be read at `OBJECT_HEAD` bytes into
    the object (module docstring), checked on an array that is a view."""
    if sys.implementation.name != "cpython":      # an id is not an address there
        return False
    import numpy as np          # here: importing this module imports no numpy
    probe = np.zeros(4)[1:]
    return ctypes.c_void_p.from_address(id(probe) + OBJECT_HEAD).value == probe.ctypes.data


@functools.lru_cache(maxsize=1)
def tuple_read() -> bool:
    """Whether a tuple's items can be read at `TUPLE_HEAD` bytes into the object
    (module docstring), checked on a tuple made at run time."""
    if sys.implementation.name != "cpython":      # an id is not an address there
        return False
    first, second = object(), object()
    probe = tuple([first, second])
    read = ctypes.c_void_p.from_address(id(probe) + TUPLE_HEAD + ctypes.sizeof(ctypes.c_void_p))
    return (ctypes.c_void_p.from_address(id(probe) + TUPLE_HEAD).value == id(first)
            and read.value == id(second))


def address(a) -> int:
    """The address of numpy array `a`'s data (module docstring): `a` must outlive
    the call that uses it, never a temporary made for that call."""
    if struct_read():
        return ctypes.c_void_p.from_address(id(a) + OBJECT_HEAD).value
    return a.ctypes.data


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


SWITCHES = ("TENFLANG_FUSE", "TENFLANG_NATIVE")        # 0 off, 1 (or unset) on


def switched_on(var: str) -> bool:
    """Whether the switch `var` (one of `SWITCHES`) is on: unless it is 0."""
    return os.environ.get(var, "1").strip() != "0"


@functools.lru_cache(maxsize=1)
def fused_loops_on() -> bool:
    """Whether fused loops (interp/fusion.py) and Adam's C loop may run: unless
    $TENFLANG_FUSE is 0.  Read once, as `threads` is: a step read it three times
    (1-3 µs each)."""
    return switched_on("TENFLANG_FUSE")


@functools.lru_cache(maxsize=1)
def native_kernels_on() -> bool:
    """Whether the C convolution, pooling and row kernels (interp/image_c.py,
    interp/rows_c.py) may run: unless $TENFLANG_NATIVE is 0.  Read once, as
    `fused_loops_on` is."""
    return switched_on("TENFLANG_NATIVE")


def environment_problem() -> str | None:
    """What is wrong with this module's variables, or None: the commands refuse
    a value they would otherwise read as the default without a word (a typo'd
    `TENFLANG_FUSE=off` would leave the loops on).  $OMP_NUM_THREADS is not
    TenFlang's and keeps OpenMP's reading: a bad value is ignored."""
    value = os.environ.get("TENFLANG_NUM_THREADS", "")
    if value.strip() and not thread_count(value):
        return f"TENFLANG_NUM_THREADS is '{value}': expected a number of threads, 1 or more"
    for var in SWITCHES:
        value = os.environ.get(var, "")
        if value.strip() not in ("", "0", "1"):
            return f"{var} is '{value}': expected 0 (off) or 1 (on)"
    return None


@functools.lru_cache(maxsize=None)
def pool() -> ThreadPoolExecutor:
    """The threads that run compiled loops (ctypes releases the GIL during a call)."""
    from concurrent.futures import ThreadPoolExecutor      # a one-thread run needs none
    return ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="tenflang-loop")


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


MMAP_THRESHOLD, TRIM_THRESHOLD = 32 << 20, 256 << 20     # bytes
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3                # glibc's mallopt parameters


@functools.lru_cache(maxsize=1)
def keep_freed_memory() -> bool:
    """Let glibc's malloc keep freed memory for the next allocation instead of
    handing it back to the system.  A training step allocates and frees the same
    arrays every step; by default glibc maps each large one afresh (mmap) and the
    first touch of every page faults (a LeNet step spent a fifth of its time
    so).  The peak memory is unchanged.  Not on other C libraries, nor when the
    user tunes malloc through the MALLOC_* environment."""
    if any(k.startswith("MALLOC_") for k in os.environ):
        return False
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version     # glibc only  # noqa: B018
    except (OSError, AttributeError):
        return False
    return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
