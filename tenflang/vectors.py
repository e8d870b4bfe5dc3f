"""Reading and writing TenFlang vector files (DESIGN.md §3).

Conventions:

* Vector notation: ``{x: 3, y: -0.5, v: [1, 2, 3], M: [[1, 0], [0, 1]], q: null}``.
  Braces are optional; entries, and list elements, are separated by commas and/or
  whitespace (``[1 2 3]`` is ``[1, 2, 3]``); one trailing comma is allowed.  Names
  are ``[A-Za-z_][A-Za-z0-9_./]*`` (generated names such as ``d/dw``, ``h.t``).
  Numbers are decimal literals or ``inf``/``infinity``/``nan`` (any case, optional
  sign).  ``null`` is a whole value only, never a list element.  ``#`` starts a
  comment; blank lines are ignored.
* Data files hold one vector per line, one example each; weights files hold one
  vector, which may span lines.  ``.npz`` (by extension): one array per variable,
  data with a leading example axis.  ``.csv`` (data only): a header row of ``x``
  (scalar) or ``x[i]`` / ``M[i,j]`` (tensor element) columns, in any order but with
  every index present (``"M[0,1]"`` is written quoted, read either way); one row per
  line; ``#`` lines and blank lines are skipped.
* Unbound: ``null``, a missing entry or (csv) empty cells.  A variable is unbound in
  every example or in none; unbound everywhere loads as ``None`` (npz stores no
  array for it).  Every example has the same shapes.  Values load as float64;
  NaN/inf are errors unless ``allow_nan``.
* Writing: float64 as Python ``repr``, float32 as its shortest float32 string, so
  files read back bit-identical.  JSON Lines writes NaN/Infinity as Python's json.
  Files are replaced atomically.  Problems in files raise `TenflangError`
  (file/line/column); failed writes raise `RunFailure`.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
import zipfile
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from .errors import Location, RunFailure, TenflangError

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_./]*")
_NUM = r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|(?i:inf(?:inity)?|nan))"
_NUM_RE = re.compile(_NUM)
_SKIP_RE = re.compile(r"\s*(?:#[^\n]*\s*)*")
_ATOM_RE = re.compile(r"[^\s{}\[\],:#]+")
_FLOATISH = r"[0-9eE.+\-infatyINFATY\s,]*"            # characters float() may see
_FLOATISH_RE = re.compile(_FLOATISH)
_FLAT_RE = re.compile(r"\[(" + _FLOATISH + r")\]")       # a list of numbers only
_BLANK_NEXT_RE = re.compile(r"\n(?=[^\S\n]*(?:#|\n|$))")    # a newline before a blank line
_CSV_COL_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_./]*)\s*(?:\[\s*(\d+(?:\s*,\s*\d+)*)\s*\])?\s*")
_NONFINITE = "NaN and infinity are rejected unless --allow-nan is given"
_JSON_SPECIAL = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _shape_str(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


class _Src:
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


def _skip(text: str, pos: int) -> int:
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


def _parse_atom(src: _Src, text: str, pos: int, name: str, in_list: bool):
    m = _ATOM_RE.match(text, pos)
    if m is None:
        c = text[pos:pos + 1]
        raise src.error(f"missing value for '{name}'" + (f": found '{c}'" if c else ""), pos)
    s = m.group()
    if s == "null":
        if in_list:
            raise src.error(f"null inside the list of '{name}' (null is a whole value only)", pos)
        return None, m.end()
    if not _NUM_RE.fullmatch(s):
        raise src.error(f"value of '{name}' is not a number: '{s}'", pos)
    return float(s), m.end()


def _parse_list(src: _Src, text: str, pos: int, name: str, multiline: bool):
    """Parse the nested list at text[pos] == '['; returns (array, end)."""
    stack: list[tuple[list, list, int]] = []   # (items, [shape of items], '[' position)
    while True:
        pos = _skip(text, pos)
        c, start = text[pos:pos + 1], pos
        if c == "[":
            m = _FLAT_RE.match(text, pos)
            vals = m and _flat_floats(m.group(1))
            if vals is None:
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
                return "is a number" if s == () else f"has shape {_shape_str(s)}"
            raise src.error(f"ragged list for '{name}': element {len(items) + 1} {what(shape)} "
                            f"but element 1 {what(shp[0])}", start)
        items.append(node)
        pos = _skip(text, pos)
        if text.startswith(",", pos):
            pos += 1


def _parse_vector(src: _Src, text: str, pos: int, multiline: bool):
    """Parse one vector; returns ({name: (value, position)}, end).  Values are float,
    float64 ndarray or None (null)."""
    pos = _skip(text, pos)
    brace = pos if text.startswith("{", pos) else None
    pos += brace is not None
    entries: dict[str, tuple] = {}
    while True:
        pos = _skip(text, pos)
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
        kpos, pos = pos, _skip(text, m.end())
        if not text.startswith(":", pos):
            raise src.error(f"missing ':' after '{key}'", pos)
        pos = _skip(text, pos + 1)
        if text.startswith("[", pos):
            value, pos = _parse_list(src, text, pos, key, multiline)
        else:
            value, pos = _parse_atom(src, text, pos, key, False)
        if key in entries:
            raise src.error(f"duplicate variable '{key}' in one vector", kpos,
                            (("first bound here", src.loc(entries[key][1])),))
        entries[key] = (value, kpos)
        pos = _skip(text, pos)
        if text.startswith(",", pos):
            pos += 1


def _blank(line: str) -> bool:
    s = line.strip()
    return not s or s[0] == "#"


def _entry_column(path: str, line: str, name: str) -> int | None:
    try:
        entries, _ = _parse_vector(_Src(path, line), line, 0, False)
        return entries[name][1] + 1
    except (TenflangError, KeyError):
        return None


# ----------------------------------------------------------------------------- reading

def _read_bytes(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise TenflangError(f"cannot read {what} file: {e.strerror or e}",
                            Location(file=path)) from None


def _read_text(path: str, what: str) -> str:
    data = _read_bytes(path, what)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TenflangError(f"{what} file is not UTF-8 text (binary data must be an .npz file)",
                            Location(path, data.count(b"\n", 0, e.start) + 1)) from None


def _read_npz(path: str, what: str) -> dict[str, np.ndarray]:
    data = _read_bytes(path, what)
    try:
        z = np.load(io.BytesIO(data), allow_pickle=False)
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise ValueError("it holds a single .npy array, not an archive")
        arrays = {k: z[k] for k in z.files}
    except Exception as e:      # numpy/zipfile raise many kinds for a corrupt file
        raise TenflangError(f"not a valid .npz file: {e}", Location(file=path)) from None
    for name, a in arrays.items():
        if not NAME_RE.fullmatch(name):
            raise TenflangError(f"array name '{name}' is not a variable name", Location(file=path))
        if a.dtype.kind not in "biuf":
            raise TenflangError(f"array '{name}' holds {a.dtype} values, not numbers",
                                Location(file=path))
        arrays[name] = a.astype(np.float64)
    return arrays


def _file_line(path: str, line: int) -> str | None:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            return next((t.rstrip("\r\n") for i, t in enumerate(f, 1) if i == line), None)
    except OSError:
        return None


def _header_column(header: list[str], name: str) -> int | None:
    """1-based character column of `name`'s first cell in a CSV header."""
    for j, cell in enumerate(header):
        m = _CSV_COL_RE.fullmatch(cell)
        if m and m.group(1) == name:
            return sum(len(c) + 1 for c in header[:j]) + 1
    return None


