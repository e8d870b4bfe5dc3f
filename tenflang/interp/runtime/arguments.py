"""Checking the arrays a Python caller passes to `evaluate` and `train`.

Data (inputs, exp_outputs) carry a leading example axis, weights none (see
docs/api.md).  Anything else raises a `TenflangError` naming the variable
and both shapes — the array's as numpy writes it, `(5, 4)`, the declared
per-example one as the language writes it, `[3]` — instead of numpy's
errors from deep inside a run.  Names the program does not declare are
passed through untouched.
"""
from __future__ import annotations

import numpy as np

from tenflang.base.errors import TenflangError
from tenflang.ops.shapes import fmt_missing, fmt_shape


def as_array(name: str, value, what: str) -> np.ndarray:
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return value            # numpy or cupy: left where it is
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise TenflangError(f"{what} '{name}' is not an array of numbers ({err})") from None


def array_shape(shape) -> str:
    """A shape as numpy writes it, `(5, 3)`, `(5,)`, also with `N` for the count."""
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def check_data(arrays: dict, shapes: dict, required, optional=()) -> dict:
    """`arrays` with every `required` name bound (an `optional` one may be
    absent or None), each an array of examples of its declared shape, all
    with the same number of examples, and no other name (a misspelt optional
    one would read as NULL)."""
    known = [*required, *optional]
    extra = next((name for name in arrays if name not in known), None)
    if extra is not None:
        raise TenflangError(f"unexpected data '{extra}': the program's data variables are "
                            f"{', '.join(map(repr, known)) or 'none'}")
    out, first = dict(arrays), None
    for name in [*required, *optional]:
        if out.get(name) is None:
            if name in required:
                given = ", ".join(repr(n) for n, v in arrays.items() if v is not None) or "none"
                raise TenflangError(f"missing data '{name}' (examples of {fmt_shape(shapes[name])})"
                                    f"; the data given: {given}")
            continue
        value = out[name] = as_array(name, out[name], "data")
        expected = tuple(shapes[name])
        if value.ndim != len(expected) + 1 or tuple(value.shape[1:]) != expected:
            axis = " (it has no example axis)" if tuple(value.shape) == expected else ""
            n = len(value) if value.ndim > len(expected) else "N"
            raise TenflangError(f"data '{name}' has shape {array_shape(value.shape)}{axis}, expected "
                                f"{array_shape((n,) + expected)}: examples of '{name}' "
                                f"{fmt_shape(expected)} along a leading axis")
        if first and len(value) != len(out[first]):
            raise TenflangError(f"data '{name}' has {len(value)} examples but '{first}' has "
                                f"{len(out[first])}")
        first = first or name
    return out


def check_weights(weights: dict, shapes: dict, subset: bool = False) -> dict:
    """`weights` binding each name in `shapes` (any of them when `subset`)
    with its declared shape, and nothing else."""
    missing = [name for name in shapes if not subset and weights.get(name) is None]
    if missing:
        given = ", ".join(repr(n) for n in weights) or "none"
        raise TenflangError(f"{fmt_missing('weight', missing, shapes)}; the weights given: "
                            f"{given}")
    out = {}
    for name, value in weights.items():
        if name not in shapes:
            raise TenflangError(f"unexpected weight '{name}': the program's weights are "
                                f"{', '.join(map(repr, shapes)) or 'none'}")
        out[name] = as_array(name, value, "weight")
        if tuple(out[name].shape) != tuple(shapes[name]):
            raise TenflangError(f"weight '{name}' has shape {array_shape(out[name].shape)}, expected "
                                f"{fmt_shape(shapes[name])}")
    return out
