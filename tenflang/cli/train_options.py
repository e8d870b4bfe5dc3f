"""The options of `tfweightcalc` that steer the optimizer and the schedule
beyond --optimizer, --lr and --lr-schedule, and the batch statistics kept
with the weights (--statistics): each passes, under its
TrainConfig field name, straight to `TrainConfig`, which checks how they
combine (tenflang/training/optimizers.py, `check`).  Their names are fixed
by docs/guide/commands.md §5.2; each behaves as its namesake in torch.optim.
"""
from __future__ import annotations

import click

from .common import FiniteFloat


class Betas(click.ParamType):
    """B1,B2: two finite numbers (their range is TrainConfig's to check)."""
    name = "B1,B2"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        parts = value.split(",")
        try:
            numbers = tuple(float(p) for p in parts)
        except ValueError:
            numbers = ()
        if len(numbers) != 2 or not all(abs(b) < float("inf") for b in numbers):
            self.fail(f"{value!r} is not two numbers B1,B2 (e.g. 0.9,0.999).", param, ctx)
        return numbers


class Names(click.ParamType):
    """NAME,…: weight names (whether they are weights is train's to check)."""
    name = "NAME,…"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        names = tuple(n.strip() for n in value.split(","))
        if not all(names):
            self.fail(f"{value!r} is not a list of weight names separated by commas.",
                      param, ctx)
        return names


OPTIONS = [
    click.option("--momentum", type=FiniteFloat(min=0), metavar="F",
                 help="momentum/rmsprop: the momentum factor (default: torch.optim's, 0.9 for "
                 "momentum, 0 for rmsprop)."),
    click.option("--nesterov", is_flag=True, default=False,
                 help="momentum: Nesterov momentum (as torch.optim.SGD's nesterov)."),
    click.option("--betas", type=Betas(), help="adam: the moment decay rates (default "
                 "0.9,0.999)."),
    click.option("--eps", type=FiniteFloat(min=0), metavar="F", help="adam/rmsprop/adagrad: the "
                 "term added to the denominator (default 1e-8; adagrad 1e-10)."),
    click.option("--clip-norm", type=FiniteFloat(min=0, min_open=True), metavar="F", help="Scale the gradient "
                 "down to this global L2 norm when above it (as clip_grad_norm_)."),
    click.option("--lr-step", type=click.IntRange(min=1), metavar="N", help="--lr-schedule "
                 "step: multiply the learning rate by --lr-gamma every N iterations."),
    click.option("--lr-gamma", type=FiniteFloat(min=0, min_open=True), metavar="F", help="--lr-schedule step: "
                 "the factor (default 0.1)."),
    click.option("--warmup", type=click.IntRange(min=1), metavar="N", help="--lr-schedule "
                 "warmup-cosine: rise linearly to --lr over N iterations, then anneal."),
    click.option("--freeze", type=Names(), help="Keep these weights exactly as "
                 "they start (or as --init gives them)."),
    click.option("--statistics", type=click.Choice(["running", "exact"]), help="The batch "
                 "statistics written with the weights: running averages over the steps (free; "
                 "the default in one process) or their exact population values (one more "
                 "forward pass over the training data each time they are written or validated "
                 "with; the default and the only choice with --scheduler)."),
    click.option("--statistics-momentum", type=FiniteFloat(0, 1, min_open=True, max_open=True),
                 metavar="F",
                 default=0.1, show_default=True, help="--statistics running: each step moves "
                 "the averages this fraction of the way to its batch's values."),
]


def steering_options(command):
    """`command` with the options above (their values reach it as keywords)."""
    for option in reversed(OPTIONS):
        command = option(command)
    return command
