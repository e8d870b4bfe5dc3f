"""`take W i` and its adjoint `take_grad` (docs/design.md §2.3.2; tenflang/ops/embedding.py).

Checked against numpy's `W[i]` written here, finite differences (the op
table's gradient tests skip ops whose operand holds indices), the batch
against each example alone, PyTorch's `nn.Embedding` gradient (optional),
the memory a large table's gradient costs, and the errors: an index out of
range (through tfevaluate: message naming the example, exit status 2) and a
table of rank 0 (a located shape error).
"""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import tenflang
from support.gradcheck import check_gradients, gcp_gradients
from tenflang.base.errors import TenflangError
from tenflang.interp import interpret

EMBED = """declare input i {ishape}
declare input r {vshape}
declare weight W {wshape}
declare intvar v
declare loss l
define v = take W i
define l = sum (mul v r)
"""
CASES = [((5, 3), (4,)), ((6,), (2, 3)), ((4, 2, 2), ()), ((7, 3), (3, 2))]


def program_for(wshape, ishape) -> str:
    vshape = tuple(ishape) + tuple(wshape[1:])
    fmt = lambda s: "[" + ", ".join(map(str, s)) + "]"  # noqa: E731
    return EMBED.format(ishape=fmt(ishape), vshape=fmt(vshape), wshape=fmt(wshape))


def draw(wshape, ishape, batch=5, seed=0):
    rng = np.random.default_rng(seed)
    vshape = tuple(ishape) + tuple(wshape[1:])
    data = {"i": rng.integers(0, wshape[0], (batch,) + tuple(ishape)).astype(float),
            "r": rng.normal(size=(batch,) + vshape)}
    return data, {"W": rng.normal(size=wshape)}


@pytest.mark.parametrize("wshape,ishape", CASES)
def test_take_is_numpy_indexing_per_example(wshape, ishape):
    data, weights = draw(wshape, ishape)
    out = interpret(tenflang.parse(program_for(wshape, ishape)), {**data, **weights},
                    results=["v"], batched=True)
    for k in range(5):
        np.testing.assert_array_equal(out["v"][k], weights["W"][data["i"][k].astype(int)])


@pytest.mark.parametrize("wshape,ishape", CASES)
def test_finite_differences(wshape, ishape):
    data, weights = draw(wshape, ishape, seed=1)
    check_gradients(program_for(wshape, ishape), data, weights)


def test_take_grad_is_the_adjoint_of_take():
    """<take W i, g> = <W, take_grad g i W> for every W and g: take_grad is
    take's transpose (so the GCP's rule is right whatever the indices)."""
    rng = np.random.default_rng(2)
    W, g = rng.normal(size=(6, 3)), rng.normal(size=(4, 3))
    i = np.array([1.0, 4.0, 1.0, 0.0])
    source = ("declare input i [4]\ndeclare input g [4, 3]\ndeclare input W [6, 3]\n"
              "declare output v\ndeclare output u\n"
              "define v = take W i\ndefine u = take_grad g i W\n")
    out = interpret(tenflang.parse(source), {"i": i, "g": g, "W": W})
    assert np.isclose(np.sum(out["v"] * g), np.sum(W * out["u"]))
    expected = np.zeros((6, 3))
    np.add.at(expected, i.astype(int), g)
    np.testing.assert_allclose(out["u"], expected)


def test_a_batch_is_its_examples_alone():
    wshape, ishape = (7, 3), (3, 2)
    data, weights = draw(wshape, ishape, batch=4, seed=3)
    program = tenflang.parse(program_for(wshape, ishape), "t.tf", shape_program=True)
    together = gcp_gradients(program, data, weights, 1)["W"]
    alone = [gcp_gradients(program, {n: a[k:k + 1] for n, a in data.items()}, weights, 1)["W"]
             for k in range(4)]
    np.testing.assert_allclose(together, np.mean(alone, axis=0), rtol=1e-12)


def test_gradient_matches_pytorch_embedding():
    torch = pytest.importorskip("torch")
    wshape, ishape = (9, 4), (6,)
    data, weights = draw(wshape, ishape, batch=3, seed=4)
    program = tenflang.parse(program_for(wshape, ishape), "t.tf", shape_program=True)
    ours = gcp_gradients(program, data, weights, 1)["W"]
    table = torch.nn.Embedding(*wshape, dtype=torch.float64)
    with torch.no_grad():
        table.weight.copy_(torch.from_numpy(weights["W"]))
    out = table(torch.from_numpy(data["i"]).long())
    ((out * torch.from_numpy(data["r"])).sum() / 3).backward()       # the mean over examples
    np.testing.assert_allclose(ours, table.weight.grad.numpy(), rtol=1e-12)


