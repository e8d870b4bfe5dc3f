"""`tenflang plan PROGRAM` — show the Python a program runs as.

The interpreter compiles each program once to straight-line Python (see
`tenflang.interp.runtime.codegen`); this prints that code, one line per step with
the TenFlang line it comes from, so a user can see what runs, what is done
in place and when each value is released.  With `--fused`, chains of
elementwise steps are calls of fused loops, whose C source follows (numba's
Python where this machine has no C compiler: what runs here); with
`--device gpu --fused`, the CUDA kernels a GPU runs those calls as
(`tenflang.interp.backends.cuda`), in `--dtype`, follow instead (NVRTC compiles that text as it
stands).  On the CPU with a C compiler, a dense product, its chain and its
transposed product made in one pass over the data are a `sweep_k` call, whose
C source follows the loops' (`tenflang.interp.backends.c.sweeps_c`).  On the CPU, a plan with convolution or pooling steps is followed by
the C kernels those steps call (`tenflang.interp.backends.c.image_c`).  A
kept loop is a call `F.scan_k` (`F.scan_back_k`), whose cell's Python, run
once per step, follows the plan's.
"""
from __future__ import annotations

import click

from tenflang.native import clib
from tenflang.interp import make_plan
from tenflang.interp.runtime.codegen import build
from tenflang.interp.runtime.cells import cell_sources
from tenflang.interp.planning.fusion import Group
from tenflang.interp.planning.sweeps import Sweep
from tenflang.lang import parse_file
from tenflang.lang.syntax_tree import BOUND_KINDS, DeclKind
from tenflang.base.errors import TenflangError
from tenflang.base.naming import adjoint
from .common import check_outputs, dtype_option, reports_errors, write_output


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program_file", metavar="PROGRAM", type=click.Path(dir_okay=False))
@click.option("--reduce", type=click.Choice(["sum", "mean"]), default=None,
              help="Show the plan that sums/averages results over the examples "
                   "(what tfweightcalc runs).")
@click.option("--without", multiple=True, metavar="NAME",
              help="Plan as if this data variable were absent (NULL); repeatable.")
@click.option("--fused", is_flag=True, help="Show the plan with its elementwise chains fused "
              "into loops, and the loops' source (what runs on the CPU for 1000 examples or more).")
@click.option("--device", type=click.Choice(["cpu", "gpu"]), default="cpu", show_default=True,
              help="With --fused: the loops as the CPU runs them (C, or numba without a C "
                   "compiler) or as the GPU does "
                   "(CUDA C kernels).")
@click.option("--native", is_flag=True, help="Show the training step (what tfweightcalc runs "
              "for fewer than 1000 examples a batch) as the one C function it runs as; PROGRAM "
              "is a GCP, or a shape program compiled first.")
@dtype_option
@click.option("-o", "--output", "out", metavar="OUT", help="Write here (default stdout).")
@reports_errors
def plan_command(program_file, reduce, without, fused, device, native, dtype, out):
    """Print the generated Python that runs PROGRAM."""
    check_outputs({"-o": out}, {"PROGRAM": program_file})
    program = parse_file(program_file)
    if native:
        if without or fused or reduce or device != "cpu":
            raise TenflangError("--native shows the training step's C as it is: it takes "
                                "--dtype and -o only")
        write_output(out, native_source(program, dtype))
        return
    decls = program.declarations().values()
    data = {d.name for d in decls if d.kind in BOUND_KINDS}
    examples = [d.name for d in decls if d.kind in (DeclKind.INPUT, DeclKind.EXP_OUTPUT)]
    stray = next((name for name in without if name not in examples), None)
    if stray is not None:
        raise TenflangError(f"--without {stray}: not a data variable (input or exp_output) of "
                            f"the program; its data variables: {', '.join(examples) or 'none'}")
    plan = make_plan(program, data - set(without))
    native_c = device == "cpu" and clib.unavailable_reason() is None
    # with a reduction the CPU runs it with its memory plan (interp/runtime/memory.py)
    text, _, kernels, _, loops = build(plan, reduce, fused, sweeps=native_c,
                                       pooled=device == "cpu")
    text += cell_sources(loops, fused)
    groups = tuple(k for k in kernels if isinstance(k, Group))
    passes = tuple(k for k in kernels if isinstance(k, Sweep))
    if groups and device == "gpu":
        from tenflang.interp.backends.cuda.fused import kernels_source
        text += "\n\n// the fused kernels (tenflang.interp.backends.cuda)\n" + kernels_source(groups, dtype)
    elif groups:
        text += cpu_loops(groups, dtype)
    if passes:
        from tenflang.interp.backends.c.sweeps_c import module_source
        text += "\n\n// the sweeps (tenflang.interp.backends.c.sweeps_c)\n" + module_source(passes, dtype)
    if fused and native_c:
        text += image_kernels(plan, dtype)
    write_output(out, text)


def native_source(program, dtype: str) -> str:
    """The C of the program's training step: the plan's (interp/backends/c/native_step.py),
    then the optimizers' update and the step around both (training/native_train.py),
    or why it has none."""
    from tenflang.backprop.compiler import compile_gradient
    from tenflang.interp.backends.c.native_step import Unsupported
    from tenflang.training import native_train
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    decls = program.declarations()
    if not any(adjoint(n) in decls for n, d in decls.items() if d.kind == DeclKind.WEIGHT):
        program = compile_gradient(program)          # a shape program: its GCP first
    plan = gradient_plan(program, signature(program))
    try:
        return native_train.source(plan, dtype)
    except Unsupported as err:
        raise TenflangError(f"the training step has no native form ({err}); it runs as the "
                            "generated Python that `tenflang plan --reduce mean` shows") from None


def cpu_loops(groups, dtype: str) -> str:
    """The fused loops' source, as this machine runs them: C, else numba, else
    why there are none."""
    from tenflang.interp.backends.c import c_loops
    from tenflang.interp.backends.numba import numba_loops
    from tenflang.interp.backends.render import group_specs
    specs = group_specs(groups)
    if clib.unavailable_reason() is None:
        return ("\n\n// the fused loops (tenflang.interp.backends.c.c_loops)\n"
                + c_loops.module_source(specs, dtype))
    if numba_loops.missing():
        return (f"\n\n# no fused loops here: {clib.unavailable_reason()}, and "
                f"{numba_loops.missing()}; the calls above run unfused, on numpy\n")
    return ("\n\n# the fused loops (tenflang.interp.backends.numba.numba_loops)\n"
            + numba_loops.module_source(specs, dtype))


def image_kernels(plan, dtype: str) -> str:
    """The C kernels of the plan's convolution and pooling steps, if it has any."""
    from tenflang.interp.backends.c import image_c
    steps = image_c.used_by(plan)
    if not steps:
        return ""
    return (f"\n\n// the convolution and pooling kernels (tenflang.interp.backends.c.image_c), called by "
            f"{', '.join(steps)};\n// each GEMM is numpy's BLAS\n" + image_c.source(dtype))
