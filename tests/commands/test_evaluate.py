"""`tfevaluate PROGRAM INPUTS WEIGHTS` end to end, through a subprocess as a user runs it.

The command lines of this module run once each, in the module fixture `runs`
(a thread pool); each test then checks its run: exit code, stdout, stderr,
and never a traceback.  A fresh interpreter costs most of a second here, so
the whole matrix of bad inputs runs in-process as well (click's CliRunner,
same command, same exit codes), and a subprocess covers each kind of failure
the user meets first (data, weights, program, options, device).
"""
from __future__ import annotations

import json
import math
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import tenflang
from tenflang.backprop import compile_gradient
from tenflang.cli import tfevaluate
from tenflang.interp import evaluate

from support.paths import ROOT
from support.commands import run_cli as run_cli_impl

SHAPE = ROOT / "samples" / "example_shape.tf"
LINEAR = ROOT / "samples" / "linear_regression.tf"
W = 1.7
TRAIN = [(0.6912, 0.764054810875904), (1.6432, 0.9423203029263484), (-0.6609, 0.25),
         (0.0, 0.5)]

FILES = {
    "w.txt": f"{{w: {W}}}\n",
    "inputs.txt": "# new inputs, no labels\n{x: -2.0}\n\n{x: 0.5}\n{x: 3}\n",
    "train.txt": "".join(f"{{x: {x}, y: {y}}}\n" for x, y in TRAIN),
    "lin_w.txt": "{\n  w: [0.5, -1.0, 2.0]\n  b: 0.25\n}\n",
    "lin_train.txt": "{x: [1, 2, 3], y: 4}\n{x: [-1, 0.5, 0], y: -2}\n{x: [0, 0, 1], y: 1.5}\n",
    # bad inputs: (file text); the expected message is in BAD below
    "missing_x.txt": "{y: 0.5}\n{y: 0.25}\n",
    "missing_line.txt": "{x: 1}\n{x: 2}\n{y: 2}\n",
    "null_x.txt": "{x: null}\n{x: null}\n",
    "extra.txt": "{x: 1}\n{x: 2, q: 3}\n",
    "extra_all.txt": "{x: 1, q: 3}\n{x: 2, q: 3}\n",
    "shape.txt": "{x: 1}\n{x: [1, 2]}\n",
    "shape_all.txt": "{x: [1, 2]}\n{x: [3, 4]}\n",
    "lin_shape.txt": "{x: [1, 2, 3]}\n{x: [1, 2]}\n",
    "lin_shape_all.txt": "{x: [1, 2]}\n{x: [3, 4]}\n",
    "word.txt": "{x: 1}\n{x: 2}\n{x: one}\n",
    "ragged.txt": "{x: [[1, 2], [3, 4]]}\n{x: [[1, 2], [3]]}\n",
    "nan.txt": "{x: 1}\n{x: nan}\n",
    "empty.txt": "",
    "comments.txt": "# nothing but a comment\n\n",
    "w_missing.txt": "{}\n",
    "w_extra.txt": "{\n  w: 1.7\n  v: 2\n}\n",
    "w_shape.txt": "{w: [1.7, 2]}\n",
    "w_word.txt": "{w: abc}\n",
    "syntax.tf": "declare input x\ndeclare weight w\ndeclare output o\ndefine o = mul x\n",
    "undefined.tf": "declare input x\ndeclare weight w\ndeclare output o\ndefine o = add q w\n",
    "logneg.tf": "declare input x\ndeclare weight w\ndeclare output o\ndefine o = log x\n",
    "neg.txt": "{x: -1}\n{x: 0}\n{x: 2}\n",
}


def ev(*args):
    return ["tfevaluate", *map(str, args)]


def parse_txt(stdout: str) -> list[dict]:
    """Read tfevaluate's txt output (vector notation, scalars) back."""
    rows = []
    for line in stdout.splitlines():
        body = line.strip()
        assert body.startswith("{") and body.endswith("}"), line
        row = {}
        for entry in body[1:-1].split(", "):
            name, value = entry.split(": ")
            row[name] = None if value == "null" else float(value)
        rows.append(row)
    return rows


