"""`tenflang plan PROGRAM` — show the Python a program runs as.

The interpreter compiles each program once to straight-line Python (see
`tenflang.interp.codegen`); this prints that code, one line per step with
the TenFlang line it comes from, so a user can see what runs, what is done
in place and when each value is released.  With `--device gpu --fused` it
prints instead the CUDA kernels the GPU runs the plan's fused groups as
(`tenflang.gpu`), in `--dtype`; NVRTC compiles that text as it stands.
"""
from __future__ import annotations

import click

from ..errors import TenflangError
from ..interp import make_plan
from ..interp.codegen import plan_source
from ..lang import parse_file
from ..lang.ast import BOUND_KINDS
from .common import check_outputs, dtype_option, reports_errors, write_output


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program_file", metavar="PROGRAM", type=click.Path(dir_okay=False))
@click.option("--reduce", type=click.Choice(["sum", "mean"]), default=None,
              help="Show the plan that sums/averages results over the examples "
                   "(what tfweightcalc runs).")
@click.option("--without", multiple=True, metavar="NAME",
              help="Plan as if this data variable were absent (NULL); repeatable.")
@click.option("--device", type=click.Choice(["cpu", "gpu"]), default="cpu", show_default=True,
              help="Whose code to show: the CPU's Python, or (with --fused) the GPU's kernels.")
@click.option("--fused", is_flag=True,
              help="Show the fused kernels (with --device gpu: CUDA C, one per fused group).")
@dtype_option
@click.option("-o", "--output", "out", metavar="OUT", help="Write here (default stdout).")
@reports_errors
def plan_command(program_file, reduce, without, device, fused, dtype, out):
    """Print the generated code that runs PROGRAM."""
    check_outputs({"-o": out}, {"PROGRAM": program_file})
    program = parse_file(program_file)
    data = {d.name for d in program.declarations().values() if d.kind in BOUND_KINDS}
    plan = make_plan(program, data - set(without))
    if fused and device != "gpu":
        raise TenflangError("--fused shows the GPU's kernels: add --device gpu")
    if fused:
        write_output(out, gpu_source(plan, reduce, dtype))
    else:
        write_output(out, plan_source(plan, reduce))


def gpu_source(plan, reduce, dtype) -> str:
    from ..gpu.fused import kernels_source
    from ..gpu.groups import groups
    found = groups(plan, reduce)
    if not found:
        return "// no elementwise steps to fuse: every step runs as a library call\n"
    return kernels_source(plan, found, dtype)
