"""The benchmark workloads: shape programs, data, initial weights, sizes.

Every implementation of a workload (tenflang, hand-written numpy, PyTorch,
JAX, the original design's literal interpreter) gets its program, data and initial
weights from here, so they all do the same math from the same start:

* ``scalar``  — the original design's recurring example, o = logistic(w x),
  loss (o - y)^2; full-batch gradient descent.
* ``logreg``  — logistic regression with a bias, cross-entropy in the stable
  form softplus(z) - y z; full-batch gradient descent.
* ``mlp``     — 64-128-10 perceptron, tanh hidden layer, softmax
  cross-entropy through log_softmax against one-hot labels; one epoch of
  mini-batch SGD, in tenflang's batch order (the permutation of the examples
  drawn from ``default_rng([seed, epoch])``, cut into consecutive batches).

Data are synthetic (seeded numpy draws), generated in float64 and converted
to the working dtype once, outside every timed region.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SEED = 0

SCALAR_TF = (Path(__file__).resolve().parents[1] / "samples" / "example_shape.tf").read_text()

LOGREG_TF = """\
# Logistic regression: z = w . x + b, cross-entropy softplus(z) - y z
declare input x [{d}]
declare exp_output y
declare weight w [{d}]
declare weight b
declare intvar s
declare output z
declare intvar sp
declare intvar yz
declare loss xent

define s = dot w x
define z = add s b
define sp = softplus z
define yz = mul y z
define xent = sub sp yz
"""

MLP_TF = """\
# {n_in}-{n_hidden}-{n_out} perceptron: tanh hidden layer, softmax cross-entropy
macro dense x W b -> y
  declare intvar t
  define t = matmul W x
  define y = add t b
end

declare input x [{n_in}]
declare exp_output y [{n_out}]
declare weight W1 [{n_hidden}, {n_in}]
declare weight b1 [{n_hidden}]
declare weight W2 [{n_out}, {n_hidden}]
declare weight b2 [{n_out}]
declare intvar h
declare intvar a
declare output scores [{n_out}]
declare intvar logp
declare intvar fit
declare loss xent

define h = dense x W1 b1
define a = tanh h
define scores = dense a W2 b2
define logp = log_softmax scores
define fit = dot logp y
define xent = neg fit
"""


@dataclass
class Case:
    """One benchmarked configuration of a workload."""
    key: str                 # "scalar", "logreg", "mlp-b256", ...
    model: str               # "scalar" | "logreg" | "mlp"
    title: str
    program: str             # TenFlang shape program text
    n: int                   # examples
    lr: float
    iters: int               # optimizer steps in one timed run
    batch_size: int | None   # None: full batch
    dims: dict = field(default_factory=dict)

    @property
    def steps_per_epoch(self) -> int:
        return 1 if not self.batch_size else -(-self.n // self.batch_size)


def cases(quick: bool = False) -> list[Case]:
    """The benchmark cases (small sizes with `quick`)."""
    n1, it1 = (20_000, 10) if quick else (1_000_000, 50)
    n2, d2, it2 = (5_000, 20, 10) if quick else (200_000, 100, 50)
    n3 = 3_000 if quick else 100_000
    mlp = dict(n_in=64, n_hidden=128, n_out=10)
    out = [
        Case("scalar", "scalar", f"seed scalar logistic, {n1:,} examples, full batch",
             SCALAR_TF, n1, 1.0, it1, None),
        Case("logreg", "logreg", f"logistic regression {n2:,} x {d2} (+bias), full batch",
             LOGREG_TF.format(d=d2), n2, 0.5, it2, None, {"d": d2}),
    ]
    for bs in (256, 32):
        steps = -(-n3 // bs)
        out.append(Case(f"mlp-b{bs}", "mlp", f"MLP 64-128-10, {n3:,} examples, batch {bs}, 1 epoch",
                        MLP_TF.format(**mlp), n3, 0.1, steps, bs, dict(mlp)))
    return out


# --- data ------------------------------------------------------------------

def logistic(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def make_data(case: Case, dtype: str = "float64") -> dict:
    """The examples of `case` (name -> array with a leading example axis)."""
    rng = np.random.default_rng([SEED, 1])
    n = case.n
    if case.model == "scalar":
        x = rng.standard_normal(n)
        y = (rng.random(n) < logistic(1.5 * x - 0.3)).astype(np.float64)
        data = {"x": x, "y": y}
    elif case.model == "logreg":
        d = case.dims["d"]
        x = rng.standard_normal((n, d))
        w_true = rng.standard_normal(d) * (2.0 / math.sqrt(d))
        y = (rng.random(n) < logistic(x @ w_true + 0.5)).astype(np.float64)
        data = {"x": x, "y": y}
    else:
        n_in, n_hidden, n_out = (case.dims[k] for k in ("n_in", "n_hidden", "n_out"))
        x = rng.standard_normal((n, n_in))
        teacher_a = rng.standard_normal((n_in, 32)) / math.sqrt(n_in)
        teacher_b = rng.standard_normal((32, n_out))
        logits = np.tanh(x @ teacher_a) @ teacher_b + 0.5 * rng.standard_normal((n, n_out))
        y = np.eye(n_out)[logits.argmax(axis=1)]
        data = {"x": x, "y": y}
    return {k: np.ascontiguousarray(v, dtype=dtype) for k, v in data.items()}


def initial_weights(case: Case, dtype: str = "float64") -> dict:
    """Same rule as tenflang's default (Glorot uniform for matrices, zeros
    otherwise), drawn here and handed to every implementation."""
    if case.model == "scalar":
        w = {"w": np.zeros(())}
    elif case.model == "logreg":
        w = {"w": np.zeros(case.dims["d"]), "b": np.zeros(())}
    else:
        rng = np.random.default_rng([SEED, 2])
        n_in, n_hidden, n_out = (case.dims[k] for k in ("n_in", "n_hidden", "n_out"))

        def glorot(out, inp):
            limit = math.sqrt(6.0 / (inp + out))
            return rng.uniform(-limit, limit, (out, inp))
        w = {"W1": glorot(n_hidden, n_in), "b1": np.zeros(n_hidden),
             "W2": glorot(n_out, n_hidden), "b2": np.zeros(n_out)}
    return {k: np.asarray(v, dtype=dtype) for k, v in w.items()}


def batch_order(n: int, seed: int = SEED, epoch: int = 0) -> np.ndarray:
    """Epoch `epoch`'s example order, as tenflang's trainer draws it."""
    return np.random.default_rng([seed, epoch]).permutation(n)


def relative_difference(a: dict, b: dict) -> float:
    """max over weights of max|a - b| / max(max|b|, tiny)."""
    worst = 0.0
    for name, ref in b.items():
        ref = np.asarray(ref, dtype=np.float64)
        got = np.asarray(a[name], dtype=np.float64).reshape(ref.shape)
        scale = max(float(np.abs(ref).max()), 1e-300)
        worst = max(worst, float(np.abs(got - ref).max()) / scale)
    return worst
