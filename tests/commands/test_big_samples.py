"""The seed's four networks at ImageNet size: samples/alexnet.tf, googlenet.tf,
resnet50.tf and vgg16.tf (tests/support/paths.py: `IMAGENET_SAMPLES`).

Each compiles at -O0 and -O1, `tfcompiler --memory --batch 1` prints its
table, the weights its GCP declares number as many as the published
network's, and one training step at batch 1 on a random 3x224x224 image, in
float32, gives finite weights.  The published counts, and what they count:

* ResNet-50, 25 557 032: torchvision's resnet50 — convolution kernels (no
  biases), batch norm's scales and shifts (its running statistics are
  buffers, not parameters), the dense layer's weights and biases.
* VGG-16, 138 357 544: torchvision's vgg16 — the kernels and biases of its 13
  convolutions and the weights and biases of its 3 dense layers.
* AlexNet, 60 965 224: Caffe's bvlc_alexnet, conv2, conv4 and conv5 in two
  groups — kernels, biases, dense weights and biases.  (torchvision's
  alexnet, ungrouped and narrower, has 61 100 840: another network.)
* GoogLeNet, 6 998 552: Caffe's bvlc_googlenet without its two auxiliary
  classifiers — kernels, biases, the dense layer's weights and biases.
  (torchvision's googlenet, 6 624 904, has batch norm in place of the
  biases and a 3x3 convolution in the branch published as 5x5.)

`test_the_published_counts_are_the_papers_layer_tables` adds each figure up
from its paper's layer table, so what it counts is written down.

The step runs on the numpy path (TENFLANG_FUSE=0, TENFLANG_NATIVE=0): the
native one compiles C for each new plan shape first, minutes on a cold
cache.  ResNet-50's batch statistics are the running averages of its one
step (tfweightcalc's default): the exact population pass is tested on
smaller programs (tests/interpreter/test_population_pass.py).
"""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

import tenflang
from tenflang.data.vectors import load_weights

from support.paths import SAMPLES_DIR

PUBLISHED = {"alexnet": 60_965_224, "googlenet": 6_998_552, "resnet50": 25_557_032,
             "vgg16": 138_357_544}
PEAK = re.compile(r"peak: [\d,]+ bytes at line \d+ \(\S+\): [\d,]+ per example × 1 "
                  r"\+ [\d,]+ per batch")


def conv(cin: int, cout: int, k: int, bias: bool = True) -> int:
    return cin * cout * k * k + (cout if bias else 0)


def dense(n: int, m: int) -> int:
    return n * m + m


def bottlenecks(cin: int, width: int, blocks: int) -> int:
    """A stage of ResNet-50 (convolutions without biases, each followed by a
    batch norm's scale and shift): 1x1, 3x3, 1x1 to 4 × width, the first
    block's shortcut a 1x1 convolution with its batch norm."""
    out = 4 * width

    def block(c: int) -> int:
        return (conv(c, width, 1, False) + conv(width, width, 3, False)
                + conv(width, out, 1, False) + 2 * (2 * width + out))
    return block(cin) + conv(cin, out, 1, False) + 2 * out + (blocks - 1) * block(out)


INCEPTIONS = [(192, 64, 96, 128, 16, 32, 32), (256, 128, 128, 192, 32, 96, 64),   # 3a, 3b
              (480, 192, 96, 208, 16, 48, 64), (512, 160, 112, 224, 24, 64, 64),  # 4a, 4b
              (512, 128, 128, 256, 24, 64, 64), (512, 112, 144, 288, 32, 64, 64),
              (528, 256, 160, 320, 32, 128, 128), (832, 256, 160, 320, 32, 128, 128),
              (832, 384, 192, 384, 48, 128, 128)]     # Szegedy et al., table 1


