"""tfcompiler: the GCP's structure, naming, fan-out, levels and random programs."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tenflang
from tenflang.ops import table as ops
from tenflang.backprop import compile_gradient
from tenflang.lang import Declare
from tenflang.lang.syntax_tree import Var
from tenflang.ops.shapes import ShapeMismatch, broadcast, broadcasts_to, fmt_shape

from support import programs
from support.gradcheck import check_gradients, gcp_gradients
from support.programs import fits, gcp_text

ORIGINAL = programs.ORIGINAL_EXAMPLE_AS_WRITTEN


def defines(text: str) -> dict[str, str]:
    """name -> right-hand side of every define line."""
    return {line.split()[1]: line.split(" = ", 1)[1] for line in text.splitlines()
            if line.startswith("define ")}


def declared(text: str) -> dict[str, str]:
    return {line.split()[2]: line.split()[1] for line in text.splitlines()
            if line.startswith("declare ")}


def test_original_example_at_O0_has_the_original_structure():
    text = gcp_text(ORIGINAL, 0)
    rhs = defines(text)
    # the forward lines come first, unchanged
    assert [rhs[n] for n in ("z", "o", "diff", "lambda")] == [
        "mul x w", "logistic z", "sub o y", "pow diff 2"]
    # every adjoint and local partial of the original design's GCP, chain rule as in its lines 10-27
    assert rhs["d/dlambda"] == "1"
    assert rhs["d/ddiff"] == "mul d/dlambda dlambda/ddiff"
    assert rhs["ddiff/do"] == "1" and rhs["ddiff/dy"] == "-1"
    assert rhs["d/dy"] == "mul d/ddiff ddiff/dy"
    assert rhs["d/do"] == "mul d/ddiff ddiff/do"
    assert rhs["do/dz"] == "logistic_deriv z"
    assert rhs["d/dz"] == "mul d/do do/dz"
    assert rhs["dz/dx"] == "w" and rhs["dz/dw"] == "x"
    assert rhs["d/dw"] == "mul d/dz dz/dw"
    assert rhs["d/dx"] == "mul d/dz dz/dx"
    kinds = declared(text)
    assert kinds["x"] == kinds["y"] == "input" and kinds["w"] == "weight"
    assert kinds["lambda"] == "loss" and kinds["o"] == "intvar" and kinds["d/dw"] == "output"
    assert text.index("define d/ddiff") < text.index("define d/do") < text.index("define d/dz")


def test_original_example_at_O1_is_minimal_and_readable():
    text = gcp_text(ORIGINAL, 1)
    rhs = defines(text)
    assert rhs["dlambda/ddiff"] == "mul 2 diff"
    assert rhs["d/dw"] == "mul d/dz x"
    assert "d/dx" not in rhs and "d/dy" not in rhs      # inputs lead to no weight gradient
    assert len(rhs) == 4 + 4


def test_gcp_is_deterministic_and_reparses():
    for level in (0, 1):
        first, second = gcp_text(ORIGINAL, level), gcp_text(ORIGINAL, level)
        assert first == second
        assert tenflang.print_program(tenflang.parse(first)) .count("define") == first.count("define")


def test_every_gcp_declaration_has_the_shape_of_its_value():
    source = programs.AFFINE_SQUARED_ERROR
    gcp = compile_gradient(tenflang.parse(source, shape_program=True), 0)
    shapes = tenflang.lang.check(gcp)
    for statement in gcp.statements:
        if isinstance(statement, Declare):
            assert (statement.shape or ()) == shapes[statement.name]
    decls = gcp.declarations()
    assert decls["d/dW"].kind == "output" and decls["d/dW"].shape == (2, 4)
    assert decls["y"].kind == "input"


def weights_and_data(names_shapes, inputs_shapes, seed=0, batch=3):
    rng = np.random.default_rng(seed)
    weights = {n: rng.uniform(0.5, 1.5, s) for n, s in names_shapes.items()}
    data = {n: rng.uniform(0.5, 1.5, (batch,) + s) for n, s in inputs_shapes.items()}
    return weights, data


def test_fan_out_and_diamond():
    source = programs.FAN_OUT_DIAMOND
    weights, data = weights_and_data({"w": ()}, {"x": ()})
    check_gradients(source, data, weights)
    # analytic: l = (xw)^4 + xw  ->  dl/dw = 4 x^4 w^3 + x
    x, w = data["x"], weights["w"]
    got = gcp_gradients(tenflang.parse(source, shape_program=True), data, weights, 1)["w"]
    np.testing.assert_allclose(got, np.mean(4 * x**4 * w**3 + x), rtol=1e-12)


def test_weight_used_in_several_places_and_unused_weight():
    source = programs.SHARED_AND_UNUSED_WEIGHTS
    weights, data = weights_and_data({"w": (3,), "unused": (2, 2)}, {"x": (3,)})
    check_gradients(source, data, weights)
    got = gcp_gradients(tenflang.parse(source, shape_program=True), data, weights, 1)
    assert np.array_equal(got["unused"], np.zeros((2, 2)))


def test_multiple_losses_sum():
    one = programs.TWO_LOSSES
    weights, data = weights_and_data({"w": ()}, {"x": ()})
    got = gcp_gradients(tenflang.parse(one, shape_program=True), data, weights, 0)["w"]
    np.testing.assert_allclose(got, np.mean(data["x"] + 2 * data["x"] * weights["w"]))


def test_mlp_with_macros_gradients():
    source = programs.TWO_LAYER_MLP
    rng = np.random.default_rng(3)
    weights = {"W1": rng.normal(size=(5, 4)), "b1": rng.normal(size=5),
               "W2": rng.normal(size=(3, 5)), "b2": rng.normal(size=3)}
    data = {"x": rng.normal(size=(6, 4)), "y": np.eye(3)[rng.integers(0, 3, 6)]}
    check_gradients(source, data, weights)


def test_a_gcp_compiles_again_second_derivative():
    """The GCP is plain TenFlang: differentiate d/dw once more (d²l/dw²)."""
    first = compile_gradient(tenflang.parse(ORIGINAL, shape_program=True), 1)
    text = tenflang.print_program(first).replace("declare output d/dw", "declare loss d/dw") \
                                          .replace("declare loss lambda", "declare intvar lambda")
    second = compile_gradient(tenflang.parse(text), 1)
    x, y, w = np.array([0.7, -1.2]), np.array([0.3, 0.9]), 0.4
    from tenflang.interp import interpret
    (output,) = [d.name for d in second.declarations().values() if d.kind == "output"]
    assert output == "d/dw.1"            # d/dw is taken by the first GCP: a fresh name
    got = interpret(second, {"x": x, "y": y, "w": w}, results=[output], batched=True)
    gcp1 = lambda wv: interpret(first, {"x": x, "y": y, "w": wv}, batched=True)["d/dw"]  # noqa
    numeric = (gcp1(w + 1e-6) - gcp1(w - 1e-6)) / 2e-6
    np.testing.assert_allclose(got[output], numeric, rtol=1e-6)   # per example


# ---- property-based: random straight-line programs -------------------------

SMOOTH_UNARY = ["neg", "exp", "logistic", "tanh", "sin", "cos", "softplus", "logistic_deriv",
                "tanh_deriv", "copy"]
POSITIVE_UNARY = ["log", "sqrt"]
BINARY = ["add", "sub", "mul", "div", "pow"]
SHAPED = ["matmul", "dot", "outer", "sum", "mean", "logsumexp", "softmax", "log_softmax",
          "transpose"]


@st.composite
def random_programs(draw):
    shapes = {"w0": (), "w1": (3,), "w2": (2, 3), "x0": (3,), "x1": ()}
    lines, env = [], dict(shapes)
    counter = iter(range(1000))

    def emit(op, operands):
        name = f"t{next(counter)}"
        lines.append((name, op, operands))
        env[name] = ops.TABLE[op].shape(*[env[o] if isinstance(o, str) else () for o in operands])
        return name

    def positive(name):
        return emit("add", (emit("softplus", (name,)), 0.5))

    for _ in range(draw(st.integers(2, 9))):
        kind = draw(st.sampled_from(["smooth", "positive", "binary", "shaped"]))
        names = sorted(env)
        a = draw(st.sampled_from(names))
        if kind == "smooth":
            emit(draw(st.sampled_from(SMOOTH_UNARY)), (a,))
        elif kind == "positive":
            emit(draw(st.sampled_from(POSITIVE_UNARY)), (positive(a),))
        elif kind == "binary":
            op = draw(st.sampled_from(BINARY))
            b = draw(st.sampled_from(names + [2.0, -1.5]))
            try:
                broadcast(op, env[a], () if isinstance(b, float) else env[b])
            except ShapeMismatch:
                continue
            if op in ("div", "pow"):
                emit(op, (positive(a), b if isinstance(b, float) else positive(b)))
            else:
                emit(op, (a, b))
        else:
            op = draw(st.sampled_from(SHAPED))
            pairs = [(p, q) for p in names for q in names] if ops.TABLE[op].arity == 2 \
                else [(p,) for p in names]
            fitting = [c for c in pairs if fits(op, [env[n] for n in c])]
            if fitting:
                emit(op, draw(st.sampled_from(fitting)))
    last = lines[-1][0] if lines else "w0"
    emit("sum", (last,))
    emit("tanh", (draw(st.sampled_from(sorted(env))),))
    emit("sum", (lines[-1][0],))
    return shapes, lines


def render(shapes, lines) -> str:
    out = [f"declare {'weight' if n.startswith('w') else 'input'} {n} {fmt_shape(s)}"
           for n, s in shapes.items()]
    losses = {lines[-1][0], lines[-3][0]}
    for name, op, operands in lines:
        out.append(f"declare {'loss' if name in losses else 'intvar'} {name}")
        args = " ".join(o if isinstance(o, str) else repr(o) for o in operands)
        out.append(f"define {name} = {op} {args}")
    return "\n".join(out) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_programs(), st.integers(0, 2**31))
def test_random_programs_O0_O1_and_finite_differences_agree(program, seed):
    shapes, lines = program
    source = render(shapes, lines)
    rng = np.random.default_rng(seed)
    weights = {n: rng.uniform(-1, 1, s) for n, s in shapes.items() if n.startswith("w")}
    data = {n: rng.uniform(-1, 1, (3,) + s) for n, s in shapes.items() if n.startswith("x")}
    parsed = tenflang.parse(source, shape_program=True)
    g0 = gcp_gradients(parsed, data, weights, 0)
    assume(all(np.all(np.isfinite(v)) and np.all(np.abs(v) < 1e4) for v in g0.values()))
    check_gradients(source, data, weights, rtol=1e-4, atol=1e-6)


def test_compile_100k_line_chain_without_recursion_error():
    n = 20000
    lines = ["declare input x", "declare weight w", "declare loss l", "declare intvar v0",
             "define v0 = mul x w"]
    for i in range(1, n):
        lines += [f"declare intvar v{i}", f"define v{i} = {'tanh' if i % 2 else 'mul'} v{i-1}"
                  + ("" if i % 2 else " w")]
    lines.append(f"define l = sum v{n-1}")
    gcp = compile_gradient(tenflang.parse("\n".join(lines), shape_program=True), 1)
    assert "d/dw" in gcp.declarations()


def test_constants_folded_by_python_arithmetic_have_numpy_s_bits():
    """The -O1 clean-up folds add, sub, mul, div and neg with Python's floats
    (no numpy): each gives the bits of the op's numpy forward, or no fold where
    numpy's value is not finite (backprop/simplify.py)."""
    from tenflang.backprop.simplify import ARITHMETIC, fold
    from tenflang.lang.syntax_tree import Num
    rng = np.random.default_rng(7)
    values = [0.0, -0.0, 1.0, -1.0, 2.0, 0.1, 1e308, -1e308, 5e-324, 3.0, 7.0,
              *rng.standard_normal(20), *rng.standard_normal(20) * 1e200]
    pairs = [(a, b) for a in values for b in values]
    for op in ARITHMETIC:
        for args in (pairs if ops.TABLE[op].arity == 2 else [(v,) for v in values]):
            with np.errstate(all="ignore"):
                want = ops.TABLE[op].forward(np, *[np.array([v]) for v in args])[0]
            got = fold(op, [Num(float(v)) for v in args])
            if not np.isfinite(want):
                assert got is None, (op, args)
            else:
                assert np.float64(got.value).tobytes() == np.float64(want).tobytes(), (op, args)


