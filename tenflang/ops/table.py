"""THE op table: every TenFlang op, complete in one place.

Each entry gives an op's name, arity, attributes, forward function, shape
rule, derivative rules, formula and FLOP count; the parser, shape checker,
compiler, interpreter, statistics, docs and the gradient tests all read this
table, so adding an op touches this file alone.  The entries come in groups:
elementwise, linear algebra, reductions and normalisation, arranging and
indexing, the compiler's adjoint helpers, convolution and pooling, batch
statistics and dropout.

Conventions

* The fields and how each is called are tenflang/ops/entries.py's (`Op`, `Attr`,
  the rule kinds); the shape rules are tenflang/ops/shapes.py's; the forwards
  are tenflang/ops/forwards.py's and tenflang/ops/convolution.py's.

* A derivative rule is written in TenFlang itself, as a prefix expression
  over the ops of this table (parentheses nest; attribute literals, shape
  literals included, are written after the operands):

      a, b   the operands          v   the op's result
      g      the adjoint d/dv      p   the local partial dv/dm of this rule

  `chain(partial)` is the chain rule `mul g p`; `linear(combine)` has no
  local partial; `custom(partial, combine)` writes both; `no_grad()` is zero.

Adding an op is one `defop` call (or `defunary`/`defbinary`), e.g.

    defop("sum", 1, forwards.per_example_sum, reduce_shape("sum"), sum_rules,
          "v = Σ_i a_i", attrs=(AXIS,), flops=lambda a, axis: size(a))

with `forwards.per_example_sum(xp, a, axis=None)`, `reduce_shape("sum")(a,
axis)` and `sum_rules(a, axis)`; then add example shapes to the tests
(tests/compiler/test_gradients.py) and the reference generator (docs/make_op_reference.py)
if the defaults there do not fit, and run `python docs/make_op_reference.py`.
"""
from __future__ import annotations

import itertools

from . import convolution, embedding, forwards, modes, response_norm
from .forwards import INV_SQRT_2PI, SQRT_HALF, broadcast_like, dot, elementwise2, logistic
from .forwards import logistic_deriv, log_softmax, matmul, softmax, softplus, step, sum_like
from .forwards import tanh_deriv
from .entries import Attr, IndexRead, Op, at_least, chain, custom, linear, linear_passing, no_grad
from .entries import above, no_grad_like, permutation, probability, rules, shape_literal
from .shapes import Shape, argmax_shape, axis_of, broadcast, broadcast_like_shape, concat_shape
from .shapes import conv2d_shape, dot_shape, fmt_shape, gather_shape, index_shape
from .shapes import (last_axis_shape, like_first, matmul_shape, mismatch, one_hot_shape,
                     outer_shape)
from .shapes import operands_and_axis, permute_shape, pool_shape, reduce_shape, reshape_shape
from .shapes import same, size
from .shapes import slice_shape, sum_like_shape, transpose_shape, unslice_shape

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


def lookup(name: str) -> Op | None:
    return TABLE.get(name)


# --- elementwise -------------------------------------------------------------

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
defunary("erf", forwards.erf, "mul 1.1283791670955126 (exp (neg (mul a a)))",
         "v = (2/√π) ∫_0^a e^(-t²) dt", "math.erf(a)")
defunary("gelu", forwards.gelu, "gelu_deriv a",
         "v = a Φ(a) = ½ a (1 + erf(a/√2)), Φ the standard normal distribution (exact, "
         "PyTorch's default gelu)", f"0.5 * a * math.erfc({-SQRT_HALF!r} * a)")
defunary("logistic_deriv", logistic_deriv, "mul v (sub 1 (mul 2 (logistic a)))",
         "v = σ(a)(1 - σ(a)),  σ = logistic", f"{E_NEG_ABS} / (1.0 + {E_NEG_ABS}) ** 2")
defunary("tanh_deriv", tanh_deriv, "mul -2 (mul (tanh a) v)", "v = 1 - tanh² a",
         "4.0 * math.exp(-2.0 * abs(a)) / (1.0 + math.exp(-2.0 * abs(a))) ** 2")
defunary("gelu_deriv", forwards.gelu_deriv,
         f"mul (mul {INV_SQRT_2PI!r} (exp (mul -0.5 (mul a a)))) (sub 2 (mul a a))",
         "v = Φ(a) + a φ(a),  φ the standard normal density",
         f"0.5 * math.erfc({-SQRT_HALF!r} * a) + {INV_SQRT_2PI!r} * a * math.exp(-0.5 * a * a)")
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
defop("leaky_relu", 2, forwards.leaky_relu, like_first("leaky_relu"),
      rules(chain("where (step a) 1 b"), chain("sub a (relu a)")),
      "v = a if a > 0 else b · a  (b the slope, a number, usually a literal: PyTorch's "
      "leaky_relu)", elementwise=True, scalar="a if a > 0.0 else b * a")

