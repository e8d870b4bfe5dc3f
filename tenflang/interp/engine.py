"""How a plan runs, chosen once per run: the device's array module and the
engine that runs a plan on it.

    engine = choose_engine("auto")       # --device; or Engine(xp) for a given module
    values = engine.run(plan, data, dtype="float32", reduce="mean")

On numpy a plan runs as the interpreter's generated Python (`run_plan`, its
fused groups as C or numba loops); on cupy the same generated Python with
its fused groups as CUDA kernels (`tenflang.interp.runtime.on_gpu`, the CUDA engine of
this layer: imported only when a GPU run asks for it).
"""
from __future__ import annotations


import numpy as np

from tenflang.base.frozen import frozen
from tenflang.ops.modes import TRAINING, Mode
from .device import array_module
from .runtime.run import run_plan


@frozen
class Engine:
    xp: object = np          # numpy or cupy: where the run's arrays live

    @property
    def on_gpu(self) -> bool:
        return getattr(self.xp, "__name__", "") == "cupy"

    def run(self, plan, data: dict, dtype: str = "float64", reduce: str | None = None,
            mode: Mode = TRAINING, buffers=None) -> dict:
        """`run_plan`'s contract (interp/runtime/run.py) on this engine (`buffers`: on
        the CPU; a GPU run makes its arrays every run)."""
        if self.on_gpu:
            from .runtime.on_gpu import run_fused
            return run_fused(plan, data, self.xp, dtype, reduce, mode=mode)
        return run_plan(plan, data, xp=self.xp, dtype=dtype, reduce=reduce, mode=mode,
                        buffers=buffers)


def choose_engine(device: str | None = None) -> Engine:
    """The engine of `--device` (None: TENFLANG_DEVICE, else auto); see `device`."""
    return Engine(array_module(device))
