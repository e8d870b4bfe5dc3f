"""Tuning glibc's malloc for a training step's allocations (see `keep_freed_memory`)."""
from __future__ import annotations

import ctypes
import functools
import os

MMAP_THRESHOLD, TRIM_THRESHOLD = 32 << 20, 256 << 20     # bytes
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3                # glibc's mallopt parameters


@functools.lru_cache(maxsize=1)
def keep_freed_memory() -> bool:
    """Let glibc's malloc keep freed memory for the next allocation instead of
    handing it back to the system.  A training step allocates and frees the same
    arrays every step; by default glibc maps each large one afresh (mmap) and the
    first touch of every page faults (a LeNet step spent a fifth of its time
    so).  The peak memory is unchanged.  Not on other C libraries, nor when the
    user tunes malloc through the MALLOC_* environment."""
    if any(k.startswith("MALLOC_") for k in os.environ):
        return False
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version     # glibc only  # noqa: B018
    except (OSError, AttributeError):
        return False
    return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
