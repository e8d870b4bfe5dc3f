"""Run generated CUDA kernels on the host, to check them without a GPU.

A kernel's source is compiled by the host C++ compiler with the CUDA words
defined away (`__global__`, `blockIdx`, ...) and the kernel called once per
(block, thread) of the launch, in turn, with numpy arrays for device memory.
For the kernels TenFlang generates — grid-stride loops, no shared memory, no
synchronisation, each element written by one thread — that is exactly what
the GPU computes (up to the last bits of the math library), so the index
arithmetic, broadcasting, guards and partial sums are checked here.

`host_runner` has the signature of `tenflang.interp.backends.cuda.launch.cupy_runner`.
Skip (with the reason) when no C++ compiler is present: `compiler_or_reason()`.
"""
from __future__ import annotations

import ctypes
import functools
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

SHIM = r"""
#include <cmath>
#include <cstring>
using namespace std;
struct tf_dim3 { long long x, y, z; };
static tf_dim3 blockIdx, threadIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
static inline double __longlong_as_double(long long v) { double d; memcpy(&d, &v, 8); return d; }
static inline float __int_as_float(int v) { float f; memcpy(&f, &v, 4); return f; }
extern "C" void tf_set_thread(long long bx, long long tx, long long bd, long long gd) {
    blockIdx.x = bx; threadIdx.x = tx; blockDim.x = bd; gridDim.x = gd;
}
"""
CACHE = Path(tempfile.gettempdir()) / "tenflang-cuda-emulator"


def compiler_or_reason():
    cxx = shutil.which("g++") or shutil.which("c++") or shutil.which("clang++")
    return (cxx, None) if cxx else (None, "no host C++ compiler (g++, c++ or clang++)")


@functools.lru_cache(maxsize=256)
def library(source: str):
    cxx, reason = compiler_or_reason()
    if cxx is None:
        raise RuntimeError(reason)
    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    CACHE.mkdir(exist_ok=True)
    so = CACHE / f"k{digest}.so"
    if not so.exists():
        cpp = CACHE / f"k{digest}.cpp"
        cpp.write_text(SHIM + source)
        tmp = so.with_suffix(f".{np.random.randint(1 << 30)}.tmp")
        subprocess.run([cxx, "-O0", "-shared", "-fPIC", "-w", "-o", str(tmp), str(cpp)],
                       check=True, capture_output=True, text=True)
        tmp.rename(so)
    return ctypes.CDLL(str(so))


def c_argument(value):
    if isinstance(value, np.ndarray):
        assert value.flags.c_contiguous, "kernels take C-contiguous arrays"
        return ctypes.c_void_p(value.ctypes.data)
    return ctypes.c_longlong(int(value))


def host_runner(source: str, name: str, grid: int, block: int, args,
                most_blocks: int = 3, most_threads: int = 8) -> None:
    """Launch on the host.  The kernels are grid-stride loops, so any geometry
    computes the same: at most `most_blocks` × `most_threads` threads run."""
    grid, block = min(grid, most_blocks), min(block, most_threads)
    lib = library(source)
    kernel = getattr(lib, name)
    kernel.restype = None
    c_args = [c_argument(a) for a in args]
    for b in range(grid):
        for t in range(block):
            lib.tf_set_thread(ctypes.c_longlong(b), ctypes.c_longlong(t),
                              ctypes.c_longlong(block), ctypes.c_longlong(grid))
            kernel(*c_args)
