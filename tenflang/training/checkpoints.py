"""Training checkpoints: everything needed to continue the same run.

A checkpoint is an .npz file written atomically: `w:<name>` per weight,
`s:<key>` per optimizer slot (e.g. `s:m:W1` for adam's first moment),
`history` (the training loss per iteration), `val_history` ((iteration,
validation loss) rows), `b:<name>` per weight of the best evaluation (with
--patience) and `meta`, a JSON string with the iteration, the optimizer, the
seed and the settings that shape the steps (`SETTINGS`).  A run resumed from
it with the same options takes the very steps the uninterrupted run would
have taken (see `tenflang.train`); one with other settings is refused,
naming them, unless the caller allows it (`--resume-anyway`).
"""
from __future__ import annotations

import io
import json
import os

import numpy as np

from ..files import write_atomically
from ..data import vectors
from ..errors import Location, TenflangError
from .loop import State


# TrainConfig field -> its tfweightcalc option: a resumed run must agree on these
SETTINGS = {"lr": "--lr", "batch_size": "--batch-size", "weight_decay": "--weight-decay",
            "lr_schedule": "--lr-schedule", "seed": "--seed", "val_fraction": "--val-fraction"}


def save_checkpoint(path: str, state: State, cfg) -> None:
    arrays = {f"w:{k}": v for k, v in state.weights.items()}
    arrays |= {f"s:{k}": v for k, v in state.slots.items()}
    arrays |= {f"b:{k}": v for k, v in (state.best or {}).items()}
    arrays["history"] = np.asarray(state.history, dtype=np.float64)
    arrays["val_history"] = np.asarray(state.val_history, dtype=np.float64).reshape(-1, 2)
    meta = {"iteration": state.iteration, "optimizer": cfg.optimizer, "seed": cfg.seed,
            "settings": settings(cfg)}
    arrays["meta"] = np.asarray(json.dumps(meta))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomically(path, buffer.getvalue())


def settings(cfg) -> dict:
    """What shapes the steps; with a cosine schedule its length, --max-iters, too."""
    out = {name: getattr(cfg, name) for name in SETTINGS}
    return out | ({"max_iters": cfg.max_iters} if cfg.lr_schedule == "cosine" else {})


def differences(saved: dict, cfg) -> list[tuple[str, object, object]]:
    """(option, saved value, new value) for each setting that changed."""
    now = settings(cfg)
    return [(SETTINGS.get(n, "--max-iters"), saved[n], now[n])
            for n in now if n in saved and saved[n] != now[n]]


def option_text(option: str, value) -> str:
    if value is None:
        return f"no {option}"
    return f"{option} {value:g}" if isinstance(value, float) else f"{option} {value}"


def load_checkpoint(path: str, weight_shapes: dict, cfg, anyway: bool = False) -> State | None:
    """The saved state, or None when `path` does not exist yet.  A checkpoint
    written with other settings (`differences`) is refused unless `anyway`."""
    if not os.path.exists(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        meta = json.loads(str(arrays.pop("meta")))
    except Exception as err:
        raise TenflangError(f"not a tfweightcalc checkpoint ({type(err).__name__}: {err})",
                            Location(path)) from None
    if meta.get("optimizer") != cfg.optimizer:
        raise TenflangError(f"the checkpoint was written by a run with --optimizer "
                            f"{meta.get('optimizer')}, not {cfg.optimizer}", Location(path))
    changed = differences(meta.get("settings", {}), cfg)
    if changed and not anyway:
        raise TenflangError(
            "the checkpoint was written by a run with "
            f"{', '.join(option_text(o, old) for o, old, _ in changed)}, not "
            f"{', '.join(option_text(o, new) for o, _, new in changed)}; resume with the same "
            "options, or add --resume-anyway to continue with the new ones", Location(path))
    weights = {k[2:]: v for k, v in arrays.items() if k.startswith("w:")}
    vectors.validate_weights(path, weights, weight_shapes)
    best = {k[2:]: v for k, v in arrays.items() if k.startswith("b:")}
    return State(weights, {k[2:]: v for k, v in arrays.items() if k.startswith("s:")},
                 int(meta["iteration"]), list(arrays.get("history", [])),
                 [(int(i), float(v)) for i, v in arrays.get("val_history", [])], best or None)
