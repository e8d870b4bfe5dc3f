"""The Compile Phase: shape program → Gradient Computing Program.

    gcp = compile_gradient(program, level=1)     # a checked Program
    text = print_program(gcp)

`level=0` is the original design's literal algorithm: an adjoint for every node and a
local partial for every operand, inputs included.  `level=1` (the default)
sweeps only the nodes between the weights and the losses, then simplifies
(see `simplify`).  Both give the same gradients.

`verify=True` (the default) checks the GCP as any program is checked, which
proves the compiler wrote a valid program and remembers its shapes for the
run that follows.  `tfcompiler` passes False: it only prints the GCP, and
every command that reads a GCP checks it then; the check is a fifth of a
large program's compile time.  The test suite compiles with the check.
"""
from __future__ import annotations

from tenflang.base.gc_pause import paused_gc
from tenflang.lang.syntax_tree import Comment, Program
from ..lang.checks import check
from .gcp import assemble
from .graph import build_graph, computed_from, computed_with
from tenflang.base.naming import adjoint
from .reverse import edge_rules, infer, reverse_sweep, zero
from .simplify import remove_dead


def compile_gradient(program: Program, level: int = 1, verify: bool = True) -> Program:
    """The GCP of a checked shape program (see module docstring)."""
    with paused_gc():
        gcp = sweep_and_assemble(program, level)
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
    sweep = reverse_sweep(graph, shapes, nodes, keep_zero=level == 0, rules=rules,
                          simplify=level >= 1)
    missing = [zero(sweep.adjoints.setdefault(w, sweep.namer.claim(adjoint(w))), w, sweep.shapes)
               for w in weights if w not in nodes]
    infer(missing, sweep.shapes)
    outputs = {sweep.adjoints[w] for w in weights}
    forward = program.definitions()
    if sweep.simplifier is not None:
        sweep.simplifier.keep.update(outputs)
        missing = sweep.simplifier.block(missing)
    blocks = sweep.blocks + ([(Comment("weights no loss depends on: gradient zero"), missing)]
                             if missing else [])
    if level >= 1:
        forward, blocks = remove_dead(forward, blocks, outputs | set(losses))
    return assemble(program, sweep.shapes, forward, blocks, outputs)


def relevant_nodes(graph, rules, weights, losses) -> set[str]:
    """Nodes on a path from a weight to a loss along edges that carry a derivative
    (`rules`: `reverse.edge_rules` of -O1, None where an edge carries none)."""
    lines, edges = list(graph.defs.values()), lambda line: rules[line.name]
    return computed_from(lines, losses, edges) & computed_with(lines, weights, edges)


__all__ = ["compile_gradient"]
