"""Batch statistics, dropout, and the training and evaluation modes (docs/design.md §2.3.2).

* `dropout_mask`: the kept fraction and scale over many draws, reproducibility by
  seed, independence of two masks (never merged by -O1), the same draw however a
  batch is split, identity in evaluation; gradients through it.
* `batch_mean`: the objective's gradient with the batch coupling against finite
  differences at -O0 and -O1 (a whole-batch objective: the per-example tests of
  tests/compiler/test_gradients.py cannot see the coupling); fused loops equal plain runs.
* Population statistics equal a numpy computation over the training set (one
  forward pass: tests/interpreter/test_population_pass.py); evaluation refuses
  weights without them, naming the statistic.
* PyTorch references (skipped without torch): a ResNet block with batch
  normalisation in training mode (gradients of `BatchNorm2d` in train mode) and in
  evaluation mode with the population statistics.
* Every new error: message, line and exit code.
"""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import tenflang
from tenflang.backprop import adjoint, compile_gradient
from tenflang.interp import evaluate, make_plan, run_plan
from tenflang.interp.runtime.population import levels, population
from tenflang.ops.modes import EVALUATION, Mode

from support.gradcheck import check_gradients

BATCHNORM = """macro batchnorm x gamma beta -> y
  declare intvar c
  declare intvar s
  define c = sub x (batch_mean x)
  define s = sqrt (add (batch_mean (mul c c)) 1e-5)
  define y = add (mul (div c s) gamma) beta
end
"""


def parse(source: str, shape_program=False):
    return tenflang.parse(source, "t.tf", shape_program=shape_program)


def run(source: str, data: dict, mode=Mode(), results=None):
    program = parse(source)
    return run_plan(make_plan(program, set(data), results), data, mode=mode)


MASKS = """declare input x [50, 40]
declare output m
declare output n
define m = dropout_mask x 0.3
define n = dropout_mask x 0.3
"""


# ------------------------------------------------------------------ dropout

def test_dropout_keeps_one_minus_p_scaled_by_its_inverse():
    out = run(MASKS, {"x": np.zeros((20, 50, 40))})
    m = out["m"]
    assert set(np.unique(m)) == {0.0, 1 / 0.7}
    kept = (m > 0).mean()                          # 40 000 draws: σ ≈ 0.0023
    assert abs(kept - 0.7) < 0.01
    assert abs(m.mean() - 1.0) < 0.015             # the scale keeps the expectation


def test_two_masks_are_independent_and_never_merged():
    out = run(MASKS, {"x": np.zeros((20, 50, 40))})
    a, b = (out["m"] > 0).ravel(), (out["n"] > 0).ravel()
    assert (a != b).any()
    assert abs((a & b).mean() - 0.49) < 0.01       # P(both kept) = 0.7²
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.02
    gcp = tenflang.print_program(compile_gradient(parse("""declare input x [3]
declare weight w [3]
declare intvar h [3]
declare intvar m1 [3]
declare intvar m2 [3]
declare loss l
define h = mul w x
define m1 = dropout_mask h 0.5
define m2 = dropout_mask h 0.5
define l = sum (mul (mul h m1) m2)
""", True), 1))
    assert "define m1 = dropout_mask h 0.5" in gcp and "define m2 = dropout_mask h 0.5" in gcp


def test_dropout_is_reproducible_by_seed_and_keyed_by_iteration():
    data = {"x": np.zeros((6, 50, 40))}
    first = run(MASKS, data, Mode(seed=3, iteration=7))["m"]
    np.testing.assert_array_equal(first, run(MASKS, data, Mode(seed=3, iteration=7))["m"])
    assert (first != run(MASKS, data, Mode(seed=4, iteration=7))["m"]).any()
    assert (first != run(MASKS, data, Mode(seed=3, iteration=8))["m"]).any()


def test_dropout_is_the_same_however_the_batch_is_split():
    """An example's mask depends on its index in the data set, not on its batch."""
    rows = np.array([5, 17, 2, 9, 30, 11])
    whole = run(MASKS, {"x": np.zeros((6, 50, 40))}, Mode(seed=1, iteration=2, rows=rows))["m"]
    for part in (slice(0, 2), slice(2, 6)):
        alone = run(MASKS, {"x": np.zeros((len(rows[part]), 50, 40))},
                    Mode(seed=1, iteration=2, rows=rows[part]))["m"]
        np.testing.assert_array_equal(alone, whole[part])


