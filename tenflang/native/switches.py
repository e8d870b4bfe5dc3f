"""The environment switches of the native code: TENFLANG_FUSE, TENFLANG_NATIVE,
TENFLANG_ONEDNN, TENFLANG_NUM_THREADS, each read once a process and refused when misspelled.
"""
from __future__ import annotations

import functools
import os

from .loop_pool import thread_count

SWITCHES = ("TENFLANG_FUSE", "TENFLANG_NATIVE", "TENFLANG_ONEDNN")      # 0 off, 1 (or unset) on


def switched_on(var: str) -> bool:
    """Whether the switch `var` (one of `SWITCHES`) is on: unless it is 0."""
    return os.environ.get(var, "1").strip() != "0"


@functools.lru_cache(maxsize=1)
def fused_loops_on() -> bool:
    """Whether fused loops (interp/planning/fusion.py) and Adam's C loop may run: unless
    $TENFLANG_FUSE is 0.  Read once, as `threads` is: a step read it three times
    (1-3 µs each)."""
    return switched_on("TENFLANG_FUSE")


@functools.lru_cache(maxsize=1)
def native_kernels_on() -> bool:
    """Whether the C convolution, pooling and row kernels (interp/backends/c/image_c.py,
    interp/backends/c/rows_c.py) may run: unless $TENFLANG_NATIVE is 0.  Read once, as
    `fused_loops_on` is."""
    return switched_on("TENFLANG_NATIVE")


@functools.lru_cache(maxsize=1)
def onednn_on() -> bool:
    """Whether float32 convolutions may run through oneDNN where it is installed
    (interp/backends/c/onednn_c.py): unless $TENFLANG_ONEDNN is 0.  Read once."""
    return switched_on("TENFLANG_ONEDNN")


def environment_problem() -> str | None:
    """What is wrong with this module's variables, or None: the commands refuse
    a value they would otherwise read as the default without a word (a typo'd
    `TENFLANG_FUSE=off` would leave the loops on).  $OMP_NUM_THREADS is not
    TenFlang's and keeps OpenMP's reading: a bad value is ignored."""
    value = os.environ.get("TENFLANG_NUM_THREADS", "")
    if value.strip() and not thread_count(value):
        return f"TENFLANG_NUM_THREADS is '{value}': expected a number of threads, 1 or more"
    for var in SWITCHES:
        value = os.environ.get(var, "")
        if value.strip() not in ("", "0", "1"):
            return f"{var} is '{value}': expected 0 (off) or 1 (on)"
    return None
