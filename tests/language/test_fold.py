"""`fold` and `scan` (docs/design.md §2.4.2): loops over a sequence unrolled when the
program is read (tenflang/lang/loops.py): loops of at most `limits.UNROLLED_STEPS`
steps, and any loop read with loops="unroll" (kept loops: test_kept_loops.py).

A loop must mean exactly the program a user would write by hand, one macro
call per step: the GCPs are compared line for line after renaming, at -O0 and
-O1, with macros calling macros inside the cell.  The steps' names, the
gradients (finite differences), `tenflang fmt`, the highlighter, the
expansion limit, the compile cost (linear in the steps) and every way a loop
can be wrong (message, line:column, notes, exit status) are checked here.
"""
from __future__ import annotations

import time

import numpy as np
import pytest

import tenflang
from support.commands import run_cli, run_cli_batch
from support.gradcheck import check_gradients
from support.programs import gcp, src
from tenflang.base import limits
from tenflang.base.errors import TenflangError
from tenflang.lang import check, print_program
from tenflang.lang.syntax_tree import Declare, Define, Var
from tenflang.lang.formatter import format_source

CELLS = src("""
    macro dense x W b -> y
      define y = add (matmul W x) b
    end
    macro cell h x W U b -> hn
      declare intvar a
      define a = dense x W b
      define hn = tanh (add a (matmul U h))
    end
    """)


def head(steps: int, target: str = "hT", shape: str = "") -> str:
    return CELLS + src(f"""
        declare input xs [{steps}, 3]
        declare weight W [2, 3]
        declare weight U [2, 2]
        declare weight b [2]
        declare weight h0 [2]
        declare output {target}{shape}
        declare loss l
        """)


def by_hand(steps: int, target: str, last: str) -> str:
    """The loop written out: one call per step, then `last` (the fold's copy
    or the scan's stacking) and the loss."""
    text = head(steps, target) + "".join(f"declare intvar s{t}\n" for t in range(steps))
    prev = "h0"
    for t in range(steps):
        text += f"define s{t} = cell {prev} (index xs {t}) W U b\n"
        prev = f"s{t}"
    return text + last + f"define l = sum {target}\n"


def canonical(program) -> tuple[list[str], list[tuple]]:
    """The definitions as text and the declarations, every name replaced by
    its order of first appearance in the definitions (`v0`, `v1`, ...)."""
    names: dict[str, str] = {}

    def name(n: str) -> str:
        return names.setdefault(n, f"v{len(names)}")
    lines = []
    for s in program.statements:
        if isinstance(s, Define):
            target = name(s.name)
            operands = [name(o.name) if isinstance(o, Var) else repr(o) for o in s.operands]
            lines.append(f"{target} = {s.op} {' '.join(operands)} {s.attrs}")
    declared = sorted((s.kind, names.get(s.name, s.name), s.shape)
                      for s in program.statements if isinstance(s, Declare))
    return lines, declared


@pytest.mark.parametrize("level", [0, 1])
def test_fold_is_the_program_written_by_hand(level):
    loop = head(4) + "define hT = fold cell h0 xs W U b\ndefine l = sum hT\n"
    hand = by_hand(4, "hT", "define hT = s3\n")
    assert canonical(gcp(loop, level)) == canonical(gcp(hand, level))


@pytest.mark.parametrize("level", [0, 1])
def test_scan_is_the_program_written_by_hand(level):
    loop = head(5, "hs") + "define hs = scan cell h0 xs W U b\ndefine l = sum hs\n"
    rows = [f"(reshape s{t} [1, 2])" for t in range(5)]
    stacked = f"concat (concat (concat {rows[0]} {rows[1]}) (concat {rows[2]} {rows[3]})) {rows[4]}"
    hand = by_hand(5, "hs", f"define hs = {stacked}\n")
    assert canonical(gcp(loop, level)) == canonical(gcp(hand, level))


