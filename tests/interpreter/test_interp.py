"""The interpreter (tenflang.interp): the original design's semantics, batched.

* The original design's walkthrough, verbatim; NULL propagation (docs/design.md §2.6).
* A batch run equals one run per example: every sample, its GCPs at -O0 and
  -O1, and random programs (hypothesis).
* Every op of `ops.TABLE` against an independent per-example reference written
  here with plain Python `math` (never the op table's own forward functions),
  with per-example operands and unbatched (weight) operands.
* Numerical stability for |x| up to 1e4 (docs/design.md §2.3), liveness (the plan
  releases values), the in-product batch reduction, float32.
"""
from __future__ import annotations

import itertools
import math
import tracemalloc
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tenflang
from tenflang.ops import table as ops
from tenflang.interp.planning.plan import op_of
from tenflang.backprop import compile_gradient
from tenflang.interp import evaluate, interpret, make_plan, run_plan
from tenflang.interp.runtime.population import population, statistic_lines
from tenflang.ops.modes import EVALUATION, Mode
from tenflang.lang.syntax_tree import Var
from tenflang.lang.printer import attribute
from tenflang.ops.shapes import fmt_shape
from tenflang.lang.checks import check

from support import programs
from support.programs import fits
from support.paths import SAMPLES, SAMPLES_DIR
from support.programs import index_ranges
from support.naive_conv import REFERENCE as CONVOLUTION

B = 7

# ---------------------------------------------------------------- the original design's walkthrough

WALKTHROUGH = programs.WALKTHROUGH


def test_original_walkthrough_verbatim():
    program = tenflang.parse(WALKTHROUGH, "walkthrough.tf")
    assert interpret(program, {"x": 3, "w": -2}) == {"o": -8}
    # the whole bindings dictionary at the end, as the original design tabulates it
    names = ["x", "w", "y", "o", "a", "b", "c"]
    bindings = interpret(program, {"x": 3, "w": -2}, results=names)
    assert list(bindings) == names
    assert bindings == {"x": 3, "w": -2, "y": None, "o": -8, "a": -6, "b": None, "c": None}


def test_original_walkthrough_batched_and_with_y_given():
    program = tenflang.parse(WALKTHROUGH, "walkthrough.tf")
    out = interpret(program, {"x": np.array([3.0, 1.0]), "w": -2.0}, results=["o", "c"],
                    batched=True)
    np.testing.assert_array_equal(out["o"], [-8.0, -4.0])
    assert out["c"] is None
    # once y is bound, c = y * w has a value
    out = interpret(program, {"x": 3, "w": -2, "y": 5}, results=["o", "c", "b"])
    assert out == {"o": -8, "c": -10, "b": None}


# ---------------------------------------------------------------- NULL

NULL_PROGRAM = """\
declare input x [3]
declare exp_output y [3]
declare exp_output s
declare weight W [2, 3]
declare intvar k
declare output u1
declare output u2
declare output b1
declare output b2
declare output t1
declare output t2
declare output t3
declare output chain
declare output fine
declare output cp
declare loss l

define k = 2
define u1 = exp y
define u2 = neg s
define b1 = add x y
define b2 = mul k s
define t1 = matmul W y
define t2 = softmax y
define t3 = dot y x
define chain = sum t1
define cp = y
define fine = dot x x
define l = add chain fine
"""


def test_null_propagates_through_every_kind_of_op():
    program = tenflang.parse(NULL_PROGRAM, "null.tf")
    x = np.array([1.0, 2.0, 3.0])
    W = np.ones((2, 3))
    out = interpret(program, {"x": x, "W": W})
    nulls = {"u1", "u2", "b1", "b2", "t1", "t2", "t3", "chain", "cp", "l"}
    assert {n for n, v in out.items() if v is None} == nulls
    assert out["fine"] == 14.0
    # explicitly null entries (vector notation's `null`) mean the same as absent
    assert interpret(program, {"x": x, "W": W, "y": None, "s": None}) == out
    # and everything has a value once the exp_outputs are given
    full = interpret(program, {"x": x, "W": W, "y": x - 1, "s": 4.0})
    assert all(v is not None for v in full.values())
    np.testing.assert_allclose(full["t1"], [3.0, 3.0])
    assert full["l"] == 6.0 + 14.0


def test_null_plan_does_no_work_for_null_results():
    program = tenflang.parse(NULL_PROGRAM, "null.tf")
    plan = make_plan(program, {"x", "W"})
    assert {s.target for s in plan.steps} == {"fine"}
    assert plan.null == {"u1", "u2", "b1", "b2", "t1", "t2", "t3", "chain", "cp", "l"}


def test_missing_exp_output_makes_the_loss_null_but_keeps_outputs():
    program = tenflang.parse((SAMPLES_DIR / "example_shape.tf").read_text())
    out = evaluate(program, {"x": np.array([-1.0, 0.0, 2.0])}, {"w": 1.7})
    assert list(out) == ["o", "lambda"]
    assert out["lambda"] is None
    np.testing.assert_allclose(out["o"], 1 / (1 + np.exp(-1.7 * np.array([-1.0, 0.0, 2.0]))))
    out = evaluate(program, {"x": np.array([2.0]), "y": None}, {"w": 1.7})
    assert out["lambda"] is None
    out = evaluate(program, {"x": np.array([2.0]), "y": np.array([1.0])}, {"w": 1.7})
    assert out["lambda"][0] == pytest.approx((1 / (1 + math.exp(-3.4)) - 1) ** 2, rel=1e-14)


# ---------------------------------------------------------------- batched == per example

