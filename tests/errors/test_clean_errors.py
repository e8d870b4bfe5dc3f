"""Careless input gets one clear message and an exit code, never a traceback:
tampered checkpoints, option values out of range, a full standard output,
non-UTF-8 input to `fmt -`, keywords glued to names, hand-written GCPs whose
gradients are missing or mis-shaped, and data whose shapes disagree with the
program (blamed on the first line that disagrees)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tenflang
from tenflang.base import limits
from tenflang.backprop import compile_gradient

from support import programs
from support.paths import ROOT
from support.commands import cli_env


def no_traceback(err: str) -> bool:
    return "Traceback" not in err and len(err.strip().split("\n")) <= 8


# ----------------------------------------------------------------------------- checkpoints

@pytest.fixture
def checkpoint(run_cli_batch, work):
    """A real checkpoint of a short adam run, as {name: array} to tamper with."""
    return checkpointed_run(run_cli_batch, work)


def checkpointed_run(run_cli_batch, work) -> dict:
    """Three adam steps on g.tf and d.txt in `work`, checkpointed to c.npz: its arrays."""
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "g.tf", "d.txt", "--optimizer", "adam",
                                       "--checkpoint", "c.npz", "--max-iters", "3", "-o",
                                       "w-out.txt"]], cwd=work)
    assert code == 0, err
    with np.load(work / "c.npz") as npz:
        return {k: npz[k] for k in npz.files}


def tampered(work, arrays: dict, name: str = "t.npz") -> str:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    (work / name).write_bytes(buffer.getvalue())
    return name


def gcp_text() -> str:
    return programs.gcp_text(programs.ORIGINAL_EXAMPLE_AS_WRITTEN)


def meta_text(text: str):
    """The checkpoint with `text` as its meta record."""
    return lambda arrays: {**arrays, "meta": np.asarray(text)}


def iteration(value: str):
    """The checkpoint with an adam meta record whose iteration is `value` (JSON text)."""
    return meta_text('{"optimizer": "adam", "iteration": %s}' % value)


def replaced(name: str, value):
    return lambda arrays: {**arrays, name: np.asarray(value)}


def without(name: str):
    return lambda arrays: {k: v for k, v in arrays.items() if k != name}


TAMPERINGS = {
    "meta a list": (meta_text("[1, 2]"), "meta record is not an object"),
    "meta a number": (meta_text("7"), "meta record is not an object"),
    "meta a string": (meta_text('"adam"'), "meta record is not an object"),
    "meta not json": (meta_text("{iteration"), "not a tfweightcalc checkpoint"),
    "meta missing": (without("meta"), "not a tfweightcalc checkpoint"),
    "iteration missing": (meta_text('{"optimizer": "adam", "seed": 0}'), "iteration is None"),
    "iteration NaN": (iteration("NaN"), "iteration is nan"),
    "iteration infinite": (iteration("1e400"), "iteration is inf"),
    "iteration negative": (iteration("-4"), "iteration is -4"),
    "iteration huge": (iteration("%d" % 10**30), f"from 0 to {limits.MAX_ITERATIONS}"),
    "iteration fractional": (iteration("2.5"), "iteration is 2.5"),
    "iteration a bool": (iteration("true"), "iteration is True"),
    "iteration a string": (iteration('"3"'), "iteration is '3'"),
    "string weight": (replaced("w:w", "0.5"), "holds <U3 values"),
    "complex weight": (replaced("w:w", 0.5 + 1j), "holds complex128"),
    "NaN weight": (replaced("w:w", np.nan), "holds NaN or infinity"),
    "weight of the wrong shape": (replaced("w:w", np.zeros(3)), "has shape [3]"),
    "weight missing": (without("w:w"), "missing weight"),
    "slot of the wrong shape": (replaced("s:m:w", np.zeros((2, 2))),
                                "'m:w' has shape [2, 2], expected []"),
    "slot of another optimizer": (replaced("s:q:w", np.zeros(())), "'q:w'"),
    "slot of no weight": (replaced("s:m:nothing", np.zeros(())), "'m:nothing'"),
    "string slot": (replaced("s:v:w", "x"), "holds <U1 values"),
    "infinite slot": (replaced("s:v:w", np.inf), "NaN or infinity"),
    "2-D history": (replaced("history", np.zeros((2, 2))), "has 2 dimensions, not 1"),
    "string history": (replaced("history", ["a"]), "holds <U1 values"),
    "stray array": (replaced("extra", np.zeros(1)), "unexpected array 'extra'"),
    "settings missing": (meta_text('{"optimizer": "adam", "iteration": 3, "seed": 0}'),
                         "its meta record has no settings object"),
    "a setting missing": (lambda arrays: {**arrays, "meta": np.asarray(json.dumps(
        {**json.loads(str(arrays["meta"])), "settings": {
            k: v for k, v in json.loads(str(arrays["meta"]))["settings"].items()
            if k not in ("lr", "betas")}}))}, "lacks the settings --lr, --betas"),
    "a moment missing": (without("s:v:w"), "the checkpoint lacks the optimizer state 's:v:w' "
                                           "of its --optimizer adam run at iteration 3"),
    "both moments missing": (lambda arrays: without("s:v:w")(without("s:m:w")(arrays)),
                             "lacks the optimizer state 's:m:w', 's:v:w'"),
}


@pytest.fixture(scope="module")
def tampered_results(tmp_path_factory):
    """(code, out, err) of a resumed run on each of TAMPERINGS, in one process."""
    import shutil
    from support.commands import run_cli_batch as run_cli_batch_impl
    work = tmp_path_factory.mktemp("tampered")
    (work / "g.tf").write_text(gcp_text())
    shutil.copy(ROOT / "samples" / "example_train.txt", work / "d.txt")
    arrays = checkpointed_run(run_cli_batch_impl, work)
    commands = []
    for k, (change, _) in enumerate(TAMPERINGS.values()):
        path = tampered(work, change(arrays), name=f"t{k}.npz")
        commands.append(["tfweightcalc", "g.tf", "d.txt", "--optimizer", "adam",
                         "--checkpoint", path, "--max-iters", "5"])
    return dict(zip(TAMPERINGS, run_cli_batch_impl(commands, cwd=work)))


@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_a_tampered_checkpoint_is_a_clean_error(tampered_results, name):
    code, out, err = tampered_results[name]
    k = list(TAMPERINGS).index(name)
    assert code == 2, err
    assert err.startswith(f"t{k}.npz: error:") and TAMPERINGS[name][1] in err, err
    assert no_traceback(err)


def test_an_untampered_checkpoint_resumes(run_cli_batch, work, checkpoint):
    path = tampered(work, checkpoint)
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "g.tf", "d.txt", "--optimizer", "adam",
                                       "--checkpoint", path, "--max-iters", "5"]], cwd=work)
    assert code == 0 and "resuming from t.npz at iteration 3" in err


def test_a_checkpoint_holding_a_member_twice_is_refused(run_cli_batch, work, checkpoint):
    import warnings
    import zipfile
    path = tampered(work, checkpoint)
    with warnings.catch_warnings(), zipfile.ZipFile(work / path, "a") as archive:
        warnings.simplefilter("ignore")               # zipfile's "Duplicate name"
        with archive.open("s:v:w.npy", "w") as f:
            np.lib.format.write_array(f, np.zeros(()))
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "g.tf", "d.txt", "--optimizer", "adam",
                                       "--checkpoint", path, "--max-iters", "5"]], cwd=work)
    assert code == 2 and err.startswith("t.npz: error: not a tfweightcalc checkpoint ("
                                        "ValueError: it holds member 's:v:w.npy' twice)"), err


def test_a_checkpoint_of_another_optimizer(run_cli_batch, work, checkpoint):
    path = tampered(work, checkpoint)
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "g.tf", "d.txt", "--checkpoint", path]],
                                     cwd=work)
    assert code == 2 and "written by a run with --optimizer adam, not sgd" in err
    assert "or start afresh from its weights with --init" in err


# ----------------------------------------------------------------------------- option values

OPTION_VALUES = [
    ("--val-fraction", "nan"), ("--val-fraction", "inf"), ("--val-fraction", "-0.1"),
    ("--val-fraction", "1"), ("--seed", "-1"), ("--lr", "-1"), ("--lr", "0"), ("--lr", "inf"),
    ("--lr", "nan"), ("--lr", "-inf"), ("--tol", "nan"), ("--tol", "-1"), ("--tol", "inf"),
    ("--connect-timeout", "nan"), ("--connect-timeout", "inf"), ("--connect-timeout", "0"),
    ("--connect-timeout", "-1"), ("--max-iters", "-1"), ("--batch-size", "0"),
    ("--checkpoint-every", "0"), ("--chunk-size", "0"), ("--statistics", "bogus"),
    ("--statistics", ""), ("--statistics", "EXACT"), ("--statistics-momentum", "0"),
    ("--statistics-momentum", "1"), ("--statistics-momentum", "nan"),
]


@pytest.fixture(scope="module")
def option_results(tmp_path_factory):
    from support.commands import run_cli_batch as run_cli_batch_impl
    work = tmp_path_factory.mktemp("options")
    return run_cli_batch_impl([["tfweightcalc", "g.tf", "d.txt", option, value]
                               for option, value in OPTION_VALUES], cwd=work)


@pytest.mark.parametrize("k", range(len(OPTION_VALUES)), ids=[" ".join(o) for o in OPTION_VALUES])
def test_option_values_out_of_range_are_usage_errors(option_results, k):
    code, out, err = option_results[k]
    assert code == 2
    assert f"Invalid value for '{OPTION_VALUES[k][0]}'" in err and no_traceback(err)
    assert out == ""


def test_in_range_values_still_work(run_cli_batch, work):
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "g.tf", "d.txt", "--lr", "1e-3", "--tol",
                                       "0", "--seed", "0", "--val-fraction", "0.25",
                                       "--max-iters", "2", "--statistics", "exact",
                                       "--statistics-momentum", "0.5"]], cwd=work)
    assert code == 0, err


# ----------------------------------------------------------------------------- full disk, stdin

def to_dev_full(args, cwd, stdin=None):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "tenflang", *args], cwd=cwd, stdout=full,
                              stderr=subprocess.PIPE, input=stdin, env=cli_env())
    return done.returncode, done.stderr.decode()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["compile", "s.tf"], ["plan", "s.tf"],
                                  ["evaluate", "s.tf", "in.txt", "w.txt"],
                                  ["evaluate", "s.tf", "in.txt", "w.txt", "--format", "json"]])
def test_a_full_standard_output_is_exit_1_with_one_line(work, args):
    code, err = to_dev_full(args, work)
    assert code == 1
    assert err == "error: cannot write to standard output: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_fmt_to_a_full_standard_output(work):
    code, err = to_dev_full(["fmt", "-"], work, stdin=b"declare  input x\n")
    assert code == 1 and "cannot write to standard output" in err and no_traceback(err)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_trained_weights_meant_for_a_full_standard_output_go_to_a_rescue_file(work):
    code, err = to_dev_full(["train", "g.tf", "d.txt", "--max-iters", "5"], work)
    assert code == 1 and no_traceback(err)
    rescue = [p for p in work.iterdir() if p.name.startswith("tfweightcalc-rescue-")]
    assert len(rescue) == 1 and str(rescue[0]) in err
    assert "w" in tenflang.load_weights(str(rescue[0]))


@pytest.mark.parametrize("data,line,column", [
    (b"declare input x\n\xff\xfe\n", 2, 1),
    (b"declare input \xc3x\n", 1, 15),
    ("declare loss l\n".encode("utf-16"), 1, 1),
])
def test_fmt_stdin_that_is_not_utf8(run_cli, data, line, column):
    done = subprocess.run([sys.executable, "-m", "tenflang", "fmt", "-"], input=data,
                          capture_output=True, env=cli_env())
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2
    assert err.startswith(f"<stdin>:{line}:{column}: error: the file is not UTF-8 text")
    assert no_traceback(err)


def test_fmt_stdin_with_a_byte_order_mark(run_cli):
    done = subprocess.run([sys.executable, "-m", "tenflang", "fmt", "-"],
                          input="\ufeffdeclare   input x\n".encode(), capture_output=True,
                          env=cli_env())
    assert done.returncode == 0 and done.stdout == b"declare input x\n"


# ----------------------------------------------------------------------------- keywords

@pytest.mark.parametrize("text,word", [
    ("declareinput x\n", "declareinput"),
    ("declare input x\ndefineo = neg x\n", "defineo"),
    ("macrom a -> b\n  define b = neg a\nend\n", "macrom"),
    ("macro m a -> b\n  define b = neg a\nendx\n", "endx"),
    ("declare input x\ndefine_y = neg x\n", "define_y"),
])
def test_a_keyword_glued_to_a_name_is_a_syntax_error(run_cli_batch, tmp_path, text, word):
    (tmp_path / "p.tf").write_text(text)
    for code, out, err in run_cli_batch([["tenflang", "check", "--any-program", "p.tf"],
                                         ["tenflang", "fmt", "p.tf"],
                                         ["tenflang", "fmt", "--check", "p.tf"]], cwd=tmp_path):
        assert code == 2, err
        assert f"error: unexpected '{word}'" in err and no_traceback(err)
    assert (tmp_path / "p.tf").read_text() == text


def test_keywords_followed_by_spaces_tabs_or_comments_still_parse():
    program = tenflang.parse("declare\tinput x\ndeclare output y\nmacro m a -> b\n"
                             "  define b = neg a\nend# closing\ndefine\ty = m x\n")
    assert [s.name for s in program.statements][-1] == "y"


# ----------------------------------------------------------------------------- hand-written GCPs

@pytest.mark.parametrize("edit,message,line", [
    (lambda t: t.replace("define d/dw = mul d/dz x\n", ""),
     "the gradient output 'd/dw' is declared but never defined", 29),
    (lambda t: t.replace("declare output d/dw\n", "declare output d/dw [2]\n"),
     "'d/dw' is declared with shape [2] but its definition gives []", None),
    (lambda t: t.replace("declare input x\n", "declare input x\ndeclare input v [3]\n")
             .replace("declare output d/dw\n", "declare output d/dw [3]\n")
             .replace("define d/dw = mul d/dz x", "define d/dw = mul d/dz v"),
     "the gradient 'd/dw' has shape [3], but weight 'w' has shape []", None),
])
def test_a_hand_written_gcp_with_a_bad_gradient(run_cli_batch, work, edit, message, line):
    text = edit(gcp_text())
    assert text != gcp_text()
    (work / "bad.tf").write_text(text)
    (work / "dv.txt").write_text("".join(f"{{x: {k}, v: [1, 2, 3], y: 0.5}}\n" for k in range(3)))
    data = "dv.txt" if "v [3]" in text else "d.txt"
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "bad.tf", data, "--max-iters", "2"]],
                                     cwd=work)
    assert code == 2 and message in err and no_traceback(err), err
    if line:
        assert err.startswith(f"bad.tf:{line}:")


# ----------------------------------------------------------------------------- data shapes

@pytest.fixture
def linear(work):
    gcp = compile_gradient(tenflang.parse_file(str(ROOT / "samples" / "linear_regression.tf"),
                                               shape_program=True))
    (work / "lin.tf").write_text((ROOT / "samples" / "linear_regression.tf").read_text())
    (work / "ling.tf").write_text(tenflang.print_program(gcp))
    (work / "linw.txt").write_text("{w: [1, 2, 3], b: 0}\n")
    return work


@pytest.mark.parametrize("lines,bad_line,found", [
    (["{x: 1, y: 2}", "{x: [1, 2, 3], y: 1}"], 1, "[]"),           # was blamed on line 2
    (["{x: [1, 2, 3], y: 2}", "{x: [1, 2, 3], y: 1}", "{x: [1, 2], y: 1}"], 3, "[2]"),
    (["# a comment", "", "{x: [[1, 2, 3]], y: 2}", "{x: [1, 2, 3], y: 1}"], 3, "[1, 3]"),
    (["{x: [1, 2, 3], y: [2]}", "{x: [1, 2, 3], y: 1}"], 1, "[1]"),
])
@pytest.mark.parametrize("command", ["train", "evaluate", "distributed"])
def test_data_shapes_are_checked_against_the_program_line_by_line(run_cli_batch, linear, lines,
                                                                   bad_line, found, command):
    (linear / "data.txt").write_text("\n".join(lines) + "\n")
    args = {"train": ["tfweightcalc", "ling.tf", "data.txt"],
            "distributed": ["tfweightcalc", "ling.tf", "data.txt", "--scheduler", "local:1"],
            "evaluate": ["tfevaluate", "lin.tf", "data.txt", "linw.txt"]}[command]
    [(code, _, err)] = run_cli_batch([args], cwd=linear)
    assert code == 2
    assert err.startswith(f"data.txt:{bad_line}:"), err
    assert f"has shape {found} here, but the program declares" in err


def test_data_that_agrees_with_itself_but_not_the_program_blames_line_1(run_cli_batch, linear):
    (linear / "data.txt").write_text("{x: 1, y: 2}\n{x: 2, y: 1}\n")
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "ling.tf", "data.txt"]], cwd=linear)
    assert code == 2 and err.startswith("data.txt:1:2: error: variable 'x' has shape [] "
                                        "here, but the program declares [3]"), err


def test_loading_without_a_program_still_compares_lines(linear):
    (linear / "data.txt").write_text("{x: 1, y: 2}\n{x: [1, 2, 3], y: 1}\n")
    with pytest.raises(tenflang.TenflangError, match="here but \\[\\] in line 1") as caught:
        tenflang.load_examples(str(linear / "data.txt"))
    assert caught.value.location.line == 2


# ----------------------------------------------------------------------------- tfcompiler --memory

MEMORY_MISTAKES = [
    (["s.tf", "--memory", "--batch", "0"],
     "Invalid value for '--batch': 0 is not in the range x>=1."),
    (["s.tf", "--memory", "--batch", "-3"],
     "Invalid value for '--batch': -3 is not in the range x>=1."),
    (["s.tf", "--memory", "--batch", "many"], "Invalid value for '--batch': 'many' is not a valid integer"),
    (["s.tf", "--memory", "--dtype", "float16"],
     "Invalid value for '--dtype': 'float16' is not one of 'float64', 'float32'."),
    (["s.tf", "--batch", "4"],
     "error: --batch sets up the --memory table: add --memory, or leave out --batch"),
    (["s.tf", "--dtype", "float32"],
     "error: --dtype sets up the --memory table: add --memory, or leave out --dtype"),
    (["s.tf", "--memory", "--check"], "error: --check only validates the program: it writes no "
                                      "GCP, graph or report; leave out --memory, or --check"),
    (["missing.tf", "--memory"], "missing.tf: error: cannot read program: No such file or directory"),
]


@pytest.mark.parametrize("args, message", MEMORY_MISTAKES, ids=[" ".join(a) for a, _ in MEMORY_MISTAKES])
def test_memory_options_given_wrong_are_usage_errors(run_cli_batch, work, args, message):
    [(code, out, err)] = run_cli_batch([["tfcompiler", *args]], cwd=work)
    assert code == 2 and out == "", err
    assert message in err and no_traceback(err)
