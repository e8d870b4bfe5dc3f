"""A scikit-learn-style wrapper: a shape program as an estimator.

    model = tenflang.Estimator("samples/linear_regression.tf", lr=0.1, max_iters=5000)
    model.fit(X, y).predict(X_new)

It sits above `training` (it compiles, trains and evaluates; its run is a
`training.session.Session`, as tfweightcalc's, writing nothing) and below the
CLI.  Conventions, as scikit-learn's: the constructor only stores its
arguments (`get_params`/`set_params` see them, so `sklearn.base.clone`,
grid search and cross-validation work; its keyword arguments are
`TrainConfig`'s fields); what `fit` learns ends in `_` (`shape_`, the program
as it read it; `gcp_`, `weights_`, `result_`); `score` is greater-is-better
(the negated mean loss).  `fit` checks its arrays as `tenflang.train` checks
them (tenflang/api/guards.py).  Data: `X` is the array of the program's only `input`, or a
dictionary name -> array when it has several; `y` likewise for its
`exp_output`s.  `predict` returns the program's `output` (`output=` names
one when there are several), with the example axis.  The warnings of a run
that cannot be trusted (`TrainResult.warnings`) are issued as
`TrainingWarning`s, as scikit-learn issues its ConvergenceWarning.
"""
from __future__ import annotations

import inspect
import os
import warnings

import numpy as np

from . import guards as edge
from tenflang.backprop import compile_gradient
from tenflang.backprop.graph import ancestors
from tenflang.base.errors import TenflangError
from tenflang.interp import evaluate
from tenflang.lang import parse_file
from tenflang.lang.syntax_tree import DeclKind, Program
from tenflang.lang.checks import check
from tenflang.training.config import TrainConfig
from tenflang.training.session import RunSettings, Session


class TrainingWarning(UserWarning):
    """A training run that cannot be trusted (oscillating loss, weights that never learn)."""


