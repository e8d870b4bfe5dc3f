"""The Python API's edge: one check of a public call's arguments.

    function = guarded("evaluate", evaluate, {"program": instance(Program), ...})

`tenflang/__init__.py` wraps every public function it exports with `guarded`
and a table of argument kinds.  Before the function runs, each argument is
checked against its kind: its type, its range, the variable names in it.  A
call the function cannot use — a wrong type, a missing or extra argument, a
ragged list, strings or complex numbers as data, a name with a space, a path
that is bytes — raises a `TenflangError` naming the function and the
argument, never numpy's or Python's own exceptions from deep inside a run.
Values are passed on unchanged (arrays stay where they are, numpy or cupy),
except paths, which become `str`.
"""
from __future__ import annotations

import inspect
import math
import numbers
import os
import re
from collections.abc import Mapping

import numpy as np

from tenflang.base.errors import TenflangError
from tenflang.base.dtypes import dtype_refusal

# a variable name as the grammar writes it (tenflang/grammar: NAME)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[./][A-Za-z0-9_]+)*")


class BadArgument(TenflangError):
    """An argument of a public function it cannot use."""


def guarded(name: str, function, kinds: dict):
    """`function` with its arguments checked first (see the module docstring)."""
    signature = inspect.signature(function)

    def call(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as err:
            raise BadArgument(f"{name}(): {err}") from None
        for parameter, value in list(bound.arguments.items()):
            kind = kinds.get(parameter)
            if kind is not None:
                bound.arguments[parameter] = kind(f"{name}(): {parameter}", value)
        return function(*bound.args, **bound.kwargs)
    call.__name__, call.__qualname__, call.__doc__ = name, name, function.__doc__
    call.__wrapped__, call.__signature__ = function, signature
    return call


def refuse(what: str, problem: str):
    raise BadArgument(f"{what} {problem}")


# --- kinds: (what, value) -> the value to pass on, or BadArgument ----------------

def optional(kind):
    return lambda what, value: None if value is None else kind(what, value)


def unless(passes, kind):
    """`kind`, except for a value `passes(value)` accepts as it is."""
    return lambda what, value: value if passes(value) else kind(what, value)


def instance(get_class, described: str):
    """An instance of the class `get_class()` returns (looked up when used)."""
    def check(what, value):
        if not isinstance(value, get_class()):
            refuse(what, f"must be {described}, not {type(value).__name__}")
        return value
    return check


def text(what, value):
    if not isinstance(value, str):
        refuse(what, f"must be a str, not {type(value).__name__}")
    return value


def flag(what, value):
    if not isinstance(value, (bool, np.bool_)):
        refuse(what, f"must be True or False, not {value!r:.60}")
    return bool(value)


def count(what, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        refuse(what, f"must be a whole number, 0 or more, not {value!r:.60}")
    return int(value)


def path(what, value):
    if not isinstance(value, (str, os.PathLike)):
        refuse(what, f"must be a file path (str or os.PathLike), not {type(value).__name__}")
    value = os.fspath(value)
    if not isinstance(value, str) or not value or "\0" in value:
        refuse(what, f"is not a usable file path: {value!r:.60}")
    return value


def one_of(*choices):
    def check(what, value):
        if not isinstance(value, str) or value not in choices:
            refuse(what, f"must be one of {', '.join(map(repr, choices))}, not {value!r:.60}")
        return value
    return check


def one_of_ints(*choices):
    def check(what, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
                or value not in choices:
            refuse(what, f"must be one of {', '.join(map(str, choices))}, not {value!r:.60}")
        return value
    return check


def dtype(what, value):
    try:
        name = np.dtype(value).name
    except (TypeError, ValueError):
        name = None
    if dtype_refusal(name):
        refuse(what, dtype_refusal(value))
    return name


def variable_name(what, name):
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        refuse(what, f"holds {name!r:.60}, which is not a variable name (letters, digits "
               "and _, not starting with a digit)")
    return name


def names(what, value):
    """An iterable of variable names (not a str, which would be its letters)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        refuse(what, f"must be a list of variable names, not {type(value).__name__}")
    return [variable_name(what, n) for n in value]


def real_array(what, value):
    """Numbers only: a numpy or cupy array, a number or (nested, not ragged) lists."""
    if hasattr(value, "__cuda_array_interface__"):
        return value
    if isinstance(value, (str, bytes)):
        refuse(what, "is not an array of numbers (it is text)")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        refuse(what, "is not an array of numbers (lists of different lengths?)")
    if array.dtype.kind == "c":
        refuse(what, "holds complex numbers; TenFlang computes with real numbers")
    if array.dtype.kind not in "biuf":
        refuse(what, f"is not an array of numbers (it holds {array.dtype} values)")
    return value


def arrays(noun: str, nulls: bool):
    """A mapping of variable names to arrays (None allowed when `nulls`), each
    named `noun` in messages; an `Examples` read from a file passes as it is."""
    def check(what, value):
        mapping = getattr(value, "arrays", value)
        if not isinstance(mapping, Mapping):
            refuse(what, f"must be a dict of variable name -> array, not "
                   f"{type(value).__name__}")
        for name, array in mapping.items():
            variable_name(what, name)
            if array is None and nulls:
                continue
            if array is None:
                refuse(what, f"'{name}' is None; a value is needed")
            real_array(f"{what.split(':')[0]}: {noun} '{name}'", array)
        return value
    return check


def shapes(what, value):
    if not isinstance(value, Mapping):
        refuse(what, f"must be a dict of variable name -> shape, not {type(value).__name__}")
    for name, shape in value.items():
        variable_name(what, name)
        if not isinstance(shape, (tuple, list)) or not all(
                isinstance(d, numbers.Integral) and not isinstance(d, bool) and d >= 0
                for d in shape):
            refuse(f"{what} '{name}'", f"must be a shape (a tuple of sizes), not {shape!r:.60}")
    return value


def finite(what, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        refuse(what, f"must be a finite number, not {value!r:.60}")
    return value
