"""A training run from start to end, as tfweightcalc and the Estimator make one.

    settings = RunSettings(config, out="w.npz", write=True, checkpoint="run.npz",
                           init_file="start.npz", signals=True)
    gcp, program = gradient_program("net.tf", say)
    session = Session(gcp, settings, Voice(say, echo))    # reads --init and the checkpoint
    result = session.run(examples, local(engine), [bar, *watchers(...)])

Conventions:

* `RunSettings` is what a run does around its steps (the steps' own settings
  are its `config`): where the weights go, the checkpoint, the starting
  weights, whether Ctrl-C/SIGTERM/SIGHUP stop it cleanly (`StopFlag`).  The
  caller checks its arguments; the session reads the files and runs.
* What a run tells its user goes through a `Voice`: `say` a line whose user
  text (a file name) is made safe for a terminal, `echo` a line as it is.  The
  Estimator's is silent; tfweightcalc's writes to stderr.
* The gradient source is opened by the caller's `open(stop)` (a context
  manager giving it): `local(engine)` here; a cluster's is the distributed
  layer's, above this one, so the command builds it.
* Nothing is lost: a run that fails after a step keeps its last good weights
  wherever it can (`rescue.keep_weights`) and says where; one that ends
  well writes its outputs, each on its own, and an output that fails is a
  `RunFailure` after the others are written.  Every hook with a `close` is
  closed when training ends, before anything is written or said.
"""
from __future__ import annotations

import contextlib
import os
from typing import Callable

from tenflang.base import stopping
from tenflang.base.errors import Location, RunFailure, TenflangError
from tenflang.base.frozen import frozen
from tenflang.interp.runtime.population import split_statistics
from tenflang.lang import parse_file
from tenflang.lang.checks import check
from tenflang.lang.syntax_tree import Program
from tenflang.native import clib
from tenflang.data import vectors
from .config import TrainConfig
from .gradients import LocalGradients
from .hooks import Callbacks, Checkpoints, combine
from .loop import train
from .rescue import CheckpointFailed, keep_weights
from .signature import gradient_outputs, signature
from .state import Diverged, Interrupted, State, TrainResult
from .watch import EpochLines, Figures, validation_metrics


def silent(text: str) -> None:
    """A voice that says nothing (the Estimator's)."""


@frozen(eq=False)           # holds functions: compared by identity
class Voice:
    """Where a run's lines go (module docstring); silent by default."""
    say: Callable[[str], None] = silent       # a line with user text made terminal-safe
    echo: Callable[[str], None] = silent      # a line as it is


@frozen(eq=False)
class RunSettings:
    """What a run does around its steps (module docstring)."""
    config: TrainConfig
    out: str | None = None          # the weights' file (None: standard output)
    write: bool = False             # write the weights when the run ends (else only return them)
    checkpoint: str | None = None   # saved every `checkpoint_every`; resumed from when it exists
    checkpoint_every: int = 100
    resume_anyway: bool = False     # resume from a checkpoint of other settings
    init_file: str | None = None    # starting weights, read from a weights file
    init: dict | None = None        # starting weights given as arrays (any subset)
    signals: bool = False           # Ctrl-C, SIGTERM and SIGHUP stop the run cleanly


def gradient_program(path: str, say: Callable[[str], None] = silent) -> tuple[Program, Program]:
    """(the GCP in `path`, the program whose outputs validation reports): a
    program with no gradient output (`d/dw`) is taken for a shape program and
    compiled first, saying so; its outputs are then the shape program's (the
    GCP keeps only what the gradients need)."""
    program = parse_file(path)
    if gradient_outputs(program):
        return program, program
    from tenflang.backprop import compile_gradient     # here: training a GCP compiles nothing
    check(program, shape_program=True)          # tfcompiler's rules for its input
    say(f"{path} is a shape program: compiling it to its GCP first (as tfcompiler does)")
    return compile_gradient(program), program


