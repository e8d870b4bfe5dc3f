"""The population pass (interp/runtime/population.py): one forward pass in all.

* Its values equal a numpy forward written here (precise batch norm: each
  layer normalised with the population values of the layers below) on a deep
  chain of batch-norm layers with a skip connection, and the level-by-level
  pass (`level_sums`, a pass from the input per level, what a cluster runs)
  on a ResNet block, in small chunks and with the kept values over budget.
* Its cost is linear in the depth: each line runs once per chunk (counted on
  the runs it makes), where a pass per level runs the first layer once per level.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.interp.runtime import population as pop
from tenflang.interp.runtime.population import level_sums, levels, population, population_by

BATCHNORM = """macro batchnorm x gamma beta -> y
  declare intvar c
  declare intvar s
  define c = sub x (batch_mean x)
  define s = sqrt (add (batch_mean (mul c c)) 1e-5)
  define y = add (mul (div c s) gamma) beta
end
"""


def chain(depth: int) -> str:
    """`depth` batch-norm layers; the input joins the last one (a skip kept
    across every level), and the input's own mean is a statistic too."""
    lines = ["declare input x [4]", "declare loss o", "declare intvar m [4]",
             "define m = batch_mean x"]
    previous = "x"
    for k in range(1, depth + 1):
        lines += [f"declare weight W{k} [4, 4]", f"declare weight g{k} [4]",
                  f"declare weight b{k} [4]", f"declare intvar h{k} [4]"]
        lines.append(f"define h{k} = tanh (batchnorm (matmul W{k} {previous}) g{k} b{k})")
        previous = f"h{k}"
    lines.append(f"define o = sum (mul (add {previous} x) (dropout_mask m 0.5))")
    return BATCHNORM + "\n".join(lines) + "\n"


def chain_values(depth: int, n: int = 50, seed: int = 3):
    rng = np.random.default_rng(seed)
    weights = {}
    for k in range(1, depth + 1):
        weights |= {f"W{k}": rng.normal(size=(4, 4)) * 0.8, f"g{k}": 1 + 0.3 * rng.normal(size=4),
                    f"b{k}": 0.3 * rng.normal(size=4)}
    return {"x": rng.normal(size=(n, 4)) + 1.5}, weights


def numpy_population(depth: int, data: dict, weights: dict) -> list:
    """The statistics in program order, as docs/design.md §2.3.2 defines them."""
    previous, out = data["x"], [data["x"].mean(axis=0)]
    for k in range(1, depth + 1):
        h = previous @ weights[f"W{k}"].T
        mean = h.mean(axis=0)
        variance = ((h - mean) ** 2).mean(axis=0)
        out += [mean, variance]
        previous = np.tanh((h - mean) / np.sqrt(variance + 1e-5) * weights[f"g{k}"]
                           + weights[f"b{k}"])
    return out


def parse(source: str):
    return tenflang.parse(source, "t.tf", shape_program=True)


def level_by_level(program, data: dict, weights: dict, chunk: int) -> dict:
    """The pass per level from the input (the population pass before it was one)."""
    n = len(next(iter(data.values())))
    return population_by(program, lambda level, found: (
        level_sums(program, level, data, weights, found, chunk=chunk), n))


@pytest.mark.parametrize("chunk, keep_bytes", [(4096, pop.KEEP_BYTES), (16, pop.KEEP_BYTES),
                                               (16, 2000)])   # 2000: some chunks restart
def test_a_deep_chain_equals_numpy(chunk, keep_bytes):
    depth = 12
    program = parse(chain(depth))
    data, weights = chain_values(depth)
    got = population(program, data, weights, chunk=chunk, keep_bytes=keep_bytes)
    assert len(levels(program)) == 2 * depth        # the input's mean shares the first level
    expected = numpy_population(depth, data, weights)
    assert len(got) == len(expected)
    for (name, value), want in zip(got.items(), expected):
        np.testing.assert_allclose(value, want, rtol=1e-11, atol=1e-13, err_msg=name)


RESNET_BLOCK = """macro batchnorm2d x gamma beta channels -> y
  declare intvar c
  declare intvar s
  define c = sub x (reshape (batch_mean (mean (mean x 2) 1)) channels)
  define s = sqrt (add (reshape (batch_mean (mean (mean (mul c c) 2) 1)) channels) 1e-5)
  define y = add (mul (div c s) gamma) beta
end

declare input x [3, 6, 6]
declare weight K1 [3, 3, 3, 3]
declare weight K2 [3, 3, 3, 3]
declare weight g1 [3, 1, 1]
declare weight b1 [3, 1, 1]
declare weight g2 [3, 1, 1]
declare weight b2 [3, 1, 1]
declare intvar h [3, 6, 6]
declare intvar out [3, 6, 6]
declare loss l
define h = relu (batchnorm2d (conv2d x K1 1 1) g1 b1 [3, 1, 1])
define out = relu (add x (batchnorm2d (conv2d h K2 1 1) g2 b2 [3, 1, 1]))
define l = sum out
"""


@pytest.mark.parametrize("keep_bytes", [pop.KEEP_BYTES, 0])
def test_a_resnet_block_and_its_gcp_equal_the_pass_per_level(keep_bytes):
    rng = np.random.default_rng(5)
    data = {"x": rng.normal(size=(30, 3, 6, 6))}
    weights = {"K1": rng.normal(size=(3, 3, 3, 3)) * 0.4, "K2": rng.normal(size=(3, 3, 3, 3)) * 0.4,
               "g1": 1 + 0.2 * rng.normal(size=(3, 1, 1)), "b1": 0.2 * rng.normal(size=(3, 1, 1)),
               "g2": 1 + 0.2 * rng.normal(size=(3, 1, 1)), "b2": 0.2 * rng.normal(size=(3, 1, 1))}
    program = parse(RESNET_BLOCK)
    expected = level_by_level(program, data, weights, chunk=7)
    got = population(program, data, weights, chunk=7, keep_bytes=keep_bytes)
    assert list(got) == list(expected) and len(got) == 4
    for name in got:
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-12, atol=1e-14)


def counted_runs(monkeypatch) -> dict:
    """How often each op ran in the population pass's runs (per chunk)."""
    counts: dict = {}
    real = pop.run_plan

    def counting(plan, *args, **kwargs):
        for step in plan.steps:
            counts[step.op.name] = counts.get(step.op.name, 0) + 1
        return real(plan, *args, **kwargs)
    monkeypatch.setattr(pop, "run_plan", counting)
    return counts


@pytest.mark.parametrize("depth", [4, 16])
def test_each_line_runs_once_per_chunk_whatever_the_depth(monkeypatch, depth):
    program = parse(chain(depth))
    data, weights = chain_values(depth, n=40)
    counts = counted_runs(monkeypatch)
    population(program, data, weights, chunk=20)               # two chunks
    assert counts["matmul"] == 2 * depth                       # each layer's, once per chunk
    assert counts["tanh"] == 2 * (depth - 1)                   # the last one feeds no statistic
    # a pass per level from the input runs layer k in the 2(depth - k) + 2 levels from its own
    counts.clear()
    level_by_level(program, data, weights, chunk=20)
    assert counts["matmul"] == 2 * sum(2 * (depth - k) + 2 for k in range(1, depth + 1))
