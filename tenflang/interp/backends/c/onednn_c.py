"""float32 convolution and its adjoints through oneDNN, where it is installed.

    available()                                     # False: reason() says why
    conv2d(x, K, stride, pad, groups)               # x [B, C, H, W], K [F, C/G, kh, kw]
    conv2d_image_grad(g, K, image_shape, stride, pad, groups)
    conv2d_kernel_grad_sum(g, x, kernel_shape, stride, pad, groups)

Conventions:

* oneDNN (Intel's Deep Neural Network Library, the CPU kernels PyTorch's
  convolution runs) comes from pip: `pip install tenflang[onednn]` installs
  `onednn-cpu-gomp` (its libdnnl.so, CPU only, GNU OpenMP threads) and
  `onednn-devel-cpu-gomp` (its C headers).  Both are found in this Python's
  environment (`sys.prefix`: the wheels put them in `lib/` and `include/`,
  or where the distributions' file lists say).  A C shim (onednn_conv.c) is
  compiled against them by clib, as the other kernels are, and loaded.
* Only float32: oneDNN has no float64 convolution; float64 stays on image_c's
  path.  Arrays are plain: x and the gradients nchw, K oihw (goihw grouped),
  contiguous.  oneDNN's direct convolution only (not Winograd, whose
  transforms round more than the direct sums); the primitive picks its
  blocked layouts and the shim reorders into and out of them.  Results equal
  the numpy path's to float32 round-off; a kernel gradient's bits may differ
  with the thread count (oneDNN splits the batch sum over its threads), not
  from run to run at one count.
* A primitive is made once per (kind, sizes) and kept (`plan`, at most
  `PLANS`, the oldest freed past that); each call sets the arrays' addresses
  and runs it.  Operands in oneDNN's blocked layouts are reordered into one
  work buffer shared by all plans (`workspace`, the largest plan's size:
  with a buffer per plan a process timing ResNet-50's layers at batch 4
  peaked at 725 MiB, with the shared one 129 MiB).  A lock
  keeps one call at a time: the work buffer and the stream are shared.
* Threads: oneDNN's OpenMP team runs `loop_pool.threads()` threads (the shim
  sets it before each call, `omp_set_num_threads`), numpy's BLAS idle
  meanwhile; a small convolution fewer (`team`: one per `MIN_PRODUCTS`).
  $OMP_WAIT_POLICY is set to PASSIVE (unless the user set it)
  before oneDNN's OpenMP loads: its idle threads sleep instead of spinning
  against the loop threads and BLAS (native/blas_threads.py's rule; GNU
  OpenMP reads the variable once, when it loads, so a process that loaded
  it earlier keeps its setting).  On a busy 2-core machine ResNet-50's
  layers took 2-3x longer with spinning threads (ACTIVE or GNU's default).
  A forked child makes its plans again and runs them on one thread
  (`after_fork`): GNU OpenMP's threads do not survive fork.
* TENFLANG_ONEDNN=0 switches it off (read once); no oneDNN, no C compiler or a
  shim that does not build: `available()` False, `reason()` the one line why.
"""
from __future__ import annotations

import collections
import ctypes
import functools
import math
import os
import sys
import threading
from pathlib import Path

import numpy as np

from tenflang.native import clib, loop_pool, switches
from tenflang.native.cpython import address

SOURCE = (Path(__file__).parent / "onednn_conv.c").read_text()
FORWARD, DATA, WEIGHTS = 0, 1, 2             # the shim's kinds
LIBRARIES = ("onednn-cpu-gomp", "onednn")    # distributions holding libdnnl
HEADERS = ("onednn-devel-cpu-gomp", "onednn-devel")
PLANS = 64
MIN_PRODUCTS = 1 << 24       # products a thread of oneDNN's team should have at least
NARROW = 16                  # image channels from which its image gradient runs here
STRIDED_PLANE = 56 * 56      # image pixels from which a strided image gradient does not
_plans: collections.OrderedDict = collections.OrderedDict()
_lock = threading.Lock()
_work: list = [None]         # the plans' shared work buffer (`workspace`)


