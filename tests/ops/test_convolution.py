"""tenflang.ops.convolution against PyTorch (forwards and, through torch.autograd, the
adjoints) in float64, on several shapes, strides, paddings and windows."""
from __future__ import annotations

import numpy as np
import pytest

from tenflang.ops import convolution as cv

torch = pytest.importorskip("torch", reason="PyTorch is the reference for convolution")
F = torch.nn.functional

# (batch, channels, height, width, filters, kh, kw, stride, pad)
CONV_CASES = [
    (3, 1, 8, 8, 4, 3, 3, 1, 0),
    (2, 3, 8, 8, 16, 3, 3, 1, 1),
    (2, 2, 9, 7, 3, 3, 2, 2, 1),
    (1, 3, 6, 6, 2, 1, 1, 1, 0),
    (2, 2, 7, 8, 3, 4, 3, 3, 2),
    (4, 1, 28, 28, 6, 5, 5, 1, 2),
    (2, 3, 5, 5, 2, 5, 5, 1, 0),       # the kernel covers the image: H' = 1 (a dense layer)
    (3, 4, 3, 3, 5, 5, 5, 1, 1),       # ... with padding
    (2, 3, 4, 6, 2, 4, 3, 3, 0),       # H' = 1, W' = 2: one row of windows
    (2, 2, 5, 6, 3, 3, 4, 1, 0),       # stride 1, few windows per row
    (2, 2, 10, 10, 3, 2, 2, 2, 0),     # non-overlapping windows
]
# (batch, channels, height, width, k, stride, pad)
POOL_CASES = [(3, 2, 8, 8, 2, 2, 0), (2, 3, 7, 9, 2, 2, 0), (2, 2, 8, 8, 3, 1, 0),
              (2, 1, 9, 9, 3, 2, 0), (1, 2, 6, 6, 3, 3, 0), (2, 2, 5, 5, 5, 5, 0),
              (2, 2, 6, 7, 2, 1, 0), (2, 2, 4, 4, 1, 1, 0),
              # padded: GoogLeNet's 3×3 stride-1 branch, odd sizes, 2·pad = k, a tiled grid
              (2, 3, 7, 7, 3, 1, 1), (2, 2, 6, 5, 3, 2, 1), (2, 2, 5, 7, 2, 1, 1),
              (1, 2, 5, 6, 4, 3, 2), (2, 1, 6, 6, 2, 2, 1), (1, 1, 1, 1, 3, 1, 1)]


def rng(seed):
    return np.random.default_rng(seed)


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def conv_data(case, seed=0):
    b, c, h, w, f, kh, kw, stride, pad = case
    r = rng(seed)
    return r.normal(size=(b, c, h, w)), r.normal(size=(1, f, c, kh, kw)), stride, pad


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv2d_is_torch_conv2d(case):
    x, K, stride, pad = conv_data(case)
    got = cv.conv2d(np, x, K, stride, pad)
    want = F.conv2d(t(x), t(K[0]), stride=stride, padding=pad).numpy()
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv2d_adjoints_are_torch_autograd(case):
    x, K, stride, pad = conv_data(case, seed=1)
    tx, tK = t(x).requires_grad_(), t(K[0]).requires_grad_()
    out = F.conv2d(tx, tK, stride=stride, padding=pad)
    g = rng(2).normal(size=tuple(out.shape))
    dx, dK = torch.autograd.grad(out, (tx, tK), t(g))
    np.testing.assert_allclose(cv.conv2d_image_grad(np, g, K, x, stride, pad), dx.numpy(),
                               rtol=1e-12, atol=1e-12)
    per_example = cv.conv2d_kernel_grad(np, g, x, K, stride, pad)
    assert per_example.shape == (len(x),) + K.shape[1:]
    np.testing.assert_allclose(per_example.sum(axis=0), dK.numpy(), rtol=1e-12, atol=1e-12)
    summed = cv.conv2d_kernel_grad_sum(np, g, x, K, stride, pad)
    assert summed.shape == K.shape[1:]
    np.testing.assert_allclose(summed, dK.numpy(), rtol=1e-12, atol=1e-12)


