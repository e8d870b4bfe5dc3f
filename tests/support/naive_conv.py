"""Convolution and pooling on one example, by loops over the output positions: the
independent references for tests/interpreter/test_interp.py (definitions: docs/guide/language.md).
Pooling follows PyTorch's CPU kernels (aten/src/ATen/native: pooling_output_shape,
the windows clipped to the image), not the padded strided views of
tenflang/ops/convolution.py."""
from __future__ import annotations

import itertools

import numpy as np


def positions(n: int, k: int, stride: int, pad: int = 0, ceil: int = 0) -> range:
    """PyTorch's pooling_output_shape: with ceil_mode the count rounds up, but the
    last window must start inside the image or its left padding."""
    count = (n + 2 * pad - k + (stride - 1 if ceil else 0)) // stride + 1
    if ceil and (count - 1) * stride >= n + pad:
        count -= 1
    return range(count)


def by_group(f, groups, image, kernel, *rest):
    """f on each group's channels of `image` and filters of `kernel` (PyTorch's
    groups), the results joined along their first axis; `kernel` is the operand
    whose first axis holds the filters (K, or the adjoint g)."""
    c, k = image.shape[0] // groups, kernel.shape[0] // groups
    return np.concatenate([f(image[i * c:(i + 1) * c], kernel[i * k:(i + 1) * k], *rest)
                           for i in range(groups)])


def conv2d(x, K, stride=1, pad=0, groups=1):
    if groups > 1:
        return by_group(conv2d, groups, x, K, stride, pad)
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    f, _, kh, kw = K.shape
    out = np.zeros((f, len(positions(x.shape[1], kh, stride, pad)),
                    len(positions(x.shape[2], kw, stride, pad))))
    for i, j in itertools.product(range(out.shape[1]), range(out.shape[2])):
        window = xp[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
        out[:, i, j] = [(K[o] * window).sum() for o in range(f)]
    return out


def conv2d_image_grad(g, K, x, stride=1, pad=0, groups=1):
    if groups > 1:        # group i of the image's channels from group i of g and K
        k, f = x.shape[0] // groups, K.shape[0] // groups
        return np.concatenate([conv2d_image_grad(g[i * f:(i + 1) * f], K[i * f:(i + 1) * f],
                                                 x[i * k:(i + 1) * k], stride, pad)
                               for i in range(groups)])
    _, _, kh, kw = K.shape
    grad = np.zeros((x.shape[0], x.shape[1] + 2 * pad, x.shape[2] + 2 * pad))
    for i, j in itertools.product(range(g.shape[1]), range(g.shape[2])):
        for o in range(K.shape[0]):
            grad[:, i * stride:i * stride + kh, j * stride:j * stride + kw] += g[o, i, j] * K[o]
    return grad[:, pad:pad + x.shape[1], pad:pad + x.shape[2]]


def conv2d_kernel_grad(g, x, K, stride=1, pad=0, groups=1):
    if groups > 1:        # group i of the filters from group i of g and x's channels
        k, f = x.shape[0] // groups, K.shape[0] // groups
        return np.concatenate([conv2d_kernel_grad(g[i * f:(i + 1) * f], x[i * k:(i + 1) * k],
                                                  K[i * f:(i + 1) * f], stride, pad)
                               for i in range(groups)])
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    _, _, kh, kw = K.shape
    grad = np.zeros(K.shape)
    for i, j in itertools.product(range(g.shape[1]), range(g.shape[2])):
        window = xp[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
        for o in range(K.shape[0]):
            grad[o] += g[o, i, j] * window
    return grad


def pool_windows(x, k, stride, pad=0, ceil=0):
    """PyTorch's pooling windows (i, j) of x `[C, H, W]`, as its CPU kernels
    find them: the rows and columns of the window clipped to the image, and
    the entries of the padded image it covers (avg_pool2d's divisor with
    count_include_pad: k² but for a ceil-mode window reaching past the padding)."""
    stride = stride or k
    h, w = x.shape[1:]
    for i, j in itertools.product(positions(h, k, stride, pad, ceil),
                                  positions(w, k, stride, pad, ceil)):
        top, left = i * stride - pad, j * stride - pad
        bottom, right = min(top + k, h + pad), min(left + k, w + pad)
        inside = (slice(max(top, 0), min(bottom, h)), slice(max(left, 0), min(right, w)))
        yield i, j, inside, (bottom - top) * (right - left)


def first_max(window) -> tuple[int, int]:
    """Row-major position of the first maximum of a window."""
    best = max(window.ravel().tolist())
    flat = window.ravel().tolist().index(best)
    return divmod(flat, window.shape[1])


def pooled_shape(x, k, stride, pad=0, ceil=0):
    stride = stride or k
    return (x.shape[0],) + tuple(len(positions(n, k, stride, pad, ceil)) for n in x.shape[1:])


def maxpool2d(x, k, stride=None, pad=0, ceil=0):
    out = np.zeros(pooled_shape(x, k, stride, pad, ceil))
    for i, j, (rows, cols), _ in pool_windows(x, k, stride, pad, ceil):
        out[:, i, j] = [x[c, rows, cols].max() for c in range(x.shape[0])]
    return out


def window_maxima(x, k, stride, pad, ceil):
    """(output position (c, i, j), input position of its window's first maximum)."""
    for i, j, (rows, cols), _ in pool_windows(x, k, stride, pad, ceil):
        for c in range(x.shape[0]):
            u, w = first_max(x[c, rows, cols])
            yield (c, i, j), (c, rows.start + u, cols.start + w)


def maxpool2d_grad(g, x, k, stride=None, pad=0, ceil=0):
    grad = np.zeros(x.shape)
    for out, source in window_maxima(x, k, stride, pad, ceil):
        grad[source] += g[out]
    return grad


def maxpool2d_gather(G, x, k, stride=None, pad=0, ceil=0):
    out = np.zeros(pooled_shape(x, k, stride, pad, ceil))
    for position, source in window_maxima(x, k, stride, pad, ceil):
        out[position] = G[source]
    return out


def avgpool2d(x, k, stride=None, pad=0, ceil=0):
    out = np.zeros(pooled_shape(x, k, stride, pad, ceil))
    for i, j, (rows, cols), size in pool_windows(x, k, stride, pad, ceil):
        out[:, i, j] = [x[c, rows, cols].sum() / size for c in range(x.shape[0])]
    return out


def avgpool2d_grad(g, x, k, stride=None, pad=0, ceil=0):
    grad = np.zeros(x.shape)
    for i, j, (rows, cols), size in pool_windows(x, k, stride, pad, ceil):
        grad[:, rows, cols] += g[:, i, j, None, None] / size
    return grad


REFERENCE = {name: globals()[name] for name in (
    "conv2d", "conv2d_image_grad", "conv2d_kernel_grad", "maxpool2d", "maxpool2d_grad",
    "maxpool2d_gather", "avgpool2d", "avgpool2d_grad")}