def found(name: str, distributions: tuple) -> Path | None:
    """The file `name` (libdnnl.so, dnnl.h) in this environment, None if absent."""
    for folder in ("lib", "include"):
        if (path := Path(sys.prefix) / folder / name).exists():
            return path
    from importlib import metadata
    for dist in distributions:
        try:
            files = metadata.distribution(dist).files or ()
        except metadata.PackageNotFoundError:
            continue
        for f in files:
            if f.name == name:
                return Path(f.locate()).resolve()
    return None


@functools.lru_cache(maxsize=1)
def shim():
    """(the loaded shim, None) or (None, the reason it cannot be had)."""
    if not switches.onednn_on():
        return None, "TENFLANG_ONEDNN=0"
    lib, header = found("libdnnl.so", LIBRARIES), found("dnnl.h", HEADERS)
    if lib is None or header is None:
        return None, "oneDNN is not installed (pip install tenflang[onednn])"
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        loaded = clib.library(SOURCE, ("-O2", f"-I{header.parent}"),
                              (f"-L{lib.parent}", f"-Wl,-rpath,{lib.parent}", "-ldnnl"))
    except clib.NOT_BUILT as e:
        return None, f"the oneDNN shim did not build: {str(e).splitlines()[0]}"
    return declared(loaded), None


def declared(lib):
    lib.conv_plan_new.argtypes = [ctypes.c_int] + [ctypes.c_long] * 12 + [ctypes.c_int]
    lib.conv_plan_new.restype = ctypes.c_void_p
    lib.conv_plan_run.argtypes = [ctypes.c_void_p] * 5
    lib.conv_plan_work.argtypes = [ctypes.c_void_p]
    lib.conv_plan_work.restype = ctypes.c_size_t
    lib.conv_plan_run.restype = ctypes.c_int
    lib.conv_plan_impl.argtypes = [ctypes.c_void_p]
    lib.conv_plan_impl.restype = ctypes.c_char_p
    lib.conv_plan_free.argtypes = [ctypes.c_void_p]
    lib.conv_plan_free.restype = None
    lib.conv_after_fork.argtypes, lib.conv_after_fork.restype = [], None
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=functools.partial(after_fork, lib))
    return lib


def after_fork(lib) -> None:
    """In a forked child: one thread from now on, and plans made again (a
    plan's reorders keep the thread count it was made with, and GNU OpenMP's
    threads do not survive fork: a child's call on two threads hung)."""
    global _lock
    lib.conv_after_fork()
    _plans.clear()               # not freed: the parent's memory, harmless to keep
    _lock = threading.Lock()     # another thread may have held it at the fork


def available() -> bool:
    return shim()[0] is not None


def reason() -> str | None:
    """Why oneDNN does not run here, None where it does."""
    return shim()[1]


def out_size(n: int, k: int, stride: int, pad: int) -> int:
    return (n + 2 * pad - k) // stride + 1


def plan(kind: int, x_shape, k_shape, stride: int, pad: int, groups: int):
    """The shim's plan for these sizes (made once), None when oneDNN refuses it."""
    key = (kind, tuple(x_shape), tuple(k_shape), stride, pad, groups, loop_pool.threads())
    if key in _plans:
        _plans.move_to_end(key)
        return _plans[key]
    (b, c, h, w), (f, _, kh, kw) = x_shape, k_shape
    ho, wo = out_size(h, kh, stride, pad), out_size(w, kw, stride, pad)
    lib = shim()[0]
    made = lib.conv_plan_new(kind, b, c, h, w, f, kh, kw, stride, pad, ho, wo, groups,
                             team(b * f * ho * wo * math.prod(k_shape[1:])))
    _plans[key] = made
    if len(_plans) > PLANS:
        old = _plans.popitem(last=False)[1]
        if old:
            lib.conv_plan_free(old)
    return made