def test_step_names_and_shapes():
    program = tenflang.parse(head(3) + "declare output hs\ndefine hT = fold cell h0 xs W U b\n"
                             "define hs = scan cell h0 xs W U b\ndefine l = sum hT\n")
    shapes = check(program)
    defined = [s.name for s in program.statements if isinstance(s, Define)]
    for t in range(3):
        assert f"hT.{t}" in defined and shapes[f"hT.{t}"] == (2,)
        assert f"hT.{t}.a" in defined          # the macro's local, below its step
    assert "define hT.2.1 = index xs 2" in print_program(program)
    assert "define hT = hT.2" in print_program(program)
    assert shapes["hs"] == (3, 2)


def test_scan_stacks_the_states_a_fold_ends_with():
    program = tenflang.parse(head(6) + "declare output hs\ndefine hT = fold cell h0 xs W U b\n"
                             "define hs = scan cell h0 xs W U b\ndefine l = sum hT\n")
    rng = np.random.default_rng(1)
    data = {"xs": rng.normal(size=(3, 6, 3)), "W": rng.normal(size=(2, 3)),
            "U": rng.normal(size=(2, 2)), "b": rng.normal(size=2), "h0": rng.normal(size=2)}
    out = tenflang.interp.interpret(program, data, batched=True)
    h = np.broadcast_to(data["h0"], (3, 2))
    for t in range(6):                  # the cell in numpy
        a = data["xs"][:, t] @ data["W"].T + data["b"]
        h = np.tanh(a + h @ data["U"].T)
        np.testing.assert_allclose(out["hs"][:, t], h, rtol=1e-12)
    np.testing.assert_allclose(out["hT"], h, rtol=1e-12)


def test_a_nested_operand_is_computed_once_and_names_stay_unique():
    program = tenflang.parse(head(3) + "define hT = fold cell (tanh h0) (mul xs 2) W U b\n"
                             "define l = sum hT\n")
    defines = [s for s in program.statements if isinstance(s, Define)]
    assert [d.op for d in defines].count("tanh") == 3 + 1        # one per step, one for h0
    assert sum(d.op == "mul" for d in defines) == 1
    names = [d.name for d in defines]
    assert len(names) == len(set(names))


def test_finite_differences_through_a_folded_cell():
    source = head(3) + "define hT = fold cell h0 xs W U b\ndefine l = sum (mul hT hT)\n"
    rng = np.random.default_rng(2)
    weights = {"W": rng.normal(size=(2, 3)), "U": rng.normal(size=(2, 2)),
               "b": rng.normal(size=2), "h0": rng.normal(size=2)}
    check_gradients(source, {"xs": rng.normal(size=(4, 3, 3))}, weights)


def test_fmt_keeps_the_one_line():
    source = head(3) + "define hT=fold   cell h0 xs W U b  # the last state\ndefine l = sum hT\n"
    out = format_source(source)
    assert "define hT = fold cell h0 xs W U b  # the last state\n" in out
    assert format_source(out) == out


def test_highlighter_marks_the_loop_and_its_macro():
    from pygments.token import Keyword, Name
    from tenflang.lang.highlight import TenflangLexer
    tokens = [(t, v) for t, v in TenflangLexer().get_tokens("define hs = scan cell h0 xs W\n")
              if v.strip()]
    assert tokens[3:6] == [(Keyword, "scan"), (Name.Function, "cell"), (Name.Variable, "h0")]


def test_the_expansion_limit_applies(monkeypatch):
    monkeypatch.setattr(limits, "MAX_EXPANDED_STATEMENTS", 200)
    with pytest.raises(TenflangError, match="this fold of 50 steps expands the program to more "
                       "than 200 statements"):
        tenflang.parse(head(50) + "define hT = fold cell h0 xs W U b\n", loops="unroll")


FOLD = src("""
    macro cell h x w -> hn
      define hn = tanh (add (mul h w) x)
    end
    declare input xs [200]
    declare weight w
    declare weight h0
    declare exp_output y
    declare output o
    declare loss l
    define o = fold cell h0 xs w
    define l = pow (sub o y) 2
    """)


