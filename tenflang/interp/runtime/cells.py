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
from tenflang.lang.syntax_tree import DeclKind, Declare, Program
from tenflang.native import switches
from tenflang.ops.entries import Reduction


class Cell:
    """A loop's macro as a function of arrays (module docstring); `summed`:
    the results it sums over the batch (the adjoints of operands that do not
    vary per example), each with an example axis of 1."""

    def __init__(self, macro, shapes: tuple, batched: tuple, summed: tuple = ()):
        from tenflang.interp.planning.plan import make_plan
        kinds = [DeclKind.INPUT if b else DeclKind.WEIGHT for b in batched]
        heads = [Declare(k, p, s) for k, p, s in zip(kinds, macro.params, shapes)]
        program = Program(tuple(heads + [Declare(DeclKind.OUTPUT, r, None)
                                         for r in macro.results]) + macro.body)
        self.params, self.results, self.batched = macro.params, macro.results, batched
        self.name = macro.name
        self.summed = frozenset(r for r, s in zip(macro.results, summed) if s)
        plan = make_plan(program, set(macro.params), results=list(macro.results))
        self.plan = replace(plan, per_example=frozenset(macro.results) - self.summed)

    @functools.cache
    def function(self, xp, dtype):
        from .codegen import compiled
        fused = xp.__name__ == "numpy" and switches.fused_loops_on()
        reduce = Reduction.SUM if self.summed else None
        # every elementwise chain a fused loop (not `small`'s few): a step's cost is its calls
        function, reduced, forwards, _ = compiled(self.plan, reduce, fused,
                                                  dtype=xp.dtype(dtype).name)
        run = functools.partial(function, xp=xp, F=forwards, dtype=dtype)
        return run, reduced

    def __call__(self, xp, dtype, batch: int, *args) -> tuple:
        """The results for `args`; one the cell takes per example that has an
        example axis of 1 (a value the same for every example: a broadcast
        adjoint) is repeated over the `batch`, as its plan reads it so."""
        run, reduced = self.function(xp, dtype)
        values = run({p: per_example(xp, a, batch) if b else a
                      for p, a, b in zip(self.params, args, self.batched)})
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
        cell = function.args[0]
        reduce = Reduction.SUM if cell.summed else None
        out += (f"\n\n# {name}: macro '{cell.name}', run once per step of the loop\n"
                + plan_source(cell.plan, reduce, fused))
    return out


def step_major(xp, sequence):
    """[B, T, ...] -> a contiguous [T, B, ...]."""
    return xp.ascontiguousarray(xp.moveaxis(sequence, 1, 0))


def per_example(xp, value, batch: int):
    """`value` with its example axis `batch` long (a weight's 1 repeated)."""
    return value if value.shape[0] == batch else xp.repeat(value, batch, axis=0)


def run_scan(cell: Cell, batch_state: bool, xp, dtype, init, xs, *rest):
    """The T states of `scan cell init xs rest...`, stacked: [B, T, ...]."""
    rows = step_major(xp, xs)
    batch = max(a.shape[0] for a in (init, xs, *rest))
    state = per_example(xp, init, batch) if batch_state else init
    out = None
    for t in range(rows.shape[0]):
        with in_step(t, cell):
            state = cell(xp, dtype, batch, state, rows[t], *rest)[0]
        if out is None:
            out = xp.empty((rows.shape[0],) + state.shape, dtype=state.dtype)
        out[t] = state
    return step_major(xp, out)


def run_scan_back(cell: Cell, means: tuple, batch_state: bool, xp, dtype, states, init, xs,
                  *rest_and_g):
    """The contributions of `scan_back` (backprop/loop_adjoint.py) to init, xs
    and each other operand, in that order; where `means` says so, a
    contribution's mean over the examples, with an example axis of 1 (the
    operand does not vary per example and the run reduces the batch)."""
    *rest, g = rest_and_g
    rows, olds, gs = step_major(xp, xs), step_major(xp, states), step_major(xp, g)
    batch = max(a.shape[0] for a in (states, init, xs, g, *rest))
    first = per_example(xp, init, batch) if batch_state else init
    carry, d_rows, sums = None, None, [None] * len(rest)
    for t in reversed(range(rows.shape[0])):
        seed = gs[t] if carry is None else gs[t] + carry
        with in_step(t, cell):
            carry, d_row, *d_rest = cell(xp, dtype, batch, olds[t - 1] if t else first,
                                         rows[t], *rest, seed)
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
    cell, means, state = loop_cell(step, cells, shapes, batched, reduced)
    if step.op.name == "scan":
        return functools.partial(run_scan, cell, state)
    return functools.partial(run_scan_back, cell, means, state)


def loop_cell(step, cells: dict, shapes: dict, batched: set[str], reduced: bool):
    """(the step's `Cell`, which contributions are batch means (`run_scan_back`),
    whether the state varies per example)."""
    if step.op.name == "scan":
        init, xs, *rest = step.operands
        state = step.target in batched
        params = [(shapes[init], state), (shapes[xs][1:], xs in batched),
                  *[(shapes[o], o in batched) for o in rest]]
        return Cell(cells[step.cell], *zip(*params)), (), state
    states, init, xs, *rest, g = step.operands
    state = states in batched or g in batched
    params = [(shapes[init], state), (shapes[xs][1:], xs in batched),
              *[(shapes[o], o in batched) for o in rest], (shapes[init], state)]
    means = tuple(reduced and o not in batched for o in (init, xs, *rest))
    summed = (False, *means[1:])        # the state's adjoint is carried, not summed
    return Cell(cells[step.cell], *zip(*params), summed), means, state


def copied_sequences(step) -> list[str]:
    """The operands a loop copies step-major (`step_major`) while it runs."""
    if step.op.name == "scan":
        return [step.operands[1], step.target]
    return [step.operands[0], step.operands[2], step.operands[-1], step.more[0]]
