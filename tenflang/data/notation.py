"""Vector notation: its grammar, parser and value formatting (docs/design.md §3).

Conventions:

* A vector: ``{x: 3, y: -0.5, v: [1, 2, 3], M: [[1, 0], [0, 1]], q: null}``.
  Braces are optional; entries, and list elements, are separated by commas and/or
  whitespace (``[1 2 3]`` is ``[1, 2, 3]``); one trailing comma is allowed.  Names
  match `NAME_RE`, the language's own NAME (tenflang/lang/lexical.py; generated
  names such as ``d/dw``, ``h.t`` included).  Numbers match `NUM`: the language's
  NUMBER, or ``inf``/``infinity``/``nan`` (any case, optional sign).  ``null`` is a
  whole value only, never a list element.
  ``#`` starts a comment; blank lines are ignored (`is_blank`, `content_lines`).
  Lists nest at most `limits.MAX_LIST_DEPTH` deep.
* Parsing works on a `Source` (the text, its file and first line number) and
  positions in it; `parse_vector` returns ``{name: (value, position)}`` with values
  a float, a float64 ndarray or None (null).  Problems raise `TenflangError` at the
  offending position (file/line/column).
* A data file holds one vector per line.  `check_uniform` is the rule every data
  format shares: a variable is bound in every example or in none.
* Formatting: float64 as Python ``repr``, float32 as its shortest float32 string,
  so values read back bit-identical; fmt ``"json"`` writes strict JSON: NaN as
  ``null``, ±inf as ``1e999``/``-1e999``.  Shapes in messages are written as ``[2, 3]`` (`shapes.fmt_shape`).
"""
from __future__ import annotations

import re
from typing import Iterator

import numpy as np

from tenflang.base import limits
from tenflang.base.errors import Location, TenflangError
from tenflang.lang.lexical import NAME, NUMBER
from tenflang.ops.shapes import fmt_shape

NAME_RE = re.compile(NAME)
NUM = rf"(?:{NUMBER}|[+-]?(?i:inf(?:inity)?|nan))"
NUM_RE = re.compile(NUM)
_SKIP_RE = re.compile(r"\s*(?:#[^\n]*\s*)*")
_ATOM_RE = re.compile(r"[^\s{}\[\],:#]+")
_FLOATISH = r"[0-9eE.+\-infatyINFATY\s,]*"            # characters float() may see
FLOATISH_RE = re.compile(_FLOATISH)
_FLAT_RE = re.compile(r"\[(" + _FLOATISH + r")\]")       # a list of numbers only
_LEAF_RE = re.compile(r"\[([^\[\]{}:#]*)\]")                 # a list without sublists
_BAD_ITEM_RE = re.compile(r"(?<![^\s,[])(?!(?:" + NUM + r")(?![^\s,]))[^\s,]+")  # not a number
_BLANK_NEXT_RE = re.compile(r"\n(?=[^\S\n]*(?:#|\n|$))")    # a newline before a blank line
# JSON has no NaN or Infinity: NaN is null, ±inf a number every IEEE parser reads as ±inf
_JSON_SPECIAL = {"nan": "null", "inf": "1e999", "-inf": "-1e999"}


class Source:
    """Text being parsed: positions in it become file locations (lazily)."""
    __slots__ = ("path", "text", "line")

    def __init__(self, path: str, text: str, line: int = 1):
        self.path, self.text, self.line = path, text, line

    def loc(self, pos: int) -> Location:
        text = self.text
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        return Location(self.path, self.line + text.count("\n", 0, pos), pos - start + 1,
                        text[start:len(text) if end < 0 else end])

    def error(self, message: str, pos: int, notes=()) -> TenflangError:
        return TenflangError(message, self.loc(pos), notes)


# ----------------------------------------------------------------------------- parsing

def skip(text: str, pos: int) -> int:
    """The position after the whitespace and comments at `pos`."""
    return _SKIP_RE.match(text, pos).end()


def _flat_floats(content: str) -> list[float] | None:
    """The numbers of a list body without sublists (only characters float() may
    accept), or None to parse it token by token (which also finds the error)."""
    try:
        if "," not in content:
            return list(map(float, content.split()))
        parts = content.split(",")           # float() ignores the spaces around
        if not parts[-1].strip():
            parts.pop()                      # one trailing comma
        return list(map(float, parts))
    except ValueError:                       # empty item, mixed separators, bad number
        return None


