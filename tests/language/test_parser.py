"""The front end on valid programs: syntax, numbers, macros, generated names,
round trips through the printer, and shape inference (docs/design.md §2)."""
from __future__ import annotations

import math

import pytest

from support import programs
from support.paths import SAMPLES
from support.programs import src
from tenflang.base.errors import TenflangError
from tenflang.lang import (Declare, Define, Macro, Num, Program, Var, check, expand, parse,
                           parse_file, parse_source, print_program, split_attributes)

EXAMPLE = programs.ORIGINAL_EXAMPLE

EXAMPLE_STATEMENTS = (
    Declare("input", "x"), Declare("exp_output", "y"), Declare("weight", "w"),
    Declare("intvar", "z"), Declare("output", "o"), Declare("intvar", "diff"),
    Declare("loss", "lambda"),
    Define("z", "mul", (Var("x"), Var("w"))),
    Define("o", "logistic", (Var("z"),)),
    Define("diff", "sub", (Var("o"), Var("y"))),
    Define("lambda", "pow", (Var("diff"), Num(2.0))),
)

# The original design's own layout (the sample file): line numbers stripped, double spaces kept.
AS_WRITTEN = programs.ORIGINAL_EXAMPLE_AS_WRITTEN

DENSE = programs.DENSE_MACRO


def names(program: Program) -> list[str]:
    return [s.name for s in program.statements]


def shapes_of(text: str, shape_program: bool = False) -> dict:
    return check(parse(src(text), "t.tf", shape_program), shape_program)


# --- the original design's example ---------------------------------------------------------------

def test_example_shape_sample_parses_to_the_original_statements(repo_root):
    program = parse_file(str(repo_root / "samples" / "example_shape.tf"), shape_program=True)
    assert program.statements == EXAMPLE_STATEMENTS
    assert program.filename.endswith("example_shape.tf")


def test_example_shape_positions():
    program = parse_source(EXAMPLE, "e.tf")
    z = program.statements[7]
    assert (z.pos.line, z.pos.column) == (9, 8)
    assert (z.op_pos.line, z.op_pos.column) == (9, 12)
    assert (z.operands[1].pos.line, z.operands[1].pos.column) == (9, 18)
    assert program.statements[0].name_pos.column == 15


def test_example_shapes_are_scalars():
    shapes = check(parse(EXAMPLE, shape_program=True), shape_program=True)
    assert shapes == {n: () for n in ("x", "y", "w", "z", "o", "diff", "lambda")}


def test_original_spacing_and_tidy_spacing_agree():
    assert parse(AS_WRITTEN).statements == parse(EXAMPLE).statements == EXAMPLE_STATEMENTS


def test_original_listing_with_line_numbers_is_not_tenflang():
    with pytest.raises(TenflangError):
        parse("1  declare input  x\n")


# --- every sample ---------------------------------------------------------------------

def test_samples_fixture_lists_the_corpus(samples):
    assert any(p.name == "example_shape.tf" for p in samples)
    assert all(p.suffix == ".tf" for p in samples)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_parses_and_round_trips(path):
    text = path.read_text()
    raw = parse_source(text, str(path))
    assert parse_source(print_program(raw)) == raw
    expanded = parse(text, str(path), shape_program=True)
    assert expanded == split_attributes(expand(raw))
    printed = print_program(expanded)
    reread = parse_source(printed)      # kept loops' cells are printed as macros, read again
    assert split_attributes(expand(reread) if expanded.cells else reread) == expanded
    assert parse(printed) == expanded                   # generated names re-parse
    assert print_program(parse_source(printed)) == printed  # printing is a fixed point
    assert split_attributes(expand(parse_source(print_program(raw)))) == expanded


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_has_a_scalar_loss(path):
    program = parse_file(str(path), shape_program=True)
    shapes = check(program, shape_program=True)
    losses = [s.name for s in program.statements if isinstance(s, Declare) and s.kind == "loss"]
    assert losses and all(shapes[name] == () for name in losses)


def test_round_trip_keeps_macros_shapes_and_numbers():
    text = DENSE + src("""
        declare input x [3]
        declare weight W [2, 3]
        declare weight b [2]
        declare intvar h
        declare intvar k
        declare loss l
        define h = dense x W b
        define k = mul h -0.5
        define l = sum k
        """)
    raw = parse_source(text)
    assert isinstance(raw.statements[0], Macro)
    assert parse_source(print_program(raw)) == raw
    assert print_program(raw).startswith("macro dense x W b -> y\n  declare intvar t\n")


