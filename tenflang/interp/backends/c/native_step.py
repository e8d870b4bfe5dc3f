"""A plan rendered as one C function: the native step.  With a batch
reduction it is a training step's forward and backward parts; without, a
kept loop's cell, run once per step of its loop (interp/runtime/cells.py).

    source, layout = step_source(plan, "mean", "float32", context)  # C, or Unsupported saying why

Conventions:

* The function is `long tenflang_step(long B, data, buf, out)`: `data` the tuple of
  the plan's bound arrays (`plan.bound` order, [B, ...] or [1, ...]), `buf`
  the tuple of the memory plan's slot arrays (interp/runtime/memory.py: the
  same `Slots` rule as the generated Python's, every value the step makes
  written into one), `out` a tuple of one new array per reported result,
  which the step fills with the result summed (or averaged) over the B
  examples, or, for a result kept per example (no reduction, `plan.sums`
  false), with its B rows.  Tuples and arrays are read with native/cpython.py's
  `TF_ITEMS` and `TF_DATA`.  It returns 0, or the number (1, 2, ...) of the
  plan step whose check failed (one_hot's class index): the caller runs the
  step on the numpy path, which raises that op's own error.
* One block per plan line, commented with its TenFlang line; values keep the
  program's names, as the loops write them (`h.t` -> `v_h_t`, `d/dW1` ->
  `v_d_dW1`: naming.c_identifier, which no C keyword or macro can touch).  Elementwise steps
  are interp/planning/fusion.py's groups (a step alone is a group of one)
  and run as c_loops's loops, here called over every example at once;
  softmax, log_softmax and one_hot are rows_c's kernels.
* Products go through numpy's own BLAS, its ILP64 `cblas_?gemm`
  (native/blas_threads.py finds the library; the address is handed to the
  step once, `tenflang_set_gemm`): a matrix times every example's vector or rows is
  one GEMM, a batch sum of outer products (a weight gradient) is one GEMM
  over the examples, anything else a GEMM per example.
* A plan with an op this module has no form for, a kept loop, a drawn or
  cross-example op (dropout, batch statistics) raises `Unsupported` naming
  it; the caller runs the generated Python instead.
"""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from tenflang.base.naming import Generated, Identifiers, c_identifier, numbered
from tenflang.native import cpython
from ...planning.fusion import Group, fuse, group_of, last_reads, readable
from ..render import BLOCK, group_specs, tenflang_line
from ..scalar_c import CTYPES
from . import c_loops, rows_c
from .native_copies import COPIES

VIEWS = ("reshape", "copy", "flatten")          # the same memory under another shape


class Unsupported(Exception):
    """The plan has a step the native step cannot run (the message says which)."""


HELPERS = (Path(__file__).parent / "native_step.c").read_text()     # TYPE defined first


def summed_products(plan, batched, reduced) -> set:
    """Results summed over the examples inside their product, one GEMM: outer
    products, and `matmul (transpose X) G` where every reader of the
    transpose is such a product (the transpose is then a view: `views`)."""
    made = {s.target: s for s in plan.steps}
    candidates = {t for t in reduced
                  if made[t].op.name == "matmul" and transposed(made[t], made, plan, batched)}
    readers: dict = {}
    for step in plan.steps:
        for o in step.operands:
            readers.setdefault(o, []).append(step)
    return {t for t in reduced if made[t].op.name == "outer"} | {
        t for t in candidates if all(r.target in candidates and r.operands[1] != r.operands[0]
                                     for r in readers[made[t].operands[0]])}


def views(plan, blas: set) -> set:
    """The transposes the products of `summed_products` read as views."""
    return {s.operands[0] for s in plan.steps if s.target in blas and s.op.name == "matmul"}


def transposed(step, made: dict, plan, batched) -> bool:
    """Whether a batch-summed matmul is `matmul (transpose X) G` of per-example
    matrices (the sum is then XᵀG over the stacked examples, one GEMM)."""
    a, b = step.operands
    first = made.get(a)
    return (first is not None and first.op.name == "transpose" and a in batched and b in batched
            and first.operands[0] in batched and len(plan.shapes[a]) == 2
            and len(plan.shapes[b]) == 2)