def read_examples(path: str, sig, allow_nan: bool, dtype=None):
    """The examples of the data file `path`, read by the GCP's shapes
    (training checks them); a directory of shards is a cluster's."""
    if os.path.isdir(path):
        raise TenflangError("DATA is a directory: a directory of .npz shards is read by a "
                            "distributed run (--scheduler local:N or tcp://HOST:PORT)",
                            Location(path))
    return vectors.load_examples(path, allow_nan=allow_nan, shapes=sig.inputs,
                                 dtype=dtype or "float64")


def local(engine=None):
    """`open(stop)` for gradients computed in this process by `engine`."""
    return lambda stop: contextlib.nullcontext(LocalGradients(engine))


def watchers(cfg, program, data, engine, lines: bool, logdir, kept: dict) -> list:
    """The hooks that show the run's epochs, sharing one `Figures`: one line
    per epoch (with `lines`) and the --logdir TensorBoard log; the validation
    means of `program`'s scalar outputs, computed here for a local run
    (`engine` given), on a cluster with the validation loss (into `kept`:
    the same figures).  None for a hook left out; none when nothing shows them."""
    if not (lines or logdir):
        return []
    if engine:
        metrics = validation_metrics(program, data.arrays, cfg, engine)
    else:
        metrics = lambda weights, statistics: dict(kept)    # noqa: E731
    figures = Figures(cfg, metrics or None)
    board = None
    if logdir:
        from .tensorboard_log import TensorBoard     # here: a plain run does not load it
        board = TensorBoard(logdir, cfg, figures=figures)
    return [figures, EpochLines(figures=figures) if lines else None, board]


class Session:
    """One run of `gcp` with `settings`: made, it has read the starting weights
    and the checkpoint it resumes from (`init`, `resume`); `run` trains."""

    def __init__(self, gcp: Program, settings: RunSettings, voice: Voice = Voice()):
        self.gcp, self.settings, self.voice = gcp, settings, voice
        cfg = settings.config
        sig = signature(gcp) if settings.init_file or settings.checkpoint else None
        self.init = settings.init if settings.init_file is None else \
            load_init(settings.init_file, gcp, sig, cfg.dtype, voice)
        self.resume = resume_from(settings.checkpoint, sig, cfg, settings.resume_anyway,
                                  voice) if settings.checkpoint else None
        # `resume` is the run's state: it moves on; `first` stays
        self.first = self.resume.iteration if self.resume else 0

    def run(self, examples, open_source=local(), hooks=()) -> TrainResult:
        """Train on `examples` with the gradient source `open_source(stop)`
        gives, telling `hooks`; then write the outputs (module docstring)."""
        settings, stop = self.settings, StopFlag()
        saving = Checkpoints(checkpoint_saver(settings.checkpoint, settings.config),
                             settings.checkpoint_every) if settings.checkpoint else None
        told = combine(*hooks, saving, Callbacks(should_stop=stop) if settings.signals else None)
        try:
            with stop.installed() if settings.signals else contextlib.nullcontext(), \
                    open_source(stop) as source:
                result = train(self.gcp, examples, settings.config, source, told,
                               init=self.init, resume=self.resume)
        except (Diverged, Interrupted) as failure:
            close(hooks)
            self.failed(failure)
            raise
        close(hooks)
        self.finish(result)
        return result

    def failed(self, failure: Interrupted | Diverged) -> None:
        """After a failed run: its last good weights written wherever possible
        (where the user asked, else stdout, the weights' channel), saying where."""
        settings = self.settings
        if not (settings.write or settings.checkpoint):
            return
        if failure.state.iteration == self.first:
            self.voice.say("no step was taken: no weights are written (-o and --checkpoint "
                           "are left as they were)")
            return
        retry = not isinstance(failure, CheckpointFailed)
        self.report_kept(failure.state, *keep_weights(
            failure.state, settings.out, settings.checkpoint if retry else None, settings.config))

    def finish(self, result: TrainResult) -> None:
        """Write the last checkpoint and the learned weights (with `write`).  An
        output that fails does not lose the weights (see `failed`)."""
        settings = self.settings
        if not settings.write:
            return
        kept, failed = keep_weights(result.state, settings.out, settings.checkpoint,
                                    settings.config, result.weights, result.statistics)
        if failed:
            self.report_kept(result.state, kept, failed)
            raise RunFailure("training finished, but not every output could be written")

    def report_kept(self, state: State, kept: list, failed: list) -> None:
        for message in failed:
            self.voice.echo(message)
        files = [k for k in kept if k != "standard output"]
        where = ([f"in {' and '.join(files)}"] if files else []) + \
            (["printed on stdout"] if "standard output" in kept else [])
        self.voice.say(f"the last good weights (iteration {state.iteration}) are "
                       f"{' and '.join(where) or 'nowhere: no file could be written'}")


