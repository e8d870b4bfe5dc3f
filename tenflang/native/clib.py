"""Generated C compiled by the system's C compiler and loaded with ctypes.

    lib = library(source)          # a ctypes.CDLL; raises Unavailable when it cannot be had
    lib.f(address(a))              # numpy array a's data, for a c_void_p argument

Conventions:

* The compiler is `$CC`, else `cc`; flags are `FLAGS`: optimised, IEEE
  arithmetic kept (no fast-math, no contraction of a*b+c into one rounding,
  so results equal numpy's to round-off), errno not set by math functions
  (results are the same; it lets the compiler inline sqrt and friends).
* A library is named by the hash of its source (or the `key` given in its
  place), compiler, flags and machine type (a home directory shared by different machines keeps one of each) and kept in
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

from tenflang.base import limits, stopping
from tenflang.base.hashing import blake2b
from tenflang.base.outputs import cache_dir

FLAGS = ("-O2", "-shared", "-fPIC", "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off",
         "-std=c99")

# C that gives a function marked WIDE an AVX2 copy too, picked when the library loads
# on a CPU that has it (the same arithmetic, wider registers; FLAGS forbid FMA
# contraction); compiled with NO_CLONES defined, one plain copy (a toolchain
# without target_clones)
WIDE = """#if defined(__GNUC__) && defined(__x86_64__) && !defined(NO_CLONES)
#define WIDE __attribute__((target_clones("avx2", "default")))
#else
#define WIDE
#endif"""


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
def library(source: str, extra: tuple = (), libs: tuple = (), key: str | None = None
            ) -> ctypes.CDLL:
    """`source` compiled into a shared library (cached on disk) and loaded;
    `extra`: flags after `FLAGS` (image_c's -O3, for its vectorised loops);
    `libs`: linker arguments after the source (c_loops' vector math); `key`:
    the text the library is cached under instead of `source`, for a caller
    whose sources differ in names only (c_loops': the same machine code)."""
    cc = compiler()
    flags = FLAGS + tuple(extra)
    digest = digest_of(source, extra, libs, key)
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


def digest_of(source: str, extra: tuple = (), libs: tuple = (), key: str | None = None) -> str:
    """The name `library` caches the library of these arguments under."""
    parts = (source if key is None else key, compiler(), platform.machine(), sys.platform) + (
        FLAGS + tuple(extra)) + ("--libs",) + tuple(libs)
    return blake2b("\0".join(parts).encode(), digest_size=12).hexdigest()


def cached(source: str, extra: tuple = (), libs: tuple = (), key: str | None = None) -> bool:
    """Whether `library` of these arguments would load without compiling."""
    folder = cache_dir("native")
    return folder is not None and os.path.exists(
        os.path.join(folder, f"lib_{digest_of(source, extra, libs, key)}.so"))


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