def random_data(program, rng, batch: int):
    """Data of the declared shapes for every bound variable; weights scaled small;
    a class index (what `one_hot` reads) drawn from its classes, a row index
    (what `take` reads) from its table's rows."""
    shapes = check(program)
    classes = index_ranges([(d.name, d.op, [o.name if isinstance(o, Var) else o
                                            for o in d.operands], d.attrs)
                            for d in program.definitions()], shapes)
    data = {}
    for name, decl in program.declarations().items():
        if name in classes:
            size = (batch,) + tuple(shapes[name])
            data[name] = rng.integers(0, classes[name], size=size).astype(float)
        elif decl.kind in ("input", "exp_output"):
            data[name] = rng.normal(size=(batch,) + tuple(shapes[name]))
        elif decl.kind == "weight":
            data[name] = 0.5 * rng.normal(size=tuple(shapes[name]))
    return data


def assert_batch_equals_each_example(program, data, batch: int, results=None, mode=Mode()):
    values = interpret(program, data, results=results, batched=True, mode=mode)
    batched_names = {n for n, d in program.declarations().items()
                     if d.kind in ("input", "exp_output")}
    for i in range(batch):
        # the original design's way: one example, values without an example axis
        one = {n: (v[i] if n in batched_names else v) for n, v in data.items()}
        single = interpret(program, one, results=results, mode=mode)
        # and a batch of one through run_plan
        plan = make_plan(program, set(data), results)
        sliced = run_plan(plan, {n: (v[i:i + 1] if n in batched_names else v)
                                 for n, v in data.items()}, mode=mode)
        assert values.keys() == single.keys() == sliced.keys()
        for name, value in values.items():
            if value is None:
                assert single[name] is None and sliced[name] is None, name
                continue
            assert value.shape[0] == batch, name
            assert np.all(np.isfinite(value)), name
            np.testing.assert_allclose(single[name], value[i], rtol=1e-12, atol=1e-12,
                                       err_msg=name)
            np.testing.assert_allclose(sliced[name][0], value[i], rtol=1e-12, atol=1e-12,
                                       err_msg=name)


def sample_programs():
    for path in SAMPLES:
        program = tenflang.parse_file(str(path))
        yield pytest.param(program, id=path.stem)
        if any(op_of(d).drawn or op_of(d).cross_example
               for d in program.definitions()):
            continue    # training mode is not per example, by design: tests/ops/test_batch_modes.py
        for level in (0, 1):
            gcp = compile_gradient(tenflang.parse_file(str(path), shape_program=True), level)
            again = tenflang.parse(tenflang.print_program(gcp), f"{path.stem}-O{level}.tf")
            yield pytest.param(again, id=f"{path.stem}-gcp-O{level}")


@pytest.mark.parametrize("program", list(sample_programs()))
def test_samples_and_their_gcps_batched_equal_per_example(program):
    """In evaluation mode for a sample with dropout or batch statistics (their
    population values over the batch given, as a weights file gives them)."""
    rng = np.random.default_rng(zlib.crc32(program.filename.encode()))
    data = random_data(program, rng, B)
    mode, stats = Mode(), {}
    if statistic_lines(program) or any(op_of(d).drawn for d in program.definitions()):
        weights = {n: v for n, v in data.items() if program.declarations()[n].kind == "weight"}
        mode, stats = EVALUATION, population(program, data, weights)
        data |= stats
    every = [n for n in program.declarations() if n not in stats]  # every name, not only outputs
    assert_batch_equals_each_example(program, data, B, results=every, mode=mode)
    assert_batch_equals_each_example(program, data, B, mode=mode)
    # without the exp_outputs: the same outputs, NULL losses
    shape_inputs = {n for n, d in program.declarations().items() if d.kind == "exp_output"}
    if shape_inputs:
        partial = {n: v for n, v in data.items() if n not in shape_inputs}
        assert_batch_equals_each_example(program, partial, B, mode=mode)


SMOOTH = ["neg", "exp", "logistic", "tanh", "sin", "cos", "softplus", "logistic_deriv",
          "tanh_deriv", "copy", "relu", "abs", "step", "sign"]
BINARY = ["add", "sub", "mul", "max", "min", "div", "pow"]
SHAPED = ["matmul", "dot", "outer", "sum", "mean", "logsumexp", "softmax", "log_softmax",
          "transpose", "sum_like", "broadcast_like", "flatten", "concat", "argmax", "equal"]
DATA = {"w0": ("weight", ()), "w1": ("weight", (3,)), "w2": ("weight", (2, 3)),
        "x0": ("input", (3,)), "x1": ("input", ()), "y0": ("exp_output", (2,))}


