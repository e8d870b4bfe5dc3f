"""A plan run as one native C function (interp/backends/c/native_step.py): a
training step's plan, or a kept loop's cell.

    with expecting(steps):                 # a training run: what a compile would pay for
        values = run_native(plan, env, batch, "mean", "float32", buffers)   # None: not here

A plan's step is built once per (plan, reduction, dtype), whatever the
batch, and called once per run: Python hands it the data, the memory plan's
buffers and one new array per result, a few µs in all, where the generated
Python makes a call per op.  It runs where:

* the run reduces over a batch of fewer than `run.FUSE_FROM` examples (the
  step's loops run on the calling thread; larger batches keep the generated
  Python, whose loops share the examples out among threads) on numpy, with
  the C loops on (`TENFLANG_FUSE`, `TENFLANG_NATIVE` not 0);
* every step of the plan has a native form (`native_step.Unsupported` says
  which has not: `why_not`);
* a C compiler builds it (`clib.Unavailable`), numpy's BLAS is the
  OpenBLAS of its wheel, whose ILP64 `cblas_?gemm` the step calls, and
  CPython's structs can be read (native/cpython.py);
* the run is a training run's (`expecting`) that saves 10 ms or more
  (`worth_a_look`), and the library is in the cache already, or the run
  gets the compile back (`worth_compiling`, about 0.5 s, against about 3 µs saved
  per plan step and run: a training run `expecting` its steps says how many
  runs).  A one-off run, or a short training run of a program never compiled,
  takes the generated Python: the test suite's thousand small programs
  would otherwise each pay a compile.

Else `run_native` returns None and the caller runs the generated Python,
which stays the reference: results equal it to round-off.  A step whose
check failed (one_hot's class index) returns None too, and the generated
Python, run on the same values, raises the op's own error.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import functools

import numpy as np

from tenflang.native import blas_threads, clib, cpython
from ..backends.c import c_loops
from ..backends.c.native_step import Unsupported, step_source
from .codegen import batched_names, fused_reductions
from .memory import Slots

GEMM = {"float64": "scipy_cblas_dgemm64_", "float32": "scipy_cblas_sgemm64_"}


def gemm_address(dtype: str) -> int | None:
    """The address of numpy's BLAS's ILP64 GEMM for `dtype`, or None."""
    lib = blas_threads.numpy_openblas()
    f = getattr(lib, GEMM[dtype], None) if lib is not None else None
    return ctypes.cast(f, ctypes.c_void_p).value if f is not None else None


class NativeStep:
    """The compiled step of one plan, reduction and dtype."""

    def __init__(self, plan, reduce: str | None, dtype: str, sources: tuple):
        lib = c_loops.library_with_vector_math(*sources[:2])
        lib.tenflang_set_gemm.argtypes, lib.tenflang_set_gemm.restype = [ctypes.c_void_p], None
        lib.tenflang_set_gemm(gemm_address(dtype))
        self.function = lib.tenflang_step
        self.function.argtypes = [ctypes.c_long] + [ctypes.py_object] * 3
        self.function.restype = ctypes.c_long
        self.layout = sources[2]
        self.plan, self.dtype = plan, np.dtype(dtype)
        self.results = [r for r in plan.results if r not in plan.null]
        self.shapes = [tuple(plan.shapes[r]) for r in self.results]
        # per result: whether it keeps its example axis (no reduction, or a cell's)
        self.rows = [not (reduce and plan.sums(r)) for r in self.results]

    def __call__(self, env: dict, batch: int, buffers) -> dict | None:
        data = tuple(contiguous(env[name]) for name in self.plan.bound)
        buf = tuple(buffers.arrays(self.layout, batch, self.dtype, np))
        out = tuple(np.empty((batch,) + shape if rows else shape, self.dtype)
                    for shape, rows in zip(self.shapes, self.rows))
        if self.function(batch, data, buf, out):
            return None                 # a check failed: the caller's path raises its error
        values = dict(zip(self.results, out))
        values.update((name, None) for name in self.plan.null)
        return values


def contiguous(a):
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def sources(plan, reduce: str | None, dtype: str) -> tuple:
    """`step_c`'s (C with vector math or None, C without, slot layout), or
    `Unsupported` saying why there is no native step here."""
    if not (cpython.struct_read() and cpython.tuple_read()):
        raise Unsupported("this Python's arrays cannot be handed to C as they are")
    if gemm_address(dtype) is None:
        raise Unsupported("numpy's BLAS is not the OpenBLAS of its wheel")
    clib.compiler()                   # Unavailable without one
    return step_c(plan, reduce, dtype)


@functools.lru_cache(maxsize=64)
def step_c(plan, reduce: str | None, dtype: str) -> tuple:
    """(the step's C with vector math, where c_loops finds it here, else None;
    without; its slot layout): `native_step.step_source` of the plan, rendered
    once, given what codegen knows of it (the values that vary per example,
    the results a product sums; memory.Slots places the values, as in the
    generated Python)."""
    batched = batched_names(plan, reduce)
    reduced = fused_reductions(plan, batched) if reduce else {}
    plain, vector, layout = step_source(plan, reduce, dtype, (batched, reduced, Slots()),
                                        c_loops.vector_math())
    return vector, plain, layout


_BUILT: dict = {}          # (plan, reduce, dtype) -> its NativeStep, or None: it has none
_DECLINED: dict = {}       # (plan, reduce, dtype, calls) -> the expectation it was not worth at
_EXPECTED = [0]            # the plan runs the training run under way expects (`expecting`)
COMPILE_SECONDS = 0.5      # what compiling a step's library costs, about (cc -O2)
SAVED_SECONDS = 3e-6       # what a plan step costs the generated Python more than C, about


@contextlib.contextmanager
def expecting(runs: int):
    """Within: a training run that expects `runs` runs of its plans (its steps)."""
    before, _EXPECTED[0] = _EXPECTED[0], runs
    try:
        yield
    finally:
        _EXPECTED[0] = before


def saving(plan, calls: int = 1, saved: float = 0.0) -> float:
    """Seconds the run under way saves with `plan` native: `calls` runs of it a
    step, each saving `SAVED_SECONDS` per plan step and `saved` more."""
    return _EXPECTED[0] * calls * (len(plan.steps) * SAVED_SECONDS + saved)


_LATER = concurrent.futures.ThreadPoolExecutor(1, "tenflang-compile")   # one compile at a time
_PENDING: dict = {}        # key -> the Future of its library, compiled in the background


def worth_a_look(gain: float) -> bool:
    """Whether a run saving `gain` seconds with a native step looks for one in
    the cache: 10 ms or more (rendering its C, to find it, costs 2-70 ms)."""
    return gain >= COMPILE_SECONDS / 50


def pending(key) -> bool:
    """Whether `when_worth` is compiling the library of `key` in the background."""
    future = _PENDING.get(key)
    return future is not None and not future.done()


def when_worth(key, build, gain: float, cached):
    """`build()` now where its library is `cached()` or the run gets the compile
    back (`gain`, seconds, above `COMPILE_SECONDS`); in the background where it
    gets a tenth of it back, one compile at a time, while the run goes on
    without (None until it is built: the run switches then, and a later run
    finds it cached); else None.  A process ending waits for a compile under
    way (under a second)."""
    future = _PENDING.get(key)
    if future is not None:
        return future.result() if future.done() and future.exception() is None else None
    if gain > COMPILE_SECONDS or cached():
        return build()
    if gain >= COMPILE_SECONDS / 10 and all(f.done() for f in _PENDING.values()):
        _PENDING[key] = _LATER.submit(build)
    return None


def native_step(plan, reduce: str | None, dtype: str, calls: int = 1) -> NativeStep | None:
    """The plan's native step; None where it has none (`why_not`), or where its
    library is not compiled yet and the run under way would not get the
    compile back (`when_worth`: a one-off run, a short training run takes the
    generated Python; a later run loads the library in a ms)."""
    key = (plan, reduce, dtype)
    if key in _BUILT:
        return _BUILT[key]
    if not worth_a_look(saving(plan, calls)) or _DECLINED.get(key + (calls,)) == _EXPECTED[0]:
        return None           # a one-off or short run: not even the cache is looked at
    found = functools.partial(sources, plan, reduce, dtype)
    try:
        step = when_worth(key, lambda: NativeStep(plan, reduce, dtype, found()),
                          saving(plan, calls),
                          lambda: c_loops.cached_with_vector_math(*found()[:2]))
    except (Unsupported, clib.Unavailable, clib.Abandoned):
        _BUILT[key] = None
        return None
    if step is not None:
        _BUILT[key] = step
    elif key not in _PENDING:
        _DECLINED[key + (calls,)] = _EXPECTED[0]
    return step


def why_not(plan, reduce: str, dtype: str) -> str | None:
    """Why the plan has no native step here, or None where it has one."""
    try:
        sources(plan, reduce, dtype)
    except (Unsupported, clib.Unavailable) as err:
        return str(err)
    return None


def run_native(plan, env: dict, batch: int, reduce: str, dtype: str, buffers) -> dict | None:
    """The plan's results from its native step, or None (module docstring)."""
    step = native_step(plan, reduce, dtype)
    return None if step is None else step(env, batch, buffers)
