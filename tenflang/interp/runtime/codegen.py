"""A plan compiled to straight-line Python, once.

Running a plan step by step costs a dictionary lookup, a list build and a
few checks per op; at small batch sizes that overhead is the whole cost.  So
a plan becomes the source of one Python function, one assignment per step,
with every decision taken ahead of time from the static shapes:

* per-example ranks are aligned with explicit `[:, None]` indexing instead
  of a runtime reshape; numeric literals are Python floats, so numpy's scalar
  fast paths apply (`xp.power(v, 2.0)` squares);
* a step whose operand dies there, was made by an earlier step (not data,
  not a view) and already has the result's shape writes its result into that
  operand (`out=`), so elementwise chains reuse their buffers;
* values are deleted (`del`) right after their last use;
* with a batch reduction (what training runs), a static memory plan
  (interp/runtime/memory.py): every other ufunc step and fused loop writes into a
  buffer of the run's `buf` list (`xp.tanh(h, out=buf[2])`), made once per
  batch shape and shared by values whose lifetimes do not overlap;
* with a batch reduction, a result made by `outer`/`matmul` of two
  per-example values is reduced inside the product (one BLAS call).

The source is for people too (`plan_source(plan)`, `tenflang plan`): values
keep their TenFlang names, made Python identifiers by
`tenflang.base.naming.python_identifier` (`h.t` -> `h_t`, `d/dW1` -> `d_dW1`; a
Python keyword or builtin, or one of the function's parameters, gets a
trailing `_`, a clash a `_2`); a result written in place keeps its operand's
name; a step is commented with its TenFlang line only where the code does not
already say it (renamed values, results in place, sums inside products).
"""
from __future__ import annotations

import functools
from types import SimpleNamespace

from tenflang.ops import table as ops
from tenflang.native import clib
from tenflang.ops.modes import MODE_KEY
from tenflang.base.naming import Generated, Identifiers, numbered, python_identifier
from ..planning.fusion import Group, fuse
from ..backends.c.image_c import FORWARDS as NATIVE_IMAGE_OPS
from ..backends.c.rows_c import FORWARDS as NATIVE_ROW_OPS
from ..backends.cpu_loops import functions as loop_functions
from ..backends.render import tenflang_line
from . import memory
from .memory import Slots
from ..planning.sweeps import Sweep, with_sweeps
from ..backends.c import sweeps_c
from .cells import loop_batched, loop_function

# the op table's forwards, and the functions its batch sums call (`Op.batch_sum`)
FORWARDS = SimpleNamespace(**{name: op.forward for name, op in ops.TABLE.items()},
                           **{f"{name}_sum": op.batch_sum_forward
                              for name, op in ops.TABLE.items() if op.batch_sum_forward})
vars(FORWARDS).update(NATIVE_IMAGE_OPS)     # C and BLAS on the CPU, else these same forwards
vars(FORWARDS).update(NATIVE_ROW_OPS)       # C on the CPU, else these same forwards


def written(attrs: tuple) -> tuple:
    """Attributes without the trailing absent ones (the forward's defaults)."""
    while attrs and attrs[-1] is None:
        attrs = attrs[:-1]
    return attrs


def batched_names(plan, reduce: str | None = None) -> set[str]:
    """Values that vary per example (the rest have an example axis of size 1):
    a drawn value always does, a batch mean never; with a batch reduction, a
    loop adjoint's contribution to an operand that does not vary is its mean
    over the examples (interp/runtime/cells.py)."""
    batched = set(plan.batched)
    for step in plan.steps:
        if step.cell and reduce:
            batched.update(loop_batched(step, batched))
        elif step.op.drawn or not step.op.cross_example and any(
                isinstance(o, str) and o in batched
                for i, o in enumerate(step.operands) if i not in step.op.shape_only):
            batched.update(step.targets)
    return batched


def fused_reductions(plan, batched: set[str]) -> dict[str, str]:
    """Results reduced over the batch inside their defining product."""
    used = {o for step in plan.steps for o in step.operands if isinstance(o, str)}
    out = {}
    for step in plan.steps:
        if (plan.sums(step.target) and step.target not in used and not step.cell
                and all(isinstance(o, str) and (o in batched or i in step.op.shape_only)
                        for i, o in enumerate(step.operands))):
            code = reduction_code(step, plan.shapes)
            if code:
                out[step.target] = code
    return out


