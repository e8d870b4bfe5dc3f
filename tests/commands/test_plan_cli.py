"""`tenflang plan`: the generated Python a program runs as."""
from __future__ import annotations

import pytest

from support.paths import ROOT
from support.programs import ORIGINAL_EXAMPLE_FILE as ORIGINAL


def test_plan_shows_each_step_with_its_tenflang_line(run_cli):
    code, out, err = run_cli(["tenflang", "plan", ORIGINAL])
    assert code == 0, err
    assert out.startswith("def run(env, xp, F, dtype):")
    assert "    z = xp.multiply(x, w)\n" in out               # its own names, no comment needed
    assert "xp.power(diff, 2.0, out=diff)    # lambda = pow diff 2" in out    # in place
    assert "return {'o': o, 'lambda': diff}" in out
    compile(out, "plan", "exec")          # it is valid Python


def test_plan_without_an_exp_output_drops_the_loss(run_cli):
    code, out, _ = run_cli(["tenflang", "plan", ORIGINAL, "--without", "y"])
    assert code == 0
    assert "lambda" not in out and "o = F.logistic(xp, z)" in out


@pytest.mark.parametrize("name", ["yy", "w"])
def test_plan_without_a_name_that_is_not_a_data_variable_is_an_error(run_cli, name):
    """A typo (or a weight) used to print the whole plan, exit 0."""
    code, out, err = run_cli(["tenflang", "plan", ORIGINAL, "--without", name])
    assert code == 2 and out == "", err
    assert (f"error: --without {name}: not a data variable (input or exp_output) of the "
            "program; its data variables: x, y") in err


def test_plan_of_a_gcp_with_reduce_sums_inside_products(run_cli, tmp_path):
    gcp = tmp_path / "gcp.tf"
    code, _, err = run_cli(["tfcompiler", ROOT / "samples" / "softmax_digits.tf", "-o", gcp])
    assert code == 0, err
    code, out, err = run_cli(["tenflang", "plan", gcp, "--reduce", "mean"])
    assert code == 0, err
    assert "xp.matmul(" in out and ".T, " in out     # d/dW = outer d/dscores x, as one GEMM


def test_plan_names_are_the_programs_own_made_python_and_unique(run_cli, tmp_path):
    program = tmp_path / "p.tf"
    program.write_text("declare input x\ndeclare weight xp\ndeclare intvar h.t\n"
                       "declare intvar h_t\ndeclare output lambda\ndeclare output o\n"
                       "define h.t = mul x xp\ndefine h_t = exp h.t\n"
                       "define lambda = exp h_t\ndefine o = add h.t lambda\n")   # a keyword too
    code, out, err = run_cli(["tenflang", "plan", program])
    assert code == 0, err
    assert "xp_ = env['xp']" in out and "h_t = xp.multiply(x, xp_)    # h.t = mul x xp" in out
    assert "h_t_2 = xp.exp(h_t)    # h_t = exp h.t" in out
    assert "xp.exp(h_t_2, out=h_t_2)    # lambda = exp h_t" in out         # in place
    assert "return {'lambda': h_t_2, 'o': h_t}" in out
    compile(out, "plan", "exec")


def test_plan_of_a_bad_program_is_a_clear_error(run_cli, tmp_path):
    bad = tmp_path / "bad.tf"
    bad.write_text("declare input x\ndefine y = mul x x\n")
    code, out, err = run_cli(["tenflang", "plan", bad])
    assert code == 2 and "bad.tf:2:8: error:" in err and "Traceback" not in err


@pytest.mark.parametrize("sample", ["lenet_digits.tf", "inception_digits.tf", "resnet_digits.tf"])
def test_each_comment_is_the_steps_tenflang_line_as_a_person_writes_it(run_cli, sample):
    """Attributes as written, trailing defaults left out: `maxpool2d a1.4 2`, never
    the filled-in `maxpool2d a1.4 2 None 0`, which is not TenFlang."""
    import re

    from tenflang.ops import TABLE
    code, source, err = run_cli(["tenflang", "plan", ROOT / "samples" / sample])
    assert code == 0, err
    comments = [c for line in source.splitlines() if "    # " in line
                for c in line.split("    # ", 1)[1].split("; ")]
    lines = [c for c in comments if re.match(r"[\w./]+ = \w", c)]
    assert any(" maxpool2d " in c or " conv2d " in c for c in lines)
    for line in lines:
        assert "None" not in line and not line.endswith(" 0"), line
        words = re.findall(r"\[[^\]]*\]|\S+", line.split(" = ", 1)[1])
        op = TABLE[words[0]]
        assert len(words) - 1 <= op.arity + len(op.attrs), line
