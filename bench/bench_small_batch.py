#!/usr/bin/env python3
"""A small batch's training step with the CPU's C paths switched on one by one.

    OMP_NUM_THREADS=1 python bench/bench_small_batch.py            # prints the table
    python bench/bench_small_batch.py --rounds 9 --dtypes float64

The step is bench_convnets.py's "mlp" (its program, data and initial
weights: 64-128-10, a tanh hidden layer, softmax cross-entropy) on its first
batch of 32 digits, the mean gradient of one `run_plan` as tfweightcalc
computes it, timed in a fresh process per configuration (the switches are
read once per process):

* numpy: every step a numpy call (TENFLANG_FUSE=0, TENFLANG_NATIVE=0);
* + row kernels: softmax, log_softmax and one_hot one C call each
  (interp/backends/c/rows_c.py; TENFLANG_FUSE=0);
* + fused loops: the small-batch rule without vector math (c_loops.vector_math
  made to answer False in that process): chains calling tanh or exp stay numpy's;
* + vector math: everything, as a run gets it (interp/backends/c/c_loops.py): the tanh
  layer and its gradient fused, calling libmvec's vector forms in float64.

Per configuration: the median over interleaved rounds (the order reversed every
other round) of each process's best of 5 × 300 steps, in µs.  Each process first
checks its gradients against the numpy configuration's to 1e-12 (float64) or
1e-5 (float32), relative.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = {                     # name -> (environment, vector math allowed)
    "numpy": ({"TENFLANG_FUSE": "0", "TENFLANG_NATIVE": "0"}, False),
    "+ row kernels": ({"TENFLANG_FUSE": "0", "TENFLANG_NATIVE": "1"}, False),
    "+ fused loops": ({"TENFLANG_FUSE": "1", "TENFLANG_NATIVE": "1"}, False),
    "+ vector math": ({"TENFLANG_FUSE": "1", "TENFLANG_NATIVE": "1"}, True),
}


def child(dtype: str, vector: bool) -> dict:
    """In the configuration's process: the step's gradients and its time."""
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from bench_convnets import CASES, initial_weights, make_data, program
    import tenflang
    from tenflang.native import malloc
    from tenflang.interp.backends.c import c_loops
    from tenflang.interp import run_plan
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    if not vector:
        c_loops.vector_math = lambda: False
    malloc.keep_freed_memory()
    spec = CASES["mlp"]
    gcp = tenflang.compile_gradient(tenflang.parse(program(spec)))
    plan = gradient_plan(gcp, signature(gcp))
    data = {k: v[:spec.batch].astype(dtype) for k, v in make_data(spec).items()}
    data |= {k: v.astype(dtype) for k, v in initial_weights(spec).items()}
    step = lambda: run_plan(plan, data, dtype=dtype, reduce="mean")    # noqa: E731
    grads = {k: v.tolist() for k, v in step().items()}
    best = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(300):
            step()
        best.append((time.perf_counter() - start) / 300 * 1e6)
    return {"us": min(best), "grads": grads}


def run(name: str, dtype: str) -> dict:
    env, vector = CONFIGS[name]
    out = subprocess.run([sys.executable, __file__, "--child", dtype, str(int(vector))],
                         env={k: v for k, v in os.environ.items()
                              if k != "PYTHONDONTWRITEBYTECODE"} | env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def close(a: dict, b: dict, dtype: str) -> bool:
    import numpy as np
    tol = 1e-12 if dtype == "float64" else 1e-5
    return all(np.allclose(a[k], b[k], rtol=tol, atol=tol * np.abs(b[k]).max()) for k in b)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--dtypes", nargs="+", default=["float64", "float32"])
    p.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1] == "1")))
        return 0
    print(f"| dtype | {' | '.join(CONFIGS)} |\n|---|{'---:|' * len(CONFIGS)}")
    for dtype in args.dtypes:
        times = {name: [] for name in CONFIGS}
        reference = None
        for i in range(args.rounds):
            for name in CONFIGS if i % 2 == 0 else reversed(CONFIGS):
                got = run(name, dtype)
                reference = reference or (got if name == "numpy" else None)
                if reference and not close(got["grads"], reference["grads"], dtype):
                    raise SystemExit(f"{name} ({dtype}): gradients differ from numpy's")
                times[name].append(got["us"])
        cells = [f"{statistics.median(times[name]):.0f} µs" for name in CONFIGS]
        print(f"| {dtype} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
