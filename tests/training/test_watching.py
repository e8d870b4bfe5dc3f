"""Watching a training run: the typical first command (`tenflang train
SHAPE DATA`, compiling on the fly), the parameter count."""
from __future__ import annotations

import tenflang

from support.commands import run_cli, run_cli_batch
from support.paths import SAMPLES_DIR
from support.programs import sample_gcp

LINEAR = SAMPLES_DIR / "linear_regression.tf"
LINEAR_DATA = SAMPLES_DIR / "linear_train.txt"


def test_train_compiles_a_shape_program_first_and_says_so(tmp_path):
    """The weights equal those trained from the GCP tfcompiler writes."""
    (tmp_path / "gcp.tf").write_text(tenflang.print_program(sample_gcp("linear_regression.tf")))
    common = ["--max-iters", "30", "--quiet"]
    (code, shaped, err), (code2, compiled, err2) = run_cli_batch([
        ["tenflang", "train", LINEAR, LINEAR_DATA, *common],
        ["tfweightcalc", tmp_path / "gcp.tf", LINEAR_DATA, *common]])
    assert code == 0 and code2 == 0, err + err2
    assert err.splitlines()[0] == (f"{LINEAR} is a shape program: compiling it to its GCP first "
                                   "(as tfcompiler does)")
    assert "is a shape program" not in err2
    assert shaped == compiled


def test_a_program_that_is_neither_gets_tfcompilers_message(tmp_path):
    (tmp_path / "noloss.tf").write_text("declare input x\ndeclare weight w\ndeclare output o\n"
                                        "define o = mul w x\n")
    code, out, err = run_cli(["tenflang", "train", tmp_path / "noloss.tf", LINEAR_DATA])
    assert code == 2 and out == "" and "Traceback" not in err
    assert "declares no loss; tfcompiler needs at least one 'declare loss'" in err


def test_stats_count_the_parameters():
    code, _, err = run_cli(["tfcompiler", SAMPLES_DIR / "mlp_digits.tf", "--stats", "-o",
                            "/dev/null"])
    row = next(line for line in err.splitlines() if line.startswith("parameters"))
    assert code == 0 and row.split()[-2:] == ["2,410", "2,410"]     # 32·64 + 32 + 10·32 + 10


# ---------------------------------------------------------------- epoch lines

import io
import itertools
import re

import numpy as np
import pytest

from tenflang.training.hooks import combine
from tenflang.training.config import TrainConfig
from tenflang.training.loop import train
from tenflang.training.watch import EpochLines, Figures, final_loss, validation_metrics

LINE = re.compile(r"epoch (\d+)/(\d+) - iteration (\d+)/(\d+) - loss: (\S+)"
                  r"((?: - val_\w+: \S+)*) - (\d+\.\d) s$")
CLASSIFIER = """declare input x [4]
declare exp_output label
declare weight W [3, 4]
declare weight b [3]
declare output scores [3]
declare output correct
declare loss xent
define scores = add (matmul W x) b
define xent = neg (dot (log_softmax scores) (one_hot label 3))
define correct = equal (argmax scores) label
"""


def iris():
    load_iris = pytest.importorskip("sklearn.datasets").load_iris
    x, label = load_iris(return_X_y=True)
    return {"x": (x - x.mean(axis=0)) / x.std(axis=0), "label": label.astype(float)}


def epoch_lines(text: str) -> list[re.Match]:
    return [LINE.match(line) for line in text.splitlines() if line.startswith("epoch ")]