def check_plan(plan) -> None:
    for step in plan.steps:
        if step.cell:
            raise Unsupported(f"'{step.target}' is a kept loop ({step.op.name} {step.cell})")
        if step.op.drawn or step.op.cross_example:
            raise Unsupported(f"'{step.target}' = {step.op.name} depends on the batch or mode")


def single(step, index: int, plan, batched, reduce, last_read: dict) -> Group | None:
    """An elementwise step fusion left alone, as a group of one step (fusion's
    `group_of`); one the same for every example keeps no sum of its own (`finish`
    sums it, times B)."""
    if step.op.scalar is None or not readable(step, plan.shapes, batched):
        return None
    group = group_of([(index, step)], plan, reduce, batched, last_read)
    if step.target in batched:
        return group
    return replace(group, outputs=tuple(replace(o, reduce=None) for o in group.outputs))


class Step:
    """Builds the step function's lines (module docstring)."""

    def __init__(self, plan, reduce: str | None, dtype: str, batched: set, slots):
        check_plan(plan)
        self.plan, self.reduce, self.t = plan, reduce, CTYPES[dtype]
        self.batched = batched
        self.var = Identifiers(c_identifier)      # v_<name>: no C word or macro can touch it
        self.slots = slots
        self.results = [r for r in plan.results if r not in plan.null]
        self.into: dict = {}          # result -> out[k], where its step writes it summed
        self.views: set = set()       # transposes left as views (`views`)
        self.lines: list[str] = []
        self.number = {s.target: k for k, s in enumerate(plan.steps, 1)}   # for a failed check

    def emit(self, line: str = "") -> None:
        self.lines.append(f"    {line}" if line else "")

    def shape(self, name):
        return tuple(self.plan.shapes[name])

    def count(self, name) -> str:
        return "B" if name in self.batched else "1"

    def value(self, name: str, shape=None) -> None:
        """`name` written into a slot of its own (`shape`: per example, for a
        value of the step's own, not the program's)."""
        own = shape is not None
        k = self.slots.take(name, shape if own else self.shape(name), own or name in self.batched)
        self.emit(f"{self.t} *const {self.var(name)} = ({self.t} *)TF_DATA(s[{k}]);")

    def result(self, name: str) -> None:
        """`name` written summed straight into its result array."""
        k = self.results.index(name)
        self.into[name] = k
        self.emit(f"{self.t} *const {self.var(name)} = ({self.t} *)TF_DATA(r[{k}]);")


def step_source(plan, reduce: str | None, dtype: str, context: tuple,
                vector: bool = False) -> tuple:
    """(the native step's C, the same with vector math or None unless `vector`,
    its slot layout) (module docstring); `context`: what the runtime knows of
    the plan (interp/runtime/native_run.py, `step_c`): the values that vary
    per example, the results summed inside their products, an empty `Slots`."""
    batched, reduced, slots = context
    body = Step(plan, reduce, dtype, batched, slots)
    for k, name in enumerate(plan.bound):
        body.emit(f"const {body.t} *const {body.var(name)} = (const {body.t} *)TF_DATA(d[{k}]);")
    blas = summed_products(plan, body.batched, reduced)
    body.views = views(plan, blas)
    last_read = last_reads(plan)
    groups = []
    for item in fuse(plan, reduce, body.batched, blas):
        group = item if isinstance(item, Group) else single(
            item, body.number[item.target] - 1, plan, body.batched, reduce, last_read)
        body.emit()
        if group is not None:
            groups.append(group)
            group_call(body, group, len(groups))
        else:
            body.emit(f"// {tenflang_line(item)}")
            op_lines(body, item, blas, body.number[item.target])
        body.slots.release(item.release)
    body.emit()
    finish(body)
    specs = group_specs(groups)
    for spec, runs in c_loops.same_kernels(specs).items():    # a kernel another's but for names
        body.lines = [line.replace(f"@{spec}@", runs) for line in body.lines]
    return (assembled(body, specs, dtype, False),
            assembled(body, specs, dtype, True) if vector else None, tuple(body.slots.layout))


