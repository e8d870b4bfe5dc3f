"""Each op as ONNX nodes: the op table's ONNX forms (export/ builds a model from them)."""