@st.composite
def random_programs(draw):
    env = {n: s for n, (_, s) in DATA.items()}
    lines = []

    def emit(op, operands):
        name = f"t{len(lines)}"
        env[name] = ops.TABLE[op].shape(*[env[o] if isinstance(o, str) else () for o in operands])
        lines.append((name, op, operands))
        return name

    def positive(name):
        return emit("add", (emit("logistic", (name,)), 0.5))

    for _ in range(draw(st.integers(1, 12))):
        names = sorted(env)
        kind = draw(st.sampled_from(["unary", "binary", "shaped"]))
        if kind == "unary":
            emit(draw(st.sampled_from(SMOOTH + ["log", "sqrt"])), (draw(st.sampled_from(names)),))
            if lines[-1][1] in ("log", "sqrt"):
                name, op, (a,) = lines.pop()
                del env[name]
                emit(op, (positive(a),))
        elif kind == "binary":
            op = draw(st.sampled_from(BINARY))
            a = draw(st.sampled_from(names))
            b = draw(st.sampled_from(names + [2.0, -0.5]))
            if not fits(op, [env[a], () if isinstance(b, float) else env[b]]):
                continue
            if op in ("div", "pow"):
                a = positive(a)
                b = b if isinstance(b, float) else positive(b)
            emit(op, (a, b))
        else:
            op = draw(st.sampled_from(SHAPED))
            arity = ops.TABLE[op].arity
            pairs = [(p, q) for p in names for q in names] if arity == 2 else [(p,) for p in names]
            fitting = [c for c in pairs if fits(op, [env[n] for n in c])]
            if fitting:
                emit(op, draw(st.sampled_from(fitting)))
    if not lines:
        emit("mul", ("x1", "w0"))
    kinds = draw(st.lists(st.sampled_from(["intvar", "output", "loss"]),
                          min_size=len(lines), max_size=len(lines)))
    out = [f"declare {k} {n} {fmt_shape(s)}" for n, (k, s) in DATA.items()]
    for (name, op, operands), kind in zip(lines, kinds):
        if kind == "loss" and env[name] != ():
            kind = "output"                            # a loss is a scalar
        out.append(f"declare {kind} {name}")
        out.append(f"define {name} = {op} " + " ".join(map(str, operands)))
    return "\n".join(out) + "\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_programs(), st.integers(0, 2**32 - 1), st.booleans())
def test_random_programs_batched_equal_per_example(source, seed, with_y):
    program = tenflang.parse(source, "random.tf")
    rng = np.random.default_rng(seed)
    data = random_data(program, rng, 5)
    if not with_y:
        del data["y0"]                                 # NULL exp_output
    with np.errstate(all="ignore"):
        values = interpret(program, data, batched=True, results=list(program.declarations()))
    if not all(v is None or np.all(np.isfinite(v)) for v in values.values()):
        return                                         # overflowed (exp of exp...): not comparable
    assert_batch_equals_each_example(program, data, 5, results=list(program.declarations()))


# ---------------------------------------------------------------- every op vs a reference

def ew(fn):
    """An elementwise reference from a scalar Python function."""
    return lambda a: np.vectorize(fn, otypes=[float])(a)


def ew2(fn):
    return lambda a, b: np.vectorize(fn, otypes=[float])(a, b)


def ew3(fn):
    return lambda a, b, c: np.vectorize(fn, otypes=[float])(a, b, c)


def normal_cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def normal_density(x):
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def ref_concat(*parts_and_axis):
    """Joined along the axis (a trailing int, else 0): the rows of each operand in
    turn, that axis brought to the front."""
    parts, axis = ((parts_and_axis[:-1], parts_and_axis[-1])
                   if isinstance(parts_and_axis[-1], int) else (parts_and_axis, 0))
    rows = [row for part in parts for row in np.moveaxis(part, axis, 0)]
    return np.moveaxis(np.array(rows), 0, axis)


def logistic_ref(x):
    return 1 / (1 + math.exp(-x))


def ref_matmul(a, b):
    if a.ndim == 3:          # batched: one product per entry of the first axis
        return np.array([ref_matmul(a[i], b[i] if b.ndim == 3 else b) for i in range(len(a))])
    if a.ndim == 1:          # a vector times a matrix
        return np.array([sum(a[j] * b[j, c] for j in range(len(a))) for c in range(b.shape[1])])
    m, k = a.shape
    if b.ndim == 1:
        return np.array([sum(a[i, j] * b[j] for j in range(k)) for i in range(m)])
    return np.array([[sum(a[i, j] * b[j, c] for j in range(k)) for c in range(b.shape[1])]
                     for i in range(m)])


def ref_sum_like(a, b):
    """a summed down to b's shape (the inverse of broadcasting b to a's shape)."""
    out = np.zeros(b.shape)
    padded = (1,) * (a.ndim - b.ndim) + b.shape
    for index in np.ndindex(a.shape):
        target = tuple(0 if d == 1 else i for i, d in zip(index, padded))[a.ndim - b.ndim:]
        out[target] += a[index]
    return out


def ref_broadcast_like(a, b):
    out = np.zeros(b.shape)
    padded = (1,) * (b.ndim - a.ndim) + a.shape
    for index in np.ndindex(b.shape):
        source = tuple(0 if d == 1 else i for i, d in zip(index, padded))[b.ndim - a.ndim:]
        out[index] = a[source]
    return out


def rows(ref):
    """A vector reference applied along the last axis."""
    return lambda a: ref(a) if np.ndim(a) == 1 else np.array([rows(ref)(r) for r in a])


def ref_transpose(a):
    if a.ndim > 2:
        return np.array([ref_transpose(m) for m in a])
    return np.array([[a[i, j] for i in range(a.shape[0])] for j in range(a.shape[1])])


def ref_unslice(g, a, start):
    out = np.zeros(np.shape(a))
    for i in range(len(g)):
        out[start + i] = g[i]
    return out


def ref_permute(a, axes):
    out = np.zeros([np.shape(a)[p] for p in axes])
    for index in np.ndindex(np.shape(a)):
        out[tuple(index[p] for p in axes)] = a[index]
    return out


def ref_argmax(a):
    if np.ndim(a) > 1:
        return np.array([ref_argmax(row) for row in a])
    return float(max(range(len(a)), key=lambda i: (a[i], -i)))


def ref_take_grad(g, i, W):
    out = np.zeros(np.shape(W))
    rows = np.reshape(g, (-1,) + np.shape(W)[1:])
    for k, row in zip(np.ravel(i), rows):
        out[int(k)] += row
    return out


def ref_channel_sum(a, n, front):
    """v[c] = Σ_{t<n} a[c - front + t], the channels outside counted as zeros."""
    a = np.asarray(a, dtype=float)
    return np.array([sum((a[c - front + t] for t in range(n) if 0 <= c - front + t < len(a)),
                         np.zeros(a.shape[1:])) for c in range(len(a))])