# three operands (named a, b, c in the rules)
MAX_AB = "(a if a > b or a != a else b)"     # max(a, b), NaN propagating as numpy's

defop("where", 3, forwards.where,
      lambda a, b, c: broadcast("where", a, b, c),
      rules(no_grad(), linear("where a g 0"), linear("where a 0 g")),
      "v = b where a ≠ 0, else c  (numpy's where; no derivative in the condition a)",
      elementwise=True, scalar="b if a != 0.0 else c")
defop("clip", 3, forwards.clip, like_first("clip"),
      rules(chain("mul (sub 1 (step (sub b a))) (sub 1 (step (sub a c)))"),   # b ≤ a ≤ c
            chain("mul (step (sub b a)) (sub 1 (step (sub b c)))"),      # a < b ≤ c
            chain("step (sub (max a b) c)")),                            # max(a, b) > c
      "v = min(max(a, b), c): a held inside [b, c]  (derivative 1 inside, 0 outside; "
      "PyTorch's clamp)", elementwise=True,
      scalar=f"{MAX_AB} if {MAX_AB} < c or a != a or b != b else c")

# --- linear algebra ------------------------------------------------------------

def matmul_rules(a: Shape, b: Shape):
    if len(a) == 1:                      # v M: the vector's adjoint is M g, the matrix's v ⊗ g
        return (linear("matmul b g"), linear("outer a g"))
    if len(a) == 3 and len(b) == 2:      # one matrix for every batch entry: one GEMM
        rows = f"[{a[0] * a[1]}, {a[2]}]"
        return (custom("transpose b", "matmul g p"),
                linear(f"matmul (transpose (reshape a {rows})) (reshape g [{a[0] * a[1]}, {b[1]}])"))
    if len(b) == 1:
        return (custom("b", "outer g p"), custom("transpose a", "matmul p g"))
    return (custom("transpose b", "matmul g p"), custom("transpose a", "matmul p g"))


def matmul_flops(a: Shape, b: Shape) -> int:
    return 2 * size(a) * (b[-1] if len(b) >= 2 else 1)


defop("matmul", 2, matmul, matmul_shape, matmul_rules,
      "v = A x  ([m, k] · [k] → [m]),  v = A B  ([m, k] · [k, n] → [m, n]),  v = x A  "
      "([k] · [k, n] → [n], PyTorch's x @ W); batched over the first axis of a rank-3 A: "
      "[b, m, k] · [b, k, n] or [k, n] → [b, m, n]", flops=matmul_flops,
      # Σ_b A_b C_b contracts the example axis with the inner one
      batch_sum="xp.tensordot({a}, {b}, axes=((0, 2), (0, 1)))")
defop("dot", 2, dot, dot_shape, rules(chain("b"), chain("a")), "v = Σ_i a_i b_i",
      flops=lambda a, b: 2 * size(a))
defop("outer", 2, elementwise2(lambda xp, a, b: a[..., :, None] * b[..., None, :]), outer_shape,
      rules(custom("b", "matmul g p"), custom("a", "matmul (transpose g) p")), "v_ij = a_i b_j",
      batch_sum="xp.matmul({a}.T, {b})")            # Σ_b a_b ⊗ c_b = aᵀc
defop("transpose", 1, lambda xp, a: a.swapaxes(-1, -2), transpose_shape,
      rules(linear("transpose g")), "v_ij = a_ji  (rank ≥ 2: the last two axes swap)",
      flops=lambda a: 0, view=True)

# --- reductions and normalisation ----------------------------------------------

AXIS = Attr("axis")          # reductions: absent reduces everything


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

# --- arranging, indexing and classifying (docs/design.md §2.3.1) ------------------

SHAPE = Attr("shape", shape=True, required=True, check=shape_literal)
START, STOP = Attr("start", required=True, check=at_least(0)), Attr("stop", required=True)
INDEX = Attr("i", required=True, check=at_least(0))
AXES = Attr("axes", shape=True, required=True, check=permutation)
CLASSES = Attr("n", required=True, check=at_least(1))


def inverse_permutation(axes) -> list[int]:
    inverse = [0] * len(axes)
    for i, p in enumerate(axes):
        inverse[p] = i
    return inverse


