"""Batched forward functions of the op table (tenflang/ops/table.py).

Every function is `f(xp, *operands, *attributes)`, array-module generic
(numpy or cupy as `xp`).  Every array carries one leading example axis (size
B per example, size 1 for weights and constants), so the per-example rank of
an array is `ndim - 1`; a function must give, example by example, what the
op gives on one example.  Attributes are Python ints (or tuples of ints for a
shape literal); an axis attribute counts the per-example axes (0-based, -1 the
last; `example_axis` turns it into the array's axis).
"""
from __future__ import annotations

import functools
import math

from tenflang.base.errors import TenflangError
from .shapes import operands_and_axis

SQRT_HALF = 0.7071067811865476           # 1/√2
INV_SQRT_2PI = 0.3989422804014327        # 1/√(2π): the standard normal density at 0

def align(*arrays):
    """Insert unit axes after the example axis so per-example ranks agree
    (numpy would otherwise align a per-example vector with the example axis)."""
    rank = max(x.ndim for x in arrays)
    return [x.reshape(x.shape[:1] + (1,) * (rank - x.ndim) + x.shape[1:])
            if x.ndim < rank else x for x in arrays]


def elementwise2(fn):
    return lambda xp, a, b: fn(xp, *align(a, b))


def example_axis(a, axis: int) -> int:
    """The array axis of per-example axis `axis` (-1 the last)."""
    return 1 + axis % (a.ndim - 1)


def per_example_sum(xp, a, axis=None):
    if axis is not None:
        return a.sum(axis=example_axis(a, axis))
    return a.reshape(a.shape[0], -1).sum(axis=1)


def mean(xp, a, axis=None):
    count = a.shape[example_axis(a, axis)] if axis is not None else a[0].size
    return per_example_sum(xp, a, axis) / max(count, 1)


def logsumexp(xp, a, axis=None):
    """ln Σ e^a, shifted by the maximum so it never overflows."""
    if axis is None:
        a, axis = a.reshape(a.shape[0], -1), 0
    at = example_axis(a, axis)
    top = a.max(axis=at, keepdims=True)
    top = xp.where(xp.isfinite(top), top, 0)
    return (top + xp.log(xp.exp(a - top).sum(axis=at, keepdims=True))).squeeze(at)


def log_softmax(xp, a):
    top = a.max(axis=-1, keepdims=True)
    top = xp.where(xp.isfinite(top), top, 0)
    shifted = a - top
    return shifted - xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))


def softmax(xp, a):
    e = xp.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def exp_neg_abs(xp, a):
    """e^-|a|, a new array (never overflows)."""
    e = xp.abs(a)
    xp.negative(e, out=e)
    return xp.exp(e, out=e)


def logistic(xp, a):
    """e^min(a, 0) / (1 + e^-|a|): exact in both tails, no overflow, no branch."""
    num = xp.minimum(a, 0.0)
    xp.exp(num, out=num)
    den = exp_neg_abs(xp, a)
    den += 1.0
    return xp.divide(num, den, out=num)


def logistic_deriv(xp, a):
    """σ(a)(1 - σ(a)) = e / (1 + e)², e = e^-|a| (exact in both tails)."""
    e = exp_neg_abs(xp, a)
    den = e + 1.0
    xp.multiply(den, den, out=den)
    return xp.divide(e, den, out=e)


def tanh_deriv(xp, a):
    """1 - tanh²(a) = 4e / (1 + e)², e = e^-2|a| (exact in both tails)."""
    e = exp_neg_abs(xp, 2.0 * a)
    den = e + 1.0
    xp.multiply(den, den, out=den)
    xp.divide(e, den, out=e)
    return xp.multiply(e, 4.0, out=e)


def softplus(xp, a):
    return xp.maximum(a, 0) + xp.log1p(xp.exp(-xp.abs(a)))


def step(xp, a):
    return (a > 0).astype(a.dtype)


