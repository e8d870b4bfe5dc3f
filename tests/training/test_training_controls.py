"""Training controls: the optimizer registry, weight decay and the cosine schedule
(against torch.optim, an optional test dependency), early stopping, the
warnings about runs that cannot be trusted, --init with a subset, and
resuming a checkpoint with other settings."""
from __future__ import annotations

import math
import re
import subprocess

import numpy as np
import pytest

import tenflang
from tenflang.cli import tfweightcalc
from tenflang.base.errors import TenflangError
from tenflang.training.config import TrainConfig
from tenflang.training.loop import State, train
from tenflang.training.signature import initial_weights, signature
from tenflang.training.sampling import split
from tenflang.training.optimizers import OPTIMIZERS, SCHEDULES, step
from tenflang.data.vectors import load_weights

from support.paths import SAMPLES_DIR
from support import programs
from support.commands import cli_env, command_line, stderr_on_a_terminal
from support.programs import gcp, sample_gcp


def linear_data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    return {"x": x, "y": x @ np.array([2.0, -1.0, 0.5]) + 0.3 + 0.1 * rng.normal(size=n)}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """linear.tf (the GCP of samples/linear_regression.tf) and its data."""
    root = tmp_path_factory.mktemp("controls")
    (root / "linear.tf").write_text(tenflang.print_program(sample_gcp("linear_regression.tf")))
    tenflang.save_examples(str(root / "data.npz"), linear_data())
    return root


def cli(files, *args):
    done = subprocess.run(command_line(["tfweightcalc", files / "linear.tf", files / "data.npz",
                                        *map(str, args)]),
                          capture_output=True, text=True, env=cli_env(), timeout=120)
    return done.returncode, done.stdout, done.stderr


# ---------------------------------------------------------------- the registry

@pytest.mark.parametrize("name", ["lbfgs", "ADAM", "", None])
def test_unknown_optimizer_is_refused_naming_the_choices(name):
    with pytest.raises(TenflangError, match=r"unknown optimizer .*choose one of: sgd, momentum, "
                                            r"adam, rmsprop, adagrad$"):
        TrainConfig(optimizer=name)


@pytest.mark.parametrize("fields,message", [
    ({"lr_schedule": "linear"}, "unknown lr_schedule 'linear'; choose one of: constant, "
                                "cosine, step, warmup-cosine"),
    ({"weight_decay": -0.1}, "weight_decay (--weight-decay) must be 0 or more, not -0.1"),
    ({"weight_decay": math.nan}, "weight_decay (--weight-decay) must be 0 or more"),
    ({"patience": 3}, "patience (--patience) needs a validation split"),
    ({"patience": 0, "val_fraction": 0.2}, "must be a whole number of evaluations, 1 or more"),
    ({"patience": 2.5, "val_fraction": 0.2}, "must be a whole number of evaluations"),
])
def test_config_is_checked_when_made(fields, message):
    with pytest.raises(TenflangError) as err:
        TrainConfig(**fields)
    assert message in err.value.message and err.value.exit_code == 2


def test_cli_choices_come_from_the_registries():
    params = {p.name: p for p in tfweightcalc.params}
    assert list(params["optimizer"].type.choices) == list(OPTIMIZERS) == [
        "sgd", "momentum", "adam", "rmsprop", "adagrad"]
    assert list(params["lr_schedule"].type.choices) == list(SCHEDULES) == [
        "constant", "cosine", "step", "warmup-cosine"]


# ---------------------------------------------------------------- against torch.optim

def torch_optimizer(torch, name, params, lr, weight_decay):
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr, weight_decay=weight_decay)
    if name == "momentum":
        return torch.optim.SGD(params, lr=lr, momentum=0.9, weight_decay=weight_decay)
    return torch.optim.AdamW(params, lr=lr, betas=(0.9, 0.999), eps=1e-8,
                             weight_decay=weight_decay)


