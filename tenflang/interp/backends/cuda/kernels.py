"""A fused group of elementwise steps rendered as one CUDA kernel's source:
the C-style renderer of interp/backends/render.py for NVRTC.

    spec = KernelSpec(name, shape, inputs, lines, outputs, reduced)   # reduced: a tuple
    source = render(spec, "float32")

A kernel runs one thread per element (e, j) of render.py's contract: a
grid-stride loop over `batch * n` elements (thread index `i`), every step of
the group computed in registers, each input read once and each output
written once — where the unfused plan makes one pass over memory per step.
All shapes but the batch size are known when the kernel is generated, so the
offsets have constant strides; the batch size is an argument, so one kernel
serves every batch.

With `reduced` values the group ends in batch reductions (the mean over the
examples of a weight gradient): thread (r, j) sums the examples r, r+rows,
r+2·rows, … of element j into `v_x_acc`, then `v_x_partial[r * n + j]`, and
the caller sums the `rows` partials (one small reduction on the device).
`rows` is chosen at launch (interp/backends/cuda/launch.py): 1 when G alone has enough
elements to fill the device, more when it has few (a per-example scalar over
a million examples).  Launches use blocks of `CudaKernels.block` threads.

The source is for people too: each step is one line with the TenFlang line it
comes from; names are render.py's (`v_x`, `v_x_in`, ...).
"""
from __future__ import annotations

from ..render import CStyle, KernelSpec, Line, Value, size
from ..scalar_c import CTYPES, literal

__all__ = ["CudaKernels", "KernelSpec", "Line", "Value", "render", "size"]


class CudaKernels(CStyle):
    """CUDA C: a grid-stride loop, helpers as `__device__` functions."""
    dialect = "cuda"
    restrict = "__restrict__"
    index = "long long"
    block = 256                  # threads per block of a launch

    def signature(self, spec: KernelSpec, ids, dtype: str) -> list[str]:
        params = self.parameters(spec, ids, dtype)
        params += [f"const {self.index} {n}" for n in ("batch", "rows")[:1 + bool(spec.reduced)]]
        return [f'extern "C" __global__ void {spec.name}('] + \
            [f"    {p}{',' if k < len(params) - 1 else ') {'}" for k, p in enumerate(params)]

    def kernel(self, spec: KernelSpec, dtype: str) -> list[str]:
        ids, n, t, ctype = self.names(), size(spec.shape), self.index, CTYPES[dtype]
        loop = (f"for ({t} i = ({t})blockIdx.x * blockDim.x + threadIdx.x; i < n; "
                f"i += ({t})gridDim.x * blockDim.x) {{")
        lines = self.signature(spec, ids, dtype)
        if not spec.reduced:
            lines += [f"    const {t} n = batch * {n};", f"    {loop}",
                      f"        const {t} e = i / {n}, j = i % {n};"]
            return lines + self.body(spec, ids, dtype, " " * 8) + ["    }", "}"]
        acc = [(ids(v.name, "_acc"), ids(v.name), ids(v.name, "_partial")) for v in spec.reduced]
        lines += [f"    const {t} n = rows * {n};", f"    {loop}",
                  f"        const {t} r = i / {n}, j = i % {n};"]
        lines += [f"        {ctype} {a} = {literal(0, ctype, self.dialect)};" for a, _, _ in acc]
        lines += [f"        for ({t} e = r; e < batch; e += rows) {{"]
        lines += self.body(spec, ids, dtype, " " * 12)
        lines += [f"            {a} += {v};" for a, v, _ in acc] + ["        }"]
        return lines + [f"        {p}[i] = {a};" for a, _, p in acc] + ["    }", "}"]

    def header(self, spec: KernelSpec, dtype: str) -> str:
        shape = ", ".join(["B"] + [str(d) for d in spec.shape])
        what = (f"{self.comment} {len(spec.lines)} elementwise step(s) fused, over [{shape}], "
                f"{CTYPES[dtype]}")
        if spec.reduced:
            what += f"; {', '.join(v.name for v in spec.reduced)} summed over the examples"
        return what

    def module(self, specs, dtype: str) -> str:
        """Every kernel, one after another (NVRTC compiles the file as it stands)."""
        return "\n".join(render(spec, dtype) for spec in specs)


RENDERER = CudaKernels()


def render(spec: KernelSpec, dtype: str = "float64") -> str:
    """The complete CUDA C source of `spec`'s kernel (what NVRTC compiles)."""
    lines = [RENDERER.header(spec, dtype), RENDERER.preamble(dtype)] + RENDERER.kernel(spec, dtype)
    return "\n".join(lines) + "\n"
