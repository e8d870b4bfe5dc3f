"""Compile a kernel's CUDA C to PTX with NVRTC — no GPU, no driver, no cupy.

NVRTC is a library (the `nvidia-cuda-nvrtc-cu12` wheel, or a CUDA toolkit's),
called here through ctypes, so a kernel that does not compile is found on any
machine, in the ordinary test suite, not on a user's GPU.  A GPU run compiles
the very same source through `cupy.RawKernel`.
"""
from __future__ import annotations

import ctypes
import functools
import importlib.util
import os

ARCH = "compute_90"          # Hopper; PTX for it is forward-compatible with later GPUs
OPTIONS = ("--std=c++17",)
LIBRARIES = ("libnvrtc.so.12", "libnvrtc.so.13", "libnvrtc.so")     # CUDA 12, 13, a toolkit


class KernelCompileError(RuntimeError):
    """NVRTC rejected a generated kernel; the message holds its log and source."""


def library_paths() -> list[str]:
    """The wheel's NVRTC first, then the one the dynamic loader finds."""
    try:
        spec = importlib.util.find_spec("nvidia.cuda_nvrtc")
    except ImportError:             # no `nvidia` package at all
        spec = None
    folders = list(spec.submodule_search_locations) if spec else []
    return [os.path.join(folder, "lib", name) for folder in folders for name in LIBRARIES] \
        + list(LIBRARIES)


@functools.cache
def nvrtc_or_reason():
    """(the NVRTC library, None) when it loads, else (None, why not)."""
    errors = []
    for path in library_paths():
        try:
            lib = ctypes.CDLL(path)
        except OSError as err:
            errors.append(str(err))
            continue
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        return lib, None
    return None, (f"NVRTC does not load ({'; '.join(errors)}); "
                  "pip install nvidia-cuda-nvrtc-cu12 (or 'tenflang[gpu]')")


def to_ptx(source: str, name: str = "kernel.cu", arch: str = ARCH) -> str:
    """The PTX of `source`; `KernelCompileError` with NVRTC's log when it fails."""
    lib, reason = nvrtc_or_reason()
    if lib is None:
        raise KernelCompileError(reason)
    program = ctypes.c_void_p()
    ok(lib, lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), name.encode(),
                                   0, None, None))
    try:
        options = [o.encode() for o in (f"--gpu-architecture={arch}", *OPTIONS)]
        status = lib.nvrtcCompileProgram(program, len(options),
                                         (ctypes.c_char_p * len(options))(*options))
        if status:
            raise KernelCompileError(f"NVRTC cannot compile {name} "
                                     f"({lib.nvrtcGetErrorString(status).decode()}):\n"
                                     f"{program_log(lib, program)}\n--- source ---\n{source}")
        size = ctypes.c_size_t()
        ok(lib, lib.nvrtcGetPTXSize(program, ctypes.byref(size)))
        ptx = ctypes.create_string_buffer(size.value)
        ok(lib, lib.nvrtcGetPTX(program, ptx))
        return ptx.value.decode()
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(program))


def program_log(lib, program) -> str:
    size = ctypes.c_size_t()
    ok(lib, lib.nvrtcGetProgramLogSize(program, ctypes.byref(size)))
    log = ctypes.create_string_buffer(size.value)
    ok(lib, lib.nvrtcGetProgramLog(program, log))
    return log.value.decode(errors="replace")


def ok(lib, status: int) -> None:
    """NVRTC's calls other than compiling fail only on misuse or lack of memory."""
    if status:
        raise KernelCompileError(f"NVRTC failed: {lib.nvrtcGetErrorString(status).decode()}")