class Estimator:
    """Fit a shape program's weights on arrays; predict and score with them."""

    # every TrainConfig field, with its default (tests/api/test_api.py holds the two equal)
    def __init__(self, program, *, output: str | None = None, lr: float = 0.1,
                 optimizer: str = "sgd", batch_size: int | None = None, max_iters: int = 1000,
                 tol: float = 1e-6, seed: int = 0, momentum: float | None = None,
                 betas: tuple | None = None, eps: float | None = None,
                 val_fraction: float = 0.0, dtype: str = "float64", weight_decay: float = 0.0,
                 lr_schedule: str = "constant", patience: int | None = None,
                 nesterov: bool = False, clip_norm: float | None = None,
                 lr_step: int | None = None, lr_gamma: float | None = None,
                 warmup: int | None = None, freeze: tuple = (), statistics: str | None = None,
                 statistics_momentum: float = 0.1):
        self.program, self.output, self.lr, self.optimizer = program, output, lr, optimizer
        self.batch_size, self.max_iters, self.tol, self.seed = batch_size, max_iters, tol, seed
        self.momentum, self.betas, self.eps, self.val_fraction = momentum, betas, eps, val_fraction
        self.dtype, self.weight_decay, self.lr_schedule = dtype, weight_decay, lr_schedule
        self.patience, self.nesterov, self.clip_norm = patience, nesterov, clip_norm
        self.lr_step, self.lr_gamma, self.warmup, self.freeze = lr_step, lr_gamma, warmup, freeze
        self.statistics, self.statistics_momentum = statistics, statistics_momentum

    # ------------------------------------------------------------ scikit-learn's protocol
    @classmethod
    def _param_names(cls) -> list[str]:
        return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]

    def get_params(self, deep: bool = True) -> dict:
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params) -> "Estimator":
        for name, value in params.items():
            if name not in self._param_names():
                raise TenflangError(f"{type(self).__name__} has no parameter '{name}'; its "
                                    f"parameters: {', '.join(self._param_names())}")
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
        shown = [f"{k}={v!r}" if not isinstance(v, Program) else f"{k}=<program {v.filename}>"
                 for k, v in changed.items()]
        return f"{type(self).__name__}({', '.join(shown)})"

    # ------------------------------------------------------------ fit, predict, score
    def fit(self, X, y=None, init: dict | None = None) -> "Estimator":
        """Learn the weights from examples `X` (inputs) and `y` (expected outputs)."""
        shape = self._shape(fitted=False)
        if self.output is not None:
            self._output(shape)         # a bad output is refused before any training
        config = TrainConfig(**{k: v for k, v in self.get_params().items()
                                if k not in ("program", "output")})
        data = edge.arrays("data", nulls=True)("fit(): X, y", self._data(shape, X, y))
        init = edge.optional(edge.arrays("weight", nulls=False))("fit(): init", init)
        self.shape_, self.gcp_ = shape, compile_gradient(shape)
        self.result_ = Session(self.gcp_, RunSettings(config, init=init)).run(data)
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
        `tfevaluate --summary` prints them: a float for a scalar, an array of the
        output's shape for a tensor (its mean entry by entry)."""
        shape = self._shape()
        values = evaluate(shape, self._data(shape, X, y), self._weights(), dtype=self.dtype)
        return {n: None if v is None else float(np.mean(v)) if v.ndim == 1 else v.mean(axis=0)
                for n, v in values.items()}

    # ------------------------------------------------------------ helpers
    def _shape(self, fitted: bool = True) -> Program:
        """The shape program: once fitted, the one `fit` read (a file changed or
        gone since does not change the model)."""
        if fitted and hasattr(self, "shape_"):
            return self.shape_
        if isinstance(self.program, Program):
            return self.program
        # refused here rather than in __init__, which only stores (scikit-learn's rule);
        # str() would turn None or 5 into the name of a file in the working directory
        what = f"{type(self).__name__}(): program"
        if not isinstance(self.program, (str, os.PathLike)):
            edge.refuse(what, "must be a Program (tenflang.parse) or the path of a shape "
                              f"program, not {type(self.program).__name__}")
        return parse_file(edge.path(what, self.program), shape_program=True)

    def _weights(self) -> dict:
        if not hasattr(self, "weights_"):
            raise TenflangError(f"this {type(self).__name__} is not fitted yet: call fit(X, y) "
                                "first")
        # with the values of the program's batch statistics (docs/design.md §2.3.2)
        return {**self.weights_, **getattr(getattr(self, "result_", None), "statistics", {})}

    def _losses(self, X, y) -> dict:
        shape = self._shape()
        losses = [d.name for d in shape.declarations().values() if d.kind == DeclKind.LOSS]
        return evaluate(shape, self._data(shape, X, y, need_y=True), self._weights(),
                        dtype=self.dtype, results=losses)

    def _output(self, shape: Program) -> str:
        """The output `predict` returns: `output=`, or the program's only output
        computed from the inputs alone."""
        outputs = [d.name for d in shape.declarations().values() if d.kind == DeclKind.OUTPUT]
        free = [name for name in outputs if not labels_read(shape, name)]
        if self.output is None:
            if len(free) != 1:
                raise TenflangError(f"the program has {len(free)} outputs computed from the "
                                    f"inputs alone ({', '.join(free) or 'none'}); name the one "
                                    "to predict with output=")
            return free[0]
        if self.output not in outputs:
            raise TenflangError(f"output='{self.output}' is not an output of the program; "
                                f"its outputs: {', '.join(outputs) or 'none'}")
        if self.output not in free:
            raise TenflangError(f"output='{self.output}' reads the expected output "
                                f"{', '.join(map(repr, labels_read(shape, self.output)))}, which "
                                f"predict does not have; outputs computed from the inputs alone: "
                                f"{', '.join(free) or 'none'}")
        return self.output

    def _data(self, shape: Program, X, y, need_y: bool = False) -> dict:
        kinds = {"input": X, "exp_output": y}
        data = {}
        for kind, value in kinds.items():
            names = [d.name for d in shape.declarations().values() if d.kind == kind]
            if value is None:
                if kind == DeclKind.EXP_OUTPUT and need_y and names:
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


def named(X) -> bool:
    """Whether `X` is a dictionary name -> array (a sparse matrix in the
    dictionary-of-keys format is not)."""
    return isinstance(X, dict) and not hasattr(X, "toarray")


def checked_arrays(X: dict) -> dict:
    """Each array of a dictionary `X` as scikit-learn checks an array (NaN,
    infinity, text: its own ValueError), any number of axes."""
    from sklearn.utils import check_array
    return {name: check_array(a, ensure_2d=False, allow_nd=True) for name, a in X.items()}


def labels_read(shape: Program, name: str) -> list[str]:
    """The exp_outputs that variable `name` depends on (an output such as
    `equal (argmax scores) label` needs the label, so only evaluation on labelled
    data can compute it)."""
    needs = ancestors(shape, [name])
    return [d.name for d in shape.declarations().values()
            if d.kind == DeclKind.EXP_OUTPUT and d.name in needs]


