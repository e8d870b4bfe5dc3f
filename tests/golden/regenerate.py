"""Regenerate the golden GCPs of the samples: `python tests/golden/regenerate.py`.

Each sample's GCP at -O0 and -O1 is written next to this script as
`<sample>.O<level>.tf`; tests/compiler/test_golden.py fails when the compiler's output
differs, so a change in generated code shows up in review as a diff of these
files.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tenflang import compile_gradient, parse_file, print_program  # noqa: E402
from support.paths import SAMPLES  # noqa: E402


def golden_text(sample: Path, level: int) -> str:
    program = parse_file(str(sample.relative_to(ROOT)), shape_program=True)
    return print_program(compile_gradient(program, level))


def golden_path(sample: Path, level: int) -> Path:
    return HERE / f"{sample.stem}.O{level}.tf"


def samples() -> list[Path]:
    """The samples of the test corpus (tests/support/paths.py: not the
    ImageNet-size networks, whose GCPs run to thousands of lines)."""
    return list(SAMPLES)


if __name__ == "__main__":
    for sample in samples():
        for level in (0, 1):
            golden_path(sample, level).write_text(golden_text(sample, level))
            print(golden_path(sample, level).relative_to(ROOT))
