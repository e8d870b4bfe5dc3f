"""Training and evaluation modes (docs/design.md §2.3.2), and dropout's generator.

`batch_mean` and `dropout_mask` are the only ops whose value depends on more
than the example; a run is in one `Mode`:

* training (`Mode()`, the default of every run): `batch_mean` is the mean over
  the examples of the batch being run; `dropout_mask x p` is drawn, entry by
  entry, 0 with probability p, else 1/(1 - p);
* evaluation (`EVALUATION`): `dropout_mask` is all 1; `batch_mean` results are
  not computed but read, as population values bound like weights (interp/planning/plan.py
  binds a defined name given in the data; interp/runtime/population.py computes them).

Dropout is drawn from a counter-based generator: an entry's uniform number is
a hash of (seed, the op's target name, iteration, the example's index in the
data set, the entry's index in the example).  No state is carried from one
draw to the next, so a run is reproducible, a batch split in any way (Dask
workers, chunks) draws what the whole batch draws, and two `dropout_mask`
lines (different target names) are independent.  The hash is splitmix64's
finaliser, twice, over xp's uint64 arithmetic (numpy and cupy alike).

numpy is imported in the functions that run ops, not with the module: the op
table imports this one, and `tfcompiler`, which runs no op, starts 0.1 s
sooner without numpy.
"""
from __future__ import annotations

import math
from dataclasses import replace

from tenflang.base.hashing import blake2b
from tenflang.base.errors import TenflangError
from tenflang.base.frozen import frozen

MODE_KEY = "#mode"       # where a run's mode sits among its values (never a TenFlang name)
BITS = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


@frozen
class Mode:
    training: bool = True
    seed: int = 0
    iteration: int = 0
    rows: object = None       # the batch's example indices in the data set (None: 0..B-1)

    def for_batch(self, batch: int) -> "Mode":
        """This mode with the indices of a batch of `batch` examples settled."""
        if self.rows is None:
            import numpy as np
            return replace(self, rows=np.arange(batch))
        if len(self.rows) != batch:
            raise ValueError(f"{len(self.rows)} example indices for a batch of {batch}")
        return self


TRAINING, EVALUATION = Mode(), Mode(training=False)


def mix(z):
    """splitmix64's finaliser on uint64 values (arrays wrap modulo 2**64)."""
    import numpy as np
    z = (z ^ (z >> 30)) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> 27)) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> 31)


def mix_int(z: int) -> int:
    z &= BITS
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & BITS
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & BITS
    return z ^ (z >> 31)


def stream_key(seed: int, name: str, iteration: int) -> int:
    """The 64-bit key of one op's draws in one iteration (the name's hash is
    stable across processes, unlike Python's `hash`)."""
    named = int.from_bytes(blake2b(name.encode(), digest_size=8).digest(), "little")
    return mix_int(mix_int(mix_int(seed) ^ named) + iteration * GOLDEN)


def uniform(xp, key: int, rows, size: int):
    """[len(rows), size] numbers uniform in [0, 1): entry j of example r."""
    import numpy as np
    counter = xp.asarray(rows, dtype=xp.uint64)[:, None] * np.uint64(size) \
        + xp.arange(size, dtype=xp.uint64)[None]
    h = mix(mix(counter * np.uint64(GOLDEN) + np.uint64(key)) ^ np.uint64(mix_int(key)))
    return (h >> np.uint64(11)).astype(xp.float64) * (1.0 / (1 << 53))


def dropout_mask(xp, a, p, mode: Mode, name: str):
    """The op's forward: `a` gives the per-example shape, `p` the drop probability
    (an array holding the literal), `mode` the run's mode, `name` its target."""
    p = float(p.reshape(-1)[0])
    if p >= 1.0:        # a literal below 1 that the run's dtype rounds to 1 (float32)
        raise TenflangError(f"dropout_mask: the drop probability is 1 in {a.dtype}, which "
                            "would drop every entry; write a p that stays below 1 in this "
                            "dtype, or run in float64")
    shape, batch = a.shape[1:], len(mode.rows)
    if not mode.training:
        return xp.ones((batch,) + shape, dtype=a.dtype)
    size = math.prod(shape)
    kept = uniform(xp, stream_key(mode.seed, name, mode.iteration), mode.rows, size) >= p
    return (kept * (1.0 / (1.0 - p))).astype(a.dtype).reshape((batch,) + shape)


def batch_mean(xp, a):
    """The mean over the batch's examples, kept as one example (broadcast by the ops after it)."""
    return a.mean(axis=0, keepdims=True)