@pytest.mark.parametrize("schedule", ["constant", "cosine"])
@pytest.mark.parametrize("name", ["sgd", "momentum", "adam"])
def test_each_step_equals_torch_optim(name, schedule):
    """Seven steps on the same gradients: sgd/momentum as torch.optim.SGD (L2
    weight decay), adam as torch.optim.AdamW (decoupled), the cosine schedule
    as CosineAnnealingLR(T_max=max_iters)."""
    torch = pytest.importorskip("torch", reason="torch is an optional test dependency")
    rng = np.random.default_rng(1)
    weights = {"W": rng.normal(size=(3, 4)), "b": rng.normal(size=3)}
    grads = [{k: rng.normal(size=v.shape) for k, v in weights.items()} for _ in range(7)]
    cfg = TrainConfig(lr=0.05, optimizer=name, weight_decay=0.3, lr_schedule=schedule,
                      max_iters=7)
    state = State({k: v.copy() for k, v in weights.items()})
    params = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True)
              for k, v in weights.items()}
    optimizer = torch_optimizer(torch, name, list(params.values()), cfg.lr, cfg.weight_decay)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=7, eta_min=0)
    for g in grads:
        step(state, g, cfg, np)
        state.iteration += 1
        for k, p in params.items():
            p.grad = torch.tensor(g[k], dtype=torch.float64)
        optimizer.step()
        if schedule == "cosine":
            scheduler.step()
        for k, p in params.items():
            np.testing.assert_allclose(state.weights[k], p.detach().numpy(), rtol=1e-12,
                                       atol=1e-14)


def test_cosine_schedule_equals_torch_scheduler():
    torch = pytest.importorskip("torch", reason="torch is an optional test dependency")
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=50, eta_min=0)
    cfg = TrainConfig(lr=0.3, lr_schedule="cosine", max_iters=50)
    for t in range(60):
        assert SCHEDULES["cosine"](0.3, t, cfg) == pytest.approx(scheduler.get_last_lr()[0],
                                                                  rel=1e-12, abs=1e-15)
        optimizer.step()
        scheduler.step()
    assert SCHEDULES["cosine"](0.3, 50, cfg) == 0.0


def test_weight_decay_training_equals_a_numpy_loop():
    """End to end through the GCP: full-batch SGD with L2 weight decay and a
    cosine schedule, against the same loop written here in numpy."""
    data = linear_data()
    cfg = TrainConfig(lr=0.1, weight_decay=0.05, lr_schedule="cosine", max_iters=40, tol=0)
    result = train(sample_gcp("linear_regression.tf"), data, cfg)
    w, b = np.zeros(3), 0.0
    for t in range(40):
        err = data["x"] @ w + b - data["y"]
        gw, gb = 2 * data["x"].T @ err / len(err) + 0.05 * w, 2 * err.mean() + 0.05 * b
        lr = 0.1 * (1 + math.cos(math.pi * t / 40)) / 2
        w, b = w - lr * gw, b - lr * gb
    np.testing.assert_allclose(result.weights["w"], w, rtol=1e-12)
    np.testing.assert_allclose(result.weights["b"], b, rtol=1e-12)


def test_adamw_decay_shrinks_weights_the_data_does_not_support():
    data = linear_data()
    data["x"] = np.concatenate([data["x"][:, :2], np.zeros((64, 1))], axis=1)  # w[2] unused
    init = {"w": np.array([0.0, 0.0, 5.0]), "b": np.array(0.0)}
    kept = train(sample_gcp("linear_regression.tf"), data,
                 TrainConfig(lr=0.05, optimizer="adam", max_iters=50, tol=0), init=init)
    decayed = train(sample_gcp("linear_regression.tf"), data,
                    TrainConfig(lr=0.05, optimizer="adam", max_iters=50, tol=0, weight_decay=0.1),
                    init=init)
    assert kept.weights["w"][2] == 5.0
    assert decayed.weights["w"][2] == pytest.approx(5.0 * (1 - 0.05 * 0.1) ** 50, rel=1e-12)


# ---------------------------------------------------------------- early stopping

EARLY = dict(lr=0.02, max_iters=200, tol=0, val_fraction=0.3, patience=3)


def early_data(n=20):
    """x = [1, 0, 0]: the prediction p = w0 + b climbs 1 - 0.92^t towards the
    training targets 1; the validation targets are 0.5, so the validation
    loss falls until p passes 0.5 (at t = 8) and rises after."""
    _, val = split(n, EARLY["val_fraction"], seed=0)
    y = np.ones(n)
    y[val] = 0.5
    return {"x": np.tile([1.0, 0.0, 0.0], (n, 1)), "y": y}


