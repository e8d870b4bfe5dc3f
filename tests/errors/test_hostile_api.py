"""The Python API's edge (tenflang/api/guards.py): a public function called with
wrong types or values raises TenflangError, and nothing else."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tenflang
from tenflang.base.errors import TenflangError

from support.paths import SAMPLES_DIR

SHAPE = tenflang.parse((SAMPLES_DIR / "example_shape.tf").read_text())
GCP = tenflang.compile_gradient(SHAPE)
DATA = {"x": np.array([0.5, 1.0, 2.0]), "y": np.array([0.2, 0.6, 0.9])}
WEIGHTS = {"w": np.array(0.5)}
PLAN = tenflang.make_plan(SHAPE, {"x", "y", "w"})


def baseline(tmp):
    """Each public function with arguments it accepts (by name)."""
    (tmp / "d.txt").write_text("{x: 1, y: 0.5}\n{x: 2, y: 0.7}\n")
    (tmp / "w.txt").write_text("{w: 0.5}\n")
    return {
        "parse": {"text": "declare input x\n", "filename": "p.tf", "shape_program": False},
        "parse_file": {"path": str(SAMPLES_DIR / "example_shape.tf"), "shape_program": True},
        "print_program": {"program": SHAPE},
        "compile_gradient": {"program": SHAPE, "level": 1, "verify": True},
        "evaluate": {"program": SHAPE, "examples": DATA, "weights": WEIGHTS,
                     "dtype": "float64", "results": None},
        "interpret": {"program": SHAPE, "inputs": {"x": 1.0, "y": 0.5, "w": 0.5},
                      "results": None, "dtype": "float64", "batched": False},
        "make_plan": {"program": SHAPE, "available": {"x", "w"}, "results": None},
        "run_plan": {"plan": PLAN, "data": {**DATA, **WEIGHTS}, "dtype": "float64",
                     "reduce": None},
        "format_examples": {"arrays": DATA, "fmt": "txt", "count": None},
        "load_examples": {"path": str(tmp / "d.txt"), "allow_nan": False, "shapes": None,
                          "dtype": "float64"},
        "load_weights": {"path": str(tmp / "w.txt"), "allow_nan": False},
        "save_examples": {"path": str(tmp / "out.txt"), "arrays": DATA, "fmt": None},
        "save_weights": {"path": str(tmp / "wout.txt"), "weights": WEIGHTS, "statistics": None},
        "train": {"gcp": GCP, "examples": DATA, "config": tenflang.TrainConfig(max_iters=2),
                  "init": None},
    }


WRONG = st.sampled_from([
    None, 0, -1, 1.5, math.nan, math.inf, True, "", "abc", "x: 1, y", "}\n{", b"xx", 1 + 2j,
    [], [[1.0], [1.0, 2.0]], ["a", "b"], {}, {"x": "abc"}, {"x": [[1], [1, 2]]},
    {"x: 1, y": [1.0]}, {"w": 1 + 2j}, {"w": None}, {"w": np.ones((2, 2))}, {"x": object()},
    {3: [1.0]}, {"w": np.array(["s"])}, object(), np.array([1 + 1j]), np.ones((2, 3, 4)),
    "float16", "int8", np.float16, ("x", 1), {"x", "nonesuch"}, ["nonesuch"], "/dev/null/x",
    "\0", tenflang.TrainConfig(), SHAPE,
])


PUBLIC = ["parse", "parse_file", "print_program", "compile_gradient", "evaluate", "interpret",
          "make_plan", "run_plan", "format_examples", "load_examples", "load_weights",
          "save_examples", "save_weights", "train"]


@pytest.mark.parametrize("function", PUBLIC)
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_wrong_arguments_raise_tenflang_error_only(tmp_path, monkeypatch, function, data):
    monkeypatch.chdir(tmp_path)          # a wrong value may be a path a writer takes
    args = baseline(tmp_path)[function]
    changed = data.draw(st.lists(st.sampled_from(sorted(args)), min_size=1, max_size=2,
                                 unique=True))
    for name in changed:
        args[name] = data.draw(WRONG)
    try:
        with np.errstate(all="ignore"):
            getattr(tenflang, function)(**args)
    except TenflangError as err:
        err.render()                 # a message that renders (str() never raises)
        str(err)


def test_every_public_function_is_guarded():
    for name in tenflang.__all__:
        value = getattr(tenflang, name)
        if callable(value) and not isinstance(value, type):
            assert hasattr(value, "__wrapped__"), name


@pytest.mark.parametrize("call,message", [
    (lambda: tenflang.evaluate(SHAPE, None, WEIGHTS), "evaluate(): examples must be a dict"),
    (lambda: tenflang.evaluate(SHAPE, {"x": [[1.0], [1.0, 2.0]]}, WEIGHTS),
     "data 'x' is not an array of numbers (lists of different lengths?)"),
    (lambda: tenflang.evaluate(SHAPE, {"x": "abc"}, WEIGHTS), "data 'x' is not an array"),
    (lambda: tenflang.evaluate(SHAPE, DATA, WEIGHTS, dtype="abc"),
     "dtype must be 'float64' or 'float32', not 'abc'"),
    (lambda: tenflang.train(GCP, DATA, None), "train(): config must be a TrainConfig"),
    (lambda: tenflang.load_examples(b"xx"), "load_examples(): path must be a file path"),
    (lambda: tenflang.run_plan(PLAN, DATA), "missing 'w': the plan binds"),
    (lambda: tenflang.save_weights("w.txt", {"w": 1 + 2j}), "holds complex numbers"),
    (lambda: tenflang.save_examples("d.txt", {"x: 1, y": [1.0]}), "not a variable name"),
    (lambda: tenflang.save_examples("d.txt", {"a}\n{b": [1.0]}), "not a variable name"),
])
def test_the_probes_calls(tmp_path, monkeypatch, call, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TenflangError) as caught:
        call()
    assert message in caught.value.message
    assert not list(tmp_path.iterdir())             # nothing written


@pytest.mark.parametrize("settings_,message", [
    ({"lr": -1}, "lr (--lr) must be above 0, not -1"),
    ({"lr": 0}, "lr (--lr) must be above 0"),
    ({"val_fraction": 1.0}, "val_fraction (--val-fraction) must be 0 or more and below 1"),
    ({"val_fraction": 1.5}, "val_fraction (--val-fraction) must be 0 or more and below 1"),
    ({"val_fraction": -0.5}, "val_fraction (--val-fraction) must be 0 or more and below 1"),
    ({"batch_size": 0}, "batch_size (--batch-size) must be 1 or more, a whole number"),
    ({"tol": math.nan}, "tol (--tol) must be 0 or more, not nan"),
    ({"dtype": "int8"}, "dtype (--dtype) must be 'float64' or 'float32', not 'int8'"),
    ({"max_iters": 2.5}, "max_iters (--max-iters) must be 0 or more, a whole number"),
    ({"statistics": "precise"}, "statistics (--statistics) must be 'running' or 'exact' (or "
                                "None: the source's default), not 'precise'"),
    ({"statistics": True}, "statistics (--statistics) must be 'running' or 'exact'"),
    ({"statistics_momentum": 0}, "statistics_momentum (--statistics-momentum) must be above 0 "
                                 "and below 1, not 0"),
    ({"statistics_momentum": "0.1"}, "statistics_momentum (--statistics-momentum) must be above "
                                     "0 and below 1"),
])
def test_train_config_refuses_what_would_misbehave(settings_, message):
    with pytest.raises(TenflangError) as caught:
        tenflang.TrainConfig(**settings_)
    assert message in caught.value.message


@pytest.mark.parametrize("program", [None, 5, b"p.tf", ""])
@pytest.mark.parametrize("estimator", ["Estimator", "Classifier"])
def test_an_estimator_refuses_a_program_that_is_no_path(tmp_path, monkeypatch, program,
                                                        estimator):
    if estimator == "Classifier":
        pytest.importorskip("sklearn")       # its label encoding is scikit-learn's
    monkeypatch.chdir(tmp_path)
    # files named as str() would name them: fitting one of them would be the bug
    for name in ("None", "5", "b'p.tf'"):
        (tmp_path / name).write_text((SAMPLES_DIR / "example_shape.tf").read_text())
    with pytest.raises(TenflangError) as caught:
        getattr(tenflang, estimator)(program).fit(np.ones((3, 1)), np.ones(3))
    assert f"{estimator}(): program" in caught.value.message
    if program != "":
        assert ("must be a Program (tenflang.parse) or the path of a shape program, not "
                f"{type(program).__name__}") in caught.value.message
