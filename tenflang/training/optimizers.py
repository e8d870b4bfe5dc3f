"""Optimizers and learning-rate schedules: one registry each.

Each optimizer is one function `update(w, g, slots, t, lr, config, xp)` that
changes the weight `w` in place, as torch.optim's documentation writes the
step (and in its order of operations, so the weights agree to rounding):
`g` the mean gradient of the batch, `lr` this step's learning rate (γ, from
the schedule), λ = `config.weight_decay`, `t` the 1-based step number,
`slots` the weight's optimizer state (arrays kept between steps and in
checkpoints, created here on the first step; `SLOTS` names them).

* sgd:       g ← g + λw;  w ← w − γg                     (torch.optim.SGD)
* momentum:  g ← g + λw;  b ← μb + g;  w ← w − γb, or with nesterov
             w ← w − γ(g + μb)                            (SGD with momentum μ)
* adam:      w ← w − γλw;  m ← β₁m + (1−β₁)g;  v ← β₂v + (1−β₂)g²;
             w ← w − γ m̂ / (√v̂ + ε), m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ)
                                                           (torch.optim.AdamW)
* rmsprop:   g ← g + λw;  v ← αv + (1−α)g²;  u = g / (√v + ε);
             with momentum μ > 0: b ← μb + u, u = b;  w ← w − γu
                                                (torch.optim.RMSprop, α = 0.99)
* adagrad:   g ← g + λw;  s ← s + g²;  w ← w − γ g / (√s + ε)
                                                           (torch.optim.Adagrad)

Before the update, with `clip_norm`, the gradients are scaled by
min(1, clip_norm / (‖g‖ + 1e-6)), ‖g‖ the L2 norm over every weight's
gradient (torch.nn.utils.clip_grad_norm_).  Weights named in `freeze` take
no step, keep no state and count in no norm (torch: requires_grad=False).
Weight decay is L2 added to the gradient except for adam, where it is
decoupled, as docs/guide/training.md says.

A schedule maps (base lr, step index from 0, config) to the step's
learning rate: `cosine` is CosineAnnealingLR(T_max=max_iters, eta_min=0);
`step` is StepLR(step_size=lr_step, gamma=lr_gamma); `warmup-cosine` rises
linearly, γ(t+1)/W for the first W = `warmup` steps (LinearLR with
start_factor 1/W over W−1 steps), then anneals as cosine over the
max_iters − W steps left.

`check(config)` refuses settings torch.optim would refuse, and settings
that the chosen optimizer or schedule would ignore; `fill(config)` gives
the unset ones torch.optim's defaults for the chosen optimizer.
"""
from __future__ import annotations

import functools
import math

from tenflang.base.errors import TenflangError
from . import adam_c
from .norms import squared_norm

RMSPROP_ALPHA = 0.99     # torch.optim.RMSprop's smoothing constant
CLIP_EPS = 1e-6          # clip_grad_norm_'s guard against a zero norm


def decayed(w, g, config):
    """The gradient with L2 weight decay added (a new array when there is any)."""
    return g + config.weight_decay * w if config.weight_decay else g


def slot(slots: dict, name: str, w, xp):
    """The weight's state `name`, zeros on the first step (made only then: a
    step allocates nothing it does not keep)."""
    if name not in slots:
        slots[name] = xp.zeros_like(w)
    return slots[name]


