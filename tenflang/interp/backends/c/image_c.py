"""Convolution and pooling in C and BLAS: the CPU's native path for the image ops.

    FORWARDS["conv2d"](np, x, K, stride, pad, groups)   # same call and result as convolution.conv2d

Conventions (the arrays and semantics are tenflang/ops/convolution.py's, whose
functions stay the reference and the fallback):

* A convolution is GEMMs of numpy's BLAS on the columns of its windows,
  `[C·kh·kw, b·H'·W']` for a chunk of b examples (the batch folded into the
  GEMM's N dimension), made by a C loop (`im2col`, the zero padding read as
  zeros, never copied).  The forward multiplies them by the kernel matrix
  `[F, C·kh·kw]`; the kernel gradient's batch sum is the sum over the chunks,
  in their order, of `g [F, b·H'·W'] · colsᵀ`; the image gradient is `Kᵀ g`
  followed by `col2im`, a C loop summing each window's columns back onto its
  image.  A chunk's columns are about `CHUNK_BYTES`, so the GEMM and the C
  loop after it find them in the cache (col2im over the whole batch's columns
  cost more than its GEMM).  Outputs narrower than 16 columns (small planes)
  are copied and summed a plane at a time; with stride 1 those loops are made
  once per output width, so that each row is a few vector moves.
* The chunks run in the loop threads (`loop_pool.threads()` of `loop_pool.pool()`),
  each chunk a single-threaded GEMM: numpy's BLAS is on one thread while
  they run (`loop_pool.parallel`, native/blas_threads.py), since two thread
  pools on the same cores slowed a step more than they sped it up.
  Where BLAS's thread count cannot be set (`blas_threads.found`), the chunks
  run on the calling thread, as do columns that fit in one chunk (a small
  batch's: handing half of them to a thread cost the digits LeNet's step a
  quarter more wall time than it saved).  Those leave BLAS on its own threads, which share each GEMM and
  wake faster than the loop pool (the digits LeNet at batch 64, whole
  processes at default threads: float64 1.77 → 1.63 ms a step, float32
  1.27 → 1.16 ms, against BLAS on one thread).
* A convolution with few taps per output (C·kh·kw ≤ `DIRECT_TAPS`: LeNet-5's
  first layer, one channel) on images of `DIRECT_PLANE` pixels or more runs
  as direct loops instead (`conv_direct`, `conv_kernel_direct`): its GEMM
  would be bound by the memory of columns 25× the image.  With stride 1 the
  outputs are computed in rows of the padded width (the extra columns
  computed and dropped), so that each tap reads the zero-padded plane as one
  long row: the forward takes blocks of 16 floats (8 doubles) of positions
  for four filters at once, their sums in registers, each tap's input loaded
  once for the four (LeNet-5's first layer, float32, one thread: 3.0–3.6 ms →
  1.9–2.4 ms; the same sums in the same order: the same bits).  The kernel gradient
  of each example is summed in fixed interleaved partial sums (one vector
  each), three filters by three taps of a kernel row at once, the nine sums
  in registers, each vector of g loaded once for the three taps and of the
  image once for the three filters (LeNet-5's first layer, one thread:
  float32 2.1–2.3 → 1.3–1.5 ms, float64 7.5 → 3.0 ms, against one filter
  by four taps whose sums spilled); the batch sum in numpy afterwards.
* The kernels (image_kernels.c) are compiled with -O3 (the row loops
  vectorise; no fast-math, so sums keep their order) and on x86-64 their hot
  loops also in an AVX2 copy that the loader picks on a CPU that has it
  (`target_clones`; a toolchain without it gets one copy).
* When a plan sums the kernel gradient over the batch (training), the
  forward's columns serve the kernel gradient too (interp/runtime/codegen.py:
  `conv2d_columns`, then `conv2d_of_columns` and
  `conv2d_kernel_grad_sum_of_columns`, the columns released after their last
  use; for a direct convolution, the image: `Direct`).  Columns of up to
  `KEEP_BYTES` (12 MiB) in all are kept from the forward (`Columns`, filled
  chunk by chunk); larger ones are made again, a chunk at a time, by the
  kernel gradient: each chunk made while the cache holds it costs less than
  reading back kept columns from memory (LeNet-5's second layer, float32,
  batch 256: 15 MB of columns; the step took 10 % less on one thread, 7 %
  less on two), and the step holds one chunk per thread instead of all of
  them.  The limit: 3.8 MB of columns kept ran faster on two threads, 7.7 MB
  made again ran faster; kept columns are what `tfcompiler --stats` counts
  (interp/runtime/memory.py), so the limit sits above the columns of the samples'
  small networks at batch 256 (9.4 MB at most, vgg_digits in float64).
* A convolution's two gradients (image and kernel, the kernel's summed over
  the batch with the forward's columns) are one call where the plan has both
  (`conv2d_grads_of_columns`, interp/runtime/codegen.py): with two loop threads, BLAS
  already on one (an earlier layer's chunks were split) and each gradient one
  chunk (a small batch) of `SIDE_BY_SIDE_BYTES` or more, the kernel's GEMM
  runs on a pool thread beside the image's GEMM and col2im.
  Each is computed as alone, so the results are the same bits.  Below that
  size handing the GEMM to a thread and waking it cost more than it saved
  (the digits LeNet's second layer, whole processes at default threads: with
  0.6 MB of float32 columns a step took 1.41 ms side by side and 1.32 one
  after the other; with its 1.2 MB of float64 columns, 2.15 and 2.46).
* A grouped convolution (groups G > 1) makes the same columns, of all C
  channels: group i's are the block of rows `[i·C/G·kh·kw, (i+1)·C/G·kh·kw)`,
  a view.  Each GEMM becomes one numpy matmul batched over the groups
  (`grouped`: group i of the kernel's filters times group i's rows), so the
  chunks, threads and kept columns are the ungrouped ones; it never runs as
  direct loops (those take all channels for every filter).
* Pooling and its adjoints are direct C loops over the planes `[B·C, H, W]`.
  The adjoints of max-pooling find each window's first maximum (row-major,
  a strictly greater value replaces it) in the same loop that scatters or
  gathers through it: the op table's `maxpool2d_grad` takes the image, not an
  argmax, and finding the maximum of a window costs what reading a stored
  index would.  For 2×2 windows every select is a max or a bit mask, no
  branch: on rows too short for a vector loop (planes under 8×8) gcc's own
  code branched per comparison, and real activations mispredicted it
  (`max2_grad_narrow`).  A ceil-mode last window reaching past the image
  (Caffe's pooling) covers what it reaches of it (`reach`), an average
  dividing by that, as ops/convolution.py's overhang of -∞ or zeros does.
* The C loops run over examples (or planes) split across `loop_pool.threads()`
  threads of `loop_pool.pool()` when the batch is large enough to pay for them;
  each thread writes its own examples only and sums across examples are taken
  in a fixed order, so results do not depend on the thread count.  Sums are taken in the numpy path's order where it has one
  (pooling), else in BLAS's: results equal ops/convolution.py's to round-off.
* Arrays reach the kernels as addresses (`cpython.address`, whose rule is
  native/cpython.py's: each array is held in a variable until its kernel returns).
* Where oneDNN is installed (`pip install tenflang[onednn]`), a float32
  convolution, its image gradient and its batch-summed kernel gradient run
  through it instead (onednn_c.py: its blocked kernels, 0.6-0.95x the time
  of these GEMMs on ResNet-50's and VGG-16's layers), and the columns forms
  make no columns (`conv2d_columns` gives None).  The image gradient of
  fewer than 16 channels, or strided on planes of 56x56 or more, and the
  kernel gradient of a few channels a group stay here: oneDNN took 1.5-3x
  longer on them (`onednn_c.image_grad_faster`, `kernel_grad_faster`), as
  do direct convolutions (`to_onednn`).
  float64 never goes there (oneDNN has no float64 convolution).
* A call falls back to ops/convolution.py when it cannot take this path: an array
  module other than numpy, a dtype other than float32/float64, operands whose
  example axes differ (a shared image, a per-example kernel), padded pooling,
  no C compiler (`clib.Unavailable`, remembered), or TENFLANG_NATIVE=0 (the
  numpy path, for comparison and tests; read once, `switches.native_kernels_on`).
"""
from __future__ import annotations

