#!/usr/bin/env python3
"""The seed's four ImageNet-size networks trained in PyTorch eager, as
bench_seed_networks.py times them against `tfweightcalc`.

    python bench/seed_networks_reference.py train NET BATCH STEPS LR DATA.npz OUT.npz
    python bench/seed_networks_reference.py count NET     # its parameters
    python bench/seed_networks_reference.py info          # torch's BLAS and threads

`train` does what `tfweightcalc GCP DATA --optimizer sgd --lr LR --batch-size
BATCH --max-iters STEPS --dtype float32 -o OUT` does: load the images, take
STEPS plain SGD steps (torch.optim.SGD) on consecutive batches of BATCH in
training mode (dropout on, batch norm on the batch's statistics), write the
weights.  The networks are those of samples/*.tf:

* resnet50, vgg16: torchvision's resnet50 (v1.5: the stride on the 3x3) and
  vgg16 (its adaptive average pool to 7x7 is the identity at 224x224); where
  torchvision does not import (not installed, or a build for another torch),
  the same layers written here (`count` checks the parameters).
* alexnet: Caffe's bvlc_alexnet — conv2, conv4 and conv5 in 2 groups, local
  response normalisation (5, 1e-4, 0.75, 1) after the relu of conv1 and
  conv2, 3x3 stride-2 max-pools rounding up (ceil_mode), 4096-4096-1000 with
  dropout 0.5 (torchvision's alexnet is another, ungrouped network).
* googlenet: Caffe's bvlc_googlenet without the auxiliary classifiers —
  biases and relu on every convolution, no batch norm, 5x5 convolutions in
  the inception blocks, lrn and ceil-mode pools (torchvision's googlenet has
  batch norm and 3x3 in place of the 5x5).

This module is run by the benchmark's --torch-python interpreter (a venv with
torch and torchvision); it imports nothing from tenflang.
"""
from __future__ import annotations

import sys

# (Cin, c1, r3, c3, r5, c5, cp) of the nine inception blocks (Szegedy et al., table 1)
INCEPTIONS = [(192, 64, 96, 128, 16, 32, 32), (256, 128, 128, 192, 32, 96, 64),
              (480, 192, 96, 208, 16, 48, 64), (512, 160, 112, 224, 24, 64, 64),
              (512, 128, 128, 256, 24, 64, 64), (512, 112, 144, 288, 32, 64, 64),
              (528, 256, 160, 320, 32, 128, 128), (832, 256, 160, 320, 32, 128, 128),
              (832, 384, 192, 384, 48, 128, 128)]
POOL_AFTER = {1, 6}     # a 3x3 stride-2 max-pool after 3b and after 4e


def conv(nn, cin, cout, k, stride=1, pad=0, groups=1):
    """A convolution with bias, then relu (the samples' `conv` macro)."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad, groups=groups), nn.ReLU())


def alexnet(nn):
    lrn = lambda: nn.LocalResponseNorm(5, 1e-4, 0.75, 1.0)   # noqa: E731
    pool = lambda: nn.MaxPool2d(3, 2, ceil_mode=True)        # noqa: E731
    return nn.Sequential(
        conv(nn, 3, 96, 11, 4), lrn(), pool(),
        conv(nn, 96, 256, 5, 1, 2, groups=2), lrn(), pool(),
        conv(nn, 256, 384, 3, 1, 1), conv(nn, 384, 384, 3, 1, 1, groups=2),
        conv(nn, 384, 256, 3, 1, 1, groups=2), pool(), nn.Flatten(),
        nn.Linear(9216, 4096), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4096, 1000))


def googlenet(nn):
    import torch

    class Inception(nn.Module):
        def __init__(self, cin, c1, r3, c3, r5, c5, cp):
            super().__init__()
            self.b1 = conv(nn, cin, c1, 1)
            self.b3 = nn.Sequential(conv(nn, cin, r3, 1), conv(nn, r3, c3, 3, 1, 1))
            self.b5 = nn.Sequential(conv(nn, cin, r5, 1), conv(nn, r5, c5, 5, 1, 2))
            self.bp = nn.Sequential(nn.MaxPool2d(3, 1, 1), conv(nn, cin, cp, 1))

        def forward(self, x):
            return torch.cat([self.b1(x), self.b3(x), self.b5(x), self.bp(x)], 1)

    lrn = lambda: nn.LocalResponseNorm(5, 1e-4, 0.75, 1.0)   # noqa: E731
    pool = lambda: nn.MaxPool2d(3, 2, ceil_mode=True)        # noqa: E731
    layers = [conv(nn, 3, 64, 7, 2, 3), pool(), lrn(), conv(nn, 64, 64, 1),
              conv(nn, 64, 192, 3, 1, 1), lrn(), pool()]
    for i, block in enumerate(INCEPTIONS):
        layers.append(Inception(*block))
        if i in POOL_AFTER:
            layers.append(pool())
    layers += [nn.AvgPool2d(7), nn.Flatten(), nn.Dropout(0.4), nn.Linear(1024, 1000)]
    return nn.Sequential(*layers)


def vgg16(nn):
    """torchvision's vgg16 (configuration D) without its adaptive pool (the
    identity at 224x224)."""
    layers, cin = [], 3
    for cout in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M",
                 512, 512, 512, "M"):
        layers += [nn.MaxPool2d(2)] if cout == "M" else [conv(nn, cin, cout, 3, 1, 1)]
        cin = cin if cout == "M" else cout
    return nn.Sequential(*layers, nn.Flatten(), nn.Linear(25088, 4096), nn.ReLU(),
                         nn.Dropout(0.5), nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(0.5),
                         nn.Linear(4096, 1000))


def conv_bn(nn, cin, cout, k, stride=1, pad=0):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad, bias=False), nn.BatchNorm2d(cout))


def resnet50(nn):
    """torchvision's resnet50 (v1.5: a stage's stride on its first block's 3x3)."""

    class Bottleneck(nn.Module):
        def __init__(self, cin, width, stride):
            super().__init__()
            self.branch = nn.Sequential(
                conv_bn(nn, cin, width, 1), nn.ReLU(), conv_bn(nn, width, width, 3, stride, 1),
                nn.ReLU(), conv_bn(nn, width, 4 * width, 1))
            self.down = (conv_bn(nn, cin, 4 * width, 1, stride)
                         if stride != 1 or cin != 4 * width else nn.Identity())

        def forward(self, x):
            return (self.down(x) + self.branch(x)).relu()

    layers, cin = [conv_bn(nn, 3, 64, 7, 2, 3), nn.ReLU(), nn.MaxPool2d(3, 2, 1)], 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            layers.append(Bottleneck(cin, width, stride if i == 0 else 1))
            cin = 4 * width
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000))


