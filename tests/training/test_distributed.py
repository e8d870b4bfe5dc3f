"""Distributed training on Dask (`tfweightcalc --scheduler`) and `tenflang shard`.

Everything runs on loopback: a LocalCluster of two single-threaded worker
processes shared by the module, and for one test a real `dask scheduler` with
two `dask worker` processes started here and always stopped.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

import tenflang  # noqa: E402
from tenflang.distributed import cluster as dist  # noqa: E402
from tenflang.data import vectors  # noqa: E402
from tenflang.backprop import compile_gradient  # noqa: E402
from tenflang.base.errors import TenflangError  # noqa: E402
from tenflang.interp import evaluate  # noqa: E402
from tenflang.interp.runtime.population import population  # noqa: E402
from tenflang.data.shards import MANIFEST, manifest  # noqa: E402
from tenflang.training.gradients import LocalGradients  # noqa: E402
from tenflang.training.hooks import Callbacks, Checkpoints, combine  # noqa: E402
from tenflang.training.config import TrainConfig  # noqa: E402
from tenflang.training.loop import Diverged, Interrupted, train  # noqa: E402
from tenflang.training.signature import signature  # noqa: E402
from tenflang.training.sampling import (batch_shares, chunk_batch, chunk_split,  # noqa: E402
                                        global_batch, shares, validation_shares)

from support.paths import SAMPLES_DIR  # noqa: E402
from support.commands import cli_env, command_line  # noqa: E402
from support.programs import sample_gcp  # noqa: E402

CANCER = SAMPLES_DIR / "breast_cancer_train.txt"      # 455 examples x 30 features
QUIET_SCHEDULER = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}   # no port 8787


def assert_same(got: dict, want: dict, rtol=1e-10):
    """Equal to float64 round-off (the sums are split differently)."""
    assert got.keys() == want.keys()
    for name in want:
        scale = max(float(np.abs(want[name]).max()), 1.0)
        np.testing.assert_allclose(got[name], want[name], rtol=rtol, atol=rtol * scale,
                                   err_msg=name)


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      scheduler_kwargs=QUIET_SCHEDULER) as cluster, Client(cluster) as c:
        c.wait_for_workers(2, timeout=60)
        yield c


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """GCP files, the cancer data as text and .npz, and a shard directory made
    by `tenflang shard` (5 shards of at most 100 rows)."""
    base = tmp_path_factory.mktemp("dist")
    paths = {"cancer_gcp": base / "cancer.gcp.tf", "linear_gcp": base / "linear.gcp.tf",
             "cancer_npz": base / "cancer.npz", "shards": base / "shards"}
    paths["cancer_gcp"].write_text(tenflang.print_program(sample_gcp("logistic_breast_cancer.tf")))
    paths["linear_gcp"].write_text(tenflang.print_program(sample_gcp("linear_regression.tf")))
    vectors.save_examples(str(paths["cancer_npz"]), vectors.load_examples(str(CANCER)).arrays)
    done = subprocess.run(command_line(["tenflang", "shard", CANCER, "--out", paths["shards"],
                                        "--rows", "100"]),
                          capture_output=True, text=True, env=cli_env(), timeout=60)
    assert done.returncode == 0, done.stderr
    return paths


def on_cluster(client, gcp, data, cfg, hooks=None, resume=None, **source):
    """The one training entry with its gradient from `client`'s cluster."""
    return train(gcp, data, cfg, dist.ClusterGradients(client, **source), hooks, resume=resume)


def single_process(gcp, path, cfg):
    return train(gcp, vectors.load_examples(str(path)).arrays, cfg)


# ---- the gradient on the cluster ---------------------------------------------

@pytest.mark.parametrize("optimizer,lr", [("sgd", 0.5), ("momentum", 0.1), ("adam", 0.05)])
def test_shard_directory_gives_the_single_process_weights(client, files, optimizer, lr):
    gcp = sample_gcp("logistic_breast_cancer.tf")
    cfg = TrainConfig(lr=lr, optimizer=optimizer, max_iters=25, tol=0)
    data = dist.describe(str(files["shards"]))
    assert data.chunk_rows() == [100, 100, 100, 100, 55]
    got = on_cluster(client, gcp, data, cfg)
    want = single_process(gcp, CANCER, cfg)
    assert got.iterations == want.iterations == 25
    assert_same(got.weights, want.weights)
    np.testing.assert_allclose(got.history, want.history, rtol=1e-12)


@pytest.mark.parametrize("source,chunk,rows", [
    ("text", 37, [37] * 12 + [11]), ("npz", 20, [20] * 22 + [15]),
    ("shards", 250, [200, 200, 55]), ("shards", 40, [100, 100, 100, 100, 55])])
def test_chunks_cut_from_a_file_or_combined_from_shards(client, files, source, chunk, rows):
    """23 chunks > FAN_IN: partial sums are also added by tasks on the cluster."""
    gcp = sample_gcp("logistic_breast_cancer.tf")
    path = {"text": CANCER, "npz": files["cancer_npz"], "shards": files["shards"]}[source]
    data = dist.describe(str(path), chunk_size=chunk)
    assert data.chunk_rows() == rows and data.rows == 455
    cfg = TrainConfig(lr=0.5, max_iters=10, tol=0)
    assert_same(on_cluster(client, gcp, data, cfg).weights,
                single_process(gcp, CANCER, cfg).weights)


def test_converges_and_stops_on_tol_as_locally(client, files):
    gcp = sample_gcp("linear_regression.tf")
    cfg = TrainConfig(lr=0.1, max_iters=5000, tol=1e-4)
    got = on_cluster(client, gcp, dist.describe(str(SAMPLES_DIR / "linear_train.txt"),
                                                chunk_size=64), cfg)
    want = single_process(gcp, SAMPLES_DIR / "linear_train.txt", cfg)
    assert got.reason == want.reason == "converged" and got.iterations == want.iterations
    assert_same(got.weights, want.weights)