def assembled(body: Step, specs, dtype: str, vector: bool) -> str:
    """The step's whole C: its loops, the row kernels, the helpers, the function."""
    loops = c_loops.RENDERER.module(specs, dtype, vector).split("\n", 1)[1]
    what = f"{body.reduce}-reduced step" if body.reduce else "run"
    head = (f"/* The {what} of a TenFlang plan, {body.t} (generated by "
            "tenflang.interp.backends.c.native_step). */\n#include <string.h>\n")
    function = ["long tenflang_step(long B, const void *data, const void *buf, const void *out)",
                "{", "    void *const *d = TF_ITEMS(data), *const *s = TF_ITEMS(buf), "
                "*const *r = TF_ITEMS(out);", *body.lines, "    return 0;", "}"]
    return (head + loops + "\n" + cpython.TUPLE_ITEMS + "\n" + rows_c.source(dtype, vector)
            + HELPERS + "\n" + "\n".join(function) + "\n")


def group_call(body: Step, group: Group, k: int) -> None:
    """Fused loop k over every example (its sums via a zeroed partial per block)."""
    body.emit(f"// {', '.join(tenflang_line(s) for s in group.steps)}")
    args = [body.var(i.name) for i in group.inputs]
    sums = []
    for o in group.outputs:
        if o.reduce:
            sums.append(o.name)
        else:
            body.value(o.name)
            args.append(body.var(o.name))
    n = math.prod(group.shape)
    varies = any(i.role.varies for i in group.inputs) or group.steps[0].target in body.batched
    count = "B" if varies else "1"
    for name in sums:
        partial = f"{name}.partial"
        body.value(partial, (n,))    # [B, n]: room for a partial sum per block of examples
        body.emit(f"memset({body.var(partial)}, 0, "
                  f"sizeof({body.t}) * {n} * ((B + {BLOCK - 1}) / {BLOCK}));")
        args.append(body.var(partial))
    body.emit(f"@{numbered(Generated.LOOP, k)}@(0, {count}, {', '.join(args)});")
    for name in sums:
        body.result(name)
        body.emit(f"add_rows((B + {BLOCK - 1}) / {BLOCK}, {n}, {body.var(name + '.partial')}, "
                  f"{body.var(name)}, 1, {divisor(body)});")
        body.slots.release([name + ".partial"])


def divisor(body: Step) -> str:
    return "B" if body.reduce == "mean" else "1"


def op_lines(body: Step, step, blas: set, number: int) -> None:
    """The C of one step that is not elementwise (Unsupported where there is none)."""
    name, ops = step.op.name, step.operands
    if name != "broadcast_like" and any(not isinstance(o, str) for o in ops):
        raise Unsupported(f"'{step.target}' = {name} of a number")
    if step.target in body.views:
        body.emit(f"// (a view of {ops[0]}: its products read {ops[0]} transposed)")
    if name in VIEWS or step.target in body.views:
        body.slots.alias(step.target, [ops[0]])
        body.var.share(step.target, ops[0])
        return
    if step.target in blas:
        body.result(step.target)
    else:
        body.value(step.target)
    render = RENDERERS.get(name)
    if render is None:
        raise Unsupported(f"'{step.target}' = {name}: the op has no native form yet")
    render(body, step, number)


def times(count: str, n: int) -> str:
    """C for `count` × n."""
    return count if n == 1 else f"{count} * {n}"


def items_of(body: Step, name: str, rank: int) -> str:
    """C for how many items of per-example rank `rank` `name` holds."""
    shape = body.shape(name)
    return times(body.count(name), math.prod(shape[:len(shape) - rank]))


def matmul(body: Step, step, number: int) -> None:
    a, b = step.operands
    sa, sb = body.shape(a), body.shape(b)
    if step.target in body.into:       # Σ over the examples of (transpose X) G: XᵀG
        (M, K), N = sa, sb[1]
        body.emit(f"transposed_sum(B, {M}, {N}, {K}, {body.var(a)}, {body.var(b)}, "
                  f"{body.var(step.target)});")
        body.emit(f"divide({M * N}, {body.var(step.target)}, {divisor(body)});")
        return
    M, K = (1, sa[0]) if len(sa) == 1 else sa[-2:]
    N = 1 if len(sb) == 1 else sb[-1]
    stacks = [math.prod(s[:-2]) for s in (sa, sb) if len(s) > 2]
    if len(sa) > 3 or len(sb) > 3 or len(set(stacks)) > 1 or len(sb) == 3 and len(sa) != 3:
        raise Unsupported(f"'{step.target}' = matmul of {list(sa)} and {list(sb)}")
    per = stacks[0] if stacks else 1
    varies = [o in body.batched for o in (a, b)]
    if per > 1 and (len(sb) == 2 and varies[1] or step.target in body.batched and any(
            len(s) == 3 and not v for s, v in zip((sa, sb), varies))):
        raise Unsupported(f"'{step.target}' = matmul of {list(sa)} and {list(sb)}: "
                          "a weight of rank 3, or a matrix per example, beside a stack")
    count = times(body.count(step.target), per)
    stride = [size if v else 0 for v, size in zip(varies, (M * K, K * N))]
    body.emit(f"matmul_items({count}, {M}, {N}, {K}, {body.var(a)}, {stride[0]}, {body.var(b)}, "
              f"{stride[1]}, {body.var(step.target)}, {M * N});")


