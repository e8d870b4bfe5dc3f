"""Reading and writing TenFlang vector files (DESIGN.md §3): the public facade.

Conventions:

* Formats by extension.  Text files are vector notation (`tenflang.notation`):
  data files hold one vector per line, one example each; weights files hold one
  vector, which may span lines.  ``.npz``: one array per variable, data with a
  leading example axis; an array stored uncompressed in the run's dtype is read
  straight into place, not copied.  ``.csv`` (data only; `tenflang.csvfiles`): a header row
  of ``x`` or ``x[i]`` / ``M[i,j]`` columns, one row per example.
* Unbound: ``null``, a missing entry or (csv) empty cells.  A variable is unbound in
  every example or in none; unbound everywhere loads as ``None`` (npz stores no
  array for it).  Every example has the same shapes.  Values load as float64
  (.npz: in the dtype asked for);
  NaN/inf are errors unless ``allow_nan``.
* Writing: float64 as Python ``repr``, float32 as its shortest float32 string, so
  files read back bit-identical.  JSON Lines writes NaN/Infinity as Python's json.
  Files are replaced atomically.  Problems in files raise `TenflangError`
  (file/line/column); failed writes raise `RunFailure`.
* This module holds the public API (`Examples`, `load_*`, `save_*`, `format_*`,
  `validate_weights`, `weight_location`, `NAME_RE`), npz
  handling and the assembly of text data files; the notation parser and the CSV
  reader/writer live in their own modules, which do not import this one.
"""
from __future__ import annotations

import io
import math
import os
import re
import zipfile
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ..errors import Location, TenflangError
from ..files import write_file
from ..ops import fmt_shape
from .csvfiles import csv_examples, csv_lines, header_column, merge_header
from .notation import (NAME_RE, Source, check_uniform, entry_column, is_blank, parse_vector, skip, value_strings, vector_lines)
# looked up here at each call, so tests can swap out vectors._read_uniform
from .fastnotation import read_uniform as _read_uniform

_NONFINITE = "NaN and infinity are rejected unless --allow-nan is given"


# ----------------------------------------------------------------------------- reading

