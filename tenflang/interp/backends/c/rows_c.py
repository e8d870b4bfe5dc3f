"""Softmax, log-softmax and one-hot in C: the CPU's native path for the ops
that work along a row (the last axis).

    FORWARDS["log_softmax"](np, a)    # same call and result as forwards.log_softmax

Conventions (ops/forwards.py's functions stay the reference and the fallback):

* Each op is one C call over the rows, where numpy needs five to eight calls
  and their temporaries: a classifier's loss at a small batch paid that at
  every step (log_softmax, softmax and one_hot of the MLP's [32, 10] logits
  took 13.7, 10.7 and 7.5 µs; here about 4, 4 and 3, the wrapper's share
  2).  The exponentials of a row are one loop, which calls the vector form
  of exp where c_loops.py finds vector math (its flags, `WIDE`), summed in
  a second loop.
* The formulas are ops/forwards.py's: softmax is e^(a − max) / Σ e^(a − max);
  log_softmax is (a − m) − log Σ e^(a − m), m the row's maximum where finite,
  else 0; a NaN in a row makes its maximum NaN, as numpy's does.  A row's sum
  is taken in order in double (numpy's is pairwise, in the row's type: in
  float32 an in-order float sum over 50,000 classes erred by 57 ε, numpy's
  by 5) and its log in double: results equal ops/forwards.py's to round-off.
* one_hot checks each class index as forwards.one_hot does (a whole number in
  0..n−1) and reports the first that is not, with the same message.
* Rows run on the calling thread (the ops are a few µs at the batch sizes
  where they matter).  Arrays reach the kernels as addresses
  (`cpython.address`, whose rule is native/cpython.py's: each array is held in a
  variable until its kernel returns).
* A call falls back to ops/forwards.py for an array module other than numpy, a
  dtype other than float32/float64, no C compiler (`clib.Unavailable`,
  remembered), or TENFLANG_NATIVE=0 (`switches.native_kernels_on`).
"""
from __future__ import annotations

import ctypes
import functools

import numpy as np

from tenflang.ops import forwards
from tenflang.native import clib, switches
from tenflang.native.cpython import address
from . import c_loops
from ..scalar_c import CTYPES, DTYPES, function, vector_declarations

SOURCE = """
static TYPE row_max(const TYPE *x, long n)      /* numpy's maximum: a NaN wins */
{
    TYPE top = x[0];
    for (long j = 0; j < n; j++) {
        if (x[j] != x[j]) return x[j];
        if (x[j] > top) top = x[j];
    }
    return top;
}

static double row_sum(const TYPE *y, long n)    /* in order, in double */
{
    double sum = 0;
    for (long j = 0; j < n; j++) sum += y[j];
    return sum;
}

WIDE void softmax_rows(long rows, long n, const TYPE *a, TYPE *out)
{
    for (long r = 0; r < rows; r++) {
        const TYPE *x = a + r * n;
        TYPE *y = out + r * n;
        const TYPE top = row_max(x, n);
        for (long j = 0; j < n; j++) y[j] = EXP(x[j] - top);    /* vectorised where it can be */
        const double sum = row_sum(y, n);
        for (long j = 0; j < n; j++) y[j] = (TYPE)(y[j] / sum);
    }
}

WIDE void log_softmax_rows(long rows, long n, const TYPE *a, TYPE *out)
{
    for (long r = 0; r < rows; r++) {
        const TYPE *x = a + r * n;
        TYPE *y = out + r * n, top = row_max(x, n);
        if (top - top != 0) top = 0;             /* not finite (inf - inf and NaN are NaN) */
        for (long j = 0; j < n; j++) y[j] = EXP(x[j] - top);
        const TYPE total = (TYPE)log(row_sum(y, n));
        for (long j = 0; j < n; j++) y[j] = (x[j] - top) - total;
    }
}

long one_hot_rows(long rows, long n, const TYPE *labels, TYPE *out)
{   /* the first example whose label is not a whole number in 0..n-1, else -1 */
    for (long r = 0; r < rows; r++) {
        const TYPE y = labels[r];
        if (!(y >= 0 && (double)y < (double)n) || (TYPE)(long)y != y) return r;
        for (long j = 0; j < n; j++) out[r * n + j] = 0;
        out[r * n + (long)y] = 1;
    }
    return -1;
}
"""


def source(dtype: str, vector: bool = False) -> str:
    """The C of the kernels for a dtype name ('float64', 'float32'); `vector`:
    with the math functions' vector forms (c_loops.py's vector math)."""
    t = CTYPES[dtype]
    head = f"#include <math.h>\n#define TYPE {t}\n#define EXP {function('exp', t)}\n"
    if vector:
        return head + f"{clib.WIDE}\n{vector_declarations(t)}\n" + SOURCE
    return head + "#define WIDE\n" + SOURCE


@functools.lru_cache(maxsize=None)
def kernels(dtype: str):
    """The compiled library for a dtype name, None without a C compiler."""
    vector = source(dtype, True) if c_loops.vector_math() else None
    try:
        lib = c_loops.library_with_vector_math(vector, source(dtype))
    except clib.NOT_BUILT:
        return None
    for name in ("softmax_rows", "log_softmax_rows", "one_hot_rows"):
        f = getattr(lib, name)
        f.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
        f.restype = ctypes.c_long if name == "one_hot_rows" else None
    return lib


def library_for(xp, a):
    """The kernels for `a`, or None where a call takes ops/forwards.py's path."""
    dtype = DTYPES.get(a.dtype)            # None: another dtype, or another byte order
    if xp is not np or dtype is None or not a.size or not switches.native_kernels_on():
        return None
    return kernels(dtype)


def rowwise(kernel, a):
    """A new array: `kernel` over the rows of `a` (its last axis)."""
    a = np.ascontiguousarray(a)
    out = np.empty_like(a)
    kernel(a.size // a.shape[-1], a.shape[-1], address(a), address(out))
    return out


def softmax(xp, a):
    lib = library_for(xp, a)
    return forwards.softmax(xp, a) if lib is None else rowwise(lib.softmax_rows, a)


def log_softmax(xp, a):
    lib = library_for(xp, a)
    return forwards.log_softmax(xp, a) if lib is None else rowwise(lib.log_softmax_rows, a)


def one_hot(xp, y, n):
    lib = library_for(xp, y)
    if lib is None or y.ndim != 1:
        return forwards.one_hot(xp, y, n)
    y = np.ascontiguousarray(y)
    out = np.empty((len(y), n), y.dtype)
    bad = lib.one_hot_rows(len(y), n, address(y), address(out))
    if bad >= 0:
        raise forwards.outside_classes(y, n, bad)
    return out


FORWARDS = {f.__name__: f for f in (softmax, log_softmax, one_hot)}
