#!/usr/bin/env python3
"""float32 convolution through oneDNN (interp/backends/c/onednn_c.py) against
today's native path (image_c: im2col + numpy's BLAS) and PyTorch's CPU
convolution, layer by layer: ResNet-50's and VGG-16's distinct convolutions
at batch 4, the forward, the image gradient and the kernel gradient summed
over the batch.

    python bench/bench_onednn_conv.py --dnnl-python /tmp/dnnlvenv/bin/python \\
        --torch-python /tmp/benchvenv/bin/python [--runs 3] [--reps 3] [--quick]

* Each implementation runs as whole processes (`--child`): `onednn` and
  `today` in the Python that has oneDNN (the same numpy and BLAS; `today`
  with TENFLANG_ONEDNN=0), `torch` in the one with PyTorch.  Per process: wall
  time and peak RSS (os.wait4's ru_maxrss); in it, per layer and op, the
  median of `--reps` timed calls after one untimed call (plans made, caches warm).
* Rounds interleave the three processes, the order rotated each round; a
  figure is the median over `--runs` rounds.  Threads: "default" (the
  environment as a user has it: 2 cores here) and "1" (OMP/OPENBLAS/MKL/
  TENFLANG_NUM_THREADS=1).  OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset
  in the children (`as_users`); each child reports its BLAS (threadpoolctl)
  and the oneDNN kernels that ran.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]
from bench_process import ONE_THREAD, as_users  # noqa: E402

BATCH = 4
OPS = ("forward", "image grad", "kernel grad")
# (name, count in the network, channels, plane, filters, kernel, stride, pad)
RESNET50 = [("conv1", 1, 3, 224, 64, 7, 2, 3),
            ("l1 1x1 64-64", 1, 64, 56, 64, 1, 1, 0), ("l1 3x3 64", 3, 64, 56, 64, 3, 1, 1),
            ("l1 1x1 64-256", 4, 64, 56, 256, 1, 1, 0), ("l1 1x1 256-64", 2, 256, 56, 64, 1, 1, 0),
            ("l2 1x1 256-128", 1, 256, 56, 128, 1, 1, 0), ("l2 3x3 s2", 1, 128, 56, 128, 3, 2, 1),
            ("l2 1x1 128-512", 4, 128, 28, 512, 1, 1, 0), ("l2 down s2", 1, 256, 56, 512, 1, 2, 0),
            ("l2 1x1 512-128", 3, 512, 28, 128, 1, 1, 0), ("l2 3x3 128", 3, 128, 28, 128, 3, 1, 1),
            ("l3 1x1 512-256", 1, 512, 28, 256, 1, 1, 0), ("l3 3x3 s2", 1, 256, 28, 256, 3, 2, 1),
            ("l3 1x1 256-1024", 6, 256, 14, 1024, 1, 1, 0), ("l3 down s2", 1, 512, 28, 1024, 1, 2, 0),
            ("l3 1x1 1024-256", 5, 1024, 14, 256, 1, 1, 0), ("l3 3x3 256", 5, 256, 14, 256, 3, 1, 1),
            ("l4 1x1 1024-512", 1, 1024, 14, 512, 1, 1, 0), ("l4 3x3 s2", 1, 512, 14, 512, 3, 2, 1),
            ("l4 1x1 512-2048", 3, 512, 7, 2048, 1, 1, 0), ("l4 down s2", 1, 1024, 14, 2048, 1, 2, 0),
            ("l4 1x1 2048-512", 2, 2048, 7, 512, 1, 1, 0), ("l4 3x3 512", 2, 512, 7, 512, 3, 1, 1)]
VGG16 = [("c1 3-64", 1, 3, 224, 64, 3, 1, 1), ("c2 64-64", 1, 64, 224, 64, 3, 1, 1),
         ("c3 64-128", 1, 64, 112, 128, 3, 1, 1), ("c4 128-128", 1, 128, 112, 128, 3, 1, 1),
         ("c5 128-256", 1, 128, 56, 256, 3, 1, 1), ("c6 256-256", 2, 256, 56, 256, 3, 1, 1),
         ("c8 256-512", 1, 256, 28, 512, 3, 1, 1), ("c9 512-512", 2, 512, 28, 512, 3, 1, 1),
         ("c11 512-512 14", 3, 512, 14, 512, 3, 1, 1)]
NETS = {"resnet50": RESNET50, "vgg16": VGG16}
QUICK = {"resnet50": [RESNET50[i] for i in (0, 2, 13, 16, 22)], "vgg16": VGG16[2::3]}


def operands(layer, np):
    _, _, c, h, f, k, s, p = layer
    r = np.random.default_rng(0)
    ho = (h + 2 * p - k) // s + 1
    return (r.standard_normal((BATCH, c, h, h), np.float32),
            r.standard_normal((1, f, c, k, k), np.float32),
            r.standard_normal((BATCH, f, ho, ho), np.float32), s, p)


def tenflang_calls(layer):
    import numpy as np
    from tenflang.interp.backends.c import image_c
    from tenflang.native import blas_threads
    blas_threads.settle()            # as a run's first step does: BLAS on the loops' terms
    x, K, g, s, p = operands(layer, np)
    F = image_c.FORWARDS
    return (lambda: F["conv2d"](np, x, K, s, p), lambda: F["conv2d_image_grad"](np, g, K, x, s, p),
            lambda: F["conv2d_kernel_grad_sum"](np, g, x, K, s, p))


def torch_calls(layer):
    import numpy as np
    import torch
    x, K, g, s, p = (torch.from_numpy(a) if isinstance(a, np.ndarray) else a
                     for a in operands(layer, np))
    K = K[0]
    back = torch.ops.aten.convolution_backward

    def grad(mask):
        return back(g, x, K, None, [s, s], [p, p], [1, 1], False, [0, 0], 1, mask)
    with torch.no_grad():
        return (lambda: torch.nn.functional.conv2d(x, K, None, s, p),
                lambda: grad([True, False, False])[0], lambda: grad([False, True, False])[1])


def timed(f, reps: int) -> float:
    f()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def blas_kernel() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed"
    return "; ".join(f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')} "
                     f"({i.get('num_threads')} threads)" for i in threadpool_info())


def child(impl: str, net: str, quick: bool, reps: int) -> None:
    layers = (QUICK if quick else NETS)[net]
    make = torch_calls if impl == "torch" else tenflang_calls
    out = {"times": {layer[0]: [timed(f, reps) for f in make(layer)] for layer in layers},
           "blas": blas_kernel(), "kernels": kernels(impl, layers)}
    print(json.dumps(out))


def kernels(impl: str, layers) -> dict:
    """The oneDNN implementation of each layer's three primitives (onednn only)."""
    if impl != "onednn":
        return {}
    from tenflang.interp.backends.c import onednn_c as o
    if not o.available():
        return {"unavailable": o.reason()}
    return {layer[0]: [o.implementation(kind, (BATCH, layer[2], layer[3], layer[3]),
                                        (layer[4], layer[2], layer[5], layer[5]), layer[6],
                                        layer[7], 1) for kind in (o.FORWARD, o.DATA, o.WEIGHTS)]
            for layer in layers}


