"""Programs with loops over a sequence of T steps, for the tests of loops kept
as loops (docs/design.md §2.4.2, §2.5.1), and the ways those tests run them.

`PROGRAMS[name](T, small)` is a shape program's text with sequences of T
steps (`small`: the samples' state widths shrunk, so that a long sequence's
unrolled twin compiles and runs in about a second).  `gradients(source,
loops, level, data, weights, reread, reduce)` gives every `d/dw` of its GCP,
run with `make_plan` + `run_plan`.  `loop_data` draws data for a program,
indices (what `take` and `one_hot` read) drawn in their range, as
tests/interpreter/test_interp.py's `random_data` does.
"""
from __future__ import annotations

import re

import numpy as np

import tenflang
from tenflang.backprop import compile_gradient
from tenflang.base.naming import adjoint
from tenflang.interp import make_plan, run_plan
from tenflang.lang import check
from tenflang.lang.syntax_tree import Var

from .paths import SAMPLES_DIR
from .programs import index_ranges, src

RNN_CELL = src("""
    macro cell h x W U b -> hn
      define hn = tanh (add (add (matmul W x) (matmul U h)) b)
    end
    """)


def rnn_head(steps: int) -> str:
    return RNN_CELL + src(f"""
        declare input xs [{steps}, 3]
        declare exp_output y [4]
        declare weight W [4, 3]
        declare weight U [4, 4]
        declare weight b [4]
        declare weight h0 [4]
        declare loss l
        """)


def rnn_fold(steps: int, small: bool = False) -> str:
    return rnn_head(steps) + ("declare output hT\ndefine hT = fold cell h0 xs W U b\n"
                              "define l = sum (mul (sub hT y) (sub hT y))\n")


def rnn_scan(steps: int, small: bool = False) -> str:
    return rnn_head(steps) + ("declare output hs\ndefine hs = scan cell h0 xs W U b\n"
                              "define l = sum (mul (sub hs y) (sub hs y))\n")


def fold_over_scan(steps: int, small: bool = False) -> str:
    """A fold whose sequence is a scan's states."""
    return RNN_CELL + src(f"""
        macro mix g x V -> gn
          define gn = tanh (add (matmul V x) g)
        end
        declare input xs [{steps}, 3]
        declare weight W [4, 3]
        declare weight U [4, 4]
        declare weight b [4]
        declare weight h0 [4]
        declare weight V [2, 4]
        declare weight g0 [2]
        declare intvar hs
        declare output gT
        declare loss l
        define hs = scan cell h0 xs W U b
        define gT = fold mix g0 hs V
        define l = sum (mul gT gT)
        """)


def matrix_state(steps: int, small: bool = False) -> str:
    """A scan whose state is a [2, 3] matrix."""
    return src(f"""
        macro mcell h x W -> hn
          define hn = tanh (add (matmul h W) x)
        end
        declare input xs [{steps}, 2, 3]
        declare weight W [3, 3]
        declare weight h0 [2, 3]
        declare intvar hs
        declare loss l
        define hs = scan mcell h0 xs W
        define l = sum (mul hs hs)
        """)


def per_example_operand(steps: int, small: bool = False) -> str:
    """The cell's other operand `k` is an intvar computed from an input."""
    return src(f"""
        macro gate h x W k -> hn
          define hn = tanh (add (matmul W x) (mul k h))
        end
        declare input xs [{steps}, 3]
        declare input s [4]
        declare weight W [4, 3]
        declare weight K [4]
        declare weight h0 [4]
        declare intvar k
        declare output hT
        declare loss l
        define k = mul (tanh s) K
        define hT = fold gate h0 xs W k
        define l = sum (mul hT hT)
        """)