def sgd(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    w -= lr * decayed(w, g, config)


def momentum(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    g = decayed(w, g, config)
    b = slot(slots, "v", w, xp)
    b *= config.momentum
    b += g
    w -= lr * (g + config.momentum * b if config.nesterov else b)


def adam(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    """The numpy form; `step` first tries every weight's in one C call (adam_c)."""
    beta1, beta2 = config.betas
    m = slot(slots, "m", w, xp)
    v = slot(slots, "v", w, xp)
    if config.weight_decay:
        w *= 1 - lr * config.weight_decay
    m += (1 - beta1) * (g - m)          # torch's lerp
    v *= beta2
    v += (1 - beta2) * g * g
    denom = xp.sqrt(v) / math.sqrt(1 - beta2 ** t) + config.eps
    w -= (lr / (1 - beta1 ** t)) * m / denom


def rmsprop(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    g = decayed(w, g, config)
    v = slot(slots, "v", w, xp)
    v *= RMSPROP_ALPHA
    v += (1 - RMSPROP_ALPHA) * g * g
    u = g / (xp.sqrt(v) + config.eps)
    if config.momentum:
        b = slot(slots, "b", w, xp)
        b *= config.momentum
        b += u
        u = b
    w -= lr * u


def adagrad(w, g, slots: dict, t: int, lr: float, config, xp) -> None:
    g = decayed(w, g, config)
    s = slot(slots, "sum", w, xp)
    s += g * g
    w -= lr * g / (xp.sqrt(s) + config.eps)


OPTIMIZERS = {"sgd": sgd, "momentum": momentum, "adam": adam, "rmsprop": rmsprop,
              "adagrad": adagrad}
# the optimizer state each keeps per weight (checkpoints check them)
SLOTS = {"sgd": (), "momentum": ("v",), "adam": ("m", "v"), "rmsprop": ("v", "b"),
         "adagrad": ("sum",)}
# torch.optim's defaults of the settings that apply only to some optimizers
DEFAULTS = {"momentum": {"momentum": 0.9, "rmsprop": 0.0},
            "betas": {"adam": (0.9, 0.999)},
            "eps": {"adam": 1e-8, "rmsprop": 1e-8, "adagrad": 1e-10}}


def constant(lr: float, step: int, config) -> float:
    return lr


def cosine(lr: float, step: int, config) -> float:
    """γ_t = γ (1 + cos(π t / T)) / 2, T = max_iters: γ at the first step, 0 at T."""
    return annealed(lr, step, config.max_iters)


def annealed(lr: float, step: int, length: int) -> float:
    return lr * (1 + math.cos(math.pi * step / length)) / 2 if length else lr


def step_decay(lr: float, step: int, config) -> float:
    """γ_t = γ · lr_gamma ^ ⌊t / lr_step⌋."""
    return lr * config.lr_gamma ** (step // config.lr_step)


def warmup_cosine(lr: float, step: int, config) -> float:
    warmup = config.warmup
    if step < warmup:
        return lr * (step + 1) / warmup
    return annealed(lr, step - warmup, config.max_iters - warmup)


SCHEDULES = {"constant": constant, "cosine": cosine, "step": step_decay,
             "warmup-cosine": warmup_cosine}


def learning_rate(config, iteration: int) -> float:
    """The learning rate of the step taken at `iteration` (from 0)."""
    return SCHEDULES[config.lr_schedule](config.lr, iteration, config)


def clipped(grads: dict, max_norm: float, xp) -> dict:
    """The gradients scaled to a global L2 norm of at most `max_norm`."""
    coef = xp.minimum(max_norm / (xp.sqrt(squared_norm(grads, xp)) + CLIP_EPS), 1.0)
    return {name: g * coef for name, g in grads.items()}


def trainable(grads: dict, config) -> dict:
    """The gradients of the weights that are not frozen."""
    return {n: g for n, g in grads.items() if n not in config.freeze}


def step(state, grads: dict, config, xp) -> bool | None:
    """One optimizer step of `config.optimizer`, in place on `state.weights`
    and `state.slots` (slot keys `<slot>:<weight>`, e.g. `m:W1`): whether the
    weights it wrote are finite where its own pass over them tells (Adam's C
    update), else None."""
    lr = learning_rate(config, state.iteration)
    grads = trainable(grads, config)
    if config.clip_norm is not None:
        grads = clipped(grads, config.clip_norm, xp)
    if config.optimizer == "adam":
        finite = adam_step(state, grads, lr, config, xp)
        if finite is not None:
            return finite
    update = OPTIMIZERS[config.optimizer]
    for name, w in state.weights.items():
        if name in grads:
            keys = slot_keys(config.optimizer, name)
            slots = {kind: state.slots[key] for kind, key in keys if key in state.slots}
            update(w, grads[name], slots, state.iteration + 1, lr, config, xp)
            state.slots.update({key: slots[kind] for kind, key in keys if kind in slots})
    return None


def adam_step(state, grads: dict, lr: float, config, xp) -> bool | None:
    """Adam's step on every weight as one C call (adam_c): whether the new weights
    are finite; None, and no weight changed, where that does not apply."""
    weights = []
    for name, w in state.weights.items():
        if name in grads:
            (_, m), (_, v) = slot_keys("adam", name)
            weights.append((w, grads[name], slot(state.slots, m, w, xp),
                            slot(state.slots, v, w, xp)))
    return adam_c.update(weights, state.iteration + 1, lr, config)


@functools.lru_cache(maxsize=None)
def slot_keys(optimizer: str, weight: str) -> tuple:
    """(slot, its key in `State.slots`) for each slot the optimizer keeps for
    `weight`: keys `<slot>:<weight>`, as checkpoints store them (made once, not
    at every step)."""
    return tuple((kind, f"{kind}:{weight}") for kind in SLOTS[optimizer])


# ---------------------------------------------------------------- checking settings

def check(config) -> None:
    """Refuse what torch.optim refuses and what the optimizer or schedule
    would silently ignore (each message names the option)."""
    one_of("optimizer", config.optimizer, OPTIMIZERS)
    one_of("lr_schedule", config.lr_schedule, SCHEDULES)
    for name, users in DEFAULTS.items():
        if getattr(config, name) is not None and config.optimizer not in users:
            raise bad(name, f"applies to --optimizer {' or '.join(users)}, not "
                      f"{config.optimizer}")
    if config.momentum is not None and not config.momentum >= 0:
        raise bad("momentum", f"must be 0 or more, not {config.momentum!r}")
    if config.nesterov and (config.optimizer != "momentum" or config.momentum == 0):
        raise bad("nesterov", "needs --optimizer momentum with a --momentum above 0")
    if config.betas is not None:
        check_betas(config.betas)
    if config.eps is not None and not config.eps >= 0:
        raise bad("eps", f"must be 0 or more, not {config.eps!r}")
    if config.clip_norm is not None and not config.clip_norm > 0:
        raise bad("clip_norm", f"must be above 0, not {config.clip_norm!r}")
    check_schedule(config)


def check_betas(betas) -> None:
    if not (isinstance(betas, (tuple, list)) and len(betas) == 2):
        raise bad("betas", f"must be two numbers B1,B2, not {betas!r}")
    for beta in betas:
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 <= beta < 1:
            raise bad("betas", f"must each be in [0, 1), not {beta!r}")


def check_schedule(config) -> None:
    """--lr-step and --lr-gamma belong to `step`, --warmup to `warmup-cosine`."""
    wanted = {"step": ("lr_step",), "warmup-cosine": ("warmup",)}.get(config.lr_schedule, ())
    for name, schedule in (("lr_step", "step"), ("lr_gamma", "step"),
                           ("warmup", "warmup-cosine")):
        value = getattr(config, name)
        if value is not None and config.lr_schedule != schedule:
            raise bad(name, f"applies to --lr-schedule {schedule}, not {config.lr_schedule}")
        if value is None and name in wanted:
            raise bad(name, f"is needed by --lr-schedule {config.lr_schedule}")
    for name in ("lr_step", "warmup"):
        value = getattr(config, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise bad(name, f"must be a whole number of iterations, 1 or more, not {value!r}")
    if config.lr_gamma is not None and not config.lr_gamma > 0:
        raise bad("lr_gamma", f"must be above 0, not {config.lr_gamma!r}")
    if config.warmup is not None and config.warmup >= config.max_iters:
        raise bad("warmup", f"must be below --max-iters ({config.max_iters}), not "
                  f"{config.warmup}")


def fill(config) -> None:
    """Unset settings get torch.optim's defaults for `config.optimizer` (and
    `step`'s gamma, 0.1); the others stay None."""
    for name, defaults in DEFAULTS.items():
        if getattr(config, name) is None and config.optimizer in defaults:
            setattr(config, name, defaults[config.optimizer])
    if config.lr_schedule == "step" and config.lr_gamma is None:
        config.lr_gamma = 0.1
    config.betas = None if config.betas is None else tuple(float(b) for b in config.betas)
    names = config.freeze
    config.freeze = tuple(names.split(",") if isinstance(names, str) else names or ())


def check_frozen(freeze, weights) -> None:
    """Every name of `freeze` is a weight, and one weight at least is left to learn."""
    for name in freeze:
        if name not in weights:
            raise TenflangError(f"--freeze names '{name}', which is not a weight of the GCP; "
                                f"its weights: {', '.join(weights)}")
    if weights and all(name in freeze for name in weights):
        raise TenflangError("--freeze names every weight of the GCP: there is nothing to learn")


def one_of(field_name: str, value, choices: dict) -> None:
    if value not in choices:
        raise TenflangError(f"unknown {field_name} {value!r}; choose one of: "
                            f"{', '.join(choices)}")


def bad(field_name: str, problem: str) -> TenflangError:
    return TenflangError(f"{field_name} (--{field_name.replace('_', '-')}) {problem}")
