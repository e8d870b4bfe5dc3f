"""`tenflang export`: ONNX models that onnxruntime runs to TenFlang's own numbers.

* Per op of the table (the cases of tests/support/op_cases.py, so a new op comes with
  its shapes), every mix of per-example inputs and weights as operands: the
  exported model passes onnx's full check, and onnxruntime's outputs equal the
  interpreter's to 1e-12 (float64) and 1e-5 (float32), relative to the
  output's scale.  An op without a mapping fails here unless it is listed in
  `NOT_EXPORTABLE` with a reason.
* The stable forms stay stable: logistic, softplus, logsumexp, … at |x| up to
  1e4 agree elementwise.
* Every sample exports (forward part, and with its losses), and onnxruntime's
  outputs equal `tfevaluate`'s, on the sample's own data.
* Every way of failing: message and exit code.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import zlib

import numpy as np
import pytest
from click.testing import CliRunner

from tenflang.ops import table as ops
from tenflang.cli import main
from tenflang.data.vectors import load_examples, load_weights, save_weights
from tenflang.base.errors import TenflangError
from tenflang.interp import evaluate
from tenflang.interp.runtime.population import population
from tenflang.lang import parse, parse_file
from tenflang.lang.checks import check
from tenflang.ops.shapes import fmt_shape

from support.data_files import write
from support.paths import ROOT, SAMPLES, SAMPLES_DIR
from support.commands import cli_env, command_line
from support.op_cases import POSITIVE, attribute_cases, cases
from test_samples import RECIPES

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from tenflang.export import (DEFAULT_OPSET, NOT_EXPORTABLE, ONNX_OPS,  # noqa: E402
                             export_model)
from tenflang.export.verify import run_model  # noqa: E402

BATCH = 4
RTOL = {"float64": 1e-12, "float32": 1e-5}


def assert_close(got, want, dtype):
    """Equal to RTOL[dtype] relative to the output's scale (cancellation in a
    sum can leave an element near zero with an absolute error of the scale's order)."""
    want = np.asarray(want, np.float64)
    got = np.broadcast_to(np.asarray(got, np.float64), want.shape)
    scale = np.abs(want).max(initial=0.0)
    np.testing.assert_allclose(got, want, rtol=RTOL[dtype], atol=RTOL[dtype] * scale)


def onnx_and_tenflang(source: str, data: dict, weights: dict, dtype: str, **options):
    program = parse(source, "op.tf")
    model = export_model(program, weights, dtype=dtype, **options)
    onnx.checker.check_model(model, full_check=True)
    got = run_model(model, data, dtype)
    want = evaluate(program, data, weights, dtype=dtype, results=list(got))
    return got, want


# ----------------------------------------------------------------------------- per op

def op_source(op: str, shapes, kinds, attrs=()) -> str:
    """v = op a0 a1 … attrs…, the a_i inputs or weights as `kinds` says; input
    `n` gives the batch its size when every operand is a weight."""
    lines = ["declare input n"] + [f"declare {kind} a{i} {fmt_shape(s)}" for i, (kind, s) in
             enumerate(zip(kinds, shapes))]
    operands = " ".join([f"a{i}" for i in range(len(shapes))] + [attribute(a) for a in attrs])
    lines += ["declare output v", f"define v = {op} {operands}"]
    return "\n".join(lines) + "\n"


# ops whose operand holds class indices 0..n-1 (n the first attribute); the
# gradient tests, which need no such case, have none
CLASS_INDEX_CASES = {"one_hot": [(((),), (4,)), (((),), (1,))]}
# ops whose operand 1 holds row indices of a table (operand `table`): shapes
INDEX_CASES = {"take": [((5, 3), (4,)), ((6,), (2, 3)), ((4, 2, 2), ())]}
INDEX_TABLE = {"take": 0, "take_grad": 2}