def logistic(z):
    return 1 / (1 + math.exp(-z))


# name -> command line (relative names are files of FILES in the temporary directory)
GOOD = {
    "no_labels": ev(SHAPE, "inputs.txt", "w.txt"),
    "labels": ev(SHAPE, "train.txt", "w.txt"),
    "csv": ev(SHAPE, "train.txt", "w.txt", "--format", "csv"),
    "out": ev(SHAPE, "train.txt", "w.txt", "-o", "result.txt", "--format", "json"),
    "npz": ev(SHAPE, "train.npz", "w.txt"),
    "nan_result": ev("logneg.tf", "neg.txt", "w.txt"),    # numpy warnings: a real process
    "gcp0": ev("example_shape-O0.tf", "train.txt", "w.txt", "--format", "json"),
}
# in-process only (click's CliRunner)
IN_PROCESS = {
    "lin_gcp1": ev("linear_regression-O1.tf", "lin_train.txt", "lin_w.txt", "--format", "json"),
    "allow_nan": ev(SHAPE, "nan.txt", "w.txt", "--allow-nan"),
    "json": ev(SHAPE, "train.txt", "w.txt", "--format", "json"),
    "json_nolabel": ev(SHAPE, "inputs.txt", "w.txt", "--format", "json"),
    "float32": ev(SHAPE, "train.txt", "w.txt", "--dtype", "float32"),
    "lin_csv": ev(LINEAR, "lin_train.txt", "lin_w.txt", "--format", "csv"),
    "gcp1": ev("example_shape-O1.tf", "train.txt", "w.txt", "--format", "json"),
    "lin_gcp0": ev("linear_regression-O0.tf", "lin_train.txt", "lin_w.txt", "--format", "json"),
}

# name -> (command line, [strings the error message must contain])
BAD = {
    "missing_input": (ev(SHAPE, "missing_x.txt", "w.txt"), ["missing_x.txt:1", "'x'"]),
    "missing_in_a_line": (ev(SHAPE, "missing_line.txt", "w.txt"), ["missing_line.txt:3", "'x'"]),
    "null_input": (ev(SHAPE, "null_x.txt", "w.txt"), ["null_x.txt:1", "'x'"]),
    "extra_variable": (ev(SHAPE, "extra.txt", "w.txt"), ["extra.txt:2", "'q'"]),
    "extra_everywhere": (ev(SHAPE, "extra_all.txt", "w.txt"), ["extra_all.txt:1:", "'q'"]),
    "wrong_shape": (ev(SHAPE, "shape.txt", "w.txt"), ["shape.txt:2:", "'x'", "[2]"]),
    "wrong_shape_all": (ev(SHAPE, "shape_all.txt", "w.txt"), ["shape_all.txt:1:", "'x'", "[2]"]),
    "wrong_tensor_shape": (ev(LINEAR, "lin_shape.txt", "lin_w.txt"),
                           ["lin_shape.txt:2:", "'x'", "[2]"]),
    "wrong_tensor_shape_all": (ev(LINEAR, "lin_shape_all.txt", "lin_w.txt"),
                               ["lin_shape_all.txt:1:", "'x'", "[2]", "[3]"]),
    "not_a_number": (ev(SHAPE, "word.txt", "w.txt"), ["word.txt:3:5", "'x'", "one"]),
    "ragged": (ev(SHAPE, "ragged.txt", "w.txt"), ["ragged.txt:2:", "'x'", "ragged"]),
    "nan_input": (ev(SHAPE, "nan.txt", "w.txt"), ["nan.txt:2:", "'x'", "--allow-nan"]),
    "empty_inputs": (ev(SHAPE, "empty.txt", "w.txt"), ["empty.txt", "no examples"]),
    "only_comments": (ev(SHAPE, "comments.txt", "w.txt"), ["comments.txt", "no examples"]),
    "missing_weight": (ev(SHAPE, "train.txt", "w_missing.txt"), ["w_missing.txt", "'w'"]),
    "extra_weight": (ev(SHAPE, "train.txt", "w_extra.txt"), ["w_extra.txt", "'v'"]),
    "weight_shape": (ev(SHAPE, "train.txt", "w_shape.txt"), ["w_shape.txt", "'w'", "[2]"]),
    "weight_not_a_number": (ev(SHAPE, "train.txt", "w_word.txt"), ["w_word.txt:1:5", "'w'"]),
    "no_program": (ev("nope.tf", "train.txt", "w.txt"), ["nope.tf", "cannot read"]),
    "no_inputs": (ev(SHAPE, "nope.txt", "w.txt"), ["nope.txt", "cannot read"]),
    "no_weights": (ev(SHAPE, "train.txt", "nope_w.txt"), ["nope_w.txt", "cannot read"]),
    "syntax_error": (ev("syntax.tf", "train.txt", "w.txt"), ["syntax.tf:4:12", "'mul'"]),
    "undefined_name": (ev("undefined.tf", "train.txt", "w.txt"), ["undefined.tf:4:", "'q'"]),
    "unknown_format": (ev(SHAPE, "train.txt", "w.txt", "--format", "xml"),
                       ["Usage:", "--format", "xml"]),
    "missing_argument": (ev(SHAPE, "train.txt"), ["Usage:", "WEIGHTS"]),
}


