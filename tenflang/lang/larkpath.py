"""lark's own path through the grammar: the parser, its syntax errors as
`TenflangError`s that say what was expected, and the tables the fast lane
reads.  The only module of the front end that imports lark; `syntax` imports
it only for text the fast lane cannot read, or to build the fast lane's tables
once (then cached on disk, see `syntax.fast_parser`).

The grammar is `grammar/tenflang.lark` (installed as the package data
`tenflang.grammar`).  A lark `Transformer` (`treebuild.AstBuilder`'s methods)
runs inline with the LALR parser, so no parse tree is built: tokens become
frozen dataclasses from `ast` directly.
"""
from __future__ import annotations

import functools
import os
import re

import lark
from lark import Transformer, v_args
from lark.parse_tree_builder import (ChildFilterLALR, ChildFilterLALR_NoPlaceholders,
                                     maybe_create_child_filter)
from lark.parsers.lalr_analysis import Shift

from tenflang.base.errors import Location, TenflangError, source_line
from tenflang.base.outputs import cache_dir
from .lexical import grammar_text
from .treebuild import AstBuilder

READABLE = {
    "NAME": "a name", "NUMBER": "a number", "INT": "an integer", "_NL": "end of line",
    "EQUAL": "'='", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','",
    "ARROW": "'->'",
    "_DECLARE": "'declare'", "_DEFINE": "'define'", "_MACRO": "'macro'", "_END": "'end'",
    "_INIT": "'init'",
    "$END": "end of file",
}

# lark's v_args applies to a class's own methods only, so they are copied in
ToAst = v_args(inline=True)(type("ToAst", (Transformer,), {
    name: value for name, value in vars(AstBuilder).items() if not name.startswith("__")}))


@functools.cache
def parser() -> lark.Lark:
    """The LALR parser; its tables are cached on disk (lark checks that the cache
    matches the grammar), which saves most of its construction."""
    cache = cache_dir()
    return lark.Lark(grammar_text(), start="program", parser="lalr", transformer=ToAst(),
                     maybe_placeholders=True,
                     cache=cache and os.path.join(cache, f"grammar-lark-{lark.__version__}.cache"))


def statements(text: str, filename: str) -> tuple:
    """The statements of `text` by lark; a syntax error is a located TenflangError."""
    try:
        return parser().parse(text)
    except lark.exceptions.UnexpectedInput as err:
        raise syntax_error(err, text, filename) from None


# ----------------------------------------------------------------------------- the fast lane's tables

def fast_tables() -> dict:
    """`parser()`'s automaton as plain data, in the layout `fastparse.FastParser`
    reads (see its docstring); names are `str`, not lark's `Token`, so that its
    pickle holds builtin types only (`syntax.PlainData`).  Raises AttributeError, KeyError, TypeError or
    NotImplementedError where this lark's internals are laid out otherwise."""
    built = parser()
    if built.options.keep_all_tokens or built.options.propagate_positions:
        raise NotImplementedError("options the fast lane does not follow")
    frontend = built.parser
    inner = frontend.parser.parser
    rules, index = [], {}

    def reduce(rule) -> tuple:
        if rule not in index:
            index[rule] = len(rules)
            rules.append(rule_spec(rule, built.options.maybe_placeholders))
        return len(rule.expansion), index[rule], str(rule.origin.name)
    table = {state: {str(kind): arg if step is Shift else reduce(arg)
                     for kind, (step, arg) in row.items()}
             for state, row in inner.parse_table.states.items()}
    return {"table": table, "rules": rules, "start": inner.parse_table.start_states["program"],
            "end": inner.parse_table.end_states["program"],
            "lexers": {state: lexer_spec(lexer) for state, lexer in frontend.lexer.lexers.items()}}


def rule_spec(rule, placeholders: bool) -> tuple:
    """(callback name, expand a single child, children to keep, Nones to append)
    as lark's ParseTreeBuilder derives them for `rule`; children to keep are
    (index, splice its children, Nones before it), None where all are kept."""
    name = str(rule.alias or rule.options.template_source or rule.origin.name)
    made = maybe_create_child_filter(rule.expansion, False, False,
                                     rule.options.empty_indices if placeholders else None)
    if made is None:
        keep, append = None, 0
    elif made.func is ChildFilterLALR_NoPlaceholders:
        keep, append = [(i, expand, 0) for i, expand in made.args[0]], 0
    elif made.func is ChildFilterLALR:
        keep, append = list(made.args[0]), made.args[1]
    else:
        raise NotImplementedError(f"child filter {made.func.__name__}")
    return name, bool(rule.options.expand1 and not rule.alias), keep, append


