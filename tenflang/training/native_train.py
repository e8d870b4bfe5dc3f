"""A whole training step as one C call: the batch's rows gathered, the plan's
native step (interp/backends/c/native_step.py), the loss and the gradient's
norm, the finiteness checks and the optimizer's update of every weight.

    fused = fused_step(plan, sig, cfg, data)        # None where it does not apply
    status, loss, norm, grads = fused(state, rows, lr)

The training loop's own step (training/loop.py, `one_step`) is a dozen
Python calls around the gradient: the batch's rows taken, the loss and the
norm brought to floats, the weights kept, the optimizer called, the new
weights checked.  On a small network those calls cost more than the
arithmetic; here they are C, in one call after the plan's.

Conventions:

* It applies to a run on the CPU whose plan has a native step
  (interp/runtime/native_run.py says where: batches of fewer than
  `FUSE_FROM` examples, the C loops on),
  with the optimizer `sgd` (no momentum) or `adam`, no `clip_norm`, no
  frozen weight, no running statistics; `fused_step` returns None
  elsewhere and the loop takes its step in Python, as before.
* The update is the optimizers' own arithmetic: Adam is training/adam_c.py's
  loop (its source is compiled into the step's library), SGD is `w − γ(g +
  λw)` in the weights' type, as training/optimizers.py's `sgd` computes it.
  The loss and the norm are summed in double.
* `status`: `STEPPED`; `CONVERGED` (the norm below `tol`: nothing changed);
  `NOT_FINITE` (the loss or the norm is not finite: nothing changed);
  `DIVERGED` (a new weight is not finite: the weights are put back as
  they were, the optimizer's slots keep the step, as in Python); `CHECK`
  (a check of the step failed, one_hot's class index: nothing changed, and
  the caller runs the step in Python, which raises that op's error).
* Arrays reach C as native/cpython.py's tuples; the gradients are new
  arrays every step (a hook may keep them), everything else is made once
  per batch size.
"""
from __future__ import annotations

import ctypes
import functools

import numpy as np

from tenflang.interp.backends.c import c_loops
from tenflang.interp.backends.c.native_step import Unsupported
from tenflang.interp.runtime import native_run
from tenflang.interp.runtime.memory import Buffers
from tenflang.interp.runtime.run import FUSE_FROM
from tenflang.native import blas_threads, clib, malloc, switches
from . import adam_c, optimizers

STEPPED, CONVERGED, NOT_FINITE, DIVERGED, CHECK = range(5)
OPTIMIZERS = {"sgd": 0, "adam": 1}
SETTINGS = adam_c.SCALARS + ("lr", "weight_decay", "tol")    # the settings array's order

TRAIN = """
#define STEPPED 0
#define CONVERGED 1
#define NOT_FINITE 2
#define DIVERGED 3
#define CHECK 4

static long sgd(long count, const void *arrays_, const long long *sizes, TYPE lr, TYPE decay)
{   /* w -= lr (g + decay w), as optimizers.sgd: 1 when every new weight is finite */
    long finite = 1;
    void *const *arrays = TF_ITEMS(arrays_);
    for (long k = 0; k < count; k++) {
        TYPE *w = (TYPE *)TF_DATA(arrays[4 * k]);
        const TYPE *g = (const TYPE *)TF_DATA(arrays[4 * k + 1]);
        for (long long i = 0; i < sizes[k]; i++) {
            const TYPE wi = w[i] - lr * (decay != 0 ? g[i] + decay * w[i] : g[i]);
            finite &= wi - wi == 0;
            w[i] = wi;
        }
    }
    return finite;
}

/* The batch's rows of each of the n_full data arrays into `batch_` (none:
   `data` holds the whole data), the step, the loss and the norm (report[0], report[1]),
   and the update where both are finite and the norm is `tol` or more
   (module docstring: the status) */
long tenflang_train(long B, long n_full, long n_weights, long n_losses, const void *full_,
           const void *rows_, const void *batch_, const void *data, const void *buf,
           const void *out_,
           const void *data_sizes_, const void *weight_sizes_, const void *loss_at_,
           const void *arrays_, const void *kept_, const void *settings_, const void *report_,
           long optimizer)
{
    void *const *full = TF_ITEMS(full_), *const *batch = TF_ITEMS(batch_);
    void *const *out = TF_ITEMS(out_), *const *kept = TF_ITEMS(kept_);
    void *const *arrays = TF_ITEMS(arrays_);        /* w, g, m, v of each weight */
    const long long *rows = (const long long *)TF_DATA(rows_);
    const long long *data_sizes = (const long long *)TF_DATA(data_sizes_);
    const long long *sizes = (const long long *)TF_DATA(weight_sizes_);
    const long long *loss_at = (const long long *)TF_DATA(loss_at_);
    const double *s = (const double *)TF_DATA(settings_);
    double *report = (double *)TF_DATA(report_);
    for (long k = 0; k < n_full; k++)
        for (long i = 0; i < B; i++)
            memcpy((TYPE *)TF_DATA(batch[k]) + i * data_sizes[k],
                   (const TYPE *)TF_DATA(full[k]) + rows[i] * data_sizes[k],
                   sizeof(TYPE) * data_sizes[k]);
    if (tenflang_step(B, data, buf, out_)) return CHECK;
    double loss = 0, norm = 0;
    for (long k = 0; k < n_losses; k++) loss += *(const TYPE *)TF_DATA(out[loss_at[k]]);
    for (long k = 0; k < n_weights; k++) {
        const TYPE *g = (const TYPE *)TF_DATA(arrays[4 * k + 1]);
        for (long long i = 0; i < sizes[k]; i++) norm += (double)g[i] * g[i];
    }
    report[0] = loss, report[1] = sqrt(norm);
    if (!(loss - loss == 0 && norm - norm == 0)) return NOT_FINITE;
    if (report[1] < s[9]) return CONVERGED;
    for (long k = 0; k < n_weights; k++)
        memcpy(TF_DATA(kept[k]), TF_DATA(arrays[4 * k]), sizeof(TYPE) * sizes[k]);
    long finite = optimizer ? adam(n_weights, arrays_, weight_sizes_, s[0], s[1], s[2], s[3],
                                   s[4], s[5], s[6])
                            : sgd(n_weights, arrays_, sizes, (TYPE)s[7], (TYPE)s[8]);
    if (finite) return STEPPED;
    for (long k = 0; k < n_weights; k++)
        memcpy(TF_DATA(arrays[4 * k]), TF_DATA(kept[k]), sizeof(TYPE) * sizes[k]);
    return DIVERGED;
}
"""


