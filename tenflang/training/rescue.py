"""Keeping trained weights when a run or an output fails.

    kept, failed = keep_weights(state, out, checkpoint, cfg)

Trained weights are never lost to an output problem (docs/guide/commands.md,
"Outputs"): each place the user asked for (the checkpoint, `-o` or standard
output) is tried on its own, and when the weights could not go to `-o` (or
standard output) they go to a rescue file,
`tfweightcalc-rescue-<time>-<pid>.txt` in the working directory (else the
temporary directory), and when no file takes them (a full disk) to standard
output, if `-o` had kept it free.  The caller says where they are.
"""
from __future__ import annotations

import os
import time

from tenflang.data import vectors
from tenflang.base.errors import TenflangError
from tenflang.base.outputs import write_file
from .state import Interrupted, State


class CheckpointFailed(Interrupted):
    """Training stopped because its checkpoint could not be written."""


def keep_weights(state: State, out: str | None, checkpoint: str | None, cfg,
                 weights: dict | None = None, statistics: dict | None = None
                 ) -> tuple[list[str], list[str]]:
    """Write `state` to the checkpoint and `weights` (default: the state's; the
    best ones of an early-stopped run) to `out` (None: standard output), each
    independently, with the population values of their batch `statistics`
    after them (default: the state's); a rescue file if the weights output
    failed, standard output if that failed too.  Returns
    (where the weights are, the failures' messages)."""
    if weights is None:
        weights, statistics = state.weights, state.statistics
    kept, failed = [], []

    def attempt(label: str, write) -> None:
        try:
            write()
            kept.append(label)
        except TenflangError as err:
            failed.append(err.render())
        except BrokenPipeError:
            failed.append(f"{label}: its reader has gone (broken pipe)")
        except KeyboardInterrupt:           # Ctrl-C while a FIFO or pipe is slow to read
            failed.append(f"{label}: interrupted while the weights were written")
    if checkpoint:
        from .checkpoints import save_checkpoint    # here: a run without one does not load it
        attempt(checkpoint, lambda: save_checkpoint(checkpoint, state, cfg))
    attempt(out or "standard output", lambda: vectors.save_weights(out, weights, statistics)
            if out else write_file(None, vectors.format_weights(weights, statistics)))
    if (out or "standard output") not in kept:
        rescue = rescue_file(weights, statistics)
        if rescue:
            kept.append(rescue)
        elif out:
            attempt("standard output", lambda: write_file(None, vectors.format_weights(
                weights, statistics)))
    return kept, failed


def rescue_file(weights: dict, statistics: dict | None = None) -> str | None:
    """Write the weights (and their `statistics`) to a new file in the working
    or temporary directory; its path, or None when no directory takes it."""
    import tempfile             # a failed output only
    name = time.strftime("tfweightcalc-rescue-%Y%m%d-%H%M%S") + f"-{os.getpid()}.txt"
    for folder in (os.getcwd(), tempfile.gettempdir()):
        path = os.path.join(folder, name)
        try:
            vectors.save_weights(path, weights, statistics)
            return path
        except TenflangError:
            continue
    return None
