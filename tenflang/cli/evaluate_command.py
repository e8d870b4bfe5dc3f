"""`tfevaluate PROGRAM INPUTS WEIGHTS` — the Evaluation Phase.

Runs any program (a shape program, or a GCP: its outputs are then the
per-example gradients) on the examples in INPUTS with the weights in WEIGHTS
and prints, per example, the outputs and losses.  An exp_output missing from
INPUTS is NULL, and so is every loss depending on it (printed `null`).
"""
from __future__ import annotations

import click
import numpy as np

from ..data import vectors
from ..interp.device import array_module, to_host
from ..interp import evaluate
from ..lang import parse_file
from ..lang.checks import check
from .common import (check_outputs, device_option, dtype_option, reports_errors, say,
                     write_output)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program_file", metavar="PROGRAM", type=click.Path(dir_okay=False))
@click.argument("inputs_file", metavar="INPUTS", type=click.Path(dir_okay=False))
@click.argument("weights_file", metavar="WEIGHTS", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["txt", "json", "csv"]), default="txt",
              show_default=True, help="txt: vector notation; json: JSON Lines; csv.")
@click.option("-o", "--output", "out", metavar="OUT", help="Write here (default stdout).")
@device_option
@dtype_option
@click.option("--allow-nan", is_flag=True, help="Accept NaN/inf in the inputs.")
@reports_errors
def tfevaluate(program_file, inputs_file, weights_file, fmt, out, device, dtype, allow_nan):
    """Run PROGRAM on each example of INPUTS with the learned WEIGHTS."""
    check_outputs({"-o": out}, {"PROGRAM": program_file, "INPUTS": inputs_file,
                                "WEIGHTS": weights_file})
    xp = array_module(device)          # a bad --device fails before any file is read
    program = parse_file(program_file)
    shapes = check(program)
    decls = program.declarations().values()
    weights = vectors.load_weights(weights_file, allow_nan=allow_nan)
    vectors.validate_weights(weights_file, weights,
                             {d.name: shapes[d.name] for d in decls if d.kind == "weight"})
    examples = vectors.load_examples(inputs_file, allow_nan=allow_nan, shapes=shapes)
    examples.validate(shapes, required={d.name for d in decls if d.kind == "input"},
                      optional={d.name for d in decls if d.kind == "exp_output"})
    with np.errstate(all="ignore"):    # NaN/inf results are reported once, below
        values = evaluate(program, examples.arrays, weights, xp=xp, dtype=dtype)
    host = {n: None if v is None else to_host(v) for n, v in values.items()}
    for name, value in host.items():
        if value is not None and not np.isfinite(value).all():
            bad = int((~np.isfinite(value.reshape(len(value), -1))).any(axis=1).sum())
            say(f"{program_file}: warning: '{name}' is NaN or infinite in {bad} of "
                f"{len(value)} examples")
    write_output(out, "".join(line + "\n" for line in vectors.format_examples(host, fmt)))

