"""`tenflang fmt --fix`: the intvar declarations a program is missing, added.

    text, added = add_missing_declarations(source, "shape.tf")

A definition outside macros whose target is declared nowhere in the program
gets `declare intvar NAME [shape]` on the line just before it (the line the
checker's message asks for: `checks.missing_declaration`).  The shapes are
inferred by checking the program with the declarations added, without the
shape-program rules (the fix is about declarations only); where that check
fails for another reason, the declarations are added without a shape (an
intvar's shape may be left out) and the check's error is the user's next step.
`added` lists (line of the definition in `source`, the declaration's text).

Macro bodies are left alone: a macro's locals are its own to declare.  The
text is edited line by line, so comments and layout stay as they were.
"""
from __future__ import annotations

from tenflang.base.errors import TenflangError
from tenflang.ops.shapes import fmt_shape
from .syntax_tree import Declare, Define
from .checks import missing_declaration


def undeclared_definitions(program) -> list[Define]:
    """The top-level definitions whose targets no declaration names (the first
    one of each name), in program order."""
    declared = {s.name for s in program.statements if isinstance(s, Declare)}
    out, seen = [], set()
    for s in program.statements:
        if isinstance(s, Define) and s.name not in declared and s.name not in seen:
            out.append(s)
            seen.add(s.name)
    return out


def with_lines(text: str, insertions: dict[int, str]) -> str:
    """`text` with `insertions[n]` put before its line n (1-based)."""
    lines = text.split("\n")
    for number in sorted(insertions, reverse=True):
        lines.insert(number - 1, insertions[number])
    return "\n".join(lines)


def inferred_shapes(text: str, filename: str) -> dict:
    """Every declared name's shape in `text`; empty where the program does not check."""
    from . import parse
    from .checks import check
    try:
        return check(parse(text, filename))
    except TenflangError:
        return {}


def add_missing_declarations(text: str, filename: str = "<input>") -> tuple[str, list]:
    """`text` with its missing intvar declarations (see the module docstring)."""
    from .syntax import parse_source
    missing = undeclared_definitions(parse_source(text, filename))
    if not missing:
        return text, []
    lines = {d.pos.line: missing_declaration(d.name) for d in missing}
    shapes = inferred_shapes(with_lines(text, lines), filename)
    for d in missing:
        if d.name in shapes:
            lines[d.pos.line] += " " + fmt_shape(shapes[d.name])
    return with_lines(text, lines), sorted(lines.items())
