#!/usr/bin/env python3
"""The seed's four networks at their real size, trained by `tfweightcalc`
against PyTorch eager CPU (whole processes).

    python bench/bench_seed_networks.py --torch-python /tmp/benchvenv/bin/python
    python bench/bench_seed_networks.py --only googlenet --batches 1 --threads 1
    python bench/bench_seed_networks.py --batches 1 4 16 --runs 3     # 16: heavy on 2 cores
    python bench/bench_seed_networks.py --quick       # GoogLeNet, batch 1, 1 and 2 steps

The networks are samples/alexnet.tf, googlenet.tf, resnet50.tf and vgg16.tf
(3x224x224 images, 1000 classes); PyTorch's are seed_networks_reference.py's,
the same layers (their parameter counts are checked equal to the GCP's before
anything is timed).  Each side: load random images (`IMAGES` of them, float32),
take N plain SGD steps (lr `LR`) at batch B in float32, write the weights —
`tfweightcalc GCP DATA --optimizer sgd --batch-size B --max-iters N --dtype
float32` against `seed_networks_reference.py train` run by --torch-python (a
venv with torch: it is never a dependency of this project; without it the
PyTorch side is left out with a note).

As bench_convnets.py (whose helpers this imports): fresh processes timed by
bench_process.run_process (wall, peak RSS, CPU of all threads), interleaved,
the order rotated every round; per step = (median wall of N_long steps −
median of N_short) / (N_long − N_short), so that start-up, compile, load and
write cancel; peak RSS is the long runs'.  Threads: the default, and 1.
Before the counted runs, one uncounted one-step run of each side with the
C loop cache as it is found: "one-step run" below, what a user waits for on
a first try (start-up, tfweightcalc compiling the plan's C loops where the
cache lacks them, the step, ResNet-50's batch statistics, writing).

The children run without $OPENBLAS_CORETYPE and $OPENBLAS_L2_SIZE (whatever
this process has), and the report gives numpy's BLAS kernel (threadpoolctl,
read in such a child) and PyTorch's own (torch.__config__).

Targets: per step ≤ 1.0× PyTorch eager, ≤ 0.8× at batch 1 and 4; peak RSS
≤ 0.8× PyTorch's at batch 16; the one-step run ≤ 2× PyTorch's.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]
from bench_convnets import environment, interleaved  # noqa: E402
from bench_process import run_process  # noqa: E402

NETS = {"alexnet": "AlexNet (Caffe, groups 2, lrn)", "googlenet": "GoogLeNet (Caffe, no aux)",
        "resnet50": "ResNet-50 (v1.5)", "vgg16": "VGG-16"}
LR = 1e-4
IMAGES = 16              # at least the largest batch: a step never repeats an image
REFERENCE = HERE / "seed_networks_reference.py"
STEP_TARGET = {1: 0.8, 4: 0.8}          # else 1.0
RSS_TARGET, RSS_BATCH, ONE_STEP_TARGET = 0.8, 16, 2.0


def prepare(workdir: Path, net: str, images: int) -> None:
    from tenflang import compile_gradient, parse
    from tenflang.lang import print_program
    gcp = print_program(compile_gradient(parse((ROOT / "samples" / f"{net}.tf").read_text())))
    (workdir / f"{net}.gcp.tf").write_text(gcp)
    data = workdir / f"images-{images}.npz"
    if not data.exists():
        r = np.random.default_rng(1)
        np.savez(data, x=r.random((images, 3, 224, 224), dtype=np.float32),
                 label=r.integers(0, 1000, images).astype(np.float64))


def gcp_weights(gcp: Path) -> int:
    from tenflang import parse
    return sum(math.prod(d.shape or ()) for d in parse(gcp.read_text()).declarations().values()
               if d.kind == "weight")


def torch_count(python: str, net: str) -> tuple[int, str]:
    out = subprocess.run([python, str(REFERENCE), "count", net], capture_output=True,
                         text=True, check=True).stdout.split(maxsplit=1)
    return int(out[0]), out[1].strip()


def commands(workdir: Path, net: str, batch: int, steps: int, impls, torch_python: str,
             images: int) -> dict:
    w, data = str(workdir), f"{workdir}/images-{images}.npz"
    out = {}
    if "tenflang" in impls:
        out["tenflang"] = [sys.executable, str(ROOT / "bin" / "tfweightcalc"), f"{w}/{net}.gcp.tf",
                           data, "--optimizer", "sgd", "--lr", str(LR), "--batch-size",
                           str(batch), "--max-iters", str(steps), "--tol", "0", "--dtype",
                           "float32", "--quiet", "-o", f"{w}/{net}-{batch}-tenflang.npz"]
    if "torch" in impls:
        out["torch"] = [torch_python, str(REFERENCE), "train", net, str(batch), str(steps),
                        str(LR), data, f"{w}/{net}-{batch}-torch.npz"]
    return out


def measure(workdir, net, batch, threads, args, impls) -> dict:
    """One row: the one-step run as found, then interleaved short and long runs."""
    short, long = args.steps
    env = environment(threads)
    ones = commands(workdir, net, batch, 1, impls, args.torch_python, args.images)
    first = {impl: run_process(cmd, env) for impl, cmd in ones.items()}
    run = lambda n: interleaved(commands(workdir, net, batch, n, impls, args.torch_python,  # noqa: E731
                                         args.images), env, args.runs, False)
    a, b = run(short), run(long)
    rows = {}
    for impl in impls:
        wall = [statistics.median(s[0] for s in r[impl]) for r in (a, b)]
        cpu = [statistics.median(s[2] for s in r[impl]) for r in (a, b)]
        rows[impl] = {"step_s": (wall[1] - wall[0]) / (long - short),
                      "cpu_s": (cpu[1] - cpu[0]) / (long - short),
                      "peak_mb": statistics.median(s[1] for s in b[impl]),
                      "first_s": first[impl][0], "first_mb": first[impl][1]}
    return rows


def verdict(value: float | None, target: float) -> str:
    if value is None:
        return "–"
    return f"{value:.2f} {'met' if value <= target else 'not met'}"


def quotient(rows, key) -> float | None:
    if "torch" not in rows or "tenflang" not in rows or rows["torch"][key] <= 0:
        return None
    return rows["tenflang"][key] / rows["torch"][key]


def table(results: dict) -> list[str]:
    lines = ["| net | batch | threads | load | step s: tenflang / PyTorch | ÷ PyTorch (target) "
             "| CPU s a step: tenflang / PyTorch | CPU ÷ | peak MB: tenflang / PyTorch "
             "| peak ÷ (≤ 0.8 at 16) | one-step run s: tenflang / PyTorch | ÷ (≤ 2) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (net, batch, threads), (rows, load) in results.items():
        def pair(key, fmt):
            return " / ".join(format(rows[i][key], fmt) if i in rows else "–"
                              for i in ("tenflang", "torch"))
        step_target = STEP_TARGET.get(batch, 1.0)
        peak = quotient(rows, "peak_mb")
        peak_text = (verdict(peak, RSS_TARGET) if batch == RSS_BATCH
                     else "–" if peak is None else f"{peak:.2f}")
        cpu = quotient(rows, "cpu_s")
        lines.append(
            f"| {NETS[net]} | {batch} | {threads} | {load:.1f} | {pair('step_s', '.2f')} "
            f"| {verdict(quotient(rows, 'step_s'), step_target)} (≤ {step_target}) "
            f"| {pair('cpu_s', '.2f')} | {'–' if cpu is None else f'{cpu:.2f}'} "
            f"| {pair('peak_mb', '.0f')} | {peak_text} | {pair('first_s', '.1f')} "
            f"| {verdict(quotient(rows, 'first_s'), ONE_STEP_TARGET)} |")
    return lines


def numpy_blas() -> str:
    """numpy's BLAS as threadpoolctl reads it in a child of the benchmark's environment."""
    code = ("import tenflang, numpy\nfrom threadpoolctl import threadpool_info\n"
            "print('; '.join(f\"{i.get('internal_api')} {i.get('version')} "
            "{i.get('architecture')}, {i.get('num_threads')} threads\" "
            "for i in threadpool_info() if i.get('user_api') == 'blas') or 'none found')")
    done = subprocess.run([sys.executable, "-c", code], env=environment("default"),
                          capture_output=True, text=True)
    return done.stdout.strip() or f"threadpoolctl failed: {done.stderr.strip()[-200:]}"


def torch_blas(python: str) -> str:
    done = subprocess.run([python, str(REFERENCE), "info"], env=environment("default"),
                          capture_output=True, text=True)
    return done.stdout.strip() or f"failed: {done.stderr.strip()[-200:]}"


def header(args, argv, started, notes) -> list[str]:
    short, long = args.steps
    return ["# The seed's networks at their real size: tenflang vs PyTorch eager (whole "
            "processes)", "",
            f"`env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/bench_seed_networks.py "
            f"{' '.join(argv)}` — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, "
            f"{os.cpu_count()} cores shared with other work (load: the 1-minute load average "
            f"when the row started).  float32, SGD lr {LR}, {args.images} random images; per "
            f"step = difference of whole processes of {short} and {long} steps, medians of "
            f"{args.runs} interleaved run(s); peak RSS of the {long}-step runs; one-step run: "
            f"the first process of the row, the C loop cache as found.", "",
            *(f"- {n}" for n in notes), ""]


def main(argv=None) -> int:
    args = parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    impls, notes = ["tenflang"], [f"numpy's BLAS: {numpy_blas()}"]
    try:
        torch_count(args.torch_python, "googlenet")
        impls.append("torch")
        notes.append(f"PyTorch ({args.torch_python}): {torch_blas(args.torch_python)}")
    except (subprocess.CalledProcessError, OSError, ValueError):
        notes.append(f"PyTorch not importable by {args.torch_python}: left out "
                     "(--torch-python PATH: a venv with torch).")
    started, results, text = time.time(), {}, ""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for net in args.only:
            prepare(workdir, net, args.images)
            ours = gcp_weights(workdir / f"{net}.gcp.tf")
            if "torch" in impls:
                theirs, source = torch_count(args.torch_python, net)
                notes.append(f"{NETS[net]}: {ours:,} weights in the GCP, {theirs:,} parameters "
                             f"in PyTorch's ({source}){'' if ours == theirs else ' — DIFFER'}")
                if ours != theirs:
                    continue
            for batch in args.batches:
                for threads in args.threads:
                    load = os.getloadavg()[0]
                    results[(net, batch, threads)] = (
                        measure(workdir, net, batch, threads, args, impls), load)
                    text = "\n".join(header(args, argv, started, notes) + table(results)) + "\n"
                    print(table(results)[-1], flush=True)
                    if args.out:        # after every row: a run stopped early keeps its rows
                        Path(args.out).write_text(text)
    print(text)
    return 0


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", default=list(NETS), choices=list(NETS))
    p.add_argument("--batches", nargs="+", type=int, default=[1, 4],
                   help="Batch sizes (16 too: heavy on a 2-core machine).")
    p.add_argument("--threads", nargs="+", default=["default", "1"], choices=["default", "1"])
    p.add_argument("--steps", nargs=2, type=int, default=[1, 3], metavar=("SHORT", "LONG"))
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--images", type=int, default=IMAGES)
    p.add_argument("--torch-python", default=sys.executable,
                   help="The interpreter that runs the PyTorch side (default: this one).")
    p.add_argument("--quick", action="store_true",
                   help="A smoke run: GoogLeNet, batch 1, default threads, 1 and 2 steps, once.")
    p.add_argument("--out", default=str(HERE / "results_seed_networks.md"))
    args = p.parse_args(argv)
    if args.quick:
        args.only, args.batches, args.threads, args.steps, args.runs = (
            ["googlenet"], [1], ["default"], [1, 2], 1)
    if args.steps[0] >= args.steps[1]:
        p.error("--steps: SHORT must be less than LONG")
    args.images = max(args.images, *args.batches)
    return args


if __name__ == "__main__":
    sys.exit(main())