def run_child(python: str, args: list, env: dict) -> tuple[dict, float, float]:
    """(the child's JSON, wall seconds, peak RSS MiB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([python, __file__, *args], stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        if proc.returncode:
            raise RuntimeError(f"{args} failed:\n{err.read().decode()[-3000:]}")
        return json.loads(out.read().decode().splitlines()[-1]), wall, usage.ru_maxrss / 1024


def environment(impl: str, threads: str) -> dict:
    env = as_users(dict(os.environ, PYTHONPATH=str(ROOT)))
    env["TENFLANG_ONEDNN"] = "0" if impl == "today" else "1"
    return dict(env, **ONE_THREAD) if threads == "1" else env


def rounds(pythons: dict, net: str, threads: str, a) -> dict:
    """impl -> list of (child JSON, wall, RSS), `a.runs` interleaved rounds."""
    names, out = list(pythons), {name: [] for name in pythons}
    for i in range(a.runs):
        for name in names[i % len(names):] + names[:i % len(names)]:
            argv = ["--child", name, "--net", net, "--reps", str(a.reps)] + ["--quick"] * a.quick
            out[name].append(run_child(pythons[name], argv, environment(name, threads)))
            print(f"  {net} threads={threads} round {i} {name}: {out[name][-1][1]:.1f} s",
                  file=sys.stderr, flush=True)
    return out


def layer_table(net: str, results: dict, counts: dict) -> list[str]:
    names = list(results)
    lines = [f"| layer (×count) | op | " + " | ".join(f"{n} ms" for n in names)
             + " | onednn/today | onednn/torch |", "|" + "---|" * (len(names) + 4)]
    totals = {n: [0.0] * 3 for n in names}
    for layer in results[names[0]][0][0]["times"]:
        for k, op in enumerate(OPS):
            ms = {n: statistics.median(r[0]["times"][layer][k] for r in results[n]) for n in names}
            for n in names:
                totals[n][k] += ms[n] * counts[layer]
            lines.append(f"| {layer} (×{counts[layer]}) | {op} | "
                         + " | ".join(f"{ms[n]:.2f}" for n in names)
                         + f" | {ms['onednn'] / ms['today']:.2f} | {ms['onednn'] / ms['torch']:.2f} |")
    for k, op in enumerate(OPS):
        t = {n: totals[n][k] for n in names}
        lines.append(f"| **{net} total** | {op} | " + " | ".join(f"{t[n]:.1f}" for n in names)
                     + f" | {t['onednn'] / t['today']:.2f} | {t['onednn'] / t['torch']:.2f} |")
    return lines


def report(net: str, threads: str, results: dict, quick: bool) -> list[str]:
    counts = {layer[0]: layer[1] for layer in (QUICK if quick else NETS)[net]}
    lines = [f"### {net}, batch {BATCH}, float32, threads {threads}", ""]
    lines += layer_table(net, results, counts) + [""]
    for n, rs in results.items():
        lines.append(f"* {n}: whole process {statistics.median(r[1] for r in rs):.1f} s, "
                     f"peak RSS {statistics.median(r[2] for r in rs):.0f} MiB; BLAS: {rs[0][0]['blas']}")
    kern = results["onednn"][0][0]["kernels"]
    lines.append("* oneDNN kernels (forward, image grad, kernel grad): "
                 + "; ".join(f"{k}: {', '.join(v) if isinstance(v, list) else v}"
                             for k, v in kern.items()))
    return lines + [""]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--child"), ap.add_argument("--net", default="resnet50")
    ap.add_argument("--dnnl-python", default=sys.executable)
    ap.add_argument("--torch-python", default="/tmp/benchvenv/bin/python")
    ap.add_argument("--runs", type=int, default=3), ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true"), ap.add_argument("--threads", default="default,1")
    ap.add_argument("--nets", default="resnet50,vgg16"), ap.add_argument("--out")
    a = ap.parse_args()
    if a.child:
        return child(a.child, a.net, a.quick, a.reps)
    pythons = {"onednn": a.dnnl_python, "today": a.dnnl_python, "torch": a.torch_python}
    lines = []
    for threads in a.threads.split(","):
        for net in a.nets.split(","):
            lines += report(net, threads, rounds(pythons, net, threads, a), a.quick)
            print("\n".join(lines[-40:]), file=sys.stderr)
    text = "\n".join(lines)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