@pytest.mark.parametrize("batch_size,sync_every", [(None, None), (64, None), (64, 3)])
def test_a_killed_worker_is_replaced_and_training_finishes_the_same(client, files, batch_size,
                                                                    sync_every):
    """SIGKILL one worker process after iteration 3: its chunks are loaded again
    (elsewhere, or on the worker its nanny restarts) and the run ends with the
    weights of an undisturbed run: full batch, mini-batches, local steps."""
    gcp = sample_gcp("logistic_breast_cancer.tf")
    cfg = TrainConfig(lr=0.5, optimizer="adam", max_iters=12, tol=0, batch_size=batch_size)
    data = dist.describe(str(files["shards"]))
    calm = on_cluster(client, gcp, data, cfg, sync_every=sync_every)

    reached, killed, victim = threading.Event(), threading.Event(), {}

    def killer():
        reached.wait(60)
        holders = client.has_what()
        pids = client.run(os.getpid)
        address = next(a for a, keys in holders.items()
                       if any(str(k).startswith("tenflang-chunk") for k in keys))
        victim["pid"] = pids[address]
        os.kill(victim["pid"], signal.SIGKILL)
        killed.set()

    def progress(state, step):
        if step.iteration == 3:
            reached.set()
            assert killed.wait(60)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    got = on_cluster(client, gcp, data, cfg, Callbacks(on_step=progress), sync_every=sync_every)
    thread.join(5)
    assert killed.is_set() and got.iterations == 12
    np.testing.assert_array_equal(got.weights["w"], calm.weights["w"])
    np.testing.assert_array_equal(got.weights["b"], calm.weights["b"])
    client.wait_for_workers(2, timeout=60)               # the nanny restarted it
    assert victim["pid"] not in client.run(os.getpid).values()


def test_should_stop_interrupts_with_the_last_state(client, files):
    gcp = sample_gcp("logistic_breast_cancer.tf")
    done = []
    with pytest.raises(Interrupted) as caught:
        on_cluster(client, gcp, dist.describe(str(files["shards"])),
                   TrainConfig(lr=0.5, max_iters=100, tol=0),
                   Callbacks(on_step=lambda state, step: done.append(step),
                             should_stop=lambda: len(done) >= 3))
    assert caught.value.state.iteration == 3 and len(caught.value.state.history) == 3


def test_a_cluster_without_workers_neither_hangs_nor_ignores_ctrl_c(files):
    """Dask would wait forever for a worker: training stops after
    `worker_timeout`, or as soon as should_stop (Ctrl-C) turns true."""
    from distributed import Client, LocalCluster
    gcp = sample_gcp("logistic_breast_cancer.tf")
    data = dist.describe(str(files["shards"]))
    cfg = TrainConfig(max_iters=5)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None,
                      scheduler_kwargs=QUIET_SCHEDULER) as cluster, \
            Client(cluster) as empty:
        with pytest.raises(Interrupted, match="no workers for 1 s; training stopped at "
                                              "iteration 0"):
            on_cluster(empty, gcp, data, cfg, worker_timeout=1)
        started = time.monotonic()
        with pytest.raises(Interrupted, match="interrupted at iteration 0$") as caught:
            on_cluster(empty, gcp, data, cfg,
                       Callbacks(should_stop=lambda: time.monotonic() - started > 0.5))
        assert caught.value.state.iteration == 0 and time.monotonic() - started < 10


def test_bad_shards_are_reported_with_their_file(client, tmp_path):
    gcp = sample_gcp("example_shape.tf")
    good = {"x": np.arange(4.0), "y": np.ones(4)}
    vectors.save_examples(str(tmp_path / "a.npz"), good)
    vectors.save_examples(str(tmp_path / "b.npz"), {"x": np.array([1.0, np.nan]),
                                                    "y": np.ones(2)})
    data = dist.describe(str(tmp_path))                       # no manifest: the headers
    assert data.chunk_rows() == [4, 2]
    with pytest.raises(TenflangError, match="NaN and infinity are rejected") as caught:
        on_cluster(client, gcp, data, TrainConfig(max_iters=2))
    assert caught.value.location.file.endswith("b.npz")

    vectors.save_examples(str(tmp_path / "b.npz"), {"x": np.ones((2, 3)), "y": np.ones(2)})
    with pytest.raises(TenflangError, match=r"b\.npz: error: the shard's variables"):
        dist.describe(str(tmp_path))

    (tmp_path / "b.npz").unlink()
    meta = manifest("x.txt", [("a.npz", 5)], {"x": (), "y": ()})     # a stale count
    (tmp_path / MANIFEST).write_text(json.dumps(meta))
    with pytest.raises(TenflangError, match="has 4 examples, 5 expected"):
        on_cluster(client, gcp, dist.describe(str(tmp_path)), TrainConfig(max_iters=2))

    wrong = dist.describe(str(tmp_path))
    wrong.shapes = {"x": (3,), "y": ()}
    with pytest.raises(TenflangError, match=r"variable 'x' has shape \[3\], expected \[\]"):
        wrong.validate(signature(gcp).inputs)


# ---- mini-batches and local steps ----------------------------------------------

def test_chunk_sampling_shares_the_batch_and_visits_every_row_once_per_pass():
    rows = [100, 100, 100, 100, 55]
    # 64 * rows / 455 = 14.07 (x4), 7.73: floors 14 and 7, the largest remainder gets +1
    assert shares(rows, 64) == [14, 14, 14, 14, 8]
    assert shares([3, 3, 3], 2) == [1, 1, 0]               # ties go to the earlier chunk
    assert sum(shares([7, 1, 5, 2], 11)) == 11
    # a chunk's stream: consecutive passes, each a permutation of its rows
    seen = np.concatenate([chunk_batch(55, 8, 0, 4, t) for t in range(55)])   # 8 passes
    for k in range(8):
        assert sorted(seen[k * 55:(k + 1) * 55]) == list(range(55))
    assert not np.array_equal(seen[:55], seen[55:110])       # a new order each pass
    assert not np.array_equal(chunk_batch(55, 8, 1, 4, 0), chunk_batch(55, 8, 0, 4, 0))
    step = global_batch(rows, 64, 0, 3)
    assert len(step) == len(set(step)) == 64
    assert [int(((step >= a) & (step < a + n)).sum()) for a, n in
            zip([0, 100, 200, 300, 400], rows)] == [14, 14, 14, 14, 8]
    held = validation_shares(rows, 0.2)
    assert held == [20, 20, 20, 20, 11] and sum(validation_shares([1, 1], 0.01)) == 1
    train_rows, val_rows = chunk_split(100, 20, 0, 1)
    assert sorted(np.concatenate([train_rows, val_rows])) == list(range(100))


def proportional_shares(rows: list, total: int) -> list:
    """The batch shares before every chunk got at least 1 (what runs had)."""
    n = sum(rows)
    exact = [total * r / n for r in rows]
    out = [int(e) for e in exact]
    by_remainder = sorted(range(len(rows)), key=lambda c: (out[c] - exact[c], c))
    for c in by_remainder[:total - sum(out)]:
        out[c] += 1
    return out


