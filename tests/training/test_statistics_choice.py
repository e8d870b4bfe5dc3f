"""Which values of the batch statistics a run keeps (TrainConfig.statistics,
--statistics; docs/guide/training.md, "Batch statistics").

* running: the averages equal numpy's r ← (1 − m)·r + m·b over the batches
  the steps drew, b each batch's mean and variance at the weights of its step;
  the default in one process, it makes no pass over the data; weights the
  averages do not follow (no step taken) get the exact values.
* exact: the population values (interp/runtime/population.py), one forward
  pass each time they are asked for.
* On a cluster only exact; running is refused there, saying why.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError
from tenflang.interp.runtime import population as pop
from tenflang.training.hooks import Callbacks

NET = """macro batchnorm x gamma beta -> y
  declare intvar c
  declare intvar s
  define c = sub x (batch_mean x)
  define s = sqrt (add (batch_mean (mul c c)) 1e-5)
  define y = add (mul (div c s) gamma) beta
end
declare input x [3]
declare exp_output t
declare weight W [4, 3]
declare weight g [4]
declare weight b [4]
declare weight v [4]
declare intvar h [4]
declare loss l
define h = batchnorm (matmul W x) g b
define l = pow (sub (dot v (tanh h)) t) 2
"""


def setup(n=30, seed=4):
    rng = np.random.default_rng(seed)
    data = {"x": rng.normal(size=(n, 3)) + 0.5, "t": rng.normal(size=n)}
    weights = {"W": rng.normal(size=(4, 3)), "g": 1 + 0.2 * rng.normal(size=4),
               "b": 0.2 * rng.normal(size=4), "v": rng.normal(size=4)}
    return compile_gradient(tenflang.parse(NET, "n.tf", shape_program=True)), data, weights


class Recorder(Callbacks):
    """Each step's batch and the weights it started from (copies: steps work in place)."""

    def __init__(self):
        super().__init__()
        self.steps, self.before = [], None

    def on_start(self, state):
        self.before = {k: np.array(v) for k, v in state.weights.items()}

    def on_step(self, state, info):
        self.steps.append((self.before, info.rows))
        self.before = {k: np.array(v) for k, v in state.weights.items()}


def numpy_running(steps, x: np.ndarray, momentum: float) -> dict:
    running: dict = {}
    for weights, rows in steps:
        h = x[np.asarray(rows)] @ weights["W"].T
        batch = {"h.c.1": h.mean(axis=0), "h.s.2": h.var(axis=0)}
        for name, value in batch.items():
            running[name] = (value if name not in running
                             else (1 - momentum) * running[name] + momentum * value)
    return running


def test_the_running_averages_equal_numpy():
    gcp, data, weights = setup()
    hooks = Recorder()
    cfg = tenflang.TrainConfig(lr=0.05, batch_size=8, max_iters=9, tol=0,
                               statistics_momentum=0.3)
    result = tenflang.train(gcp, data, cfg, hooks=hooks, init=weights)
    assert len(hooks.steps) == 9
    expected = numpy_running(hooks.steps, data["x"], 0.3)
    assert list(result.statistics) == ["h.c.1", "h.s.2"]
    for name, value in expected.items():
        np.testing.assert_allclose(result.statistics[name], value, rtol=1e-12, err_msg=name)
        np.testing.assert_allclose(result.state.statistics[name], value, rtol=1e-12)
    # not the population values: those are another choice
    exact = pop.population(gcp, data, result.weights)
    assert not np.allclose(exact["h.s.2"], result.statistics["h.s.2"], rtol=1e-3)


def counted_population_runs(monkeypatch) -> list:
    runs = []
    real = pop.run_plan
    monkeypatch.setattr(pop, "run_plan", lambda *a, **k: runs.append(1) or real(*a, **k))
    return runs


@pytest.mark.parametrize("statistics, runs_a_pass", [(None, 0), ("running", 0), ("exact", 2)])
def test_only_exact_statistics_cost_a_pass_over_the_data(monkeypatch, statistics, runs_a_pass):
    """With validation after every epoch: the default costs no pass; exact one
    per validation and one at the end (for the host copy of the weights),
    each pass one run per level here (2 levels, one chunk)."""
    gcp, data, weights = setup()
    runs = counted_population_runs(monkeypatch)
    cfg = tenflang.TrainConfig(lr=0.05, batch_size=8, max_iters=6, tol=0, val_fraction=0.2,
                               statistics=statistics)
    result = tenflang.train(gcp, data, cfg, init=weights)
    evaluations = len(result.val_history)
    assert evaluations == 2
    assert len(runs) == runs_a_pass * (evaluations + 1)


def test_weights_no_step_moved_get_the_exact_values():
    gcp, data, weights = setup()
    result = tenflang.train(gcp, data, tenflang.TrainConfig(max_iters=0), init=weights)
    for name, value in pop.population(gcp, data, weights).items():
        np.testing.assert_allclose(result.statistics[name], value, rtol=1e-12)


def test_running_is_refused_on_a_cluster():
    pytest.importorskip("dask.distributed")
    from tenflang.distributed.descent import ClusterGradients
    from tenflang.training.hooks import Hooks
    from tenflang.training.signature import signature
    gcp, _, _ = setup()
    cfg = tenflang.TrainConfig(statistics="running")
    with pytest.raises(TenflangError, match=r"'running' is for a run in one process: on a "
                                            r"cluster \(--scheduler\) the batch statistics are "
                                            r"exact"):
        with ClusterGradients(client=None).open(gcp, signature(gcp), None, cfg, Hooks(), None):
            pass


def test_the_estimator_passes_the_choice_on(tmp_path):
    gcp, data, weights = setup()
    (tmp_path / "n.tf").write_text(NET)
    fitted = tenflang.Estimator(str(tmp_path / "n.tf"), max_iters=3, tol=0,
                                statistics="exact").fit({"x": data["x"]}, data["t"], init=weights)
    for name, value in pop.population(gcp, data, fitted.weights_).items():
        np.testing.assert_allclose(fitted.result_.statistics[name], value, rtol=1e-12)


def test_a_resumed_state_with_statistics_of_another_shape_is_refused():
    """The averages a resumed run continues are its checkpoint's: one of
    another shape than its line's result is refused, naming it; one that is
    not finite (a diverged run's) is started afresh."""
    from tenflang.training.state import State
    gcp, data, weights = setup()
    cfg = tenflang.TrainConfig(max_iters=2, tol=0)
    bad = State(dict(weights), statistics={"h.c.1": np.zeros(3), "h.s.2": np.ones(4)})
    with pytest.raises(TenflangError, match=r"batch statistic 'h.c.1' has shape \[3\], "
                                            r"expected \[4\]"):
        tenflang.train(gcp, data, cfg, resume=bad)
    fresh = tenflang.train(gcp, data, cfg, init=weights)
    diverged = State({k: v.copy() for k, v in weights.items()},
                     statistics={"h.c.1": np.full(4, np.nan), "h.s.2": np.full(4, np.inf)})
    resumed = tenflang.train(gcp, data, cfg, resume=diverged)
    for name, value in fresh.statistics.items():
        np.testing.assert_array_equal(resumed.statistics[name], value)