import ctypes
import functools
import math
from pathlib import Path

import numpy as np

from tenflang.ops import convolution
from tenflang.native import blas_threads, clib, loop_pool, switches
from tenflang.native.cpython import address
from . import onednn_c

SOURCE = (Path(__file__).parent / "image_kernels.c").read_text()   # TYPE defined first
TYPES = {"d": "double", "f": "float"}      # by numpy dtype char: float64, float32
FLAGS = ("-O3", "-fno-tree-loop-distribute-patterns")  # vectorised row loops, no memcpy calls
DIRECT_TAPS = 32            # C·kh·kw up to which a convolution runs as direct loops,
DIRECT_PLANE = 256          # on images of at least this many pixels
CHUNK_BYTES = 1 << 21       # the columns of a chunk of examples: about what a core's cache holds
KEEP_BYTES = 12 << 20       # columns kept from the forward for the kernel gradient up to this size
SIDE_BY_SIDE_BYTES = 1 << 20  # columns from which two gradients run at once (module docstring)
SIGNATURES = {"im2col": (2, 2, 10), "col2im": (2, 2, 10),    # (range and mode, arrays, sizes)
              "conv_direct": (2, 3, 10), "conv_kernel_direct": (2, 3, 10),
              "pool": (3, 2, 6), "pool_adjoint": (3, 3, 6)}
