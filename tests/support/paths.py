"""Where the repository and its sample programs are (the samples double as
the test corpus)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES_DIR = ROOT / "samples"
SAMPLES = sorted(SAMPLES_DIR.glob("*.tf"))
