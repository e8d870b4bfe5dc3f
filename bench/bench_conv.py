#!/usr/bin/env python3
"""One LeNet training step: TenFlang's plan against PyTorch CPU eager.

    python bench/bench_conv.py                  # both cases, float32 and float64, 1 and 2 threads
    python bench/bench_conv.py --repeats 31 --threads 2 --only lenet5

Cases (the targets of the convolution work, docs/guide/language.md "Convolution and pooling"):

* ``digits`` — conv 1→8 3×3 pad 1, relu, maxpool 2, conv 8→16 3×3 pad 1, relu,
  maxpool 2, flatten, dense 64→10, softmax cross-entropy; batch 64 of
  scikit-learn's 8×8 digits.  Target: ≤ 1.0× PyTorch.
* ``lenet5`` — conv 1→6 5×5 pad 2, relu, maxpool 2, conv 6→16 5×5, relu,
  maxpool 2, flatten, dense 400→120→84→10 (relu); batch 256 of random 28×28
  images.  Targets: ≤ 1.5× PyTorch in float32; peak memory ≤ 1.5× PyTorch's.

One step is, for both, the forward pass with the loss, the mean gradient over
the batch and a plain SGD update, from the same weights on the same batch
(their gradients are checked to agree first).  TenFlang runs the level-1
GCP's plan (`run_plan(..., reduce="mean")`, as `tfweightcalc` does); PyTorch runs
eager autograd with `torch.set_num_threads` equal to numpy's BLAS threads
(threadpoolctl).  Times are medians of interleaved runs in one process; peak
memory is measured in a child process per implementation: the growth of the
resident set over the step (the peak, VmHWM, after three steps minus the
resident set before the first), beside the whole process's peak.  Beside wall
time, the table gives the process's CPU time (all threads) per step: on a
shared machine it moves less.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import math

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tenflang  # noqa: E402
from tenflang.ops import table as ops  # noqa: E402
from tenflang.backprop import compile_gradient  # noqa: E402
from tenflang.lang.checks import check  # noqa: E402
from tenflang.interp import run_plan  # noqa: E402
from tenflang.training.gradients import gradient_plan  # noqa: E402
from tenflang.training.signature import signature  # noqa: E402

LR = 0.01
# name: (image [C, H, W], batch, conv layers (F, k, pad), dense widths)
CASES = {
    "digits": ((1, 8, 8), 64, [(8, 3, 1), (16, 3, 1)], [10]),
    "lenet5": ((1, 28, 28), 256, [(6, 5, 2), (16, 5, 0)], [120, 84, 10]),
}
TARGETS = {("digits", "float64"): 1.0, ("digits", "float32"): 1.0, ("lenet5", "float32"): 1.5}


def layers(case: str):
    """Per layer (kind, weight shape, pad or the image shape a dense layer reads)."""
    (c, h, w), _, convs, dense = CASES[case]
    out = []
    for f, k, pad in convs:
        h, w = h + 2 * pad - k + 1, w + 2 * pad - k + 1
        out.append(("conv", (f, c, k, k), pad))
        c, h, w = f, h // 2, w // 2
    image = (c, h, w)
    for m in dense:
        out.append(("dense", (m, math.prod(image)), image))
        image = (m, 1, 1)
    return out


FLATTEN = ops.lookup("flatten") is not None


def program(case: str) -> str:
    """The case as a TenFlang shape program.  Without a `flatten` op a dense
    layer is a convolution whose kernel covers its input ([m, C, H, W] on
    [C, H, W] gives [m, 1, 1]: LeNet-5's own C5) and the cross-entropy is
    `logsumexp s - sum (mul s y)`: the same numbers."""
    (c, h, w), _, _, _ = CASES[case]
    decl = [f"declare input x [{c}, {h}, {w}]",
            f"declare exp_output y {'[10]' if FLATTEN else '[10, 1, 1]'}"]
    body, last = [], "x"
    specs = layers(case)
    for i, (kind, shape, extra) in enumerate(specs, 1):
        if kind == "dense" and not FLATTEN:
            kind, shape = "conv", (shape[0],) + extra
        if kind == "conv":
            pad = 0 if isinstance(extra, tuple) else extra
            decl += [f"declare weight K{i} {list(shape)}",
                     f"declare weight b{i} [{shape[0]}, 1, 1]"]
            body += [f"define c{i} = conv2d {last} K{i} 1 {pad}", f"define z{i} = add c{i} b{i}"]
        else:
            if specs[i - 2][0] == "conv":
                decl.append("declare intvar f")
                body.append(f"define f = flatten {last}")
                last = "f"
            decl += [f"declare weight K{i} {list(shape)}", f"declare weight b{i} [{shape[0]}]"]
            body += [f"define c{i} = matmul K{i} {last}", f"define z{i} = add c{i} b{i}"]
        decl += [f"declare intvar c{i}", f"declare intvar z{i}"]
        last = f"z{i}"
        if i < len(specs):
            body.append(f"define r{i} = relu z{i}")
            decl.append(f"declare intvar r{i}")
            last = f"r{i}"
            if specs[i - 1][0] == "conv":
                body.append(f"define p{i} = maxpool2d r{i} 2")
                decl.append(f"declare intvar p{i}")
                last = f"p{i}"
    if FLATTEN:
        decl += ["declare intvar logp", "declare intvar fit"]
        body += [f"define logp = log_softmax {last}", "define fit = dot logp y",
                 "define xent = neg fit"]
    else:
        decl += ["declare intvar lse", "declare intvar match", "declare intvar fit"]
        body += [f"define lse = logsumexp {last}", f"define match = mul {last} y",
                 "define fit = sum match", "define xent = sub lse fit"]
    return "\n".join(decl + ["declare loss xent"] + body) + "\n"


def data_and_weights(case: str):
    """Data and initial weights in PyTorch's shapes (dense weights [m, n])."""
    image, batch, _, _ = CASES[case]
    rng = np.random.default_rng(0)
    if case == "digits":
        from sklearn.datasets import load_digits
        digits = load_digits()
        x = (digits.images[:batch] / 16.0)[:, None]
        labels = digits.target[:batch]
    else:
        x = rng.normal(size=(batch,) + image)
        labels = rng.integers(0, 10, batch)
    weights = {}
    for i, (kind, shape, _) in enumerate(layers(case), 1):
        weights[f"K{i}"] = rng.normal(size=shape) / np.sqrt(math.prod(shape[1:]))
        weights[f"b{i}"] = np.zeros((shape[0], 1, 1) if kind == "conv" else (shape[0],))
    return {"x": x, "y": np.eye(10)[labels]}, weights


def tenflang_step(case: str, dtype: str):
    program_ = tenflang.parse(program(case), f"{case}.tf", shape_program=True)
    shapes = check(program_)
    gcp = compile_gradient(program_)
    sig = signature(gcp)
    plan = gradient_plan(gcp, sig)
    data, init = data_and_weights(case)
    data = {k: v.reshape((len(v),) + shapes[k]).astype(dtype) for k, v in data.items()}
    weights = {k: v.reshape(shapes[k]).astype(dtype) for k, v in init.items()}

    def step():
        values = run_plan(plan, {**data, **weights}, dtype=dtype, reduce="mean")
        for w, g in sig.gradients.items():
            weights[w] -= LR * values[g]
        return values, weights
    grads = lambda values: {w: values[g] for w, g in sig.gradients.items()}  # noqa: E731
    return step, grads


def torch_step(case: str, dtype: str):
    import torch
    F = torch.nn.functional
    data, init = data_and_weights(case)
    tdtype = getattr(torch, dtype)
    x, y = (torch.tensor(data[k], dtype=tdtype) for k in ("x", "y"))
    p = {k: torch.tensor(v, dtype=tdtype).requires_grad_() for k, v in init.items()}
    opt = torch.optim.SGD(list(p.values()), lr=LR)
    specs = layers(case)

    def step():
        opt.zero_grad()
        h = x
        for i, (kind, _, pad) in enumerate(specs, 1):
            if kind == "conv":
                h = F.max_pool2d(F.relu(F.conv2d(h, p[f"K{i}"], padding=pad) + p[f"b{i}"]), 2)
            else:
                h = F.linear(h.flatten(1), p[f"K{i}"], p[f"b{i}"])
                h = F.relu(h) if i < len(specs) else h
        loss = -(F.log_softmax(h, dim=1) * y).sum(dim=1).mean()
        loss.backward()
        opt.step()
        return loss, p
    grads = lambda _: {k: v.grad.numpy() for k, v in p.items()}  # noqa: E731
    return step, grads


def check_agreement(case: str) -> None:
    """Both implementations, float64, one step from the same weights: same gradients."""
    ours, our_grads = tenflang_step(case, "float64")
    theirs, their_grads = torch_step(case, "float64")
    mine, _ = ours()
    theirs()
    reference = their_grads(None)
    for name, g in our_grads(mine).items():
        np.testing.assert_allclose(g.reshape(reference[name].shape), reference[name], rtol=1e-9,
                                   atol=1e-12, err_msg=name)


def timed(step, repeats: int, other) -> tuple[list, list]:
    """(wall, CPU) seconds per run of `step` and of `other`, interleaved."""
    step(), other()                       # warm up: plan generation, allocator, threads
    mine, theirs = [], []
    for _ in range(repeats):
        for fn, times in ((step, mine), (other, theirs)):
            wall, cpu = time.perf_counter(), time.process_time()
            fn()
            times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return mine, theirs


def memory_child(impl: str, case: str, dtype: str) -> None:
    """In a fresh process: RSS before the first step and the peak after three."""
    step = (tenflang_step if impl == "tenflang" else torch_step)(case, dtype)[0]
    if impl == "torch":
        import torch
        torch.set_num_threads(1)
    before = status_mb("VmRSS")
    for _ in range(3):
        step()
    print(json.dumps({"before": before, "peak": status_mb("VmHWM")}))


def status_mb(field: str) -> float:
    """A /proc/self/status figure in MB (VmHWM: this program's peak resident set;
    ru_maxrss would report the forking parent's, which Linux carries across exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def memory(impl: str, case: str, dtype: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", impl, case, dtype],
                         capture_output=True, text=True, check=True, env={
                             "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                             "PATH": "/usr/bin:/bin"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    args = parse_args()
    if args.child:
        memory_child(*args.child)
        return 0
    import torch
    from threadpoolctl import threadpool_limits
    print(f"# LeNet training step, tenflang plan vs PyTorch {torch.__version__} eager "
          f"(medians of {args.repeats} interleaved runs; dense layers "
          f"{'after flatten' if FLATTEN else 'as convolutions covering their input'})\n")
    print("| case | dtype | threads | tenflang ms | torch ms | ratio | target | met "
          "| CPU ms: tenflang | torch | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for case in args.only:
        check_agreement(case)
        for dtype in ("float32", "float64"):
            for threads in args.threads:
                torch.set_num_threads(threads)
                with threadpool_limits(threads):
                    mine, theirs = timed(tenflang_step(case, dtype)[0], args.repeats,
                                         torch_step(case, dtype)[0])
                (ours, our_cpu), (ref, ref_cpu) = (np.median(t, axis=0) * 1e3
                                                   for t in (mine, theirs))
                target = TARGETS.get((case, dtype))
                met = "" if target is None else ("yes" if ours / ref <= target else "no")
                print(f"| {case} | {dtype} | {threads} | {ours:.2f} | {ref:.2f} | "
                      f"{ours / ref:.2f}× | {f'≤ {target}×' if target else '—'} | {met} "
                      f"| {our_cpu:.2f} | {ref_cpu:.2f} | {our_cpu / ref_cpu:.2f}× |")
    if "lenet5" in args.only:
        print("\n| peak memory, lenet5 step, 1 thread | tenflang MB | torch MB | ratio |")
        print("|---|---|---|---|")
        for dtype in ("float32", "float64"):
            ours, ref = memory("tenflang", "lenet5", dtype), memory("torch", "lenet5", dtype)
            grow = [m["peak"] - m["before"] for m in (ours, ref)]
            print(f"| {dtype}: growth over the step | {grow[0]:.1f} | {grow[1]:.1f} | "
                  f"{grow[0] / grow[1]:.2f}× (target ≤ 1.5×) |")
            print(f"| {dtype}: whole process | {ours['peak']:.0f} | {ref['peak']:.0f} | "
                  f"{ours['peak'] / ref['peak']:.2f}× |")
    return 0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--only", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
