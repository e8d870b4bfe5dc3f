"""tenflang/base/gc_pause.py: the collector is off inside the block and back on after
it; what the block left alive waits in the oldest generation (the next young
collection does not visit it); cycles made inside are still collected; objects
the process froze itself stay frozen."""
from __future__ import annotations

import gc
import weakref

from tenflang.base.gc_pause import paused_gc


class Node:
    pass


def test_off_inside_on_after():
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_survivors_wait_in_the_oldest_generation():
    with paused_gc():
        kept = [Node() for _ in range(1000)]
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert not any(id(o) in young for o in kept)
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(o) in oldest for o in kept)


def test_cycles_made_inside_are_collected():
    with paused_gc():
        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        del a, b
    assert alive() is not None       # a cycle: only the collector frees it
    gc.collect()
    assert alive() is None


def test_the_process_own_frozen_objects_stay_frozen():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with paused_gc():
            Node()
        assert gc.get_freeze_count() == frozen and gc.isenabled()
    finally:
        gc.unfreeze()
