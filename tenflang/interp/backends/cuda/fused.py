"""Fused groups as kernel specifications, and a plan's kernel listing.

    specs = kernel_specs(groups)          # one KernelSpec per fused group
    print(kernels_source(groups, "float32"))

A group (`interp.planning.fusion.Group`) is a run of elementwise steps of a plan with
the values it reads from outside (`inputs`) and the values it writes
(`outputs`, those with `reduce == "sum"` summed over the examples).  It
becomes a kernel through the renderer contract (`interp.backends.render.group_spec`,
the same spec the CPU's loops are rendered from); `forms` overrides the ops'
scalar forms by op name.
"""
from __future__ import annotations

from ..render import KernelSpec, group_specs
from tenflang.base.naming import Generated
from .kernels import RENDERER


def kernel_specs(groups, forms: dict | None = None, prefix: str = Generated.KERNEL
                 ) -> list[KernelSpec]:
    return group_specs(groups, prefix, forms)


def kernels_source(groups, dtype: str = "float64", forms: dict | None = None,
                   prefix: str = Generated.KERNEL) -> str:
    """Every kernel of the plan, one after another (what `tenflang plan --device gpu
    --fused` prints; NVRTC compiles the file as it stands).  Kernels are named
    `<prefix>_<k>`, k = 1, 2, … in the plan's order (as `tenflang plan --fused` numbers
    the fused calls)."""
    return RENDERER.module(kernel_specs(groups, forms, prefix), dtype)
