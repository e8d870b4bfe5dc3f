"""The adjoint of a kept loop (docs/design.md §2.5.1): the cell differentiated
once, and a loop back over the states that calls it.

For `define hs = scan m h0 xs a …` (a `fold` is kept as such a scan and an
`index`, lang/kept_loops.py) the sweep's block of `hs` ends with

    define tmp/hs/1, tmp/hs/2, tmp/hs/3, … = scan_back adjoint/m hs h0 xs a … d/dhs

whose targets are the contributions of the loop to the adjoints of its
operands h0, xs, a, … (in that order): for t = T-1 down to 0, with
g = row t of d/dhs plus the state's adjoint carried from step t+1,
`adjoint/m (state t-1, h0 at t = 0) (row t of xs) a … g` gives the adjoints of
its operands; the one of the state is carried to step t-1, the one of the row
is row t of the sequence's contribution, the others are summed over the
steps; the carry left after step 0 is h0's.

`adjoint/m h x a … d/d<r> -> d/dh, d/dx, d/da, …` is a macro written by the
same sweep as the program's (`reverse_sweep`) over the cell's body, seeded
with its parameter d/d<r> (the adjoint of the cell's result r): the cell's
lines first (the states are kept, not the cell's temporaries, which the
adjoint computes again), then one block per node, as in the GCP.  At -O1 it
is simplified as the GCP is (`simplify`), keeping the operands' adjoints.
"""
from __future__ import annotations

from tenflang.base.naming import adjoint, cell_adjoint
from tenflang.lang.checks import check
from tenflang.lang.kept_loops import cell_program
from tenflang.lang.syntax_tree import Comment, DeclKind, Declare, Define, Macro, Program, Var
from tenflang.ops.entries import Rule, RuleKind
from .graph import build_graph, computed_from, computed_with

# each operand's contribution is the loop's target for it, `p`: written by `loop_lines`
CONTRIBUTION = Rule(RuleKind.CUSTOM, "scan_back", "p")


def loop_rules(define: Define) -> tuple[Rule, ...]:
    return (CONTRIBUTION,) * len(define.operands)


def loop_lines(sweep, define: Define) -> list[Define]:
    """The `scan_back` line of `define`'s block, its targets recorded as the
    partials the operands' contributions read (`reverse.contribution`)."""
    targets = [sweep.namer.temporary(define.name) for _ in define.operands]
    for position, (target, operand) in enumerate(zip(targets, define.operands)):
        sweep.partials[(define.name, position)] = target
        sweep.shapes[target] = sweep.shapes[operand.name]
    init, xs, *rest = define.operands
    return [Define(targets[0], "scan_back",
                   (Var(define.name), init, xs, *rest, Var(sweep.adjoints[define.name])),
                   attrs=define.attrs, cell=cell_adjoint(define.cell), more=tuple(targets[1:]))]


def adjoint_macro(program: Program, cell: Macro, shapes: tuple, level: int) -> Macro:
    """`adjoint/<cell>` (module docstring), the cell's parameters of `shapes`."""
    from .reverse import edge_rules, infer, reverse_sweep, zero
    from .simplify import simplify
    seed = adjoint(cell.result)
    mini = cell_program(program, cell, shapes)
    names = check(mini)
    graph = build_graph(mini)
    rules = edge_rules(graph, names, keep_zero=level == 0)
    nodes = set(graph.index) if level == 0 else relevant(graph, rules, cell)
    sweep = reverse_sweep(graph, {**names, seed: names[cell.result]}, nodes,
                          keep_zero=level == 0, rules=rules, seeds={cell.result: seed})
    missing = [zero(sweep.adjoints.setdefault(p, sweep.namer.claim(adjoint(p))), p, sweep.shapes)
               for p in cell.params if p not in nodes]
    infer(missing, sweep.shapes)
    results = [sweep.adjoints[p] for p in cell.params]
    forward = [s for s in cell.body if isinstance(s, Define)]
    blocks = sweep.blocks + [(None, missing)]
    if level >= 1:
        forward, blocks = simplify(forward, blocks, set(results), sweep.shapes)
    return Macro(cell_adjoint(cell.name), (*cell.params, seed), results[0],
                 tuple(body(forward, blocks, results)), more=tuple(results[1:]))


def relevant(graph, rules, cell: Macro) -> set[str]:
    """-O1's nodes: between the cell's parameters and its result."""
    lines, edges = list(graph.defs.values()), lambda line: rules[line.name]
    return computed_from(lines, [cell.result], edges) & computed_with(lines, cell.params, edges)


def body(forward: list, blocks: list, results: list) -> list:
    """The adjoint macro's lines: its locals declared, the cell's lines, the blocks."""
    lines = [*forward, *(line for _, block in blocks for line in block)]
    out = [Declare(DeclKind.INTVAR, d.name, None) for d in lines if d.name not in results]
    out += forward
    for title, block in blocks:
        if block:
            out += ([parameter_title(title)] if title is not None else []) + block
    return out


def parameter_title(title: Comment) -> Comment:
    """A block's title, a parameter's said as such (the sweep saw it as an input)."""
    kind, _, name = title.text.partition(" ")
    return Comment(f"parameter {name}") if kind == DeclKind.INPUT and " " not in name else title
