"""The parser's fast lane for valid programs: lark's tables, a leaner loop, no lark.

lark's contextual lexer and LALR loop spend most of their time per token on
bookkeeping that a valid program never needs (end positions, interactive
error recovery, generic option checks), and importing lark and building its
parser costs more than parsing a short program.  `FastParser` reads plain
data that `larkpath.fast_tables()` takes from the lark parser built from
grammar/tenflang.lark, so the grammar stays the one definition of the
language; `syntax` caches that data on disk.  The tables (`dict`):

* "table": parser state -> {terminal or rule name: action}; a shift is the
  next state (an int), a reduce is (number of children, rule index, the
  rule's nonterminal);
* "rules": per rule index, how lark's tree builder makes its value:
  (callback name, expand a single child, children to keep, Nones to
  append); children to keep are (index, splice its children, Nones before
  it), None where all are kept.  The callback is the `treebuild.AstBuilder`
  method of that name, called with the children inline; a rule without one
  makes an `Inlined` node, which the rule above splices;
* "start", "end": the start state and the state reached on the start rule;
* "lexers": state -> (regular expression, flags, ignored terminals,
  terminals that may hold a newline): the terminals lark's contextual lexer
  accepts there, in the order its scanner tries them, one named group each.
  A state's expression is compiled when the state is first reached.

It reads valid programs only.  At the first thing it cannot read (a character
no terminal matches, a token the state does not accept, a value the tree
callbacks refuse) it stops with `Fallback`, and `syntax.parse_source` parses
the text again with lark itself, which reports the problem exactly as always.

Conventions: a token is a `FastToken`, the part of lark's `Token` that the
tree callbacks read: its text, `type`, `line` and `column` as lark's lexer
gives them (lines end at '\\n' only; line and column count from 1).
"""
from __future__ import annotations

import re
from itertools import chain


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


class Inlined:
    """The value of a rule without a callback (`_statement`, `__define_star_2`):
    its children, spliced into the rule above it."""
    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list):
        self.data, self.children = data, children


class Scanners(dict):
    """Parser state -> (match, ignored types, types that may hold a newline),
    compiled from the tables' "lexers" when a state is first reached."""

    def __init__(self, lexers: dict):
        super().__init__()
        self.lexers = lexers

    def __missing__(self, state):
        try:
            pattern, flags, ignored, newlines = self.lexers[state]
            made = (re.compile(pattern, flags).match, frozenset(ignored), frozenset(newlines))
        except (LookupError, TypeError, ValueError, re.error):
            raise Fallback from None        # no lexer for this state: lark decides
        self[state] = made
        return made


class FastParser:
    """`parse(text)` gives what lark's parser gives, for valid text."""

    def __init__(self, tables: dict, builder):
        callbacks = [callback(spec, builder) for spec in tables["rules"]]
        self.table = {state: {kind: step if step.__class__ is int
                              else (step[0], callbacks[step[1]], step[2])
                              for kind, step in row.items()}
                      for state, row in tables["table"].items()}
        self.start, self.end = tables["start"], tables["end"]
        self.scanners = Scanners(tables["lexers"])

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


def callback(spec: tuple, builder):
    """A rule's callback, children list -> value, as lark's tree builder makes it
    (ChildFilterLALR, then ExpandSingleChild, then the inline method)."""
    name, expand_single, keep, append = spec
    method = getattr(builder, name, None)
    made = (lambda children: method(*children)) if method else (
        lambda children: Inlined(name, children))
    if expand_single:
        made = single_child(made)
    return made if keep is None else kept_children(keep, append, made)


def single_child(build):
    return lambda children: children[0] if len(children) == 1 else build(children)


def kept_children(keep: list, append: int, build):
    def filtered(children):
        out = []
        for i, splice, nones in keep:
            if nones:
                out += [None] * nones
            if splice and not out:       # left recursion: grow the list in place
                out = children[i].children
            elif splice:
                out += children[i].children
            else:
                out.append(children[i])
        if append:
            out += [None] * append
        return build(out)
    return filtered
