#!/usr/bin/env python3
"""A small network's training step on a quiet machine and on a busy one.

    python bench/bench_contention.py                       # LeNet (digits), prints the table
    python bench/bench_contention.py --case mlp --rounds 5 --steps 200
    python bench/bench_contention.py --spin 28             # OpenBLAS's own idle spin, to compare
    git worktree add /tmp/before COMMIT                    # (or git archive COMMIT | tar -x -C ...)
    python bench/bench_contention.py --baseline /tmp/before    # that checkout's tenflang too

The step is bench_convnets.py's network (its program, data and initial weights;
default "lenet": two 3×3 convolutions, batch 64; "attention":
samples/attention_digits.tf, a self-attention block, batch 256), the mean gradient of one
`run_plan` as tfweightcalc computes it, float64, in a fresh process per
measurement at default threads (tenflang/native/blas_threads.py), beside:

* quiet: nothing of this benchmark's;
* hogs: one CPU-bound process per CPU this process may use (`while True: pass`);
* trainer: another process training the same network without pause.

Per measurement: the median over blocks of `--steps` steps of the wall time per
step, and the measured process's CPU time (user + system, every thread) over
its wall time in those blocks (above 1 while its threads run at once; threads
that spin while waiting push it up without doing work), and its CPU time per
step (steadier than the wall time where other work takes the cores).  Per condition: the
median over `--rounds` interleaved rounds; ratio: the condition's step over the
quiet one's.  With `--baseline DIR` every measurement is made with that
checkout's tenflang too (the process beside running the same checkout),
interleaved with this one's.  Target (the issue): under contention a step costs at most 2.5×
its quiet time.

This benchmark's own children run without $OPENBLAS_CORETYPE and
$OPENBLAS_L2_SIZE, and report the BLAS kernel that ran (threadpoolctl).  On a
machine shared with other work the figures are noisy: give the load average
with them (it is printed).
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CONDITIONS = ("quiet", "hogs", "trainer")
ATTENTION = ROOT / "samples" / "attention_digits.tf"   # a small transformer encoder block
BATCH = {"attention": 256}
HOG = "while True: pass"


def child_env(spin: str | None, root: Path = ROOT) -> dict:
    """The children's environment: `root`'s tenflang, no BLAS kernel or cache size
    forced on OpenBLAS; `spin`: $OPENBLAS_THREAD_TIMEOUT for them (None: TenFlang's
    default)."""
    from bench_process import as_users
    env = {k: v for k, v in as_users(os.environ).items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(HERE), env.get("PYTHONPATH", "")])
    return env | ({"OPENBLAS_THREAD_TIMEOUT": spin} if spin else {})


def stepper(case: str):
    """The network's gradient step, a function of nothing (bench_convnets' data).
    tenflang is imported first, before numpy, as a user's program should
    (OpenBLAS reads its settings as numpy loads it: docs/guide/performance.md)."""
    import tenflang
    from bench_convnets import CASES, initial_weights, make_data, program
    from tenflang.interp import run_plan
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    spec = CASES["lenet" if case == "attention" else case]
    text = ATTENTION.read_text() if case == "attention" else program(spec)
    gcp = tenflang.compile_gradient(tenflang.parse(text))
    plan = gradient_plan(gcp, signature(gcp))
    data = {k: v[:BATCH.get(case, spec.batch)] for k, v in make_data(spec).items()}
    data |= attention_weights() if case == "attention" else initial_weights(spec)
    return lambda: run_plan(plan, data, reduce="mean")


def attention_weights() -> dict:
    """samples/attention_digits.tf's weights: normal, 1/sqrt(fan-in); the norm's scale 1."""
    import numpy as np
    import tenflang
    rng = np.random.default_rng(2)
    weights = {d.name: d.shape or () for d in tenflang.parse(ATTENTION.read_text())
               .declarations().values() if d.kind == "weight"}
    return {k: np.ones(s) if k == "gamma" else rng.normal(0, s[-1] ** -0.5 if s else 1, s)
            for k, s in weights.items()}


def measure(case: str, steps: int, blocks: int) -> dict:
    """In the measured process: per-step wall time and CPU / wall, and the BLAS."""
    step = stepper(case)
    for _ in range(steps // 4 + 1):
        step()
    walls, cpus = [], []
    for _ in range(blocks):
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(steps):
            step()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {"step_ms": statistics.median(walls) / steps * 1e3,
            "cpu_ms": statistics.median(cpus) / steps * 1e3,
            "cpu_per_wall": sum(cpus) / sum(walls), "blas": blas_kernel()}


def train_forever(case: str) -> None:
    """The trainer beside: the same steps, until it is ended."""
    step = stepper(case)
    print("ready", flush=True)
    while True:
        step()


def blas_kernel() -> str:
    """numpy's BLAS as threadpoolctl reads it: library, version, kernel, threads."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed (pip install -r bench/requirements.txt)"
    return "; ".join(f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')}, "
                     f"{i.get('num_threads')} threads" for i in threadpool_info()
                     if i.get("user_api") == "blas") or "none found"


