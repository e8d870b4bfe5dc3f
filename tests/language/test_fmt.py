"""`tenflang fmt`: the canonical layout, comments kept, programs unchanged,
idempotence (on every sample and on hypothesis-made spacing variants of
them), `--check` and the exit codes."""
from __future__ import annotations

import os
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.paths import SAMPLES
from support.programs import src
from tenflang import cli
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError
from tenflang.lang.formatter import TOKEN, format_file, format_source
from tenflang.lang import parse, parse_source, print_program

MESSY = """\


# head comment
macro   dense x W b->y   # a dense layer
declare intvar t
    # inside the body
\tdefine t=matmul W x


 define y = add t b#no space
end  # done
declare input x [ 4 ]   # the input
declare weight W1 [8,4]
# between declarations
declare weight b1[8]
declare   output h   # out
declare intvar q []
declare loss l
define h=dense x W1 b1
define q = -1.5e-3
define l = sum h


"""

MESSY_FORMATTED = """\
# head comment
macro dense x W b -> y  # a dense layer
  declare intvar t
  # inside the body
  define t = matmul W x

  define y = add t b  #no space
end  # done
declare input  x  [4]     # the input
declare weight W1 [8, 4]
# between declarations
declare weight b1 [8]
declare output h          # out
declare intvar q  []
declare loss   l
define h = dense x W1 b1
define q = -1.5e-3
define l = sum h
"""


def comments(text: str) -> list[str]:
    return [m.group().rstrip() for m in re.finditer(r"#[^\n]*", text)]


def gcp_texts() -> list[str]:
    return [print_program(compile_gradient(parse(p.read_text(), str(p), True), level))
            for p in SAMPLES for level in (0, 1)]


# --- the layout ------------------------------------------------------------------------

def test_messy_program_gets_the_canonical_layout():
    assert format_source(MESSY) == MESSY_FORMATTED


def test_original_spacing_becomes_single_spaces_and_aligned_declarations():
    original = "declare input  x\ndeclare exp_output  y\ndefine z  =  mul  x  y\n"
    assert format_source(original) == \
        "declare input      x\ndeclare exp_output y\ndefine z = mul x y\n"


def test_alignment_is_per_run_of_declarations():
    text = src("""
        declare input x [3]
        declare weight weights [3]

        declare exp_output y
        declare loss l
        define l = dot weights x
        declare intvar t
        """)
    assert format_source(text) == src("""
        declare input  x       [3]
        declare weight weights [3]

        declare exp_output y
        declare loss       l
        define l = dot weights x
        declare intvar t
        """)


def test_initialisers_line_up_after_the_shapes():
    text = src("""
        declare input x[4]   # four features
        declare   weight W [2,4] init   normal 0.02
        declare weight gamma  [2] init 1
        declare weight b init -0.5  # scalar
        declare weight longername [2,4]
        """)
    assert format_source(text) == src("""
        declare input  x          [4]                      # four features
        declare weight W          [2, 4] init normal 0.02
        declare weight gamma      [2]    init 1
        declare weight b                 init -0.5         # scalar
        declare weight longername [2, 4]
        """)


def test_comment_lines_do_not_break_a_run_but_trailing_ones_stay_outside():
    text = "declare input x [3]\n# middle\ndeclare weight ww [3]\n# after\ndefine o = x\n"
    assert format_source(text) == ("declare input  x  [3]\n# middle\ndeclare weight ww [3]\n"
                                   "# after\ndefine o = x\n")


def test_no_space_needed_around_punctuation():
    text = "declare input x[3,3]\ndeclare weight w\ndeclare output o[3,3]\ndefine o=mul x w\n"
    assert format_source(text) == ("declare input  x [3, 3]\ndeclare weight w\n"
                                   "declare output o [3, 3]\ndefine o = mul x w\n")


def test_numbers_and_names_are_kept_as_written():
    text = "declare intvar a\ndefine a = 1e-3\ndeclare intvar d/dx.1\ndefine d/dx.1 = mul a .5\n"
    assert format_source(text) == text


def test_blank_lines_collapse_and_vanish_at_both_ends():
    assert format_source("\n\n# a\n\n\n\n# b\n  \n\t\n") == "# a\n\n# b\n"


def test_line_ends_tabs_and_byte_order_mark():
    text = "\ufeffdeclare input\tx\r\ndeclare output o\r\n\r\ndefine o = exp x\r\n"
    assert format_source(text) == "declare input  x\ndeclare output o\n\ndefine o = exp x\n"


def test_empty_and_comment_only_files():
    assert format_source("") == ""
    assert format_source("\n\n") == ""
    assert format_source("   # only a comment   \n") == "# only a comment\n"


def test_comment_text_is_kept_verbatim():
    text = "#no space\n#   indented  text\n# unicode: σ(z) ≥ 0\ndeclare input x  #\tx\n"
    assert comments(format_source(text)) == ["#no space", "#   indented  text",
                                             "# unicode: σ(z) ≥ 0", "#\tx"]


