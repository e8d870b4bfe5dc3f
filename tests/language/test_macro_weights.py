"""Weights a macro owns (docs/design.md §2.4.3): each call declares its own,
named `<target>.<weight>`, with the shape its integer parameters give; the
steps of a `fold`/`scan` share one set.  The reader, the printer, `tenflang
fmt` and the highlighter are checked here; the gradients against hand-written
twins in tests/compiler/test_macro_weights.py, the errors in tests/errors.
"""
from __future__ import annotations

import pytest

from support.programs import src
from tenflang.lang import parse, parse_source, print_program
from tenflang.lang.formatter import format_source
from tenflang.lang.syntax_tree import Declare, Define, Init, Num, Var

RESIDUAL = src("""
    macro residual x C -> y
      declare weight K1 [C, C, 3, 3] init he
      declare weight K2 [C, C, 3, 3] init he
      define y = relu (add x (conv2d (relu (conv2d x K1 1 1)) K2 1 1))
    end
    """)

TWO_BLOCKS = RESIDUAL + src("""
    declare input x [4, 6, 6]
    declare intvar h1
    declare intvar h2
    declare loss l
    define h1 = residual x 4
    define h2 = residual h1 4
    define l = sum (flatten h2)
    """)


def weights(program) -> dict[str, Declare]:
    return {s.name: s for s in program.statements
            if isinstance(s, Declare) and s.kind == "weight"}


def test_each_call_declares_its_own_weights_named_after_its_target():
    program = parse(TWO_BLOCKS, shape_program=True)
    found = weights(program)
    assert list(found) == ["h1.K1", "h1.K2", "h2.K1", "h2.K2"]
    assert {d.shape for d in found.values()} == {(4, 4, 3, 3)}
    assert {d.init for d in found.values()} == {Init("he")}
    convs = [s for s in program.statements if isinstance(s, Define) and s.op == "conv2d"]
    assert [c.operands[1].name for c in convs] == ["h1.K1", "h1.K2", "h2.K1", "h2.K2"]


def test_a_weight_is_declared_before_its_first_use():
    program = parse(TWO_BLOCKS)
    order = [s.name for s in program.statements]
    for name in weights(program):
        user = next(i for i, s in enumerate(program.statements) if isinstance(s, Define)
                    and Var(name) in s.operands)
        assert order.index(name) < user


def test_the_integer_parameter_gives_each_call_its_shape():
    text = RESIDUAL + src("""
        declare input x [2, 5, 5]
        declare weight k [3, 2, 3, 3]
        declare intvar a
        declare intvar b
        declare loss l
        define a = residual x 2
        define b = conv2d a k 1 1
        define l = sum (flatten (residual b 3))
        """)
    found = weights(parse(text, shape_program=True))
    assert found["a.K1"].shape == (2, 2, 3, 3)
    assert found["l.1.K1"].shape == (3, 3, 3, 3)       # a call nested in an expression


def test_nested_calls_nest_the_prefix_and_pass_integer_parameters_on():
    text = RESIDUAL + src("""
        macro stage x C -> y
          declare intvar a
          declare weight g [C] init 1
          define a = residual x C
          define y = mul (residual a C) (reshape g [2, 1, 1])
        end
        declare input x [2, 4, 4]
        declare intvar s
        declare loss l
        define s = stage x 2
        define l = sum (flatten s)
        """)
    found = weights(parse(text, shape_program=True))
    assert sorted(found) == ["s.1.K1", "s.1.K2", "s.a.K1", "s.a.K2", "s.g"]
    assert found["s.g"].shape == (2,) and found["s.g"].init == Init("constant", (Num(1.0),))


CELL = src("""
    macro inner h C -> y
      declare weight V [C, C] init normal 0.1
      define y = matmul V h
    end
    macro cell h x C -> hn
      declare weight W [C, 3]
      declare weight b [C] init 0.5
      declare intvar a
      define a = inner h C
      define hn = tanh (add (add (matmul W x) a) b)
    end
    declare input xs [4, 3]
    declare weight h0 [2]
    declare intvar hs
    declare loss l
    """)


@pytest.mark.parametrize("loop", ["fold", "scan"])
def test_a_loop_declares_its_weights_once_and_every_step_reads_them(loop):
    program = parse(CELL + f"define hs = {loop} cell h0 xs 2\ndefine l = sum (flatten hs)\n",
                    shape_program=True)
    found = weights(program)
    assert list(found) == ["h0", "hs.W", "hs.b", "hs.a.V"]
    assert found["hs.a.V"].shape == (2, 2) and found["hs.b"].init == Init("constant", (Num(0.5),))
    for name in ["hs.W", "hs.b", "hs.a.V"]:
        readers = [s.name for s in program.statements
                   if isinstance(s, Define) and Var(name) in s.operands]
        assert [r.split(".")[1] for r in readers] == ["0", "1", "2", "3"], readers


def test_printer_and_parser_keep_a_weight_inside_a_macro():
    program = parse_source(TWO_BLOCKS)
    text = print_program(program)
    assert "  declare weight K1 [C, C, 3, 3] init he\n" in text
    assert parse_source(text) == program


def test_fmt_aligns_the_declarations_inside_a_macro():
    messy = TWO_BLOCKS.replace("declare weight K1 [C, C, 3, 3] init he",
                               "declare   weight K1 [C,C,3,3]   init  he")
    out = format_source(messy)
    assert "  declare weight K1 [C, C, 3, 3] init he\n" in out
    assert format_source(out) == out
    assert parse_source(out) == parse_source(TWO_BLOCKS)


def test_highlighter_marks_a_parameter_in_a_shape():
    from pygments.token import Keyword, Name, Number, Punctuation
    from tenflang.lang.highlight import TenflangLexer
    line = "  declare weight K [C, 3] init he\n"
    tokens = [(t, v) for t, v in TenflangLexer().get_tokens(line) if v.strip()]
    assert tokens == [(Keyword.Declaration, "declare"), (Keyword.Type, "weight"),
                      (Name.Variable, "K"), (Punctuation, "["), (Name.Variable, "C"),
                      (Punctuation, ","), (Number.Integer, "3"), (Punctuation, "]"),
                      (Keyword, "init"), (Name.Builtin, "he")]
