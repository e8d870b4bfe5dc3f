#!/usr/bin/env python3
"""PyTorch's accuracy for the network samples, same net and settings as TenFlang.

    python bench/torch_samples.py [vgg_digits resnet_digits inception_digits] [--dtype float32]

Each net of samples/{vgg,resnet,inception}_digits.tf written again in PyTorch
(functional, over the weights by their TenFlang names), started from the very
initial weights tfweightcalc draws (`--seed`), trained on the same batches
(tfweightcalc's batch order) with `torch.optim.Adam` and the options of the
sample's recipe (tests/commands/test_samples.py), then — as tfweightcalc does — the
batch statistics' population values computed over the training examples with
the final weights, and the held-out accuracy taken in evaluation mode.  Only
dropout's draws differ (PyTorch's generator).  Prints one line per sample.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tenflang  # noqa: E402
from tenflang.training.signature import initial_weights, signature  # noqa: E402
from tenflang.training.sampling import batch_indices  # noqa: E402

# sample -> (adam's lr, batch size, iterations): the recipes of tests/commands/test_samples.py
RECIPES = {"vgg_digits": (0.01, 64, 400), "resnet_digits": (0.01, 64, 200),
           "inception_digits": (0.01, 64, 400)}


def conv(F, x, K, c, pad=1):
    return F.relu(F.conv2d(x, K, padding=pad) + c)


def batchnorm2d(torch, x, gamma, beta, stats, key):
    """As the sample's macro: batch statistics in training (`stats` None),
    else the population values in `stats`; with `stats` a dict being filled,
    the batch's statistics are recorded under `key`."""
    if isinstance(stats, dict) and key in stats:
        mean, var = stats[key]
    else:
        mean = x.mean(dim=(0, 2, 3))
        var = ((x - mean[:, None, None]) ** 2).mean(dim=(0, 2, 3))
        if isinstance(stats, dict):
            stats[key] = (mean, var)
    y = (x - mean[:, None, None]) / torch.sqrt(var[:, None, None] + 1e-5)
    return y * gamma[:, None, None] + beta[:, None, None]


def vgg(torch, F, w, x, training, stats=None):
    h = x.reshape(-1, 1, 8, 8)
    a1 = F.max_pool2d(conv(F, conv(F, h, w["K1"], w["c1"]), w["K2"], w["c2"]), 2)
    a2 = F.max_pool2d(conv(F, conv(F, a1, w["K3"], w["c3"]), w["K4"], w["c4"]), 2)
    f = F.dropout(a2.flatten(1), 0.25, training=training)
    return f @ w["W"].T + w["b"]


def resnet(torch, F, w, x, training, stats=None):
    def bn(h, k):       # the weights g<k>, b<k>: the stem's, or a block's (`h1.g1`)
        return batchnorm2d(torch, h, w[k.replace("K", "g")], w[k.replace("K", "b")], stats, k)

    def residual(h, block):     # the block's macro owns its weights, named after its call
        inner = F.relu(bn(F.conv2d(h, w[f"{block}.K1"], padding=1), f"{block}.K1"))
        return F.relu(h + bn(F.conv2d(inner, w[f"{block}.K2"], padding=1), f"{block}.K2"))
    h0 = F.relu(bn(F.conv2d(x.reshape(-1, 1, 8, 8), w["K0"], padding=1), "K0"))
    h2 = residual(F.max_pool2d(residual(h0, "h1"), 2), "h2")
    return F.avg_pool2d(h2, 4).flatten(1) @ w["W"].T + w["b"]


def inception(torch, F, w, x, training, stats=None):
    h = conv(F, x.reshape(-1, 1, 8, 8), w["K0"], w["c0"])
    one = conv(F, h, w["K1"], w["c1"], 0)
    three = conv(F, conv(F, h, w["K2"], w["c2"], 0), w["K3"], w["c3"])
    five = conv(F, conv(F, h, w["K4"], w["c4"], 0), w["K5"], w["c5"], 2)
    pool = conv(F, F.max_pool2d(h, 3, 1, 1), w["K6"], w["c6"], 0)
    block = torch.cat([one, three, five, pool], dim=1)
    return F.max_pool2d(block, 2).flatten(1) @ w["W"].T + w["b"]


NETS = {"vgg_digits": vgg, "resnet_digits": resnet, "inception_digits": inception}


def load(name: str):
    examples = tenflang.load_examples(str(ROOT / "samples" / name)).arrays
    return examples["x"], examples["label"].astype(int)


def run(name: str, dtype: str, seed: int = 0) -> tuple[float, float]:
    """(held-out accuracy, seconds of training)."""
    import torch
    import torch.nn.functional as F
    torch.manual_seed(seed)
    torch.set_num_threads(1)        # tiny nets: threads cost more than they give
    gcp = tenflang.compile_gradient(tenflang.parse_file(str(ROOT / "samples" / f"{name}.tf")))
    lr, batch, iters = RECIPES[name]
    tdtype = getattr(torch, dtype)
    w = {k: torch.tensor(v, dtype=tdtype, requires_grad=True)
         for k, v in initial_weights(signature(gcp), seed).items()}
    x, y = load("digit_images_train.txt")
    xt, yt = load("digit_images_test.txt")
    x, xt = torch.tensor(x, dtype=tdtype), torch.tensor(xt, dtype=tdtype)
    y, yt = torch.tensor(y), torch.tensor(yt)
    net = NETS[name]
    opt = torch.optim.Adam(w.values(), lr=lr)
    started = time.perf_counter()
    for it in range(iters):
        rows = batch_indices(len(x), batch, seed, it)
        rows = torch.arange(len(x)) if rows is None else torch.as_tensor(np.asarray(rows))
        opt.zero_grad()
        F.cross_entropy(net(torch, F, w, x[rows], True), y[rows]).backward()
        opt.step()
    seconds = time.perf_counter() - started
    with torch.no_grad():
        stats: dict = {}
        net(torch, F, w, x, False, stats)      # population values: every training example
        scores = net(torch, F, w, xt, False, stats)
    return float((scores.argmax(1) == yt).double().mean()), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", nargs="*", default=list(NETS))
    parser.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name in args.samples:
        accuracy, seconds = run(name, args.dtype, args.seed)
        lr, batch, iters = RECIPES[name]
        print(f"{name}: PyTorch held-out accuracy {accuracy:.4f} (adam lr {lr}, batch {batch}, "
              f"{iters} iterations, {args.dtype}, seed {args.seed}; {seconds:.1f} s training)")


if __name__ == "__main__":
    main()
