"""The TenFlang front end: text → checked, macro-expanded syntax tree.

    program = parse(text, "shape.tf")          # raises TenflangError
    shapes = check(program)                    # per-example shape of every name

Nothing outside this package sees lark.
"""
from __future__ import annotations

import codecs

from tenflang.base.errors import Location, TenflangError, source_line
from tenflang.base.inputs import read_input
from .syntax_tree import Comment, Declare, Define, Macro, Num, Pos, Program, Var
from .checks import check, split_attributes
from .macros import expand
from .kept_loops import LOOP_SETTINGS
from .printer import print_program
from .syntax import parse_source, paused_gc


def parse(text: str, filename: str = "<input>", shape_program: bool = False,
          loops: str = "auto") -> Program:
    """Parse, expand macros and check a program; `shape_program` applies the
    extra rules for tfcompiler's input (see `checks.check`); `loops`: "auto",
    "keep" or "unroll", which loops stay loops (lang/kept_loops.py)."""
    if loops not in LOOP_SETTINGS:
        raise TenflangError(f"loops must be one of {', '.join(LOOP_SETTINGS)}, not {loops!r}")
    with paused_gc():
        program = split_attributes(expand(parse_source(text, filename), loops))
        check(program, shape_program)
    return program


def read_source(path: str) -> str:
    """The text of a program file: UTF-8 (a leading byte-order mark is dropped);
    a device is refused and a stream capped (`inputs.read_input`)."""
    return decode_source(read_input(path, "program"), path)


def decode_source(data: bytes, path: str) -> str:
    """Program bytes as text: UTF-8, a leading byte-order mark dropped; other
    bytes are a located TenflangError."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[:err.start].decode("utf-8")
        line = before.count("\n") + 1
        column = len(before) - before.rfind("\n")
        text = data.decode("utf-8", errors="replace")
        where = Location(path, line, column, source_line(text, line))
        raise TenflangError(f"the file is not UTF-8 text (byte 0x{data[err.start]:02x} cannot "
                            "be decoded)", where) from None


def parse_file(path: str, shape_program: bool = False, loops: str = "auto") -> Program:
    return parse(read_source(path), path, shape_program, loops)


__all__ = ["parse", "parse_file", "read_source", "decode_source", "parse_source", "expand", "check",
           "print_program",
           "Program", "Declare", "Define", "Macro", "Comment", "Var", "Num", "Pos"]