@pytest.mark.parametrize("value", [0.1, -2.5e4, 1e-300, 1.7976931348623157e308, 1e15, 1e16,
                                   123456789.125, -0.0, 5e-324, 2.0 ** 60, 1 / 3])
def test_numbers_round_trip_exactly(value):
    program = Program((Declare("loss", "l"), Define("l", "copy", (Num(value),))))
    again = parse(print_program(program))
    assert again == program
    assert again.statements[1].operands[0].value == value


def test_comments_and_blank_lines_are_dropped():
    text = "# head\n\n   # indented\ndeclare loss l   # trailing\n\n\ndefine l = 1#tight\n# tail"
    assert parse(text).statements == (Declare("loss", "l"), Define("l", "copy", (Num(1.0),)))


def test_empty_and_comment_only_programs_parse():
    assert parse("").statements == ()
    assert parse("# nothing\n\n  \n").statements == ()
    assert parse("\n\n").statements == ()


def test_missing_final_newline_and_crlf():
    a = parse("declare loss l\ndefine l = 1")
    b = parse("declare loss l\r\ndefine l = 1\r\n")
    assert a == b


# --- whitespace freedom -----------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "define z=add h b", "define z =add h b", "define z= add h b", "define   z   =   add   h   b",
    "define\tz\t=\tadd\th\tb", "\t define z = add h b\t", "define z=add h b   # ok",
])
def test_whitespace_is_free_in_definitions(line):
    program = parse(f"declare input h\ndeclare input b\ndeclare intvar z\n{line}\n")
    assert program.statements[-1] == Define("z", "add", (Var("h"), Var("b")))


@pytest.mark.parametrize("decl", [
    "declare weight W [3,3]", "declare weight W[3,3]", "declare weight W [ 3 , 3 ]",
    "declare weight W\t[3,\t3]", "declare  weight  W  [3, 3]",
])
def test_whitespace_is_free_in_shapes(decl):
    assert parse(decl).statements == (Declare("weight", "W", (3, 3)),)


def test_empty_shape_is_a_declared_scalar():
    program = parse("declare weight w []\ndeclare weight v\n")
    assert program.statements == (Declare("weight", "w", ()), Declare("weight", "v", None))
    assert check(program) == {"w": (), "v": ()}


def test_keywords_are_not_reserved_as_names():
    program = parse(src("""
        declare input declare
        declare input define
        declare input input
        declare intvar end
        declare intvar macro
        define end = add declare define
        define macro = mul input end
        """))
    assert program.statements[-1] == Define("macro", "mul", (Var("input"), Var("end")))


# --- numeric literals --------------------------------------------------------------------

@pytest.mark.parametrize("literal, value", [
    ("2", 2.0), ("-1", -1.0), ("0.5", 0.5), ("1e-3", 1e-3), ("-2.5E+4", -2.5e4), (".5", 0.5),
    ("+3", 3.0), ("2.", 2.0), ("-.25", -0.25), ("1E5", 1e5), ("007", 7.0), ("1.5e0", 1.5),
])
def test_numeric_literals(literal, value):
    program = parse(f"declare input x\ndeclare intvar a\ndeclare intvar c\n"
                    f"define a = mul x {literal}\ndefine c = {literal}\n")
    assert program.statements[3].operands[1] == Num(value)
    assert program.statements[4] == Define("c", "copy", (Num(value),))


def test_numbers_as_both_operands_and_constants_have_scalar_shape():
    shapes = shapes_of("""
        declare intvar a
        declare intvar b
        define a = 3
        define b = pow 2 -1
        """)
    assert shapes == {"a": (), "b": ()}


# --- macros --------------------------------------------------------------------------------

def test_macro_expansion_names_locals_after_the_result():
    program = parse(DENSE + src("""
        declare input x [3]
        declare weight W1 [4, 3]
        declare weight b1 [4]
        declare intvar h
        define h = dense x W1 b1
        """))
    assert program.statements[-3:] == (
        Declare("intvar", "h.t"),
        Define("h.t", "matmul", (Var("W1"), Var("x"))),
        Define("h", "add", (Var("h.t"), Var("b1"))),
    )
    assert not any(isinstance(s, Macro) for s in program.statements)
    assert check(program)["h.t"] == (4,)


