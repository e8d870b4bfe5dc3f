"""A fold keeping every k-th state (`compile_gradient(..., keep_every=k)`,
`tfcompiler --keep-every K`, docs/design.md §2.5.1): its GCP reads
`scan_checkpoints` and a `scan_back` with k; its gradients are those of the
fold keeping every state (the states computed again are the same numbers);
a scan whose every state is used is left alone; the memory table shows the
kept rows; k < 1 is refused."""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from support.kept_loop_programs import PROGRAMS, loop_data, run_gradients
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError

STEPS = 23


def gcp(name: str, every: int, reread: bool = True):
    program = tenflang.parse(PROGRAMS[name](STEPS, True), "t.tf", shape_program=True,
                             loops="keep")
    made = compile_gradient(program, keep_every=every)
    return tenflang.parse(tenflang.print_program(made), "g.tf") if reread else made


@pytest.mark.parametrize("name", ["rnn_fold", "charlm", "lstm_digits", "fold_over_scan"])
@pytest.mark.parametrize("every", [2, 5, 23, 40])
@pytest.mark.parametrize("reduce", ["mean", None])
def test_gradients_equal_those_keeping_every_state(name, every, reduce):
    whole = gcp(name, 1)
    data, weights = loop_data(whole, np.random.default_rng(every), 5, 0.3)
    expected = run_gradients(whole, data, weights, reduce)
    got = run_gradients(gcp(name, every), data, weights, reduce)
    assert any(np.any(v != 0) for v in expected.values())
    for w in expected:
        np.testing.assert_allclose(got[w], expected[w], rtol=1e-12, atol=1e-14, err_msg=w)


def test_the_gcp_keeps_every_kth_state_of_a_fold_and_no_fewer_of_a_scan():
    text = tenflang.print_program(gcp("fold_over_scan", 5, reread=False))
    lines = [line for line in text.splitlines() if line.startswith("define ")]
    assert [line for line in lines if " = scan" in line and "scan_back" not in line] == [
        "define hs = scan cell h0 xs W U b",                 # its every state is read
        "define gT.states = scan_checkpoints mix g0 hs V 5"]
    assert f"declare intvar gT.states [{-(-STEPS // 5)}, 2]" in text
    backs = [line for line in lines if "= scan_back " in line]
    assert len(backs) == 2 and sum(line.endswith(" 5") for line in backs) == 1


def test_keeping_every_state_is_the_default_gcp():
    program = tenflang.parse(PROGRAMS["rnn_fold"](STEPS, True), "t.tf", shape_program=True)
    assert (tenflang.print_program(compile_gradient(program, keep_every=1))
            == tenflang.print_program(compile_gradient(program)))


def test_the_memory_table_holds_the_kept_states(run_cli, tmp_path):
    (tmp_path / "f.tf").write_text(PROGRAMS["rnn_fold"](100, False))
    rows = {}
    for every in (1, 10):
        code, out, err = run_cli(["tfcompiler", "f.tf", "--keep-every", str(every), "--memory",
                                  "--batch", "8", "-o", f"g{every}.tf"], cwd=tmp_path)
        assert code == 0, err
        rows[every] = next(line for line in err.splitlines() if " hT.states " in line)
    assert "8 × [100, 4]" in rows[1] and "8 × [10, 4]" in rows[10]
    assert "scan_checkpoints cell h0 xs W U b 10" in (tmp_path / "g10.tf").read_text()


def test_keep_every_below_one_is_refused(run_cli, tmp_path):
    program = tenflang.parse(PROGRAMS["rnn_fold"](STEPS, True), "t.tf", shape_program=True)
    with pytest.raises(TenflangError, match="keep_every: a loop keeps every k-th state, k ≥ 1; "
                       "got 0"):
        compile_gradient(program, keep_every=0)
    (tmp_path / "f.tf").write_text(PROGRAMS["rnn_fold"](STEPS, True))
    code, out, err = run_cli(["tfcompiler", "f.tf", "--keep-every", "0"], cwd=tmp_path)
    assert (code, out) == (2, "") and "--keep-every" in err and "0" in err


def test_a_gcp_attribute_that_is_not_a_whole_number_is_refused():
    text = tenflang.print_program(gcp("rnn_fold", 5, reread=False))
    bad = text.replace("scan_checkpoints cell h0 xs W U b 5", "scan_checkpoints cell h0 xs W U b 2.5")
    with pytest.raises(TenflangError, match="'scan_checkpoints' keeps every k-th state: k is a "
                       "whole number ≥ 1, got 2.5"):
        tenflang.parse(bad, "g.tf")