def close(hooks) -> None:
    """Close each hook that has a `close` (a progress bar, a log)."""
    for hook in hooks:
        if hasattr(hook, "close"):
            hook.close()


def load_init(path: str, gcp, sig, dtype, voice: Voice) -> dict:
    """The weights of --init: any subset of the GCP's (a line names which
    when it is not all of them).  The batch statistics a weights file holds
    after its weights are left out: training computes its own."""
    weights, _ = split_statistics(gcp, vectors.load_weights(path, dtype=dtype))
    vectors.validate_weights(path, weights, sig.weights, subset=True)
    rest = [n for n in sig.weights if n not in weights]
    if rest:
        voice.echo(f"{path} gives {', '.join(weights) or 'no weights'}; {', '.join(rest)} "
                   f"start{'s' * (len(rest) == 1)} as usual (docs/guide/training.md)")
    return weights


def resume_from(path: str, sig, cfg, anyway: bool, voice: Voice) -> State | None:
    """The state saved in the checkpoint `path`, None when there is none yet."""
    from .checkpoints import load_checkpoint        # --checkpoint only (start-up)
    state = load_checkpoint(path, sig.weights, cfg, anyway)
    if state is None:
        return None
    if state.iteration > cfg.max_iters:
        raise TenflangError(f"the checkpoint is at iteration {state.iteration}, past --max-iters "
                            f"{cfg.max_iters}; raise --max-iters to train further, or start "
                            f"a new run from its weights with --init", Location(path))
    if state.iteration == cfg.max_iters:
        voice.say(f"{path}: the checkpoint is already at --max-iters {cfg.max_iters}: no steps "
                  "to take (raise --max-iters to train further); its weights are written")
    else:
        voice.say(f"resuming from {path} at iteration {state.iteration}")
    return state


def checkpoint_saver(path: str, cfg):
    """`save(state)` for the loop: a checkpoint that cannot be written stops the
    run (Interrupted, so the weights are kept elsewhere, see `Session.failed`)."""
    from .checkpoints import save_checkpoint        # --checkpoint only (start-up)

    def save(state: State) -> None:
        try:
            save_checkpoint(path, state, cfg)
        except TenflangError as err:
            raise CheckpointFailed(f"cannot write the checkpoint {path}: {err.message}; training "
                                   f"stopped at iteration {state.iteration}", state) from None
    return save


class StopFlag:
    """Turns true on SIGINT, SIGTERM or SIGHUP so training stops cleanly after
    the step.  The handler only sets flags (`stopping`); once one is set,
    the stop signals are ignored when training ends, while the weights are
    written."""

    def __init__(self):
        self.raised = None

    def __call__(self) -> bool:
        return self.raised is not None

    def installed(self):
        flag = self

        class Handlers:
            def __enter__(self):
                self.old = stopping.install(flag.handle)

            def __exit__(self, *exc):
                stopping.restore(self.old)
        return Handlers()

    def handle(self, signum, frame):
        self.raised = signum
        stopping.note(signum, frame)
        clib.abandon_compiles()      # a C compile under way would hold the step up
