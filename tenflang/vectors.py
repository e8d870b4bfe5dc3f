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
  every index present; ``#`` lines and blank lines are skipped.
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
_FLAT_RE = re.compile(r"\[([^\[\]{}:#]*)\]")             # a list without sublists
_FLOATISH_RE = re.compile(r"[0-9eE.+\-infatyINFATY\s,]*")  # what float() may see
_DOUBLE_COMMA_RE = re.compile(r",\s*,")
_BLANK_NEXT_RE = re.compile(r"\n(?=[ \t\r\f\v]*(?:#|\n|$))")    # a newline before a blank line
_CSV_COL_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_./]*)\s*(?:\[([\d\s,]+)\])?\s*")
_NONFINITE = "NaN and infinity are rejected unless --allow-nan is given"
_JSON_SPECIAL = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _shape_str(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


class _Src:
    """Text being parsed: positions in it become file locations (lazily)."""
    __slots__ = ("path", "text", "line")

    def __init__(self, path: str, text: str, line: int = 1):
        self.path, self.text, self.line = path, text, line

    def loc(self, pos: int | None) -> Location:
        text = self.text
        if pos is None:
            return Location(self.path, self.line, None, text.split("\n", 1)[0])
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        return Location(self.path, self.line + text.count("\n", 0, pos), pos - start + 1,
                        text[start:len(text) if end < 0 else end])

    def error(self, message: str, pos: int | None, notes=()) -> TenflangError:
        return TenflangError(message, self.loc(pos), notes)


def _skip(text: str, pos: int) -> int:
    return _SKIP_RE.match(text, pos).end()


def _flat_floats(content: str) -> list[float] | None:
    """The numbers of a sublist-free list body, or None to parse it the slow way."""
    if not _FLOATISH_RE.fullmatch(content) or content.lstrip().startswith(",") \
            or _DOUBLE_COMMA_RE.search(content):
        return None
    try:
        return list(map(float, content.replace(",", " ").split()))
    except ValueError:
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
            vals = _flat_floats(m.group(1)) if m else None
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
        raise TenflangError(f"cannot read {what} file: {e.strerror or e}", Location(file=path)) from None


def _read_text(path: str, what: str) -> str:
    data = _read_bytes(path, what)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TenflangError(f"{what} file is not UTF-8 text (binary data must be an .npz file)",
                            Location(path, data.count(b"\n", 0, e.start) + 1)) from None


def _file_line(path: str, line: int) -> str | None:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            for i, text in enumerate(f, 1):
                if i == line:
                    return text.rstrip("\r\n")
    except OSError:
        pass
    return None


def _read_npz(path: str, what: str) -> dict[str, np.ndarray]:
    data = _read_bytes(path, what)
    try:
        z = np.load(io.BytesIO(data), allow_pickle=False)
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise ValueError("it holds a single .npy array, not an archive")
        raw = {k: z[k] for k in z.files}
    except Exception as e:      # numpy/zipfile raise many kinds for a corrupt file
        raise TenflangError(f"not a valid .npz file: {e}", Location(file=path)) from None
    out = {}
    for name, a in raw.items():
        if not NAME_RE.fullmatch(name):
            raise TenflangError(f"array name '{name}' in the .npz file is not a variable name",
                                Location(file=path))
        if a.dtype.kind not in "biuf":
            raise TenflangError(f"array '{name}' holds {a.dtype} values, not numbers",
                                Location(file=path))
        out[name] = a.astype(np.float64)
    return out


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

    def _where(self, name: str | None = None) -> Location:
        """Where `name` is given (first example's line; the header in csv)."""
        if self.lines is None:
            return Location(file=self.path)
        line = self.header_line or self.lines[0]
        text = _file_line(self.path, line)
        column = None
        if name is not None and text is not None:
            if self.header_line:
                cells = _merge_header(text.split(","))
                names = [m.group(1) if (m := _CSV_COL_RE.fullmatch(c)) else None for c in cells]
                if name in names:
                    column = sum(len(c) + 1 for c in cells[:names.index(name)]) + 1
            else:
                column = _entry_column(self.path, text, name)
        return Location(self.path, line, column, text)

    def validate(self, shapes: dict[str, tuple[int, ...]], required: set[str],
                 optional: set[str] = frozenset()) -> None:
        """Every `required` variable bound, no variable outside required|optional,
        and each per-example shape as in `shapes`; else TenflangError."""
        extra = [n for n in self.arrays if n not in required and n not in optional]
        for name in sorted(required):
            if self.arrays.get(name, None) is None:
                state = "missing variable" if name not in self.arrays else "null variable"
                hint = (f"; the file has unexpected variable(s) {', '.join(map(repr, extra))}"
                        if extra else "")
                raise TenflangError(f"{state} '{name}': every example must bind it{hint}",
                                    self._where(name if name in self.arrays else None))
        for name in extra:
            expected = ", ".join(sorted(set(required) | set(optional))) or "none"
            raise TenflangError(f"unexpected variable '{name}': the program does not read it "
                                f"(expected: {expected})", self._where(name))
        for name, a in self.arrays.items():
            if a is not None and name in shapes and a.shape[1:] != tuple(shapes[name]):
                raise TenflangError(f"variable '{name}' has shape {_shape_str(a.shape[1:])}, "
                                    f"expected {_shape_str(shapes[name])}", self._where(name))


def _first_nonfinite(arrays) -> tuple[int, str, float] | None:
    """(example index, name, value) of the earliest NaN/inf, or None."""
    best = None
    for name, a in arrays.items():
        if a is None or a.size == 0 or np.isfinite(a).all():
            continue
        bad = ~np.isfinite(a.reshape(len(a), -1))
        k = int(np.argmax(bad.any(axis=1)))
        if best is None or k < best[0]:
            best = (k, name, float(a.reshape(len(a), -1)[k][np.argmax(bad[k])]))
    return best


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
    blank = [0] * _blank(lines[0]) + [m.start() + 1 for m in _BLANK_NEXT_RE.finditer(text)]
    if len(rows) + len(blank) != len(lines):
        return None
    numbers, line, prev = np.ones(len(lines), dtype=bool), 0, 0
    for pos in blank:                    # blank lines' numbers, counting incrementally
        line, prev = line + text.count("\n", prev, pos), pos
        numbers[line] = False
    return ({n: np.array([float(r[j]) for r in rows], dtype=np.float64)
             for j, n in enumerate(entries, 1)},
            (np.flatnonzero(numbers) + 1).tolist())


def _slow_examples(path: str, lines: list[str]):
    records = []                      # (line number, entries)
    for i, line in enumerate(lines, 1):
        if _blank(line):
            continue
        src = _Src(path, line, i)
        entries, pos = _parse_vector(src, line, 0, False)
        pos = _skip(line, pos)
        if pos < len(line):
            raise src.error(f"unexpected '{line[pos]}' after the vector "
                            "(a data file holds one example per line)", pos)
        records.append((i, entries))
    names = dict.fromkeys(n for _, entries in records for n in entries)
    arrays = {}
    for name in names:
        ref, values = None, []
        for number, entries in records:
            item = entries.get(name)
            value = None if item is None else item[0]
            shape = None if value is None else np.shape(value)
            state = "bound" if value is not None else "missing" if item is None else "null"
            if ref is None:
                ref = (number, state, shape)
            elif (state == "bound") != (ref[1] == "bound") or shape != ref[2]:
                src = _Src(path, lines[number - 1], number)
                if shape != ref[2] and state == ref[1] == "bound":
                    message = (f"variable '{name}' has shape {_shape_str(shape)} here but "
                               f"{_shape_str(ref[2])} in line {ref[0]}; every example "
                               "must have the same shapes")
                else:
                    message = (f"variable '{name}' is {state} here but {ref[1]} in line "
                               f"{ref[0]}; every example must bind the same variables")
                raise src.error(message, None if item is None else item[1])
            values.append(value)
        arrays[name] = np.array(values, dtype=np.float64) if ref[1] == "bound" else None
    return arrays, [number for number, _ in records]


def _csv_examples(path: str, text: str, allow_nan: bool) -> Examples:
    raw_lines = text.split("\n")

    def where(line: int, row: list[str] | None = None, j: int | None = None) -> Location:
        column = None if j is None else sum(len(c) + 1 for c in row[:j]) + 1
        return Location(path, line, column, raw_lines[line - 1] if line <= len(raw_lines) else None)

    header, header_line, rows, numbers = None, None, [], []
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        for row in reader:
            if not row or (len(row) == 1 and not row[0].strip()) or row[0].lstrip().startswith("#"):
                continue
            if header is None:
                header, header_line = _merge_header(row), reader.line_num
            elif len(row) != len(header):
                raise TenflangError(f"CSV row has {len(row)} cells but the header has "
                                    f"{len(header)}", where(reader.line_num))
            else:
                rows.append(row)
                numbers.append(reader.line_num)
    except csv.Error as e:
        raise TenflangError(f"malformed CSV: {e}", where(reader.line_num)) from None
    if not rows:
        raise TenflangError("no examples in file (it holds no data rows)", Location(file=path))
    groups: dict[str, list] = {}
    for j, cell in enumerate(header):
        m = _CSV_COL_RE.fullmatch(cell)
        try:
            index = tuple(int(i) for i in m.group(2).split(",")) if m and m.group(2) else None
        except ValueError:
            m = None
        if m is None:
            raise TenflangError(f"CSV header: '{cell}' is not a variable name or an element "
                                "like x[0] or M[0,1]", where(header_line, header, j))
        groups.setdefault(m.group(1), []).append((index, j))
    layout = {}
    for name, cols in groups.items():
        indices = [index for index, _ in cols]
        seen = dict(cols)
        if len(seen) < len(cols) or (None in seen and len(cols) > 1) or \
                len({len(i) for i in indices if i is not None}) > 1:
            raise TenflangError(f"CSV header: the columns of '{name}' repeat or mix different "
                                "numbers of indices", where(header_line, header, cols[1][1]))
        if None in seen:
            layout[name] = ((), [cols[0][1]])
            continue
        shape = tuple(max(i[k] for i in indices) + 1 for k in range(len(indices[0])))
        order = []
        for index in np.ndindex(shape):
            if index not in seen:
                found = " and ".join(f"{name}[{','.join(map(str, i))}]" for i in indices[:4])
                raise TenflangError(f"CSV header: no column '{name}[{','.join(map(str, index))}]' "
                                    f"(found {found}{' ...' if len(indices) > 4 else ''})",
                                    where(header_line, header, cols[0][1]))
            order.append(seen[index])
        layout[name] = (shape, order)
    values, empties = [], []
    for j, col in enumerate(zip(*rows)):
        empty = None
        try:
            if not _FLOATISH_RE.fullmatch(",".join(col)):
                raise ValueError
            v = np.array(list(map(float, col)), dtype=np.float64)
        except ValueError:
            v, empty = np.zeros(len(col)), np.zeros(len(col), dtype=bool)
            for k, cell in enumerate(col):
                cell = cell.strip()
                if not cell:
                    empty[k] = True
                elif _NUM_RE.fullmatch(cell):
                    v[k] = float(cell)
                else:
                    raise TenflangError(f"CSV cell of column '{header[j].strip()}' is not a "
                                        f"number: '{cell}'", where(numbers[k], rows[k], j)) from None
        if not allow_nan and not np.isfinite(v).all():
            k = int(np.argmax(~np.isfinite(v)))
            raise TenflangError(f"column '{header[j].strip()}' is {v[k]!r}; {_NONFINITE}",
                                where(numbers[k], rows[k], j))
        values.append(v)
        empties.append(empty)
    n, arrays = len(rows), {}
    for name, (shape, order) in layout.items():
        a = np.stack([values[j] for j in order], axis=1).reshape((n,) + shape)
        if all(empties[j] is None for j in order):
            arrays[name] = a
            continue
        e = np.stack([np.zeros(n, bool) if empties[j] is None else empties[j] for j in order], axis=1)
        null, partly = e.all(axis=1), e.any(axis=1) & ~e.all(axis=1)
        if partly.any():
            k = int(np.argmax(partly))
            raise TenflangError(f"variable '{name}' has empty and non-empty cells in this row "
                                "(leave all its cells empty for null)", where(numbers[k]))
        if null.all() or not null.any():
            arrays[name] = None if null.all() else a
            continue
        k = int(np.argmax(null != null[0]))
        states = ("null", "bound") if null[k] else ("bound", "null")
        raise TenflangError(f"variable '{name}' is {states[0]} here but {states[1]} in line "
                            f"{numbers[0]}; every example must bind the same variables",
                            where(numbers[k]))
    return Examples(path, arrays, numbers, header_line)


def _merge_header(cells: list[str]) -> list[str]:
    """Header cells with `M[0,1]` rejoined where an unquoted comma split them."""
    merged: list[str] = []
    for cell in cells:
        if merged and merged[-1].count("[") > merged[-1].count("]"):
            merged[-1] += "," + cell
        else:
            merged.append(cell)
    return merged


def _ext(path: str) -> str:
    return os.path.splitext(path)[1].lower()


def load_examples(path: str, *, allow_nan: bool = False) -> Examples:
    """Load a data file: .npz, .csv, otherwise vector notation (one example per line)."""
    if _ext(path) == ".npz":
        arrays = _read_npz(path, "data")
        n = None
        for name, a in arrays.items():
            if a.ndim == 0:
                raise TenflangError(f"array '{name}' has no leading example axis", Location(file=path))
            if n is not None and len(a) != n[0]:
                raise TenflangError(f"array '{name}' has {len(a)} examples but '{n[1]}' has "
                                    f"{n[0]}", Location(file=path))
            n = (len(a), name)
        if n is None or n[0] == 0:
            raise TenflangError("no examples in file", Location(file=path))
        bad = None if allow_nan else _first_nonfinite(arrays)
        if bad:
            raise TenflangError(f"variable '{bad[1]}' is {bad[2]!r} in example {bad[0] + 1}; "
                                f"{_NONFINITE}", Location(file=path))
        return Examples(path, arrays, None)
    text = _read_text(path, "data")
    if _ext(path) == ".csv":
        return _csv_examples(path, text, allow_nan)
    lines = text.split("\n")
    arrays, numbers = _fast_scalar_examples(path, text, lines) or _slow_examples(path, lines)
    if not numbers:
        raise TenflangError("no examples in file (it is empty or holds only comments)",
                            Location(file=path))
    bad = None if allow_nan else _first_nonfinite(arrays)
    if bad:
        k, name, value = bad
        text = lines[numbers[k] - 1]
        raise TenflangError(f"variable '{name}' is {value!r}; {_NONFINITE}",
                            Location(path, numbers[k], _entry_column(path, text, name), text))
    return Examples(path, arrays, numbers)


def load_weights(path: str, *, allow_nan: bool = False) -> dict[str, np.ndarray]:
    """Load weights: .npz, otherwise one vector (which may span lines)."""
    if _ext(path) == ".npz":
        weights = _read_npz(path, "weights")
        bad = None if allow_nan else _first_nonfinite({k: v.reshape(1, -1) for k, v in weights.items()})
        if bad:
            raise TenflangError(f"weight '{bad[1]}' is {bad[2]!r}; {_NONFINITE}", Location(file=path))
        return weights
    text = _read_text(path, "weights")
    src = _Src(path, text)
    if _skip(text, 0) == len(text):
        raise TenflangError("empty weights file (write {} for no weights)", Location(file=path))
    entries, pos = _parse_vector(src, text, 0, True)
    pos = _skip(text, pos)
    if pos < len(text):
        raise src.error(f"unexpected '{text[pos]}': a weights file holds one vector", pos)
    weights = {}
    for name, (value, pos) in entries.items():
        if value is None:
            raise src.error(f"weight '{name}' is null; weights need values", pos)
        weights[name] = np.asarray(value, dtype=np.float64)
        if not allow_nan and not np.isfinite(weights[name]).all():
            bad = weights[name][~np.isfinite(weights[name])].flat[0]
            raise src.error(f"weight '{name}' is {bad!r}; {_NONFINITE}", pos)
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
    template = "{{" + ", ".join(k.replace("{", "{{").replace("}", "}}") + ": {}" for k in keys) + "}}"
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
