"""GPU benchmarks (docs/guide/performance.md, "Running on a GPU"): tenflang on cupy against
PyTorch CUDA eager and hand-written cupy, and against itself on the CPU.

    python bench/bench_gpu.py                 # writes bench/results_gpu.md
    python bench/bench_gpu.py --quick         # small sizes, a smoke run

Workloads (float32): an MLP 784-256-10 training step at batch 256 and 4096
(tenflang's whole loop per step, vs PyTorch eager with autograd and vs a
hand-written cupy step from the same initial weights, whose final weights
must agree with tenflang's — exit 1 otherwise); LeNet-5 on 28×28 at batch 256 vs PyTorch (needs the
conv2d/maxpool2d ops); a chain of 20 elementwise ops on 10⁸ elements, its
achieved bandwidth against a device-to-device copy in the same run; and the
CPU/GPU time ratio of each.  Figures are medians of interleaved runs, the
device synchronised around each.  Without a GPU it says why and exits 2,
writing nothing.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tenflang                                       # noqa: E402
from tenflang.ops import table as ops                              # noqa: E402
from tenflang.interp.engine import Engine              # noqa: E402
from tenflang.interp import make_plan                 # noqa: E402
from tenflang.interp.device import cupy_or_reason, to_host  # noqa: E402
from tenflang.training.gradients import LocalGradients  # noqa: E402
from tenflang.training.config import TrainConfig  # noqa: E402
from tenflang.training.loop import train  # noqa: E402
from tenflang.training.signature import initial_weights, signature  # noqa: E402

MLP = """
declare input x [784]
declare exp_output y [10]
declare weight W1 [256, 784]
declare weight b1 [256]
declare weight W2 [10, 256]
declare weight b2 [10]
declare intvar z1
declare intvar a1
declare intvar h
declare intvar z2
declare intvar s
declare intvar p
declare intvar q
declare intvar r
declare loss l
define z1 = matmul W1 x
define a1 = add z1 b1
define h = relu a1
define z2 = matmul W2 h
define s = add z2 b2
define p = log_softmax s
define q = mul y p
define r = sum q
define l = neg r
"""
LENET = """
declare input x [1, 28, 28]
declare exp_output y [10]
declare weight K1 [6, 1, 5, 5]
declare weight K2 [16, 6, 5, 5]
declare weight W1 [120, 256]
declare weight W2 [84, 120]
declare weight W3 [10, 84]
""" + "".join(f"declare intvar {v}\n" for v in "c1 r1 p1 c2 r2 p2 f z1 h1 z2 h2 s q e m".split()) + """
declare loss l
define c1 = conv2d x K1
define r1 = relu c1
define p1 = maxpool2d r1 2
define c2 = conv2d p1 K2
define r2 = relu c2
define p2 = maxpool2d r2 2
define f = flatten p2
define z1 = matmul W1 f
define h1 = relu z1
define z2 = matmul W2 h1
define h2 = relu z2
define s = matmul W3 h2
define q = log_softmax s
define e = mul y q
define m = sum e
define l = neg m
"""
CHAIN_OPS = ["mul {} 1.0001", "add {} 0.5", "tanh {}", "mul {} 3", "logistic {}",
             "sub {} 0.25", "abs {}", "sqrt {}", "mul {} 2", "softplus {}"] * 2


def chain_program() -> str:
    lines = ["declare input x", "declare output o"]
    prev = "x"
    for k, op in enumerate(CHAIN_OPS):
        name = "o" if k == len(CHAIN_OPS) - 1 else f"t{k}"
        if name != "o":
            lines.append(f"declare intvar {name}")
        lines.append(f"define {name} = {op.format(prev)}")
        prev = name
    return "\n".join(lines) + "\n"


def relative_difference(a: dict, b: dict) -> float:
    """The largest difference between two sets of weights, relative to their size."""
    return max(float(np.abs(a[k] - b[k]).max() / (np.abs(b[k]).max() + 1e-30)) for k in b)


def median_time(fn, sync, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        sync()
        start = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def interleaved(runs: dict, sync, repeats: int) -> dict:
    """Median seconds of each runner, the runners taking turns."""
    for fn in runs.values():
        fn()                                   # warm-up: JIT, kernel compilation
    times = {k: [] for k in runs}
    for _ in range(repeats):
        for k, fn in runs.items():
            times[k].append(median_time(fn, sync, 1))
    return {k: statistics.median(v) for k, v in times.items()}


def mlp_data(batch: int, rng):
    x = rng.normal(size=(batch, 784)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)]
    return {"x": x, "y": y}


def gcp_of(source: str):
    return tenflang.parse(tenflang.print_program(tenflang.compile_gradient(tenflang.parse(source))))


def start_weights(source: str) -> dict:
    """The weights every implementation starts from (tenflang's initialisation)."""
    return initial_weights(signature(gcp_of(source)), seed=0)


def tenflang_steps(source: str, examples: dict, xp, steps: int, dtype: str = "float32"):
    """A runner: tenflang's whole train() for `steps` SGD steps (data moved once
    per call, as a user's run does); returns the final weights."""
    gcp = gcp_of(source)
    cfg = TrainConfig(lr=0.01, max_iters=steps, tol=0.0, dtype=dtype)
    init = start_weights(source)
    return lambda: train(gcp, examples, cfg, LocalGradients(Engine(xp)), init=init).weights


def handwritten_mlp_steps(examples: dict, steps: int, xp, dtype: str = "float32"):
    """The same SGD steps written by hand on `xp` (cupy in the benchmark); returns
    the final weights on the host."""
    x, y = xp.asarray(examples["x"], dtype=dtype), xp.asarray(examples["y"], dtype=dtype)
    start = start_weights(MLP)

    def run():
        W1, b1, W2, b2 = (xp.array(start[k], dtype=dtype) for k in ("W1", "b1", "W2", "b2"))
        n = len(x)
        for _ in range(steps):
            z = x @ W1.T + b1
            h = xp.maximum(z, 0)
            s = h @ W2.T + b2
            p = xp.exp(s - s.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            ds = (p - y) / n
            dh = (ds @ W2) * (z > 0)
            float(-(y * xp.log(p)).sum() / n)        # the loss, read every step as tenflang does
            W2 -= 0.01 * (ds.T @ h)
            b2 -= 0.01 * ds.sum(axis=0)
            W1 -= 0.01 * (dh.T @ x)
            b1 -= 0.01 * dh.sum(axis=0)
        return {k: to_host(v) for k, v in zip(("W1", "b1", "W2", "b2"), (W1, b1, W2, b2))}
    return run


def torch_mlp_steps(examples: dict, steps: int, lenet: bool = False):
    import torch
    dev = torch.device("cuda")
    x = torch.as_tensor(examples["x"], device=dev)
    y = torch.as_tensor(examples["y"], device=dev)
    if lenet:
        model = torch.nn.Sequential(
            torch.nn.Conv2d(1, 6, 5, bias=False), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(6, 16, 5, bias=False), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Flatten(), torch.nn.Linear(256, 120, bias=False), torch.nn.ReLU(),
            torch.nn.Linear(120, 84, bias=False), torch.nn.ReLU(),
            torch.nn.Linear(84, 10, bias=False)).to(dev)
    else:
        model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                    torch.nn.Linear(256, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def run():
        for _ in range(steps):
            opt.zero_grad()
            loss = -(y * torch.log_softmax(model(x), dim=1)).sum(dim=1).mean()
            loss.backward()
            opt.step()
            loss.item()                      # tenflang reads its loss every step too
    return run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_gpu.md")))
    args = parser.parse_args(argv)
    cp, reason = cupy_or_reason()
    if cp is None:
        print(f"bench_gpu: needs an NVIDIA GPU with cupy: {reason}; nothing measured, "
              "nothing written", file=sys.stderr)
        return 2
    sync = cp.cuda.Device().synchronize
    rng = np.random.default_rng(0)
    steps = 3 if args.quick else 20
    rows = []
    for batch in ((256,) if args.quick else (256, 4096)):
        data = mlp_data(batch, rng)
        runs = {"tenflang gpu": tenflang_steps(MLP, data, cp, steps),
                "cupy by hand": handwritten_mlp_steps(data, steps, cp),
                "tenflang cpu": tenflang_steps(MLP, data, np, steps)}
        try:
            runs["torch cuda"] = torch_mlp_steps(data, steps)
        except Exception as err:                     # torch without CUDA
            print(f"PyTorch CUDA skipped: {err}", file=sys.stderr)
        disagree = relative_difference(runs["tenflang gpu"](), runs["cupy by hand"]())
        if disagree > 1e-3:
            print(f"bench_gpu: tenflang's weights differ from the hand-written step's by "
                  f"{disagree:.1e}: not the same math, no figures", file=sys.stderr)
            return 1
        t = interleaved(runs, sync, args.repeats)
        rows.append((f"MLP 784-256-10 step, batch {batch}", t, steps))
    if "conv2d" in ops.TABLE:
        data = {"x": rng.normal(size=(256, 1, 28, 28)).astype(np.float32),
                "y": mlp_data(256, rng)["y"]}
        runs = {"tenflang gpu": tenflang_steps(LENET, data, cp, steps),
                "tenflang cpu": tenflang_steps(LENET, data, np, max(1, steps // 4))}
        runs["torch cuda"] = torch_mlp_steps(data, steps, lenet=True)
        rows.append(("LeNet-5 28×28 step, batch 256", interleaved(runs, sync, args.repeats), steps))
    n = 10**6 if args.quick else 10**8
    chain = make_plan(tenflang.parse(chain_program()), {"x"})
    x_dev = cp.asarray(rng.uniform(0.1, 1.0, n).astype(np.float32))
    out = cp.empty_like(x_dev)
    t_chain = median_time(lambda: Engine(cp).run(chain, {"x": x_dev}, dtype="float32"),
                          sync, args.repeats)
    t_copy = median_time(lambda: cp.copyto(out, x_dev), sync, args.repeats)
    report = render_report(rows, cp, n, t_chain, t_copy, args)
    Path(args.out).write_text(report)
    print(report)
    return 0


def render_report(rows, cp, n, t_chain, t_copy, args) -> str:
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    lines = [f"# GPU benchmarks — {name}", "",
             f"`python bench/bench_gpu.py{' --quick' if args.quick else ''}`, float32, medians of "
             f"{args.repeats} interleaved runs, ms per training step.", "",
             "| workload | tenflang gpu | torch cuda | cupy by hand | tenflang cpu | gpu/torch | "
             "cpu/gpu |", "|---|---|---|---|---|---|---|"]
    for label, t, steps in rows:
        ms = {k: 1e3 * v / steps for k, v in t.items()}
        cell = lambda k: f"{ms[k]:.3f}" if k in ms else "—"       # noqa: E731
        ratio = f"{ms['tenflang gpu'] / ms['torch cuda']:.2f}×" if "torch cuda" in ms else "—"
        lines.append(f"| {label} | {cell('tenflang gpu')} | {cell('torch cuda')} | "
                     f"{cell('cupy by hand')} | {cell('tenflang cpu')} | {ratio} | "
                     f"{ms['tenflang cpu'] / ms['tenflang gpu']:.1f}× |")
    if "conv2d" not in ops.TABLE:
        lines.append("| LeNet-5 | — (this build has no conv2d) | | | | | |")
    bandwidth = 8 * n / t_chain / 1e9             # read x, write o: 4 bytes each
    copy = 8 * n / t_copy / 1e9
    lines += ["", f"20 chained elementwise ops on {n:.0e} elements: {1e3 * t_chain:.2f} ms, "
              f"{bandwidth:.0f} GB/s achieved; a device-to-device copy: {copy:.0f} GB/s "
              f"→ {100 * bandwidth / copy:.0f} % of the copy's bandwidth.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