def op_data(op: str, shapes, kinds, seed: int, attrs=()):
    rng = np.random.default_rng(seed)
    low = 0.5 if op in POSITIVE else -1.5
    draw = lambda shape: rng.uniform(low, 1.5, shape)  # noqa: E731
    if op in CLASS_INDEX_CASES:
        draw = lambda shape: rng.integers(0, attrs[0], shape).astype(float)  # noqa: E731
    data, weights = {"n": np.zeros(BATCH)}, {}
    for i, (kind, shape) in enumerate(zip(kinds, shapes)):
        if op in INDEX_TABLE and i == 1:
            rows = shapes[INDEX_TABLE[op]][0]
            draw = lambda shape: rng.integers(0, rows, shape).astype(float)  # noqa: E731
        elif op in INDEX_TABLE:
            draw = lambda shape: rng.uniform(low, 1.5, shape)  # noqa: E731
        if kind == "input":
            data[f"a{i}"] = draw((BATCH,) + shape)
        else:
            weights[f"a{i}"] = draw(shape)
    return data, weights


def attribute(value) -> str:
    return fmt_shape(value) if isinstance(value, tuple) else str(value)


def op_cases():
    """The gradient tests' cases (with and without attributes), per mix of operand kinds."""
    plain = [(*case.values, (), case.id) for case in cases()]
    with_attributes = [(*case.values, case.id) for case in attribute_cases()]
    class_indices = [(op, shapes, attrs, f"{op}-{attrs[0]}") for op in CLASS_INDEX_CASES
                     if op in ops.TABLE for shapes, attrs in CLASS_INDEX_CASES[op]]
    row_indices = [(op, shapes, (), f"{op}-" + "x".join(map(fmt_shape, shapes)))
                   for op in INDEX_CASES for shapes in INDEX_CASES[op]]
    row_indices += [("take_grad", ((4, 3), (4,), (5, 3)), (), "take_grad")]
    literals = [("dropout_mask", ((2, 3),), (0.5,), "dropout_mask-0.5")]    # p: a literal
    for op, shapes, attrs, name in (plain + with_attributes + class_indices + row_indices
                                    + literals):
        for kinds in itertools.product(("input", "weight"), repeat=len(shapes)):
            yield pytest.param(op, shapes, attrs, kinds, id=f"{name}-{'-'.join(kinds)}")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op,shapes,attrs,kinds", list(op_cases()))
def test_op_exports(op, shapes, attrs, kinds, dtype):
    seed = zlib.crc32(repr((op, shapes, attrs, kinds)).encode())
    data, weights = op_data(op, shapes, kinds, seed, attrs)
    if op == "batch_mean":                   # no population value given: refused, naming it
        with pytest.raises(TenflangError, match="the weights have no batch statistic 'v'"):
            onnx_and_tenflang(op_source(op, shapes, kinds, attrs), data, weights, dtype)
        return
    if op in NOT_EXPORTABLE:                 # says so, with the reason, at the op's line
        with pytest.raises(TenflangError, match=rf"op.tf:{len(shapes) + 3}:12: error: op '{op}' cannot be "
                                                rf"exported to ONNX: {re.escape(NOT_EXPORTABLE[op])}"):
            onnx_and_tenflang(op_source(op, shapes, kinds, attrs), data, weights, dtype)
        return
    assert op in ONNX_OPS, f"op '{op}' has no ONNX mapping: add one to ops/onnx_forms/onnx_graph.py"
    got, want = onnx_and_tenflang(op_source(op, shapes, kinds, attrs), data, weights, dtype)
    expected = (BATCH,) + ops.TABLE[op].result_shape(shapes, attrs)
    assert got["v"].shape == want["v"].shape == expected
    assert_close(got["v"], want["v"], dtype)


def test_every_op_is_tested_exportable_or_says_why():
    tested = {case.values[0] for case in op_cases()}
    for op in ops.TABLE:
        assert op in tested, f"op '{op}' has no case here (nor in tests/support/op_cases.py)"
        assert op in ONNX_OPS or NOT_EXPORTABLE.get(op), f"op '{op}': no ONNX mapping, no reason"
    assert not set(ONNX_OPS) - set(ops.TABLE), "a mapping for an op the table does not have"


