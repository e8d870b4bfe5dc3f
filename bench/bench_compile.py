"""Compile-time benchmark: parse + compile_gradient on generated shape programs.

    PYTHONPATH=. python bench/bench_compile.py                 # 1k, 10k, 100k lines
    PYTHONPATH=. python bench/bench_compile.py --sizes 1000 --runs 5
    PYTHONPATH=. python bench/bench_compile.py --profile 10000 --level 1

Conventions

* A "line" is a declaration or a definition of the generated shape program
  (every variable costs two: `declare` and `define`); sizes are approximate
  to within one segment (< 12 lines).
* The program (`generate`) mixes what stresses a compiler: a long chain of
  scalar ops (depth ~ lines/2), wide fan-out (one `hub` value and the input
  `x` are read by a sixth of the chain each, so their adjoints sum thousands
  of terms), tensor segments every 25 steps (matmul, a broadcast that the
  gradient must sum back, tanh, dot), rotating scalar weights, and two losses.
* Time is wall-clock (`time.perf_counter`), the median of `--runs` runs; a
  size whose first run takes longer than `--slow` seconds is run once.  The
  CPU column (`time.process_time`, parse + compile) shows how much of the wall
  time other processes on the machine took.
  Parse is `tenflang.lang.parse(text, shape_program=True)` (grammar,
  macros, checks); compile is `compile_gradient(program, level)`.
* The table is printed and written to `--out` (default
  bench/results_compile.md) as Markdown.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path

from tenflang.backprop import compile_gradient
from tenflang.lang import parse

SCALAR_WEIGHTS = 16
TENSOR_EVERY = 25
SCALAR_STEPS = ("mul {prev} w{k}", "add {prev} hub", "tanh {prev}", "sub {prev} 0.5",
                "logistic {prev}", "add {prev} x")


def header() -> tuple[list[str], list[str]]:
    """Declarations and definitions every generated program starts with."""
    decls = ["declare input x", "declare exp_output y", "declare input v [8]",
             "declare weight W [4, 8]", "declare weight u [4]"]
    decls += [f"declare weight w{k}" for k in range(SCALAR_WEIGHTS)]
    decls += ["declare intvar hub0", "declare intvar hub", "declare intvar c0"]
    defs = ["define hub0 = mul x w0", "define hub = tanh hub0", "define c0 = add hub x"]
    return decls, defs


def scalar_step(i: int) -> tuple[list[str], list[str]]:
    rhs = SCALAR_STEPS[i % len(SCALAR_STEPS)].format(prev=f"c{i - 1}", k=i % SCALAR_WEIGHTS)
    return [f"declare intvar c{i}"], [f"define c{i} = {rhs}"]


def tensor_step(i: int) -> tuple[list[str], list[str]]:
    """c_i = c_{i-1} + u · tanh((W v) * c_{i-1})  (the * broadcasts a scalar)."""
    names = [f"t{i}", f"h{i}", f"a{i}", f"s{i}", f"c{i}"]
    shapes = [" [4]", " [4]", " [4]", "", ""]
    decls = [f"declare intvar {n}{s}" for n, s in zip(names, shapes)]
    defs = [f"define t{i} = matmul W v", f"define h{i} = mul t{i} c{i - 1}",
            f"define a{i} = tanh h{i}", f"define s{i} = dot a{i} u",
            f"define c{i} = add c{i - 1} s{i}"]
    return decls, defs


def footer(last: str) -> tuple[list[str], list[str]]:
    decls = ["declare intvar diff", "declare loss L", "declare intvar WW [4, 8]",
             "declare loss R"]
    defs = [f"define diff = sub {last} y", "define L = pow diff 2",
            "define WW = mul W W", "define R = sum WW"]
    return decls, defs


def generate(lines: int) -> str:
    """A shape program of about `lines` lines (see module docstring)."""
    decls, defs = header()
    i = 0
    while len(decls) + len(defs) + 8 < lines:
        i += 1
        step = tensor_step if i % TENSOR_EVERY == 0 else scalar_step
        more_decls, more_defs = step(i)
        decls += more_decls
        defs += more_defs
    tail_decls, tail_defs = footer(f"c{i}")
    return "\n".join(decls + tail_decls + [""] + defs + tail_defs) + "\n"


def time_once(text: str, level: int) -> tuple[float, float, float]:
    """(parse seconds, compile seconds, CPU seconds of both)."""
    cpu = time.process_time()
    start = time.perf_counter()
    program = parse(text, "bench.tf", shape_program=True)
    parsed = time.perf_counter()
    compile_gradient(program, level)
    return parsed - start, time.perf_counter() - parsed, time.process_time() - cpu


def measure(text: str, level: int, runs: int, slow: float) -> tuple[float, float, float, int]:
    """Median (parse, compile, CPU) seconds over `runs` (one run when the first is slow)."""
    times = [time_once(text, level)]
    if times[0][0] + times[0][1] <= slow:
        times += [time_once(text, level) for _ in range(runs - 1)]
    parse_s, compile_s, cpu_s = (statistics.median(t[i] for t in times) for i in range(3))
    return parse_s, compile_s, cpu_s, len(times)


def count_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def table(rows: list[tuple]) -> str:
    head = ("| lines | level | runs | parse s | compile s | total s | CPU s | s per 1k lines |\n"
            "|---:|---:|---:|---:|---:|---:|---:|---:|")
    body = [f"| {n:,} | -O{lv} | {r} | {p:.2f} | {c:.2f} | {p + c:.2f} | {cpu:.2f} "
            f"| {(p + c) / n * 1000:.3f} |" for n, lv, r, p, c, cpu in rows]
    return "\n".join([head, *body])


def environment() -> str:
    return (f"Python {platform.python_version()} on {platform.machine()}, "
            f"{platform.system()}; {time.strftime('%Y-%m-%d')}")


def run_benchmark(sizes: list[int], levels: list[int], runs: int, slow: float) -> str:
    rows = []
    for size in sizes:
        text = generate(size)
        for level in levels:
            parse_s, compile_s, cpu_s, done = measure(text, level, runs, slow)
            rows.append((count_lines(text), level, done, parse_s, compile_s, cpu_s))
            print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    return table(rows)


def profile(size: int, level: int, top: int) -> str:
    """cProfile of parse + compile of one generated program, by cumulative and own time."""
    text = generate(size)
    profiler = cProfile.Profile()
    profiler.runcall(lambda: compile_gradient(parse(text, shape_program=True), level))
    out = io.StringIO()
    for order in ("cumulative", "tottime"):
        pstats.Stats(profiler, stream=out).strip_dirs().sort_stats(order).print_stats(top)
    return out.getvalue()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slow", type=float, default=30.0,
                        help="run a size once when its first run takes longer (seconds)")
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_compile.md")))
    parser.add_argument("--profile", type=int, metavar="LINES",
                        help="profile one program of this size instead of benchmarking")
    parser.add_argument("--level", type=int, default=1, help="level for --profile")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    if args.profile:
        print(profile(args.profile, args.level, args.top))
        return
    result = run_benchmark(args.sizes, args.levels, args.runs, args.slow)
    print(result)
    text = (f"# Compile benchmark\n\n`PYTHONPATH=. python bench/bench_compile.py`; "
            f"{environment()}. Median of {args.runs} runs (one where a run takes more "
            f"than {args.slow:g} s).\n\n{result}\n")
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
