"""Generated C compiled and loaded (tenflang/native/): a library is built once
per source and machine and found in the cache after; every way it cannot be had
(no compiler, a compile error) is `clib.Unavailable` with the reason, which
callers turn into the numba fallback; a damaged cache file is built again; an
array's data pointer read from its struct (from Python and from C) is numpy's."""
import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

from tenflang.native import clib, cpython, switches

pytestmark = pytest.mark.skipif(clib.unavailable_reason() is not None,
                                reason=clib.unavailable_reason() or "")

ADD = "double add(double a, double b) { return a + b; }\n"


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """An empty cache directory, and no library remembered by this process."""
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(tmp_path))
    clib.library.cache_clear()
    clib.compiler.cache_clear()
    yield tmp_path / "native"
    clib.library.cache_clear()
    clib.compiler.cache_clear()


def call_add(lib) -> float:
    f = lib.add
    f.restype, f.argtypes = ctypes.c_double, [ctypes.c_double, ctypes.c_double]
    return f(1.25, 2.5)


def test_a_source_compiles_once_and_is_loaded_from_the_cache(fresh):
    assert call_add(clib.library(ADD)) == 3.75
    [built] = fresh.glob("lib_*.so")
    stamp = built.stat().st_mtime_ns
    clib.library.cache_clear()
    assert call_add(clib.library(ADD)) == 3.75
    assert [p.stat().st_mtime_ns for p in fresh.glob("lib_*.so")] == [stamp]
    assert not [p for p in fresh.iterdir() if not p.name.startswith("lib_")]   # no leftovers


def test_a_source_cached_under_a_key_is_loaded_for_another_source_with_that_key(fresh):
    """c_loops' modules that differ in names only: the second compiles nothing."""
    assert call_add(clib.library(ADD, key="add")) == 3.75
    [built] = fresh.glob("lib_*.so")
    clib.library.cache_clear()
    other = ADD.replace("a + b", "b + a").replace("(double a", "(double a ")
    assert call_add(clib.library(other, key="add")) == 3.75
    assert list(fresh.glob("lib_*.so")) == [built]
    clib.library(other)                                  # without the key: its own
    assert len(list(fresh.glob("lib_*.so"))) == 2


def test_no_compiler_is_unavailable_naming_it(fresh, monkeypatch):
    monkeypatch.setenv("CC", "no-such-cc")
    with pytest.raises(clib.Unavailable, match="no C compiler .'no-such-cc' is not on PATH"):
        clib.library(ADD)
    assert "no-such-cc" in clib.unavailable_reason()


def test_a_compile_error_is_unavailable_with_the_compilers_message(fresh):
    with pytest.raises(clib.Unavailable, match="(?s)the C compiler failed: .*undeclared"):
        clib.library("double f(void) { return missing; }\n")
    assert not list(fresh.glob("lib_*.so"))


def test_a_damaged_cache_file_is_built_again(fresh):
    clib.library(ADD)
    [built] = fresh.glob("lib_*.so")
    # damaged by a new file put in its place: truncating the file this process has
    # mapped would crash it (SIGBUS) when the pages are next read
    damaged = fresh / "damaged"
    damaged.write_bytes(b"not a shared library")
    os.replace(damaged, built)
    # a new process: this one has the library loaded, and dlopen would hand it back
    code = ("import ctypes\nfrom tenflang.native import clib\n"
            "f = clib.library(%r).add\n"
            "f.restype, f.argtypes = ctypes.c_double, [ctypes.c_double] * 2\n"
            "print(f(1.25, 2.5))\n" % ADD)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "TENFLANG_CACHE_DIR": str(fresh.parent)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3.75"]
    assert built.read_bytes()[:4] == b"\x7fELF"


def test_without_a_writable_cache_the_library_is_built_and_nothing_is_left(monkeypatch,
                                                                           tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(blocked))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    os.mkdir(tmp_path / "tmp")
    clib.library.cache_clear()
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)       # TMPDIR read again
    try:
        assert call_add(clib.library(ADD)) == 3.75
    finally:
        clib.library.cache_clear()
    assert not list((tmp_path / "tmp").iterdir())


