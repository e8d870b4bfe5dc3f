"""The smaller ops of docs/design.md §2.3.2 (`concat` of two or more on any axis, `matmul` of a vector
by a matrix, `leaky_relu`, `gelu`, `erf`, `where`, `clip`) and padded pooling:
forwards and gradients through the language against PyTorch (float64, when it is
installed), and the hint an unknown op that is another framework's name gets.
Their finite-difference checks are the op table's (tests/compiler/test_gradients.py),
batched against per-example references tests/interpreter/test_interp.py's, their fused
loops tests/interpreter/test_fusion.py's, their ONNX export tests/commands/test_export.py's."""
from __future__ import annotations

import re

import numpy as np
import pytest

import tenflang
from tenflang.ops import table as ops, other_names
from tenflang.base.errors import TenflangError
from tenflang.interp import evaluate
from tenflang.ops.shapes import fmt_shape

from support.gradcheck import gcp_gradients


def run(line: str, weights: dict, result_shape) -> tuple[np.ndarray, dict]:
    """`define v = line` over weights w0, w1, … (and literals): v, and the gradient
    of Σ v·r for a random r (the adjoint PyTorch's autograd is given too), at -O0
    and -O1 (which must agree)."""
    decls = [f"declare weight {n} {fmt_shape(np.shape(w))}" for n, w in weights.items()]
    source = "\n".join(decls + [f"declare input r {fmt_shape(result_shape)}",
                                "declare intvar v", "declare intvar p", "declare loss l",
                                f"define v = {line}", "define p = mul v r", "define l = sum p"])
    program = tenflang.parse(source + "\n", "op.tf", shape_program=True)
    r = np.random.default_rng(7).normal(size=(1,) + tuple(result_shape))
    value = evaluate(program, {"r": r}, weights, results=["v"])["v"][0]
    grads = [gcp_gradients(program, {"r": r}, weights, level) for level in (0, 1)]
    for name in weights:
        np.testing.assert_allclose(grads[0][name], grads[1][name], rtol=1e-14, atol=1e-300)
    return value, r[0], grads[1]


def torch_reference(fn, weights: dict, r):
    """fn's value and the gradient of Σ fn(…)·r in each weight, by torch.autograd."""
    torch = pytest.importorskip("torch", reason="PyTorch is the reference")
    leaves = {n: torch.tensor(w, dtype=torch.float64, requires_grad=True)
              for n, w in weights.items()}
    out = fn(torch, *leaves.values())
    grads = torch.autograd.grad(out, list(leaves.values()), torch.tensor(r))
    return out.detach().numpy(), {n: g.numpy() for n, g in zip(leaves, grads)}


def grid(n=401, low=-8.0, high=8.0):
    """A grid with the far tails and the values near 0 where forms change."""
    return np.concatenate([np.linspace(low, high, n), [-40.0, -1e-8, 0.0, 1e-8, 40.0]])


def assert_matches(ours, theirs, rtol, atol):
    (v, g), (tv, tg) = ours, theirs
    np.testing.assert_allclose(v, tv, rtol=rtol, atol=atol)
    for name in tg:
        np.testing.assert_allclose(g[name], tg[name], rtol=rtol, atol=atol, err_msg=name)


def ours(line, weights, result_shape):
    value, r, grads = run(line, weights, result_shape)
    return (value, grads), r


def test_gelu_is_torch_gelu():
    """Exact GELU (erf-based, PyTorch's default approximate='none'); ours is
    ½ x erfc(-x/√2), more exact in the left tail, where PyTorch's ½ x (1 + erf)
    cancels: they agree to 1e-15 relative or 5e-16 absolute."""
    w = {"w0": grid()}
    mine, r = ours("gelu w0", w, w["w0"].shape)
    assert_matches(mine, torch_reference(lambda t, x: t.nn.functional.gelu(x), w, r),
                   rtol=1e-15, atol=5e-16)


def test_gelu_and_its_derivative_are_exact_in_both_tails():
    """Relative accuracy everywhere, Φ(-30) ~ 1e-197 included, to 1e-13 (erfc's
    own condition number, 2x², times the rounding of x/√2), where ½ x (1 + erf)
    would give 0 below -8."""
    mpmath = pytest.importorskip("mpmath", reason="mpmath is the 50-digit reference")
    mpmath.mp.dps = 50
    x = np.array([-30.0, -12.0, -8.0, -3.0, -1e-5, 1e-5, 3.0, 8.0, 30.0])
    cdf = [mpmath.ncdf(v) for v in x]
    density = [mpmath.npdf(v) for v in x]
    value, _, grads = run("gelu w0", {"w0": x}, x.shape)
    np.testing.assert_allclose(value, [float(v * c) for v, c in zip(x, cdf)], rtol=1e-13)
    deriv = evaluate(tenflang.parse("declare input a [9]\ndeclare output v\n"
                                    "define v = gelu_deriv a\n"), {"a": x[None]}, {})["v"][0]
    np.testing.assert_allclose(deriv, [float(c + v * d) for v, c, d in zip(x, cdf, density)],
                               rtol=1e-13)


