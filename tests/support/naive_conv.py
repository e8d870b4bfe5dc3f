"""Convolution and pooling on one example, by loops over the output positions: the
independent references for tests/interpreter/test_interp.py (definitions: docs/guide/language.md)."""
from __future__ import annotations

import itertools

import numpy as np


def positions(n: int, k: int, stride: int, pad: int = 0) -> range:
    return range((n + 2 * pad - k) // stride + 1)


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


def pool_windows(x, k, stride):
    stride = stride or k
    for i, j in itertools.product(positions(x.shape[1], k, stride),
                                  positions(x.shape[2], k, stride)):
        yield i, j, (slice(i * stride, i * stride + k), slice(j * stride, j * stride + k))


def with_padding(x, pad, fill=0.0):
    """x with `pad` entries `fill` around each channel (-∞ for max pooling: PyTorch's)."""
    return np.pad(x, ((0, 0), (pad, pad), (pad, pad)), constant_values=fill)


def without_padding(image, pad):
    return image[:, pad:image.shape[1] - pad, pad:image.shape[2] - pad]


def first_max(window) -> tuple[int, int]:
    """Row-major position of the first maximum of a k×k window."""
    best = max(window.ravel().tolist())
    flat = window.ravel().tolist().index(best)
    return divmod(flat, window.shape[1])


def pooled_shape(x, k, stride):
    stride = stride or k
    return (x.shape[0],) + tuple(len(positions(n, k, stride)) for n in x.shape[1:])


def maxpool2d(x, k, stride=None, pad=0):
    x = with_padding(x, pad, -np.inf)
    out = np.zeros(pooled_shape(x, k, stride))
    for i, j, (rows, cols) in pool_windows(x, k, stride):
        out[:, i, j] = [x[c, rows, cols].max() for c in range(x.shape[0])]
    return out


def window_maxima(x, k, stride):
    """(output position (c, i, j), input position of its window's first maximum)."""
    for i, j, (rows, cols) in pool_windows(x, k, stride):
        for c in range(x.shape[0]):
            u, w = first_max(x[c, rows, cols])
            yield (c, i, j), (c, rows.start + u, cols.start + w)


def maxpool2d_grad(g, x, k, stride=None, pad=0):
    x = with_padding(x, pad, -np.inf)
    grad = np.zeros(x.shape)
    for out, source in window_maxima(x, k, stride):
        grad[source] += g[out]
    return without_padding(grad, pad)


def maxpool2d_gather(G, x, k, stride=None, pad=0):
    x, G = with_padding(x, pad, -np.inf), with_padding(G, pad)
    out = np.zeros(pooled_shape(x, k, stride))
    for position, source in window_maxima(x, k, stride):
        out[position] = G[source]
    return out


def avgpool2d(x, k, stride=None, pad=0):
    x = with_padding(x, pad)
    out = np.zeros(pooled_shape(x, k, stride))
    for i, j, (rows, cols) in pool_windows(x, k, stride):
        out[:, i, j] = [x[c, rows, cols].mean() for c in range(x.shape[0])]
    return out


def avgpool2d_grad(g, x, k, stride=None, pad=0):
    grad = np.zeros(with_padding(x, pad).shape)
    for i, j, (rows, cols) in pool_windows(grad, k, stride):
        grad[:, rows, cols] += g[:, i, j, None, None] / (k * k)
    return without_padding(grad, pad)


REFERENCE = {name: globals()[name] for name in (
    "conv2d", "conv2d_image_grad", "conv2d_kernel_grad", "maxpool2d", "maxpool2d_grad",
    "maxpool2d_gather", "avgpool2d", "avgpool2d_grad")}