def test_expanded_statements_remember_body_line_and_call_site():
    program = parse(DENSE + "declare input x [2]\ndeclare weight W [2, 2]\ndeclare weight b\n"
                    "declare intvar h\ndefine h = dense x W b\n")
    t = program.statements[-2]
    assert t.pos.line == 3                       # the macro body line
    assert [p.line for p in t.origin] == [10]    # the call site


def test_nested_macro_prefix():
    program = parse(src("""
        macro inner a -> r
          declare intvar t
          define t = exp a
          define r = add t 1
        end
        macro wrap a -> r
          declare intvar u
          define u = inner a
          define r = mul u 2
        end
        declare input x
        declare output o
        define o = wrap x
        """))
    assert names(program) == ["x", "o", "o.u", "o.u.t", "o.u.t", "o.u", "o"]
    assert program.statements[4] == Define("o.u.t", "exp", (Var("x"),))
    assert [p.line for p in program.statements[4].origin] == [8, 13]   # innermost first


def test_macro_calling_an_earlier_macro_directly_into_its_result():
    program = parse(src("""
        macro sq a -> r
          define r = mul a a
        end
        macro quad a -> r
          declare intvar s
          define s = sq a
          define r = sq s
        end
        declare input x
        declare output y
        define y = quad x
        """))
    assert program.statements[2:] == (
        Declare("intvar", "y.s"),
        Define("y.s", "mul", (Var("x"), Var("x"))),
        Define("y", "mul", (Var("y.s"), Var("y.s"))),
    )


def test_two_calls_of_one_macro_do_not_collide():
    program = parse(DENSE + src("""
        declare input x [2]
        declare weight W [2, 2]
        declare weight b [2]
        declare intvar h1
        declare intvar h2
        define h1 = dense x W b
        define h2 = dense h1 W b
        """))
    assert {"h1.t", "h2.t"} <= set(names(program))
    assert program.statements[-2] == Define("h2.t", "matmul", (Var("W"), Var("h1")))


def test_literal_operands_to_macros():
    program = parse(src("""
        macro affine x a c -> y
          declare intvar t
          define t = mul a x
          define y = add t c
        end
        declare input x
        declare output o
        define o = affine x 2 -0.5
        """))
    assert program.statements[-2:] == (
        Define("o.t", "mul", (Num(2.0), Var("x"))),
        Define("o", "add", (Var("o.t"), Num(-0.5))),
    )


def test_macro_copy_line_and_constant_in_body():
    program = parse(src("""
        macro pass a -> r
          declare intvar k
          define k = 3
          define r = a
        end
        declare input x
        declare output o
        define o = pass x
        """))
    assert program.statements[-2:] == (Define("o.k", "copy", (Num(3.0),)),
                                       Define("o", "copy", (Var("x"),)))


def test_parameterless_macro_is_called_with_define_v_equals_m():
    program = parse(src("""
        macro one -> r
          define r = 1
        end
        macro two -> r
          declare intvar t
          define t = one
          define r = add t t
        end
        declare loss l
        define l = two
        """), shape_program=True)
    assert program.statements == (
        Declare("loss", "l"), Declare("intvar", "l.t"),
        Define("l.t", "copy", (Num(1.0),)), Define("l", "add", (Var("l.t"), Var("l.t"))))


def test_parameter_named_like_a_macro_is_a_variable():
    program = parse(src("""
        macro one -> r
          define r = 1
        end
        macro id one -> r
          define r = one
        end
        declare input x
        declare output o
        define o = id x
        """))
    assert program.statements[-1] == Define("o", "copy", (Var("x"),))


def test_macro_is_only_expanded_where_called():
    program = parse(DENSE + "declare input x\n")
    assert program.statements == (Declare("input", "x"),)


def test_macros_in_the_middle_of_a_program():
    program = parse(src("""
        declare input x
        declare intvar a
        define a = exp x
        macro twice v -> r
          define r = add v v
        end
        declare output o
        define o = twice a
        """), shape_program=False)
    assert program.statements[-1] == Define("o", "add", (Var("a"), Var("a")))


