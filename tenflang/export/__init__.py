"""ONNX export: a trained shape program's forward part as a standard ONNX model.

    model = export_model(program, weights, dtype="float64")
    report = verify_model(model, program, examples, weights, "float64")

onnx and onnxruntime are an optional extra (`pip install 'tenflang[onnx]'`);
they are imported only when a model is built or run.  The op mapping is
`onnx_graph.ONNX_OPS`; docs/guide/commands.md (5.9 "tenflang export") describes the
model's conventions.
"""
from .model import DEFAULT_OPSET, MIN_OPSET, export_model, require
from tenflang.ops.onnx_forms.onnx_graph import NOT_EXPORTABLE, ONNX_OPS
from .verify import TOLERANCE, Agreement, verify_model

__all__ = ["export_model", "verify_model", "require", "Agreement", "ONNX_OPS", "NOT_EXPORTABLE",
           "DEFAULT_OPSET", "MIN_OPSET", "TOLERANCE"]