def test_early_stopping_restores_the_best_epochs_weights():
    gcp = sample_gcp("linear_regression.tf")
    result = train(gcp, early_data(), TrainConfig(**EARLY))
    assert result.reason == "early-stopped"
    assert result.best_iteration == 8 and result.iterations == 8 + 3
    assert [i for i, _ in result.val_history] == list(range(1, 12))
    losses = [v for _, v in result.val_history]
    assert result.val_loss == min(losses) == losses[7]
    best = train(gcp, early_data(), TrainConfig(**{**EARLY, "patience": None, "max_iters": 8}))
    for name in ("w", "b"):
        np.testing.assert_array_equal(result.weights[name], best.weights[name])
    assert result.val_loss == best.val_loss


def test_validation_is_taken_once_per_epoch_with_minibatches():
    data = linear_data(n=40)
    result = train(sample_gcp("linear_regression.tf"), data,
                   TrainConfig(lr=0.05, batch_size=10, max_iters=30, tol=0, val_fraction=0.25))
    assert result.epoch_iterations == 3          # 30 training examples in batches of 10
    assert [i for i, _ in result.val_history] == list(range(3, 31, 3))


def test_cli_patience_writes_the_best_weights_and_says_so(tmp_path):
    tenflang.save_examples(str(tmp_path / "early.npz"), early_data())
    (tmp_path / "linear.tf").write_text(tenflang.print_program(sample_gcp("linear_regression.tf")))
    done = subprocess.run(command_line([
        "tfweightcalc", tmp_path / "linear.tf", tmp_path / "early.npz", "--lr", "0.02",
        "--val-fraction", "0.3", "--patience", "3", "--tol", "0", "-o", tmp_path / "w.txt"]),
        capture_output=True, text=True, env=cli_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "11 iterations" in done.stderr and "validation loss" in done.stderr
    assert "(the best, at iteration 8: those weights are written)" in done.stderr
    assert "stopped early: no better validation loss in --patience 3 evaluations" in done.stderr
    best = train(sample_gcp("linear_regression.tf"), early_data(),
                 TrainConfig(**{**EARLY, "patience": None, "max_iters": 8}))
    written = load_weights(str(tmp_path / "w.txt"))
    np.testing.assert_array_equal(written["w"], best.weights["w"])


def test_a_run_resumed_where_patience_stopped_it_stops_there():
    """The checkpoint of an early-stopped run has used up its patience: resumed,
    it stops at once with the same figures (it took one more step, an epoch
    with mini-batches, at every resume)."""
    gcp, data = sample_gcp("linear_regression.tf"), early_data()
    for batch_size in (None, 4):
        cfg = TrainConfig(**{**EARLY, "batch_size": batch_size})
        straight = train(gcp, data, cfg)
        assert straight.reason == "early-stopped" and straight.iterations < cfg.max_iters
        again = train(gcp, data, cfg, resume=straight.state)
        assert (again.iterations, again.reason, again.history, again.val_history) == \
            (straight.iterations, "early-stopped", straight.history, straight.val_history)
        np.testing.assert_array_equal(again.weights["w"], straight.weights["w"])


def test_a_converged_run_resumed_reports_the_same_and_keeps_its_history():
    """The check that finds the gradient below --tol takes no step: its loss
    is no iteration's, so the history holds one loss per iteration and a
    re-run changes nothing (it grew by one loss, and moved the summary's
    epoch mean, at every re-run)."""
    gcp, data = sample_gcp("linear_regression.tf"), linear_data(n=24)
    cfg = TrainConfig(lr=0.05, batch_size=5, tol=0.5, max_iters=500)
    first = train(gcp, data, cfg)
    assert first.reason == "converged" and len(first.history) == first.iterations
    again = train(gcp, data, cfg, resume=first.state)
    assert (again.iterations, again.reason, again.history) == \
        (first.iterations, "converged", first.history)


def test_cli_patience_without_val_fraction_is_a_usage_error(files):
    code, out, err = cli(files, "--patience", "3")
    assert code == 2 and out == "" and "--patience" in err and "--val-fraction" in err
    assert "Traceback" not in err


# ---------------------------------------------------------------- warnings

ABS = programs.ABSOLUTE_ERROR_LINE
ZERO_HIDDEN = programs.ZERO_HIDDEN_LAYER


def test_oscillating_loss_is_a_warning_with_a_suggestion():
    data = {"x": np.ones(8), "y": np.ones(8)}
    result = train(gcp(ABS), data, TrainConfig(lr=0.3, max_iters=100, tol=0))
    assert len(result.warnings) == 1
    assert ("the training loss has not decreased over the last 25 iterations: it swings "
            "between 0.1 and 0.2") in result.warnings[0]
    assert "try a smaller --lr (it was 0.3), --lr-schedule cosine" in result.warnings[0]
    calm = train(gcp(ABS), data, TrainConfig(lr=0.3, max_iters=100, tol=0,
                                                  lr_schedule="cosine"))
    assert calm.warnings == []


IRIS_SOFTMAX = """declare input x [4]
declare exp_output y [3]
declare weight W [3, 4]
declare weight b [3]
declare output scores [3]
declare loss xent
define scores = add (matmul W x) b
define xent = neg (dot (log_softmax scores) y)
"""


def test_a_loss_that_ends_above_its_start_is_a_warning():
    """Unscaled iris (petal and sepal lengths in cm) with --lr 2: too short a
    run for the oscillation check, yet the loss ends far above its start."""
    load_iris = pytest.importorskip("sklearn.datasets").load_iris
    x, label = load_iris(return_X_y=True)
    data = {"x": x, "y": np.eye(3)[label]}
    result = train(gcp(IRIS_SOFTMAX), data, TrainConfig(lr=2, max_iters=20, tol=0, seed=1))
    assert result.history[-1] > 5 * result.history[0]
    assert result.warnings == [
        f"the training loss ended at {result.history[-1]:.4g}, above where it started "
        f"({result.history[0]:.4g}): the steps overshoot; try a smaller --lr (it was 2), "
        "--lr-schedule cosine, or inputs scaled to unit size"]
    scaled = {"x": (x - x.mean(axis=0)) / x.std(axis=0), "y": data["y"]}
    calm = train(gcp(IRIS_SOFTMAX), scaled, TrainConfig(lr=0.5, max_iters=20, tol=0, seed=1))
    assert calm.history[-1] < calm.history[0] and calm.warnings == []


def test_with_minibatches_the_rise_compares_epoch_means():
    from tenflang.training.health import risen
    # per-batch losses that end high on one batch only: the epoch means fell
    assert risen([1.0, 1.0, 0.5, 1.5], 2, 0.1) is None
    assert "ended at 2, above where it started (1)" in risen([1.0, 1.0, 2.5, 1.5], 2, 0.1)
    assert "the mean over an epoch of 2 iterations" in risen([1.0, 1.0, 2.5, 1.5], 2, 0.1)
    assert risen([1.0, 1.0, 2.5], 2, 0.1) is None           # one complete epoch only


def test_a_zero_weight_that_can_never_learn_is_named():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(30, 3))
    data = {"x": x, "y": x @ [1.0, 2.0, 3.0]}
    result = train(gcp(ZERO_HIDDEN), data, TrainConfig(lr=0.1, max_iters=20, tol=0))
    named = [w.split("'")[1] for w in result.warnings]
    assert named == ["k", "v"]                   # c, the bias, learns
    assert "is still 0 after 20 iterations: its gradient was 0 at every step" in result.warnings[0]
    assert "--init" in result.warnings[0]
    started = train(gcp(ZERO_HIDDEN), data, TrainConfig(lr=0.1, max_iters=20, tol=0),
                    init={"k": np.full(3, 0.1)})
    assert started.warnings == []


