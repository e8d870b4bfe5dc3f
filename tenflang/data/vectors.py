"""Reading and writing TenFlang vector files (docs/design.md §3): the public facade.

Conventions:

* Formats by extension.  Text files are vector notation (`notation`): data
  files hold one vector per line, one example each (`textfiles`); weights files
  hold one vector, which may span lines.  ``.npz`` (`npzfiles`): one array per
  variable, data with a leading example axis; an array stored uncompressed in
  the run's dtype is read straight into place, not copied.  ``.csv`` (data
  only; `csvfiles`): a header row of ``x`` or ``x[i]`` / ``M[i,j]`` columns,
  one row per example.
* Unbound: ``null``, a missing entry or (csv) empty cells.  A variable is unbound in
  every example or in none; unbound everywhere loads as ``None`` (npz stores no
  array for it).  Every example has the same shapes.  Values load as float64
  (.npz: in the dtype asked for);
  NaN/inf are errors unless ``allow_nan``.
* Every reader returns an `Examples` (`examples`), whose `locate(example, name)`
  is where each message about the file points.
* Writing: float64 as Python ``repr``, float32 as its shortest float32 string, so
  files read back bit-identical.  JSON Lines is strict JSON (NaN is null, ±inf ±1e999).
  Files are replaced atomically (`files.write_file`).  Problems in files raise
  `TenflangError` (file/line/column); failed writes raise `RunFailure`.
* This module holds the public API (`Examples`, `load_*`, `save_*`, `format_*`,
  `validate_weights`, `weight_location`) and weights files; each data format
  has its own reader module, which does not import this one.
"""
from __future__ import annotations

import os
import re
from typing import Iterator

import numpy as np

from tenflang.base.errors import Location, TenflangError
from tenflang.base.outputs import write_file
from tenflang.base.inputs import regular, require_regular
from tenflang.ops.shapes import fmt_missing, fmt_shape
from tenflang.base.dtypes import check_weights_fit
from .examples import NONFINITE, Examples, first_nonfinite
from .notation import Source, parse_vector, skip, value_strings, vector_lines
from .npzfiles import npz_bytes, npz_weights, read_npz
from .reading import file_text

NPZ_SEEKS = "an .npz archive is read by seeking in it"


def _ext(path: str) -> str:
    return os.path.splitext(path)[1].lower()


# ----------------------------------------------------------------------------- reading

def load_examples(path: str, *, allow_nan: bool = False, shapes: dict | None = None,
                  dtype="float64") -> Examples:
    """Load a data file: .npz, .csv, otherwise vector notation (one example per line).
    `shapes` (name -> the program's per-example shape), when given, is what each
    example of a text file is checked against, so an error names the first line
    that disagrees with the program (not with the file's first line).  An .npz
    array already stored in `dtype` is read straight into place; text and csv
    values are read as float64 (see the module docstring)."""
    if _ext(path) == ".npz":
        require_regular(path, "data file", NPZ_SEEKS)
        examples = read_npz(path, dtype, shapes)
    elif _ext(path) == ".csv":            # each reader is imported when its format is read
        from .csvfiles import read_csv
        examples = read_csv(path)
    else:
        from .textfiles import read_text
        examples = read_text(path, shapes)
    if not len(examples):
        raise TenflangError("no examples in file (it is empty or holds only comments or a header)",
                            Location(file=path))
    examples.check_names()
    if not allow_nan:
        examples.check_finite()
    examples.check_fits(dtype)
    return examples


def load_weights(path: str, *, allow_nan: bool = False,
                 dtype="float64") -> dict[str, np.ndarray]:
    """Load weights: .npz (or a tfweightcalc checkpoint: the weights it holds),
    otherwise one vector (which may span lines); each within the range of the
    `dtype` they will be used in."""
    if _ext(path) == ".npz":
        require_regular(path, "weights file", NPZ_SEEKS)
        weights, where = npz_weights(path), lambda name: Location(file=path)
    else:
        text = file_text(path, "weights")
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
    bad = None if allow_nan else first_nonfinite({k: v.reshape(1, -1) for k, v in weights.items()})
    if bad:
        raise TenflangError(f"weight '{bad[1]}' is {bad[2]!r}; {NONFINITE}", where(bad[1]))
    check_weights_fit(weights, dtype, where)
    return weights