def test_tfcompiler_writes_no_gcp_that_the_limit_refuses(tmp_path, monkeypatch):
    """A fold within the limit compiled to a GCP past it (backpropagation adds
    statements), which tfweightcalc then refused: the one limit is applied to
    the GCP as it is made, exit 2, and nothing is written."""
    from click.testing import CliRunner
    from tenflang.cli import tfcompiler, tfweightcalc
    (tmp_path / "fold.tf").write_text(FOLD)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(tfcompiler, ["fold.tf", "-o", "big.tf", "--unroll"]).exit_code == 0
    size = len(tenflang.parse((tmp_path / "big.tf").read_text()).statements)
    monkeypatch.setattr(limits, "MAX_EXPANDED_STATEMENTS", size - 1)
    assert len(tenflang.parse(FOLD).statements) < size - 1        # the program itself fits
    result = CliRunner().invoke(tfweightcalc, ["big.tf", "d.txt"])
    assert result.exit_code == 2 and f"more than {size - 1} statements" in result.output
    result = CliRunner().invoke(tfcompiler, ["fold.tf", "-o", "gcp.tf", "--unroll"])
    assert result.exit_code == 2, result.output
    assert result.output == f"fold.tf: error: the GCP of this program would have {size} " \
        f"statements, more than {size - 1} (the limit a program is read with); shorten its " \
        "loops (fold, scan) or its macros' expansion\n"
    assert not (tmp_path / "gcp.tf").exists()
    monkeypatch.setattr(limits, "MAX_EXPANDED_STATEMENTS", size)
    assert CliRunner().invoke(tfcompiler, ["fold.tf", "-o", "gcp.tf", "--unroll"]).exit_code == 0


def compile_cost(steps: int) -> tuple[int, float]:
    source = head(steps) + "define hT = fold cell h0 xs W U b\ndefine l = sum hT\n"
    start = time.process_time()
    text = tenflang.print_program(gcp(source, 1, loops="unroll"))
    return text.count("\n"), time.process_time() - start


def test_compile_is_linear_in_the_steps():
    """-O1's CSE and folding included: 10x the steps, 10x the lines, and
    (generously, the machine being shared) well under 100x the time."""
    compile_cost(10)                                    # warm the caches
    small, large = compile_cost(300), compile_cost(3000)
    per_step = (large[0] - small[0]) / 2700
    assert per_step == int(per_step)
    assert small[0] - 300 * per_step < 40               # a constant part, then steps
    assert large[1] < 25 * max(small[1], 0.05)


# --- errors --------------------------------------------------------------------------------

ERR_HEAD = CELLS + src("""
    macro grow h x -> hn
      define hn = concat h x
    end
    declare input xs [4, 3]
    declare input s
    declare weight W [2, 3]
    declare weight U [2, 2]
    declare weight b [2]
    declare weight h0 [2]
    declare weight h3 [3]
    declare output hT
    declare output hs [5, 2]
    declare loss l
    """)