def test_a_run_that_stops_at_once_on_zero_weights_says_why():
    """With no bias to move first, every gradient is 0 at the start: the run
    "converges" after no step, and names the weights that cannot learn."""
    no_bias = ZERO_HIDDEN.replace("define o = add t c", "define o = add t 0").replace(
        "declare weight c\n", "")
    assert no_bias != ZERO_HIDDEN
    x = np.random.default_rng(1).normal(size=(30, 3))
    result = train(gcp(no_bias), {"x": x, "y": x @ [1.0, 2.0, 3.0]},
                   TrainConfig(lr=0.1, max_iters=20))
    assert result.iterations == 0 and result.reason == "converged"
    assert [w.split("'")[1] for w in result.warnings] == ["k", "v"]
    assert "is 0 and the gradient was 0 from the start, so the run stopped at once" \
        in result.warnings[0] and "--init" in result.warnings[0]


@pytest.mark.parametrize("optimizer", ["adagrad", "rmsprop", "adam"])
def test_a_zero_eps_that_divides_0_by_0_is_named_as_the_cause(optimizer):
    """k and v start at 0 with gradient 0: with --eps 0 their first step is 0/0.
    A smaller --lr (the advice for a step too long) would not help."""
    from tenflang.training.loop import Diverged
    x = np.random.default_rng(2).normal(size=(10, 3))
    data = {"x": x, "y": x @ [1.0, 2.0, 3.0]}
    with pytest.raises(Diverged, match=r"a weight became infinite or NaN; with --eps 0, a "
                       r"weight whose gradient stays 0 divides 0 by 0: give --eps a value "
                       r"above 0"):
        train(gcp(ZERO_HIDDEN), data, TrainConfig(lr=0.1, optimizer=optimizer, eps=0.0,
                                                  max_iters=5, tol=0))
    done = train(gcp(ZERO_HIDDEN), data, TrainConfig(lr=0.1, optimizer=optimizer, max_iters=5,
                                                     tol=0))
    assert done.iterations == 5