def test_dropout_is_identity_in_evaluation():
    out = run(MASKS, {"x": np.zeros((3, 50, 40))}, EVALUATION)
    np.testing.assert_array_equal(out["m"], np.ones((3, 50, 40)))


def test_dropout_of_a_weight_draws_per_example():
    source = "declare input u\ndeclare weight w [30]\ndeclare output m\n" \
             "define m = dropout_mask w 0.5\n"
    m = run(source, {"u": np.zeros(4), "w": np.ones(30)})["m"]
    assert m.shape == (4, 30) and (m[0] != m[1]).any()


@pytest.mark.parametrize("level", [0, 1])
def test_dropout_gradients(level):
    source = """declare input x [6]
declare weight W [4, 6]
declare weight v [4]
declare intvar h [4]
declare loss l
define h = tanh (matmul W x)
define l = dot v (mul h (dropout_mask h 0.4))
"""
    rng = np.random.default_rng(2)
    check_gradients(source, {"x": rng.normal(size=(5, 6))},
                    {"W": rng.normal(size=(4, 6)), "v": rng.normal(size=4)})


# ------------------------------------------------------------------ batch_mean

BN_NET = BATCHNORM + """declare input x [3]
declare exp_output t
declare weight W [4, 3]
declare weight g [4]
declare weight b [4]
declare weight v [4]
declare intvar h [4]
declare intvar z [4]
declare output o
declare loss l
define h = batchnorm (matmul W x) g b
define z = tanh h
define o = dot v (mul z (dropout_mask z 0.3))
define l = pow (sub o t) 2
"""


def bn_data(n=7, seed=0):
    rng = np.random.default_rng(seed)
    return ({"x": rng.normal(size=(n, 3)), "t": rng.normal(size=n)},
            {"W": rng.normal(size=(4, 3)), "g": rng.normal(size=4) + 1,
             "b": rng.normal(size=4), "v": rng.normal(size=4)})


def test_batch_mean_gradients_with_the_batch_coupling():
    """The mean objective over the whole batch (every example's normalisation
    depends on all of them), differentiated numerically, at -O0 and -O1."""
    data, weights = bn_data()
    check_gradients(BN_NET, data, weights)


def test_batch_mean_of_a_weight_and_of_a_sum():
    source = """declare input x [2]
declare weight w [2]
declare intvar a [2]
declare loss l
define a = add (batch_mean w) (batch_mean (mul x w))
define l = sum (mul a (mul x x))
"""
    rng = np.random.default_rng(4)
    check_gradients(source, {"x": rng.normal(size=(5, 2))}, {"w": rng.normal(size=2)})


def test_batch_mean_is_the_mean_over_the_batch():
    source = "declare input x [3]\ndeclare output m\ndefine m = batch_mean x\n"
    x = np.random.default_rng(1).normal(size=(5, 3))
    np.testing.assert_allclose(run(source, {"x": x})["m"], np.broadcast_to(x.mean(0), (5, 3)))


def test_fused_loops_do_not_cross_a_batch_mean(env_switch):
    """At 1 000 examples and more, elementwise chains run as fused loops: a
    chain around `batch_mean` gives what the plain run gives."""
    data, weights = bn_data(n=1200, seed=5)
    gcp = compile_gradient(parse(BN_NET, True))
    names = [adjoint(w) for w in weights]
    plan = make_plan(gcp, set(data) | set(weights), names + ["l"])
    fused = run_plan(plan, {**data, **weights}, reduce="mean")
    env_switch("TENFLANG_FUSE", "0")
    plain = run_plan(plan, {**data, **weights}, reduce="mean")
    for name in names + ["l"]:
        np.testing.assert_allclose(fused[name], plain[name], rtol=1e-10, atol=1e-12)


# ------------------------------------------------------------------ population statistics

