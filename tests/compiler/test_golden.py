"""The samples' GCPs equal the reviewed golden files (tests/golden/).

After an intended change to generated code, run
`python tests/golden/regenerate.py` and review the diff like code.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "golden"))

from regenerate import golden_path, golden_text, samples  # noqa: E402


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("sample", samples(), ids=lambda p: p.stem)
def test_gcp_matches_its_golden_file(sample, level):
    path = golden_path(sample, level)
    assert path.exists(), f"no golden file {path.name}: run python tests/golden/regenerate.py"
    assert golden_text(sample, level) == path.read_text(), (
        f"{sample.name} -O{level} differs from {path.name}; if intended, run "
        "python tests/golden/regenerate.py and review the diff")


COLLIDING = """\
declare input x [2]
declare weight w [2]
declare intvar h
declare intvar q
declare loss L
define h = sum (mul x w)
define q = mul h h
define L = add q h
"""


def derivative_names_read_true(gcp: str) -> None:
    """docs/design.md §2.5: `d/dv` of a program variable v is v's adjoint (v's
    shape) and `du/dv` a partial of u by its operand v; a temporary reads as
    neither.  The program's variables are the declared names without `/`."""
    shapes, operands = {}, {}
    for line in gcp.splitlines():
        words = line.replace("[", " [").split(maxsplit=3)
        if words[:1] == ["declare"]:
            shapes[words[2]] = words[3].split(" init ")[0] if len(words) > 3 else "[]"
        elif words[:1] == ["define"] and "/" not in words[1]:
            operands[words[1]] = set(line.replace("(", " ").replace(")", " ").split()[3:])
    variables = {name for name in shapes if "/" not in name}
    for name in shapes:
        head, _, tail = name.partition("/")
        if "/" in name and tail[1:] in variables:
            if head == "d":
                assert shapes[name] == shapes[tail[1:]], (name, shapes[name])
            else:
                assert tail[1:] in operands[head[1:]], f"{name}: not an operand of {head[1:]}"


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("sample", samples(), ids=lambda p: p.stem)
def test_gcp_names_read_as_what_they_are(sample, level):
    derivative_names_read_true(golden_path(sample, level).read_text())


@pytest.mark.parametrize("level", [0, 1])
def test_a_nested_operand_keeps_its_adjoints_name(level):
    """`h` used three times and its nested operand `h.1`: the terms of d/dh
    skip `d/dh.1`, which is h.1's adjoint, of h.1's shape."""
    import tenflang
    gcp = tenflang.print_program(tenflang.compile_gradient(
        tenflang.parse(COLLIDING, shape_program=True), level))
    derivative_names_read_true(gcp)
    assert "declare intvar d/dh.1 [2]" in gcp