CENTRED = """declare input x [3]
declare exp_output y
declare weight w [3]
declare output o
declare loss l
define o = dot w (sub x (batch_mean x))
define l = mul (sub o y) (sub o y)
"""


@pytest.mark.parametrize("data,options,lead", [
    ("{x: [1, 2, 3], y: 1}\n", [], "is 0 and the gradient was 0 from the start"),
    ("{x: [1, 2, 3], y: 1}\n{x: [2, 2, 1], y: 0}\n", ["--batch-size", "1", "--tol", "0"],
     "is still 0 after 5 iterations"),
])
def test_a_batch_of_one_with_batch_statistics_is_named_as_the_cause(tmp_path, data, options,
                                                                   lead):
    """With one example a step, x - batch_mean x is 0: the warning says so, not
    that the weight starts at 0 among other zero weights."""
    (tmp_path / "s.tf").write_text(CENTRED)
    (tmp_path / "d.txt").write_text(data)
    done = subprocess.run(command_line(["tfweightcalc", tmp_path / "s.tf", tmp_path / "d.txt",
                                        "--max-iters", "5", "--quiet", *options]),
                          capture_output=True, text=True, env=cli_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"warning: weight 'w' {lead}" in done.stderr
    assert ("Each step saw a batch of 1 example, and a batch_mean over one example is the "
            "example itself") in done.stderr
    assert "starts at 0 and multiplies" not in done.stderr
    # without batch statistics the usual diagnosis stays
    two = train(gcp(CENTRED.replace("(sub x (batch_mean x))", "(mul x 0)")),
                {"x": np.ones((2, 3)), "y": np.ones(2)}, TrainConfig(max_iters=3, tol=0))
    assert "starts at 0 and multiplies" in two.warnings[0]


def test_healthy_runs_have_no_warnings():
    result = train(sample_gcp("linear_regression.tf"), linear_data(),
                   TrainConfig(lr=0.05, batch_size=8, max_iters=2000, tol=0))
    assert result.warnings == []


def test_cli_prints_warnings_before_the_summary(tmp_path):
    (tmp_path / "g.tf").write_text(tenflang.print_program(gcp(ZERO_HIDDEN)))
    (tmp_path / "d.txt").write_text("{x: [1, 2, 3], y: 14}\n{x: [0, 1, 0], y: 2}\n")
    done = subprocess.run(command_line(["tfweightcalc", tmp_path / "g.tf", tmp_path / "d.txt",
                                        "--max-iters", "5", "--tol", "0", "--quiet"]),
                          capture_output=True, text=True, env=cli_env(), timeout=120)
    lines = done.stderr.splitlines()
    assert done.returncode == 0
    assert lines[0].startswith("warning: weight 'k' is still 0 after 5 iterations")
    assert lines[1].startswith("warning: weight 'v' is still 0")
    assert lines[2].startswith("5 iterations, loss")


# ---------------------------------------------------------------- --init with a subset

def test_init_may_give_a_subset_the_rest_start_as_usual():
    gcp = sample_gcp("mlp_digits.tf")
    sig = signature(gcp)
    data = tenflang.load_examples(str(SAMPLES_DIR / "digits_train.txt")).arrays
    W1 = np.full((32, 64), 0.01)
    cfg = TrainConfig(lr=0.1, max_iters=3, tol=0)
    part = train(gcp, data, cfg, init={"W1": W1})
    whole = train(gcp, data, cfg, init=initial_weights(sig, 0) | {"W1": W1})
    for name in sig.weights:
        np.testing.assert_array_equal(part.weights[name], whole.weights[name])


def test_cli_init_subset_message_lists_the_given_weights(files, tmp_path):
    (tmp_path / "init.txt").write_text("{b: 0.3}\n")
    code, out, err = cli(files, "--init", tmp_path / "init.txt", "--max-iters", "1")
    assert code == 0, err
    assert f"{tmp_path / 'init.txt'} gives b; w starts as usual (docs/guide/training.md)" in err


# ---------------------------------------------------------------- resuming

@pytest.mark.parametrize("changed,message", [
    (["--lr", "0.2"], "--lr 0.1, not --lr 0.2"),
    (["--batch-size", "16"], "no --batch-size, not --batch-size 16"),
    (["--weight-decay", "0.01"], "--weight-decay 0, not --weight-decay 0.01"),
    (["--lr-schedule", "cosine"], "--lr-schedule constant, not --lr-schedule cosine"),
])
def test_resuming_with_other_settings_is_refused_naming_them(files, tmp_path, changed, message):
    checkpoint = tmp_path / "ck.npz"
    assert cli(files, "--max-iters", "5", "--checkpoint", checkpoint)[0] == 0
    code, out, err = cli(files, "--max-iters", "10", "--checkpoint", checkpoint, *changed)
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"the checkpoint was written by a run with {message}" in err
    assert "--resume-anyway" in err and str(checkpoint) in err
    code, out, err = cli(files, "--max-iters", "10", "--checkpoint", checkpoint, *changed,
                         "--resume-anyway")
    assert code == 0 and "resuming from" in err and "10 iterations" in err


@pytest.mark.parametrize("name,value,message", [
    ("lr", "0.1", '--lr is "0.1", text, where the option takes a number'),
    ("nesterov", 0, "--nesterov is 0, a number, where the option takes true or false"),
    ("lr_schedule", ["constant"], '--lr-schedule is ["constant"], a list, where the option '
                                  "takes text"),
])
def test_a_setting_stored_as_another_kind_is_named(files, tmp_path, name, value, message):
    """A hand-edited setting of another kind: said as such, never as the
    contradiction '--lr 0.1, not --lr 0.1'."""
    import json
    checkpoint = tmp_path / "ck.npz"
    assert cli(files, "--max-iters", "5", "--checkpoint", checkpoint)[0] == 0
    with np.load(checkpoint) as npz:
        arrays = dict(npz)
    meta = json.loads(str(arrays["meta"]))
    meta["settings"][name] = value
    arrays["meta"] = np.asarray(json.dumps(meta))
    np.savez(checkpoint, **arrays)
    code, out, err = cli(files, "--max-iters", "10", "--checkpoint", checkpoint)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"{checkpoint}: error: not a tfweightcalc checkpoint: its {message} "
                          "(a checkpoint edited by hand?)"), err


