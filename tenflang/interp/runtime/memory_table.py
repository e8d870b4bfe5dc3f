"""A training step's memory, line by line: DeepDSL's static memory table.

    table = step_memory(plan, batch=16, dtype="float32", lines={"h": 12, ...})
    text = table_text(table)       # aligned rows, then the peak (`tfcompiler --memory`)

Conventions (docs/design.md §4):

* The rows follow the plan in the order the interpreter runs it: first the
  values bound from the inputs (data, then weights, in declaration order),
  then one row per step; `lines` maps a name to its line in the GCP as
  written (the row's first column, blank where not given).
* A value's bytes are its elements times the dtype's size, times the batch
  for a value of the examples (`codegen.batched_names`) unless the run sums
  it over the batch inside its product (`codegen.fused_reductions`: a weight
  gradient, weight-sized).  A view (`Op.view`: reshape, transpose, ...;
  not a `sum_like` that sums axes away) holds no bytes of its own and keeps
  what it views alive.
* The data and the weights are held from the step's start to its end (the
  caller holds them: the plan's `del` of one only drops a name), and so is
  the copy of the weights tfweightcalc keeps, the last good ones should a
  step's be infinite or NaN (one row, `(last-good-weights)`); a step's
  value is held from its step to its last use (the plan's releases), the
  reported results (gradients, losses) to the end.
* `temp` is what the step's op holds besides its result while it runs
  (`memory.workspace`: temporaries, a convolution's columns; none for a sum
  inside a product but a convolution's kernel gradient, which makes its
  columns).  Columns the run keeps from a convolution to its kernel gradient
  (`kept_columns`) are a row of their own instead, `IMAGE.columns` on the
  convolution's line, before it, freed after the kernel gradient: neither step's temp.
* `live` is the total held while the line runs: everything held, its result
  and its temp; `freed` what its releases give back after it.  The peak is
  the largest `live`, first reached; split into per example (times the
  batch) and per batch (weights, weight-sized values, fixed temporaries).
"""
from __future__ import annotations

from dataclasses import replace
from tenflang.base.dtypes import itemsize
from tenflang.base.frozen import frozen
from tenflang.ops.shapes import fmt_shape, size
from ..backends.c.image_c import KEEP_BYTES
from . import memory
from .codegen import batched_names, fused_reductions, shared_columns
from .cells import copied_sequences, loop_of


KEPT_WEIGHTS = "(last-good-weights)"    # the row of the weights' copy a step keeps
Bytes = tuple[int, int]          # (per example, per batch): batch × the first + the second
NONE = (0, 0)


@frozen
class Row:
    line: int | None
    name: str
    shape: tuple
    varies: bool              # a value of the examples: `batch` copies of `shape`
    bytes: Bytes | None       # None: a view (holds no bytes of its own)
    temp: Bytes
    live: Bytes               # while the line runs
    freed: Bytes              # after it


@frozen
class Table:
    rows: tuple[Row, ...]
    batch: int
    dtype: str

    def total(self, count: Bytes) -> int:
        return count[0] * self.batch + count[1]

    def peak(self) -> Row:
        """The row where the most is live (the first such)."""
        return max(self.rows, key=lambda row: self.total(row.live))


class Held:
    """Arrays held, each with the names that keep it alive (a value, its views)."""

    def __init__(self, element_bytes: int):
        self.element_bytes = element_bytes
        self.arrays: dict[str, Bytes] = {}            # array (its maker's name) -> bytes
        self.holders: dict[str, set[str]] = {}           # array -> names holding it
        self.array_of: dict[str, list[str]] = {}         # name -> arrays it holds
        self.live = (0, 0)

    def make(self, name: str, shape, varies: bool) -> Bytes:
        n = size(shape) * self.element_bytes
        self.arrays[name] = (n, 0) if varies else (0, n)
        self.live = plus(self.live, self.arrays[name])
        self.holders[name], self.array_of[name] = {name}, [name]
        return self.arrays[name]

    def view(self, name: str, operands) -> None:
        self.array_of[name] = sorted({a for o in operands for a in self.array_of.get(o, ())})
        for array in self.array_of[name]:
            self.holders[array].add(name)

    def release(self, names) -> Bytes:
        freed = (0, 0)
        for name in names:
            for array in self.array_of.pop(name, ()):
                self.holders[array].discard(name)
                if not self.holders[array]:
                    del self.holders[array]
                    freed = plus(freed, self.arrays.pop(array))
        self.live = plus(self.live, freed, -1)
        return freed


