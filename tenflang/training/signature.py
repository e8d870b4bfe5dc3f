"""What training reads from a GCP, and the weights a run starts from.

    sig = signature(gcp)            # weights, gradients, inputs, losses, classes
    weights = initial_weights(sig, seed, given=None)

The weights, their shapes, their gradients (the GCP's `d/dw` outputs) and the
losses are read from the GCP (`signature`, computed once per program); a GCP
that lacks any of them, or whose gradient has another shape than its weight,
is refused with one message.

Initialisation (documented in docs/guide/training.md): a weight declared with an
initialiser (`init 1`, `init normal 0.02`, `init uniform -0.1 0.1`, `init he`,
`init glorot`; docs/design.md §2.2) starts from it; without one, a matrix
weight [out, in] is drawn from Glorot's uniform U(-a, a), a = sqrt(6 / (in +
out)), which breaks the symmetry between hidden units, and scalars and vectors
start at zero.  The random ones draw, in declaration order, from one generator
seeded by `seed`, so a program without initialisers starts as it always did.
`given` (--init) may give any subset of the weights; the others start as they
would without it.
"""
from __future__ import annotations

import functools
import math
from dataclasses import field

import numpy as np

from tenflang.base.frozen import frozen
from tenflang.base.errors import Location, TenflangError
from tenflang.lang.syntax_tree import DeclKind, Define, Program
from tenflang.lang.checks import check, data_indices
from tenflang.lang.diagnostics import error_at
from tenflang.base.naming import adjoint


@frozen
class Signature:
    weights: dict          # weight name -> shape, declaration order
    gradients: dict        # weight name -> the GCP output holding its gradient
    inputs: dict           # data name -> per-example shape
    losses: tuple
    indices: dict = field(default_factory=dict)   # index data name -> (n, reader): data_indices
    inits: dict = field(default_factory=dict)     # weight name -> its written `Init`


@functools.lru_cache(maxsize=8)
def signature(gcp: Program) -> Signature:
    """What training reads from the GCP (made once per program: the command
    line reads the data by it before training starts)."""
    shapes = check(gcp)
    decls = gcp.declarations()
    where = Location(gcp.filename)
    weights = {n: shapes[n] for n, d in decls.items() if d.kind == DeclKind.WEIGHT}
    if not weights:
        raise TenflangError("the GCP declares no weights: there is nothing to learn", where)
    outputs = {n for n, d in decls.items() if d.kind == DeclKind.OUTPUT}
    missing = [w for w in weights if adjoint(w) not in outputs]
    if missing:
        raise TenflangError(f"the GCP has no gradient output '{adjoint(missing[0])}' for weight "
                            f"'{missing[0]}'; is it a GCP made by tfcompiler?", where)
    check_gradients(gcp, weights, shapes)
    losses = tuple(n for n, d in decls.items() if d.kind == DeclKind.LOSS)
    if not losses:
        raise TenflangError("the GCP declares no loss; tfweightcalc reports the loss it "
                            "minimises", where)
    inputs = {n: shapes[n] for n, d in decls.items()
              if d.kind in (DeclKind.INPUT, DeclKind.EXP_OUTPUT)}
    inits = {n: decls[n].init for n in weights if decls[n].init is not None}
    return Signature(weights, {w: adjoint(w) for w in weights}, inputs, losses,
                     data_indices(gcp), inits)


def gradient_outputs(program: Program) -> list[str]:
    """The gradients `d/dw` a program declares, one per weight that has one: a
    GCP has some, a shape program none (the commands tell the two apart by it)."""
    decls = program.declarations()
    return [adjoint(n) for n, d in decls.items()
            if d.kind == DeclKind.WEIGHT and decls.get(adjoint(n)) is not None]


def check_gradients(gcp: Program, weights: dict, shapes: dict) -> None:
    """Every gradient output `d/dw` is defined and has its weight's shape (a
    hand-written GCP may get either wrong)."""
    defined = {s.name: s for s in gcp.statements if isinstance(s, Define)}
    decls = gcp.declarations()
    for w, shape in weights.items():
        grad = adjoint(w)
        if grad not in defined:
            raise error_at(gcp, decls[grad].name_pos, f"the gradient output '{grad}' is "
                           "declared but never defined")
        if tuple(shapes[grad]) != tuple(shape):
            raise error_at(gcp, defined[grad].pos, f"the gradient '{grad}' has shape "
                           f"{list(shapes[grad])}, but weight '{w}' has shape {list(shape)}")



def initial_weights(sig: Signature, seed: int, given: dict | None = None) -> dict:
    """The starting weights: those `given`, the others drawn as if none were."""
    rng = None                  # made at the first draw: importing numpy.random costs start-up
    weights = {}
    for name, shape in sig.weights.items():
        scheme, args = initialiser(sig.inits.get(name), shape)
        if scheme in RANDOM:
            rng = rng or np.random.default_rng(seed)
        weights[name] = draw(scheme, args, tuple(shape), rng)
    return weights | {n: v for n, v in (given or {}).items() if n in weights}


RANDOM = frozenset({"normal", "uniform", "he", "glorot"})


def initialiser(init, shape) -> tuple[str, tuple]:
    """(scheme, numbers) a weight starts from: its written `init`, else the
    default by shape (glorot for two axes or more, else 0)."""
    if init is not None:
        return init.scheme, tuple(n.value for n in init.args)
    return ("glorot", ()) if len(shape) >= 2 else ("constant", (0.0,))


def draw(scheme: str, args: tuple, shape: tuple, rng) -> np.ndarray:
    """A weight's starting value; fans as PyTorch's for [out, in]: fan-in is the
    product of all axes but the first, fan-out the first."""
    if scheme == "constant":
        return np.full(shape, args[0], dtype=np.float64)
    if scheme == "normal":
        return rng.normal(0.0, args[0], shape)
    if scheme == "uniform":
        return rng.uniform(args[0], args[1], shape)
    fan_out, fan_in = shape[0], math.prod(shape[1:])
    if scheme == "he":              # Kaiming's normal, for relu: std sqrt(2 / fan-in)
        return rng.normal(0.0, math.sqrt(2.0 / fan_in), shape)
    limit = math.sqrt(6.0 / (fan_in + fan_out))      # glorot
    return rng.uniform(-limit, limit, shape)