@dataclass
class Examples:
    """The examples of a data file: name -> float64 array with a leading example
    axis (None: unbound in every example)."""
    path: str
    arrays: dict[str, np.ndarray | None]
    lines: list[int] | None          # 1-based line of each example; None for npz
    header_line: int | None = None   # csv: the header's line

    def __len__(self) -> int:
        if self.lines is not None:
            return len(self.lines)
        return next((len(a) for a in self.arrays.values() if a is not None), 0)

    def _where(self, name: str | None) -> Location:
        """Where `name` is given: first example's line (csv: the header)."""
        if not self.lines:
            return Location(file=self.path)
        line = self.header_line or self.lines[0]
        text = _file_line(self.path, line)
        column = None
        if name is not None and text is not None:
            column = (_header_column(_merge_header(text.split(",")), name) if self.header_line
                      else _entry_column(self.path, text, name))
        return Location(self.path, line, column, text)

    def validate(self, shapes: dict[str, tuple[int, ...]], required: set[str],
                 optional: set[str] = frozenset()) -> None:
        """Every `required` variable bound, nothing outside required | optional,
        per-example shapes as in `shapes`; else TenflangError."""
        extra = [n for n in self.arrays if n not in required and n not in optional]
        for name in sorted(required):
            if self.arrays.get(name) is None:
                hint = f"; the file has unexpected {', '.join(map(repr, extra))}" if extra else ""
                raise TenflangError(f"{'null' if name in self.arrays else 'missing'} variable "
                                    f"'{name}': every example must bind it{hint}",
                                    self._where(name if name in self.arrays else None))
        for name in extra:
            expected = ", ".join(sorted(set(required) | set(optional))) or "none"
            raise TenflangError(f"unexpected variable '{name}': the program does not read it "
                                f"(expected: {expected})", self._where(name))
        for name, a in self.arrays.items():
            if a is not None and name in shapes and a.shape[1:] != tuple(shapes[name]):
                raise TenflangError(f"variable '{name}' has shape {_shape_str(a.shape[1:])}, "
                                    f"expected {_shape_str(shapes[name])}", self._where(name))


