"""The implementations the benchmark times, all doing the same math.

Each ``setup_<impl>(case, data, init, dtype)`` does the one-time work that
is not timed (converting the data to the framework's arrays, compiling the
GCP, JIT warm-up) and returns a runner: ``run(steps=None)`` trains from
`init` for ``case.iters`` optimizer steps (or `steps`, for warm-ups and
memory probes) and returns the final weights as float64 numpy arrays.

Per step every implementation computes the forward pass *including the
loss* (tenflang's GCP computes it and the trainer records it; the
references keep it in a history list too), the mean gradient over the batch,
and a plain SGD update ``w -= lr * grad``.  Mini-batches follow tenflang's
order (``workloads.batch_order``, drawn inside the timed run) and every
implementation gathers its batch rows by fancy indexing, as tenflang does.

* tenflang — ``compile_gradient`` (level 1, untimed) then
  ``tenflang.training.loop.train`` (timed whole: its setup, a copy of the data, the
  per-step gradient norm are part of what a user pays).
* numpy — the straightforward efficient code: matmuls for dense layers and
  for reductions (``X.T @ r``), batch sums inside the products.
* torch — PyTorch eager on CPU, autograd ``loss.backward()``,
  ``torch.set_num_threads`` = numpy's BLAS thread count, no torch.compile.
* jax — ``jax.jit`` of one whole step (XLA's CPU threads are set by
  run_all.py's --threads through XLA_FLAGS before jax is imported) (value_and_grad + update); batches are
  gathered inside the jitted step; compiled during setup.

Softmax cross-entropy against one-hot labels: the hand-written gradient
uses softmax - y (tenflang's rule, softmax * sum(y) - y, is the same number
for one-hot y).
"""
from __future__ import annotations

import importlib.util
import os

import numpy as np

from workloads import Case, batch_order

IMPLEMENTATIONS = ("tenflang", "numpy", "torch", "jax")


def available(impl: str) -> str | None:
    """None when `impl` can run here, else why not."""
    module = {"torch": "torch", "jax": "jax"}.get(impl)
    if module and importlib.util.find_spec(module) is None:
        return f"{module} is not installed (pip install -r bench/requirements.txt)"
    return None


def blas_threads() -> int:
    """numpy's BLAS thread count (threadpoolctl when installed)."""
    try:
        from threadpoolctl import threadpool_info
        counts = [i["num_threads"] for i in threadpool_info() if i.get("user_api") == "blas"]
        if counts:
            return int(counts[0])
    except ImportError:
        pass
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var])
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def setup(impl: str, case: Case, data: dict, init: dict, dtype: str):
    return globals()[f"setup_{impl}"](case, data, init, dtype)


def schedule(case: Case, steps: int | None) -> int:
    """How many optimizer steps a run takes: the case's, or fewer when asked."""
    return case.iters if steps is None else min(steps, case.iters)


# --- tenflang (the system under test) ---------------------------------------

_GCP_CACHE: dict = {}


def compile_case(case: Case):
    import tenflang
    from tenflang.backprop import compile_gradient
    if case.program not in _GCP_CACHE:
        shape = tenflang.parse(case.program, f"{case.model}.tf", shape_program=True)
        _GCP_CACHE[case.program] = compile_gradient(shape, level=1)
    return _GCP_CACHE[case.program]


def setup_tenflang(case: Case, data: dict, init: dict, dtype: str):
    from tenflang.training.config import TrainConfig
    from tenflang.training.loop import train
    gcp = compile_case(case)

    def run(steps=None):
        cfg = TrainConfig(lr=case.lr, optimizer="sgd", batch_size=case.batch_size,
                          max_iters=schedule(case, steps), tol=0.0, seed=0, dtype=dtype)
        # a copy: train() updates the init arrays it is given in place
        result = train(gcp, data, cfg, init={k: v.copy() for k, v in init.items()})
        return {k: np.asarray(v, dtype=np.float64) for k, v in result.weights.items()}
    return run


# --- numpy ------------------------------------------------------------------