def ignores_state(steps: int, small: bool = False) -> str:
    """A cell whose result does not read the state: a scan used as a map, and
    a fold whose last step alone counts."""
    return src(f"""
        macro proj h x W -> hn
          define hn = tanh (matmul W x)
        end
        declare input xs [{steps}, 3]
        declare weight W [4, 3]
        declare weight h0 [4]
        declare weight h1 [4]
        declare intvar hs
        declare intvar hT
        declare loss l
        define hs = scan proj h0 xs W
        define hT = fold proj h1 xs W
        define l = add (sum (mul hs hs)) (sum hT)
        """)


def widths(text: str, mapping: dict) -> str:
    """`text` with each whole number in `mapping` replaced."""
    return re.sub(r"(?<![.\d])\d+(?![.\d])",
                  lambda m: str(mapping.get(int(m.group()), m.group())), text)


GRU_SMALL = {64: 8, 128: 16, 192: 24}


def charlm(steps: int, small: bool = False) -> str:
    text = (SAMPLES_DIR / "charlm.tf").read_text()
    text = widths(text, GRU_SMALL) if small else text
    return (text.replace("chars [17]", f"chars [{steps + 1}]")
            .replace("slice chars 0 16", f"slice chars 0 {steps}")
            .replace("index chars 16", f"index chars {steps}"))


def charlm_scan(steps: int, small: bool = False) -> str:
    text = (SAMPLES_DIR / "charlm_scan.tf").read_text()
    text = widths(text, GRU_SMALL) if small else text
    return (text.replace("chars [17]", f"chars [{steps + 1}]")
            .replace("slice chars 0 16", f"slice chars 0 {steps}")
            .replace("slice chars 1 17", f"slice chars 1 {steps + 1}")
            .replace("logp [16, 32]", f"logp [{steps}, 32]")
            .replace("index logp 15", f"index logp {steps - 1}")
            .replace("index targets 15", f"index targets {steps - 1}"))


def lstm_digits(steps: int, small: bool = False) -> str:
    text = (SAMPLES_DIR / "lstm_digits.tf").read_text()
    text = widths(text, {32: 4, 64: 8, 96: 12, 128: 16}) if small else text
    return text.replace("declare input x [8, 8]", f"declare input x [{steps}, 8]")


PROGRAMS = {f.__name__: f for f in (rnn_fold, rnn_scan, charlm, charlm_scan, lstm_digits,
                                     fold_over_scan, matrix_state, per_example_operand,
                                     ignores_state)}


def loop_data(program, rng, batch: int, scale: float) -> tuple[dict, dict]:
    """(data, weights) of the declared shapes; weights `scale` times normal."""
    shapes = check(program)
    lines = [(d.name, d.op, [o.name if isinstance(o, Var) else o for o in d.operands], d.attrs)
             for d in program.definitions()]
    ranges = index_ranges(lines, shapes)
    data, weights = {}, {}
    for name, decl in program.declarations().items():
        shape = tuple(shapes[name])
        if name in ranges:
            data[name] = rng.integers(0, ranges[name], size=(batch, *shape)).astype(float)
        elif decl.kind in ("input", "exp_output"):
            data[name] = rng.normal(size=(batch, *shape))
        elif decl.kind == "weight":
            weights[name] = scale * rng.normal(size=shape)
    return data, weights


def kept_cells(program) -> list[str]:
    """The cells of the program's kept loops (`Define.cell`), in order."""
    return [d.cell for d in program.definitions() if d.cell]


def gcp_of(source: str, loops: str, level: int, reread: bool = False):
    gcp = compile_gradient(tenflang.parse(source, "t.tf", shape_program=True, loops=loops), level)
    return tenflang.parse(tenflang.print_program(gcp), "gcp.tf") if reread else gcp


def run_gradients(gcp, data: dict, weights: dict, reduce) -> dict:
    plan = make_plan(gcp, set(data) | set(weights), [adjoint(w) for w in weights])
    values = run_plan(plan, {**data, **weights}, reduce=reduce)
    return {w: np.asarray(values[adjoint(w)]) for w in weights}