def test_identities_and_rewrites_keep_numpy_s_bits_signed_zeros_included():
    """`add x 0` → x, `sub 0 x` → `neg x` and the other identities of the -O1
    clean-up give, for every x, the bits the line itself would (x = -0.0:
    -0.0 + 0.0 is +0.0, so `add x 0` stays and `add x -0.0` goes).  The one
    exception is by design: `mul x 0` of a scalar is 0, a symbolic zero, even
    where x is infinite or NaN (backprop/simplify.py)."""
    from tenflang.backprop.simplify import reduce, rewrite
    from tenflang.lang.syntax_tree import Num, Var
    xs = [0.0, -0.0, 1.0, -2.5, 1e308, 5e-324, np.inf, -np.inf, np.nan]
    shapes = {"x": (), "r": ()}
    simplified = 0
    for op in ("add", "sub", "mul", "div", "pow"):
        for literal in (0.0, -0.0, 1.0, -1.0):
            for operands in ((Var("x"), Num(literal)), (Num(literal), Var("x"))):
                got = reduce(op, operands, shapes, "r")
                spelled, args = rewrite(op, operands)
                if got is None and spelled == op or (op == "mul" and literal == 0.0):
                    continue
                simplified += 1
                for x in xs:
                    value = lambda o: x if isinstance(o, Var) else o.value  # noqa: E731
                    with np.errstate(all="ignore"):
                        want = ops.TABLE[op].forward(np, *[np.array([value(o)]) for o in operands])[0]
                        have = (value(got) if got is not None else
                                ops.TABLE[spelled].forward(np, *[np.array([value(o)]) for o in args])[0])
                    assert np.float64(have).tobytes() == np.float64(want).tobytes() or (
                        np.isnan(have) and np.isnan(want)), (op, operands, x)
    assert simplified >= 8          # add, sub, mul, div and pow each simplify somewhere


