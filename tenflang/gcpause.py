"""Pausing Python's cyclic garbage collector around big allocation bursts.

Parsing and compiling a long program allocate millions of small acyclic
objects; with the collector on, its full passes over an ever larger heap make
the work grow faster than the program (100k lines: 209 s instead of ~10 s).
The first collection after the pause still visits every object the block
left alive (a few tenths of a second after a 100 000-line program), so a command
pauses it around a function whose syntax trees are freed when it returns.
"""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def paused_gc():
    """Run a block with the cyclic garbage collector off.  Parsing allocates
    millions of small acyclic objects; with the collector on, its full passes
    over them double the time of a 100 000-line program.  Nothing is leaked:
    cycles made meanwhile are collected once it is back on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