def test_the_published_counts_are_the_papers_layer_tables():
    """The figures compared with, from the published layer tables."""
    assert PUBLISHED["resnet50"] == (conv(3, 64, 7, False) + 2 * 64 + bottlenecks(64, 64, 3)
                                     + bottlenecks(256, 128, 4) + bottlenecks(512, 256, 6)
                                     + bottlenecks(1024, 512, 3) + dense(2048, 1000))
    widths = [(3, 64), (64, 64), (64, 128), (128, 128), (128, 256), (256, 256), (256, 256),
              (256, 512), (512, 512), (512, 512), (512, 512), (512, 512), (512, 512)]
    assert PUBLISHED["vgg16"] == (sum(conv(a, b, 3) for a, b in widths) + dense(25088, 4096)
                                  + dense(4096, 4096) + dense(4096, 1000))
    assert PUBLISHED["alexnet"] == (conv(3, 96, 11) + conv(48, 256, 5) + conv(256, 384, 3)
                                    + conv(192, 384, 3) + conv(192, 256, 3) + dense(9216, 4096)
                                    + dense(4096, 4096) + dense(4096, 1000))
    assert PUBLISHED["googlenet"] == (
        conv(3, 64, 7) + conv(64, 64, 1) + conv(64, 192, 3) + dense(1024, 1000)
        + sum(conv(c, c1, 1) + conv(c, r3, 1) + conv(r3, c3, 3) + conv(c, r5, 1)
              + conv(r5, c5, 5) + conv(c, cp, 1) for c, c1, r3, c3, r5, c5, cp in INCEPTIONS))


@pytest.fixture
def numpy_path(monkeypatch):
    monkeypatch.setenv("TENFLANG_FUSE", "0")
    monkeypatch.setenv("TENFLANG_NATIVE", "0")


def random_image(path, seed: int) -> None:
    r = np.random.default_rng(seed)
    np.savez(path, x=r.random((1, 3, 224, 224)), label=np.array([float(r.integers(1000))]))


def declared_weights(gcp_text: str) -> int:
    program = tenflang.parse(gcp_text)
    return sum(math.prod(d.shape or ()) for d in program.declarations().values()
               if d.kind == "weight")


def compiled(run_cli_batch, name: str, tmp_path, step: list | None = None) -> list:
    """tfcompiler at -O1 (to a file) and -O0, its memory table, then `step`."""
    sample, gcp = SAMPLES_DIR / f"{name}.tf", tmp_path / "gcp.tf"
    runs = run_cli_batch([["tfcompiler", sample, "-o", gcp], ["tfcompiler", sample, "-O", "0"],
                          ["tfcompiler", sample, "--memory", "--batch", "1", "--dtype", "float32",
                           "-o", tmp_path / "memory.gcp.tf"], *([step] if step else [])])
    for code, _, err in runs:
        assert code == 0, err
    (_, _, _), (_, level0, _), (_, _, table) = runs[:3]
    assert declared_weights(gcp.read_text()) == PUBLISHED[name]
    assert declared_weights(level0) == PUBLISHED[name]
    title, header, *rows, peak = table.rstrip("\n").split("\n")
    assert title == "memory of one training step, batch 1, float32 (bytes):"
    assert header.split() == ["line", "value", "shape", "bytes", "temp", "live", "freed"]
    assert len(rows) > 100 and PEAK.fullmatch(peak), peak
    return runs


@pytest.mark.parametrize("name", ["alexnet", "googlenet", "resnet50", "vgg16"])
def test_network_compiles_and_takes_a_training_step(run_cli_batch, numpy_path, tmp_path, name):
    random_image(tmp_path / "image.npz", 1)
    step = ["tfweightcalc", tmp_path / "gcp.tf", tmp_path / "image.npz", "-o",
            tmp_path / "weights.npz", "--max-iters", "1", "--batch-size", "1", "--dtype", "float32"]
    *_, (_, _, report) = compiled(run_cli_batch, name, tmp_path, step)
    assert f"{PUBLISHED[name]:,} parameters" in report, report
    weights = load_weights(str(tmp_path / "weights.npz"))   # and batch statistics
    declared = {n for n, d in tenflang.parse((tmp_path / "gcp.tf").read_text())
                .declarations().items() if d.kind == "weight"}
    assert sum(np.size(w) for n, w in weights.items() if n in declared) == PUBLISHED[name]
    assert all(np.isfinite(w).all() for w in weights.values())