MAX, GATHER, AVG = 0, 1, 2  # pool_adjoint's modes (pool: MAX and 1 for the average)


def source(dtype: str = "float64") -> str:
    """The C source of the kernels in `dtype` (as `tenflang plan --fused` shows it)."""
    return f"#define TYPE {TYPES[np.dtype(dtype).char]}\n{clib.WIDE}\n" + SOURCE


def used_by(plan) -> list[str]:
    """The steps of `plan` that can run these kernels, as `target = op`."""
    return [f"{s.target} = {s.op.name}" for s in plan.steps
            if s.op.name in FORWARDS or s.op.name == "conv2d_kernel_grad"]


@functools.lru_cache(maxsize=None)
def kernels(dtype: str):
    """The compiled library for a dtype char ('d', 'f'), None without a C compiler."""
    try:
        return declared(clib.library_any_width(source(dtype), FLAGS))
    except clib.NOT_BUILT:
        return None


def declared(lib):
    """`lib` with its kernels' argument types set (`SIGNATURES`)."""
    for name, (longs, pointers, sizes) in SIGNATURES.items():
        f = getattr(lib, name)
        f.argtypes = [ctypes.c_long] * longs + [ctypes.c_void_p] * pointers + [ctypes.c_long] * sizes
        f.restype = None
    return lib


def enabled(xp, *arrays) -> bool:
    """Whether a call can take the native path (see the module docstring)."""
    return (xp is np and switches.native_kernels_on()
            and all(a.dtype.char in TYPES and a.dtype.isnative and a.dtype == arrays[0].dtype
                    for a in arrays)
            and kernels(arrays[0].dtype.char) is not None)


