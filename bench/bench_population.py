"""The population pass (interp/runtime/population.py) on deep batch-norm
networks: one forward pass in all against the pass per level it replaced
(`level_sums` from the input for each level, what a cluster's workers still
run), with the op calls each makes, and one training epoch for scale.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/bench_population.py
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/bench_population.py --quick

Networks: a chain of D batch-norm layers (dense, width 64; 2·D levels of
statistics), and samples/resnet_digits.tf on the digit images.  Both passes
are checked to give the same values (rtol 1e-10) before timing; times are
the least CPU time (all threads) of `--repeats` interleaved runs (the
machine is shared: the wall clock is noisier still).  The epoch is a
training run of one pass over the examples in batches of 64 with running
statistics (no population pass in it), for scale.  Writes
bench/results_population.md (`--out`).
"""
from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tenflang  # noqa: E402
from tenflang.backprop import compile_gradient  # noqa: E402
from tenflang.interp.runtime import population as pop  # noqa: E402
from tenflang.training.config import TrainConfig  # noqa: E402
from tenflang.training.loop import train  # noqa: E402

BATCHNORM = """macro batchnorm x gamma beta -> y
  declare intvar c
  declare intvar s
  define c = sub x (batch_mean x)
  define s = sqrt (add (batch_mean (mul c c)) 1e-5)
  define y = add (mul (div c s) gamma) beta
end
"""


def chain(depth: int, width: int = 64) -> str:
    lines = [f"declare input x [{width}]", "declare exp_output t [10]", "declare loss l",
             "declare weight V [10, 64]"]
    previous = "x"
    for k in range(1, depth + 1):
        lines += [f"declare weight W{k} [{width}, {width}] init he", f"declare weight g{k} [{width}] init 1",
                  f"declare weight b{k} [{width}]", f"declare intvar h{k} [{width}]"]
        lines.append(f"define h{k} = relu (batchnorm (matmul W{k} {previous}) g{k} b{k})")
        previous = f"h{k}"
    lines.append(f"define l = sum (pow (sub (matmul V {previous}) t) 2)")
    return BATCHNORM + "\n".join(lines) + "\n"


def chain_case(depth: int, n: int):
    rng = np.random.default_rng(0)
    program = tenflang.parse(chain(depth), "chain.tf", shape_program=True)
    data = {"x": rng.normal(size=(n, 64)), "t": rng.normal(size=(n, 10))}
    return f"chain, depth {depth}", program, data


def resnet_case(n: int):
    program = tenflang.parse_file(str(ROOT / "samples" / "resnet_digits.tf"), shape_program=True)
    arrays = tenflang.load_examples(str(ROOT / "samples" / "digit_images_train.txt")).arrays
    return "resnet_digits", program, {k: v[:n] for k, v in arrays.items()}


def per_level(program, data, weights):
    n = len(next(iter(data.values())))
    return pop.population_by(program, lambda level, found: (
        pop.level_sums(program, level, data, weights, found), n))


def counted(fn, *args) -> tuple[dict, dict]:
    """(fn's result, op name -> calls) over the population module's runs."""
    counts: dict = {}
    real = pop.run_plan

    def counting(plan, *a, **k):
        for step in plan.steps:
            counts[step.op.name] = counts.get(step.op.name, 0) + 1
        return real(plan, *a, **k)
    pop.run_plan = counting
    try:
        return fn(*args), counts
    finally:
        pop.run_plan = real


def cpu_seconds(fn) -> float:
    """The process's CPU time in `fn` (all threads): steadier than the wall
    clock on a machine other work keeps busy."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def measure(name, program, data, repeats: int) -> list:
    gcp = compile_gradient(program)
    epoch = TrainConfig(lr=0.01, batch_size=64, max_iters=0, tol=0)
    weights = train(gcp, data, epoch).weights            # the starting weights
    new, new_calls = counted(pop.population, gcp, data, weights)
    old, old_calls = counted(per_level, gcp, data, weights)
    for key in new:
        np.testing.assert_allclose(new[key], old[key], rtol=1e-10, atol=1e-12, err_msg=key)
    op = "conv2d" if "conv2d" in old_calls else "matmul"
    n = len(next(iter(data.values())))
    steps = -(-n // 64)
    times = {"one pass": [], "per level": [], "epoch": []}
    for _ in range(repeats):       # interleaved
        times["one pass"].append(cpu_seconds(lambda: pop.population(gcp, data, weights)))
        times["per level"].append(cpu_seconds(lambda: per_level(gcp, data, weights)))
        cfg = TrainConfig(lr=0.01, batch_size=64, max_iters=steps, tol=0, statistics="running")
        times["epoch"].append(cpu_seconds(lambda: train(gcp, data, cfg, init=weights)))
    t = {k: min(v) for k, v in times.items()}
    return [name, n, len(pop.levels(gcp)), f"{op} {old_calls.get(op, 0)} → {new_calls.get(op, 0)}",
            f"{t['per level']:.3f}", f"{t['one pass']:.3f}",
            f"{t['per level'] / t['one pass']:.1f}×", f"{t['epoch']:.3f}",
            f"{100 * t['one pass'] / t['epoch']:.0f}%"]


def blas() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "BLAS unknown (no threadpoolctl)"
    info = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    return ", ".join(f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')} "
                     f"({i.get('num_threads')} threads)" for i in info) or "no BLAS found"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results_population.md"))
    args = parser.parse_args(argv)
    n = 512 if args.quick else 2048
    cases = [chain_case(d, n) for d in ((4, 8) if args.quick else (4, 16, 32))]
    cases.append(resnet_case(256 if args.quick else 1024))
    head = ["network", "examples", "levels", "op calls: per level → one pass",
            "per level, CPU s", "one pass, CPU s", "speed-up", "1 epoch (batch 64), CPU s",
            "one pass / epoch"]
    rows = [measure(*case, args.repeats) for case in cases]
    lines = ["# The population pass: one forward pass against one per level", "",
             f"`env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/bench_population.py "
             f"{' '.join(argv if argv is not None else sys.argv[1:])}` — "
             f"{datetime.date.today()}, {blas()}; the least CPU time of {args.repeats} "
             "interleaved runs, float64, on a shared machine (noisy).", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