def permute_rules(a: Shape, axes):
    return (linear(f"permute g {fmt_shape(inverse_permutation(axes))}"),)


def concat_rules(*shapes_and_axis):
    """Each operand's adjoint is its own rows of g along the axis, from where the
    operands before it end: `slice` on the first axis, the axis brought to the
    front and back by `permute` otherwise."""
    shapes, axis = operands_and_axis(shapes_and_axis)
    k = axis_of(shapes[0], axis)
    ends = list(itertools.accumulate(shape[k] for shape in shapes))
    parts = list(zip([0] + ends, ends))
    if k == 0:
        return tuple(linear(f"slice g {start} {stop}") for start, stop in parts)
    order = [k] + [i for i in range(len(shapes[0])) if i != k]
    front, back = f"permute g {fmt_shape(order)}", fmt_shape(inverse_permutation(order))
    return tuple(linear(f"permute (slice ({front}) {start} {stop}) {back}")
                 for start, stop in parts)


defop("reshape", 1, forwards.reshape, reshape_shape,
      lambda a, shape: (linear(f"reshape g {fmt_shape(a)}"),),
      "v = a with its elements (row-major) arranged in `shape` (one entry may be -1)",
      attrs=(SHAPE,), flops=lambda a, shape: 0, view=True)
defop("flatten", 1, forwards.flatten, lambda a: (size(a),),
      lambda a: (linear(f"reshape g {fmt_shape(a)}"),), "v = a as a vector (row-major)",
      flops=lambda a: 0, view=True)
defop("concat", 2, forwards.concat, concat_shape, concat_rules,
      "v = a followed by b (then c, …: two or more operands) along `axis` (default 0, "
      "the first; -1 the last)",
      attrs=(Attr("axis", 0),), flops=lambda *shapes_and_axis: 0, variadic=True)
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
      attrs=(START,), shape_only=(1,), flops=lambda g, a, start: 0)
defop("permute", 1, forwards.permute, permute_shape, permute_rules,
      "v = a with its axes reordered: axis i of v is axis axes[i] of a (numpy's transpose)",
      attrs=(AXES,), flops=lambda a, axes: 0, view=True)
defop("one_hot", 1, forwards.one_hot, one_hot_shape, rules(no_grad_like("a")),
      "v_i = 1 if i = a else 0, 0 ≤ i < n  (a holds a class index 0 ≤ a < n)",
      attrs=(CLASSES,), flops=lambda y, n: n,
      index=IndexRead(0, "a class index for one_hot", lambda shapes, attrs: attrs[0]))
defop("argmax", 1, forwards.argmax, argmax_shape, rules(no_grad_like("a")),
      "v = the index of the first maximum of a along its last axis", flops=lambda a: size(a))
defop("equal", 2, forwards.equal, lambda a, b: broadcast("equal", a, b),
      rules(no_grad(), no_grad()), "v = 1 if a = b else 0", elementwise=True,
      scalar="1.0 if a == b else 0.0")

# --- the compiler's adjoint helpers --------------------------------------------

def broadcast_like_rules(a: Shape, b: Shape, axis=None):
    return (linear("sum_like g a" if axis is None else f"sum g {axis}"),)


defop("sum_like", 2, sum_like, sum_like_shape, rules(linear("broadcast_like g a")),
      "v = a summed over the axes that broadcasting b to a's shape would add or widen",
      shape_only=(1,), view=True,
      # a bias's gradient: the batch's planes added, then summed down to the bias
      batch_sum="F.sum_like_sum(xp, {a}, {b})", batch_sum_forward=forwards.sum_like_sum)
defop("broadcast_like", 2, broadcast_like, broadcast_like_shape, broadcast_like_rules,
      "v = a broadcast to b's shape (with an axis: a unit axis put back there first)",
      attrs=(AXIS,), shape_only=(1,), flops=lambda a, b, axis: 0, view=True)

# --- convolution and pooling (docs/design.md §2.3.1; numerics in tenflang/ops/convolution.py) ---

STRIDE, PAD = Attr("stride", 1, check=at_least(1)), Attr("pad", 0, check=at_least(0))
GROUPS = Attr("groups", 1, check=at_least(1))
WINDOW, POOL_STRIDE = Attr("k", check=at_least(1), required=True), Attr("stride", check=at_least(1))
CEIL = Attr("ceil", 0, check=lambda v: None if v in (0, 1) else "must be 0 or 1")
CONV, POOL = (STRIDE, PAD, GROUPS), (WINDOW, POOL_STRIDE, PAD, CEIL)


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


