"""The settings of a run: `TrainConfig`, checked when it is made.

    config = TrainConfig(lr=0.5, max_iters=2000)
    config = TrainConfig(optimizer="adam", batch_size=32, val_fraction=0.2, patience=5)

Every field has its tfweightcalc option (docs/api.md lists them); a bad
value raises `TenflangError` with one message naming that option.  The
plain fields' types and ranges are checked here (`check_fields`); how the
optimizer's and the schedule's settings combine, and their defaults, are
the optimizers' (tenflang.training.optimizers, `check` and `fill`).
"""
from __future__ import annotations

import math
import numbers

from tenflang.base.frozen import mutable
from tenflang.base.errors import TenflangError
from tenflang.base.dtypes import dtype_refusal
from . import optimizers


STATISTICS = (None, "running", "exact")     # TrainConfig.statistics


@mutable
class TrainConfig:
    """The settings of a run (docs/api.md lists them with their tfweightcalc
    options); checked when made."""
    lr: float = 0.1
    optimizer: str = "sgd"
    batch_size: int | None = None
    max_iters: int = 1000
    tol: float = 1e-6
    seed: int = 0
    momentum: float | None = None    # None: torch.optim's default (optimizers.DEFAULTS)
    betas: tuple | None = None
    eps: float | None = None
    val_fraction: float = 0.0
    dtype: str = "float64"
    weight_decay: float = 0.0
    lr_schedule: str = "constant"
    patience: int | None = None
    nesterov: bool = False
    clip_norm: float | None = None
    lr_step: int | None = None
    lr_gamma: float | None = None
    warmup: int | None = None
    freeze: tuple = ()
    # the batch statistics' values kept with the weights (docs/guide/training.md): "running"
    # (averages over the steps) or "exact" (population values); None: running in one process,
    # exact on a cluster
    statistics: str | None = None
    statistics_momentum: float = 0.1      # of the running averages (as torch's BatchNorm)

    def __post_init__(self):
        check_fields(self)
        optimizers.check(self)
        optimizers.fill(self)
        if self.patience is not None:
            if isinstance(self.patience, bool) or not isinstance(self.patience, int) \
                    or self.patience < 1:
                raise TenflangError(f"patience (--patience) must be a whole number of "
                                    f"evaluations, 1 or more, not {self.patience!r}")
            if not self.val_fraction:
                raise TenflangError("patience (--patience) needs a validation split to watch: "
                                    "set val_fraction (--val-fraction), e.g. 0.2")


def check_fields(cfg: TrainConfig) -> None:
    """The types and ranges of the plain settings (each message names its option)."""
    def number(name, low, high=math.inf, low_open=False, whole=False, optional=False):
        value = getattr(cfg, name)
        if value is None and optional:
            return
        kind = numbers.Integral if whole else numbers.Real
        ok = (not isinstance(value, bool) and isinstance(value, kind) and math.isfinite(value)
              and (value > low if low_open else value >= low) and value < high)
        if not ok:
            span = f"above {low}" if low_open else f"{low} or more"
            span += f" and below {high}" if high != math.inf else ""
            raise optimizers.bad(name, f"must be {span}{', a whole number' if whole else ''}, "
                                 f"not {value!r:.60}")
    number("lr", 0, low_open=True)
    number("batch_size", 1, whole=True, optional=True)
    number("max_iters", 0, whole=True)
    number("tol", 0)
    number("seed", 0, whole=True)
    number("val_fraction", 0, 1)
    number("weight_decay", 0)
    number("statistics_momentum", 0, 1, low_open=True)
    if cfg.statistics not in STATISTICS:
        raise optimizers.bad("statistics", f"must be {' or '.join(map(repr, STATISTICS[1:]))} "
                             f"(or None: the source's default), not {cfg.statistics!r:.60}")
    if dtype_refusal(cfg.dtype):
        raise optimizers.bad("dtype", dtype_refusal(cfg.dtype))