def test_a_large_table_costs_the_rows_used():
    """50 000 × 64 table, 64 sequences of 100 tokens: the gradient's run
    allocates a few tables' worth, not one table per example (64 × 25.6 MB)."""
    n, d, batch, steps = 50_000, 64, 64, 100
    source = (f"declare input i [{steps}]\ndeclare input r [{steps}, {d}]\n"
              f"declare weight W [{n}, {d}]\ndeclare intvar v\ndeclare loss l\n"
              "define v = take W i\ndefine l = sum (mul v r)\n")
    rng = np.random.default_rng(5)
    data = {"i": rng.integers(0, n, (batch, steps)).astype(float),
            "r": rng.normal(size=(batch, steps, d))}
    weights = {"W": rng.normal(size=(n, d))}
    program = tenflang.parse(source, "t.tf", shape_program=True)
    tracemalloc.start()
    try:
        gradient = gcp_gradients(program, data, weights, 1)["W"]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    table = n * d * 8
    assert peak < 4 * table, f"peak {peak / 1e6:.0f} MB for a {table / 1e6:.0f} MB table"
    expected = np.zeros((n, d))
    np.add.at(expected, data["i"].astype(int).ravel(), data["r"].reshape(-1, d))
    np.testing.assert_allclose(gradient, expected / batch, rtol=1e-12)


def test_a_table_must_have_rows():
    with pytest.raises(TenflangError, match=r"t.tf:4:12: error: take \[\] × \[3\]: the table "
                       r"must have rank ≥ 1"):
        tenflang.parse("declare input i [3]\ndeclare weight W\ndeclare output v\n"
                       "define v = take W i\n", "t.tf")


TABLE_7 = "{W: [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12], [13, 14]]}\n"


@pytest.mark.parametrize("value,shown", [(7, "7.0"), (-1, "-1.0"), (1.5, "1.5")])
def test_an_index_out_of_range_in_the_data_is_found_before_the_run(value, shown, run_cli,
                                                                   tmp_path):
    """Indices read from the data are checked with the file, as one_hot's class
    indices are: its line and column, the bad entry itself."""
    (tmp_path / "p.tf").write_text("declare input i [2]\ndeclare weight W [7, 2]\n"
                                   "declare output v\ndefine v = take W i\n")
    (tmp_path / "in.txt").write_text(f"{{i: [0, 1]}}\n{{i: [3, {value}]}}\n")
    (tmp_path / "w.txt").write_text(TABLE_7)
    code, out, err = run_cli(["tfevaluate", "p.tf", "in.txt", "w.txt"], cwd=tmp_path)
    assert code == 2, err
    assert (f"in.txt:2:2: error: variable 'i' is {shown}: a row index for take must be an "
            "integer in 0..6") in err
    assert "Traceback" not in err


def test_a_bad_index_in_the_last_batch_stops_training_before_the_first_step(run_cli, tmp_path):
    """With mini-batches the bad example used to be met mid-run: named by its
    place in its batch, after the steps before it, exit 1.  Now the data check
    finds it first: its line, exit 2, no weights file written."""
    (tmp_path / "p.tf").write_text("declare input i [2]\ndeclare exp_output y\n"
                                   "declare weight W [7, 2]\ndeclare loss l\n"
                                   "define l = pow (sub (sum (take W i)) y) 2\n")
    lines = ["{i: [0, 1], y: 1}"] * 40 + ["{i: [0, 9], y: 1}"]
    (tmp_path / "d.txt").write_text("\n".join(lines) + "\n")
    code, out, err = run_cli(["tfweightcalc", "p.tf", "d.txt", "--batch-size", "1",
                              "--max-iters", "100", "-o", "w.txt"], cwd=tmp_path)
    assert code == 2, err
    assert "d.txt:41:2: error: variable 'i' is 9.0: a row index for take must be an " \
           "integer in 0..6" in err
    assert not (tmp_path / "w.txt").exists()


@pytest.mark.parametrize("bad,shown", [(6, "7.0"), (1.5, "2.5"), (-2, "-1.0")])
def test_a_computed_index_out_of_range_names_the_example(bad, shown, run_cli, tmp_path):
    """An index the program computes is checked where it is taken: the example
    counted from 0 (as the data check counts it), and a fraction called what it
    is (not an integer), not "outside" the rows."""
    (tmp_path / "p.tf").write_text("declare input i [2]\ndeclare weight W [7, 2]\n"
                                   "declare intvar j [2]\ndeclare output v\n"
                                   "define j = add i 1\ndefine v = take W j\n")
    (tmp_path / "in.txt").write_text(f"{{i: [0, 1]}}\n{{i: [0, 1]}}\n{{i: [3, {bad}]}}\n")
    (tmp_path / "w.txt").write_text(TABLE_7)
    code, out, err = run_cli(["tfevaluate", "p.tf", "in.txt", "w.txt"], cwd=tmp_path)
    assert code == 2, err
    assert f"take: row index {shown} in example 2 (0-based) must be an integer in 0..6" in err
    assert "outside" not in err and "Traceback" not in err


