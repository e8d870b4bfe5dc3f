"""`tfcompiler` (Compile Phase) and `tenflang check`."""
from __future__ import annotations

import click

from tenflang.lang.syntax_tree import DeclKind
from tenflang.backprop import compile_gradient
from tenflang.backprop.graph import unused_weights
from tenflang.base.dtypes import DTYPES
from tenflang.base.errors import TenflangError, lead, safe
from tenflang.base.gc_pause import paused_gc
from tenflang.lang import parse_file, print_program
from tenflang.lang.diagnostics import location
from tenflang.training.health import not_used
from tenflang.base.limits import UNROLLED_STEPS
from .common import check_outputs, reports_errors, say, write_output


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("shape", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", metavar="OUT", help="Write the GCP here (default stdout).")
@click.option("-O", "level", type=click.IntRange(0, 1), default=1, show_default=True,
              help="-O0: the original design's literal algorithm; -O1: only what weight gradients need, "
                   "simplified.")
@click.option("--dot", "dot_file", metavar="FILE", help="Write the dataflow graph as Graphviz DOT.")
@click.option("--dot-gcp", is_flag=True, help="With --dot: draw the GCP's graph instead.")
@click.option("--stats", is_flag=True, help="Print a static report (lines, ops, FLOPs, memory) "
              "for the shape program and the GCP on stderr.")
@click.option("--memory", is_flag=True, help="Print a training step's memory on stderr, line "
              "by line as the interpreter runs the GCP: shape, bytes, live total, frees, peak.")
@click.option("--batch", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --memory: the examples per step (default 1).")
@click.option("--dtype", type=click.Choice(DTYPES), default=None,
              help=f"With --memory: the dtype the step computes in (default {DTYPES[0]}).")
@click.option("--check", "check_only", is_flag=True, help="Only validate the shape program.")
@click.option("--unroll", is_flag=True, help="Unroll every fold and scan into one block of lines "
              f"per step (default: only loops of at most {UNROLLED_STEPS} steps; longer ones "
              "stay loops).")
@click.option("--keep-every", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="K", help="A loop whose last state alone is used (a fold) keeps every "
              "K-th state for the backward pass, which computes the others again: about T/K + K "
              "states in memory instead of T, one more forward pass of the loop.")
@reports_errors
def tfcompiler(shape, out, level, dot_file, dot_gcp, stats, memory, batch, dtype, check_only,
               unroll, keep_every):
    """Compile the shape program SHAPE into its Gradient Computing Program."""
    unused = usage_problem(out, dot_file, dot_gcp, stats, check_only, memory, batch, dtype)
    if unused:
        raise TenflangError(unused)
    check_outputs({"-o": out, "--dot": dot_file}, {"SHAPE": shape})
    step = (batch or 1, dtype or DTYPES[0]) if memory else None
    with paused_gc():         # back on once the syntax trees are freed (see gcpause)
        compile_file(shape, out, level, dot_file, dot_gcp, stats, check_only, step,
                     "unroll" if unroll else "auto", keep_every)


def usage_problem(out, dot_file, dot_gcp, stats, check_only, memory=False, batch=None,
                  dtype=None) -> str | None:
    """An option the others make do nothing (it would be silently ignored)."""
    if dot_gcp and not dot_file:
        return "--dot-gcp needs --dot FILE (it picks the graph --dot draws)"
    if (batch is not None or dtype is not None) and not memory:
        option = "--batch" if batch is not None else "--dtype"
        return f"{option} sets up the --memory table: add --memory, or leave out {option}"
    given = [name for name, value in (("-o", out), ("--dot", dot_file), ("--stats", stats),
                                      ("--memory", memory)) if value]
    if check_only and given:
        return (f"--check only validates the program: it writes no GCP, graph or report; "
                f"leave out {', '.join(given)}, or --check")
    return None


def compile_file(shape, out, level, dot_file, dot_gcp, stats, check_only, step=None,
                 loops: str = "auto", keep_every: int = 1) -> None:
    """`step`: (batch, dtype) of the --memory table, None for none; `loops`:
    the reader's (lang/kept_loops.py); `keep_every`: compile_gradient's."""
    program = parse_file(shape, shape_program=True, loops=loops)
    warn_unused(program)
    if check_only:
        say(f"{shape}: ok")
        return
    gcp = compile_gradient(program, level, verify=False, keep_every=keep_every)
    if dot_file:
        from tenflang.analysis.graphviz import to_dot
        write_output(dot_file, to_dot(gcp if dot_gcp else program))
    if stats:
        from tenflang.analysis.stats import report
        click.echo(report(program, gcp, training_step_bytes(gcp)), err=True)
    text = print_program(gcp)
    if step:
        click.echo(memory_report(text, shape, *step), err=True)
    write_output(out, text)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program", type=click.Path(dir_okay=False))
@click.option("--shape-program/--any-program", default=True, show_default=True,
              help="Apply tfcompiler's extra rules (a loss, no reserved names).")
@click.option("-v", "--verbose", is_flag=True, help="List the declared variables on stdout: "
              "kind, name, shape (inferred where not written) and each weight's initial value.")
@reports_errors
def check_command(program, shape_program, verbose):
    """Validate PROGRAM: syntax, declarations, definitions and shapes."""
    checked = parse_file(program, shape_program=shape_program)
    warn_unused(checked)
    if verbose:
        click.echo("\n".join(declaration_table(checked)))
    say(f"{program}: ok")


def declaration_table(program) -> list[str]:
    """One aligned row per declaration the user wrote (macro locals and nested
    results left out): kind, name, shape, and a weight's initialiser, marked
    `(default)` where none is written (training/signature.py decides it)."""
    from tenflang.lang.checks import check
    from tenflang.ops.shapes import fmt_shape
    shapes = check(program)
    rows = [(d.kind, d.name, fmt_shape(shapes[d.name]),
             initial_value(d, shapes[d.name]) if d.kind == DeclKind.WEIGHT else "")
            for d in program.declarations().values() if not (d.origin or d.generated)]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return [" ".join(cell.ljust(width) for cell, width in zip(row, widths + [0])).rstrip()
            for row in rows]


def initial_value(declare, shape) -> str:
    """`init 1`, `init normal 0.02`, or `init glorot (default)`."""
    from tenflang.lang.printer import init_text
    from tenflang.training.signature import initialiser
    text = init_text(*initialiser(declare.init, shape))
    return text if declare.init is not None else text + " (default)"


def training_step_bytes(gcp) -> tuple[int, int]:
    """(per example, per batch) bytes, float64, of the arrays a training step's
    run holds at its peak: its memory plan (interp/runtime/memory.py)."""
    from tenflang.interp.runtime.codegen import memory_plan
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    from tenflang.analysis.stats import BYTES_PER_ELEMENT
    per_example, fixed = memory_plan(gradient_plan(gcp, signature(gcp))).elements()
    return per_example * BYTES_PER_ELEMENT, fixed * BYTES_PER_ELEMENT


def memory_report(gcp_text: str, filename: str, batch: int, dtype: str) -> str:
    """The --memory table of the GCP as written (its line numbers): the plan
    tfweightcalc runs (interp/runtime/memory_table.py)."""
    from tenflang.interp.runtime.memory_table import step_memory, table_text
    from tenflang.lang import parse
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    gcp = parse(gcp_text, filename)
    lines = {name: d.pos.line for name, d in gcp.declarations().items() if d.pos}
    lines.update((name, d.pos.line) for d in gcp.definitions() if d.pos for name in d.targets)
    plan = gradient_plan(gcp, signature(gcp))
    return table_text(step_memory(plan, batch, dtype, lines))


def warn_unused(program) -> None:
    """A warning at the declaration of each weight no loss uses (when the
    program has a loss): it would never learn."""
    decls = program.declarations()
    if not any(d.kind == DeclKind.LOSS for d in decls.values()):
        return
    for name in unused_weights(program):
        where = location(program, decls[name].name_pos)
        click.echo(f"{lead(where)}warning: {safe(not_used(name))}{where.excerpt()}", err=True)