def weight_location(path: str, name: str | None = None) -> Location:
    """Where weight `name` is written in a text weights file (the file alone
    when it is not found, or for .npz)."""
    if name is None or _ext(path) == ".npz":
        return Location(file=path)
    entry = re.compile(rf"(?:^|[{{,\s]){re.escape(name)}\s*:")
    if not regular(path):                # a stream is read once (`inputs`)
        return Location(file=path)
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


def validate_weights(path: str, weights: dict, shapes: dict, subset: bool = False) -> None:
    """The weights bind exactly the names in `shapes` (some of them when
    `subset`), each with its shape; a message names every missing or unexpected
    one."""
    missing = [name for name in shapes if name not in weights and not subset]
    stray = [name for name in weights if name not in shapes]
    if missing:
        held = (f"; the file holds {', '.join(map(repr, stray))}, which the program does not "
                "have: the weights of another program?") if stray else ""
        raise TenflangError(fmt_missing("weight", missing, shapes) + held, weight_location(path))
    if stray:
        raise TenflangError(f"unexpected weight{'s' if len(stray) > 1 else ''} "
                            f"{', '.join(map(repr, stray))}: the program's weights are "
                            f"{', '.join(map(repr, shapes)) or 'none'}",
                            weight_location(path, stray[0]))
    for name, value in weights.items():
        if tuple(np.shape(value)) != tuple(shapes[name]):
            raise TenflangError(f"weight '{name}' has shape {fmt_shape(np.shape(value))}, "
                                f"expected {fmt_shape(shapes[name])}", weight_location(path, name))


# ----------------------------------------------------------------------------- writing

def format_examples(arrays: dict[str, np.ndarray | None], fmt: str, *,
                    count: int | None = None) -> Iterator[str]:
    """Lines (no newline) of a data file in fmt 'txt', 'json' (JSON Lines) or 'csv'.
    Arrays have a leading example axis; None is null.  `count` is needed only
    when every array is None."""
    arrays = {k: None if v is None else np.asarray(v) for k, v in arrays.items()}
    lengths = {len(v) for v in arrays.values() if v is not None and v.ndim > 0}
    if len(lengths) > 1 or any(v is not None and v.ndim == 0 for v in arrays.values()):
        raise TenflangError("arrays need one common leading example axis")
    n = lengths.pop() if lengths else count
    if n is None:
        raise TenflangError("format_examples needs `count` when every array is None (or "
                            "there are none)")
    if fmt == "csv":
        from .csvfiles import csv_lines
        yield from csv_lines(arrays, n)
        return
    if fmt not in ("txt", "json"):
        raise ValueError(f"unknown format {fmt!r}")
    yield from vector_lines(arrays, n, fmt)


def format_weights(weights: dict[str, np.ndarray], statistics: dict | None = None) -> str:
    """A weights file: one `name: value` per line between `{` and `}` lines;
    the population values of batch statistics after the weights, under a
    `# batch statistics` comment line (docs/design.md §2.3.2)."""
    lines = ["{"]
    for k, (name, a) in enumerate({**weights, **(statistics or {})}.items()):
        if k == len(weights):
            lines.append("  # batch statistics")
        lines.append(f"  {name}: {value_strings(np.asarray(a)[None], 'txt')[0]}")
    return "\n".join(lines + ["}"]) + "\n"


def save_weights(path: str, weights: dict[str, np.ndarray], statistics: dict | None = None) -> None:
    """Save weights (then any batch statistics) as .npz (by extension) or
    vector notation, atomically."""
    write_file(path, npz_bytes({**weights, **(statistics or {})}) if _ext(path) == ".npz"
               else format_weights(weights, statistics))


def format_of(path: str) -> str:
    """The format a data file's extension names: npz, csv, json (.json, .jsonl) or txt."""
    return {".npz": "npz", ".csv": "csv", ".json": "json", ".jsonl": "json"}.get(_ext(path), "txt")


def save_examples(path: str, arrays: dict[str, np.ndarray | None], fmt: str | None = None) -> None:
    """Save examples as fmt ('npz', 'csv', 'json', 'txt'; default by extension,
    `format_of`), atomically.  npz leaves out None arrays."""
    fmt = fmt or format_of(path)
    if fmt == "npz":
        write_file(path, npz_bytes(arrays))
    else:
        lines = list(format_examples(arrays, fmt))
        write_file(path, "\n".join(lines) + "\n")
