"""The original design's interpreter and gradient descent, literally (a baseline to beat).

The design note (shared/seeds/003_...) describes the Weight Calculation
Phase as: an interpreter that reads a program one line at a time, building
a *Bindings Dictionary* — a declaration of an input or weight binds it from
the Input Dictionary, any other declaration binds NULL, a definition looks
its operands up, applies the op and binds the result (NULL if an operand is
NULL) — and returns the values of the output variables; then

    find_partials(GCP, weight_vector, pair) = interpret(GCP, union(weight_vector, pair))
    avg_gradient(GCP, weight_vector, training_data) =
        sum of find_partials over the pairs, divided component-wise by their count
    calculate_weights: weight_vec -= delta * avg_gradient until the gradient ~ 0

This module is exactly that: Python floats, a Python loop over the examples
and, for each example, over the program's lines, with dictionaries for the
vectors.  It reads its program through ``tenflang.parse`` (the GCP printed
by tenflang and parsed back) and handles scalar programs only, which is all
the original design's example needs.  The benchmark runs it on a subset and
extrapolates its time linearly in examples x iterations.
"""
from __future__ import annotations

import math
import sys
import time
from pathlib import Path

try:
    import tenflang
except ImportError:          # run from a checkout without installing: the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import tenflang
from tenflang.lang.syntax_tree import Declare, Define, Num

NULL = None


def _logistic(a):
    if a >= 0:
        return 1.0 / (1.0 + math.exp(-a))
    e = math.exp(a)
    return e / (1.0 + e)


def _logistic_deriv(a):
    e = math.exp(-abs(a))
    return e / (1.0 + e) ** 2


def _softplus(a):
    return max(a, 0.0) + math.log1p(math.exp(-abs(a)))


def _tanh_deriv(a):
    t = math.tanh(a)
    return 1.0 - t * t


# Scalar ops of the language (shape-only ops are the identity on scalars).
OPS = {
    "copy": lambda a: a,
    "neg": lambda a: -a,
    "exp": math.exp,
    "log": math.log,
    "logistic": _logistic,
    "tanh": math.tanh,
    "relu": lambda a: max(a, 0.0),
    "sqrt": math.sqrt,
    "abs": abs,
    "sin": math.sin,
    "cos": math.cos,
    "softplus": _softplus,
    "logistic_deriv": _logistic_deriv,
    "tanh_deriv": _tanh_deriv,
    "step": lambda a: 1.0 if a > 0 else 0.0,
    "sign": lambda a: (a > 0) - (a < 0) + 0.0,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a ** b,
    "max": max,
    "min": min,
    "sum": lambda a: a,
    "mean": lambda a: a,
    "logsumexp": lambda a: a,
    "sum_like": lambda a, b: a,
    "broadcast_like": lambda a, b: a,
}


def load(text: str, filename: str = "gcp.tf"):
    """Parse a TenFlang program for this interpreter (scalar programs only)."""
    program = tenflang.parse(text, filename)
    for s in program.statements:
        if isinstance(s, Declare) and s.shape:
            raise ValueError(f"the original design's interpreter runs scalar programs only; "
                             f"'{s.name}' has shape {list(s.shape)}")
        if isinstance(s, Define) and s.op not in OPS:
            raise ValueError(f"the original design's interpreter has no op '{s.op}'")
    return program


def interpret(program, inputs: dict) -> dict:
    """One example: read the program line by line into the Bindings Dictionary,
    then return the values of its output variables (an ordered vector)."""
    bindings = {}
    outputs = []
    for line in program.statements:
        if isinstance(line, Declare):
            if line.kind in ("input", "weight"):
                bindings[line.name] = inputs[line.name]
            else:
                bindings[line.name] = inputs.get(line.name, NULL) if line.kind == "exp_output" \
                    else NULL
                if line.kind == "output":
                    outputs.append(line.name)
        elif isinstance(line, Define):
            args = [o.value if isinstance(o, Num) else bindings[o.name] for o in line.operands]
            if any(a is NULL for a in args):
                bindings[line.name] = NULL
            else:
                bindings[line.name] = OPS[line.op](*args)
    return {name: bindings[name] for name in outputs}


def find_partials(gcp, weight_vector: dict, pair: dict) -> dict:
    inputs = {**weight_vector, **pair}           # union(weight_vector, pair)
    return interpret(gcp, inputs)


def avg_gradient(gcp, weight_vector: dict, training_data: list) -> dict:
    sum_of_partials = {}                          # vector_of_zeros(), filled on first use
    for pair in training_data:
        for name, value in find_partials(gcp, weight_vector, pair).items():
            sum_of_partials[name] = sum_of_partials.get(name, 0.0) + value
    return {name: total / len(training_data) for name, total in sum_of_partials.items()}


def calculate_weights(gcp, training_data: list, initial_guess: dict, delta: float,
                      max_iters: int, tol: float = 0.0) -> tuple[dict, int]:
    """Gradient descent as in the original design's MAIN ROUTINE, capped at `max_iters`
    gradient steps (the original design loops until the gradient is ~0).  Returns the
    weights and the number of avg_gradient calls made."""
    weight_vec = dict(initial_guess)
    grad = avg_gradient(gcp, weight_vec, training_data)
    calls, steps = 1, 0
    while steps < max_iters and not math.sqrt(sum(g * g for g in grad.values())) <= tol:
        for name in weight_vec:                      # increment_vec(weight_vec, -delta * grad)
            weight_vec[name] -= delta * grad[f"d/d{name}"]
        steps += 1
        if steps < max_iters:
            grad = avg_gradient(gcp, weight_vec, training_data)
            calls += 1
    return weight_vec, calls


def training_pairs(data: dict) -> list:
    """Column arrays -> the original design's list of {name: value} pairs (Python floats)."""
    names = list(data)
    columns = [list(map(float, data[n])) for n in names]
    return [dict(zip(names, row)) for row in zip(*columns)]


def timed_run(gcp_text: str, data: dict, initial_guess: dict, delta: float,
              iters: int) -> tuple[dict, float, int]:
    """(final weights, seconds, avg_gradient calls) of `iters` gradient steps."""
    gcp = load(gcp_text)
    pairs = training_pairs(data)
    guess = {k: float(v) for k, v in initial_guess.items()}
    start = time.perf_counter()
    weights, calls = calculate_weights(gcp, pairs, guess, delta, iters)
    return weights, time.perf_counter() - start, calls