# the bad inputs also run as a real process (the rest of BAD runs in-process only)
SUBPROCESS_BAD = ["missing_input", "extra_variable", "not_a_number", "nan_input",
                  "missing_weight", "no_inputs", "syntax_error", "unknown_format"]


def gpu_available() -> bool:
    from tenflang.interp.device import cupy_or_reason
    return cupy_or_reason()[0] is not None


def in_process(args, cwd: Path):
    """Run tfevaluate's click command in this process: (exit code, stdout, stderr)."""
    assert args[0] in ("tfevaluate", "tenflang")
    argv = [str(a) for a in (args[1:] if args[0] == "tfevaluate" else args[2:])]
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(tfevaluate, argv, prog_name="tfevaluate")
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception                     # a bug: would be a traceback
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tfevaluate")
    for name, text in FILES.items():
        (tmp / name).write_text(text)
    np.savez(tmp / "train.npz", x=np.array([x for x, _ in TRAIN]),
             y=np.array([y for _, y in TRAIN]))
    for program in (SHAPE, LINEAR):            # GCPs written as tfcompiler prints them
        for level in (0, 1):
            gcp = compile_gradient(tenflang.parse_file(str(program), shape_program=True), level)
            (tmp / f"{program.stem}-O{level}.tf").write_text(tenflang.print_program(gcp))
    jobs = {name: args for name, args in GOOD.items()}
    jobs |= {name: BAD[name][0] for name in SUBPROCESS_BAD}
    jobs["gpu"] = ev(SHAPE, "train.txt", "w.txt", "--device", "gpu")
    jobs["module"] = ["tenflang", "evaluate", SHAPE, "train.txt", "w.txt"]

    def compile_then_run():                    # tfcompiler itself, then its GCP
        compiled = run_cli_impl(["tfcompiler", SHAPE, "-o", "tfcompiler-gcp.tf"], cwd=tmp)
        assert compiled[0] == 0, compiled
        return run_cli_impl(ev("tfcompiler-gcp.tf", "train.txt", "w.txt", "--format", "json"),
                            cwd=tmp)

    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(run_cli_impl, args, cwd=tmp) for name, args in jobs.items()}
        futures["tfcompiler"] = pool.submit(compile_then_run)
        done = {name: future.result() for name, future in futures.items()}
    for name, args in IN_PROCESS.items():
        done[name] = in_process(args, tmp)
    for name, (args, _) in BAD.items():
        done[f"in-process {name}"] = in_process(args, tmp)
    return tmp, done


def ok(runs, name):
    code, out, err = runs[1][name]
    assert code == 0, err
    assert "Traceback" not in err
    return out, err


# ---------------------------------------------------------------- good runs

