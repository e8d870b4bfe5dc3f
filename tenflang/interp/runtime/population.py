"""Population values of a program's batch statistics (docs/design.md §2.3.2).

    values = population(program, data, weights)     # statistic name -> value

A *statistic* is a `batch_mean` line of the program's forward part (a name
without `/`: every name the compiler makes for the backward part has one,
docs/design.md §2.5), so a shape program and its GCP have the same statistics.  Its
population value is the mean of its operand over all the examples of `data`
with `weights`, in evaluation mode (dropout off, as evaluation will see it),
the statistics before it taking their population values ("precise batch
norm").  A statistic's level is one more than the highest level among the
statistics its operand depends on: a level's values need those of the levels
below over every example, so the levels are found one after the other.

`population` makes ONE forward pass in all, cut at the levels: the pass of
level k runs, chunk by chunk (`CHUNK` examples), only the lines level k
needs that no lower level ran, continuing from the values the lower levels
kept (`Segment`: what a later level reads, with its example axis), then
freezes level k's values.  Its cost is one forward pass over the data
whatever the depth (ResNet-50's 98 levels included); its memory, the kept
values of every chunk, is bounded by `KEEP_BYTES`: a chunk whose kept values
would not fit keeps none and runs each later level from its input (as
`level_sums`, one pass per level, does: what a cluster's workers run).

In evaluation the population values are bound like weights (interp/planning/plan.py);
`missing_statistic` finds a statistic a plan would have to compute instead.
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from tenflang.ops import table as ops
from tenflang.base.errors import TenflangError
from tenflang.base.frozen import frozen
from tenflang.lang.syntax_tree import Define, Num, Program, Var
from tenflang.lang.diagnostics import error_at
from tenflang.ops.entries import Reduction
from tenflang.ops.modes import EVALUATION
from tenflang.ops.shapes import fmt_shape
from tenflang.lang.checks import check
from ..planning.plan import Plan, make_plan
from .run import run_plan

CHUNK = 4096          # examples per run: bounds the memory of a pass over a large data set
KEEP_BYTES = 2 ** 31  # the values kept between levels, all chunks together (module docstring)


def statistic_lines(program: Program) -> list[Define]:
    """The program's statistics, in program order."""
    return [d for d in program.definitions()
            if not d.cell and ops.TABLE[d.op].cross_example and "/" not in d.name]


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
               chunk: int = CHUNK, keep_bytes: int = KEEP_BYTES) -> dict:
    """Every statistic's population value over the examples of `data` (arrays
    with a leading example axis) with `weights`, in program order: one
    forward pass in all (module docstring)."""
    n = len(next(iter(data.values()))) if data else 1
    segments = iter(plan_segments(program, frozenset(data) | frozenset(weights)))
    kept: list = [{} for _ in range(0, n, chunk)]   # per chunk (None: kept none, restarts)
    used = 0                                        # bytes of all the chunks' kept values

    def within_budget(c: int, values: dict) -> dict | None:
        """Chunk `c`'s new kept values, or None where all the chunks' would pass `keep_bytes`."""
        nonlocal used
        used -= nbytes(kept[c])
        if used + nbytes(values) > keep_bytes:
            return None
        used += nbytes(values)
        return values

    def sums_of(level, found):
        segment, sums = next(segments), None
        for c, start in enumerate(range(0, n, chunk)):
            part = {k: v[start:start + chunk] for k, v in data.items()}
            values, keep = segment.run(part, weights, found, kept[c], xp, dtype)
            kept[c] = within_budget(c, keep)
            sums = values if sums is None else {k: sums[k] + values[k] for k in sums}
        return sums, n
    return population_by(program, sums_of, xp, dtype)


def nbytes(values: dict | None) -> int:
    return sum(v.nbytes for v in values.values()) if values else 0


@frozen(eq=False)
class Segment:
    """One level's share of the population pass (module docstring)."""
    operands: tuple[str, ...]    # of the level's statistics (a constant operand has none)
    plan: Plan                   # the level's own lines, from the values kept below it
    restart: Callable[[], Plan]  # every line the level and the kept values need, from the input
    keep: tuple[str, ...]        # what the levels above read of the lines run so far

    def run(self, part: dict, weights: dict, found: dict, kept: dict | None, xp, dtype):
        """(the sums over the examples of `part` of the operands, the values to
        keep), from `kept` (None: from the input)."""
        plan = self.restart() if kept is None else self.plan
        values = run_plan(plan, {**part, **weights, **found, **(kept or {})}, xp=xp,
                          dtype=dtype, mode=EVALUATION)
        values |= {k: v for k, v in (kept or {}).items() if k not in values}
        return ({k: values[k].sum(axis=0) for k in self.operands},
                {k: values[k] for k in self.keep})


@functools.lru_cache(maxsize=1)    # the last program's: a run asks at every validation
def plan_segments(program: Program, base: frozenset) -> list[Segment]:
    """A `Segment` per level, given the data and weights named in `base`: made
    once per program and names, the plans from the input only when a chunk
    needs them."""
    return made_segments(program, base)


def made_segments(program: Program, base: set) -> list[Segment]:
    grouped, shapes = levels(program), check(program)
    computes, keeps = segment_names(program, grouped, base)
    segments, found, before = [], set(), frozenset()
    for level, mine, keep in zip(grouped, computes, keeps):
        operands = sorted({d.operands[0].name for d in level if isinstance(d.operands[0], Var)})
        wanted = sorted(set(operands) | (keep - before))
        restart = functools.partial(make_plan, program, base | found,
                                    sorted(set(operands) | keep), shapes)
        segments.append(Segment(
            tuple(operands),
            make_plan(program, base | found | before, wanted, shapes, kept=before),
            functools.cache(restart), tuple(sorted(keep))))
        found |= {d.name for d in level}
        before = frozenset(keep)
    return segments


def segment_names(program: Program, grouped: list, base: set) -> tuple[list, list]:
    """Per level, (the lines it runs: those its statistics need that no level
    below ran, statistics below and `base` bound; the names it keeps: run by
    it or below, read by a level above)."""
    statistics = {d.name for level in grouped for d in level}
    definitions, ran, computes = program.definitions(), set(), []
    for level in grouped:
        live = {o.name for d in level for o in d.operands if isinstance(o, Var)}
        mine = set()
        for define in reversed(definitions):
            if define.name in live and not ({define.name} & (statistics | base | ran)):
                mine.add(define.name)
                live |= {o.name for o in define.operands if isinstance(o, Var)}
        ran |= mine
        computes.append(mine)
    reads = [{o.name for d in definitions if d.name in mine for o in d.operands
              if isinstance(o, Var)} | {o.name for d in level for o in d.operands
                                         if isinstance(o, Var)}
             for mine, level in zip(computes, grouped)]
    keeps = [set().union(*computes[:k + 1]) & set().union(*reads[k + 1:])
             for k in range(len(grouped))]
    return computes, keeps


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


def check_statistics(program: Program, statistics: dict, shapes: dict,
                     where=lambda name: None) -> dict:
    """The statistics as arrays, each of its result's shape; `where(name)`: the
    Location of a statistic in the weights file, for the error (a command knows
    the file, the API has arrays)."""
    out = {}
    for name, value in statistics.items():
        out[name] = value if hasattr(value, "dtype") else np.asarray(value, dtype=np.float64)
        if tuple(out[name].shape) != tuple(shapes[name]):
            raise TenflangError(f"batch statistic '{name}' has shape {fmt_shape(out[name].shape)}, "
                                f"expected {fmt_shape(shapes[name])}", where(name))
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
