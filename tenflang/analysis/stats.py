"""Static statistics of a program, and the `tfcompiler --stats` report.

    stats = program_stats(program)       # one checked Program -> dict
    text = report(shape_program, gcp)    # both side by side, for stderr

Conventions (the memory model follows DeepDSL's static analysis: sizes are
known at compile time, a tensor is freed right after its last use)

* `lines` counts declarations plus definitions (comments are not lines).
* `ops` counts definitions per op name (`define v = a` is the op `copy`).
* `flops` is per example: the sum of `ops.TABLE[op].cost(operand shapes,
  result shape)` over all definitions (a numeric literal is a scalar).
* `parameters` counts the elements of every declared weight (the numbers
  training learns; a scalar weight is one).
* `weight_bytes` is the size of every declared weight at float64, 8 bytes
  per element.  It is fixed memory, paid once whatever the batch size.
* `peak_live_bytes` is per example, float64.  Program points are 0 (program
  start) and k for the k-th definition.  A value is live from its definition
  (point 0 for inputs and exp_outputs) to its last use; outputs and losses
  stay live to the end; a value nobody uses is live only where it is made.
  At a point, the operands being read and the result being written are all
  live.  Only *per-example* values count: inputs, exp_outputs and everything
  computed from them.  Weights, and values computed only from weights and
  literals (one copy per batch, not one per example), do not count; weights
  are `weight_bytes`.  The peak is the maximum over points of the sum of the
  live values' sizes × 8; `peak_at` names the definition where it is first
  reached (None: program start).
* The training step's rows (`report(..., step=...)`, the GCP's column) are
  what a training step's run holds at its peak, float64, computed by the
  caller from the run's memory plan (interp/runtime/memory.py): per example (times
  the batch size) and per batch (weight-sized: gradients summed inside
  products).  Lower than the GCP's peak live: a weight gradient summed inside
  its product is never a per-example value in the run.
"""
from __future__ import annotations

from collections import Counter

from tenflang.ops import table as ops
from tenflang.lang import check
from tenflang.base.naming import cell_of_adjoint
from tenflang.lang.kept_loops import cell_operands, cell_shapes
from tenflang.lang.syntax_tree import DeclKind, Define, Num, Program, Var
from tenflang.ops.shapes import Shape, size

BYTES_PER_ELEMENT = 8                      # float64
PER_EXAMPLE_DATA = (DeclKind.INPUT, DeclKind.EXP_OUTPUT)
LIVE_TO_END = (DeclKind.OUTPUT, DeclKind.LOSS)


def operand_shapes(define: Define, shapes) -> list[Shape]:
    return [() if isinstance(o, Num) else shapes[o.name] for o in define.operands]


def value_bytes(shape: Shape) -> int:
    return size(shape) * BYTES_PER_ELEMENT


def flops(definitions: list[Define], shapes, program: Program | None = None) -> int:
    """Per example; a kept loop's are its cell's times its steps (`program`
    holds the cells)."""
    return sum(loop_flops(d, shapes, program) if d.cell else
               ops.TABLE[d.op].cost(operand_shapes(d, shapes), shapes[d.name], d.attrs)
               for d in definitions)


def loop_flops(define: Define, shapes, program: Program) -> int:
    cell = program.cells[define.cell]
    steps, inner = cell_operands(define, tuple(operand_shapes(define, shapes)))
    names = cell_shapes(program, cell, inner)
    total = steps * flops([s for s in cell.body if isinstance(s, Define)], names, program)
    if define.op == "scan_back" and define.attrs and define.attrs[0] > 1:    # states again
        forward = program.cells[cell_of_adjoint(define.cell)]
        names = cell_shapes(program, forward, inner[:-1])
        total += steps * flops([s for s in forward.body if isinstance(s, Define)], names, program)
    return total


def parameters(program: Program, shapes) -> int:
    return sum(size(shapes[d.name]) for d in program.declarations().values()
               if d.kind == DeclKind.WEIGHT)


def weight_bytes(program: Program, shapes) -> int:
    return parameters(program, shapes) * BYTES_PER_ELEMENT


