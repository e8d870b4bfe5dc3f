"""The CUDA backend: a plan's fused elementwise groups as generated kernels.

    from tenflang.interp.engine import Engine
    values = Engine(cupy).run(plan, data, dtype="float32", reduce="mean")

* an op's per-element scalar form becomes CUDA C through `interp/backends/scalar_c.py`.
* `kernels`: a fused group -> one kernel's complete, readable CUDA source.
* `ptx`: NVRTC compiles a source to PTX with no GPU (what the tests check).
* `launch`: compile once (cached by source), launch per batch.
* `fused`: fused groups -> kernel specifications.

The generated Python step that calls these kernels, with every other step on
cupy/cuBLAS, is the runtime's (`interp/runtime/on_gpu.py`); the choice of
engine is made once, in `tenflang.interp.engine`, and the device in
`tenflang.interp.device` (never imports cupy at import).
"""
