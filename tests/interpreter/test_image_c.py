"""The native image ops (tenflang/interp/backends/c/image_c.py) against the numpy path
(tenflang/ops/convolution.py, itself checked against PyTorch in test_convolution.py):
per op, stride, padding and dtype, on whole training steps of the convolutional
sample, across thread counts, and the fallbacks."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tenflang.ops import convolution as cv
from tenflang.native import clib, cpython, loop_pool
from tenflang.interp.backends.c import image_c

from support.commands import cli_env
from support.paths import SAMPLES

if clib.unavailable_reason():
    pytest.skip(clib.unavailable_reason(), allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("native_on", "without_onednn")   # image_c's own kernels


@pytest.fixture
def without_onednn(monkeypatch):
    """image_c's own paths, where oneDNN is installed too (tests/ops/test_onednn_conv.py
    tests what it takes); the CLI runs here are children, told by the environment."""
    from tenflang.interp.backends.c import onednn_c
    monkeypatch.setattr(onednn_c, "takes", lambda *args: False)
    monkeypatch.setenv("TENFLANG_ONEDNN", "0")

TOLERANCE = {"float64": 1e-12, "float32": 2e-5}
# (batch, channels, height, width, filters, kh, kw, stride, pad)
CONV_CASES = [(3, 1, 8, 8, 4, 3, 3, 1, 0), (2, 3, 8, 8, 16, 3, 3, 1, 1), (2, 2, 9, 7, 3, 3, 2, 2, 1),
              (2, 2, 7, 8, 3, 4, 3, 3, 2), (5, 1, 28, 28, 6, 5, 5, 1, 2), (2, 3, 5, 5, 2, 5, 5, 1, 0),
              (3, 4, 3, 3, 5, 5, 5, 1, 1), (2, 2, 10, 10, 3, 2, 2, 2, 0), (1, 3, 6, 6, 2, 1, 1, 1, 0),
              (2, 2, 6, 6, 4, 1, 1, 1, 0),      # the direct kernel gradient: 3 + 1 filters, 1 tap
              # output rows of image_kernels.c's NARROW or more: columns copied row by row
              (2, 4, 18, 17, 3, 3, 3, 1, 1), (2, 4, 35, 33, 2, 3, 3, 2, 0),
              # no more pixels than windows: col2im gathering, with a stride, a kernel past the image
              (2, 3, 4, 4, 2, 3, 3, 2, 3), (2, 2, 3, 3, 3, 5, 5, 1, 2)]
# (batch, channels, height, width, k, stride)
POOL_CASES = [(3, 2, 8, 8, 2, 2), (2, 3, 7, 9, 2, 2), (2, 2, 8, 8, 3, 1), (2, 1, 9, 9, 3, 2),
              (2, 2, 5, 5, 5, 5), (2, 2, 6, 7, 2, 1), (2, 2, 4, 4, 1, 1), (2, 2, 9, 9, 2, 3),
              (3, 4, 4, 4, 2, 2), (2, 3, 6, 6, 2, 2), (2, 2, 2, 2, 2, 2),   # max2_grad_narrow
              # ceil mode (a seventh entry): last windows reaching past the image, 2×2 ones
              # too (never the max2 loops), GoogLeNet's 3×3 stride 2; none reaching past
              (2, 2, 5, 5, 2, 2, 1), (2, 3, 7, 6, 2, 2, 1), (2, 2, 14, 14, 3, 2, 1),
              (2, 2, 9, 8, 3, 3, 1), (2, 2, 3, 5, 3, 1, 1), (2, 2, 8, 8, 2, 2, 1)]


def close(got, want, dtype):
    assert got.shape == want.shape and got.dtype == want.dtype == np.dtype(dtype)
    scale = max(float(np.abs(want).max()), 1e-30)
    assert float(np.abs(got - want).max()) <= TOLERANCE[dtype] * scale


def conv_ops(case, dtype, seed=0):
    """[(native, numpy)] for conv2d and its two adjoints on random data."""
    b, c, h, w, f, kh, kw, stride, pad = case
    r = np.random.default_rng(seed)
    x, K = r.normal(size=(b, c, h, w)).astype(dtype), r.normal(size=(1, f, c, kh, kw)).astype(dtype)
    out = cv.conv2d(np, x, K, stride, pad)
    g = r.normal(size=out.shape).astype(dtype)
    calls = [("conv2d", (x, K)), ("conv2d_image_grad", (g, K, x)),
             ("conv2d_kernel_grad_sum", (g, x, K))]
    return [(getattr(image_c, name)(np, *args, stride, pad), getattr(cv, name)(np, *args, stride, pad))
            for name, args in calls]


@pytest.mark.parametrize("chunks", ["one", "per example"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CONV_CASES)
def test_convolution_and_adjoints_equal_the_numpy_path(monkeypatch, case, dtype, chunks):
    """The GEMMs of the columns, for the whole batch at once or a chunk per example."""
    if chunks == "per example":
        monkeypatch.setattr(image_c, "CHUNK_BYTES", 1)
    for got, want in conv_ops(case, dtype):
        close(got, want, dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CONV_CASES)
def test_direct_convolution_equals_the_numpy_path(monkeypatch, case, dtype):
    """Every case in the direct loops (no columns, taken for few taps on large
    images), strides and padding included; through the columns a plan keeps too."""
    monkeypatch.setattr(image_c, "DIRECT_TAPS", 1 << 20)
    monkeypatch.setattr(image_c, "DIRECT_PLANE", 1)
    for got, want in conv_ops(case, dtype):
        close(got, want, dtype)
    b, c, h, w, f, kh, kw, stride, pad = case
    r = np.random.default_rng(2)
    x, K = r.normal(size=(b, c, h, w)).astype(dtype), r.normal(size=(1, f, c, kh, kw)).astype(dtype)
    cols = image_c.conv2d_columns(np, x, K, stride, pad)
    assert isinstance(cols, image_c.Direct)
    out = image_c.conv2d_of_columns(np, cols, x, K, stride, pad)
    close(out, cv.conv2d(np, x, K, stride, pad), dtype)
    g = r.normal(size=out.shape).astype(dtype)
    close(image_c.conv2d_kernel_grad_sum_of_columns(np, g, cols, x, K, stride, pad),
          cv.conv2d_kernel_grad_sum(np, g, x, K, stride, pad), dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_columns_past_the_kept_size_are_made_again_for_the_kernel_gradient(monkeypatch, dtype):
    """A forward keeps its columns for the kernel gradient up to KEEP_BYTES; past
    it the forward keeps none and the kernel gradient makes them again, chunk by
    chunk, with the same result as from kept columns."""
    r = np.random.default_rng(3)
    x, K = r.normal(size=(6, 3, 9, 9)).astype(dtype), r.normal(size=(1, 4, 3, 3, 3)).astype(dtype)
    g = r.normal(size=(6, 4, 9, 9)).astype(dtype)
    monkeypatch.setattr(image_c, "CHUNK_BYTES", 1)           # a chunk per example
    results = {}
    for name, least in (("kept", 1 << 30), ("made again", 1)):
        monkeypatch.setattr(image_c, "KEEP_BYTES", least)
        cols = image_c.conv2d_columns(np, x, K, 1, 1)
        out = image_c.conv2d_of_columns(np, cols, x, K, 1, 1)
        assert len(cols.chunks) == (6 if name == "kept" else 0)
        results[name] = image_c.conv2d_kernel_grad_sum_of_columns(np, g, cols, x, K, 1, 1)
        close(out, cv.conv2d(np, x, K, 1, 1), dtype)
        close(results[name], cv.conv2d_kernel_grad_sum(np, g, x, K, 1, 1), dtype)
    assert np.array_equal(results["kept"], results["made again"])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", [c for c in CONV_CASES if c[7] == 1])
def test_the_direct_forward_sums_the_taps_in_order(monkeypatch, case, dtype):
    """Stride 1: each output is 0 + w·x over the taps (c, i, j) in order, every
    product and sum rounded to the dtype (no fused multiply-add): the same bits
    as numpy adding the taps' shifted planes one after another."""
    monkeypatch.setattr(image_c, "DIRECT_TAPS", 1 << 20)
    monkeypatch.setattr(image_c, "DIRECT_PLANE", 1)
    b, c, h, w, f, kh, kw, _, pad = case
    r = np.random.default_rng(4)
    x, K = r.normal(size=(b, c, h, w)).astype(dtype), r.normal(size=(1, f, c, kh, kw)).astype(dtype)
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho, wo = h + 2 * pad - kh + 1, w + 2 * pad - kw + 1
    want = np.zeros((b, f, ho, wo), dtype)
    for ci in range(c):
        for i in range(kh):
            for j in range(kw):
                want = want + K[0, :, ci, i, j][None, :, None, None] * \
                    padded[:, ci, None, i:i + ho, j:j + wo]
    assert np.array_equal(image_c.conv2d(np, x, K, 1, pad), want)


