"""Compile work grows linearly with the program: the Python calls that parse +
`compile_gradient` make, counted with `sys.setprofile` (not timed, so a loaded
machine cannot fail it), for each program shape of bench/bench_compile.py at
two sizes, grow by the factor the lines grow by.  This catches a pass that
walks again what came before, once per line (a quadratic loop of calls); a
quadratic builtin (a dict copied per use) makes no more calls and is left to
the benchmark's timings (bench/results_compile.md)."""
from __future__ import annotations

import sys

import pytest

from support.paths import ROOT
from tenflang.backprop import compile_gradient
from tenflang.lang import parse

sys.path.insert(0, str(ROOT / "bench"))
import bench_compile  # noqa: E402


def calls(text: str) -> int:
    """Python and builtin calls made by parsing and compiling `text`."""
    count = 0

    def counting(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1
    sys.setprofile(counting)
    try:
        compile_gradient(parse(text, "linear.tf", shape_program=True), 1)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("shape", list(bench_compile.SHAPES))
def test_calls_grow_as_the_lines_do(shape):
    small, large = (bench_compile.generate(n, shape) for n in (300, 1200))
    calls(small)                    # warm the caches (parser tables, rules, shapes)
    lines = bench_compile.count_lines(large) / bench_compile.count_lines(small)
    growth = calls(large) / calls(small)
    assert lines > 3.5
    assert growth < 1.25 * lines, f"{shape}: {lines:.2f}x the lines, {growth:.2f}x the calls"


def test_a_quadratic_pass_would_be_caught(monkeypatch):
    """The same measure on a compiler that rescans the program once per line."""
    from tenflang.backprop import compiler
    real = compiler.build_graph

    def rescanning(program):
        for statement in program.statements:
            [s.name for s in program.statements[:10] if hasattr(s, "name")]
            sum(1 for _ in program.statements)       # a walk over all of it, per line
        return real(program)
    small, large = (bench_compile.generate(n, "chain") for n in (300, 1200))
    monkeypatch.setattr(compiler, "build_graph", rescanning)
    calls(small)
    lines = bench_compile.count_lines(large) / bench_compile.count_lines(small)
    assert calls(large) / calls(small) > 1.5 * lines
