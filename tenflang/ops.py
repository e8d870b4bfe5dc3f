"""THE op table: every TenFlang op, complete in one place.

Each entry gives an op's arity, its attributes, its forward function, its
shape rule, its derivative rules and its FLOP count; the parser, shape
checker, compiler, interpreter, statistics, docs and the gradient tests all
read this table, so adding an op touches this file alone.

Conventions

* Shapes are per-example tuples of ints; `()` is a scalar.

* Attributes (docs/guide.md, "Attributes") are static integers written after
  the operands (`sum x 0`, `conv2d x K 1 2`); a shape literal `[d1, ...]` is
  one attribute.  `attrs=(Attr("k", required=True), Attr("stride", 1,
  check=at_least(1)))` declares them in order, required ones first; the
  others have a default (`None`: absent), so trailing ones may be left out.
  The parser checks them (`lang/checks.py`: a literal, an integer, the check)
  and every function of an op below receives the operands first, then all its
  attributes, defaults filled in, as Python ints (tuples for shape literals).
  Attributes have no derivative.

* `forward(xp, *operands, *attrs)` is array-module generic (numpy or cupy as
  `xp`), one leading example axis on every value: see tenflang/forwards.py.

* `shape(*operand_shapes, *attrs)` gives the result's shape or raises
  `ShapeMismatch` with a message that shows the shapes (and names the
  attribute at fault, `mismatch(..., attrs={"axis": 2})`).

* `grads(*operand_shapes, *attrs)` gives one derivative rule per operand,
  leaving out the operands listed in `shape_only` (they give only a shape,
  like `b` of `sum_like a b`).  A rule is written in TenFlang itself, as a
  prefix expression over the ops of this table (parentheses nest; attribute
  literals, shape literals included, are written after the operands):

      a, b   the operands          v   the op's result
      g      the adjoint d/dv      p   the local partial dv/dm of this rule

  and comes in one of four kinds (jax's `defjvp`/`deflinear`/`defjvp_zero`):

      chain(partial)            dv/dm = partial, contribution `mul g p`
      linear(combine)           no local partial; the contribution is combine
      custom(partial, combine)  both written out
      no_grad()                 zero: piecewise constant or integer valued;
                                -O0 writes the zero, -O1 drops the path

  The compiler sums a contribution back to the operand's shape where numpy
  broadcasting widened it.

* `flops(*operand_shapes, *attrs)` per example (multiply-adds count 2);
  default: one per result element.

Adding an op is one `defop` call (or `defunary`/`defbinary`), e.g.

    defop("sum", 1, forwards.per_example_sum, reduce_shape("sum"), sum_rules,
          "v = Σ_i a_i", attrs=(AXIS,), flops=lambda a, axis: size(a))

with `forwards.per_example_sum(xp, a, axis=None)`, `reduce_shape("sum")(a,
axis)` and `sum_rules(a, axis)`; then add example shapes to the tests
(tests/test_gradients.py) and the reference generator (docs/make_op_reference.py)
if the defaults there do not fit, and run `python docs/make_op_reference.py`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from . import forwards
from .forwards import broadcast_like, dot, elementwise2, logistic, logistic_deriv, log_softmax
from .forwards import matmul, softmax, softplus, step, sum_like, tanh_deriv

Shape = tuple[int, ...]


class ShapeMismatch(ValueError):
    """An op applied to operands of incompatible shapes (message shows them)."""


# --- derivative rule kinds ---------------------------------------------------

@dataclass(frozen=True)
class Rule:
    kind: str                 # chain, linear, custom or no_grad
    partial: str | None       # the local partial dv/dm (None: linear)
    combine: str              # the contribution to d/dm, from g and p


CHAIN = "mul g p"             # the seed's chain rule


def chain(partial: str) -> Rule:
    return Rule("chain", partial, CHAIN)


def linear(combine: str) -> Rule:
    return Rule("linear", None, combine)


def custom(partial: str, combine: str) -> Rule:
    return Rule("custom", partial, combine)


def no_grad() -> Rule:
    """Zero; written out as a partial `0` at -O0 so the GCP shows the seed's algorithm."""
    return Rule("no_grad", "0", CHAIN)


# --- attributes --------------------------------------------------------------