LOOP_LINE = ERR_HEAD.count("\n") + 1        # the line after the head
ERRORS = {
    # name: (loop line, (line, column), message, notes)
    "unknown_macro": ("define hT = fold cel h0 xs W U b", (LOOP_LINE, 18),
                      "'cel' is not a macro defined before this line; 'fold' calls a macro; "
                      "did you mean 'cell'?", ()),
    "wrong_arity": ("define hT = fold cell h0 xs W U", (LOOP_LINE, 18),
                    "macro 'cell' takes 5 operands; 'fold' passes it the state, a row of 'xs' "
                    "and 2 more, 4 in all", ()),
    "unknown_length": ("define hT = fold cell h0 s W U b", (LOOP_LINE, 26),
                       "'fold' runs over the first axis of 's', which is a scalar (shape []): "
                       "the length of the sequence is unknown", ()),
    "state_changes_shape": ("define hT = fold grow h0 xs", (10, 10),
                            "the state of this fold changes shape at step 0: macro 'grow' gives "
                            "[5] from a state of [2]", ((LOOP_LINE, 13, "in step 0 of this fold"),)),
    "error_inside_a_step": ("define hT = fold cell h3 xs W U b", (7, 28),
                            "matmul [2, 2] × [3]: inner dimensions differ", ((LOOP_LINE, 13, "in step 0 of this fold"),)),
    "mismatched_length": ("define hs = scan cell h0 xs W U b", (LOOP_LINE, 8),
                          "'hs' is declared with shape [5, 2] but its definition gives [4, 2]",
                          ()),
    "loop_inside_an_expression": ("define hT = tanh (fold cell h0 xs W U b)", (LOOP_LINE, 19),
                                  "'fold' is a definition of its own", ()),
    "not_a_macro": ("define hT = scan tanh h0 xs", (LOOP_LINE, 18),
                    "'tanh' is not a macro defined before this line; 'scan' calls a macro", ()),
    # a nested operand is shown as written, never as the name it is lowered to (hT.1)
    "macro_is_an_expression": ("define hT = fold (cell h0 xs W U b) h0 xs W U b", (LOOP_LINE, 18),
                               "'fold' calls a macro: its first operand must be the name of a "
                               "macro, not the expression (cell h0 xs W U b)", ()),
    "sequence_is_a_scalar_expression": ("define hT = fold cell h0 (sum xs) W U b",
                                        (LOOP_LINE, 26), "'fold' runs over the first axis of "
                                        "(sum xs), which is a scalar (shape []): a sequence needs "
                                        "a first axis, one row per step", ()),
    "wrong_arity_of_an_expression": ("define hT = fold cell h0 (mul xs 2) W U", (LOOP_LINE, 18),
                                     "macro 'cell' takes 5 operands; 'fold' passes it the state, "
                                     "a row of (mul xs 2) and 2 more, 4 in all", ()),
}


@pytest.fixture(scope="module")
def error_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fold_errors")
    for name, (line, *_) in ERRORS.items():
        (folder / f"{name}.tf").write_text(ERR_HEAD + line + "\ndefine l = sum hT\n")
    (folder / "in_a_macro.tf").write_text(CELLS + "macro m xs h0 W U b -> r\n"
                                          "  define r = fold cell h0 xs W U b\nend\n")
    results = run_cli_batch([["tfcompiler", f"{n}.tf"] for n in [*ERRORS, "in_a_macro"]],
                            cwd=folder)
    return dict(zip([*ERRORS, "in_a_macro"], results))


@pytest.mark.parametrize("name", list(ERRORS))
def test_loop_errors_are_located(name, error_results):
    _, (line, column), message, notes = ERRORS[name]
    code, out, err = error_results[name]
    assert (code, out) == (2, ""), err
    lines = err.rstrip("\n").split("\n")
    assert lines[0].startswith(f"{name}.tf:{line}:{column}: error: {message}"), err
    assert [x for x in lines if ": note: " in x] == [
        f"{name}.tf:{n_line}:{n_column}: note: {text}" for n_line, n_column, text in notes], err
    assert "Traceback" not in err and "hT." not in err      # no generated name


def test_a_loop_inside_a_macro_is_refused(error_results):
    code, _, err = error_results["in_a_macro"]
    assert code == 2
    assert err.startswith("in_a_macro.tf:10:14: error: 'fold' is written in the program, not "
                          "inside a macro ('m')"), err


@pytest.mark.parametrize("loop", ["fold", "scan"])
def test_a_loop_over_an_op_in_a_program_without_macros(tmp_path, loop):
    """Without a macro the program skips macro expansion: the loop is still
    read as a loop, never as an unknown op."""
    path = tmp_path / "p.tf"
    path.write_text("declare input xs [4, 3]\ndeclare weight h0 [3]\ndeclare output h\n"
                    f"define h = {loop} add h0 xs\n")
    for command in (["tenflang", "check", path], ["tfevaluate", path, path, path]):
        code, out, err = run_cli(command)
        assert (code, out) == (2, ""), err
        assert err.startswith(f"{path}:4:{13 + len(loop)}: error: 'add' is not a macro defined "
                              f"before this line; '{loop}' calls a macro"), err
        assert "unknown op" not in err


