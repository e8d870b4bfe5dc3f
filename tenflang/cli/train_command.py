"""`tfweightcalc GCP DATA` — the Weight Calculation Phase on the command line.

Nothing is lost: `-o` is written atomically; with `--checkpoint FILE` the
state (weights, optimizer slots, iteration, loss history) is saved every
`--checkpoint-every` iterations, on Ctrl-C/SIGTERM/SIGHUP and on divergence,
and a run started with an existing checkpoint file continues from it (refused when
the settings that shape the steps differ, unless `--resume-anyway`).
Divergence and interruption exit with status 1 after writing the last good
weights — to stdout, the weights' channel, when neither -o nor --checkpoint
is given.  Warnings about a run that cannot be trusted (training/health.py)
go to stderr before the summary line.

With `--scheduler` the gradient is computed on a Dask cluster (see
`tenflang.distributed` and docs/distributed.md): DATA may then be a
directory of .npz shards, `--batch-size` draws each step's batch chunk by
chunk, `--sync-every K` takes K local steps per chunk between averagings,
and the optimizer, progress, validation, checkpoints and stopping work as in
a local run.  A scheduler that cannot be
reached exits with status 1; a malformed `--scheduler` value with 2.
"""
from __future__ import annotations

import os
import sys
import time

import click

from tenflang.base import stopping
from tenflang.native import clib
from ..lang.checks import check
from ..data import vectors
from tenflang.base.errors import Location, RunFailure, TenflangError
from tenflang.base.outputs import check_log_directory
from ..interp.device import device_choice
from ..interp.engine import choose_engine
from tenflang.interp.runtime.population import split_statistics
from ..lang import parse_file
from ..training.gradients import LocalGradients
from ..training.hooks import Callbacks, Checkpoints, combine
from ..training.config import TrainConfig
from ..training.loop import Diverged, Interrupted, State, train
from ..training.signature import gradient_outputs, signature
from ..training.optimizers import OPTIMIZERS, SCHEDULES
from ..training.rescue import CheckpointFailed, keep_weights
from ..training.watch import EpochLines, Figures, validation_metrics
from .dtype_hint import float32_hint
from .train_options import steering_options
from .train_report import (ProgressBar, close, plot_loss, require_matplotlib,
                           command_start, summary)
from .common import FiniteFloat, check_outputs, device_option, dtype_option, reports_errors, say


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("gcp_file", metavar="GCP", type=click.Path(dir_okay=False))
@click.argument("data_file", metavar="DATA", type=click.Path())
@click.option("-o", "--output", "out", metavar="OUT",
              help="Write the weights here (.npz or text; default stdout).")
@click.option("--lr", type=FiniteFloat(min=0, min_open=True), default=0.1, show_default=True,
              help="Learning rate.")
@click.option("--optimizer", type=click.Choice(list(OPTIMIZERS)), default="sgd",
              show_default=True)
@click.option("--weight-decay", type=FiniteFloat(min=0), default=0.0, show_default=True,
              metavar="F", help="sgd/momentum: L2 penalty added to the gradient (as "
              "torch.optim.SGD); adam: decoupled (as torch.optim.AdamW).")
@click.option("--lr-schedule", type=click.Choice(list(SCHEDULES)), default="constant",
              show_default=True, help="constant; cosine: anneal the learning rate to 0 over "
              "--max-iters; step: multiply it by --lr-gamma every --lr-step iterations; "
              "warmup-cosine: rise over --warmup iterations, then cosine.")
@click.option("--batch-size", type=click.IntRange(min=1), help="Examples per step "
              "(default: the whole data set).")
