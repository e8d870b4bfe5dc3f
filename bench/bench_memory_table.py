#!/usr/bin/env python3
"""`tfcompiler --memory`'s peak against the resident memory a training step takes.

    python bench/bench_memory_table.py              # writes bench/results_memory_table.md
    python bench/bench_memory_table.py --only lenet_digits.tf --batches 16 --out /tmp/m.md

For each convolutional sample (samples/*.tf with a `conv2d`), batch and dtype,
a fresh process (OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, as a user's
shell has them) compiles the GCP and runs tfweightcalc's gradient plan once
on zero-filled data and the initial weights to warm up (code generated, C
kernels compiled, BLAS started), frees it all and hands freed memory back to
the system (`malloc_trim`), reads its resident size (VmRSS), resets the
high-water mark (`/proc/self/clear_refs`, 5), makes the data and weights
again and runs one step (`Engine.run`, a batch mean, fresh buffers), then
reads the high-water mark (VmHWM).  RSS = VmHWM − VmRSS before: the step
with its data and weights, what the table counts.  Then the same step again
under tracemalloc (numpy reports its arrays' bytes to it): traced = its peak,
the arrays alone, to the byte.  Ratios are to the table's peak.  Linux only
(/proc); RSS is in pages of what was touched (a small batch reads pages of
rounding, allocator slack and the Python objects a step makes).
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.paths import SAMPLES  # noqa: E402  (the samples the tests train)

BATCHES = (1, 4, 16)
DTYPES = ("float64", "float32")


def convolutional_samples() -> list[str]:
    """The test corpus's (tests/support/paths.py): the ImageNet-size networks
    are measured with `--only resnet50.tf --batches 1` and the like."""
    return sorted(p.name for p in SAMPLES if "conv2d" in p.read_text())


def status(field: str) -> int:
    """A /proc/self/status field in bytes (VmRSS, VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def child(sample: str, batch: int, dtype: str) -> dict:
    """One measurement, in this (fresh) process: see the module docstring."""
    import numpy as np
    import tenflang
    from tenflang.backprop import compile_gradient
    from tenflang.interp.engine import Engine
    from tenflang.interp.runtime.memory import Buffers
    from tenflang.interp.runtime.memory_table import step_memory
    from tenflang.ops.entries import Reduction
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import initial_weights, signature
    gcp = compile_gradient(tenflang.parse_file(str(ROOT / "samples" / sample), shape_program=True))
    sig, engine = signature(gcp), Engine()
    plan = gradient_plan(gcp, sig)
    table = step_memory(plan, batch, dtype)

    def arrays() -> dict:          # np.full writes every page (np.zeros would not)
        data = {n: np.full((batch, *s), 0.0, dtype) for n, s in sig.inputs.items()}
        return data | {n: w.astype(dtype) for n, w in initial_weights(sig, 0).items()}

    def step():
        return engine.run(plan, arrays(), dtype=dtype, reduce=Reduction.MEAN, buffers=Buffers())

    step()                            # warm-up: code, kernels, BLAS threads
    gc.collect()
    ctypes.CDLL(None).malloc_trim(0)
    before = status("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")
    step()
    measured = status("VmHWM") - before
    gc.collect()
    tracemalloc.start()               # numpy reports its arrays' memory to tracemalloc
    step()
    return {"table": table.total(table.peak().live), "measured": measured,
            "traced": tracemalloc.get_traced_memory()[1]}


def blas_kernel() -> str:
    from threadpoolctl import threadpool_info
    import numpy  # noqa: F401  (loads its BLAS)
    blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    return ", ".join(f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')} "
                     f"({i.get('num_threads')} threads)" for i in blas) or "unknown"


def measure(sample: str, batch: int, dtype: str) -> dict:
    from bench_process import as_users
    env = as_users(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, __file__, "--child", sample, str(batch), dtype],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def report(rows: list[tuple], kernel: str) -> str:
    lines = [f"# `tfcompiler --memory` against a step's resident memory\n",
             f"`python bench/bench_memory_table.py` (bench/bench_memory_table.py: how). "
             f"BLAS: {kernel}. A shared, noisy machine: RSS, not times.\n",
             "| sample | dtype | batch | table peak | RSS | RSS / table | traced | traced / table |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for sample, dtype, batch, r in rows:
        lines.append(f"| {sample} | {dtype} | {batch} | {r['table']:,} | {r['measured']:,} | "
                     f"{r['measured'] / r['table']:.2f} | {r['traced']:,} | "
                     f"{r['traced'] / r['table']:.2f} |")
    lines.append("\nBytes.  RSS: the step's peak resident memory over the process's before it; "
                 "traced: tracemalloc's peak of the same step.")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--only", action="append", help="a sample file name (repeatable)")
    parser.add_argument("--batches", type=int, nargs="+", default=list(BATCHES))
    parser.add_argument("--dtypes", nargs="+", default=list(DTYPES), choices=DTYPES)
    parser.add_argument("--out", default=str(HERE / "results_memory_table.md"))
    args = parser.parse_args()
    if args.child:
        sample, batch, dtype = args.child
        print(json.dumps(child(sample, int(batch), dtype)))
        return
    rows = []
    for sample in args.only or convolutional_samples():
        for dtype in args.dtypes:
            for batch in args.batches:
                rows.append((sample, dtype, batch, measure(sample, batch, dtype)))
                print(*rows[-1], flush=True)
    text = report(rows, blas_kernel())
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
