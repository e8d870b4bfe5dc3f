"""The GCP of a kept loop (docs/design.md §2.5.1): its size does not grow
with the sequence, it prints, parses and formats back to itself and
highlights without an error token; loops that cannot run alone are unrolled
(and still differentiate right); every way a kept loop's GCP can be wrong
is refused with its message."""
from __future__ import annotations

import re

import numpy as np
import pytest

import tenflang
from support.gradcheck import gcp_gradients, numerical_gradient
from support.kept_loop_programs import charlm, kept_cells, loop_data, rnn_fold
from support.programs import src
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError
from tenflang.lang.formatter import format_source


def printed_gcp(source: str, loops: str = "auto", level: int = 1) -> str:
    program = tenflang.parse(source, "t.tf", shape_program=True, loops=loops)
    return tenflang.print_program(compile_gradient(program, level))


# --- size ------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", [0, 1])
def test_the_gcp_does_not_grow_with_the_window(level):
    short, long = printed_gcp(charlm(16), level=level), printed_gcp(charlm(4096), level=level)
    assert abs(long.count("\n") - short.count("\n")) <= 5
    for text in (short, long):
        assert text.count("macro adjoint/gru ") == 1
        loops = [line for line in text.splitlines() if re.match(r"define \S+ = scan \w", line)]
        backs = [line for line in text.splitlines() if " = scan_back adjoint/" in line]
        assert len(loops) == 1 and len(backs) == 1, (loops, backs)
        assert backs[0].split(" = ")[0].count(",") == 4      # h0, xs, W, U, b


# --- round trips -----------------------------------------------------------------------------

KEPT_TEXTS = {f"{name}-O{level}": (make, level) for name, make in
              (("charlm", lambda: charlm(16)), ("rnn_fold", lambda: rnn_fold(12)))
              for level in (0, 1)}


@pytest.fixture(scope="module")
def kept_texts():
    return {key: printed_gcp(make(), level=level) for key, (make, level) in KEPT_TEXTS.items()}


