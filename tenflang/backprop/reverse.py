"""The reverse sweep: the original design's Compile Phase, the literal algorithm.

For each node v in topological order (every user of v before v):

    d/dv  = Σ over uses (u, m=v) of combine(g = d/du, p = du/dv)   (1 for a loss)
    dv/dm = the op table's local partial, for each operand m of v's definition

`reverse_sweep` is that loop: for each node, `adjoint_lines` sums its users'
contributions (`contribution`: the user's rule `combine`, lowered to lines) and
`partial_lines` writes its local partials, which its operands' contributions
read later in the sweep.  A contribution that numpy broadcasting widened is
summed back with `sum_like`; a node with no contribution has adjoint zero.
The result is a list of blocks, one per node, each a comment naming the
forward line and the block's definitions, plus the shapes of all new names.

What the sweep covers is its caller's: `nodes` (-O0 every node, -O1 only the
nodes between weights and losses) and the edges that `edge_rules` gives a rule
(-O1 leaves out the zeros of `no_grad`).  It writes every line the algorithm
calls for, `copy 1` and `mul g 1` included: -O1 cleans the blocks up afterwards
(`simplify.simplify`), so the sweep is the same at both levels.

Names (docs/design.md §2.5): `d/dv` is only ever v's adjoint and `dv/dm` only
the partial of v by its operand m; everything else a block of node v defines
is a temporary `tmp/v/<k>` (`naming.temporary`): a term of d/dv before the sum,
a partial sum of the terms, a contribution before `sum_like`, a rule's inner
node, and the partial by an operand that v's definition reads twice (`mul x x`:
the partial by one position is not dv/dx).

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
from tenflang.lang.checks import result_shape
from tenflang.base.naming import Namer, adjoint, partial_name
from tenflang.lang.printer import right_side
from tenflang.ops.entries import Rule, RuleKind
from tenflang.ops.shapes import Shape
from .graph import Graph, topological_order
from .rules import lower
from .loop_adjoint import loop_lines, loop_rules

LOSS = DeclKind.LOSS            # looked up once: an enum member's lookup is slow


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
    seeds: dict[str, str] = field(default_factory=dict)      # node -> its given adjoint's name


def reverse_sweep(graph: Graph, shapes: dict, nodes: set[str], keep_zero: bool = True,
                  rules: dict | None = None, seeds: dict | None = None) -> Sweep:
    """The sweep over `nodes`; `rules` is `edge_rules(graph, shapes, keep_zero)` if the
    caller has it; `seeds`: nodes whose adjoint is given, by name, instead of
    1 for a loss (a loop cell's result: backprop/loop_adjoint.py)."""
    rules = edge_rules(graph, shapes, keep_zero) if rules is None else rules
    namer = Namer(set(shapes), variables=frozenset(shapes))
    sweep = Sweep(graph, dict(shapes), nodes, namer, rules, seeds=seeds or {})
    for node in topological_order(graph, nodes):
        lines = adjoint_lines(sweep, node) + partial_lines(sweep, node)
        sweep.blocks.append((title(graph, node), lines))
    return sweep


def adjoint_lines(sweep: Sweep, node: str) -> list[Define]:
    """d/dnode: the sum of its users' contributions, and 1 for a loss; zero if
    there is none.  A single term is written straight into d/dnode; a seed
    alone is d/dnode itself."""
    uses = [(u, i) for u, i in sweep.graph.users[node]
            if u in sweep.nodes and sweep.rules[u][i] is not None]
    seed = sweep.seeds.get(node)
    if seed is not None and not uses:
        sweep.adjoints[node] = seed
        return []
    target = sweep.adjoints[node] = sweep.namer.claim(adjoint(node))
    terms: list = ([Num(1.0)] if sweep.graph.kinds[node] == LOSS
                   else [Var(seed)] if seed is not None else [])
    if not uses:
        line = Define(target, "copy", (terms[0],)) if terms else zero(target, node, sweep.shapes)
        return infer([line], sweep.shapes)
    if len(uses) == 1 and not terms:         # the common case: one contribution is all
        return contribution(sweep, node, *uses[0], target)
    lines: list[Define] = []
    for user, position in uses:
        terms.append(Var(sweep.namer.temporary(node)))
        lines += contribution(sweep, node, user, position, terms[-1].name)
    return lines + summed(sweep, node, terms, target)


def summed(sweep: Sweep, node: str, terms: list, target: str) -> list[Define]:
    """`target` = terms[0] + terms[1] + ..., left to right, each partial sum a
    temporary of node's block."""
    lines: list[Define] = []
    total = terms[0]
    for i, term in enumerate(terms[1:], start=2):
        name = target if i == len(terms) else sweep.namer.temporary(node)
        lines.append(Define(name, "add", (total, term)))
        total = Var(name)
    return infer(lines, sweep.shapes)


def contribution(sweep: Sweep, node: str, user: str, position: int, target: str) -> list[Define]:
    """The user's rule `combine` with g = d/duser and p = duser/dnode, lowered
    into `target`, summed back to node's shape where broadcasting widened it."""
    env = dict(sweep.envs[user])                # `partial_lines` of the user, earlier
    env["g"] = Var(sweep.adjoints[user])
    if (user, position) in sweep.partials:
        env["p"] = Var(sweep.partials[(user, position)])
    fresh = functools.partial(sweep.namer.temporary, node)
    lines = infer(lower(sweep.rules[user][position].combine, target, env, fresh), sweep.shapes)
    if sweep.shapes[target] != sweep.shapes[node]:       # widened: sum it back
        wide = fresh()
        sweep.shapes[wide] = sweep.shapes[target]
        sum_back = Define(target, "sum_like", (Var(wide), Var(node)))
        lines = [*lines[:-1], replace(lines[-1], name=wide), *infer([sum_back], sweep.shapes)]
    return lines


def partial_lines(sweep: Sweep, node: str) -> list[Define]:
    """The local partials of `node`; its `operand_env` is kept for the
    contributions to its operands, which come later in the sweep."""
    define = sweep.graph.defs.get(node)
    if define is None:
        return []
    sweep.envs[node] = operand_env(define)
    if define.cell:
        return loop_lines(sweep, define)
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
    return infer(lower(rule, name, sweep.envs[define.name], fresh), sweep.shapes)


def title(graph: Graph, node: str) -> Comment:
    """A block's comment: the forward line of `node`, or its declaration."""
    define = graph.defs.get(node)
    return Comment(f"{node} = {right_side(define)}" if define else f"{graph.kinds[node]} {node}")


def zero(target: str, like: str, shapes) -> Define:
    if shapes[like] == ():
        return Define(target, "copy", (Num(0.0),))
    return Define(target, "broadcast_like", (Num(0.0), Var(like)))


def operand_env(define: Define) -> dict:
    env = dict(zip("abc", define.operands))
    env["v"] = Var(define.name)
    return env


def infer(lines: list[Define], shapes: dict) -> list[Define]:
    """`lines`, their results' shapes recorded in `shapes`."""
    for line in lines:
        shapes[line.name] = result_shape(line.op, operand_shapes(line.operands, shapes), line.attrs)
    return lines


def operand_shapes(operands, shapes) -> tuple[Shape, ...]:
    return tuple([() if isinstance(o, Num) else shapes[o.name] for o in operands])


def edge_rules(graph: Graph, shapes, keep_zero: bool) -> dict[str, tuple[Rule | None, ...]]:
    """Defined node -> its op's derivative rule for each operand position, None
    where the edge gives no derivative worth writing (`carries`)."""
    return {name: grad_rules(define, shapes, keep_zero) for name, define in graph.defs.items()}


def grad_rules(define: Define, shapes, keep_zero: bool) -> tuple[Rule | None, ...]:
    if define.cell:
        return loop_rules(define)
    return rules_for(define.op, operand_shapes(define.operands, shapes), define.attrs, keep_zero)


# a program repeats a few (op, shapes, attributes) many times: their rules once each
@functools.lru_cache(maxsize=4096)
def rules_for(op: str, shapes: tuple, attrs: tuple, keep_zero: bool) -> tuple[Rule | None, ...]:
    return tuple([rule if carries(rule, keep_zero) else None
                  for rule in ops.TABLE[op].rules(shapes, attrs)])


def carries(rule: Rule | None, keep_zero: bool) -> bool:
    """Does a rule give a derivative worth writing (-O0 writes the zeros too)?"""
    return rule is not None and (keep_zero or rule.kind != RuleKind.NO_GRAD)
