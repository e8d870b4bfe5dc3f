"""Every sample trains end to end through the three commands, as the README says.

tfcompiler -> tfweightcalc -> tfevaluate on held-out data; the accuracy of
the classifiers is asserted, against scikit-learn's where the issue asks.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from tenflang.data.vectors import load_examples, load_weights

from support.paths import SAMPLES_DIR


RECIPES = {   # sample -> (training data, tfweightcalc options)
    "example_shape": ("example_train.txt", ["--lr", "5", "--tol", "1e-9"]),
    "linear_regression": ("linear_train.txt", ["--lr", "0.1", "--tol", "1e-10",
                                               "--max-iters", "5000"]),
    "logistic_breast_cancer": ("breast_cancer_train.txt", ["--optimizer", "adam", "--lr", "0.05",
                                                           "--max-iters", "3000", "--tol", "1e-7"]),
    "softmax_digits": ("digits_train.txt", ["--optimizer", "adam", "--lr", "0.05",
                                            "--max-iters", "300"]),
    "mlp_digits": ("digits_train.txt", ["--optimizer", "adam", "--lr", "0.01",
                                        "--max-iters", "400"]),
    # class-index labels, mini-batches of 64 (700 steps ≈ 31 epochs)
    "lenet_digits": ("digit_images_train.txt", ["--optimizer", "adam", "--lr", "0.01",
                                                "--batch-size", "64", "--max-iters", "700"]),
    "rnn_digits": ("digit_images_train.txt", ["--optimizer", "adam", "--lr", "0.01",
                                              "--batch-size", "64", "--max-iters", "1400"]),
    "attention_digits": ("digit_images_train.txt", ["--optimizer", "adam", "--lr", "0.01",
                                                    "--batch-size", "64", "--max-iters", "1400"]),
    # dropout and batch normalisation (docs/design.md §2.3.2); PyTorch's figures for the same
    # nets and settings: bench/torch_samples.py
    "vgg_digits": ("digit_images_train.txt", ["--optimizer", "adam", "--lr", "0.01",
                                              "--batch-size", "64", "--max-iters", "400"]),
    "resnet_digits": ("digit_images_train.txt", ["--optimizer", "adam", "--lr", "0.01",
                                                 "--batch-size", "64", "--max-iters", "200"]),
    "inception_digits": ("digit_images_train.txt", ["--optimizer", "adam", "--lr", "0.01",
                                                    "--batch-size", "64", "--max-iters", "400"]),
    "lstm_digits": ("digit_images_train.txt", ["--optimizer", "adam", "--lr", "0.02",
                                               "--batch-size", "64", "--max-iters", "500"]),
    # 600 steps of 64 windows: about one pass over the 30 000 training windows
    **{name: ("charlm_train.npz", ["--optimizer", "adam", "--lr", "0.01", "--batch-size", "64",
                                   "--max-iters", "600"]) for name in ("charlm", "charlm_scan")},
}


def pipeline(run_cli, tmp_path, name: str):
    data, options = RECIPES[name]
    gcp, weights = tmp_path / "gcp.tf", tmp_path / "weights.txt"
    code, _, err = run_cli(["tfcompiler", SAMPLES_DIR / f"{name}.tf", "-o", gcp])
    assert code == 0, err
    code, _, err = run_cli(["tfweightcalc", gcp, SAMPLES_DIR / data, "-o", weights, *options],
                           timeout=600)
    assert code == 0, err
    return load_weights(str(weights)), weights


def evaluate(run_cli, name, inputs, weights_file) -> list[dict]:
    code, out, err = run_cli(["tfevaluate", SAMPLES_DIR / f"{name}.tf", inputs, weights_file,
                              "--format", "json"])
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_every_sample_has_a_recipe(samples):
    assert {p.stem for p in samples} == set(RECIPES)


def test_original_example_recovers_w(run_cli, tmp_path):
    weights, path = pipeline(run_cli, tmp_path, "example_shape")
    assert abs(weights["w"] - 1.7) < 1e-3
    rows = evaluate(run_cli, "example_shape", SAMPLES_DIR / "example_inputs.txt", path)
    x = load_examples(str(SAMPLES_DIR / "example_inputs.txt")).arrays["x"]
    np.testing.assert_allclose([r["o"] for r in rows], 1 / (1 + np.exp(-1.7 * x)), atol=1e-3)
    assert all(r["lambda"] is None for r in rows)       # no exp_output given: loss is null


def test_linear_regression_recovers_generating_weights(run_cli, tmp_path):
    weights, _ = pipeline(run_cli, tmp_path, "linear_regression")
    np.testing.assert_allclose(weights["w"], [2.0, -1.0, 0.5], atol=1e-6)
    np.testing.assert_allclose(weights["b"], 0.3, atol=1e-6)


def accuracy(rows, key, labels) -> float:
    scores = np.array([r[key] for r in rows])
    if scores.ndim == 1:
        return float(np.mean((scores > 0.5) == labels))
    return float(np.mean(scores.argmax(axis=1) == labels.argmax(axis=1)))


def test_breast_cancer_matches_scikit_learn(run_cli, tmp_path):
    LogisticRegression = pytest.importorskip("sklearn.linear_model").LogisticRegression
    _, path = pipeline(run_cli, tmp_path, "logistic_breast_cancer")
    test = load_examples(str(SAMPLES_DIR / "breast_cancer_test.txt")).arrays
    ours = accuracy(evaluate(run_cli, "logistic_breast_cancer",
                             SAMPLES_DIR / "breast_cancer_test.txt", path), "p", test["y"])
    train = load_examples(str(SAMPLES_DIR / "breast_cancer_train.txt")).arrays
    theirs = LogisticRegression(max_iter=10000).fit(train["x"], train["y"]).score(
        test["x"], test["y"])
    print(f"breast cancer held-out accuracy: tenflang {ours:.4f}, scikit-learn {theirs:.4f}")
    assert abs(ours - theirs) <= 0.01


@pytest.mark.parametrize("name,minimum", [("softmax_digits", 0.93), ("mlp_digits", 0.95)])
def test_digits_accuracy(run_cli, tmp_path, name, minimum):
    _, path = pipeline(run_cli, tmp_path, name)
    test = load_examples(str(SAMPLES_DIR / "digits_test.txt")).arrays
    ours = accuracy(evaluate(run_cli, name, SAMPLES_DIR / "digits_test.txt", path), "scores",
                    test["y"])
    print(f"{name} held-out accuracy: {ours:.4f}")
    assert ours >= minimum


@pytest.mark.slow
@pytest.mark.parametrize("name,minimum", [("lenet_digits", 0.975), ("rnn_digits", 0.96),
                                          ("attention_digits", 0.95), ("vgg_digits", 0.975),
                                          ("resnet_digits", 0.98), ("inception_digits", 0.975),
                                          ("lstm_digits", 0.975)])
def test_networks_on_digit_images(run_cli, tmp_path, name, minimum):
    """The accuracy is the program's own `correct` output, averaged by --summary; it is
    checked here against the labels and the scores the program outputs."""
    _, path = pipeline(run_cli, tmp_path, name)
    data = SAMPLES_DIR / "digit_images_test.txt"
    code, out, err = run_cli(["tfevaluate", SAMPLES_DIR / f"{name}.tf", data, path,
                              "--summary", "--format", "json"])
    assert code == 0, err
    summary = json.loads(out)
    rows = evaluate(run_cli, name, data, path)
    labels = load_examples(str(data)).arrays["label"]
    recomputed = float(np.mean(np.argmax([r["scores"] for r in rows], axis=1) == labels))
    print(f"{name} held-out accuracy: {summary['correct']:.4f}")
    assert summary["correct"] == pytest.approx(recomputed)
    assert summary["correct"] >= minimum
    if name in EXPORTED:
        exported_model_agrees(run_cli, tmp_path, name, path, data)


EXPORTED = {"vgg_digits", "resnet_digits", "inception_digits"}    # dropout, batch statistics


def exported_model_agrees(run_cli, tmp_path, name, weights, data):
    """The trained net as an ONNX model (evaluation mode: population statistics as
    constants, no dropout) gives tfevaluate's scores in onnxruntime."""
    pytest.importorskip("onnxruntime")
    model = tmp_path / f"{name}.onnx"
    code, out, err = run_cli(["tenflang", "export", SAMPLES_DIR / f"{name}.tf", weights,
                              "-o", model, "--verify", data])
    assert code == 0, err
    assert "scores: max relative error" in out and model.exists()
    has_statistics = "# batch statistics" in weights.read_text()
    assert has_statistics == (name == "resnet_digits")


