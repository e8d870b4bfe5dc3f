"""The Pygments lexer: every program lexes without error tokens and round-trips,
tokens have the right types, and the `pygments.lexers` entry point makes
`pygmentize -l tenflang` work once TenFlang is installed."""
from __future__ import annotations

import configparser
import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("pygments")

from pygments.token import (Comment, Error, Keyword, Name, Number, Operator,  # noqa: E402
                            Punctuation)

from support.paths import ROOT, SAMPLES  # noqa: E402
from tenflang.backprop import compile_gradient  # noqa: E402
from tenflang.lang.highlight import TenflangLexer  # noqa: E402
from tenflang.lang import parse, print_program  # noqa: E402


def tokens(text: str):
    return [(t, v) for t, v in TenflangLexer().get_tokens(text) if v.strip()]


def corpus() -> list[tuple[str, str]]:
    out = [(p.name, p.read_text()) for p in SAMPLES]
    for p in SAMPLES:
        for level in (0, 1):
            gcp = compile_gradient(parse(p.read_text(), str(p), True), level)
            out.append((f"{p.name} -O{level}", print_program(gcp)))
    from support.doc_blocks import ALL_BLOCKS
    out += [(b.id, b.text) for b in ALL_BLOCKS if b.language == "tenflang"]
    return out


@pytest.mark.parametrize("name,text", corpus(), ids=lambda x: x if len(x) < 60 else None)
def test_every_program_lexes_without_errors_and_round_trips(name, text):
    stream = list(TenflangLexer().get_tokens(text))
    assert "".join(v for _, v in stream) == (text if text.endswith("\n") else text + "\n")
    assert [v for t, v in stream if t in Error] == []


def test_token_types():
    text = textwrap.dedent("""\
        macro dense x W b -> y   # a layer
          declare intvar t
          define t = matmul W x
          define y = add t b
        end
        declare input x [4, 2]
        define h = dense x W1 b1
        define c = -1.5e-3
        define k = 2
        define v = h
        define d/dh.1 = mul d/dv dv/dh
        """)
    got = tokens(text)
    expect = [
        (Keyword, "macro"), (Name.Function, "dense"), (Name.Variable, "x"),
        (Name.Variable, "W"), (Name.Variable, "b"), (Operator, "->"), (Name.Variable, "y"),
        (Comment.Single, "# a layer"),
        (Keyword.Declaration, "declare"), (Keyword.Type, "intvar"), (Name.Variable, "t"),
        (Keyword.Declaration, "define"), (Name.Variable, "t"), (Operator, "="),
        (Name.Builtin, "matmul"), (Name.Variable, "W"), (Name.Variable, "x"),
        (Keyword.Declaration, "define"), (Name.Variable, "y"), (Operator, "="),
        (Name.Builtin, "add"), (Name.Variable, "t"), (Name.Variable, "b"),
        (Keyword, "end"),
        (Keyword.Declaration, "declare"), (Keyword.Type, "input"), (Name.Variable, "x"),
        (Punctuation, "["), (Number.Integer, "4"), (Punctuation, ","), (Number.Integer, "2"),
        (Punctuation, "]"),
        (Keyword.Declaration, "define"), (Name.Variable, "h"), (Operator, "="),
        (Name.Function, "dense"), (Name.Variable, "x"), (Name.Variable, "W1"),
        (Name.Variable, "b1"),
        (Keyword.Declaration, "define"), (Name.Variable, "c"), (Operator, "="),
        (Number.Float, "-1.5e-3"),
        (Keyword.Declaration, "define"), (Name.Variable, "k"), (Operator, "="),
        (Number.Integer, "2"),
        (Keyword.Declaration, "define"), (Name.Variable, "v"), (Operator, "="),
        (Name.Variable, "h"),
        (Keyword.Declaration, "define"), (Name.Variable, "d/dh.1"), (Operator, "="),
        (Name.Builtin, "mul"), (Name.Variable, "d/dv"), (Name.Variable, "dv/dh"),
    ]
    assert got == expect


