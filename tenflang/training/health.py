"""Why a finished training run may not be trusted: warnings, as sentences.

Three symptoms are checked after a run (docs/guide/troubleshooting.md §8 explains them):

* the loss oscillates: over the last `WINDOW` epochs the loss smoothed over
  each epoch (so mini-batch noise averages out) swings by more than `SWING`
  of its level, and either reached no new low or did not fall on average,
  compared with the `WINDOW` epochs before: the steps overshoot;
* (when it does not oscillate so) the loss ended above where it started: the
  mean of the last epoch is more than `RISE` above the first epoch's, too
  short a run for the swings to show, or steps that overshoot all along;
* a weight that was all zero when the run started is still all zero: its
  gradient was zero at every step, as for a weight that starts at 0 and
  multiplies only weights that also start at 0 (hidden units written with
  scalar or vector weights: by symmetry none of them gets a gradient), or, in
  a program with batch statistics, for steps of one example each, where
  `x - batch_mean x` is 0 (the warning then names that cause).  A run whose
  gradient is 0 from the start stops at once (`--tol`), and says so for each
  such weight too.

And one cause is known before a run: a weight no loss is computed from
(`backprop.graph.unused_weights`) never moves; it gets that diagnosis, not
the one of a weight that stayed 0.  (`tfcompiler` says it too, through
`not_used`: numpy is imported by the checks that need it, so that tfcompiler
starts without it.)
"""
from __future__ import annotations

WINDOW = 25      # epochs compared with the epochs before them
SWING = 0.1      # (max − min) / mean of the smoothed loss that counts as oscillating
RISE = 0.1       # how far above the first epoch's loss the last one ends to count as risen


def untrusted(state, first_iteration: int, zero_at_start: set, epoch_iterations: int,
              lr: float, unused: tuple = (), converged: bool = False,
              centred_to_zero: bool = False) -> list[str]:
    """The warnings for a run that ended in `state`, having started at
    `first_iteration` with the weights `zero_at_start` all zero; `unused` are
    the weights no loss is computed from; `converged`: it stopped on `--tol`;
    `centred_to_zero`: the program has batch statistics and each step saw one
    example (`ONE_EXAMPLE` is then the likelier cause of a zero gradient)."""
    import numpy as np
    found = [oscillation(state.history, epoch_iterations, lr)]
    found = found if found[0] else [risen(state.history, epoch_iterations, lr)]
    found += [not_used(name) for name in unused]
    zero_at_start = set(zero_at_start) - set(unused)
    steps = state.iteration - first_iteration
    cause = ONE_EXAMPLE if centred_to_zero else ZERO_START
    if steps or converged:
        found += [frozen(name, steps, cause) if steps else stopped_at_zero(name, cause)
                  for name in state.weights if name in zero_at_start and not np.any(state.weights[name])]
    return [w for w in found if w]


def epoch_means(history: list, epoch_iterations: int):
    """The training loss averaged over each complete epoch (a numpy array)."""
    import numpy as np
    whole = len(history) // epoch_iterations * epoch_iterations
    return np.asarray(history[:whole], dtype=np.float64).reshape(-1, epoch_iterations).mean(axis=1)


def oscillation(history: list, epoch_iterations: int, lr: float) -> str | None:
    means = epoch_means(history, epoch_iterations)
    if len(means) < 2 * WINDOW:
        return None
    last, before = means[-WINDOW:], means[-2 * WINDOW:-WINDOW]
    level = abs(last.mean())
    stalled = last.min() >= before.min() or last.mean() >= before.mean()
    if not stalled or not level or (last.max() - last.min()) < SWING * level:
        return None
    unit = "iterations" if epoch_iterations == 1 else "epochs"
    return (f"the training loss has not decreased over the last {WINDOW} {unit}: it swings "
            f"between {last.min():.4g} and {last.max():.4g}, its best was {means.min():.4g} "
            f"(the steps overshoot); try a smaller --lr (it was {lr:g}), --lr-schedule cosine, "
            f"or inputs scaled to unit size")


def risen(history: list, epoch_iterations: int, lr: float) -> str | None:
    means = epoch_means(history, epoch_iterations)
    if len(means) < 2 or not means[-1] > means[0] * (1 + RISE) + 1e-12:
        return None
    what = ("loss" if epoch_iterations == 1 else
            f"loss (the mean over an epoch of {epoch_iterations} iterations)")
    return (f"the training {what} ended at {means[-1]:.4g}, above where it started "
            f"({means[0]:.4g}): the steps overshoot; try a smaller --lr (it was {lr:g}), "
            f"--lr-schedule cosine, or inputs scaled to unit size")


# why a weight's gradient stays 0: the usual cause, and the one of batch statistics
# over a batch of one example (the value a batch_mean centres equals its mean)
ZERO_START = ("A weight that starts at 0 and multiplies only weights that also start at 0 "
              "never learns; start it from small random values with --init (docs/guide/training.md)")
ONE_EXAMPLE = ("Each step saw a batch of 1 example, and a batch_mean over one example is the "
               "example itself: what it centres (x minus batch_mean x) is 0 and passes no "
               "gradient; train on batches of 2 or more examples (--batch-size)")


def frozen(name: str, steps: int, cause: str = ZERO_START) -> str:
    return (f"weight '{name}' is still 0 after {steps} iterations: its gradient was 0 at every "
            f"step.  {cause}")


def stopped_at_zero(name: str, cause: str = ZERO_START) -> str:
    return (f"weight '{name}' is 0 and the gradient was 0 from the start, so the run stopped at "
            f"once (gradient norm below --tol).  {cause}")


def not_used(name: str) -> str:
    return (f"weight '{name}' is not used by any loss: its gradient is 0, so training leaves it "
            f"as it started; use it in a loss, or remove it")