def _first_nonfinite(arrays: dict) -> tuple[int, str, float] | None:
    """(example index, name, value) of the earliest NaN/inf, or None."""
    best = None
    for name, a in arrays.items():
        if a is not None and a.size and not np.isfinite(a).all():
            flat = a.reshape(len(a), -1)
            k = int(np.argmax(~np.isfinite(flat).all(axis=1)))
            if best is None or k < best[0]:
                best = (k, name, float(flat[k][np.argmax(~np.isfinite(flat[k]))]))
    return best


def _check_uniform(name: str, states, where) -> bool:
    """True if `name` is bound ('bound') in every example, False if in none (states
    'null'/'missing'); anything else is an error at the first odd example."""
    first = states[0]
    odd = next((k for k, s in enumerate(states) if (s == "bound") != (first == "bound")), None)
    if odd is None:
        return first == "bound"
    raise TenflangError(f"variable '{name}' is {states[odd]} here but {first} in line "
                        f"{where(0, name).line}; every example must bind the same variables",
                        where(odd, name))


def _content_lines(text: str, lines: list[str]) -> list[int]:
    """1-based numbers of the lines that are neither blank nor comments (lines ==
    text.split("\\n")), without a Python step per line."""
    blank = [0] * _blank(lines[0]) + [m.start() + 1 for m in _BLANK_NEXT_RE.finditer(text)]
    keep, line, prev = np.ones(len(lines), dtype=bool), 0, 0
    for pos in blank:                    # blank lines' numbers, counting incrementally
        line, prev = line + text.count("\n", prev, pos), pos
        keep[line] = False
    return (np.flatnonzero(keep) + 1).tolist()


