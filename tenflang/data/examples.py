"""The examples of a data file, whatever its format, and where each is written.

    examples = load_examples("train.csv")          # a reader returns one
    examples.arrays["x"]                           # float array, leading example axis
    examples.locate(2, "x")                        # train.csv:4:7, for a message

Conventions:

* `arrays`: name -> array with a leading example axis, or None for a variable
  unbound (null, missing, empty cells) in every example.
* `locate(example, name)` is where every message about a data file points:
  the line of `example` (0-based; None: where the file gives `name` first,
  the header of a CSV file) and the column of `name` in it.  The column is the
  format's to find (`_column`: vector notation in `textfiles`, CSV in
  `csvfiles`); an .npz file has no lines, so its locations are the file alone
  and messages name the example instead ("in example 2 (0-based)").
* Lines are read back from the file only when a message needs them.
"""
from __future__ import annotations

import numpy as np

from tenflang.base import limits
from tenflang.base.frozen import mutable
from tenflang.base.errors import Location, TenflangError
from tenflang.ops.shapes import fmt_shape
from tenflang.base.dtypes import first_unfit, unfit
from .reading import line_of

NONFINITE = "NaN and infinity are rejected unless --allow-nan is given"


@mutable
class Examples:
    """The examples of a data file: name -> float array with a leading example
    axis (None: unbound in every example)."""
    path: str
    arrays: dict[str, np.ndarray | None]
    lines: list[int] | None = None   # 1-based line of each example; None for npz
    header_line: int | None = None   # csv: the header's line

    def __len__(self) -> int:
        if self.lines is not None:
            return len(self.lines)
        return next((len(a) for a in self.arrays.values() if a is not None), 0)

    def locate(self, example: int | None = None, name: str | None = None) -> Location:
        """Where `example` gives `name`: its line and, when `name` is given and
        found there, the column; `example` None: the header (csv) or the first
        example.  A file without lines (npz): the file."""
        if not self.lines:
            return Location(file=self.path)
        number = self.lines[example] if example is not None else self.header_line or self.lines[0]
        text = line_of(self.path, number)
        column = None if name is None or text is None else self._column(number, text, name)
        return Location(self.path, number, column, text)

    def _column(self, number: int, text: str, name: str) -> int | None:
        """1-based column of `name` in line `number` (`text`); the format's readers
        know their syntax."""
        return None

    def _in_example(self, k: int) -> str:
        """' in example k (0-based)' where a location cannot name the example's
        line: the index `locate(k)` and numpy take (docs/guide/file-formats.md, "Numbering")."""
        return "" if self.lines else f" in example {k} (0-based)"

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
                                    self.locate(None, name if name in self.arrays else None))
        for name in extra:
            expected = ", ".join(sorted(set(required) | set(optional))) or "none"
            raise TenflangError(f"unexpected variable '{name}': the program does not read it "
                                f"(expected: {expected})", self.locate(None, name))
        for name, a in self.arrays.items():
            if a is not None and name in shapes and a.shape[1:] != tuple(shapes[name]):
                raise TenflangError(f"variable '{name}' has shape {fmt_shape(a.shape[1:])}, "
                                    f"expected {fmt_shape(shapes[name])}", self.locate(None, name))

    def check_indices(self, indices: dict[str, tuple[int, str]]) -> None:
        """Every value of each variable in `indices` (name -> (n, what reads
        it): `lang.checks.data_indices`) an integer in 0..n-1; else
        TenflangError naming file, line (or example) and variable."""
        for name, (n, reader) in indices.items():
            a = self.arrays.get(name)
            if a is None:
                continue
            flat = a.reshape(len(a), -1)
            bad = (flat != np.floor(flat)) | (flat < 0) | (flat >= n)
            if bad.any():
                k = int(np.argmax(bad.any(axis=1)))
                value = float(flat[k][np.argmax(bad[k])])
                # a CSV row: its line, without the cell's column (as this message always was)
                where = self.locate(k, None if self.header_line else name)
                raise TenflangError(f"variable '{name}' is {value!r}{self._in_example(k)}: "
                                    f"{reader} must be an integer in 0..{n - 1}", where)

    def check_names(self) -> None:
        """Every name within `limits.MAX_NAME_CHARS`, as a program's names are
        (a data file read without a program, by `tenflang shard`, names the
        members it writes)."""
        for name in self.arrays:
            if len(name) > limits.MAX_NAME_CHARS:
                raise TenflangError(f"the name '{name}' is longer than {limits.MAX_NAME_CHARS} "
                                    "characters (the limit)", self.locate(None, name))

    def check_finite(self) -> None:
        """No NaN or infinity in any array; else TenflangError at the earliest."""
        bad = first_nonfinite(self.arrays)
        if bad:
            k, name, value = bad
            raise TenflangError(f"variable '{name}' is {value!r}{self._in_example(k)}; {NONFINITE}",
                                self.locate(k, name))

    def check_fits(self, dtype) -> None:
        """Every value within `dtype`'s range (`first_unfit`); else TenflangError
        at the earliest."""
        bad = first_unfit(self.arrays, dtype)
        if bad:
            k, name, value = bad
            raise TenflangError(unfit("variable", name, value, dtype, self._in_example(k)),
                                self.locate(k, name))


def first_nonfinite(arrays: dict) -> tuple[int, str, float] | None:
    """(example index, name, value) of the earliest NaN/inf, or None.  A finite
    sum (one pass, no temporary) proves an array finite; only the rest are searched."""
    best = None
    for name, a in arrays.items():
        with np.errstate(over="ignore", invalid="ignore"):
            finite = a is None or np.isfinite(a.sum())
        if not finite and not np.isfinite(a).all():
            flat = a.reshape(len(a), -1)
            k = int(np.argmax(~np.isfinite(flat).all(axis=1)))
            if best is None or k < best[0]:
                best = (k, name, float(flat[k][np.argmax(~np.isfinite(flat[k]))]))
    return best