def source(plan, dtype: str, vector: bool = False) -> str:
    """The step's C (native_step; `vector`: with vector math, where c_loops
    finds it), Adam's loop (adam_c) and `train`."""
    step = native_run.step_c(plan, "mean", dtype)[0 if vector else 1]
    return step + "\n#undef WIDE\n" + adam_c.source(dtype) + TRAIN


def applies(cfg) -> bool:
    """Whether the settings are ones `train` runs (module docstring)."""
    return (cfg.optimizer in OPTIMIZERS and not (cfg.optimizer == "sgd" and cfg.momentum)
            and cfg.clip_norm is None and not cfg.freeze and switches.fused_loops_on()
            and switches.native_kernels_on())


PYTHON_SECONDS = 60e-6     # what the loop's Python around a plan costs a step, about


@functools.lru_cache(maxsize=64)
def library(plan, dtype: str, vector: bool):
    """`train` of the plan compiled for `dtype`, or None where it cannot be had."""
    try:
        lib = c_loops.library_with_vector_math(source(plan, dtype, True) if vector else None,
                                               source(plan, dtype))
    except (Unsupported, clib.Unavailable, clib.Abandoned):
        return None
    lib.tenflang_set_gemm.argtypes, lib.tenflang_set_gemm.restype = [ctypes.c_void_p], None
    lib.tenflang_set_gemm(native_run.gemm_address(dtype))
    f = lib.tenflang_train
    f.argtypes = [ctypes.c_long] * 4 + [ctypes.py_object] * 13 + [ctypes.c_long]
    f.restype = ctypes.c_long
    return f


def key(plan, dtype: str) -> tuple:
    """What native_run.when_worth knows the library of `train` by."""
    return ("train", plan, dtype)


def built(plan, dtype: str):
    """`library`, where it is cached or the run gets its compile back (as
    native_run.native_step decides, the loop's Python saved too); None
    meanwhile, where it is compiled in the background (`native_run.pending`)."""
    vector = c_loops.vector_math()
    return native_run.when_worth(
        key(plan, dtype), lambda: library(plan, dtype, vector),
        native_run.saving(plan, saved=PYTHON_SECONDS),
        lambda: c_loops.cached_with_vector_math(source(plan, dtype, True) if vector else None,
                                                source(plan, dtype)))


