"""A program whose macros own their weights (docs/design.md §2.4.3) has the
gradients of its hand-written twin, whose weights are declared in the program
and passed to the macros: the same numbers for the same weights, at -O0 and
-O1, and both agree with finite differences.  In a `fold` the shared weight's
gradient sums the contributions of every step, as the twin's does.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from support.gradcheck import check_gradients, gcp_gradients
from support.programs import src
from tenflang.lang import check

OWNED_BLOCKS = src("""
    macro residual x C -> y
      declare weight K1 [C, C, 3, 3] init he
      declare weight K2 [C, C, 3, 3] init he
      define y = relu (add x (conv2d (relu (conv2d x K1 1 1)) K2 1 1))
    end
    declare input x [2, 4, 4]
    declare intvar h1
    declare intvar h2
    declare loss l
    define h1 = residual x 2
    define h2 = residual h1 2
    define l = sum (flatten (mul h2 h2))
    """)

TWIN_BLOCKS = src("""
    macro residual x K1 K2 -> y
      define y = relu (add x (conv2d (relu (conv2d x K1 1 1)) K2 1 1))
    end
    declare input x [2, 4, 4]
    declare weight A1 [2, 2, 3, 3]
    declare weight A2 [2, 2, 3, 3]
    declare weight B1 [2, 2, 3, 3]
    declare weight B2 [2, 2, 3, 3]
    declare intvar h1
    declare intvar h2
    declare loss l
    define h1 = residual x A1 A2
    define h2 = residual h1 B1 B2
    define l = sum (flatten (mul h2 h2))
    """)

BLOCK_NAMES = {"h1.K1": "A1", "h1.K2": "A2", "h2.K1": "B1", "h2.K2": "B2"}

OWNED_CELL = src("""
    macro cell h x C -> hn
      declare weight W [C, 3]
      declare weight U [C, C]
      declare weight b [C]
      define hn = tanh (add (add (matmul W x) (matmul U h)) b)
    end
    declare input xs [4, 3]
    declare weight h0 [2]
    declare intvar hT
    declare loss l
    define hT = fold cell h0 xs 2
    define l = sum (mul hT hT)
    """)

TWIN_CELL = src("""
    macro cell h x W U b -> hn
      define hn = tanh (add (add (matmul W x) (matmul U h)) b)
    end
    declare input xs [4, 3]
    declare weight h0 [2]
    declare weight W [2, 3]
    declare weight U [2, 2]
    declare weight b [2]
    declare intvar hT
    declare loss l
    define hT = fold cell h0 xs W U b
    define l = sum (mul hT hT)
    """)

CELL_NAMES = {"hT.W": "W", "hT.U": "U", "hT.b": "b", "h0": "h0"}

CASES = {"residual blocks": (OWNED_BLOCKS, TWIN_BLOCKS, BLOCK_NAMES, {"x": (5, 2, 4, 4)}),
         "a folded cell": (OWNED_CELL, TWIN_CELL, CELL_NAMES, {"xs": (5, 4, 3)})}


def draw(names: dict, program, rng) -> dict:
    shapes = check(program)
    return {name: rng.normal(size=shapes[name]) for name in names}


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("case", CASES)
def test_owned_weights_have_the_gradients_of_the_hand_written_twin(case, level):
    owned_text, twin_text, names, data_shapes = CASES[case]
    owned = tenflang.parse(owned_text, "owned.tf", shape_program=True)
    twin = tenflang.parse(twin_text, "twin.tf", shape_program=True)
    rng = np.random.default_rng(7)
    data = {n: rng.normal(size=s) for n, s in data_shapes.items()}
    weights = draw(names, owned, rng)
    got = gcp_gradients(owned, data, weights, level)
    expected = gcp_gradients(twin, data, {names[n]: w for n, w in weights.items()}, level)
    assert set(got) == set(names)
    for name, twin_name in names.items():
        assert np.abs(got[name]).max() > 1e-6, name        # a gradient that could differ
        np.testing.assert_allclose(got[name], expected[twin_name], rtol=1e-12, atol=1e-12,
                                   err_msg=name)


@pytest.mark.parametrize("case", CASES)
def test_owned_weights_agree_with_finite_differences(case):
    owned_text, _, names, data_shapes = CASES[case]
    rng = np.random.default_rng(3)
    data = {n: rng.normal(size=s) for n, s in data_shapes.items()}
    weights = draw(names, tenflang.parse(owned_text, shape_program=True), rng)
    check_gradients(owned_text, data, weights)