def test_population_statistics_equal_numpy_over_the_training_set():
    data, weights = bn_data(n=300, seed=1)
    program = parse(BN_NET, True)
    assert [[d.name for d in level] for level in levels(program)] == [["h.c.1"], ["h.s.2"]]
    stats = population(program, data, weights, chunk=128)      # three chunks per pass
    h = data["x"] @ weights["W"].T
    mean = h.mean(axis=0)
    np.testing.assert_allclose(stats["h.c.1"], mean, rtol=1e-12)
    np.testing.assert_allclose(stats["h.s.2"], ((h - mean) ** 2).mean(axis=0), rtol=1e-12)
    # the GCP has the same statistics, by the same names
    gcp_stats = population(compile_gradient(program), data, weights)
    assert list(gcp_stats) == list(stats)
    np.testing.assert_allclose(gcp_stats["h.s.2"], stats["h.s.2"], rtol=1e-12)


def test_evaluation_uses_the_population_values():
    """Each example's outputs are its own: the same alone as in any batch."""
    data, weights = bn_data(n=50, seed=2)
    program = parse(BN_NET, True)
    stats = population(program, data, weights)
    together = evaluate(program, data, {**weights, **stats})["o"]
    alone = [evaluate(program, {k: v[i:i + 1] for k, v in data.items()},
                      {**weights, **stats})["o"][0] for i in range(3)]
    np.testing.assert_allclose(alone, together[:3], rtol=1e-12)
    h = data["x"] @ weights["W"].T
    y = (h - stats["h.c.1"]) / np.sqrt(stats["h.s.2"] + 1e-5) * weights["g"] + weights["b"]
    np.testing.assert_allclose(together, np.tanh(y) @ weights["v"], rtol=1e-12)


# ------------------------------------------------------------------ errors and the CLIs

DROPOUT_LINE = """declare input x [3]
declare weight w [3]
declare weight q
declare intvar h [3]
declare loss l
define h = mul w x
define l = sum (mul h (dropout_mask h {p}))
"""


@pytest.mark.parametrize("p,message", [
    ("1", "'dropout_mask' operand 'p' must be at least 0 and less than 1, got 1"),
    ("1.5", "'dropout_mask' operand 'p' must be at least 0 and less than 1, got 1.5"),
    ("-0.1", "'dropout_mask' operand 'p' must be at least 0 and less than 1, got -0.1"),
    ("q", "'dropout_mask' operand 'p' must be a number literal, not the name 'q'"),
    ("(mul q 0.5)", "'dropout_mask' operand 'p' must be a number literal, not an expression"),
])
def test_dropout_probability_errors(run_cli, tmp_path, p, message):
    path = tmp_path / "drop.tf"
    path.write_text(DROPOUT_LINE.format(p=p))
    code, out, err = run_cli(["tfcompiler", path])
    assert code == 2 and out == ""
    column = len("define l = sum (mul h (dropout_mask h ") + 1
    assert f"drop.tf:7:{column}: error: {message}" in err, err
    assert "Traceback" not in err


def write_bn(tmp_path, n=40):
    data, weights = bn_data(n=n, seed=3)
    (tmp_path / "bn.tf").write_text(BN_NET)
    tenflang.save_examples(str(tmp_path / "d.txt"), data)
    program = parse(BN_NET, True)
    stats = population(program, data, weights)
    tenflang.save_weights(str(tmp_path / "w.txt"), weights)                  # no statistics
    from tenflang.data.vectors import save_weights
    save_weights(str(tmp_path / "ws.txt"), weights, stats)
    save_weights(str(tmp_path / "ws.npz"), weights, stats)
    return data, weights, stats


def test_weights_file_holds_the_statistics_after_the_weights(tmp_path):
    _, weights, stats = write_bn(tmp_path)
    lines = (tmp_path / "ws.txt").read_text().splitlines()
    names = [line.split(":")[0].strip() for line in lines[1:-1]]
    assert names == list(weights) + ["# batch statistics"] + list(stats)
    for path in ("ws.txt", "ws.npz"):
        back = tenflang.load_weights(str(tmp_path / path))
        assert list(back) == list(weights) + list(stats)
        np.testing.assert_array_equal(back["h.s.2"], stats["h.s.2"])