def _fast_scalar_examples(path: str, text: str, lines: list[str]):
    """Data whose every line binds the same scalar names in the same order: one
    regex over the whole text.  Returns (arrays, line numbers) or None."""
    first = next((i for i, line in enumerate(lines) if not _blank(line)), None)
    if first is None:
        return None
    entries, _ = _parse_vector(_Src(path, lines[first], first + 1), lines[first], 0, False)
    if not entries or not all(isinstance(v, float) for v, _ in entries.values()):
        return None
    ws, sep = r"[ \t\r\f\v]*", r"(?:[ \t\r\f\v]*,[ \t\r\f\v]*|[ \t\r\f\v]+)"
    body = sep.join(re.escape(n) + ws + ":" + ws + "(" + _NUM + ")" for n in entries)
    pattern = "^" + ws + r"(\{)?" + ws + body + ws + ",?" + ws + r"(?(1)\})" + ws + r"(?:#[^\n]*)?$"
    rows = re.findall(pattern, text, re.M)
    numbers = _content_lines(text, lines)
    if len(rows) != len(numbers):
        return None
    return {n: np.array([float(r[j]) for r in rows], dtype=np.float64)
            for j, n in enumerate(entries, 1)}, numbers


def _text_examples(path: str, text: str):
    lines = text.split("\n")

    def where(k: int, name: str | None = None) -> Location:
        line = lines[numbers[k] - 1]
        return Location(path, numbers[k], name and _entry_column(path, line, name), line)
    fast = _fast_scalar_examples(path, text, lines)
    if fast:
        numbers = fast[1]
        return fast[0], numbers, where
    records, numbers = [], []
    for i, line in enumerate(lines, 1):
        if not _blank(line):
            src = _Src(path, line, i)
            entries, pos = _parse_vector(src, line, 0, False)
            if _skip(line, pos) < len(line):
                raise src.error(f"unexpected '{line[_skip(line, pos)]}' after the vector "
                                "(a data file holds one example per line)", _skip(line, pos))
            records.append(entries)
            numbers.append(i)
    arrays = {}
    for name in dict.fromkeys(n for entries in records for n in entries):
        items = [entries.get(name, (None, None)) for entries in records]
        states = ["bound" if v is not None else "missing" if p is None else "null"
                  for v, p in items]
        if not _check_uniform(name, states, where):
            arrays[name] = None
            continue
        shape = np.shape(items[0][0])
        k = next((k for k, (v, _) in enumerate(items) if np.shape(v) != shape), None)
        if k is not None:
            raise TenflangError(f"variable '{name}' has shape {_shape_str(np.shape(items[k][0]))} "
                                f"here but {_shape_str(shape)} in line {numbers[0]}; every "
                                "example must have the same shapes", where(k, name))
        arrays[name] = np.array([v for v, _ in items], dtype=np.float64)
    return arrays, numbers, where


def _merge_header(cells: list[str]) -> list[str]:
    """Header cells with `M[0,1]` rejoined where an unquoted comma split them."""
    merged: list[str] = []
    for cell in cells:
        if merged and merged[-1].count("[") > merged[-1].count("]"):
            merged[-1] += "," + cell
        else:
            merged.append(cell)
    return merged


def _csv_layout(header: list[str], at) -> dict[str, tuple[tuple[int, ...], list[int]]]:
    """name -> (per-example shape, column of each element in row-major order)."""
    groups: dict[str, list] = {}
    for j, cell in enumerate(header):
        m = _CSV_COL_RE.fullmatch(cell)
        if m is None:
            raise TenflangError(f"CSV header: '{cell}' is not a variable name or an element "
                                "like x[0] or M[0,1]", at(j))
        index = tuple(map(int, m.group(2).split(","))) if m.group(2) else None
        groups.setdefault(m.group(1), []).append((index, j))
    layout = {}
    for name, cols in groups.items():
        seen = dict(cols)
        ranks = {None if i is None else len(i) for i, _ in cols}
        if len(seen) < len(cols) or len(ranks) > 1:
            raise TenflangError(f"CSV header: the columns of '{name}' repeat or mix "
                                "different numbers of indices", at(cols[1][1]))
        rank = ranks.pop()
        shape = () if rank is None else tuple(max(i[d] for i in seen) + 1 for d in range(rank))
        missing = next((i for i in np.ndindex(shape) if i not in seen), None) if shape else None
        if missing is not None:
            found = " and ".join(f"{name}[{','.join(map(str, i))}]" for i in list(seen)[:4])
            raise TenflangError(f"CSV header: no column '{name}[{','.join(map(str, missing))}]' "
                                f"(found {found}{' ...' if len(seen) > 4 else ''})", at(cols[0][1]))
        layout[name] = (shape, [cols[0][1]] if not shape else [seen[i] for i in np.ndindex(shape)])
    return layout