def test_per_example_kernels_are_per_example_convolutions():
    """A kernel with an example axis convolves each example with its own kernel."""
    x, K, _, _ = conv_data(CONV_CASES[1])
    Ks = rng(3).normal(size=(len(x),) + K.shape[1:])
    got = cv.conv2d(np, x, Ks, 1, 1)
    for b in range(len(x)):
        want = F.conv2d(t(x[b:b + 1]), t(Ks[b]), padding=1).numpy()
        np.testing.assert_allclose(got[b:b + 1], want, rtol=1e-12, atol=1e-12)


def test_one_image_with_many_kernels_broadcasts():
    x, K, _, _ = conv_data(CONV_CASES[0])
    Ks = rng(4).normal(size=(5,) + K.shape[1:])
    got = cv.conv2d(np, x[:1], Ks)
    assert got.shape[0] == 5
    np.testing.assert_allclose(got[3], F.conv2d(t(x[:1]), t(Ks[3])).numpy()[0], rtol=1e-12)


def test_kernel_grad_sum_with_a_shared_side():
    x, K, stride, pad = conv_data(CONV_CASES[2], seed=5)
    out_shape = cv.conv2d(np, x, K, stride, pad).shape
    g = rng(6).normal(size=out_shape)
    full = cv.conv2d_kernel_grad(np, g, x[:1], K, stride, pad).sum(axis=0)
    np.testing.assert_allclose(cv.conv2d_kernel_grad_sum(np, g, x[:1], K, stride, pad), full,
                               rtol=1e-12)
    full = cv.conv2d_kernel_grad(np, g[:1], x, K, stride, pad).sum(axis=0)
    np.testing.assert_allclose(cv.conv2d_kernel_grad_sum(np, g[:1], x, K, stride, pad), full,
                               rtol=1e-12)


def pool_data(case, seed=0, ties=False, negative=False):
    b, c, h, w, k, stride, pad = case
    x = rng(seed).normal(size=(b, c, h, w))
    if ties:   # relu'd and rounded data: whole windows of equal maxima
        x = np.maximum(np.round(x), 0)
    if negative:   # below the zeros a wrong padding would put in every border window
        x = -np.abs(x) - 1
    return x, k, stride, pad


def beside_torch(pool, adjoint, torch_pool, x, k, stride, pad):
    """(ours, torch's) for the pooled values, then for the adjoint of a random g
    (torch's through autograd)."""
    tx = t(x).requires_grad_()
    out = torch_pool(tx, k, stride, padding=pad)
    g = rng(1).normal(size=tuple(out.shape))
    (dx,) = torch.autograd.grad(out, tx, t(g))
    return ((pool(np, x, k, stride, pad), out.detach().numpy()),
            (adjoint(np, g, x, k, stride, pad), dx.numpy()))