def test_every_chunk_gives_a_batch_one_example_and_else_its_proportional_share():
    assert batch_shares([700, 700, 37], 16) == [8, 7, 1]      # proportionally 8, 8, 0
    assert batch_shares([100, 100, 100, 100], 4) == [1, 1, 1, 1]
    assert batch_shares([0, 5, 1], 2) == [0, 1, 1]              # a chunk all held out: none
    with pytest.raises(ValueError, match="a batch of 3 cannot give each of 4 chunks"):
        batch_shares([100] * 4, 3)
    step = global_batch([700, 700, 37], 16, 0, 5)
    assert len(step) == len(set(step)) == 16 and int((step >= 1400).sum()) == 1
    rng = np.random.default_rng(5)
    proportional = 0
    for _ in range(3000):
        rows = list(rng.integers(1, rng.choice([5, 50, 5000]), size=rng.integers(1, 9)))
        batch = int(rng.integers(len(rows), sum(rows))) if sum(rows) > len(rows) else len(rows)
        got = batch_shares(rows, batch)
        assert sum(got) == batch and all(1 <= b <= r for b, r in zip(got, rows)), (rows, batch)
        if all(batch * r / sum(rows) >= 1 for r in rows):      # existing runs keep their batches
            proportional += 1
            assert got == proportional_shares(rows, batch), (rows, batch)
    assert proportional > 500


