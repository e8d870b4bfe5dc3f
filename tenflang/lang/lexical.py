"""TenFlang's lexical rules, taken from the grammar's own terminals.

The grammar (grammar/tenflang.lark) is the one definition of a name and a
number; `tenflang fmt`, the Pygments lexer and the data formats (vector
notation, CSV headers) all take their patterns from here, so they cannot
disagree with the parser.

    NAME      a variable name, generated ones (`h.t`, `d/dw`) included
    NUMBER    a numeric literal; it ends at a separator (`2x` is no number)
"""
from __future__ import annotations

import functools
import os
import re

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the package data `tenflang.grammar` as installed, then a source checkout's grammar/
GRAMMAR_FILES = (os.path.join(_PACKAGE, "grammar", "tenflang.lark"),
                 os.path.join(os.path.dirname(_PACKAGE), "grammar", "tenflang.lark"))


@functools.cache
def grammar_text() -> str:
    """The grammar's text, read by path (importlib.resources and pathlib cost
    start-up), or through importlib.resources where the package is no folder."""
    for path in GRAMMAR_FILES:
        try:
            with open(path, encoding="utf-8") as f:
                return f.read()
        except FileNotFoundError:
            pass
    from importlib import resources
    return resources.files("tenflang.grammar").joinpath("tenflang.lark").read_text("utf-8")


def terminal(name: str, grammar: str | None = None) -> str:
    """The regular expression of the grammar's terminal `name` (`NAME: /.../`)."""
    found = re.search(rf"^{name}:\s*/(.*)/\s*$", grammar or grammar_text(), re.MULTILINE)
    if found is None:
        raise LookupError(f"the grammar has no regular-expression terminal {name}")
    return re.sub(r"\((?!\?)", "(?:", found.group(1))     # groups: non-capturing


NAME = terminal("NAME")
NUMBER = terminal("NUMBER")
USER_NAME = NAME.split("(", 1)[0]     # without the generated '.'/'/' segments

__all__ = ["NAME", "NUMBER", "USER_NAME", "grammar_text", "terminal"]
