"""Watching a training run: the typical first command (`tenflang train
SHAPE DATA`, compiling on the fly), the parameter count."""
from __future__ import annotations

import tenflang

from support.commands import run_cli, run_cli_batch
from support.paths import SAMPLES_DIR
from support.programs import sample_gcp

LINEAR = SAMPLES_DIR / "linear_regression.tf"
LINEAR_DATA = SAMPLES_DIR / "linear_train.txt"


def test_train_compiles_a_shape_program_first_and_says_so(tmp_path):
    """The weights equal those trained from the GCP tfcompiler writes."""
    (tmp_path / "gcp.tf").write_text(tenflang.print_program(sample_gcp("linear_regression.tf")))
    common = ["--max-iters", "30", "--quiet"]
    (code, shaped, err), (code2, compiled, err2) = run_cli_batch([
        ["tenflang", "train", LINEAR, LINEAR_DATA, *common],
        ["tfweightcalc", tmp_path / "gcp.tf", LINEAR_DATA, *common]])
    assert code == 0 and code2 == 0, err + err2
    assert err.splitlines()[0] == (f"{LINEAR} is a shape program: compiling it to its GCP first "
                                   "(as tfcompiler does)")
    assert "is a shape program" not in err2
    assert shaped == compiled


def test_a_program_that_is_neither_gets_tfcompilers_message(tmp_path):
    (tmp_path / "noloss.tf").write_text("declare input x\ndeclare weight w\ndeclare output o\n"
                                        "define o = mul w x\n")
    code, out, err = run_cli(["tenflang", "train", tmp_path / "noloss.tf", LINEAR_DATA])
    assert code == 2 and out == "" and "Traceback" not in err
    assert "declares no loss; tfcompiler needs at least one 'declare loss'" in err


def test_stats_count_the_parameters():
    code, _, err = run_cli(["tfcompiler", SAMPLES_DIR / "mlp_digits.tf", "--stats", "-o",
                            "/dev/null"])
    row = next(line for line in err.splitlines() if line.startswith("parameters"))
    assert code == 0 and row.split()[-2:] == ["2,410", "2,410"]     # 32·64 + 32 + 10·32 + 10