def team(products: int) -> int:
    """oneDNN's threads for a convolution of this many products: one per
    `MIN_PRODUCTS`, at most `loop_pool.threads()`.  Waking a sleeping team
    costs about 60-150 µs a call here (a convolution of 9.4 M products, [64,
    16, 8, 8] by 16 3x3 filters: 186 µs on one thread, 245 µs on two
    passive threads, 88 µs on two spinning ones): the digits ResNet's
    training on two threads took 2x image_c's time, on one 0.6x."""
    return max(1, min(loop_pool.threads(), products // MIN_PRODUCTS))


def implementation(kind: int, x_shape, k_shape, stride: int, pad: int, groups: int) -> str:
    """The oneDNN kernel a plan runs (`brg:avx512_core`, ...), for benchmarks."""
    made = plan(kind, x_shape, k_shape, stride, pad, groups)
    return shim()[0].conv_plan_impl(made).decode() if made else "refused"


def workspace(nbytes: int) -> int:
    """The address of the shared work buffer, of `nbytes` at least, 64-byte
    aligned (grown when a plan needs more; kept: the next step needs it again)."""
    if _work[0] is None or _work[0].nbytes < nbytes + 64:
        _work[0] = np.empty(max(nbytes, 1) + 64, np.uint8)
    at = address(_work[0])
    return at + (-at) % 64


def run(kind: int, x_shape, k_shape, stride, pad, groups, a, b, out):
    """Run the plan on contiguous float32 arrays a, b → out; False when refused."""
    with _lock:
        made = plan(kind, x_shape, k_shape, stride, pad, groups)
        if not made:
            return False
        work = workspace(shim()[0].conv_plan_work(made))
        status = shim()[0].conv_plan_run(made, address(a), address(b), address(out), work)
    if status:
        raise RuntimeError(f"oneDNN convolution failed (status {status})")
    return True


def usable(*arrays) -> bool:
    """Whether these arrays can take this path: all float32 numpy arrays, oneDNN here."""
    return (all(isinstance(a, np.ndarray) and a.dtype == np.float32 for a in arrays)
            and available())


def conv2d(x, K, stride: int = 1, pad: int = 0, groups: int = 1):
    """x [B, C, H, W] * K [F, C/G, kh, kw] → [B, F, H', W'], None when refused."""
    x, K = np.ascontiguousarray(x), np.ascontiguousarray(K)
    (b, _, h, w), (f, _, kh, kw) = x.shape, K.shape
    out = np.empty((b, f, out_size(h, kh, stride, pad), out_size(w, kw, stride, pad)), np.float32)
    return out if run(FORWARD, x.shape, K.shape, stride, pad, groups, x, K, out) else None


def conv2d_image_grad(g, K, image_shape, stride: int = 1, pad: int = 0, groups: int = 1):
    """The image gradient [B, C, H, W] of g [B, F, H', W'], None when refused."""
    g, K = np.ascontiguousarray(g), np.ascontiguousarray(K)
    image = np.empty((g.shape[0],) + tuple(image_shape[1:]), np.float32)
    return image if run(DATA, image.shape, K.shape, stride, pad, groups, g, K, image) else None


def conv2d_kernel_grad_sum(g, x, kernel_shape, stride: int = 1, pad: int = 0, groups: int = 1):
    """The kernel gradient [F, C/G, kh, kw] summed over the batch, None when refused."""
    g, x = np.ascontiguousarray(g), np.ascontiguousarray(x)
    grad = np.empty(tuple(kernel_shape), np.float32)
    return grad if run(WEIGHTS, x.shape, grad.shape, stride, pad, groups, x, g, grad) else None


def image_grad_faster(image_shape, stride: int) -> bool:
    """Whether oneDNN's image gradient beat image_c's (bench/results_onednn_conv.md):
    not on fewer than `NARROW` channels (3: 2.5-3x slower; its kernels work
    on blocks of 16 channels), nor strided on planes of `STRIDED_PLANE` pixels
    or more (ResNet-50's 56x56 downsampling: 1.6x slower)."""
    _, c, h, w = image_shape
    return c >= NARROW and (stride == 1 or h * w < STRIDED_PLANE)


def kernel_grad_faster(image_shape, groups: int) -> bool:
    """Whether oneDNN's kernel gradient beat image_c's: not grouped with a few
    channels a group (ResNeXt's 4: 2x slower); depthwise (one) ran 3x faster."""
    per_group = image_shape[1] // groups
    return groups == 1 or per_group == 1 or per_group >= NARROW


def takes(xp, *arrays) -> bool:
    """Whether image_c hands a convolution on these operands to oneDNN:
    numpy float32 arrays (the kernel with one example: image_c checks), oneDNN here."""
    return xp is np and usable(*arrays)
