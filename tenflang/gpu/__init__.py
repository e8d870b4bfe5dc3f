"""The CUDA backend: a plan's fused elementwise groups as generated kernels.

    from tenflang.gpu import run_on
    values = run_on(xp)(plan, data, xp=xp, dtype="float32", reduce="mean")

* an op's per-element scalar form becomes CUDA C through `interp/scalar_c.py`.
* `kernels`: a fused group -> one kernel's complete, readable CUDA source.
* `ptx`: NVRTC compiles a source to PTX with no GPU (what the tests check).
* `launch`: compile once (cached by source), launch per batch.
* `groups`, `fused`: which steps form a group; groups -> kernel specifications.
* `execute`: a whole plan, groups as kernels, the rest on cupy/cuBLAS.

Device choice stays in `tenflang.interp.device` (never imports cupy at import).
"""
from __future__ import annotations

from ..interp import run_plan


def run_on(xp):
    """How to run a plan on array module `xp`: fused kernels on cupy, else the
    interpreter's generated Python."""
    if getattr(xp, "__name__", "") == "cupy":
        from .execute import run_fused
        return run_fused
    return run_plan
