"""Fixed sets are enums (tenflang/lang/syntax_tree.py DeclKind, tenflang/ops/entries.py
RuleKind and Reduction, tenflang/interp/planning/fusion.py Role): what the passes make
are members, not loose strings, and each member equals the word the language
or the documentation writes, so printed programs do not change."""
from __future__ import annotations

import numpy as np

import tenflang
from tenflang.interp import make_plan
from tenflang.interp.runtime.codegen import batched_names
from tenflang.interp.planning.fusion import Role, fuse
from tenflang.lang.syntax_tree import KINDS, DeclKind
from tenflang.ops.entries import Reduction, RuleKind

from support.programs import sample_gcp


def test_declaration_kinds_are_the_words_of_the_language():
    assert KINDS == ("input", "exp_output", "weight", "intvar", "output", "loss")
    assert [DeclKind(k) for k in KINDS] == list(DeclKind)
    program = tenflang.parse("declare input x\ndeclare output o\ndefine o = tanh (mul x 2)\n")
    lowered = [s for s in program.statements if getattr(s, "kind", None) == DeclKind.INTVAR]
    assert lowered and all(s.kind is DeclKind.INTVAR for s in lowered)
    assert "declare intvar o.1" in tenflang.print_program(program)


def test_every_derivative_rule_has_a_rule_kind():
    from tenflang.ops import entries as opkinds
    made = [opkinds.chain("p"), opkinds.linear("g"), opkinds.custom("p", "g"), opkinds.no_grad(),
            opkinds.no_grad_like("x")]
    assert [r.kind for r in made] == [RuleKind.CHAIN, RuleKind.LINEAR, RuleKind.CUSTOM,
                                      RuleKind.NO_GRAD, RuleKind.NO_GRAD]
    assert all(isinstance(r.kind, RuleKind) for r in made)


def test_fused_groups_read_inputs_in_roles_and_sum_by_reduction():
    gcp = sample_gcp("example_shape.tf")
    plan = make_plan(gcp, {"x", "y", "w"})
    items = fuse(plan, Reduction.MEAN, batched_names(plan))
    groups = [g for g in items if hasattr(g, "inputs")]
    assert groups
    for group in groups:
        assert all(isinstance(i.role, Role) for i in group.inputs)
        assert {i.role.varies for i in group.inputs} <= {True, False}
        assert all(o.reduce in (None, Reduction.SUM) for o in group.outputs)
    x = np.linspace(-1, 1, 5)
    by_word = tenflang.run_plan(plan, {"x": x, "y": x, "w": 0.5}, reduce="mean")
    by_member = tenflang.run_plan(plan, {"x": x, "y": x, "w": 0.5}, reduce=Reduction.MEAN)
    assert all(np.array_equal(by_word[k], by_member[k]) for k in by_word)