@pytest.mark.parametrize("state,problem", [
    ([1] * limits.MAX_RANK, f"would have {limits.MAX_RANK + 1} axes per example; "
                            f"the limit is {limits.MAX_RANK}"),
    ([50000, 1000], f"would hold {50 * 50000 * 1000} elements per example ([50, 50000, 1000])")])
def test_a_scan_too_large_to_stack_names_its_target(state, problem, run_cli, tmp_path):
    """The stacked states break a limit: the message names the scan's target
    (as the user wrote it), not the `reshape` its stacking generates."""
    from tenflang.lang.printer import shape
    steps = 2 if len(state) > 2 else 50
    (tmp_path / "p.tf").write_text(src(f"""
        macro cell h x -> hn
          define hn = add h x
        end
        declare input xs {shape([steps, *state[1:]])}
        declare weight h0 {shape(state)}
        declare intvar hs
        declare loss l
        define hs = scan cell h0 xs
        define l = sum hs
        """))
    code, out, err = run_cli(["tfcompiler", "p.tf"], cwd=tmp_path)
    assert (code, out) == (2, ""), err
    assert err.startswith(f"p.tf:8:8: error: 'hs' (the {steps} states of this scan, stacked) "
                          f"{problem}"), err
    assert "reshape" not in err


def test_one_lstm_step_matches_pytorch():
    """samples/lstm_digits.tf's cell, folded over one row, against
    torch.nn.LSTMCell (gates i, f, g, o in its order; its two biases are b):
    the new (h, c) and the gradients of W, U, b and the initial state."""
    torch = pytest.importorskip("torch")
    from support.paths import SAMPLES_DIR
    cell = SAMPLES_DIR.joinpath("lstm_digits.tf").read_text().split("\nend\n")[0] + "\nend\n"
    source = cell + src("""
        declare input x [1, 8]
        declare input r [2, 32]
        declare weight W [128, 8]
        declare weight U [128, 32]
        declare weight b [128]
        declare weight s0 [2, 32]
        declare output s
        declare loss l
        define s = fold lstm s0 x W U b
        define l = sum (mul s r)
        """)
    rng = np.random.default_rng(7)
    data = {"x": rng.normal(size=(3, 1, 8)), "r": rng.normal(size=(3, 2, 32))}
    weights = {"W": 0.3 * rng.normal(size=(128, 8)), "U": 0.3 * rng.normal(size=(128, 32)),
               "b": 0.3 * rng.normal(size=128), "s0": rng.normal(size=(2, 32))}
    program = tenflang.parse(source, "lstm.tf", shape_program=True)
    state = tenflang.interp.interpret(program, {**data, **weights}, results=["s"],
                                      batched=True)["s"]
    from support.gradcheck import gcp_gradients
    ours = gcp_gradients(program, data, weights, 1)
    reference = torch.nn.LSTMCell(8, 32, dtype=torch.float64)
    t = {k: torch.tensor(v, requires_grad=True) for k, v in weights.items()}
    with torch.no_grad():
        reference.weight_ih.copy_(t["W"])
        reference.weight_hh.copy_(t["U"])
        reference.bias_ih.copy_(t["b"])
        reference.bias_hh.zero_()
    h0, c0 = t["s0"][0].expand(3, 32), t["s0"][1].expand(3, 32)
    h, c = reference(torch.from_numpy(data["x"][:, 0]), (h0, c0))
    np.testing.assert_allclose(state[:, 0], h.detach().numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(state[:, 1], c.detach().numpy(), rtol=1e-12, atol=1e-14)
    r = torch.from_numpy(data["r"])
    ((h * r[:, 0]).sum() + (c * r[:, 1]).sum()).div(3).backward()
    grads = {"W": reference.weight_ih.grad, "U": reference.weight_hh.grad,
             "b": reference.bias_ih.grad, "s0": t["s0"].grad}
    for name, grad in grads.items():
        np.testing.assert_allclose(ours[name], grad.numpy(), rtol=1e-10, atol=1e-12,
                                   err_msg=name)