def test_a_cosine_schedule_keeps_its_length_when_resumed(files, tmp_path):
    checkpoint = tmp_path / "ck.npz"
    common = ["--lr-schedule", "cosine", "--checkpoint", checkpoint]
    assert cli(files, *common, "--max-iters", "10")[0] == 0
    code, out, err = cli(files, *common, "--max-iters", "60")
    assert code == 2 and "--max-iters 10, not --max-iters 60" in err


def test_interrupted_cosine_run_resumed_equals_the_straight_run(files, tmp_path):
    """Stopped at iteration 17 of 40 and resumed: the very steps of the straight
    run (cosine schedule, momentum, weight decay, mini-batches, patience)."""
    from tenflang.training.checkpoints import save_checkpoint
    from tenflang.training.hooks import Callbacks
    from tenflang.training.loop import Interrupted
    common = ["--optimizer", "momentum", "--lr-schedule", "cosine", "--weight-decay", "0.01",
              "--batch-size", "24", "--tol", "0", "--max-iters", "40", "--val-fraction", "0.2",
              "--patience", "30"]
    cfg = TrainConfig(lr=0.1, optimizer="momentum", lr_schedule="cosine", weight_decay=0.01,
                      batch_size=24, tol=0, max_iters=40, val_fraction=0.2, patience=30)
    calls = iter(range(1000))
    with pytest.raises(Interrupted) as stopped:
        train(sample_gcp("linear_regression.tf"), tenflang.load_examples(str(files / "data.npz")),
              cfg, hooks=Callbacks(should_stop=lambda: next(calls) == 16))
    assert stopped.value.state.iteration == 17 and stopped.value.state.best is not None
    checkpoint = tmp_path / "ck.npz"
    save_checkpoint(str(checkpoint), stopped.value.state, cfg)
    straight = cli(files, *common)
    resumed = cli(files, *common, "--checkpoint", checkpoint)
    assert resumed[0] == 0 and "at iteration 17" in resumed[2]
    assert resumed[1] == straight[1]