def ref_lrn(a, n, alpha=1e-4, beta=0.75, k=1.0):
    """PyTorch's LocalResponseNorm: a / (k + alpha/n Σ a²)^beta over channels
    c - n//2 .. c + (n-1)//2."""
    return np.asarray(a) / (k + alpha / n * ref_channel_sum(np.square(a), n, n // 2)) ** beta


def ref_one_hot(y, n):
    return np.array([1.0 if i == y else 0.0 for i in range(n)])


def ref_logsumexp(a):
    return math.log(sum(math.exp(v) for v in np.ravel(a)))


REFERENCE = {
    "copy": ew(lambda x: x),
    "neg": ew(lambda x: -x),
    "exp": ew(math.exp),
    "log": ew(math.log),
    "logistic": ew(logistic_ref),
    "tanh": ew(math.tanh),
    "relu": ew(lambda x: x if x > 0 else 0.0),
    "sqrt": ew(math.sqrt),
    "abs": ew(abs),
    "sin": ew(math.sin),
    "cos": ew(math.cos),
    "softplus": ew(lambda x: math.log(1 + math.exp(x))),
    "logistic_deriv": ew(lambda x: logistic_ref(x) * (1 - logistic_ref(x))),
    "tanh_deriv": ew(lambda x: 1 - math.tanh(x) ** 2),
    "step": ew(lambda x: 1.0 if x > 0 else 0.0),
    "sign": ew(lambda x: 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)),
    "add": ew2(lambda a, b: a + b),
    "sub": ew2(lambda a, b: a - b),
    "mul": ew2(lambda a, b: a * b),
    "div": ew2(lambda a, b: a / b),
    "pow": ew2(math.pow),
    "max": ew2(lambda a, b: a if a > b else b),
    "min": ew2(lambda a, b: a if a < b else b),
    "erf": ew(math.erf),
    "gelu": ew(lambda x: x * normal_cdf(x)),
    "gelu_deriv": ew(lambda x: normal_cdf(x) + x * normal_density(x)),
    "leaky_relu": ew2(lambda x, s: x if x > 0 else s * x),
    "where": ew3(lambda c, a, b: a if c != 0 else b),
    "clip": ew3(lambda x, lo, hi: min(max(x, lo), hi)),
    "matmul": ref_matmul,
    "dot": lambda a, b: sum(a[i] * b[i] for i in range(len(a))),
    "outer": lambda a, b: np.array([[p * q for q in b] for p in a]),
    "transpose": ref_transpose,
    "sum": lambda a: sum(np.ravel(a).tolist()),
    "mean": lambda a: sum(np.ravel(a).tolist()) / max(np.size(a), 1),
    "logsumexp": ref_logsumexp,
    "softmax": rows(lambda a: np.array([math.exp(v) / sum(math.exp(u) for u in a) for v in a])),
    "log_softmax": rows(lambda a: np.array([v - ref_logsumexp(a) for v in a])),
    "one_hot": ref_one_hot,
    "sum_like": ref_sum_like,
    "broadcast_like": ref_broadcast_like,
    "reshape": lambda a, shape: np.array(np.ravel(a).tolist()).reshape(shape),
    "flatten": lambda a: np.array(np.ravel(a).tolist()),
    "concat": ref_concat,
    "slice": lambda a, start, stop: np.array([a[i] for i in range(start, stop)]),
    "index": lambda a, i: a[i],
    "unslice": ref_unslice,
    "permute": ref_permute,
    "argmax": ref_argmax,
    "equal": ew2(lambda a, b: 1.0 if a == b else 0.0),
    "take": lambda W, i: np.array([W[int(k)] for k in np.ravel(i)]).reshape(
        np.shape(i) + np.shape(W)[1:]),
    "take_grad": ref_take_grad,
    "channel_sum": ref_channel_sum,
    "lrn": ref_lrn,
    **CONVOLUTION,
}

POSITIVE = {"log", "sqrt", "pow"}
UNARY_SHAPES = [(), (3,), (2, 3)]
BINARY_SHAPES = [((), ()), ((3,), (3,)), ((2, 3), (3,)), ((3,), ()), ((), (2, 3)),
                 ((2, 1), (1, 3)), ((2, 3), (2, 1))]
TENSOR_SHAPES = {
    "matmul": [((2, 3), (3,)), ((2, 3), (3, 4)), ((2, 3, 4), (2, 4, 2)), ((2, 3, 4), (4, 2)),
               ((3,), (3, 4))],
    "leaky_relu": [((3,), ()), ((2, 3), (3,)), ((), ())],
    "clip": [((3,), (), ()), ((2, 3), (3,), (2, 1))],
    "where": [((3,), (3,), (3,)), ((2, 3), (3,), ()), ((2, 1), (1, 3), (2, 3))],
    "dot": [((3,), (3,))],
    "outer": [((2,), (3,))],
    "transpose": [((2, 3),), ((2, 3, 4),)],
    "flatten": [((),), ((2, 3),)],
    "concat": [((2,), (3,)), ((1, 3), (2, 3))],
    "argmax": [((4,),), ((2, 4),)],
    "sum": [((),), ((3,),), ((2, 3),)],
    "mean": [((),), ((3,),), ((2, 3),)],
    "logsumexp": [((),), ((3,),), ((2, 3),)],
    "softmax": [((4,),), ((2, 4),), ((2, 2, 3),)],
    "log_softmax": [((4,),), ((2, 4),), ((2, 2, 3),)],
    "sum_like": [((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 3), (2, 1)), ((3,), ()), ((2, 3), ())],
    "broadcast_like": [((3,), (2, 3)), ((), (3,)), ((2, 1), (2, 3)), ((1, 3), (2, 3))],
    "take": [((5, 3), (4,)), ((6,), (2, 3)), ((4, 2), ())],
    "take_grad": [((4, 3), (4,), (5, 3)), ((2, 2), (2, 2), (3,))],
}
INDEX_TABLE = {"take": 0, "take_grad": 2}        # operand 1 holds row indices of this one


# ops with attributes: (operand shapes, attributes) cases
WITH_ATTRIBUTES = {
    "reshape": [(((6,),), ((2, 3),)), (((2, 3),), ((-1,),)), (((2, 3, 2),), ((3, -1, 2),))],
    "slice": [(((4,),), (1, 3)), (((3, 2),), (0, 3))],
    "index": [(((4,),), (3,)), (((3, 2, 2),), (1,))],
    "unslice": [(((2,), (4,)), (1,)), (((1, 2), (3, 2)), (2,))],
    "permute": [(((2, 3),), ((1, 0),)), (((2, 3, 4),), ((2, 0, 1),))],
    "concat": [(((2,), (3,)), ()), (((1, 3), (2, 3)), ()), (((2, 3), (2, 2)), (1,)),
               (((2, 2, 3), (2, 2, 1)), (-1,)), (((2, 3, 2), (2, 1, 2)), (-2,)),
               (((1, 3), (2, 3), (3, 3)), ()), (((2, 1), (2, 3), (2, 2), (2, 1)), (-1,))],
    "one_hot": [(((),), (4,))],
    "conv2d": [(((2, 5, 5), (3, 2, 3, 3)), ()), (((2, 5, 5), (3, 2, 3, 3)), (2, 1)),
               (((4, 5, 5), (6, 2, 3, 3)), (1, 1, 2)), (((3, 5, 4), (3, 1, 2, 2)), (2, 0, 3))],
    "conv2d_image_grad": [(((3, 3, 3), (3, 2, 3, 3), (2, 5, 5)), (2, 1)),
                          (((3, 5, 6), (3, 2, 3, 2), (2, 5, 5)), (1, 1)),
                          (((6, 5, 5), (6, 2, 3, 3), (4, 5, 5)), (1, 1, 2))],
    "conv2d_kernel_grad": [(((3, 5, 5), (2, 5, 5), (3, 2, 3, 3)), (1, 1)),
                           (((3, 2, 2), (3, 5, 4), (3, 1, 2, 2)), (2, 0, 3))],
    "lrn": [(((5, 2, 2),), (3, 0.5, 0.75, 1.0)), (((4,),), (2,)), (((3, 2),), (5, 1.0, 1.5, 0.5))],
    "channel_sum": [(((5,),), (3, 1)), (((4, 2),), (2, 0)), (((3,),), (4, 3))],
    **{op: [(((2, 5, 5),), (2,)), (((2, 5, 4),), (3, 1)), (((2, 5, 5),), (3, 1, 1)),
            (((2, 5, 4),), (2, 2, 1)),
            # ceil mode: last windows past the image, padded or not; a last window
            # that would start in the right padding dropped (5 + 2·1 - 3 over 3)
            (((2, 5, 5),), (2, 2, 0, 1)), (((2, 7, 6),), (3, 2, 1, 1)),
            (((2, 5, 5),), (3, 3, 1, 1))] for op in ("maxpool2d", "avgpool2d")},
    **{op: [(((2, 2, 2), (2, 5, 5)), (2,)), (((2, 3, 2), (2, 5, 4)), (3, 1)),
            (((2, 5, 5), (2, 5, 5)), (3, 1, 1)), (((2, 3, 3), (2, 5, 4)), (2, 2, 1)),
            (((2, 3, 3), (2, 5, 5)), (2, 2, 0, 1)), (((2, 4, 4), (2, 7, 6)), (3, 2, 1, 1))]
       for op in ("maxpool2d_grad", "avgpool2d_grad")},
    "maxpool2d_gather": [(((2, 5, 4), (2, 5, 4)), (3, 1)), (((2, 5, 4), (2, 5, 4)), (3, 1, 1)),
                         (((2, 7, 6), (2, 7, 6)), (3, 2, 1, 1))],
}


# not per example (batch statistics, dropout): tests/ops/test_batch_modes.py
NOT_PER_EXAMPLE = {name for name, op in ops.TABLE.items() if op.cross_example or op.drawn}


def op_cases():
    for name, op in sorted(ops.TABLE.items()):
        if name in NOT_PER_EXAMPLE:
            continue
        if name in WITH_ATTRIBUTES:
            shape_list = WITH_ATTRIBUTES[name]
        elif name in TENSOR_SHAPES:
            shape_list = [(shapes, ()) for shapes in TENSOR_SHAPES[name]]
        elif op.arity == 1:
            shape_list = [((s,), ()) for s in UNARY_SHAPES]
        else:
            shape_list = [(shapes, ()) for shapes in BINARY_SHAPES]
        for shapes, attrs in shape_list:
            # which operands vary per example (input) and which are weights (one for all)
            for kinds in itertools.product(("input", "weight"), repeat=len(shapes)):
                yield pytest.param(name, shapes, kinds, attrs,
                                   id=f"{name}-" + "x".join(fmt_shape(s) for s in shapes)
                                   + "-" + "".join(k[0] for k in kinds)
                                   + "".join(f"-{a}" for a in attrs))


def run_op(name, shapes, kinds, operands, batch, attrs=()):
    lines = [f"declare {k} a{i} {fmt_shape(s)}" for i, (k, s) in enumerate(zip(kinds, shapes))]
    # an unused input fixes the batch size even when every operand is a weight
    operands = {**operands, "unused": np.zeros(batch)}
    lines += ["declare input unused", "declare output v", f"define v = {name} " + " ".join(
        [f"a{i}" for i in range(len(shapes))] + [attribute(a) for a in attrs])]
    program = tenflang.parse("\n".join(lines) + "\n", f"{name}.tf")
    return interpret(program, operands, batched=True)["v"]


@pytest.mark.parametrize("name,shapes,kinds,attrs", list(op_cases()))
def test_op_matches_reference(name, shapes, kinds, attrs):
    rng = np.random.default_rng(zlib.crc32(repr((name, shapes, kinds)).encode()))
    low, high = (0.5, 2.0) if name in POSITIVE else (-2.0, 2.0)
    operands = {f"a{i}": rng.uniform(low, high, ((B,) if k == "input" else ()) + s)
                for i, (k, s) in enumerate(zip(kinds, shapes))}
    if name == "one_hot":                     # class indices 0..n-1
        operands = {n: np.floor(v + 2.0) for n, v in operands.items()}
    if name in INDEX_TABLE:                   # row indices 0..n-1
        rows = shapes[INDEX_TABLE[name]][0]
        operands["a1"] = np.floor(rng.uniform(0, rows, np.shape(operands["a1"])))
    if name == "where":                       # conditions both true and false
        operands["a0"] = np.where(rng.random(np.shape(operands["a0"])) < 0.5, 0.0,
                                  operands["a0"])
    if name == "equal":                       # ties where equal gives 1
        operands["a1"] = np.where(rng.random(np.shape(operands["a1"])) < 0.5, 0.5,
                                  operands["a1"])
        operands["a0"] = np.where(rng.random(np.shape(operands["a0"])) < 0.5, 0.5,
                                  operands["a0"])
    got = run_op(name, shapes, kinds, operands, B, attrs)
    expected_shape = ops.TABLE[name].result_shape(shapes, attrs)
    assert got.shape == (B,) + expected_shape
    for i in range(B):
        args = [operands[f"a{j}"][i] if k == "input" else operands[f"a{j}"]
                for j, k in enumerate(kinds)]
        expected = np.asarray(REFERENCE[name](*args, *attrs), dtype=float)
        np.testing.assert_allclose(got[i], expected, rtol=1e-12, atol=1e-13,
                                   err_msg=f"{name} example {i}")


@pytest.mark.parametrize("line,expected", [
    ("define v = pow a0 2", lambda x: x ** 2),
    ("define v = pow 2 a0", lambda x: 2.0 ** x),
    ("define v = sub 1 a0", lambda x: 1 - x),
    ("define v = div 1 a0", lambda x: 1 / x),
    ("define v = mul a0 -3", lambda x: -3 * x),
    ("define v = max a0 0.5", lambda x: np.where(x > 0.5, x, 0.5)),
    ("define v = add 1e-3 a0", lambda x: x + 1e-3),
])
def test_literal_operands(line, expected):
    program = tenflang.parse(f"declare input a0 [3]\ndeclare output v\n{line}\n")
    x = np.random.default_rng(1).uniform(0.2, 2, (B, 3))
    np.testing.assert_allclose(interpret(program, {"a0": x}, batched=True)["v"], expected(x),
                               rtol=1e-14)


def test_constant_definitions_broadcast_to_the_batch():
    program = tenflang.parse("declare input x\ndeclare output k\ndeclare output v\n"
                             "define k = 2.5\ndefine v = mul k x\n")
    out = interpret(program, {"x": np.arange(4.0)}, batched=True)
    np.testing.assert_array_equal(out["k"], [2.5] * 4)
    np.testing.assert_array_equal(out["v"], 2.5 * np.arange(4.0))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_steps_whose_operands_are_all_literals(dtype):
    # -O0 GCPs have these (`define dlambda/ddiff.1 = sub 2 1`)
    program = tenflang.parse("declare input x\ndeclare output k\ndeclare output e\n"
                             "declare output v\ndefine k = sub 2 1\ndefine e = exp 0\n"
                             "define v = pow x k\n")
    out = interpret(program, {"x": np.arange(3.0)}, batched=True, dtype=dtype)
    for name, expected in (("k", [1.0] * 3), ("e", [1.0] * 3), ("v", [0.0, 1.0, 2.0])):
        assert out[name].shape == (3,) and out[name].dtype == np.dtype(dtype), name
        np.testing.assert_array_equal(out[name], expected)
    assert interpret(program, {"x": 2.0}) == {"k": 1.0, "e": 1.0, "v": 2.0}


def test_every_op_is_covered():
    assert {c.values[0] for c in op_cases()} | NOT_PER_EXAMPLE == set(ops.TABLE) \
        == set(REFERENCE) | NOT_PER_EXAMPLE


# ---------------------------------------------------------------- numerical stability

BIG = [-1e4, -1e3, -745.0, -50.0, -1.0, 0.0, 1.0, 50.0, 710.0, 1e3, 1e4]


def stable_logistic(x):
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def stable_softplus(x):
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def stable_logsumexp(v):
    top = max(v)
    return top + math.log(sum(math.exp(u - top) for u in v))


def run_unary(name, x, dtype="float64"):
    shape = fmt_shape(np.shape(x)[1:])
    program = tenflang.parse(f"declare input a {shape}\ndeclare output v\ndefine v = {name} a\n")
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        return interpret(program, {"a": np.asarray(x, dtype=float)}, batched=True, dtype=dtype)["v"]


@pytest.mark.parametrize("name,reference", [("logistic", stable_logistic),
                                            ("softplus", stable_softplus)])
def test_elementwise_ops_are_stable_for_large_arguments(name, reference):
    got = run_unary(name, np.array(BIG))
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, [reference(x) for x in BIG], rtol=1e-14, atol=1e-300)
    assert run_unary("softplus", np.array([1e4]))[0] == 1e4
    assert run_unary("logistic", np.array([-1e4, 1e4])).tolist() == [0.0, 1.0]
    got32 = run_unary(name, np.array(BIG), dtype="float32")
    assert got32.dtype == np.float32 and np.all(np.isfinite(got32))