def character_baselines(positions) -> tuple[float, float]:
    """Held-out bits per character of a unigram and of a bigram model (add-one
    smoothing), both counted on every character of the training windows, for
    the characters at `positions` of each held-out window."""
    train = load_examples(str(SAMPLES_DIR / "charlm_train.npz")).arrays["chars"].astype(int)
    test = load_examples(str(SAMPLES_DIR / "charlm_test.txt")).arrays["chars"].astype(int)
    unigram = np.bincount(train.ravel(), minlength=32) + 1.0
    bigram = np.ones((32, 32))
    np.add.at(bigram, (train[:, :-1].ravel(), train[:, 1:].ravel()), 1)
    unigram, bigram = unigram / unigram.sum(), bigram / bigram.sum(axis=1, keepdims=True)
    after, before = test[:, positions], test[:, [p - 1 for p in positions]]
    return -np.mean(np.log2(unigram[after])), -np.mean(np.log2(bigram[before, after]))


@pytest.mark.slow
@pytest.mark.parametrize("name,output,positions", [("charlm", "bits", [16]),
                                                   ("charlm_scan", "bits", list(range(1, 17)))])
def test_character_language_model_beats_the_bigram(run_cli, tmp_path, name, output, positions):
    """A GRU folded over 16 characters of held-out docstring text: its bits per
    character (the program's own output, averaged by --summary) under the
    bigram's, counted on the same training windows, for the same characters."""
    _, path = pipeline(run_cli, tmp_path, name)
    code, out, err = run_cli(["tfevaluate", SAMPLES_DIR / f"{name}.tf",
                              SAMPLES_DIR / "charlm_test.txt", path, "--summary", "--format",
                              "json"])
    assert code == 0, err
    bits = json.loads(out)[output]
    unigram, bigram = character_baselines(positions)
    print(f"{name}: held-out {bits:.3f} bits/char; unigram {unigram:.3f}, bigram {bigram:.3f}")
    assert bits < bigram < unigram