@pytest.mark.parametrize("line", ["define v = pow a0 2", "define v = pow 2 a0",
                                  "define v = sub 1 a0", "define v = div 1 a0",
                                  "define v = mul a0 -3", "define v = max a0 0.5",
                                  "define v = add 2 3"])
def test_literal_operands(line):
    source = "declare input a0 [3]\ndeclare output v\n" + line + "\n"
    data = {"a0": np.random.default_rng(3).uniform(0.5, 1.5, (BATCH, 3))}
    got, want = onnx_and_tenflang(source, data, {}, "float64")
    assert got["v"].shape == want["v"].shape
    assert_close(got["v"], want["v"], "float64")


EXTREMES = np.array([-1e4, -800.0, -50.0, -1.0, -1e-20, 0.0, 1e-20, 1.0, 50.0, 800.0, 1e4])


@pytest.mark.parametrize("op", ["logistic", "softplus", "logistic_deriv", "tanh_deriv",
                                "logsumexp", "log_softmax", "softmax", "tanh", "exp"])
def test_stable_forms_stay_stable(op):
    source = f"declare input a0 [{len(EXTREMES)}]\ndeclare output v\ndefine v = {op} a0\n"
    data = {"a0": np.stack([EXTREMES, -EXTREMES[::-1] / 3])}
    with np.errstate(over="ignore"):
        got, want = onnx_and_tenflang(source, data, {}, "float64")
    np.testing.assert_allclose(got["v"], want["v"], rtol=1e-12, atol=0)
    if op != "exp":
        assert np.isfinite(got["v"]).all()


@pytest.mark.parametrize("op", ["erf", "gelu", "gelu_deriv"])
def test_float64_erf_series_is_exact(op):
    """onnxruntime has no float64 Erf: the series that replaces it (ops/onnx_forms/onnx_erf.py)
    agrees with the C library's erf to 1e-14 · max(1, |a|) over the whole line (the
    error in gelu's left tail, where ONNX's a (1 + erf) cancels, grows with |a|)."""
    grid = np.concatenate([np.linspace(-12, 12, 2401), EXTREMES])
    source = f"declare input a0 [{len(grid)}]\ndeclare output v\ndefine v = {op} a0\n"
    got, want = onnx_and_tenflang(source, {"a0": grid[None]}, {}, "float64")
    assert np.isfinite(got["v"]).all()
    assert (np.abs(got["v"] - want["v"]) <= 1e-14 * np.maximum(1, np.abs(grid))).all()


# ----------------------------------------------------------------------------- the model

MLP = SAMPLES_DIR / "mlp_digits.tf"


def random_weights(program, seed=0) -> dict:
    rng = np.random.default_rng(seed)
    shapes = check(program)
    return {d.name: rng.normal(0, 0.5, shapes[d.name])
            for d in program.declarations().values() if d.kind == "weight"}


def test_model_has_names_dynamic_batch_opset_and_initializers():
    program = parse_file(str(MLP))
    model = export_model(program, random_weights(program))
    graph = model.graph
    assert [i.name for i in graph.input] == ["x"] and [o.name for o in graph.output] == ["scores"]
    dims = graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param == "N" and dims[1].dim_value == 64
    assert {i.name for i in graph.initializer} == {"W1", "b1", "W2", "b2"}
    assert model.opset_import[0].version == DEFAULT_OPSET
    assert graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT   # by default
    ops_used = [n.op_type for n in graph.node]
    assert "Softmax" not in ops_used and "LogSoftmax" not in ops_used   # not in the forward part
    for batch in (1, 7):                                               # N is dynamic
        x = np.random.default_rng(batch).uniform(0, 1, (batch, 64))
        assert run_model(model, {"x": x}, "float32")["scores"].shape == (batch, 10)


def test_an_output_that_does_not_vary_per_example_has_n_rows():
    source = ("declare input x [2]\ndeclare weight w [2]\ndeclare output o\ndeclare output c\n"
              "define o = dot w x\ndefine c = sum w\n")
    data = {"x": np.arange(6.0).reshape(3, 2)}
    got, want = onnx_and_tenflang(source, data, {"w": np.array([0.5, -2.0])}, "float64")
    assert got["c"].shape == want["c"].shape == (3,)
    assert_close(got["c"], want["c"], "float64")