def test_nested_calls_and_parameterless_macros():
    text = src("""
        macro one -> y
        define y = 1
        end
        macro two x->y
        declare intvar t
        define t = one
        define y=add t x
        end
        declare input x
        declare output o
        define o = two x
        """)
    out = format_source(text)
    assert "macro one -> y\n  define y = 1\nend\n" in out
    assert "  define t = one\n" in out
    assert parse(out) == parse(text)


# --- safety ----------------------------------------------------------------------------

def test_a_syntax_error_is_reported_with_its_location():
    with pytest.raises(TenflangError) as err:
        format_source("declare input x\ndefine o exp x\n", "bad.tf")
    assert err.value.render().startswith("bad.tf:2:10: error: unexpected 'exp'; expected '='")


def test_programs_that_do_not_type_check_still_format():
    assert format_source("define o=add t b\n") == "define o = add t b\n"


def test_a_formatter_bug_cannot_change_the_program(monkeypatch):
    import tenflang.lang.formatter as fmt
    monkeypatch.setattr(fmt, "render", lambda lines: ["declare input x"])
    with pytest.raises(RuntimeError, match="would change the program"):
        format_source("declare input y\n")


# --- idempotence and equivalence ----------------------------------------------------------

@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_format_idempotently_to_the_same_program(path):
    text = path.read_text()
    once = format_source(text, str(path))
    assert format_source(once) == once
    assert parse(once) == parse(text)
    assert parse_source(once).statements == parse_source(text).statements
    assert comments(once) == comments(text)


def test_gcps_format_idempotently():
    for text in gcp_texts():
        once = format_source(text)
        assert format_source(once) == once
        assert parse(once) == parse(text)


SPACE = st.text(alphabet=" \t", min_size=1, max_size=3)
OPTIONAL_SPACE = st.text(alphabet=" \t", max_size=3)
WORD = re.compile(r"[A-Za-z0-9_.+-]")


def variant(data, text: str) -> str:
    """`text` with its spacing redrawn: any spaces and tabs between tokens (none
    where the grammar needs none), indentation, trailing blanks, several blank
    lines for one, CRLF line ends."""
    out = []
    for raw in text.split("\n"):
        tokens = [m.group() for m in TOKEN.finditer(raw) if m.lastgroup != "space"]
        if not tokens:
            blanks = data.draw(st.integers(1, 3)) if not raw.strip() else 1
            for _ in range(blanks):
                out.append(data.draw(OPTIONAL_SPACE) + raw.strip())
            continue
        line = data.draw(OPTIONAL_SPACE) + tokens[0]
        for before, token in zip(tokens, tokens[1:]):
            needs_space = WORD.match(before[-1]) and WORD.match(token[0]) or token[0] == "#"
            line += data.draw(SPACE if needs_space else OPTIONAL_SPACE) + token
        out.append(line + data.draw(OPTIONAL_SPACE))
    end = data.draw(st.sampled_from(["\n", "\r\n"]))
    return end.join(out)


BASES = [p.read_text() for p in SAMPLES] + [MESSY_FORMATTED]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_spacing_variants_format_like_the_original(data):
    base = data.draw(st.sampled_from(BASES))
    messy = variant(data, base)
    assert parse_source(messy).statements == parse_source(base).statements  # a valid variant
    formatted = format_source(messy)
    assert formatted == format_source(base)
    assert parse(formatted) == parse(base)
    assert format_source(formatted) == formatted


# --- the command ---------------------------------------------------------------------------

