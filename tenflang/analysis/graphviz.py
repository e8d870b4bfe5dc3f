"""A program's dataflow graph as Graphviz DOT text (`tfcompiler --dot`).

    text = to_dot(program)        # a checked Program: shape program or GCP

Conventions

* One node per declared variable, in declaration order.  Its label has three
  lines: the name; what defines it (the op with its operands, a variable
  operand drawn as `_` since an edge shows it, a numeric literal written in
  place: `pow _ 2`), or the declared type for a variable bound from data, or
  `(undefined)`; and its per-example shape (`[]` for a scalar).
* Node shape and colour say the declared type (`KIND_STYLE`); a variable that
  is declared but never defined is drawn dashed.
* One edge per operand use that names a variable, from the defined node to
  its operand (its child), as the original design draws the graph: losses at the top,
  data at the bottom.  When an op has two operands the edge is labelled with
  the operand's position, 1 or 2 (so `mul x x` gives two edges, 1 and 2).
  Numeric literals are never nodes.
* Every node ID and label is a double-quoted DOT string with `\\` and `"`
  escaped, so generated names such as `d/dw`, `h.t` or `dz/dh.t` are safe.
* The output depends only on the program: same program, same bytes.
"""
from __future__ import annotations

from tenflang.base.errors import text_of_path
from tenflang.lang import check
from tenflang.lang.syntax_tree import BOUND_KINDS, Declare, Define, Num, Program, Var
from tenflang.lang.printer import attribute, number
from tenflang.ops.shapes import fmt_shape

KIND_STYLE = {
    "input": 'shape=invhouse, style=filled, fillcolor="#cfe2f3"',
    "exp_output": 'shape=invhouse, style=filled, fillcolor="#fff2cc"',
    "weight": 'shape=box, style="filled,bold", fillcolor="#d9ead3"',
    "intvar": 'shape=ellipse, style=filled, fillcolor="#ffffff"',
    "output": 'shape=ellipse, peripheries=2, style=filled, fillcolor="#fce5cd"',
    "loss": 'shape=doubleoctagon, style=filled, fillcolor="#f4cccc"',
}
UNDEFINED_STYLE = ", style=dashed"


def quote(text: str) -> str:
    """`text` as a double-quoted DOT string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def label(*lines: str) -> str:
    """A quoted multi-line label (DOT's `\\n` escape between the lines)."""
    return '"' + "\\n".join(quote(line)[1:-1] for line in lines) + '"'


def operand_text(operand: Var | Num) -> str:
    return "_" if isinstance(operand, Var) else number(operand.value)


def definition_text(define: Define) -> str:
    """What defines a node, literals in place: `pow _ 2`, `copy 1`."""
    return " ".join([define.op, *map(operand_text, define.operands),
                     *map(attribute, define.attrs)])


def node_line(declare: Declare, define: Define | None, shape) -> str:
    if define is not None:
        how = definition_text(define)
    else:
        how = declare.kind if declare.kind in BOUND_KINDS else "(undefined)"
    style = KIND_STYLE.get(declare.kind, KIND_STYLE["intvar"])
    if define is None and declare.kind not in BOUND_KINDS:
        style += UNDEFINED_STYLE
    text = label(declare.name, how, fmt_shape(shape))
    return f"  {quote(declare.name)} [label={text}, {style}];"


def edge_lines(define: Define) -> list[str]:
    """One edge per variable operand, node → operand, position-labelled for binary ops."""
    lines = []
    for position, operand in enumerate(define.operands, start=1):
        if not isinstance(operand, Var):
            continue
        attrs = f" [label={quote(str(position))}]" if len(define.operands) == 2 else ""
        lines += [f"  {quote(target)} -> {quote(operand.name)}{attrs};"
                  for target in define.targets]
    return lines


def graph_header(program: Program) -> list[str]:
    return [f"digraph {quote(text_of_path(program.filename))} {{",
            '  node [fontname="Helvetica", fontsize=10];',
            '  edge [fontname="Helvetica", fontsize=9];']


def to_dot(program: Program) -> str:
    """Graphviz DOT text of the dataflow graph of `program` (see module docstring)."""
    shapes = check(program)
    defs = {target: d for d in program.definitions() for target in d.targets}
    declares = program.declarations().values()
    nodes = [node_line(d, defs.get(d.name), shapes[d.name]) for d in declares]
    edges = [line for define in program.definitions() for line in edge_lines(define)]
    return "\n".join(graph_header(program) + nodes + edges + ["}"]) + "\n"


__all__ = ["to_dot", "quote"]
