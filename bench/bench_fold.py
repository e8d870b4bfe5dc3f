"""Compile cost of `fold` (docs/guide/language.md §2.13): parse + compile_gradient of a
fold of T steps over a small tanh cell, T = 1 000 and 10 000, at -O0 and -O1.

    PYTHONPATH=. python bench/bench_fold.py
    PYTHONPATH=. python bench/bench_fold.py --steps 1000 10000 100000

CPU time (`time.process_time`: other processes on a shared machine do not
count) of parse (grammar, macro and loop expansion, checks), compile (the
reverse sweep, -O1's simplification, the check of the GCP) and printing; the
GCP's lines.  Linear in the steps means 10x the steps costs about 10x.
"""
from __future__ import annotations

import argparse
import time

from tenflang.backprop import compile_gradient
from tenflang.lang import parse, print_program

PROGRAM = """macro rnn_cell h x W U b -> hn
  define hn = tanh (add (add (matmul W x) (matmul U h)) b)
end
declare input xs [{steps}, 3]
declare weight W [2, 3]
declare weight U [2, 2]
declare weight b [2]
declare weight h0 [2]
declare output hT
declare loss l
define hT = fold rnn_cell h0 xs W U b
define l = sum hT
"""


def measure(steps: int, level: int) -> tuple[float, float, float, int]:
    text = PROGRAM.format(steps=steps)
    start = time.process_time()
    program = parse(text, "fold.tf", shape_program=True)
    parsed = time.process_time()
    gcp = compile_gradient(program, level)
    compiled = time.process_time()
    out = print_program(gcp)
    return parsed - start, compiled - parsed, time.process_time() - compiled, out.count("\n")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--steps", type=int, nargs="+", default=[1000, 10000])
    args = options.parse_args()
    print("| steps | level | parse s | compile s | print s | total s | GCP lines |")
    print("|---|---|---|---|---|---|---|")
    for steps in args.steps:
        for level in (0, 1):
            parse_s, compile_s, print_s, lines = measure(steps, level)
            total = parse_s + compile_s + print_s
            print(f"| {steps} | -O{level} | {parse_s:.2f} | {compile_s:.2f} | {print_s:.2f} "
                  f"| {total:.2f} | {lines} |")


if __name__ == "__main__":
    main()
