"""The Compile Phase: a shape program's Gradient Computing Program, by reverse-mode
backpropagation (docs/guide/reading-a-gcp.md, "Reading a GCP").  `compiler` drives the passes:
`graph` (dataflow graph, topological order), `reverse` (the adjoint sweep),
`rules` (derivative rules lowered to lines), `simplify` (-O1), `gcp` (assembly)."""
from tenflang.base.naming import adjoint  # the name of a gradient output

def __getattr__(name: str):
    """`compile_gradient`, imported on first use: a run that only trains a GCP
    needs `graph` alone, not the passes."""
    if name == "compile_gradient":
        from .compiler import compile_gradient
        return compile_gradient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["compile_gradient", "adjoint"]
