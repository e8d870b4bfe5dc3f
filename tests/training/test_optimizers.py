"""The optimizers, schedules, gradient clipping and frozen weights of
tenflang/training/optimizers.py, step for step against torch.optim — live
when torch is installed, and always against the same updates written here
in numpy from torch.optim's documentation and against final weights
recorded from torch.optim (so a run without torch still checks them) —
and their options: bad values, checkpoints, the command line."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tenflang
from tenflang.base.errors import TenflangError
from tenflang.training.config import TrainConfig
from tenflang.training.loop import State, train
from tenflang.training.optimizers import step

from support.commands import run_cli, run_cli_batch
from support.programs import sample_gcp

STEPS = 12
# name -> TrainConfig settings (lr 0.05, weight decay where given, max_iters STEPS)
CASES = {
    "sgd-clip": dict(optimizer="sgd", clip_norm=0.5, weight_decay=0.1),
    "momentum": dict(optimizer="momentum", momentum=0.8, weight_decay=0.1),
    "nesterov": dict(optimizer="momentum", nesterov=True, weight_decay=0.1),
    "adam-betas-eps": dict(optimizer="adam", betas=(0.8, 0.99), eps=1e-3, weight_decay=0.1),
    "rmsprop": dict(optimizer="rmsprop", weight_decay=0.1),
    "rmsprop-momentum": dict(optimizer="rmsprop", momentum=0.5, eps=1e-4),
    "adagrad": dict(optimizer="adagrad", weight_decay=0.1),
    "adagrad-clip-step": dict(optimizer="adagrad", clip_norm=1.0, lr_schedule="step",
                              lr_step=3, lr_gamma=0.5),
    "adam-warmup-cosine": dict(optimizer="adam", lr_schedule="warmup-cosine", warmup=4),
    "momentum-freeze": dict(optimizer="momentum", freeze=("b",), clip_norm=1.0),
}
# the weights W (2×2, row-major) and b (2) after STEPS steps of torch.optim
# (the same optimizer, scheduler and clip_grad_norm_), printed with repr
RECORDED = {
    "sgd-clip": [1.9753888870935135, -2.3221509188741063, 0.3428478142934299, -0.5568993729694927,
                 -0.40078887565536736, -0.15689524832702684],
    "momentum": [2.6013853631491055, -1.031051719801331, -0.21602113501671144, -1.0107600578513027,
                 -0.23238555072080164, 1.046335517032372],
    "nesterov": [2.9057832507150985, -0.3125638054458252, -0.4943150649003084, -1.2691667706452827,
                 -0.10700673782227746, 1.5861061521633546],
    "adam-betas-eps": [2.277285731368269, -1.9689284308218025, 0.22513619939918045,
                       -0.7374737735788021, -0.2506218600833843, 0.11764376226534785],
    "rmsprop": [3.0733010623575727, 0.04633528625991459, -0.598473740109472, -1.0022399518603877,
                0.2980719482749416, 1.2079492031860006],
    "rmsprop-momentum": [5.00723190681136, 2.434313033615155, -1.237519631953873,
                         -1.8606518686125728, 1.3829601478290174, 2.9828696290159824],
    "adagrad": [2.16118554293103, -2.2774601556064433, 0.3104965985306865, -0.622062714298646,
                -0.35565750741105434, -0.05182758386319036],
    "adagrad-clip-step": [2.1290244233738997, -2.385130088991411, 0.4084036705554018,
                          -0.6352935106786268, -0.302870226393401, -0.10864384749981942],
    "adam-warmup-cosine": [2.2677569188785767, -2.300811104906751, 0.3288675621395086,
                           -0.7405643202929842, -0.3085197225394151, -0.017598721738115008],
    "momentum-freeze": [2.7460989508780846, -1.854412025753338, 0.032326970985144525,
                        -0.9143394941498235, -0.45264929211044586, -0.2155971630897659],
}


def start_and_gradients(seed=3):
    """Weights and STEPS gradients of varied size (clipping bites on some steps only)."""
    rng = np.random.default_rng(seed)
    weights = {"W": rng.normal(size=(2, 2)), "b": rng.normal(size=2)}
    grads = [{k: rng.normal(size=v.shape) * rng.uniform(0.05, 1.5) for k, v in weights.items()}
             for _ in range(STEPS)]
    return weights, grads


def config(case: str) -> TrainConfig:
    return TrainConfig(lr=0.05, max_iters=STEPS, **CASES[case])


def ours(case: str) -> list[dict]:
    """Our weights after each step."""
    weights, grads = start_and_gradients()
    state, cfg, out = State({k: v.copy() for k, v in weights.items()}), config(case), []
    for g in grads:
        step(state, g, cfg, np)
        state.iteration += 1
        out.append({k: v.copy() for k, v in state.weights.items()})
    return out


def flat(weights: dict) -> np.ndarray:
    return np.concatenate([weights["W"].ravel(), weights["b"].ravel()])


# ---------------------------------------------------------------- numpy, from torch's docs

def numpy_reference(case: str) -> list[dict]:
    """The same run, the updates written out as torch.optim's documentation
    gives them (each optimizer's pseudo-code, clip_grad_norm_, the schedulers)."""
    cfg = config(case)
    weights, grads = start_and_gradients()
    w = {k: v.copy() for k, v in weights.items()}
    state = {k: {} for k in w}
    out = []
    for t, g in enumerate(grads, start=1):
        g = {k: v for k, v in g.items() if k not in cfg.freeze}
        if cfg.clip_norm:
            total = math.sqrt(sum(float(np.sum(v * v)) for v in g.values()))
            g = {k: v * min(1.0, cfg.clip_norm / (total + 1e-6)) for k, v in g.items()}
        lr = scheduled_lr(cfg, t - 1)
        for k in g:
            w[k] = documented_update(cfg, w[k], g[k], state[k], t, lr)
        out.append({k: v.copy() for k, v in w.items()})
    return out


def scheduled_lr(cfg, i: int) -> float:
    if cfg.lr_schedule == "step":
        return cfg.lr * cfg.lr_gamma ** (i // cfg.lr_step)
    if cfg.lr_schedule == "warmup-cosine":
        if i < cfg.warmup:
            return cfg.lr * (1 / cfg.warmup + (1 - 1 / cfg.warmup) * i / (cfg.warmup - 1))
        span = cfg.max_iters - cfg.warmup
        return cfg.lr * (1 + math.cos(math.pi * (i - cfg.warmup) / span)) / 2
    return cfg.lr


def documented_update(cfg, w, g, s, t, lr):
    lam = cfg.weight_decay
    if cfg.optimizer == "adam":           # AdamW
        b1, b2 = cfg.betas
        w = w - lr * lam * w
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["v"] = b2 * s.get("v", 0) + (1 - b2) * g ** 2
        m_hat, v_hat = s["m"] / (1 - b1 ** t), s["v"] / (1 - b2 ** t)
        return w - lr * m_hat / (np.sqrt(v_hat) + cfg.eps)
    g = g + lam * w
    if cfg.optimizer == "sgd":
        return w - lr * g
    if cfg.optimizer == "momentum":
        s["b"] = g if t == 1 else cfg.momentum * s["b"] + g
        return w - lr * (g + cfg.momentum * s["b"] if cfg.nesterov else s["b"])
    if cfg.optimizer == "rmsprop":
        s["v"] = 0.99 * s.get("v", 0) + 0.01 * g ** 2
        if cfg.momentum > 0:
            s["b"] = cfg.momentum * s.get("b", 0) + g / (np.sqrt(s["v"]) + cfg.eps)
            return w - lr * s["b"]
        return w - lr * g / (np.sqrt(s["v"]) + cfg.eps)
    s["sum"] = s.get("sum", 0) + g ** 2                   # adagrad, lr_decay 0
    return w - lr * g / (np.sqrt(s["sum"]) + cfg.eps)


@pytest.mark.parametrize("case", CASES)
def test_each_step_equals_the_documented_update(case):
    for mine, theirs in zip(ours(case), numpy_reference(case)):
        np.testing.assert_allclose(flat(mine), flat(theirs), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", CASES)
def test_final_weights_equal_those_recorded_from_torch(case):
    np.testing.assert_allclose(flat(ours(case)[-1]), RECORDED[case], rtol=1e-12, atol=1e-14)


def test_frozen_weights_are_kept_exactly():
    weights, _ = start_and_gradients()
    for w in ours("momentum-freeze"):
        np.testing.assert_array_equal(w["b"], weights["b"])
        assert not np.array_equal(w["W"], weights["W"])


# ---------------------------------------------------------------- live torch.optim

def torch_run(torch, case: str) -> list[dict]:
    """The same run in torch.optim: each step's weights."""
    cfg = config(case)
    weights, grads = start_and_gradients()
    params = {k: torch.tensor(v, dtype=torch.float64, requires_grad=k not in cfg.freeze)
              for k, v in weights.items()}
    learned = [p for k, p in params.items() if k not in cfg.freeze]
    optimizer = torch_optimizer(torch, cfg, learned)
    scheduler = torch_scheduler(torch, cfg, optimizer)
    out = []
    for g in grads:
        for k, p in params.items():
            p.grad = None if k in cfg.freeze else torch.tensor(g[k], dtype=torch.float64)
        if cfg.clip_norm:
            torch.nn.utils.clip_grad_norm_(learned, cfg.clip_norm)
        optimizer.step()
        if scheduler:
            scheduler.step()
        out.append({k: p.detach().numpy().copy() for k, p in params.items()})
    return out


def torch_optimizer(torch, cfg, params):
    optim, kw = torch.optim, dict(lr=cfg.lr, weight_decay=cfg.weight_decay)
    return {"sgd": lambda: optim.SGD(params, **kw),
            "momentum": lambda: optim.SGD(params, momentum=cfg.momentum, nesterov=cfg.nesterov,
                                          **kw),
            "adam": lambda: optim.AdamW(params, betas=cfg.betas, eps=cfg.eps, **kw),
            "rmsprop": lambda: optim.RMSprop(params, momentum=cfg.momentum, eps=cfg.eps, **kw),
            "adagrad": lambda: optim.Adagrad(params, eps=cfg.eps, **kw)}[cfg.optimizer]()


def torch_scheduler(torch, cfg, optimizer):
    sched = torch.optim.lr_scheduler
    if cfg.lr_schedule == "step":
        return sched.StepLR(optimizer, step_size=cfg.lr_step, gamma=cfg.lr_gamma)
    if cfg.lr_schedule == "warmup-cosine":
        warm = sched.LinearLR(optimizer, start_factor=1 / cfg.warmup, end_factor=1.0,
                              total_iters=cfg.warmup - 1)
        anneal = sched.CosineAnnealingLR(optimizer, T_max=cfg.max_iters - cfg.warmup)
        return sched.SequentialLR(optimizer, [warm, anneal], milestones=[cfg.warmup])
    return None


@pytest.mark.parametrize("case", CASES)
def test_each_step_equals_torch_optim(case):
    torch = pytest.importorskip("torch", reason="torch is an optional test dependency")
    for mine, theirs in zip(ours(case), torch_run(torch, case)):
        np.testing.assert_allclose(flat(mine), flat(theirs), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", CASES)
def test_the_recorded_weights_are_torchs(case):
    torch = pytest.importorskip("torch", reason="torch is an optional test dependency")
    np.testing.assert_allclose(flat(torch_run(torch, case)[-1]), RECORDED[case], rtol=1e-13)


# ---------------------------------------------------------------- settings

@pytest.mark.parametrize("fields,message", [
    ({"optimizer": "adam", "eps": -1e-8}, "eps (--eps) must be 0 or more, not -1e-08"),
    ({"optimizer": "adam", "betas": (0.9, 1.0)}, "betas (--betas) must each be in [0, 1), "
                                                 "not 1.0"),
    ({"optimizer": "adam", "betas": (-0.1, 0.9)}, "must each be in [0, 1), not -0.1"),
    ({"optimizer": "adam", "betas": (0.9,)}, "betas (--betas) must be two numbers B1,B2"),
    ({"optimizer": "momentum", "momentum": -0.5}, "momentum (--momentum) must be 0 or more"),
    ({"optimizer": "adam", "momentum": 0.5}, "momentum (--momentum) applies to --optimizer "
                                             "momentum or rmsprop, not adam"),
    ({"optimizer": "sgd", "eps": 1e-3}, "eps (--eps) applies to --optimizer adam or rmsprop "
                                        "or adagrad, not sgd"),
    ({"optimizer": "rmsprop", "betas": (0.9, 0.99)}, "applies to --optimizer adam, not rmsprop"),
    ({"nesterov": True}, "nesterov (--nesterov) needs --optimizer momentum"),
    ({"optimizer": "momentum", "momentum": 0.0, "nesterov": True}, "with a --momentum above 0"),
    ({"clip_norm": 0.0}, "clip_norm (--clip-norm) must be above 0, not 0.0"),
    ({"lr_schedule": "step"}, "lr_step (--lr-step) is needed by --lr-schedule step"),
    ({"lr_schedule": "step", "lr_step": 0}, "must be a whole number of iterations, 1 or more"),
    ({"lr_schedule": "step", "lr_step": 5, "lr_gamma": -2.0}, "lr_gamma (--lr-gamma) must "
                                                              "be above 0"),
    ({"lr_gamma": 0.5}, "lr_gamma (--lr-gamma) applies to --lr-schedule step, not constant"),
    ({"warmup": 10}, "warmup (--warmup) applies to --lr-schedule warmup-cosine, not constant"),
    ({"lr_schedule": "warmup-cosine"}, "warmup (--warmup) is needed by --lr-schedule "
                                       "warmup-cosine"),
    ({"lr_schedule": "warmup-cosine", "warmup": 1000}, "must be below --max-iters (1000)"),
])
def test_bad_settings_are_refused_naming_the_option(fields, message):
    with pytest.raises(TenflangError) as err:
        TrainConfig(**fields)
    assert message in err.value.message and err.value.exit_code == 2


def test_defaults_are_torch_optims_for_the_chosen_optimizer():
    assert (TrainConfig(optimizer="momentum").momentum, TrainConfig(optimizer="rmsprop").momentum,
            TrainConfig(optimizer="sgd").momentum) == (0.9, 0.0, None)
    assert TrainConfig(optimizer="adam").betas == (0.9, 0.999)
    assert [TrainConfig(optimizer=o).eps for o in ("adam", "rmsprop", "adagrad", "sgd")] == [
        1e-8, 1e-8, 1e-10, None]
    assert TrainConfig(lr_schedule="step", lr_step=3).lr_gamma == 0.1
    assert TrainConfig(freeze="W1,b1").freeze == ("W1", "b1")


def linear_data(n=48, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    return {"x": x, "y": x @ np.array([2.0, -1.0, 0.5]) + 0.3}


def test_an_unknown_frozen_weight_is_named():
    with pytest.raises(TenflangError, match=r"--freeze names 'W9', which is not a weight of "
                                            r"the GCP; its weights: w, b"):
        train(sample_gcp("linear_regression.tf"), linear_data(), TrainConfig(freeze=("W9",)))
    with pytest.raises(TenflangError, match="--freeze names every weight"):
        train(sample_gcp("linear_regression.tf"), linear_data(), TrainConfig(freeze=("w", "b")))


def test_training_with_each_optimizer_learns_through_the_gcp():
    """End to end: each optimizer fits the linear sample (the loss falls by
    half at least) and a frozen bias stays where --init put it."""
    gcp, data = sample_gcp("linear_regression.tf"), linear_data()
    for fields in CASES.values():
        fields = {k: v for k, v in fields.items() if k != "freeze"}
        result = train(gcp, data, TrainConfig(lr=0.2, max_iters=40, tol=0, **fields))
        assert result.history[-1] < 0.5 * result.history[0], fields
    frozen = train(gcp, data, TrainConfig(lr=0.05, max_iters=40, tol=0, freeze=("b",)),
                   init={"b": np.array(0.7)})
    assert float(frozen.weights["b"]) == 0.7 and frozen.history[-1] < frozen.history[0]
    at_zero = train(gcp, data, TrainConfig(lr=0.05, max_iters=40, tol=0, freeze=("b",)))
    assert float(at_zero.weights["b"]) == 0.0 and at_zero.warnings == []   # not "never learns"


# ---------------------------------------------------------------- the command line

@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("optimizers")
    (root / "linear.tf").write_text(tenflang.print_program(sample_gcp("linear_regression.tf")))
    tenflang.save_examples(str(root / "data.npz"), linear_data())
    (root / "init.txt").write_text("{b: 0.7}\n")
    return root


def tfweightcalc(files, *args):
    return ["tfweightcalc", files / "linear.tf", files / "data.npz", "--max-iters", "20",
            *map(str, args)]


def test_cli_bad_values_exit_2_with_one_message(files):
    cases = [
        (["--optimizer", "adam", "--eps", "-1"], "Invalid value for '--eps': -1.0 is not in the "
                                                 "range x>=0"),
        (["--optimizer", "adam", "--betas", "0.9,1"], "betas (--betas) must each be in [0, 1), "
                                                      "not 1.0"),
        (["--optimizer", "adam", "--betas", "0.9"], "'0.9' is not two numbers B1,B2"),
        (["--optimizer", "adam", "--betas", "a,b"], "'a,b' is not two numbers B1,B2"),
        (["--optimizer", "adam", "--momentum", "0.5"], "momentum (--momentum) applies to "
                                                       "--optimizer momentum or rmsprop, not adam"),
        (["--nesterov"], "nesterov (--nesterov) needs --optimizer momentum"),
        (["--clip-norm", "0"], "Invalid value for '--clip-norm'"),
        (["--lr-schedule", "step"], "lr_step (--lr-step) is needed by --lr-schedule step"),
        (["--warmup", "3"], "warmup (--warmup) applies to --lr-schedule warmup-cosine"),
        (["--lr-schedule", "warmup-cosine", "--warmup", "20"], "must be below --max-iters (20)"),
        (["--freeze", "W9"], "--freeze names 'W9', which is not a weight of the GCP; its "
                             "weights: w, b"),
        (["--freeze", "w,,b"], "'w,,b' is not a list of weight names"),
    ]
    results = run_cli_batch([tfweightcalc(files, *args) for args, _ in cases])
    for (args, message), (code, out, err) in zip(cases, results):
        assert code == 2 and out == "" and "Traceback" not in err, (args, err)
        assert message in err, (args, err)


def test_cli_runs_the_new_optimizers_and_keeps_frozen_weights(files, tmp_path):
    out = tmp_path / "w.txt"
    code, _, err = run_cli(tfweightcalc(
        files, "--optimizer", "rmsprop", "--momentum", "0.5", "--eps", "1e-6", "--clip-norm", "5",
        "--lr-schedule", "warmup-cosine", "--warmup", "5", "--freeze", "b",
        "--init", files / "init.txt", "-o", out))
    assert code == 0, err
    weights = tenflang.load_weights(str(out))
    assert float(weights["b"]) == 0.7 and "20 iterations" in err


@pytest.mark.parametrize("first,changed,message", [
    (["--optimizer", "adam", "--betas", "0.8,0.99"], ["--optimizer", "adam"],
     "--betas 0.8,0.99, not --betas 0.9,0.999"),
    (["--optimizer", "momentum"], ["--optimizer", "momentum", "--nesterov"],
     "no --nesterov, not --nesterov"),
    (["--clip-norm", "1"], [], "--clip-norm 1, not no --clip-norm"),
    (["--freeze", "b"], ["--freeze", "w"], "--freeze b, not --freeze w"),
    (["--lr-schedule", "step", "--lr-step", "3"], ["--lr-schedule", "step", "--lr-step", "4"],
     "--lr-step 3, not --lr-step 4"),
    (["--lr-schedule", "warmup-cosine", "--warmup", "3"],
     ["--lr-schedule", "warmup-cosine", "--warmup", "3", "--max-iters", "30"],
     "--max-iters 10, not --max-iters 30"),
])
def test_a_checkpoint_records_and_checks_the_new_settings(files, tmp_path, first, changed,
                                                          message):
    checkpoint = tmp_path / "ck.npz"
    code, _, err = run_cli(tfweightcalc(files, "--checkpoint", checkpoint, "--max-iters", "10",
                                        *first, "-o", tmp_path / "a.txt"))
    assert code == 0, err
    code, out, err = run_cli(tfweightcalc(files, "--checkpoint", checkpoint, *changed))
    assert code == 2 and f"the checkpoint was written by a run with {message}" in err, err


def test_an_interrupted_rmsprop_run_resumed_equals_the_straight_run(files, tmp_path):
    """Its square averages and momentum buffers travel in the checkpoint."""
    common = ["--optimizer", "rmsprop", "--momentum", "0.5", "--clip-norm", "2",
              "--lr-schedule", "step", "--lr-step", "7", "--batch-size", "16", "--tol", "0"]
    checkpoint = tmp_path / "ck.npz"
    first = run_cli(tfweightcalc(files, *common, "--checkpoint", checkpoint, "--max-iters", "9",
                                 "-o", tmp_path / "a.txt"))
    assert first[0] == 0, first[2]
    resumed = run_cli(tfweightcalc(files, *common, "--checkpoint", checkpoint))
    straight = run_cli(tfweightcalc(files, *common))
    assert resumed[0] == 0 and "at iteration 9" in resumed[2]
    assert resumed[1] == straight[1]