@pytest.mark.parametrize("ties", [False, True, "negative"], ids=["distinct", "ties", "negative"])
@pytest.mark.parametrize("case", POOL_CASES)
def test_maxpool2d_and_its_adjoint_are_torch(case, ties):
    data = pool_data(case, ties=ties is True, negative=ties == "negative")
    pooled, adjoint = beside_torch(cv.maxpool2d, cv.maxpool2d_grad, F.max_pool2d, *data)
    np.testing.assert_array_equal(*pooled)
    np.testing.assert_allclose(*adjoint, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("case", POOL_CASES)
def test_avgpool2d_and_its_adjoint_are_torch(case):
    """count_include_pad=True, PyTorch's default: the padded zeros count."""
    pooled, adjoint = beside_torch(cv.avgpool2d, cv.avgpool2d_grad, F.avg_pool2d,
                                   *pool_data(case, negative=True))
    np.testing.assert_allclose(*pooled, rtol=1e-12)
    np.testing.assert_allclose(*adjoint, rtol=1e-12, atol=1e-15)


# ceil mode, (batch, channels, height, width, k, stride, pad): last windows past the
# image, padded or not; GoogLeNet's 3×3 stride-2 pooling on odd and even sizes; a last
# window that would start in the right padding left out (7 + 2·1 - 3 over 3); none past
CEIL_CASES = [(2, 2, 5, 5, 2, 2, 0), (2, 3, 6, 5, 3, 2, 0), (2, 2, 7, 6, 3, 2, 1),
              (1, 2, 14, 14, 3, 2, 0), (1, 2, 15, 15, 3, 2, 0), (2, 1, 7, 8, 3, 3, 1),
              (2, 2, 5, 5, 3, 3, 1), (2, 2, 4, 4, 2, 2, 0), (1, 1, 2, 3, 2, 2, 1)]


@pytest.mark.parametrize("case", CEIL_CASES)
def test_ceil_mode_pooling_and_its_adjoints_are_torch(case):
    """`ceil` 1 is PyTorch's ceil_mode=True; the averages' divisor its
    count_include_pad=True (the padded zeros counted, the overhang not)."""
    x, k, stride, pad = pool_data(case, negative=True)
    for pool, adjoint, torch_pool in [
            (cv.maxpool2d, cv.maxpool2d_grad, F.max_pool2d),
            (cv.avgpool2d, cv.avgpool2d_grad,
             lambda *args, **kw: F.avg_pool2d(*args, **kw, count_include_pad=True))]:
        ceil_pool = lambda xp, *args: pool(xp, *args, 1)  # noqa: E731
        ceil_adjoint = lambda xp, *args: adjoint(xp, *args, 1)  # noqa: E731
        torch_ceil = lambda *args, **kw: torch_pool(*args, **kw, ceil_mode=True)  # noqa: E731
        pooled, grads = beside_torch(ceil_pool, ceil_adjoint, torch_ceil, x, k, stride, pad)
        assert pooled[0].shape == pooled[1].shape
        np.testing.assert_allclose(*pooled, rtol=1e-12)
        np.testing.assert_allclose(*grads, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("case", POOL_CASES)
def test_maxpool2d_gather_is_the_adjoint_of_maxpool2d_grad(case):
    """⟨maxpool2d_grad g, G⟩ = ⟨g, maxpool2d_gather G⟩ for every g and G."""
    x, k, stride, pad = pool_data(case, seed=2, ties=True)
    g = rng(3).normal(size=cv.maxpool2d(np, x, k, stride, pad).shape)
    G = rng(4).normal(size=x.shape)
    left = np.sum(cv.maxpool2d_grad(np, g, x, k, stride, pad) * G)
    right = np.sum(g * cv.maxpool2d_gather(np, G, x, k, stride, pad))
    np.testing.assert_allclose(left, right, rtol=1e-12)


def test_pooling_broadcasts_a_shared_adjoint():
    x, k, stride, _ = pool_data(POOL_CASES[0])
    g = rng(5).normal(size=(1,) + cv.maxpool2d(np, x, k, stride).shape[1:])
    wide = np.broadcast_to(g, (len(x),) + g.shape[1:])
    np.testing.assert_array_equal(cv.maxpool2d_grad(np, g, x, k, stride),
                                  cv.maxpool2d_grad(np, wide, x, k, stride))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_results_keep_the_dtype(dtype):
    x, K, stride, pad = conv_data(CONV_CASES[1])
    x, K = x.astype(dtype), K.astype(dtype)
    out = cv.conv2d(np, x, K, stride, pad)
    g = np.ones_like(out)
    for value in (out, cv.conv2d_image_grad(np, g, K, x, stride, pad),
                  cv.conv2d_kernel_grad_sum(np, g, x, K, stride, pad),
                  cv.maxpool2d(np, x, 2), cv.maxpool2d_grad(np, cv.maxpool2d(np, x, 2), x, 2),
                  cv.avgpool2d(np, x, 2), cv.avgpool2d_grad(np, cv.avgpool2d(np, x, 2), x, 2),
                  cv.maxpool2d(np, x, 3, 1, 1), cv.avgpool2d(np, x, 3, 1, 1),
                  cv.maxpool2d_grad(np, cv.maxpool2d(np, x, 3, 1, 1), x, 3, 1, 1)):
        assert value.dtype == dtype


# --- through the language: the GCP re-compiles, the kernel gradient's batch sum --------

LENET = """\
declare input x [1, 6, 6]
declare weight K1 [2, 1, 3, 3]
declare weight K2 [3, 2, 2, 2]
declare intvar c1
declare intvar h1
declare intvar p1
declare intvar c2
declare intvar q
declare loss l
define c1 = conv2d x K1 1 1
define h1 = tanh c1
define p1 = maxpool2d h1 2 1
define c2 = conv2d p1 K2 2
define q = avgpool2d c2 2
define l = sum q
"""


def test_second_derivatives_through_the_gcp():
    """Double backprop: the GCP, its d/dK1 squared as a new loss (a gradient penalty),
    compiled again: every conv and pooling adjoint's own derivative rule is used, and the
    result matches finite differences at -O0 and -O1."""
    import tenflang
    from tenflang.backprop import compile_gradient
    from support.gradcheck import gcp_gradients, numerical_gradient
    gcp = tenflang.print_program(compile_gradient(tenflang.parse(LENET, shape_program=True)))
    # first-level gradients renamed so the second level's d/dK1 is free
    text = gcp.replace("declare loss l\n", "declare intvar l\n").replace(
        "declare output d/dK1", "declare intvar d/dK1").replace("d/d", "e/d")
    text += ("declare intvar sq\ndeclare loss penalty\ndefine sq = mul e/dK1 e/dK1\n"
             "define penalty = sum sq\n")
    program = tenflang.parse(text)
    r = rng(7)
    data = {"x": r.normal(size=(3, 1, 6, 6))}
    weights = {"K1": r.normal(size=(2, 1, 3, 3)), "K2": r.normal(size=(3, 2, 2, 2))}
    for level in (0, 1):
        got = gcp_gradients(program, data, weights, level)
        for name in weights:
            np.testing.assert_allclose(got[name], numerical_gradient(program, data, weights, name),
                                       rtol=1e-5, atol=1e-7, err_msg=f"-O{level} {name}")


def test_kernel_gradient_is_summed_inside_the_gemm():
    """With a batch reduction, d/dK comes from one GEMM over the examples: the plan
    calls the summed form, its value equals the sum of per-example gradients, and
    the run never holds a [B, F, C, kh, kw] array."""
    import tracemalloc
    import tenflang
    from tenflang.backprop import compile_gradient
    from tenflang.interp import make_plan, run_plan
    from tenflang.interp.runtime.codegen import plan_source
    # many filters, few pixels: the per-example kernel gradients dwarf the columns
    shape = ("declare input x [4, 3, 3]\ndeclare weight K [64, 4, 3, 3]\ndeclare intvar c\n"
             "declare intvar s\ndeclare loss l\ndefine c = conv2d x K 1\n"
             "define s = mul c c\ndefine l = sum s\n")
    gcp = compile_gradient(tenflang.parse(shape, shape_program=True))
    plan = make_plan(gcp, {"x", "K"}, ["d/dK"])
    assert "F.conv2d_kernel_grad_sum" in plan_source(plan, "sum")
    batch = 1000
    data = {"x": rng(8).normal(size=(batch, 4, 3, 3)), "K": rng(9).normal(size=(64, 4, 3, 3))}
    per_example = run_plan(plan, data)["d/dK"]
    tracemalloc.start()
    try:
        summed = run_plan(plan, data, reduce="sum")["d/dK"]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    np.testing.assert_allclose(summed, per_example.sum(axis=0), rtol=1e-10)
    assert peak < per_example.nbytes / 3, (peak, per_example.nbytes)


# --- hypothesis: random convolutional programs, gradients against finite differences ---

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def conv_programs(draw):
    """A random stack of conv2d / maxpool2d / avgpool2d / tanh layers on a small image,
    with a random projection as the loss: (source, per-example image shape, weights)."""
    c, h, w = draw(st.integers(1, 2)), draw(st.integers(3, 7)), draw(st.integers(3, 7))
    decls, body, weights = [f"declare input x [{c}, {h}, {w}]"], [], {}
    last = "x"
    for i in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["conv2d", "conv2d", "maxpool2d", "avgpool2d", "tanh"]))
        if kind == "conv2d":
            f, kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
            stride, pad = draw(st.integers(1, 2)), draw(st.integers(0, 1))
            if kh > h + 2 * pad or kw > w + 2 * pad:
                continue
            decls.append(f"declare weight K{i} [{f}, {c}, {kh}, {kw}]")
            weights[f"K{i}"] = (f, c, kh, kw)
            body.append(f"define v{i} = conv2d {last} K{i} {stride} {pad}")
            c, h, w = f, (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
        elif kind == "tanh":
            body.append(f"define v{i} = tanh {last}")
        else:
            k = draw(st.integers(1, min(h, w, 3)))
            stride = draw(st.integers(1, k))
            body.append(f"define v{i} = {kind} {last} {k} {stride}")
            h, w = (h - k) // stride + 1, (w - k) // stride + 1
        decls.append(f"declare intvar v{i}")
        last = f"v{i}"
    if not weights:
        decls.append(f"declare weight K [1, {c}, 1, 1]")
        weights["K"] = (1, c, 1, 1)
        body.append(f"define vk = conv2d {last} K")
        decls.append("declare intvar vk")
        c, last = 1, "vk"
    decls += [f"declare input r [{c}, {h}, {w}]", "declare intvar p", "declare loss l"]
    body += [f"define p = mul {last} r", "define l = sum p"]
    return "\n".join(decls + body) + "\n", weights, (c, h, w)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conv_programs(), st.integers(0, 2**31))