@pytest.mark.parametrize("bad", [9.0, 2.5, np.nan])
def test_take_and_one_hot_word_a_bad_index_alike(bad):
    """The two run-time index errors differ only in the op and what the index names."""
    from tenflang.ops import embedding, forwards
    index = np.array([[0.0], [1.0], [bad]])
    with pytest.raises(TenflangError) as take_error:
        embedding.take(np, np.zeros((1, 4)), index)
    with pytest.raises(TenflangError) as one_hot_error:
        forwards.one_hot(np, index[:, 0], 4)
    taken = str(take_error.value).replace("take: row index", "one_hot: class index")
    assert taken == str(one_hot_error.value)
    assert f"index {bad!r} in example 2 (0-based) must be an integer in 0..3" in taken


def test_a_table_float32_cannot_index_is_refused(tmp_path):
    """float32 holds whole numbers exactly up to 2^24 only: a bigger table
    could have rows no index names, so the run says so (float64 runs)."""
    from tenflang.ops import embedding
    rows = 2 ** 24 + 2               # a table of zeros that takes no memory
    i = np.array([[2.0 ** 24 + 1]])
    table = np.broadcast_to(np.float64(0), (1, rows))
    assert embedding.take(np, table, i)[0, 0] == 0.0
    with pytest.raises(TenflangError, match=r"take: a table of 16,777,218 rows needs more "
                       r"than float32, which holds whole numbers exactly only up to 16,777,216"):
        embedding.take(np, np.broadcast_to(np.float32(0), (1, rows)), i.astype(np.float32))


FOLDED_TAKE = """macro cell h x E -> hn
  define hn = add h (take E x)
end
declare input xs [3]
declare weight E [4]
declare intvar hT
declare loss l
define hT = fold cell 0 xs E
define l = pow hT 2
"""


@pytest.mark.parametrize("args", [[], ["--batch-size", "16"],
                                  ["--batch-size", "16", "--val-fraction", "0.2"]])
def test_an_index_computed_from_the_data_is_named_by_its_row_in_the_file(run_cli, tmp_path,
                                                                          args):
    """A row index read through a fold is not a data variable the file check
    sees: met in a step, it was numbered by its place in the batch."""
    (tmp_path / "p.tf").write_text(FOLDED_TAKE)
    rows = ["{xs: [1, 2, 3]}"] * 300
    rows[250] = "{xs: [1, 2, 7]}"
    (tmp_path / "d.txt").write_text("\n".join(rows) + "\n")
    (tmp_path / "w.txt").write_text("{E: [1, 2, 3, 0]}\n")
    code, out, err = run_cli(["tenflang", "train", "p.tf", "d.txt", "--init", "w.txt",
                              "--max-iters", "200", "--quiet", "-o", "w-out.txt", *args],
                             cwd=tmp_path)
    assert code == (2 if not args else 1) and "Traceback" not in err, err
    assert "take: row index 7.0 in example 250 (0-based) must be an integer in 0..3" in err


def test_an_index_met_in_validation_is_named_by_its_row_and_the_weights_are_kept(run_cli,
                                                                                  tmp_path):
    """The held-out rows are evaluated apart: their error once counted from the
    split's start, and ended the run with exit 2 and no weights."""
    from tenflang.training.sampling import split
    held_out = int(split(300, 0.2, 0)[1][7])
    (tmp_path / "p.tf").write_text(FOLDED_TAKE)
    rows = ["{xs: [1, 2, 3]}"] * 300
    rows[held_out] = "{xs: [1, 2, 7]}"
    (tmp_path / "d.txt").write_text("\n".join(rows) + "\n")
    (tmp_path / "w.txt").write_text("{E: [1, 2, 3, 0]}\n")
    code, out, err = run_cli(["tenflang", "train", "p.tf", "d.txt", "--init", "w.txt",
                              "--max-iters", "200", "--quiet", "--batch-size", "16",
                              "--val-fraction", "0.2", "-o", "w-out.txt"], cwd=tmp_path)
    assert code == 1 and "Traceback" not in err, err
    assert (f"take: row index 7.0 in example {held_out} (0-based) must be an integer in 0..3"
            in err)
    assert "training stopped in the validation after iteration 15: take" in err
    assert "the last good weights (iteration 15) are in w-out.txt" in err
    assert set(tenflang.load_weights(str(tmp_path / "w-out.txt"))) == {"E"}
