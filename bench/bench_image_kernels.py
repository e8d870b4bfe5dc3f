#!/usr/bin/env python3
"""The column kernels of tenflang/interp/backends/c/image_kernels.c (`im2col`, `col2im`) alone,
against those of another checkout, in one process.

    python bench/bench_image_kernels.py                       # this checkout's kernels
    git archive OLD | tar -x -C /tmp/old && python bench/bench_image_kernels.py --baseline /tmp/old

It prints a table and writes it to bench/results_image_kernels.md (`--out`).

Cases (batch, channels, plane, kernel, pad; stride 1): the digits LeNet's two
layers, LeNet-5-sized 12×12 planes with a 5×5 kernel, and an unpadded 4×4
plane (whose col2im takes the general loops).  Both builds are compiled with
image_c.py's flags and dtype float32; before timing, their outputs are checked
to be the same bits.  Each figure is the best of `--repeats` rounds of
`--number` calls, the builds alternated round by round, one thread (the
kernels' own range: all examples).
"""
from __future__ import annotations

import argparse
import sys
import time
import timeit
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tenflang.native import clib, cpython  # noqa: E402
from tenflang.interp.backends.c import image_c  # noqa: E402

CASES = [(64, 16, 4, 3, 1), (64, 1, 8, 3, 1), (64, 6, 12, 5, 2), (64, 16, 4, 3, 0)]


def build(root: Path):
    """The float32 kernels of the checkout at `root` (WIDE defined before them as
    image_c does; a checkout that defines it itself redefines it identically)."""
    source = (root / "tenflang" / "interp" / "image_kernels.c").read_text()
    return image_c.declared(clib.library(f"#define TYPE float\n{clib.WIDE}\n" + source,
                                           image_c.FLAGS))


def run(libs: dict, case: tuple, number: int, repeats: int) -> dict:
    b, c, h, k, pad = case
    ho = h + 2 * pad - k + 1
    x = np.random.default_rng(0).standard_normal((b, c, h, h)).astype(np.float32)
    sizes = (b, c, h, h, k, k, 1, pad, ho, ho)
    cols = {n: np.empty((c * k * k, b * ho * ho), np.float32) for n in libs}
    image = {n: np.empty(x.shape, np.float32) for n in libs}
    at = cpython.address
    calls = {n: (lambda lib=lib, n=n: lib.im2col(0, b, at(x), at(cols[n]), *sizes),
                 lambda lib=lib, n=n: lib.col2im(0, b, at(cols[n]), at(image[n]), *sizes))
             for n, lib in libs.items()}
    for n in libs:
        for call in calls[n]:
            call()
    first = next(iter(libs))
    for n in libs:
        if cols[n].tobytes() != cols[first].tobytes() or image[n].tobytes() != image[first].tobytes():
            raise SystemExit(f"{case}: {n}'s kernels give other bits than {first}'s")
    best = {n: [float("inf"), float("inf")] for n in libs}
    for _ in range(repeats):
        for n in libs:
            for i, call in enumerate(calls[n]):
                best[n][i] = min(best[n][i], timeit.timeit(call, number=number) / number * 1e6)
    return best


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="another checkout")
    parser.add_argument("--number", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results_image_kernels.md"))
    args = parser.parse_args(argv)
    libs = {"this": build(ROOT)} | ({"baseline": build(args.baseline)} if args.baseline else {})
    head = " | ".join(f"{n} im2col µs | {n} col2im µs" for n in libs)
    lines = ["# The column kernels alone (float32, stride 1, best of rounds)", "",
             f"`python bench/bench_image_kernels.py {' '.join(argv)}` — "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "",
             f"| batch, channels, plane, kernel, pad | {head} |",
             "|---|" + "---:|" * (2 * len(libs))]
    for case in CASES:
        best = run(libs, case, args.number, args.repeats)
        lines.append(f"| {case} | " + " | ".join(f"{best[n][0]:.1f} | {best[n][1]:.1f}"
                                                 for n in libs) + " |")
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
