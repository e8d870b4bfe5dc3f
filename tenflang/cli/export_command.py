"""`tenflang export SHAPE WEIGHTS -o MODEL.onnx` — a trained program as an ONNX model.

Validates the weights as `tfevaluate` does, builds the model of the forward
part (`tenflang.export`), and with `--verify INPUTS` runs it in onnxruntime on
INPUTS and compares with the interpreter, printing per output the maximum
relative error on stdout; a model off by more than `TOLERANCE` of its dtype
(float32 by default, float64 with `--dtype float64`) is not written (exit 1).  A summary of the model goes to stderr.  The model file is written
atomically, never over one of the command's own input files.
"""
from __future__ import annotations

import click

from tenflang.lang.syntax_tree import DeclKind
from tenflang.data import vectors
from tenflang.base.errors import Location, RunFailure
from tenflang.base.outputs import check_outputs, write_file
from tenflang.lang import parse_file
from tenflang.interp.runtime.population import check_statistics, split_statistics
from tenflang.lang.checks import check
from .common import reports_errors, say

OPSET_HELP = "ONNX opset to write (default: the newest onnxruntime 1.18 and later run in full)."


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("shape_file", metavar="SHAPE", type=click.Path(dir_okay=False))
@click.argument("weights_file", metavar="WEIGHTS", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", metavar="MODEL.onnx", required=True,
              help="Write the ONNX model here.")
@click.option("--with-loss", is_flag=True,
              help="Export the losses too, taking the exp_outputs as inputs.")
@click.option("--verify", "inputs_file", metavar="INPUTS", type=click.Path(dir_okay=False),
              help="Run the model in onnxruntime on INPUTS and compare with TenFlang's outputs.")
@click.option("--dtype", type=click.Choice(["float32", "float64"]), default="float32",
              show_default=True, help="The model's float type (float32, as deployed models "
              "take; float64 on request); --verify's tolerance follows it.")
@click.option("--opset", type=int, default=None, metavar="N", help=OPSET_HELP)
@reports_errors
def export_command(shape_file, weights_file, out, with_loss, inputs_file, dtype, opset):
    """Export the forward part of SHAPE with the trained WEIGHTS as an ONNX model."""
    from tenflang.export import DEFAULT_OPSET, TOLERANCE, export_model, verify_model
    check_outputs({"-o": out}, {"SHAPE": shape_file, "WEIGHTS": weights_file,
                                "--verify": inputs_file})
    program = exported_program(shape_file)
    shapes = check(program)
    weights, statistics = split_statistics(program, vectors.load_weights(weights_file,
                                                                        dtype=dtype))
    vectors.validate_weights(weights_file, weights, {
        d.name: shapes[d.name] for d in program.declarations().values()
        if d.kind == DeclKind.WEIGHT})
    weights |= check_statistics(program, statistics, shapes,
                                lambda name: vectors.weight_location(weights_file, name))
    model = export_model(program, weights, dtype=dtype, with_loss=with_loss,
                         opset=DEFAULT_OPSET if opset is None else opset)
    if inputs_file:
        examples = load_inputs(inputs_file, program, model, shapes, dtype)
        report = verify_model(model, program, examples, weights, dtype)
        count = len(next(iter(examples.values()))) if examples else 1
        for row in report:
            click.echo(f"{row.name}: max relative error {row.relative:.3g} "
                       f"(max absolute {row.absolute:.3g}) over {count} examples")
        worst = max(report, key=lambda row: row.relative)
        if not worst.relative <= TOLERANCE[dtype]:
            raise RunFailure(f"the model disagrees with TenFlang on '{worst.name}' (relative "
                             f"error {worst.relative:.3g} > {TOLERANCE[dtype]:g}); not written",
                             Location(shape_file))
    write_file(out, model.SerializeToString())
    click.echo(summary(out, model), err=True)
    for name in left_out(program, model):
        click.echo(f"{shape_file}: note: output '{name}' is left out: it needs an exp_output "
                   "(--with-loss exports it)", err=True)


def left_out(program, model) -> list[str]:
    exported = {o.name for o in model.graph.output}
    return [d.name for d in program.declarations().values()
            if d.kind == DeclKind.OUTPUT and d.name not in exported]


def load_inputs(path: str, program, model, shapes, dtype="float64") -> dict:
    """The model's inputs from a data file (which may hold exp_outputs, as tfevaluate's do)."""
    examples = vectors.load_examples(path, dtype=dtype)
    names = {i.name for i in model.graph.input}
    labels = {d.name for d in program.declarations().values() if d.kind == DeclKind.EXP_OUTPUT}
    examples.validate(shapes, required=names, optional=labels)
    return {n: a for n, a in examples.arrays.items() if n in names}


def summary(out: str, model) -> str:
    def listed(infos):
        return ", ".join(f"{i.name} {dims(i)}" for i in infos) or "none"
    graph = model.graph
    return (f"{out}: inputs {listed(graph.input)}; outputs {listed(graph.output)}; "
            f"{len(graph.node)} nodes, opset {model.opset_import[0].version}")


def dims(info) -> str:
    shape = info.type.tensor_type.shape.dim
    return "[" + ", ".join(d.dim_param or str(d.dim_value) for d in shape) + "]"


def exported_program(shape_file: str):
    """The shape program with its loops unrolled: ONNX gets a loop's steps, one
    node per op of each (a note says so where training keeps it a loop)."""
    kept = parse_file(shape_file).cells
    if kept:
        say(f"note: the loops over macro{'s' if len(kept) > 1 else ''} "
            f"{', '.join(repr(name) for name in kept)} are exported unrolled, one set of nodes "
            "per step")
    return parse_file(shape_file, loops="unroll")
