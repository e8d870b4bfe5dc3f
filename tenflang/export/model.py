"""A shape program's forward part, with its trained weights, as an ONNX model.

    model = export_model(program, weights, dtype="float32", with_loss=False)

The forward part is the lines that lead to the program's `output` variables
(with `with_loss`, to its losses too); without `with_loss`, an output that
needs an exp_output (an accuracy) is left out, unless no output is left.  Graph inputs are the program's
`input`s (with `with_loss`, its `exp_output`s too), every one of them, used or
not, as `tfevaluate` asks for them all; each has a leading dynamic dimension
`N`, the example axis; floats are `dtype` (float32 by default, as deployed
models are; float64 on request), and an input read as an index (`take`'s
indices, `one_hot`'s labels: `checks.data_indices`) is int64.  Weights the forward part uses are initializers (never
graph inputs, so runtimes fold them as constants), and so are the population
values of its batch statistics (`weights` holds them too, as a weights file
does): the model is in evaluation mode, `dropout_mask` is 1.  Outputs keep their
TenFlang names and have the example axis too: an output that does not vary per
example is broadcast to `N` rows, as `tfevaluate` reports it.

The opset is `DEFAULT_OPSET` unless asked otherwise: the newest that every
onnxruntime since 1.18 runs in full, and newer than every change to the
semantics of the ops used (docs/guide/commands.md, 5.9 "tenflang export").
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tenflang.ops import table as ops
from tenflang.base.version import version
from tenflang.base.errors import Location, TenflangError, text_of_path
from tenflang.interp.planning.plan import make_plan
from tenflang.interp.runtime.population import missing_statistic
from tenflang.lang.syntax_tree import DeclKind, Num, Program
from tenflang.lang.checks import check, data_indices
from tenflang.lang.diagnostics import error_at
from tenflang.ops.onnx_forms.graph_builder import Builder, Value
from tenflang.ops.onnx_forms.onnx_graph import NOT_EXPORTABLE, ONNX_OPS, result_is_batched

DEFAULT_OPSET = 21
MIN_OPSET = 18      # ReduceMax/ReduceMean take their axes as an input from 18 on
BATCH = "N"


def require(module: str):
    """Import onnx or onnxruntime, or say how to install them."""
    try:
        return __import__(module)
    except ImportError:
        raise TenflangError(f"ONNX export needs the {module} package, which is not installed; "
                            "pip install 'tenflang[onnx]'") from None


def export_model(program: Program, weights: dict, dtype: str = "float32",
                 with_loss: bool = False, opset: int = DEFAULT_OPSET):
    """The ONNX ModelProto of `program`'s forward part (checked with full_check)."""
    onnx = require("onnx")
    check_opset(onnx, opset)
    if program.cells:
        raise TenflangError("export_model: the program keeps a loop as a loop; ONNX export "
                            "writes a loop's steps: parse it with loops='unroll'")
    shapes = check(program)
    inputs, outputs = graph_interface(program, with_loss)
    plan = forward_plan(program, shapes, inputs, outputs, weights)
    missing = missing_statistic(program, plan)
    if missing:
        raise missing
    outputs = list(plan.results)
    b = Builder(onnx, dtype)
    b.taken.update(inputs)
    integers = [n for n in data_indices(program) if n in inputs]
    values = {n: graph_input(b, n, shapes[n], n in integers) for n in inputs}
    defines = {d.name: d for d in program.definitions()}
    for step in plan.steps:
        define = defines[step.target]
        operands = [operand(b, values, weights, shapes, o) for o in define.operands]
        b.start(define.name, shapes[define.name])
        result = mapping(program, define)(b, *operands, *attributes(define))
        batched = result_is_batched(define.op, operands)
        if define.name in outputs and not batched:
            result, batched = per_example(b, result, inputs), True
        b.finish(result)
        values[define.name] = Value(define.name, shapes[define.name], batched)
    b.prune(outputs)
    graph = onnx.helper.make_graph(
        b.nodes, program_name(program),
        [tensor_info(b, n, shapes[n], True, n in integers) for n in inputs],
        [tensor_info(b, n, shapes[n], bool(inputs)) for n in outputs],
        initializer=list(b.initializers.values()),
        doc_string=f"The forward part of {text_of_path(program.filename)}, exported by "
                   "tenflang export.")
    opsets = [onnx.helper.make_opsetid("", opset)]
    model = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="tenflang",
                                   producer_version=version(),
                                   ir_version=onnx.helper.find_min_ir_version_for(opsets))
    onnx.checker.check_model(model, full_check=True)
    return model