# --- generated names ----------------------------------------------------------------------

GENERATED = src("""
    declare input x
    declare weight w
    declare intvar h.t
    declare intvar d/dh.t
    declare intvar dh.t/dw
    declare output d/dw
    define h.t = mul x w
    define dh.t/dw = x
    define d/dh.t = 1
    define d/dw = mul d/dh.t dh.t/dw
    """)


def test_generated_names_parse_outside_shape_programs():
    program = parse(GENERATED)
    assert names(program)[2:6] == ["h.t", "d/dh.t", "dh.t/dw", "d/dw"]
    assert program.statements[-1] == Define("d/dw", "mul", (Var("d/dh.t"), Var("dh.t/dw")))
    assert parse_source(print_program(program)) == program


@pytest.mark.parametrize("name", ["h.t", "d/dw", "dh.t/dW1", "d/dx.1", "o.u.t", "a/b/c"])
def test_generated_name_forms(name):
    assert parse(f"declare intvar {name}\n").statements == (Declare("intvar", name),)


@pytest.mark.parametrize("name", ["h.t", "d/dw", "x.1"])
def test_reserved_names_are_rejected_in_shape_programs(name):
    text = f"declare input {name}\ndeclare loss l\ndefine l = mul {name} 2\n"
    parse(text)                                          # fine for the interpreter
    with pytest.raises(TenflangError, match="reserved for generated code") as info:
        parse(text, "s.tf", shape_program=True)
    assert (info.value.location.line, info.value.location.column) == (1, 15)


def test_shape_program_rules_are_off_for_the_interpreter():
    program = parse("declare input x\ndeclare output o\ndefine o = exp x\n")
    assert check(program) == {"x": (), "o": ()}
    with pytest.raises(TenflangError, match="no loss"):
        parse("declare input x\ndeclare output o\ndefine o = exp x\n", shape_program=True)


def test_the_original_walkthrough_runs_through_the_front_end():
    # the interpreter walkthrough: y is never defined, no loss
    program = parse(programs.WALKTHROUGH)
    assert len(program.statements) == 10


# --- shape inference -------------------------------------------------------------------

@pytest.mark.parametrize("op, a, b, result", [
    ("matmul", [3, 4], [4], (3,)),
    ("matmul", [3, 4], [4, 5], (3, 5)),
    ("dot", [7], [7], ()),
    ("outer", [2], [3], (2, 3)),
    ("add", [3], [], (3,)),
    ("mul", [2, 3], [3], (2, 3)),
    ("sub", [2, 1], [1, 5], (2, 5)),
    ("max", [4, 1], [3], (4, 3)),
    ("pow", [], [], ()),
    ("div", [1], [6], (6,)),
])
def test_binary_shape_inference(op, a, b, result):
    shapes = shapes_of(f"""
        declare input a {a}
        declare input b {b}
        declare intvar v
        define v = {op} a b
        """)
    assert shapes["v"] == result


@pytest.mark.parametrize("op, a, result", [
    ("transpose", [2, 5], (5, 2)),
    ("sum", [3, 4], ()),
    ("mean", [6], ()),
    ("logsumexp", [2, 2], ()),
    ("softmax", [10], (10,)),
    ("log_softmax", [10], (10,)),
    ("logistic", [3, 4], (3, 4)),
    ("relu", [5], (5,)),
    ("neg", [], ()),
    ("copy", [2, 2], (2, 2)),
])
def test_unary_shape_inference(op, a, result):
    body = "define v = a" if op == "copy" else f"define v = {op} a"
    shapes = shapes_of(f"""
        declare input a {a}
        declare intvar v
        {body}
        """)
    assert shapes["v"] == result


def test_shapes_flow_through_a_network():
    shapes = shapes_of(programs.MNIST_SIZED_MLP, shape_program=True)
    assert shapes["h"] == shapes["h.t"] == shapes["a"] == (128,)
    assert shapes["s"] == shapes["s.t"] == shapes["p"] == (10,)
    assert shapes["l"] == ()


def test_declared_shapes_that_agree_are_accepted():
    shapes = shapes_of("""
        declare input x [2, 3]
        declare intvar t [3, 2]
        declare output o [3, 3]
        declare loss l []
        define t = transpose x
        define o = matmul t x
        define l = sum o
        """, shape_program=True)
    assert shapes["o"] == (3, 3)


