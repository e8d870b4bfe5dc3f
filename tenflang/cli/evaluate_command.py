"""`tfevaluate PROGRAM INPUTS WEIGHTS` — the Evaluation Phase.

Runs any program (a shape program, or a GCP: its outputs are then the
per-example gradients, and a note on stderr says so) on the examples in
INPUTS with the weights in WEIGHTS and prints, per example, the outputs and losses — or with `--summary` one
line of the means over the examples of the scalar ones.  An exp_output missing from INPUTS is
NULL, and so is every loss depending on it (printed `null`).  `-o FILE`
writes the format its extension names (.npz, .csv, .json/.jsonl, else
text), as `tfweightcalc -o` does; `--format` is for stdout, or must agree.
A program with batch statistics uses the population values WEIGHTS holds
after the weights; `--training [--seed N]` evaluates as in training instead
(docs/design.md §2.3.2).
"""
from __future__ import annotations

import click
import numpy as np

from tenflang.lang.syntax_tree import DeclKind
from tenflang.data import vectors
from tenflang.interp.device import array_module, to_host
from tenflang.interp import evaluate
from tenflang.interp.runtime.population import check_statistics, split_statistics
from tenflang.ops.modes import EVALUATION, Mode
from tenflang.lang import parse_file
from tenflang.lang.checks import check, data_indices
from tenflang.training.signature import gradient_outputs
from tenflang.base.errors import TenflangError
from .common import (check_outputs, device_option, dtype_option, reports_errors, say,
                     write_output)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program_file", metavar="PROGRAM", type=click.Path(dir_okay=False))
@click.argument("inputs_file", metavar="INPUTS", type=click.Path(dir_okay=False))
@click.argument("weights_file", metavar="WEIGHTS", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["txt", "json", "csv"]),
              help="txt: vector notation (default); json: JSON Lines; csv.  With -o the "
              "extension of OUT decides.")
@click.option("-o", "--output", "out", metavar="OUT", help="Write here (default stdout): "
              ".npz, .csv, .json or .jsonl (JSON Lines) by extension, else text.")
@click.option("--summary", is_flag=True, help="One line: the mean over the examples of every "
              "output and loss (an accuracy, the mean loss; a tensor output entry by entry).")
@device_option
@dtype_option
@click.option("--allow-nan", is_flag=True, help="Accept NaN/inf in the inputs.")
@click.option("--training", is_flag=True, help="Evaluate as in training: dropout drawn, batch "
              "statistics from the examples of INPUTS (not the population values in WEIGHTS).")
@click.option("--seed", type=click.IntRange(min=0), help="With --training: the seed dropout "
              "is drawn from (default 0).")
@reports_errors
def tfevaluate(program_file, inputs_file, weights_file, fmt, out, summary, device, dtype,
               allow_nan, training, seed):
    """Run PROGRAM on each example of INPUTS with the learned WEIGHTS."""
    if seed is not None and not training:
        raise TenflangError("--seed needs --training (it seeds the dropout drawn in training "
                            "mode; evaluation draws none)")
    check_outputs({"-o": out}, {"PROGRAM": program_file, "INPUTS": inputs_file,
                                "WEIGHTS": weights_file})
    fmt = output_format(out, fmt)
    xp = array_module(device)          # a bad --device fails before any file is read
    program = parse_file(program_file)
    shapes = check(program)
    say_if_gradient_program(program_file, program)
    decls = program.declarations().values()
    weights, statistics = split_statistics(program, vectors.load_weights(
        weights_file, allow_nan=allow_nan, dtype=dtype))
    vectors.validate_weights(weights_file, weights,
                             {d.name: shapes[d.name] for d in decls if d.kind == DeclKind.WEIGHT})
    statistics = check_statistics(program, statistics, shapes,
                                  lambda name: vectors.weight_location(weights_file, name))
    examples = vectors.load_examples(inputs_file, allow_nan=allow_nan, shapes=shapes,
                                     dtype=dtype)
    examples.validate(shapes, required={d.name for d in decls if d.kind == DeclKind.INPUT},
                      optional={d.name for d in decls if d.kind == DeclKind.EXP_OUTPUT})
    examples.check_indices(data_indices(program))
    with np.errstate(all="ignore"):    # NaN/inf results are reported once, below
        values = evaluate(program, examples.arrays, weights | statistics, xp=xp, dtype=dtype,
                          mode=Mode(seed=seed or 0) if training else EVALUATION)
    host = {n: None if v is None else to_host(v) for n, v in values.items()}
    for name, value in host.items():
        if value is not None and not np.isfinite(value).all():
            bad = int((~np.isfinite(value.reshape(len(value), -1))).any(axis=1).sum())
            say(f"{program_file}: warning: '{name}' is NaN or infinite in {bad} of "
                f"{len(value)} examples")
    if summary:
        host = summary_means(host)
    if out and out != "-":
        vectors.save_examples(out, host, fmt)
    else:
        write_output(out, "".join(line + "\n" for line in vectors.format_examples(
            host, fmt, count=1 if summary else len(examples))))


def say_if_gradient_program(path: str, program) -> None:
    """A GCP runs as any program, its outputs the gradients of each example (a
    documented use); one given by mistake for the model printed pages of them
    without a word, so the note says what they are and what to run instead."""
    gradients = gradient_outputs(program)
    if gradients:
        shown = ", ".join(gradients[:3]) + (", ..." if len(gradients) > 3 else "")
        say(f"{path}: note: this is a gradient program (GCP, what tfcompiler writes): its "
            f"outputs are the gradients of the loss for each example ({shown}), not the "
            "model's outputs; for those, run tfevaluate on the shape program it was "
            "compiled from")


def summary_means(values: dict) -> dict:
    """--summary: the mean over the examples of every output and loss (design
    §4): an accuracy, a mean loss; a tensor output's mean is taken entry by
    entry (the mean of a softmax is how often each class is predicted)."""
    return {n: None if v is None else v.mean(axis=0, keepdims=True) for n, v in values.items()}


def output_format(out: str | None, fmt: str | None) -> str:
    """The format to write: OUT's extension decides; --format must agree with it."""
    implied = vectors.format_of(out) if out and out != "-" else None
    if implied and fmt and implied != fmt and implied != "txt":
        raise TenflangError(f"-o {out} writes {implied}, but --format {fmt} was given; "
                            f"leave out --format, or name a .{fmt} file")
    return fmt if implied in (None, "txt") and fmt else implied or "txt"