def split(f, n: int, work: int, *args) -> None:
    """f(start, stop, *args) over 0..n-1, cut into one range per thread."""
    count = max(1, min(loop_pool.threads(), n, work // loop_pool.MIN_WORK))
    cuts = [n * t // count for t in range(count + 1)]
    with loop_pool.parallel():
        calls = [loop_pool.submit(f, a, b, *args) for a, b in zip(cuts[1:-1], cuts[2:])]
        f(cuts[0], cuts[1], *args)
        for call in calls:
            call.result()


class Columns:
    """The windows of a batch x `[B, C, H, W]` for one kernel size, in chunks of
    examples: chunk i (examples `spans[i]`) as `[C·kh·kw, b·H'·W']`.  Made by
    `conv2d_of_columns` chunk by chunk, each while the cache holds it, and kept
    (`keep`, up to `KEEP_BYTES` in all) for the kernel gradient."""

    def __init__(self, x, K, stride: int, pad: int, keep: bool = True):
        self.x, self.dims = x, sizes(x, K, stride, pad)
        self.keep = keep and self.nbytes() <= KEEP_BYTES
        b = len(x)
        count = -(-self.nbytes() // CHUNK_BYTES)
        # even, so that two threads get equal shares; but columns that fit in one chunk
        # stay one: a small batch's halves cost less than handing one to a thread
        count = min(b, count + count % 2 if count > 1 else 1)
        self.spans = [(b * i // count, b * (i + 1) // count) for i in range(count)]
        self.chunks: dict = {}

    def nbytes(self) -> int:
        """The bytes of every chunk's columns."""
        c, _, _, _, kh, kw, _, _, ho, wo = self.dims
        return len(self.x) * c * kh * kw * ho * wo * self.x.itemsize

    def chunk(self, i: int):
        """The columns of chunk i (made now unless kept)."""
        if i in self.chunks:
            return self.chunks[i]
        (b0, b1), (c, h, w, _, kh, kw, s, p, ho, wo) = self.spans[i], self.dims
        cols = np.empty((c * kh * kw, (b1 - b0) * ho * wo), self.x.dtype)
        kernels(self.x.dtype.char).im2col(0, b1 - b0, address(self.x) + b0 * self.x.strides[0],
                                          address(cols), b1 - b0, c, h, w, kh, kw, s, p, ho, wo)
        if self.keep:
            self.chunks[i] = cols
        return cols


def over_chunks(task, count: int) -> list:
    """[task(i) for i in range(count)], the chunks split over the loop threads."""
    threads = max(1, min(loop_pool.threads(), count))
    if threads > 1 and not blas_threads.found():
        threads = 1
    cuts = [count * t // threads for t in range(threads + 1)]

    def run(a, b):
        return [task(i) for i in range(a, b)]
    if threads == 1:
        return run(0, count)
    with loop_pool.parallel():
        calls = [loop_pool.submit(run, a, b) for a, b in zip(cuts[1:-1], cuts[2:])]
        out = run(cuts[0], cuts[1])
        for call in calls:
            out += call.result()
    return out


def by_channel(g):
    """`[B, F, H', W']` → `[F, B·H'·W']`."""
    return np.ascontiguousarray(g.transpose(1, 0, 2, 3)).reshape(g.shape[1], -1)


class Direct:
    """What `conv2d_columns` gives for a direct convolution: the image, no columns."""
    def __init__(self, image):
        self.image = image


def direct(x, K, groups: int = 1) -> bool:
    """Whether the convolution of x by K runs as direct loops: ungrouped, few taps
    per output (the GEMM of the columns is then bound by memory), planes large
    enough for the loops over them to pay (below, the GEMM of a small batch costs less)."""
    return (groups == 1 and K.shape[2] * K.shape[3] * K.shape[4] <= DIRECT_TAPS
            and x.shape[2] * x.shape[3] >= DIRECT_PLANE)


def grouped(a, b, groups: int):
    """Group i of a's rows `[G·m, k]` times group i of b's rows `[G·k, n]`:
    `[G·m, n]`, one matmul batched over the groups (a @ b for one group).  With
    one filter per group (depthwise Kᵀg: k = 1) the product is an outer product,
    broadcast: BLAS took 4× longer over the groups' thin GEMMs."""
    if groups == 1:
        return a @ b
    a, b = convolution.per_group(a, groups), convolution.per_group(b, groups)
    return convolution.ungrouped(a * b if a.shape[-1] == 1 else np.matmul(a, b))


def transposed_kernel(K, groups: int):
    """The kernel matrix transposed group by group, `[G·C/G·kh·kw, F/G]` (contiguous):
    `grouped(it, g)` is Kᵀg."""
    rows = convolution.per_group(K.reshape(K.shape[1], -1), groups).swapaxes(-1, -2)
    return np.ascontiguousarray(rows).reshape(-1, K.shape[1] // groups)


def sizes(x, K, stride: int, pad: int) -> tuple:
    """The size arguments of the direct kernels: C, H, W, F, kh, kw, s, p, H', W'."""
    (_, c, h, w), (_, f, _, kh, kw) = x.shape, K.shape
    ho, wo = convolution.out_size(h, kh, stride, pad), convolution.out_size(w, kw, stride, pad)
    return c, h, w, f, kh, kw, stride, pad, ho, wo


def conv_direct(x, K, stride: int, pad: int):
    dims = sizes(x, K, stride, pad)
    out, K = np.empty((x.shape[0], dims[3]) + dims[-2:], x.dtype), np.ascontiguousarray(K)
    split(kernels(x.dtype.char).conv_direct, x.shape[0], out.size, address(x), address(K),
          address(out), *dims)
    return out


def conv_kernel_direct(g, x, K, stride: int, pad: int):
    """The batch sum of the per-example kernel gradients (summed in numpy: one
    order whatever the threads)."""
    g = np.ascontiguousarray(g)
    part = np.empty((x.shape[0],) + K.shape[1:], g.dtype)
    split(kernels(g.dtype.char).conv_kernel_direct, x.shape[0], g.size * math.prod(K.shape[2:]),
          address(x), address(g), address(part), *sizes(x, K, stride, pad))
    return part.sum(axis=0)


def to_onednn(xp, x, K, groups: int, *more) -> bool:
    """Whether the forward and kernel gradient of x by K run through oneDNN:
    float32 where it is installed, but not a direct convolution (LeNet-5's
    first layer at batch 64, one thread: the direct loops took 0.5-1.05x
    oneDNN's time; VGG-16's first layer 0.8-1.3x, no clear winner)."""
    return onednn_c.takes(xp, x, K, *more) and not direct(x, K, groups)


def conv2d(xp, x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    if (K.shape[0] == 1 and enabled(xp, x, K) and to_onednn(xp, x, K, groups)
            and (out := onednn_c.conv2d(x, K[0], stride, pad, groups)) is not None):
        return out
    cols = conv2d_columns(xp, x, K, stride, pad, groups, keep=False)
    if cols is None:
        return convolution.conv2d(xp, x, K, stride, pad, groups)
    return conv2d_of_columns(xp, cols, x, K, stride, pad, groups)


def conv2d_image_grad(xp, g, K, x, stride: int = 1, pad: int = 0, groups: int = 1):
    if K.shape[0] != 1 or not enabled(xp, g, K):
        return convolution.conv2d_image_grad(xp, g, K, x, stride, pad, groups)
    if (onednn_c.takes(xp, g, K) and onednn_c.image_grad_faster(x.shape, stride)
            and (image := onednn_c.conv2d_image_grad(g, K[0], x.shape, stride, pad, groups))
            is not None):
        return image
    g = np.ascontiguousarray(g)
    image = np.empty((g.shape[0],) + x.shape[1:], g.dtype)
    windows = Columns(image, K, stride, pad, keep=False)
    c, h, w, f, kh, kw, s, p, ho, wo = windows.dims
    kernel_t = transposed_kernel(K, groups)

    def chunk(i):
        b0, b1 = windows.spans[i]
        cols = grouped(kernel_t, by_channel(g[b0:b1]), groups)          # [C·kh·kw, b·H'·W']
        at = address(image) + b0 * image.strides[0]
        kernels(g.dtype.char).col2im(0, b1 - b0, address(cols), at, b1 - b0, c, h, w, kh, kw, s,
                                     p, ho, wo)
    over_chunks(chunk, len(windows.spans))
    return image


def conv2d_kernel_grad_sum(xp, g, x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    if g.shape[0] != x.shape[0] or not enabled(xp, g, x):
        return convolution.conv2d_kernel_grad_sum(xp, g, x, K, stride, pad, groups)
    if (to_onednn(xp, x, K, groups, g) and onednn_c.kernel_grad_faster(x.shape, groups)
            and (grad := onednn_c.conv2d_kernel_grad_sum(g, x, K.shape[1:], stride, pad, groups))
            is not None):
        return grad
    x = np.ascontiguousarray(x)
    windows = Direct(x) if direct(x, K, groups) else Columns(x, K, stride, pad, keep=False)
    return conv2d_kernel_grad_sum_of_columns(xp, g, windows, x, K, stride, pad, groups)


def conv2d_columns(xp, x, K, stride: int = 1, pad: int = 0, groups: int = 1,
                   keep: bool = True):
    """The windows of x for `conv2d_of_columns`, held by the plan for
    `conv2d_kernel_grad_sum_of_columns` (the columns themselves kept up to
    `KEEP_BYTES`, and with `keep`); None off the native path."""
    if K.shape[0] != 1 or not enabled(xp, x, K) or to_onednn(xp, x, K, groups):
        return None      # oneDNN makes no columns: the plain calls run
    x = np.ascontiguousarray(x)
    return Direct(x) if direct(x, K, groups) else Columns(x, K, stride, pad, keep)


def conv2d_of_columns(xp, cols, x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    """`conv2d x K` from x's windows (None: computed as `conv2d` does): a GEMM
    per chunk of examples, each written into the examples' place in the output."""
    if cols is None:
        return conv2d(xp, x, K, stride, pad, groups)
    if isinstance(cols, Direct):
        return conv_direct(cols.image, K, stride, pad)
    c, h, w, f, kh, kw, s, p, ho, wo = cols.dims
    out = np.empty((len(cols.x), f, ho, wo), cols.x.dtype)
    kernel = K.reshape(f, -1)

    def chunk(i):
        b0, b1 = cols.spans[i]
        part = grouped(kernel, cols.chunk(i), groups).reshape(f, b1 - b0, ho, wo)  # [F, b·H'·W']
        out[b0:b1] = part.transpose(1, 0, 2, 3)
    over_chunks(chunk, len(cols.spans))
    return out


def conv2d_kernel_grad_sum_of_columns(xp, g, cols, x, K, stride: int = 1, pad: int = 0,
                                      groups: int = 1):
    """`conv2d_kernel_grad_sum` from x's windows (None: as it does); the chunks'
    GEMMs summed in their order (the same whatever the threads)."""
    if cols is None or g.shape[0] != x.shape[0] or not enabled(xp, g, x):
        return conv2d_kernel_grad_sum(xp, g, x, K, stride, pad, groups)
    if isinstance(cols, Direct):
        return conv_kernel_direct(g, cols.image, K, stride, pad)
    parts = over_chunks(lambda i: kernel_part(by_channel(g[slice(*cols.spans[i])]),
                                              cols.chunk(i), groups), len(cols.spans))
    total = np.zeros(K.shape[1:], g.dtype).reshape(K.shape[1], -1)
    for part in parts:
        total += part
    return total.reshape(K.shape[1:])


def kernel_part(g, cols, groups: int):
    """The kernel gradient of a chunk, g `[F, N]` times its columns `[G·k, N]`
    transposed group by group: `[F, k]`."""
    if groups == 1:
        return g @ cols.T
    part = np.matmul(convolution.per_group(g, groups),
                     convolution.per_group(cols, groups).swapaxes(-1, -2))
    return convolution.ungrouped(part)


def conv2d_grads_of_columns(xp, g, cols, x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    """(`conv2d_image_grad`, `conv2d_kernel_grad_sum_of_columns`) of one
    convolution, the kernel's on a loop thread while this one makes the
    image's, where each would run on one thread alone (module docstring)."""
    kernel = functools.partial(conv2d_kernel_grad_sum_of_columns, xp, g, cols, x, K, stride, pad,
                               groups)
    if not side_by_side(xp, g, cols, x, K, stride, pad):
        return conv2d_image_grad(xp, g, K, x, stride, pad, groups), kernel()
    with loop_pool.parallel():
        later = loop_pool.submit(kernel)
        return conv2d_image_grad(xp, g, K, x, stride, pad, groups), later.result()


def side_by_side(xp, g, cols, x, K, stride: int, pad: int) -> bool:
    """Whether the two gradients of `conv2d_grads_of_columns` run at once: two
    loop threads, BLAS's count settable (it is on one thread meanwhile), both
    on the native path in one chunk (a chunk split over the threads keeps them
    busy already; and a chunked gradient would hand chunks to the pool from a
    pool thread)."""
    return (loop_pool.threads() > 1 and isinstance(cols, Columns) and len(cols.spans) == 1
            and cols.nbytes() >= SIDE_BY_SIDE_BYTES
            and K.shape[0] == 1 and g.shape[0] == x.shape[0] and enabled(xp, g, K, x)
            and len(Columns(x, K, stride, pad, keep=False).spans) == 1
            and blas_threads.found())


def pooled(mode: int, x, k: int, stride: int, ceil: int):
    b, c, h, w = x.shape
    ho, wo = (convolution.out_size(n, k, stride, 0, ceil) for n in (h, w))
    out = np.empty((b, c, ho, wo), x.dtype)
    split(kernels(x.dtype.char).pool, b * c, x.size, mode, address(x), address(out),
          h, w, k, stride, ho, wo)
    return out


def adjoint(mode: int, x, g, image, k: int, stride: int):
    """Run pool_adjoint over the planes; returns the array it wrote."""
    b, c, h, w = image.shape
    split(kernels(g.dtype.char).pool_adjoint, b * c, image.size, mode, address(x),
          address(g), address(image), h, w, k, stride, g.shape[2], g.shape[3])


def maxpool2d(xp, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    if pad or not enabled(xp, x):
        return convolution.maxpool2d(xp, x, k, stride, pad, ceil)
    return pooled(MAX, np.ascontiguousarray(x), k, stride or k, ceil)


def avgpool2d(xp, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    if pad or not enabled(xp, x):
        return convolution.avgpool2d(xp, x, k, stride, pad, ceil)
    return pooled(1, np.ascontiguousarray(x), k, stride or k, ceil)


def maxpool2d_grad(xp, g, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    if pad or g.shape[0] != x.shape[0] or not enabled(xp, g, x):
        return convolution.maxpool2d_grad(xp, g, x, k, stride, pad, ceil)
    image = np.empty(x.shape, g.dtype)
    adjoint(MAX, np.ascontiguousarray(x), np.ascontiguousarray(g), image, k, stride or k)
    return image


def maxpool2d_gather(xp, G, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    if pad or G.shape[0] != x.shape[0] or not enabled(xp, G, x):
        return convolution.maxpool2d_gather(xp, G, x, k, stride, pad, ceil)
    x, G = np.ascontiguousarray(x), np.ascontiguousarray(G)
    s = stride or k
    out = np.empty(x.shape[:2] + tuple(convolution.out_size(n, k, s, 0, ceil)
                                       for n in x.shape[2:]), G.dtype)
    adjoint(GATHER, x, out, G, k, s)
    return out


def avgpool2d_grad(xp, g, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    if pad or not enabled(xp, g):
        return convolution.avgpool2d_grad(xp, g, x, k, stride, pad, ceil)
    g = np.ascontiguousarray(g)
    image = np.empty((g.shape[0],) + x.shape[1:], g.dtype)
    adjoint(AVG, image, g, image, k, stride or k)
    return image


FORWARDS = {f.__name__: f for f in (conv2d, conv2d_image_grad, conv2d_kernel_grad_sum,
                                    maxpool2d, avgpool2d, maxpool2d_grad, maxpool2d_gather,
                                    avgpool2d_grad, conv2d_columns, conv2d_of_columns,
                                    conv2d_kernel_grad_sum_of_columns, conv2d_grads_of_columns)}