class Classifier(Estimator):
    """A shape program as a scikit-learn classifier (it needs scikit-learn: its
    input checks and errors are scikit-learn's own).

    The program's one scalar `exp_output` holds the class index; `output`
    names its scores (a vector, one per class; a scalar for two classes).
    `X` is a 2-d array, each row reshaped to the program's input shape (an
    [8, 8] input takes rows of 64), or a dictionary name -> array.  `fit`
    stores the labels it saw as `classes_` (sorted) and trains on their
    positions in it, so any labels work (strings, -1/1).  `predict_proba`
    reads the output as probabilities when the program defines it by
    `softmax` (or, a scalar, `logistic`), and otherwise as scores it turns into
    probabilities with a softmax (a logistic for a scalar); `predict` gives the
    most probable label, `score` the accuracy.  With fewer classes than
    scores, the first len(classes_) scores are the classes' (the others never
    were a target)."""

    def fit(self, X, y, init: dict | None = None) -> "Classifier":
        from sklearn.utils.multiclass import check_classification_targets
        from sklearn.utils.validation import validate_data
        shape = self._shape()
        label, output = self._label(shape), self._output(shape)
        if named(X):
            X, y = checked_arrays(X), np.asarray(y).reshape(-1)
        else:
            X, y = validate_data(self, X, y, allow_nd=True)
        check_classification_targets(y)
        self.classes_, index = np.unique(y, return_inverse=True)
        width = self._width(shape, output)
        if len(self.classes_) > max(width, 2):
            raise TenflangError(f"y has {len(self.classes_)} classes, but output "
                                f"'{output}' gives {width} score(s), one per class")
        return super().fit(self._inputs(shape, X), {label: index.astype(float)}, init)

    def predict_proba(self, X) -> np.ndarray:
        """One row per example: the probability of each class of `classes_`."""
        from sklearn.utils.validation import check_is_fitted, validate_data
        check_is_fitted(self)
        shape = self._shape()
        if named(X):
            X = checked_arrays(X)
        else:
            X = self._inputs(shape, validate_data(self, X, reset=False, allow_nd=True))
        values = np.asarray(super().predict(X), dtype=float)
        op = {d.name: d.op for d in shape.definitions()}.get(self._output(shape))
        if len(self.classes_) == 1:         # fitted on one label: it is certain
            return np.ones((len(values), 1))
        if values.ndim == 1:
            p = values if op == "logistic" else np.exp(-np.logaddexp(0.0, -values))
            return np.stack([1 - p, p], axis=1)[:, :len(self.classes_)]
        values = values.reshape(len(values), -1)[:, :len(self.classes_)]
        if op == "softmax":
            return values / values.sum(axis=1, keepdims=True)
        shifted = np.exp(values - values.max(axis=1, keepdims=True))
        return shifted / shifted.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        """The most probable label of each example."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def score(self, X, y) -> float:
        """The accuracy: the fraction of examples whose label `predict` gives."""
        return float(np.mean(self.predict(X) == np.asarray(y).reshape(-1)))

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags
        tags = super().__sklearn_tags__()
        tags.estimator_type, tags.classifier_tags = "classifier", ClassifierTags()
        tags.target_tags.required = True
        tags.input_tags.one_d_array = False
        return tags

    @staticmethod
    def _label(shape: Program) -> str:
        labels = [d for d in shape.declarations().values() if d.kind == DeclKind.EXP_OUTPUT]
        if len(labels) != 1 or labels[0].shape not in (None, ()):
            found = ", ".join(f"'{d.name}' {list(d.shape or ())}" for d in labels) or "none"
            raise TenflangError(f"a Classifier's program has one scalar exp_output holding the "
                                f"class index (found: {found}); for one-hot labels, declare "
                                "the label scalar and write (one_hot label N) in the loss")
        return labels[0].name

    @staticmethod
    def _width(shape: Program, name: str) -> int:
        """How many scores the output gives per example (1: a scalar)."""
        return int(np.prod(check(shape)[name] or (1,)))

    @staticmethod
    def _inputs(shape: Program, X):
        """Rows of `X` reshaped to the program's one input, or `X` if a dictionary."""
        if named(X):
            return X
        inputs = [d.name for d in shape.declarations().values() if d.kind == DeclKind.INPUT]
        (name, _), = Estimator._bind("input", inputs, X).items()
        per_example = check(shape)[name]
        if int(np.prod(per_example)) != X[0].size:
            raise TenflangError(f"X has {X[0].size} features, but the program's input "
                                f"'{name}' {list(per_example)} takes {int(np.prod(per_example))}")
        return {name: X.reshape(len(X), *per_example)}