def test_shape_of_declared_but_undefined_variable_is_its_declaration():
    shapes = shapes_of("declare exp_output y [4]\ndeclare output o [2, 2]\ndeclare intvar q\n")
    assert shapes == {"y": (4,), "o": (2, 2), "q": ()}


@pytest.mark.parametrize("decl, define, message", [
    ("declare intvar v [4]", "define v = exp x",
     "'v' is declared with shape [4] but its definition gives [3]"),
    ("declare intvar v []", "define v = exp x",
     "declared with shape [] but its definition gives [3]"),
    ("declare intvar v [3]", "define v = sum x",
     "declared with shape [3] but its definition gives []"),
    ("declare intvar v [3, 1]", "define v = outer x x", "gives [3, 3]"),
])
def test_declared_shape_mismatch(decl, define, message):
    with pytest.raises(TenflangError) as info:
        parse(f"declare input x [3]\n{decl}\n{define}\n", "m.tf")
    assert message in info.value.message
    assert info.value.location.line == 3


@pytest.mark.parametrize("op, a, b, message", [
    ("matmul", [10, 784], [783], "matmul [10, 784] × [783]: inner dimensions differ"),
    ("matmul", [3], [3], "matmul [3] × [3]: a vector [k] multiplies a matrix [k, n]"),
    ("matmul", [2, 2, 2, 2], [2], "matmul [2, 2, 2, 2] × [2]: first operand must be a matrix"),
    ("dot", [3], [4], "dot [3] × [4]: lengths differ"),
    ("add", [3], [4], "add [3] × [4]: shapes cannot be broadcast together"),
    ("outer", [3, 1], [2], "outer [3, 1] × [2]: operands must be vectors"),
])
def test_shape_errors_show_both_shapes(op, a, b, message):
    with pytest.raises(TenflangError) as info:
        parse(f"declare input a {a}\ndeclare input b {b}\ndeclare intvar v\ndefine v = {op} a b\n")
    assert info.value.message.startswith(message)
    assert (info.value.location.line, info.value.location.column) == (4, 12)


def test_non_finite_literal_is_rejected():
    with pytest.raises(TenflangError, match="out of range"):
        parse("declare loss l\ndefine l = 1e999\n")


def test_parse_source_does_not_expand_or_check():
    raw = parse_source("define q = frobnicate a b c\n")
    assert raw.statements == (Define("q", "frobnicate", (Var("a"), Var("b"), Var("c"))),)


def test_program_equality_ignores_positions_and_filename():
    a = parse_source("declare loss l\ndefine l = 1\n", "a.tf")
    b = parse_source("\n\n  declare   loss l\n\n\ndefine l=1", "b.tf")
    assert a == b and a.filename != b.filename
    assert math.isclose(b.statements[1].operands[0].value, 1.0)


# ---- initialisers: `declare weight gamma [64] init 1` (docs/design.md §2.2) ----------

INITIALISED = src("""
    declare input x [3]
    declare weight gamma [3] init 1
    declare weight b init -0.5
    declare weight W [3, 3] init normal 0.02
    declare weight U [3, 3] init uniform -0.1 0.1
    declare weight K [3,3]init he   # no blank needed after ']'
    declare weight init [3, 3] init glorot
    declare loss l
    define l = sum (add (matmul (add (add W U) (add K init)) (mul x gamma)) b)
    """)


def test_initialisers_parse_print_and_parse_again():
    from tenflang.lang.syntax_tree import Init
    from tenflang.lang import larkpath
    program = parse(INITIALISED, shape_program=True)
    inits = {d.name: d.init for d in program.declarations().values()}
    assert inits["gamma"] == Init("constant", (Num(1.0),))
    assert inits["b"] == Init("constant", (Num(-0.5),))
    assert inits["W"] == Init("normal", (Num(0.02),))
    assert inits["U"] == Init("uniform", (Num(-0.1), Num(0.1)))
    assert inits["K"] == Init("he") and inits["init"] == Init("glorot")
    assert inits["x"] is None and inits["l"] is None
    # lark's own path reads the same tree as the fast lanes
    assert larkpath.statements(INITIALISED + "\n", "p.tf") == parse_source(INITIALISED).statements
    printed = print_program(program)
    assert "declare weight gamma [3] init 1\n" in printed
    assert "declare weight U [3, 3] init uniform -0.1 0.1\n" in printed
    assert "declare weight K [3, 3] init he\n" in printed
    assert parse(printed) == program


