"""Which examples a step takes: epoch permutations in one process, and
mini-batches drawn chunk by chunk in a distributed run.

    rows = batch_indices(n, batch_size, seed, iteration)     # one process

    take = batch_shares(chunk_rows, batch_size)   # examples per chunk per step
    rows = chunk_batch(chunk_rows[c], take[c], seed, c, step)

A data set cut into chunks (see `tenflang.data.shards`) is sampled without
looking at more than one chunk at a time, so that a worker draws its share of
a step from the chunks it holds and nobody ever permutes the whole data set:

* The global batch B is shared out between the chunks in proportion to their
  sizes, by largest remainder: chunk c takes b_c examples per step, the b_c
  add up to B and stay fixed for the run (`batch_shares`).  Every chunk with
  rows takes at least 1, so that no chunk is left out of training (nor of
  the population statistics): each of the C chunks gets 1, and the other
  B - C go by largest remainder in proportion to max(B*n_c/N - 1, 0).  When
  every chunk's exact share B*n_c/N is at least 1 this is the plain
  proportional split (`shares`), to the bit; a batch smaller than C cannot
  give every chunk one, and a distributed run refuses it.
* Chunk c's examples form an endless stream, the permutation of its n_c rows
  drawn from ``default_rng([seed, c, epoch])`` for epoch 0, 1, 2, ...; step t
  takes positions [t*b_c, (t+1)*b_c) of it.  So every step holds exactly B
  examples, every example of a chunk is seen once per pass over the chunk,
  and a step's rows are a function of (seed, chunk, step) alone: whichever
  worker holds the chunk, and however often Dask recomputes the task after a
  worker died, it draws the same rows.
* `global_batch` gives the same rows as indices into the chunks laid end to
  end: a single process that trains with it (``train(..., batches=...)``)
  takes the very steps of the distributed run, up to round-off.
* A validation split is drawn the same way: round(N * fraction) examples
  shared out between the chunks (`shares`: no minimum of 1, since a split
  smaller than the chunk count is allowed), each chunk holding out a seeded
  choice of its rows (`chunk_split`).

A batch size of at least the number of examples means full batch
(docs/design.md §4): `batch_shares` is then not used.
"""
from __future__ import annotations

import functools

import numpy as np


def shares(rows: list, total: int) -> list:
    """`total` split between chunks of `rows` examples in proportion to their
    sizes, by largest remainder (ties to the earlier chunk); each share is at
    most its chunk's rows when `total` is at most their sum."""
    n = sum(rows)
    return largest_remainder([total * r / n for r in rows], total)


def largest_remainder(exact: list, total: int) -> list:
    """The integers nearest the shares `exact` (which add up to `total`):
    their floors, and one more for the largest remainders (ties to the
    earlier chunk)."""
    out = [int(e) for e in exact]
    by_remainder = sorted(range(len(exact)), key=lambda c: (out[c] - exact[c], c))
    for c in by_remainder[:total - sum(out)]:
        out[c] += 1
    return out


def batch_shares(rows: list, batch: int) -> list:
    """Examples each chunk gives a step of `batch` (< sum(rows)): `shares`,
    except that every chunk with rows gets at least 1 (module docstring);
    needs a batch of at least the number of such chunks."""
    n, ones = sum(rows), [1 if r else 0 for r in rows]
    spare = batch - sum(ones)
    if spare < 0:
        raise ValueError(f"a batch of {batch} cannot give each of {sum(ones)} chunks an example")
    exact = [batch * r / n for r in rows]
    beyond = [max(e - 1, 0.0) for e in exact]      # e - 1 is exact in floats for e >= 1
    if any(0 < e < 1 for e in exact):
        # the clamped chunks took more than their share: the rest is shared out
        # in proportion to what the others had beyond their 1.  Only then, so
        # that without a clamped chunk the floats, hence the ties, are those of
        # `shares` and existing runs keep their batches.  (The others had
        # beyond > 0 in all: their exact shares add up to more than spare.)
        whole = sum(beyond)
        beyond = [spare * b / whole for b in beyond]
    return [one + extra for one, extra in zip(ones, largest_remainder(beyond, spare))]


@functools.lru_cache(maxsize=8)
def chunk_order(rows: int, seed: int, chunk: int, epoch: int) -> np.ndarray:
    """The order of chunk `chunk`'s rows in its pass `epoch` (drawn once per pass)."""
    return np.random.default_rng([seed, chunk, epoch]).permutation(rows)


def chunk_batch(rows: int, share: int, seed: int, chunk: int, step: int) -> np.ndarray:
    """The rows (0-based within the chunk) that chunk `chunk` gives step `step`."""
    first, last = step * share, (step + 1) * share
    parts = []
    for epoch in range(first // rows, (last - 1) // rows + 1):
        order = chunk_order(rows, seed, chunk, epoch)
        parts.append(order[max(first - epoch * rows, 0):min(last - epoch * rows, rows)])
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def global_batch(rows: list, batch_size: int, seed: int, step: int) -> np.ndarray:
    """The rows of step `step` as indices into the chunks laid end to end, in
    chunk order (what `chunk_batch` gives each chunk)."""
    offsets = np.cumsum([0] + list(rows[:-1]))
    take = batch_shares(rows, batch_size)
    return np.concatenate([offset + chunk_batch(n, b, seed, c, step)
                           for c, (n, b, offset) in enumerate(zip(rows, take, offsets)) if b])


def chunk_split(rows: int, held_out: int, seed: int, chunk: int) -> tuple:
    """(training rows, validation rows) of a chunk that holds out `held_out`
    of its `rows` examples, both sorted."""
    order = np.random.default_rng([seed, 2**31 - 1, chunk]).permutation(rows)
    return np.sort(order[held_out:]), np.sort(order[:held_out])


def validation_shares(rows: list, fraction: float) -> list:
    """Examples each chunk holds out for a validation split of `fraction`:
    round(N * fraction), at least 1 and at most N - 1, shared out by `shares`."""
    n = sum(rows)
    return shares(rows, min(max(1, round(n * fraction)), n - 1)) if fraction else [0] * len(rows)


# ----------------------------------------------------------------------------- one process

def split(n: int, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Training and validation example indices (a seeded shuffle)."""
    if not fraction:
        return np.arange(n), np.arange(0)
    order = np.random.default_rng([seed, 2**31 - 1]).permutation(n)
    n_val = min(max(1, round(n * fraction)), n - 1)
    return np.sort(order[n_val:]), np.sort(order[:n_val])


@functools.lru_cache(maxsize=2)
def epoch_order(n: int, seed: int, epoch: int) -> np.ndarray:
    """The order of the examples in `epoch` (drawn once per epoch, not per step)."""
    return np.random.default_rng([seed, epoch]).permutation(n)


@functools.lru_cache(maxsize=2)
def device_order(n: int, seed: int, epoch: int, xp):
    """`epoch_order` on the device: one copy per epoch, not one per step."""
    return xp.asarray(epoch_order(n, seed, epoch))


def batch_indices(n: int, batch_size: int | None, seed: int, iteration: int, xp=np):
    """The examples of `iteration`: all of them, or a slice of epoch e's permutation
    (an array of `xp`)."""
    if not batch_size or batch_size >= n:
        return None
    per_epoch = -(-n // batch_size)
    epoch, k = divmod(iteration, per_epoch)
    return device_order(n, seed, epoch, xp)[k * batch_size:(k + 1) * batch_size]
