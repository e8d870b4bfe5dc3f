"""The samples' GCPs equal the reviewed golden files (tests/golden/).

After an intended change to generated code, run
`python tests/golden/regenerate.py` and review the diff like code.
"""
from __future__ import annotations

import re
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


def gcp_blocks(gcp: str) -> list[list[list[str]]]:
    """The GCP's lines as words (`[` spaced off, a loop adjoint's several
    targets `a, b` one word each), in runs led by a comment (the first run:
    the header before any comment); the macros of kept loops, which have
    names of their own, left out."""
    blocks: list[list[list[str]]] = [[]]
    in_macro = False
    for line in gcp.splitlines():
        if line.startswith(("macro ", "end")):
            in_macro = line.startswith("macro ")
        elif in_macro:
            continue
        elif line.startswith("#"):
            blocks.append([])
        elif line.strip():
            blocks[-1].append(line.replace("[", " [").replace(",", "").split())
    return blocks


def defined_names(words: list[str]) -> list[str]:
    """The targets of a `define` line's words: one, or a loop adjoint's several."""
    return words[1:words.index("=")]


def derivative_names_read_true(gcp: str) -> None:
    """docs/design.md §2.5: every name the backward part defines is `d/dv`, the
    adjoint of a variable v of the shape program (v's shape), `dv/dm`, the
    partial of v by m, an operand v's definition reads once, or a temporary
    `tmp/v/k` of v's block; each is declared in the block that defines it,
    before its definition; and no line adds a value to itself (`mul 2 x`)."""
    blocks = gcp_blocks(gcp)
    shapes = {w[2]: " ".join(w[3:w.index("init")] if "init" in w else w[3:]) or "[]"
              for b in blocks for w in b if w[0] == "declare"}
    operands = {w[1]: w[3 + (len(w) > 4):] for b in blocks for w in b      # `define h = h.1`
                if w[0] == "define" and "/" not in w[1]}
    assert all("/" not in w[2] for w in blocks[0]), "a backward name declared in the header"
    for block in blocks[1:]:
        declared = [w[2] for w in block if w[0] == "declare"]
        defined = [n for w in block if w[0] == "define" for n in defined_names(w)]
        defines = sum(w[0] == "define" for w in block)
        assert [w[0] for w in block] == ["declare"] * len(declared) + ["define"] * defines
        assert not declared or declared == defined, f"declared {declared}, defined {defined}"
        for name in declared:
            assert_reads_true(name, shapes, operands)
        for words in block:
            assert words[3:4] != ["add"] or words[4] != words[5], " ".join(words)


def assert_reads_true(name: str, shapes: dict, operands: dict) -> None:
    """`name` (a backward name) is what its spelling says (see above)."""
    head, _, tail = name.partition("/")
    if head == "tmp":
        assert tail.rpartition("/")[0] in operands or tail.rpartition("/")[0] in shapes, name
    elif head == "d":
        assert tail[:1] == "d" and tail[1:] in shapes and "/" not in tail, name
        assert shapes[name] == shapes[tail[1:]], (name, shapes[name])
    else:
        node, operand = head[1:], tail[1:]
        assert head[:1] == "d" and tail[:1] == "d" and node in operands, name
        assert operands[node].count(operand) == 1, f"{name}: {node} reads {operand} " \
            f"{operands[node].count(operand)} times"


@pytest.mark.parametrize("gcp,message", [
    ("# b\ndeclare intvar d/dscores.4\ndefine d/dscores.4 = 1\n", "d/dscores.4"),
    ("declare input x\n# f\ndefine q = mul x x\n# b\ndeclare intvar dq/dx\n"
     "define dq/dx = x\n", "reads x 2 times"),
    ("declare intvar d/dq\n# b\ndefine d/dq = 1\n", "header"),
    ("# b\ndeclare intvar tmp/q/1\ndefine tmp/q/1 = add q q\n", "add q q"),
])
def test_the_naming_check_catches_a_misleading_name(gcp, message):
    """The check above fails on what it guards against (a test that cannot fail
    proves nothing)."""
    with pytest.raises(AssertionError, match=message.replace(".", r"\.")):
        derivative_names_read_true("declare intvar q\ndeclare intvar scores\n" + gcp)


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("sample", samples(), ids=lambda p: p.stem)
def test_gcp_names_read_as_what_they_are(sample, level):
    derivative_names_read_true(golden_path(sample, level).read_text())


@pytest.mark.parametrize("level", [0, 1])
def test_a_nested_operand_keeps_its_adjoints_name(level):
    """`h` used three times and its nested operand `h.1`: `d/dh.1` is h.1's
    adjoint, of h.1's shape, the terms of d/dh are temporaries, and `q = mul h
    h` has no partial `dq/dh` (by one position it is h, the partial is 2h)."""
    import tenflang
    gcp = tenflang.print_program(tenflang.compile_gradient(
        tenflang.parse(COLLIDING, shape_program=True), level))
    derivative_names_read_true(gcp)
    assert "declare intvar d/dh.1 [2]" in gcp
    assert "dq/dh" not in gcp and re.search(r"define tmp/h/\d+ = ", gcp)