@dataclass(frozen=True)
class Attr:
    """A static attribute: its name, default (None: absent) and check.
    `check(value)` returns what is wrong (`"must be ≥ 1"`) or None; `shape`
    marks an attribute written as a shape literal `[d1, ...]`; a `required`
    one has no default and must be written (required ones come first)."""
    name: str
    default: object = None
    check: Callable[[object], str | None] = field(default=lambda value: None)
    shape: bool = False
    required: bool = False


def at_least(low: int) -> Callable[[int], str | None]:
    return lambda value: None if value >= low else f"must be ≥ {low}"


AXIS = Attr("axis")          # reductions: absent reduces everything


@dataclass(frozen=True)
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

    def full(self, attrs=()) -> tuple:
        """The attributes as written, defaults filled in for the rest."""
        return tuple(attrs) + tuple(a.default for a in self.attrs[len(attrs):])

    def result_shape(self, shapes, attrs=()) -> Shape:
        return tuple(self.shape(*shapes, *self.full(attrs)))

    def rules(self, shapes, attrs=()) -> tuple[Rule | None, ...]:
        """One rule per operand; None for an operand that gives only a shape."""
        given = iter(self.grads(*shapes, *self.full(attrs)))
        return tuple(None if i in self.shape_only else next(given) for i in range(self.arity))

    def cost(self, operand_shapes, result: Shape, attrs=()) -> int:
        """Floating point operations per example (multiply-adds count 2)."""
        if self.flops is not None:
            return self.flops(*operand_shapes, *self.full(attrs))
        return size(result)


def size(shape: Shape) -> int:
    return math.prod(shape)


