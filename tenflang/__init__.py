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

from .native.blas_threads import quiet_idle_threads

quiet_idle_threads()        # before numpy loads: OpenBLAS's idle threads sleep, not spin

# public name -> (module, its name there)
_EXPORTS = {
    "TenflangError": ("base.errors", "TenflangError"), "RunFailure": ("base.errors", "RunFailure"),
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
    "TrainConfig": ("training.config", "TrainConfig"), "train": ("training.loop", "train"),
    "Estimator": ("api.estimator", "Estimator"), "Classifier": ("api.estimator", "Classifier"),
    "TrainingWarning": ("api.estimator", "TrainingWarning"),
    "TensorBoard": ("training.tensorboard_log", "TensorBoard"),
    "EpochLines": ("training.watch", "EpochLines"),
}


def _class(module: str, name: str):
    return lambda: getattr(importlib.import_module(f".{module}", __name__), name)


def _kinds(edge) -> dict:
    """Each public function's arguments and their kinds (tenflang/api/guards.py)."""
    program = edge.instance(_class("lang.syntax_tree", "Program"), "a Program (tenflang.parse)")
    data, weights = edge.arrays("data", nulls=True), edge.arrays("weight", nulls=False)
    results, fmt = edge.optional(edge.names), edge.one_of("txt", "json", "csv")
    return {
        "parse": {"text": edge.text, "filename": edge.text, "shape_program": edge.flag,
                  "loops": edge.one_of("auto", "keep", "unroll")},
        "parse_file": {"path": edge.path, "shape_program": edge.flag,
                       "loops": edge.one_of("auto", "keep", "unroll")},
        "print_program": {"program": program},
        "compile_gradient": {"program": program, "level": edge.one_of_ints(0, 1),
                             "verify": edge.flag, "keep_every": edge.count},
        "evaluate": {"program": program, "examples": data, "weights": weights,
                     "dtype": edge.dtype, "results": results},
        "interpret": {"program": program, "inputs": data, "results": results,
                      "dtype": edge.dtype, "batched": edge.flag},
        "make_plan": {"program": program, "available": edge.names, "results": results,
                      "shapes": edge.optional(edge.shapes)},
        "run_plan": {"plan": edge.instance(_class("interp.planning.plan", "Plan"),
                                           "a Plan (make_plan)"),
                     "data": data, "dtype": edge.dtype,
                     "reduce": edge.optional(edge.one_of("sum", "mean"))},
        "format_examples": {"arrays": data, "fmt": fmt, "count": edge.optional(edge.count)},
        "load_examples": {"path": edge.path, "allow_nan": edge.flag,
                          "shapes": edge.optional(edge.shapes), "dtype": edge.dtype},
        "load_weights": {"path": edge.path, "allow_nan": edge.flag},
        "save_examples": {"path": edge.path, "arrays": data,
                          "fmt": edge.optional(edge.one_of("txt", "json", "csv", "npz"))},
        "save_weights": {"path": edge.path, "weights": weights,
                         "statistics": edge.optional(weights)},
        "train": {"gcp": program, "examples": edge.unless(lambda v: hasattr(v, "chunks"), data),
                  "config": edge.instance(_class("training.config", "TrainConfig"),
                                                          "a TrainConfig"),
                  "init": edge.optional(weights)},
    }


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _EXPORTS[name]
    value = getattr(importlib.import_module(f".{module}", __name__), attr)
    if callable(value) and not isinstance(value, type):
        from .api import guards as edge          # every public function checks its arguments first
        value = edge.guarded(name, value, _kinds(edge).get(attr, {}))
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


__all__ = ["TenflangError", "RunFailure", "parse", "parse_file", "print_program",
           "compile_gradient", "interpret", "evaluate", "make_plan", "run_plan",
           "load_examples", "load_weights", "save_examples", "save_weights", "format_examples",
           "load_vectors", "save_vectors", "train", "TrainConfig", "Estimator", "Classifier",
           "TrainingWarning", "TensorBoard", "EpochLines"]
