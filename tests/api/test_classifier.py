"""tenflang.Classifier against scikit-learn: its own estimator checks, its model
selection (cross_val_score with accuracy on the digits), and its conventions
(classes_, predict_proba, score) checked against numpy written here.

Every check `parametrize_with_checks` yields runs.  A program fixes the number
of features its input takes, so a check that feeds in another number is run
again with a program taking that many (`feature_count`).  Two are skipped by
scikit-learn itself, saying why: `check_array_api_input` (SCIPY_ARRAY_API unset;
the Classifier computes with numpy and does not claim array-API support) and
`check_classifier_data_not_an_array`, whose last part needs pandas (not a
dependency)."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import tenflang
from tenflang.base.errors import TenflangError

sklearn = pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

# softmax regression with class-index labels; {n} features, {k} classes
SOFTMAX = """
declare input x [{n}]
declare exp_output label
declare weight W [{k}, {n}]
declare weight b [{k}]
declare output scores [{k}]
declare output correct
declare loss xent
define scores = add (matmul W x) b
define xent = neg (dot (log_softmax scores) (one_hot label {k}))
define correct = equal (argmax scores) label
"""


def classifier(features: int, classes: int = 4, **settings) -> tenflang.Classifier:
    program = tenflang.parse(SOFTMAX.format(n=features, k=classes), shape_program=True)
    settings = {"optimizer": "adam", "lr": 0.1, "max_iters": 200} | settings
    return tenflang.Classifier(program, output="scores", **settings)


def feature_count(err: BaseException | None) -> int | None:
    """The number of features a check fed in when the program takes another
    number (the program fixes it), found in the error or what caused it."""
    while err is not None:
        found = re.search(r"X has (\d+) features, but the program's input", str(err))
        if isinstance(err, TenflangError) and found:
            return int(found.group(1))
        err = err.__cause__ or err.__context__
    return None


with warnings.catch_warnings():     # "does not inherit from BaseEstimator": by design
    warnings.simplefilter("ignore", UserWarning)
    every_check = parametrize_with_checks([classifier(2)])


@every_check
def test_scikit_learn_estimator_checks(estimator, check):
    """Each check of scikit-learn, with a program taking the number of features
    the check feeds in (a program fixes its input's shape)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tenflang.TrainingWarning)
        try:
            check(estimator)
        except Exception as err:
            features = feature_count(err)
            if features is None:
                raise
            check(classifier(features))


def digits():
    from sklearn.datasets import load_digits
    X, y = load_digits(return_X_y=True)
    return X / 16, y


def test_cross_val_score_accuracy_on_digits():
    """The issue's case: scikit-learn's model selection scores the classifier
    by accuracy (30 adam steps: far above the 10 % of chance)."""
    from sklearn.model_selection import cross_val_score
    X, y = digits()
    model = classifier(64, 10, max_iters=30)
    scores = cross_val_score(model, X, y, scoring="accuracy", cv=3)
    assert len(scores) == 3 and scores.min() > 0.8


def softmax(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_conventions_against_numpy():
    """classes_ are the sorted labels (any labels); predict_proba is the softmax
    of the scores the weights give; predict the label of the largest; score the
    accuracy."""
    X, y = digits()
    names = np.array(["zero", "one", "two", "three", "four", "five", "six", "seven",
                      "eight", "nine"])[y]
    model = classifier(64, 10, max_iters=20).fit(X[:300], names[:300])
    assert list(model.classes_) == sorted(set(names))
    w = model.weights_
    expected = softmax(X[300:400] @ w["W"].T + w["b"])
    np.testing.assert_allclose(model.predict_proba(X[300:400]), expected, rtol=1e-12)
    predicted = model.classes_[expected.argmax(axis=1)]
    assert list(model.predict(X[300:400])) == list(predicted)
    assert model.score(X[300:400], names[300:400]) == np.mean(predicted == names[300:400])


def test_summary_averages_every_output_as_tfevaluate_does():
    """The tensor output too, entry by entry (it was left out, as the CLI once did)."""
    X, y = digits()
    model = tenflang.Estimator(tenflang.parse(SOFTMAX.format(n=64, k=10), shape_program=True),
                               optimizer="adam", lr=0.1, max_iters=20)
    model.fit(X[:300], y[:300].astype(float))
    got = model.summary(X[300:400], y[300:400].astype(float))
    w = model.weights_
    scores = X[300:400] @ w["W"].T + w["b"]
    assert set(got) == {"scores", "correct", "xent"}
    np.testing.assert_allclose(got["scores"], scores.mean(axis=0), rtol=1e-12)
    assert got["correct"] == np.mean(scores.argmax(axis=1) == y[300:400])


PROBABILITIES = """
declare input x [2, 2]
declare exp_output label
declare weight W [3, 4]
declare output p [3]
declare loss xent
define p = softmax (matmul W (flatten x))
define xent = neg (log (dot p (one_hot label 3)))
"""


def test_declared_probabilities_and_image_rows():
    """An output defined by softmax is taken as probabilities (not softmaxed
    again); rows of X are reshaped to the input's shape."""
    program = tenflang.parse(PROBABILITIES, shape_program=True)
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(60, 4)), rng.integers(0, 3, 60)
    model = tenflang.Classifier(program, output="p", max_iters=5).fit(X, y)
    scores = X @ model.weights_["W"].T
    np.testing.assert_allclose(model.predict_proba(X), softmax(scores), rtol=1e-12)


BINARY = """
declare input x [3]
declare exp_output label
declare weight w [3]
declare output s
declare loss nll
define s = dot w x
define nll = sub (softplus s) (mul label s)
"""


def test_binary_scalar_score():
    """A scalar score is a logit for two classes: P(classes_[1]) = logistic(s)."""
    program = tenflang.parse(BINARY, shape_program=True)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 3))
    y = np.where(X @ [1.0, -2.0, 0.5] > 0, 1, -1)
    model = tenflang.Classifier(program, output="s", lr=1, max_iters=50).fit(X, y)
    p = 1 / (1 + np.exp(-(X @ model.weights_["w"])))
    np.testing.assert_allclose(model.predict_proba(X), np.stack([1 - p, p], 1), rtol=1e-12)
    assert list(model.classes_) == [-1, 1] and model.score(X, y) > 0.9


