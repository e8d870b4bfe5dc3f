"""Nested expressions (docs/design.md §2.4.1): lowering, naming, macros, fmt, depth.

`define h = tanh (add (matmul W x) b)` must mean exactly the three flat
definitions it abbreviates, with inner results `h.1`, `h.2` (innermost first)
whose shapes are inferred; names stay unique across macro expansion; the
printer and the GCP keep one op per line; `tenflang fmt` keeps the nesting.
Errors inside a nested expression are checked in tests/errors/test_errors.py.
"""
from __future__ import annotations


import numpy as np
import pytest

import tenflang
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError
from tenflang.interp import interpret
from tenflang.lang import check, parse_source
from tenflang.lang.syntax_tree import Declare, Define, Num, Var
from tenflang.lang.formatter import format_source
from tenflang.base.limits import MAX_NESTING

from support.paths import ROOT

HEAD = ("declare input x [3]\ndeclare weight W [2, 3]\ndeclare weight b [2]\n"
        "declare output h\n")


def lines(program):
    return [tenflang.lang.printer.statement(s) for s in program.statements]


def test_lowered_one_definition_per_op_innermost_first():
    program = tenflang.parse(HEAD + "define h = tanh (add (matmul W x) b)\n")
    assert lines(program)[4:] == [
        "declare intvar h.1", "declare intvar h.2",
        "define h.1 = matmul W x", "define h.2 = add h.1 b", "define h = tanh h.2"]
    shapes = check(program)
    assert shapes["h.1"] == shapes["h.2"] == shapes["h"] == (2,)


def test_nested_means_the_flat_program():
    flat = tenflang.parse(HEAD + "declare intvar t\ndeclare intvar u\ndefine t = matmul W x\n"
                          "define u = add t b\ndefine h = tanh u\n")
    nested = tenflang.parse(HEAD + "define h = tanh (add (matmul W x) b)\n")
    rng = np.random.default_rng(0)
    data = {"x": rng.normal(size=(5, 3)), "W": rng.normal(size=(2, 3)), "b": rng.normal(size=2)}
    np.testing.assert_array_equal(interpret(nested, data, batched=True)["h"],
                                  interpret(flat, data, batched=True)["h"])


def test_positions_of_the_lowered_lines():
    program = tenflang.parse(HEAD + "define h = tanh (add (matmul W x) b)\n")
    by_name = {s.name: s for s in program.statements if isinstance(s, Define)}
    assert (by_name["h.1"].op_pos.line, by_name["h.1"].op_pos.column) == (5, 23)
    assert (by_name["h.2"].op_pos.line, by_name["h.2"].op_pos.column) == (5, 18)
    assert by_name["h"].op_pos.column == 12


def test_operands_literals_and_attributes_inside():
    program = tenflang.parse("declare input x [8, 8]\ndeclare output s\n"
                             "define s = sum (mul (reshape (index x 2) [2, 4]) 0.5) 1\n")
    by_name = {s.name: s for s in program.statements if isinstance(s, Define)}
    assert by_name["s.1"].attrs == (2,) and by_name["s.2"].attrs == ((2, 4),)
    assert by_name["s.3"].operands == (Var("s.2"), Num(0.5))
    assert check(program)["s"] == (2,)


def test_macro_call_nested_argument_and_nested_body_take_distinct_numbers():
    source = ("macro cell x h W -> next\n  define next = tanh (add (matmul W x) h)\nend\n"
              "declare input x [2, 3]\ndeclare weight W [4, 3]\ndeclare weight h0 [4]\n"
              "declare output h1\ndefine h1 = cell (index x 0) h0 W\n")
    program = tenflang.parse(source)
    defines = {s.name: s for s in program.statements if isinstance(s, Define)}
    assert defines["h1.1"].op == "index"                 # the call site's nested argument
    assert defines["h1.2"].op == "matmul"                # the body's, the next free numbers
    assert defines["h1.3"] == Define("h1.3", "add", (Var("h1.2"), Var("h0")))
    assert defines["h1"] == Define("h1", "tanh", (Var("h1.3"),))
    assert len(defines) == len(set(defines))