def test_erf_is_torch_erf():
    w = {"w0": grid(low=-6, high=6)}
    mine, r = ours("erf w0", w, w["w0"].shape)
    assert_matches(mine, torch_reference(lambda t, x: t.erf(x), w, r), rtol=1e-15, atol=0)


@pytest.mark.parametrize("slope", [0.01, 0.2, -0.5])
def test_leaky_relu_is_torch_leaky_relu(slope):
    w = {"w0": grid()}
    mine, r = ours(f"leaky_relu w0 {slope}", w, w["w0"].shape)
    assert_matches(mine, torch_reference(
        lambda t, x: t.nn.functional.leaky_relu(x, slope), w, r), rtol=0, atol=0)


def test_leaky_relu_slope_gradient_is_torch_prelu():
    """A learned slope (one per channel, broadcast): PyTorch's prelu."""
    rng = np.random.default_rng(1)
    w = {"w0": rng.normal(size=(3, 5)), "w1": np.array([[0.1], [0.25], [-0.3]])}
    mine, r = ours("leaky_relu w0 w1", w, (3, 5))
    theirs = torch_reference(lambda t, x, s: t.nn.functional.prelu(x[None], s[:, 0])[0], w, r)
    assert_matches(mine, theirs, rtol=1e-15, atol=1e-16)


def test_clip_is_torch_clamp():
    """Bounds as literals (x's gradient 1 inside [lo, hi], ends included, as
    PyTorch's), then as weights (lo's gradient where x < lo, hi's where x > hi)."""
    x = np.concatenate([grid(41, -2, 2), [-0.5, 0.75]])         # the ends themselves
    mine, r = ours("clip w0 -0.5 0.75", {"w0": x}, x.shape)
    assert_matches(mine, torch_reference(lambda t, a: t.clamp(a, -0.5, 0.75), {"w0": x}, r),
                   rtol=0, atol=0)
    rng = np.random.default_rng(2)
    w = {"w0": rng.normal(size=(4, 6)), "w1": rng.normal(size=(4, 6)) - 0.5,
         "w2": rng.normal(size=(6,)) + 0.5}
    mine, r = ours("clip w0 w1 w2", w, (4, 6))
    assert_matches(mine, torch_reference(lambda t, a, lo, hi: t.clamp(a, lo, hi), w, r),
                   rtol=0, atol=0)


def test_where_is_torch_where():
    rng = np.random.default_rng(3)
    w = {"w0": rng.normal(size=(4, 5)), "w1": rng.normal(size=(5,))}
    line = "where (step w0) w0 w1"
    mine, r = ours(line, w, (4, 5))
    theirs = torch_reference(lambda t, a, b: t.where(a > 0, a, b), w, r)
    assert_matches(mine, theirs, rtol=0, atol=0)


