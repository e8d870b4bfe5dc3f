"""`tenflang fmt`: the one canonical layout of TenFlang source.

    text = format_source(source, "shape.tf")      # raises TenflangError on a syntax error
    changed = format_file("shape.tf")             # rewrites the file (atomically) if needed

The layout:

* single spaces between tokens: `define v = op a b`, `declare kind name [3, 3]`,
  `macro name params -> result`; numbers and names are kept as written;
  nested expressions stay as written, none inside their parentheses:
  `define h = tanh (add (matmul W x) b)`;
* in a run of consecutive declarations (one not broken by a blank line or
  another kind of statement; comment lines may sit inside it) the names, the
  shapes and the initialisers (`init 1`) line up in columns, and so do
  trailing comments;
* comments are kept, own-line and trailing, with their text unchanged
  (a trailing comment follows the code after two spaces, or at its run's
  comment column);
* blank lines are kept, but a run of them becomes one, and none begin or end
  the file;
* macro bodies are indented by two spaces; everything else starts at column 1;
* line ends are `\\n`, and the file ends with exactly one.

With `--fix` (`fixed_source`), the intvar declarations the program lacks are
added first (lang/fixes.py).

The source is checked by the parser first (syntax only: a program that does
not yet type-check still formats).  Formatting works line by line on tokens,
because the syntax tree has no comments; afterwards the result is parsed
again and must give the same statements and the same comments, so a bug here
can never change a program.
"""
from __future__ import annotations

import os
import re
from dataclasses import field

from tenflang.base.frozen import mutable
from tenflang.base.errors import Location, RunFailure, TenflangError
from .lexical import NAME, NUMBER
from .syntax import parse_source

TOKEN = re.compile(rf"""
    (?P<space>[ \t\f\r]+)
  | (?P<comment>\#.*)
  | (?P<arrow>->)
  | (?P<punct>[=\[\],()])
  | (?P<number>{NUMBER})
  | (?P<name>{NAME})
""", re.VERBOSE)

INDENT = "  "


@mutable
class Line:
    kind: str                      # blank, comment, declare, define, macro, end
    tokens: list[str] = field(default_factory=list)    # code tokens, no spaces
    comment: str | None = None     # '#...' (trailing, or the whole line)
    depth: int = 0                 # 1 inside a macro body


def tokenize(text: str) -> tuple[list[str], str | None]:
    """The code tokens of one line and its comment (None if it has none)."""
    tokens, comment, pos = [], None, 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:      # cannot happen for text the parser accepted
            raise ValueError(f"fmt: cannot tokenize {text[pos:]!r}")
        pos = m.end()
        if m.lastgroup == "comment":
            comment = m.group().rstrip()
        elif m.lastgroup != "space":
            tokens.append(m.group())
    return tokens, comment


def split_lines(text: str) -> list[Line]:
    lines, depth = [], 0
    for raw in text.split("\n"):
        tokens, comment = tokenize(raw)
        if not tokens:
            lines.append(Line("comment" if comment else "blank", [], comment, depth))
            continue
        kind = tokens[0]
        if kind == "end":
            depth = 0
        lines.append(Line(kind, tokens, comment, depth))
        if kind == "macro":
            depth = 1
    return lines


def shape_text(tokens: list[str]) -> str:
    """'[3, 3]' from the tokens '[', '3', ',', '3', ']'."""
    return "[" + ", ".join(t for t in tokens[1:-1] if t != ",") + "]"


def words(tokens: list[str]) -> list[str]:
    """The tokens with each shape literal `[`, `16`, `,`, `4`, `]` as one word `[16, 4]`."""
    out, start = [], None
    for i, token in enumerate(tokens):
        if token == "[":
            start = i
        elif token == "]":
            out.append(shape_text(tokens[start:i + 1]))
            start = None
        elif start is None:
            out.append(token)
    return out


def spaced(items: list[str]) -> str:
    """Words joined by single spaces, none inside parentheses: `tanh (add h b)`."""
    out = ""
    for word in items:
        out += word if not out or out.endswith("(") or word == ")" else " " + word
    return out


def code(line: Line) -> str:
    t = line.tokens
    if line.kind == "define":      # define NAME[, NAME...] = rest...
        equals = t.index("=")
        return spaced(["define", listed(t[1:equals]), "="] + words(t[equals + 1:]))
    if line.kind == "macro":       # macro NAME params... -> RESULT[, RESULT...]
        if "->" not in t:
            return " ".join(t)
        arrow = t.index("->")
        return " ".join(t[:arrow + 1] + [listed(t[arrow + 1:])])
    if line.kind == "end":
        return "end"
    raise ValueError(f"fmt: unexpected line {t!r}")


def listed(tokens: list[str]) -> str:
    """Names with their commas: `a, b, c` (a loop adjoint's targets, §2.5.1)."""
    return " ".join(tokens).replace(" ,", ",")