def test_a_doubling_is_written_mul_2_with_the_bits_of_the_sum():
    """-O1 spells `add x x` as a person does, `mul 2 x` (docs/design.md §2.5):
    for every x, signed zeros, overflow and NaN included, the same bits; `add x
    y` of two names stays."""
    from tenflang.backprop.simplify import rewrite
    from tenflang.lang.syntax_tree import Num, Var
    assert rewrite("add", (Var("x"), Var("x"))) == ("mul", (Num(2.0), Var("x")))
    assert rewrite("add", (Var("x"), Var("y"))) == ("add", (Var("x"), Var("y")))
    xs = np.array([0.0, -0.0, 1.0, -2.5, 1e308, -1e308, 5e-324, np.inf, -np.inf, np.nan])
    with np.errstate(all="ignore"):
        summed = ops.TABLE["add"].forward(np, xs, xs)
        doubled = ops.TABLE["mul"].forward(np, np.float64(2.0), xs)
    assert summed.tobytes() == doubled.tobytes()


def test_the_doubling_of_mul_x_x_is_mul_2_in_the_gcp():
    gcp = tenflang.print_program(tenflang.compile_gradient(tenflang.parse(
        "declare input x\ndeclare weight w\ndeclare intvar e\ndeclare loss l\n"
        "define e = sub w x\ndefine l = mul e e\n", shape_program=True)))
    assert "define d/de = mul 2 e" in gcp and "add e e" not in gcp