def test_vector_times_matrix_is_torch_matmul():
    rng = np.random.default_rng(4)
    w = {"w0": rng.normal(size=(6,)), "w1": rng.normal(size=(6, 3))}
    mine, r = ours("matmul w0 w1", w, (3,))
    assert_matches(mine, torch_reference(lambda t, x, W: x @ W, w, r), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("shapes,axis", [(((2, 3), (2, 4)), 1), (((2, 3, 2), (2, 1, 2)), -2),
                                         (((2, 2, 3), (2, 2, 1)), -1), (((1, 3), (2, 3)), 0)])
def test_concat_on_an_axis_is_torch_cat(shapes, axis):
    rng = np.random.default_rng(5)
    w = {f"w{i}": rng.normal(size=s) for i, s in enumerate(shapes)}
    result = ops.TABLE["concat"].result_shape(shapes, (axis,))
    mine, r = ours(f"concat w0 w1 {axis}", w, result)
    assert_matches(mine, torch_reference(lambda t, a, b: t.cat((a, b), dim=axis), w, r),
                   rtol=0, atol=0)


# an inception block's four branches joined along the channels; three rows along the first axis
MANY = [([(2, 3, 3), (1, 3, 3), (3, 3, 3), (2, 3, 3)], None), ([(1, 2), (3, 2), (2, 2)], 0),
        ([(2, 1), (2, 4), (2, 2)], -1), ([(2, 2, 1), (2, 2, 3), (2, 2, 2), (2, 2, 1)], 2)]


@pytest.mark.parametrize("shapes,axis", MANY)
def test_concat_of_many_is_numpy_and_each_adjoint_its_own_part(shapes, axis):
    """`concat w0 w1 w2 … axis`: numpy's concatenate, and the gradient of Σ v·r in
    each operand is r cut at the operands' running lengths along the axis."""
    rng = np.random.default_rng(8)
    w = {f"w{i}": rng.normal(size=s) for i, s in enumerate(shapes)}
    names = " ".join(w) + ("" if axis is None else f" {axis}")
    k = (axis or 0) % len(shapes[0])
    result = list(shapes[0])
    result[k] = sum(s[k] for s in shapes)
    (value, grads), r = ours(f"concat {names}", w, tuple(result))
    np.testing.assert_array_equal(value, np.concatenate(list(w.values()), axis=k))
    cuts = np.cumsum([s[k] for s in shapes])[:-1]
    for name, part in zip(w, np.split(r, cuts, axis=k)):
        np.testing.assert_array_equal(grads[name], part, err_msg=name)


@pytest.mark.parametrize("shapes,axis", MANY)
def test_concat_of_many_is_torch_cat(shapes, axis):
    rng = np.random.default_rng(9)
    w = {f"w{i}": rng.normal(size=s) for i, s in enumerate(shapes)}
    k = (axis or 0) % len(shapes[0])
    result = ops.TABLE["concat"].result_shape(shapes, () if axis is None else (axis,))
    mine, r = ours(f"concat {' '.join(w)}" + ("" if axis is None else f" {axis}"), w, result)
    assert_matches(mine, torch_reference(lambda t, *parts: t.cat(parts, dim=k), w, r),
                   rtol=0, atol=0)


@pytest.mark.parametrize("op,torch_op", [("maxpool2d", "max_pool2d"),
                                         ("avgpool2d", "avg_pool2d")])
def test_padded_pooling_in_a_program_is_torch(op, torch_op):
    """GoogLeNet's pooling branch, `maxpool2d x 3 1 1` (the image keeps its size),
    and a strided padded window, through the compiler."""
    x = -np.abs(np.random.default_rng(6).normal(size=(2, 5, 6))) - 0.1
    for attrs in [(3, 1, 1), (2, 2, 1)]:
        result = ops.TABLE[op].result_shape([x.shape], attrs)
        mine, r = ours(f"{op} w0 " + " ".join(map(str, attrs)), {"w0": x}, result)
        theirs = torch_reference(lambda t, a: getattr(t.nn.functional, torch_op)(
            a, attrs[0], attrs[1], padding=attrs[2]), {"w0": x}, r)
        assert_matches(mine, theirs, rtol=1e-15, atol=1e-16)


# ----------------------------------------------------------------- other frameworks' names

QUOTED = re.compile(r"'([^']+)'")
DECLS = ("declare input x [3]\ndeclare input i\ndeclare weight W [3, 3]\n"
         "declare weight b [3]\ndeclare output v\n")


@pytest.mark.parametrize("name", sorted(other_names.OTHER_NAMES))
def test_another_frameworks_name_says_what_to_write(name):
    hint, needs = other_names.OTHER_NAMES[name]
    missing = [op for op in needs if op not in ops.TABLE]
    if missing:
        pytest.skip(f"the hint names {missing}, not in the op table")
    with pytest.raises(TenflangError) as info:
        tenflang.parse(DECLS + f"define v = {name} x\n", "hint.tf")
    error = info.value
    assert error.message == f"unknown op '{name}'; {hint}"
    assert (error.location.line, error.location.column, error.exit_code) == (6, 12, 2)
    for code in QUOTED.findall(hint):      # what it says to write is valid TenFlang
        if " " in code:
            tenflang.parse(DECLS + f"define v = {code}\n", "written.tf")
        else:
            assert code in ops.TABLE or code == "batchnorm", code


def test_a_real_op_is_never_another_frameworks_name():
    assert not set(other_names.OTHER_NAMES) & set(ops.TABLE)


def test_erf_without_scipy_is_the_c_librarys(monkeypatch):
    """numpy has no erf: scipy's ufunc when installed, else libm's element by element;
    the two agree to 1e-13 relative, the far tails of erfc (1e-196) included."""
    from tenflang.ops import forwards
    x = np.concatenate([grid(low=-30, high=30), [np.inf, -np.inf, np.nan]])[None]
    with np.errstate(all="ignore"):
        fast = [f(np, x) for f in (forwards.erf, forwards.gelu, forwards.gelu_deriv)]
        monkeypatch.setattr(forwards, "scipy_special", lambda: None)
        slow = [f(np, x) for f in (forwards.erf, forwards.gelu, forwards.gelu_deriv)]
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-300)