def lexer_spec(lexer) -> tuple:
    """(pattern, flags, ignored types, types that may hold a newline) of one of
    the contextual lexer's basic lexers: its terminals in the order lark's
    scanner tries them, one named group each."""
    terminals = lexer.scanner.terminals         # after lark's own reordering and merging
    if lexer.callback:
        raise NotImplementedError("terminal callbacks (a string matched by a regexp "
                                  "terminal) are not in the fast lane")
    pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
    return (pattern, int(lexer.g_regex_flags), sorted(map(str, lexer.ignore_types)),
            sorted(map(str, lexer.newline_types)))


# ----------------------------------------------------------------------------- syntax errors

MALFORMED_NUMBER = re.compile(r"[+-]?\.?\d[\w.+-]*")
# a user who wrote `w * x`: the op comes first, by name
INFIX = {char: f"; TenFlang has no infix operators: write the op first, as '{op} a b'"
         for char, op in (("*", "mul"), ("+", "add"), ("-", "sub"), ("/", "div"),
                          ("@", "matmul"), ("^", "pow"))}
MACRO_LINE = re.compile(r"[ \t\f]*(macro|end)\b[ \t\f]*([A-Za-z_]\w*)?")
def malformed_number(err, text: str) -> str | None:
    """The text of a number-like word the NUMBER terminal refused (`1.2.3`, `2x`)."""
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        start = err.pos_in_stream
    elif (isinstance(err, lark.exceptions.UnexpectedToken) and "NUMBER" in (err.expected or ())
          and err.token.type == "INT"):
        start = err.token.start_pos
    else:
        return None
    bad = MALFORMED_NUMBER.match(text, start) if isinstance(start, int) else None
    return bad.group() if bad else None


def open_macro(text: str, before_line: int | None = None) -> tuple[int, int, str] | None:
    """(line, column, name) of the macro still open at the end of `text` (or
    just before line `before_line`), if any."""
    found = None
    for number, line in enumerate(text.split("\n"), 1):
        if before_line is not None and number >= before_line:
            break
        head = MACRO_LINE.match(line)
        if head and head.group(1) == "macro":
            found = (number, head.start(1) + 1, head.group(2) or "?")
        elif head:
            found = None
    return found


def unbalanced(line: str) -> tuple[int, str] | None:
    """(column, message) of a parenthesis without its partner on a source line."""
    opened: list[int] = []
    for column, char in enumerate(line.split("#", 1)[0], 1):
        if char == "(":
            opened.append(column)
        elif char == ")" and not opened:
            return column, "')' closes no '(' (unbalanced parentheses)"
        elif char == ")":
            opened.pop()
    if opened:
        more = f" (and {len(opened) - 1} before it)" if len(opened) > 1 else ""
        return opened[-1], f"'(' is never closed{more}: ')' expected before the end of the line"
    return None


def parenthesis_error(err, text: str, line: int):
    """A located message for unbalanced parentheses, where they caused `err`."""
    token = getattr(err, "token", None)
    if token is None or token.type not in ("_NL", "$END", "RPAR"):
        return None
    return unbalanced(source_line(text, line) or "")


def expected_words(expected) -> str:
    words = sorted({READABLE.get(e, f"'{e.lower()}'") for e in expected})
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def syntax_error(err, text: str, filename: str) -> TenflangError:
    line, column = getattr(err, "line", None), getattr(err, "column", None)
    if not isinstance(line, int) or line < 1:
        line = text.count("\n") + (not text.endswith("\n")) or 1
        column = len(source_line(text, line) or "") + 1
    bad = malformed_number(err, text)
    parenthesis = parenthesis_error(err, text, line)
    if bad:
        message = f"malformed number '{bad}'"
    elif parenthesis:
        column, message = parenthesis
    elif isinstance(err, lark.exceptions.UnexpectedCharacters):
        char = text[err.pos_in_stream]
        message = f"unexpected character {char!r}" + INFIX.get(char, "")
    elif (isinstance(err, lark.exceptions.UnexpectedToken) and err.token.type == "$END"
          and "_END" in err.expected and open_macro(text)):
        line, column, name = open_macro(text)
        message = f"macro '{name}' is never closed: 'end' expected before the end of the file"
    else:
        token = err.token if isinstance(err, lark.exceptions.UnexpectedToken) else None
        found = "end of line" if token is None or token.type in ("_NL", "$END") else repr(str(token))
        message = f"unexpected {found}"
        expected = set(getattr(err, "expected", None) or ())
        if "_END" in expected and not open_macro(text, line):
            expected.discard("_END")       # LALR merges states: 'end' only closes a macro
        if {"EQUAL", "COMMA"} <= expected:
            expected.discard("COMMA")      # several targets are a loop adjoint's (§2.5.1)
        if expected:
            message += f"; expected {expected_words(expected)}"
    return TenflangError(message, Location(filename, line, column, source_line(text, line)))
