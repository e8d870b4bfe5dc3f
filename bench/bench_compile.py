"""Compile-time benchmark: parse + compile_gradient on generated shape programs.

    PYTHONPATH=. python bench/bench_compile.py                 # every shape, 1k-100k lines
    PYTHONPATH=. python bench/bench_compile.py --shape chain --sizes 100000 --levels 1
    PYTHONPATH=. python bench/bench_compile.py --profile 100000 --shape chain
    PYTHONPATH=. python bench/bench_compile.py --write chain.tf --shape chain --sizes 100000

Conventions

* A "line" is a non-blank line of the generated program (a declaration or a
  definition); sizes are approximate to within one segment (< 12 lines).
* Shapes (`--shape`, SHAPES), each stressing the compiler differently:
  - `mix`: a long chain of scalar ops (depth ~ lines/2), wide fan-out (one
    `hub` value and the input `x` are read by a sixth of the chain each, so
    their adjoints sum thousands of terms), tensor segments every 25 steps
    (matmul, a broadcast that the gradient must sum back, tanh, dot),
    rotating scalar weights, and two losses;
  - `chain`: long dependency chains with skip connections: each value reads
    the previous one and, in four steps of six, the one 8 back (a rotating
    weight and a bounded unary op in the others), a small tensor segment
    every 30 steps (~60 lines), two losses that both read the chain;
    `chain-random`: the same with a random distance 2..64 back (seeded);
  - `wide`: wide and shallow: a weight per term, each read once, summed by
    a balanced tree (depth log2 of the width), two losses;
  - `nested`: deep nesting: each definition a parenthesised expression 1..8
    deep over the previous value and the one 8 back (the front end lowers it
    to one definition per op: ~4.5 statements per line).
* Time is wall-clock (`time.perf_counter`), the median of `--runs` runs; a
  size whose first run takes longer than `--slow` seconds is run once.  The
  CPU column (`time.process_time`, parse + compile) is what to compare on a
  shared machine: wall time also holds what other processes took.
  Parse is `tenflang.lang.parse(text, shape_program=True)` (grammar,
  macros, checks); compile is `compile_gradient(program, level)` (with its
  check of the GCP).
* The table is printed and written to `--out` (default
  bench/results_compile.md) as Markdown, with the command and the load average;
  the file's own sections (`## ...`, notes written by hand) are kept below it.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import random
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
CHAIN_SKIP = 8
CHAIN_MAX_SKIP = 64
CHAIN_TENSOR_EVERY = 30
SKIP_STEPS = ("add {prev} {skip}", "mul {prev} w{k}", "sub {prev} {skip}", "tanh {prev}",
              "mul {prev} {skip}", "logistic {prev}")
NESTED_DEPTH = 8
NESTED_STEPS = ("tanh {e}", "mul {e} w{k}", "add {e} {skip}", "sub {e} 0.5",
                "logistic {e}", "mul {e} {skip}")


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


def generate_mix(lines: int) -> str:
    """The mix: one long scalar chain, wide fan-out, tensor segments (module docstring)."""
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


def skip_step(i: int, back: int) -> tuple[list[str], list[str]]:
    """c_i from c_{i-1} and c_{i-back} (every fourth step a bounded unary op)."""
    rhs = SKIP_STEPS[i % len(SKIP_STEPS)].format(
        prev=f"c{i - 1}", skip=f"c{max(i - back, 0)}", k=i // len(SKIP_STEPS) % SCALAR_WEIGHTS)
    return [f"declare intvar c{i}"], [f"define c{i} = {rhs}"]


def two_losses(last: str, middle: str) -> tuple[list[str], list[str]]:
    """L = (last - y)^2 and R = middle^2 + sum(W*W): both read the chain."""
    decls = ["declare intvar diff", "declare loss L", "declare intvar WW [4, 8]",
             "declare intvar mm", "declare intvar ww", "declare loss R"]
    defs = [f"define diff = sub {last} y", "define L = pow diff 2", "define WW = mul W W",
            f"define mm = mul {middle} {middle}", "define ww = sum WW", "define R = add mm ww"]
    return decls, defs


def generate_chain(lines: int, random_skip: bool = False) -> str:
    """Long dependency chains: every value reads the previous one and one
    CHAIN_SKIP (or, `random_skip`, 2..CHAIN_MAX_SKIP at random, seeded) back,
    a tensor segment every CHAIN_TENSOR_EVERY steps, two losses."""
    draw = random.Random(lines)
    return chained(lines, lambda i: skip_step(
        i, draw.randint(2, CHAIN_MAX_SKIP) if random_skip else CHAIN_SKIP))


def chained(lines: int, step) -> str:
    """The header, `step(i)` for i = 1, 2, ... with a tensor segment every
    CHAIN_TENSOR_EVERY steps instead, until about `lines` lines, two losses."""
    decls, defs = header()
    i = 0
    while len(decls) + len(defs) + 12 < lines:
        i += 1
        more_decls, more_defs = tensor_step(i) if i % CHAIN_TENSOR_EVERY == 0 else step(i)
        decls += more_decls
        defs += more_defs
    tail_decls, tail_defs = two_losses(f"c{i}", f"c{i // 2}")
    return "\n".join(interleave(decls, defs) + tail_decls + tail_defs) + "\n"


def interleave(decls: list[str], defs: list[str]) -> list[str]:
    """The header's declarations, then each value's `declare` next to its `define`
    (as a person writes a long program)."""
    head = [d for d in decls if not d.startswith("declare intvar")]
    intvars = [d for d in decls if d.startswith("declare intvar")]
    return head + [line for pair in zip(intvars, defs) for line in pair]


def generate_wide(lines: int) -> str:
    """Wide and shallow: many weights, each read once (p_k = tanh(x * w_k)), and
    one tensor term, summed by a balanced tree of `add` (depth log2 of the
    width), two losses."""
    width = max(2, lines // 7)
    decls = ["declare input x", "declare exp_output y", "declare input v [8]",
             "declare weight W [4, 8]", "declare weight u [4]"]
    defs = []
    for k in range(width):
        decls += [f"declare weight w{k}", f"declare intvar q{k}", f"declare intvar p{k}"]
        defs += [f"define q{k} = mul x w{k}", f"define p{k} = tanh q{k}"]
    decls += ["declare intvar t [4]", "declare intvar a [4]", "declare intvar s"]
    defs += ["define t = matmul W v", "define a = tanh t", "define s = dot a u"]
    level, names = 0, [f"p{k}" for k in range(width)] + ["s"]
    while len(names) > 1:
        level += 1
        pairs = [names[j:j + 2] for j in range(0, len(names), 2)]
        names = [f"s{level}_{j}" if len(p) == 2 else p[0] for j, p in enumerate(pairs)]
        for name, pair in zip(names, pairs):
            if len(pair) == 2:
                decls.append(f"declare intvar {name}")
                defs.append(f"define {name} = add {pair[0]} {pair[1]}")
    tail_decls, tail_defs = two_losses(names[0], "p0")
    return "\n".join(decls + tail_decls + [""] + defs + tail_defs) + "\n"


def nested_expr(i: int, depth: int, back: int) -> str:
    """An expression `depth` parentheses deep over c_{i-1} and c_{i-back}."""
    expr = f"c{i - 1}"
    for level in range(depth):
        expr = "(" + NESTED_STEPS[(i + level) % len(NESTED_STEPS)].format(
            e=expr, skip=f"c{max(i - back, 0)}",
            k=(i + level) // len(NESTED_STEPS) % SCALAR_WEIGHTS) + ")"
    return expr[1:-1]


def generate_nested(lines: int) -> str:
    """Deep nesting: each definition a parenthesised expression 1..NESTED_DEPTH
    deep (lowered to one definition per op by the front end) over the previous
    value and one CHAIN_SKIP back; a tensor segment every CHAIN_TENSOR_EVERY steps."""
    return chained(lines, lambda i: ([f"declare intvar c{i}"], [
        f"define c{i} = {nested_expr(i, 1 + i % NESTED_DEPTH, CHAIN_SKIP)}"]))


SHAPES = {
    "mix": generate_mix,
    "chain": generate_chain,
    "chain-random": lambda lines: generate_chain(lines, random_skip=True),
    "wide": generate_wide,
    "nested": generate_nested,
}


def generate(lines: int, shape: str = "mix") -> str:
    """A shape program of about `lines` lines, of one of SHAPES."""
    return SHAPES[shape](lines)


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
    head = ("| shape | lines | level | runs | parse s | compile s | total s | CPU s "
            "| CPU s per 1k lines |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    body = [f"| {shape} | {n:,} | -O{lv} | {r} | {p:.2f} | {c:.2f} | {p + c:.2f} | {cpu:.2f} "
            f"| {cpu / n * 1000:.3f} |" for shape, n, lv, r, p, c, cpu in rows]
    return "\n".join([head, *body])


def environment() -> str:
    return (f"Python {platform.python_version()} on {platform.machine()}, "
            f"{platform.system()}; {time.strftime('%Y-%m-%d')}; load average "
            + " ".join(f"{x:.2f}" for x in os.getloadavg()) + " at the end")


def run_benchmark(shapes: list[str], sizes: list[int], levels: list[int], runs: int,
                  slow: float) -> str:
    rows = []
    for shape in shapes:
        for size in sizes:
            text = generate(size, shape)
            for level in levels:
                parse_s, compile_s, cpu_s, done = measure(text, level, runs, slow)
                rows.append((shape, count_lines(text), level, done, parse_s, compile_s, cpu_s))
                print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    return table(rows)


def profile(shape: str, size: int, level: int, top: int) -> str:
    """cProfile of parse + compile of one generated program, by cumulative and own time."""
    text = generate(size, shape)
    profiler = cProfile.Profile()
    profiler.runcall(lambda: compile_gradient(parse(text, shape_program=True), level))
    out = io.StringIO()
    for order in ("cumulative", "tottime"):
        pstats.Stats(profiler, stream=out).strip_dirs().sort_stats(order).print_stats(top)
    return out.getvalue()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", nargs="+", choices=list(SHAPES), default=list(SHAPES),
                        help="program shapes to generate (default: all)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slow", type=float, default=30.0,
                        help="run a size once when its first run takes longer (seconds)")
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_compile.md")))
    parser.add_argument("--profile", type=int, metavar="LINES",
                        help="profile one program of this size (the first --shape) instead")
    parser.add_argument("--level", type=int, default=1, help="level for --profile")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--write", metavar="FILE", help="write the first --shape's program "
                        "of the first --sizes size to FILE and stop")
    args = parser.parse_args(argv)
    if args.write:
        Path(args.write).write_text(generate(args.sizes[0], args.shape[0]))
        return
    if args.profile:
        print(profile(args.shape[0], args.profile, args.level, args.top))
        return
    result = run_benchmark(args.shape, args.sizes, args.levels, args.runs, args.slow)
    print(result)
    command = " ".join(["PYTHONPATH=. python bench/bench_compile.py", *sys.argv[1:]])
    text = (f"# Compile benchmark\n\n`{command.strip()}`; "
            f"{environment()}. Median of {args.runs} runs (one where a run takes more "
            f"than {args.slow:g} s).\n\n{result}\n")
    Path(args.out).write_text(text + notes_of(Path(args.out)))


def notes_of(path: Path) -> str:
    """The sections (`## ...`) of an earlier results file, kept below the new table."""
    old = path.read_text() if path.exists() else ""
    start = old.find("\n## ")
    return "" if start < 0 else old[start:]


if __name__ == "__main__":
    main()
