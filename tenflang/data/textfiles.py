"""Data files in vector notation: one vector per line, one example each (docs/design.md §3).

Conventions:

* Two readers give the same arrays: the compiled one (`fastnotation`) when
  every line follows the first, and the general one (`notation`, a line at a
  time), which is the definition of the format and names the line at fault.
  With the program's shapes (`declared`), the fast result must also agree
  with them, so a shape error names the first line that disagrees with the
  program, not with the file's first line.
* A variable is bound in every example or in none (`notation.check_uniform`);
  every example has the same shapes.  Values are float64.
* Locations: `TextExamples.locate` gives an example's line and the column of
  a variable's entry in it (`notation.entry_column`).
"""
from __future__ import annotations

import numpy as np

from tenflang.base.errors import TenflangError
from tenflang.ops.shapes import fmt_shape
from .examples import Examples
from .notation import Source, check_uniform, entry_column, is_blank, parse_vector, skip
from .reading import decode, file_bytes
# looked up here at each call, so tests can swap out textfiles._read_uniform
from .fastnotation import read_uniform as _read_uniform


class TextExamples(Examples):
    """Examples of a vector-notation file: a column is where a name's entry starts."""

    def _column(self, number: int, text: str, name: str) -> int | None:
        return entry_column(self.path, text, name)


def read_text(path: str, declared: dict | None = None) -> TextExamples:
    """The examples of a data file in vector notation; `declared`: name -> the
    program's per-example shape, which every example must have."""
    data = file_bytes(path, "data")
    fast = _read_uniform(path, data)
    if fast.arrays is not None and _declared_agree(fast.arrays, declared):
        return TextExamples(path, fast.arrays, fast.lines.tolist())
    lines = decode(path, data, "data").split("\n")
    if fast.stopped_at:                  # the line the fast reader stopped at: its error, if any
        _parse_line(path, lines[fast.stopped_at - 1], fast.stopped_at)
    records, numbers = [], []
    for i, line in enumerate(lines, 1):
        if not is_blank(line):
            records.append(_parse_line(path, line, i))
            numbers.append(i)
    examples = TextExamples(path, {}, numbers)
    for name in dict.fromkeys(n for entries in records for n in entries):
        items = [entries.get(name, (None, None)) for entries in records]
        examples.arrays[name] = _assemble(examples, name, items, declared)
    return examples


def _assemble(examples: TextExamples, name: str, items: list, declared: dict | None):
    """The array of `name` from its (value, position) in each example, or None
    when it is unbound in every one."""
    states = ["bound" if v is not None else "missing" if p is None else "null" for v, p in items]
    if not check_uniform(name, states, examples.locate):
        return None
    given = declared is not None and name in declared
    shape = tuple(declared[name]) if given else np.shape(items[0][0])
    k = next((k for k, (v, _) in enumerate(items) if np.shape(v) != shape), None)
    if k is not None:
        raise TenflangError(f"variable '{name}' has shape {fmt_shape(np.shape(items[k][0]))} "
                            + (f"here, but the program declares {fmt_shape(shape)}" if given
                               else f"here but {fmt_shape(shape)} in line {examples.lines[0]}; "
                               "every example must have the same shapes"), examples.locate(k, name))
    return np.array([v for v, _ in items], dtype=np.float64)


def _declared_agree(arrays: dict, declared: dict | None) -> bool:
    """Do the per-example shapes of `arrays` agree with the program's?"""
    return declared is None or all(a is None or name not in declared
                                   or a.shape[1:] == tuple(declared[name])
                                   for name, a in arrays.items())


def _parse_line(path: str, line: str, number: int) -> dict:
    """The entries of one line of a data file (one vector, nothing after it)."""
    src = Source(path, line, number)
    entries, pos = parse_vector(src, line, 0, False)
    if skip(line, pos) < len(line):
        raise src.error(f"unexpected '{line[skip(line, pos)]}' after the vector "
                        "(a data file holds one example per line)", skip(line, pos))
    return entries