def test_the_gcp_keeps_each_weights_initialiser():
    from tenflang.backprop import compile_gradient
    gcp = compile_gradient(parse(INITIALISED, shape_program=True))
    text = print_program(gcp)
    assert "declare weight gamma [3] init 1\n" in text
    assert "declare weight W [3, 3] init normal 0.02\n" in text
    assert parse(text).declarations()["U"].init == parse(INITIALISED).declarations()["U"].init


BAD_INITIALISERS = [
    ("declare input g [3] init 1", 1, 26,
     "'g' is declared input: only a weight has an initial value (init); its value comes "
     "from the data"),
    ("declare intvar g [3] init 0", 1, 27,
     "'g' is declared intvar: only a weight has an initial value (init)"),
    ("declare weight g [3] init zeros", 1, 27,
     "unknown initialiser 'zeros'; init takes a number, normal STD, uniform LO HI, he or glorot"),
    ("declare weight g [3] init normal", 1, 27,
     "'init normal' takes 1 number (init normal STD), got 0"),
    ("declare weight g [3] init he 2", 1, 27, "'init he' takes no numbers (init he), got 1"),
    ("declare weight g [3] init normal -1", 1, 27,
     "'g': init normal takes a standard deviation ≥ 0, got -1"),
    ("declare weight g [3] init uniform 1 0", 1, 27,
     "'g': init uniform LO HI needs LO ≤ HI, got 1 and 0"),
    ("declare weight g [3] init glorot", 1, 27,
     "'g': init glorot scales by the fan-in, which needs a weight of two axes or more"),
]


@pytest.mark.parametrize("line,row,column,message", BAD_INITIALISERS)
def test_bad_initialisers_are_located_errors(line, row, column, message):
    with pytest.raises(TenflangError) as info:
        parse(f"{line}\ndeclare loss l\ndefine l = sum g\n", "p.tf")
    assert info.value.message.startswith(message)
    assert (info.value.location.line, info.value.location.column) == (row, column)


def test_bad_initialiser_on_the_command_line_exits_2(run_cli_batch, tmp_path):
    cases = [(line, f"1:{column}: error: {message}")
             for line, _, column, message in BAD_INITIALISERS[:3]]
    cases.append(("declare weight g [3] init", "1:26: error: unexpected end of line"))
    for k, (line, _) in enumerate(cases):
        (tmp_path / f"p{k}.tf").write_text(f"{line}\ndeclare loss l\ndefine l = sum g\n")
    results = run_cli_batch([["tenflang", "check", tmp_path / f"p{k}.tf"]
                             for k in range(len(cases))])
    for k, ((code, _, err), (_, expected)) in enumerate(zip(results, cases)):
        assert code == 2 and f"p{k}.tf:{expected}" in err and "Traceback" not in err, err


def test_check_verbose_lists_declarations_with_initial_values(run_cli, tmp_path):
    (tmp_path / "p.tf").write_text(INITIALISED)
    code, out, err = run_cli(["tenflang", "check", "--verbose", tmp_path / "p.tf"])
    assert code == 0 and err.strip().endswith("p.tf: ok")
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["input", "x", "[3]"]
    assert rows[1] == ["weight", "gamma", "[3]", "init", "1"]
    assert rows[3] == ["weight", "W", "[3,", "3]", "init", "normal", "0.02"]
    assert rows[-1] == ["loss", "l", "[]"]
    (tmp_path / "q.tf").write_text(src("""
        declare input x [3]
        declare weight W [2, 3]
        declare weight b [2]
        declare output o
        declare loss l
        define o = tanh (add (matmul W x) b)
        define l = sum o
        """))
    code, out, err = run_cli(["tenflang", "check", "-v", tmp_path / "q.tf"])
    assert code == 0, err
    listed = " ".join(out.split())
    assert "weight W [2, 3] init glorot (default)" in listed
    assert "weight b [2] init 0 (default)" in listed
    assert "output o [2]" in listed         # the inferred shape