def per_example_values(program: Program, definitions: list[Define]) -> set[str]:
    """Names whose value differs from example to example."""
    varying = {d.name for d in program.declarations().values() if d.kind in PER_EXAMPLE_DATA}
    for define in definitions:
        if any(isinstance(o, Var) and o.name in varying for o in define.operands):
            varying.update(define.targets)
    return varying


def live_intervals(program: Program, definitions: list[Define]) -> dict[str, list[int]]:
    """name -> [first point, last point] for every value the program has."""
    kinds = {d.name: d.kind for d in program.declarations().values()}
    intervals = {n: [0, 0] for n, k in kinds.items() if k in PER_EXAMPLE_DATA + ("weight",)}
    for point, define in enumerate(definitions, start=1):
        for operand in define.operands:
            if isinstance(operand, Var):
                intervals[operand.name][1] = point
        for target in define.targets:
            intervals[target] = [point, point]
    for name, interval in intervals.items():
        if kinds[name] in LIVE_TO_END:
            interval[1] = len(definitions)
    return intervals


def peak_live(program: Program, definitions: list[Define], shapes) -> tuple[int, int]:
    """(peak per-example live bytes, the point where it is first reached)."""
    delta = [0] * (len(definitions) + 2)
    intervals = live_intervals(program, definitions)
    for name in per_example_values(program, definitions):
        if name in intervals:
            first, last = intervals[name]
            delta[first] += value_bytes(shapes[name])
            delta[last + 1] -= value_bytes(shapes[name])
    live, peak, peak_point = 0, 0, 0
    for point, change in enumerate(delta[:-1]):
        live += change
        if live > peak:
            peak, peak_point = live, point
    return peak, peak_point


def program_stats(program: Program) -> dict:
    """Lines, ops, FLOPs and memory of one program (see module docstring)."""
    shapes = check(program)
    definitions = program.definitions()
    declarations = len(program.declarations())
    peak, point = peak_live(program, definitions, shapes)
    return {
        "lines": declarations + len(definitions),
        "declarations": declarations,
        "definitions": len(definitions),
        "ops": dict(sorted(Counter(d.op for d in definitions).items())),
        "flops": flops(definitions, shapes, program),
        "parameters": parameters(program, shapes),
        "weight_bytes": weight_bytes(program, shapes),
        "peak_live_bytes": peak,
        "peak_at": definitions[point - 1].name if point else None,
    }


ROWS = (("lines", "lines"), ("  declarations", "declarations"),
        ("  definitions", "definitions"), ("FLOPs per example", "flops"),
        ("parameters (weight elements)", "parameters"), ("weights (bytes)", "weight_bytes"),
        ("peak live per example (bytes)", "peak_live_bytes"))


def table_rows(left: dict, right: dict) -> list[tuple[str, str, str]]:
    rows = [(title, f"{left[key]:,}", f"{right[key]:,}") for title, key in ROWS]
    rows.append(("ops", "", ""))
    for op in sorted(set(left["ops"]) | set(right["ops"])):
        rows.append((f"  {op}", f"{left['ops'].get(op, 0):,}", f"{right['ops'].get(op, 0):,}"))
    return rows


def format_table(rows: list[tuple[str, str, str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "\n".join(f"{a:<{widths[0]}}  {b:>{widths[1]}}  {c:>{widths[2]}}".rstrip()
                     for a, b, c in rows)


def report(shape_program: Program, gcp: Program, step: tuple[int, int] | None = None) -> str:
    """The shape program's and the GCP's statistics as an aligned text table;
    `step`: a training step's (per example, per batch) bytes, for the GCP."""
    left, right = program_stats(shape_program), program_stats(gcp)
    header = ("", "shape program", "GCP")
    rows = table_rows(left, right)
    if step:
        at = [title for title, _, _ in rows].index("ops")
        rows[at:at] = [("training step per example (bytes)", "", f"{step[0]:,}"),
                       ("training step per batch (bytes)", "", f"{step[1]:,}")]
    return format_table([header, *rows])


__all__ = ["parameters", "program_stats", "report"]
