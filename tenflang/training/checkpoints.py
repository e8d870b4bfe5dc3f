"""Training checkpoints: everything needed to continue the same run.

A checkpoint is an .npz file written atomically: `w:<name>` per weight,
`s:<key>` per optimizer slot (e.g. `s:m:W1` for adam's first moment),
`history` (the training loss per iteration), `val_history` ((iteration,
validation loss) rows), `t:<name>` per batch statistic (its value kept with
the checkpoint's weights, docs/design.md §2.3.2: the weights a checkpoint holds
evaluate; a resumed run keeping running averages continues them), `b:<name>` per weight of the best evaluation (with
--patience) and `meta`, a JSON string with the iteration, the optimizer, the
seed, the last step's gradient norm and the settings that shape the steps
(`SETTINGS`).  A run resumed from
it with the same options takes the very steps the uninterrupted run would
have taken (see `tenflang.train`); one with other settings is refused,
naming them, unless the caller allows it (`--resume-anyway`).
"""
from __future__ import annotations

import collections
import io
import json
import math
import os
import zipfile

import numpy as np

from tenflang.base import limits
from tenflang.base.outputs import write_file
from tenflang.data import vectors
from tenflang.data.npzfiles import corrupt_npz
from tenflang.base.errors import Location, TenflangError
from .state import State

from .optimizers import SLOTS


# TrainConfig field -> its tfweightcalc option: a resumed run must agree on these
SETTINGS = {"lr": "--lr", "batch_size": "--batch-size", "weight_decay": "--weight-decay",
            "lr_schedule": "--lr-schedule", "seed": "--seed", "val_fraction": "--val-fraction",
            "momentum": "--momentum", "nesterov": "--nesterov", "betas": "--betas",
            "eps": "--eps", "clip_norm": "--clip-norm", "lr_step": "--lr-step",
            "lr_gamma": "--lr-gamma", "warmup": "--warmup", "freeze": "--freeze"}
LENGTHY = ("cosine", "warmup-cosine")      # schedules whose steps depend on --max-iters


def save_checkpoint(path: str, state: State, cfg) -> None:
    arrays = {f"w:{k}": v for k, v in state.weights.items()}
    arrays |= {f"s:{k}": v for k, v in state.slots.items()}
    arrays |= {f"b:{k}": v for k, v in (state.best or {}).items()}
    arrays |= {f"t:{k}": v for k, v in state.statistics.items()}
    arrays["history"] = np.asarray(state.history, dtype=np.float64)
    arrays["val_history"] = np.asarray(state.val_history, dtype=np.float64).reshape(-1, 2)
    meta = {"iteration": state.iteration, "optimizer": cfg.optimizer, "seed": cfg.seed,
            "grad_norm": state.grad_norm,
            "settings": settings(cfg)}
    arrays["meta"] = np.asarray(json.dumps(meta))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_file(path, buffer.getvalue())


def settings(cfg) -> dict:
    """What shapes the steps, as JSON has them; with a cosine schedule its
    length, --max-iters, too."""
    out = {name: getattr(cfg, name) for name in SETTINGS}
    out |= {"max_iters": cfg.max_iters} if cfg.lr_schedule in LENGTHY else {}
    return json.loads(json.dumps(out))


def differences(saved: dict, cfg) -> list[tuple[str, object, object]]:
    """(option, saved value, new value) for each setting that changed."""
    now = settings(cfg)
    return [(option_of(n), saved[n], now[n])
            for n in now if n in saved and saved[n] != now[n]]


def option_of(name: str) -> str:
    return SETTINGS.get(name, "--max-iters")


def check_setting_kinds(path: str, saved: dict, cfg) -> None:
    """Each saved setting is of the kind the run's is (unset matches any): a
    value of another kind (the text "0.1" for --lr) was not written by
    tfweightcalc, and comparing it would print '--lr 0.1, not --lr 0.1'."""
    now = settings(cfg)
    for name in [n for n in now if n in saved and None not in (saved[n], now[n])]:
        if kind_of(saved[name]) != kind_of(now[name]):
            raise TenflangError(
                f"not a tfweightcalc checkpoint: its {option_of(name)} is "
                f"{json.dumps(saved[name])[:60]}, {kind_of(saved[name])}, where the option "
                f"takes {kind_of(now[name])} (a checkpoint edited by hand?)", Location(path))


