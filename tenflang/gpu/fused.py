"""Fused groups as kernel specifications, and a plan's kernel listing.

    specs = kernel_specs(plan, groups)          # one KernelSpec per fused group
    print(kernels_source(plan, groups, "float32"))

A group (`interp.fusion.Group`) is a run of elementwise steps of a plan with
the values it reads from outside (`inputs`) and the values it writes
(`outputs`, those with `reduce == "sum"` summed over the examples).  Each
step's op gives its per-element scalar form (`opkinds.Op.scalar`); `forms`
overrides them by op name.  Where a value lives (its per-example shape, whether it varies per
example) is read from the plan, so the kernel broadcasts exactly as the
interpreter does.
"""
from __future__ import annotations

from ..interp.codegen import batched_names
from .kernels import KernelSpec, Line, Value, render
from ..interp.scalar_c import Untranslatable


def tenflang_line(step) -> str:
    from ..lang.printer import number
    return f"{step.target} = {step.op.name} " + " ".join(
        o if isinstance(o, str) else number(o) for o in step.operands)


def form_of(op, forms: dict | None) -> str:
    form = (forms or {}).get(op.name) or op.scalar
    if not form:
        raise Untranslatable(f"the op '{op.name}' has no scalar form to fuse")
    return form


def kernel_spec(plan, group, name: str, batched: set[str], forms: dict | None = None
                ) -> KernelSpec:
    def value(n):
        return Value(n, tuple(plan.shapes[n]), n in batched)
    lines = tuple(Line(s.target, form_of(s.op, forms), tuple(s.operands), tenflang_line(s))
                  for s in group.steps)
    return KernelSpec(name, tuple(group.shape), tuple(value(i.name) for i in group.inputs), lines,
                      tuple(value(o.name) for o in group.outputs if not o.reduce),
                      tuple(value(o.name) for o in group.outputs if o.reduce))


def kernel_specs(plan, groups, forms: dict | None = None, prefix: str = "tenflang_fused"
                 ) -> list[KernelSpec]:
    batched = batched_names(plan)
    return [kernel_spec(plan, g, f"{prefix}_{k}", batched, forms)
            for k, g in enumerate(groups, start=1)]


def kernels_source(plan, groups, dtype: str = "float64", forms: dict | None = None,
                   prefix: str = "tenflang_fused") -> str:
    """Every kernel of the plan, one after another (what `tenflang plan --device gpu
    --fused` prints; NVRTC compiles the file as it stands).  Kernels are named
    `<prefix>_<k>`, k = 1, 2, … in the plan's order (as `tenflang plan --fused` numbers
    the fused calls)."""
    return "\n".join(render(spec, dtype) for spec in kernel_specs(plan, groups, forms, prefix))
