"""`tfweightcalc GCP DATA` — the Weight Calculation Phase on the command line.

This module parses and checks the arguments and reports; the run itself,
reading the files, training and writing or keeping the weights, is
`training/session`'s, which the Estimator shares.

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

import contextlib
import sys
import time

import click

from tenflang.base.errors import TenflangError
from tenflang.base.outputs import check_log_directory
from tenflang.interp.device import device_choice
from tenflang.interp.engine import choose_engine
from tenflang.training.config import TrainConfig
from tenflang.training.session import (RunSettings, Session, Voice, gradient_program, local,
                                read_examples, watchers)
from tenflang.training.signature import signature
from tenflang.training.optimizers import OPTIMIZERS, SCHEDULES
from .dtype_hint import float32_hint
from .train_options import steering_options
from .train_report import ProgressBar, plot_loss, require_matplotlib, command_start, summary
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
    check_files({"-o": out, "--checkpoint": checkpoint, "--plot": plot},
                {"GCP": gcp_file, "DATA": data_file, "--init": init_file}, logdir)
    cfg = TrainConfig(lr=lr, optimizer=optimizer, batch_size=batch_size, max_iters=max_iters,
                      tol=tol, seed=seed, val_fraction=val_fraction, dtype=dtype,
                      weight_decay=weight_decay, lr_schedule=lr_schedule, patience=patience,
                      **steering)
    gcp, program = gradient_program(gcp_file, say)
    sig = signature(gcp)
    if not quiet:
        hint_float32(gcp, sig)
    if scheduler is not None:          # '' is a bad address, not "no scheduler"
        data = cluster_data(data_file, sig, scheduler, chunk_size, allow_nan)
    else:
        data = local_data(data_file, sig, chunk_size, sync_every, allow_nan, dtype)
    session = Session(gcp, RunSettings(cfg, out, True, checkpoint, checkpoint_every,
                                       resume_anyway, init_file, signals=True), VOICE)
    bar = None if quiet or not sys.stderr.isatty() else ProgressBar(max_iters)
    kept = {}       # a cluster run's last validation metrics (ClusterGradients fills it)
    source, engine = gradient_source(scheduler, device, connect_timeout, allow_nan, sync_every,
                                     kept)
    lines = not quiet and not sys.stderr.isatty()
    result = session.run(data, source, [bar, *watchers(cfg, program, data, engine, lines,
                                                       logdir, kept)])
    report(result, cfg, plot, started)


VOICE = Voice(say=say, echo=lambda text: click.echo(text, err=True))


def check_files(outputs: dict, inputs: dict, logdir) -> None:
    """The outputs, the --logdir directory and what --plot and --logdir need,
    before anything is read."""
    check_outputs(outputs, inputs)
    if logdir:
        check_log_directory("--logdir", logdir, outputs | inputs)
    if outputs["--plot"]:
        require_matplotlib(outputs["--plot"])
    if logdir:
        from tenflang.training import tensorboard_log     # here, as checkpoints: a plain run
        tensorboard_log.require()                  # does not load them (start-up)


def hint_float32(gcp, sig) -> None:
    """Once, before training: a network left in float64 by default could
    train in float32 (tenflang/cli/dtype_hint.py)."""
    source = click.get_current_context().get_parameter_source("dtype")
    if source == click.core.ParameterSource.DEFAULT and (hint := float32_hint(gcp, sig.weights)):
        say(hint)


def cluster_data(data_file, sig, scheduler, chunk_size, allow_nan):
    """The distributed run's data description (no examples are read here)."""
    from tenflang.distributed import cluster as distributed
    distributed.parse_scheduler(scheduler)
    return distributed.describe(data_file, chunk_size, allow_nan, shapes=sig.inputs)


def local_data(data_file, sig, chunk_size, sync_every, allow_nan, dtype="float64"):
    """The examples of DATA; the options only a distributed run takes refused."""
    if chunk_size:
        raise TenflangError("--chunk-size needs --scheduler (it sets the examples per "
                            "chunk of a distributed run)")
    if sync_every:
        raise TenflangError("--sync-every needs --scheduler (it sets the local steps each "
                            "chunk of a distributed run takes between averagings)")
    return read_examples(data_file, sig, allow_nan, dtype)


def gradient_source(scheduler, device, connect_timeout, allow_nan, sync_every, kept: dict):
    """(`open(stop)` for the run's gradient source, the local engine or None):
    on a cluster, connected while the stop signals are handled (a Ctrl-C while
    it connects stops the run), its validation metrics put in `kept`."""
    if not scheduler:
        engine = choose_engine(device)
        return local(engine), engine
    worker_device = device_choice(device)[1]        # named as the user set it

    @contextlib.contextmanager
    def connected(stop):
        from tenflang.distributed import cluster as distributed
        with distributed.connect(scheduler, connect_timeout, stop) as client:
            yield distributed.ClusterGradients(client, worker_device, allow_nan,
                                               sync_every=sync_every, metrics=kept)
    return connected, None


def report(result, cfg, plot, started: float) -> None:
    """The warnings, the summary (its time in all counted from `started`,
    `command_start`) and the plot of a run whose outputs are written."""
    for warning in result.warnings:
        say(f"warning: {warning}")
    click.echo(summary(result, cfg, time.perf_counter() - started), err=True)
    if plot:
        plot_loss(plot, result)