def check_opset(onnx, opset: int) -> None:
    newest = onnx.defs.onnx_opset_version()
    if not MIN_OPSET <= opset <= newest:
        raise TenflangError(f"--opset {opset}: this export writes opsets {MIN_OPSET} to "
                            f"{newest} (the newest the installed onnx knows)")


def graph_interface(program: Program, with_loss: bool) -> tuple[list[str], list[str]]:
    """The graph's input names and output names, in declaration order (outputs before losses)."""
    decls = program.declarations().values()
    inputs = [d.name for d in decls
              if d.kind == DeclKind.INPUT or with_loss and d.kind == DeclKind.EXP_OUTPUT]
    outputs = [d.name for d in decls if d.kind == DeclKind.OUTPUT]
    outputs += [d.name for d in decls if with_loss and d.kind == DeclKind.LOSS]
    if not outputs:
        what = "no output and no loss" if with_loss else "no output"
        hint = "" if with_loss else " (--with-loss exports the losses)"
        raise TenflangError(f"the program declares {what}: nothing to export{hint}",
                            Location(program.filename))
    return inputs, outputs


def forward_plan(program: Program, shapes, inputs, outputs, weights):
    """The steps leading to `outputs`.  An output that needs an exp_output
    (an accuracy) is left out when there are others; one never defined, or
    nothing left, is an error."""
    available = set(inputs) | set(weights)
    plan = make_plan(program, available, outputs, shapes)
    labels = {n for n, d in program.declarations().items() if d.kind == DeclKind.EXP_OUTPUT}
    with_labels = make_plan(program, available | labels, outputs, shapes)
    for name in outputs:
        if name in with_labels.null:
            raise uncomputable(program, name, "it is never defined, or depends on a variable "
                                              "that is not")
    kept = [n for n in outputs if n not in plan.null]
    if not kept:
        raise uncomputable(program, outputs[0], "it depends on an exp_output; --with-loss "
                                                "takes exp_outputs as inputs")
    return make_plan(program, available, kept, shapes) if len(kept) < len(outputs) else plan


def uncomputable(program: Program, name: str, why: str) -> TenflangError:
    decl = program.declarations()[name]
    return error_at(program, decl.name_pos, f"{decl.kind} '{name}' cannot be exported: {why}",
                    decl.origin)


def mapping(program: Program, define):
    rule = ONNX_OPS.get(define.op)
    if rule is None:
        reason = NOT_EXPORTABLE.get(define.op, "no ONNX mapping is written for it")
        raise error_at(program, define.op_pos or define.pos,
                       f"op '{define.op}' cannot be exported to ONNX: {reason}", define.origin)
    return rule


def attributes(define) -> tuple:
    """The line's attributes, defaults filled in."""
    return ops.TABLE[define.op].full(define.attrs)


def operand(b: Builder, values: dict, weights: dict, shapes, o) -> Value:
    if isinstance(o, Num):
        return Value(b.literal(o.value), (), False)
    if o.name not in values:               # a weight: an initializer of the graph's dtype
        b.initializer(o.name, np.asarray(weights[o.name], b.dtype))
        values[o.name] = Value(o.name, shapes[o.name], False)
    return values[o.name]


def per_example(b: Builder, result: str, inputs: list[str]) -> str:
    """A value without the example axis as an output: N copies (one when the
    program has no inputs), as tfevaluate reports it."""
    if not inputs:
        return b.node("Unsqueeze", [result, b.ints([0])])
    n = b.node("Shape", [inputs[0]], start=0, end=1)
    return b.node("Expand", [result, b.node("Concat", [n, b.ints(b.shape)], axis=0)])


def graph_input(b: Builder, name: str, shape, integer: bool) -> Value:
    """The Value of graph input `name`; an int64 one (an index) is read as
    a float through a cast, which `prune` drops where nothing reads it."""
    if not integer:
        return Value(name, shape, True)
    b.start(name, shape)
    return Value(b.node("Cast", [name], to=b.elem), shape, True, integer=name)


def tensor_info(b: Builder, name: str, shape, batched: bool, integer: bool = False):
    dims = [BATCH if batched else 1] + list(shape)
    elem = b.onnx.TensorProto.INT64 if integer else b.elem
    return b.onnx.helper.make_tensor_value_info(name, elem, dims)




def program_name(program: Program) -> str:
    return text_of_path(Path(program.filename).stem) or "tenflang"


__all__ = ["export_model", "require", "DEFAULT_OPSET", "MIN_OPSET"]