def test_macro_call_inside_a_nested_expression():
    source = ("macro dense x W b -> y\n  declare intvar t\n  define t = matmul W x\n"
              "  define y = add t b\nend\n" + HEAD + "define h = tanh (dense x W b)\n")
    program = tenflang.parse(source)
    assert lines(program)[4:] == ["declare intvar h.1", "declare intvar h.1.t",
                                  "define h.1.t = matmul W x", "define h.1 = add h.1.t b",
                                  "define h = tanh h.1"]


def test_generated_names_skip_names_already_declared():
    # the interpreter accepts generated names in any program (a GCP declares `h.1`)
    program = tenflang.parse("declare input x\ndeclare intvar h.1\ndeclare output h\n"
                             "define h.1 = exp x\ndefine h = add h.1 (neg x)\n")
    assert "define h.2 = neg x" in lines(program)


def test_shape_program_accepts_generated_names_but_not_written_ones():
    tenflang.parse(HEAD + "declare loss l\ndefine h = sum (tanh (matmul W x))\n"
                   "define l = mul h h\n", shape_program=True)
    with pytest.raises(TenflangError, match="reserved for generated code"):
        tenflang.parse(HEAD + "declare loss l\ndeclare intvar h.1\ndefine h.1 = exp x\n"
                       "define h = sum h.1\ndefine l = mul h h\n", shape_program=True)


def test_printed_program_and_gcp_have_one_op_per_line_and_reparse():
    program = tenflang.parse(HEAD + "declare loss l\ndefine h = sum (tanh (add (matmul W x) b))\n"
                             "define l = mul h h\n", shape_program=True)
    for text in (tenflang.print_program(program),
                 tenflang.print_program(compile_gradient(program, 0)),
                 tenflang.print_program(compile_gradient(program, 1))):
        assert "(" not in text
        assert tenflang.parse(text).statements     # re-parses


@pytest.mark.parametrize("source", [
    "define  h=tanh( add (matmul W   x)b )  # keep\n",
    "define h = tanh (add (matmul W x) b)\n",
    "macro m x -> y\n define y = neg (exp x)\nend\n",
])
def test_fmt_keeps_nested_expressions_as_written(source):
    out = format_source(source)
    assert format_source(out) == out
    assert parse_source(out).statements == parse_source(source).statements
    assert "(" in out and "( " not in out and " )" not in out


def test_fmt_layout_of_a_nested_definition():
    assert format_source("define  h =  tanh ( add (matmul W   x )b)  # c\n") == \
        "define h = tanh (add (matmul W x) b)  # c\n"


def chain(depth: int) -> str:
    """`neg (neg (... (neg x)))`: `depth` parentheses, depth + 1 negations."""
    return "define h = " + "neg (" * depth + "neg x" + ")" * depth + "\n"


def test_deep_nesting_up_to_the_cap_lowers_without_recursion():
    program = tenflang.parse("declare input x\ndeclare output h\n" + chain(MAX_NESTING))
    assert len(program.definitions()) == MAX_NESTING + 1
    out = interpret(program, {"x": np.array([1.5, -2.0])}, batched=True)["h"]
    np.testing.assert_array_equal(out, [-1.5, 2.0])        # an odd number of negations


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 5000, 100_000])
def test_nesting_past_the_cap_is_a_located_error(depth):
    with pytest.raises(TenflangError) as err:
        tenflang.parse("declare input x\ndeclare output h\n" + chain(depth), "deep.tf")
    assert f"nested deeper than {MAX_NESTING} parentheses" in str(err.value)
    where = err.value.location
    assert (where.line, where.column) == (3, 16 + 5 * (depth - MAX_NESTING - 1))


def test_declarations_of_generated_names_are_marked():
    program = tenflang.parse(HEAD + "define h = tanh (matmul W x)\n")
    generated = [s for s in program.statements if isinstance(s, Declare) and s.generated]
    assert [s.name for s in generated] == ["h.1"]


def test_highlighter_colours_nested_expressions_without_errors():
    from pygments.token import Error, Punctuation
    from tenflang.lang.highlight import TenflangLexer
    source = (ROOT / "samples" / "attention_digits.tf").read_text()
    tokens = list(TenflangLexer().get_tokens(source))
    assert not [t for t in tokens if t[0] is Error]
    code = "".join(line.split("#", 1)[0] for line in source.splitlines())
    assert sum(1 for kind, text in tokens if kind is Punctuation and text == "(") == \
        code.count("(") > 0
