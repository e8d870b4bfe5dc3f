#!/usr/bin/env python3
"""A convolution's bias and relu as one fused loop against numpy's two calls, in one process.

    python bench/bench_fused_bias.py            # prints the table

The program is the digits LeNet's `define a = add z c` (c a bias [C, 1, 1])
then `define r = relu a`, planned as tfweightcalc plans a batch of 64
(interp/planning/fusion.py's small-batch rule); the fused call is the plan's own
`F.fused_1` (interp/backends/cpu_loops.py: the C loop, its inner loop over a plane),
numpy's the unfused plan's `xp.add` and `maximum`.  Both results are checked
to be the same bits first.  Each figure is the best of `--repeats` rounds of
`--number` calls, the two alternated round by round; run it with
OMP_NUM_THREADS=1 to match docs/guide/performance.md's figures (one thread).
"""
from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tenflang  # noqa: E402
from tenflang.interp import make_plan  # noqa: E402
from tenflang.interp.runtime.codegen import FORWARDS, build  # noqa: E402
from tenflang.interp.backends.cpu_loops import functions  # noqa: E402

BATCH = 64
LAYERS = [(16, 8, 8), (32, 4, 4)]       # the digits LeNet's two convolutions' outputs


def program(shape: tuple) -> str:
    dims = ", ".join(map(str, shape))
    return (f"declare input z [{dims}]\ndeclare weight c [{shape[0]}, 1, 1]\n"
            f"declare intvar a [{dims}]\ndeclare output r [{dims}]\n"
            "define a = add z c\ndefine r = relu a\n")


def run(shape: tuple, dtype: str, number: int, repeats: int) -> tuple[float, float]:
    plan = make_plan(tenflang.parse(program(shape)), {"z", "c"})
    groups = build(plan, None, True, small=True)[2]
    if len(groups) != 1:
        raise SystemExit(f"{shape}: the bias and relu are not one fused group here")
    fused = functions(groups)["fused_1"]
    rng = np.random.default_rng(0)
    z = rng.standard_normal((BATCH,) + shape).astype(dtype)
    c = rng.standard_normal((1, shape[0], 1, 1)).astype(dtype)
    a_out, r_out, a = np.empty_like(z), np.empty_like(z), np.empty_like(z)
    relu = FORWARDS.relu

    def loop():
        return fused(dtype, z, c, out=(a_out, r_out))[-1]

    def two_calls():
        np.add(z, c, out=a)
        return relu(np, a)
    if loop().tobytes() != two_calls().tobytes():
        raise SystemExit(f"{shape} {dtype}: the fused loop gives other bits than numpy")
    best = [float("inf"), float("inf")]
    for _ in range(repeats):
        for i, call in enumerate((loop, two_calls)):
            best[i] = min(best[i], timeit.timeit(call, number=number) / number * 1e6)
    return best[0], best[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"| [C, H, W] (batch {BATCH}) | dtype | fused loop µs | numpy add + relu µs |")
    print("|---|---|---:|---:|")
    for shape in LAYERS:
        for dtype in ("float32", "float64"):
            loop, numpy_ = run(shape, dtype, args.number, args.repeats)
            print(f"| {list(shape)} | {dtype} | {loop:.1f} | {numpy_:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