def _csv_column(col: list[str], at, title: str):
    """(float64 values, mask of empty cells or None) of one CSV column."""
    try:
        if _FLOATISH_RE.fullmatch(",".join(col)):
            return np.array(list(map(float, col)), dtype=np.float64), None
    except ValueError:
        pass
    values, empty = np.zeros(len(col)), np.zeros(len(col), dtype=bool)
    for k, cell in enumerate(col):
        cell = cell.strip()
        if not cell:
            empty[k] = True
        elif _NUM_RE.fullmatch(cell):
            values[k] = float(cell)
        else:
            raise TenflangError(f"CSV cell of column '{title}' is not a number: '{cell}'", at(k))
    return values, empty


def _csv_examples(path: str, text: str):
    raw = text.split("\n")
    numbers = _content_lines(text, raw)

    def at(line: int, cells: list[str] | None = None, j: int | None = None) -> Location:
        column = None if j is None else sum(len(c) + 1 for c in cells[:j]) + 1
        return Location(path, line, column, raw[line - 1])

    def where(k: int, name: str | None = None) -> Location:
        return at(numbers[k], rows[k], layout[name][1][0] if name in layout else None)
    try:
        rows = list(csv.reader([raw[i - 1] for i in numbers]))
    except csv.Error as e:
        raise TenflangError(f"malformed CSV: {e}", Location(file=path)) from None
    if len(rows) != len(numbers):
        raise TenflangError("malformed CSV: a quoted cell spans lines", Location(file=path))
    if len(rows) < 2:
        return {}, [], None, None
    header, header_line, rows, numbers = _merge_header(rows[0]), numbers[0], rows[1:], numbers[1:]
    if {len(header)} != set(map(len, rows)):
        k = next(k for k, row in enumerate(rows) if len(row) != len(header))
        raise TenflangError(f"CSV row has {len(rows[k])} cells but the header has "
                            f"{len(header)}", at(numbers[k]))
    layout = _csv_layout(header, lambda j: at(header_line, header, j))
    columns = [_csv_column([r[j] for r in rows], lambda k, j=j: at(numbers[k], rows[k], j),
                           header[j].strip()) for j in range(len(header))]
    n, arrays = len(rows), {}
    for name, (shape, order) in layout.items():
        arrays[name] = np.stack([columns[j][0] for j in order], axis=1).reshape((n,) + shape)
        if any(columns[j][1] is not None for j in order):
            empty = np.stack([np.zeros(n, bool) if columns[j][1] is None else columns[j][1]
                              for j in order], axis=1)
            null = empty.all(axis=1)
            if (empty.any(axis=1) & ~null).any():
                raise TenflangError(f"variable '{name}' has both empty and non-empty cells here "
                                    "(leave all its cells empty for null)",
                                    where(int(np.argmax(empty.any(axis=1) & ~null)), name))
            if not _check_uniform(name, np.where(null, "null", "bound"), where):
                arrays[name] = None
    return arrays, numbers, where, header_line


def _ext(path: str) -> str:
    return os.path.splitext(path)[1].lower()


