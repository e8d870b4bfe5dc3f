"""Compile a kernel's CUDA C to PTX with NVRTC — no GPU and no driver needed.

NVRTC is a library (the `nvidia-cuda-nvrtc-cu12` wheel, reached through
cupy's bindings), so a kernel that does not compile is found on any machine,
in the ordinary test suite, not on a user's GPU.  A GPU run compiles the very
same source through `cupy.RawKernel`.
"""
from __future__ import annotations

ARCH = "compute_90"          # Hopper; PTX for it is forward-compatible with later GPUs
OPTIONS = ("--std=c++17",)


class KernelCompileError(RuntimeError):
    """NVRTC rejected a generated kernel; the message holds its log and source."""


def nvrtc_or_reason():
    """(cupy's nvrtc bindings, None) when the NVRTC library loads, else (None, why not)."""
    try:
        from cupy_backends.cuda.libs import nvrtc
        nvrtc.getVersion()
    except Exception as err:        # ImportError, or the shared library missing
        return None, (f"NVRTC does not load ({type(err).__name__}: {err}); "
                      "pip install 'tenflang[gpu]' (cupy-cuda12x, nvidia-cuda-nvrtc-cu12)")
    return nvrtc, None


def to_ptx(source: str, name: str = "kernel.cu", arch: str = ARCH) -> str:
    """The PTX of `source`; `KernelCompileError` with NVRTC's log when it fails."""
    nvrtc, reason = nvrtc_or_reason()
    if nvrtc is None:
        raise KernelCompileError(reason)
    program = nvrtc.createProgram(source, name, [], [])
    try:
        try:
            nvrtc.compileProgram(program, [f"--gpu-architecture={arch}", *OPTIONS])
        except nvrtc.NVRTCError as err:
            log = nvrtc.getProgramLog(program)
            raise KernelCompileError(f"NVRTC cannot compile {name} ({err}):\n{log}\n"
                                     f"--- source ---\n{source}") from None
        return nvrtc.getPTX(program).decode()
    finally:
        nvrtc.destroyProgram(program)
