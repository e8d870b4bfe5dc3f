"""What a user meets in a first session, fed in as they fed it: a checkpoint
given as weights, the weights of another program, the numbering of examples
in messages and in the API, `--summary` on a program with a vector output, a
weight no loss uses."""
from __future__ import annotations

import json

import numpy as np
import pytest

import tenflang

from support.paths import ROOT

SAMPLES = ROOT / "samples"
SHAPE = SAMPLES / "example_shape.tf"


@pytest.fixture
def trained(run_cli_batch, tmp_path):
    """The example compiled and trained 40 steps, with a checkpoint."""
    results = run_cli_batch([
        ["tfcompiler", SHAPE, "-o", tmp_path / "gcp.tf"],
        ["tfweightcalc", tmp_path / "gcp.tf", SAMPLES / "example_train.txt", "--lr", "5",
         "--max-iters", "40", "--tol", "0", "-o", tmp_path / "w.txt", "--checkpoint",
         tmp_path / "state.npz"]])
    assert all(code == 0 for code, _, _ in results), results
    return tmp_path


def test_a_checkpoint_is_accepted_as_weights(run_cli_batch, trained):
    """tfevaluate and --init take a checkpoint: the weights it holds."""
    inputs = SAMPLES / "example_inputs.txt"
    (from_weights, from_checkpoint, init) = run_cli_batch([
        ["tfevaluate", SHAPE, inputs, trained / "w.txt"],
        ["tfevaluate", SHAPE, inputs, trained / "state.npz"],
        ["tfweightcalc", trained / "gcp.tf", SAMPLES / "example_train.txt", "--init",
         trained / "state.npz", "--max-iters", "0"]])
    assert from_checkpoint[0] == 0 and from_checkpoint[1] == from_weights[1], from_checkpoint
    assert init[0] == 0, init
    assert tenflang.load_weights(str(trained / "state.npz")) == \
        tenflang.load_weights(str(trained / "w.txt"))


def test_another_programs_weights_name_every_missing_one(run_cli_batch, trained):
    mlp = SAMPLES / "mlp_digits.tf"
    (evaluated, compiled, init) = run_cli_batch([
        ["tfevaluate", mlp, SAMPLES / "digits_test.txt", trained / "w.txt"],
        ["tfcompiler", mlp, "-o", trained / "mlp_gcp.tf"],
        ["tfweightcalc", trained / "mlp_gcp.tf", SAMPLES / "digits_train.txt", "--init",
         trained / "w.txt", "--max-iters", "1"]])
    assert evaluated[0] == 2 and evaluated[1] == ""
    assert f"{trained / 'w.txt'}: error: missing weights 'W1' ([32, 64]), 'b1' ([32]), " \
        "'W2' ([10, 32]), 'b2' ([10]); the file holds 'w', which the program does not " \
        "have: the weights of another program?" in evaluated[2]
    assert compiled[0] == 0 and init[0] == 2
    assert "error: unexpected weight 'w': the program's weights are 'W1', 'b1', 'W2', 'b2'" \
        in init[2]
    with pytest.raises(tenflang.TenflangError, match=r"missing weights 'W1' \(\[32, 64\]\), "
                       r"'b1' \(\[32\]\), 'W2' \(\[10, 32\]\), 'b2' \(\[10\]\); the weights "
                       "given: 'w'"):
        tenflang.evaluate(tenflang.parse_file(str(mlp)), {"x": np.zeros((1, 64))},
                          {"w": np.ones(())})


def test_examples_are_numbered_as_the_api_numbers_them(run_cli_batch, tmp_path):
    """A text file's message gives the line that locate(k) gives; an .npz file's
    names the 0-based index k, the index numpy and locate take."""
    (tmp_path / "w.txt").write_text("{w: 1.7}\n")
    (tmp_path / "in.txt").write_text("# inputs\n{x: 0.5}\n\n{x: nan}\n{x: 1}\n")
    np.savez(tmp_path / "in.npz", x=np.array([0.5, np.nan, 1.0]))
    text, npz = run_cli_batch([["tfevaluate", SHAPE, tmp_path / name, tmp_path / "w.txt"]
                               for name in ("in.txt", "in.npz")])
    bad = int(np.flatnonzero(np.isnan(np.load(tmp_path / "in.npz")["x"]))[0])
    where = tenflang.load_examples(str(tmp_path / "in.txt"), allow_nan=True).locate(bad, "x")
    assert text[0] == 2 and f"in.txt:{where.line}:{where.column}: error: variable 'x' is nan" \
        in text[2]
    assert npz[0] == 2 and f"variable 'x' is nan in example {bad} (0-based)" in npz[2]


SCORES = """
declare input x [3]
declare exp_output label
declare weight W [4, 3]
declare output scores [4]
declare output correct
declare loss xent
define scores = matmul W x
define correct = equal (argmax scores) label
define xent = neg (dot (log_softmax scores) (one_hot label 4))
"""


def test_summary_averages_every_output_vectors_entry_by_entry(run_cli_batch, tmp_path):
    rng = np.random.default_rng(0)
    x, label, W = rng.normal(size=(20, 3)), rng.integers(0, 4, 20), rng.normal(size=(4, 3))
    (tmp_path / "p.tf").write_text(SCORES)
    np.savez(tmp_path / "d.npz", x=x, label=label.astype(float))
    np.savez(tmp_path / "w.npz", W=W)
    (code, out, err), = run_cli_batch([["tfevaluate", tmp_path / "p.tf", tmp_path / "d.npz",
                                        tmp_path / "w.npz", "--summary", "--format", "json"]])
    assert code == 0, err
    scores = x @ W.T
    logp = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
    got = json.loads(out)
    assert got.pop("scores") == pytest.approx(list(scores.mean(axis=0)), rel=1e-12)
    assert got == pytest.approx({
        "correct": np.mean(scores.argmax(axis=1) == label),
        "xent": -np.mean(logp[np.arange(20), label])}, rel=1e-12)
    assert err == ""


UNUSED = """declare input x
declare exp_output y
declare weight w
declare weight v
declare output o
declare output q
declare loss l
define o = mul w x
define q = mul v x
define l = pow (sub o y) 2
"""
NOT_USED = ("weight 'v' is not used by any loss: its gradient is 0, so training leaves it as "
            "it started; use it in a loss, or remove it")


def test_a_weight_no_loss_uses_is_diagnosed_as_such(run_cli_batch, tmp_path):
    (tmp_path / "u.tf").write_text(UNUSED)
    checked, compiled, trained = run_cli_batch([
        ["tenflang", "check", tmp_path / "u.tf"],
        ["tfcompiler", tmp_path / "u.tf", "-o", tmp_path / "g.tf"],
        ["tfweightcalc", tmp_path / "g.tf", SAMPLES / "example_train.txt", "--max-iters", "5",
         "--tol", "0", "-o", tmp_path / "w.txt"]])
    for code, _, err in (checked, compiled):
        assert code == 0 and f"u.tf:4:16: warning: {NOT_USED}" in err, err
    assert trained[0] == 0 and f"warning: {NOT_USED}" in trained[2]
    assert "multiplies only weights" not in trained[2]      # v starts at 0, but that is not why
    program = tenflang.parse(UNUSED, shape_program=True)
    with pytest.warns(tenflang.TrainingWarning, match=NOT_USED):
        tenflang.Estimator(program, output="o", max_iters=3).fit(np.ones(4), np.ones(4))