def _read_bytes(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise _unreadable(path, what, e) from None


def _unreadable(path: str, what: str, e: OSError) -> TenflangError:
    return TenflangError(f"cannot read {what} file: {e.strerror or e}", Location(file=path))


def _decode(path: str, data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TenflangError(f"{what} file is not UTF-8 text (binary data must be an .npz file)",
                            Location(path, data.count(b"\n", 0, e.start) + 1)) from None


def _read_text(path: str, what: str) -> str:
    return _decode(path, _read_bytes(path, what), what)


def _read_npz(path: str, what: str, dtype=np.float64) -> dict[str, np.ndarray]:
    """The arrays of an .npz file in `dtype`: one already in `dtype` is read in
    place (`_npz_member`), others are read and converted."""
    try:
        with open(path, "rb") as f, np.load(f, allow_pickle=False) as z:
            if not isinstance(z, np.lib.npyio.NpzFile):
                raise ValueError("it holds a single .npy array, not an archive")
            arrays = {k: _npz_member(f, z, k, np.dtype(dtype)) for k in z.files}
    except OSError as e:
        raise _unreadable(path, what, e) from None
    except Exception as e:      # numpy/zipfile raise many kinds for a corrupt file
        raise TenflangError(f"not a valid .npz file: {e}", Location(file=path)) from None
    for name, a in arrays.items():
        if not NAME_RE.fullmatch(name):
            raise TenflangError(f"array name '{name}' is not a variable name", Location(file=path))
        if not isinstance(a, np.ndarray):       # a member that is not a .npy file
            raise TenflangError(f"'{name}' in the archive is not a numpy array",
                                Location(file=path))
        if a.dtype.kind not in "biuf":
            raise TenflangError(f"array '{name}' holds {a.dtype} values, not numbers",
                                Location(file=path))
        arrays[name] = a.astype(dtype, copy=False)
    return arrays


_NPY_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0,
                (2, 0): np.lib.format.read_array_header_2_0}


def _npz_member(f, z, name: str, dtype: np.dtype) -> np.ndarray:
    """Array `name` of the open archive `z` (file `f`), read straight into its
    array (one read, no bytes object, no conversion) when it is stored
    uncompressed, C-ordered and already in `dtype`.  Not memory-mapped: numpy's
    own arrays get huge pages, and compute on a mapped file ran 3-5x slower."""
    info = z.zip.getinfo(name + ".npy")
    if info.compress_type != zipfile.ZIP_STORED:
        return z[name]
    f.seek(info.header_offset)
    local = f.read(30)                   # the zip local header: name and extra lengths
    f.seek(info.header_offset + 30 + int.from_bytes(local[26:28], "little")
           + int.from_bytes(local[28:30], "little"))
    header = _NPY_HEADERS.get(np.lib.format.read_magic(f))
    if header is None:
        return z[name]
    shape, fortran, stored = header(f)
    if fortran or stored != dtype or not math.prod(shape):
        return z[name]
    return np.fromfile(f, dtype=dtype, count=math.prod(shape)).reshape(shape)


def _file_line(path: str, line: int) -> str | None:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            return next((t.rstrip("\r\n") for i, t in enumerate(f, 1) if i == line), None)
    except OSError:
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
            column = (header_column(merge_header(text.split(",")), name) if self.header_line
                      else entry_column(self.path, text, name))
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
                raise TenflangError(f"variable '{name}' has shape {fmt_shape(a.shape[1:])}, "
                                    f"expected {fmt_shape(shapes[name])}", self._where(name))

    def check_classes(self, classes: dict[str, int]) -> None:
        """Every value of each variable in `classes` (name -> n) an integer in
        0..n-1, as `one_hot` reads it; else TenflangError naming file, line (or
        example) and variable."""
        for name, n in classes.items():
            a = self.arrays.get(name)
            if a is None:
                continue
            flat = a.reshape(len(a), -1)
            bad = ((flat != np.floor(flat)) | (flat < 0) | (flat >= n)).any(axis=1)
            if bad.any():
                k = int(np.argmax(bad))
                value = float(flat[k][0]) if flat.shape[1] else None
                place = "" if self.lines else f" in example {k + 1}"
                raise TenflangError(f"variable '{name}' is {value!r}{place}: a class index for "
                                    f"one_hot must be an integer in 0..{n - 1}",
                                    self._example_where(k, name))

    def _example_where(self, k: int, name: str) -> Location:
        """Where example k gives `name` (npz: the file only)."""
        if not self.lines:
            return Location(file=self.path)
        line = self.lines[k]
        text = _file_line(self.path, line)
        column = None if self.header_line or text is None else entry_column(self.path, text, name)
        return Location(self.path, line, column, text)


def _first_nonfinite(arrays: dict) -> tuple[int, str, float] | None:
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


def _text_examples(path: str, data: bytes, declared: dict | None = None):
    """(arrays, line numbers, where) of a data file in vector notation: the fast
    reader when every line follows the first (and the program's shapes, when
    `declared`), else the general one, which names the line at fault."""
    fast = _read_uniform(path, data)
    if isinstance(fast, tuple) and _declared_agree(fast[0], declared):
        def where_fast(k: int, name: str | None = None) -> Location:
            line = _file_line(path, numbers[k]) or ""
            return Location(path, numbers[k], name and entry_column(path, line, name), line)
        numbers = fast[1].tolist()
        return fast[0], numbers, where_fast
    if isinstance(fast, tuple):
        fast = None
    text = _decode(path, data, "data")
    lines = text.split("\n")
    if fast:                             # the line the fast reader stopped at: its error, if any
        _parse_line(path, lines[fast - 1], fast)

    def where(k: int, name: str | None = None) -> Location:
        line = lines[numbers[k] - 1]
        return Location(path, numbers[k], name and entry_column(path, line, name), line)
    records, numbers = [], []
    for i, line in enumerate(lines, 1):
        if not is_blank(line):
            records.append(_parse_line(path, line, i))
            numbers.append(i)
    arrays = {}
    for name in dict.fromkeys(n for entries in records for n in entries):
        items = [entries.get(name, (None, None)) for entries in records]
        states = ["bound" if v is not None else "missing" if p is None else "null"
                  for v, p in items]
        if not check_uniform(name, states, where):
            arrays[name] = None
            continue
        given = declared is not None and name in declared
        shape = tuple(declared[name]) if given else np.shape(items[0][0])
        k = next((k for k, (v, _) in enumerate(items) if np.shape(v) != shape), None)
        if k is not None:
            raise TenflangError(f"variable '{name}' has shape {fmt_shape(np.shape(items[k][0]))} "
                                + (f"here, but the program declares {fmt_shape(shape)}" if given
                                   else f"here but {fmt_shape(shape)} in line {numbers[0]}; "
                                   "every example must have the same shapes"), where(k, name))
        arrays[name] = np.array([v for v, _ in items], dtype=np.float64)
    return arrays, numbers, where


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


def _ext(path: str) -> str:
    return os.path.splitext(path)[1].lower()


def load_examples(path: str, *, allow_nan: bool = False, shapes: dict | None = None,
                  dtype="float64") -> Examples:
    """Load a data file: .npz, .csv, otherwise vector notation (one example per line).
    `shapes` (name -> the program's per-example shape), when given, is what each
    example of a text file is checked against, so an error names the first line
    that disagrees with the program (not with the file's first line).  An .npz
    array already stored in `dtype` is read straight into place; text and csv
    values are read as float64 (see the module docstring)."""
    header_line = None
    if _ext(path) == ".npz":
        arrays, numbers = _read_npz(path, "data", dtype), None
        lengths = {name: len(a) if a.ndim else None for name, a in arrays.items()}
        if len(set(lengths.values())) > 1 or None in lengths.values():
            raise TenflangError("the arrays of a data .npz file need one common leading example "
                                f"axis; their lengths: {lengths}", Location(file=path))

        def where(k, name=None):
            return Location(file=path)
    elif _ext(path) == ".csv":
        arrays, numbers, where, header_line = csv_examples(path, _read_text(path, "data"))
    else:
        arrays, numbers, where = _text_examples(path, _read_bytes(path, "data"), shapes)
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
        src = Source(path, text)
        if skip(text, 0) == len(text):
            raise TenflangError("empty weights file (write {} for no weights)", Location(file=path))
        entries, end = parse_vector(src, text, 0, True)
        if skip(text, end) < len(text):
            end = skip(text, end)
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
            raise TenflangError(f"weight '{name}' has shape {fmt_shape(np.shape(value))}, "
                                f"expected {fmt_shape(shapes[name])}", weight_location(path, name))


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
        yield from csv_lines(arrays, n)
        return
    if fmt not in ("txt", "json"):
        raise ValueError(f"unknown format {fmt!r}")
    yield from vector_lines(arrays, n, fmt)


def format_weights(weights: dict[str, np.ndarray]) -> str:
    """A weights file: one `name: value` per line between `{` and `}` lines."""
    lines = ["{"]
    for name, a in weights.items():
        lines.append(f"  {name}: {value_strings(np.asarray(a)[None], 'txt')[0]}")
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


def save_weights(path: str, weights: dict[str, np.ndarray]) -> None:
    """Save weights as .npz (by extension) or vector notation, atomically."""
    write_file(path, _npz_bytes(weights) if _ext(path) == ".npz" else format_weights(weights))


def format_of(path: str) -> str:
    """The format a data file's extension names: npz, csv, json (.json, .jsonl) or txt."""
    return {".npz": "npz", ".csv": "csv", ".json": "json", ".jsonl": "json"}.get(_ext(path), "txt")


def save_examples(path: str, arrays: dict[str, np.ndarray | None], fmt: str | None = None) -> None:
    """Save examples as fmt ('npz', 'csv', 'json', 'txt'; default by extension,
    `format_of`), atomically.  npz leaves out None arrays."""
    fmt = fmt or format_of(path)
    if fmt == "npz":
        write_file(path, _npz_bytes(arrays))
    else:
        lines = list(format_examples(arrays, fmt))
        write_file(path, "\n".join(lines) + "\n")
