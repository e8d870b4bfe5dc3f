"""Kept loops at run time (docs/design.md §2.4.2, §2.5.1): a cell's plan
compiled once, called once per step.

    hs = F.scan_1(xp, dtype, h0, xs, W)                    # the states [B, T, ...]
    d_h0, d_xs, d_W = F.scan_back_1(xp, dtype, hs, h0, xs, W, d_hs)

A `Cell` is a loop's macro planned as a program of its own: its parameters
are bound (per example where the loop's operand is, else with an example
axis of 1, as a weight is), its results are the plan's.  It runs as any plan
does, as generated Python with fused loops (`codegen.compiled`), without a
batch reduction: the loop sums the steps, and the plan around it reduces
the batch.  Sequences are read and written step-major ([T, B, ...], one
copy each way) so that every step's row is one contiguous array.  A state
per example starts as `init` repeated over the batch.
"""
from __future__ import annotations

import contextlib
import functools
from dataclasses import replace

from tenflang.base.errors import Location, TenflangError
from tenflang.base.naming import cell_of_adjoint
from tenflang.lang.kept_loops import cell_program, kept_rows
from tenflang.lang.syntax_tree import DeclKind, Program
from tenflang.native import switches
from tenflang.ops.entries import Reduction
from .memory import Buffers


class Cell:
    """A loop's macro as a function of arrays (module docstring); `summed`:
    the results it sums over the batch (the adjoints of operands that do not
    vary per example), each with an example axis of 1."""

    def __init__(self, macro, shapes: tuple, batched: tuple, summed: tuple = ()):
        from tenflang.interp.planning.plan import make_plan
        kinds = [DeclKind.INPUT if b else DeclKind.WEIGHT for b in batched]
        program = cell_program(Program(()), macro, shapes, kinds)
        self.params, self.results, self.batched = macro.params, macro.results, batched
        self.name = macro.name
        self.summed = frozenset(r for r, s in zip(macro.results, summed) if s)
        plan = make_plan(program, set(macro.params), results=list(macro.results))
        self.plan = replace(plan, per_example=frozenset(macro.results) - self.summed)
        self.reduce = Reduction.SUM if self.summed else None     # the plan's, when it runs
        self.buffers = Buffers()          # the native step's, kept from step to step
        self.natives: dict = {}           # (dtype, batch) -> the native step found (`native`)

    def native(self, xp, dtype, batch: int, steps: int = 1):
        """The cell's plan as one C call (native_run.py), where it has one and
        the batch is small (as a training step's plan: `run.FUSE_FROM`); it
        runs `steps` times a plan run.  Kept once found: it is asked for at
        every step of the loop."""
        found = self.natives.get((dtype, batch))
        if found is None:
            from .native_run import native_step
            from .run import FUSE_FROM
            if not (xp.__name__ == "numpy" and batch < FUSE_FROM and switches.fused_loops_on()
                    and switches.native_kernels_on()):
                return None
            found = native_step(self.plan, self.reduce, xp.dtype(dtype).name, steps)
            if found is not None:     # None: asked again (a compile may be under way)
                self.natives[(dtype, batch)] = found
        return found

    @functools.cache
    def function(self, xp, dtype):
        from .codegen import compiled
        fused = xp.__name__ == "numpy" and switches.fused_loops_on()
        # every elementwise chain a fused loop (not `small`'s few): a step's cost is its calls
        function, reduced, forwards, _ = compiled(self.plan, self.reduce, fused,
                                                  dtype=xp.dtype(dtype).name)
        run = functools.partial(function, xp=xp, F=forwards, dtype=dtype)
        return run, reduced

    def __call__(self, xp, dtype, batch: int, *args, steps: int = 1) -> tuple:
        """The results for `args`; one the cell takes per example that has an
        example axis of 1 (a value the same for every example: a broadcast
        adjoint) is repeated over the `batch`, as its plan reads it so;
        `steps`: the loop's, for `native`."""
        env = {p: per_example(xp, a, batch) if b else a
               for p, a, b in zip(self.params, args, self.batched)}
        step = self.native(xp, dtype, batch, steps)
        values = step(env, batch, self.buffers) if step is not None else None
        if values is not None:        # its sums are made in C
            return tuple(values[r][None] if r in self.summed else values[r] for r in self.results)
        run, reduced = self.function(xp, dtype)
        values = run(env)
        return tuple(values[r] if r not in self.summed else
                     values[r][None] if r in reduced else values[r].sum(axis=0, keepdims=True)
                     for r in self.results)


