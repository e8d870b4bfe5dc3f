"""The Python API as a library: every bad argument is a TenflangError that names
the variable and both shapes; the documented signatures are the code's; the
scikit-learn-style Estimator."""
from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import tenflang
from tenflang.base.errors import TenflangError

from support import programs
from support.paths import ROOT

LINEAR = str(ROOT / "samples" / "linear_regression.tf")


@pytest.fixture(scope="module")
def shape():
    return tenflang.parse_file(LINEAR, shape_program=True)


@pytest.fixture(scope="module")
def gcp(shape):
    return tenflang.compile_gradient(shape)


def data(n=6):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3))
    return {"x": x, "y": x @ np.array([2.0, -1.0, 0.5]) + 0.3}


WEIGHTS = {"w": np.array([2.0, -1.0, 0.5]), "b": np.array(0.3)}


def raises(message: str):
    return pytest.raises(TenflangError, match=re.escape(message))


# ---------------------------------------------------------------- evaluate

def test_evaluate_with_a_weight_missing_names_it(shape):
    with raises("missing weight 'b' ([]); the weights given: 'w'"):
        tenflang.evaluate(shape, data(), {"w": WEIGHTS["w"]})


def test_evaluate_with_a_weight_of_the_wrong_shape(shape):
    with raises("weight 'w' has shape (2,), expected [3]"):
        tenflang.evaluate(shape, data(), {**WEIGHTS, "w": np.zeros(2)})


def test_evaluate_with_an_unknown_weight(shape):
    with raises("unexpected weight 'q': the program's weights are 'w', 'b'"):
        tenflang.evaluate(shape, data(), {**WEIGHTS, "q": 1.0})


def test_evaluate_with_data_of_the_wrong_width(shape):
    with raises("data 'x' has shape (6, 4), expected (6, 3): examples of 'x' [3] along a "
                "leading axis"):
        tenflang.evaluate(shape, {"x": np.zeros((6, 4))}, WEIGHTS)


def test_evaluate_without_the_batch_axis(shape):
    with raises("data 'x' has shape (3,) (it has no example axis), expected (N, 3)"):
        tenflang.evaluate(shape, {"x": np.zeros(3)}, WEIGHTS)


def test_evaluate_with_a_missing_input(shape):
    with raises("missing data 'x' (examples of [3]); the data given: 'y'"):
        tenflang.evaluate(shape, {"y": np.zeros(4)}, WEIGHTS)


def test_evaluate_with_different_example_counts(shape):
    with raises("data 'y' has 5 examples but 'x' has 6"):
        tenflang.evaluate(shape, {"x": np.zeros((6, 3)), "y": np.zeros(5)}, WEIGHTS)


def test_evaluate_with_values_that_are_not_numbers(shape):
    with raises("data 'x' is not an array of numbers"):
        tenflang.evaluate(shape, {"x": [["a", "b", "c"]]}, WEIGHTS)


def test_evaluate_without_exp_output_gives_a_null_loss(shape):
    values = tenflang.evaluate(shape, {"x": data()["x"]}, WEIGHTS)
    assert values["sq"] is None
    np.testing.assert_allclose(values["o"], data()["y"], rtol=1e-12)


# ---------------------------------------------------------------- train

def test_train_without_an_exp_output_names_it(gcp):
    with raises("missing data 'y' (examples of []); the data given: 'x'"):
        tenflang.train(gcp, {"x": data()["x"]}, tenflang.TrainConfig())


def test_train_with_data_of_the_wrong_width(gcp):
    with raises("data 'x' has shape (6, 2), expected (6, 3)"):
        tenflang.train(gcp, {**data(), "x": np.zeros((6, 2))}, tenflang.TrainConfig())


def test_train_without_the_batch_axis(gcp):
    with raises("data 'y' has shape () (it has no example axis), expected (N,)"):
        tenflang.train(gcp, {"x": np.zeros((1, 3)), "y": np.float64(1.0)},
                       tenflang.TrainConfig())


def test_train_init_with_a_wrong_shape_or_an_unknown_weight(gcp):
    with raises("weight 'w' has shape (3, 1), expected [3]"):
        tenflang.train(gcp, data(), tenflang.TrainConfig(), init={"w": np.zeros((3, 1))})
    with raises("unexpected weight 'W'"):
        tenflang.train(gcp, data(), tenflang.TrainConfig(), init={"W": np.zeros(3)})


