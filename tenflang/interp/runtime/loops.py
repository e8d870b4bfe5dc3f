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

import functools

from tenflang.lang.syntax_tree import DeclKind, Declare, Program
from tenflang.native import switches


class Cell:
    """A loop's macro as a function of arrays (module docstring)."""

    def __init__(self, macro, shapes: tuple, batched: tuple[bool, ...]):
        from tenflang.interp.planning.plan import make_plan
        kinds = [DeclKind.INPUT if b else DeclKind.WEIGHT for b in batched]
        heads = [Declare(k, p, s) for k, p, s in zip(kinds, macro.params, shapes)]
        program = Program(tuple(heads + [Declare(DeclKind.OUTPUT, r, None)
                                         for r in macro.results]) + macro.body)
        self.params, self.results = macro.params, macro.results
        self.plan = make_plan(program, set(macro.params), results=list(macro.results))

    @functools.cache
    def function(self, xp, dtype):
        from .codegen import compiled
        fused = xp.__name__ == "numpy" and switches.fused_loops_on()
        function, _, forwards, _ = compiled(self.plan, None, fused, small=True,
                                            dtype=xp.dtype(dtype).name)
        return functools.partial(function, xp=xp, F=forwards, dtype=dtype)

    def __call__(self, xp, dtype, *args) -> tuple:
        values = self.function(xp, dtype)(dict(zip(self.params, args)))
        return tuple(values[r] for r in self.results)


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
        state = cell(xp, dtype, state, rows[t], *rest)[0]
        if out is None:
            out = xp.empty((rows.shape[0],) + state.shape, dtype=state.dtype)
        out[t] = state
    return step_major(xp, out)


def run_scan_back(cell: Cell, batch_state: bool, xp, dtype, states, init, xs, *rest_and_g):
    """The contributions of `scan_back` (backprop/loop_adjoint.py): to init,
    xs and each other operand, in that order."""
    *rest, g = rest_and_g
    rows, olds, gs = step_major(xp, xs), step_major(xp, states), step_major(xp, g)
    batch = max(a.shape[0] for a in (states, init, xs, g, *rest))
    first = per_example(xp, init, batch) if batch_state else init
    carry, d_rows, sums = None, None, [None] * len(rest)
    for t in reversed(range(rows.shape[0])):
        seed = gs[t] if carry is None else gs[t] + carry
        carry, d_row, *d_rest = cell(xp, dtype, olds[t - 1] if t else first, rows[t], *rest, seed)
        if d_rows is None:
            d_rows = xp.zeros((rows.shape[0], batch) + d_row.shape[1:], dtype=d_row.dtype)
        d_rows[t] = d_row
        sums = [d if s is None else s + d for s, d in zip(sums, d_rest)]
    return (own(xp, carry, batch), step_major(xp, d_rows), *[own(xp, s, batch) for s in sums])


def own(xp, value, batch: int):
    """`value` per example (the plan takes every target of a loop with
    per-example operands to be), copied where it is a read-only view (a zero
    adjoint is a broadcast `0`): the plan may write a loop's results in place."""
    value = per_example(xp, value, batch)
    return value if getattr(value.flags, "writeable", True) else xp.array(value)


RUNS = {"scan": run_scan, "scan_back": run_scan_back}


def loop_function(step, cells: dict, shapes: dict, batched: set[str]):
    """The function a plan's loop step calls (`F.scan_1`), its cell planned
    for the operands' shapes and which of them vary per example."""
    names = list(step.operands)
    state_batched = step.target in batched
    if step.op.name == "scan":
        init, xs, *rest = names
        params = [(shapes[init], state_batched), (shapes[xs][1:], xs in batched),
                  *[(shapes[o], o in batched) for o in rest]]
    else:
        states, init, xs, *rest, g = names
        state = (shapes[init], state_batched)
        params = [state, (shapes[xs][1:], xs in batched),
                  *[(shapes[o], o in batched) for o in rest], state]
    cell = Cell(cells[step.cell], *zip(*params))
    return functools.partial(RUNS[step.op.name], cell, state_batched)
