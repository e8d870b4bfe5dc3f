"""Text → syntax tree, without importing lark for a valid program.

The line lane (`lineparse`: a regular expression per simple line, the fast
lane for the others) reads a valid program without macros; the fast lane
(`fastparse`) reads a valid program from the grammar's tables,
which `larkpath` takes from lark once and this module caches on disk; text
the fast lane cannot read goes to lark itself (`larkpath`, imported then),
whose syntax errors become `TenflangError`s that say what was expected.

The tables' cache file is `parser-<key>.pickle` in `files.cache_dir()`: the
key is a hash of the grammar's text and of the modules that write and read
the tables, so another grammar or another layout is another file.  A file is
a BLAKE2b digest of its payload (tenflang/base/hashing.py), then the payload (a pickle of plain data,
read by an unpickler that refuses every class): a file that is missing,
truncated, corrupt or of another key is ignored and written again, never an
error, and a cache directory that cannot be written only costs time.
"""
from __future__ import annotations

import functools
import io
import os
import pickle

from tenflang.base.hashing import blake2b
from tenflang.base.errors import Location, RunFailure, TenflangError, source_line
from tenflang.base.outputs import cache_dir, write_file
from tenflang.base.gc_pause import paused_gc
from .syntax_tree import Program
from .fastparse import Fallback, FastParser
from .lineparse import parse_lines
from .lexical import grammar_text
from .treebuild import AstBuilder, BadToken

__all__ = ["parse_source", "paused_gc", "fast_parser", "parser", "BadToken"]
DIGEST = blake2b().digest_size


def tables_key() -> str:
    """The hash naming the tables' cache file (see the module docstring)."""
    here = os.path.dirname(os.path.abspath(__file__))
    key = blake2b(grammar_text().encode())
    for module in ("fastparse.py", "larkpath.py"):
        with open(os.path.join(here, module), "rb") as f:
            key.update(f.read())
    return key.hexdigest()[:24]


class PlainData(pickle.Unpickler):
    """Reads builtin data only: a cache file cannot make it build any object."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"{module}.{name} in a parser cache file")


def read_tables(path: str) -> dict | None:
    """The tables in the cache file `path`; None if missing or damaged."""
    try:
        with open(path, "rb") as f:
            return tables_from(f.read())
    except OSError:
        return None


def tables_from(data: bytes) -> dict | None:
    """The tables of a cache file's bytes; None unless they are intact."""
    if blake2b(data[DIGEST:]).digest() != data[:DIGEST]:
        return None
    try:
        tables = PlainData(io.BytesIO(data[DIGEST:])).load()
    except Exception:           # whatever a damaged pickle raises: rebuild, never fail
        return None
    return tables if isinstance(tables, dict) else None


def write_tables(path: str, tables: dict) -> None:
    payload = pickle.dumps(tables, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        write_file(path, blake2b(payload).digest() + payload)
    except (RunFailure, OSError):
        pass                        # an unwritable cache only costs time


def built_tables() -> dict | None:
    """The tables taken from lark now; None where this lark's internals are laid
    out otherwise (every program then takes lark's own path)."""
    from . import larkpath
    try:
        return larkpath.fast_tables()
    except (AttributeError, KeyError, TypeError, NotImplementedError):
        return None


def tables_path() -> str | None:
    cache = cache_dir()
    try:
        return cache and os.path.join(cache, f"parser-{tables_key()}.pickle")
    except OSError:             # the package's files cannot be read: no cache
        return None


def made_parser(tables: dict) -> FastParser | None:
    try:
        return FastParser(tables, AstBuilder())
    except (LookupError, TypeError, ValueError, AttributeError):
        return None             # tables of another shape than this code reads


@functools.cache
def fast_parser() -> FastParser | None:
    """The fast lane, from the cached tables (written first if need be)."""
    path = tables_path()
    cached = path and read_tables(path)
    made = cached and made_parser(cached)
    if not made:
        tables = built_tables()
        made = tables and made_parser(tables)
        if made and path:
            write_tables(path, tables)
    return made or None


def parser():
    """lark's LALR parser (larkpath.parser()); importing it imports lark."""
    from . import larkpath
    return larkpath.parser()


def statements_of(text: str, filename: str = "<input>") -> tuple:
    """The statements of `text` (which ends in a newline): the line lane or the
    fast lane where they read the text, else lark, which raises the error the
    user sees."""
    fast = fast_parser()
    if fast is not None:
        try:
            statements = parse_lines(text, fast)
            return fast.parse(text) if statements is None else statements
        except (Fallback, BadToken):
            pass
    from . import larkpath      # only text the fast lane cannot read pays for lark
    return larkpath.statements(text, filename)


def parse_source(text: str, filename: str = "<input>") -> Program:
    """Parse TenFlang text into a `Program` (macros not yet expanded)."""
    try:
        with paused_gc():
            statements = statements_of(text if text.endswith("\n") else text + "\n", filename)
    except BadToken as err:
        line, column = err.token.line, err.token.column
        raise TenflangError(err.message,
                            Location(filename, line, column, source_line(text, line))) from None
    return Program(statements, filename, text)