def reduction_code(step, shapes) -> str | None:
    """The one-BLAS-call batch sum of a product of two per-example values."""
    ranks = [len(shapes[o]) for o in step.operands]
    if step.op.name == "mul" and ranks == [0, 0]:
        return "xp.dot({a}, {b})"          # Σ_b a_b b_b, one pass, no temporary
    if step.op.name == "mul" and sorted(ranks) == [0, 1]:
        # Σ_b s_b t_b = sᵀt: the per-example scalar weights the vectors
        scalar, vector = ("{a}", "{b}") if ranks[0] == 0 else ("{b}", "{a}")
        return f"xp.matmul({scalar}, {vector})"
    if step.op.name == "matmul" and len(shapes[step.target]) != 2:
        return None
    return step.op.batch_sum


PARAMETERS = ("env", "xp", "F", "dtype", "buf")


class Source:
    """Builds the generated function's lines and its value names; `slots`:
    the memory plan's (interp/runtime/memory.py), or None for a plan without one."""

    def __init__(self, plan, slots: Slots | None = None, reduce: str | None = None):
        self.ids = Identifiers(python_identifier, PARAMETERS)
        # var(name): a value's Python name (unique, fixed on first use); share(name,
        # operand): `name` lives in `operand`'s buffer, under its Python name
        self.var, self.share = self.ids, self.ids.share
        self.lines = [f"def run({', '.join(PARAMETERS if slots is not None else PARAMETERS[:-1])}):"]
        self.plan, self.slots = plan, slots
        self.batched = batched_names(plan, reduce)
        self.reduce = reduce
        self.kept_columns: dict = {}      # see shared_columns
        self.loops: dict = {}             # F.scan_<k> -> its function (interp/runtime/cells.py)

    def renamed(self, names) -> bool:
        return any(self.var(n) != n for n in names if isinstance(n, str))

    def emit(self, code: str, comment: str = "") -> None:
        self.lines.append(f"    {code}" + (f"    # {comment}" if comment else ""))


def operand_code(src: Source, operand, rank: int) -> str:
    """An operand aligned to per-example rank `rank` (literals stay scalars)."""
    if not isinstance(operand, str):
        return repr(float(operand))
    missing = rank - len(src.plan.shapes[operand])
    return src.var(operand) + (f"[:, {', '.join(['None'] * missing)}]" if missing > 0 else "")


def step_code(src: Source, step, inplace: str | None) -> str:
    op = step.op
    if op.ufunc:
        rank = len(src.plan.shapes[step.target])
        args = [operand_code(src, o, rank) for o in step.operands]
        if not any(isinstance(o, str) for o in step.operands):     # literals only
            return f"xp.asarray([xp.{op.ufunc}({', '.join(args)})], dtype=dtype)"
        out = src.var(inplace) if inplace else buffer(src, step.target)
        out = f", out={out}" if out else ""
        return f"xp.{op.ufunc}({', '.join(args)}{out})"
    if op.name == "copy" and isinstance(step.operands[0], str):
        return src.var(step.operands[0])
    args = [src.var(o) if isinstance(o, str) else f"xp.asarray([{float(o)!r}], dtype=dtype)"
            for o in step.operands] + [repr(a) for a in written(step.attrs)]
    if op.drawn:
        args += [f"env[{MODE_KEY!r}]", repr(step.target)]
    return f"F.{op.name}(xp, {', '.join(args)})"


def buffer(src: Source, target: str) -> str:
    """`buf[k]`: `target` written into a slot of the memory plan (None without one)."""
    if src.slots is None:
        return None
    return f"buf[{src.slots.take(target, src.plan.shapes[target], target in src.batched)}]"


def inplace_operand(step, owned: set[str], batched: set[str], shapes) -> str | None:
    """An operand the step may overwrite with its result, if any."""
    if not step.op.ufunc:
        return None
    for o in step.operands:
        if (isinstance(o, str) and o in step.release and o in owned
                and shapes[o] == shapes[step.target] and (o in batched) == (step.target in batched)):
            return o
    return None


def plan_source(plan, reduce: str | None = None, fused: bool = False) -> str:
    """The Python source of `plan` (see module docstring); `fused`: with its
    elementwise chains as calls of fused loops (interp/planning/fusion.py)."""
    return generate(plan, reduce, fused)[0]


def generate(plan, reduce: str | None, fused: bool = False, sweeps: bool = False,
             pooled: bool = False):
    """(the source, the results it reduces over the batch, the fused groups);
    `sweeps` (with `fused`): dense/chain/product runs as one pass over the data
    (interp/planning/sweeps.py), listed after the groups; `pooled`: with a memory plan
    (module docstring), see `build`."""
    return build(plan, reduce, fused, sweeps, pooled)[:3]