def kind_of(value) -> str:
    """A setting's kind, as a message names it (a whole number is a number too)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return "text" if isinstance(value, str) else "a list" if isinstance(value, list) \
        else "an object"


def option_text(option: str, value) -> str:
    if value is None or value is False or value == []:
        return f"no {option}"
    if value is True:
        return option
    if isinstance(value, list):
        return f"{option} {','.join(map(str, value))}"
    return f"{option} {value:g}" if isinstance(value, float) else f"{option} {value}"


def load_checkpoint(path: str, weight_shapes: dict, cfg, anyway: bool = False) -> State | None:
    """The saved state, or None when `path` does not exist yet (or is not a
    regular file, such as /dev/null: written through, never resumed from).  A
    checkpoint written with other settings (`differences`) is refused unless
    `anyway`; anything a run could not continue from is a TenflangError
    (`check_*`)."""
    if not os.path.isfile(path):
        return None
    with corrupt_npz(path, lambda why: f"not a tfweightcalc checkpoint ({why})",
                     describe=lambda err: archive_problem(path, err)):
        with np.load(path, allow_pickle=False) as npz:
            twice = [k for k, n in collections.Counter(npz.files).items() if n > 1]
            if twice:               # zipfile would read the last one alone
                raise ValueError(f"it holds member '{twice[0]}.npy' twice")
            arrays = {k: npz[k] for k in npz.files}
        if not all(isinstance(a, np.ndarray) for a in arrays.values()):
            raise ValueError("a member of the archive is not a numpy array")
        meta = json.loads(str(arrays.pop("meta")))
    iteration = check_meta(path, meta, cfg.optimizer)
    check_setting_kinds(path, meta["settings"], cfg)
    changed = differences(meta["settings"], cfg)
    if changed and not anyway:
        raise TenflangError(
            "the checkpoint was written by a run with "
            f"{', '.join(option_text(o, old) for o, old, _ in changed)}, not "
            f"{', '.join(option_text(o, new) for o, _, new in changed)}; resume with the same "
            "options, or add --resume-anyway to continue with the new ones", Location(path))
    parts = {kind: {k[2:]: v for k, v in arrays.items() if k.startswith(kind + ":")}
             for kind in ("w", "s", "b", "t")}
    history = arrays.pop("history", np.zeros(0))
    val_history = arrays.pop("val_history", np.zeros((0, 2)))
    stray = sorted(k for k in arrays if k[:2] not in ("w:", "s:", "b:", "t:"))
    if stray:
        raise TenflangError(f"not a tfweightcalc checkpoint: unexpected array '{stray[0]}'",
                            Location(path))
    for kind, what in (("w", "weight"), ("b", "best weight")):
        if kind == "w" or parts[kind]:
            vectors.validate_weights(path, parts[kind], weight_shapes)
            check_numbers(path, what, parts[kind])
    check_slots(path, parts["s"], weight_shapes, cfg.optimizer)
    check_all_slots(path, parts["s"], weight_shapes, iteration, meta)
    check_numbers(path, "loss history", {"history": history}, rank=1)
    check_numbers(path, "validation history", {"val_history": val_history}, rank=2)
    if val_history.shape[1:] != (2,):
        raise TenflangError("the checkpoint's validation history is not (iteration, loss) "
                            "pairs", Location(path))
    # the statistics only start running averages again (training/gradients.py): one
    # that is no array of numbers is left out, and the run starts it afresh
    parts["t"] = {k: v for k, v in parts["t"].items() if v.dtype.kind in "biuf"}
    floats = {kind: {k: v.astype(np.float64) for k, v in part.items()}
              for kind, part in parts.items()}
    return State(floats["w"], floats["s"], iteration, history.astype(np.float64).tolist(),
                 [(int(i), float(v)) for i, v in val_history], floats["b"] or None,
                 meta.get("grad_norm"), floats["t"])


def archive_problem(path: str, err: Exception) -> str:
    """What is wrong with a checkpoint numpy could not read: numpy takes any
    file that is not an archive for pickled data, and says so."""
    return "not an .npz archive" if not zipfile.is_zipfile(path) else \
        f"{type(err).__name__}: {err}"


def check_meta(path: str, meta, optimizer: str) -> int:
    """The iteration of a checkpoint's `meta` (a JSON object with the
    optimizer, a whole iteration count, the seed and every setting)."""
    where = Location(path)
    if not isinstance(meta, dict):
        raise TenflangError("not a tfweightcalc checkpoint: its meta record is not an object",
                            where)
    if meta.get("optimizer") != optimizer:
        raise TenflangError(f"the checkpoint was written by a run with --optimizer "
                            f"{meta.get('optimizer')}, not {optimizer}; resume with the same "
                            f"optimizer, or start afresh from its weights with --init {path} "
                            "(and another --checkpoint)", where)
    iteration = meta.get("iteration")
    if type(iteration) is not int or not 0 <= iteration <= limits.MAX_ITERATIONS:
        raise TenflangError(f"the checkpoint's iteration is {iteration!r}, not a whole number "
                            f"from 0 to {limits.MAX_ITERATIONS}", where)
    norm = meta.get("grad_norm")
    if norm is not None and (type(norm) not in (int, float) or not math.isfinite(norm) or norm < 0):
        raise TenflangError(f"the checkpoint's gradient norm is {norm!r}, not a finite number "
                            "of 0 or more", where)
    if not isinstance(meta.get("settings"), dict):
        raise TenflangError("not a tfweightcalc checkpoint: its meta record has no settings "
                            "object (they are checked against the new run's)", where)
    check_settings(path, meta["settings"])
    return iteration


def check_settings(path: str, saved: dict) -> None:
    """Every setting a run saves is there: one missing would go unchecked, and
    the resumed run could take other steps than the uninterrupted one."""
    needed = list(SETTINGS) + (["max_iters"] if saved.get("lr_schedule") in LENGTHY else [])
    missing = [option_of(name) for name in needed if name not in saved]
    if missing:
        raise TenflangError("not a tfweightcalc checkpoint: its meta record lacks the "
                            f"setting{'s' * (len(missing) > 1)} {', '.join(missing)}",
                            Location(path))


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


def expected_slots(weight_shapes: dict, meta: dict) -> list[str]:
    """The slot keys a run with the checkpoint's settings keeps after its first
    step: each slot of its optimizer for each weight it does not freeze
    (rmsprop's `b` only with momentum)."""
    saved = meta["settings"]
    kinds = [k for k in SLOTS[meta["optimizer"]]
             if not (meta["optimizer"] == "rmsprop" and k == "b" and not saved["momentum"])]
    frozen = set(saved["freeze"]) if isinstance(saved["freeze"], list) else set()
    return [f"{kind}:{w}" for w in weight_shapes if w not in frozen for kind in kinds]


def check_all_slots(path: str, slots: dict, weight_shapes: dict, iteration: int,
                    meta: dict) -> None:
    """A checkpoint past iteration 0 holds every optimizer slot its run kept:
    one removed would restart at zero, and the run would take other steps."""
    if not iteration:               # no step taken yet: no slot made yet
        return
    missing = [f"'s:{k}'" for k in expected_slots(weight_shapes, meta) if k not in slots]
    if missing:
        listed = ", ".join(missing[:5]) + (f" (and {len(missing) - 5} more)" if missing[5:] else "")
        raise TenflangError(f"the checkpoint lacks the optimizer state {listed} of its "
                            f"--optimizer {meta['optimizer']} run at iteration {iteration}; "
                            "resume from a complete checkpoint, or start afresh from its "
                            f"weights with --init {path}", Location(path))


def check_slots(path: str, slots: dict, weight_shapes: dict, optimizer: str) -> None:
    """Optimizer slots `<kind>:<weight>` of the optimizer's kinds, each of its
    weight's shape (none for sgd; `check_all_slots` checks none is missing)."""
    kinds = SLOTS[optimizer]
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
