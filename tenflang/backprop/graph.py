"""The dataflow graph of a program and its topological order.

One node per variable that has a value (data variables and defined ones);
an edge runs from each defined node to each of its operands (its children),
as in the original design.  `users` is the reverse map: for each node, the (user,
operand position) pairs that read it.  `topological_order` puts a node after
every node that uses it, which is the order the reverse sweep needs: the
program read bottom up (see there why that is one).  No recursion, so depth
never matters.
"""
from __future__ import annotations


from tenflang.base.frozen import frozen
from tenflang.lang.syntax_tree import BOUND_KINDS, DeclKind, Define, Program, Var


@frozen
class Graph:
    kinds: dict[str, str]                       # declared type of every node
    defs: dict[str, Define]                     # definition of every defined node
    users: dict[str, list[tuple[str, int]]]     # node -> [(user, operand position)]
    index: dict[str, int]                       # program order of every node


def build_graph(program: Program) -> Graph:
    decls = program.declarations()
    defs = {d.name: d for d in program.definitions()}
    nodes = [s.name for s in program.statements
             if s.name in defs and isinstance(s, Define)
             or s.name in decls and s is decls[s.name] and s.kind in BOUND_KINDS]
    users: dict[str, list[tuple[str, int]]] = {n: [] for n in nodes}
    for define in defs.values():
        for position, operand in enumerate(define.operands):
            if isinstance(operand, Var):
                users[operand.name].append((define.name, position))
    return Graph({n: decls[n].kind for n in nodes}, defs, users, {n: i for i, n in enumerate(nodes)})


def topological_order(graph: Graph, nodes=None) -> list[str]:
    """Every node in `nodes` (default all) after all of its users in `nodes`:
    latest in program order first.  A checked program declares or defines each
    name before any line reads it, so every user comes after its operands in
    program order; the latest node left is then never waiting for a user, and
    this is the order Kahn's algorithm gives when ties go to the later line."""
    return sorted(graph.index if nodes is None else nodes, key=graph.index.__getitem__,
                  reverse=True)


def computed_from(lines, names, edges=None) -> set[str]:
    """`names` and every name the definitions `lines` compute them from,
    directly or not.  `lines` are in program order, where every operand is
    defined before the line that reads it (a checked program), so one pass
    from the last line up finds them all.  `edges(line)`, if given: for each
    operand, None where the path is not followed (see `compiler.relevant_nodes`)."""
    live = set(names)
    add = live.add
    for line in reversed(lines):
        if line.name in live or line.more and not live.isdisjoint(line.more):
            follow = edges(line) if edges is not None else None
            for i, o in enumerate(line.operands):
                if type(o) is Var and (follow is None or follow[i] is not None):
                    add(o.name)
    return live


def computed_with(lines, names, edges) -> set[str]:
    """`names` and every name the definitions `lines` (in program order)
    compute from one of them, directly or not, along edges `edges(line)`
    does not give as None: `computed_from` the other way."""
    reached = set(names)
    for line in lines:
        follow = edges(line)
        for i, o in enumerate(line.operands):
            if type(o) is Var and follow[i] is not None and o.name in reached:
                reached.add(line.name)
                break
    return reached


def ancestors(program: Program, names) -> set[str]:
    """`names` and every variable they are computed from, directly or not, in a
    checked program (`computed_from`)."""
    return computed_from(program.definitions(), names)


def unused_weights(program: Program) -> list[str]:
    """The weights no loss is computed from: their gradient is 0 whatever the
    data, so training never moves them."""
    decls = program.declarations().values()
    used = ancestors(program, [d.name for d in decls if d.kind == DeclKind.LOSS])
    return [d.name for d in decls if d.kind == DeclKind.WEIGHT and d.name not in used]
