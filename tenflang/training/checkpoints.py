"""Training checkpoints: everything needed to continue the same run.

A checkpoint is an .npz file written atomically: `w:<name>` per weight,
`s:<key>` per optimizer slot (e.g. `s:m:W1` for adam's first moment),
`history` (the training loss per iteration) and `meta`, a JSON string with
the iteration, the optimizer and the seed.  A run resumed from it with the
same options takes the very steps the uninterrupted run would have taken
(see `tenflang.train`).
"""
from __future__ import annotations

import io
import json
import os

import numpy as np

from .. import limits
from ..files import write_file
from ..data import vectors
from ..errors import Location, TenflangError
from .loop import State

SLOT_KINDS = {"sgd": (), "momentum": ("v",), "adam": ("m", "v")}     # see loop.step


def save_checkpoint(path: str, state: State, optimizer: str, seed: int) -> None:
    arrays = {f"w:{k}": v for k, v in state.weights.items()}
    arrays |= {f"s:{k}": v for k, v in state.slots.items()}
    arrays["history"] = np.asarray(state.history, dtype=np.float64)
    meta = {"iteration": state.iteration, "optimizer": optimizer, "seed": seed}
    arrays["meta"] = np.asarray(json.dumps(meta))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_file(path, buffer.getvalue())


def load_checkpoint(path: str, weight_shapes: dict, optimizer: str) -> State | None:
    """The saved state, or None when `path` does not exist yet (or is not a
    regular file, such as /dev/null: written through, never resumed from).
    Anything a run could not continue from is a TenflangError (`check_*`)."""
    if not os.path.isfile(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        if not all(isinstance(a, np.ndarray) for a in arrays.values()):
            raise ValueError("a member of the archive is not a numpy array")
        meta = json.loads(str(arrays.pop("meta")))
    except Exception as err:
        raise TenflangError(f"not a tfweightcalc checkpoint ({type(err).__name__}: {err})",
                            Location(path)) from None
    iteration = check_meta(path, meta, optimizer)
    weights = {k[2:]: v for k, v in arrays.items() if k.startswith("w:")}
    slots = {k[2:]: v for k, v in arrays.items() if k.startswith("s:")}
    history = arrays.pop("history", np.zeros(0))
    stray = sorted(k for k in arrays if k[:2] not in ("w:", "s:"))
    if stray:
        raise TenflangError(f"not a tfweightcalc checkpoint: unexpected array '{stray[0]}'",
                            Location(path))
    vectors.validate_weights(path, weights, weight_shapes)
    check_numbers(path, "weight", weights)
    check_slots(path, slots, weight_shapes, optimizer)
    check_numbers(path, "loss history", {"history": history}, rank=1)
    return State({k: v.astype(np.float64) for k, v in weights.items()},
                 {k: v.astype(np.float64) for k, v in slots.items()},
                 iteration, history.astype(np.float64).tolist())


def check_meta(path: str, meta, optimizer: str) -> int:
    """The iteration of a checkpoint's `meta` (a JSON object with the
    optimizer, a whole iteration count and the seed)."""
    where = Location(path)
    if not isinstance(meta, dict):
        raise TenflangError("not a tfweightcalc checkpoint: its meta record is not an object",
                            where)
    if meta.get("optimizer") != optimizer:
        raise TenflangError(f"the checkpoint was written by a run with --optimizer "
                            f"{meta.get('optimizer')}, not {optimizer}", where)
    iteration = meta.get("iteration")
    if type(iteration) is not int or not 0 <= iteration <= limits.MAX_ITERATIONS:
        raise TenflangError(f"the checkpoint's iteration is {iteration!r}, not a whole number "
                            f"from 0 to {limits.MAX_ITERATIONS}", where)
    return iteration


def check_numbers(path: str, what: str, arrays: dict, rank: int | None = None) -> None:
    """Real, finite numbers (of `rank` dimensions when given)."""
    for name, a in arrays.items():
        if a.dtype.kind not in "biuf":
            raise TenflangError(f"the checkpoint's {what} '{name}' holds {a.dtype} values, not "
                                "real numbers", Location(path))
        if rank is not None and a.ndim != rank:
            raise TenflangError(f"the checkpoint's {what} has {a.ndim} dimensions, not {rank}",
                                Location(path))
        if not np.isfinite(a).all():
            raise TenflangError(f"the checkpoint's {what} '{name}' holds NaN or infinity",
                                Location(path))


def check_slots(path: str, slots: dict, weight_shapes: dict, optimizer: str) -> None:
    """Optimizer slots `<kind>:<weight>` of the optimizer's kinds, each of its
    weight's shape (none for sgd; the loop makes missing ones as zeros)."""
    kinds = SLOT_KINDS[optimizer]
    for key, value in slots.items():
        kind, _, weight = key.partition(":")
        if kind not in kinds or weight not in weight_shapes:
            raise TenflangError(f"the checkpoint holds optimizer state '{key}', which "
                                f"--optimizer {optimizer} does not keep", Location(path))
        if value.shape != tuple(weight_shapes[weight]):
            raise TenflangError(f"the checkpoint's optimizer state '{key}' has shape "
                                f"{list(value.shape)}, expected {list(weight_shapes[weight])}",
                                Location(path))
    check_numbers(path, "optimizer state", slots)