def build(plan, reduce: str | None, fused: bool = False, sweeps: bool = False,
          pooled: bool = False, small: bool = False, vector_math: bool = False):
    """`generate`'s three and the memory plan's `Slots` (None unless `pooled`,
    which needs a batch reduction: interp/runtime/memory.py); `small` and `vector_math`:
    fusion.fuse's."""
    src = Source(plan, Slots() if pooled and reduce else None, reduce)
    for name in plan.bound:
        src.emit(f"{src.var(name)} = env[{name!r}]")
    batched = src.batched
    blas = fused_reductions(plan, batched) if reduce else {}
    items = plan.steps
    if fused:      # a batch sum of per-example scalars is better done in the loop
        items = fuse(plan, reduce, batched, {t for t in blas if plan.shapes[t] != ()}, small,
                     vector_math)
        grouped = {s.target for g in items if isinstance(g, Group) for s in g.steps}
        blas = {t: code for t, code in blas.items() if t not in grouped}
        items = with_sweeps(plan, items, blas, batched) if sweeps else items
    groups = [g for g in items if isinstance(g, Group)]
    passes = [s for s in items if isinstance(s, Sweep)]
    src.kept_columns = shared_columns(plan, blas)
    pairs = paired_gradients(plan, src.kept_columns)
    reduced, owned = set(blas), set()
    for item in items:
        if isinstance(item, (Group, Sweep)):
            src.emit(*(group_lines(src, item, groups.index(item) + 1) if isinstance(item, Group)
                       else sweep_lines(src, item, passes.index(item) + 1)))
            reduced.update(o.name for o in item.outputs if o.reduce)
            owned.update(o.name for o in item.outputs)
            release, kept = item.release, ()
        else:
            if pairs.get(item.target, item) is not None:   # None: made at its pair's step
                src.emit(*step_or_pair(src, item, pairs.get(item.target), blas, owned, batched))
            # a view keeps its operands' memory alive: never overwrite what it reads
            if item.op.view:
                owned.difference_update(o for o in item.operands if isinstance(o, str))
            release, kept = item.release, (src.var(item.target),)
        if src.slots is not None:
            src.slots.release(release)
        released = [src.var(n) for n in release if src.ids.given(n) and src.var(n) not in kept]
        if released:
            src.emit(f"del {', '.join(released)}")
    results = ", ".join(f"{n!r}: {src.var(n)}" for n in plan.results if n not in plan.null)
    src.emit(f"return {{{results}}}")
    return ("\n".join(src.lines) + "\n", frozenset(reduced), tuple(groups + passes), src.slots,
            src.loops)


def memory_plan(plan, reduce: str = "mean", fused: bool = False) -> Slots:
    """The memory plan of `plan` run with a batch reduction (interp/runtime/memory.py)."""
    return build(plan, reduce, fused, pooled=True)[3]


def shared_columns(plan, blas: dict) -> dict[str, str]:
    """A convolution whose kernel gradient is summed inside its GEMM (`blas`)
    shares its image's columns between both (interp/backends/c/image_c.py: made once, or
    made again by the kernel gradient past `KEEP_BYTES`): forward and
    kernel-gradient targets -> the name of the columns they share.  One image
    read by convolutions of other kernel sizes or strides has columns of each
    (`x.columns`, `x.columns.2`, ...), which live side by side."""
    forwards, out, made = {}, {}, {}
    for step in plan.steps:
        if step.op.name in ("conv2d", "conv2d_kernel_grad"):
            image, kernel = step.operands[:2] if step.op.name == "conv2d" else step.operands[1:]
            key = (image, plan.shapes[kernel][2:], written(step.attrs))
            if step.op.name == "conv2d":
                forwards.setdefault(key, step.target)
            elif step.target in blas and key in forwards:
                made[image] = made.get(image, 0) + 1
                name = f"{image}.columns" + (f".{made[image]}" if made[image] > 1 else "")
                out[step.target] = out[forwards.pop(key)] = name
    return out


def with_columns(src: Source, step, lines: tuple, kept: dict) -> tuple:
    """A step's (code, comment), calling the columns forms where it shares them."""
    if step.target not in kept:
        return lines
    code, comment = lines
    cols = src.var(kept[step.target])
    if src.slots is not None:        # the columns live from the forward to the kernel gradient
        if step.op.name == "conv2d":
            columns = memory.workspace(step, src.plan.shapes, True, False)[0]
            src.slots.make(kept[step.target], (columns,), True)
        else:
            src.slots.release([kept[step.target]])
    if step.op.name == "conv2d":
        head, call = code.split(" = F.conv2d(xp, ", 1)
        return (f"{cols} = F.conv2d_columns(xp, {call}; "
                f"{head} = F.conv2d_of_columns(xp, {cols}, {call}", comment)
    code = code.replace("F.conv2d_kernel_grad_sum(xp, ", f"F.conv2d_kernel_grad_sum_of_columns(xp, ", 1)
    head, call = code.split("_of_columns(xp, ", 1)
    g, rest = call.split(", ", 1)
    return f"{head}_of_columns(xp, {g}, {cols}, {rest}; del {cols}", comment


