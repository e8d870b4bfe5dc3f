"""The reverse sweep: the original design's Compile Phase.

For each node v in topological order (every user of v before v):

    d/dv  = Σ over uses (u, m=v) of combine(g = d/du, p = du/dv)   (1 for a loss)
    dv/dm = the op table's local partial, for each operand m of v's definition

A contribution that numpy broadcasting widened is summed back with
`sum_like`.  `nodes` limits the sweep (the -O1 pass keeps only nodes between
weights and losses); a node with no contribution has adjoint zero.  The
result is a list of blocks, one per node, each a comment naming the forward
line and the block's definitions, plus the shapes of all new names.

Names (docs/design.md §2.5): `d/dv` is only ever v's adjoint and `dv/dm` only
the partial of v by its operand m; everything else a block of node v defines
is a temporary `tmp/v/<k>` (`naming.temporary`): a term of d/dv before the sum,
a contribution before `sum_like`, a rule's inner node, and the partial by an
operand that v's definition reads twice (`mul x x`: the partial by one
position is not dv/dx).

At -O1 (`simplify=True`) the sweep simplifies as it goes: each finished block
goes through a `simplify.Simplifier`, and a local partial that is a bare
symbol or number (`1` for `add`, `b` for `mul a b`) is never written: its name
just stands for the value, as the simplifier would have made it.

The derivative rules of every definition are looked up once (`edge_rules`,
per operand position) and shared by the pruning in `compiler.relevant_nodes`
and the sweep: a large program asks for them about seven times per line.
"""
from __future__ import annotations

import functools

from dataclasses import field, replace

from tenflang.base.frozen import mutable
from tenflang.ops import table as ops
from tenflang.lang.syntax_tree import Comment, DeclKind, Define, Num, Var
from ..lang.checks import result_shape
from tenflang.base.naming import Namer, adjoint, partial_name
from ..lang.printer import right_side
from tenflang.ops.entries import Rule, RuleKind
from tenflang.ops.shapes import Shape
from .graph import Graph, topological_order
from .rules import leaf_value, lower
from .simplify import Simplifier

LOSS = DeclKind.LOSS            # looked up once: an enum member's lookup is slow
WEIGHT = DeclKind.WEIGHT


@mutable
class Sweep:
    graph: Graph
    shapes: dict[str, Shape]
    nodes: set[str]
    namer: Namer
    rules: dict[str, tuple[Rule | None, ...]]                  # see `edge_rules`
    partials: dict[tuple[str, int], str] = field(default_factory=dict)
    adjoints: dict[str, str] = field(default_factory=dict)   # node -> name of d/dnode
    envs: dict[str, dict] = field(default_factory=dict)      # node -> `operand_env` of it
    blocks: list[tuple[Comment, list[Define]]] = field(default_factory=list)
    simplifier: Simplifier | None = None                      # -O1: see the module docstring


def operand_shapes(operands, shapes) -> tuple[Shape, ...]:
    return tuple([() if isinstance(o, Num) else shapes[o.name] for o in operands])


def grad_rules(define: Define, shapes, keep_zero: bool) -> tuple[Rule | None, ...]:
    return rules_for(define.op, operand_shapes(define.operands, shapes), define.attrs, keep_zero)


def edge_rules(graph: Graph, shapes, keep_zero: bool) -> dict[str, tuple[Rule | None, ...]]:
    """Defined node -> its op's derivative rule for each operand position, None
    where the edge gives no derivative worth writing (`carries`)."""
    return {name: grad_rules(define, shapes, keep_zero) for name, define in graph.defs.items()}


def infer(lines: list[Define], shapes: dict) -> None:
    for line in lines:
        shapes[line.name] = result_shape(line.op, operand_shapes(line.operands, shapes), line.attrs)


# a program repeats a few (op, shapes, attributes) many times: their rules once each
@functools.lru_cache(maxsize=4096)
def rules_for(op: str, shapes: tuple, attrs: tuple, keep_zero: bool) -> tuple[Rule | None, ...]:
    return tuple([rule if carries(rule, keep_zero) else None
                  for rule in ops.TABLE[op].rules(shapes, attrs)])


def carries(rule: Rule | None, keep_zero: bool) -> bool:
    """Does a rule give a derivative worth writing (-O0 writes the zeros too)?"""
    return rule is not None and (keep_zero or rule.kind != RuleKind.NO_GRAD)


def reverse_sweep(graph: Graph, shapes: dict, nodes: set[str], keep_zero: bool = True,
                  rules: dict | None = None, simplify: bool = False) -> Sweep:
    """The sweep over `nodes`; `rules` is `edge_rules(graph, shapes, keep_zero)` if the
    caller has it; `simplify`: the -O1 clean-up as it goes (module docstring)."""
    rules = edge_rules(graph, shapes, keep_zero) if rules is None else rules
    namer = Namer(set(shapes), variables=frozenset(shapes))
    sweep = Sweep(graph, dict(shapes), nodes, namer, rules)
    if simplify:
        losses = {n for n, kind in graph.kinds.items() if kind == LOSS}
        sweep.simplifier = Simplifier.after(graph.defs.values(), losses, sweep.shapes)
    for node in topological_order(graph, nodes):
        lines = adjoint_lines(sweep, node)
        lines += partial_lines(sweep, node)
        if sweep.simplifier is not None:
            lines = sweep.simplifier.block(lines)
        sweep.blocks.append((title(graph, node) if lines else None, lines))  # ~1 in 5 is empty
    return sweep