def test_one_label_is_certain_and_dict_inputs_are_checked_as_arrays_are():
    """Fitted on one label, every row of predict_proba is [1] (the scalar score's
    complement was given as that class's probability); NaN in a dictionary's
    array is scikit-learn's ValueError, as in an array X (it trained, then
    diverged)."""
    program = tenflang.parse(BINARY, shape_program=True)
    X = np.random.default_rng(3).normal(size=(20, 3))
    model = tenflang.Classifier(program, output="s", max_iters=20).fit(X, ["yes"] * 20)
    np.testing.assert_array_equal(model.predict_proba(X[:4]), np.ones((4, 1)))
    assert list(model.predict(X[:4])) == ["yes"] * 4
    bad = X.copy()
    bad[3, 1] = np.nan
    for inputs in (bad, {"x": bad}):
        with pytest.raises(ValueError, match="contains NaN"):
            tenflang.Classifier(program, output="s", max_iters=20).fit(inputs, [0, 1] * 10)
    with pytest.raises(ValueError, match="contains NaN"):
        model.predict_proba({"x": bad})


def test_refusals_come_before_training():
    """A bad output, a label-dependent output, one-hot labels or more classes
    than scores are refused by fit before it trains (max_iters=10**9 would
    take hours)."""
    X, y = np.zeros((4, 2)), np.array([0, 1, 2, 3])
    program = classifier(2).program
    cases = [
        (dict(output="p"), "output='p' is not an output of the program; its outputs: "
                           "scores, correct"),
        (dict(output="correct"), "output='correct' reads the expected output 'label', "
                                 "which predict does not have; outputs computed from the "
                                 "inputs alone: scores"),
    ]
    for settings, message in cases:
        for kind in (tenflang.Classifier, tenflang.Estimator):
            with pytest.raises(TenflangError, match=re.escape(message)):
                kind(program, max_iters=10**9, **settings).fit(X, y)
    with pytest.raises(TenflangError, match=re.escape("y has 4 classes, but output 'scores' "
                                                      "gives 3 score(s), one per class")):
        classifier(2, 3, max_iters=10**9).fit(X, y)
    one_hot = tenflang.parse_file("samples/mlp_digits.tf", shape_program=True)
    with pytest.raises(TenflangError, match=re.escape("a Classifier's program has one scalar "
                                                      "exp_output holding the class index "
                                                      "(found: 'y' [10])")):
        tenflang.Classifier(one_hot, output="scores").fit(np.zeros((2, 64)), [0, 1])


def test_predict_never_returns_null():
    """Without output=, predict uses the only output computed from the inputs
    ('scores', not 'correct', which needs the label)."""
    X, y = digits()
    model = tenflang.Estimator(classifier(64, 10).program, max_iters=1)
    model.fit(X[:50], {"label": y[:50].astype(float)})
    assert model.predict(X[:5]).shape == (5, 10)


def test_optimiser_settings_match_tfweightcalc_bit_for_bit(tmp_path):
    """rmsprop with momentum, clipping and a warm-up: the Classifier's weights
    are those tfweightcalc learns from the same examples, to the bit."""
    from support.commands import run_cli
    X, y = digits()
    X, y = X[:200], y[:200]
    program = tmp_path / "softmax.tf"
    program.write_text(SOFTMAX.format(n=64, k=10))
    tenflang.save_examples(str(tmp_path / "digits.npz"), {"x": X, "label": y.astype(float)})
    settings = dict(optimizer="rmsprop", lr=0.01, momentum=0.5, eps=1e-7, clip_norm=1.0,
                    lr_schedule="warmup-cosine", warmup=3, batch_size=32, max_iters=12, tol=0)
    code, _, err = run_cli(["tfweightcalc", program, tmp_path / "digits.npz", "--quiet",
                            "--optimizer", "rmsprop", "--lr", "0.01", "--momentum", "0.5",
                            "--eps", "1e-7", "--clip-norm", "1.0", "--lr-schedule",
                            "warmup-cosine", "--warmup", "3", "--batch-size", "32",
                            "--max-iters", "12", "--tol", "0", "-o", tmp_path / "w.npz"])
    assert code == 0, err
    model = tenflang.Classifier(str(program), output="scores", **settings).fit(X, y)
    want = tenflang.load_weights(str(tmp_path / "w.npz"))
    assert all(np.array_equal(model.weights_[n], w) for n, w in want.items())