def beside(condition: str, case: str, env: dict) -> list[subprocess.Popen]:
    """Start what runs beside the measured process under `condition`."""
    if condition == "hogs":
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        return [subprocess.Popen([sys.executable, "-c", HOG], env=env) for _ in range(cpus)]
    if condition == "trainer":
        trainer = subprocess.Popen([sys.executable, __file__, "--train", case], env=env,
                                   stdout=subprocess.PIPE, text=True)
        trainer.stdout.readline()            # "ready": imported, compiled, stepping
        return [trainer]
    return []


def run(condition: str, args, env: dict) -> dict:
    others = beside(condition, args.case, env)
    try:
        out = subprocess.run([sys.executable, __file__, "--measure", args.case, "--steps",
                              str(args.steps), "--blocks", str(args.blocks)], env=env,
                             capture_output=True, text=True, check=True)
    finally:
        for other in others:
            other.kill()
            other.wait()
    return json.loads(out.stdout.splitlines()[-1])


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.steps, args.blocks)))
        return 0
    if args.train:
        train_forever(args.train)
        return 0
    trees = {"this checkout": child_env(args.spin)}
    if args.baseline:
        trees["baseline"] = child_env(args.spin, args.baseline.resolve())
    results = {(t, c): [] for t in trees for c in CONDITIONS}
    for r in range(args.rounds):
        for condition in CONDITIONS if r % 2 == 0 else CONDITIONS[::-1]:
            for tree, env in trees.items() if r % 2 == 0 else reversed(trees.items()):
                results[tree, condition].append(run(condition, args, env))
    print(report(results, trees, args, os.getloadavg()))
    return 0


def report(results: dict, trees, args, load) -> str:
    first = results[next(iter(trees)), "quiet"][0]
    lines = [f"Case: {args.case}, float64, default threads; {args.rounds} rounds of "
             f"{args.blocks} blocks x {args.steps} steps; OPENBLAS_THREAD_TIMEOUT: "
             f"{args.spin or 'TenFlang default'}; baseline: {args.baseline or 'none'}",
             f"BLAS: {first['blas']}",
             f"CPUs usable: {len(os.sched_getaffinity(0))}; load average after: "
             f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", "",
             "| tenflang | beside | step (ms) | ratio to quiet | CPU / wall "
             "| CPU per step (ms) | steps (ms), each round |",
             "|---|---|---|---|---|---|---|"]
    for tree in trees:
        quiet = statistics.median(m["step_ms"] for m in results[tree, "quiet"])
        for condition in CONDITIONS:
            rows = results[tree, condition]
            step = statistics.median(m["step_ms"] for m in rows)
            cpu = statistics.median(m["cpu_per_wall"] for m in rows)
            cpu_ms = statistics.median(m["cpu_ms"] for m in rows)
            each = ", ".join(f"{m['step_ms']:.2f}" for m in rows)
            lines.append(f"| {tree} | {condition} | {step:.2f} | {step / quiet:.2f} | {cpu:.2f} "
                         f"| {cpu_ms:.2f} | {each} |")
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--case", default="lenet", choices=("mlp", "lenet", "lenet5", "attention"))
    p.add_argument("--steps", type=int, default=100, help="steps per timed block")
    p.add_argument("--blocks", type=int, default=5, help="timed blocks per process")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the conditions")
    p.add_argument("--spin", help="OPENBLAS_THREAD_TIMEOUT for every child (OpenBLAS's own: 28)")
    p.add_argument("--baseline", type=Path, help="another checkout to measure alongside")
    p.add_argument("--measure", help=argparse.SUPPRESS)
    p.add_argument("--train", help=argparse.SUPPRESS)
    return p.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