def declaration_parts(tokens: list[str]) -> tuple[str, str]:
    """The shape (`[3, 3]`, or '') and the initialiser (`init normal 0.02`, or '')
    of a declaration's tokens after its name."""
    rest = tokens[3:]
    if rest and rest[0] == "[":
        end = rest.index("]") + 1
        return shape_text(rest[:end]), " ".join(rest[end:])
    return "", " ".join(rest)


def declaration_columns(run: list[Line]) -> list[str]:
    """The code of a run of declarations, names, shapes and initialisers aligned."""
    kind_width = max(len(line.tokens[1]) for line in run)
    parts = [declaration_parts(line.tokens) for line in run]
    name_width = max((len(line.tokens[2]) for line, (shape, init) in zip(run, parts)
                      if shape or init), default=0)
    shape_width = max((len(shape) for shape, init in parts if init), default=0)
    out = []
    for line, (shape, init) in zip(run, parts):
        head = f"declare {line.tokens[1].ljust(kind_width)} "
        if init:
            out.append(f"{head}{line.tokens[2].ljust(name_width)} {shape.ljust(shape_width)}"
                       f" {init}")
        elif shape:
            out.append(f"{head}{line.tokens[2].ljust(name_width)} {shape}")
        else:
            out.append(head + line.tokens[2])
    return out


def render(lines: list[Line]) -> list[str]:
    out: list[str | None] = [None] * len(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.kind != "declare":
            if line.kind == "blank":
                out[i] = ""
            elif line.kind == "comment":
                out[i] = INDENT * line.depth + line.comment
            else:
                text = INDENT * line.depth + code(line)
                out[i] = text + ("  " + line.comment if line.comment else "")
            i += 1
            continue
        # a run of declarations: consecutive declarations and comment lines at one depth
        j, members = i, []
        while j < len(lines) and lines[j].kind in ("declare", "comment") \
                and lines[j].depth == line.depth:
            if lines[j].kind == "declare":
                members.append(j)
            j += 1
        while lines[j - 1].kind == "comment":      # trailing comment lines are not in it
            j -= 1
        texts = declaration_columns([lines[k] for k in members])
        indent = INDENT * line.depth
        column = max(map(len, texts)) + 2
        for k, text in zip(members, texts):
            comment = lines[k].comment
            out[k] = indent + (text.ljust(column) + comment if comment else text)
        for k in range(i, j):
            if lines[k].kind == "comment":
                out[k] = indent + lines[k].comment
        i = j
    # blank lines: no leading or trailing ones, runs collapsed to one
    result: list[str] = []
    for text in out:
        if text == "" and (not result or result[-1] == ""):
            continue
        result.append(text)
    while result and result[-1] == "":
        result.pop()
    return result


def comments(text: str) -> list[str]:
    return [c for c in (tokenize(raw)[1] for raw in text.split("\n")) if c]


def format_source(text: str, filename: str = "<input>") -> str:
    """The canonical layout of TenFlang `text` (see the module docstring).
    Raises TenflangError, located in `filename`, when `text` has a syntax error."""
    if text.startswith("\ufeff"):
        text = text[1:]
    before = parse_source(text, filename)
    lines = render(split_lines(text))
    result = "\n".join(lines) + "\n" if lines else ""
    after = parse_source(result, filename)
    if after.statements != before.statements or comments(result) != comments(text):
        raise RuntimeError(f"{filename}: tenflang fmt would change the program; this is a "
                           "bug in tenflang fmt, the file is left as it is")
    return result


def fixed_source(text: str, filename: str = "<input>", added: list | None = None) -> str:
    """`format_source`, after adding the missing intvar declarations where
    `added` is a list (`tenflang fmt --fix`; lang/fixes.py), which then receives
    what was added: (line of the definition, the declaration)."""
    if added is not None:
        from .fixes import add_missing_declarations
        text, new = add_missing_declarations(text.removeprefix("\ufeff"), filename)
        added += new
    return format_source(text, filename)


def format_file(path: str, check: bool = False, added: list | None = None) -> bool:
    """Format the program file at `path` in place (atomically).  Returns whether
    its text changes; with `check`, only says so and writes nothing.  A syntax
    error raises TenflangError and leaves the file untouched.  With a list
    `added`, the missing intvar declarations are added too (`fixed_source`)."""
    from pathlib import Path

    from . import read_source
    from tenflang.base.outputs import write_file
    if not check and os.path.exists(path) and not os.path.isfile(path):
        raise TenflangError("not a regular file: fmt rewrites files in place; format a "
                            "stream with `tenflang fmt -`", Location(path))
    text = read_source(path)                 # TenflangError if unreadable
    new = fixed_source(text, path, added)
    try:
        changed = new.encode("utf-8") != Path(path).read_bytes()
    except OSError as err:
        raise RunFailure(f"cannot read file: {err.strerror or err}", Location(path)) from None
    if changed and not check:
        write_file(path, new)
    return changed


__all__ = ["format_source", "format_file", "fixed_source"]