@pytest.mark.parametrize("kernels, case", [(image_c, CONV_CASES[1]), (image_c, CONV_CASES[4]),
                                          (cv, CONV_CASES[1]), (cv, CONV_CASES[5])],
                         ids=["columns", "direct", "numpy path", "numpy path, one window"])
def test_an_empty_batch_gives_empty_images_and_a_zero_kernel_gradient(kernels, case):
    _, c, h, w, f, kh, kw, stride, pad = case
    x, K = np.ones((0, c, h, w)), np.ones((1, f, c, kh, kw))
    out = kernels.conv2d(np, x, K, stride, pad)
    assert out.shape[:2] == (0, f)
    assert kernels.conv2d_image_grad(np, out, K, x, stride, pad).shape == x.shape
    np.testing.assert_array_equal(kernels.conv2d_kernel_grad_sum(np, out, x, K, stride, pad),
                                  np.zeros(K.shape[1:]))


def test_the_direct_loops_are_taken_for_few_taps_on_large_images():
    """LeNet-5's first convolution (1 channel, 5×5, 28×28) runs without columns;
    its second (6 channels) and a small image keep the GEMM."""
    x, K = np.ones((2, 1, 28, 28), np.float32), np.ones((1, 6, 1, 5, 5), np.float32)
    assert isinstance(image_c.conv2d_columns(np, x, K, 1, 2), image_c.Direct)
    x6, K6 = np.ones((2, 6, 14, 14), np.float32), np.ones((1, 16, 6, 5, 5), np.float32)
    assert isinstance(image_c.conv2d_columns(np, x6, K6), image_c.Columns)
    assert isinstance(image_c.conv2d_columns(np, x[:, :, :8, :8], K[..., :3, :3]), image_c.Columns)