def in_memory(xs):
    """The interpreter's own float64 results for the original design's example (x -> o)."""
    program = tenflang.parse_file(str(SHAPE))
    return evaluate(program, {"x": np.array(xs, dtype=float)}, {"w": W})["o"].tolist()


def test_without_labels_prints_outputs_and_null_loss(runs):
    out, err = ok(runs, "no_labels")
    assert err == ""
    expected = in_memory([-2.0, 0.5, 3.0])
    assert out.splitlines()[0] == f"{{o: {expected[0]!r}, lambda: null}}"
    rows = parse_txt(out)
    assert [list(r) for r in rows] == [["o", "lambda"]] * 3          # the blank line is no example
    for row, x, o in zip(rows, [-2.0, 0.5, 3.0], expected):
        assert row["o"] == o                                          # reads back bit-identical
        assert row["o"] == pytest.approx(logistic(x * W), rel=1e-15)
        assert row["lambda"] is None


def test_with_labels_prints_the_loss(runs):
    rows = parse_txt(ok(runs, "labels")[0])
    assert len(rows) == len(TRAIN)
    for row, (x, y) in zip(rows, TRAIN):
        assert row["o"] == pytest.approx(logistic(x * W), rel=1e-15)
        assert row["lambda"] == pytest.approx((logistic(x * W) - y) ** 2, rel=1e-12, abs=1e-300)


def test_json_lines_with_keys_in_order(runs):
    lines = ok(runs, "json")[0].splitlines()
    assert len(lines) == len(TRAIN)
    for line, (x, y) in zip(lines, TRAIN):
        assert list(json.loads(line)) == ["o", "lambda"]
        assert json.loads(line)["o"] == pytest.approx(logistic(x * W), rel=1e-15)
    unlabeled = [json.loads(line) for line in ok(runs, "json_nolabel")[0].splitlines()]
    assert [r["lambda"] for r in unlabeled] == [None] * 3
    assert [r["o"] for r in unlabeled] == in_memory([-2.0, 0.5, 3.0])


def test_csv(runs):
    lines = ok(runs, "csv")[0].splitlines()
    assert lines[0] == "o,lambda"
    rows = [list(map(float, line.split(","))) for line in lines[1:]]
    assert len(rows) == len(TRAIN)
    assert rows[0][0] == pytest.approx(logistic(TRAIN[0][0] * W), rel=1e-15)
    lin = ok(runs, "lin_csv")[0].splitlines()
    assert lin[0] == "o,sq"
    # o = w·x + b, first example: 0.5 - 2 + 6 + 0.25
    assert float(lin[1].split(",")[0]) == pytest.approx(4.75)
    assert float(lin[1].split(",")[1]) == pytest.approx(0.75 ** 2)


def test_output_file(runs):
    tmp, _ = runs
    out, err = ok(runs, "out")
    assert out == "" and err == ""
    written = (tmp / "result.txt").read_text()
    assert written == ok(runs, "json")[0]
    assert not [p for p in tmp.iterdir() if p.name.startswith(".result.txt")]   # no temporaries


def test_a_gcp_from_tfcompiler_runs(runs):
    tmp, _ = runs
    assert (tmp / "tfcompiler-gcp.tf").read_text() == (tmp / "example_shape-O1.tf").read_text()
    assert ok(runs, "tfcompiler")[0] == ok(runs, "gcp1")[0]


@pytest.mark.parametrize("name", ["gcp0", "gcp1", "tfcompiler"])
def test_a_gcp_says_its_outputs_are_gradients_and_what_to_run_instead(runs, name):
    """The per-example gradients come out (a documented use), with a note
    saying what they are; a shape program gets no note."""
    out, err = ok(runs, name)
    assert "d/dw" in out
    assert ": note: this is a gradient program (GCP, what tfcompiler writes): its outputs are "\
           "the gradients of the loss for each example (d/dw), not the model's outputs; for " \
           "those, run tfevaluate on the shape program it was compiled from" in err, err
    assert err.count("note:") == 1
    assert "gradient program" not in ok(runs, "labels")[1]


