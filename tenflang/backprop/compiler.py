"""The Compile Phase: shape program → Gradient Computing Program.

    gcp = compile_gradient(program, level=1)     # a checked Program
    text = print_program(gcp)

`level=0` is the original design's literal algorithm: an adjoint for every node and a
local partial for every operand, inputs included.  `level=1` (the default)
sweeps only the nodes between the weights and the losses, then simplifies
(see `simplify`).  Both give the same gradients.  At both levels a scalar
output of the shape program that its losses are not computed from (a metric
such as `correct = equal (argmax scores) label`) stays an `output` of the GCP
with what it is computed from, so that training a GCP reports its validation
mean as training the shape program does; training computes only the
gradients and losses (an output on the loss's path, as `o` in the original
design's example, becomes an intvar).

A GCP has at most `limits.MAX_EXPANDED_STATEMENTS` statements and names of
at most `limits.MAX_NAME_CHARS`, the limits every program is read with: a
shape program within them whose GCP is not (backpropagation adds statements
and longer names) is refused here, so the compiler never writes a GCP that
tfweightcalc would refuse.

`verify=True` (the default) checks the GCP as any program is checked, which
proves the compiler wrote a valid program and remembers its shapes for the
run that follows.  `tfcompiler` passes False: it only prints the GCP, and
every command that reads a GCP checks it then; the check is a fifth of a
large program's compile time.  The test suite compiles with the check.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from tenflang.base import limits
from tenflang.base.errors import Location, TenflangError
from tenflang.base.gc_pause import paused_gc
from tenflang.base.naming import adjoint, cell_adjoint
from tenflang.lang.kept_loops import cell_operands, kept_rows
from tenflang.lang.syntax_tree import Comment, Declare, Define, Program, Var
from tenflang.lang.checks import check
from .gcp import assemble
from .loop_adjoint import adjoint_macro
from .graph import build_graph, computed_from, computed_with
from .reverse import edge_rules, infer, reverse_sweep, zero
from .simplify import simplify


def compile_gradient(program: Program, level: int = 1, verify: bool = True,
                     keep_every: int = 1) -> Program:
    """The GCP of a checked shape program (see module docstring); `keep_every`:
    a kept fold keeps every k-th state for its backward pass, which computes
    the others again (`checkpointed`)."""
    if keep_every < 1:
        raise TenflangError(f"keep_every: a loop keeps every k-th state, k ≥ 1; got {keep_every}")
    with paused_gc():
        refuse_kept_loops(program)
        gcp = sweep_and_assemble(checkpointed(program, keep_every), level)
        check_limits(program, gcp)
        if verify:
            check(gcp)
        return gcp


def sweep_and_assemble(program: Program, level: int) -> Program:
    shapes = check(program)
    graph = build_graph(program)
    weights = [n for n, k in graph.kinds.items() if k == "weight"]     # every declared one
    losses = [n for n, k in graph.kinds.items() if k == "loss" and n in graph.defs]
    rules = edge_rules(graph, shapes, keep_zero=level == 0)
    nodes = set(graph.index) if level == 0 else relevant_nodes(graph, rules, weights, losses)
    sweep = reverse_sweep(graph, shapes, nodes, keep_zero=level == 0, rules=rules)
    missing = [zero(sweep.adjoints.setdefault(w, sweep.namer.claim(adjoint(w))), w, sweep.shapes)
               for w in weights if w not in nodes]
    infer(missing, sweep.shapes)
    outputs = {sweep.adjoints[w] for w in weights}
    forward = program.definitions()
    blocks = sweep.blocks + ([(Comment("weights no loss depends on: gradient zero"), missing)]
                             if missing else [])
    metrics = metric_outputs(program, shapes, losses)
    if level >= 1:
        forward, blocks = simplify(forward, blocks, outputs | set(losses) | metrics, sweep.shapes)
    return assemble(program, sweep.shapes, forward, blocks, outputs, metrics,
                    loop_cells(program, shapes, forward, blocks, level))


def checkpointed(program: Program, every: int) -> Program:
    """`program` with each kept loop whose last state alone is read (a fold:
    `define hT = index hT.states T-1`) keeping every `every`-th state
    (`scan_checkpoints`, docs/design.md §2.5.1); itself where none does."""
    if every <= 1 or not program.cells:
        return program
    lines = program.definitions()
    reads = Counter(o.name for d in lines for o in d.operands if isinstance(o, Var))
    shapes, swapped = check(program), {}
    for d in lines:
        if (d.op == "index" and d.attrs == (shapes[d.operands[0].name][0] - 1,)
                and reads[d.operands[0].name] == 1):
            swapped[d.operands[0].name] = d.attrs[0] + 1
    if not swapped:
        return program
    return replace(program, statements=tuple(
        checkpoint_line(s, swapped, every) if isinstance(s, Define) else s
        for s in program.statements))


def checkpoint_line(line: Define, steps: dict, every: int) -> Define:
    """A fold's scan keeping every `every`-th state, and its last row read there."""
    if line.cell and line.name in steps and line.op == "scan":
        return replace(line, op="scan_checkpoints", attrs=(every,))
    if line.op == "index" and line.operands[0].name in steps:
        return replace(line, attrs=(kept_rows(steps[line.operands[0].name], every) - 1,))
    return line


