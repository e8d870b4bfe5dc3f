"""TenFlang: learn the weights of a straight-line tensor program.

    program = tenflang.parse(text)                 # front end
    gcp = tenflang.compile_gradient(program)       # Compile Phase
    result = tenflang.train(gcp, examples, tenflang.TrainConfig(lr=5))   # Weight Calculation
    values = tenflang.evaluate(program, examples, result.weights)       # Evaluation Phase
    model = tenflang.Estimator("shape.tf", lr=0.1).fit(X, y)  # the same, scikit-learn style

See docs/api.md (the API guide).
"""
from .errors import RunFailure, TenflangError
from .lang import parse, parse_file, print_program
from .backprop import compile_gradient
from .interp import evaluate, interpret, make_plan, run_plan
from .data.vectors import (format_examples, load_examples, load_weights, save_examples,
                      save_weights)
from .training.loop import TrainConfig, train
from .estimator import Estimator, TrainingWarning

load_vectors = load_examples    # a data file -> vectors.Examples (`.arrays`: name -> array)
save_vectors = save_examples    # name -> array (leading example axis) -> a data file

__all__ = ["TenflangError", "RunFailure", "parse", "parse_file", "print_program",
           "compile_gradient", "interpret", "evaluate", "make_plan", "run_plan",
           "load_examples", "load_weights", "save_examples", "save_weights", "format_examples",
           "load_vectors", "save_vectors", "train", "TrainConfig", "Estimator", "TrainingWarning"]
