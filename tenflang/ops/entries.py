"""The vocabulary of the op table (tenflang/ops/table.py): `Op`, `Attr` and `Rule`.

Conventions

* Attributes (docs/guide/language.md, "Attributes") are static integers written after
  the operands (`sum x 0`, `conv2d x K 1 2`); a shape literal `[d1, ...]` is
  one attribute; a `number` attribute is any number literal (`lrn x 5 0.0001`),
  a Python float.  `attrs=(Attr("k", required=True), Attr("stride", 1,
  check=at_least(1)))` declares them in order, required ones first; the
  others have a default (`None`: absent), so trailing ones may be left out.
  The parser checks them (`lang/checks.py`: a literal, an integer, the check)
  and every function of an op receives the operands first, then all its
  attributes, defaults filled in, as Python ints (tuples for shape literals).
  Attributes have no derivative.

* `arity` is the number of operands; a `variadic` op takes `arity` or more
  (`concat a b c d 1`).  Its operands are the values written before the
  trailing literals, which are its attributes (`Op.operand_count`), and its
  functions receive the operands, then its attributes, so they read the
  attributes from the end (`shapes.operands_and_axis`: the trailing int, or
  the default where a caller left it out).

* `forward(xp, *operands, *attrs)` is array-module generic (numpy or cupy as
  `xp`), one leading example axis on every value: see tenflang/ops/forwards.py.

* `shape(*operand_shapes, *attrs)` gives the result's shape or raises
  `ShapeMismatch` (tenflang/ops/shapes.py).

* `grads(*operand_shapes, *attrs)` gives one `Rule` per operand, leaving out
  the operands listed in `shape_only` (they give only a shape, like `b` of
  `sum_like a b`).  A rule is TenFlang text over the names `a`, `b`, `c` (the
  operands), `v` (the result), `g` (the adjoint d/dv) and `p` (the local
  partial dv/dm), in one of four kinds (jax's `defjvp`/`deflinear`/
  `defjvp_zero`):

      chain(partial)            dv/dm = partial, contribution `mul g p`
      linear(combine)           no local partial; the contribution is combine
      custom(partial, combine)  both written out
      no_grad()                 zero: piecewise constant or integer valued;
                                -O0 writes the zero, -O1 drops the path

  The compiler sums a contribution back to the operand's shape where numpy
  broadcasting widened it.

* Most ops act on each example alone (docs/design.md §2.2).  `cross_example`
  marks the one whose value is the same for every example of the batch
  (`batch_mean`: its result keeps an example axis of size 1, as a weight's);
  `drawn` the one drawn from the run's mode (`dropout_mask`: its forward also
  gets the mode and its target name, tenflang/ops/modes.py).  `literals` lists
  the trailing operands that must be number literals (`p` of `dropout_mask`),
  each as an `Attr` whose `check` the parser applies with a located error.

* `flops(*operand_shapes, *attrs)` per example (multiply-adds count 2);
  default: one per result element.

* `scalar` (elementwise ops): the op on one element, a Python expression over
  `a` (and `b`, `c`: the operands in order) of floats using `math.` functions, `abs`, `min`, `max`, `**`
  and conditional expressions, as numerically careful as `forward` (logistic
  exact in both tails, NaN propagating like numpy's).  Fused loops are
  generated from it (interp/planning/fusion.py groups the steps; of interp/backends/render.py's
  renderers, numba's uses it as it is, the C and CUDA ones translate it to C
  with Python's `ast`, interp/backends/scalar_c.py).
  Division by zero follows IEEE (inf/nan, no exception), as in numpy.
"""
from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Callable

from tenflang.base.frozen import frozen
from .shapes import Shape, size

# --- derivative rule kinds ---------------------------------------------------

class RuleKind(StrEnum):
    """The four kinds of derivative rule (module docstring)."""
    CHAIN = "chain"
    LINEAR = "linear"
    CUSTOM = "custom"
    NO_GRAD = "no_grad"


class Reduction(StrEnum):
    """How a run reduces a result over the batch's examples (None: it keeps them)."""
    SUM = "sum"
    MEAN = "mean"


@frozen
class Rule:
    kind: RuleKind
    partial: str | None       # the local partial dv/dm (None: linear)
    combine: str              # the contribution to d/dm, from g and p


CHAIN = "mul g p"             # the original design's chain rule


def chain(partial: str) -> Rule:
    return Rule(RuleKind.CHAIN, partial, CHAIN)


def linear(combine: str) -> Rule:
    return Rule(RuleKind.LINEAR, None, combine)


def custom(partial: str, combine: str) -> Rule:
    return Rule(RuleKind.CUSTOM, partial, combine)


def no_grad() -> Rule:
    """Zero; written out as a partial `0` at -O0 so the GCP shows the original design's algorithm."""
    return Rule(RuleKind.NO_GRAD, "0", CHAIN)


def no_grad_like(operand: str) -> Rule:
    """`no_grad` for an operand whose shape is not the result's (the original design's
    `mul g 0` would have the result's shape): zeros of the operand's shape."""
    return Rule(RuleKind.NO_GRAD, None, f"broadcast_like 0 {operand}")


def rules(*grads: Rule) -> Callable[..., tuple[Rule, ...]]:
    """The same rules whatever the shapes and attributes."""
    return lambda *shapes_and_attrs: grads


def attribute_words(values, defaults) -> str:
    """Attribute literals for a rule, trailing ones that equal their default left out."""
    values = list(values)
    while values and values[-1] == defaults[len(values) - 1]:
        values.pop()
    return "".join(f" {v}" for v in values)