def title(graph: Graph, node: str) -> Comment:
    """A block's comment: the forward line of `node`, or its declaration."""
    define = graph.defs.get(node)
    return Comment(f"{node} = {right_side(define)}" if define else f"{graph.kinds[node]} {node}")


def adjoint_lines(sweep: Sweep, node: str) -> list[Define]:
    target = claim_adjoint(sweep, node)
    nodes, rules = sweep.nodes, sweep.rules
    uses = [(u, i) for u, i in sweep.graph.users[node]
            if u in nodes and rules[u][i] is not None]
    seed = [Num(1.0)] if sweep.graph.kinds[node] == LOSS else []
    if len(uses) == 1 and not seed:          # the common case: one contribution is all
        return contribution(sweep, node, *uses[0], target)
    if not uses and not seed:
        lines = [zero(target, node, sweep.shapes)]
        infer(lines, sweep.shapes)
        return lines
    single = len(uses) + len(seed) == 1
    lines: list[Define] = []
    terms = list(seed)
    for user, position in uses:
        name = target if single else sweep.namer.temporary(node)
        lines += contribution(sweep, node, user, position, name)
        terms.append(Var(name))
    sums = [Define(target, "copy", (seed[0],))] if single and seed else []
    total = terms[0]
    for i, term in enumerate(terms[1:], start=2):
        name = target if i == len(terms) else sweep.namer.temporary(node)
        sums.append(Define(name, "add", (total, term)))
        total = Var(name)
    infer(sums, sweep.shapes)
    return lines + sums


def claim_adjoint(sweep: Sweep, node: str) -> str:
    """The name of d/dnode; a weight's is an output, which the simplifier keeps."""
    target = sweep.adjoints[node] = sweep.namer.claim(adjoint(node))
    if sweep.simplifier is not None and sweep.graph.kinds[node] == WEIGHT:
        sweep.simplifier.keep.add(target)
    return target


def zero(target: str, like: str, shapes) -> Define:
    if shapes[like] == ():
        return Define(target, "copy", (Num(0.0),))
    return Define(target, "broadcast_like", (Num(0.0), Var(like)))


def contribution(sweep: Sweep, node: str, user: str, position: int, target: str) -> list[Define]:
    env = dict(sweep.envs.get(user) or operand_env(sweep.graph.defs[user]))
    env["g"] = stands_for(sweep, sweep.adjoints[user])
    if (user, position) in sweep.partials:
        env["p"] = stands_for(sweep, sweep.partials[(user, position)])
    fresh = functools.partial(sweep.namer.temporary, node)
    lines = lower(sweep.rules[user][position].combine, target, env, fresh)
    shapes = sweep.shapes
    infer(lines, shapes)
    if shapes[target] != shapes[node]:       # broadcasting widened it: sum it back
        wide = fresh()
        shapes[wide] = shapes[target]
        lines = [*lines[:-1], replace(lines[-1], name=wide),
                 Define(target, "sum_like", (Var(wide), Var(node)))]
        infer(lines[-1:], shapes)
    return lines


def stands_for(sweep: Sweep, name: str) -> Var | Num:
    """The operand that reads `name`: at -O1 what the simplifier replaced it by,
    if its line vanished (the lines written then need no substitution)."""
    simplifier = sweep.simplifier
    if simplifier is not None and name in simplifier.subst:
        return simplifier.subst[name]
    return Var(name)


def operand_env(define: Define) -> dict:
    env = dict(zip("abc", define.operands))
    env["v"] = Var(define.name)
    return env


def partial_lines(sweep: Sweep, node: str) -> list[Define]:
    """The local partials of `node`; its `operand_env` is kept for the
    contributions to its operands, which come later in the sweep."""
    define = sweep.graph.defs.get(node)
    if define is None:
        return []
    sweep.envs[node] = operand_env(define)
    lines: list[Define] = []
    for position, (operand, rule) in enumerate(zip(define.operands, sweep.rules[node])):
        if (isinstance(operand, Var) and operand.name in sweep.nodes
                and rule is not None and rule.partial is not None):
            lines += partial(sweep, define, position, rule.partial)
    return lines


def partial(sweep: Sweep, define: Define, position: int, rule: str) -> list[Define]:
    """The lines of d<node>/d<operand> for the operand at `position` (a
    temporary where the operand occurs twice: module docstring)."""
    fresh = functools.partial(sweep.namer.temporary, define.name)
    operand = define.operands[position]
    name = (sweep.namer.claim(partial_name(define.name, operand.name))
            if define.operands.count(operand) == 1 else fresh())
    sweep.partials[(define.name, position)] = name
    env = sweep.envs[define.name]
    leaf = None if sweep.simplifier is None else leaf_value(rule, env)
    if leaf is not None:        # `lower` would write `copy leaf`: the simplifier may drop it
        sweep.shapes[name] = operand_shapes((leaf,), sweep.shapes)[0]
        if sweep.simplifier.vanish(name, leaf):
            return []
    lines = lower(rule, name, env, fresh)
    infer(lines, sweep.shapes)
    return lines