@click.option("--max-iters", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Optimizer steps at most.")
@click.option("--tol", type=FiniteFloat(min=0), default=1e-6, show_default=True,
              help="Stop when the gradient's L2 norm falls below this.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seeds initialisation, shuffling and the validation split.")
@click.option("--init", "init_file", metavar="WEIGHTS", help="Start from these weights "
              "(any subset; the others start as usual).")
@device_option
@dtype_option
@click.option("--checkpoint", metavar="FILE", help="Save the state here now and then "
              "(.npz); resume from it when it exists.")
@click.option("--checkpoint-every", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--resume-anyway", is_flag=True, help="Resume from --checkpoint even when the "
              "settings that shape the steps (--lr, --batch-size, --weight-decay, the schedule "
              "and its options, --seed, --val-fraction, the optimizer's own options, --freeze, "
              "--clip-norm) differ from the run that wrote it (the new values apply from the "
              "next step).")
@click.option("--val-fraction", type=FiniteFloat(0, 1, max_open=True), default=0.0,
              show_default=True,
              help="Hold out this fraction of the examples and report their loss.")
@click.option("--patience", type=click.IntRange(min=1), metavar="N", help="With "
              "--val-fraction: stop when the validation loss (taken after every epoch) has "
              "not improved for N evaluations, and write the best weights.")
@click.option("--allow-nan", is_flag=True, help="Accept NaN/inf in the data.")
@click.option("--quiet", is_flag=True, help="Only the final summary line on stderr.")
@click.option("--plot", metavar="FILE", help="Plot the loss curve (needs matplotlib), in the "
              "format the extension names (.pdf, .svg, ...), else PNG.")
@click.option("--scheduler", metavar="ADDRESS", help="Compute the gradient on a Dask cluster: "
              "a scheduler address (tcp://HOST:8786) or local:N for N local worker processes. "
              "DATA may then be a directory of .npz shards (tenflang shard).")
@click.option("--chunk-size", type=click.IntRange(min=1), metavar="ROWS",
              help="With --scheduler: cut a single DATA file into chunks of ROWS examples "
              "[default: 100000], or combine consecutive shards into chunks of at most ROWS "
              "[default: one chunk per shard].")
@click.option("--sync-every", type=click.IntRange(min=1), metavar="K",
              help="With --scheduler: each chunk takes K optimizer steps on its own data "
              "between averagings of the weights and optimizer state (local SGD) "
              "[default: synchronous steps].")
@click.option("--connect-timeout", type=FiniteFloat(min=0, min_open=True), default=10.0,
              show_default=True, metavar="SECONDS",
              help="With --scheduler: how long to wait for the scheduler and a worker.")
@click.option("--logdir", metavar="DIR", help="Write TensorBoard event files here (needs "
              "tensorboardX: pip install 'tenflang[tensorboard]'); view with tensorboard --logdir "
              "DIR.")
@steering_options
@reports_errors
def tfweightcalc(gcp_file, data_file, out, lr, optimizer, weight_decay, lr_schedule, batch_size,
                 max_iters, tol, seed, init_file, device, dtype, checkpoint, checkpoint_every,
                 resume_anyway, val_fraction, patience, allow_nan, quiet, plot, scheduler,
                 chunk_size, sync_every, connect_timeout, logdir, **steering):
    """Learn the weights of the GCP from the training examples in DATA.  GCP may
    also be a shape program: it is compiled first (as by tfcompiler), saying so."""
    started = command_start()
    outputs = {"-o": out, "--checkpoint": checkpoint, "--plot": plot}
    inputs = {"GCP": gcp_file, "DATA": data_file, "--init": init_file}
    check_outputs(outputs, inputs)
    if logdir:
        check_log_directory("--logdir", logdir, outputs | inputs)
    if plot:
        require_matplotlib(plot)
    if logdir:
        from ..training import tensorboard_log     # here, as checkpoints: a plain run
        tensorboard_log.require()                  # does not load them (start-up)
    cfg = TrainConfig(lr=lr, optimizer=optimizer, batch_size=batch_size, max_iters=max_iters,
                      tol=tol, seed=seed, val_fraction=val_fraction, dtype=dtype,
                      weight_decay=weight_decay, lr_schedule=lr_schedule, patience=patience,
                      **steering)
    gcp, program = gradient_program(gcp_file)
    sig = signature(gcp)
    if not quiet:
        hint_float32(gcp, sig)
    if scheduler is not None:          # '' is a bad address, not "no scheduler"
        data = cluster_data(data_file, sig, scheduler, chunk_size, allow_nan)
    else:
        data = local_data(data_file, sig, chunk_size, sync_every, allow_nan, dtype)
    init = load_init(init_file, gcp, sig, dtype) if init_file else None
    resume = resume_from(checkpoint, sig, cfg, resume_anyway) if checkpoint else None
    first = resume.iteration if resume else 0     # `resume` is the run's state: it moves on
    stop = StopFlag()
    bar = None if quiet or not sys.stderr.isatty() else ProgressBar(max_iters)
    engine = None if scheduler else choose_engine(device)
    worker_device = device_choice(device)[1] if scheduler else None    # named as the user set it
    kept = {}       # a cluster run's last validation metrics (ClusterGradients fills it)
    watching, board = watchers(cfg, program, data, engine, quiet, logdir, kept)
    hooks = combine(bar, watching, checkpoint and Checkpoints(checkpoint_saver(checkpoint, cfg),
                                                              checkpoint_every),
                    Callbacks(should_stop=stop))
    try:
        with stop.installed():
            if scheduler:
                from ..distributed import cluster as distributed
                with distributed.connect(scheduler, connect_timeout, stop) as client:
                    source = distributed.ClusterGradients(client, worker_device, allow_nan,
                                                          sync_every=sync_every, metrics=kept)
                    result = train(gcp, data, cfg, source, hooks, init=init, resume=resume)
            else:
                source = LocalGradients(engine)
                result = train(gcp, data, cfg, source, hooks, init=init, resume=resume)
    except (Diverged, Interrupted) as failure:
        close(bar)
        close(board)
        if failure.state.iteration == first:
            say("no step was taken: no weights are written (-o and --checkpoint are left as "
                "they were)")
            raise
        retry = not isinstance(failure, CheckpointFailed)
        keep(failure.state, out, checkpoint if retry else None, cfg)
        raise
    close(bar)
    finish(result, out, checkpoint, cfg, plot, started)


def gradient_program(path: str):
    """(the GCP in `path`, the program whose outputs validation reports): a
    program with no gradient output (`d/dw`) is taken for a shape program and
    compiled first, saying so on stderr; its outputs are then the shape
    program's (the GCP keeps only what the gradients need)."""
    program = parse_file(path)
    if gradient_outputs(program):
        return program, program
    from ..backprop import compile_gradient     # here: training a GCP compiles nothing
    check(program, shape_program=True)          # tfcompiler's rules for its input
    say(f"{path} is a shape program: compiling it to its GCP first (as tfcompiler does)")
    return compile_gradient(program), program


def hint_float32(gcp, sig) -> None:
    """Once, before training: a network left in float64 by default could
    train in float32 (tenflang/cli/dtype_hint.py)."""
    source = click.get_current_context().get_parameter_source("dtype")
    if source == click.core.ParameterSource.DEFAULT and (hint := float32_hint(gcp, sig.weights)):
        say(hint)


def watchers(cfg, program, data, engine, quiet: bool, logdir, kept: dict):
    """(hooks, the TensorBoard hook or None): one line per epoch when stderr
    is no terminal (unless --quiet) and the --logdir log, sharing one
    `Figures`; the validation means of `program`'s scalar outputs, computed
    here for a local run (`engine` given), on a cluster with the validation
    loss (into `kept`: the same figures)."""
    lines = not quiet and not sys.stderr.isatty()
    if not (lines or logdir):
        return None, None
    if engine:
        metrics = validation_metrics(program, data.arrays, cfg, engine)
    else:
        metrics = lambda weights, statistics: dict(kept)    # noqa: E731
    figures = Figures(cfg, metrics or None)
    board = None
    if logdir:
        from ..training.tensorboard_log import TensorBoard
        board = TensorBoard(logdir, cfg, figures=figures)
    return combine(figures, EpochLines(figures=figures) if lines else None, board), board


def cluster_data(data_file, sig, scheduler, chunk_size, allow_nan):
    """The distributed run's data description (no examples are read here)."""
    from ..distributed import cluster as distributed
    distributed.parse_scheduler(scheduler)
    return distributed.describe(data_file, chunk_size, allow_nan, shapes=sig.inputs)


def local_data(data_file, sig, chunk_size, sync_every, allow_nan, dtype="float64"):
    """The examples of DATA, read by the GCP's shapes (training checks them)."""
    if chunk_size:
        raise TenflangError("--chunk-size needs --scheduler (it sets the examples per "
                            "chunk of a distributed run)")
    if sync_every:
        raise TenflangError("--sync-every needs --scheduler (it sets the local steps each "
                            "chunk of a distributed run takes between averagings)")
    if os.path.isdir(data_file):
        raise TenflangError("DATA is a directory: a directory of .npz shards is read by a "
                            "distributed run (--scheduler local:N or tcp://HOST:PORT)",
                            Location(data_file))
    return vectors.load_examples(data_file, allow_nan=allow_nan, shapes=sig.inputs,
                                 dtype=dtype or "float64")


def finish(result, out, checkpoint, cfg, plot, started: float) -> None:
    """Write the last checkpoint, the learned weights, the warnings, the summary
    (its time in all counted from `started`, `command_start`) and the plot.  An
    output that fails does not lose the weights (see `keep`)."""
    kept, failed = keep_weights(result.state, out, checkpoint, cfg, result.weights,
                                result.statistics)
    if failed:
        report_kept(result.state, kept, failed)
        raise RunFailure("training finished, but not every output could be written")
    for warning in result.warnings:
        say(f"warning: {warning}")
    click.echo(summary(result, cfg, time.perf_counter() - started), err=True)
    if plot:
        plot_loss(plot, result)


def checkpoint_saver(path: str, cfg):
    """`save(state)` for the loop: a checkpoint that cannot be written stops the
    run (Interrupted, so the weights are kept elsewhere, see `keep`)."""
    from ..training.checkpoints import save_checkpoint     # --checkpoint only (start-up)

    def save(state: State) -> None:
        try:
            save_checkpoint(path, state, cfg)
        except TenflangError as err:
            raise CheckpointFailed(f"cannot write the checkpoint {path}: {err.message}; training "
                              f"stopped at iteration {state.iteration}", state) from None
    return save


def load_init(path: str, gcp, sig, dtype=None) -> dict:
    """The weights of --init: any subset of the GCP's (a message names which
    when it is not all of them).  The batch statistics a weights file holds
    after its weights are left out: training computes its own."""
    weights, _ = split_statistics(gcp, vectors.load_weights(path, dtype=dtype))
    vectors.validate_weights(path, weights, sig.weights, subset=True)
    rest = [n for n in sig.weights if n not in weights]
    if rest:
        click.echo(f"{path} gives {', '.join(weights) or 'no weights'}; {', '.join(rest)} "
                   f"start{'s' * (len(rest) == 1)} as usual (docs/guide/training.md)", err=True)
    return weights


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


def resume_from(path: str, sig, cfg, anyway: bool) -> State | None:
    from ..training.checkpoints import load_checkpoint
    state = load_checkpoint(path, sig.weights, cfg, anyway)
    if state is None:
        return None
    if state.iteration > cfg.max_iters:
        raise TenflangError(f"the checkpoint is at iteration {state.iteration}, past --max-iters "
                            f"{cfg.max_iters}; raise --max-iters to train further, or start "
                            f"a new run from its weights with --init", Location(path))
    if state.iteration == cfg.max_iters:
        say(f"{path}: the checkpoint is already at --max-iters {cfg.max_iters}: no steps "
            "to take (raise --max-iters to train further); its weights are written")
    else:
        say(f"resuming from {path} at iteration {state.iteration}")
    return state


def keep(state: State, out, checkpoint, cfg) -> None:
    """After a failed run: write the last good weights wherever possible
    (`rescue.keep_weights`: where the user asked, else stdout, the weights'
    channel) and say where."""
    report_kept(state, *keep_weights(state, out, checkpoint, cfg))


def report_kept(state: State, kept: list, failed: list) -> None:
    for message in failed:
        click.echo(message, err=True)
    files = [k for k in kept if k != "standard output"]
    where = ([f"in {' and '.join(files)}"] if files else []) + \
        (["printed on stdout"] if "standard output" in kept else [])
    say(f"the last good weights (iteration {state.iteration}) are "
        f"{' and '.join(where) or 'nowhere: no file could be written'}")
