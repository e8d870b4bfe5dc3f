"""Fuzzing the front end and the compiler: whatever the text, `parse` either
returns a program or raises `TenflangError` (never IndexError, KeyError,
RecursionError, a lark exception, ...), and a program that parses as a shape
program compiles at both levels to a GCP that prints and parses again.

Inputs: soups of TenFlang tokens, random mutations of valid programs (the
samples and a few with tensors and macros), and random well-formed programs
over the whole op table.  Kept to about 20 s.
"""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import programs
from support.paths import SAMPLES
from tenflang.ops import entries as opkinds, table as ops
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError
from tenflang.lang import Comment, parse, print_program

FUZZ = settings(max_examples=250, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

VALID = [p.read_text() for p in SAMPLES] + [
    programs.TWO_LAYER_MLP_NESTED_MACROS, programs.MATRIX_REGRESSION_TWO_LOSSES,
    programs.SOFTPLUS_ROOT]

TOKENS = (["declare", "define", "macro", "end", "=", "->", "[", "]", ",", "#", "\n", "\n\n",
           "(", ")", "((", "))", "[-1]", "[1, 0]",
           "x", "y", "w", "l", "h.t", "d/dw", "a.", "/", ".", "-", "+", "e",
           "0", "1", "-1", "0.5", "1e-3", ".5", "2.", "1e999", "3x", "1.2.3", "007",
           "$", "\t", "\r", "\r\n", "\f", "\x00", "é", "\u2028", "\ufeff", "\\", '"', "'"]
          + list(ops.TABLE) + ["intvar", "input", "weight", "exp_output", "output", "loss"])

JUNK = st.sampled_from(list("=[](),#.-+/\\$@!\"'\t\r\n\f\x00\x0b\x1c\u2028é∑0123456789eE_ ")
                       + ["->", "end", "macro", "\n\n"])

TOKEN = re.compile(r"\s+|[A-Za-z_0-9.+\-/]+|->|.", re.S)


def must_parse_or_fail_cleanly(text: str, shape_program: bool):
    try:
        return parse(text, "f.tf", shape_program=shape_program)
    except TenflangError as err:
        rendered = err.render()                       # rendering must not fail either
        assert rendered.startswith("f.tf")
        where = err.location
        if where.line is not None:                    # the excerpt is the line lark counted
            lines = text.split("\n")
            assert 1 <= where.line <= max(len(lines), 1)
            assert where.source_line == (lines[where.line - 1] if text else None)
            assert 1 <= where.column <= len(lines[where.line - 1]) + 1
        return None


def compiles_cleanly(program) -> None:
    for level in (0, 1):
        try:
            gcp = compile_gradient(program, level)
        except TenflangError:
            continue
        text = print_program(gcp)
        again = parse(text, "gcp.tf")                # a GCP is a valid TenFlang program
        assert again.statements == tuple(s for s in gcp.statements if not isinstance(s, Comment))


def exercise(text: str) -> None:
    must_parse_or_fail_cleanly(text, False)
    program = must_parse_or_fail_cleanly(text, True)
    if program is not None:
        compiles_cleanly(program)


# --- token soups ---------------------------------------------------------------------------

soup = st.lists(st.tuples(st.sampled_from(TOKENS), st.sampled_from(["", " ", " ", "\t", "\n"])),
                max_size=40).map(lambda parts: "".join(t + sep for t, sep in parts))


@FUZZ
@given(soup)
def test_token_soup(text):
    exercise(text)


@FUZZ
@given(st.text(max_size=80))
def test_arbitrary_text(text):
    exercise(text)


@settings(FUZZ, max_examples=150)
@given(st.lists(st.sampled_from(["declare", "define", "macro", "end", "x", "=", "->", "add",
                                 "loss", "intvar", "1", "\n"]), max_size=60))
def test_keyword_soup(words):
    exercise(" ".join(words))


# --- mutations of valid programs -----------------------------------------------------------

def test_valid_corpus_is_valid():
    for text in VALID:
        program = parse(text, "v.tf", shape_program=True)
        compiles_cleanly(program)


@st.composite
def mutated(draw):
    tokens = TOKEN.findall(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 4))):
        if not tokens:
            break
        i = draw(st.integers(0, len(tokens) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "junk", "replace", "move"]))
        if kind == "delete":
            del tokens[i]
        elif kind == "duplicate":
            tokens.insert(i, tokens[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "junk":
            tokens.insert(i, draw(JUNK))
        elif kind == "replace":
            tokens[i] = draw(st.sampled_from(TOKENS))
        else:                                         # move a whole line elsewhere
            lines = "".join(tokens).split("\n")
            a, b = (draw(st.integers(0, len(lines) - 1)) for _ in range(2))
            lines.insert(b, lines.pop(a))
            tokens = TOKEN.findall("\n".join(lines))
    return "".join(tokens)


@settings(FUZZ, max_examples=400)
@given(mutated())
def test_mutated_programs(text):
    exercise(text)


# --- random well-formed programs over the op table -----------------------------------------

SHAPES = [(), (2,), (3,), (2, 3), (3, 2), (3, 3), (2, 2, 3)]


@st.composite
def attribute(draw, attr: opkinds.Attr) -> str:
    """A literal for `attr`: mostly valid values, sometimes not (the error path)."""
    if attr.name == "axes":
        values = draw(st.permutations(list(range(draw(st.integers(1, 3))))))
    elif attr.shape:
        values = draw(st.sampled_from([[-1], [2, -1], [-1, 3], [6], [3, 2], [1, -1, 1], [4]]))
    else:
        return str(draw(st.integers(-1, 4)))
    return "[" + ", ".join(map(str, values)) + "]"


@st.composite
def operand(draw, names, nest: int):
    """A name, a literal, or (sometimes) a nested expression `(op operands...)`."""
    if nest and draw(st.integers(0, 4)) == 0:
        return "(" + draw(application(names, nest - 1)) + ")"
    return draw(st.one_of(st.sampled_from(names), st.sampled_from(["2", "-1", "0.5"])))


@st.composite
def application(draw, names, nest: int = 2):
    """`op operands... attributes...` over the whole op table."""
    op = draw(st.sampled_from(sorted(n for n in ops.TABLE if n != "copy")))
    words = [draw(operand(names, nest)) for _ in range(ops.TABLE[op].arity)]
    for attr in ops.TABLE[op].attrs:
        if not (attr.required or draw(st.booleans())):
            break
        words.append(draw(attribute(attr)))
    return " ".join([op, *words])


@st.composite
def random_program(draw):
    lines, names = [], []
    for i in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["input", "weight", "exp_output"]))
        shape = draw(st.sampled_from(SHAPES))
        dims = f" [{', '.join(map(str, shape))}]" if shape or draw(st.booleans()) else ""
        lines.append(f"declare {kind} v{i}{dims}")
        names.append(f"v{i}")
    defines = []
    for j in range(draw(st.integers(1, 8))):
        rhs = (draw(st.sampled_from(names)) if draw(st.integers(0, 9)) == 0
               else draw(application(names)))
        kind = draw(st.sampled_from(["intvar", "intvar", "output"]))
        lines.append(f"declare {kind} t{j}")
        defines.append(f"define t{j} = {rhs}")
        names.append(f"t{j}")
    lines.append("declare loss loss0")
    defines.append(f"define loss0 = sum {names[-1]}")
    return "\n".join(lines + defines) + "\n"


@settings(FUZZ, max_examples=300)
@given(random_program())
def test_random_programs_compile_or_fail_cleanly(text):
    exercise(text)