@pytest.mark.parametrize("vector", [[1e4, 1e4 - 1, -1e4], [-1e4, -1e4, -1e4 + 2],
                                    [1e4, -1e4, 0.0], [5e3, 1e4, 1e4]])
def test_reductions_are_stable_for_large_arguments(vector):
    x = np.array([vector, [0.5, -0.5, 1.0]])
    lse = run_unary("logsumexp", x)
    np.testing.assert_allclose(lse, [stable_logsumexp(v) for v in x.tolist()], rtol=1e-15)
    lsm = run_unary("log_softmax", x)
    expected = [[u - stable_logsumexp(v) for u in v] for v in x.tolist()]
    assert np.all(np.isfinite(lsm))
    np.testing.assert_allclose(lsm, expected, rtol=1e-14, atol=1e-12)
    sm = run_unary("softmax", x)
    np.testing.assert_allclose(sm, np.exp(expected), rtol=1e-12, atol=1e-300)
    assert np.all(np.isfinite(run_unary("logsumexp", x, dtype="float32")))
    assert np.all(np.isfinite(run_unary("log_softmax", x, dtype="float32")))


# ---------------------------------------------------------------- liveness

def chain_program(n: int) -> str:
    lines = ["declare input x", "declare weight w", "declare output o", "declare intvar v0",
             "define v0 = mul x w"]
    for i in range(1, n):
        lines += [f"declare intvar v{i}",
                  f"define v{i} = " + (f"tanh v{i-1}" if i % 2 else f"add v{i-1} w")]
    lines.append(f"define o = mul v{n-1} x")
    return "\n".join(lines) + "\n"


