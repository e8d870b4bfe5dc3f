"""The dtypes a run computes in, and the values each can hold: one definition.

    DTYPES                          # the names a run takes; the first is the default
    itemsize("float32")             # 4: bytes per element
    dtype_refusal("float16")        # what is wrong with a name, or None
    check_data_fits(arrays, "float32")    # a value float32 cannot hold: TenflangError

The API's checks, TrainConfig, the commands' --dtype and the data, weights and
initial values of a float32 run all read them here.
"""
from __future__ import annotations

from .errors import Location, TenflangError

DTYPES = ("float64", "float32")


def itemsize(dtype: str) -> int:
    """Bytes per element of one of DTYPES (`float64` -> 8), numpy not imported."""
    return int(str(dtype).removeprefix("float")) // 8


def dtype_refusal(value) -> str | None:
    """None for a dtype a run takes, else why not (for a message about `value`)."""
    try:
        if value in DTYPES:          # a numpy dtype equals its name
            return None
    except (TypeError, ValueError):   # an array: no truth value
        pass
    return f"must be 'float64' or 'float32', not {value!r:.60}"


def first_unfit(arrays: dict, dtype) -> tuple[int, str, float] | None:
    """(example index, name, value) of the earliest finite value that `dtype`
    cannot hold (converted, it would become infinite: float32 ends at 3.4e38),
    or None.  A minimum and a maximum (no temporary) clear most arrays."""
    import numpy as np          # here: tfcompiler reads DTYPES and never imports numpy
    dtype, best = np.dtype(dtype), None
    if dtype.kind != "f":
        return None
    info = np.finfo(dtype)
    edge = float(info.max) + 2.0 ** (info.maxexp - info.nmant - 2)    # rounds to inf from here
    for name, a in arrays.items():
        if (not isinstance(a, np.ndarray) or a.dtype.kind != "f"     # a device's: as it is
                or a.dtype.itemsize <= dtype.itemsize or not a.size):
            continue
        if -edge < a.min() and a.max() < edge:       # NaN fails both: searched below
            continue
        flat = a.reshape(len(a), -1) if a.ndim else a.reshape(1, 1)
        with np.errstate(invalid="ignore"):
            over = (np.abs(flat) >= edge) & np.isfinite(flat)
        if over.any():
            k = int(np.argmax(over.any(axis=1)))
            if best is None or k < best[0]:
                best = (k, name, float(flat[k][np.argmax(over[k])]))
    return best


def unfit(what: str, name: str, value: float, dtype, example: str = "") -> str:
    """The message for a value `first_unfit` found."""
    import numpy as np
    return (f"{what} '{name}' is {value!r}{example}, beyond the range of {np.dtype(dtype)} "
            f"(±{float(np.finfo(dtype).max):.8g}), where it would become infinite; use float64 "
            "(--dtype float64), or scale the values")


def check_data_fits(arrays: dict, dtype) -> None:
    """Every value of the data arrays (leading example axis, no file) within
    `dtype`'s range; else TenflangError naming the variable and the example."""
    bad = first_unfit(arrays, dtype)
    if bad:
        raise TenflangError(unfit("data", bad[1], bad[2], dtype, f" in example {bad[0]} "
                                  "(0-based)"))


def check_weights_fit(weights: dict, dtype, where=lambda name: Location()) -> None:
    """Every weight within `dtype`'s range (`first_unfit`); else TenflangError
    at `where(name)`."""
    import numpy as np
    bad = first_unfit({k: np.asarray(v).reshape(1, -1) for k, v in weights.items()
                       if not hasattr(v, "__cuda_array_interface__")}, dtype)    # on a GPU: as is
    if bad:
        raise TenflangError(unfit("weight", bad[1], bad[2], dtype), where(bad[1]))
