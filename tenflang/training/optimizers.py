"""Optimizers and learning-rate schedules: one registry each.

Each optimizer is one function `update(w, g, slots, t, lr, config, xp)` that
changes the weight `w` in place, as torch.optim's documentation writes the
step: `g` the mean gradient of the batch, `lr` this step's learning rate
(γ, from the schedule), λ = `config.weight_decay`, `t` the 1-based step
number, `slots` the weight's optimizer state (arrays kept between steps and
in checkpoints, created here on the first step).

* sgd:       g ← g + λw;  w ← w − γg                     (torch.optim.SGD)
* momentum:  g ← g + λw;  b ← μb + g;  w ← w − γb        (SGD with momentum μ)
* adam:      w ← w − γλw;  m ← β₁m + (1−β₁)g;  v ← β₂v + (1−β₂)g²;
             w ← w − γ m̂ / (√v̂ + ε), m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ)
                                                           (torch.optim.AdamW)

Weight decay is L2 added to the gradient for sgd and momentum, decoupled for
adam, as docs/guide.md §7 says.  A schedule maps (base lr, step index from
0, max_iters) to the step's learning rate; `cosine` is torch's
CosineAnnealingLR with T_max = max_iters and eta_min = 0.
"""
from __future__ import annotations

import math


def sgd(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    if config.weight_decay:
        g = g + config.weight_decay * w
    w -= lr * g


def momentum(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    if config.weight_decay:
        g = g + config.weight_decay * w
    b = slots.setdefault("v", xp.zeros_like(w))
    b *= config.momentum
    b += g
    w -= lr * b


def adam(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    beta1, beta2 = config.betas
    if config.weight_decay:
        w *= 1 - lr * config.weight_decay
    m = slots.setdefault("m", xp.zeros_like(w))
    v = slots.setdefault("v", xp.zeros_like(w))
    m *= beta1
    m += (1 - beta1) * g
    v *= beta2
    v += (1 - beta2) * g * g
    m_hat = m / (1 - beta1 ** t)
    v_hat = v / (1 - beta2 ** t)
    w -= lr * m_hat / (xp.sqrt(v_hat) + config.eps)


OPTIMIZERS = {"sgd": sgd, "momentum": momentum, "adam": adam}


def constant(lr: float, step: int, max_iters: int) -> float:
    return lr


def cosine(lr: float, step: int, max_iters: int) -> float:
    """γ_t = γ (1 + cos(π t / T)) / 2, T = max_iters: γ at the first step, 0 at T."""
    return lr * (1 + math.cos(math.pi * step / max_iters)) / 2 if max_iters else lr


SCHEDULES = {"constant": constant, "cosine": cosine}


def step(state, grads: dict, config, xp) -> None:
    """One optimizer step of `config.optimizer`, in place on `state.weights`
    and `state.slots` (slot keys `<slot>:<weight>`, e.g. `m:W1`)."""
    update = OPTIMIZERS[config.optimizer]
    lr = SCHEDULES[config.lr_schedule](config.lr, state.iteration, config.max_iters)
    by_weight: dict = {name: {} for name in state.weights}
    for key, value in state.slots.items():
        slot, name = key.split(":", 1)
        by_weight.setdefault(name, {})[slot] = value
    for name, w in state.weights.items():
        slots = by_weight[name]
        update(w, grads[name], slots, state.iteration + 1, lr, config, xp)
        state.slots.update({f"{k}:{name}": v for k, v in slots.items()})
