"""The oneDNN path of float32 convolution (interp/backends/c/onednn_c.py): the
forward and its two adjoints (image gradient, kernel gradient summed over the
batch) equal the numpy reference (ops/convolution.py, computed in float64)
to float32 round-off, for strides 1 and 2, pads 0, 1 and 3, groups 1, 2 and
depthwise, kernels 1 to 7 and odd sizes; image_c's calls hand float32 to it
and keep float64 off it.  Skipped, saying why, where oneDNN is not installed."""
from __future__ import annotations

import itertools
import os
import select
import signal

import numpy as np
import pytest

from tenflang.interp.backends.c import image_c, onednn_c
from tenflang.ops import convolution as cv

pytestmark = pytest.mark.skipif(not onednn_c.available(),
                                reason=f"no oneDNN path: {onednn_c.reason()}")

# (batch, channels, height, width, filters, kernel, stride, pad, groups)
CASES = [(b, c, h, w, f, k, s, p, g)
         for (b, c, h, w, f, g), k, s, p in itertools.product(
             [(2, 4, 9, 7, 6, 1), (3, 6, 11, 13, 4, 2), (2, 6, 8, 9, 6, 6), (1, 3, 15, 15, 5, 1)],
             [1, 3, 5, 7], [1, 2], [0, 1, 3])
         if min(h, w) + 2 * p >= k]


def data(case, seed=0):
    b, c, h, w, f, k, s, p, g = case
    r = np.random.default_rng(seed)
    x = r.normal(size=(b, c, h, w)).astype(np.float32)
    K = r.normal(size=(1, f, c // g, k, k)).astype(np.float32)
    y = cv.conv2d(np, x, K, s, p, g)
    gy = r.normal(size=y.shape).astype(np.float32)
    return x, K, gy, s, p, g


def close(got, want, terms: int):
    """Equal to float32 round-off of sums of `terms` products."""
    assert got.dtype == np.float32 and got.shape == want.shape
    scale = np.abs(want).max() + 1
    assert np.abs(got - want).max() <= 8 * np.finfo(np.float32).eps * np.sqrt(terms) * scale


def reference(f, *arrays_and_attrs, n_arrays):
    """The numpy path in float64."""
    arrays = [a.astype(np.float64) for a in arrays_and_attrs[:n_arrays]]
    return f(np, *arrays, *arrays_and_attrs[n_arrays:])


@pytest.mark.parametrize("case", CASES, ids=str)
def test_forward_and_adjoints_equal_the_reference(case):
    x, K, gy, s, p, g = data(case)
    taps = K[0, 0].size
    close(onednn_c.conv2d(x, K[0], s, p, g), reference(cv.conv2d, x, K, s, p, g, n_arrays=2), taps)
    want = reference(cv.conv2d_image_grad, gy, K, x, s, p, g, n_arrays=3)
    close(onednn_c.conv2d_image_grad(gy, K[0], x.shape, s, p, g), want, taps * K.shape[1])
    want = reference(cv.conv2d_kernel_grad_sum, gy, x, K, s, p, g, n_arrays=3)
    close(onednn_c.conv2d_kernel_grad_sum(gy, x, K.shape[1:], s, p, g), want, gy[0, 0].size * len(x))


def counted(monkeypatch) -> list:
    """The names of onednn_c's convolutions as image_c calls them, from now on."""
    calls = []
    for name in ("conv2d", "conv2d_image_grad", "conv2d_kernel_grad_sum"):
        original = getattr(onednn_c, name)
        monkeypatch.setattr(onednn_c, name,
                            lambda *a, _f=original, _n=name: calls.append(_n) or _f(*a))
    return calls


def test_image_c_hands_float32_to_onednn_and_keeps_float64(monkeypatch):
    x, K, gy, s, p, g = data((2, 16, 9, 7, 6, 3, 2, 1, 1))
    calls, F = counted(monkeypatch), image_c.FORWARDS
    cols = F["conv2d_columns"](np, x, K, s, p, g)
    y = F["conv2d_of_columns"](np, cols, x, K, s, p, g)
    F["conv2d_grads_of_columns"](np, gy, cols, x, K, s, p, g)
    assert cols is None and calls == ["conv2d", "conv2d_image_grad", "conv2d_kernel_grad_sum"]
    close(y, reference(cv.conv2d, x, K, s, p, g, n_arrays=2), 16 * 9)
    calls.clear()
    F["conv2d"](np, x.astype(np.float64), K.astype(np.float64), s, p, g)
    assert calls == []


def test_plans_are_kept_per_shape():
    x, K, gy, s, p, g = data((2, 4, 9, 7, 6, 3, 1, 1, 1))
    first = onednn_c.plan(onednn_c.FORWARD, x.shape, K.shape[1:], s, p, g)
    assert first and onednn_c.plan(onednn_c.FORWARD, x.shape, K.shape[1:], s, p, g) == first
    assert onednn_c.implementation(onednn_c.FORWARD, x.shape, K.shape[1:], s, p, g)


@pytest.mark.parametrize("case, taken", [
    ((2, 3, 9, 9, 8, 3, 1, 1, 1), ["conv2d", "conv2d_kernel_grad_sum"]),    # 3 channels
    ((1, 64, 56, 56, 8, 1, 2, 0, 1), ["conv2d", "conv2d_kernel_grad_sum"]),  # strided, 56x56
    ((2, 1, 16, 16, 6, 5, 1, 0, 1), []),                 # direct loops (LeNet-5's first layer)
    ((2, 16, 6, 6, 16, 3, 1, 1, 4), ["conv2d", "conv2d_image_grad"]),        # 4 channels a group
    ((2, 16, 6, 6, 16, 3, 1, 1, 16), ["conv2d", "conv2d_image_grad", "conv2d_kernel_grad_sum"])])
def test_image_c_keeps_what_onednn_ran_slower(monkeypatch, case, taken):
    """bench/results_onednn_conv.md: the image gradient of few channels, or
    strided on large planes, the kernel gradient of a few channels a group and
    direct convolutions stay on image_c's path; the results equal the
    reference either way."""
    x, K, gy, s, p, g = data(case)
    calls, F = counted(monkeypatch), image_c.FORWARDS
    got = [F["conv2d"](np, x, K, s, p, g), F["conv2d_image_grad"](np, gy, K, x, s, p, g),
           F["conv2d_kernel_grad_sum"](np, gy, x, K, s, p, g)]
    assert calls == taken
    close(got[1], reference(cv.conv2d_image_grad, gy, K, x, s, p, g, n_arrays=3), K[0].size)
    close(got[2], reference(cv.conv2d_kernel_grad_sum, gy, x, K, s, p, g, n_arrays=3), gy.size)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_forked_child_convolves_after_its_parent_used_two_threads(monkeypatch):
    """GNU OpenMP's threads do not survive fork: the child makes its plans
    again on one thread (onednn_c.after_fork) instead of waiting forever."""
    monkeypatch.setattr(onednn_c, "team", lambda products: 2)
    monkeypatch.setattr(onednn_c, "_plans", onednn_c.collections.OrderedDict())
    x, K, gy, s, p, g = data((4, 16, 20, 20, 16, 3, 1, 1, 1))
    want = onednn_c.conv2d(x, K[0], s, p, g)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                  # the child: says whether it got the same
        try:
            got = onednn_c.conv2d(x, K[0], s, p, g)
            os.write(write, b"ok" if np.array_equal(got, want) else b"differs")
        finally:
            os._exit(0)         # never back into pytest
    os.close(write)
    ready, _, _ = select.select([read], [], [], 60)
    if not ready:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    assert ready and os.read(read, 16) == b"ok"
