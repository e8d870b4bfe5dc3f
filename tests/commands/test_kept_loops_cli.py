"""Kept loops through the commands: `tfcompiler --unroll` gives the unrolled
GCP and the default the kept one, `tfcompiler --memory` lists a loop's
targets at their line, `tenflang export` unrolls a kept loop (the API
refuses one: tests/compiler/test_kept_loop_gcp.py), and a GCP whose
`scan_back` names no macro is refused with exit status 2."""
from __future__ import annotations

import re

import numpy as np
import pytest

import tenflang
from support.paths import SAMPLES_DIR


@pytest.fixture(scope="module")
def results(tmp_path_factory, run_cli_batch_module):
    folder = tmp_path_factory.mktemp("kept_cli")
    (folder / "charlm.tf").write_text((SAMPLES_DIR / "charlm.tf").read_text())
    program = tenflang.parse((SAMPLES_DIR / "charlm.tf").read_text(), "c.tf", shape_program=True)
    rng = np.random.default_rng(0)
    tenflang.save_weights(str(folder / "w.txt"), {
        n: 0.3 * rng.normal(size=d.shape or ()) for n, d in program.declarations().items()
        if d.kind == "weight"})
    (folder / "in.txt").write_text((SAMPLES_DIR / "charlm_test.txt").read_text())
    commands = {"default": ["tfcompiler", "charlm.tf", "-o", "kept.tf"],
                "unroll": ["tfcompiler", "--unroll", "charlm.tf", "-o", "unrolled.tf"],
                "memory": ["tfcompiler", "--memory", "charlm.tf", "-o", "g.tf"],
                "export": ["tenflang", "export", "charlm.tf", "w.txt", "-o", "m.onnx",
                           "--dtype", "float64", "--verify", "in.txt"]}
    done = dict(zip(commands, run_cli_batch_module(list(commands.values()), cwd=folder)))
    return folder, done


@pytest.fixture(scope="module")
def run_cli_batch_module():
    from support.commands import run_cli_batch
    return run_cli_batch


def test_unroll_gives_the_unrolled_gcp_and_the_default_the_kept_one(results):
    folder, done = results
    assert done["default"][0] == 0 and done["unroll"][0] == 0, done
    kept, unrolled = (folder / "kept.tf").read_text(), (folder / "unrolled.tf").read_text()
    assert kept.count("= scan_back adjoint/gru ") == 1 and "macro adjoint/gru " in kept
    assert "scan_back" not in unrolled and "macro " not in unrolled and " scan " not in unrolled
    assert unrolled.count("\n") > 4 * kept.count("\n")       # 16 steps written out


def test_memory_lists_the_scan_and_every_scan_back_target(results):
    folder, done = results
    code, _, err = done["memory"]
    assert code == 0, err
    rows = {m.group(2): int(m.group(1)) for m in re.finditer(r"^\s*(\d+)\s+(\S+)\s", err, re.M)}
    gcp = (folder / "g.tf").read_text().splitlines()
    scan = next(i for i, line in enumerate(gcp, 1) if line.startswith("define h.states = scan"))
    back = next(i for i, line in enumerate(gcp, 1) if "= scan_back " in line)
    targets = gcp[back - 1].split(" = ")[0].removeprefix("define ").split(", ")
    assert len(targets) == 5
    assert rows.get("h.states") == scan, err
    assert set(targets) <= rows.keys(), err        # a row for each target
    for target in targets:              # each at the line that defines it, the scan_back
        assert rows.get(target) == back, (target, rows.get(target), back)


def test_export_unrolls_a_kept_loop(results):
    folder, done = results
    code, out, err = done["export"]
    assert code == 0, err
    assert (folder / "m.onnx").stat().st_size > 0
    assert "logp" in out and "Traceback" not in err
    assert "note: the loops over macro 'gru' are exported unrolled, one set of nodes per step" \
        in err


