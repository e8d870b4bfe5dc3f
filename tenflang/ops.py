"""THE op table: every TenFlang op, complete in one place.

Each entry gives an op's arity, its forward function, its shape rule and its
derivative rule; the parser, shape checker, compiler, interpreter, statistics
and the gradient tests all read this table, so adding an op touches this file
alone.

Conventions

* Shapes are per-example tuples of ints; `()` is a scalar.

* `forward(xp, *args)` is array-module generic (numpy or cupy, passed as `xp`).
  Every runtime value carries exactly one leading *example axis*: of size B for
  values that vary per example, of size 1 for values that do not (weights,
  constants).  The per-example rank of an array is therefore `ndim - 1`, and a
  forward function must give, example by example, what the op gives on one
  example.

* Derivative rules are written in TenFlang itself, as prefix expressions over
  the ops of this table (parentheses nest):

      a, b   the operands          v   the op's result
      g      the adjoint d/dv      p   the local partial dv/dm of this rule

  A rule for operand m is `Grad(partial, combine)`.  `partial` defines the
  local partial `dv/dm` (None when the op is linear in m and needs none) and
  `combine` turns the adjoint of the result into m's contribution to `d/dm`.
  The default combine, `mul g p`, is the seed's chain rule.  A rule of None
  means the operand has no derivative (it only gives a shape).  The compiler
  sums contributions back to the operand's shape where numpy broadcasting
  widened it.

* Shape rules raise `ShapeMismatch` with a message that shows both shapes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

Shape = tuple[int, ...]


class ShapeMismatch(ValueError):
    """An op applied to operands of incompatible shapes (message shows them)."""


@dataclass(frozen=True)
class Grad:
    partial: str | None
    combine: str = "mul g p"


@dataclass(frozen=True)
class Op:
    name: str
    arity: int
    forward: Callable
    shape: Callable[..., Shape]
    grads: Callable[..., tuple[Grad | None, ...]]
    math: str
    elementwise: bool = False
    flops: Callable[..., int] = field(default=None)
    ufunc: str | None = None   # the xp ufunc it is, so generated code can write `out=`
    view: bool = False         # may return (a view of) an operand instead of a new array

    def cost(self, operand_shapes: list[Shape], result: Shape) -> int:
        """Floating point operations per example (multiply-adds count 2)."""
        if self.flops is not None:
            return self.flops(*operand_shapes)
        return size(result)


def size(shape: Shape) -> int:
    return math.prod(shape)


def fmt_shape(shape: Shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def mismatch(op: str, shapes, reason: str) -> ShapeMismatch:
    shown = " × ".join(fmt_shape(s) for s in shapes)
    return ShapeMismatch(f"{op} {shown}: {reason}")


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


def scalar(a: Shape) -> Shape:
    return ()


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


def broadcast_like_shape(a: Shape, b: Shape) -> Shape:
    if broadcast("broadcast_like", a, b) != b:
        raise mismatch("broadcast_like", (a, b), "first shape does not broadcast to the second")
    return b


# --- forward helpers (batched: one leading example axis) ---------------------

def align(*arrays):
    """Insert unit axes after the example axis so per-example ranks agree
    (numpy would otherwise align a per-example vector with the example axis)."""
    rank = max(x.ndim for x in arrays)
    return [x.reshape(x.shape[:1] + (1,) * (rank - x.ndim) + x.shape[1:])
            if x.ndim < rank else x for x in arrays]


def elementwise2(fn):
    return lambda xp, a, b: fn(xp, *align(a, b))


def per_example_sum(xp, a):
    return a.reshape(a.shape[0], -1).sum(axis=1)


def logsumexp(xp, a):
    flat = a.reshape(a.shape[0], -1)
    top = flat.max(axis=1, keepdims=True)
    top = xp.where(xp.isfinite(top), top, 0)
    return (top + xp.log(xp.exp(flat - top).sum(axis=1, keepdims=True)))[:, 0]


def log_softmax(xp, a):
    top = a.max(axis=-1, keepdims=True)
    top = xp.where(xp.isfinite(top), top, 0)
    shifted = a - top
    return shifted - xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))


def softmax(xp, a):
    e = xp.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def exp_neg_abs(xp, a):
    """e^-|a|, a new array (never overflows)."""
    e = xp.abs(a)
    xp.negative(e, out=e)
    return xp.exp(e, out=e)


def logistic(xp, a):
    """e^min(a, 0) / (1 + e^-|a|): exact in both tails, no overflow, no branch."""
    num = xp.minimum(a, 0.0)
    xp.exp(num, out=num)
    den = exp_neg_abs(xp, a)
    den += 1.0
    return xp.divide(num, den, out=num)


def logistic_deriv(xp, a):
    """σ(a)(1 - σ(a)) = e / (1 + e)², e = e^-|a| (exact in both tails)."""
    e = exp_neg_abs(xp, a)
    den = e + 1.0
    xp.multiply(den, den, out=den)
    return xp.divide(e, den, out=e)


def tanh_deriv(xp, a):
    """1 - tanh²(a) = 4e / (1 + e)², e = e^-2|a| (exact in both tails)."""
    e = exp_neg_abs(xp, 2.0 * a)
    den = e + 1.0
    xp.multiply(den, den, out=den)
    xp.divide(e, den, out=e)
    return xp.multiply(e, 4.0, out=e)


def softplus(xp, a):
    return xp.maximum(a, 0) + xp.log1p(xp.exp(-xp.abs(a)))


def step(xp, a):
    return (a > 0).astype(a.dtype)


def matmul(xp, a, b):
    if b.ndim == 3:                      # [m, k] · [k, n]
        return xp.matmul(a, b)
    if a.shape[0] == 1:                  # one matrix for the whole batch: one GEMM
        return b @ a[0].T
    if b.shape[0] == 1:
        return a @ b[0]
    return xp.einsum("bmk,bk->bm", a, b)


def dot(xp, a, b):
    if a.shape[0] == 1:                  # one vector for the whole batch: one GEMV
        return b @ a[0]
    if b.shape[0] == 1:
        return a @ b[0]
    return xp.einsum("bn,bn->b", a, b)


def sum_like(xp, a, b):
    """Sum a's per-example axes down to b's per-example shape."""
    extra = a.ndim - b.ndim
    axes = tuple(range(1, 1 + extra)) + tuple(
        1 + extra + i for i, d in enumerate(b.shape[1:]) if d == 1 and a.shape[1 + extra + i] != 1)
    return a.sum(axis=axes).reshape(a.shape[:1] + b.shape[1:]) if axes else a


def broadcast_like(xp, a, b):
    a, _ = align(a, b)
    return xp.broadcast_to(a, a.shape[:1] + b.shape[1:])


# --- derivative rule builders ------------------------------------------------

def rules(*grads):
    return lambda *shapes: grads


def unary(partial: str):
    return rules(Grad(partial))


def mean_rules(a: Shape):
    return (Grad(None, f"broadcast_like (div g {size(a)}) a"),)


def matmul_rules(a: Shape, b: Shape):
    if len(b) == 1:
        return (Grad("b", "outer g p"), Grad("transpose a", "matmul p g"))
    return (Grad("transpose b", "matmul g p"), Grad("transpose a", "matmul p g"))


def matmul_flops(a: Shape, b: Shape) -> int:
    return 2 * size(a) * (b[1] if len(b) == 2 else 1)


ZERO = Grad("0")  # piecewise-constant ops

# --- the table ---------------------------------------------------------------

TABLE: dict[str, Op] = {}


def defop(name, arity, forward, shape, grads, math, elementwise=False, flops=None, ufunc=None,
          view=False):
    TABLE[name] = Op(name, arity, forward, shape, grads, math, elementwise, flops, ufunc, view)


def defunary(name, forward, partial, math, ufunc=None, view=False):
    defop(name, 1, forward, same, unary(partial) if partial else rules(None), math,
          elementwise=True, ufunc=ufunc, view=view)


def defbinary(name, ufunc, partial_a, partial_b, math):
    shape = lambda a, b: broadcast(name, a, b)  # noqa: E731
    forward = elementwise2(lambda xp, a, b: getattr(xp, ufunc)(a, b))
    defop(name, 2, forward, shape, rules(Grad(partial_a), Grad(partial_b)), math,
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
defop("dot", 2, dot, dot_shape, rules(Grad("b"), Grad("a")), "v = Σ_i a_i b_i",
      flops=lambda a, b: 2 * size(a))
defop("outer", 2, elementwise2(lambda xp, a, b: a[..., :, None] * b[..., None, :]), outer_shape,
      rules(Grad("b", "matmul g p"), Grad("a", "matmul (transpose g) p")), "v_ij = a_i b_j")
defop("transpose", 1, lambda xp, a: a.swapaxes(-1, -2), transpose_shape,
      rules(Grad(None, "transpose g")), "v_ij = a_ji", flops=lambda a: 0, view=True)

defop("sum", 1, per_example_sum, scalar, rules(Grad(None, "broadcast_like g a")), "v = Σ_i a_i",
      flops=lambda a: size(a))
defop("mean", 1, lambda xp, a: per_example_sum(xp, a) / max(size(a.shape[1:]), 1), scalar,
      mean_rules, "v = (1/n) Σ_i a_i", flops=lambda a: size(a))
defop("logsumexp", 1, logsumexp, scalar, rules(Grad("exp (sub a v)")), "v = ln Σ_i e^(a_i)",
      flops=lambda a: 4 * size(a))
defop("softmax", 1, softmax, vector_shape("softmax"), rules(Grad("v", "mul p (sub g (dot g p))")),
      "v_i = e^(a_i) / Σ_j e^(a_j)", flops=lambda a: 4 * size(a))
defop("log_softmax", 1, log_softmax, vector_shape("log_softmax"),
      rules(Grad("softmax a", "sub g (mul p (sum g))")), "v_i = a_i - ln Σ_j e^(a_j)",
      flops=lambda a: 4 * size(a))

defop("sum_like", 2, sum_like, sum_like_shape, rules(Grad(None, "broadcast_like g a"), None),
      "v = a summed over the axes that broadcasting b to a's shape would add or widen", view=True)
defop("broadcast_like", 2, broadcast_like, broadcast_like_shape,
      rules(Grad(None, "sum_like g a"), None), "v = a broadcast to b's shape", flops=lambda a, b: 0,
      view=True)


def lookup(name: str) -> Op | None:
    return TABLE.get(name)