def max_live_from_plan(plan) -> int:
    live = set(plan.bound)
    peak = len(live)
    for step in plan.steps:
        live.add(step.target)
        peak = max(peak, len(live))
        live -= set(step.release)
    return peak


def test_plan_releases_values_of_a_long_chain(env_switch):
    env_switch("TENFLANG_FUSE", "0")        # the step-by-step code (fused: one loop)
    program = tenflang.parse(chain_program(1000), "chain.tf")
    plan = make_plan(program, {"x", "w"})
    assert len(plan.steps) == 1001
    assert max_live_from_plan(plan) <= 4          # x, w, the previous link, the new one
    # every name but the results is released exactly once, at its last use
    released = [n for s in plan.steps for n in s.release]
    assert len(released) == len(set(released))
    assert set(released) == {"x", "w"} | {f"v{i}" for i in range(1000)}

    # and the run really drops them: with 20 000 examples a value is 160 kB, so
    # a run that kept its 1000 intermediates would peak at 160 MB
    batch = 20_000
    x = np.linspace(-1, 1, batch)
    run_plan(plan, {"x": x[:10], "w": 0.3})                # warm up (plan caches, imports)
    tracemalloc.start()
    try:
        out = run_plan(plan, {"x": x, "w": 0.3})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * x.nbytes, f"peak {peak} bytes: values are not released"
    v = x * 0.3
    for i in range(1, 1000):
        v = np.tanh(v) if i % 2 else v + 0.3
    np.testing.assert_allclose(out["o"], v * x, rtol=1e-12)