def test_train_takes_config_by_the_documented_name_and_an_examples_object(gcp, tmp_path):
    assert list(inspect.signature(tenflang.train).parameters)[:3] == ["gcp", "examples", "config"]
    tenflang.save_examples(str(tmp_path / "d.npz"), data())
    result = tenflang.train(gcp, tenflang.load_examples(str(tmp_path / "d.npz")),
                            config=tenflang.TrainConfig(max_iters=2))
    assert result.iterations == 2


def test_documented_signatures_match_the_code():
    """Every `tenflang.f(a, b, ...)` written in docs/api.md names f's arguments
    as the code does, in order."""
    text = (ROOT / "docs" / "api.md").read_text()
    calls = re.findall(r"`tenflang\.(\w+)\(([^)`]*)\)`", text)
    assert len(calls) > 10
    for name, args in calls:
        documented = [a.split("=")[0].strip().lstrip("*") for a in args.split(",")
                      if a.strip() and a.strip() != "..."]
        actual = list(inspect.signature(getattr(tenflang, name)).parameters)
        assert documented == actual[:len(documented)], (name, documented, actual)


def test_resume_continues_with_the_optimizers_state(gcp):
    """train(resume=state) continues a run: 10 + 10 adam steps are the 20 steps."""
    from tenflang.training.hooks import Callbacks
    from tenflang.training.loop import Interrupted
    cfg = tenflang.TrainConfig(lr=0.05, optimizer="adam", max_iters=20, tol=0)
    straight = tenflang.train(gcp, data(), cfg)
    calls = iter(range(100))
    with pytest.raises(Interrupted) as stopped:
        tenflang.train(gcp, data(), cfg, hooks=Callbacks(should_stop=lambda: next(calls) == 9))
    resumed = tenflang.train(gcp, data(), cfg, resume=stopped.value.state)
    np.testing.assert_array_equal(resumed.weights["w"], straight.weights["w"])
    assert resumed.history == straight.history


# ---------------------------------------------------------------- Estimator

def test_estimator_fit_predict_score(shape):
    d = data(40)
    model = tenflang.Estimator(LINEAR, lr=0.1, max_iters=5000, tol=1e-10)
    assert model.fit(d["x"], d["y"]) is model
    np.testing.assert_allclose(model.weights_["w"], [2.0, -1.0, 0.5], atol=1e-8)
    np.testing.assert_allclose(model.predict(d["x"][:3]), d["y"][:3], atol=1e-8)
    assert -1e-15 < model.score(d["x"], d["y"]) <= 0
    assert model.summary(d["x"], d["y"])["sq"] == pytest.approx(-model.score(d["x"], d["y"]))
    same = tenflang.train(tenflang.compile_gradient(shape), d,
                          tenflang.TrainConfig(lr=0.1, max_iters=5000, tol=1e-10))
    np.testing.assert_array_equal(model.weights_["w"], same.weights["w"])


def test_estimator_works_with_scikit_learn():
    pytest.importorskip("sklearn")
    from sklearn.base import clone
    from sklearn.model_selection import GridSearchCV, cross_val_score
    d = data(60)
    model = tenflang.Estimator(LINEAR, lr=0.1, max_iters=2000)
    assert clone(model).get_params() == model.get_params()
    scores = cross_val_score(model, d["x"], d["y"], cv=3)
    assert len(scores) == 3 and all(-1e-6 < s <= 0 for s in scores)
    search = GridSearchCV(model, {"max_iters": [1, 2000]}, cv=3).fit(d["x"], d["y"])
    assert search.best_params_ == {"max_iters": 2000}


def test_estimator_errors():
    model = tenflang.Estimator(LINEAR)
    with raises("this Estimator is not fitted yet: call fit(X, y) first"):
        model.predict(np.zeros((2, 3)))
    with raises("Estimator has no parameter 'learning_rate'"):
        model.set_params(learning_rate=0.1)
    with raises("Classifier has no parameter 'learning_rate'"):
        tenflang.Classifier(LINEAR).set_params(learning_rate=0.1)
    with raises("unknown optimizer 'lbfgs'"):
        tenflang.Estimator(LINEAR, optimizer="lbfgs").fit(np.zeros((2, 3)), np.zeros(2))
    with raises("output='p' is not an output of the program; its outputs: o"):
        tenflang.Estimator(LINEAR, output="p", max_iters=1).fit(
            np.zeros((2, 3)), np.zeros(2)).predict(np.zeros((2, 3)))
    with raises("data 'x' has shape (2, 4), expected (2, 3)"):
        model.fit(np.zeros((2, 4)), np.zeros(2))


