"""Training on a Dask cluster, client side: chunks, rounds, the fixed-order sum.

    result = train(gcp, describe("shards/"), TrainConfig(lr=0.5, batch_size=4096),
                   ClusterGradients(client, sync_every=None))

`ClusterGradients` is the gradient source of `tenflang.training.loop.train`
(tenflang.training.gradients) whose gradient is computed on the cluster
behind `client`.

See docs/distributed.md for the user's view and tenflang.distributed.cluster
for the module's conventions (one round trip per round, a fixed summation
tree, errors).  Here:

* `persist_chunks` loads every chunk on the workers (from its paths) and
  keeps it there for the run; `training_parts` derives each chunk's
  training rows (a validation split holds out a share of every chunk) and
  its sample (its share of the batch, tenflang.training.sampling).
* A round is one small task holding the weights (the round's state), one
  task per chunk (tenflang.distributed.tasks) and the add tasks of
  `tree_sum`; the client waits once and gathers the total.  Synchronous
  steps (`dask_gradient`) sum one step's gradient; local steps
  (`dask_rounds`, `--sync-every K`) let every chunk take K optimizer steps
  alone and average the weights and optimizer slots.
* The validation loss is one round too, its tasks summing the GCP's metrics
  (`correct`) with it: `ClusterGradients.metrics` gives their means, the
  figures a local run's epoch lines show.
* A round that fails because the cluster lost a worker is run again
  (`retrying`): every task is a pure function of its arguments, so the rerun
  gives the same bits.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import itertools
import time
import uuid
from typing import Callable

import numpy as np

from tenflang.base.hashing import blake2b
from tenflang.base.frozen import frozen
from tenflang.base.errors import RunFailure, TenflangError
from tenflang.lang.syntax_tree import Program
from tenflang.lang.printer import print_program
from tenflang.data.shards import Dataset, forget_file, load_chunk
from tenflang.training.gradients import Descent, epoch_iterations
from tenflang.training.config import TrainConfig
from tenflang.training.state import Interrupted, State, host_state
from tenflang.training.norms import gradient_norm
from tenflang.training.optimizers import trainable
from tenflang.training.sampling import batch_shares, validation_shares
from tenflang.interp.runtime.population import levels, population_by
from .tasks import (add_sums, chunk_sums, local_steps, part_of, round_value, statistic_sums,
                    validation_sums)

FAN_IN = 8                       # partial sums added per add_sums task
RETRIES = 3                      # times a round is retried after a cluster failure


class ClusterFailure(RunFailure):
    """The cluster lost what an iteration needed and could not recover."""


def persist_chunks(client, data: Dataset, dtype: str, device: str, allow_nan: bool,
                   waiting=None, indices: dict | None = None) -> list:
    """Submit one load task per chunk and wait for all; returns their futures.
    A load error (a bad shard, a bad class or row index among `indices`:
    `load_chunk`) is raised here, before any step."""
    run = uuid.uuid4().hex[:8]
    futures = [client.submit(load_chunk, chunk, data.shapes, dtype, device, allow_nan, indices,
                             key=f"tenflang-chunk-{run}-{i:05d}", pure=True)
               for i, chunk in enumerate(data.chunks)]
    (waiting or Waiting(client))(futures)
    for future, chunk in zip(futures, data.chunks):
        if future.status != "error":
            continue
        try:
            future.result()          # raises the worker's error (a TenflangError pickles)
        except MemoryError:
            raise ClusterFailure(f"a worker ran out of memory loading {chunk[0].path}: use "
                                 "smaller chunks or more workers") from None
        except cluster_errors() as err:
            raise ClusterFailure(f"loading {chunk[0].path} failed: its workers died "
                                 f"(out of memory?) ({briefly(err)})") from None
    if any(piece.start is not None for chunk in data.chunks for piece in chunk):
        client.run(forget_file, on_error="ignore")
    return futures


class Stopped(Exception):
    """`should_stop()` turned true while the client waited on the cluster."""


class Waiting:
    """Waits for futures, checking twice a second whether to stop (Ctrl-C
    sets the flag but cannot break a blocking wait) and whether the cluster
    has been without workers for `worker_timeout` seconds (Dask would wait
    for one forever)."""

    def __init__(self, client, should_stop=lambda: False, worker_timeout: float = 60.0):
        self.client, self.should_stop, self.worker_timeout = client, should_stop, worker_timeout

    def regardless(self) -> Waiting:
        """This wait, deaf to the stop flag: the population pass a stopped run
        makes for the weights it keeps (`loop.with_kept_statistics`) runs to its
        end, as it does in one process."""
        return Waiting(self.client, worker_timeout=self.worker_timeout)

    def __call__(self, futures: list) -> None:
        from distributed import wait
        alone_since = None
        while True:
            try:
                wait(futures, timeout=0.5)
                return
            except TimeoutError:
                pass
            if self.should_stop():
                raise Stopped()
            if self.client.nthreads():
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > self.worker_timeout:
                raise ClusterFailure(f"the Dask cluster has had no workers for "
                                     f"{self.worker_timeout:g} s")


def tree_sum(client, parts: list, waiting=None) -> dict:
    """The sum of the partial sums `parts` (futures): groups of FAN_IN added by
    add_sums tasks on the cluster while more than FAN_IN remain, the last ones
    fetched and added here; a fixed tree, in chunk order."""
    while len(parts) > FAN_IN:
        parts = [client.submit(add_sums, *parts[i:i + FAN_IN], pure=False)
                 if len(parts[i:i + FAN_IN]) > 1 else parts[i]
                 for i in range(0, len(parts), FAN_IN)]
    (waiting or Waiting(client))(parts)
    return add_sums(*client.gather(parts))


def cluster_errors() -> tuple:
    """The exceptions that mean the cluster, not the computation, failed."""
    from distributed import KilledWorker
    from distributed.comm import CommClosedError
    return (KilledWorker, CommClosedError, OSError, TimeoutError, asyncio.TimeoutError,
            asyncio.CancelledError, concurrent.futures.CancelledError)


@frozen
class Part:
    """The training rows of one chunk on the cluster: the future of its
    arrays, and its sample (None: every row each step; see
    tenflang.distributed.tasks)."""
    future: object
    sample: tuple | None
    first: int = 0          # its first row's index among all training rows: dropout's keys
                            # (tenflang.distributed.tasks)


def chunk_samples(rows: list, cfg: TrainConfig) -> tuple:
    """(rows each chunk holds out, its training rows, its share of a step or
    None in full batch) for chunks of `rows` examples.  A batch
    smaller than the number of chunks with training rows is refused: every
    such chunk gives each step at least one example (`batch_shares`)."""
    held = validation_shares(rows, cfg.val_fraction)
    train = [r - h for r, h in zip(rows, held)]
    if not cfg.batch_size or cfg.batch_size >= sum(train):
        return held, train, None
    chunks = sum(1 for r in train if r)
    if cfg.batch_size < chunks:
        raise TenflangError(
            f"--batch-size {cfg.batch_size} is smaller than the {chunks} chunks of training "
            f"examples: every chunk gives each step at least one example, so use a batch of at "
            f"least {chunks}, or fewer, larger chunks (--chunk-size, or tenflang shard --rows)")
    return held, train, batch_shares(train, cfg.batch_size)


def training_parts(client, futures: list, data: Dataset, cfg: TrainConfig) -> tuple:
    """([Part] to train on, [future] of the validation rows, the number of
    training examples) of the loaded chunks `futures`: each chunk holds out its
    share of a validation split and is sampled by its share of the batch
    (`chunk_samples`); a chunk left with no training rows is not used."""
    held, rows, take = chunk_samples(data.chunk_rows(), cfg)
    train = [client.submit(part_of, f, h, cfg.seed, c, False, pure=False) if h else f
             for c, (f, h) in enumerate(zip(futures, held))]
    val = [client.submit(part_of, f, h, cfg.seed, c, True, pure=False)
           for c, (f, h) in enumerate(zip(futures, held)) if h]
    firsts = itertools.accumulate(rows, initial=0)
    return ([Part(f, (r, t, cfg.seed, c) if take else None, first)
             for c, (f, r, t, first) in enumerate(zip(train, rows, take or rows, firsts)) if t],
            val, sum(rows))


def retrying(client, once, waiting):
    """`once()`, run again (up to RETRIES times) after a cluster failure, once
    a worker is there; a failure beyond that is a `ClusterFailure`."""
    for attempt in range(RETRIES + 1):
        try:
            return once()
        except MemoryError:
            raise ClusterFailure("a worker ran out of memory: use smaller chunks or more "
                                 "workers") from None
        except cluster_errors() as err:
            if attempt == RETRIES:
                raise ClusterFailure(f"the Dask cluster failed ({briefly(err)})") from None
            try:
                client.wait_for_workers(1, timeout=waiting.worker_timeout)
            except Exception:
                lost = "every worker" if client.status == "running" else "its scheduler"
                raise ClusterFailure(f"the Dask cluster lost {lost} ({briefly(err)})") from None


def briefly(err: BaseException) -> str:
    """An error of the cluster in one line (Dask's list every task they touch)."""
    text = f"{type(err).__name__}: {err}".splitlines()[0]
    return text if len(text) <= 120 else text[:117] + "..."


def gcp_text(gcp: Program) -> tuple:
    """(its BLAKE2b digest, text) of the GCP, as the workers get it."""
    text = print_program(gcp)
    return blake2b(text.encode("utf-8")).hexdigest(), text


def on_host(arrays: dict, dtype: str) -> dict:
    return {n: np.array(a, dtype=dtype) for n, a in arrays.items()}


def dask_gradient(client, gcp: Program, parts: list, cfg: TrainConfig, waiting):
    """`gradient(weights, iteration, rows) -> (mean gradient by weight, mean
    loss)` over the iteration's batch (drawn chunk by chunk on the workers:
    `rows` is None), for `descend`: one round trip to the cluster."""
    code = gcp_text(gcp)

    def once(weights, iteration):
        round_ = client.submit(round_value, (*code, on_host(weights, cfg.dtype), cfg.dtype,
                                          iteration), pure=False)
        return tree_sum(client, [client.submit(chunk_sums, p.future, round_, p.sample,
                                               (cfg.seed, p.first), pure=False)
                                 for p in parts], waiting)

    def gradient(weights: dict, iteration: int, rows=None):
        total = retrying(client, lambda: once(weights, iteration), waiting)
        n = total["rows"]
        grads = {w: (g / n).astype(cfg.dtype, copy=False) for w, g in total["grads"].items()}
        return grads, total["loss"] / n
    return gradient


def dask_rounds(client, gcp: Program, parts: list, cfg: TrainConfig, every: int, waiting):
    """`local_round(state)` for `descend`: every chunk takes up to `every`
    optimizer steps alone, then the weights and optimizer slots are averaged,
    weighted by batch share (one round trip; docs/distributed.md)."""
    code = gcp_text(gcp)

    def once(state, count):
        round_ = client.submit(round_value, (*code, on_host(state.weights, cfg.dtype),
                                          on_host(state.slots, cfg.dtype), cfg, state.iteration),
                               pure=False)
        return tree_sum(client, [client.submit(local_steps, p.future, round_, p.sample, count,
                                               p.first, pure=False) for p in parts], waiting)

    def local_round(state: State):
        count = min(every, cfg.max_iters - state.iteration)
        total = retrying(client, lambda: once(state, count), waiting)
        n = total["rows"]
        mean = {k: (v / n).astype(cfg.dtype, copy=False) for k, v in total["grads"].items()}
        kind = {prefix: {k[2:]: v for k, v in mean.items() if k[:2] == prefix}
                for prefix in ("w:", "s:", "g:")}
        # frozen weights are not in the norm, as in a synchronous step (loop.one_step)
        return (list(total["loss"] / n), gradient_norm(trainable(kind["g:"], cfg), np),
                kind["w:"], kind["s:"])
    return local_round


def cluster_population(client, gcp: Program, parts: list, cfg: TrainConfig, waiting):
    """`population(weights)`: the exact population values of the batch
    statistics over every training example, a level's pass one round trip
    (each chunk sums its examples: `tasks.statistic_sums`)."""
    code, grouped = gcp_text(gcp), levels(gcp)

    def population(weights: dict) -> dict:
        def sums_of(level, found):
            round_ = (*code, on_host(weights, cfg.dtype), on_host(found, cfg.dtype), cfg.dtype)
            k = grouped.index(level)
            total = retrying(client, lambda: tree_sum(client, [
                client.submit(statistic_sums, p.future, round_, k, pure=False) for p in parts],
                waiting), waiting)
            return total["grads"], total["rows"]
        return population_by(gcp, sums_of, np, cfg.dtype)
    return population


def validation_loss(client, gcp: Program, val: list, weights: dict, statistics: dict,
                    cfg: TrainConfig, waiting, metrics: dict) -> float:
    """Mean over the held-out rows of the sum of the losses, in evaluation mode
    with the population values `statistics` (training/gradients.py); the
    means of the GCP's metrics, taken in the same tasks, go into `metrics`."""
    round_ = (*gcp_text(gcp), on_host(weights, cfg.dtype), on_host(statistics, cfg.dtype),
              cfg.dtype)
    total = retrying(client, lambda: tree_sum(client, [client.submit(validation_sums, f, round_,
                                                                     pure=False) for f in val],
                                              waiting), waiting)
    metrics.clear()
    metrics.update({name: float(v) / total["rows"] for name, v in total["grads"].items()})
    return total["loss"] / total["rows"]


def interrupted(failure: Stopped | ClusterFailure, state: State) -> Interrupted:
    """A stop or a cluster failure met while waiting on the cluster, at `state`."""
    why = failure.message + "; training stopped" if isinstance(failure, ClusterFailure) \
        else "interrupted"
    return Interrupted(f"{why} at iteration {state.iteration}", host_state(state))


def stops_within_the_loop(call: Callable, state: State) -> Callable:
    """`call` (a step, a round, a validation), raising a stop or a cluster failure
    as `Interrupted` inside the training loop, which then keeps the weights with
    their population values (`loop.with_kept_statistics`)."""
    @functools.wraps(call)
    def within(*args, **kwargs):
        try:
            return call(*args, **kwargs)
        except (Stopped, ClusterFailure) as failure:
            raise interrupted(failure, state) from None
    return within


class ClusterGradients:
    """The gradient computed on the cluster behind `client` (see the module
    docstring): synchronous steps, or with `sync_every` K, K local steps per
    chunk between averagings.  The workers load the chunks on `device`.
    `hooks.should_stop()` is also checked while waiting on the cluster; a
    cluster without workers for `worker_timeout` seconds stops training
    (`Interrupted`), as a cluster failure does."""

    xp = np      # the weights stay in host memory between rounds

    def __init__(self, client, device: str = "auto", allow_nan: bool = False,
                 worker_timeout: float = 60.0, sync_every: int | None = None,
                 metrics: dict | None = None):
        self.client, self.device, self.allow_nan = client, device, allow_nan
        self.worker_timeout, self.sync_every = worker_timeout, sync_every
        self.kept = {} if metrics is None else metrics     # the last validation's metrics

    def metrics(self, weights: dict, statistics: dict) -> dict:
        """The validation means of the GCP's metrics at the last validation
        (taken with the validation loss), as `watch.validation_metrics` gives
        them for a local run: `Figures` asks right after each validation."""
        return dict(self.kept)

    @contextlib.contextmanager
    def open(self, gcp: Program, sig, data: Dataset, cfg: TrainConfig, hooks, state: State):
        if cfg.statistics == "running":       # the workers report no batch values
            raise TenflangError("statistics (--statistics) 'running' is for a run in one "
                                "process: on a cluster (--scheduler) the batch statistics are "
                                "exact; leave the option out or give 'exact'")
        client = self.client
        data.validate(sig.inputs)
        chunk_samples(data.chunk_rows(), cfg)       # a batch too small is refused before loading
        waiting = Waiting(client, hooks.should_stop, self.worker_timeout)
        try:
            chunks = persist_chunks(client, data, cfg.dtype, self.device, self.allow_nan, waiting,
                                    sig.indices)
            parts, val, n_train = training_parts(client, chunks, data, cfg)
            rounds = self.sync_every and dask_rounds(client, gcp, parts, cfg, self.sync_every,
                                                     waiting)
            validate = val and functools.partial(validation_loss, client, gcp, val, cfg=cfg,
                                                 waiting=waiting, metrics=self.kept)
            stopping = functools.partial(stops_within_the_loop, state=state)
            yield Descent(stopping(dask_gradient(client, gcp, parts, cfg, waiting)),
                          lambda iteration: None, np, epoch_iterations(n_train, cfg.batch_size),
                          stopping(validate) if validate else None,
                          stopping(rounds) if rounds else None,
                          cluster_population(client, gcp, parts, cfg, waiting.regardless()),
                          n_train)
        except (Stopped, ClusterFailure) as failure:       # while the chunks load
            raise interrupted(failure, state) from None