OUTER = """\
declare input a [{m}]
declare input b [{n}]
declare weight c [{n}]
declare output o
declare output q
declare output wq
define o = outer a b
define wq = outer a c
define q = sum o
"""


@pytest.mark.parametrize("reduce", ["mean", "sum"])
def test_reduce_of_outer_products(reduce):
    program = tenflang.parse(OUTER.format(m=3, n=4))
    rng = np.random.default_rng(5)
    data = {"a": rng.normal(size=(6, 3)), "b": rng.normal(size=(6, 4)), "c": rng.normal(size=4)}
    plan = make_plan(program, set(data), ["o", "wq"])
    got = run_plan(plan, data, reduce=reduce)
    per_example = [np.outer(data["a"][i], data["b"][i]) for i in range(6)]
    with_weight = [np.outer(data["a"][i], data["c"]) for i in range(6)]
    agg = np.mean if reduce == "mean" else np.sum
    np.testing.assert_allclose(got["o"], agg(per_example, axis=0), rtol=1e-13)
    np.testing.assert_allclose(got["wq"], agg(with_weight, axis=0), rtol=1e-13)
    # a reduced outer product that a later step also reads (q = sum o)
    plan = make_plan(program, set(data), ["o", "q"])
    got = run_plan(plan, data, reduce=reduce)
    np.testing.assert_allclose(got["o"], agg(per_example, axis=0), rtol=1e-13)
    np.testing.assert_allclose(got["q"], agg([p.sum() for p in per_example]), rtol=1e-13)


def test_reduce_mean_of_outer_never_builds_the_batch_of_products():
    m = n = 64
    batch = 5000
    program = tenflang.parse(OUTER.format(m=m, n=n))
    rng = np.random.default_rng(6)
    data = {"a": rng.normal(size=(batch, m)), "b": rng.normal(size=(batch, n))}
    plan = make_plan(program, set(data), ["o"])
    tracemalloc.start()
    try:
        got = run_plan(plan, data, reduce="mean")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    full = batch * m * n * 8                  # a [B, m, n] float64 array: 164 MB
    assert peak < full / 20, peak
    np.testing.assert_allclose(got["o"], data["a"].T @ data["b"] / batch, rtol=1e-10, atol=1e-15)