@pytest.mark.parametrize("opset", [18, 28])
def test_other_opsets(opset):
    if opset > onnx.defs.onnx_opset_version():
        pytest.skip(f"the installed onnx knows opsets up to {onnx.defs.onnx_opset_version()}")
    program = parse_file(str(MLP))
    weights = random_weights(program)
    model = export_model(program, weights, dtype="float64", opset=opset)
    assert model.opset_import[0].version == opset
    x = np.random.default_rng(0).uniform(0, 1, (5, 64))
    assert_close(run_model(model, {"x": x}, "float64")["scores"],
                 evaluate(program, {"x": x}, weights)["scores"], "float64")


# ----------------------------------------------------------------------------- every sample

# samples whose training data is large: their 1 000 held-out examples instead
HELD_OUT = {"charlm": "charlm_test.txt", "charlm_scan": "charlm_test.txt"}


def program_cases():
    """Every sample on its data (the networks of docs/design.md §2.3.1 included)."""
    for path in SAMPLES:
        data = HELD_OUT.get(path.stem, RECIPES[path.stem][0])
        yield pytest.param(path, SAMPLES_DIR / data, id=path.stem)


@pytest.mark.parametrize("shape,data", list(program_cases()))
def test_sample_exports_and_matches_tfevaluate(shape, data, tmp_path, run_cli_batch):
    program = parse_file(str(shape))
    weights_file = tmp_path / "weights.txt"
    weights = random_weights(program, zlib.crc32(shape.stem.encode()))
    # a program with batch statistics is evaluated with their population values (§2.3.2)
    weights.update(population(program, load_examples(str(data)).arrays, weights))
    save_weights(str(weights_file), weights)
    runs = {"float64": ["--dtype", "float64"], "float32": ["--dtype", "float32"]}
    commands = []
    for dtype, option in runs.items():
        commands.append(["tenflang", "export", shape, weights_file, "-o", tmp_path / f"{dtype}.onnx",
                         *option])
        commands.append(["tenflang", "export", shape, weights_file, "--with-loss", "-o",
                         tmp_path / f"{dtype}-loss.onnx", *option])
        commands.append(["tfevaluate", shape, data, weights_file, "--format", "json", *option])
    results = run_cli_batch(commands)
    for code, _, err in results:
        assert code == 0, err
    examples = load_examples(str(data)).arrays
    for k, dtype in enumerate(runs):
        rows = [json.loads(line) for line in results[3 * k + 2][1].splitlines()]
        for model_name in (f"{dtype}.onnx", f"{dtype}-loss.onnx"):
            model = onnx.load(str(tmp_path / model_name))
            onnx.checker.check_model(model, full_check=True)
            got = run_model(model, examples, dtype)
            for output, value in got.items():
                assert_close(value, [row[output] for row in rows], dtype)
        declared = program.declarations().values()
        outputs = [d.name for d in declared if d.kind == "output"]
        losses = [d.name for d in declared if d.kind == "loss"]
        # without --with-loss: the outputs the interpreter computes without the exp_outputs
        inputs = {n: a for n, a in examples.items() if n in {d.name for d in declared
                                                             if d.kind == "input"}}
        unlabelled = evaluate(program, inputs, load_weights(str(weights_file)), results=outputs)
        forward = [n for n in outputs if unlabelled[n] is not None]
        for model_name, names in ((f"{dtype}.onnx", forward),
                                  (f"{dtype}-loss.onnx", outputs + losses)):
            model = onnx.load(str(tmp_path / model_name))
            assert [o.name for o in model.graph.output] == names


# ----------------------------------------------------------------------------- the command

@pytest.fixture(scope="module")
def mlp_weights(tmp_path_factory):
    path = tmp_path_factory.mktemp("mlp") / "weights.txt"
    save_weights(str(path), random_weights(parse_file(str(MLP))))
    return path


