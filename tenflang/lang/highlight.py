"""A Pygments lexer for TenFlang, so programs are highlighted in terminals,
documentation and editors that use Pygments:

    pygmentize -l tenflang samples/mlp_digits.tf

It is registered under the entry point group `pygments.lexers` (setup.cfg),
so an installed TenFlang makes the alias `tenflang` and the file pattern
`*.tf` known to Pygments.  (`*.tf` is Terraform's pattern too: for a `.tf`
file given without `-l`, `analyse_text` lets Pygments pick the right one.)

NAME and NUMBER are the grammar's own (`lexical`).  Tokens: the keywords
`declare`, `define`, `macro`, `end` and, in operator position, the loops
`fold` and `scan` (Keyword, the macro after them Name.Function), `init` after
a declaration's shape (Keyword, its scheme Name.Builtin), the six
variable types (Keyword.Type), ops of the op table in operator position
(Name.Builtin), macro names (Name.Function), variables, generated names such
as `d/dw` and `h.t` included (Name.Variable), numbers, `=`/`->` (Operator),
brackets and commas (Punctuation) and `#` comments.  The op names are read
from `tenflang.ops.TABLE`, so a new op is highlighted without touching this
file.
"""
from __future__ import annotations

import re

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation,
                            Whitespace)

from tenflang.ops import table as ops
from .syntax_tree import KINDS
from .loops import LOOPS
from .kept_loops import GCP_LOOPS
from .lexical import NAME, NUMBER

END_OF_NAME = r"(?![A-Za-z0-9_./])"
SPACE = r"[ \t\f\r]+"


def line_end():
    """What every state but `root` shares: spaces, a comment, the end of the line."""
    return [
        (SPACE, Whitespace),
        (r"#.*?$", Comment.Single),
        (r"\n", Whitespace, "#pop"),
    ]


def number_token():
    return [
        (r"[+-]?\d+(?![A-Za-z0-9_.+-])", Number.Integer),
        (NUMBER, Number.Float),
    ]


class TenflangLexer(RegexLexer):
    """TenFlang, the straight-line tensor language (`.tf` programs and GCPs)."""

    name = "TenFlang"
    aliases = ["tenflang"]
    filenames = ["*.tf"]
    mimetypes = ["text/x-tenflang"]

    tokens = {
        "root": [
            (SPACE, Whitespace),
            (r"\n", Whitespace),
            (r"#.*?$", Comment.Single),
            (r"(declare)" + END_OF_NAME, Keyword.Declaration, "declare"),
            (r"(define)" + END_OF_NAME, Keyword.Declaration, "define"),
            (r"(macro)" + END_OF_NAME, Keyword, "macro"),
            (r"(end)" + END_OF_NAME, Keyword),
            (r"[^\n]", Error),
        ],
        "declare": line_end() + [
            (words(KINDS, suffix=END_OF_NAME), Keyword.Type),
            (NAME, Name.Variable, ("#pop", "declared")),
            (r"[^\n]", Error),
        ],
        # after the declared name: its shape, then perhaps `init ...`
        "declared": line_end() + [
            (r"\d+", Number.Integer),
            (r"[\[\],]", Punctuation),
            (r"init" + END_OF_NAME, Keyword, ("#pop", "initialiser")),
            (NAME, Name.Variable),              # after an unknown type: the name
            (r"[^\n]", Error),
        ],
        "initialiser": line_end() + [
            (NAME, Name.Builtin),               # the scheme: normal, uniform, he, glorot
        ] + number_token() + [
            (r"[^\n]", Error),
        ],
        "define": line_end() + [
            (r"=", Operator, ("#pop", "value")),
            (NAME, Name.Variable),
            (r",", Punctuation),                # a loop adjoint's targets (design §2.5.1)
            (r"[^\n]", Error),
        ],
        # after '=': an op (or macro) with operands, a copied name, or a number
        "value": line_end() + [
            (words(LOOPS + GCP_LOOPS, suffix=END_OF_NAME + r"(?=[ \t\f\r]*[A-Za-z_(])"),
             Keyword,
             ("#pop", "loop")),
            (words(sorted(ops.TABLE), suffix=END_OF_NAME), Name.Builtin, ("#pop", "operands")),
            (r"(" + NAME + r")([ \t\f\r]*)(?=#|\n|$)", bygroups(Name.Variable, Whitespace)),
            (NAME, Name.Function, ("#pop", "operands")),
        ] + number_token() + [
            (r"[^\n]", Error),
        ],
        "operands": line_end() + [
            (NAME, Name.Variable),
            (r"[\[\],]", Punctuation),          # a shape literal attribute
            (r"\(", Punctuation, "value"),      # a nested expression: its op next
            (r"\)", Punctuation, "#pop"),
        ] + number_token() + [
            (r"[^\n]", Error),
        ],
        # after `fold`/`scan`: the macro it calls, then operands
        "loop": line_end() + [
            (NAME, Name.Function, ("#pop", "operands")),
            (r"[^\n]", Error),
        ],
        "macro": line_end() + [
            (r"->", Operator),
            (r"(" + NAME + r")", Name.Function, ("#pop", "params")),
            (r"[^\n]", Error),
        ],
        "params": line_end() + [
            (r"->", Operator),
            (NAME, Name.Variable),
            (r",", Punctuation),                # a loop adjoint's results
            (r"[^\n]", Error),
        ],
    }

    DECLARATION = re.compile(r"^[ \t]*declare[ \t]+(" + "|".join(KINDS) + r")[ \t]+" + NAME,
                             re.MULTILINE)
    DEFINITION = re.compile(r"^[ \t]*define[ \t]+" + NAME + r"[ \t]*=", re.MULTILINE)

    def analyse_text(text):  # noqa: N805 (Pygments makes it a static method)
        """Certain for text with TenFlang declarations or definitions (this
        tells a TenFlang `.tf` file from a Terraform one)."""
        if TenflangLexer.DECLARATION.search(text):
            return 1.0
        if TenflangLexer.DEFINITION.search(text):
            return 0.8
        return 0.0


__all__ = ["TenflangLexer"]