def _parse_atom(src: Source, text: str, pos: int, name: str, in_list: bool):
    m = _ATOM_RE.match(text, pos)
    if m is None:
        c = text[pos:pos + 1]
        raise src.error(f"missing value for '{name}'" + (f": found '{c}'" if c else ""), pos)
    s = m.group()
    if s == "null":
        if in_list:
            raise src.error(f"null inside the list of '{name}' (null is a whole value only)", pos)
        return None, m.end()
    if not NUM_RE.fullmatch(s):
        raise src.error(f"value of '{name}' is not a number: '{s}'", pos)
    return float(s), m.end()


def _raise_bad_item(src: Source, text: str, pos: int, name: str) -> None:
    """If the list at text[pos] has no sublists and an item that is not a
    number, raise its error now: one regex scan, where the token-by-token walk
    would take a Python step per item of a line of millions."""
    leaf = _LEAF_RE.match(text, pos)
    bad = leaf and _BAD_ITEM_RE.search(text, leaf.start(1), leaf.end(1))
    if bad:
        _parse_atom(src, text, bad.start(), name, True)


def _parse_list(src: Source, text: str, pos: int, name: str, multiline: bool):
    """Parse the nested list at text[pos] == '['; returns (array, end)."""
    stack: list[tuple[list, list, int]] = []   # (items, [shape of items], '[' position)
    while True:
        pos = skip(text, pos)
        c, start = text[pos:pos + 1], pos
        if c == "[":
            if len(stack) >= limits.MAX_LIST_DEPTH:
                raise src.error(f"the value of '{name}' nests lists more than "
                                f"{limits.MAX_LIST_DEPTH} deep (the limit)", pos)
            m = _FLAT_RE.match(text, pos)
            vals = m and _flat_floats(m.group(1))
            if vals is None:
                _raise_bad_item(src, text, pos, name)
                stack.append(([], [None], pos))
                pos += 1
                continue
            node, shape, pos = vals, (len(vals),), m.end()
        elif c == "]":
            items, shp, _ = stack.pop()
            node, shape, pos = items, (len(items),) + (shp[0] or ()), pos + 1
        elif c in ("", "{", "}", ":", ","):
            if c in ("", "}"):
                hint = "" if multiline else " on this line (one example per line)"
                raise src.error(f"'[' is never closed{hint}", stack[-1][2])
            raise src.error(f"unexpected '{c}' in the list of '{name}'", pos)
        else:
            node, pos = _parse_atom(src, text, pos, name, True)
            shape = ()
        if not stack:
            return np.array(node, dtype=np.float64), pos
        items, shp, _ = stack[-1]
        if shp[0] is None:
            shp[0] = shape
        elif shp[0] != shape:
            def what(s):
                return "is a number" if s == () else f"has shape {fmt_shape(s)}"
            raise src.error(f"ragged list for '{name}': element {len(items) + 1} {what(shape)} "
                            f"but element 1 {what(shp[0])}", start)
        items.append(node)
        pos = skip(text, pos)
        if text.startswith(",", pos):
            pos += 1


def parse_vector(src: Source, text: str, pos: int, multiline: bool):
    """Parse one vector; returns ({name: (value, position)}, end).  Values are float,
    float64 ndarray or None (null)."""
    pos = skip(text, pos)
    brace = pos if text.startswith("{", pos) else None
    pos += brace is not None
    entries: dict[str, tuple] = {}
    while True:
        pos = skip(text, pos)
        c = text[pos:pos + 1]
        if c == "}":
            if brace is None:
                raise src.error("unexpected '}' without a matching '{'", pos)
            return entries, pos + 1
        if not c:
            if brace is not None:
                hint = "" if multiline else " on this line (one example per line)"
                raise src.error(f"'{{' is never closed{hint}", brace)
            return entries, pos
        m = _ATOM_RE.match(text, pos)
        key = m.group() if m else c
        if m is None or not NAME_RE.fullmatch(key):
            raise src.error(f"expected a variable name, found '{key}'", pos)
        kpos, pos = pos, skip(text, m.end())
        if not text.startswith(":", pos):
            raise src.error(f"missing ':' after '{key}'", pos)
        pos = skip(text, pos + 1)
        if text.startswith("[", pos):
            value, pos = _parse_list(src, text, pos, key, multiline)
        else:
            value, pos = _parse_atom(src, text, pos, key, False)
        if key in entries:
            raise src.error(f"duplicate variable '{key}' in one vector", kpos,
                            (("first bound here", src.loc(entries[key][1])),))
        entries[key] = (value, kpos)
        pos = skip(text, pos)
        if text.startswith(",", pos):
            pos += 1