@pytest.mark.parametrize("make", [lambda: np.arange(7.0), lambda: np.zeros((4, 5), np.float32)[1:, 2:],
                                  lambda: np.arange(12.0).reshape(3, 4).T, lambda: np.empty(0)],
                         ids=["array", "view", "transposed", "empty"])
def test_an_arrays_address_is_numpys_read_from_the_struct_or_asked(monkeypatch, make):
    """`address` reads the data pointer from the array struct where the check
    holds (CPython) and asks numpy where it does not: the same address both ways."""
    a = make()
    assert cpython.struct_read() == (sys.implementation.name == "cpython")
    assert cpython.address(a) == a.ctypes.data
    monkeypatch.setattr(cpython, "struct_read", lambda: False)
    assert cpython.address(a) == a.ctypes.data


def test_c_reads_the_data_pointer_of_an_array_passed_as_itself():
    """`DATA_POINTER`'s TF_DATA, on a py_object argument, is numpy's data pointer."""
    if not cpython.struct_read():
        pytest.skip("the array struct is not read on this Python")
    f = clib.library(cpython.DATA_POINTER + "\nconst void *data_of(const void *a)"
                       " { return TF_DATA(a); }\n").data_of
    f.argtypes, f.restype = [ctypes.py_object], ctypes.c_void_p
    a = np.arange(10.0)[3:]
    assert f(a) == a.ctypes.data


def test_the_switches_are_read_once_per_process(monkeypatch, env_switch):
    """TENFLANG_FUSE and TENFLANG_NATIVE are read at the first step, as the thread
    count is (docs/guide/performance.md): a change after that is not seen by this process."""
    env_switch("TENFLANG_FUSE", "0")
    env_switch("TENFLANG_NATIVE", None)
    assert not switches.fused_loops_on() and switches.native_kernels_on()
    monkeypatch.setenv("TENFLANG_FUSE", "1")
    monkeypatch.setenv("TENFLANG_NATIVE", "0")
    assert not switches.fused_loops_on() and switches.native_kernels_on()
    env_switch("TENFLANG_FUSE", "1")           # the fixture forgets both answers
    assert switches.fused_loops_on() and not switches.native_kernels_on()


def test_a_loop_runs_here_where_no_thread_can_be_started(monkeypatch):
    """A limit on a user's processes: the pool's thread start raised
    RuntimeError ("can't start new thread") out of a training step."""
    from tenflang.native import loop_pool

    class NoThreads:
        def submit(self, f, *args):
            raise RuntimeError("can't start new thread")
    monkeypatch.setattr(loop_pool, "pool", lambda: NoThreads())
    assert loop_pool.submit(lambda a, b: a + b, 2, 3).result() == 5
    with pytest.raises(ZeroDivisionError):
        loop_pool.submit(lambda: 1 / 0).result()


def test_a_call_queued_where_no_thread_could_be_started_runs_once(monkeypatch):
    """ThreadPoolExecutor queues a call before it starts a thread for it: where
    the start fails, the call ran here, and a thread started earlier ran it a
    second time later, writing into buffers the step had moved on to."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor
    from tenflang.native import loop_pool
    real_start, started = threading.Thread.start, []

    def start(thread):                   # the process limit: one thread, no more
        started.append(thread)
        if len(started) > 1:
            raise RuntimeError("can't start new thread")
        real_start(thread)
    monkeypatch.setattr(threading.Thread, "start", start)
    executor = ThreadPoolExecutor(max_workers=4)
    monkeypatch.setattr(loop_pool, "pool", lambda: executor)
    calls = []

    def f(i):
        calls.append(i)
        time.sleep(0.05)
        return i
    futures = [loop_pool.submit(f, i) for i in range(4)]     # the first one's thread is busy
    assert [future.result() for future in futures] == [0, 1, 2, 3]
    executor.shutdown(wait=True)         # the queued copies have been taken by now
    assert sorted(calls) == [0, 1, 2, 3]