def load_examples(path: str, *, allow_nan: bool = False) -> Examples:
    """Load a data file: .npz, .csv, otherwise vector notation (one example per line)."""
    header_line = None
    if _ext(path) == ".npz":
        arrays, numbers = _read_npz(path, "data"), None
        lengths = {name: len(a) if a.ndim else None for name, a in arrays.items()}
        if len(set(lengths.values())) > 1 or None in lengths.values():
            raise TenflangError("the arrays of a data .npz file need one common leading example "
                                f"axis; their lengths: {lengths}", Location(file=path))

        def where(k, name=None):
            return Location(file=path)
    elif _ext(path) == ".csv":
        arrays, numbers, where, header_line = _csv_examples(path, _read_text(path, "data"))
    else:
        arrays, numbers, where = _text_examples(path, _read_text(path, "data"))
    examples = Examples(path, arrays, numbers, header_line)
    if not len(examples):
        raise TenflangError("no examples in file (it is empty or holds only comments or a header)",
                            Location(file=path))
    bad = None if allow_nan else _first_nonfinite(arrays)
    if bad:
        k, name, value = bad
        raise TenflangError(f"variable '{name}' is {value!r}"
                            f"{f' in example {k + 1}' if numbers is None else ''}; {_NONFINITE}",
                            where(k, name))
    return examples


def load_weights(path: str, *, allow_nan: bool = False) -> dict[str, np.ndarray]:
    """Load weights: .npz, otherwise one vector (which may span lines)."""
    if _ext(path) == ".npz":
        weights, where = _read_npz(path, "weights"), lambda name: Location(file=path)
    else:
        text = _read_text(path, "weights")
        src = _Src(path, text)
        if _skip(text, 0) == len(text):
            raise TenflangError("empty weights file (write {} for no weights)", Location(file=path))
        entries, end = _parse_vector(src, text, 0, True)
        if _skip(text, end) < len(text):
            end = _skip(text, end)
            raise src.error(f"unexpected '{text[end]}': a weights file holds one vector", end)
        for name, (value, pos) in entries.items():
            if value is None:
                raise src.error(f"weight '{name}' is null; weights need values", pos)
        weights = {name: np.asarray(v, dtype=np.float64) for name, (v, _) in entries.items()}
        where = lambda name: src.loc(entries[name][1])     # noqa: E731
    bad = None if allow_nan else _first_nonfinite({k: v.reshape(1, -1) for k, v in weights.items()})
    if bad:
        raise TenflangError(f"weight '{bad[1]}' is {bad[2]!r}; {_NONFINITE}", where(bad[1]))
    return weights


# ----------------------------------------------------------------------------- writing

def _number_strings(a: np.ndarray, fmt: str) -> list[str]:
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


def _value_strings(a: np.ndarray, fmt: str) -> list[str]:
    """One string per example of `a` (leading example axis)."""
    dims = a.shape[1:]
    if 0 in dims:
        return [_empty_literal(dims)] * len(a)
    strs = _number_strings(a, fmt)
    for d in reversed(dims):
        strs = ["[" + ", ".join(strs[i:i + d]) + "]" for i in range(0, len(strs), d)]
    return strs


def weight_location(path: str, name: str | None = None) -> Location:
    """Where weight `name` is written in a text weights file (the file alone
    when it is not found, or for .npz)."""
    if name is None or _ext(path) == ".npz":
        return Location(file=path)
    entry = re.compile(rf"(?:^|[{{,\s]){re.escape(name)}\s*:")
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            for number, text in enumerate(f, 1):
                found = entry.search(text)
                if found:
                    column = text.index(name, found.start()) + 1
                    return Location(path, number, column, text.rstrip("\r\n"))
    except OSError:
        pass
    return Location(file=path)


def validate_weights(path: str, weights: dict, shapes: dict) -> None:
    """The weights bind exactly the names in `shapes`, each with its shape."""
    for name, shape in shapes.items():
        if name not in weights:
            raise TenflangError(f"missing weight '{name}'", weight_location(path))
    for name, value in weights.items():
        if name not in shapes:
            raise TenflangError(f"unexpected weight '{name}': the program has no such weight",
                                weight_location(path, name))
        if tuple(np.shape(value)) != tuple(shapes[name]):
            raise TenflangError(f"weight '{name}' has shape {_shape_str(np.shape(value))}, "
                                f"expected {_shape_str(shapes[name])}", weight_location(path, name))


