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

from ..files import write_file
from ..data import vectors
from ..errors import Location, TenflangError
from .loop import State


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
    regular file, such as /dev/null: written through, never resumed from)."""
    if not os.path.isfile(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        meta = json.loads(str(arrays.pop("meta")))
    except Exception as err:
        raise TenflangError(f"not a tfweightcalc checkpoint ({type(err).__name__}: {err})",
                            Location(path)) from None
    if meta.get("optimizer") != optimizer:
        raise TenflangError(f"the checkpoint was written by a run with --optimizer "
                            f"{meta.get('optimizer')}, not {optimizer}", Location(path))
    weights = {k[2:]: v for k, v in arrays.items() if k.startswith("w:")}
    vectors.validate_weights(path, weights, weight_shapes)
    return State(weights, {k[2:]: v for k, v in arrays.items() if k.startswith("s:")},
                 int(meta["iteration"]), list(arrays.get("history", [])))
