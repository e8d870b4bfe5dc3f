#!/usr/bin/env python3
"""One whole training run of bench_convnets.py's networks in PyTorch eager or JAX jit.

    python bench/convnet_reference.py torch|jax CASE DTYPE STEPS DATA.npz INIT.npz OUT.npz

The process does what `tfweightcalc GCP DATA --init INIT --optimizer adam
--batch-size B --max-iters STEPS -o OUT` does: load the data and the initial
weights, take STEPS Adam steps (torch.optim.Adam's rule, lr `LR`) on batches
of B drawn in tenflang's epoch order (workloads.batch_order), write the
weights.  The network is written once per framework from the weight names
of bench_convnets.CASES (a dense layer `W·h + b`, a conv layer `conv2d(h, K,
pad) + c` with c `[F, 1, 1]`, relu or tanh, 2×2 max-pooling), so both sides
compute the same function from the same weights.  The sequence networks
(encoder, gru, charlm) come from sequence_networks.py: their `forward`, and
`inputs` (indices stay integers, for the embedding rows).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_convnets import CASES, LR  # noqa: E402
from workloads import batch_order  # noqa: E402
import sequence_networks as nets  # noqa: E402


def batches(n: int, size: int, steps: int):
    """Row indices of each step's batch, epoch after epoch."""
    epoch, done = 0, 0
    while done < steps:
        order = batch_order(n, epoch=epoch)
        for start in range(0, n, size):
            if done == steps:
                return
            yield order[start:start + size]
            done += 1
        epoch += 1


def forward(lib, case, p, x):
    """The case's logits; `lib` gives conv, pool, relu, tanh, dense, flatten (and
    sequence_networks' softmax, gelu, sigmoid, mean, sqrt, permute, broadcast)."""
    spec = CASES[case]
    if spec.network:
        return nets.forward(lib, case, p, x)
    h = x.reshape((x.shape[0], 1) + spec.image) if spec.convs else x
    for i, (_, _, pad) in enumerate(spec.convs, 1):
        h = lib.pool(lib.relu(lib.conv(h, p[f"K{i}"], pad) + p[f"c{i}"]))
    h = lib.flatten(h)
    for i in range(1, len(spec.dense) + 1):
        h = lib.dense(h, p[f"W{i}"], p[f"b{i}"])
        if i < len(spec.dense):
            h = getattr(lib, spec.activation)(h)
    return h


def torch_run(case, dtype, steps, data, init):
    import torch
    F = torch.nn.functional

    class lib:
        conv = staticmethod(lambda h, K, pad: F.conv2d(h, K, padding=pad))
        pool = staticmethod(lambda h: F.max_pool2d(h, 2))
        relu, tanh = staticmethod(torch.relu), staticmethod(torch.tanh)
        dense = staticmethod(lambda h, W, b: h @ W.T + b)
        flatten = staticmethod(lambda h: h.reshape(h.shape[0], -1))
        softmax = staticmethod(lambda a: torch.softmax(a, -1))
        gelu, sigmoid, sqrt = staticmethod(F.gelu), staticmethod(torch.sigmoid), staticmethod(torch.sqrt)
        mean = staticmethod(lambda a, axis, keep=True: a.mean(axis, keepdim=keep))
        permute = staticmethod(lambda a, axes: a.permute(*axes))
        broadcast = staticmethod(lambda a, shape: a.expand(*shape))

    x, y = arrays(case, data, dtype)
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    p = {k: torch.tensor(v.astype(dtype)).requires_grad_() for k, v in init.items()}
    opt = torch.optim.Adam(list(p.values()), lr=LR)
    for rows in batches(len(x), CASES[case].batch, steps):
        rows = torch.from_numpy(rows)
        loss = F.cross_entropy(forward(lib, case, p, x[rows]), y[rows])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return {k: v.detach().numpy() for k, v in p.items()}


def jax_run(case, dtype, steps, data, init):
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    class lib:
        @staticmethod
        def conv(h, K, pad):
            return jax.lax.conv_general_dilated(h, K, (1, 1), [(pad, pad), (pad, pad)])

        @staticmethod
        def pool(h):
            return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2),
                                         "VALID")
        relu, tanh = staticmethod(jax.nn.relu), staticmethod(jnp.tanh)
        dense = staticmethod(lambda h, W, b: h @ W.T + b)
        flatten = staticmethod(lambda h: h.reshape(h.shape[0], -1))
        softmax = staticmethod(lambda a: jax.nn.softmax(a, axis=-1))
        gelu = staticmethod(lambda a: jax.nn.gelu(a, approximate=False))
        sigmoid, sqrt = staticmethod(jax.nn.sigmoid), staticmethod(jnp.sqrt)
        mean = staticmethod(lambda a, axis, keep=True: jnp.mean(a, axis, keepdims=keep))
        permute = staticmethod(jnp.transpose)
        broadcast = staticmethod(jnp.broadcast_to)

    def loss_fn(p, xb, yb):
        logp = jax.nn.log_softmax(forward(lib, case, p, xb), axis=1)
        return -jnp.mean(jnp.take_along_axis(logp, yb[:, None], axis=1))

    b1, b2, eps = 0.9, 0.999, 1e-8

    @jax.jit
    def step(state, t, xa, ya, rows):
        p, m, v = state
        g = jax.grad(loss_fn)(p, xa[rows], ya[rows])
        m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
        p = jax.tree_util.tree_map(                 # torch.optim.Adam's formula
            lambda w, m, v: w - LR * (m / (1 - b1 ** t)) / (jnp.sqrt(v / (1 - b2 ** t)) + eps),
            p, m, v)
        return p, m, v

    xa, ya = map(jnp.asarray, arrays(case, data, dtype))
    p = {k: jnp.asarray(v.astype(dtype)) for k, v in init.items()}
    zeros = {k: jnp.zeros_like(v) for k, v in p.items()}
    state = (p, zeros, zeros)
    for t, rows in enumerate(batches(len(xa), CASES[case].batch, steps), 1):
        state = step(state, jnp.asarray(t, dtype=dtype), xa, ya, jnp.asarray(rows))
    return {k: np.asarray(v) for k, v in state[0].items()}


def arrays(case, data, dtype):
    """(inputs, labels) as numpy arrays: inputs in `dtype` unless they are indices."""
    if CASES[case].network:
        x, y, indices = nets.inputs(case, data)
        return (x.astype(np.int64) if indices else x.astype(dtype)), y.astype(np.int64)
    return data["x"].astype(dtype), data["label"].astype(np.int64)


def main(argv) -> int:
    impl, case, dtype, steps, data, init, out = argv
    data, init = dict(np.load(data)), dict(np.load(init))
    run = torch_run if impl == "torch" else jax_run
    np.savez(out, **run(case, dtype, int(steps), data, init))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
