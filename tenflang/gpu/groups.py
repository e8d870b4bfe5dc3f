"""Which steps of a plan run as one kernel: the interpreter's fused groups.

    groups(plan, reduce)     # the `interp.fusion.Group`s a run of `plan` calls

The GPU runs a plan as the interpreter's generated Python with fusion on
(`codegen.generate(plan, reduce, fused=True)`), so it fuses exactly the groups
the CPU's loops do (docs/guide.md, "Fused loops"); each becomes one kernel.
"""
from __future__ import annotations

from ..interp.codegen import generate


def groups(plan, reduce: str | None = None) -> tuple:
    """The fused groups of `plan` (with `reduce`: of its training step), in the
    order the generated code calls them (`F.fused_1`, `F.fused_2`, …)."""
    return generate(plan, reduce, True)[2]