def conv_flops(x: Shape, K: Shape, stride=1, pad=0, groups=1) -> int:
    return 2 * size(conv2d_shape(x, K, stride, pad, groups)) * size(K[1:])   # K[1] = C/groups


def pool_flops(x: Shape, k, stride=None, pad=0, ceil=0) -> int:
    return size(pool_shape("pool")(x, k, stride, pad, ceil)) * k * k


def flops_of(cost, arity: int, *positions):
    """An adjoint's FLOPs: its forward's, on the operands at `positions` (the
    adjoint has `arity` operands, then the forward's attributes)."""
    return lambda *shapes_and_attrs: cost(*(shapes_and_attrs[i] for i in positions),
                                          *shapes_and_attrs[arity:])


defop("conv2d", 2, convolution.conv2d, conv2d_shape,
      linear_passing(CONV, "conv2d_image_grad g b a", "conv2d_kernel_grad g a b"),
      "v[f, i, j] = Σ_c,u,w b[f, c, u, w] · a°[c, s·i + u, s·j + w]  (image a, kernel b, "
      "a° = a with `pad` zeros around, s = `stride`: PyTorch's conv2d, no bias; with "
      "`groups` G, b is [F, C/G, kh, kw] and a° is read at channel c + (C/G)·⌊f/(F/G)⌋: "
      "filter f sees only its group's channels)",
      flops=conv_flops, attrs=CONV)
defop("conv2d_image_grad", 3, convolution.conv2d_image_grad,
      adjoint_shape("conv2d_image_grad", "conv2d", (2, 1), 2),
      linear_passing(CONV, "conv2d g b", "conv2d_kernel_grad a g b"),
      "v = the adjoint of `conv2d c b` in its image c, given the adjoint a of its result: "
      "v°[·, s·i + u, s·j + w] += Σ_f a[f, i, j] · b[f, ·, u, w], v = v° without the "
      "padding (c gives only the shape)",
      shape_only=(2,), flops=flops_of(conv_flops, 3, 2, 1), attrs=CONV)
defop("conv2d_kernel_grad", 3, convolution.conv2d_kernel_grad,
      adjoint_shape("conv2d_kernel_grad", "conv2d", (1, 2), 2),
      linear_passing(CONV, "conv2d b g", "conv2d_image_grad a g b"),
      "v[f, c, u, w] = Σ_i,j a[f, i, j] · b°[c, s·i + u, s·j + w]: the adjoint of "
      "`conv2d b c` in its kernel c, given the adjoint a of its result (c gives only "
      "the shape)", shape_only=(2,), flops=flops_of(conv_flops, 3, 1, 2), attrs=CONV,
      # the batch sum contracts the example axis with the pixels (docs/guide/language.md)
      batch_sum="F.conv2d_kernel_grad_sum(xp, {a}, {b}, {c}, {attrs})",
      batch_sum_forward=convolution.conv2d_kernel_grad_sum)
defop("maxpool2d", 1, convolution.maxpool2d, pool_shape("maxpool2d"),
      linear_passing(POOL, "maxpool2d_grad g a"),
      "v[c, i, j] = max_u,w a°[c, s·i + u, s·j + w], 0 ≤ u, w < k  (s = `stride`, default "
      "k; a° = a with `pad` entries -∞ around, 2·pad ≤ k: PyTorch's max_pool2d; `ceil` "
      "1 rounds the output size up, as its ceil_mode; the derivative goes to the "
      "window's first maximum, row-major)",
      flops=pool_flops, attrs=POOL)
defop("maxpool2d_grad", 2, convolution.maxpool2d_grad,
      adjoint_shape("maxpool2d_grad", "maxpool2d", (1,), 1),
      linear_passing(POOL, "maxpool2d_gather g b", rest=[no_grad()]),
      "v = the adjoint of `maxpool2d b` in b, given the adjoint a of its result: "
      "a[c, i, j] goes to the first maximum of b's window (i, j), summed where windows "
      "overlap", flops=flops_of(pool_flops, 2, 1), attrs=POOL)
defop("maxpool2d_gather", 2, convolution.maxpool2d_gather, gather_shape,
      linear_passing(POOL, "maxpool2d_grad g b", rest=[no_grad_like("b")]),
      "v[c, i, j] = a at the first maximum of b's window (i, j)  (the adjoint of "
      "`maxpool2d_grad` in its first operand)", flops=flops_of(pool_flops, 2, 1), attrs=POOL)
