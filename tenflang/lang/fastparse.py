"""The parser's fast lane for valid programs: lark's own tables, a leaner loop.

lark's contextual lexer and LALR loop spend most of their time per token on
bookkeeping that a valid program never needs (end positions, interactive
error recovery, generic option checks).  `FastParser` takes everything it
knows from the lark parser that `syntax.parser()` builds from
grammar/tenflang.lark, so the grammar stays the one definition of the language:

* per parser state, the terminals the contextual lexer accepts there, in the
  order lark's scanner tries them (a regular expression per state, built the
  way lark builds it), and which of them are ignored;
* the LALR shift/reduce table and the callbacks that build the syntax tree
  (the `ToAst` transformer, inline, as lark runs it).

It reads valid programs only.  At the first thing it cannot read (a character
no terminal matches, a token the state does not accept, a value the tree
callbacks refuse) it stops with `Fallback`, and `syntax.parse_source` parses
the text again with lark itself, which reports the problem exactly as always.

Conventions: a token is a `FastToken`, the part of lark's `Token` that the
tree callbacks read: its text, `type`, `line` and `column` as lark's lexer
gives them (lines end at '\\n' only; line and column count from 1).  A shift
in the table is the next state (an int); a reduce is (number of children,
callback, the rule's nonterminal).
"""
from __future__ import annotations

import re
from itertools import chain

from lark.parsers.lalr_analysis import Shift

START = "program"


class Fallback(Exception):
    """The fast lane cannot read this text; lark must (see the module docstring)."""


class FastToken(str):
    """A token's text with its terminal's name and position; a third of the
    cost of lark's `Token`, which carries five fields more."""
    __slots__ = ("type", "line", "column")


def fast_token(kind: str, text: str, line: int, column: int) -> FastToken:
    made = FastToken(text)
    made.type, made.line, made.column = kind, line, column
    return made


END = fast_token("$END", "", 0, 0)


class FastParser:
    """`parse(text)` gives what `lark_parser.parse(text)` gives, for valid text."""

    def __init__(self, lark_parser):
        frontend = lark_parser.parser
        inner = frontend.parser.parser
        self.table = {state: {kind: action(step, arg, inner.callbacks) for kind, (step, arg)
                              in row.items()}
                      for state, row in inner.parse_table.states.items()}
        self.start = inner.parse_table.start_states[START]
        self.end = inner.parse_table.end_states[START]
        self.scanners = scanners(frontend.lexer.lexers)

    def tokens(self, text: str, states: list, line: int = 1):
        """The tokens of `text` (whose first line is line `line`), each read by
        the lexer of the parser's current state (`states[-1]`, which the
        caller updates between tokens)."""
        scanners = self.scanners
        pos, line_start, end = 0, 0, len(text)
        while pos < end:
            match, ignored, newlines = scanners[states[-1]]
            found = match(text, pos)
            if found is None:
                raise Fallback
            kind, value = found.lastgroup, found.group()
            if kind not in ignored:
                yield fast_token(kind, value, line, pos - line_start + 1)
            if kind in newlines and "\n" in value:
                line += value.count("\n")
                line_start = pos + value.rindex("\n") + 1
            pos = found.end()

    def parse(self, text: str, line: int = 1):
        """The LALR loop of lark's `ParserState.feed_token`, over the tokens and
        then the end of the input; the value of the start rule.  `line`: the
        number of the text's first line (a line of a longer text: `lineparse`)."""
        table, end, states, values = self.table, self.end, [self.start], []
        try:
            for token in chain(self.tokens(text, states, line), [END]):
                kind = token.type
                step = table[states[-1]][kind]
                while step.__class__ is not int:        # reduce by a rule, then go to
                    size, callback, origin = step
                    children = values[len(values) - size:]
                    del states[len(states) - size:], values[len(values) - size:]
                    values.append(callback(children))
                    goto = table[states[-1]][origin]
                    if goto == end:
                        return values[-1]
                    states.append(goto)
                    step = table[states[-1]][kind]
                states.append(step)
                values.append(token)
        except KeyError:            # the state has no action for this token
            raise Fallback from None
        raise Fallback              # the text ended where the grammar cannot


def action(step, arg, callbacks):
    """A table entry: the next state for a shift, (size, callback, nonterminal)
    for a reduce."""
    if step is Shift:
        return arg
    return len(arg.expansion), callbacks[arg], arg.origin.name


def scanners(lexers: dict) -> dict:
    """Parser state -> (match, ignored types, types that may hold a newline),
    from lark's contextual lexer (one basic lexer per set of terminals)."""
    built: dict[int, tuple] = {}
    for lexer in lexers.values():
        if id(lexer) not in built:
            built[id(lexer)] = scanner(lexer)
    return {state: built[id(lexer)] for state, lexer in lexers.items()}


def scanner(lexer) -> tuple:
    terminals = lexer.scanner.terminals         # after lark's own reordering and merging
    if lexer.callback:
        raise NotImplementedError("terminal callbacks (a string matched by a regexp "
                                  "terminal) are not in the fast lane")
    pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
    return (re.compile(pattern, lexer.g_regex_flags).match, lexer.ignore_types,
            lexer.newline_types)
