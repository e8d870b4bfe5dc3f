"""The parser's fast lane (tenflang/lang/fastparse.py) against lark's own path:
the same tokens (type, text, line, column) on the samples, their GCPs, the
error corpus and awkward whitespace; the same syntax trees, positions
included; and on bad input the fallback to lark, so the same errors."""
from __future__ import annotations

import dataclasses

import lark
import pytest

from support.paths import SAMPLES
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError
from tenflang.lang import parse, parse_source, print_program, syntax
from tenflang.lang.fastparse import Fallback

AWKWARD = [
    "",
    "\n\n# only a comment\n",
    "declare loss l\r\ndefine l = q\r\n",
    "declare\tinput  x\f\n\t# indented comment\n  define y = add x 1e-3 # trailing\n",
    "# a line separator \u2028 inside a comment\ndeclare input x\n",
    "declare input v [ 4 ]\ndeclare intvar s\ndefine s = sum v -1\n",
    "declare input x\ndeclare intvar h\ndefine h = tanh (add (mul x 2) (neg x))\n",
    "macro dense x W b -> y\n  declare intvar t\n  define t = matmul W x\n"
    "  define y = add t b\nend\n",
    "declare input declare\ndeclare intvar end\ndefine end = copy declare\n",
    "define d/dw.1 = mul dh.t/dW1 -0.5\n",
    "define hT = fold cell h0 (tanh xs) W\ndefine hs=scan cell h0 xs  # loops\ndefine x = fold\n",
    "declare input x",
]


def error_corpus() -> list[str]:
    from errors.test_errors import CASES   # the error tests' programs, by their folder
    return [c.source for c in CASES if isinstance(c.source, str)]


def gcps() -> list[str]:
    return [print_program(compile_gradient(parse(p.read_text(), str(p), True), level))
            for p in SAMPLES for level in (0, 1)]


def corpus() -> list[str]:
    texts = [p.read_text() for p in SAMPLES] + gcps() + AWKWARD + error_corpus()
    return [t if t.endswith("\n") else t + "\n" for t in texts]


def described(tokens) -> list[tuple]:
    return [(t.type, str(t), t.line, t.column) for t in tokens]


def lark_tokens(text: str) -> list[tuple]:
    """The tokens lark's contextual lexer gives the parser, up to any error."""
    seen = []
    try:
        for token in syntax.parser().parse_interactive(text).iter_parse():
            seen.append(token)
    except (lark.exceptions.UnexpectedInput, syntax.BadToken):
        pass
    return described(seen)


def fast_tokens(text: str, monkeypatch) -> list[tuple]:
    """The tokens the fast lane gives its parser, up to where it gives up."""
    fast, seen = syntax.fast_parser(), []
    lexer = fast.tokens

    def recording(text, states, line=1):
        for token in lexer(text, states, line):
            seen.append(token)
            yield token
    with monkeypatch.context() as patch:
        patch.setattr(fast, "tokens", recording)
        try:
            fast.parse(text)
        except (Fallback, syntax.BadToken):
            pass
    return described(seen)


def dump(node):
    """A syntax tree with every field, positions included (`==` ignores them)."""
    if dataclasses.is_dataclass(node):
        return type(node).__name__, *(dump(getattr(node, f.name))
                                      for f in dataclasses.fields(node))
    if isinstance(node, tuple):
        return tuple(map(dump, node))
    return node


def test_the_fast_lane_is_built_from_this_lark():
    assert syntax.fast_parser() is not None


@pytest.mark.parametrize("text", corpus())
def test_same_tokens_as_lark(text, monkeypatch):
    assert fast_tokens(text, monkeypatch) == lark_tokens(text)


@pytest.mark.parametrize("text", corpus())
def test_same_trees_or_the_same_error(text, monkeypatch):
    try:
        expected = dump(syntax.parser().parse(text))
    except (lark.exceptions.UnexpectedInput, syntax.BadToken):
        with pytest.raises((Fallback, syntax.BadToken)):
            syntax.fast_parser().parse(text)
        fast_error = error_of(text)
        monkeypatch.setattr(syntax, "fast_parser", lambda: None)
        assert fast_error == error_of(text)
        return
    assert dump(syntax.fast_parser().parse(text)) == expected


def error_of(text: str) -> str:
    with pytest.raises(TenflangError) as info:
        parse_source(text, "e.tf")
    return info.value.render()


def test_bad_input_is_left_to_lark():
    fast = syntax.fast_parser()
    for text in ["declare input x $\n", "define = add\n", "declare input x [2.5]\n",
                 "define y = add x 1e999\n"]:
        with pytest.raises((Fallback, syntax.BadToken)):
            fast.parse(text)