def test_max_iters_at_or_below_the_checkpoint(files, tmp_path):
    checkpoint = tmp_path / "ck.npz"
    first = cli(files, "--max-iters", "20", "--checkpoint", checkpoint)
    code, out, err = cli(files, "--max-iters", "20", "--checkpoint", checkpoint)
    assert code == 0 and out == first[1]
    assert "the checkpoint is already at --max-iters 20: no steps to take" in err
    assert "loss nan" not in err and "20 iterations, loss " in err
    code, out, err = cli(files, "--max-iters", "10", "--checkpoint", checkpoint)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "the checkpoint is at iteration 20, past --max-iters 10" in err


# ---------------------------------------------------------------- nothing lost, shown as it goes

def test_ctrl_c_without_o_or_checkpoint_prints_the_weights_on_stdout(tmp_path):
    """The --init message is printed just before training starts: the signal
    sent after it interrupts training, not the start-up."""
    import signal
    import time
    (tmp_path / "mlp.tf").write_text(tenflang.print_program(sample_gcp("mlp_digits.tf")))
    (tmp_path / "init.txt").write_text("{b2: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}\n")
    proc = subprocess.Popen(command_line([
        "tfweightcalc", tmp_path / "mlp.tf", SAMPLES_DIR / "digits_train.txt", "--max-iters",
        "1000000", "--init", tmp_path / "init.txt"]), env=cli_env(), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    assert "start as usual" in proc.stderr.readline()
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    assert "the last good weights (iteration " in stderr and ") are printed on stdout" in stderr
    assert "interrupted at iteration" in stderr and "Traceback" not in stderr
    (tmp_path / "w.txt").write_text(stdout)
    weights = load_weights(str(tmp_path / "w.txt"))
    assert sorted(weights) == ["W1", "W2", "b1", "b2"] and weights["W1"].shape == (32, 64)


def test_progress_bar_shows_the_validation_loss(files):
    code, shown = stderr_on_a_terminal(["tfweightcalc", files / "linear.tf",
                                        files / "data.npz", "--max-iters", "30",
                                        "--val-fraction", "0.25", "--tol", "0"])
    assert code == 0
    assert re.search(r"loss [\d.e-]+  val [\d.e-]+  \|grad\|", shown), shown


def test_plot_draws_training_smoothed_and_validation_curves(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    from tenflang.cli.train_report import plot_loss, trailing_mean
    assert trailing_mean([1.0, 3.0, 5.0, 7.0], 2) == [1.0, 2.0, 4.0, 6.0]
    result = train(sample_gcp("linear_regression.tf"), linear_data(n=40),
                   TrainConfig(lr=0.05, batch_size=10, max_iters=30, tol=0, val_fraction=0.25,
                               patience=20))
    drawn = {}
    monkeypatch.setattr(plt.Figure, "savefig", lambda self, buffer, format: drawn.update(
        {line.get_label(): line.get_xydata() for line in self.axes[0].get_lines()}))
    plot_loss(str(tmp_path / "p.png"), result)
    assert sorted(drawn) == ["_child3", "training (mean over 3 iterations: an epoch)",
                             "training (per batch)", "validation"]
    np.testing.assert_allclose(drawn["validation"], result.val_history)
    smoothed = drawn["training (mean over 3 iterations: an epoch)"][:, 1]
    assert smoothed[5] == pytest.approx(np.mean(result.history[3:6]))