def numpy_columns(x, kh, kw, pad):
    """im2col of stride 1 written here: row (c, i, j), column (b, oy, ox)."""
    b, c, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho, wo = h + 2 * pad - kh + 1, w + 2 * pad - kw + 1
    taps = [padded[:, :, i:i + ho, j:j + wo] for i in range(kh) for j in range(kw)]
    return np.stack(taps, axis=2).transpose(1, 2, 0, 3, 4).reshape(c * kh * kw, b * ho * wo)


def numpy_image_of_columns(cols, shape, kh, kw, pad):
    """The adjoint: each pixel the sum of its windows' values, taken in tap order from +0."""
    b, c, h, w = shape
    ho, wo = h + 2 * pad - kh + 1, w + 2 * pad - kw + 1
    taps = cols.reshape(c, kh, kw, b, ho, wo)
    padded = np.zeros((b, c, h + 2 * pad, w + 2 * pad), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            padded[:, :, i:i + ho, j:j + wo] += taps[:, i, j].transpose(1, 0, 2, 3)
    return padded[:, :, pad:pad + h, pad:pad + w]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("width", range(1, 17))
def test_columns_of_small_planes_equal_numpy_bit_for_bit(width, dtype):
    """Stride 1 on planes narrower than image_kernels.c's NARROW has a copy of the loops
    per output width (1..15; col2im's where W = W' and its staging is small); 16 takes the
    row by row loops.
    im2col is a copy and col2im adds in tap order, so both equal the numpy above exactly."""
    r = np.random.default_rng(width)
    lib = image_c.kernels(np.dtype(dtype).char)
    for kh, kw, pad in [(3, 3, 1), (5, 5, 2), (3, 1, 0), (1, 2, 0), (3, 2, 2), (2, 3, 0),
                        (11, 11, 5)]:      # the last stages too much: col2im_narrow
        h, w = width + kh - 1 - 2 * pad, width + kw - 1 - 2 * pad
        if h < 1 or w < 1:
            continue
        x = r.normal(size=(3, 2, h, w)).astype(dtype)
        x[0, 0, 0, 0] = -0.0
        want = numpy_columns(x, kh, kw, pad)
        cols = np.full(want.shape, np.nan, dtype)
        sizes = (3, 2, h, w, kh, kw, 1, pad, width, width)     # ..., stride, pad, H', W'
        lib.im2col(0, 3, cpython.address(x), cpython.address(cols), *sizes)
        assert cols.tobytes() == want.tobytes()
        g = r.normal(size=want.shape).astype(dtype)
        g[0, 0] = -0.0
        image = np.full(x.shape, np.nan, dtype)
        lib.col2im(0, 3, cpython.address(g), cpython.address(image), *sizes)
        assert image.tobytes() == numpy_image_of_columns(g, x.shape, kh, kw, pad).tobytes()


def pool_ops(case, dtype, ties):
    b, c, h, w, k, stride, *ceil = case
    attrs = (k, stride, 0, *ceil)
    r = np.random.default_rng(1)
    x = r.normal(size=(b, c, h, w))
    if ties:                 # relu'd and rounded: whole windows of equal maxima
        x = np.maximum(np.round(x), 0)
    x = x.astype(dtype)
    out = cv.maxpool2d(np, x, *attrs)
    g, G = r.normal(size=out.shape).astype(dtype), r.normal(size=x.shape).astype(dtype)
    calls = [("maxpool2d", (x,)), ("avgpool2d", (x,)), ("maxpool2d_grad", (g, x)),
             ("avgpool2d_grad", (g, x)), ("maxpool2d_gather", (G, x))]
    return [(getattr(image_c, name)(np, *args, *attrs), getattr(cv, name)(np, *args, *attrs))
            for name, args in calls]


@pytest.mark.parametrize("ties", [False, True], ids=["distinct", "ties"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", POOL_CASES)
def test_pooling_and_adjoints_equal_the_numpy_path(case, dtype, ties):
    """Max-pooling's adjoints send each window's adjoint to its first maximum, as
    the numpy path does, ties included: exactly where windows do not overlap."""
    for got, want in pool_ops(case, dtype, ties):
        close(got, want, dtype)
        if case[4] == case[5]:
            np.testing.assert_array_equal(got, want)


def test_addresses_asked_of_numpy_give_the_same_bits(monkeypatch):
    """Where the array struct is not read (cpython.struct_read), the kernels get
    numpy's `a.ctypes.data`: the same arrays, the same results."""
    case = CONV_CASES[1]
    read = [got for got, _ in conv_ops(case, "float64")]
    monkeypatch.setattr(cpython, "struct_read", lambda: False)
    asked = [got for got, _ in conv_ops(case, "float64")]
    assert all(np.array_equal(a, b) for a, b in zip(read, asked))


def test_the_numpy_path_is_taken_when_asked_or_when_it_must(monkeypatch, env_switch):
    """TENFLANG_NATIVE=0, a per-example kernel, a shared image of the kernel
    gradient or another dtype go to ops/convolution.py."""
    calls = []
    monkeypatch.setattr(cv, "conv2d", lambda *a: calls.append(a) or "numpy")
    x, K = np.ones((2, 1, 4, 4)), np.ones((1, 2, 1, 3, 3))
    assert isinstance(image_c.conv2d(np, x, K), np.ndarray)
    assert image_c.conv2d(np, x, np.ones((2, 2, 1, 3, 3))) == "numpy"
    assert image_c.conv2d(np, x.astype(np.int64), K.astype(np.int64)) == "numpy"
    env_switch("TENFLANG_NATIVE", "0")
    assert image_c.conv2d(np, x, K) == "numpy" and len(calls) == 3
    env_switch("TENFLANG_NATIVE", None)
    g = np.ones((2, 2, 2, 2))
    close(image_c.conv2d_kernel_grad_sum(np, g, x[:1], K),
          cv.conv2d_kernel_grad_sum(np, g, x[:1], K), "float64")


def test_without_a_c_compiler_the_numpy_path_runs(monkeypatch):
    def unavailable(source, *flags):
        raise clib.Unavailable("no compiler here")
    monkeypatch.setattr(clib, "library", unavailable)
    image_c.kernels.cache_clear()
    try:
        for got, want in conv_ops(CONV_CASES[1], "float64"):
            np.testing.assert_array_equal(got, want)
    finally:
        image_c.kernels.cache_clear()


def test_a_compiler_refusing_the_flags_or_the_avx2_copies_builds_the_plain_kernels(monkeypatch):
    """target_clones needs the loader's ifunc, and -O3's companion flag is gcc's:
    where the compile fails with them, the kernels are built without both."""
    built = []

    def picky(source, extra=()):
        if extra or "#define NO_CLONES" not in source:
            raise clib.Unavailable("unknown argument")
        built.append(source)
        return real(source)
    real = clib.library
    monkeypatch.setattr(clib, "library", picky)
    image_c.kernels.cache_clear()
    try:
        for got, want in conv_ops(CONV_CASES[4], "float64") + conv_ops(CONV_CASES[1], "float64"):
            close(got, want, "float64")
    finally:
        image_c.kernels.cache_clear()
    assert len(built) == 1


def test_results_do_not_depend_on_the_thread_count(monkeypatch, loop_threads):
    """Each thread writes its own examples (the kernel gradient's chunks summed in
    their order): 1 and 3 threads give the same bits, direct loops and GEMMs."""
    monkeypatch.setattr(loop_pool, "MIN_WORK", 1)
    monkeypatch.setattr(image_c, "CHUNK_BYTES", 1)
    results = []
    for threads in ("1", "3"):
        loop_threads(threads)
        results.append(conv_ops(CONV_CASES[4], "float64") + conv_ops((5,) + CONV_CASES[1][1:], "float32")
                       + pool_ops(POOL_CASES[2], "float64", True))
    for (one, _), (three, _) in zip(*results):
        np.testing.assert_array_equal(one, three)


@pytest.mark.parametrize("chunk_bytes", [1, None])
@pytest.mark.parametrize("groups", [2, 16])
def test_grouped_results_do_not_depend_on_threads_or_pairing(monkeypatch, loop_threads, groups,
                                                             chunk_bytes):
    """A grouped convolution's chunks (one per example) over 1 or 3 threads, and
    its two gradients one after the other or (one chunk, 3 threads) side by
    side: the same bits, equal to the numpy path."""
    monkeypatch.setattr(loop_pool, "MIN_WORK", 1)
    if chunk_bytes:
        monkeypatch.setattr(image_c, "CHUNK_BYTES", chunk_bytes)
    monkeypatch.setattr(image_c, "SIDE_BY_SIDE_BYTES", 0)
    monkeypatch.setattr(image_c.blas_threads, "found", lambda: True)
    r = np.random.default_rng(7)
    x, K = r.normal(size=(5, 16, 6, 6)), r.normal(size=(1, 32, 16 // groups, 3, 3))
    g = r.normal(size=(5, 32, 6, 6))
    results = []
    for threads in ("1", "3"):
        loop_threads(threads)
        cols = image_c.conv2d_columns(np, x, K, 1, 1, groups)
        results.append((image_c.conv2d_of_columns(np, cols, x, K, 1, 1, groups),
                        *image_c.conv2d_grads_of_columns(np, g, cols, x, K, 1, 1, groups)))
    alone = (image_c.conv2d_image_grad(np, g, K, x, 1, 1, groups),
             image_c.conv2d_kernel_grad_sum(np, g, x, K, 1, 1, groups))
    want = (cv.conv2d(np, x, K, 1, 1, groups), cv.conv2d_image_grad(np, g, K, x, 1, 1, groups),
            cv.conv2d_kernel_grad_sum(np, g, x, K, 1, 1, groups))
    for one, three, numpy_path in zip(*results, want):
        np.testing.assert_array_equal(one, three)
        close(one, numpy_path, "float64")
    assert all(np.array_equal(a, b) for a, b in zip(alone, results[0][1:]))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", [CONV_CASES[1], CONV_CASES[3], (64, 16, 4, 4, 32, 3, 3, 1, 1)])
@pytest.mark.parametrize("least", [0, None])
@pytest.mark.parametrize("blas_one", [True, False])
def test_both_gradients_in_one_call_are_each_alone_and_side_by_side(loop_threads, monkeypatch,
                                                                    case, dtype, least, blas_one):
    """`conv2d_grads_of_columns`: the image gradient and the kernel gradient's batch
    sum, the same bits as the two calls one after the other; with two loop
    threads and BLAS put on one thread the kernel's runs on a pool thread (where
    each is one chunk of `SIDE_BY_SIDE_BYTES` or more: here all, or none), else
    on the caller's (BLAS threads each GEMM itself)."""
    import threading
    b, c, h, w, f, kh, kw, stride, pad = case
    monkeypatch.setattr(image_c.blas_threads, "found", lambda: blas_one)
    if least is not None:
        monkeypatch.setattr(image_c, "SIDE_BY_SIDE_BYTES", least)
    r = np.random.default_rng(1)
    x, K = r.normal(size=(b, c, h, w)).astype(dtype), r.normal(size=(1, f, c, kh, kw)).astype(dtype)
    cols = image_c.conv2d_columns(np, x, K, stride, pad)
    g = r.normal(size=image_c.conv2d_of_columns(np, cols, x, K, stride, pad).shape).astype(dtype)
    alone = (image_c.conv2d_image_grad(np, g, K, x, stride, pad),
             image_c.conv2d_kernel_grad_sum_of_columns(np, g, cols, x, K, stride, pad))
    kernel_grad, where = image_c.conv2d_kernel_grad_sum_of_columns, []
    for threads in ("1", "2"):
        loop_threads(threads)

        def watched(*args, **kwargs):
            where.append(threading.current_thread() is threading.main_thread())
            return kernel_grad(*args, **kwargs)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(image_c, "conv2d_kernel_grad_sum_of_columns", watched)
            both = image_c.conv2d_grads_of_columns(np, g, cols, x, K, stride, pad)
        assert all(np.array_equal(a, o) for a, o in zip(both, alone)), threads
    # one thread: the caller's; two: a pool's, for columns of SIDE_BY_SIDE_BYTES or more
    large = least is not None or cols.nbytes() >= image_c.SIDE_BY_SIDE_BYTES
    assert where == [True, not (blas_one and large)]
    close(alone[0], cv.conv2d_image_grad(np, g, K, x, stride, pad), dtype)
    close(alone[1], cv.conv2d_kernel_grad_sum(np, g, x, K, stride, pad), dtype)


@pytest.mark.parametrize("chunk_bytes", [1, None])
def test_blas_is_on_one_thread_only_while_chunks_are_split(loop_threads, monkeypatch, chunk_bytes):
    """With BLAS threads asked for, columns in one chunk (a small batch's) leave
    numpy's BLAS on its threads, which then share each GEMM; chunks split over the
    loop threads run their GEMMs with BLAS on one thread (threadpoolctl's reading
    inside them), and BLAS has its count back afterwards."""
    from support.blas_count import numpy_blas_threads as blas_count
    from tenflang.native import blas_threads
    if not blas_threads.found() or blas_threads.started() < 2:
        pytest.skip("numpy's BLAS not found, or on one thread already")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")         # BLAS threads asked for
    seen, chunk = [], image_c.Columns.chunk
    monkeypatch.setattr(image_c.Columns, "chunk", lambda self, i: seen.append(blas_count())
                        or chunk(self, i))
    if chunk_bytes is not None:
        monkeypatch.setattr(image_c, "CHUNK_BYTES", chunk_bytes)
    loop_threads("2")
    blas_threads.settle()
    b, c, h, w, f, kh, kw, stride, pad = (64, 16, 4, 4, 32, 3, 3, 1, 1)
    r = np.random.default_rng(2)
    x, K = r.normal(size=(b, c, h, w)), r.normal(size=(1, f, c, kh, kw))
    cols = image_c.conv2d_columns(np, x, K, stride, pad)
    out = image_c.conv2d_of_columns(np, cols, x, K, stride, pad)
    close(out, cv.conv2d(np, x, K, stride, pad), "float64")
    assert len(cols.spans) > 1 if chunk_bytes else len(cols.spans) == 1
    assert set(seen) == ({1} if chunk_bytes else {2})
    assert blas_count() == 2


CONV_SAMPLES = sorted(p.stem for p in SAMPLES if "conv2d" in p.read_text())


@pytest.mark.parametrize("columns", ["kept", "made again"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("sample", CONV_SAMPLES)
def test_a_training_step_of_every_convolutional_sample_equals_the_numpy_path(
        env_switch, monkeypatch, sample, dtype, columns):
    """The whole mean gradient of a batch of the sample, native against numpy,
    with the forward's columns kept for the kernel gradients or made again."""
    if columns == "made again":
        monkeypatch.setattr(image_c, "KEEP_BYTES", 0)
    training_step_equals_the_numpy_path(env_switch, (ROOT / "samples" / f"{sample}.tf").read_text(),
                                        dtype)


GROUPED = """
declare input x [8, 8]
declare exp_output label
declare weight K1 [16, 1, 3, 3]
declare weight K2 [32, 4, 3, 3]
declare weight K3 [32, 1, 3, 3]
declare weight W [10, 128]
declare intvar a1 [16, 4, 4]
declare intvar a2 [32, 4, 4]
declare intvar a3 [32, 2, 2]
declare output scores [10]
declare loss xent
define a1 = maxpool2d (relu (conv2d (reshape x [1, 8, 8]) K1 1 1)) 2
define a2 = relu (conv2d a1 K2 1 1 4)
define a3 = maxpool2d (relu (conv2d a2 K3 1 1 32)) 2
define scores = matmul W (flatten a3)
define xent = neg (dot (log_softmax scores) (one_hot label 10))
"""


@pytest.mark.parametrize("columns", ["kept", "made again"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_training_step_of_grouped_convolutions_equals_the_numpy_path(
        env_switch, monkeypatch, dtype, columns):
    """4 groups, then depthwise: the plan's columns forms take the groups."""
    if columns == "made again":
        monkeypatch.setattr(image_c, "KEEP_BYTES", 0)
    training_step_equals_the_numpy_path(env_switch, GROUPED, dtype)


def training_step_equals_the_numpy_path(env_switch, text: str, dtype: str) -> None:
    """A program's mean gradient over a batch of 32 on the native path equals the numpy path's."""
    import tenflang
    from tenflang.backprop import compile_gradient
    from tenflang.interp import make_plan, run_plan
    from tenflang.lang.checks import check
    gcp = compile_gradient(tenflang.parse(text, shape_program=True))
    shapes, decls = check(gcp), gcp.declarations()
    bound = {n for n, d in decls.items() if d.kind in ("input", "exp_output", "weight")}
    results = [n for n in gcp.declarations() if n.startswith("d/d")]
    plan = make_plan(gcp, bound, results)
    r = np.random.default_rng(3)
    data = {n: r.integers(0, 10, 32).astype(float) if n == "label" else
            (r.random((32,) + shapes[n]) if decls[n].kind == "input" else
             r.normal(size=shapes[n]) * 0.3) for n in bound}
    native_run = run_plan(plan, data, dtype=dtype, reduce="mean")
    env_switch("TENFLANG_NATIVE", "0")
    numpy_run = run_plan(plan, data, dtype=dtype, reduce="mean")
    env_switch("TENFLANG_NATIVE", None)
    for name, want in numpy_run.items():
        close(native_run[name], want, dtype)


KEEP = """
import resource, sys
import numpy as np
from tenflang.native import malloc
kept = malloc.keep_freed_memory()
def step():                      # two large arrays alive at once, as in a training step
    a = np.ones(1 << 17) @ np.ones((1 << 17, 1))
    b = np.ones((256, 1024)); c = np.ascontiguousarray(b.T); return a, c
step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(100):
    step()
print(kept, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_freed_memory_is_kept_for_the_next_step():
    """With glibc, a step's large arrays reuse the pages the last step freed
    (no page fault per page per step); MALLOC_* in the environment is left alone."""
    import os
    import platform
    import subprocess
    import sys
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("glibc's malloc only")
    env = cli_env()
    kept, faults = subprocess.run([sys.executable, "-c", KEEP], env=env, capture_output=True,
                                  text=True, check=True).stdout.split()
    assert kept == "True" and int(faults) < 100, faults    # 2 MiB a step: 51,200 pages
    env["MALLOC_ARENA_MAX"] = "2"
    kept, _ = subprocess.run([sys.executable, "-c", KEEP], env=env, capture_output=True,
                             text=True, check=True).stdout.split()
    assert kept == "False"


def test_plan_fused_shows_the_image_kernels(run_cli):
    """`tenflang plan --fused` of the LeNet sample ends with the C its image steps call,
    in the dtype asked for; a plan without image ops shows none."""
    code, out, err = run_cli(["tenflang", "plan", "--fused", "--dtype", "float32",
                              ROOT / "samples" / "lenet_digits.tf"])
    assert code == 0, err
    kernels = out[out.index("// the convolution and pooling kernels"):]
    assert "a1 = maxpool2d" in kernels and "#define TYPE float\n" in kernels
    assert "void im2col(" in kernels and "void pool_adjoint(" in kernels
    code, out, err = run_cli(["tenflang", "plan", "--fused", ROOT / "samples" / "mlp_digits.tf"])
    assert code == 0 and "im2col" not in out, err


def test_training_shares_the_columns_and_releases_them(run_cli, tmp_path):
    """The plan tfweightcalc runs hands each convolution's columns from its forward
    to its kernel gradient and deletes them right after; the plan without a batch
    sum has none.
    The second convolution's kernel gradient is made with its image gradient, in
    one call, at the image gradient's step."""
    gcp = tmp_path / "gcp.tf"
    assert run_cli(["tfcompiler", ROOT / "samples" / "lenet_digits.tf", "-o", gcp])[0] == 0
    code, out, err = run_cli(["tenflang", "plan", "--reduce", "mean", gcp])
    assert code == 0, err
    lines = out.splitlines()
    made = [n for n, line in enumerate(lines) if "= F.conv2d_columns(" in line]
    used = [n for n, line in enumerate(lines) if "F.conv2d_kernel_grad_sum_of_columns(" in line
            or "F.conv2d_grads_of_columns(" in line]
    assert len(made) == len(used) == 2 and max(made) < min(used)
    assert all("; del a1" in lines[n] for n in used)
    both = next(lines[n] for n in used if "F.conv2d_grads_of_columns(" in lines[n])
    assert both.split(" = ")[0].strip() == "d_da1, d_dK2"
    assert not any("= F.conv2d_image_grad(" in line for line in lines)
    code, out, err = run_cli(["tenflang", "plan", gcp])
    assert code == 0 and "columns" not in out, err
