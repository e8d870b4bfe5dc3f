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

* `scalar` (elementwise ops): the op on one element, a Python expression over
  `a` (and `b`) of floats using `math.` functions, `abs`, `min`, `max`, `**`
  and conditional expressions, as numerically careful as `forward` (logistic
  exact in both tails, NaN propagating like numpy's).  Fused loops are
  generated from it (interp/fusion.py groups the steps; the numba renderer
  uses it as it is, the CUDA renderer translates it to C with Python's `ast`).
  Division by zero follows IEEE (inf/nan, no exception), as in numpy.

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

from . import convolution, forwards
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


CHAIN = "mul g p"             # the original design's chain rule


def chain(partial: str) -> Rule:
    return Rule("chain", partial, CHAIN)


def linear(combine: str) -> Rule:
    return Rule("linear", None, combine)


def custom(partial: str, combine: str) -> Rule:
    return Rule("custom", partial, combine)


def no_grad() -> Rule:
    """Zero; written out as a partial `0` at -O0 so the GCP shows the original design's algorithm."""
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
    scalar: str | None = None  # the op on one element (see the module docstring)

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
    if len(a) == 3:
        return batched_matmul_shape(a, b)
    if len(a) != 2:
        raise mismatch("matmul", (a, b), "first operand must be a matrix [m, k] "
                       "(or a batch of matrices [b, m, k])")
    if len(b) not in (1, 2):
        raise mismatch("matmul", (a, b), "second operand must be a vector [k] or a matrix [k, n]")
    if a[1] != b[0]:
        raise mismatch("matmul", (a, b), "inner dimensions differ")
    return (a[0],) + b[1:]


def batched_matmul_shape(a: Shape, b: Shape) -> Shape:
    """[b, m, k] · [b, k, n] → [b, m, n] and [b, m, k] · [k, n] → [b, m, n]."""
    if len(b) not in (2, 3):
        raise mismatch("matmul", (a, b), "a batch of matrices [b, m, k] multiplies a batch "
                       "[b, k, n] or one matrix [k, n]")
    if len(b) == 3 and b[0] != a[0]:
        raise mismatch("matmul", (a, b), "batch sizes differ")
    if a[2] != b[-2]:
        raise mismatch("matmul", (a, b), "inner dimensions differ")
    return a[:2] + b[-1:]


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
    if len(a) < 2:
        raise mismatch("transpose", (a,), "operand must be a matrix [m, n] (or have rank ≥ 2: "
                       "the last two axes swap)")
    return a[:-2] + (a[-1], a[-2])


def last_axis_shape(name: str) -> Callable[[Shape], Shape]:
    def rule(a: Shape) -> Shape:
        if len(a) < 1:
            raise mismatch(name, (a,), "operand must have rank ≥ 1 (a vector [n], or rows "
                           "along the last axis)")
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
    if len(a) == 3 and len(b) == 2:      # one matrix for every batch entry: one GEMM
        rows = f"[{a[0] * a[1]}, {a[2]}]"
        return (custom("transpose b", "matmul g p"),
                linear(f"matmul (transpose (reshape a {rows})) (reshape g [{a[0] * a[1]}, {b[1]}])"))
    if len(b) == 1:
        return (custom("b", "outer g p"), custom("transpose a", "matmul p g"))
    return (custom("transpose b", "matmul g p"), custom("transpose a", "matmul p g"))


def matmul_flops(a: Shape, b: Shape) -> int:
    return 2 * size(a) * (b[-1] if len(b) >= 2 else 1)


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


def softmax_rules(a: Shape):
    if len(a) == 1:
        return (custom("v", "mul p (sub g (dot g p))"),)
    last = len(a) - 1
    return (custom("v", f"mul p (sub g (broadcast_like (sum (mul g p) {last}) p {last}))"),)


def log_softmax_rules(a: Shape):
    if len(a) == 1:
        return (custom("softmax a", "sub g (mul p (sum g))"),)
    last = len(a) - 1
    return (custom("softmax a", f"sub g (mul p (broadcast_like (sum g {last}) p {last}))"),)


def broadcast_like_rules(a: Shape, b: Shape, axis=None):
    return (linear("sum_like g a" if axis is None else f"sum g {axis}"),)


# --- the table ---------------------------------------------------------------

TABLE: dict[str, Op] = {}


def defop(name, arity, forward, shape, grads, math, **options):
    """Enter an op; `options` are the optional fields of `Op`."""
    TABLE[name] = Op(name, arity, forward, shape, grads, math, **options)


def defunary(name, forward, partial, math, scalar, ufunc=None, view=False):
    grads = rules(no_grad() if partial == "0" else chain(partial))
    defop(name, 1, forward, same, grads, math, elementwise=True, ufunc=ufunc, view=view,
          scalar=scalar)


def defbinary(name, ufunc, partial_a, partial_b, math, scalar):
    shape = lambda a, b: broadcast(name, a, b)  # noqa: E731
    forward = elementwise2(lambda xp, a, b: getattr(xp, ufunc)(a, b))
    defop(name, 2, forward, shape, rules(chain(partial_a), chain(partial_b)), math,
          elementwise=True, ufunc=ufunc, scalar=scalar)


E_NEG_ABS = "math.exp(-abs(a))"          # e^-|a|: never overflows; one exp per element when
                                         # forms repeat it (the compiler shares equal calls)


defunary("copy", lambda xp, a: a, "1", "v = a  (written `define v = a`)", "a", view=True)
defunary("neg", lambda xp, a: -a, "-1", "v = -a", "-a", ufunc="negative")
defunary("exp", lambda xp, a: xp.exp(a), "v", "v = e^a", "math.exp(a)", ufunc="exp")
defunary("log", lambda xp, a: xp.log(a), "div 1 a", "v = ln a",
         "math.log(a) if a > 0.0 else (-math.inf if a == 0.0 else math.nan)", ufunc="log")
defunary("logistic", logistic, "logistic_deriv a", "v = 1 / (1 + e^-a)",
         f"(1.0 if a >= 0.0 else {E_NEG_ABS}) / (1.0 + {E_NEG_ABS})")
defunary("tanh", lambda xp, a: xp.tanh(a), "tanh_deriv a", "v = tanh a", "math.tanh(a)",
         ufunc="tanh")
defunary("relu", lambda xp, a: xp.maximum(a, 0), "step a", "v = max(a, 0)",
         "0.0 if a < 0.0 else a")
defunary("sqrt", lambda xp, a: xp.sqrt(a), "div 0.5 v", "v = √a",
         "math.sqrt(a) if a >= 0.0 else math.nan", ufunc="sqrt")
defunary("abs", lambda xp, a: xp.abs(a), "sign a", "v = |a|", "abs(a)", ufunc="absolute")
defunary("sin", lambda xp, a: xp.sin(a), "cos a", "v = sin a", "math.sin(a)", ufunc="sin")
defunary("cos", lambda xp, a: xp.cos(a), "neg (sin a)", "v = cos a", "math.cos(a)",
         ufunc="cos")
defunary("softplus", softplus, "logistic a", "v = ln(1 + e^a)",
         f"(0.0 if a < 0.0 else a) + math.log1p({E_NEG_ABS})")
defunary("logistic_deriv", logistic_deriv, "mul v (sub 1 (mul 2 (logistic a)))",
         "v = σ(a)(1 - σ(a)),  σ = logistic", f"{E_NEG_ABS} / (1.0 + {E_NEG_ABS}) ** 2")
defunary("tanh_deriv", tanh_deriv, "mul -2 (mul (tanh a) v)", "v = 1 - tanh² a",
         "4.0 * math.exp(-2.0 * abs(a)) / (1.0 + math.exp(-2.0 * abs(a))) ** 2")
defunary("step", step, "0", "v = 1 if a > 0 else 0", "1.0 if a > 0.0 else 0.0")
defunary("sign", lambda xp, a: xp.sign(a), "0", "v = -1, 0 or 1 as a < 0, = 0, > 0",
         "1.0 if a > 0.0 else (-1.0 if a < 0.0 else a)", ufunc="sign")

defbinary("add", "add", "1", "1", "v = a + b", "a + b")
defbinary("sub", "subtract", "1", "-1", "v = a - b", "a - b")
defbinary("mul", "multiply", "b", "a", "v = a · b", "a * b")
defbinary("div", "divide", "div 1 b", "neg (div v b)", "v = a / b", "a / b")
defbinary("pow", "power", "mul b (pow a (sub b 1))", "mul v (log a)",
          "v = a^b", "a ** b")
defbinary("max", "maximum", "step (sub a b)", "sub 1 (step (sub a b))",
          "v = a if a > b else b  (ties: the derivative goes to b)",
          "a if a > b or a != a else b")
defbinary("min", "minimum", "step (sub b a)", "sub 1 (step (sub b a))",
          "v = a if a < b else b  (ties: the derivative goes to b)",
          "a if a < b or a != a else b")

defop("matmul", 2, matmul, matmul_shape, matmul_rules,
      "v = A x  ([m, k] · [k] → [m]),  v = A B  ([m, k] · [k, n] → [m, n]); batched over the "
      "first axis of a rank-3 A: [b, m, k] · [b, k, n] or [k, n] → [b, m, n]", flops=matmul_flops)
defop("dot", 2, dot, dot_shape, rules(chain("b"), chain("a")), "v = Σ_i a_i b_i",
      flops=lambda a, b: 2 * size(a))
defop("outer", 2, elementwise2(lambda xp, a, b: a[..., :, None] * b[..., None, :]), outer_shape,
      rules(custom("b", "matmul g p"), custom("a", "matmul (transpose g) p")), "v_ij = a_i b_j")
defop("transpose", 1, lambda xp, a: a.swapaxes(-1, -2), transpose_shape,
      rules(linear("transpose g")), "v_ij = a_ji  (rank ≥ 2: the last two axes swap)", flops=lambda a: 0, view=True)

defop("sum", 1, forwards.per_example_sum, reduce_shape("sum"), sum_rules,
      "v = Σ_i a_i  (with an axis: summed along that axis only)", attrs=(AXIS,),
      flops=lambda a, axis: size(a))
defop("mean", 1, forwards.mean, reduce_shape("mean"), mean_rules,
      "v = (1/n) Σ_i a_i  (with an axis: along that axis only, n its length)", attrs=(AXIS,),
      flops=lambda a, axis: size(a))
defop("logsumexp", 1, forwards.logsumexp, reduce_shape("logsumexp"), logsumexp_rules,
      "v = ln Σ_i e^(a_i)  (with an axis: along that axis only)", attrs=(AXIS,),
      flops=lambda a, axis: 4 * size(a))
defop("softmax", 1, softmax, last_axis_shape("softmax"), softmax_rules,
      "v_i = e^(a_i) / Σ_j e^(a_j)  (along the last axis: row by row)",
      flops=lambda a: 4 * size(a))
defop("log_softmax", 1, log_softmax, last_axis_shape("log_softmax"), log_softmax_rules,
      "v_i = a_i - ln Σ_j e^(a_j)  (along the last axis: row by row)",
      flops=lambda a: 4 * size(a))

# --- arranging, indexing and classifying (DESIGN.md §2.3.1) ------------------

def shape_literal(value) -> str | None:
    if any(d < 1 and d != -1 for d in value):
        return "entries must be ≥ 1 (or one -1)"
    if list(value).count(-1) > 1:
        return "may have only one -1"
    return None


def permutation(value) -> str | None:
    if sorted(value) != list(range(len(value))):
        return f"must be a permutation of 0..{len(value) - 1}" if value else "must not be empty"
    return None


SHAPE = Attr("shape", shape=True, required=True, check=shape_literal)
START, STOP = Attr("start", required=True, check=at_least(0)), Attr("stop", required=True)
INDEX = Attr("i", required=True, check=at_least(0))
AXES = Attr("axes", shape=True, required=True, check=permutation)
CLASSES = Attr("n", required=True, check=at_least(1))


def reshape_shape(a: Shape, shape) -> Shape:
    known = size(tuple(d for d in shape if d != -1))
    if -1 in shape:
        if size(a) % known:
            raise mismatch("reshape", (a,), f"{size(a)} elements cannot be arranged as "
                           f"{fmt_shape(shape)}", {"shape": fmt_shape(shape)})
        shape = tuple(size(a) // known if d == -1 else d for d in shape)
    if size(shape) != size(a):
        raise mismatch("reshape", (a,), f"{size(a)} elements cannot be arranged as "
                       f"{fmt_shape(shape)} ({size(shape)} elements)", {"shape": fmt_shape(shape)})
    return tuple(shape)


def first_axis(op: str, shapes, attrs: dict | None = None) -> int:
    """The length of the first axis of shapes[0] (which must have one)."""
    if not shapes[0]:
        raise mismatch(op, shapes, "operand must have rank ≥ 1", attrs)
    return shapes[0][0]


def concat_shape(a: Shape, b: Shape) -> Shape:
    first_axis("concat", (a, b))
    if len(a) != len(b) or a[1:] != b[1:]:
        raise mismatch("concat", (a, b), "operands must have equal shapes except the first axis")
    return (a[0] + b[0],) + a[1:]


def slice_shape(a: Shape, start, stop) -> Shape:
    n = first_axis("slice", (a,), {"start": start, "stop": stop})
    if not start < stop <= n:
        raise mismatch("slice", (a,), f"rows {start}..{stop} are out of range: need 0 ≤ start "
                       f"< stop ≤ {n}", {"start": start, "stop": stop})
    return (stop - start,) + a[1:]


def index_shape(a: Shape, i) -> Shape:
    n = first_axis("index", (a,), {"i": i})
    if i >= n:
        raise mismatch("index", (a,), f"index {i} is out of range: need 0 ≤ i < {n}", {"i": i})
    return a[1:]


def unslice_shape(g: Shape, a: Shape, start) -> Shape:
    if len(g) != len(a) or not g or g[1:] != a[1:] or start + g[0] > a[0]:
        raise mismatch("unslice", (g, a), f"the first operand does not fit in the second "
                       f"from row {start}", {"start": start})
    return a


def permute_shape(a: Shape, axes) -> Shape:
    if len(axes) != len(a):
        raise mismatch("permute", (a,), f"a rank-{len(a)} operand needs a permutation of "
                       f"{len(a)} axes, got {len(axes)}", {"axes": fmt_shape(axes)})
    return tuple(a[p] for p in axes)


def one_hot_shape(y: Shape, n) -> Shape:
    if y != ():
        raise mismatch("one_hot", (y,), "operand must be a scalar class index", {"n": n})
    return (n,)


def argmax_shape(a: Shape) -> Shape:
    first_axis("argmax", (a,))
    return a[:-1]


def no_grad_like(operand: str) -> Rule:
    """`no_grad` for an operand whose shape is not the result's (the original design's
    `mul g 0` would have the result's shape): zeros of the operand's shape."""
    return Rule("no_grad", None, f"broadcast_like 0 {operand}")


def permute_rules(a: Shape, axes):
    inverse = [0] * len(axes)
    for i, p in enumerate(axes):
        inverse[p] = i
    return (linear(f"permute g {fmt_shape(inverse)}"),)


defop("reshape", 1, forwards.reshape, reshape_shape,
      lambda a, shape: (linear(f"reshape g {fmt_shape(a)}"),),
      "v = a with its elements (row-major) arranged in `shape` (one entry may be -1)",
      attrs=(SHAPE,), flops=lambda a, shape: 0, view=True)
defop("flatten", 1, forwards.flatten, lambda a: (size(a),),
      lambda a: (linear(f"reshape g {fmt_shape(a)}"),), "v = a as a vector (row-major)",
      flops=lambda a: 0, view=True)
defop("concat", 2, forwards.concat, concat_shape,
      lambda a, b: (linear(f"slice g 0 {a[0]}"), linear(f"slice g {a[0]} {a[0] + b[0]}")),
      "v = a followed by b along the first axis", flops=lambda a, b: 0)
defop("slice", 1, forwards.take_slice, slice_shape,
      lambda a, start, stop: (linear(f"unslice g a {start}"),),
      "v = rows start, ..., stop - 1 of a (along the first axis)", attrs=(START, STOP),
      flops=lambda a, start, stop: 0, view=True)
defop("index", 1, forwards.index, index_shape,
      lambda a, i: (linear(f"unslice (reshape g {fmt_shape((1,) + a[1:])}) a {i}"),),
      "v = row i of a (a without its first axis)", attrs=(INDEX,), flops=lambda a, i: 0,
      view=True)
defop("unslice", 2, forwards.unslice, unslice_shape,
      lambda g, a, start: (linear(f"slice g {start} {start + g[0]}"),),
      "v = zeros of b's shape with a written from row `start` (the adjoint of `slice`)",
      attrs=(Attr("start", required=True, check=at_least(0)),), shape_only=(1,),
      flops=lambda g, a, start: 0)
defop("permute", 1, forwards.permute, permute_shape, permute_rules,
      "v = a with its axes reordered: axis i of v is axis axes[i] of a (numpy's transpose)",
      attrs=(AXES,), flops=lambda a, axes: 0, view=True)
defop("one_hot", 1, forwards.one_hot, one_hot_shape, rules(no_grad_like("a")),
      "v_i = 1 if i = a else 0, 0 ≤ i < n  (a holds a class index 0 ≤ a < n)",
      attrs=(CLASSES,), flops=lambda y, n: n)
defop("argmax", 1, forwards.argmax, argmax_shape, rules(no_grad_like("a")),
      "v = the index of the first maximum of a along its last axis", flops=lambda a: size(a))
defop("equal", 2, forwards.equal, lambda a, b: broadcast("equal", a, b),
      rules(no_grad(), no_grad()), "v = 1 if a = b else 0", elementwise=True,
      scalar="1.0 if a == b else 0.0")


defop("sum_like", 2, sum_like, sum_like_shape, rules(linear("broadcast_like g a")),
      "v = a summed over the axes that broadcasting b to a's shape would add or widen",
      shape_only=(1,), view=True)
defop("broadcast_like", 2, broadcast_like, broadcast_like_shape, broadcast_like_rules,
      "v = a broadcast to b's shape (with an axis: a unit axis put back there first)",
      attrs=(AXIS,), shape_only=(1,), flops=lambda a, b, axis: 0, view=True)

# --- convolution and pooling (DESIGN.md §2.3.1; numerics in tenflang/convolution.py) ---

STRIDE, PAD = Attr("stride", 1, check=at_least(1)), Attr("pad", 0, check=at_least(0))
WINDOW, POOL_STRIDE = Attr("k", check=at_least(1), required=True), Attr("stride", check=at_least(1))


def image_of(op: str, shapes, attrs: dict | None = None) -> Shape:
    x = shapes[0]
    if len(x) != 3:
        raise mismatch(op, shapes, "image must be [C, H, W] (channels, height, width)", attrs)
    return x


def conv2d_shape(x: Shape, K: Shape, stride=1, pad=0) -> Shape:
    image_of("conv2d", (x, K))
    if len(K) != 4:
        raise mismatch("conv2d", (x, K), "kernel must be [F, C, kh, kw]")
    if K[1] != x[0]:
        raise mismatch("conv2d", (x, K), f"kernel has {K[1]} input channel"
                       f"{'s' if K[1] != 1 else ''}, image has {x[0]}")
    height, width = x[1] + 2 * pad, x[2] + 2 * pad
    if K[2] > height or K[3] > width:
        raise mismatch("conv2d", (x, K), f"the {K[2]}×{K[3]} kernel is larger than the "
                       f"{height}×{width} image padded by {pad}", {"pad": pad})
    return (K[0], convolution.out_size(x[1], K[2], stride, pad),
            convolution.out_size(x[2], K[3], stride, pad))


def pool_shape(op: str) -> Callable[..., Shape]:
    def rule(x: Shape, k, stride=None) -> Shape:
        image_of(op, (x,), {"k": k})
        if k > x[1] or k > x[2]:
            raise mismatch(op, (x,), f"the {k}×{k} window is larger than the {x[1]}×{x[2]} "
                           "image", {"k": k})
        return (x[0],) + tuple(convolution.out_size(n, k, stride or k) for n in x[1:])
    return rule


def adjoint_shape(op: str, forward: str, operands: tuple[int, ...], result: int):
    """The shape rule of an adjoint op: its first operand has the shape that op
    `forward` gives on its operands at positions `operands`, and the result has
    the shape of its operand at position `result`."""
    def rule(*shapes_and_attrs) -> Shape:
        arity = TABLE[op].arity
        shapes, attrs = shapes_and_attrs[:arity], shapes_and_attrs[arity:]
        expected = TABLE[forward].shape(*(shapes[i] for i in operands), *attrs)
        if shapes[0] != expected:
            raise mismatch(op, shapes, f"the adjoint must have the shape {fmt_shape(expected)} "
                           f"of `{forward}`'s result")
        return shapes[result]
    return rule


def gather_shape(G: Shape, x: Shape, k, stride=None) -> Shape:
    if G != x:
        raise mismatch("maxpool2d_gather", (G, x), "operands must have the same shape")
    return pool_shape("maxpool2d_gather")(x, k, stride)


def words(attrs, defaults) -> str:
    """Attribute literals for a rule, trailing ones that equal their default left out."""
    attrs = list(attrs)
    while attrs and attrs[-1] == defaults[len(attrs) - 1]:
        attrs.pop()
    return "".join(f" {a}" for a in attrs)


def conv_rules(image: str, kernel: str):
    """Rules of a convolution-like op given, per operand, the TenFlang that
    combines the adjoint `g`, stride and padding appended."""
    def build(*shapes_and_attrs):
        stride, pad = shapes_and_attrs[-2:]
        tail = words((stride, pad), (STRIDE.default, PAD.default))
        return (linear(image + tail), linear(kernel + tail))
    return build


def pool_rules(*combines: str, grads=()):
    def build(*shapes_and_attrs):
        tail = words(shapes_and_attrs[-2:], (WINDOW.default, POOL_STRIDE.default))
        return tuple(linear(c + tail) for c in combines) + tuple(grads)
    return build


def conv_flops(x: Shape, K: Shape, stride=1, pad=0) -> int:
    return 2 * size(conv2d_shape(x, K, stride, pad)) * size(K[1:])


def pool_flops(x: Shape, k, stride=None) -> int:
    return size(pool_shape("pool")(x, k, stride)) * k * k


CONV, POOL = {"attrs": (STRIDE, PAD)}, {"attrs": (WINDOW, POOL_STRIDE)}


def flops_of(cost, *positions):
    """An adjoint's FLOPs: its forward's, on the operands at `positions`."""
    return lambda *shapes_and_attrs: cost(*(shapes_and_attrs[i] for i in positions),
                                          *shapes_and_attrs[-2:])


defop("conv2d", 2, convolution.conv2d, conv2d_shape,
      conv_rules("conv2d_image_grad g b a", "conv2d_kernel_grad g a b"),
      "v[f, i, j] = Σ_c,u,w b[f, c, u, w] · a°[c, s·i + u, s·j + w]  (image a, kernel b, "
      "a° = a with `pad` zeros around, s = `stride`: PyTorch's conv2d, no bias)",
      flops=conv_flops, **CONV)
defop("conv2d_image_grad", 3, convolution.conv2d_image_grad,
      adjoint_shape("conv2d_image_grad", "conv2d", (2, 1), 2),
      conv_rules("conv2d g b", "conv2d_kernel_grad a g b"),
      "v = the adjoint of `conv2d c b` in its image c, given the adjoint a of its result: "
      "v°[·, s·i + u, s·j + w] += Σ_f a[f, i, j] · b[f, ·, u, w], v = v° without the "
      "padding (c gives only the shape)",
      shape_only=(2,), flops=flops_of(conv_flops, 2, 1), **CONV)
defop("conv2d_kernel_grad", 3, convolution.conv2d_kernel_grad,
      adjoint_shape("conv2d_kernel_grad", "conv2d", (1, 2), 2),
      conv_rules("conv2d b g", "conv2d_image_grad a g b"),
      "v[f, c, u, w] = Σ_i,j a[f, i, j] · b°[c, s·i + u, s·j + w]: the adjoint of "
      "`conv2d b c` in its kernel c, given the adjoint a of its result (c gives only "
      "the shape)", shape_only=(2,), flops=flops_of(conv_flops, 1, 2), **CONV)
defop("maxpool2d", 1, convolution.maxpool2d, pool_shape("maxpool2d"),
      pool_rules("maxpool2d_grad g a"),
      "v[c, i, j] = max_u,w a[c, s·i + u, s·j + w], 0 ≤ u, w < k  (s = `stride`, default "
      "k; the derivative goes to the window's first maximum, row-major)",
      flops=pool_flops, **POOL)
defop("maxpool2d_grad", 2, convolution.maxpool2d_grad,
      adjoint_shape("maxpool2d_grad", "maxpool2d", (1,), 1),
      pool_rules("maxpool2d_gather g b", grads=[no_grad()]),
      "v = the adjoint of `maxpool2d b` in b, given the adjoint a of its result: "
      "a[c, i, j] goes to the first maximum of b's window (i, j), summed where windows "
      "overlap", flops=flops_of(pool_flops, 1), **POOL)
defop("maxpool2d_gather", 2, convolution.maxpool2d_gather, gather_shape,
      pool_rules("maxpool2d_grad g b", grads=[no_grad_like("b")]),
      "v[c, i, j] = a at the first maximum of b's window (i, j)  (the adjoint of "
      "`maxpool2d_grad` in its first operand)", flops=flops_of(pool_flops, 1), **POOL)
defop("avgpool2d", 1, convolution.avgpool2d, pool_shape("avgpool2d"),
      pool_rules("avgpool2d_grad g a"),
      "v[c, i, j] = (1/k²) Σ_u,w a[c, s·i + u, s·j + w], 0 ≤ u, w < k  (s = `stride`, "
      "default k)", flops=pool_flops, **POOL)
defop("avgpool2d_grad", 2, convolution.avgpool2d_grad,
      adjoint_shape("avgpool2d_grad", "avgpool2d", (1,), 1), pool_rules("avgpool2d g"),
      "v = the adjoint of `avgpool2d b` in b, given the adjoint a of its result: "
      "a[c, i, j]/k² spread over window (i, j) (b gives only the shape)",
      shape_only=(1,), flops=flops_of(pool_flops, 1), **POOL)

def lookup(name: str) -> Op | None:
    return TABLE.get(name)
