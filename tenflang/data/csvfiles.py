"""CSV data files: reading and writing (DESIGN.md §3).

Conventions:

* A header row of ``x`` (scalar) or ``x[i]`` / ``M[i,j]`` (tensor element)
  columns, in any order but with every index present; ``"M[0,1]"`` is written
  quoted and read either way (`merge_header` rejoins an unquoted one).  One row
  per example, on one line; ``#`` lines and blank lines are skipped.
* Cells are numbers in vector notation's syntax (`notation.NUM`).  A variable
  whose cells are all empty is null in that example; it is null in every example
  or in none (`notation.check_uniform`), and then reads as None.
* Reading returns float64 arrays with a leading example axis; problems raise
  `TenflangError` at the cell (file/line/column).  Writing formats numbers as
  `notation.number_strings` does, so files read back bit-identical; zero-size
  tensors cannot be written.
"""
from __future__ import annotations

import csv
import math
import re
from typing import Iterator

import numpy as np

from .. import limits
from ..errors import Location, TenflangError
from ..lang.lexical import NAME
from ..ops import fmt_shape
from .notation import FLOATISH_RE, NUM_RE, check_uniform, content_lines, number_strings

_COLUMN_RE = re.compile(rf"\s*({NAME})\s*(?:\[\s*(\d+(?:\s*,\s*\d+)*)\s*\])?\s*")


def merge_header(cells: list[str]) -> list[str]:
    """Header cells with `M[0,1]` rejoined where an unquoted comma split them."""
    merged: list[str] = []
    for cell in cells:
        if merged and merged[-1].count("[") > merged[-1].count("]"):
            merged[-1] += "," + cell
        else:
            merged.append(cell)
    return merged


def header_column(header: list[str], name: str) -> int | None:
    """1-based character column of `name`'s first cell in a CSV header."""
    for j, cell in enumerate(header):
        m = _COLUMN_RE.fullmatch(cell)
        if m and m.group(1) == name:
            return sum(len(c) + 1 for c in header[:j]) + 1
    return None


# ----------------------------------------------------------------------------- reading

def _csv_layout(header: list[str], at) -> dict[str, tuple[tuple[int, ...], list[int]]]:
    """name -> (per-example shape, column of each element in row-major order)."""
    groups: dict[str, list] = {}
    for j, cell in enumerate(header):
        m = _COLUMN_RE.fullmatch(cell)
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
        if math.prod(shape) > limits.MAX_TENSOR_ELEMENTS:
            raise TenflangError(f"CSV header: '{name}' would hold {math.prod(shape)} elements "
                                f"per example; the limit is {limits.MAX_TENSOR_ELEMENTS}",
                                at(cols[0][1]))
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
        if FLOATISH_RE.fullmatch(",".join(col)):
            return np.array(list(map(float, col)), dtype=np.float64), None
    except ValueError:
        pass
    values, empty = np.zeros(len(col)), np.zeros(len(col), dtype=bool)
    for k, cell in enumerate(col):
        cell = cell.strip()
        if not cell:
            empty[k] = True
        elif NUM_RE.fullmatch(cell):
            values[k] = float(cell)
        else:
            raise TenflangError(f"CSV cell of column '{title}' is not a number: '{cell}'", at(k))
    return values, empty


def csv_examples(path: str, text: str):
    """The examples of CSV `text`: (arrays, line of each example, where(k, name)
    -> Location, header line); ({}, [], None, None) without data rows."""
    raw = text.split("\n")
    numbers = content_lines(text, raw)

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
    header, header_line, rows, numbers = merge_header(rows[0]), numbers[0], rows[1:], numbers[1:]
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
            if not check_uniform(name, np.where(null, "null", "bound"), where):
                arrays[name] = None
    return arrays, numbers, where, header_line


# ----------------------------------------------------------------------------- writing

def csv_lines(arrays: dict[str, np.ndarray | None], n: int) -> Iterator[str]:
    """The header line, then the `n` rows, of a CSV data file; arrays have a
    leading example axis, None is null (empty cells)."""
    header, columns = [], []
    for name, a in arrays.items():
        if a is None or a.ndim == 1:
            header.append(name)
            columns.append([""] * n if a is None else number_strings(a, "csv"))
            continue
        if a.size == 0 and n:
            raise TenflangError(f"variable '{name}' has shape {fmt_shape(a.shape[1:])}: "
                                "a zero-size tensor cannot be written as CSV")
        flat = a.reshape(n, -1)
        header += [f"{name}[{','.join(map(str, i))}]" if len(i) == 1 else
                   f'"{name}[{",".join(map(str, i))}]"' for i in np.ndindex(a.shape[1:])]
        columns += [number_strings(flat[:, k], "csv") for k in range(flat.shape[1])]
    yield ",".join(header)
    yield from map(",".join, zip(*columns)) if columns else [""] * n
