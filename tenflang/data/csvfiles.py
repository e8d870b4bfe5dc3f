"""CSV data files: reading and writing (docs/design.md §3).

Conventions:

* A header row of ``x`` (scalar) or ``x[i]`` / ``M[i,j]`` (tensor element)
  columns, in any order but with every index present; ``"M[0,1]"`` is written
  quoted and read either way (`merge_header` rejoins an unquoted one).  One row
  per example, on one line; ``#`` lines and blank lines are skipped.
* Cells are numbers in vector notation's syntax (`notation.NUM`).  A variable
  whose cells are all empty is null in that example; it is null in every example
  or in none (`notation.check_uniform`), and then reads as None.
* `read_csv` returns `CsvExamples`: float64 arrays with a leading example axis,
  located by line and by the column of a variable's first header cell
  (`Examples.locate`); problems raise `TenflangError` at the cell
  (file/line/column).  Writing formats numbers as
  `notation.number_strings` does, so files read back bit-identical; zero-size
  tensors cannot be written.
"""
from __future__ import annotations

import csv
import math
import re
from typing import Iterator

import numpy as np

from tenflang.base import limits
from tenflang.base.errors import Location, TenflangError
from tenflang.lang.lexical import NAME
from tenflang.ops.shapes import fmt_shape
from .examples import Examples
from .notation import FLOATISH_RE, NUM_RE, check_uniform, content_lines, number_strings
from .reading import file_text, line_of

_COLUMN_RE = re.compile(rf"\s*({NAME})\s*(?:\[\s*([0-9]+(?:\s*,\s*[0-9]+)*)\s*\])?\s*")


def merge_header(cells: list[str]) -> list[str]:
    """Header cells with `M[0,1]` rejoined where an unquoted comma split them."""
    merged: list[str] = []
    for cell in cells:
        if merged and merged[-1].count("[") > merged[-1].count("]"):
            merged[-1] += "," + cell
        else:
            merged.append(cell)
    return merged


def cell_column(line: str, j: int, header: bool = False) -> int:
    """1-based character column of cell `j` of a CSV line as written (quotes
    included; in the `header`, an unquoted `M[0,1]` is one cell)."""
    cells = line.split(",")
    return sum(len(c) + 1 for c in (merge_header(cells) if header else cells)[:j]) + 1


class CsvExamples(Examples):
    """Examples of a CSV file: a variable's column is that of its first cell in
    the header (left to right), in the header or in an example's row."""

    def _column(self, number: int, text: str, name: str) -> int | None:
        in_header = number == self.header_line
        header = text if in_header else line_of(self.path, self.header_line) or ""
        names = [(m := _COLUMN_RE.fullmatch(cell.strip().strip('"'))) and m.group(1)
                 for cell in merge_header(header.split(","))]
        return cell_column(text, names.index(name), in_header) if name in names else None

    def cell(self, example: int | None, j: int) -> Location:
        """Where cell `j` of an example's row (None: of the header) is."""
        number = self.header_line if example is None else self.lines[example]
        text = line_of(self.path, number)
        column = None if text is None else cell_column(text, j, example is None)
        return Location(self.path, number, column, text)


# ----------------------------------------------------------------------------- reading

