"""Where the repository and its sample programs are (the samples double as
the test corpus).

`SAMPLES` is that corpus: every samples/*.tf but the ImageNet-size networks
(`IMAGENET_SAMPLES`), whose GCPs run to thousands of lines and whose steps
take seconds each; tests/commands/test_big_samples.py tests those."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES_DIR = ROOT / "samples"
IMAGENET = ("alexnet", "googlenet", "resnet50", "vgg16")
IMAGENET_SAMPLES = [SAMPLES_DIR / f"{name}.tf" for name in IMAGENET]
SAMPLES = sorted(p for p in SAMPLES_DIR.glob("*.tf") if p.stem not in IMAGENET)
