"""Pausing Python's cyclic garbage collector around big allocation bursts.

Parsing and compiling a long program allocate millions of small acyclic
objects; with the collector on, its full passes over an ever larger heap make
the work grow faster than the program (100k lines: 209 s instead of ~10 s).
With the collector merely switched back on, its first collection would still
visit every object the block left alive (they are all in the youngest
generation): 0.1-0.2 s per million objects, after each block.  So the block's
survivors are moved to the oldest generation first, which costs no traversal
(`gc.freeze` then `gc.unfreeze`); they are looked at in the next full
collection, as any long-lived object is.  Where the process had frozen objects
of its own (`gc.get_freeze_count()`), they stay frozen: the collector is then
only switched back on.
"""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def paused_gc():
    """Run a block with the cyclic garbage collector off (see the module
    docstring).  Nothing is leaked: cycles made meanwhile are collected by
    the next full collection once it is back on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not gc.get_freeze_count():
                gc.freeze()         # every tracked object to the permanent generation,
                gc.unfreeze()       # then all of them to the oldest: no traversal
            gc.enable()