def test_evaluation_refuses_weights_without_statistics(run_cli, tmp_path):
    write_bn(tmp_path)
    commands = [["tfevaluate", tmp_path / "bn.tf", tmp_path / "d.txt", tmp_path / "w.txt"]]
    if importlib.util.find_spec("onnx"):           # export is an optional extra
        commands.append(["tenflang", "export", tmp_path / "bn.tf", tmp_path / "w.txt",
                         "-o", tmp_path / "m.onnx"])
    for command in commands:
        code, out, err = run_cli(command)
        assert code == 2 and out == "", err
        assert ("bn.tf:4:20: error: the weights have no batch statistic 'h.c.1' (the population "
                "value of this `batch_mean`") in err, err
        assert "in the expansion of this macro call" in err and "Traceback" not in err
    with pytest.raises(tenflang.TenflangError, match="no batch statistic 'h.c.1'"):
        data, weights = bn_data()
        evaluate(parse(BN_NET), data, weights)


def test_a_statistic_of_the_wrong_shape_is_reported_at_its_line(run_cli, tmp_path):
    _, weights, stats = write_bn(tmp_path)
    from tenflang.data.vectors import save_weights
    name = "h.s.2"
    save_weights(str(tmp_path / "bad.txt"), weights, {**stats, name: np.ones(7)})
    save_weights(str(tmp_path / "bad.npz"), weights, {**stats, name: np.ones(7)})
    line = 1 + next(i for i, text in enumerate(
        (tmp_path / "bad.txt").read_text().splitlines()) if text.strip().startswith(name))
    expected = f"'{name}' has shape [7], expected {list(stats[name].shape)}"
    for path, where in (("bad.txt", f"bad.txt:{line}:3: "), ("bad.npz", "bad.npz: ")):
        for command in (["tfevaluate", tmp_path / "bn.tf", tmp_path / "d.txt", tmp_path / path],
                        ["tenflang", "export", tmp_path / "bn.tf", tmp_path / path,
                         "-o", tmp_path / "m.onnx"]):
            code, out, err = run_cli(command)
            assert code == 2 and out == "", err
            assert f"{where}error: batch statistic {expected}" in err, err
    assert not (tmp_path / "m.onnx").exists()


def test_tfevaluate_uses_the_statistics_or_evaluates_as_in_training(run_cli, tmp_path):
    import json
    data, weights, stats = write_bn(tmp_path)
    expected = evaluate(parse(BN_NET), data, {**weights, **stats})["o"]
    for path in ("ws.txt", "ws.npz"):
        code, out, err = run_cli(["tfevaluate", tmp_path / "bn.tf", tmp_path / "d.txt",
                                  tmp_path / path, "--format", "json"])
        assert code == 0, err
        got = [json.loads(line)["o"] for line in out.splitlines()]
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    runs = {}
    for seed in ("0", "0", "5"):
        code, out, err = run_cli(["tfevaluate", tmp_path / "bn.tf", tmp_path / "d.txt",
                                  tmp_path / "w.txt", "--training", "--seed", seed,
                                  "--format", "json"])
        assert code == 0, err
        runs.setdefault(seed, []).append([json.loads(line)["o"] for line in out.splitlines()])
    assert runs["0"][0] == runs["0"][1] and runs["0"][0] != runs["5"][0]
    in_training = evaluate(parse(BN_NET), data, weights, mode=Mode(seed=5))["o"]
    np.testing.assert_allclose(runs["5"][0], in_training, rtol=1e-12)


# ------------------------------------------------------------------ PyTorch references

RESNET_BLOCK = """macro batchnorm2d x gamma beta channels -> y
  declare intvar c
  declare intvar s
  define c = sub x (reshape (batch_mean (mean (mean x 2) 1)) channels)
  define s = sqrt (add (reshape (batch_mean (mean (mean (mul c c) 2) 1)) channels) 1e-5)
  define y = add (mul (div c s) gamma) beta
end

declare input x [3, 6, 6]
declare input r [3, 6, 6]
declare weight K1 [3, 3, 3, 3]
declare weight K2 [3, 3, 3, 3]
declare weight g1 [3, 1, 1]
declare weight b1 [3, 1, 1]
declare weight g2 [3, 1, 1]
declare weight b2 [3, 1, 1]
declare intvar h [3, 6, 6]
declare output out [3, 6, 6]
declare loss l
define h = relu (batchnorm2d (conv2d x K1 1 1) g1 b1 [3, 1, 1])
define out = relu (add x (batchnorm2d (conv2d h K2 1 1) g2 b2 [3, 1, 1]))
define l = sum (mul out r)
"""


