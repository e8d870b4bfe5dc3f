"""Assembling the Gradient Computing Program (docs/design.md §2.5).

Layout: the shape program's declarations (retyped), then its definitions,
then one commented block per node of the reverse sweep, each block's
declarations at its head, beside the lines that define them (a name is
declared before it is defined, docs/design.md §2.1: a line's shape is a few
lines up, never hundreds).  Retyping: input and exp_output become input;
weight and loss stay; intvar and output become intvar, but for the scalar
outputs (metrics, which stay outputs); each weight's `d/dw` is an output.
Every declaration carries its shape (scalars omit `[]`); a weight keeps its
initialiser (`init ...`), which tfweightcalc reads from the GCP.
"""
from __future__ import annotations

from tenflang.lang.syntax_tree import Comment, DeclKind, Declare, Define, Program

RETYPE = {"input": "input", "exp_output": "input", "weight": "weight",
          "intvar": "intvar", "output": "intvar", "loss": "loss"}
# declared in the GCP whether or not a kept line defines them
ALWAYS_DECLARED = frozenset({DeclKind.INPUT, DeclKind.EXP_OUTPUT, DeclKind.WEIGHT, DeclKind.LOSS})


def declaration(kind: str, name: str, shape, init=None) -> Declare:
    return Declare(kind, name, tuple(shape) if shape else None, init=init)


def assemble(program: Program, shapes: dict, forward: list[Define],
             blocks: list[tuple[Comment, list[Define]]], outputs: set[str],
             metrics: frozenset | set = frozenset(), cells: dict | None = None) -> Program:
    """The GCP as a syntax tree; `forward` and `blocks` hold only what is kept
    (a block left with no line is never written); `cells`: the macros its kept
    loops call (name -> Macro, backprop/loop_adjoint.py), which printing
    writes first.
    The sweep's names are fresh (never the program's), so each backward line
    adds its own declaration."""
    defined = {d.name for d in forward}
    header = [declaration("output" if d.name in metrics else RETYPE[d.kind], d.name,
                          shapes[d.name], d.init)
              for d in program.declarations().values()
              if d.kind in ALWAYS_DECLARED or d.name in defined]
    body: list = [Comment("forward: the shape program"), *forward,
                  Comment("backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k")]
    for title, lines in blocks:
        if lines:
            body += [title, *[declaration("output" if n in outputs else "intvar", n, shapes[n])
                              for d in lines for n in d.targets], *lines]
    return Program(tuple(header + body), program.filename, cells=dict(cells or {}))
