"""A scikit-learn-style wrapper: a shape program as an estimator.

    model = tenflang.Estimator("samples/linear_regression.tf", lr=0.1, max_iters=5000)
    model.fit(X, y).predict(X_new)

It sits above `training` (it compiles, trains and evaluates) and below the
CLI.  Conventions, as scikit-learn's: the constructor only stores its
arguments (`get_params`/`set_params` see them, so `sklearn.base.clone`,
grid search and cross-validation work); what `fit` learns ends in `_`
(`gcp_`, `weights_`, `result_`); `score` is greater-is-better (the negated
mean loss).  Data: `X` is the array of the program's only `input`, or a
dictionary name -> array when it has several; `y` likewise for its
`exp_output`s.  `predict` returns the program's `output` (`output=` names
one when there are several), with the example axis.  The warnings of a run
that cannot be trusted (`TrainResult.warnings`) are issued as
`TrainingWarning`s, as scikit-learn issues its ConvergenceWarning.
"""
from __future__ import annotations

import inspect
import warnings

import numpy as np

from .backprop import compile_gradient
from .errors import TenflangError
from .interp import evaluate
from .lang import parse_file
from .lang.ast import Program
from .training.loop import TrainConfig, train


class TrainingWarning(UserWarning):
    """A training run that cannot be trusted (oscillating loss, weights that never learn)."""


class Estimator:
    """Fit a shape program's weights on arrays; predict and score with them."""

    def __init__(self, program, *, output: str | None = None, lr: float = 0.1,
                 optimizer: str = "sgd", batch_size: int | None = None, max_iters: int = 1000,
                 tol: float = 1e-6, seed: int = 0, weight_decay: float = 0.0,
                 lr_schedule: str = "constant", patience: int | None = None,
                 val_fraction: float = 0.0, dtype: str = "float64"):
        self.program, self.output, self.lr, self.optimizer = program, output, lr, optimizer
        self.batch_size, self.max_iters, self.tol, self.seed = batch_size, max_iters, tol, seed
        self.weight_decay, self.lr_schedule, self.patience = weight_decay, lr_schedule, patience
        self.val_fraction, self.dtype = val_fraction, dtype

    # ------------------------------------------------------------ scikit-learn's protocol
    @classmethod
    def _param_names(cls) -> list[str]:
        return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]

    def get_params(self, deep: bool = True) -> dict:
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params) -> "Estimator":
        for name, value in params.items():
            if name not in self._param_names():
                raise TenflangError(f"Estimator has no parameter '{name}'; its parameters: "
                                    f"{', '.join(self._param_names())}")
            setattr(self, name, value)
        return self

    def __sklearn_tags__(self):
        """What scikit-learn ≥ 1.6 asks of an estimator (imported only when it asks)."""
        from sklearn.utils import InputTags, Tags, TargetTags
        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    input_tags=InputTags(one_d_array=True, two_d_array=True, dict=True))

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.get_params().items()
                   if v != inspect.signature(type(self).__init__).parameters[k].default}
        return f"Estimator({', '.join(f'{k}={v!r}' for k, v in changed.items())})"

    # ------------------------------------------------------------ fit, predict, score
    def fit(self, X, y=None, init: dict | None = None) -> "Estimator":
        """Learn the weights from examples `X` (inputs) and `y` (expected outputs)."""
        shape = self._shape()
        config = TrainConfig(**{k: v for k, v in self.get_params().items()
                                if k not in ("program", "output")})
        self.gcp_ = compile_gradient(shape)
        self.result_ = train(self.gcp_, self._data(shape, X, y), config, init=init)
        self.weights_ = self.result_.weights
        for message in self.result_.warnings:
            warnings.warn(message, TrainingWarning, stacklevel=2)
        return self

    def predict(self, X):
        """The program's output for each example of `X`."""
        shape = self._shape()
        values = evaluate(shape, self._data(shape, X, None), self._weights(),
                          dtype=self.dtype, results=[self._output(shape)])
        return next(iter(values.values()))

    def score(self, X, y) -> float:
        """Minus the mean loss over the examples (greater is better, as scikit-learn
        expects of `score`)."""
        return -sum(float(np.mean(v)) for v in self._losses(X, y).values())

    def summary(self, X, y=None) -> dict:
        """The mean over the examples of every output and loss (None: NULL), as
        `tfevaluate --summary` prints them."""
        shape = self._shape()
        values = evaluate(shape, self._data(shape, X, y), self._weights(), dtype=self.dtype)
        means = {n: None if v is None else np.asarray(v).mean(axis=0) for n, v in values.items()}
        return {n: float(v) if v is not None and v.ndim == 0 else v for n, v in means.items()}

    # ------------------------------------------------------------ helpers
    def _shape(self) -> Program:
        if isinstance(self.program, Program):
            return self.program
        return parse_file(str(self.program), shape_program=True)

    def _weights(self) -> dict:
        if not hasattr(self, "weights_"):
            raise TenflangError("this Estimator is not fitted yet: call fit(X, y) first")
        return self.weights_

    def _losses(self, X, y) -> dict:
        shape = self._shape()
        losses = [d.name for d in shape.declarations().values() if d.kind == "loss"]
        return evaluate(shape, self._data(shape, X, y, need_y=True), self._weights(),
                        dtype=self.dtype, results=losses)

    def _output(self, shape: Program) -> str:
        outputs = [d.name for d in shape.declarations().values() if d.kind == "output"]
        if self.output is not None:
            if self.output not in outputs:
                raise TenflangError(f"output='{self.output}' is not an output of the program; "
                                    f"its outputs: {', '.join(outputs) or 'none'}")
            return self.output
        if len(outputs) != 1:
            raise TenflangError(f"the program has {len(outputs)} outputs "
                                f"({', '.join(outputs) or 'none'}); name the one to predict "
                                "with output=")
        return outputs[0]

    def _data(self, shape: Program, X, y, need_y: bool = False) -> dict:
        kinds = {"input": X, "exp_output": y}
        data = {}
        for kind, value in kinds.items():
            names = [d.name for d in shape.declarations().values() if d.kind == kind]
            if value is None:
                if kind == "exp_output" and need_y and names:
                    raise TenflangError(f"y is needed: the loss compares with "
                                        f"{', '.join(names)}")
                continue
            data |= self._bind(kind, names, value)
        return data

    @staticmethod
    def _bind(kind: str, names: list[str], value) -> dict:
        """An array for the only variable of `kind`, or a dictionary by name."""
        if isinstance(value, dict):
            return dict(value)
        if len(names) != 1:
            raise TenflangError(f"the program has {len(names)} {kind} variables "
                                f"({', '.join(names) or 'none'}): pass a dictionary name -> "
                                "array")
        return {names[0]: value}
