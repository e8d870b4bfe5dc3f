"""Static attributes (docs/design.md §2.3.1) through every pass, and the one lexical source.

An attribute is an integer literal (or a shape literal) after an op's operands;
the op table says which positions are attributes.  These tests follow one
through the parser, printer, `tenflang fmt`, macros, checks, the compiler's
rule lowering and CSE, the statistics, DOT and the interpreter; the error cases
are in tests/errors/test_errors.py, the finite-difference checks in
tests/compiler/test_gradients.py.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import tenflang
from tenflang.ops import entries as opkinds, table as ops
from tenflang.analysis.graphviz import to_dot
from tenflang.analysis.stats import program_stats
from tenflang.backprop import compile_gradient
from tenflang.backprop.rules import lower, parse_rule
from tenflang.backprop.simplify import key
from tenflang.data.notation import NAME_RE, NUM_RE
from tenflang.interp import interpret
from tenflang.lang import lexical
from tenflang.lang.syntax_tree import Num, Var
from tenflang.lang.formatter import TOKEN, format_source
from tenflang.ops.shapes import ShapeMismatch

B = 5
AXES = """\
declare input x [2, 3]
declare weight W [2, 3]
declare intvar h
declare output s [3]
declare output m [2]
declare output z [2]
declare loss l
define h = mul W x
define s = sum h 0
define m = mean h -1
define z = logsumexp h 1
define l = sum z
"""


def ref_logsumexp(a, axis):
    top = a.max(axis=axis, keepdims=True)
    return (top + np.log(np.exp(a - top).sum(axis=axis, keepdims=True))).squeeze(axis)


def test_parse_print_round_trip_keeps_attributes():
    program = tenflang.parse(AXES)
    sums = {d.name: d for d in program.definitions()}
    assert sums["s"].operands == (Var("h"),) and sums["s"].attrs == (0,)
    assert sums["m"].attrs == (-1,) and sums["l"].attrs == ()
    text = tenflang.print_program(program)
    assert "define m = mean h -1" in text and "define l = sum z\n" in text
    assert tenflang.parse(text) == program


def test_batched_is_per_example_against_numpy():
    rng = np.random.default_rng(3)
    x, w = rng.normal(size=(B, 2, 3)), rng.normal(size=(2, 3))
    got = interpret(tenflang.parse(AXES), {"x": x, "W": w}, batched=True)
    for i in range(B):
        h = w * x[i]
        np.testing.assert_allclose(got["s"][i], h.sum(axis=0), rtol=1e-13)
        np.testing.assert_allclose(got["m"][i], h.mean(axis=-1), rtol=1e-13)
        np.testing.assert_allclose(got["z"][i], ref_logsumexp(h, 1), rtol=1e-13)


def test_logsumexp_axis_never_overflows():
    program = tenflang.parse("declare input x [2, 2]\ndeclare output z [2]\n"
                             "define z = logsumexp x 0\n")
    x = np.array([[[1e4, -1e4], [1e4, -1e4]]])
    z = interpret(program, {"x": x}, batched=True)["z"]
    np.testing.assert_allclose(z[0], [1e4 + np.log(2), -1e4 + np.log(2)])


def test_gcp_with_attributes_reparses_and_differentiates_again():
    gcp = compile_gradient(tenflang.parse(AXES, shape_program=True), level=1)
    text = tenflang.print_program(gcp)
    assert re.search(r"= broadcast_like \S+ h 1$", text, re.MULTILINE), text
    again = tenflang.parse(text)
    assert again.definitions() == gcp.definitions()
    assert compile_gradient(again, level=0).definitions()      # a GCP compiles once more


def test_macro_parameter_stands_for_an_attribute():
    program = tenflang.parse("macro rows M n -> y\n  define y = sum M n\nend\n"
                             "declare input x [2, 3]\ndeclare output r [2]\n"
                             "define r = rows x -1\n")
    (define,) = program.definitions()
    assert define.op == "sum" and define.attrs == (-1,)


def test_fmt_writes_attributes_and_shape_literals_tidily():
    text = "declare input x [2,3]\ndeclare output s\ndefine s=sum   x   -1  # rows\n" \
           "define t = reshape x [ 3 ,-1 ]\n"
    out = format_source(text)
    assert "define s = sum x -1  # rows" in out and "define t = reshape x [3, -1]" in out


def test_rules_tokenise_attribute_and_shape_literals():
    assert parse_rule("broadcast_like g a [4, -1] 2") == ("broadcast_like", "g", "a", "[4, -1]",
                                                          "2")
    counter = iter(range(1, 10))
    lines = lower("mul (broadcast_like g a 1) p", "t", {"g": Var("g"), "a": Var("a"),
                                                        "p": Var("p")},
                  lambda: f"tmp/t/{next(counter)}")
    assert [(d.name, d.op, d.attrs) for d in lines] == [("tmp/t/1", "broadcast_like", (1,)),
                                                       ("t", "mul", ())]


def test_cse_tells_attributes_apart_and_fills_defaults():
    h = (Var("h"),)
    assert key("sum", h, (0,)) != key("sum", h, (1,))
    assert key("sum", h) == key("sum", h, (None,))


def test_flops_and_dot_see_attributes():
    program = tenflang.parse(AXES)
    assert program_stats(program)["flops"] == 6 + 6 + 6 + 4 * 6 + 2
    assert "sum _ 0" in to_dot(program)


def test_shape_rule_receives_attributes_after_operand_shapes():
    assert ops.TABLE["mean"].shape((4, 3), 0) == (3,)
    assert ops.TABLE["sum"].result_shape([(4, 3)]) == ()
    with pytest.raises(ShapeMismatch, match="axis -3"):
        ops.TABLE["sum"].result_shape([(4, 3)], (-3,))


def test_rule_kinds_are_named():
    assert ops.TABLE["step"].rules([(3,)]) == (opkinds.no_grad(),)
    assert ops.TABLE["exp"].rules([(3,)]) == (opkinds.chain("v"),)
    assert ops.TABLE["transpose"].rules([(2, 3)]) == (opkinds.linear("transpose g"),)
    assert ops.TABLE["sum_like"].rules([(2, 3), (3,)])[1] is None      # gives only a shape
    assert ops.TABLE["sum_like"].shape_only == (1,)


# --- one lexical source -------------------------------------------------------

def test_lexical_rules_are_the_grammars():
    grammar = lexical.grammar_text()
    for name in ("NAME", "NUMBER"):
        written = re.search(rf"^{name}: /(.*)/$", grammar, re.MULTILINE).group(1)
        assert re.fullmatch(getattr(lexical, name), "d/dh.t" if name == "NAME" else "-1.5e3")
        assert written.replace("(?:", "(") == getattr(lexical, name).replace("(?:", "(")


@pytest.mark.parametrize("word,is_name", [("h.t", True), ("d/dw", True), ("x./", False),
                                          ("x.", False), ("1x", False), ("_a1", True)])
def test_every_reader_agrees_on_names(word, is_name):
    assert bool(re.fullmatch(lexical.NAME, word)) == is_name
    assert bool(NAME_RE.fullmatch(word)) == is_name            # vector notation, CSV
    match = TOKEN.fullmatch(word)                                # tenflang fmt
    assert (match is not None and match.lastgroup == "name") == is_name


@pytest.mark.parametrize("word,is_number", [("2", True), ("-1", True), (".5", True),
                                            ("1e-3", True), ("1.2.3", False), ("2x", False)])
def test_every_reader_agrees_on_numbers(word, is_number):
    assert bool(re.fullmatch(lexical.NUMBER, word)) == is_number
    assert bool(NUM_RE.fullmatch(word)) == is_number


def test_a_number_literal_remembers_how_it_was_written():
    program = tenflang.parse("declare input x\ndeclare output y\ndefine y = mul x 2.0\n")
    (define,) = program.definitions()
    assert define.operands[1] == Num(2.0) and define.operands[1].text == "2.0"


# --- an op declared the way new ops are: checked attributes, a shape literal ---

def tile_forward(xp, a, dims, times):
    return xp.tile(a, (1,) + (1,) * (a.ndim - 1 - len(dims)) + tuple(dims)) * times


TILE = opkinds.Op("tile_test", 1, tile_forward,
                  lambda a, dims, times: tuple(d * k for d, k in zip(a, dims)),
                  lambda a, dims, times: (opkinds.linear(f"tile_test g {list(dims)} {times}"),),
                  "v = times · a tiled",
                  attrs=(opkinds.Attr("dims", shape=True, required=True),
                         opkinds.Attr("times", 1, check=opkinds.at_least(1))))


@pytest.fixture
def tile_op(monkeypatch):
    from tenflang.interp.runtime import codegen
    monkeypatch.setitem(ops.TABLE, TILE.name, TILE)
    monkeypatch.setattr(codegen.FORWARDS, TILE.name, tile_forward, raising=False)


def test_a_shape_literal_attribute_reaches_the_forward(tile_op):
    program = tenflang.parse("declare input x [2]\ndeclare output y [4]\n"
                             "define y = tile_test x [2] 3\n")
    (define,) = program.definitions()
    assert define.attrs == ((2,), 3)
    assert "define y = tile_test x [2] 3" in tenflang.print_program(program)
    got = interpret(program, {"x": np.array([[1.0, 2.0]])}, batched=True)["y"]
    np.testing.assert_array_equal(got, [[3.0, 6.0, 3.0, 6.0]])


def test_a_rule_may_write_a_shape_literal(tile_op):
    counter = iter(range(1, 10))
    (line,) = lower(ops.TABLE["tile_test"].rules([(2,)], ((2,), 3))[0].combine, "t",
                    {"g": Var("g")}, lambda: f"tmp/t/{next(counter)}")
    assert line.op == "tile_test" and line.attrs == ((2,), 3)


@pytest.mark.parametrize("line,column,message", [
    ("define y = tile_test x [2] 0", 28, "'tile_test' attribute 'times' must be ≥ 1, got 0"),
    ("define y = tile_test x 2 2", 24, "'dims' must be a shape literal [d1, ...]"),
    ("define y = tile_test x [2] [2]", 28, "'times' must be an integer, not a shape literal"),
    ("define y = tile_test x", 12, "'tile_test' takes 1 operand, then the attributes dims "
     "[times]; attribute 'dims' is missing"),
    ("define y = tile_test x [2] 1 1", 30, "takes 1 operand, then the attributes dims [times], "
     "got 4 values"),
])
def test_attribute_checks_come_from_the_op_table(tile_op, line, column, message):
    with pytest.raises(tenflang.TenflangError) as info:
        tenflang.parse(f"declare input x [2]\ndeclare output y [4]\n{line}\n", "t.tf")
    assert message in str(info.value) and info.value.exit_code == 2
    assert (info.value.location.line, info.value.location.column) == (3, column)


VARIADIC = """\
declare input a [2, 3]
declare input b [2, 1]
declare weight W [2, 2]
declare intvar v
declare intvar w
declare loss l
define v = concat a (relu b) W (neg a) -1
define w = concat v v
define l = sum (mul w w)
"""


def test_a_variadic_op_takes_the_values_before_its_trailing_literals():
    """`concat`'s operands are the values up to its axis, nested expressions
    included; the same line printed, formatted and compiled keeps them apart."""
    program = tenflang.parse(VARIADIC, shape_program=True)
    v = next(d for d in program.definitions() if d.name == "v")
    assert len(v.operands) == 4 and v.attrs == (-1,)
    assert next(d for d in program.definitions() if d.name == "w").attrs == ()
    text = tenflang.print_program(program)
    assert "define v = concat a v.1 W v.2 -1" in text
    again = next(d for d in tenflang.parse(text).definitions() if d.name == "v")
    assert again.operands == v.operands and again.attrs == (-1,)
    assert "define v = concat a (relu b) W (neg a) -1\n" in format_source(
        VARIADIC.replace("(relu b) W", "(relu  b)   W"))
    gcp = tenflang.print_program(compile_gradient(program))
    assert "define v = concat a v.1 W v.2 -1" in gcp
    assert tenflang.parse(gcp) is not None


@pytest.mark.parametrize("count,variadic", [(1, False), (2, True), (3, False)])
def test_operand_count_of_fixed_and_variadic_ops(count, variadic):
    """Where the operands end: a fixed arity says it whatever the values are."""
    op = ops.TABLE["concat" if variadic else {1: "sum", 3: "where"}[count]]
    literal = [False, False, True] if variadic else [False] * count
    assert op.operand_count(literal) == count
    assert op.accepts(count + 1) is variadic and not op.accepts(count - 1)