def fmt_shape(shape: Shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def mismatch(op: str, shapes, reason: str, attrs: dict | None = None) -> ShapeMismatch:
    """`sum [2, 3] axis 2: axis 2 is out of range ...` (the attributes at fault named)."""
    shown = " × ".join(fmt_shape(s) for s in shapes)
    named = "".join(f" {k} {v}" for k, v in (attrs or {}).items())
    return ShapeMismatch(f"{op} {shown}{named}: {reason}")


# --- shape rules -----------------------------------------------------------

def broadcast(op: str, *shapes: Shape) -> Shape:
    """numpy broadcasting of per-example shapes."""
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    result = []
    for dims in zip(*padded):
        wide = {d for d in dims if d != 1}
        if len(wide) > 1:
            raise mismatch(op, shapes, "shapes cannot be broadcast together")
        result.append(wide.pop() if wide else 1)
    return tuple(result)


def same(a: Shape) -> Shape:
    return a


def reduce_shape(op: str) -> Callable[..., Shape]:
    """A reduction: everything to [] without an axis, else that axis removed."""
    def rule(a: Shape, axis=None) -> Shape:
        if axis is None:
            return ()
        if not -len(a) <= axis < len(a):
            raise mismatch(op, (a,), f"axis {axis} is out of range for a rank-{len(a)} operand"
                           + (" (axes are 0-based; -1 is the last)" if a else ""), {"axis": axis})
        return a[:axis % len(a)] + a[axis % len(a) + 1:]
    return rule


def matmul_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 2:
        raise mismatch("matmul", (a, b), "first operand must be a matrix [m, k]")
    if len(b) not in (1, 2):
        raise mismatch("matmul", (a, b), "second operand must be a vector [k] or a matrix [k, n]")
    if a[1] != b[0]:
        raise mismatch("matmul", (a, b), "inner dimensions differ")
    return (a[0],) + b[1:]


def dot_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 1 or len(b) != 1:
        raise mismatch("dot", (a, b), "operands must be vectors [n]")
    if a != b:
        raise mismatch("dot", (a, b), "lengths differ")
    return ()


def outer_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 1 or len(b) != 1:
        raise mismatch("outer", (a, b), "operands must be vectors")
    return a + b


def transpose_shape(a: Shape) -> Shape:
    if len(a) != 2:
        raise mismatch("transpose", (a,), "operand must be a matrix [m, n]")
    return (a[1], a[0])


def vector_shape(name: str) -> Callable[[Shape], Shape]:
    def rule(a: Shape) -> Shape:
        if len(a) != 1:
            raise mismatch(name, (a,), "operand must be a vector [n]")
        return a
    return rule


def sum_like_shape(a: Shape, b: Shape) -> Shape:
    if broadcast("sum_like", a, b) != a:
        raise mismatch("sum_like", (a, b), "second shape does not broadcast to the first")
    return b


def broadcast_like_shape(a: Shape, b: Shape, axis=None) -> Shape:
    if axis is not None:
        rest = reduce_shape("broadcast_like")(b, axis)
        if broadcast("broadcast_like", a, rest) != rest:
            raise mismatch("broadcast_like", (a, b), f"first shape is not the second without "
                           f"axis {axis}", {"axis": axis})
        return b
    if broadcast("broadcast_like", a, b) != b:
        raise mismatch("broadcast_like", (a, b), "first shape does not broadcast to the second")
    return b


# --- derivative rule builders ------------------------------------------------

def rules(*grads):
    return lambda *shapes_and_attrs: grads


def matmul_rules(a: Shape, b: Shape):
    if len(b) == 1:
        return (custom("b", "outer g p"), custom("transpose a", "matmul p g"))
    return (custom("transpose b", "matmul g p"), custom("transpose a", "matmul p g"))


def matmul_flops(a: Shape, b: Shape) -> int:
    return 2 * size(a) * (b[1] if len(b) == 2 else 1)


def axis_of(a: Shape, axis: int) -> int:
    return axis % len(a)


def sum_rules(a: Shape, axis=None):
    if axis is None:
        return (linear("broadcast_like g a"),)
    return (linear(f"broadcast_like g a {axis_of(a, axis)}"),)


def mean_rules(a: Shape, axis=None):
    if axis is None:
        return (linear(f"broadcast_like (div g {size(a)}) a"),)
    return (linear(f"broadcast_like (div g {a[axis]}) a {axis_of(a, axis)}"),)


def logsumexp_rules(a: Shape, axis=None):
    if axis is None:
        return (chain("exp (sub a v)"),)
    axis = axis_of(a, axis)
    return (custom(f"exp (sub a (broadcast_like v a {axis}))",
                   f"mul (broadcast_like g a {axis}) p"),)


def broadcast_like_rules(a: Shape, b: Shape, axis=None):
    return (linear("sum_like g a" if axis is None else f"sum g {axis}"),)


# --- the table ---------------------------------------------------------------

TABLE: dict[str, Op] = {}


def defop(name, arity, forward, shape, grads, math, **options):
    """Enter an op; `options` are the optional fields of `Op`."""
    TABLE[name] = Op(name, arity, forward, shape, grads, math, **options)


def defunary(name, forward, partial, math, ufunc=None, view=False):
    grads = rules(no_grad() if partial == "0" else chain(partial))
    defop(name, 1, forward, same, grads, math, elementwise=True, ufunc=ufunc, view=view)


def defbinary(name, ufunc, partial_a, partial_b, math):
    shape = lambda a, b: broadcast(name, a, b)  # noqa: E731
    forward = elementwise2(lambda xp, a, b: getattr(xp, ufunc)(a, b))
    defop(name, 2, forward, shape, rules(chain(partial_a), chain(partial_b)), math,
          elementwise=True, ufunc=ufunc)


defunary("copy", lambda xp, a: a, "1", "v = a  (written `define v = a`)", view=True)
defunary("neg", lambda xp, a: -a, "-1", "v = -a", ufunc="negative")
defunary("exp", lambda xp, a: xp.exp(a), "v", "v = e^a", ufunc="exp")
defunary("log", lambda xp, a: xp.log(a), "div 1 a", "v = ln a", ufunc="log")
defunary("logistic", logistic, "logistic_deriv a", "v = 1 / (1 + e^-a)")
defunary("tanh", lambda xp, a: xp.tanh(a), "tanh_deriv a", "v = tanh a", ufunc="tanh")
defunary("relu", lambda xp, a: xp.maximum(a, 0), "step a", "v = max(a, 0)")
defunary("sqrt", lambda xp, a: xp.sqrt(a), "div 0.5 v", "v = √a", ufunc="sqrt")
defunary("abs", lambda xp, a: xp.abs(a), "sign a", "v = |a|", ufunc="absolute")
defunary("sin", lambda xp, a: xp.sin(a), "cos a", "v = sin a", ufunc="sin")
defunary("cos", lambda xp, a: xp.cos(a), "neg (sin a)", "v = cos a", ufunc="cos")
defunary("softplus", softplus, "logistic a", "v = ln(1 + e^a)")
defunary("logistic_deriv", logistic_deriv, "mul v (sub 1 (mul 2 (logistic a)))",
         "v = σ(a)(1 - σ(a)),  σ = logistic")
defunary("tanh_deriv", tanh_deriv, "mul -2 (mul (tanh a) v)", "v = 1 - tanh² a")
defunary("step", step, "0", "v = 1 if a > 0 else 0")
defunary("sign", lambda xp, a: xp.sign(a), "0", "v = -1, 0 or 1 as a < 0, = 0, > 0",
         ufunc="sign")

defbinary("add", "add", "1", "1", "v = a + b")
defbinary("sub", "subtract", "1", "-1", "v = a - b")
defbinary("mul", "multiply", "b", "a", "v = a · b")
defbinary("div", "divide", "div 1 b", "neg (div v b)", "v = a / b")
defbinary("pow", "power", "mul b (pow a (sub b 1))", "mul v (log a)",
          "v = a^b")
defbinary("max", "maximum", "step (sub a b)", "sub 1 (step (sub a b))",
          "v = a if a > b else b  (ties: the derivative goes to b)")
defbinary("min", "minimum", "step (sub b a)", "sub 1 (step (sub b a))",
          "v = a if a < b else b  (ties: the derivative goes to b)")

defop("matmul", 2, matmul, matmul_shape, matmul_rules,
      "v = A x  ([m, k] · [k] → [m]),  v = A B  ([m, k] · [k, n] → [m, n])", flops=matmul_flops)
defop("dot", 2, dot, dot_shape, rules(chain("b"), chain("a")), "v = Σ_i a_i b_i",
      flops=lambda a, b: 2 * size(a))
defop("outer", 2, elementwise2(lambda xp, a, b: a[..., :, None] * b[..., None, :]), outer_shape,
      rules(custom("b", "matmul g p"), custom("a", "matmul (transpose g) p")), "v_ij = a_i b_j")
defop("transpose", 1, lambda xp, a: a.swapaxes(-1, -2), transpose_shape,
      rules(linear("transpose g")), "v_ij = a_ji", flops=lambda a: 0, view=True)

defop("sum", 1, forwards.per_example_sum, reduce_shape("sum"), sum_rules,
      "v = Σ_i a_i  (with an axis: summed along that axis only)", attrs=(AXIS,),
      flops=lambda a, axis: size(a))
defop("mean", 1, forwards.mean, reduce_shape("mean"), mean_rules,
      "v = (1/n) Σ_i a_i  (with an axis: along that axis only, n its length)", attrs=(AXIS,),
      flops=lambda a, axis: size(a))
defop("logsumexp", 1, forwards.logsumexp, reduce_shape("logsumexp"), logsumexp_rules,
      "v = ln Σ_i e^(a_i)  (with an axis: along that axis only)", attrs=(AXIS,),
      flops=lambda a, axis: 4 * size(a))
defop("softmax", 1, softmax, vector_shape("softmax"), rules(custom("v", "mul p (sub g (dot g p))")),
      "v_i = e^(a_i) / Σ_j e^(a_j)", flops=lambda a: 4 * size(a))
defop("log_softmax", 1, log_softmax, vector_shape("log_softmax"),
      rules(custom("softmax a", "sub g (mul p (sum g))")), "v_i = a_i - ln Σ_j e^(a_j)",
      flops=lambda a: 4 * size(a))

defop("sum_like", 2, sum_like, sum_like_shape, rules(linear("broadcast_like g a")),
      "v = a summed over the axes that broadcasting b to a's shape would add or widen",
      shape_only=(1,), view=True)
defop("broadcast_like", 2, broadcast_like, broadcast_like_shape, broadcast_like_rules,
      "v = a broadcast to b's shape (with an axis: a unit axis put back there first)",
      attrs=(AXIS,), shape_only=(1,), flops=lambda a, b, axis: 0, view=True)


def lookup(name: str) -> Op | None:
    return TABLE.get(name)
