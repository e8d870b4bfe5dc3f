"""Weights a macro owns (docs/design.md §2.4.3) go by their full names
(`o.W`) everywhere after the program: the GCP, the weights file tfweightcalc
writes, the file `--init` reads, `--freeze`, and the Python API.
"""
from __future__ import annotations

import numpy as np

import tenflang
from support.programs import src
from tenflang.data.vectors import load_weights

DENSE = src("""
    macro dense x C -> y
      declare weight W [C, 3] init 0.5
      declare weight b [C]
      define y = add (matmul W x) b
    end
    declare input x [3]
    declare exp_output t [2]
    declare output o
    declare loss l
    define o = dense x 2
    define l = sum (mul (sub o t) (sub o t))
    """)


def data() -> dict:
    x = np.random.default_rng(0).normal(size=(20, 3))
    return {"x": x, "t": x @ np.array([[1, 2, 3], [0, 1, -1.0]]).T + 0.5}


def test_files_init_and_freeze_use_the_full_names(run_cli, tmp_path):
    (tmp_path / "dense.tf").write_text(DENSE)
    tenflang.save_examples(str(tmp_path / "data.txt"), data())
    (tmp_path / "init.txt").write_text("{\n  o.W: [[1, 2, 3], [0, 1, -1]]\n  o.b: [0, 0]\n}\n")
    code, _, err = run_cli(["tfcompiler", "dense.tf", "-o", "gcp.tf"], cwd=tmp_path)
    assert code == 0, err
    assert "declare weight o.W [2, 3] init 0.5\n" in (tmp_path / "gcp.tf").read_text()
    code, _, err = run_cli(["tfweightcalc", "gcp.tf", "data.txt", "-o", "w.txt", "--max-iters",
                            "5", "--init", "init.txt", "--freeze", "o.W"], cwd=tmp_path)
    assert code == 0, err
    weights = load_weights(str(tmp_path / "w.txt"))
    assert set(weights) == {"o.W", "o.b"}
    np.testing.assert_array_equal(weights["o.W"], [[1, 2, 3], [0, 1, -1]])
    assert np.all(weights["o.b"] > 0)           # trained from 0 towards 0.5


def test_the_api_names_them_in_full(tmp_path):
    path = tmp_path / "dense.tf"
    path.write_text(DENSE)
    arrays = data()
    model = tenflang.Estimator(str(path), lr=0.05, max_iters=2000, tol=1e-12)
    model.fit(arrays["x"], arrays["t"])
    assert set(model.weights_) == {"o.W", "o.b"}
    np.testing.assert_allclose(model.weights_["o.W"], [[1, 2, 3], [0, 1, -1]], atol=1e-3)
    np.testing.assert_allclose(model.weights_["o.b"], [0.5, 0.5], atol=1e-3)
