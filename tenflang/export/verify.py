"""Checking an exported model against TenFlang's own interpreter.

    report = verify_model(model, program, examples, weights, dtype)

runs the model in onnxruntime (CPU) on `examples` and the program in the
interpreter (numpy, the same dtype), and gives per output its maximum
relative error: max |onnx - tenflang| / max |tenflang| over the output's
elements, the error measured against the output's own scale (an element that
is 0 up to rounding would make an elementwise ratio meaningless).  NaN in the
same places, and infinities of the same sign, count as equal.  `TOLERANCE` is
what a verification accepts per dtype.
"""
from __future__ import annotations


import numpy as np

from tenflang.base.frozen import frozen
from tenflang.interp import evaluate
from .model import require

TOLERANCE = {"float64": 1e-9, "float32": 1e-4}
INPUT_TYPES = {"tensor(int64)": np.int64}    # an index input; the others take the model's float


@frozen
class Agreement:
    name: str
    relative: float     # max |onnx - tenflang| / max |tenflang|
    absolute: float     # max |onnx - tenflang|


def run_model(model, examples: dict, dtype: str) -> dict[str, np.ndarray]:
    """The model's outputs on `examples` (name -> array with the example axis)."""
    ort = require("onnxruntime")
    options = ort.SessionOptions()
    options.log_severity_level = 3          # its warnings are not the user's business
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    feeds = {i.name: np.asarray(examples[i.name], INPUT_TYPES.get(i.type, dtype))
             for i in session.get_inputs()}
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(names, feeds)))


def verify_model(model, program, examples: dict, weights: dict, dtype: str) -> list[Agreement]:
    got = run_model(model, examples, dtype)
    want = evaluate(program, examples, weights, dtype=dtype, results=list(got))
    return [agreement(name, got[name], np.asarray(want[name])) for name in got]


def agreement(name: str, got: np.ndarray, want: np.ndarray) -> Agreement:
    got, want = np.broadcast_to(got, want.shape).astype(np.float64), want.astype(np.float64)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    diff = np.where(same, 0.0, np.abs(got - want))
    diff = np.where(np.isnan(diff), np.inf, diff)
    absolute = float(diff.max(initial=0.0))
    finite = np.abs(want[np.isfinite(want)])
    scale = float(finite.max(initial=0.0))
    relative = absolute / scale if scale > 0 else (0.0 if absolute == 0 else np.inf)
    return Agreement(name, relative, absolute)


__all__ = ["verify_model", "run_model", "Agreement", "TOLERANCE"]