def test_a_small_chunk_is_trained_on_and_in_the_population_statistics(client, tmp_path):
    """Chunks of 700, 700 and 37 with a batch of 16: the last one's share is
    0.41, and it used to be left out of every step and of the population
    values of batch_mean."""
    rng = np.random.default_rng(9)
    arrays = {"x": rng.normal(size=(1437, 3)), "t": rng.normal(size=1437)}
    arrays["x"][1400:] += 5.0         # the last chunk moves the means visibly
    path = tmp_path / "d.npz"
    vectors.save_examples(str(path), arrays)
    gcp = compile_gradient(tenflang.parse(BN_DROPOUT, "bn.tf", shape_program=True))
    data = dist.describe(str(path), chunk_size=700)
    assert data.chunk_rows() == [700, 700, 37]
    got = on_cluster(client, gcp, data, TrainConfig(lr=0.05, max_iters=3, tol=0, batch_size=16))
    h = arrays["x"] @ got.weights["W"].T
    np.testing.assert_allclose(got.statistics["c.1"], h.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(got.statistics["z.2"], h.var(axis=0), rtol=1e-10)


def test_cli_refuses_a_batch_smaller_than_the_chunk_count(files, tmp_path):
    code, out, err, _ = cli("tfweightcalc", files["cancer_gcp"], files["shards"], "--scheduler",
                            "local:2", "--batch-size", "3", "--max-iters", "5", "-o",
                            tmp_path / "w.txt")
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert "--batch-size 3 is smaller than the 5 chunks of training examples" in err
    assert "a batch of at least 5" in err and "--chunk-size" in err
    assert "tenflang shard --rows" in err and not (tmp_path / "w.txt").exists()


@pytest.mark.parametrize("optimizer,lr", [("sgd", 0.5), ("momentum", 0.1), ("adam", 0.05)])
def test_mini_batches_give_the_single_process_run_of_the_same_batches(client, files, optimizer,
                                                                      lr):
    """The single process trains on `global_batch`, the rows the chunks draw."""
    gcp = sample_gcp("logistic_breast_cancer.tf")
    data = dist.describe(str(files["shards"]))
    cfg = TrainConfig(lr=lr, optimizer=optimizer, batch_size=64, max_iters=20, tol=0)
    got = on_cluster(client, gcp, data, cfg)
    want = train(gcp, vectors.load_examples(str(CANCER)).arrays, cfg, LocalGradients(
        batches=functools.partial(global_batch, data.chunk_rows(), 64, 0)))
    assert got.iterations == 20
    assert_same(got.weights, want.weights)
    np.testing.assert_allclose(got.history, want.history, rtol=1e-12)
    plain = single_process(gcp, CANCER, cfg)                # the epoch order: other batches
    assert not np.allclose(plain.weights["w"], want.weights["w"])


def test_a_batch_of_every_example_is_full_batch(client, files):
    gcp = sample_gcp("logistic_breast_cancer.tf")
    data = dist.describe(str(files["shards"]))
    full = on_cluster(client, gcp, data, TrainConfig(lr=0.5, max_iters=5, tol=0))
    for size in (455, 10**6):
        got = on_cluster(client, gcp, data, TrainConfig(lr=0.5, max_iters=5, tol=0,
                                                        batch_size=size))
        np.testing.assert_array_equal(got.weights["w"], full.weights["w"])


@pytest.mark.parametrize("optimizer,lr", [("sgd", 0.5), ("momentum", 0.1)])
def test_sync_every_1_equals_synchronous_steps(client, files, optimizer, lr):
    """Averaging after every local step is the synchronous step for optimizers
    whose state is linear in the gradient (adam's second moment is not:
    docs/distributed.md)."""
    gcp = sample_gcp("logistic_breast_cancer.tf")
    data = dist.describe(str(files["shards"]))
    cfg = TrainConfig(lr=lr, optimizer=optimizer, batch_size=64, max_iters=10, tol=0)
    synchronous = on_cluster(client, gcp, data, cfg)
    local = on_cluster(client, gcp, data, cfg, sync_every=1)
    assert_same(local.weights, synchronous.weights)
    np.testing.assert_allclose(local.history, synchronous.history, rtol=1e-12)


def test_local_steps_leave_frozen_weights_out_of_the_gradient_norm(client, files):
    """The guide: a --freeze weight is not in the gradient norm (which --tol
    reads); with local steps its gradient was in it.  sgd with --sync-every 1
    takes the synchronous steps, so the norms must agree."""
    gcp = sample_gcp("logistic_breast_cancer.tf")
    data = dist.describe(str(files["shards"]))
    cfg = TrainConfig(lr=0.5, batch_size=64, max_iters=4, tol=0, freeze=("b",))
    synchronous = on_cluster(client, gcp, data, cfg)
    local = on_cluster(client, gcp, data, cfg, sync_every=1)
    assert local.grad_norm == pytest.approx(synchronous.grad_norm, rel=1e-10)


def test_local_steps_count_iterations_resume_and_keep_the_last_average(client, files):
    """10 iterations of 4 local steps are rounds of 4, 4, 2; a run interrupted
    after a round resumes to the same bits; a diverging round keeps the last
    averaged weights."""
    gcp = sample_gcp("logistic_breast_cancer.tf")
    data = dist.describe(str(files["shards"]))
    cfg = TrainConfig(lr=0.05, optimizer="adam", batch_size=64, max_iters=10, tol=0)
    seen, saved = [], []
    hooks = combine(Callbacks(on_step=lambda state, step: seen.append(step.iteration)),
                    Checkpoints(saved.append, every=3))
    calm = on_cluster(client, gcp, data, cfg, hooks, sync_every=4)
    assert seen == [4, 8, 10] and len(calm.history) == 10
    assert [s.iteration for s in saved] == [4, 8, 10]     # crossed 3, 6, 9
    with pytest.raises(Interrupted) as caught:
        on_cluster(client, gcp, data, cfg, Callbacks(should_stop=lambda: True), sync_every=4)
    assert caught.value.state.iteration == 4 and set(caught.value.state.slots) == {
        f"{m}:{w}" for m in "mv" for w in ("w", "b")}
    resumed = on_cluster(client, gcp, data, cfg, sync_every=4, resume=caught.value.state)
    np.testing.assert_array_equal(resumed.weights["w"], calm.weights["w"])
    linear = dist.describe(str(SAMPLES_DIR / "linear_train.txt"), chunk_size=64)
    with pytest.raises(Diverged, match="diverged at iteration") as caught:
        on_cluster(client, sample_gcp("linear_regression.tf"), linear,
                   TrainConfig(lr=10.0, batch_size=32, max_iters=400, tol=0), sync_every=4)
    assert caught.value.state.iteration % 4 == 0
    assert all(np.isfinite(w).all() for w in caught.value.state.weights.values())


def test_val_fraction_holds_out_a_share_of_every_chunk(client, files):
    gcp = sample_gcp("logistic_breast_cancer.tf")
    data = dist.describe(str(files["shards"]))
    cfg = TrainConfig(lr=0.5, max_iters=10, tol=0, val_fraction=0.2)
    got = on_cluster(client, gcp, data, cfg)
    arrays = vectors.load_examples(str(CANCER)).arrays
    train_rows, val_rows = [], []
    for c, (start, n, held) in enumerate(zip(range(0, 500, 100), data.chunk_rows(),
                                             validation_shares(data.chunk_rows(), 0.2))):
        kept, out = chunk_split(n, held, 0, c)
        train_rows.append(start + kept)
        val_rows.append(start + out)
    train_rows, val_rows = np.concatenate(train_rows), np.concatenate(val_rows)
    assert len(val_rows) == 91
    alone = train(gcp, {k: v[train_rows] for k, v in arrays.items()},
                  TrainConfig(lr=0.5, max_iters=10, tol=0))
    assert_same(got.weights, alone.weights)
    w, b = alone.weights["w"], float(alone.weights["b"])      # the sample's loss written out
    z = arrays["x"][val_rows] @ w + b
    y = arrays["y"][val_rows]
    want = np.mean(np.logaddexp(0, -z) + (1 - y) * z) + w @ w * 0.001098901098901099
    assert got.val_loss == pytest.approx(want, rel=1e-10)
    # taken after every epoch (364 training examples: 6 batches of 64), as on one machine
    seen = []
    epochs = on_cluster(client, gcp, data, TrainConfig(lr=0.5, max_iters=18, tol=0,
                                                       val_fraction=0.2, batch_size=64),
                        Callbacks(on_validation=lambda state, *e: seen.append(e)))
    assert [i for i, _ in epochs.val_history] == [i for i, _ in seen] == [6, 12, 18]
    assert epochs.val_loss == seen[-1][1] and epochs.epoch_iterations == 6


def test_mlp_digits_with_mini_batches_on_a_cluster_reaches_the_single_process_accuracy(
        client, tmp_path):
    """The sample's recipe (full batch, 400 adam steps) against
    ``--scheduler local:2 --batch-size 256`` (100 steps, about 18 passes)."""
    shape = tenflang.parse_file(str(SAMPLES_DIR / "mlp_digits.tf"), shape_program=True)
    gcp = compile_gradient(shape)
    arrays = vectors.load_examples(str(SAMPLES_DIR / "digits_train.txt")).arrays
    test = vectors.load_examples(str(SAMPLES_DIR / "digits_test.txt")).arrays

    def accuracy(weights):
        scores = tenflang.evaluate(shape, test, weights)["scores"]
        return float(np.mean(np.argmax(scores, axis=1) == np.argmax(test["y"], axis=1)))
    from threadpoolctl import threadpool_limits
    with threadpool_limits(1):        # threaded BLAS is many times slower on a busy machine
        single = accuracy(train(gcp, arrays, TrainConfig(lr=0.01, optimizer="adam",
                                                         max_iters=400)).weights)
    data = dist.describe(str(SAMPLES_DIR / "digits_train.txt"), chunk_size=720)
    cfg = TrainConfig(lr=0.01, optimizer="adam", batch_size=256, max_iters=100)
    distributed = accuracy(on_cluster(client, gcp, data, cfg).weights)
    print(f"mlp_digits held-out accuracy: single process {single:.4f}, "
          f"2 workers at batch 256 {distributed:.4f}")
    assert single >= 0.95 and distributed >= single - 0.01


# ---- the command line ----------------------------------------------------------

def cli(*args, timeout=180):
    started = time.monotonic()
    done = subprocess.run(command_line([*map(str, args)]), capture_output=True, text=True,
                          env=cli_env(), timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def test_cli_local_cluster_matches_the_single_process_run(files, tmp_path):
    args = ["--lr", "0.5", "--optimizer", "adam", "--max-iters", "20", "--tol", "0"]
    code, _, err, _ = cli("tfweightcalc", files["cancer_gcp"], CANCER, "-o", tmp_path / "one.txt",
                          *args)
    assert code == 0, err
    code, out, err, _ = cli("tfweightcalc", files["cancer_gcp"], files["shards"], "--scheduler",
                            "local:2", "-o", tmp_path / "two.npz",
                            "--checkpoint", tmp_path / "ck.npz", *args)
    assert code == 0, err
    assert out == "" and "Traceback" not in err and "20 iterations" in err
    assert_same(vectors.load_weights(str(tmp_path / "two.npz")),
                vectors.load_weights(str(tmp_path / "one.txt")))
    assert (tmp_path / "ck.npz").exists()


SOFTMAX_WITH_ACCURACY = """declare input x [64]
declare exp_output y [10]
declare weight W [10, 64]
declare weight b [10]
declare intvar scores [10]
declare output correct
declare loss xent
define scores = add (matmul W x) b
define xent = neg (dot (log_softmax scores) y)
define correct = equal (argmax scores) (argmax y)
"""


def test_cli_epoch_lines_on_a_cluster_show_the_local_runs_metrics(tmp_path):
    """A GCP with a metric (`correct`) trained with --val-fraction: the
    cluster's epoch lines show val_correct with the local run's figures (one
    chunk: the same validation rows)."""
    gcp, data = tmp_path / "gcp.tf", tmp_path / "digits.npz"
    gcp.write_text(tenflang.print_program(tenflang.compile_gradient(
        tenflang.parse(SOFTMAX_WITH_ACCURACY, "softmax.tf", shape_program=True))))
    vectors.save_examples(str(data), vectors.load_examples(
        str(SAMPLES_DIR / "digits_train.txt")).arrays)
    args = ["--val-fraction", "0.2", "--max-iters", "4", "--tol", "0", "-o", "/dev/null"]
    runs = [cli("tfweightcalc", gcp, data, *args),
            cli("tfweightcalc", gcp, data, "--scheduler", "local:1", *args)]
    assert all(code == 0 for code, *_ in runs), runs
    lines = [[line.rsplit(" - ", 1)[0] for line in err.splitlines() if line.startswith("epoch")]
             for _, _, err, _ in runs]
    assert len(lines[0]) == 4 and all(" - val_correct: " in line for line in lines[0])
    assert lines[1] == lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def dask_cluster(folder, workers: int = 2):
    """A `dask scheduler` and `workers` `dask worker` processes (the `dask`
    command beside this Python) on 127.0.0.1 (a random free port), logging to
    `folder`; yields (the scheduler address, its process); all stopped at the end."""
    port, procs = free_port(), []
    address = f"tcp://127.0.0.1:{port}"
    log = open(folder / "dask.log", "w")
    dask = os.path.join(os.path.dirname(sys.executable), "dask")

    def start(*args):
        procs.append(subprocess.Popen([dask, *args], env=cli_env(), stdout=log, stderr=log,
                                      start_new_session=True))
    try:
        start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
        for _ in range(workers):
            start("worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                  "--no-dashboard")
        from distributed import Client
        with Client(address, timeout=60) as c:
            c.wait_for_workers(workers, timeout=60)
        yield address, procs[0]
    finally:
        for p in reversed(procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(procs):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(15)
        log.close()


@pytest.fixture(scope="module")
def dask_processes(tmp_path_factory):
    """`dask_cluster` with two workers, shared by the module: its address."""
    with dask_cluster(tmp_path_factory.mktemp("dask")) as (address, _):
        yield address


def test_a_scheduler_that_dies_is_one_message_and_the_weights_are_kept(files, tmp_path):
    """Dask's client logged tracebacks, and the message said every worker was lost."""
    with dask_cluster(tmp_path, workers=1) as (address, scheduler):
        run = subprocess.Popen(command_line([
            "tfweightcalc", files["cancer_gcp"], CANCER, "--scheduler", address, "--chunk-size",
            "100", "--max-iters", "100000", "--tol", "0", "--quiet", "-o", tmp_path / "w.txt",
            "--checkpoint", tmp_path / "ck.npz", "--checkpoint-every", "1"]),
            env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not (tmp_path / "ck.npz").exists() and time.monotonic() < deadline:
            time.sleep(0.1)                            # connected, and a step taken
        os.killpg(scheduler.pid, signal.SIGKILL)
        out, err = run.communicate(timeout=120)
    assert run.returncode == 1 and "Traceback" not in err and " - ERROR - " not in err, err
    assert "error: the Dask cluster lost its scheduler (" in err
    assert len(err.strip().splitlines()) == 2, err      # where the weights are, and why
    assert "the last good weights (iteration" in err and str(tmp_path / "w.txt") in err
    assert np.isfinite(vectors.load_weights(str(tmp_path / "w.txt"))["w"]).all()


def test_cli_on_a_real_scheduler_and_workers(files, tmp_path, dask_processes):
    args = ["--lr", "0.3", "--optimizer", "momentum", "--max-iters", "15", "--tol", "0"]
    code, out, err, _ = cli("tfweightcalc", files["cancer_gcp"], files["shards"], "--scheduler",
                            dask_processes, *args)
    assert code == 0, err
    code, ref, err, _ = cli("tfweightcalc", files["cancer_gcp"], CANCER, *args)
    assert code == 0, err
    weights = {}
    for name, text in (("dask", out), ("local", ref)):
        (tmp_path / f"{name}.txt").write_text(text)
        weights[name] = vectors.load_weights(str(tmp_path / f"{name}.txt"))
    assert_same(weights["dask"], weights["local"])


def test_cli_mini_batches_on_a_real_scheduler_match_a_local_cluster_bit_for_bit(
        client, files, tmp_path, dask_processes):
    """Same seed and chunks, other workers (and another cluster): the same bits,
    and a validation split reported as on one machine."""
    cfg = TrainConfig(lr=0.05, optimizer="adam", batch_size=64, max_iters=12, tol=0,
                      val_fraction=0.2)
    code, out, err, _ = cli("tfweightcalc", files["cancer_gcp"], files["shards"], "--scheduler",
                            dask_processes, "--lr", "0.05", "--optimizer", "adam",
                            "--batch-size", "64", "--max-iters", "12", "--tol", "0",
                            "--val-fraction", "0.2")
    assert code == 0, err
    want = on_cluster(client, sample_gcp("logistic_breast_cancer.tf"),
                      dist.describe(str(files["shards"])), cfg)
    assert f"validation loss {want.val_loss:.6g}" in err
    (tmp_path / "w.txt").write_text(out)
    got = vectors.load_weights(str(tmp_path / "w.txt"))
    for name in want.weights:
        np.testing.assert_array_equal(got[name], want.weights[name])


def test_cli_unreachable_scheduler_is_a_clear_error(files):
    port = free_port()                                      # nothing listens there
    code, out, err, seconds = cli("tfweightcalc", files["cancer_gcp"], files["shards"],
                                  "--scheduler", f"tcp://127.0.0.1:{port}",
                                  "--connect-timeout", "2")
    assert code == 1 and out == ""
    assert f"error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 2 s" in err
    assert "Traceback" not in err and seconds < 30


def test_cli_usage_errors_exit_2_with_a_message(files, run_cli_batch):
    gcp, shards = str(files["cancer_gcp"]), str(files["shards"])
    cases = [
        (["--sync-every", "4"], str(CANCER), "--sync-every needs --scheduler"),
        (["--scheduler", "local:2", "--sync-every", "0"], shards, "Invalid value for '--sync-every'"),
        (["--scheduler", "nowhere"], shards, "expected a Dask scheduler address"),
        (["--scheduler", "local:0"], shards, "worker count N >= 1"),
        (["--chunk-size", "10"], str(CANCER), "--chunk-size needs --scheduler"),
        ([], shards, "DATA is a directory"),
        (["--scheduler", "local:2"], str(SAMPLES_DIR / "linear_train.txt"),
         "but the program declares [30]"),
    ]
    results = run_cli_batch([["tfweightcalc", gcp, data, *opts] for opts, data, _ in cases])
    for (opts, _, message), (code, out, err) in zip(cases, results):
        assert code == 2, (opts, err)
        assert message in err and "Traceback" not in err, (opts, err)


@pytest.mark.parametrize("address,message", [
    ("inproc://x", "--scheduler 'inproc://x': an inproc:// address names a scheduler inside one "
                   "Python process, which a command cannot reach"),
    ("ucx://127.0.0.1:8786", "--scheduler 'ucx://127.0.0.1:8786': Dask speaks UCX only with "
                             "the distributed-ucxx package, which is not installed"),
    ("tls://127.0.0.1:8786", "--scheduler 'tls://127.0.0.1:8786': TLS needs Dask's TLS "
                             "settings (distributed.comm.tls"),
    ("wss://127.0.0.1:8786", "--scheduler 'wss://127.0.0.1:8786': TLS needs Dask's TLS "
                             "settings (distributed.comm.tls"),
    ("", "--scheduler '': expected a Dask scheduler address such as tcp://HOST:8786"),
])
def test_a_scheduler_address_a_command_cannot_use_is_a_usage_error(files, address, message):
    """These failed inside Dask (exit 1, its internal exception's text), and ''
    trained without a cluster."""
    import importlib.util
    if address.startswith("ucx") and importlib.util.find_spec("distributed_ucxx"):
        pytest.skip("distributed-ucxx is installed: ucx:// is usable")
    code, out, err, seconds = cli("tfweightcalc", files["cancer_gcp"], files["shards"],
                                  "--scheduler", address, "--connect-timeout", "2",
                                  "-o", files["shards"].parent / "never.txt")
    assert (code, out) == (2, ""), err
    assert err.startswith(f"error: {message}"), err
    assert "Traceback" not in err and seconds < 30
    assert not (files["shards"].parent / "never.txt").exists()


INDEXED = """declare input x [3]
declare input i [2]
declare exp_output label
declare weight W [4, 3]
declare weight E [5, 4]
declare loss xent
define xent = add (neg (dot (log_softmax (matmul W x)) (one_hot label 4))) (sum (take E i))
"""


def test_a_bad_class_or_row_index_in_a_late_chunk_is_refused_before_training(tmp_path,
                                                                            run_cli_batch):
    """As a local run checks its data: the file (the shard) and the example's
    row in it, exit 2, before any step.  It used to be met mid-run: named by
    its row in the chunk or in the batch, with no file, or exit 1 after 19 steps."""
    rng = np.random.default_rng(4)
    good = {"x": rng.normal(size=(300, 3)), "i": rng.integers(0, 5, size=(300, 2)) * 1.0,
            "label": rng.integers(0, 4, size=300) * 1.0}
    bad_label = {**good, "label": good["label"].copy()}
    bad_label["label"][250] = 11.0
    bad_row = {**good, "i": good["i"].copy()}
    bad_row["i"][230, 1] = 9.0
    (tmp_path / "p.tf").write_text(INDEXED)
    for name, arrays in (("label", bad_label), ("row", bad_row)):
        vectors.save_examples(str(tmp_path / f"{name}.npz"), arrays)
    made = run_cli_batch([["tenflang", "shard", tmp_path / f"{name}.npz", "--out",
                           tmp_path / name, "--rows", "100"] for name in ("label", "row")])
    assert [code for code, _, _ in made] == [0, 0]
    label_says = "error: variable 'label' is 11.0 in example {} (0-based): a class index " \
                 "for one_hot must be an integer in 0..3"
    row_says = "error: variable 'i' is 9.0 in example {} (0-based): a row index for take " \
               "must be an integer in 0..4"
    shard = os.path.join("{}", "shard-00002.npz: ")
    cases = [([tmp_path / "label"], shard.format(tmp_path / "label") + label_says.format(50)),
             ([tmp_path / "label", "--batch-size", "64"],
              shard.format(tmp_path / "label") + label_says.format(50)),
             ([tmp_path / "row", "--batch-size", "64"],
              shard.format(tmp_path / "row") + row_says.format(30)),
             ([tmp_path / "label.npz", "--chunk-size", "100", "--batch-size", "64"],   # one file
              f"{tmp_path / 'label.npz'}: " + label_says.format(250))]
    results = run_cli_batch([["tfweightcalc", tmp_path / "p.tf", *data, "--scheduler", "local:2",
                              "--max-iters", "30", "-o", tmp_path / "w.txt"]
                             for data, _ in cases])
    for (data, message), (code, _, err) in zip(cases, results):
        assert code == 2 and message in err, (data, err)
        assert "iteration" not in err and "Traceback" not in err, (data, err)
        assert not (tmp_path / "w.txt").exists()


def test_values_beyond_float32_in_a_chunk_are_refused_as_a_local_run_refuses_them(
        tmp_path, run_cli_batch):
    """A float32 cluster run turned 3.5e38 into inf without a word; now the
    worker that loads the chunk says what a local run says: the variable, and
    the example in the file (a shard's, or the data file's own line)."""
    rng = np.random.default_rng(5)
    arrays = {"x": rng.normal(size=(300, 3)), "i": rng.integers(0, 5, size=(300, 2)) * 1.0,
              "label": rng.integers(0, 4, size=300) * 1.0}
    arrays["x"][230, 2] = 3.5e38
    (tmp_path / "p.tf").write_text(INDEXED)
    vectors.save_examples(str(tmp_path / "big.npz"), arrays)
    vectors.save_examples(str(tmp_path / "big.txt"), arrays)
    [(code, _, err)] = run_cli_batch([["tenflang", "shard", tmp_path / "big.npz", "--out",
                                       tmp_path / "big", "--rows", "100"]])
    assert code == 0, err
    says = "error: variable 'x' is 3.5e+38{}, beyond the range of float32"
    cases = [([tmp_path / "big"], os.path.join(str(tmp_path / "big"), "shard-00002.npz: ")
              + says.format(" in example 30 (0-based)")),
             ([tmp_path / "big.txt", "--chunk-size", "100"],
              f"{tmp_path / 'big.txt'}:231:" )]
    results = run_cli_batch([["tfweightcalc", tmp_path / "p.tf", *data, "--scheduler", "local:2",
                              "--dtype", "float32", "--max-iters", "30", "-o", tmp_path / "w.txt"]
                             for data, _ in cases])
    for (data, message), (code, _, err) in zip(cases, results):
        assert code == 2 and message in err and "beyond the range of float32" in err, (data, err)
        assert "iteration" not in err and "Traceback" not in err, (data, err)
        assert not (tmp_path / "w.txt").exists()


# ---- tenflang shard ------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["txt", "csv", "npz"])
def test_shard_round_trip(tmp_path, run_cli_batch, fmt):
    rng = np.random.default_rng(1)
    arrays = {"x": rng.normal(size=(23, 2, 3)), "y": rng.normal(size=23)}
    source = tmp_path / f"data.{fmt}"
    vectors.save_examples(str(source), arrays)
    [(code, out, err)] = run_cli_batch([["tenflang", "shard", str(source), "--out",
                                         str(tmp_path / "s"), "--rows", "5"]])
    assert code == 0 and out == "", err
    assert "23 examples in 5 shards" in err
    files = sorted(os.listdir(tmp_path / "s"))
    assert files == ["manifest.json"] + [f"shard-{k:05d}.npz" for k in range(5)]
    meta = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert meta["rows"] == 23 and meta["variables"] == {"x": [2, 3], "y": []}
    assert [s["rows"] for s in meta["shards"]] == [5, 5, 5, 5, 3]
    parts = [vectors.load_examples(str(tmp_path / "s" / s["file"])).arrays
             for s in meta["shards"]]
    for name, a in arrays.items():
        np.testing.assert_array_equal(np.concatenate([p[name] for p in parts]), a)
    described = dist.describe(str(tmp_path / "s"))
    (tmp_path / "s" / "manifest.json").unlink()
    headers = dist.describe(str(tmp_path / "s"))
    assert described.chunks == headers.chunks and described.shapes == headers.shapes
    assert headers.rows == 23


def test_shard_replaces_an_earlier_run_only_with_force(tmp_path, run_cli_batch):
    out = str(tmp_path / "s")
    data = str(SAMPLES_DIR / "example_train.txt")
    results = run_cli_batch([["tenflang", "shard", data, "--out", out, "--rows", "30"],
                             ["tenflang", "shard", data, "--out", out, "--rows", "100"],
                             ["tenflang", "shard", data, "--out", out, "--rows", "100",
                              "--force"]])
    assert [r[0] for r in results] == [0, 2, 0]
    assert "not empty" in results[1][2]
    assert sorted(os.listdir(out)) == ["manifest.json", "shard-00000.npz", "shard-00001.npz"]


def test_shard_bad_input_exits_2_with_a_message(tmp_path, run_cli_batch):
    data = str(SAMPLES_DIR / "example_train.txt")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    (tmp_path / "bad.txt").write_text("{x: 1, y: 2}\n{x: 1, y: }\n")
    (tmp_path / "afile").write_text("")
    cases = [
        ([str(tmp_path / "nope.txt"), "--rows", "5"], "cannot read data file"),
        ([data, "--rows", "0"], "Invalid value for '--rows'"),
        ([data], "Missing option '--rows'"),
        ([str(tmp_path / "bad.txt"), "--rows", "5"], "bad.txt:2:"),
        ([data, "--rows", "5", "--out-file-typo"], "No such option"),
        ([str(tmp_path), "--rows", "5"], "DATA is a directory"),
    ]
    commands = [["tenflang", "shard", *args, "--out", str(tmp_path / "new")]
                for args, _ in cases]
    commands += [["tenflang", "shard", data, "--rows", "5", "--out", str(tmp_path / "afile")],
                 ["tenflang", "shard", data, "--rows", "5", "--out", str(tmp_path / "full"),
                  "--force"]]
    messages = [m for _, m in cases] + ["--out must be a directory", "holds other files"]
    for command, message, (code, out, err) in zip(commands, messages, run_cli_batch(commands)):
        assert code == 2, (command, err)
        assert message in err and "Traceback" not in err, (command, err)
    assert not (tmp_path / "new").exists() or not os.listdir(tmp_path / "new")
    assert os.listdir(tmp_path / "full") == ["notes.txt"]


# ---- dropout and batch statistics on a cluster (docs/design.md §2.3.2) ----------------

BN_DROPOUT = """declare input x [3]
declare exp_output t
declare weight W [4, 3]
declare weight v [4]
declare intvar h [4]
declare intvar c [4]
declare intvar z [4]
declare loss l
define h = matmul W x
define c = sub h (batch_mean h)
define z = div c (sqrt (add (batch_mean (mul c c)) 1e-5))
define l = pow (sub (dot v (mul z (dropout_mask z 0.3))) t) 2
"""


def test_dropout_and_batch_statistics_on_a_cluster(client, tmp_path):
    """Reproducible wherever the chunks run; batch statistics per chunk during
    training (a chunk's share of the batch), exact population values after."""
    rng = np.random.default_rng(7)
    arrays = {"x": rng.normal(size=(60, 3)), "t": rng.normal(size=60)}
    path = tmp_path / "d.npz"
    vectors.save_examples(str(path), arrays)
    gcp = compile_gradient(tenflang.parse(BN_DROPOUT, "bn.tf", shape_program=True))
    cfg = TrainConfig(lr=0.05, optimizer="adam", max_iters=6, tol=0, batch_size=30, seed=3)
    runs = [on_cluster(client, gcp, dist.describe(str(path), chunk_size=20), cfg)
            for _ in range(2)]
    assert_same(runs[0].weights, runs[1].weights, rtol=0)
    weights, stats = runs[0].weights, runs[0].statistics
    h = arrays["x"] @ weights["W"].T
    assert list(stats) == ["c.1", "z.2"]
    np.testing.assert_allclose(stats["c.1"], h.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(stats["z.2"], h.var(axis=0), rtol=1e-10)


@pytest.mark.parametrize("when", ["during a step", "between steps"])
def test_a_stopped_cluster_run_keeps_its_statistics(client, tmp_path, monkeypatch, when):
    """Ctrl-C met while the client waits on a step (the wait raises), or between
    steps (the loop stops): the weights kept come with their population values.
    A wait longer than its 0.5 s slice is simulated: a wait that finds the flag
    up stops at once.  The population pass once stopped the same way, and a stop
    during a step was turned into Interrupted outside the loop that computes them."""
    from tenflang.distributed import descent
    rng = np.random.default_rng(8)
    arrays = {"x": rng.normal(size=(60, 3)), "t": rng.normal(size=60)}
    vectors.save_examples(str(tmp_path / "d.npz"), arrays)
    program = tenflang.parse(BN_DROPOUT, "bn.tf", shape_program=True)
    flag, waits, arm = {"up": False}, [], []
    real = descent.Waiting.__call__

    def impatient(self, futures):
        waits.append(1)
        if arm and len(waits) == arm[0]:
            flag["up"] = True                   # Ctrl-C arrives during this wait
        if self.should_stop():
            raise descent.Stopped()
        return real(self, futures)

    def on_step(state, step):
        if state.iteration == 2:
            if when == "during a step":
                arm.append(len(waits) + 1)      # the next wait: step 3's gradient
            else:
                flag["up"] = True
    monkeypatch.setattr(descent.Waiting, "__call__", impatient)
    with pytest.raises(Interrupted) as caught:
        on_cluster(client, compile_gradient(program), dist.describe(str(tmp_path / "d.npz"),
                                                                   chunk_size=20),
                   TrainConfig(lr=0.05, max_iters=50, tol=0, seed=3),
                   Callbacks(on_step=on_step, should_stop=lambda: flag["up"]))
    kept = caught.value.state
    assert kept.iteration == 2 and list(kept.statistics) == ["c.1", "z.2"]
    for name, value in population(program, arrays, kept.weights).items():
        np.testing.assert_allclose(kept.statistics[name], value, rtol=1e-10)


def test_validation_on_a_cluster_is_taken_in_evaluation_mode(client, tmp_path):
    """The held-out loss is tfevaluate's for the same weights and rows: dropout
    off, the batch statistics at their population values over the training
    rows (not the held-out rows' own means)."""
    rng = np.random.default_rng(8)
    arrays = {"x": rng.normal(size=(60, 3)), "t": rng.normal(size=60)}
    path = tmp_path / "d.npz"
    vectors.save_examples(str(path), arrays)
    program = tenflang.parse(BN_DROPOUT, "bn.tf", shape_program=True)
    data = dist.describe(str(path), chunk_size=20)
    got = on_cluster(client, compile_gradient(program), data,
                     TrainConfig(lr=0.05, max_iters=4, tol=0, val_fraction=0.25, seed=3))
    train_rows, val_rows = [], []
    for c, (n, held) in enumerate(zip(data.chunk_rows(), validation_shares(data.chunk_rows(),
                                                                           0.25))):
        kept, out = chunk_split(n, held, 3, c)
        train_rows.append(20 * c + kept)
        val_rows.append(20 * c + out)
    train_rows, val_rows = np.concatenate(train_rows), np.concatenate(val_rows)
    pick = lambda rows: {k: v[rows] for k, v in arrays.items()}      # noqa: E731
    stats = population(program, pick(train_rows), got.weights)
    for name, value in stats.items():
        np.testing.assert_allclose(got.statistics[name], value, rtol=1e-10)
    want = evaluate(program, pick(val_rows), {**got.weights, **stats})["l"]
    assert got.val_loss == pytest.approx(float(np.mean(want)), rel=1e-10)


DROPOUT_NET = """declare input x [3]
declare exp_output t
declare weight W [4, 3]
declare weight v [4]
declare intvar h [4]
declare loss l
define h = tanh (matmul W x)
define l = pow (sub (dot v (mul h (dropout_mask h 0.4))) t) 2
"""


@pytest.mark.parametrize("batch_size", [None, 12])
def test_dropout_masks_do_not_depend_on_the_chunking(client, tmp_path, batch_size):
    """Keyed by each example's index in the data set (docs/design.md §2.3.2):
    with any --chunk-size the steps are those of the run on one machine with
    the same batches (the masks were keyed by the chunk's number and the row
    in it, and changed with the chunking)."""
    rng = np.random.default_rng(12)
    arrays = {"x": rng.normal(size=(36, 3)), "t": rng.normal(size=36)}
    path = tmp_path / "d.npz"
    vectors.save_examples(str(path), arrays)
    gcp = compile_gradient(tenflang.parse(DROPOUT_NET, "d.tf", shape_program=True))
    cfg = TrainConfig(lr=0.05, max_iters=5, tol=0, seed=4, batch_size=batch_size)
    for chunk in (5, 12, 36):
        data = dist.describe(str(path), chunk_size=chunk)
        batches = batch_size and functools.partial(global_batch, data.chunk_rows(), batch_size, 4)
        alone = train(gcp, arrays, cfg, LocalGradients(batches=batches or None))
        assert_same(on_cluster(client, gcp, data, cfg).weights, alone.weights)


def test_a_cluster_without_tenflang_is_named_before_training():
    """A scheduler without TenFlang failed with Dask's traceback; a worker
    without it died at the first task, and the run waited a minute for workers.
    (Run for real with `env -u PYTHONPATH dask scheduler` from a source tree.)"""
    from tenflang.distributed.cluster import check_tenflang_importable
    probes = []

    class Cluster:          # a scheduler with TenFlang, and one worker without
        def run_on_scheduler(self, probe):
            probes.append(probe)
            return probe()

        def run(self, probe):
            return {"tcp://10.0.0.1:4000": probe(), "tcp://10.0.0.2:4000": False}
    with pytest.raises(TenflangError, match=r"error: the worker tcp://10\.0\.0\.2:4000 cannot import "
                                            r"TenFlang: install"):
        check_tenflang_importable(Cluster(), "tcp://10.0.0.9:8786")
    # the probe travels by value: a process where importing TenFlang fails reads it
    import cloudpickle
    blocked = ("import sys, cloudpickle\n"
               "class Block:\n"
               "    def find_spec(self, name, *rest):\n"
               "        if name.split('.')[0] == 'tenflang':\n"
               "            raise ImportError('no TenFlang here')\n"
               "sys.meta_path.insert(0, Block())\n"
               "cloudpickle.loads(sys.stdin.buffer.read())\n"
               "print('read')\n")
    done = subprocess.run([sys.executable, "-c", blocked], input=cloudpickle.dumps(probes[0]),
                          capture_output=True, timeout=60)
    assert done.stdout == b"read\n", done.stderr


@pytest.mark.parametrize("layout", ["one file", "shards"])
def test_a_file_changed_during_the_run_is_not_loaded_again(tmp_path, layout):
    """A worker that dies has its chunks loaded again elsewhere: from a file
    replaced meanwhile they would mix two versions of the data (they were
    checked only by their row count)."""
    from tenflang.data.shards import load_chunk
    arrays = {"x": np.arange(40.0), "y": np.ones(40)}
    path = tmp_path / ("d.npz" if layout == "one file" else "shards/a.npz")
    path.parent.mkdir(exist_ok=True)
    vectors.save_examples(str(path), arrays)
    data = dist.describe(str(path) if layout == "one file" else str(path.parent), chunk_size=20)
    chunk = data.chunks[-1]
    assert load_chunk(chunk, data.shapes, "float64", "cpu", False)["x"][0] in (0.0, 20.0)
    time.sleep(0.01)
    vectors.save_examples(str(path), {"x": arrays["x"] * 0.5, "y": arrays["y"]})
    with pytest.raises(TenflangError, match="the file changed after the run began") as caught:
        load_chunk(chunk, data.shapes, "float64", "cpu", False)
    assert caught.value.location.file == str(path)


def test_a_local_cluster_short_of_open_files_is_refused_before_it_starts(files, tmp_path):
    """Under `ulimit -n 16` the local scheduler spun on connections it could not
    accept, flooding stderr with tracebacks, and never started."""
    import resource

    def few_files():
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))
    done = subprocess.run(command_line(["tfweightcalc", files["cancer_gcp"], CANCER,
                                        "--scheduler", "local:2", "-o", tmp_path / "w.txt"]),
                          capture_output=True, text=True, env=cli_env(), timeout=120,
                          preexec_fn=few_files)
    assert done.returncode == 2 and done.stdout == "" and not (tmp_path / "w.txt").exists()
    assert done.stderr.strip() == ("error: --scheduler local:2 needs at least 160 open files, "
                                   "and this process may open 16 (ulimit -n); raise the limit "
                                   "(ulimit -n 1024)")