def np_logistic(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def setup_numpy(case: Case, data: dict, init: dict, dtype: str):
    x, y = data["x"], data["y"]
    n = len(x)

    def scalar(steps):
        w = init["w"].copy()
        history = []
        for _ in range(steps):
            z = x * w
            o = np_logistic(z)
            diff = o - y
            history.append(float(diff @ diff) / n)                 # mean (o - y)^2
            g = (2.0 / n) * ((diff * o * (1.0 - o)) @ x)           # mean 2 diff o'(z) x
            w -= case.lr * g
        return {"w": w}

    def logreg(steps):
        w, b = init["w"].copy(), init["b"].copy()
        history = []
        for _ in range(steps):
            z = x @ w + b
            history.append(float((np.logaddexp(0.0, z) - y * z).mean()))
            r = (np_logistic(z) - y) / n                            # d mean(loss) / dz
            gw, gb = r @ x, r.sum()
            w -= case.lr * gw
            b -= case.lr * gb
        return {"w": w, "b": b}

    def mlp(steps):
        p = {k: v.copy() for k, v in init.items()}
        W1, b1, W2, b2 = p["W1"], p["b1"], p["W2"], p["b2"]
        bs = case.batch_size
        order = batch_order(n)
        history = []
        for k in range(steps):
            rows = order[k * bs:(k + 1) * bs]
            xb, yb = x[rows], y[rows]
            m = len(rows)
            a = np.tanh(xb @ W1.T + b1)
            s = a @ W2.T + b2
            s -= s.max(axis=1, keepdims=True)
            e = np.exp(s)
            total = e.sum(axis=1, keepdims=True)
            history.append(float(-((s - np.log(total)) * yb).sum()) / m)
            ds = (e / total - yb) / m                               # d mean(loss) / d scores
            da = ds @ W2
            gW2, gb2 = ds.T @ a, ds.sum(axis=0)
            dh = da * (1.0 - a * a)
            gW1, gb1 = dh.T @ xb, dh.sum(axis=0)
            W1 -= case.lr * gW1
            b1 -= case.lr * gb1
            W2 -= case.lr * gW2
            b2 -= case.lr * gb2
        return p

    body = {"scalar": scalar, "logreg": logreg, "mlp": mlp}[case.model]

    def run(steps=None):
        return {k: np.asarray(v, dtype=np.float64) for k, v in body(schedule(case, steps)).items()}
    return run


# --- PyTorch eager -------------------------------------------------------------

def setup_torch(case: Case, data: dict, init: dict, dtype: str):
    import torch
    threads = blas_threads()
    x, y = (torch.from_numpy(data[k]) for k in ("x", "y"))     # shares the numpy memory
    n = len(x)

    def leaves():
        return {k: torch.tensor(v).requires_grad_() for k, v in init.items()}

    def loss_fn(p, xb, yb):
        if case.model == "scalar":
            return ((torch.sigmoid(xb * p["w"]) - yb) ** 2).mean()
        if case.model == "logreg":
            z = xb @ p["w"] + p["b"]
            return (torch.nn.functional.softplus(z) - yb * z).mean()
        a = torch.tanh(xb @ p["W1"].T + p["b1"])
        logp = torch.log_softmax(a @ p["W2"].T + p["b2"], dim=1)
        return -(logp * yb).sum(dim=1).mean()

    def run(steps=None):
        steps = schedule(case, steps)
        torch.set_num_threads(threads)
        p = leaves()
        history = []
        order = torch.from_numpy(batch_order(n)) if case.batch_size else None
        bs = case.batch_size
        for k in range(steps):
            if order is None:
                xb, yb = x, y
            else:
                rows = order[k * bs:(k + 1) * bs]
                xb, yb = x[rows], y[rows]
            loss = loss_fn(p, xb, yb)
            loss.backward()
            history.append(loss.item())
            with torch.no_grad():
                for v in p.values():
                    v -= case.lr * v.grad
                    v.grad = None
        return {k: v.detach().numpy().astype(np.float64) for k, v in p.items()}
    return run


# --- JAX (jit, CPU) -------------------------------------------------------------

def setup_jax(case: Case, data: dict, init: dict, dtype: str):
    import jax
    jax.config.update("jax_enable_x64", True)     # float64 runs; float32 arrays stay float32
    import jax.numpy as jnp

    x, y = jnp.asarray(data["x"]), jnp.asarray(data["y"])
    n = len(data["x"])
    lr = case.lr

    def loss_fn(p, xb, yb):
        if case.model == "scalar":
            return jnp.mean((jax.nn.sigmoid(xb * p["w"]) - yb) ** 2)
        if case.model == "logreg":
            z = xb @ p["w"] + p["b"]
            return jnp.mean(jax.nn.softplus(z) - yb * z)
        a = jnp.tanh(xb @ p["W1"].T + p["b1"])
        logp = jax.nn.log_softmax(a @ p["W2"].T + p["b2"], axis=1)
        return -jnp.mean(jnp.sum(logp * yb, axis=1))

    def update(p, xb, yb):
        loss, g = jax.value_and_grad(loss_fn)(p, xb, yb)
        return jax.tree_util.tree_map(lambda w, gw: w - lr * gw, p, g), loss

    full_step = jax.jit(update)
    batch_step = jax.jit(lambda p, xa, ya, rows: update(p, xa[rows], ya[rows]))
    p0 = {k: jnp.asarray(v) for k, v in init.items()}

    bs = case.batch_size
    if bs:      # compile for the batch shapes of the epoch (full and last)
        for size in {bs, n - (case.iters - 1) * bs}:
            jax.block_until_ready(batch_step(p0, x, y, jnp.arange(size)))
    else:
        jax.block_until_ready(full_step(p0, x, y))

    def run(steps=None):
        steps = schedule(case, steps)
        p = dict(p0)
        history = []
        order = batch_order(n) if bs else None
        for k in range(steps):
            if order is None:
                p, loss = full_step(p, x, y)
            else:
                p, loss = batch_step(p, x, y, jnp.asarray(order[k * bs:(k + 1) * bs]))
            history.append(loss)
        jax.block_until_ready(p)
        return {k: np.asarray(v, dtype=np.float64) for k, v in p.items()}
    return run


# --- helpers for the report -----------------------------------------------------

def library_versions() -> dict:
    out = {"numpy": np.__version__}
    for name in ("torch", "jax"):
        if available(name) is None:
            try:
                out[name] = __import__(name).__version__
            except Exception as exc:      # noqa: BLE001 - reported, not fatal
                out[name] = f"import failed: {exc}"
    return out