def plus(a: Bytes, b: Bytes, sign: int = 1) -> Bytes:
    return a[0] + sign * b[0], a[1] + sign * b[1]


def step_memory(plan, batch: int, dtype: str, lines: dict | None = None) -> Table:
    """The memory table of `plan` run with a batch reduction (module docstring)."""
    walk = Walk(plan, Held(itemsize(dtype)), lines or {}, dtype)
    rows = [walk.bound_row(name) for name in plan.bound]
    rows.append(walk.kept_weights_row())
    walk.kept = kept_columns(plan, walk.reduced, batch, walk.held.element_bytes)
    for step in plan.steps:
        rows.extend(walk.step_rows(step))
    return Table(tuple(rows), batch, dtype)


class Walk:
    """The plan's values, held and freed in its order: one row at a time."""

    def __init__(self, plan, held: Held, lines: dict, dtype: str = "float64"):
        self.plan, self.held, self.lines, self.shapes = plan, held, lines, plan.shapes
        self.dtype = dtype
        self.batched = batched_names(plan, "mean")
        self.reduced = fused_reductions(plan, self.batched)   # summed inside their product
        self.kept: dict[str, str] = {}                         # see kept_columns

    def bound_row(self, name: str) -> Row:
        varies = name in self.plan.batched
        made = self.held.make(name, self.shapes[name], varies)
        return Row(self.lines.get(name), name, self.shapes[name], varies, made, NONE,
                   self.held.live, NONE)

    def kept_weights_row(self) -> Row:
        """The copy of the weights a training step keeps, the last good ones should
        the step's be infinite or NaN (training/loop.py `keep`): held all step."""
        weights = [n for n in self.plan.bound if n not in self.plan.batched]
        shape = (sum(size(self.shapes[n]) for n in weights),)
        made = self.held.make(KEPT_WEIGHTS, shape, False)
        return Row(None, KEPT_WEIGHTS, shape, False, made, NONE, self.held.live, NONE)

    def step_rows(self, step) -> list[Row]:
        """The step's row, after its columns' where it keeps them."""
        if step.cell:
            return self.loop_rows(step)
        target, columns = step.target, self.kept.get(step.target)
        forward = columns is not None and step.op.name == "conv2d"     # else its kernel gradient
        rows = [columns_row(step, columns, self.held, self.shapes, self.lines)] if forward else []
        varies = target in self.batched and target not in self.reduced
        made, temp = held_by(step, varies, target in self.reduced, self.held, self.shapes,
                             self.kept)
        live = plus(self.held.live, temp)
        done = [n for n in step.release if n not in self.plan.bound]   # the caller holds data
        freed = self.held.release(done + ([columns] if columns and not forward else []))
        rows.append(Row(self.lines.get(target), target, self.shapes[target], varies, made,
                        temp, live, freed))
        return rows


    def loop_rows(self, step) -> list[Row]:
        """A kept loop's targets, one row each; its temp, on the first, is the
        sequences it copies step-major and the peak of one step of its cell
        (the cell's own table)."""
        temp = loop_temp(step, self.plan, self.batched, self.held, self.dtype)
        rows = []
        for target in step.targets:
            varies = target in self.batched
            made = self.held.make(target, self.shapes[target], varies)
            rows.append(Row(self.lines.get(target), target, self.shapes[target], varies, made,
                            temp, plus(self.held.live, temp), NONE))
            temp = NONE
        done = [n for n in step.release if n not in self.plan.bound]
        rows[-1] = replace(rows[-1], freed=self.held.release(done))
        return rows


