"""The parser's line lane (tenflang/lang/lineparse.py) against lark's own path:
the same syntax trees, positions included, on the samples, their GCPs, the
error corpus and awkward whitespace; random lines of tricky tokens read the
same or are left to lark; a macro leaves the whole text to the fast lane."""
from __future__ import annotations

import lark
import pytest
from hypothesis import given, settings, strategies as st

from tenflang.lang import syntax
from tenflang.lang.fastparse import Fallback
from tenflang.lang.lineparse import parse_lines
from test_fastparse import corpus, dump


def lark_tree(text: str):
    try:
        return dump(syntax.parser().parse(text))
    except (lark.exceptions.UnexpectedInput, syntax.BadToken):
        return "error"


def lane_tree(text: str):
    try:
        statements = parse_lines(text, syntax.fast_parser())
    except (Fallback, syntax.BadToken):
        return "error"
    return None if statements is None else dump(statements)


TEXTS = corpus()


@pytest.mark.parametrize("text", TEXTS)
def test_same_trees_as_lark(text):
    got = lane_tree(text)
    if got is None:
        assert "macro" in text
    else:
        assert got == lark_tree(text)


def test_most_of_the_corpus_takes_the_lane():
    assert sum(lane_tree(t) is not None for t in TEXTS) > 0.7 * len(TEXTS)


WORDS = ["declare", "define", "input", "inputx", "definex", "=", "+2.5e-3", "1e999", "2x",
         ".5", "1.2.3", "[", "]", ",", "[3]", "[2, 3]", "(", ")", "# note", "macro", "end",
         "a-1", "$", "x.", "d/"]
NAMES = st.sampled_from(["x", "y", "x.1", "d/dx", "add", "tanh", "declare", "end"])
OPERANDS = st.one_of(NAMES, st.sampled_from(["-1", "+2.5e-3", "3", "0.5", "1e3"]))
SPACE = st.sampled_from(["", " ", "  ", "\t", "\f", "\r", " # c"])


@st.composite
def lines(draw):
    """A valid-looking line, sometimes with a tricky word put in or spaces left out."""
    if draw(st.booleans()):
        words = ["declare", draw(NAMES), draw(NAMES)] + draw(st.sampled_from([[], ["[3]"], ["[", "]"],
                                                                               ["[2,", "3", "]"]]))
    else:
        words = ["define", draw(NAMES), "=", draw(OPERANDS)] + draw(st.lists(OPERANDS, max_size=3))
    if draw(st.integers(0, 2)) == 0:
        words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(WORDS)))
    gaps = [draw(st.sampled_from([" "] * 6 + ["\t", " \f ", ""])) for _ in words]
    return "".join(
        w + g for w, g in zip(words, gaps)) + draw(SPACE)


@settings(max_examples=300, deadline=None)
@given(st.lists(lines(), min_size=1, max_size=3))
def test_random_lines_read_as_lark_reads_them(texts):
    text = "\n".join(texts) + "\n"
    got = lane_tree(text)
    if got is not None:
        assert got == lark_tree(text)


def test_line_numbers_of_lines_left_to_the_fast_lane():
    text = ("declare input x\n\n# c\ndeclare intvar h\n"
            "define h = tanh (add (mul x 2) x)   # nested\ndeclare intvar r [2]\n"
            "define r = reshape h [2]\n")
    assert lane_tree(text) == lark_tree(text)
    statements = parse_lines(text, syntax.fast_parser())
    assert [s.pos.line for s in statements] == [1, 4, 5, 6, 7]


def test_a_macro_leaves_the_text_to_the_fast_lane():
    text = "macro f a -> b\n  define b = tanh a\nend\ndeclare input x\n"
    assert parse_lines(text, syntax.fast_parser()) is None
