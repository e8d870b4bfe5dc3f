"""`conv2d` with groups (PyTorch's `groups`): the forward and its three adjoints
against loops written here, per group, on the numpy path and on the native
CPU path (GEMMs batched over the groups), the native path against the numpy
path for groups 1, 2, 4 and every channel, and both against PyTorch where it
is installed."""
from __future__ import annotations

import numpy as np
import pytest

from support import naive_conv
from tenflang.interp.backends.c import image_c
from tenflang.interp.backends.c.image_c import FORWARDS as NATIVE
from tenflang.native import clib
from tenflang.ops import convolution as cv

# (batch, channels, height, width, filters, kh, kw, stride, pad, groups)
CASES = [
    (3, 4, 6, 6, 6, 3, 3, 1, 1, 2),      # two towers (AlexNet)
    (2, 6, 7, 5, 6, 3, 3, 2, 1, 6),      # depthwise: groups = channels (MobileNet)
    (2, 8, 5, 5, 8, 3, 3, 1, 0, 4),      # ResNeXt's grouped 3×3
    (2, 3, 4, 4, 6, 2, 2, 2, 0, 3),      # two filters per channel
    (2, 4, 3, 3, 4, 3, 3, 1, 0, 2),      # one window: H' = W' = 1
]


def data(case, seed=0, dtype=np.float64):
    b, c, h, w, f, kh, kw, stride, pad, groups = case
    r = np.random.default_rng(seed)
    x = r.normal(size=(b, c, h, w)).astype(dtype)
    K = r.normal(size=(1, f, c // groups, kh, kw)).astype(dtype)
    return x, K, stride, pad, groups


def by_group(f, x, K, groups, *rest):
    """f on each group's channels and filters of one example, the results joined."""
    cg, fg = x.shape[0] // groups, K.shape[0] // groups
    return np.concatenate([f(x[i * cg:(i + 1) * cg], K[i * fg:(i + 1) * fg], *rest)
                           for i in range(groups)])


def reference(x, K, stride, pad, groups):
    return np.stack([by_group(naive_conv.conv2d, e, K[0], groups, stride, pad) for e in x])


def reference_adjoints(g, x, K, stride, pad, groups):
    """(the image's adjoint, the kernel's per example), each group on its own."""
    cg, fg = x.shape[1] // groups, K.shape[1] // groups
    images, kernels = [], []
    for ge, xe in zip(g, x):
        parts = [(ge[i * fg:(i + 1) * fg], xe[i * cg:(i + 1) * cg], K[0, i * fg:(i + 1) * fg])
                 for i in range(groups)]
        images.append(np.concatenate([naive_conv.conv2d_image_grad(gi, Ki, xi, stride, pad)
                                      for gi, xi, Ki in parts]))
        kernels.append(np.concatenate([naive_conv.conv2d_kernel_grad(gi, xi, Ki, stride, pad)
                                       for gi, xi, Ki in parts]))
    return np.stack(images), np.stack(kernels)


@pytest.fixture(params=["batched", "group by group"])
def numpy_way(request, monkeypatch):
    """The numpy path's two ways: one GEMM batched over the groups, or the
    ungrouped op on each group (chosen by the groups' size: here forced)."""
    monkeypatch.setattr(cv, "GROUP_LOOP_COLUMNS", 1 << 62 if request.param == "batched" else 0)
    return request.param


@pytest.mark.parametrize("forwards", [cv, NATIVE], ids=["numpy", "native"])
@pytest.mark.parametrize("case", CASES)
def test_grouped_conv2d_and_adjoints_are_per_group_convolutions(case, forwards, numpy_way):
    x, K, stride, pad, groups = data(case)
    call = (lambda name: getattr(forwards, name)) if forwards is cv else forwards.get
    out = call("conv2d")(np, x, K, stride, pad, groups)
    np.testing.assert_allclose(out, reference(x, K, stride, pad, groups), rtol=1e-12, atol=1e-12)
    g = np.random.default_rng(1).normal(size=out.shape)
    image, kernel = reference_adjoints(g, x, K, stride, pad, groups)
    np.testing.assert_allclose(call("conv2d_image_grad")(np, g, K, x, stride, pad, groups),
                               image, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(call("conv2d_kernel_grad_sum")(np, g, x, K, stride, pad, groups),
                               kernel.sum(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(cv.conv2d_kernel_grad(np, g, x, K, stride, pad, groups),
                               kernel, rtol=1e-12, atol=1e-12)


def native(test):
    """A test of the native forms themselves: the native kernels on, whatever the
    caller's environment says; skipped without a C compiler."""
    test = pytest.mark.usefixtures("native_on")(test)
    return pytest.mark.skipif(bool(clib.unavailable_reason()), reason="no C compiler")(test)


TOLERANCE = {np.float32: 2e-5, np.float64: 1e-12}
# (batch, channels, height, width, filters, kh, kw): groups 1, 2, 4 and 8 = channels
SHAPES = [(3, 8, 7, 6, 8, 3, 3), (2, 8, 6, 6, 16, 3, 2)]


def close(got, want, dtype):
    assert got.shape == want.shape and got.dtype == want.dtype == np.dtype(dtype)
    scale = max(float(np.abs(want).max()), 1e-30)
    assert float(np.abs(got - want).max()) <= TOLERANCE[dtype] * scale


def native_and_numpy(shape, stride, pad, groups, dtype):
    """(native, numpy) results of conv2d and its two native adjoints."""
    x, K, _, _, _ = data(shape + (stride, pad, groups), dtype=dtype)
    out = cv.conv2d(np, x, K, stride, pad, groups)
    g = np.random.default_rng(5).normal(size=out.shape).astype(dtype)
    calls = [("conv2d", (x, K)), ("conv2d_image_grad", (g, K, x)),
             ("conv2d_kernel_grad_sum", (g, x, K))]
    return [(NATIVE[name](np, *args, stride, pad, groups),
             getattr(cv, name)(np, *args, stride, pad, groups)) for name, args in calls]


@pytest.mark.parametrize("chunks", ["one", "per example"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("groups", [1, 2, 4, 8])
@pytest.mark.parametrize("stride, pad", [(1, 0), (1, 1), (2, 0), (2, 1)])
@pytest.mark.parametrize("shape", SHAPES, ids=["one filter a channel", "two filters a channel"])
def test_the_native_path_equals_the_numpy_path(monkeypatch, shape, stride, pad, groups, dtype,
                                               chunks):
    """The native GEMMs batched over the groups (depthwise with one filter a
    group: an outer product) give the numpy path's results to round-off, the
    columns of the whole batch in one chunk or a chunk per example."""
    if chunks == "per example":
        monkeypatch.setattr(image_c, "CHUNK_BYTES", 1)
    for got, want in native_and_numpy(shape, stride, pad, groups, dtype):
        close(got, want, dtype)


@native
@pytest.mark.parametrize("keep", [1 << 30, 1])
def test_the_native_columns_forms_take_groups(monkeypatch, keep):
    """A plan's forms: the forward's columns (kept, or made again past
    KEEP_BYTES) serve the grouped kernel gradient; both gradients in one call."""
    monkeypatch.setattr(image_c, "KEEP_BYTES", keep)
    x, K, stride, pad, groups = data(CASES[0])
    cols = NATIVE["conv2d_columns"](np, x, K, stride, pad, groups)
    assert isinstance(cols, image_c.Columns)
    out = NATIVE["conv2d_of_columns"](np, cols, x, K, stride, pad, groups)
    np.testing.assert_allclose(out, reference(x, K, stride, pad, groups), rtol=1e-12)
    g = np.random.default_rng(6).normal(size=out.shape)
    image, kernel = NATIVE["conv2d_grads_of_columns"](np, g, cols, x, K, stride, pad, groups)
    want_image, want_kernel = reference_adjoints(g, x, K, stride, pad, groups)
    np.testing.assert_allclose(image, want_image, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kernel, want_kernel.sum(axis=0), rtol=1e-12, atol=1e-12)


@native
def test_a_grouped_convolution_never_runs_as_direct_loops(monkeypatch):
    """The direct loops take every channel for every filter: a grouped
    convolution with few taps on a large plane still makes columns."""
    monkeypatch.setattr(image_c, "DIRECT_PLANE", 1)
    x, K, stride, pad, groups = data(CASES[1])
    assert isinstance(NATIVE["conv2d_columns"](np, x, K, stride, pad, groups), image_c.Columns)
    ungrouped = NATIVE["conv2d_columns"](np, x[:, :1], K, stride, pad, 1)
    assert isinstance(ungrouped, image_c.Direct)


def test_large_groups_run_one_by_one_and_small_ones_batched(monkeypatch):
    """The numpy path loops over groups of `GROUP_LOOP_COLUMNS` column entries or
    more (B·C/G·kh·kw·H'·W'), each an ungrouped op."""
    x, K, stride, pad, groups = data(CASES[0])           # 3·2·9·36 = 1944 entries a group
    calls = []
    ungrouped = cv.im2col
    monkeypatch.setattr(cv, "im2col", lambda *a: calls.append(a[1].shape) or ungrouped(*a))
    for least, want in ((1944, [(3, 2, 6, 6)] * 2), (1945, [(3, 4, 6, 6)])):
        monkeypatch.setattr(cv, "GROUP_LOOP_COLUMNS", least)
        calls.clear()
        np.testing.assert_allclose(cv.conv2d(np, x, K, stride, pad, groups),
                                   reference(x, K, stride, pad, groups), rtol=1e-12, atol=1e-12)
        assert calls == want


def test_per_example_kernels_and_a_shared_image(numpy_way):
    x, K, stride, pad, groups = data(CASES[2])
    Ks = np.random.default_rng(3).normal(size=(len(x),) + K.shape[1:])
    out = cv.conv2d(np, x, Ks, stride, pad, groups)
    for e in range(len(x)):
        np.testing.assert_allclose(out[e], reference(x[e:e + 1], Ks[e:e + 1], stride, pad,
                                                     groups)[0], rtol=1e-12, atol=1e-12)
    g = np.random.default_rng(4).normal(size=out.shape)
    shared = cv.conv2d_kernel_grad_sum(np, g, x[:1], K, stride, pad, groups)
    per_example = cv.conv2d_kernel_grad(np, g, np.repeat(x[:1], len(x), 0), K, stride, pad,
                                        groups)
    np.testing.assert_allclose(shared, per_example.sum(axis=0), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_results_keep_the_dtype_and_an_empty_batch_works(dtype, numpy_way):
    x, K, stride, pad, groups = data(CASES[1], dtype=dtype)
    out = cv.conv2d(np, x, K, stride, pad, groups)
    assert out.dtype == dtype
    empty = x[:0]
    assert cv.conv2d(np, empty, K, stride, pad, groups).shape == (0,) + out.shape[1:]
    g = np.zeros((0,) + out.shape[1:], dtype)
    assert cv.conv2d_kernel_grad_sum(np, g, empty, K, stride, pad, groups).shape == K.shape[1:]
    assert cv.conv2d_image_grad(np, g, K, empty, stride, pad, groups).shape == empty.shape


@pytest.mark.parametrize("case", CASES)
def test_grouped_conv2d_is_torch_conv2d(case):
    torch = pytest.importorskip("torch", reason="PyTorch is a second reference for groups")
    x, K, stride, pad, groups = data(case)
    tx, tK = (torch.from_numpy(a).requires_grad_() for a in (x, np.ascontiguousarray(K[0])))
    out = torch.nn.functional.conv2d(tx, tK, stride=stride, padding=pad, groups=groups)
    np.testing.assert_allclose(cv.conv2d(np, x, K, stride, pad, groups), out.detach().numpy(),
                               rtol=1e-12, atol=1e-12)
    g = np.random.default_rng(2).normal(size=tuple(out.shape))
    dx, dK = torch.autograd.grad(out, (tx, tK), torch.from_numpy(g))
    np.testing.assert_allclose(cv.conv2d_image_grad(np, g, K, x, stride, pad, groups),
                               dx.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(cv.conv2d_kernel_grad_sum(np, g, x, K, stride, pad, groups),
                               dK.numpy(), rtol=1e-12, atol=1e-12)