def block_data(n=8):
    rng = np.random.default_rng(11)
    data = {"x": rng.normal(size=(n, 3, 6, 6)), "r": rng.normal(size=(n, 3, 6, 6))}
    weights = {"K1": rng.normal(size=(3, 3, 3, 3)) * 0.4, "K2": rng.normal(size=(3, 3, 3, 3)) * 0.4,
               "g1": 1 + 0.2 * rng.normal(size=(3, 1, 1)), "b1": 0.2 * rng.normal(size=(3, 1, 1)),
               "g2": 1 + 0.2 * rng.normal(size=(3, 1, 1)), "b2": 0.2 * rng.normal(size=(3, 1, 1))}
    return data, weights


def torch_block(torch, weights):
    nn = torch.nn
    convs = [nn.Conv2d(3, 3, 3, padding=1, bias=False).double() for _ in range(2)]
    norms = [nn.BatchNorm2d(3, eps=1e-5).double() for _ in range(2)]
    with torch.no_grad():
        for k, (conv, norm) in enumerate(zip(convs, norms), start=1):
            conv.weight.copy_(torch.from_numpy(weights[f"K{k}"]))
            norm.weight.copy_(torch.from_numpy(weights[f"g{k}"].ravel()))
            norm.bias.copy_(torch.from_numpy(weights[f"b{k}"].ravel()))

    def forward(x):
        h = torch.relu(norms[0](convs[0](x)))
        return torch.relu(x + norms[1](convs[1](h)))
    return convs, norms, forward


@pytest.mark.parametrize("level", [0, 1])
def test_resnet_block_gradients_equal_batchnorm2d_in_training_mode(level):
    torch = pytest.importorskip("torch")
    data, weights = block_data()
    gcp = compile_gradient(parse(RESNET_BLOCK, True), level)
    names = [adjoint(w) for w in weights]
    ours = run_plan(make_plan(gcp, set(data) | set(weights), names),
                    {**data, **weights}, reduce="mean")
    convs, norms, forward = torch_block(torch, weights)
    x, r = (torch.from_numpy(data[k]) for k in ("x", "r"))
    ((forward(x) * r).sum() / len(x)).backward()        # the mean over the examples
    theirs = {"K1": convs[0].weight.grad, "K2": convs[1].weight.grad,
              "g1": norms[0].weight.grad, "b1": norms[0].bias.grad,
              "g2": norms[1].weight.grad, "b2": norms[1].bias.grad}
    for name, grad in theirs.items():
        np.testing.assert_allclose(ours[adjoint(name)].reshape(-1), grad.numpy().reshape(-1),
                                   rtol=1e-9, atol=1e-11, err_msg=name)


def test_resnet_block_with_population_statistics_equals_batchnorm2d_in_evaluation_mode():
    torch = pytest.importorskip("torch")
    data, weights = block_data(n=40)
    program = parse(RESNET_BLOCK, True)
    stats = population(program, data, weights)
    assert len(stats) == 4 and len(levels(program)) == 4     # each needs the one before
    convs, norms, forward = torch_block(torch, weights)
    means = [stats[n] for n in stats if n.endswith(".c.3")]
    variances = [stats[n] for n in stats if n.endswith(".s.4")]
    with torch.no_grad():
        for norm, mean, var in zip(norms, means, variances):
            norm.running_mean.copy_(torch.from_numpy(mean))
            norm.running_var.copy_(torch.from_numpy(var))
        x = torch.from_numpy(data["x"])
        for module in (*convs, *norms):
            module.eval()
        expected = forward(x).numpy()
    got = evaluate(program, data, {**weights, **stats})["out"]
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
    # and the population values are PyTorch's batch statistics over all the examples
    with torch.no_grad():
        h = convs[0](x)
    np.testing.assert_allclose(means[0], h.mean(dim=(0, 2, 3)).numpy(), rtol=1e-10)


# ------------------------------------------------------------------ training

def train_cli(run_cli, tmp_path, *options):
    data, _ = bn_data(n=60, seed=6)
    (tmp_path / "bn.tf").write_text(BN_NET)
    tenflang.save_examples(str(tmp_path / "d.txt"), data)
    code, _, err = run_cli(["tfcompiler", tmp_path / "bn.tf", "-o", tmp_path / "g.tf"])
    assert code == 0, err
    return run_cli(["tfweightcalc", tmp_path / "g.tf", tmp_path / "d.txt", "--optimizer", "adam",
                    "--lr", "0.05", "--batch-size", "16", "--tol", "0", *options]), data