def test_a_gcp_whose_scan_back_names_no_macro_is_refused(results, run_cli):
    folder, _ = results
    text = (folder / "kept.tf").read_text().replace("scan_back adjoint/gru", "scan_back gru2")
    (folder / "bad.tf").write_text(text)
    code, out, err = run_cli(["tfweightcalc", "bad.tf", "in.txt"], cwd=folder)
    assert (code, out) == (2, ""), err
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "= scan_back " in s)
    assert re.match(rf"bad\.tf:{line}:\d+: error: 'scan_back' takes the adjoint macro of a "
                    "loop's cell first", err), err


INDEXED = """macro cell h x E -> hn
  define hn = tanh (add h (take E (add x OFFSET)))
end
declare input xs [20]
declare weight E [4, 3]
declare weight h0 [3]
declare intvar h
declare loss l
define h = fold cell h0 xs E
define l = sum h
"""


def test_a_bad_index_the_cell_reads_from_the_data_is_refused_with_the_data(run_cli, tmp_path):
    """The cell's `take` reads the loop's row: the data file's indices are
    checked before the run, at their line and column, as for an unrolled loop."""
    (tmp_path / "p.tf").write_text(INDEXED.replace("(add x OFFSET)", "x"))
    (tmp_path / "d.txt").write_text("{xs: [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 7, 2, 3, "
                                    "0, 1, 2, 3]}\n")
    assert run_cli(["tfcompiler", "p.tf", "-o", "g.tf"], cwd=tmp_path)[0] == 0
    assert "scan_back" in (tmp_path / "g.tf").read_text()
    code, out, err = run_cli(["tfweightcalc", "g.tf", "d.txt", "--max-iters", "1", "-o", "w.txt"],
                             cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err.startswith("d.txt:1:2: error: variable 'xs' is 7.0: a row index for take must "
                          "be an integer in 0..3"), err
    assert not (tmp_path / "w.txt").exists()


def test_a_bad_index_a_cell_computes_names_the_step():
    """An index computed inside the cell is checked where it is taken: the
    message names the example and a note the step of the loop."""
    from tenflang.backprop import compile_gradient
    from tenflang.interp.planning.plan import make_plan
    from tenflang.interp.runtime.run import run_plan
    gcp = compile_gradient(tenflang.parse(INDEXED.replace("OFFSET", "1"), "p.tf",
                                          shape_program=True))
    xs = np.zeros((2, 20))
    xs[1, 13] = 3                                   # 3 + 1 names no row of E
    with pytest.raises(tenflang.TenflangError) as err:
        run_plan(make_plan(gcp, {"xs", "E", "h0"}, ["d/dE"]),
                 {"xs": xs, "E": np.ones((4, 3)), "h0": np.ones(3)}, reduce="mean")
    assert err.value.render() == ("error: take: row index 4.0 in example 1 (0-based) must be an "
                                  "integer in 0..3\nnote: in step 13 of the loop over macro "
                                  "'cell'")


def test_plan_shows_each_cell_after_the_plan(run_cli, tmp_path):
    (tmp_path / "p.tf").write_text(INDEXED.replace("(add x OFFSET)", "x"))
    assert run_cli(["tfcompiler", "p.tf", "-o", "g.tf"], cwd=tmp_path)[0] == 0
    code, out, err = run_cli(["tenflang", "plan", "g.tf", "--reduce", "mean"], cwd=tmp_path)
    assert code == 0, err
    assert "h_states = F.scan_1(xp, dtype, h0, xs, E)" in out
    assert re.search(r"= F\.scan_back_2\(xp, dtype, h_states, h0, xs, E, d_dh_states\)", out)
    cells = out.split("\n\n# ")[1:]
    assert [c.split(":")[0] for c in cells] == ["scan_1", "scan_back_2"]
    assert "macro 'adjoint/cell'" in cells[1] and "F.take(xp, E, x)" in cells[0]