@contextlib.contextmanager
def in_step(t: int, cell: Cell):
    """A problem a cell's step reports (an index out of range) noted with the step."""
    try:
        yield
    except TenflangError as err:
        err.notes += ((f"in step {t} of the loop over macro '{cell.name}'", Location()),)
        raise


def cell_sources(loops: dict, fused: bool = False) -> str:
    """The Python of each kept loop's cell, under the name the plan calls the
    loop by (`tenflang plan`; `fused`: with its fused loops' calls)."""
    from .codegen import plan_source
    out = ""
    for name, function in loops.items():
        cell = function.args[0].cell
        out += (f"\n\n# {name}: macro '{cell.name}', run once per step of the loop\n"
                + plan_source(cell.plan, cell.reduce, fused))
    return out


def step_major(xp, sequence):
    """[B, T, ...] -> a contiguous [T, B, ...]."""
    return xp.ascontiguousarray(xp.moveaxis(sequence, 1, 0))


def per_example(xp, value, batch: int):
    """`value` with its example axis `batch` long (a weight's 1 repeated)."""
    return value if value.shape[0] == batch else xp.repeat(value, batch, axis=0)


class Loop:
    """How a kept loop step runs: its cell; `every`: every k-th state kept
    (`scan_checkpoints`), which its `scan_back` computes again from the kept
    one before with `forward`, the loop's own cell; `means`: which of its
    contributions are batch means (`run_scan_back`); `batch_state`: whether
    the state varies per example."""

    def __init__(self, cell: Cell, batch_state: bool, every: int = 1, means: tuple = (),
                 forward: Cell | None = None):
        self.cell, self.batch_state, self.every = cell, batch_state, every
        self.means, self.forward = means, forward


def is_kept(t: int, steps: int, every: int) -> bool:
    """Whether a loop keeping every `every`-th state keeps step t's: t = every-1,
    2·every-1, …, and the last."""
    return (t + 1) % every == 0 or t == steps - 1