def linear_passing(attrs: tuple[Attr, ...], *combines: str, rest=()):
    """Linear rules whose contributions are ops taking the same attributes
    `attrs` (the op's last ones), written after each combine; then the rules
    `rest` of the remaining operands."""
    defaults = tuple(a.default for a in attrs)

    def build(*shapes_and_attrs):
        tail = attribute_words(shapes_and_attrs[len(shapes_and_attrs) - len(attrs):], defaults)
        return tuple(linear(c + tail) for c in combines) + tuple(rest)
    return build


# --- attributes --------------------------------------------------------------

@frozen
class Attr:
    """A static attribute: its name, default (None: absent) and check.
    `check(value)` returns what is wrong (`"must be ≥ 1"`) or None; `shape`
    marks an attribute written as a shape literal `[d1, ...]`, `number` one
    that may be any number (a float), not only an integer; a `required`
    one has no default and must be written (required ones come first)."""
    name: str
    default: object = None
    check: Callable[[object], str | None] = field(default=lambda value: None)
    shape: bool = False
    required: bool = False
    number: bool = False


def at_least(low: int) -> Callable[[int], str | None]:
    return lambda value: None if value >= low else f"must be ≥ {low}"


def above(low: float) -> Callable[[float], str | None]:
    return lambda value: None if value > low else f"must be > {low:g}"


def shape_literal(value) -> str | None:
    if any(d < 1 and d != -1 for d in value):
        return "entries must be ≥ 1 (or one -1)"
    if list(value).count(-1) > 1:
        return "may have only one -1"
    return None


def probability(value) -> str | None:
    return None if 0 <= value < 1 else "must be at least 0 and less than 1"


def permutation(value) -> str | None:
    if sorted(value) != list(range(len(value))):
        return f"must be a permutation of 0..{len(value) - 1}" if value else "must not be empty"
    return None


# --- an op ---------------------------------------------------------------------

@frozen
class IndexRead:
    """An operand read as integer indices 0 ≤ i < n (docs/design.md §2.3.2): its
    position, how a message names it, and `limit(shapes, attrs)`, n from the
    operands' shapes and the attributes (None where they do not say)."""
    operand: int
    what: str
    limit: Callable


@frozen
class Op:
    name: str
    arity: int
    forward: Callable
    shape: Callable[..., Shape]
    grads: Callable[..., tuple[Rule, ...]]
    math: str
    elementwise: bool = False
    flops: Callable[..., int] | None = None
    ufunc: str | None = None   # the xp ufunc it is, so generated code can write `out=`
    view: bool = False         # may return (a view of) an operand instead of a new array
    attrs: tuple[Attr, ...] = ()
    shape_only: tuple[int, ...] = ()    # operand positions that give only a shape
    scalar: str | None = None  # the op on one element (see the module docstring)
    cross_example: bool = False  # one value for the whole batch (batch_mean): never per example
    drawn: bool = False        # drawn from the run's mode (dropout_mask): see tenflang/ops/modes.py
    literals: tuple[Attr, ...] = ()     # trailing operands that must be number literals
    index: IndexRead | None = None      # an operand read as indices, checked with the data
    # its sum over a batch of per-example results as one call (a product's BLAS call):
    # generated code over the operands {a}, {b}, {c} and {attrs}, calling at most
    # `batch_sum_forward` (as F.<name>_sum) besides xp
    batch_sum: str | None = None
    batch_sum_forward: Callable | None = None
    variadic: bool = False     # `arity` or more operands (module docstring)

    def accepts(self, count: int) -> bool:
        """Whether `count` operands are what the op takes."""
        return count == self.arity or (self.variadic and count > self.arity)

    def operand_count(self, literal) -> int:
        """How many of the values written after the op are operands, the rest
        being its attributes; `literal[i]` says whether value i is a number or
        shape literal.  A fixed arity says it; a variadic op with attributes
        takes the values before the trailing literals (an operand of `concat`
        has rank ≥ 1, so it is never a number)."""
        if not self.variadic:
            return self.arity
        count = len(literal)
        while self.attrs and count and literal[count - 1]:
            count -= 1
        return count

    def full(self, attrs=()) -> tuple:
        """The attributes as written, defaults filled in for the rest."""
        return tuple(attrs) + tuple(a.default for a in self.attrs[len(attrs):])

    def written(self, attrs) -> tuple:
        """The attributes as a person writes them: trailing defaults left out."""
        attrs = tuple(attrs)
        while attrs and attrs[-1] == self.attrs[len(attrs) - 1].default:
            attrs = attrs[:-1]
        return attrs

    def result_shape(self, shapes, attrs=()) -> Shape:
        return tuple(self.shape(*shapes, *self.full(attrs)))

    def rules(self, shapes, attrs=()) -> tuple[Rule | None, ...]:
        """One rule per operand; None for an operand that gives only a shape."""
        given = iter(self.grads(*shapes, *self.full(attrs)))
        return tuple(None if i in self.shape_only else next(given) for i in range(len(shapes)))

    @property
    def calls_math(self) -> bool:
        """Its per-element form calls a `math.` function (`scalar`: the only
        functions it may call besides abs, min and max).  A C loop computes
        those one element at a time where numpy's are vectorised
        (interp/planning/fusion.py's rule for small batches)."""
        return self.scalar is not None and "math." in self.scalar

    def cost(self, operand_shapes, result: Shape, attrs=()) -> int:
        """Floating point operations per example (multiply-adds count 2)."""
        if self.flops is not None:
            return self.flops(*operand_shapes, *self.full(attrs))
        return size(result)