def test_estimator_takes_every_train_config_setting():
    """The keyword arguments are TrainConfig's fields, with its defaults (docs/api.md):
    the step schedule needs lr_step, so it could not be fitted before."""
    import dataclasses
    params = inspect.signature(tenflang.Estimator.__init__).parameters
    settings = {p.name: p.default for p in params.values() if p.name not in ("self", "program",
                                                                               "output")}
    assert settings == {f.name: f.default if f.default is not dataclasses.MISSING
                        else f.default_factory() for f in dataclasses.fields(tenflang.TrainConfig)}
    d = data(40)
    model = tenflang.Estimator(LINEAR, lr=0.1, max_iters=30, tol=0, lr_schedule="step",
                               lr_step=10, lr_gamma=0.5, optimizer="momentum", momentum=0.5,
                               freeze=("b",)).fit(d["x"], d["y"])
    assert model.weights_["b"] == 0.0 and model.result_.iterations == 30
    same = tenflang.train(tenflang.compile_gradient(model.shape_), d, tenflang.TrainConfig(
        lr=0.1, max_iters=30, tol=0, lr_schedule="step", lr_step=10, lr_gamma=0.5,
        optimizer="momentum", momentum=0.5, freeze=("b",)))
    np.testing.assert_array_equal(model.weights_["w"], same.weights["w"])


def test_estimator_fit_checks_its_arrays_as_train_does():
    x = np.zeros((4, 3))
    with raises("fit(): data 'x' holds complex numbers"):
        tenflang.Estimator(LINEAR).fit(x + 1j, np.zeros(4))
    with raises("fit(): data 'y' is not an array of numbers"):
        tenflang.Estimator(LINEAR).fit(x, np.array(["a", "b", "c", "d"], dtype=object))
    with raises("fit(): weight 'w' holds complex numbers"):
        tenflang.Estimator(LINEAR).fit(x, np.zeros(4), init={"w": np.ones(3) * 1j})
    with raises("data 'x' is inf in example 2 (0-based); NaN and infinity are rejected"):
        tenflang.Estimator(LINEAR).fit(np.where(np.arange(12).reshape(4, 3) == 7, np.inf, 0),
                                       np.zeros(4))


def test_a_fitted_estimator_keeps_the_program_it_read(tmp_path, monkeypatch):
    """A model is what fit learned: editing or removing the file after fit
    changes nothing, and the model pickles without it."""
    import pickle
    path = tmp_path / "model.tf"
    path.write_text(open(LINEAR).read())
    d = data(20)
    model = tenflang.Estimator(str(path), max_iters=200).fit(d["x"], d["y"])
    before = model.predict(d["x"][:3])
    path.write_text(open(LINEAR).read().replace("define o = add", "define o = sub"))
    np.testing.assert_array_equal(model.predict(d["x"][:3]), before)
    copy = pickle.dumps(model)
    path.unlink()
    np.testing.assert_array_equal(pickle.loads(copy).predict(d["x"][:3]), before)


class _Planted:
    """What a hostile pickle holds: unpickling it runs code (here: writes a file)."""
    def __init__(self, mark):
        self.mark = mark

    def __reduce__(self):
        return (open, (str(self.mark), "w"))


def test_the_weights_file_docs_api_offers_instead_of_a_pickle_runs_nothing(tmp_path):
    """docs/api.md warns that unpickling a model runs its author's code and
    offers the weights file instead: a weights file holding a pickled object
    is refused, and the code in it never runs."""
    mark, path = tmp_path / "ran", tmp_path / "w.npz"
    np.savez(path, w=np.array([_Planted(mark)], dtype=object))
    with pytest.raises(TenflangError) as caught:
        tenflang.load_weights(str(path))
    assert "w.npz" in caught.value.render()
    assert not mark.exists()
    assert "unpickle only models you made" in (ROOT / "docs" / "api.md").read_text()