def loop_temp(step, plan, batched: set[str], held: Held, dtype: str) -> Bytes:
    """A loop's working memory: one step of its cell (the larger of its cells'
    peaks where it computes states again, and the k states of a stretch), and
    the step-major copies of its sequences."""
    loop = loop_of(step, plan.cells, plan.shapes, batched, True)
    temp = max((step_memory(c.plan, 1, dtype).peak().live for c in (loop.cell, loop.forward) if c),
               key=sum)
    if loop.forward is not None:
        n = loop.every * size(plan.shapes[step.operands[1]]) * held.element_bytes
        temp = plus(temp, (n, 0) if loop.batch_state else (0, n))
    for name in copied_sequences(step):
        n = size(plan.shapes[name]) * held.element_bytes
        temp = plus(temp, (n, 0) if name in batched else (0, n))
    return temp


def kept_columns(plan, reduced: dict, batch: int, element_bytes: int) -> dict[str, str]:
    """Convolutions whose columns the run keeps from the forward to the kernel
    gradient (`codegen.shared_columns`, up to image_c's `KEEP_BYTES` at this
    batch): forward and kernel-gradient targets -> the columns' name."""
    kept = shared_columns(plan, reduced)
    forwards = {kept[s.target]: s for s in plan.steps
                if s.op.name == "conv2d" and s.target in kept}
    small = {name for name, step in forwards.items()
             if size(memory.columns_shape(step, plan.shapes)) * batch * element_bytes <= KEEP_BYTES}
    return {target: name for target, name in kept.items() if name in small}


def columns_row(step, name: str, held: Held, shapes, lines) -> Row:
    """The columns a convolution keeps for its kernel gradient, made at its line
    (before its result)."""
    shape = memory.columns_shape(step, shapes)
    made = held.make(name, shape, True)
    return Row(lines.get(step.target), name, shape, True, made, NONE, held.live, NONE)


def is_view(step, shapes) -> bool:
    """Whether the step's result is its operand's memory: a view op's is, but
    `sum_like`'s where it sums some axes away (a new, smaller array)."""
    if step.op.name == "sum_like":
        return shapes[step.target] == shapes[step.operands[0]]
    return step.op.view


def held_by(step, varies: bool, reduced: bool, held: Held, shapes, kept: dict) -> tuple:
    """(the bytes of the step's result, None for a view; its op's temp bytes)."""
    if is_view(step, shapes):
        held.view(step.target, [o for i, o in enumerate(step.operands)
                                if isinstance(o, str) and i not in step.op.shape_only])
        return None, NONE
    made = held.make(step.target, shapes[step.target], varies)
    if reduced and step.op.name != "conv2d_kernel_grad":     # BLAS makes the sum alone
        return made, NONE
    temp = memory.workspace(step, shapes, varies, step.target in kept)
    return made, (temp[0] * held.element_bytes, temp[1] * held.element_bytes)


HEADER = ("line", "value", "shape", "bytes", "temp", "live", "freed")


def table_text(table: Table) -> str:
    """The table as aligned text, then its peak (module docstring)."""
    cells = [HEADER] + [row_cells(table, row) for row in table.rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADER))]
    aligned = ("".join(justified(cell, width, i) for i, (cell, width)
                       in enumerate(zip(row, widths))).rstrip() for row in cells)
    title = f"memory of one training step, batch {table.batch}, {table.dtype} (bytes):"
    return "\n".join([title, *aligned, peak_line(table)])


def justified(cell: str, width: int, column: int) -> str:
    """Names and shapes to the left, numbers to the right; two spaces between."""
    gap = "  " if column else ""
    return gap + (cell.ljust(width) if column in (1, 2) else cell.rjust(width))


def row_cells(table: Table, row: Row) -> tuple[str, ...]:
    shape = f"{table.batch} × {fmt_shape(row.shape)}" if row.varies else fmt_shape(row.shape)
    made = "view" if row.bytes is None else f"{table.total(row.bytes):,}"
    return ("" if row.line is None else str(row.line), row.name, shape, made,
            amount(table.total(row.temp)), f"{table.total(row.live):,}",
            amount(-table.total(row.freed)))


def amount(n: int) -> str:
    return f"{n:,}" if n else ""


def peak_line(table: Table) -> str:
    row = table.peak()
    where = f"line {row.line} ({row.name})" if row.line is not None else row.name
    return (f"peak: {table.total(row.live):,} bytes at {where}: {row.live[0]:,} per example "
            f"× {table.batch} + {row.live[1]:,} per batch")


__all__ = ["Row", "Table", "step_memory", "table_text"]
