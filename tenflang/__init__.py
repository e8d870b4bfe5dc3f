"""TenFlang: learn the weights of a straight-line tensor program.

    program = tenflang.parse(text)                 # front end
    gcp = tenflang.compile_gradient(program)       # Compile Phase
    result = tenflang.train(gcp, examples, tenflang.TrainConfig(lr=5))   # Weight Calculation
    values = tenflang.evaluate(program, examples, result.weights)       # Evaluation Phase
    model = tenflang.Estimator("shape.tf", lr=0.1).fit(X, y)  # the same, scikit-learn style

See docs/api.md (the API guide).  The names below load on first use, so
`import tenflang` (and each command) imports only what it runs.
"""
import importlib

# public name -> (module, its name there)
_EXPORTS = {
    "TenflangError": ("errors", "TenflangError"), "RunFailure": ("errors", "RunFailure"),
    "parse": ("lang", "parse"), "parse_file": ("lang", "parse_file"),
    "print_program": ("lang", "print_program"),
    "compile_gradient": ("backprop", "compile_gradient"),
    "evaluate": ("interp", "evaluate"), "interpret": ("interp", "interpret"),
    "make_plan": ("interp", "make_plan"), "run_plan": ("interp", "run_plan"),
    "format_examples": ("data.vectors", "format_examples"),
    "load_examples": ("data.vectors", "load_examples"),
    "load_weights": ("data.vectors", "load_weights"),
    "save_examples": ("data.vectors", "save_examples"),
    "save_weights": ("data.vectors", "save_weights"),
    "load_vectors": ("data.vectors", "load_examples"),   # a data file -> vectors.Examples
    "save_vectors": ("data.vectors", "save_examples"),   # name -> array -> a data file
    "TrainConfig": ("training.loop", "TrainConfig"), "train": ("training.loop", "train"),
    "Estimator": ("estimator", "Estimator"), "Classifier": ("estimator", "Classifier"),
    "TrainingWarning": ("estimator", "TrainingWarning"),
    "TensorBoard": ("training.tensorboard_log", "TensorBoard"),
    "EpochLines": ("training.watch", "EpochLines"),
}


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _EXPORTS[name]
    value = getattr(importlib.import_module(f".{module}", __name__), attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


__all__ = ["TenflangError", "RunFailure", "parse", "parse_file", "print_program",
           "compile_gradient", "interpret", "evaluate", "make_plan", "run_plan",
           "load_examples", "load_weights", "save_examples", "save_weights", "format_examples",
           "load_vectors", "save_vectors", "train", "TrainConfig", "Estimator", "Classifier",
           "TrainingWarning", "TensorBoard", "EpochLines"]
