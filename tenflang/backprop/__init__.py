"""The Compile Phase: a shape program's Gradient Computing Program, by reverse-mode
backpropagation (docs/guide.md, "Reading a GCP").  `compiler` drives the passes:
`graph` (dataflow graph, topological order), `reverse` (the adjoint sweep),
`rules` (derivative rules lowered to lines), `simplify` (-O1), `gcp` (assembly)."""
from .compiler import compile_gradient
from ..naming import adjoint  # the name of a gradient output (tenflang.naming)

__all__ = ["compile_gradient", "adjoint"]