def test_reduce_of_values_not_per_example():
    program = tenflang.parse("declare input x\ndeclare weight w\ndeclare output k\n"
                             "declare output v\ndefine k = mul w 2\ndefine v = mul x w\n")
    plan = make_plan(program, {"x", "w"})
    got = run_plan(plan, {"x": np.array([1.0, 2.0, 3.0]), "w": 2.0}, reduce="sum")
    assert got["k"] == pytest.approx(12.0) and got["v"] == pytest.approx(12.0)
    got = run_plan(plan, {"x": np.array([1.0, 2.0, 3.0]), "w": 2.0}, reduce="mean")
    assert got["k"] == pytest.approx(4.0) and got["v"] == pytest.approx(4.0)


# ---------------------------------------------------------------- float32

@pytest.mark.parametrize("path", [p for p in SAMPLES if p.stem in ("mlp_digits", "example_shape",
                                                                     "logistic_breast_cancer")],
                         ids=lambda p: p.stem)
def test_float32_runs_in_float32_and_is_close_to_float64(path):
    shape = tenflang.parse_file(str(path), shape_program=True)
    gcps = [tenflang.parse(tenflang.print_program(compile_gradient(shape, level)))
            for level in (0, 1)]                    # -O0 keeps literal-only steps (sub 2 1)
    rng = np.random.default_rng(3)
    for program in [shape, *gcps]:
        data = random_data(program, rng, 16)
        every = [n for n in program.declarations()]
        f64 = interpret(program, data, results=every, batched=True)
        f32 = interpret(program, data, results=every, batched=True, dtype="float32")
        for name, value in f64.items():
            if value is None:
                assert f32[name] is None
                continue
            assert f32[name].dtype == np.float32, name
            np.testing.assert_allclose(f32[name], value, rtol=2e-4, atol=2e-5, err_msg=name)
        reduced = run_plan(make_plan(program, set(data)), data, dtype="float32", reduce="mean")
        assert all(v.dtype == np.float32 for v in reduced.values() if v is not None)


@pytest.mark.parametrize("line", ["define g = mul s v", "define g = mul v s", "define g = mul s s",
                                  "define g = outer s2 v", "define g = matmul M N",
                                  "define g = matmul A B", "define g = matmul A N",
                                  "define g = matmul M (reshape N [3, 4])",
                                  "define g = sum_like M c", "define g = sum_like A c"])
def test_batch_sums_pushed_into_products_equal_plain_sums(line):
    """reduce="sum" of a product of two per-example values is done inside one
    BLAS call (a bias gradient's `sum_like`: the batch summed first); it must
    equal summing the per-example results."""
    source = ("declare input s\ndeclare input s2 [2]\ndeclare input v [3]\n"
              "declare input M [2, 3]\ndeclare input N [3, 4]\ndeclare input A [5, 2, 3]\n"
              "declare input B [5, 3, 4]\ndeclare weight c [2, 1]\ndeclare output g\n"
              + line + "\n")
    program = tenflang.parse(source)
    rng = np.random.default_rng(5)
    data = {"s": rng.normal(size=6), "s2": rng.normal(size=(6, 2)), "v": rng.normal(size=(6, 3)),
            "M": rng.normal(size=(6, 2, 3)), "N": rng.normal(size=(6, 3, 4)),
            "A": rng.normal(size=(6, 5, 2, 3)), "B": rng.normal(size=(6, 5, 3, 4)),
            "c": rng.normal(size=(2, 1))}
    plan = make_plan(program, set(data), ["g"])
    per_example = run_plan(plan, data)["g"]
    summed = run_plan(plan, data, reduce="sum")["g"]
    np.testing.assert_allclose(summed, per_example.sum(axis=0), rtol=1e-12)


ONE_IMAGE_TWO_STRIDES = """
declare input x [2, 6, 6]
declare weight K1 [3, 2, 1, 1]
declare weight K2 [3, 2, 1, 1]
declare intvar a [3, 6, 6]
declare intvar b [3, 3, 3]
declare loss L
define a = conv2d x K1 1 0
define b = conv2d x K2 2 0
define L = add (sum (mul a a)) (sum (mul b b))
"""


@pytest.mark.parametrize("native", ["1", "0"])
def test_one_image_under_two_strides_keeps_two_sets_of_columns(env_switch, native):
    """ResNet's downsampling block reads one image with a 1x1 convolution of
    stride 1 and one of stride 2: each kernel gradient takes its own
    forward's columns (they once shared a name, and the second overwrote the
    first).  d/dK[f, c] = mean over the batch of Σ_ij 2 v[f, i, j] x[c, s·i, s·j]."""
    env_switch("TENFLANG_NATIVE", native)
    gcp = compile_gradient(tenflang.parse(ONE_IMAGE_TWO_STRIDES, shape_program=True))
    r = np.random.default_rng(8)
    data = {"x": r.random((4, 2, 6, 6)), "K1": r.normal(size=(3, 2, 1, 1)),
            "K2": r.normal(size=(3, 2, 1, 1))}
    got = run_plan(make_plan(gcp, set(data), ["d/dK1", "d/dK2"]), data, reduce="mean")
    for kernel, stride in (("K1", 1), ("K2", 2)):
        x = data["x"][:, :, ::stride, ::stride]
        v = np.einsum("fc,bcij->bfij", data[kernel][:, :, 0, 0], x)
        want = np.einsum("bfij,bcij->fc", 2 * v, x) / 4
        np.testing.assert_allclose(got[f"d/d{kernel}"][:, :, 0, 0], want, rtol=1e-12)