defop("avgpool2d", 1, convolution.avgpool2d, pool_shape("avgpool2d"),
      linear_passing(POOL, "avgpool2d_grad g a"),
      "v[c, i, j] = (1/k²) Σ_u,w a°[c, s·i + u, s·j + w], 0 ≤ u, w < k  (s = `stride`, "
      "default k; a° = a with `pad` zeros around, 2·pad ≤ k: PyTorch's avg_pool2d, "
      "padded zeros counted; `ceil` 1 rounds the output size up, as its ceil_mode, a "
      "window reaching past a° divided by the entries of a° it covers instead of k²)",
      flops=pool_flops, attrs=POOL)
defop("avgpool2d_grad", 2, convolution.avgpool2d_grad,
      adjoint_shape("avgpool2d_grad", "avgpool2d", (1,), 1), linear_passing(POOL, "avgpool2d g"),
      "v = the adjoint of `avgpool2d b` in b, given the adjoint a of its result: "
      "a[c, i, j]/k² (the forward's divisor) spread over window (i, j) (b gives only "
      "the shape)",
      shape_only=(1,), flops=flops_of(pool_flops, 2, 1), attrs=POOL)

# --- batch statistics and dropout (docs/design.md §2.3.2; the modes: tenflang/ops/modes.py) ---

defop("batch_mean", 1, modes.batch_mean, same, rules(linear("batch_mean g")),
      "v = (1/B) Σ_e a_e over the examples e of the batch being run, the same for every "
      "example; in evaluation the population value stored with the weights",
      cross_example=True, flops=lambda a: size(a))
defop("dropout_mask", 2, modes.dropout_mask, lambda a, p: a, rules(no_grad(), no_grad()),
      "v = 0 with probability p, else 1/(1 - p), each entry drawn independently (a gives "
      "the shape; p a number literal, 0 ≤ p < 1); in evaluation v = 1",
      drawn=True, literals=(Attr("p", check=probability),), flops=lambda a, p: size(a))

# --- embeddings (docs/design.md §2.3.2; numerics and shapes in tenflang/ops/embedding.py) ---

def table_rows(W: Shape) -> int | None:
    return W[0] if W else None


defop("take", 2, embedding.take, embedding.take_shape,
      rules(linear("take_grad g b a"), no_grad_like("b")),
      "v = the rows of a picked by the indices b: v[j, ...] = a[b_j, ...]  (shape(b) + a's "
      "shape without its first axis; PyTorch's embedding; no derivative in b)",
      flops=lambda W, i: size(i) * size(W[1:]), view=False,
      index=IndexRead(1, "a row index for take", lambda shapes, attrs: table_rows(shapes[0])))
defop("take_grad", 3, embedding.take_grad, embedding.take_grad_shape,
      rules(linear("take g b"), no_grad_like("b")),
      "v = zeros of c's shape with each row a_j added at row b_j  (the adjoint of `take c b` "
      "in c; c gives only the shape; the batch's rows are summed into one table)",
      shape_only=(2,), flops=lambda g, i, W: size(g),
      # an embedding's gradient: the batch's rows added into one table
      batch_sum="F.take_grad_sum(xp, {a}, {b}, {c})", batch_sum_forward=embedding.take_grad_sum)

# --- local response normalisation (docs/design.md §2.3.3; tenflang/ops/response_norm.py) ---

LRN_SIZE = Attr("n", required=True, check=at_least(1))
LRN = (LRN_SIZE, Attr("alpha", response_norm.DEFAULTS[0], check=at_least(0), number=True),
       Attr("beta", response_norm.DEFAULTS[1], number=True),
       Attr("k", response_norm.DEFAULTS[2], check=above(0), number=True))

defop("lrn", 1, response_norm.lrn, response_norm.lrn_shape, response_norm.lrn_rules,
      "v[c] = a[c] / d[c]^β,  d[c] = k + (α/n) Σ_{c'=c-⌊n/2⌋}^{c+⌊(n-1)/2⌋} a[c']²  (the "
      "channels: a's first axis, those outside counted as zeros; PyTorch's "
      "LocalResponseNorm(n, alpha, beta, k), Caffe's ACROSS_CHANNELS)", attrs=LRN,
      flops=lambda a, n, alpha, beta, k: (n + 6) * size(a))
defop("channel_sum", 1, response_norm.channel_sum, response_norm.channel_sum_shape,
      response_norm.channel_sum_rules,
      "v[c] = Σ_{t=0}^{n-1} a[c - front + t]  (along a's first axis, the channels; those "
      "outside counted as zeros: the window sum of `lrn`, linear)",
      attrs=(LRN_SIZE, Attr("front", required=True, check=at_least(0))),
      flops=lambda a, n, front: n * size(a))
