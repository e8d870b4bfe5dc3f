"""The numba kernel of `fastnotation`: lines of vector notation following one
template, tokenized over the file's bytes.

Conventions: `read_lines` returns the number of examples read, or minus the
1-based number of the first line it does not accept (the caller then asks the
general reader).  Bytes: whitespace is space, tab, CR, VT, FF; a token (a name
or a number) is a run of bytes that are neither whitespace nor one of
``{}[],:#`` — the atoms of `notation`.  Numbers are checked against the
decimal literals of `notation.NUM` (no inf/nan: those take the general reader)
and converted by C's `strtod`.
"""
from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_COLON, _OPEN, _CLOSE, _NUMBER = -1, -2, -3, -4     # as in fastnotation


@intrinsic
def _strtod(typingctx, address, end_address):
    """C's strtod(char *, char **): called by symbol name, so the cached machine
    code holds no process-specific address."""
    def codegen(context, builder, signature, args):
        char_p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.DoubleType(), [char_p, char_p.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "strtod")
        return builder.call(fn, [builder.inttoptr(args[0], char_p),
                                 builder.inttoptr(args[1], char_p.as_pointer())])
    return types.float64(types.intp, types.intp), codegen


def _classes() -> np.ndarray:
    """Per byte: 1 whitespace, 2 another delimiter of tokens, 0 a token byte."""
    table = np.zeros(256, dtype=np.uint8)
    table[list(b" \t\r\v\f")] = 1
    table[list(b"\n{}[],:#")] = 2
    return table


_CLASS = _classes()


@numba.njit(cache=True, inline="always")
def _space(c):
    return _CLASS[c] == 1


@numba.njit(cache=True, inline="always")
def _delimiter(c):
    return _CLASS[c] != 0


@numba.njit(cache=True, inline="always")
def _skip(buf, pos, n):
    while pos < n and _space(buf[pos]):
        pos += 1
    return pos


@numba.njit(cache=True, inline="always")
def _signed_digits(buf, pos, n, signed):
    """(start, end) of the digits at pos, after an optional sign when `signed`."""
    if signed and pos < n and (buf[pos] == 43 or buf[pos] == 45):
        pos += 1
    start = pos
    while pos < n and 48 <= buf[pos] <= 57:
        pos += 1
    return start, pos


@numba.njit(cache=True, inline="always")
def _number_end(buf, pos, n):
    """The end of the decimal literal [+-]? (d+ .? d* | . d+) ([eE] [+-]? d+)? at
    pos when a delimiter follows it, else -1 (one pass over the token)."""
    start, pos = _signed_digits(buf, pos, n, True)
    digits = pos - start
    if pos < n and buf[pos] == 46:
        start, pos = _signed_digits(buf, pos + 1, n, False)
        digits += pos - start
    if digits == 0:
        return -1
    if pos < n and (buf[pos] == 101 or buf[pos] == 69):
        start, pos = _signed_digits(buf, pos + 1, n, True)
        if pos == start:
            return -1
    return pos if pos == n or _delimiter(buf[pos]) else -1


@numba.njit(cache=True)
def _name(buf, pos, n, name_bytes, start, stop):
    """The position after the name name_bytes[start:stop] at pos, or -1."""
    for i in range(start, stop):
        if pos >= n or buf[pos] != name_bytes[i]:
            return -1
        pos += 1
    return pos if pos == n or _delimiter(buf[pos]) else -1


@numba.njit(cache=True)
def _line(buf, pos, n, tokens, name_bytes, name_ends, sizes, values, offsets, row, end_cell):
    """Parse the line at pos into row `row`; the position of its '\\n' (or n), or -1."""
    base = buf.ctypes.data
    brace = pos < n and buf[pos] == 123
    if brace:
        pos += 1
    variable, column = -1, 0
    for t in tokens:
        pos = _skip(buf, pos, n)
        if t >= 0:
            variable, column = t, 0
            pos = _name(buf, pos, n, name_bytes, name_ends[t - 1] if t > 0 else 0, name_ends[t])
            if pos < 0:
                return -1
            continue
        c = buf[pos] if pos < n else 10
        if t == _COLON or t == _OPEN:
            if c != (58 if t == _COLON else 91):
                return -1
            pos += 1
            continue
        if t == _CLOSE:
            if c != 93:
                return -1
            pos += 1
        else:
            end = _number_end(buf, pos, n)
            if end < 0:
                return -1
            values[offsets[variable] + row * sizes[variable] + column] = _strtod(base + pos,
                                                                                 end_cell)
            column += 1
            pos = end
        pos = _skip(buf, pos, n)          # after a value: one optional comma
        if pos < n and buf[pos] == 44:
            pos += 1
    pos = _skip(buf, pos, n)
    if brace:
        if pos >= n or buf[pos] != 125:
            return -1
        pos = _skip(buf, pos + 1, n)
    if pos < n and buf[pos] == 35:
        while pos < n and buf[pos] != 10:
            pos += 1
    return pos if pos == n or buf[pos] == 10 else -1


@numba.njit(cache=True)
def read_lines(buf, tokens, name_bytes, name_ends, sizes, values, numbers, capacity):
    """Every line of buf: examples into `values` (variable-major blocks of
    `capacity` rows), their line numbers into `numbers`.  See the module docstring."""
    n = len(buf)
    offsets = sizes.copy()
    total = 0
    for v in range(len(sizes)):
        offsets[v] = total
        total += capacity * sizes[v]
    end_cell = numbers[:1].copy()       # strtod's end pointer lands here, unread
    pos, line, row = 0, 1, 0
    while pos < n:
        start = _skip(buf, pos, n)
        if start < n and buf[start] != 10 and buf[start] != 35:
            end = _line(buf, start, n, tokens, name_bytes, name_ends, sizes, values, offsets,
                        row, end_cell.ctypes.data)
            if end < 0:
                return -line
            numbers[row] = line
            row += 1
            pos = end
        else:
            pos = start
            while pos < n and buf[pos] != 10:
                pos += 1
        pos += 1
        line += 1
    return row