def paired_gradients(plan, kept: dict) -> dict:
    """A convolution's image and kernel gradients of the same adjoint, image and
    kernel, the kernel's made with the forward's columns (`kept`), are one call
    (interp/backends/c/image_c.py: `conv2d_grads_of_columns`) at the first of the two
    steps: its target -> the other step, the other's target -> None."""
    images, out = {}, {}
    for step in plan.steps:
        if step.op.name == "conv2d_image_grad":
            g, K, x = step.operands
            images[(g, x, K, step.attrs)] = step
    for step in plan.steps:
        if step.op.name == "conv2d_kernel_grad" and step.target in kept:
            image = images.pop((*step.operands, step.attrs), None)
            if image is not None:
                first, second = sorted((image, step), key=plan.steps.index)
                out[first.target], out[second.target] = second, None
    return out


def step_or_pair(src: Source, step, other, blas: dict, owned: set, batched: set) -> tuple:
    """A step's (code, comment); with `other`, its pair of `paired_gradients`
    (`step` the first of the two), the one call making both."""
    kept = src.kept_columns
    lines = with_columns(src, step, step_lines(src, step, blas, owned, batched), kept)
    if other is None:
        return lines
    other_code = with_columns(src, other, step_lines(src, other, blas, owned, batched), kept)[0]
    (image, image_code), (kernel, kernel_code) = sorted(
        [(step, lines[0]), (other, other_code)], key=lambda s: s[0].op.name != "conv2d_image_grad")
    head = image_code.split(" = F.conv2d_image_grad(xp, ", 1)[0]
    call = kernel_code.replace(" = F.conv2d_kernel_grad_sum_of_columns(xp, ",
                               " = F.conv2d_grads_of_columns(xp, ", 1)
    return f"{head}, {call}", f"{tenflang_line(image)}; {tenflang_line(kernel)}"


def group_lines(src: Source, group: Group, k: int):
    """The call of fused loop k, commented with the values it computes."""
    outs = ", ".join(src.var(o.name) for o in group.outputs) + ("," if len(group.outputs) == 1 else "")
    ins = ", ".join(src.var(i.name) for i in group.inputs)
    for o in group.outputs:
        if o.reduce:
            made(src, o.name, False)
    if src.slots is not None and not all(o.reduce for o in group.outputs):
        # arrays into the memory plan's buffers; sums are made by the loop
        into = [None if o.reduce else buffer(src, o.name) for o in group.outputs]
        ins += f", out=({', '.join(map(str, into))}{',' if len(into) == 1 else ''})"
    return (f"{outs} = F.{numbered(Generated.FUSED, k)}(dtype, {ins})",
            "fused: " + ", ".join(s.target for s in group.steps))


def sweep_lines(src: Source, sweep: Sweep, k: int):
    """The call of sweep k, commented with the values it computes (arrays it
    makes itself, outside the memory plan's buffers)."""
    for o in sweep.outputs:
        made(src, o.name, not o.reduce and o.name in src.batched)
    made(src, sweep.target, False)
    outs = ", ".join(src.var(n) for n in [o.name for o in sweep.outputs] + [sweep.target])
    ins = ", ".join(src.var(n) for n in (sweep.weights, sweep.matrix) + tuple(
        i.name for i in sweep.inputs))
    call = numbered(Generated.SWEEP, k)
    return (f"{outs}{',' if not sweep.outputs else ''} = F.{call}(dtype, {ins})",
            f"one pass over {sweep.matrix}: {sweep.dense.target}, "
            + ", ".join(s.target for s in sweep.group.steps) + f", {sweep.target}")


