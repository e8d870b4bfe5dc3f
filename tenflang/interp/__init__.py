"""The TenFlang interpreter: every valid program, batched, on numpy or cupy.

    plan = make_plan(program, available=data.keys())
    values = run_plan(plan, data, xp=numpy)          # batched
    interpret(program, {"x": 3, "w": -2})             # one example, as in the original design

The interpreter never imports cupy: the caller passes it in as `xp`; a run's
device and engine are chosen once, in `engine` (its CUDA engine is `tenflang.interp.backends.cuda`).
"""
from __future__ import annotations

import numpy as np

from tenflang.lang.syntax_tree import DeclKind, Program
from tenflang.lang.checks import check
from tenflang.base.dtypes import check_data_fits, check_weights_fit
from .runtime.arguments import check_data, check_weights
from .planning.plan import Plan, default_results, make_plan
from .runtime.run import run_plan
from .runtime.population import check_statistics, missing_statistic, split_statistics
from tenflang.ops.modes import EVALUATION, TRAINING, Mode


def interpret(program: Program, inputs: dict, results=None, xp=np, dtype="float64",
              batched: bool = False, mode: Mode = TRAINING) -> dict:
    """Run `program` on one example (`batched=False`, values without an example
    axis, as in the original design) or on a batch (`batched=True`), in `mode`
    (tenflang/ops/modes.py).  Returns the results (default: outputs then losses)
    by name; NULL results are None.  An input given as None is NULL, as if
    absent."""
    inputs = {n: v for n, v in inputs.items() if v is not None}
    plan = make_plan(program, set(inputs), results)
    data = inputs if batched else {n: one_example(plan, n, v) for n, v in inputs.items()}
    values = run_plan(plan, data, xp=xp, dtype=dtype, mode=mode)
    if batched:
        return values
    return {n: None if v is None else v[0] for n, v in values.items()}


def one_example(plan: Plan, name: str, value):
    return np.asarray(value)[None] if name in plan.batched else value



def evaluate(program: Program, examples: dict, weights: dict, xp=np, dtype="float64",
             results=None, mode: Mode = EVALUATION) -> dict:
    """The Evaluation Phase: run `program` on a batch of `examples` (name ->
    array with a leading example axis; an exp_output None or absent = NULL)
    with `weights` (and the population values of its batch statistics, as
    tfweightcalc writes them after the weights).  Returns the outputs and
    losses (or `results`) with a leading example axis; a NULL result (e.g. a
    loss when no exp_output is given) is None.  A missing input, weight or
    statistic, or an array of the wrong shape, raises TenflangError.  A
    training `mode` (tenflang/ops/modes.py) draws dropout and takes the batch
    statistics from `examples` instead."""
    shapes, decls = check(program), program.declarations().values()
    examples = check_data(dict(getattr(examples, "arrays", examples)), shapes,
                          [d.name for d in decls if d.kind == DeclKind.INPUT],
                          [d.name for d in decls if d.kind == DeclKind.EXP_OUTPUT])
    weights, stats = split_statistics(program, dict(weights))
    weights = check_weights(weights, {d.name: shapes[d.name] for d in decls
                                      if d.kind == DeclKind.WEIGHT})
    stats = {} if mode.training else check_statistics(program, stats, shapes)
    check_data_fits(examples, dtype)          # before the run's dtype makes one infinite
    check_weights_fit(weights | stats, dtype)
    data = {n: v for n, v in examples.items() if v is not None} | weights | stats
    plan = make_plan(program, set(data), results, shapes)
    missing = None if mode.training else missing_statistic(program, plan)
    if missing:
        raise missing
    return run_plan(plan, data, xp=xp, dtype=dtype, mode=mode)

__all__ = ["interpret", "evaluate", "make_plan", "run_plan", "default_results", "Plan"]