def network(name: str):
    """torchvision's model where torchvision imports, else the same layout here."""
    import torch.nn as nn
    if name in ("resnet50", "vgg16"):
        try:
            import torchvision
            return getattr(torchvision.models, name)(weights=None)
        except Exception:       # not installed, or built for another torch
            pass
    return {"alexnet": alexnet, "googlenet": googlenet, "resnet50": resnet50,
            "vgg16": vgg16}[name](nn)


def torchvision_used(name: str) -> bool:
    try:
        import torchvision  # noqa: F401
        return name in ("resnet50", "vgg16")
    except Exception:
        return False


def train(name, batch, steps, lr, data, out) -> None:
    import numpy as np
    import torch
    images = np.load(data)
    x = torch.from_numpy(images["x"].astype(np.float32))
    y = torch.from_numpy(images["label"].astype(np.int64))
    model = network(name).train()
    opt = torch.optim.SGD(model.parameters(), lr=float(lr))
    for step in range(int(steps)):
        rows = [(step * int(batch) + i) % len(x) for i in range(int(batch))]
        loss = torch.nn.functional.cross_entropy(model(x[rows]), y[rows])
        opt.zero_grad()
        loss.backward()
        opt.step()
    np.savez(out, **{k: v.detach().numpy() for k, v in model.state_dict().items()})


def info() -> str:
    """torch's version, BLAS and oneDNN (its build configuration), threads, and
    the libraries threadpoolctl finds loaded (where it is installed)."""
    import torch
    config = torch.__config__.show()
    settings = dict(item.strip().split("=", 1) for line in config.splitlines()
                    if "Build settings:" in line
                    for item in line.split(":", 1)[1].split(", ") if "=" in item)
    picked = [f"{k}={settings[k]}" for k in ("BLAS_INFO", "LAPACK_INFO", "USE_MKLDNN")
              if k in settings]
    versions = [line.strip(" -") for line in config.splitlines()
                if "Math Kernel Library" in line or "MKL-DNN" in line or "oneDNN" in line
                or "CPU capability" in line]
    threads = [line.strip() for line in torch.__config__.parallel_info().splitlines()
               if line.strip().startswith(("at::get_num_threads", "ATen parallel backend"))]
    return f"torch {torch.__version__}: " + "; ".join(versions + picked + threads + [loaded()])


def loaded() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed beside torch"
    return "loaded, as threadpoolctl sees them: " + ", ".join(
        f"{i.get('internal_api')} {i.get('version')} {i.get('architecture') or ''}".strip()
        + f" ({i.get('num_threads')} threads)" for i in threadpool_info())


def main(argv) -> int:
    if argv[:1] == ["train"]:
        train(*argv[1:])
    elif argv[:1] == ["count"]:
        print(sum(p.numel() for p in network(argv[1]).parameters()),
              "torchvision" if torchvision_used(argv[1]) else "written here")
    else:
        print(info())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