def outer(body: Step, step, number: int) -> None:
    a, b = step.operands
    M, N = math.prod(body.shape(a)), math.prod(body.shape(b))
    if step.target in body.into:             # Σ over the examples: one GEMM
        body.emit(f"outer_sum(B, {M}, {N}, {body.var(a)}, {body.var(b)}, {body.var(step.target)});")
        body.emit(f"divide({M * N}, {body.var(step.target)}, {divisor(body)});")
        return
    sa = M if a in body.batched else 0
    sb = N if b in body.batched else 0
    body.emit(f"matmul_items({body.count(step.target)}, {M}, {N}, 1, {body.var(a)}, {sa}, "
              f"{body.var(b)}, {sb}, {body.var(step.target)}, {M * N});")


def dot(body: Step, step, number: int) -> None:
    a, b = step.operands
    n = math.prod(body.shape(a))
    body.emit(f"dot_items({body.count(step.target)}, {n}, {body.var(a)}, "
              f"{n if a in body.batched else 0}, {body.var(b)}, {n if b in body.batched else 0}, "
              f"{body.var(step.target)});")


def transpose(body: Step, step, number: int) -> None:
    shape = body.shape(step.operands[0])
    count = items_of(body, step.operands[0], 2)
    body.emit(f"transpose_items({count}, {shape[-2]}, {shape[-1]}, "
              f"{body.var(step.operands[0])}, {body.var(step.target)});")


def total(body: Step, step, number: int) -> None:
    """sum and mean: over every per-example axis, or over one."""
    a, shape = step.operands[0], body.shape(step.operands[0])
    axis = step.attrs[0] if step.attrs else None
    if axis is None:
        outer_n, n, inner = 1, math.prod(shape), 1
    else:
        axis = axis % len(shape)
        outer_n, n, inner = math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])
    divide = n if step.op.name == "mean" else 1
    body.emit(f"sum_axis({times(body.count(a), outer_n)}, {n}, {inner}, {body.var(a)}, "
              f"{body.var(step.target)}, {divide});")


def rows(body: Step, step, number: int) -> None:
    a = step.operands[0]
    n = body.shape(a)[-1]
    count = items_of(body, a, 1)
    body.emit(f"{step.op.name}_rows({count}, {n}, {body.var(a)}, {body.var(step.target)});")


def one_hot(body: Step, step, number: int) -> None:
    y, n = step.operands[0], step.attrs[0]
    body.emit(f"if (one_hot_rows({body.count(y)}, {n}, {body.var(y)}, "
              f"{body.var(step.target)}) >= 0) return {number};")


RENDERERS = {"matmul": matmul, "outer": outer, "dot": dot, "transpose": transpose,
             "sum": total, "mean": total, "softmax": rows, "log_softmax": rows,
             "one_hot": one_hot, **COPIES}


def finish(body: Step) -> None:
    """Every result not yet in its array: summed over the examples (with a
    reduction), else copied, one row per example ([B, ...])."""
    for k, name in enumerate(body.results):
        if name in body.into:
            continue
        n = math.prod(body.shape(name))
        if not (body.reduce and body.plan.sums(name)):
            body.emit(f"copy_rows(B, {n}, {body.var(name)}, {n if name in body.batched else 0}, "
                      f"({body.t} *)TF_DATA(r[{k}]));    // {name}")
            continue
        scale = "1" if name in body.batched else "B"
        rows_ = body.count(name)
        body.emit(f"add_rows({rows_}, {n}, {body.var(name)}, ({body.t} *)TF_DATA(r[{k}]), "
                  f"{scale}, {divisor(body)});    // {name}")