def loop_cells(program: Program, shapes: dict, forward, blocks, level: int) -> dict:
    """The macros the GCP's kept loops call: each cell, and the adjoint macro of
    each cell a `scan_back` calls (backprop/loop_adjoint.py)."""
    lines = [*forward, *(line for _, block in blocks for line in block)]
    backs = {d.cell for d in lines if d.op == "scan_back"}
    cells = {}
    for d in lines:
        if d.op in ("scan", "scan_checkpoints") and d.cell not in cells:
            cells[d.cell] = program.cells[d.cell]
            if cell_adjoint(d.cell) in backs:
                inner = cell_operands(d, tuple(shapes[o.name] for o in d.operands))[1]
                made = adjoint_macro(program, program.cells[d.cell], inner, level)
                cells[made.name] = made
    return cells


def refuse_kept_loops(program: Program) -> None:
    """A GCP with a loop's adjoint is not differentiated again (its `scan_back`
    has no derivative rule)."""
    if any(d.op == "scan_back" for d in program.definitions()):
        raise TenflangError("this program is a GCP with a loop's adjoint (`scan_back`), which "
                            "is not differentiated again; compile its shape program with "
                            "`tfcompiler --unroll` for that", Location(program.filename))


def metric_outputs(program: Program, shapes: dict, losses: list[str]) -> set[str]:
    """The shape program's defined scalar outputs that its `losses` are not
    computed from: its metrics."""
    defined = {d.name for d in program.definitions()}
    used = computed_from(program.definitions(), losses)
    return {n for n, d in program.declarations().items()
            if d.kind == "output" and not shapes[n] and n in defined and n not in used}


def check_limits(program: Program, gcp: Program) -> None:
    """`gcp` within the limits its readers apply: statements (they keep no
    comments) and the length of a name (a gradient's `d/d<weight>` is longer
    than the weight's)."""
    longest = max((s.name for s in gcp.statements if isinstance(s, Declare)), key=len,
                  default="")
    if len(longest) > limits.MAX_NAME_CHARS:
        raise TenflangError(f"the GCP of this program would declare '{longest}', longer than "
                            f"{limits.MAX_NAME_CHARS} characters (the limit of a name); shorten "
                            "the names it is made from", Location(program.filename))
    count = sum(not isinstance(s, Comment) for s in gcp.statements)
    if count > limits.MAX_EXPANDED_STATEMENTS:
        raise TenflangError(
            f"the GCP of this program would have {count} statements, more than "
            f"{limits.MAX_EXPANDED_STATEMENTS} (the limit a program is read with); shorten its "
            "loops (fold, scan) or its macros' expansion", Location(program.filename))


def relevant_nodes(graph, rules, weights, losses) -> set[str]:
    """Nodes on a path from a weight to a loss along edges that carry a derivative
    (`rules`: `reverse.edge_rules` of -O1, None where an edge carries none)."""
    lines, edges = list(graph.defs.values()), lambda line: rules[line.name]
    return computed_from(lines, losses, edges) & computed_with(lines, weights, edges)


__all__ = ["compile_gradient"]