@pytest.mark.parametrize("dtype, options, bound", [("float32", [], 1e-5),
                                                    ("float64", ["--dtype", "float64"], 1e-12)])
def test_verify_prints_the_error_per_output(run_cli, mlp_weights, tmp_path, dtype, options,
                                            bound):
    """float32 by default, float64 on request; the error is the dtype's."""
    model = tmp_path / "mlp.onnx"
    code, out, err = run_cli(["tenflang", "export", MLP, mlp_weights, "-o", model, "--verify",
                              SAMPLES_DIR / "digits_test.txt", "--with-loss", *options])
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["scores", "xent"]
    errors = [float(line.split("max relative error ")[1].split()[0]) for line in lines]
    assert all(e <= bound for e in errors) and "over 360 examples" in lines[0]
    assert "inputs x [N, 64], y [N, 10]" in err and f"opset {DEFAULT_OPSET}" in err
    loaded = onnx.load(str(model))
    onnx.checker.check_model(loaded, full_check=True)
    elem = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    assert {i.type.tensor_type.elem_type for i in loaded.graph.input} == {elem}


def test_the_tolerance_of_verify_follows_the_dtype():
    from tenflang.export import TOLERANCE
    assert TOLERANCE["float32"] > 1e-6 > 1e-8 > TOLERANCE["float64"]


INDEXED = """declare input tokens [3]
declare exp_output label
declare weight E [5, 4]
declare weight W [2, 4]
declare intvar h [4]
declare output scores [2]
declare loss xent
define h = mean (take E tokens) 0
define scores = matmul W (mul h (dropout_mask h 0.3))
define xent = neg (dot (log_softmax scores) (one_hot label 2))
"""

ONNXRUNTIME_AS_A_USER = """
import sys
import numpy as np
import onnxruntime
session = onnxruntime.InferenceSession(sys.argv[1])
print(sorted((i.name, i.type) for i in session.get_inputs()))
tokens = np.array([[0, 4, 2], [1, 1, 3]], np.int64)
feeds = {"tokens": tokens, "label": np.array([1, 0], np.int64)}
scores, xent = session.run(["scores", "xent"], feeds)
print(scores.dtype, xent.dtype, scores.shape)
"""


def test_an_exported_model_takes_float32_and_int64_indices_without_warnings(run_cli,
                                                                               tmp_path):
    """take's indices and one_hot's labels are int64 inputs, the floats
    float32, and no initializer is left unused (dropout's rate): onnxruntime,
    at its default log level, loads and runs it without a word."""
    program, weights = tmp_path / "indexed.tf", tmp_path / "w.npz"
    program.write_text(INDEXED)
    rng = np.random.default_rng(0)
    save_weights(str(weights), {"E": rng.normal(size=(5, 4)), "W": rng.normal(size=(2, 4))})
    data = tmp_path / "data.txt"
    data.write_text("{tokens: [0, 4, 2], label: 1}\n{tokens: [1, 1, 3], label: 0}\n")
    code, _, err = run_cli(["tenflang", "export", program, weights, "-o", tmp_path / "m.onnx",
                            "--with-loss", "--verify", data])
    assert code == 0, err
    model = onnx.load(str(tmp_path / "m.onnx"))
    used = {name for node in model.graph.node for name in node.input}
    assert {i.name for i in model.graph.initializer} <= used
    (tmp_path / "run.py").write_text(ONNXRUNTIME_AS_A_USER)
    done = subprocess.run([sys.executable, tmp_path / "run.py", tmp_path / "m.onnx"],
                          capture_output=True, text=True, env=cli_env())
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.splitlines() == [
        "[('label', 'tensor(int64)'), ('tokens', 'tensor(int64)')]", "float32 float32 (2, 2)"]


