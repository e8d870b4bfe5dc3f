#!/usr/bin/env python3
"""Grouped convolution (`conv2d x K stride pad groups`) on the native path and
the numpy path, against the same work as ungrouped native convolutions.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/bench_grouped_conv.py
    ... --dtype float64 --repeats 9 --threads 2 --only depthwise

Cases (batch, channels, plane, filters, kernel, pad, groups; stride 1):

* ``alexnet2`` — AlexNet's second layer, its two towers: [8, 96, 27, 27],
  256 filters 5×5, pad 2, 2 groups.
* ``depthwise`` — [32, 64, 28, 28], 64 filters 3×3, pad 1, 64 groups.
* ``resnext`` — ResNeXt's grouped 3×3: [32, 128, 14, 14], 128 filters, pad 1,
  32 groups (4 channels a group).

For each: the forward, `conv2d_image_grad` and `conv2d_kernel_grad_sum`
(milliseconds) of

* ``native``: interp/backends/c/image_c.py with groups;
* ``numpy``: ops/convolution.py with groups, as it chooses (these sizes: the
  ungrouped op on each group's channels and filters, the results joined);
* ``numpy batched``: the same with one GEMM batched over the groups
  (`GROUP_LOOP_COLUMNS` set past every size);
* ``native split``: the same work as G ungrouped native convolutions of the
  groups' channels, made contiguous before timing (the speed to reach).

Each figure is the median of `--repeats` rounds, the implementations
interleaved round by round, on `--threads` loop threads and BLAS threads
(threadpoolctl; the BLAS kernel it reports is printed).  Results are
checked against the numpy path before timing.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tenflang.ops import convolution as cv  # noqa: E402

# batch, channels, height = width, filters, kernel, pad, groups
CASES = {"alexnet2": (8, 96, 27, 256, 5, 2, 2), "depthwise": (32, 64, 28, 64, 3, 1, 64),
         "resnext": (32, 128, 14, 128, 3, 1, 32)}
OPS = ("conv2d", "conv2d_image_grad", "conv2d_kernel_grad_sum")


def operands(case: str, dtype: str):
    b, c, h, f, k, pad, groups = CASES[case]
    r = np.random.default_rng(0)
    x = r.standard_normal((b, c, h, h)).astype(dtype)
    K = r.standard_normal((1, f, c // groups, k, k)).astype(dtype)
    g = r.standard_normal((b, f, cv.out_size(h, k, 1, pad), cv.out_size(h, k, 1, pad)))
    return x, K, g.astype(dtype), pad, groups


def calls(module, x, K, g, pad, groups) -> dict:
    """op -> a call of `module`'s op with groups."""
    return {"conv2d": lambda: module.conv2d(np, x, K, 1, pad, groups),
            "conv2d_image_grad": lambda: module.conv2d_image_grad(np, g, K, x, 1, pad, groups),
            "conv2d_kernel_grad_sum":
                lambda: module.conv2d_kernel_grad_sum(np, g, x, K, 1, pad, groups)}


def split_calls(module, x, K, g, pad, groups) -> dict:
    """op -> the G ungrouped calls of `module` on the groups' slices (contiguous
    copies made here)."""
    cg, fg = x.shape[1] // groups, K.shape[1] // groups

    def slices(i):
        return x[:, i * cg:(i + 1) * cg], K[:, i * fg:(i + 1) * fg], g[:, i * fg:(i + 1) * fg]
    parts = [tuple(np.ascontiguousarray(a) for a in slices(i)) for i in range(groups)]
    each = [calls(module, xi, Ki, gi, pad, 1) for xi, Ki, gi in parts]
    return {op: (lambda op=op: [e[op]() for e in each]) for op in OPS}


def batched(ops: dict) -> dict:
    """`ops` with the numpy path's groups batched into one GEMM, whatever their size."""
    def call(f):
        least, cv.GROUP_LOOP_COLUMNS = cv.GROUP_LOOP_COLUMNS, 1 << 62
        try:
            return f()
        finally:
            cv.GROUP_LOOP_COLUMNS = least
    return {op: (lambda f=f: call(f)) for op, f in ops.items()}


def contenders(case: str, dtype: str) -> dict:
    from tenflang.interp.backends.c import image_c
    args = operands(case, dtype)
    return {"native": calls(image_c, *args), "numpy": calls(cv, *args),
            "numpy batched": batched(calls(cv, *args)),
            "native split": split_calls(image_c, *args)}


def checked(impls: dict, dtype: str) -> None:
    """Every result equals the numpy path's to round-off."""
    tolerance = 1e-4 if dtype == "float32" else 1e-10
    for op in OPS:
        want = impls["numpy"][op]()
        for name in ("native", "numpy batched"):
            got = impls[name][op]()
            scale = float(np.abs(want).max())
            assert float(np.abs(got - want).max()) <= tolerance * scale, (name, op)


def timed(impls: dict, repeats: int) -> dict:
    """(implementation, op) -> median milliseconds, interleaved rounds."""
    times: dict = {}
    for _ in range(repeats):
        for name, ops in impls.items():
            for op, call in ops.items():
                start = time.perf_counter()
                call()
                times.setdefault((name, op), []).append(time.perf_counter() - start)
    return {key: 1e3 * float(np.median(t)) for key, t in times.items()}


def blas_kernels() -> str:
    from threadpoolctl import threadpool_info
    return "; ".join(f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')} "
                     f"({i['num_threads']} threads)"
                     for i in threadpool_info() if i.get("user_api") == "blas")


def main() -> int:
    args = parse_args()
    os.environ["TENFLANG_NUM_THREADS"] = str(args.threads)
    from threadpoolctl import threadpool_limits
    names = ("native", "numpy", "numpy batched", "native split")
    with threadpool_limits(args.threads):
        print(f"# Grouped conv2d, {args.dtype}, {args.threads} thread(s), medians of "
              f"{args.repeats} interleaved rounds (ms)\n\nBLAS: {blas_kernels()}; "
              f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')}, "
              f"OPENBLAS_L2_SIZE={os.environ.get('OPENBLAS_L2_SIZE')}\n")
        print("| case | op | " + " | ".join(names) + " | native / split |")
        print("|---|---|" + "---:|" * (len(names) + 1))
        for case in args.only:
            impls = contenders(case, args.dtype)
            checked(impls, args.dtype)
            ms = timed(impls, args.repeats)
            for op in OPS:
                row = " | ".join(f"{ms[(n, op)]:.1f}" for n in names)
                ratio = ms[("native", op)] / ms[("native split", op)]
                print(f"| {case} {CASES[case]} | {op} | {row} | {ratio:.2f}× |", flush=True)
    return 0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float32")
    parser.add_argument("--only", nargs="+", choices=list(CASES), default=list(CASES))
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