def invoke(*args, input=None):
    result = CliRunner().invoke(cli.main, ["fmt", *map(str, args)], input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def messy(tmp_path):
    path = tmp_path / "messy.tf"
    path.write_text(MESSY)
    return path


def test_check_lists_files_that_would_change_and_writes_nothing(messy, tmp_path):
    tidy = tmp_path / "tidy.tf"
    tidy.write_text(MESSY_FORMATTED)
    before = messy.stat().st_mtime_ns
    code, out, err = invoke("--check", messy, tidy)
    assert (code, out, err) == (1, f"{messy}\n", "")
    assert messy.read_text() == MESSY and messy.stat().st_mtime_ns == before
    assert invoke("--check", tidy) == (0, "", "")


def test_format_rewrites_in_place_then_has_nothing_to_do(messy):
    mode = 0o640
    os.chmod(messy, mode)
    code, out, err = invoke(messy)
    assert (code, out, err) == (0, "", f"reformatted {messy}\n")
    assert messy.read_text() == MESSY_FORMATTED
    assert messy.stat().st_mode & 0o777 == mode                 # replaced atomically, same mode
    assert sorted(p.name for p in messy.parent.iterdir()) == ["messy.tf"]   # no temporaries
    assert invoke(messy) == (0, "", "")
    assert invoke("--check", messy) == (0, "", "")


def test_syntax_error_exits_2_and_leaves_the_file_while_others_are_formatted(messy, tmp_path):
    bad = tmp_path / "bad.tf"
    bad.write_text("declare input x\ndefine o exp x\n")
    code, out, err = invoke(bad, messy)
    assert code == 2
    assert err.startswith(f"{bad}:2:10: error: unexpected 'exp'; expected '='\n"
                          "    define o exp x\n             ^\n")
    assert f"reformatted {messy}" in err
    assert bad.read_text() == "declare input x\ndefine o exp x\n"
    assert messy.read_text() == MESSY_FORMATTED
    code, out, err = invoke("--check", bad, messy)
    assert code == 2 and out == ""


def test_missing_file(tmp_path):
    code, _, err = invoke(tmp_path / "nothere.tf")
    assert code == 2 and "cannot read program: No such file or directory" in err


def test_a_directory_means_its_tf_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.tf").write_text(MESSY)
    (tmp_path / "b.tf").write_text(MESSY_FORMATTED)
    (tmp_path / "notes.txt").write_text("define not a program\n")
    code, out, _ = invoke("--check", tmp_path)
    assert (code, out) == (1, f"{tmp_path / 'sub' / 'a.tf'}\n")


def test_standard_input_to_standard_output():
    assert invoke("-", input=MESSY) == (0, MESSY_FORMATTED, "")
    assert invoke("--check", "-", input=MESSY) == (1, "-\n", "")
    assert invoke("--check", "-", input=MESSY_FORMATTED) == (0, "", "")


def test_format_file_api(messy):
    assert format_file(str(messy), check=True) is True
    assert messy.read_text() == MESSY
    assert format_file(str(messy)) is True
    assert format_file(str(messy)) is False


def test_fmt_in_a_fresh_process(run_cli, messy):
    code, out, err = run_cli(["tenflang", "fmt", "--check", messy])
    assert (code, out.strip()) == (1, str(messy))
    code, _, _ = run_cli(["tenflang", "fmt", messy])
    assert code == 0 and messy.read_text() == MESSY_FORMATTED


# ---- --fix: the missing intvar declarations added ---------------------------------------

UNDECLARED = src("""
    # an MLP whose intvars are not declared
    declare input x [3]
    declare exp_output y
    declare weight W [4, 3] init he
    declare weight v [4]
    declare loss l

    define h = relu (matmul W x)   # hidden
    define o = dot v h
    define l = pow (sub o y) 2
    """)


def test_fix_adds_every_missing_declaration_then_the_program_checks_and_compiles(run_cli_batch,
                                                                                tmp_path):
    path = tmp_path / "mlp.tf"
    path.write_text(UNDECLARED)
    results = run_cli_batch([["tenflang", "check", path], ["tenflang", "fmt", "--fix", path],
                             ["tenflang", "check", path], ["tfcompiler", path]])
    (code, _, err), (fix_code, _, fixed), (check_code, _, ok), (compile_code, gcp, _) = results
    assert code == 2 and "'h' is defined but never declared; add 'declare intvar h' " \
        "before line 8 (tenflang fmt --fix adds it)" in err
    assert fix_code == 0
    assert fixed.splitlines() == [f"{path}: added 'declare intvar h [4]' before line 8",
                                  f"{path}: added 'declare intvar o []' before line 9",
                                  f"reformatted {path}"]
    assert "declare intvar h [4]\ndefine h = relu (matmul W x)  # hidden\n" \
           "declare intvar o []\ndefine o = dot v h\n" in path.read_text()
    assert check_code == 0 and ok.strip() == f"{path}: ok"
    assert compile_code == 0 and "define d/dW" in gcp


def test_fix_with_check_writes_nothing_and_says_what_it_would_add(tmp_path):
    path = tmp_path / "mlp.tf"
    path.write_text(UNDECLARED)
    code, out, err = invoke("--check", "--fix", path)
    assert (code, out) == (1, f"{path}\n") and path.read_text() == UNDECLARED
    assert f"{path}: would add 'declare intvar h [4]' before line 8" in err
    code, out, err = invoke("--fix", "-", input=UNDECLARED)
    assert code == 0 and "declare intvar o []\ndefine o = dot v h\n" in out
    assert "<stdin>: added 'declare intvar h [4]' before line 8" in err


def test_fix_leaves_declared_programs_alone_and_adds_no_shape_it_cannot_infer(tmp_path):
    path = tmp_path / "p.tf"
    path.write_text(MESSY_FORMATTED)
    assert invoke("--fix", path) == (0, "", "")
    # a program that does not check for another reason: declarations without shapes
    text = "declare input x\ndefine t = wibble x\ndefine u = neg t\n"
    added = []
    from tenflang.lang.formatter import fixed_source
    assert fixed_source(text, "q.tf", added) == (
        "declare input  x\ndeclare intvar t\ndefine t = wibble x\n"
        "declare intvar u\ndefine u = neg t\n")
    assert added == [(2, "declare intvar t"), (3, "declare intvar u")]
    with pytest.raises(TenflangError, match="unknown op 'wibble'"):
        parse(fixed_source(text, "q.tf", []))
