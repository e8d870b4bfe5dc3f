"""Reading a stored zip member straight into an array, with its CRC-32.

    crc = read_into(f.fileno(), offset, memoryview(array).cast("B"))

Conventions:

* The bytes are read with `os.preadv` and checksummed (`zlib.crc32`) chunk by
  chunk, each chunk while it is still in the cache.  Both release the GIL, so a
  large member is cut into parts that run on the loops' threads at once
  (`loop_pool.threads`, `loop_pool.submit`): a single thread checksums at about half
  the speed the page cache delivers, and the check would halve the speed of
  the fast reader.
* `combine(crc1, crc2, length2)` is zlib's crc32_combine (Python's zlib does
  not expose it): the CRC of two parts from theirs, in O(log length) steps.
* A member that ends before its bytes do raises ValueError (the caller names
  the file and the member).
"""
from __future__ import annotations

import os
import zlib

# bytes read and checksummed at a time: a chunk stays in the cache
CHUNK_BYTES = 1 << 20
# a member smaller than this is read by one thread (starting others costs more)
PARALLEL_BYTES = 32 << 20
_POLY = 0xEDB88320                      # CRC-32's polynomial, bit-reflected


def read_into(fd: int, offset: int, view: memoryview) -> int:
    """Fill `view` from `fd` at `offset`; the CRC-32 of the bytes read."""
    from tenflang.native import loop_pool
    parts = loop_pool.threads() if len(view) >= PARALLEL_BYTES else 1
    size = -(-len(view) // parts)
    bounds = [(start, min(start + size, len(view))) for start in range(0, len(view), size)]
    if len(bounds) == 1:
        return read_part(fd, offset, view)
    crc = 0
    with loop_pool.parallel():
        futures = [loop_pool.submit(read_part, fd, offset + a, view[a:b]) for a, b in bounds]
        for (a, b), future in zip(bounds, futures):
            crc = combine(crc, future.result(), b - a)
    return crc


def read_part(fd: int, offset: int, view: memoryview) -> int:
    """`view` filled from `fd` at `offset`, chunk by chunk: its CRC-32."""
    crc, done = 0, 0
    while done < len(view):
        got = os.preadv(fd, [view[done:done + CHUNK_BYTES]], offset + done)
        if not got:
            raise ValueError("the file ends before the member's bytes do (it is cut short)")
        crc = zlib.crc32(view[done:done + got], crc)
        done += got
    return crc


def combine(crc1: int, crc2: int, length2: int) -> int:
    """The CRC-32 of A + B from crc1 = crc32(A), crc2 = crc32(B), length2 = len(B)."""
    return _times(_x_to_8n(length2), crc1) ^ crc2


def _times(a: int, b: int) -> int:
    """a * b modulo the polynomial (zlib's multmodp)."""
    m, p = 1 << 31, 0
    while m:
        if a & m:
            p ^= b
        m >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1
    return p


def _x_to_8n(n: int) -> int:
    """x ** (8 n) modulo the polynomial: appending n zero bytes (zlib's x2nmodp)."""
    p, power = 1 << 31, 1 << 30         # x ** 0, x ** 1
    for _ in range(3):                  # x ** 8
        power = _times(power, power)
    while n:
        if n & 1:
            p = _times(power, p)
        n >>= 1
        power = _times(power, power)
    return p