class FusedStep:
    """The whole step of one run (module docstring)."""

    def __init__(self, find, layout, plan, sig, cfg, data: dict):
        # find() -> `train`, or None while it is compiled in the background
        self.find, self.function, self.layout, self.plan, self.cfg = find, None, layout, plan, cfg
        self.dtype = np.dtype(cfg.dtype)
        self.batched = [n for n in plan.bound if n in plan.batched]
        self.full = tuple(np.ascontiguousarray(data[n], dtype=self.dtype) for n in self.batched)
        self.data_sizes = np.array([a[0].size if len(a) else 0 for a in self.full], np.int64)
        self.weights = list(sig.gradients)                  # weight -> its gradient result
        self.out_at = {r: k for k, r in enumerate(r for r in plan.results if r not in plan.null)}
        self.gradients = [self.out_at[sig.gradients[w]] for w in self.weights]
        self.loss_at = np.array([self.out_at[n] for n in sig.losses], np.int64)
        self.shapes = [tuple(plan.shapes[r]) for r in self.out_at]
        self.sizes = np.array([int(np.prod(plan.shapes[w])) for w in self.weights], np.int64)
        self.buffers, self.batches, self.kept = Buffers(), {}, ()    # kept: the weights before
        self.settings, self.report = np.zeros(len(SETTINGS)), np.zeros(2)
        self.no_rows = np.zeros(0, np.int64)
        self.checked = None          # the weights dict last found fit to update in place
        self.declined = False        # `train` not to be had in this run
        malloc.keep_freed_memory()
        blas_threads.settle()        # BLAS's threads as many as the loops', as run_plan does

    def batch(self, size: int) -> tuple:
        """The arrays the batch's rows are gathered into (made once per size)."""
        if size not in self.batches:
            self.batches[size] = [np.empty((size,) + a.shape[1:], self.dtype) for a in self.full]
        return self.batches[size]

    def __call__(self, state, rows, lr: float):
        """(status, loss, gradient norm, gradients by weight) of one step; None
        where `ready` says no, or for a batch of `FUSE_FROM` examples or more."""
        size = len(rows) if rows is not None else len(self.full[0]) if self.full else 1
        if size >= FUSE_FROM or not self.ready(state):    # the generated Python's threads
            return None
        gathered, n_full = (self.full, 0) if rows is None else (self.batch(size), len(self.full))
        rows = self.no_rows if rows is None else np.asarray(rows, np.int64)
        data = dict(zip(self.batched, gathered))
        bound = tuple(data[n] if n in data else state.weights[n] for n in self.plan.bound)
        out = tuple(np.empty(shape, self.dtype) for shape in self.shapes)
        self.set_settings(state.iteration + 1, lr)
        buf = tuple(self.buffers.arrays(self.layout, size, self.dtype, np))
        status = self.function(size, n_full, len(self.weights), len(self.loss_at), self.full,
                               rows, tuple(gathered), bound, buf, out, self.data_sizes,
                               self.sizes, self.loss_at, self.arrays(state, out), self.kept,
                               self.settings, self.report, OPTIMIZERS[self.cfg.optimizer])
        grads = {w: out[k] for w, k in zip(self.weights, self.gradients)}
        return status, float(self.report[0]), float(self.report[1]), grads

    def ready(self, state) -> bool:
        """Whether `train` is had (compiled in the background: not yet) and the
        weights are arrays it can update in place (checked once per dict)."""
        if self.function is None and not self.declined:
            with native_run.expecting(self.cfg.max_iters - state.iteration):
                self.function = self.find()
            # asked again only while it is being compiled
            self.declined = not native_run.pending(key(self.plan, self.cfg.dtype))
        if self.function is None:
            return False
        if state.weights is not self.checked:
            if not all(fits(state.weights[w], self.dtype) for w in self.weights):
                return False
            self.checked = state.weights
            self.kept = tuple(np.empty_like(state.weights[w]) for w in self.weights)
        return True

    def arrays(self, state, out) -> tuple:
        """(w, g, m, v) of every weight (Adam's slots made on its first step; SGD
        keeps none: w and g stand in)."""
        items = []
        for w, k in zip(self.weights, self.gradients):
            weight = state.weights[w]
            if self.cfg.optimizer == "adam":
                (_, m), (_, v) = optimizers.slot_keys("adam", w)
                items += (weight, out[k], optimizers.slot(state.slots, m, weight, np),
                          optimizers.slot(state.slots, v, weight, np))
            else:
                items += (weight, out[k], weight, out[k])
        return tuple(items)

    def set_settings(self, t: int, lr: float) -> None:
        values = adam_c.scalars(t, lr, self.cfg) if self.cfg.optimizer == "adam" else (0,) * 7
        self.settings[:] = (*values, lr, self.cfg.weight_decay, self.cfg.tol)


def fits(w, dtype) -> bool:
    return (type(w) is np.ndarray and w.dtype == dtype and w.flags.c_contiguous
            and w.flags.writeable)


def fused_step(plan, sig, cfg, data: dict) -> FusedStep | None:
    """The run's whole step as one C call, or None where it does not apply."""
    if not (applies(cfg) and cfg.dtype in ("float32", "float64")
            and native_run.worth_a_look(native_run.saving(plan, saved=PYTHON_SECONDS))):
        return None
    try:
        layout = native_run.sources(plan, "mean", cfg.dtype)[2]
    except (Unsupported, clib.Unavailable):
        return None
    return FusedStep(functools.partial(built, plan, cfg.dtype), layout, plan, sig, cfg, data)