def _csv_layout(header: list[str], examples: CsvExamples) -> dict[str, tuple]:
    """name -> (per-example shape, column of each element in row-major order);
    problems are located in the header of `examples`."""
    groups: dict[str, list] = {}
    for j, cell in enumerate(header):
        m = _COLUMN_RE.fullmatch(cell)
        if m is None:
            raise TenflangError(f"CSV header: '{cell}' is not a variable name or an element "
                                "like x[0] or M[0,1]", examples.cell(None, j))
        index = tuple(map(int, m.group(2).split(","))) if m.group(2) else None
        groups.setdefault(m.group(1), []).append((index, j))
    layout = {}
    for name, cols in groups.items():
        seen = dict(cols)
        ranks = {None if i is None else len(i) for i, _ in cols}
        if len(seen) < len(cols) or len(ranks) > 1:
            raise TenflangError(f"CSV header: the columns of '{name}' repeat or mix "
                                "different numbers of indices", examples.cell(None, cols[1][1]))
        rank = ranks.pop()
        shape = () if rank is None else tuple(max(i[d] for i in seen) + 1 for d in range(rank))
        if math.prod(shape) > limits.MAX_TENSOR_ELEMENTS:
            raise TenflangError(f"CSV header: '{name}' would hold {math.prod(shape)} elements "
                                f"per example; the limit is {limits.MAX_TENSOR_ELEMENTS}",
                                examples.cell(None, cols[0][1]))
        if len(shape) > limits.MAX_RANK:
            raise TenflangError(f"CSV header: '{name}' has {len(shape)} indices; the limit is "
                                f"{limits.MAX_RANK} (axes of a tensor)",
                                examples.cell(None, cols[0][1]))
        if len(seen) != math.prod(shape):
            # some index is missing: one among the first len(seen)+1, in row-major order
            missing = next(i for k in range(len(seen) + 1)
                           if (i := tuple(map(int, np.unravel_index(k, shape)))) not in seen)
            found = " and ".join(f"{name}[{','.join(map(str, i))}]" for i in list(seen)[:4])
            raise TenflangError(f"CSV header: no column '{name}[{','.join(map(str, missing))}]' "
                                f"(found {found}{' ...' if len(seen) > 4 else ''})",
                                examples.cell(None, cols[0][1]))
        layout[name] = (shape, [cols[0][1]] if not shape else [seen[i] for i in np.ndindex(shape)])
    return layout


def _csv_column(examples: CsvExamples, j: int, col: list[str], title: str):
    """(float64 values, mask of empty cells or None) of CSV column `j`."""
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
            raise TenflangError(f"CSV cell of column '{title}' is not a number: '{cell}'",
                                 examples.cell(k, j))
    return values, empty


def read_csv(path: str) -> CsvExamples:
    """The examples of a CSV data file (none without data rows)."""
    text = file_text(path, "data")
    if "\r" in text:       # every line end as Python's universal newlines and pandas read it
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    raw = text.split("\n")
    numbers = content_lines(text, raw)
    try:
        rows = list(csv.reader([raw[i - 1] for i in numbers]))
    except csv.Error as e:
        raise TenflangError(f"malformed CSV: {e}", Location(file=path)) from None
    if len(rows) != len(numbers):
        raise TenflangError("malformed CSV: a quoted cell spans lines", Location(file=path))
    if len(rows) < 2:
        return CsvExamples(path, {}, [])
    header, rows = merge_header(rows[0]), rows[1:]
    examples = CsvExamples(path, {}, numbers[1:], numbers[0])
    if {len(header)} != set(map(len, rows)):
        k = next(k for k, row in enumerate(rows) if len(row) != len(header))
        raise TenflangError(f"CSV row has {len(rows[k])} cells but the header has "
                            f"{len(header)}", examples.locate(k))
    layout = _csv_layout(header, examples)
    columns = [_csv_column(examples, j, [r[j] for r in rows], header[j].strip())
               for j in range(len(header))]
    for name, (shape, order) in layout.items():
        examples.arrays[name] = _variable(examples, name, shape, [columns[j] for j in order])
    return examples


def _variable(examples: CsvExamples, name: str, shape: tuple, columns: list):
    """The array of `name` from its columns' (values, empty cells), or None
    when its cells are empty in every example."""
    n = len(examples)
    array = np.stack([values for values, _ in columns], axis=1).reshape((n,) + shape)
    if all(empty is None for _, empty in columns):
        return array
    empty = np.stack([np.zeros(n, bool) if e is None else e for _, e in columns], axis=1)
    null = empty.all(axis=1)
    if (empty.any(axis=1) & ~null).any():
        raise TenflangError(f"variable '{name}' has both empty and non-empty cells here "
                            "(leave all its cells empty for null)",
                            examples.locate(int(np.argmax(empty.any(axis=1) & ~null)), name))
    return array if check_uniform(name, np.where(null, "null", "bound"), examples.locate) else None


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