def test_without_a_terminal_each_epoch_has_a_line_of_its_figures(tmp_path):
    """The first epoch's line always shows: its mean loss over the epoch's
    iterations and validation loss are those of the same run through the API."""
    options = ["--batch-size", "16", "--val-fraction", "0.2", "--max-iters", "40", "--tol", "0"]
    code, _, err = run_cli(["tenflang", "train", LINEAR, LINEAR_DATA, *options, "-o",
                            tmp_path / "w.txt"])
    assert code == 0, err
    first = epoch_lines(err)[0]
    assert first, err
    cfg = TrainConfig(batch_size=16, val_fraction=0.2, max_iters=40, tol=0)
    result = train(sample_gcp("linear_regression.tf"), tenflang.load_examples(str(LINEAR_DATA)),
                   cfg)
    per_epoch = result.epoch_iterations
    assert first.group(1, 2, 3, 4) == ("1", str(-(-40 // per_epoch)), str(per_epoch), "40")
    assert first.group(5) == f"{np.mean(result.history[:per_epoch]):.4g}"
    assert first.group(6).startswith(f" - val_loss: {result.val_history[0][1]:.4g} - val_o: ")
    assert len(epoch_lines(err)) == -(-40 // per_epoch)     # a short run: every epoch


def test_quiet_silences_the_epoch_lines():
    code, _, err = run_cli(["tenflang", "train", LINEAR, LINEAR_DATA, "--batch-size", "16",
                            "--max-iters", "40", "--quiet", "-o", "/dev/null"])
    assert code == 0 and not epoch_lines(err) and len(err.splitlines()) == 2


def test_a_ten_epoch_run_piped_to_a_file_prints_ten_epoch_lines(tmp_path):
    """Full batch, 10 iterations taking far less than a second: every epoch
    still has its line, as Keras' `verbose=2` prints them."""
    code, _, err = run_cli(["tenflang", "train", LINEAR, LINEAR_DATA, "--max-iters", "10",
                            "--tol", "0", "-o", tmp_path / "w.txt"])
    assert code == 0, err
    assert [int(m.group(1)) for m in epoch_lines(err)] == list(range(1, 11))


def test_a_run_of_many_epochs_has_at_most_one_line_a_second_the_first_and_last_always():
    """A clock that moves 0.25 s at each reading, 300 full-batch epochs: the
    lines come about a second apart, and epochs 1 and 300 both show."""
    cfg = TrainConfig(lr=0.05, max_iters=300, tol=0)
    out = io.StringIO()
    figures = Figures(cfg, clock=itertools.count(0, 0.25).__next__)
    train(sample_gcp("linear_regression.tf"), tenflang.load_examples(str(LINEAR_DATA)), cfg,
          hooks=combine(figures, EpochLines(figures=figures, stream=out)))
    shown = [int(m.group(1)) for m in epoch_lines(out.getvalue())]
    assert shown[:3] == [1, 4, 7] and shown[-1] == 300
    assert 300 // 3 <= len(shown) <= 300 // 3 + 2


def test_a_run_of_many_epochs_that_converges_shows_its_last_epoch():
    """Convergence is found at the start of the pass after the last epoch:
    that epoch's line, held back by the one-a-second limit, shows at the end."""
    cfg = TrainConfig(lr=0.05, max_iters=100000, tol=2e-3)    # converges at iteration 78
    out = io.StringIO()
    figures = Figures(cfg, clock=itertools.count(0, 0.25).__next__)
    result = train(sample_gcp("linear_regression.tf"),
                   tenflang.load_examples(str(LINEAR_DATA)), cfg,
                   hooks=combine(figures, EpochLines(figures=figures, stream=out)))
    assert result.reason == "converged" and result.iterations > 10
    assert int(epoch_lines(out.getvalue())[-1].group(1)) == result.iterations


def test_validation_reports_the_mean_of_every_scalar_output():
    """`correct = equal (argmax scores) label`: its validation mean is the
    accuracy, as tfevaluate computes it from the weights of that epoch."""
    from tenflang.training.sampling import split
    shape = tenflang.parse(CLASSIFIER, "iris.tf", shape_program=True)
    data, cfg = iris(), TrainConfig(lr=0.5, batch_size=30, val_fraction=0.2, max_iters=12, tol=0)
    out = io.StringIO()
    lines = EpochLines(cfg, validation_metrics(shape, data, cfg), stream=out, every=0)
    result = train(tenflang.compile_gradient(shape), data, cfg, hooks=lines)
    last = epoch_lines(out.getvalue())[-1]
    assert int(last.group(3)) == 12 == result.iterations
    _, val = split(150, 0.2, 0)
    values = tenflang.evaluate(shape, {k: v[val] for k, v in data.items()}, result.weights)
    accuracy = float(np.mean(values["correct"]))
    assert f" - val_correct: {accuracy:.4g}" in last.group(6)
    assert f" - val_loss: {result.val_loss:.4g}" in last.group(6)


def test_validation_metrics_take_examples_read_from_a_file(tmp_path):
    """As `tenflang.train` does (docs/api.md): it was an AttributeError."""
    shape = tenflang.parse(CLASSIFIER, "iris.tf", shape_program=True)
    data, cfg = iris(), TrainConfig(lr=0.5, val_fraction=0.2, max_iters=3, tol=0)
    tenflang.save_examples(str(tmp_path / "iris.npz"), data)
    weights = train(tenflang.compile_gradient(shape), data, cfg).weights
    from_file = validation_metrics(shape, tenflang.load_examples(str(tmp_path / "iris.npz")), cfg)
    assert from_file(weights, {}) == validation_metrics(shape, data, cfg)(weights, {})


# ---------------------------------------------------------------- the final line

def summary_of(err: str) -> str:
    """The summary line without its time."""
    return re.sub(r", [\d.]+ s training, [\d.]+ s in all$", "", err.splitlines()[-1])


def test_the_final_line_shows_the_training_time_and_the_time_in_all(tmp_path):
    """The training loop's time left out start-up, reading the data and the
    statistics pass: the time in all comes with it, and is the command's own."""
    import subprocess
    import time
    from support.commands import cli_env, command_line
    started = time.perf_counter()
    done = subprocess.run(command_line(["tfweightcalc", LINEAR, LINEAR_DATA, "--max-iters", "20",
                                        "--quiet", "-o", tmp_path / "w.txt"]),
                          capture_output=True, text=True, env=cli_env(), timeout=120)
    wall = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    found = re.search(r" parameters, ([\d.]+) s training, ([\d.]+) s in all$",
                      done.stderr.splitlines()[-1])
    assert found, done.stderr
    training, in_all = map(float, found.groups())
    assert training <= in_all <= wall + 0.01
    assert in_all >= 0.1          # the interpreter's start-up and imports are in it
    assert in_all > 0.5 * wall    # counted from the process's start, not the training's


def test_the_final_line_says_what_its_loss_is_and_a_resume_reports_the_same(tmp_path):
    """150 steps then resumed to 300 reports what the straight 300-step run
    reports: the mean over the last epoch (the issue's 0.172 against 0.237
    were two single batches); a resume with nothing left to do reports the
    figures of the run it continues."""
    common = ["--batch-size", "16", "--tol", "0", "--lr", "0.01", "--quiet", "-o", "/dev/null"]
    checkpoint = tmp_path / "ck.npz"
    part, resumed, straight, again = run_cli_batch([
        ["tfweightcalc", LINEAR, LINEAR_DATA, *common, "--max-iters", "150",
         "--checkpoint", checkpoint],
        ["tfweightcalc", LINEAR, LINEAR_DATA, *common, "--max-iters", "300",
         "--checkpoint", checkpoint],
        ["tfweightcalc", LINEAR, LINEAR_DATA, *common, "--max-iters", "300"],
        ["tfweightcalc", LINEAR, LINEAR_DATA, *common, "--max-iters", "300",
         "--checkpoint", checkpoint]])
    assert all(code == 0 for code, _, _ in (part, resumed, straight, again))
    assert summary_of(resumed[2]) == summary_of(straight[2]) == summary_of(again[2])
    assert "already at --max-iters 300" in again[2]
    result = train(sample_gcp("linear_regression.tf"), tenflang.load_examples(str(LINEAR_DATA)),
                   TrainConfig(lr=0.01, batch_size=16, tol=0, max_iters=300))
    epoch = result.epoch_iterations
    whole = 300 // epoch * epoch
    last = "last epoch" if whole == 300 else "last whole epoch"
    assert (f"300 iterations, loss {np.mean(result.history[whole - epoch:whole]):.6g} (the "
            f"mean over the {last}, {epoch} iterations), gradient norm "
            f"{result.grad_norm:.3g}, reached --max-iters, 4 parameters") == summary_of(straight[2])


def test_a_full_batch_resume_with_nothing_to_do_reports_the_checkpoints_loss(tmp_path):
    checkpoint = tmp_path / "ck.npz"
    common = ["--tol", "0", "--max-iters", "50", "--quiet", "--checkpoint", checkpoint, "-o",
              "/dev/null"]
    first, again = run_cli_batch([["tfweightcalc", LINEAR, LINEAR_DATA, *common],
                                  ["tfweightcalc", LINEAR, LINEAR_DATA, *common]])
    assert first[0] == again[0] == 0
    assert "(the training set's, at the last iteration)" in first[2]
    assert summary_of(first[2]) == summary_of(again[2])


def test_final_loss_names_what_it_is():
    assert final_loss([3.0, 2.0, 1.0], 1) == (1.0, "the training set's, at the last iteration")
    assert final_loss([9.0, 3.0, 2.0, 6.0, 1.0, 2.0], 3) == (3.0, "the mean over the last "
                                                                  "epoch, 3 iterations")
    # a run that ends within an epoch reports the last whole one (the window that
    # mixed the two was no epoch: not the figure of the last epoch line)
    assert final_loss([9.0, 3.0, 3.0, 1.0], 3) == (5.0, "the mean over the last whole epoch, "
                                                        "3 iterations")
    assert final_loss([3.0, 1.0], 3) == (2.0, "the mean over the run, 2 iterations")


# ---------------------------------------------------------------- TensorBoard

def events(logdir):
    """The run's events, read with TensorBoard's own reader."""
    pytest.importorskip("tensorboardX", reason="tensorboardX is an optional test dependency")
    accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator",
                                      reason="tensorboard is an optional test dependency")
    acc = accumulator.EventAccumulator(str(logdir), size_guidance={accumulator.SCALARS: 0,
                                                                   accumulator.HISTOGRAMS: 0})
    acc.Reload()
    return acc


def test_tensorboard_events_hold_the_runs_figures(tmp_path):
    pytest.importorskip("tensorboardX", reason="tensorboardX is an optional test dependency")
    from tenflang.training.optimizers import learning_rate
    shape = tenflang.parse(CLASSIFIER, "iris.tf", shape_program=True)
    data = iris()
    cfg = TrainConfig(lr=0.5, batch_size=30, val_fraction=0.2, max_iters=12, tol=0,
                      lr_schedule="warmup-cosine", warmup=3)
    board = tenflang.TensorBoard(str(tmp_path / "run"), cfg,
                                 metrics=validation_metrics(shape, data, cfg))
    result = train(tenflang.compile_gradient(shape), data, cfg, hooks=board)
    acc = events(tmp_path / "run")
    tags = acc.Tags()
    assert set(tags["scalars"]) == {"train/loss", "train/lr", "epoch/loss", "epoch/val_loss",
                                    "epoch/val_correct", "epoch/grad_norm"}
    assert set(tags["histograms"]) == {f"{kind}/{w}" for kind in ("weights", "gradients")
                                       for w in ("W", "b")}

    def series(tag):
        return [e.step for e in acc.Scalars(tag)], [e.value for e in acc.Scalars(tag)]
    steps, losses = series("train/loss")
    assert steps == list(range(1, 13))
    np.testing.assert_allclose(losses, result.history, rtol=1e-6)      # float32 in the file
    np.testing.assert_allclose(series("train/lr")[1], [learning_rate(cfg, i) for i in range(12)],
                               rtol=1e-6)
    epoch = result.epoch_iterations                                     # 4 batches of 30
    assert series("epoch/loss")[0] == [4, 8, 12]
    np.testing.assert_allclose(series("epoch/loss")[1],
                               np.mean(np.reshape(result.history, (3, epoch)), axis=1), rtol=1e-6)
    np.testing.assert_allclose(series("epoch/val_loss")[1], [v for _, v in result.val_history],
                               rtol=1e-6)
    assert all(0 <= a <= 1 for a in series("epoch/val_correct")[1])
    last = acc.Histograms("weights/W")[-1]
    assert last.step == 12 and last.histogram_value.num == 12
    assert last.histogram_value.min == pytest.approx(result.weights["W"].min())
    assert last.histogram_value.max == pytest.approx(result.weights["W"].max())
    from tensorboard.plugins.hparams import plugin_data_pb2
    start = plugin_data_pb2.HParamsPluginData.FromString(
        acc.PluginTagToContent("hparams")["_hparams_/session_start_info"]).session_start_info
    assert start.hparams["lr"].number_value == 0.5
    assert start.hparams["lr_schedule"].string_value == "warmup-cosine"


def test_cli_logdir_writes_the_events(tmp_path):
    pytest.importorskip("tensorboardX", reason="tensorboardX is an optional test dependency")
    code, _, err = run_cli(["tenflang", "train", LINEAR, LINEAR_DATA, "--batch-size", "32",
                            "--val-fraction", "0.2", "--max-iters", "20", "--quiet",
                            "--logdir", tmp_path / "logs", "-o", "/dev/null"])
    assert code == 0, err
    acc = events(tmp_path / "logs")
    assert {"train/loss", "epoch/val_loss", "epoch/val_o"} <= set(acc.Tags()["scalars"])
    assert len(acc.Scalars("train/loss")) == 20


def test_logdir_without_tensorboardx_says_what_to_install(tmp_path):
    """A tensorboardX that cannot be imported (a stand-in first on the path)."""
    fake = tmp_path / "site" / "tensorboardX"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no tensorboardX here')\n")
    import os
    import subprocess
    from support.commands import cli_env, command_line
    env = cli_env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "site"), env["PYTHONPATH"]])
    done = subprocess.run(command_line(["tfweightcalc", LINEAR, LINEAR_DATA, "--logdir",
                                        tmp_path / "logs"]),
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert ("--logdir needs tensorboardX, which is not installed; pip install "
            "'tenflang[tensorboard]'") in done.stderr
    assert not (tmp_path / "logs").exists()


def test_a_log_that_cannot_be_written_stops_the_run_and_keeps_the_weights(tmp_path):
    """A full disk, as a file-size limit (Python ignores SIGXFSZ: the write
    fails with EFBIG).  The log's writer failing once blocked the run for ever."""
    pytest.importorskip("tensorboardX", reason="tensorboardX is an optional test dependency")
    import resource
    import subprocess
    from support.commands import cli_env, command_line
    limit = 40_000                        # bytes: the log passes it, the weights do not

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    done = subprocess.run(command_line(["tenflang", "train", LINEAR, LINEAR_DATA, "--batch-size",
                                        "8", "--max-iters", "5000", "--tol", "0", "--quiet", "--logdir",
                                        tmp_path / "logs", "-o", tmp_path / "w.txt"]),
                          capture_output=True, text=True, env=cli_env(), timeout=300,
                          preexec_fn=small_files)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"cannot write TensorBoard logs to {tmp_path / 'logs'}: File too large; training " \
           "stopped at iteration" in done.stderr
    assert "the last good weights" in done.stderr and str(tmp_path / "w.txt") in done.stderr
    weights = tenflang.load_weights(str(tmp_path / "w.txt"))
    assert set(weights) == {"w", "b"} and all(np.isfinite(v).all() for v in weights.values())


def test_a_gcp_with_val_fraction_reports_the_shape_programs_metrics(tmp_path):
    """The README's workflow, `tfweightcalc gcp.tf DATA --val-fraction`: the
    GCP keeps the shape program's metric `correct`, so the epoch lines show
    `val_correct` with the figures training the shape program shows."""
    shape, gcp, data = tmp_path / "iris.tf", tmp_path / "gcp.tf", tmp_path / "iris.txt"
    shape.write_text(CLASSIFIER)
    tenflang.save_examples(str(data), iris())
    options = [data, "--batch-size", "30", "--val-fraction", "0.2", "--max-iters", "12",
               "--tol", "0", "-o", "/dev/null"]
    (code, _, err), (code2, _, err2) = run_cli_batch([
        ["tfcompiler", shape, "-o", gcp],
        ["tfweightcalc", gcp, *options]])
    assert code == code2 == 0, err + err2
    code3, _, err3 = run_cli(["tfweightcalc", shape, *options])
    assert code3 == 0, err3
    figures = [line.rsplit(" - ", 1)[0] for line in err2.splitlines() if line.startswith("epoch")]
    assert figures and all(" - val_correct: " in line for line in figures)
    assert figures == [line.rsplit(" - ", 1)[0] for line in err3.splitlines()
                       if line.startswith("epoch")]


def test_a_run_of_many_epochs_ending_within_one_shows_its_last_whole_epoch():
    """301 iterations of 2 per epoch: epoch 150 (iteration 300) is the last
    whole one, and its line shows although the clock held it back."""
    cfg = TrainConfig(lr=0.05, max_iters=301, tol=0, batch_size=100)
    out = io.StringIO()
    figures = Figures(cfg, clock=itertools.count(0, 0.25).__next__)
    data = tenflang.load_examples(str(LINEAR_DATA))
    result = train(sample_gcp("linear_regression.tf"), data, cfg,
                   hooks=combine(figures, EpochLines(figures=figures, stream=out)))
    per_epoch = result.epoch_iterations
    last = epoch_lines(out.getvalue())[-1]
    assert per_epoch == 2 and int(last.group(3)) == 300