def test_train_refuses_data_tfweightcalc_refuses(gcp):
    """No examples, NaN or infinity (tfweightcalc's --allow-nan: an Examples read
    with allow_nan=True), and a name the GCP does not declare."""
    cfg = tenflang.TrainConfig(max_iters=2)
    with raises("no examples: the data holds 0 examples"):
        tenflang.train(gcp, {"x": np.zeros((0, 3)), "y": np.zeros(0)}, cfg)
    bad = data()
    bad["y"][4] = np.nan
    with raises("data 'y' is nan in example 4 (0-based)"):
        tenflang.train(gcp, bad, cfg)
    with raises("unexpected data 'z': the program's data variables are 'x', 'y'"):
        tenflang.train(gcp, {**data(), "z": np.zeros(6)}, cfg)


def test_names_a_program_does_not_have_are_refused(shape):
    """A misspelt result or optional exp_output would have come back as NULL."""
    weights = {"w": np.ones(3), "b": np.zeros(())}
    with raises("results: 'oo' is not a variable of the program"):
        tenflang.evaluate(shape, data(), weights, results=["oo"])
    with raises("unexpected data 'yy': the program's data variables are 'x', 'y'"):
        tenflang.evaluate(shape, {"x": data()["x"], "yy": data()["y"]}, weights)


def test_estimator_issues_training_warnings():
    program = tenflang.parse(programs.STUCK_PRODUCT, shape_program=True)
    with pytest.warns(tenflang.TrainingWarning) as caught:
        tenflang.Estimator(program, max_iters=3, tol=0).fit(np.ones(4), np.ones(4))
    assert [str(w.message).split("'")[1] for w in caught] == ["a", "v"]
    assert "is still 0 after 3 iterations" in str(caught[0].message)


# every optimiser setting the command line has, as keywords: (Estimator keywords)
OPTIMISER_SETTINGS = [
    {"optimizer": "rmsprop", "lr": 0.01, "momentum": 0.5, "eps": 1e-6},
    {"optimizer": "adagrad", "lr": 0.3, "eps": 1e-9, "weight_decay": 0.01},
    {"optimizer": "momentum", "momentum": 0.8, "nesterov": True, "clip_norm": 0.5},
    {"optimizer": "adam", "lr": 0.05, "betas": (0.8, 0.99), "eps": 1e-7, "freeze": ("b",)},
    {"lr_schedule": "step", "lr_step": 5, "lr_gamma": 0.5, "batch_size": 8, "seed": 3},
    {"optimizer": "adam", "lr_schedule": "warmup-cosine", "warmup": 4, "batch_size": 16},
    {"lr_schedule": "cosine", "val_fraction": 0.25, "patience": 3},
]


def as_options(settings: dict) -> list[str]:
    """`tfweightcalc`'s options for Estimator keywords (`--lr-step 5`, `--betas 0.8,0.99`)."""
    options = []
    for name, value in settings.items():
        option = "--" + name.replace("_", "-")
        if value is True:
            options.append(option)
        elif isinstance(value, tuple):
            options += [option, ",".join(map(str, value))]
        else:
            options += [option, str(value)]
    return options


def test_the_estimator_takes_every_optimiser_setting_and_matches_tfweightcalc_bit_for_bit(
        tmp_path):
    """Each setting of the command line as a keyword: the weights are
    tfweightcalc's, to the bit, on the same data."""
    from support.commands import run_cli_batch
    d = data(48)
    tenflang.save_examples(str(tmp_path / "data.npz"), d)
    common = {"max_iters": 20, "tol": 0}
    runs = run_cli_batch([["tfweightcalc", LINEAR, tmp_path / "data.npz", "--quiet", "-o",
                           tmp_path / f"{k}.npz", *as_options(common | settings)]
                          for k, settings in enumerate(OPTIMISER_SETTINGS)])
    assert all(code == 0 for code, _, _ in runs), runs
    for k, settings in enumerate(OPTIMISER_SETTINGS):
        model = tenflang.Estimator(LINEAR, **common, **settings).fit(d["x"], d["y"])
        want = tenflang.load_weights(str(tmp_path / f"{k}.npz"))
        assert set(model.weights_) == set(want), settings
        for name, value in want.items():
            assert np.array_equal(model.weights_[name], value), (settings, name)