def test_training_writes_the_population_statistics(run_cli, tmp_path):
    """After the weights, under `# batch statistics`: the population values over
    every training example with the final weights, as numpy computes them
    (--statistics exact; running averages: tests/training/test_statistics_choice.py)."""
    (code, _, err), data = train_cli(run_cli, tmp_path, "--max-iters", "12", "--statistics",
                                     "exact", "-o", tmp_path / "w.txt")
    assert code == 0, err
    text = (tmp_path / "w.txt").read_text()
    assert text.index("# batch statistics") > text.index("W:")
    values = tenflang.load_weights(str(tmp_path / "w.txt"))
    h = data["x"] @ values["W"].T
    np.testing.assert_allclose(values["h.c.1"], h.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(values["h.s.2"], h.var(axis=0), rtol=1e-10)
    code, out, err = run_cli(["tfevaluate", tmp_path / "bn.tf", tmp_path / "d.txt",
                              tmp_path / "w.txt", "--summary"])
    assert code == 0 and "l:" in out, err


@pytest.mark.parametrize("statistics", ["running", "exact"])
def test_a_resumed_run_takes_the_same_steps_with_dropout_and_batch_statistics(run_cli, tmp_path,
                                                                             statistics):
    """The running averages continue from the checkpoint's (the last values it
    held), the exact ones are computed again: the same either way."""
    (code, straight, err), _ = train_cli(run_cli, tmp_path, "--max-iters", "11",
                                         "--statistics", statistics)
    assert code == 0, err
    checkpoint = tmp_path / "ck.npz"
    (code, _, err), _ = train_cli(run_cli, tmp_path, "--max-iters", "5", "--statistics",
                                  statistics, "--checkpoint", checkpoint, "--checkpoint-every", "2")
    assert code == 0, err
    saved = np.load(checkpoint)
    assert {"t:h.c.1", "t:h.s.2"} <= set(saved.files)       # the checkpoint's statistics
    (code, resumed, err), _ = train_cli(run_cli, tmp_path, "--max-iters", "11", "--statistics",
                                        statistics, "--checkpoint", checkpoint)
    assert code == 0 and "iteration 5" in err, err
    assert resumed == straight and "# batch statistics" in straight


# ------------------------------------------------------------------ validation and kept weights

def test_validation_is_taken_in_evaluation_mode():
    """The validation loss and metrics are tfevaluate's for the same weights and
    examples (Keras' and PyTorch's `eval()`): dropout off, the batch statistics
    at their population values over the training examples, not the
    validation split's own means."""
    from tenflang.training.sampling import split
    from tenflang.training.watch import validation_metrics
    data, weights = bn_data(n=40, seed=7)
    program = parse(BN_NET, True)
    cfg = tenflang.TrainConfig(lr=0.01, max_iters=3, tol=0, val_fraction=0.25, seed=5,
                               statistics="exact")
    result = tenflang.train(compile_gradient(program), data, cfg, init=weights)
    train_rows, val_rows = split(40, 0.25, 5)
    pick = lambda rows: {k: v[rows] for k, v in data.items()}     # noqa: E731
    stats = population(program, pick(train_rows), result.weights)
    for name, value in stats.items():
        np.testing.assert_allclose(result.statistics[name], value, rtol=1e-12)
    expected = evaluate(program, pick(val_rows), {**result.weights, **stats})
    assert result.val_loss == pytest.approx(float(expected["l"].mean()), rel=1e-12)
    metrics = validation_metrics(program, data, cfg)(result.weights, stats)
    assert metrics["o"] == pytest.approx(float(expected["o"].mean()), rel=1e-12)


@pytest.mark.parametrize("stop", ["interrupted", "diverged"])
def test_a_failed_run_keeps_the_statistics_of_the_weights_it_keeps(stop):
    """Ctrl-C, or divergence: the weights kept can be evaluated (they used to
    come without their population values, and tfevaluate refused them)."""
    from tenflang.training.hooks import Callbacks
    from tenflang.training.loop import Diverged, Interrupted
    data, weights = bn_data(n=40, seed=9)
    program = parse(BN_NET, True)
    if stop == "interrupted":
        cfg, hooks, error = (tenflang.TrainConfig(lr=0.01, max_iters=50, tol=0,
                                                  statistics="exact"),
                             Callbacks(should_stop=lambda: True), Interrupted)
    else:
        cfg, hooks, error = (tenflang.TrainConfig(lr=1e300, max_iters=50, tol=0,
                                                  statistics="exact"), None, Diverged)
    with pytest.raises(error) as failure:
        tenflang.train(compile_gradient(program), data, cfg, hooks=hooks, init=weights)
    kept = failure.value.state
    assert kept.iteration == 1 or stop == "diverged"
    with np.errstate(all="ignore"):         # the last good weights of a divergence are huge
        stats = population(program, data, kept.weights)
    assert list(kept.statistics) == ["h.c.1", "h.s.2"]
    for name, value in stats.items():
        np.testing.assert_allclose(kept.statistics[name], value, rtol=1e-12)


def test_kept_weights_are_written_with_their_statistics(tmp_path, monkeypatch):
    """-o, and the rescue file when -o cannot be written, hold the statistics."""
    from tenflang.training import rescue
    from tenflang.training.state import State
    _, weights, stats = write_bn(tmp_path)
    state = State(weights, statistics=stats)
    kept, failed = rescue.keep_weights(state, str(tmp_path / "out.txt"), None,
                                       tenflang.TrainConfig())
    assert kept == [str(tmp_path / "out.txt")] and not failed
    monkeypatch.chdir(tmp_path)
    kept, failed = rescue.keep_weights(state, "/dev/full", None, tenflang.TrainConfig())
    assert len(failed) == 1 and kept[0].startswith(str(tmp_path / "tfweightcalc-rescue-"))
    for path in (tmp_path / "out.txt", kept[0]):
        back = tenflang.load_weights(str(path))
        assert list(back) == list(weights) + list(stats)
        np.testing.assert_array_equal(back["h.s.2"], stats["h.s.2"])


def test_init_and_tfevaluate_take_what_tfweightcalc_writes(run_cli, tmp_path):
    """A weights file with its statistics, or a checkpoint, starts another run
    (--init; the statistics are left to the new run) and is evaluated (the
    checkpoint's statistics are read with its weights)."""
    (code, _, err), data = train_cli(run_cli, tmp_path, "--max-iters", "4", "-o",
                                     tmp_path / "w.txt", "--checkpoint", tmp_path / "ck.npz")
    assert code == 0, err
    for init in ("w.txt", "ck.npz"):
        (code, _, err), _ = train_cli(run_cli, tmp_path, "--max-iters", "2", "--init",
                                      tmp_path / init, "-o", tmp_path / "again.txt")
        assert code == 0 and "unexpected" not in err, err
    outputs = []
    for weights in ("w.txt", "ck.npz"):
        code, out, err = run_cli(["tfevaluate", tmp_path / "bn.tf", tmp_path / "d.txt",
                                  tmp_path / weights])
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1]


def test_a_drop_probability_float32_rounds_to_1_is_a_clear_error(run_cli, tmp_path):
    (tmp_path / "d.tf").write_text(DROPOUT_LINE.format(p="0.99999999999"))
    tenflang.save_examples(str(tmp_path / "d.txt"), {"x": np.ones((2, 3))})
    code, out, err = run_cli(["tfweightcalc", tmp_path / "d.tf", tmp_path / "d.txt",
                              "--dtype", "float32", "--max-iters", "2", "-o", tmp_path / "w.txt"])
    assert code == 2 and out == "", err
    assert ("error: dropout_mask: the drop probability is 1 in float32, which would drop every "
            "entry") in err and "Traceback" not in err
    assert not (tmp_path / "w.txt").exists()


def test_tfevaluate_refuses_a_seed_without_training(run_cli, tmp_path):
    """--seed only seeds the dropout of --training; alone it would do nothing."""
    write_bn(tmp_path)
    code, out, err = run_cli(["tfevaluate", tmp_path / "bn.tf", tmp_path / "d.txt",
                              tmp_path / "ws.txt", "--seed", "3"])
    assert code == 2 and out == "", err
    assert "error: --seed needs --training" in err and "Traceback" not in err