def step_lines(src: Source, step, fused: dict, owned: set[str], batched: set[str]):
    """(the code of one step, its comment: the TenFlang line where the code does
    not already say it)."""
    if step.cell:
        return loop_code(src, step, owned, batched)
    line = tenflang_line(step)
    if step.target in fused:
        names = dict(zip("abc", (src.var(o) for o in step.operands)))
        attrs = ", ".join(map(repr, written(step.attrs)))
        # a sum inside a product: BLAS makes the result alone, a convolution its columns
        made(src, step.target, False,
             scratch(src, step) if step.op.name == "conv2d_kernel_grad" else (0, 0))
        return (f"{src.var(step.target)} = {fused[step.target].format(**names, attrs=attrs)}",
                line)
    inplace = inplace_operand(step, owned, batched, src.plan.shapes)
    if not step.op.view:
        owned.add(step.target)
    if src.slots is not None and (step.op.view or inplace):      # it may live in its operand's buffer
        src.slots.alias(step.target, [inplace] if inplace else step.operands)
    renamed = src.renamed((step.target,) + step.operands)
    if inplace:
        code = step_code(src, step, inplace)
        src.share(step.target, inplace)
        return code, line
    code = f"{src.var(step.target)} = {step_code(src, step, None)}"
    if not step.op.view:
        made(src, step.target, step.target in batched, scratch(src, step))
    return code, line if renamed else ""


def loop_code(src: Source, step, owned: set[str], batched: set[str]):
    """A kept loop's call (interp/runtime/cells.py), commented with its line."""
    name = numbered(step.op.name, len(src.loops) + 1)
    src.loops[name] = loop_function(step, src.plan.cells, src.plan.shapes, batched,
                                    src.reduce is not None)
    for target in step.targets:
        made(src, target, target in batched)
        owned.add(target)
    args = ", ".join(src.var(o) for o in step.operands)
    return (f"{', '.join(src.var(t) for t in step.targets)} = F.{name}(xp, dtype, {args})",
            tenflang_line(step))


def made(src: Source, target: str, varies: bool, scratch=(0, 0)) -> None:
    """Counts an array the step makes itself (not written into a slot)."""
    if src.slots is not None and target not in src.slots.array_of:
        src.slots.make(target, src.plan.shapes[target], varies, scratch)


def scratch(src: Source, step) -> tuple[int, int]:
    """What `step`'s op holds besides its result (memory.workspace; no columns
    where they are kept from the forward)."""
    return memory.workspace(step, src.plan.shapes, step.target in src.batched,
                            step.target in src.kept_columns)


@functools.lru_cache(maxsize=256)
def compiled(plan, reduce: str | None, fused: bool = False, sweeps: bool = True,
             pooled: bool = False, small: bool = False, vector_math: bool = False,
             dtype: str = "float64"):
    """(the generated function, the names of results it reduces over the batch,
    the namespace it takes as `F`: the ops' forwards and any fused loops, the
    memory plan's slot layout: `Slots.layout`, None without one); `small`: for a
    small batch (interp/planning/fusion.py: some groups, no sweeps, C loops or none);
    `vector_math`: the C loops call math functions in vectors (c_loops.py);
    `dtype`: the run's, whose C library is compiled now (another is compiled
    when first called for)."""
    source, reduced, groups, slots, loops = build(plan, reduce, fused, sweeps and not small,
                                                  pooled, small, vector_math)
    namespace: dict = {}
    exec(compile(source, f"<tenflang plan {id(plan):x}>", "exec"), namespace)
    forwards = SimpleNamespace(**vars(FORWARDS), **loops) if loops else FORWARDS
    if groups:
        try:
            forwards = SimpleNamespace(**vars(forwards),
                                       **fused_functions(groups, not small, dtype))
        except clib.Abandoned:        # interrupted or too slow: the plan without loops
            return compiled(plan, reduce, False, pooled=pooled, dtype=dtype)
        except clib.Unavailable:
            # no C compiler: sweeps are C only, so without them; without numba too, unfused
            # (a small batch: unfused, numba's import would cost more than its loops save)
            return compiled(plan, reduce, fused=sweeps and not small, sweeps=False,
                            pooled=pooled, dtype=dtype)
    return namespace["run"], reduced, forwards, None if slots is None else tuple(slots.layout)


def fused_functions(kernels, numba: bool = True, dtype: str = "float64") -> dict:
    """fused_k -> a fused loop (interp/backends/cpu_loops.py: C, else numba where
    `numba`), sweep_k -> a C sweep (interp/backends/c/sweeps_c.py), their C
    built for `dtype`; clib.Unavailable when they cannot be had (sweeps first:
    without C the plan is made again without them)."""
    groups = [g for g in kernels if isinstance(g, Group)]
    passes = [s for s in kernels if isinstance(s, Sweep)]
    return {**(sweeps_c.functions(passes, dtype) if passes else {}),
            **(loop_functions(groups, numba, dtype) if groups else {})}