def libm(xp, name: str, a):
    """`math.<name>` (erf, erfc) on every element.  numpy has none: scipy's
    ufunc where scipy is installed (as fast as numpy's own), else the C
    library's, the function the fused C loops call, element by element (ten
    times slower); cupy has its own."""
    if xp.__name__ != "numpy":
        from cupyx.scipy import special
        return getattr(special, name)(a)
    special = scipy_special()
    if special is not None:
        return getattr(special, name)(a)
    return xp.frompyfunc(getattr(math, name), 1, 1)(a).astype(a.dtype)


@functools.cache
def scipy_special():
    """scipy.special, or None without scipy (an optional dependency: libm's fallback)."""
    try:
        from scipy import special
    except ImportError:
        return None
    return special


def erf(xp, a):
    return libm(xp, "erf", a)


def gelu(xp, a):
    """a Φ(a), Φ the standard normal distribution, as ½ a erfc(-a/√2): exact in
    the left tail, where ½ a (1 + erf(a/√2)) would cancel to 0."""
    return 0.5 * a * libm(xp, "erfc", -SQRT_HALF * a)


def gelu_deriv(xp, a):
    """Φ(a) + a φ(a)."""
    return 0.5 * libm(xp, "erfc", -SQRT_HALF * a) + INV_SQRT_2PI * a * xp.exp(-0.5 * a * a)


def leaky_relu(xp, a, s):
    a, s = align(a, s)
    return xp.where(a > 0, a, s * a)


def where(xp, c, a, b):
    c, a, b = align(c, a, b)
    return xp.where(c != 0, a, b)


def clip(xp, a, lo, hi):
    """min(max(a, lo), hi), NaN propagating (hi wins when lo > hi, as numpy's clip)."""
    a, lo, hi = align(a, lo, hi)
    return xp.minimum(xp.maximum(a, lo), hi)


def matmul(xp, a, b):
    if a.ndim == 4:                      # [b, m, k] per example
        return matmul3(xp, a, b)
    if a.ndim == 2:                      # a vector times a matrix: [k] · [k, n]
        return vector_matrix(xp, a, b)
    if b.ndim == 3:                      # [m, k] · [k, n]
        return xp.matmul(a, b)
    if a.shape[0] == 1:                  # one matrix for the whole batch: one GEMM
        return b @ a[0].T
    if b.shape[0] == 1:
        return a @ b[0]
    return xp.einsum("bmk,bk->bm", a, b)


def vector_matrix(xp, a, b):
    """v M per example, [k] · [k, n] → [n] (PyTorch's x @ W): one GEMM when M is shared."""
    if b.shape[0] == 1:
        return a @ b[0]
    if a.shape[0] == 1:
        return xp.einsum("k,bkn->bn", a[0], b)
    return xp.einsum("bk,bkn->bn", a, b)


def dot(xp, a, b):
    if a.shape[0] == 1:                  # one vector for the whole batch: one GEMV
        return b @ a[0]
    if b.shape[0] == 1:
        return a @ b[0]
    return xp.einsum("bn,bn->b", a, b)


def sum_like(xp, a, b):
    """Sum a's per-example axes down to b's per-example shape."""
    extra = a.ndim - b.ndim
    axes = tuple(range(1, 1 + extra)) + tuple(
        1 + extra + i for i, d in enumerate(b.shape[1:]) if d == 1 and a.shape[1 + extra + i] != 1)
    return a.sum(axis=axes).reshape(a.shape[:1] + b.shape[1:]) if axes else a


def sum_like_sum(xp, a, b):
    """`sum_like` summed over the examples too (b's per-example shape, no example
    axis): the example axis first (whole planes added, which numpy vectorises;
    a bias gradient's sum over the other axes first took 5x longer)."""
    return sum_like(xp, a.sum(axis=0, keepdims=True), b)[0]


def broadcast_like(xp, a, b, axis=None):
    """a broadcast to b's shape; with `axis`, a unit axis is first put back
    at that axis of b (undoing a reduction along it)."""
    if axis is not None:
        a, _ = align(a, b[:, 0] if b.ndim > 1 else b)
        a = xp.expand_dims(a, example_axis(b, axis))
    a, _ = align(a, b)
    return xp.broadcast_to(a, a.shape[:1] + b.shape[1:])




