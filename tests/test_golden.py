"""The samples' GCPs equal the reviewed golden files (tests/golden/).

After an intended change to generated code, run
`python tests/golden/regenerate.py` and review the diff like code.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))

from regenerate import golden_path, golden_text, samples  # noqa: E402


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("sample", samples(), ids=lambda p: p.stem)
def test_gcp_matches_its_golden_file(sample, level):
    path = golden_path(sample, level)
    assert path.exists(), f"no golden file {path.name}: run python tests/golden/regenerate.py"
    assert golden_text(sample, level) == path.read_text(), (
        f"{sample.name} -O{level} differs from {path.name}; if intended, run "
        "python tests/golden/regenerate.py and review the diff")
