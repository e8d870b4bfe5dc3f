"""Data files in vector notation read at C speed: a compiled tokenizer.

    fast = read_uniform(path, data)     # fast.arrays, fast.lines; or fast.stopped_at

Conventions:

* The fast path reads only what it is sure of, and the general reader in
  `notation` stays the definition of the format.  The first content line,
  parsed by `notation.parse_vector`, is the template: every other line must
  bind the same names in the same order with values of the same shapes, with
  ASCII bytes only, no ``null`` and no ``inf``/``nan``.  Anything else (a
  syntax error, a different shape, a line the tokenizer does not know) stops
  it: `read_uniform` returns a `FastRead` without arrays, saying the line it
  stopped at, and the caller runs the general reader,
  which reads the file or gives its located message.  Accepting a subset of
  the language keeps the two readers' results identical.
* Numbers are converted by C's `strtod` (correctly rounded, like Python's
  `float`), after the tokenizer has checked that the token is a decimal
  literal of `notation.NUM`, so the values are bit-identical to the general
  reader's.
* The template is compiled into an int array of tokens (`_NAME + k`,
  `_COLON`, `_OPEN`, `_CLOSE`, `_NUMBER`); one output buffer holds every
  variable's values, variable by variable, so each array is a contiguous view.
* The tokenizer is C (`notation_reader.c`), compiled by the system's C
  compiler on first use and cached on disk (`clib.library`).  Without a
  working compiler the same tokenizer written for numba (`_notation_kernel`)
  runs instead; numba is imported then only.  Without either (numba is an
  optional extra) the fast path does not start and the general reader reads.
"""
from __future__ import annotations

import ctypes
import functools
from pathlib import Path

import numpy as np

from tenflang.base.frozen import frozen
from tenflang.native import clib, cpython
from .notation import Source, is_blank, parse_vector

_COLON, _OPEN, _CLOSE, _NUMBER, _NAME = -1, -2, -3, -4, 0


def template(entries: dict) -> tuple[np.ndarray, list] | None:
    """(tokens, [(name, shape)]) of a line's entries, or None when a value is null."""
    tokens, layout = [], []
    for k, (name, (value, _)) in enumerate(entries.items()):
        if value is None:
            return None
        shape = np.shape(value)
        if 0 in shape:
            return None
        tokens += [_NAME + k, _COLON] + value_tokens(shape)
        layout.append((name, shape))
    return np.array(tokens, dtype=np.int64), layout


def value_tokens(shape: tuple) -> list[int]:
    if not shape:
        return [_NUMBER]
    return [_OPEN] + value_tokens(shape[1:]) * shape[0] + [_CLOSE]


def first_content_line(data: bytes) -> tuple[str, int] | None:
    """The first line that is neither blank nor a comment, and its number."""
    start, number = 0, 1
    while start <= len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end].decode("ascii")
        if not is_blank(line):
            return line, number
        start, number = end + 1, number + 1
    return None


@frozen
class FastRead:
    """What the fast reader made of a file: when every line follows the first,
    `arrays` (name -> array with a leading example axis) and `lines` (1-based
    line numbers); else neither, and `stopped_at`, the line it stopped at (0:
    it did not start), after which the general reader must read the file."""
    arrays: dict | None = None
    lines: np.ndarray | None = None
    stopped_at: int = 0


def read_uniform(path: str, data: bytes) -> FastRead:
    """The `FastRead` of the data file holding `data`."""
    first = first_content_line(data) if data.isascii() else None
    if first is None:
        return FastRead()
    entries, _ = parse_vector(Source(path, first[0], first[1]), first[0], 0, False)
    shaped = template(entries) if entries else None
    if shaped is None:
        return FastRead()
    tokens, layout = shaped
    if _kernel() is None:
        return FastRead()
    names = [name.encode() for name, _ in layout]
    sizes = np.array([int(np.prod(shape)) for _, shape in layout], dtype=np.int64)
    capacity = data.count(b"\n") + 1
    values = np.empty(capacity * int(sizes.sum()))
    numbers = np.empty(capacity, dtype=np.int64)
    count = _kernel()(np.frombuffer(data, dtype=np.uint8), tokens,
                      np.frombuffer(b"".join(names), dtype=np.uint8),
                      np.cumsum([len(n) for n in names]).astype(np.int64), sizes, values,
                      numbers, capacity)
    if count < 0:
        return FastRead(stopped_at=-count)
    arrays, start = {}, 0
    for (name, shape), size in zip(layout, sizes.tolist()):
        arrays[name] = values[start:start + count * size].reshape((count,) + shape)
        start += capacity * size
    return FastRead(arrays, numbers[:count])


@functools.cache
def _kernel():
    """The tokenizer: C where a compiler works, else numba (imported here:
    only a run that reads text data pays for it), else None."""
    try:
        return c_kernel(clib.library((Path(__file__).parent / "notation_reader.c").read_text()))
    except clib.NOT_BUILT:
        pass
    try:
        from ._notation_kernel import read_lines
    except ImportError:              # numba is an optional extra: the general reader reads
        return None
    return read_lines


def c_kernel(lib):
    """The C `read_lines` with the numba kernel's arguments."""
    f = lib.read_lines
    f.restype = ctypes.c_long
    f.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p, ctypes.c_long,
                  ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long,
                  ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]

    def read_lines(buf, tokens, name_bytes, name_ends, sizes, values, numbers, capacity):
        arrays = (buf, tokens, name_bytes, name_ends, sizes, values, numbers)
        assert all(a.flags.c_contiguous for a in arrays) and numbers.dtype == np.int64
        offsets = np.empty(len(sizes), dtype=np.int64)
        at = cpython.address         # every array is held here until f returns
        return f(at(buf), len(buf), at(tokens), len(tokens), at(name_bytes), at(name_ends),
                 at(sizes), len(sizes), at(values), at(numbers), capacity, at(offsets))
    return read_lines