def test_lines_merge_only_where_they_give_the_same_bits():
    """Common subexpressions (backprop/simplify.py): `mul a b` and `mul b a` are
    one value, `max a b` and `max b a` are not (numpy's maximum returns its
    second operand on a tie: max(0, -0) is -0, max(-0, 0) is 0), nor are
    `mul a 0` and `mul a -0.0`."""
    from tenflang.backprop.simplify import Simplifier
    from tenflang.lang import Define
    source = ["declare input a", "declare input b"] + [
        f"declare intvar {n}\ndefine {n} = {line}" for n, line in [
            ("p", "mul a b"), ("q", "mul b a"), ("r", "max a b"), ("s", "max b a"),
            ("t", "min a b"), ("u", "min b a"), ("v", "add a 2"), ("w", "add a -0.5"),
            ("x", "mul a 2"), ("y", "mul a 0"), ("z", "mul a -0.0")]]
    lines = [s for s in tenflang.parse("\n".join(source) + "\n").statements
             if isinstance(s, Define)]
    simplifier = Simplifier(set(), {n: (2,) for n in "abpqrstuvwxyz"})
    kept = [line.name for line in simplifier.block(lines)]
    assert kept == ["p", "r", "s", "t", "u", "v", "w", "x", "y", "z"]
    assert simplifier.subst == {"q": Var("p")}
    for a, b in [(0.0, -0.0), (-0.0, 0.0)]:         # why max and min stay two lines
        assert np.signbit(np.maximum(a, b)) != np.signbit(np.maximum(b, a))


def test_broadcasts_to_answers_what_numpy_does():
    """`broadcasts_to(a, t)`: numpy broadcasts a to t without widening it, on every
    pair of shapes of up to three axes of sizes 1, 2 and 3."""
    import itertools
    dims = [s for n in range(4) for s in itertools.product((1, 2, 3), repeat=n)]
    for a, t in itertools.product(dims, dims):
        try:
            expected = np.broadcast_shapes(a, t) == t
        except ValueError:
            expected = False
        assert broadcasts_to(a, t) == expected, (a, t)