def format_examples(arrays: dict[str, np.ndarray | None], fmt: str, *,
                    count: int | None = None) -> Iterator[str]:
    """Lines (no newline) of a data file in fmt 'txt', 'json' (JSON Lines) or 'csv'.
    Arrays have a leading example axis; None is null.  `count` is needed only
    when every array is None."""
    arrays = {k: None if v is None else np.asarray(v) for k, v in arrays.items()}
    lengths = {len(v) for v in arrays.values() if v is not None and v.ndim > 0}
    if len(lengths) > 1 or any(v is not None and v.ndim == 0 for v in arrays.values()):
        raise ValueError("arrays need one common leading example axis")
    n = lengths.pop() if lengths else count
    if n is None:
        raise ValueError("format_examples needs `count` when every array is None")
    if fmt == "csv":
        header, columns = [], []
        for name, a in arrays.items():
            if a is None or a.ndim == 1:
                header.append(name)
                columns.append([""] * n if a is None else _number_strings(a, fmt))
                continue
            if a.size == 0 and n:
                raise TenflangError(f"variable '{name}' has shape {_shape_str(a.shape[1:])}: "
                                    "a zero-size tensor cannot be written as CSV")
            flat = a.reshape(n, -1)
            header += [f"{name}[{','.join(map(str, i))}]" if len(i) == 1 else
                       f'"{name}[{",".join(map(str, i))}]"' for i in np.ndindex(a.shape[1:])]
            columns += [_number_strings(flat[:, k], fmt) for k in range(flat.shape[1])]
        yield ",".join(header)
        yield from map(",".join, zip(*columns)) if columns else [""] * n
        return
    if fmt not in ("txt", "json"):
        raise ValueError(f"unknown format {fmt!r}")
    keys = [json.dumps(k) if fmt == "json" else k for k in arrays]
    keys = [k.replace("{", "{{").replace("}", "}}") + ": {}" for k in keys]
    template = "{{" + ", ".join(keys) + "}}"
    if not arrays:
        yield from ["{}"] * n
        return
    yield from map(template.format, *(["null"] * n if a is None else _value_strings(a, fmt)
                                      for a in arrays.values()))


def format_weights(weights: dict[str, np.ndarray]) -> str:
    """A weights file: one `name: value` per line between `{` and `}` lines."""
    lines = ["{"]
    for name, a in weights.items():
        lines.append(f"  {name}: {_value_strings(np.asarray(a)[None], 'txt')[0]}")
    return "\n".join(lines + ["}"]) + "\n"


def _npz_bytes(arrays: dict) -> bytes:
    # np.savez(**arrays) would clash with names like 'file'; write its layout directly
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
        for name, a in arrays.items():
            if a is not None:
                with z.open(name + ".npy", "w", force_zip64=True) as f:
                    np.lib.format.write_array(f, np.asarray(a), allow_pickle=False)
    return buf.getvalue()


def write_atomically(path: str, text_or_bytes: str | bytes) -> None:
    """Write through a temporary file in the target's directory and os.replace, so
    the target is never half-written.  Failure raises RunFailure."""
    data = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else text_or_bytes
    tmp = None
    try:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                                   prefix="." + os.path.basename(path) + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise RunFailure(f"cannot write file: {e.strerror or e}", Location(file=path)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def save_weights(path: str, weights: dict[str, np.ndarray]) -> None:
    """Save weights as .npz (by extension) or vector notation, atomically."""
    write_atomically(path, _npz_bytes(weights) if _ext(path) == ".npz" else format_weights(weights))


def save_examples(path: str, arrays: dict[str, np.ndarray | None], fmt: str | None = None) -> None:
    """Save examples as fmt ('npz', 'csv', 'json', 'txt'; default by extension:
    .npz, .csv, else txt), atomically.  npz leaves out None arrays."""
    fmt = fmt or {".npz": "npz", ".csv": "csv"}.get(_ext(path), "txt")
    if fmt == "npz":
        write_atomically(path, _npz_bytes(arrays))
    else:
        lines = list(format_examples(arrays, fmt))
        write_atomically(path, "\n".join(lines) + "\n")