def test_npz_inputs_and_the_tenflang_command_agree_with_text(runs):
    text = ok(runs, "labels")[0]
    assert ok(runs, "npz")[0] == text
    assert ok(runs, "module")[0] == text


def test_float32(runs):
    out32 = ok(runs, "float32")[0]
    rows32, rows64 = parse_txt(out32), parse_txt(ok(runs, "labels")[0])
    for a, b in zip(rows32, rows64):
        assert a["o"] == pytest.approx(b["o"], rel=1e-6)
    for text in re.findall(r"o: ([^,]+),", out32):                    # shortest float32 strings
        assert str(np.float32(text)) == text


def test_allow_nan_accepts_nan_inputs(runs):
    out, err = ok(runs, "allow_nan")
    rows = parse_txt(out)
    assert rows[0]["o"] == logistic(W) and math.isnan(rows[1]["o"])
    assert "'o' is NaN or infinite in 1 of 2 examples" in err


def test_nan_results_give_one_warning_not_numpy_noise(runs):
    out, err = ok(runs, "nan_result")
    assert "RuntimeWarning" not in err and "ops/table.py" not in err
    assert err.strip() == "logneg.tf: warning: 'o' is NaN or infinite in 2 of 3 examples"
    rows = parse_txt(out)
    assert math.isnan(rows[0]["o"]) and rows[1]["o"] == -math.inf
    assert rows[2]["o"] == math.log(2)