def invoke(args):
    """The `tenflang` group in this process (so a test can patch the mapping)."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def test_a_model_that_disagrees_is_not_written(mlp_weights, tmp_path, monkeypatch):
    monkeypatch.setitem(ONNX_OPS, "tanh", ONNX_OPS["sin"])
    model = tmp_path / "mlp.onnx"
    code, out = invoke(["export", MLP, mlp_weights, "-o", model, "--verify",
                        SAMPLES_DIR / "digits_test.txt"])
    assert code == 1 and "the model disagrees with TenFlang on 'scores'" in out
    assert "not written" in out and not model.exists()


def test_an_op_without_mapping_names_op_and_line(mlp_weights, tmp_path, monkeypatch):
    monkeypatch.delitem(ONNX_OPS, "tanh")
    monkeypatch.setitem(NOT_EXPORTABLE, "tanh", "a reason given in the table")
    code, out = invoke(["export", MLP, mlp_weights, "-o", tmp_path / "m.onnx"])
    line = MLP.read_text().splitlines().index("define a = tanh h") + 1
    assert code == 2
    assert f"{MLP}:{line}:12: error: op 'tanh' cannot be exported to ONNX: a reason given" in out
    assert "define a = tanh h" in out and not (tmp_path / "m.onnx").exists()


@pytest.mark.parametrize("source,options,message", [
    ("declare input x\ndeclare exp_output y\ndeclare loss l\ndefine l = sub x y\n", [],
     "error: the program declares no output: nothing to export (--with-loss exports the losses)"),
    ("declare input x\ndeclare exp_output y\ndeclare output o\ndefine o = sub x y\n", [],
     "p.tf:3:16: error: output 'o' cannot be exported: it depends on an exp_output; "
     "--with-loss takes exp_outputs as inputs"),
    ("declare input x\ndeclare output o\n", [],
     "p.tf:2:16: error: output 'o' cannot be exported: it is never defined"),
    ("declare input x\ndeclare output o\ndefine o = neg x\n", ["--opset", "7"],
     "error: --opset 7: this export writes opsets 18 to"),
])
def test_bad_programs_and_options(tmp_path, run_cli, source, options, message):
    program = write(tmp_path, "p.tf", source)
    weights = write(tmp_path, "w.txt", "{}\n")
    code, _, err = run_cli(["tenflang", "export", program, weights, "-o", tmp_path / "m.onnx",
                            *options], cwd=tmp_path)
    assert code == 2 and message in err, err
    assert "Traceback" not in err and not (tmp_path / "m.onnx").exists()


def test_an_output_that_needs_labels_is_left_out_with_a_note(tmp_path, run_cli):
    program = write(tmp_path, "p.tf", "declare input x [2]\ndeclare exp_output y\n"
                    "declare output o\ndeclare output hit\n"
                    "define o = sum x\ndefine hit = sub o y\n")
    weights = write(tmp_path, "w.txt", "{}\n")
    code, _, err = run_cli(["tenflang", "export", program, weights, "-o", tmp_path / "m.onnx"],
                           cwd=tmp_path)
    assert code == 0, err
    assert "outputs o [N];" in err
    assert "p.tf: note: output 'hit' is left out: it needs an exp_output (--with-loss exports it)" \
        in err
    assert [o.name for o in onnx.load(str(tmp_path / "m.onnx")).graph.output] == ["o"]


def test_a_missing_weight(run_cli, tmp_path):
    weights = write(tmp_path, "w.txt", "W1: " + json.dumps(np.zeros((32, 64)).tolist()) + "\n")
    code, _, err = run_cli(["tenflang", "export", MLP, weights, "-o", tmp_path / "m.onnx"])
    assert code == 2 and f"{weights}: error: missing weights 'b1' ([32]), 'W2' ([10, 32]), " \
        "'b2' ([10])" in err
    assert not (tmp_path / "m.onnx").exists()


def test_verify_inputs_must_bind_the_model_inputs(run_cli, mlp_weights, tmp_path):
    data = write(tmp_path, "d.txt", "{y: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1]}\n")
    code, _, err = run_cli(["tenflang", "export", MLP, mlp_weights, "-o", tmp_path / "m.onnx",
                            "--verify", data])
    assert code == 2 and "missing variable 'x'" in err and not (tmp_path / "m.onnx").exists()


def test_never_writes_over_an_input(run_cli, mlp_weights, tmp_path):
    before = mlp_weights.read_bytes()
    code, _, err = run_cli(["tenflang", "export", MLP, mlp_weights, "-o", mlp_weights])
    assert code == 2 and "would overwrite the input WEIGHTS" in err
    assert mlp_weights.read_bytes() == before
    code, _, err = run_cli(["tenflang", "export", MLP, mlp_weights, "-o", tmp_path])
    assert code == 2 and "the output is a directory" in err
    code, _, err = run_cli(["tenflang", "export", MLP, mlp_weights, "-o", tmp_path / "no" / "m"])
    assert code == 2 and "the directory" in err and "does not exist" in err


def test_a_device_output_is_written_through(run_cli, mlp_weights):
    """As every command's -o (docs/guide/commands.md, Outputs): it once refused /dev/null."""
    code, _, err = run_cli(["tenflang", "export", MLP, mlp_weights, "-o", os.devnull])
    assert code == 0, err