def test_random_convolutional_programs_match_finite_differences(program, seed):
    from support.gradcheck import check_gradients
    source, weight_shapes, result = program
    r = rng(seed)
    first = source.splitlines()[0]
    image = tuple(int(d) for d in first[first.index("[") + 1:-1].split(","))
    data = {"x": r.normal(size=(3,) + image), "r": r.normal(size=(3,) + result)}
    weights = {name: r.normal(size=shape) for name, shape in weight_shapes.items()}
    check_gradients(source, data, weights, rtol=1e-4, atol=1e-6)


def test_stats_count_convolution_and_pooling_flops():
    """`tfcompiler --stats`: a conv layer is 2·F·H'·W'·C·kh·kw FLOPs per example, a
    k×k pooling k² per result, and each adjoint costs what its forward does."""
    import tenflang
    from tenflang.analysis.stats import program_stats
    from tenflang.backprop import compile_gradient
    source = ("declare input x [3, 10, 10]\ndeclare weight K [4, 3, 3, 3]\ndeclare intvar c\n"
              "declare intvar p\ndeclare loss l\ndefine c = conv2d x K 1 1\n"
              "define p = maxpool2d c 2\ndefine l = sum p\n")
    program = tenflang.parse(source, shape_program=True)
    conv, pool, total = 2 * 4 * 10 * 10 * 3 * 3 * 3, 4 * 5 * 5 * 4, 4 * 5 * 5
    assert program_stats(program)["flops"] == conv + pool + total
    gcp = program_stats(compile_gradient(program))
    assert gcp["ops"]["conv2d_kernel_grad"] == 1 and gcp["ops"]["maxpool2d_grad"] == 1
    assert gcp["flops"] >= 2 * conv + 2 * pool
