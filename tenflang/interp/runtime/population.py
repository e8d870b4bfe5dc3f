"""Population values of a program's batch statistics (docs/design.md §2.3.2).

    values = population(program, data, weights)     # statistic name -> value

A *statistic* is a `batch_mean` line of the program's forward part (a name
without `/`: every name the compiler makes for the backward part has one,
docs/design.md §2.5), so a shape program and its GCP have the same statistics.  Its
population value is the mean of its operand over all the examples of `data`
with `weights`, in evaluation mode (dropout off, as evaluation will see it),
the statistics before it taking their population values ("precise batch
norm").  A statistic's level is one more than the highest level among the
statistics its operand depends on; the statistics of one level share one
pass over the data, in chunks of `CHUNK` examples, so the cost is one forward
pass per level of dependent statistics.

In evaluation the population values are bound like weights (interp/planning/plan.py);
`missing_statistic` finds a statistic a plan would have to compute instead.
"""
from __future__ import annotations

import numpy as np

from tenflang.ops import table as ops
from tenflang.base.errors import TenflangError
from tenflang.lang.syntax_tree import Define, Num, Program, Var
from tenflang.lang.diagnostics import error_at
from tenflang.ops.entries import Reduction
from tenflang.ops.modes import EVALUATION
from tenflang.ops.shapes import fmt_shape
from ..planning.plan import make_plan
from .run import run_plan

CHUNK = 4096          # examples per run: bounds the memory of a pass over a large data set


def statistic_lines(program: Program) -> list[Define]:
    """The program's statistics, in program order."""
    return [d for d in program.definitions()
            if ops.TABLE[d.op].cross_example and "/" not in d.name]


def statistic_names(program: Program) -> set[str]:
    """The names of the program's statistics: what an evaluation binds."""
    return {d.name for d in statistic_lines(program)}


def levels(program: Program) -> list[list[Define]]:
    """The statistics grouped by level (module docstring), lowest first."""
    depth: dict[str, int] = {}
    grouped: list[list[Define]] = []
    statistics = statistic_names(program)
    for define in program.definitions():
        below = max((depth.get(o.name, 0) for o in define.operands if isinstance(o, Var)),
                    default=0)
        depth[define.name] = below + (define.name in statistics)
        if define.name in statistics:
            grouped += [[] for _ in range(below + 1 - len(grouped))]
            grouped[below].append(define)
    return grouped


def population(program: Program, data: dict, weights: dict, xp=np, dtype="float64",
               chunk: int = CHUNK) -> dict:
    """Every statistic's population value over the examples of `data` (arrays
    with a leading example axis) with `weights`, in program order."""
    n = len(next(iter(data.values()))) if data else 1
    return population_by(program, lambda level, found: (
        level_sums(program, level, data, weights, found, xp, dtype, chunk), n), xp, dtype)


def population_by(program: Program, sums_of, xp=np, dtype="float64") -> dict:
    """The population values, each level's pass made by `sums_of(level, found)
    -> (the sums over the examples of the level's operands, by name; the number
    of examples)`, `found` the population values of the levels below (a local
    pass: `level_sums`; on a cluster each worker sums its chunks)."""
    found: dict = {}
    for level in levels(program):
        sums, n = sums_of(level, found)
        for define in level:
            operand = define.operands[0]
            found[define.name] = (xp.asarray(operand.value, dtype=dtype)
                                  if isinstance(operand, Num) else sums[operand.name] / n)
    return {d.name: found[d.name] for d in statistic_lines(program)}


def level_sums(program: Program, level: list[Define], data: dict, weights: dict, found: dict,
               xp=np, dtype="float64", chunk: int = CHUNK) -> dict:
    """The sums over the examples of `data` of the operands of the statistics in
    `level`, the statistics below it bound to their population values `found`."""
    names = sorted({d.operands[0].name for d in level if isinstance(d.operands[0], Var)})
    plan = make_plan(program, set(data) | set(weights) | set(found), names)
    n = len(next(iter(data.values()))) if data else 1
    sums = dict.fromkeys(names, 0.0)
    for start in range(0, n, chunk):
        part = {k: v[start:start + chunk] for k, v in data.items()}
        values = run_plan(plan, {**part, **weights, **found}, xp=xp, dtype=dtype,
                          reduce=Reduction.SUM, mode=EVALUATION)
        sums = {k: sums[k] + values[k] for k in names}
    return sums


def split_statistics(program: Program, values: dict) -> tuple[dict, dict]:
    """(the weights, the statistics) of a weights file's `values`."""
    names = statistic_names(program)
    return ({k: v for k, v in values.items() if k not in names},
            {k: v for k, v in values.items() if k in names})


def check_statistics(program: Program, statistics: dict, shapes: dict) -> dict:
    """The statistics as arrays, each of its result's shape."""
    out = {}
    for name, value in statistics.items():
        out[name] = value if hasattr(value, "dtype") else np.asarray(value, dtype=np.float64)
        if tuple(out[name].shape) != tuple(shapes[name]):
            raise TenflangError(f"batch statistic '{name}' has shape {fmt_shape(out[name].shape)}, "
                                f"expected {fmt_shape(shapes[name])}")
    return out


def missing_statistic(program: Program, plan) -> TenflangError | None:
    """The error for the first statistic `plan` would compute from its batch
    instead of reading its population value (None: it computes none)."""
    computed = {s.target for s in plan.steps if s.op.cross_example}
    for define in statistic_lines(program):
        if define.name in computed:
            return error_at(program, define.pos, f"the weights have no batch statistic "
                            f"'{define.name}' (the population value of this `batch_mean`, "
                            "which tfweightcalc writes after the weights); train again to get "
                            "it, or evaluate as in training (tfevaluate --training)",
                            define.origin)
    return None
