"""The fusion pass's groups as kernel specifications, and a plan's kernel listing.

    specs = kernel_specs(plan, groups)          # one KernelSpec per fused group
    print(kernels_source(plan, groups, "float32"))

A group (from the interpreter's fusion pass) is a chain of elementwise steps
of a plan, the values it reads from outside (`inputs`), the values used after
it (`outputs`) and, optionally, the value its batch reduction sums over the
examples (`reduced`).  Each step's op carries its per-element scalar form
(`op.scalar`, a Python expression over `a`, `b`; `groups.FORMS` where the op
table has none); `forms` overrides them by op name.
"""
from __future__ import annotations

from .. import ops
from ..interp.codegen import batched_names
from .groups import FORMS
from .kernels import KernelSpec, Line, Value, render
from .scalar_c import Untranslatable


def scalar_form(op: ops.Op, forms: dict | None = None) -> str:
    form = (forms or {}).get(op.name) or getattr(op, "scalar", None) or FORMS.get(op.name)
    if not form:
        raise Untranslatable(f"the op '{op.name}' has no scalar form to fuse")
    return form


def tenflang_line(step) -> str:
    from ..lang.printer import number
    return f"{step.target} = {step.op.name} " + " ".join(
        o if isinstance(o, str) else number(o) for o in step.operands)


def group_shape(plan, group) -> ops.Shape:
    return ops.broadcast("fused", *(plan.shapes[s.target] for s in group.steps))


def kernel_spec(plan, group, name: str, batched: set[str], forms: dict | None = None
                ) -> KernelSpec:
    def value(n):
        return Value(n, tuple(plan.shapes[n]), n in batched)
    lines = tuple(Line(s.target, scalar_form(s.op, forms), tuple(s.operands), tenflang_line(s))
                  for s in group.steps)
    reduced, shape = getattr(group, "reduced", None), group_shape(plan, group)
    if reduced and (reduced not in batched or tuple(plan.shapes[reduced]) != shape):
        raise Untranslatable(f"the fused group ending in '{reduced}' reduces a value that is "
                             "not per-example or not of the group's shape")
    return KernelSpec(name, shape, tuple(value(n) for n in group.inputs),
                      lines, tuple(value(n) for n in group.outputs),
                      (value(reduced),) if reduced else ())


def kernel_specs(plan, groups, forms: dict | None = None, prefix: str = "tenflang_fused"
                 ) -> list[KernelSpec]:
    batched = batched_names(plan)
    return [kernel_spec(plan, g, f"{prefix}_{k}", batched, forms) for k, g in enumerate(groups)]


def kernels_source(plan, groups, dtype: str = "float64", forms: dict | None = None,
                   prefix: str = "tenflang_fused") -> str:
    """Every kernel of the plan, one after another (what `tenflang plan --device gpu
    --fused` prints; NVRTC compiles the file as it stands).  Kernels are named
    `<prefix>_<k>`, k the group's index."""
    return "\n".join(render(spec, dtype) for spec in kernel_specs(plan, groups, forms, prefix))