@pytest.mark.parametrize("key", list(KEPT_TEXTS))
def test_print_parse_print_is_the_same_text(key, kept_texts):
    text = kept_texts[key]
    assert "scan_back" in text
    again = tenflang.parse(text, "gcp.tf")
    assert kept_cells(again)                    # a GCP's loops stay loops when re-read
    # reading drops comments (the blocks' titles): from there printing is a fixed point
    reprinted = tenflang.print_program(again)
    code = lambda t: [ln for ln in t.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    assert code(reprinted) == code(text)
    assert tenflang.print_program(tenflang.parse(reprinted, "again.tf")) == reprinted


@pytest.mark.parametrize("key", list(KEPT_TEXTS))
def test_a_reprinted_kept_program_parses(key, kept_texts):
    """The text printed from a re-read kept-loop GCP must itself parse: its
    `scan` lines name their cells."""
    again = tenflang.print_program(tenflang.parse(kept_texts[key], "gcp.tf"))
    assert kept_cells(tenflang.parse(again, "again.tf"))


def test_a_printed_shape_program_with_a_kept_loop_parses():
    program = tenflang.parse(charlm(16), "c.tf", shape_program=True)
    assert kept_cells(program) == ["gru"]
    again = tenflang.parse(tenflang.print_program(program), "printed.tf")
    assert kept_cells(again) == ["gru"]


@pytest.mark.parametrize("key", list(KEPT_TEXTS))
def test_fmt_changes_only_the_spacing_of_a_printed_kept_gcp(key, kept_texts, tmp_path):
    """fmt aligns declarations, which the printer does not (for any GCP): it
    changes spaces only, keeps the macros of several results and the
    `scan_back` lines, and has nothing more to do after one pass."""
    from click.testing import CliRunner
    from tenflang import cli
    text = kept_texts[key]
    once = format_source(text)
    assert once.split() == text.split()
    assert format_source(once) == once
    assert tenflang.parse(once, "gcp.tf") == tenflang.parse(text, "gcp.tf")
    path = tmp_path / "gcp.tf"
    path.write_text(once)
    result = CliRunner().invoke(cli.main, ["fmt", "--check", str(path)])
    assert (result.exit_code, result.stdout) == (0, ""), result.output
    assert path.read_text() == once


@pytest.mark.parametrize("key", list(KEPT_TEXTS))
def test_the_highlighter_reads_a_kept_gcp_without_error(key, kept_texts):
    from pygments.token import Error, Keyword, Name
    from tenflang.lang.highlight import TenflangLexer
    tokens = list(TenflangLexer().get_tokens(kept_texts[key]))
    assert [v for t, v in tokens if t in Error] == []
    assert (Keyword, "scan_back") in tokens or (Name.Builtin, "scan_back") in tokens
    assert (Name.Function, "adjoint/gru") in tokens or (Name.Function, "adjoint/cell") in tokens


# --- fallbacks: unrolled whatever the setting ------------------------------------------------

FALLBACK_HEAD = src("""
    declare input xs [10, 3]
    declare weight W [4, 3]
    declare weight U [4, 4]
    declare weight h0 [4]
    declare output hT
    declare loss l
    """)
FALLBACKS = {
    # a weight declared in the cell (the program's W is then unused: left out)
    "own_weight": ("macro c h x U -> hn\n  declare weight M [4, 3]\n"
                   "  define hn = tanh (add (matmul M x) (matmul U h))\nend\n",
                   "define hT = fold c h0 xs U\n"),
    "batch_mean": ("macro c h x W U -> hn\n"
                   "  define hn = tanh (add (matmul W x) (matmul U (batch_mean h)))\nend\n",
                   "define hT = fold c h0 xs W U\n"),
    "dropout_mask": ("macro c h x W U -> hn\n  define hn = tanh (add (matmul W x) "
                     "(matmul U (mul h (dropout_mask h 0.2))))\nend\n",
                     "define hT = fold c h0 xs W U\n"),
    "number_operand": ("macro c h x W U a -> hn\n"
                       "  define hn = tanh (add (matmul W x) (mul a (matmul U h)))\nend\n",
                       "define hT = fold c h0 xs W U 0.5\n"),
}


def fallback_source(name: str) -> str:
    macro, loop = FALLBACKS[name]
    head = FALLBACK_HEAD.replace("declare weight W [4, 3]\n", "" if name == "own_weight" else
                                 "declare weight W [4, 3]\n")
    return macro + head + loop + "define l = sum (mul hT hT)\n"


@pytest.mark.parametrize("name", list(FALLBACKS))
def test_a_cell_that_cannot_run_alone_is_unrolled(name):
    source = fallback_source(name)
    for loops in ("keep", "auto"):
        program = tenflang.parse(source, "f.tf", shape_program=True, loops=loops)
        assert kept_cells(program) == [] and not program.cells, loops
        assert "scan_back" not in tenflang.print_program(compile_gradient(program))
    program = tenflang.parse(source, "f.tf", shape_program=True, loops="keep")
    data, weights = loop_data(program, np.random.default_rng(4), 3, 0.5)
    for level in (0, 1):
        analytic = gcp_gradients(program, data, weights, level)
        for w in weights:
            expected = numerical_gradient(program, data, weights, w)
            np.testing.assert_allclose(analytic[w], expected, rtol=1e-5, atol=1e-7,
                                       err_msg=f"{name} -O{level} d/d{w}")
    assert all(np.any(analytic[w] != 0) for w in weights), name


# --- errors ----------------------------------------------------------------------------------

def test_an_unknown_loops_setting_is_refused():
    with pytest.raises(TenflangError, match="loops must be one of 'auto', 'keep', 'unroll', "
                       "not 'sometimes'"):
        tenflang.parse(charlm(16), "c.tf", shape_program=True, loops="sometimes")


@pytest.fixture(scope="module")
def charlm_gcp_text():
    return printed_gcp(charlm(16))


def scan_back_line(text: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if "= scan_back " in line)


@pytest.mark.parametrize("named", ["gru2", "h0"])
def test_scan_back_of_something_that_is_not_a_macro(named, charlm_gcp_text):
    bad = charlm_gcp_text.replace("scan_back adjoint/gru", f"scan_back {named}")
    line = scan_back_line(bad)
    column = bad.splitlines()[line - 1].index("scan_back") + 1
    with pytest.raises(TenflangError) as caught:
        tenflang.parse(bad, "g.tf")
    assert str(caught.value).startswith(
        f"g.tf:{line}:{column}: error: 'scan_back' takes the adjoint macro of a loop's cell "
        "first (`scan_back adjoint/m states init xs ... g [k]`)"), str(caught.value)


def test_scan_back_of_a_cell_instead_of_its_adjoint(charlm_gcp_text):
    bad = charlm_gcp_text.replace("scan_back adjoint/gru", "scan_back gru")
    with pytest.raises(TenflangError, match=f"g.tf:{scan_back_line(bad)}:.*'scan_back' of macro "
                       "'gru' defines 1 names"):
        tenflang.parse(bad, "g.tf")


def test_a_macro_of_several_results_is_not_called_as_a_macro():
    text = src("""
        macro m a -> b, c
          define b = tanh a
          define c = neg a
        end
        declare input x [2]
        declare output y
        define y = m x
        """)
    with pytest.raises(TenflangError) as caught:
        tenflang.parse(text, "m.tf")
    assert str(caught.value).startswith("m.tf:7:12: error: macro 'm' gives 2 results: a loop's "
                                        "adjoint, which only `scan_back` calls"), str(caught.value)


def test_a_gcp_with_scan_back_is_not_differentiated_again(charlm_gcp_text):
    message = ("this program is a GCP with a loop's adjoint (`scan_back`), which is not "
               "differentiated again; compile its shape program with `tfcompiler --unroll`")
    with pytest.raises(TenflangError, match=re.escape(message)):
        compile_gradient(tenflang.parse(charlm_gcp_text, "g.tf"))
    unrolled = printed_gcp(charlm(16), loops="unroll")
    second = compile_gradient(tenflang.parse(unrolled, "g.tf"))     # as the message says
    assert not any(d.op == "scan_back" for d in second.definitions())


def test_export_refuses_a_program_read_with_its_loops_kept():
    from tenflang.export import export_model
    program = tenflang.parse(charlm(16), "c.tf", shape_program=True, loops="keep")
    with pytest.raises(TenflangError, match=re.escape(
            "export_model: the program keeps a loop as a loop; ONNX export writes a loop's "
            "steps: parse it with loops='unroll'")):
        export_model(program, {})