@pytest.mark.parametrize("missing", ["onnx", "onnxruntime"])
def test_without_onnx_says_how_to_install(tmp_path, mlp_weights, missing):
    fake = tmp_path / "fake" / missing
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(f"raise ImportError('No module named {missing}')\n")
    env = cli_env()
    env["PYTHONPATH"] = f"{fake.parent}{os.pathsep}{env['PYTHONPATH']}"
    done = subprocess.run(command_line(["tenflang", "export", MLP, mlp_weights, "-o",
                                        tmp_path / "m.onnx", "--verify",
                                        SAMPLES_DIR / "digits_test.txt"]),
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2, done.stderr
    assert f"ONNX export needs the {missing} package, which is not installed; " \
           "pip install 'tenflang[onnx]'" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "m.onnx").exists()


def test_the_guide_tables_every_op():
    text = (ROOT / "docs" / "guide" / "commands.md").read_text(encoding="utf-8")
    table = text.split("## 5.9 `tenflang export`")[1].split("| TenFlang | ONNX |")[1]
    rows = [line for line in table.split("\n\n")[0].splitlines() if line.startswith("| `")]
    tabled = {word.strip("`") for row in rows for word in row.split("|")[1].split()}
    assert tabled == set(ops.TABLE) - set(NOT_EXPORTABLE)


TAKE = ("declare input i [2]\ndeclare weight W [3, 2]\ndeclare output o [2, 2]\n"
        "define o = take W i\n")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_take_indices_tfevaluate_refuses_do_in_a_model_what_the_guide_says(tmp_path, run_cli,
                                                                         dtype):
    """docs/guide/commands.md §5.9: a model does not check `take`'s indices as tfevaluate
    does; it drops the fraction, counts −n..−1 from the end and fails at n."""
    (tmp_path / "t.tf").write_text(TAKE)
    (tmp_path / "w.txt").write_text("{W: [[0, 1], [2, 3], [4, 5]]}\n")
    (tmp_path / "d.txt").write_text("{i: [-1, 1.5]}\n")
    code, _, err = run_cli(["tfevaluate", str(tmp_path / "t.tf"), str(tmp_path / "d.txt"),
                            str(tmp_path / "w.txt")])
    assert code == 2
    assert "d.txt:1:2: error: variable 'i' is -1.0: a row index for take must be an integer " \
           "in 0..2" in err
    W = np.arange(6.0).reshape(3, 2)
    model = export_model(parse(TAKE, "t.tf"), {"W": W}, dtype=dtype)
    got = run_model(model, {"i": np.array([[-1, 1.5], [2.9, -0.5]])}, dtype)["o"]
    np.testing.assert_array_equal(got, [[W[2], W[1]], [W[2], W[0]]])
    with pytest.raises(Exception, match="indices element out of data bounds"):
        run_model(model, {"i": np.array([[3.0, 0.0]])}, dtype)
    guide = (ROOT / "docs" / "guide" / "commands.md").read_text(encoding="utf-8")
    assert "(dropping the fraction, so 1.5 picks row 1)" in guide
