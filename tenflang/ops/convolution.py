"""Batched 2-D convolution and pooling, and their adjoints, on an array module `xp`.

Conventions (those of the op table, docs/guide/language.md "Convolution and pooling"):

* Every array carries one leading example axis: an image is `[B, C, H, W]`,
  a kernel `[B, F, C, kh, kw]`; B is 1 for a weight or a constant, and an
  operand of batch 1 broadcasts against one of batch B.
* `conv2d` is PyTorch's `conv2d`: cross-correlation with zero padding, no bias,
  `H' = (H + 2 pad - kh) // stride + 1`; with `groups` = G (PyTorch's
  `groups`) the C channels and F filters split into G equal groups, filter
  group i seeing channel group i only, so a kernel is `[B, F, C/G, kh, kw]`
  (depthwise convolution: G = C).  G = 1 takes the ungrouped code as it
  is.  A grouped op whose groups each hold `GROUP_LOOP_COLUMNS` column entries
  or more (B·C/G·kh·kw·H'·W') runs as the ungrouped op on each group's
  channels and filters, the results joined (`each_group`); a smaller one as
  one GEMM batched over the examples and groups (`grouped_product`), where a
  loop's per-group calls would cost more than its arithmetic.  The loop is
  the faster for large groups, few or many (bench/bench_grouped_conv.py,
  float32, one thread: AlexNet's two towers at batch 8, kernel gradient's sum
  100 → 55 ms; 64 depthwise groups of [32, 1, 28, 28], image gradient
  45 → 8 ms): each group's GEMMs are as large as an ungrouped layer's, and
  the ungrouped code sums stride-1 image gradients inside its GEMM.
  Pooling has a square `k × k` window and is PyTorch's `max_pool2d`/
  `avg_pool2d` with `padding=pad` (2·pad ≤ k, so every window holds a pixel
  of the image): max-pooling pads with -∞, so
  padding never wins a max, and average pooling pads with zeros and divides
  by k² (`count_include_pad=True`); the gradient of a max-pooling window goes
  to its first maximum in row-major order (as PyTorch's CPU kernel does).
  With `ceil` (PyTorch's `ceil_mode=True`, Caffe's pooling) the output size
  rounds up: a last window may reach past the padded image (`overhang`), the
  image then padded that much more below and right (-∞ or zeros), and an
  average divides by what its window covers of the padded image only
  (`window_sizes`: PyTorch's divisor with `count_include_pad=True`, Caffe's).
* Speed comes from BLAS and strided views, never from a Python loop over
  examples, pixels or channels: the windows of the whole batch are one strided
  view, copied once into a column matrix `[B, C·kh·kw, H'·W']` (im2col) and
  multiplied by the kernel matrix in one batched GEMM.  The kernel gradient's
  batch sum (`conv2d_kernel_grad_sum`) contracts the example axis inside a
  single GEMM, so no `[B, F, C, kh, kw]` array is made.  At stride 1 the image
  gradient sums a window row's columns inside its GEMM too (`row_sums`, over
  row-flattened images).  The only Python loops run over the offsets inside a
  window (col2im, pooling) and over large groups, each step one whole-batch
  array operation.
* Shape-only operands (the image of `conv2d_image_grad`, the kernel of
  `conv2d_kernel_grad`, the image of `avgpool2d_grad`) are arrays whose values
  are never read: they say the size of the result, as the op table's
  `sum_like` does.
"""
from __future__ import annotations


GROUP_LOOP_COLUMNS = 1 << 16   # a group's column entries from which groups run one by one