def run_scan(loop: Loop, xp, dtype, init, xs, *rest):
    """The states of `scan cell init xs rest...` it keeps, stacked: [B, T, ...]
    (every `loop.every`-th: [B, ceil(T / every), ...])."""
    rows = step_major(xp, xs)
    steps, batch = rows.shape[0], max(a.shape[0] for a in (init, xs, *rest))
    state = per_example(xp, init, batch) if loop.batch_state else init
    out = None
    for t in range(steps):
        with in_step(t, loop.cell):
            state = loop.cell(xp, dtype, batch, state, rows[t], *rest, steps=steps)[0]
        if is_kept(t, steps, loop.every):
            if out is None:
                out = xp.empty((kept_rows(steps, loop.every),) + state.shape, dtype=state.dtype)
            out[t // loop.every] = state
    return step_major(xp, out)


def run_scan_back(loop: Loop, xp, dtype, states, init, xs, *rest_and_g):
    """The contributions of `scan_back` (backprop/loop_adjoint.py) to init, xs
    and each other operand, in that order; where `loop.means` says so, a
    contribution's mean over the examples, with an example axis of 1 (the
    operand does not vary per example and the run reduces the batch)."""
    *rest, g = rest_and_g
    rows, means = step_major(xp, xs), loop.means
    batch = max(a.shape[0] for a in (states, init, xs, g, *rest))
    first = per_example(xp, init, batch) if loop.batch_state else init
    carry, d_rows, sums = None, None, [None] * len(rest)
    for t, before, g_t in backward_steps(loop, xp, dtype, batch, step_major(xp, states),
                                         step_major(xp, g), first, rows, rest):
        seed = g_t if carry is None else g_t + carry
        with in_step(t, loop.cell):
            carry, d_row, *d_rest = loop.cell(xp, dtype, batch, before, rows[t], *rest, seed,
                                              steps=rows.shape[0])
        if d_rows is None:
            d_rows = xp.zeros((rows.shape[0], 1 if means[1] else batch) + d_row.shape[1:],
                              dtype=d_row.dtype)
        d_rows[t] = d_row
        # the first a copy: a cell's results may share an array (`d/db = d/dW`)
        sums = [xp.array(d) if s is None else xp.add(s, d, out=s if s.shape == d.shape else None)
                for s, d in zip(sums, d_rest)]
    if means[0]:
        carry = carry.sum(axis=0, keepdims=True)
    made = (carry, step_major(xp, d_rows), *sums)
    return tuple(value / batch if mean else own(xp, value, batch)
                 for value, mean in zip(made, means))


def backward_steps(loop: Loop, xp, dtype, batch: int, kept, gs, first, rows, rest):
    """(t, the state before step t, the adjoint given to step t's state), from
    the last step to the first.  With every k-th state kept, a stretch of k
    steps at a time: its states computed again from the kept one before it."""
    steps, k = rows.shape[0], loop.every
    for s in reversed(range(kept_rows(steps, k))):
        start, end = s * k, min((s + 1) * k, steps)
        before = [kept[s - 1] if s else first]
        for t in range(start, end - 1) if k > 1 else ():
            with in_step(t, loop.forward):
                before.append(loop.forward(xp, dtype, batch, before[-1], rows[t], *rest,
                                           steps=steps)[0])
        for t in reversed(range(start, end)):
            yield t, before[t - start] if k > 1 else (kept[t - 1] if t else first), (
                gs[s] if t == end - 1 else xp.zeros_like(gs[s]))


def own(xp, value, batch: int):
    """`value` per example (the plan takes every target of a loop with
    per-example operands to be), copied where it is a read-only view (a zero
    adjoint is a broadcast `0`): the plan may write a loop's results in place."""
    value = per_example(xp, value, batch)
    return value if getattr(value.flags, "writeable", True) else xp.array(value)


def loop_batched(step, batched: set[str]) -> set[str]:
    """The targets of a loop step that vary per example, in a run that reduces
    the batch: a contribution to an operand that does not is a batch mean."""
    if step.op.name == "scan":
        return {step.target} if not batched.isdisjoint(step.operands) else set()
    return {t for t, o in zip(step.targets, step.operands[1:]) if o in batched}


def loop_function(step, cells: dict, shapes: dict, batched: set[str], reduced: bool):
    """The function a plan's loop step calls (`F.scan_1`), its cell planned
    for the operands' shapes and which of them vary per example (`batched`:
    the plan's, `reduced`: the run reduces the batch)."""
    loop = loop_of(step, cells, shapes, batched, reduced)
    return functools.partial(run_scan_back if step.op.name == "scan_back" else run_scan, loop)


def loop_of(step, cells: dict, shapes: dict, batched: set[str], reduced: bool) -> Loop:
    """The step's `Loop`: its cells planned for its operands."""
    every = step.attrs[0]
    if step.op.name != "scan_back":
        init, xs, *rest = step.operands
        state = step.target in batched
        params = [(shapes[init], state), (shapes[xs][1:], xs in batched),
                  *[(shapes[o], o in batched) for o in rest]]
        return Loop(Cell(cells[step.cell], *zip(*params)), state, every)
    states, init, xs, *rest, g = step.operands
    state = states in batched or g in batched
    params = [(shapes[init], state), (shapes[xs][1:], xs in batched),
              *[(shapes[o], o in batched) for o in rest]]
    means = tuple(reduced and o not in batched for o in (init, xs, *rest))
    summed = (False, *means[1:])        # the state's adjoint is carried, not summed
    cell = Cell(cells[step.cell], *zip(*params, (shapes[init], state)), summed)
    forward = Cell(cells[cell_of_adjoint(step.cell)], *zip(*params)) if every > 1 else None
    return Loop(cell, state, every, means, forward)


def copied_sequences(step) -> list[str]:
    """The operands a loop copies step-major (`step_major`) while it runs."""
    if step.op.name != "scan_back":
        return [step.operands[1], step.target]
    return [step.operands[0], step.operands[2], step.operands[-1], step.more[0]]
