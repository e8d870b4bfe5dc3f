"""Front-end benchmark: parse + macro expansion + checks on generated programs.

    python bench/bench_parse.py                       # 1k, 10k, 100k lines, median of 3
    python bench/bench_parse.py --sizes 1000 10000 --runs 5
    python bench/bench_parse.py --profile 100000      # cProfile of one run, top 25

Two program shapes, each a valid shape program of about N source lines:

* chain: one long dependency chain of scalar ops (depth ~ N/2: every variable
  costs a `declare` and a `define` line), rotating through unary and binary
  ops, weights and literals.  Anything recursive over the dependency depth
  would break here.
* wide: layers of tensor values ([16] vectors, [16, 16] matrices): matmul by
  weights, bias adds through a `dense` macro, a `block` macro calling `dense`
  (nested expansion, `h.u.t` names), transposes, outer products, softmax,
  elementwise mixes across earlier layers, sums into scalar losses.

Phases timed separately, wall clock (`time.perf_counter`), median of --runs:
`parse_source` (lark LALR + AST), `expand` (macros), `check` (declarations,
definitions, shape inference, shape-program rules).  The table also gives
microseconds per source line; the ratio column compares each size's per-line
cost with the smallest size's (about 1.0 = linear); both use CPU time
(`time.process_time`), which a busy machine does not inflate as it does wall time.
A RecursionError in any phase is reported and makes the script exit 1.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tenflang.lang import check, expand, parse_source  # noqa: E402
from tenflang.lang.syntax import paused_gc  # noqa: E402

UNARY = ("tanh", "logistic", "neg", "softplus", "relu", "abs")
BINARY = ("add", "mul", "sub", "max")
WEIGHTS = 8


def chain(lines: int) -> str:
    out = ["# generated: a long scalar chain", "declare input x", "declare exp_output y"]
    out += [f"declare weight w{k}" for k in range(WEIGHTS)]
    n = max((lines - len(out) - 2) // 2, 1)
    out += [f"declare intvar c{i}" for i in range(n)]
    out.append("declare loss l")
    out.append("define c0 = mul x w0")
    for i in range(1, n):
        if i % 3 == 0:
            rhs = f"{UNARY[i % len(UNARY)]} c{i - 1}"
        elif i % 3 == 1:
            rhs = f"{BINARY[i % len(BINARY)]} c{i - 1} w{i % WEIGHTS}"
        else:
            rhs = f"{BINARY[i % len(BINARY)]} c{i - 1} {(-1) ** i * 0.5}"
        out.append(f"define c{i} = {rhs}")
    out.append(f"define l = sub c{n - 1} y")
    return "\n".join(out) + "\n"


MACROS = """\
macro dense x W b -> y
  declare intvar t
  define t = matmul W x
  define y = add t b
end
macro block x W b -> y
  declare intvar u
  declare intvar v
  define u = dense x W b
  define v = tanh u
  define y = add v x
end
"""


def wide(lines: int, width: int = 4) -> str:
    """Layers of `width` vectors; each layer costs ~12 lines per unit."""
    head = MACROS.splitlines() + ["declare input x [16]", "declare exp_output y [16]",
                                  "declare weight M [16, 16]"]
    head += [f"declare weight W{k} [16, 16]" for k in range(width)]
    head += [f"declare weight b{k} [16]" for k in range(width)]
    decls, defs = [], []
    prev = ["x"] * width
    layer = 0
    losses = []
    while len(head) + len(decls) + len(defs) + 2 < lines:
        cur = []
        for k in range(width):
            h, g, m, s, p = (f"{n}{layer}_{k}" for n in ("h", "g", "m", "s", "p"))
            other = prev[(k + 1) % width]
            decls += [f"declare intvar {h}", f"declare intvar {g} [16]", f"declare intvar {m}",
                      f"declare intvar {s}", f"declare intvar {p}"]
            defs += [f"define {h} = block {prev[k]} W{k} b{k}" if k % 2 == 0
                     else f"define {h} = dense {prev[k]} W{k} b{k}",
                     f"define {g} = mul {h} {other}",
                     f"define {m} = outer {g} {h}" if k % 2 else f"define {m} = transpose M",
                     f"define {s} = matmul {m} {g}",
                     f"define {p} = softmax {s}"]
            cur.append(p)
        decls.append(f"declare loss loss{layer}")
        defs.append(f"define loss{layer} = dot {cur[0]} y")
        losses.append(f"loss{layer}")
        prev = cur
        layer += 1
    return "\n".join(head + decls + defs) + "\n"


GENERATORS = {"chain": chain, "wide": wide}


def run_once(text: str) -> tuple[float, float, float, int, float]:
    """Wall times of the three phases, run as `tenflang.lang.parse` runs
    them, the expanded size, and the CPU time of all three."""
    with paused_gc():
        c0 = time.process_time()
        t0 = time.perf_counter()
        raw = parse_source(text, "bench.tf")
        t1 = time.perf_counter()
        program = expand(raw)
        t2 = time.perf_counter()
        check(program, shape_program=True)
        t3 = time.perf_counter()
        c1 = time.process_time()
    return t1 - t0, t2 - t1, t3 - t2, len(program.statements), c1 - c0


def measure(text: str, runs: int):
    results = [run_once(text) for _ in range(runs)]
    phases = [statistics.median(r[i] for r in results) for i in range(3)]
    total = statistics.median(sum(r[:3]) for r in results)
    cpu = statistics.median(r[4] for r in results)
    return phases, total, cpu, results[0][3]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shapes", nargs="+", default=list(GENERATORS), choices=list(GENERATORS))
    parser.add_argument("--profile", type=int, metavar="LINES",
                        help="profile one parse+expand+check of LINES lines (each shape)")
    args = parser.parse_args(argv)

    if args.profile:
        for name in args.shapes:
            text = GENERATORS[name](args.profile)
            profiler = cProfile.Profile()
            profiler.enable()
            run_once(text)
            profiler.disable()
            buffer = io.StringIO()
            pstats.Stats(profiler, stream=buffer).sort_stats("cumulative").print_stats(25)
            print(f"== {name}, {len(text.splitlines())} lines\n{buffer.getvalue()}")
        return 0

    failed = False
    row = "{:<6} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>6}"
    print(row.format("shape", "lines", "expanded", "parse s", "expand s", "check s", "total s",
                     "cpu s", "us/line", "ratio"))
    for name in args.shapes:
        base = None
        for size in args.sizes:
            text = GENERATORS[name](size)
            lines = text.count("\n")
            try:
                phases, total, cpu, expanded = measure(text, args.runs)
            except RecursionError as err:
                print(f"{name:<6} {lines:>8}  RecursionError: {err}")
                failed = True
                continue
            per_line = cpu / lines * 1e6
            base = base or per_line
            print(row.format(name, lines, expanded, *(f"{p:.3f}" for p in phases), f"{total:.3f}",
                             f"{cpu:.3f}", f"{per_line:.1f}", f"{per_line / base:.2f}"))
    print(f"(median of {args.runs} runs; phases and total: wall clock; cpu: process time of "
          "all three, which other processes on the machine do not inflate; us/line and ratio "
          "from cpu, ratio relative to the smallest size; "
          + ("no RecursionError)" if not failed else "RecursionError: FAILED)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