def out_size(n: int, k: int, stride: int, pad: int = 0, ceil: int = 0) -> int:
    """Positions of a k-wide window along an axis of n (PyTorch's formula).  With
    `ceil`, also a last window that reaches past the padded image, if it starts
    inside the image or its left padding (PyTorch's `ceil_mode`, Caffe's pooling)."""
    if not ceil:
        return (n + 2 * pad - k) // stride + 1
    count = -(-(n + 2 * pad - k) // stride) + 1
    return count - 1 if (count - 1) * stride >= n + pad else count


def overhang(n: int, k: int, stride: int, pad: int, ceil: int) -> int:
    """How far the last window reaches past the padded axis: 0 but in ceil mode."""
    return max(0, (out_size(n, k, stride, pad, ceil) - 1) * stride + k - n - 2 * pad)


def pool_extra(shape, k: int, stride: int, pad: int, ceil: int) -> tuple[int, int]:
    """The overhang of a pooling's last windows below and right of `[…, H, W]`."""
    return tuple(overhang(n, k, stride, pad, ceil) for n in shape[-2:])


def batch_of(*arrays) -> int:
    return max(a.shape[0] for a in arrays)


def padded(xp, x, pad: int, fill: float = 0.0, extra=(0, 0)):
    """x with `pad` entries `fill` around each image, and `extra` more below and
    right (a ceil-mode pooling's overhang); xp.pad costs more than the copy on
    small batches."""
    if pad == 0 and not any(extra):
        return x
    b, c, h, w = x.shape
    out = xp.full((b, c, h + 2 * pad + extra[0], w + 2 * pad + extra[1]), fill, dtype=x.dtype)
    out[:, :, pad:pad + h, pad:pad + w] = x
    return out


def cropped(image, pad: int, extra=(0, 0)):
    """A padded image without its padding (a view)."""
    if not pad and not any(extra):
        return image
    return image[:, :, pad:image.shape[2] - pad - extra[0], pad:image.shape[3] - pad - extra[1]]


def windows(xp, x, kh: int, kw: int, stride: int):
    """The `[B, C, kh, kw, H', W']` strided view of x's windows (no copy;
    writing through it touches x, once per window that covers a pixel)."""
    b, c, h, w = x.shape
    sb, sc, sh, sw = x.strides
    shape = (b, c, kh, kw, out_size(h, kh, stride), out_size(w, kw, stride))
    return xp.lib.stride_tricks.as_strided(x, shape, (sb, sc, sh, sw, sh * stride, sw * stride))


def im2col(xp, x, kh: int, kw: int, stride: int, pad: int):
    """The columns `[B, C·kh·kw, H'·W']` of x's windows: one copy of the batch."""
    view = windows(xp, padded(xp, x, pad), kh, kw, stride)
    b, c, _, _, ho, wo = view.shape
    return xp.ascontiguousarray(view).reshape(b, c * kh * kw, ho * wo)


def kernel_matrix(K):
    """`[B, F, C, kh, kw]` → `[B, F, C·kh·kw]` (a view)."""
    b, f = K.shape[:2]
    return K.reshape(b, f, -1)


def matmul_columns(xp, A, cols):
    """A `[1 or B, m, k]` · cols `[B, k, n]`: one GEMM for the whole batch when A
    is shared and n = 1 (a dense layer written as a convolution whose kernel
    covers its input), else a batched GEMM."""
    if A.shape[0] == 1 and cols.shape[-1] == 1:
        return xp.matmul(cols[:, :, 0], A[0].T)[:, :, None]
    return xp.matmul(A, cols)


# --- convolution ---------------------------------------------------------------

def per_group(a, groups: int):
    """`[..., m, n]` → `[..., G, m/G, n]`: the rows of group after group (a view)."""
    m, n = a.shape[-2:]
    return a.reshape(a.shape[:-2] + (groups, m // groups, n))


def ungrouped(a):
    """`[..., G, m, n]` → `[..., G·m, n]`, the groups' rows one after the other."""
    groups, m, n = a.shape[-3:]
    return a.reshape(a.shape[:-3] + (groups * m, n))


def looped(batch: int, plane: int, K, groups: int) -> bool:
    """Whether a grouped convolution by K with outputs of `plane` pixels runs group
    by group (module docstring): each group's columns hold `GROUP_LOOP_COLUMNS`
    entries or more."""
    return groups > 1 and batch * K[0, 0].size * plane >= GROUP_LOOP_COLUMNS


def each_group(xp, f, operands, groups: int, rest, axis: int = 1):
    """f, ungrouped, on each group's channels or filters of `operands` (their
    axis 1), the results joined along `axis`."""
    parts = zip(*(xp.split(a, groups, axis=1) for a in operands))
    return xp.concatenate([f(xp, *part, *rest) for part in parts], axis=axis)


def grouped_product(xp, A, cols, groups: int):
    """Group i of A's rows `[1 or B, F, k]` times group i of the columns
    `[B, G·k, n]`: `[B, F, n]`, one batched GEMM over the examples and groups."""
    if groups == 1:
        return matmul_columns(xp, A, cols)
    return ungrouped(xp.matmul(per_group(A, groups), per_group(cols, groups)))


def conv2d(xp, x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    """x `[B, C, H, W]` ⋆ K `[B, F, C/G, kh, kw]` → `[B, F, H', W']`."""
    kh, kw = K.shape[-2:]
    h, w = x.shape[-2:]
    ho, wo = out_size(h, kh, stride, pad), out_size(w, kw, stride, pad)
    if looped(batch_of(x, K), ho * wo, K, groups):
        return each_group(xp, conv2d, (x, K), groups, (stride, pad))
    cols = im2col(xp, x, kh, kw, stride, pad)
    out = grouped_product(xp, kernel_matrix(K), cols, groups)
    return out.reshape(out.shape[:2] + (ho, wo))


def col2im(xp, cols, shape, stride: int, pad: int):
    """Sum `[B, C, kh, kw, H', W']` window values back onto a `[B, C, H, W]` image
    (the adjoint of `im2col`): one strided copy when no two windows overlap,
    else one whole-batch add per window offset."""
    b, c, kh, kw, ho, wo = cols.shape
    h, w = shape
    image = xp.zeros((b, c, h + 2 * pad, w + 2 * pad), dtype=cols.dtype)
    view = windows(xp, image, kh, kw, stride)
    if (stride >= kh or ho == 1) and (stride >= kw or wo == 1):
        view[...] = cols
    else:
        for i in range(kh):
            for j in range(kw):
                view[:, :, i, j] += cols[:, :, i, j]
    return cropped(image, pad)


def adjoint_columns(xp, g, K, groups: int):
    """The columns Kᵀg `[B, C·kh·kw, H'·W']` of the adjoint g `[B, F, H', W']`,
    group i of the kernel's filters transposed onto group i of g's channels."""
    b, f, ho, wo = g.shape
    g = g.reshape(b, f, ho * wo)
    if groups == 1:
        return matmul_columns(xp, kernel_matrix(K).transpose(0, 2, 1), g)
    return ungrouped(xp.matmul(per_group(kernel_matrix(K), groups).swapaxes(-1, -2),
                               per_group(g, groups)))


def conv2d_image_grad(xp, g, K, x, stride: int = 1, pad: int = 0, groups: int = 1):
    """d/dx of `conv2d x K` given the adjoint g `[B, F, H', W']`: `[B, C, H, W]`
    (x gives only the shape).  The columns Kᵀg come from one batched GEMM and
    are summed back onto the image (col2im); with stride 1 and no groups the
    sum over a window's columns happens inside the GEMM instead (`row_sums`)."""
    kh, kw = K.shape[-2:]
    b, _, ho, wo = g.shape
    c, h, w = x.shape[-3:]
    if looped(batch_of(g, K), ho * wo, K, groups):
        return each_group(xp, conv2d_image_grad, (g, K, x), groups, (stride, pad))
    if stride != 1 or ho * wo == 1 or groups > 1:
        cols = adjoint_columns(xp, g, K, groups)
        return col2im(xp, cols.reshape(cols.shape[0], c, kh, kw, ho, wo), (h, w), stride, pad)
    hp, wp = h + 2 * pad, w + 2 * pad
    sums = row_sums(xp, g, K, wp)                           # [B, kh, C, H'·Wp + kw - 1]
    image = xp.zeros((sums.shape[0], c, hp * wp + kw - 1), dtype=sums.dtype)
    for i in range(kh):                  # window row i lands i rows further down
        image[:, :, i * wp:i * wp + sums.shape[-1]] += sums[:, i]
    return image[:, :, :hp * wp].reshape(-1, c, hp, wp)[:, :, pad:pad + h, pad:pad + w]


def row_sums(xp, g, K, wp: int):
    """`T[b, i, c, q] = Σ_f,j K[f, c, i, j] · g°[b, f, q - j]`, g° the adjoint
    widened to Wp columns and row-flattened: the contribution of window row i
    to the flat image, one batched GEMM over kw shifted copies of g (kw times
    g, instead of kh·kw image-sized column blocks)."""
    _, f, c, kh, kw = K.shape
    b, _, ho, wo = g.shape
    run = ho * wp + kw - 1
    flat = xp.zeros((b, f, ho * wp + 2 * (kw - 1)), dtype=g.dtype)
    flat[:, :, kw - 1:kw - 1 + ho * wp].reshape(b, f, ho, wp)[..., :wo] = g
    sb, sf, s = flat.strides
    shifted = xp.lib.stride_tricks.as_strided(flat, (b, f, kw, run), (sb, sf, s, s))
    shifted = xp.ascontiguousarray(shifted).reshape(b, f * kw, run)   # [b, (f, kw-1-j), q]
    rows = K[..., ::-1].transpose(0, 3, 2, 1, 4).reshape(K.shape[0], kh * c, f * kw)
    return xp.matmul(rows, shifted).reshape(-1, kh, c, run)


def conv2d_kernel_grad(xp, g, x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    """d/dK of `conv2d x K` given the adjoint g, per example:
    `[B, F, C/G, kh, kw]` (K gives only the shape)."""
    kh, kw = K.shape[-2:]
    b, f, ho, wo = g.shape
    if looped(batch_of(g, x), ho * wo, K, groups):
        return each_group(xp, conv2d_kernel_grad, (g, x, K), groups, (stride, pad))
    cols, g = im2col(xp, x, kh, kw, stride, pad), g.reshape(b, f, ho * wo)
    if groups == 1:
        grad = xp.matmul(g, cols.transpose(0, 2, 1))
    else:
        grad = xp.matmul(per_group(g, groups), per_group(cols, groups).swapaxes(-1, -2))
    return grad.reshape(grad.shape[:1] + K.shape[1:])


def conv2d_kernel_grad_sum(xp, g, x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    """`conv2d_kernel_grad` summed over the examples, `[F, C/G, kh, kw]` (no example
    axis, as `sum(axis=0)` gives): the example axis is contracted with the
    output positions inside one GEMM, `[C·kh·kw, B·H'·W'] · [B·H'·W', F]`
    (one per group, batched over the groups)."""
    if looped(batch_of(g, x), g.shape[2] * g.shape[3], K, groups):
        return each_group(xp, conv2d_kernel_grad_sum, (g, x, K), groups, (stride, pad), axis=0)
    if g.shape[0] != x.shape[0]:        # one side is shared: sum the other first
        g, x = (g.sum(axis=0, keepdims=True), x) if x.shape[0] == 1 else \
               (g, x.sum(axis=0, keepdims=True))
    if groups > 1:
        return grouped_kernel_grad_sum(xp, g, x, K, stride, pad, groups)
    kh, kw = K.shape[-2:]
    b, f, ho, wo = g.shape
    column = K.shape[-3] * kh * kw       # a column's length, C·kh·kw (also for an empty batch)
    if ho * wo == 1:                     # one window (a dense layer): the image is the column
        cols = im2col(xp, x, kh, kw, stride, pad).reshape(b, column).T
        rows = g.reshape(b, f).T
    else:
        view = windows(xp, padded(xp, x, pad), kh, kw, stride)
        cols = xp.ascontiguousarray(view.transpose(1, 2, 3, 0, 4, 5))     # [C, kh, kw, B, H', W']
        rows = xp.ascontiguousarray(g.transpose(1, 0, 2, 3)).reshape(f, -1)
    # columns first: OpenBLAS runs [C·kh·kw, N]·[N, F] faster than [F, N]·[N, C·kh·kw]
    grad = xp.matmul(cols.reshape(column, -1), rows.T).T
    return grad.reshape(K.shape[1:])


def grouped_kernel_grad_sum(xp, g, x, K, stride: int, pad: int, groups: int):
    """`conv2d_kernel_grad_sum` with G groups: per group, the filters' adjoint
    rows `[F/G, B·H'·W']` times the group's columns `[B·H'·W', C/G·kh·kw]`,
    one GEMM batched over the groups."""
    kh, kw = K.shape[-2:]
    b, f, ho, wo = g.shape
    column = K.shape[-3] * kh * kw      # a group's column length (also for an empty batch)
    cols = im2col(xp, x, kh, kw, stride, pad).reshape(b, groups, column, ho * wo)
    cols = cols.transpose(1, 0, 3, 2).reshape(groups, b * ho * wo, column)
    rows = g.reshape(b, groups, f // groups, ho * wo).transpose(1, 2, 0, 3)
    grad = xp.matmul(rows.reshape(groups, f // groups, b * ho * wo), cols)
    return grad.reshape(K.shape[1:])


# --- pooling -------------------------------------------------------------------

def taps(k: int):
    """The window offsets in row-major order."""
    return [(i, j) for i in range(k) for j in range(k)]


def pool_windows(xp, x, k: int, stride: int):
    return windows(xp, x, k, k, stride)


def maxpool2d(xp, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    """Max over each k×k window of x padded by -∞: `[B, C, H, W]` → `[B, C, H', W']`."""
    s = stride or k
    view = pool_windows(xp, padded(xp, x, pad, -xp.inf, pool_extra(x.shape, k, s, pad, ceil)),
                        k, s)
    out = xp.array(view[:, :, 0, 0])
    for i, j in taps(k)[1:]:
        xp.maximum(out, view[:, :, i, j], out=out)
    return out


def first_maxima(xp, x, k: int, stride: int):
    """Where each window's first maximum (row-major) sits in x (already padded):
    the flat index within x's `H·W` plane, `[B, C, H', W']`.  One window-sized
    array per step, never k² masks at once (memory within a few times x's)."""
    view = pool_windows(xp, x, k, stride)
    best = xp.array(view[:, :, 0, 0])
    at = xp.zeros(best.shape, dtype=xp.int64)
    for t, (i, j) in enumerate(taps(k)[1:], 1):
        better = view[:, :, i, j] > best            # strict: the first maximum stays
        xp.copyto(best, view[:, :, i, j], where=better)
        xp.copyto(at, t, where=better)
    ho, wo = at.shape[2:]
    rows = (xp.arange(ho) * stride)[:, None] + at // k
    return rows * x.shape[3] + (xp.arange(wo) * stride + at % k)


def flat_positions(xp, at, batch: int, plane: int):
    """`at` (indices within a plane) as indices into the flat `[batch, C, plane]`."""
    c = at.shape[1]
    base = (xp.arange(batch * c, dtype=xp.int64) * plane).reshape(batch, c, 1, 1)
    return base + at


def maxpool2d_grad(xp, g, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    """d/dx of `maxpool2d x k stride pad ceil` given the adjoint g `[B, C, H', W']`:
    each window's adjoint goes to its first maximum, added up where windows
    share one (a bincount over the image); `[B, C, H, W]`."""
    s = stride or k
    extra = pool_extra(x.shape, k, s, pad, ceil)
    x = padded(xp, x, pad, -xp.inf, extra)
    b, (c, h, w) = batch_of(g, x), x.shape[1:]
    at = flat_positions(xp, first_maxima(xp, x, k, s), b, h * w)
    g = xp.broadcast_to(g, at.shape)
    image = xp.bincount(xp.broadcast_to(at, g.shape).ravel(), weights=g.ravel(),
                        minlength=b * c * h * w)
    return cropped(image.astype(g.dtype, copy=False).reshape(b, c, h, w), pad, extra)


def maxpool2d_gather(xp, G, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    """The adjoint of `maxpool2d_grad` in its g: G `[B, C, H, W]` read at each
    window's first maximum of x, `[B, C, H', W']`."""
    s = stride or k
    extra = pool_extra(x.shape, k, s, pad, ceil)
    G, x = padded(xp, G, pad, 0.0, extra), padded(xp, x, pad, -xp.inf, extra)
    b, (c, h, w) = batch_of(G, x), x.shape[1:]
    at = first_maxima(xp, x, k, s)
    at = flat_positions(xp, xp.broadcast_to(at, (b,) + at.shape[1:]), b, h * w)
    return xp.broadcast_to(G, (b, c, h, w)).reshape(-1)[at]


def window_sizes(n: int, k: int, stride: int, pad: int, ceil: int) -> list[int]:
    """The entries of the padded axis each window covers: k, less what a
    ceil-mode last window reaches past the padding."""
    return [min(i * stride + k, n + 2 * pad) - i * stride
            for i in range(out_size(n, k, stride, pad, ceil))]


def average_scale(xp, shape, dtype, k: int, stride: int, pad: int, ceil: int):
    """What avgpool2d of an image of `shape` multiplies its window sums by:
    1/k², or where a ceil-mode window reaches past the padding, one over the
    padded entries each covers (`[H', W']` of `dtype`), as PyTorch's avg_pool2d
    (count_include_pad) and Caffe divide."""
    if not any(pool_extra(shape, k, stride, pad, ceil)):
        return 1.0 / (k * k)
    rows, cols = (xp.asarray(window_sizes(n, k, stride, pad, ceil), dtype=xp.float64)
                  for n in shape[-2:])
    return (1.0 / (rows[:, None] * cols[None, :])).astype(dtype)


def avgpool2d(xp, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    """Mean over each k×k window of x padded by zeros, divided by k² whatever
    the window covers of the image (by less only where a ceil-mode window
    reaches past the padding: `average_scale`): `[B, C, H, W]` → `[B, C, H', W']`."""
    s = stride or k
    view = pool_windows(xp, padded(xp, x, pad, 0.0, pool_extra(x.shape, k, s, pad, ceil)), k, s)
    out = xp.array(view[:, :, 0, 0])
    for i, j in taps(k)[1:]:
        out += view[:, :, i, j]
    out *= average_scale(xp, x.shape, out.dtype, k, s, pad, ceil)
    return out


def avgpool2d_grad(xp, g, x, k: int, stride: int | None = None, pad: int = 0, ceil: int = 0):
    """d/dx of `avgpool2d x k stride pad ceil` given the adjoint g: g times the
    forward's scale spread over each window, `[B, C, H, W]` (x gives only the shape)."""
    s = stride or k
    share = g * average_scale(xp, x.shape, g.dtype, k, s, pad, ceil)
    cols = xp.broadcast_to(share[:, :, None, None], share.shape[:2] + (k, k) + share.shape[2:])
    (h, w), (eh, ew) = x.shape[-2:], pool_extra(x.shape, k, s, pad, ceil)
    return col2im(xp, cols, (h + eh, w + ew), s, pad)[:, :, :h, :w]