def test_initialisers_are_highlighted():
    got = tokens("declare weight init [2, 3] init uniform -0.1 1\ndeclare weight g init 1\n")
    assert got == [
        (Keyword.Declaration, "declare"), (Keyword.Type, "weight"), (Name.Variable, "init"),
        (Punctuation, "["), (Number.Integer, "2"), (Punctuation, ","), (Number.Integer, "3"),
        (Punctuation, "]"), (Keyword, "init"), (Name.Builtin, "uniform"),
        (Number.Float, "-0.1"), (Number.Integer, "1"),
        (Keyword.Declaration, "declare"), (Keyword.Type, "weight"), (Name.Variable, "g"),
        (Keyword, "init"), (Number.Integer, "1")]


def test_op_names_come_from_the_op_table():
    from tenflang.ops import table as ops
    for name in ops.TABLE:
        assert (Name.Builtin, name) in tokens(f"define v = {name} a\n")
    assert (Name.Variable, "logistic_z") in tokens("define v = logistic_z\n")


def test_bad_characters_are_error_tokens():
    assert any(t in Error for t, _ in tokens("define v = add a $b\n"))


def test_analyse_text_tells_tenflang_from_terraform():
    assert TenflangLexer.analyse_text((ROOT / "samples" / "mlp_digits.tf").read_text()) == 1.0
    terraform = 'resource "aws_instance" "web" {\n  ami = "ami-123"\n}\n'
    assert TenflangLexer.analyse_text(terraform) == 0.0


def test_setup_cfg_registers_the_entry_point_and_installs_pygments():
    """`pip install .` alone makes `pygmentize -l tenflang` work: pygments is an
    install dependency, not only a test one."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    entry_points = cfg["options.entry_points"]["pygments.lexers"].split()
    assert entry_points == ["tenflang", "=", "tenflang.lang.highlight:TenflangLexer"]
    assert any(line.strip().startswith("pygments")
               for line in cfg["options"]["install_requires"].splitlines())


FIND = ("from pygments.lexers import get_lexer_by_name, get_lexer_for_filename; "
        "import sys; code = open(sys.argv[1]).read(); "
        "print(type(get_lexer_by_name('tenflang')).__name__, "
        "type(get_lexer_for_filename('shape.tf', code)).__name__)")


def installed_entry_point(cwd) -> bool:
    """Asked in a process started in `cwd`, not here: a `tenflang.egg-info` left in
    the checkout by a build shows an entry point to this process only."""
    ask = ("import sys; from importlib.metadata import entry_points; sys.exit(not any("
           "ep.name == 'tenflang' for ep in entry_points(group='pygments.lexers')))")
    return subprocess.run([sys.executable, "-c", ask], cwd=cwd, timeout=120).returncode == 0


def test_pygments_finds_the_lexer_once_installed(tmp_path):
    """With TenFlang installed (scripts/test.sh installs it), Pygments finds the
    lexer by its alias and by file name.  Otherwise TenFlang is installed here
    into a temporary directory first (no dependencies, no network)."""
    sample = str(ROOT / "samples" / "mlp_digits.tf")
    env = dict(os.environ)
    if not installed_entry_point(tmp_path):
        if shutil.which("pip") is None and importlib.util.find_spec("pip") is None \
                or importlib.util.find_spec("setuptools") is None:
            pytest.skip("neither an installed TenFlang nor pip and setuptools to install one")
        source = tmp_path / "src"
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
            ".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "*.egg-info",
            "build", "dist", "bench", "tests", "samples", "docs"))
        target = tmp_path / "site"
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                               "--no-build-isolation", "--no-index", "--target", str(target),
                               str(source)], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            pytest.skip(f"pip could not install TenFlang here: {done.stderr[-500:]}")
        env["PYTHONPATH"] = str(target)
    done = subprocess.run([sys.executable, "-c", FIND, sample], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["TenflangLexer", "TenflangLexer"]