@pytest.mark.parametrize("level", [0, 1])
def test_gcp_gives_per_example_gradients_matching_finite_differences(runs, level):
    lines = ok(runs, f"gcp{level}")[0].splitlines()
    eps = 1e-6
    loss = lambda x, y, w: (logistic(x * w) - y) ** 2               # noqa: E731
    for line, (x, y) in zip(lines, TRAIN):
        row = json.loads(line)
        assert list(row) == ["d/dw", "lambda"]
        numeric = (loss(x, y, W + eps) - loss(x, y, W - eps)) / (2 * eps)
        assert row["d/dw"] == pytest.approx(numeric, rel=1e-6, abs=1e-9)
        assert row["lambda"] == pytest.approx(loss(x, y, W), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("level", [0, 1])
def test_tensor_gcp_gradients_match_finite_differences(runs, level):
    lines = ok(runs, f"lin_gcp{level}")[0].splitlines()
    w, b, eps = np.array([0.5, -1.0, 2.0]), 0.25, 1e-6
    data = [([1, 2, 3], 4), ([-1, 0.5, 0], -2), ([0, 0, 1], 1.5)]
    loss = lambda x, y, w, b: (np.dot(w, x) + b - y) ** 2            # noqa: E731
    assert len(lines) == len(data)
    for line, (x, y) in zip(lines, data):
        row = json.loads(line)
        assert set(row) == {"d/dw", "d/db", "sq"}
        numeric = [(loss(x, y, w + eps * e, b) - loss(x, y, w - eps * e, b)) / (2 * eps)
                   for e in np.eye(3)]
        np.testing.assert_allclose(row["d/dw"], numeric, rtol=1e-6, atol=1e-8)
        assert row["d/db"] == pytest.approx((loss(x, y, w, b + eps) - loss(x, y, w, b - eps))
                                            / (2 * eps), rel=1e-6)


# ---------------------------------------------------------------- bad input: exit 2

@pytest.mark.parametrize("name", SUBPROCESS_BAD + [f"in-process {name}" for name in BAD])
def test_bad_input_exits_2_with_one_clear_message(runs, name):
    code, out, err = runs[1][name]
    name = name.removeprefix("in-process ")
    assert code == 2, (out, err)
    assert out == ""
    assert "Traceback" not in err
    for needle in BAD[name][1]:
        assert needle in err, f"{needle!r} not in:\n{err}"
    if "Usage:" not in err:
        # compiler style: FILE[:LINE[:COL]]: error: ..., on the first line
        assert re.match(r"^\S+(:\d+)*: error: ", err), err
        assert err.count("error:") == 1


@pytest.mark.parametrize("name,where", [("extra_weight", "w_extra.txt:3:"),
                                        ("weight_shape", "w_shape.txt:1:")])
def test_weight_errors_name_the_line(runs, name, where):
    assert where in runs[1][f"in-process {name}"][2]


def test_subprocess_and_in_process_agree(runs):
    for name in SUBPROCESS_BAD:
        assert runs[1][name] == runs[1][f"in-process {name}"], name


def test_nothing_is_written_on_error(runs):
    tmp, _ = runs
    assert not (tmp / "nope.txt").exists()
    assert sorted(p.name for p in tmp.iterdir() if p.name.startswith(".")) == []


def test_device_gpu_without_a_gpu(runs):
    code, out, err = runs[1]["gpu"]
    if gpu_available():
        assert code == 0, err
        assert out == ok(runs, "labels")[0] or parse_txt(out)[0]["o"] == pytest.approx(
            parse_txt(ok(runs, "labels")[0])[0]["o"], rel=1e-12)
        return
    assert code == 2 and out == ""
    assert "Traceback" not in err
    assert "--device gpu" in err and ("cupy" in err or "CUDA" in err) and "--device cpu" in err
    assert err.count("\n") <= 1


# ---------------------------------------------------------------- --summary and -o by extension

def test_summary_is_the_mean_of_every_output_and_loss(runs):
    tmp = runs[0]
    for fmt, parse in (("txt", lambda out: parse_txt(out)[0]),
                       ("json", lambda out: json.loads(out))):
        code, out, err = in_process(ev(SHAPE, "train.txt", "w.txt", "--summary", "--format", fmt),
                                    tmp)
        assert code == 0 and err == "" and len(out.splitlines()) == 1
        row = parse(out)
        os_ = [logistic(x * W) for x, _ in TRAIN]
        assert row["o"] == pytest.approx(np.mean(os_), rel=1e-15)
        assert row["lambda"] == pytest.approx(
            np.mean([(o - y) ** 2 for o, (_, y) in zip(os_, TRAIN)]), rel=1e-12)
    code, out, err = in_process(ev(SHAPE, "inputs.txt", "w.txt", "--summary", "--format", "csv"),
                                tmp)
    assert code == 0 and out.splitlines()[0] == "o,lambda"
    assert out.splitlines()[1].endswith(",") and len(out.splitlines()) == 2    # lambda is null


@pytest.mark.parametrize("name,read", [
    ("pred.npz", lambda p: {k: v.tolist() for k, v in np.load(p).items()}),
    ("pred.csv", lambda p: p.read_text().splitlines()[0]),
    ("pred.json", lambda p: json.loads(p.read_text().splitlines()[0])),
    ("pred.jsonl", lambda p: json.loads(p.read_text().splitlines()[0])),
    ("pred.out", lambda p: parse_txt(p.read_text())[0]),
])
def test_output_file_format_follows_its_extension(runs, name, read):
    tmp = runs[0]
    code, out, err = in_process(ev(LINEAR, "lin_train.txt", "lin_w.txt", "-o", name), tmp)
    assert code == 0 and out == "" and err == "", err
    got = read(tmp / name)
    o = [0.5 - 2 + 6 + 0.25, -0.5 - 0.5 + 0.25, 2 + 0.25]
    if name.endswith(".npz"):
        assert got["o"] == o and len(got["sq"]) == 3
    elif name.endswith(".csv"):
        assert got == "o,sq"
    else:
        assert got["o"] == o[0]


def test_output_format_disagreeing_with_the_extension_is_a_usage_error(runs):
    tmp = runs[0]
    code, out, err = in_process(ev(SHAPE, "train.txt", "w.txt", "-o", "p.csv", "--format",
                                   "json"), tmp)
    assert code == 2 and "-o p.csv writes csv, but --format json was given" in err
    assert not (tmp / "p.csv").exists()
    code, out, err = in_process(ev(SHAPE, "train.txt", "w.txt", "-o", "p.txt", "--format",
                                   "json"), tmp)
    assert code == 0 and json.loads((tmp / "p.txt").read_text().splitlines()[0])["o"]
