"""What `tfweightcalc` shows of a run: the progress bar, the summary line
and the `--plot` loss curve.

The progress bar (tqdm, on stderr) is shown only when stderr is a terminal
and `--quiet` is not given: iteration, loss, the last validation loss and
the gradient norm.  The summary line on stderr says why the run stopped
and what its loss is (`watch.final_loss`), and two times: the training loop's
and the command's in all (start-up, reading the data, the statistics pass and
writing the weights included: `command_start`).  `--plot PNG` draws the training
loss per iteration, smoothed over an epoch, and the validation loss; it
needs matplotlib, checked before training starts (`require_matplotlib`).
"""
from __future__ import annotations

import io
import os
import sys
import time

import numpy as np

from tenflang.base.errors import TenflangError
from tenflang.base.outputs import write_file
from tenflang.training.hooks import Hooks
from tenflang.training.watch import final_loss
from .common import say


class ProgressBar(Hooks):
    """tqdm on stderr, opened when training starts: iteration, loss, the last
    validation loss and the gradient norm."""

    def __init__(self, total: int):
        self.total, self.bar, self.val = total, None, ""

    def on_start(self, state):
        from tqdm import tqdm
        self.bar = tqdm(total=self.total, initial=state.iteration, file=sys.stderr, unit="it",
                        dynamic_ncols=True)

    def on_validation(self, state, iteration, loss):
        self.val = f"  val {loss:.4g}"

    def on_step(self, state, step):
        self.bar.n = step.iteration
        self.bar.set_postfix_str(f"loss {step.loss:.4g}{self.val}  |grad| {step.grad_norm:.3g}",
                                 refresh=False)
        self.bar.update(0)

    def close(self):
        if self.bar:
            self.bar.close()


STARTUP_AT_MOST = 60.0      # s: a process older than this was not started for the command


def command_start() -> float:
    """The `time.perf_counter()` reading the command's time "in all" counts
    from: the start of this process where it was started for the command
    (Linux's /proc: its start in clock ticks since boot, as /proc/uptime
    counts), so the interpreter's start-up and imports are in; else (no /proc,
    a long-lived process calling the command) now."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])    # field 22, starttime
        with open("/proc/uptime", encoding="ascii") as f:
            age = float(f.read().split()[0]) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    # a container's /proc/uptime may count from another boot than starttime
    return now - age if 0 <= age <= STARTUP_AT_MOST else now


def summary(result, cfg, in_all: float | None = None) -> str:
    """The run in one line: its loss says what it is (`watch.final_loss`);
    the training loop's time, and with `in_all` the command's."""
    why = {"converged": f"converged: gradient norm below --tol {cfg.tol:g}",
           "max-iters": "reached --max-iters",
           "early-stopped": f"stopped early: no better validation loss in --patience "
                            f"{cfg.patience} evaluations"}[result.reason]
    val = ""
    if result.best_iteration is not None:
        val = (f", validation loss {result.val_loss:.6g} (the best, at iteration "
               f"{result.best_iteration}: those weights are written)")
    elif result.val_loss is not None:
        val = f", validation loss {result.val_loss:.6g}"
    loss, what = final_loss(result.history, result.epoch_iterations)
    if not result.history:          # no step taken: the loss at the starting weights
        loss, what = result.loss, "at the starting weights"
    parameters = sum(int(np.size(w)) for w in result.weights.values())
    return (f"{result.iterations} iterations, loss {loss:.6g} ({what}){val}, gradient norm "
            f"{result.grad_norm:.3g}, {why}, {parameters:,} parameter{'s' * (parameters != 1)}, "
            f"{result.seconds:.2f} s training" + (f", {in_all:.2f} s in all" if in_all else ""))


def plot_loss(path: str, result) -> None:
    """The training loss per iteration (faint), smoothed over an epoch, and the
    validation loss after each epoch."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    history, epoch = result.history, result.epoch_iterations
    fig, ax = plt.subplots(figsize=(6, 4))
    steps = range(1, len(history) + 1)
    if epoch > 1:
        ax.plot(steps, history, color="C0", alpha=0.25, linewidth=0.8, label="training (per batch)")
        ax.plot(steps, trailing_mean(history, epoch), color="C0",
                label=f"training (mean over {epoch} iterations: an epoch)")
    else:
        ax.plot(steps, history, color="C0", label="training")
    if result.val_history:
        at, values = zip(*result.val_history)
        ax.plot(at, values, color="C1", marker="." if len(at) < 50 else None, label="validation")
    if result.best_iteration is not None:
        ax.axvline(result.best_iteration, color="C1", linestyle=":", linewidth=1)
    ax.set_xlabel("iteration")
    ax.set_ylabel("loss")
    ax.legend()
    if min(history + [v for _, v in result.val_history], default=1) > 0:
        ax.set_yscale("log")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=plot_format(path))
    write_file(path, buffer.getvalue())


def plot_format(path: str) -> str:
    """What --plot writes: the format its extension names, as matplotlib's
    `savefig` reads it (pdf, svg, ...); else PNG, the format docs/design.md
    §4 gives --plot (a name without an extension, or one matplotlib does not
    write: `unknown_plot_extension` says so before training)."""
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    return extension if extension in plot_formats() else "png"


def plot_formats() -> dict:
    from matplotlib.backend_bases import FigureCanvasBase
    return FigureCanvasBase.get_supported_filetypes()


def unknown_plot_extension(path: str) -> str | None:
    """The note for a --plot name whose extension matplotlib does not write."""
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    if not extension or extension in plot_formats():
        return None
    return (f"--plot {path}: matplotlib writes no '.{extension}' files, so the plot is PNG "
            f"(other formats: {', '.join('.' + f for f in sorted(plot_formats()))})")


def trailing_mean(values: list, window: int) -> list:
    """Each value averaged with the ones before it, `window` in all (fewer at the start)."""
    sums = [0.0]
    for v in values:
        sums.append(sums[-1] + v)
    return [(sums[i] - sums[max(0, i - window)]) / min(i, window) for i in range(1, len(sums))]


def require_matplotlib(path: str) -> None:
    """Before training: matplotlib is there, and a note when it does not write
    the format `path`'s extension names."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise TenflangError("--plot needs matplotlib, which is not installed; "
                            "pip install 'tenflang[plot]'") from None
    if note := unknown_plot_extension(path):
        say(f"note: {note}")