def matmul3(xp, a, b):
    """Batched matmul of per-example rank-3 operands: [b,m,k]·[b,k,n] or [b,m,k]·[k,n]."""
    if b.ndim == 3:                      # one [k, n] per example
        if b.shape[0] == 1:              # a weight: one GEMM for every example and slice
            return (a.reshape(-1, a.shape[-1]) @ b[0]).reshape(a.shape[:-1] + b.shape[-1:])
        b = b[:, None]
    return xp.matmul(a, b)


def common_batch(xp, *arrays):
    """The arrays with one example-axis length (a weight's 1 broadcast to the batch's)."""
    n = max(x.shape[0] for x in arrays)
    return [xp.broadcast_to(x, (n,) + x.shape[1:]) for x in arrays]


def reshape(xp, a, shape):
    return a.reshape(a.shape[:1] + tuple(shape))


def flatten(xp, a):
    return a.reshape(a.shape[0], -1)


def concat(xp, *parts_and_axis):
    """`concat a b … axis`: the operands joined along per-example axis `axis`."""
    parts, axis = operands_and_axis(parts_and_axis)
    return xp.concatenate(common_batch(xp, *parts), axis=example_axis(parts[0], axis))


def take_slice(xp, a, start, stop):
    return a[:, start:stop]


def index(xp, a, i):
    return a[:, i]


def unslice(xp, g, a, start):
    """Zeros of a's per-example shape with g written at rows start, start+1, ..."""
    out = xp.zeros(g.shape[:1] + a.shape[1:], dtype=g.dtype)
    out[:, start:start + g.shape[1]] = g
    return out


def permute(xp, a, axes):
    return a.transpose((0,) + tuple(p + 1 for p in axes))


def one_hot(xp, y, n):
    """Rows of the n×n identity picked by the class indices y (per example); a
    row with no 1 is a y outside 0..n-1 or not whole (or NaN)."""
    hot = y[:, None] == xp.arange(n, dtype=y.dtype)
    found = hot.any(axis=-1)
    if not bool(found.all()):
        raise outside_classes(y, n, int(xp.argmin(found)))
    return hot.astype(y.dtype)


def outside_classes(y, n: int, k: int) -> TenflangError:
    """one_hot's error for the class index of example k."""
    return index_error("one_hot", "class index", float(y[k]), k, n)


def index_error(op: str, noun: str, value: float, k: int, n: int) -> TenflangError:
    """The error of an index that names no row or class (`bad_index`), in
    example k of the arrays the op ran on.  Its parts stay on it (`.index`),
    so that a caller running a batch of the data can name the example's own
    row (`renumbered`); they pickle with it, from a worker."""
    err = TenflangError(bad_index(op, noun, value, k, n))
    err.index = (op, noun, value, k, n)
    return err


def renumbered(err: TenflangError, row_of) -> TenflangError:
    """`err`, if an index error, with its example k given as `row_of(k)`."""
    if getattr(err, "index", None) is None:
        return err
    op, noun, value, k, n = err.index
    return index_error(op, noun, value, int(row_of(k)), n)


def bad_index(op: str, noun: str, value: float, k: int, n: int) -> str:
    """The run-time message for an index that names no row or class, shared by
    one_hot and take so they read alike.  Worded as the data check
    (`Examples.check_indices`) words it: 2.5 or NaN is not "outside" 0..n-1,
    it is not an integer; and the example is counted from 0, as the data
    check and numpy count it."""
    return f"{op}: {noun} {value!r} in example {k} (0-based) must be an integer in 0..{n - 1}"


def argmax(xp, a):
    """Index of the first maximum along the last axis (as a float)."""
    return a.argmax(axis=-1).astype(a.dtype)


def equal(xp, a, b):
    a, b = align(a, b)
    return (a == b).astype(xp.result_type(a, b))