# ----------------------------------------------------------------------------- data lines

def is_blank(line: str) -> bool:
    """True for a line that is empty, whitespace or a comment."""
    s = line.strip()
    return not s or s[0] == "#"


def entry_column(path: str, line: str, name: str) -> int | None:
    """1-based column of `name`'s entry in a one-line vector, or None."""
    try:
        entries, _ = parse_vector(Source(path, line), line, 0, False)
        return entries[name][1] + 1
    except (TenflangError, KeyError):
        return None


def content_lines(text: str, lines: list[str]) -> list[int]:
    """1-based numbers of the lines that are neither blank nor comments (lines ==
    text.split("\\n")), without a Python step per line."""
    blank = [0] * is_blank(lines[0]) + [m.start() + 1 for m in _BLANK_NEXT_RE.finditer(text)]
    keep, line, prev = np.ones(len(lines), dtype=bool), 0, 0
    for pos in blank:                    # blank lines' numbers, counting incrementally
        line, prev = line + text.count("\n", prev, pos), pos
        keep[line] = False
    return (np.flatnonzero(keep) + 1).tolist()


def check_uniform(name: str, states, locate) -> bool:
    """True if `name` is bound ('bound') in every example, False if in none (states
    'null'/'missing'); anything else is an error at the first odd example
    (`locate`: `Examples.locate`)."""
    first = states[0]
    odd = next((k for k, s in enumerate(states) if (s == "bound") != (first == "bound")), None)
    if odd is None:
        return first == "bound"
    raise TenflangError(f"variable '{name}' is {states[odd]} here but {first} in line "
                        f"{locate(0, name).line}; every example must bind the same variables",
                        locate(odd, name))


# ----------------------------------------------------------------------------- formatting

def number_strings(a: np.ndarray, fmt: str) -> list[str]:
    """Row-major strings of the elements of `a` that read back bit-identical."""
    if a.dtype == np.float32:
        strs = a.ravel().astype(str).tolist()
    else:
        strs = list(map(repr, np.asarray(a, dtype=np.float64).ravel().tolist()))
    if fmt == "json" and not np.isfinite(a).all():
        strs = [_JSON_SPECIAL.get(s, s) for s in strs]
    return strs


def _empty_literal(dims) -> str:
    if not dims or dims[0] == 0:
        return "[]"
    return "[" + ", ".join([_empty_literal(dims[1:])] * dims[0]) + "]"


def value_strings(a: np.ndarray, fmt: str) -> list[str]:
    """One string per example of `a` (leading example axis)."""
    dims = a.shape[1:]
    if 0 in dims:
        return [_empty_literal(dims)] * len(a)
    strs = number_strings(a, fmt)
    for d in reversed(dims):
        strs = ["[" + ", ".join(strs[i:i + d]) + "]" for i in range(0, len(strs), d)]
    return strs


def vector_lines(arrays: dict[str, np.ndarray | None], n: int, fmt: str) -> Iterator[str]:
    """The `n` lines of a data file in fmt 'txt' (vector notation) or 'json' (JSON
    Lines); arrays have a leading example axis, None is null."""
    keys = list(arrays)
    if fmt == "json":
        import json             # JSON Lines only: a plain run does not pay for it
        keys = [json.dumps(k) for k in keys]
    keys = [k.replace("{", "{{").replace("}", "}}") + ": {}" for k in keys]
    template = "{{" + ", ".join(keys) + "}}"
    if not arrays:
        yield from ["{}"] * n
        return
    yield from map(template.format, *(["null"] * n if a is None else value_strings(a, fmt)
                                      for a in arrays.values()))
