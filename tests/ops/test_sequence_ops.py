"""The ops for sequences, attention and classes (docs/design.md §2.3.1) against
PyTorch, the sample programs that use them, and class-index labels at run time.

* forward results against PyTorch's own functions (skipped cleanly without
  torch) — the per-example loops of tests/interpreter/test_interp.py are the other reference;
* the recurrent, attention and LeNet sample programs parse, compile at -O0 and
  -O1, re-parse, and their gradients match central differences along random
  directions (LeNet only once conv2d/maxpool2d are in the op table);
* a class index outside 0..n-1 through the commands: exit 2, file, line, variable.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import tenflang
from tenflang.backprop import adjoint, compile_gradient
from tenflang.interp import interpret, make_plan, run_plan

from support.gradcheck import numerical_gradient
from support.paths import ROOT

PROGRAMS = ROOT / "samples"
B = 5


def run(source: str, data: dict) -> dict:
    return interpret(tenflang.parse(source), data, batched=True)


# ---------------------------------------------------------------- against PyTorch

CASES = [   # (declarations of a, b; the op line; the torch function of per-batch tensors)
    ("a [2, 3, 4]", None, "softmax a", lambda t, a: t.softmax(a, dim=-1)),
    ("a [3, 4]", None, "log_softmax a", lambda t, a: t.log_softmax(a, dim=-1)),
    ("a [2, 3, 4]", "b [2, 4, 5]", "matmul a b", lambda t, a, b: t.matmul(a, b)),
    ("a [2, 3, 4]", "b [4, 5]", "matmul a b", lambda t, a, b: t.matmul(a, b[:, None])),
    ("a [2, 3, 4]", None, "transpose a", lambda t, a: a.transpose(-1, -2)),
    ("a [2, 3, 4]", None, "permute a [2, 0, 1]", lambda t, a: a.permute(0, 3, 1, 2)),
    ("a [2, 3, 4]", None, "reshape a [4, -1]", lambda t, a: a.reshape(len(a), 4, 6)),
    ("a [2, 3, 4]", None, "flatten a", lambda t, a: t.flatten(a, 1)),
    ("a [2, 3]", "b [4, 3]", "concat a b", lambda t, a, b: t.cat([a, b], dim=1)),
    ("a [5, 3]", None, "slice a 1 4", lambda t, a: a[:, 1:4]),
    ("a [5, 3]", None, "index a 4", lambda t, a: a[:, 4]),
]


@pytest.mark.parametrize("a,b,line,reference", CASES, ids=[c[2] for c in CASES])
def test_forward_matches_pytorch(a, b, line, reference):
    torch = pytest.importorskip("torch", reason="PyTorch is an optional test dependency")
    decls = "".join(f"declare input {d}\n" for d in (a, b) if d)
    rng = np.random.default_rng(len(line))
    data = {}
    for d in (a, b):
        if d:
            name, shape = d.split(" ", 1)
            data[name] = rng.normal(size=(B, *json.loads(shape)))
    got = run(decls + f"declare output v\ndefine v = {line}\n", data)["v"]
    expected = reference(torch, *(torch.from_numpy(data[n]) for n in "ab" if n in data))
    np.testing.assert_allclose(got, expected.numpy(), rtol=1e-13, atol=1e-14)


def test_batched_matmul_by_a_weight_matches_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional test dependency")
    rng = np.random.default_rng(2)
    a, w = rng.normal(size=(B, 2, 3, 4)), rng.normal(size=(4, 5))
    got = run("declare input a [2, 3, 4]\ndeclare weight w [4, 5]\ndeclare output v\n"
              "define v = matmul a w\n", {"a": a, "w": w})["v"]
    expected = torch.matmul(torch.from_numpy(a), torch.from_numpy(w)).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-14)


def test_one_hot_argmax_equal_match_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional test dependency")
    rng = np.random.default_rng(3)
    label = rng.integers(0, 4, B).astype(float)
    scores = rng.normal(size=(B, 4))
    out = run("declare input y\ndeclare input s [4]\ndeclare output h\ndeclare output k\n"
              "declare output c\ndefine h = one_hot y 4\ndefine k = argmax s\n"
              "define c = equal (argmax s) y\n", {"y": label, "s": scores})
    tl = torch.from_numpy(label).long()
    np.testing.assert_array_equal(out["h"], torch.nn.functional.one_hot(tl, 4).numpy())
    np.testing.assert_array_equal(out["k"], torch.from_numpy(scores).argmax(-1).numpy())
    np.testing.assert_array_equal(out["c"], (torch.from_numpy(scores).argmax(-1) == tl).numpy())


def test_argmax_takes_the_first_maximum():
    out = run("declare input s [2, 4]\ndeclare output k\ndefine k = argmax s\n",
              {"s": np.array([[[1.0, 3, 3, 0], [2, 2, 2, 2]]])})
    np.testing.assert_array_equal(out["k"], [[1.0, 0.0]])


def test_last_axis_softmax_is_stable_and_rows_sum_to_one():
    x = np.array([[[1e4, 0.0, -1e4], [5.0, 5.0, 5.0]]])
    out = run("declare input a [2, 3]\ndeclare output s\ndeclare output l\n"
              "define s = softmax a\ndefine l = log_softmax a\n", {"a": x})
    np.testing.assert_allclose(out["s"].sum(axis=-1), 1.0, rtol=1e-15)
    np.testing.assert_allclose(out["l"][0, 0], [0.0, -1e4, -2e4])
    assert np.isfinite(out["l"]).all()


# ---------------------------------------------------------------- the sample programs

def sample_data(program, rng):
    decls = program.declarations().values()
    data = {"x": rng.uniform(0, 1, (4, 8, 8)), "label": rng.integers(0, 10, 4).astype(float)}
    weights = {d.name: rng.normal(0, 0.3, d.shape or ()) for d in decls if d.kind == "weight"}
    return data, weights


def objective(program, values: dict) -> float:
    losses = [d.name for d in program.declarations().values() if d.kind == "loss"]
    plan = make_plan(program, set(values), losses)
    return float(sum(run_plan(plan, values, reduce="mean").values()))


@pytest.mark.parametrize("name", ["rnn_digits", "attention_digits", "lenet_digits"])
def test_sample_gradients_match_central_differences(name):
    source = (PROGRAMS / f"{name}.tf").read_text()
    program = tenflang.parse(source, f"{name}.tf", shape_program=True)
    rng = np.random.default_rng(7)
    data, weights = sample_data(program, rng)
    for level in (0, 1):
        gcp = tenflang.parse(tenflang.print_program(compile_gradient(program, level)))
        plan = make_plan(gcp, set(data) | set(weights), [adjoint(w) for w in weights])
        grads = run_plan(plan, {**data, **weights}, reduce="mean")
        for trial in range(3):       # directional derivatives along random directions
            direction = {w: rng.normal(size=np.shape(v)) for w, v in weights.items()}
            eps = 1e-6
            shifted = [objective(program, {**data, **{w: v + s * eps * direction[w]
                                                      for w, v in weights.items()}})
                       for s in (1, -1)]
            numeric = (shifted[0] - shifted[1]) / (2 * eps)
            analytic = sum(float(np.sum(grads[adjoint(w)] * direction[w])) for w in weights)
            assert analytic == pytest.approx(numeric, rel=1e-6, abs=1e-8), (level, trial)


def test_sample_accuracy_output_is_an_indicator():
    program = tenflang.parse((PROGRAMS / "rnn_digits.tf").read_text(), shape_program=True)
    data, weights = sample_data(program, np.random.default_rng(1))
    out = interpret(program, {**data, **weights}, batched=True)
    predicted = np.argmax(out["scores"], axis=-1)
    np.testing.assert_array_equal(out["correct"], (predicted == data["label"]).astype(float))


# ---------------------------------------------------------------- class indices at run time

PROGRAM = """declare input x [3]
declare exp_output label
declare weight W [4, 3]
declare output scores [4]
declare loss xent
define scores = matmul W x
define xent = neg (dot (log_softmax scores) (one_hot label 4))
"""
WEIGHTS = "W: [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "p.tf").write_text(PROGRAM)
    (tmp_path / "w.txt").write_text(WEIGHTS)
    (tmp_path / "bad.txt").write_text("{x: [1, 2, 3], label: 1}\n# a comment\n"
                                      "{x: [1, 0, 3], label: 4}\n")
    (tmp_path / "bad.csv").write_text("x[0],x[1],x[2],label\n1,2,3,1\n1,2,3,2.5\n")
    np.savez(tmp_path / "bad.npz", x=np.zeros((3, 3)), label=np.array([0.0, 3.0, -1.0]))
    return tmp_path


@pytest.mark.parametrize("data,where,value", [
    ("bad.txt", "bad.txt:3:16:", "4.0"), ("bad.csv", "bad.csv:3:", "2.5"),
    ("bad.npz", "bad.npz:", "-1.0 in example 2 (0-based)")])
def test_class_index_out_of_range_names_file_line_and_variable(run_cli_batch, files, data,
                                                               where, value):
    results = run_cli_batch([
        ["tfcompiler", files / "p.tf", "-o", files / "g.tf"],
        ["tfweightcalc", files / "g.tf", files / data, "-o", files / "out.txt", "--quiet"],
        ["tfevaluate", files / "p.tf", files / data, files / "w.txt"]])
    assert results[0][0] == 0, results[0][2]
    for code, out, err in results[1:]:
        assert code == 2 and out == "", err
        assert f"{where} error: variable 'label' is {value}: a class index for one_hot must " \
            "be an integer in 0..3" in err.replace(str(files) + "/", ""), err
        assert "Traceback" not in err
    assert not (files / "out.txt").exists()


def test_computed_class_index_out_of_range_is_reported_at_run_time(run_cli, files):
    """A class index computed by the program (not read from data) is checked by
    one_hot itself: the example is named, exit 2, no traceback."""
    (files / "q.tf").write_text("declare input y\ndeclare output h\n"
                                "define h = one_hot (add y 1) 3\n")
    (files / "y.txt").write_text("{y: 0}\n{y: 2}\n")
    (files / "none.txt").write_text("{}\n")
    code, out, err = run_cli(["tfevaluate", files / "q.tf", files / "y.txt", files / "none.txt"])
    assert (code, out) == (2, "")
    assert "error: one_hot: class index 3.0 in example 1 (0-based) must be an integer in 0..2" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("bad", [np.nan, 2.5, -1.0, 3.0, np.inf])
def test_one_hot_names_the_first_example_whose_class_index_is_not_one_of_0_to_n_1(bad):
    from tenflang.base.errors import TenflangError
    from tenflang.ops.forwards import one_hot
    y = np.array([0.0, -0.0, bad, 1.0, bad])
    with pytest.raises(TenflangError, match=rf"class index {bad!r} in example 2 \(0-based\)"):
        one_hot(np, y, 3)
    np.testing.assert_array_equal(one_hot(np, y[:2], 3), [[1, 0, 0], [1, 0, 0]])   # -0 is 0


def test_labels_in_range_train(run_cli_batch, files):
    (files / "ok.txt").write_text("{x: [1, 2, 3], label: 0}\n{x: [3, 0, 1], label: 3}\n")
    results = run_cli_batch([
        ["tfcompiler", files / "p.tf", "-o", files / "g.tf"],
        ["tfweightcalc", files / "g.tf", files / "ok.txt", "-o", files / "out.txt", "--quiet",
         "--max-iters", "50", "--lr", "0.5"],
        ["tfevaluate", files / "p.tf", files / "ok.txt", files / "out.txt", "--format", "json"]])
    assert [r[0] for r in results] == [0, 0, 0], results
    rows = [json.loads(line) for line in results[2][1].splitlines()]
    assert [int(np.argmax(r["scores"])) for r in rows] == [0, 3]


def test_second_derivatives_through_the_gcp():
    """A GCP is a program like any other: a loss on a gradient compiles again
    (the adjoint ops `unslice`, `reshape`, `permute` have derivatives too), and
    that gradient matches central differences."""
    source = ("declare input x [3, 4]\ndeclare weight W [4, 2]\ndeclare intvar h\n"
              "declare loss l\n"
              "define h = softmax (matmul (permute (reshape x [4, 3]) [1, 0]) W)\n"
              "define l = sum (mul (concat (slice h 0 2) (index (reshape h [1, 3, 2]) 0)) "
              "(tanh (slice (concat h h) 1 6)))\n")
    program = tenflang.parse(source, shape_program=True)
    rng = np.random.default_rng(11)
    data, weights = {"x": rng.normal(size=(3, 3, 4))}, {"W": rng.normal(size=(4, 2))}
    for level in (0, 1):
        gcp = compile_gradient(program, level)
        text = tenflang.print_program(gcp) + "declare loss r\ndefine r = sum (mul d/dW d/dW)\n"
        text = text.replace("declare loss l\n", "declare intvar l\n")
        second = tenflang.parse(text)
        gcp2 = tenflang.parse(tenflang.print_program(compile_gradient(second, level)))
        (out,) = [d.name for d in gcp2.declarations().values() if d.kind == "output"]
        assert out == "d/dW.1"              # `d/dW` names the first derivative there
        plan = make_plan(gcp2, set(data) | set(weights), [out])
        got = run_plan(plan, {**data, **weights}, reduce="mean")[out]
        np.testing.assert_allclose(got, numerical_gradient(second, data, weights, "W"),
                                   rtol=1e-5, atol=1e-7, err_msg=f"-O{level}")
