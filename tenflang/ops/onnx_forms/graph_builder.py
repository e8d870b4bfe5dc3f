"""Building an ONNX graph one TenFlang line at a time.

Conventions (docs/guide/commands.md, 5.9 "tenflang export"):

* A `Value` is a TenFlang variable as the ONNX graph holds it: its tensor
  name, its per-example shape, and whether it carries the example axis.
  Values that vary per example (inputs, exp_outputs and everything computed
  from them) carry a leading dynamic axis `N`; weights and numeric literals
  do not.  So TenFlang's per-example axis k is ONNX axis k + 1 on a value with
  the example axis and axis k on one without it (`Builder.axis`).
* ONNX broadcasts numpy-style, aligning shapes on the right, which is what
  TenFlang does per example for values without the example axis; a value with
  it whose per-example rank is lower than the result's gets unit axes after
  `N` (`Builder.align`, the counterpart of `ops.align`).
* Names: the node computing line `h` outputs `h` itself; the nodes before it
  are `h/1`, `h/2`, … (names with `/` never collide with the program's own).
  Float literals are initializers named by their value (`2.0`), integer
  constants (axes, shapes) by their values (`[1, 2]`).
* An input read as an index (`take`'s indices, `one_hot`'s labels) is an
  int64 graph input: `take` and `one_hot` read it as it is, every other use
  reads its cast to the graph's float (`Value.integer`).
* `prune` leaves out the nodes and initializers nothing reads (dropout's rate
  in evaluation mode, an index's unused cast): onnxruntime warns about each
  one whenever it loads the model.
"""
from __future__ import annotations

import numpy as np

from tenflang.base.frozen import frozen


@frozen
class Value:
    name: str
    shape: tuple[int, ...]     # per example
    batched: bool              # carries the leading example axis N
    integer: str | None = None  # an int64 graph input holding the same values (an index)


class Builder:
    """Nodes and initializers of one graph; `start(target, shape)` before each line."""

    def __init__(self, onnx, dtype: str):
        self.onnx = onnx
        self.dtype = np.dtype(dtype)
        self.elem = onnx.helper.np_dtype_to_tensor_dtype(self.dtype)
        self.nodes: list = []
        self.initializers: dict[str, object] = {}
        self.taken: set[str] = set()
        self.target, self.shape, self.counter = "", (), 0

    def start(self, target: str, shape: tuple[int, ...]) -> None:
        """Begin the nodes of line `target`, whose per-example result has `shape`."""
        self.target, self.shape, self.counter = target, tuple(shape), 0

    def fresh(self) -> str:
        while True:
            self.counter += 1
            name = f"{self.target}/{self.counter}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def node(self, op_type: str, inputs, **attrs) -> str:
        out = self.fresh()
        self.nodes.append(self.onnx.helper.make_node(op_type, list(inputs), [out], name=out,
                                                     **attrs))
        return out

    def finish(self, result: str) -> None:
        """Give the line's last node the TenFlang name (an Identity when the
        result is not the output of a node of this line)."""
        last = self.nodes[-1] if self.nodes else None
        if last is not None and last.output[0] == result and result.startswith(self.target + "/"):
            last.output[0] = last.name = self.target
        else:
            self.nodes.append(self.onnx.helper.make_node("Identity", [result], [self.target],
                                                         name=self.target))
        self.taken.add(self.target)

    # ---------------------------------------------------------------- constants

    def initializer(self, name: str, array) -> str:
        if name not in self.initializers:
            self.initializers[name] = self.onnx.numpy_helper.from_array(np.asarray(array), name)
            self.taken.add(name)
        return name

    def literal(self, value: float) -> str:
        """A float scalar of the graph's dtype."""
        return self.initializer(repr(float(value)), np.array(value, self.dtype))

    def ints(self, values) -> str:
        """A 1-D int64 constant (axes, shapes, indices)."""
        values = [int(v) for v in values]
        return self.initializer(str(values), np.array(values, np.int64))

    def int_scalar(self, value: int) -> str:
        """A scalar int64 constant (an index, a depth)."""
        return self.initializer(f"int64({int(value)})", np.array(int(value), np.int64))

    def prune(self, outputs) -> None:
        """Keep only the nodes that `outputs` are computed from, and the
        initializers those read (the nodes are in order: one pass back)."""
        needed, kept = set(outputs), []
        for node in reversed(self.nodes):
            if any(o in needed for o in node.output):
                kept.append(node)
                needed.update(node.input)
        self.nodes = kept[::-1]
        self.initializers = {k: v for k, v in self.initializers.items() if k in needed}

    # ---------------------------------------------------------------- axes

    @staticmethod
    def axis(value: Value, k: int) -> int:
        """ONNX axis of per-example axis `k` (negative counts from the end)."""
        return k if k < 0 else k + value.batched

    def align(self, values, rank: int | None = None) -> list[str]:
        """Tensor names of `values`, those with the example axis given unit
        axes after it up to per-example rank `rank` (default: the line's)."""
        rank = len(self.shape) if rank is None else rank
        return [self.node("Unsqueeze", [v.name, self.ints(range(1, 1 + rank - len(v.shape)))])
                if v.batched and len(v.shape) < rank else v.name for v in values]

    def reduce(self, op_type: str, value: Value, axes, keepdims: int, name=None) -> str:
        """`op_type` (ReduceSum, ReduceMax, …) of `value` over per-example `axes`."""
        onnx_axes = [self.axis(value, k) for k in axes]
        return self.node(op_type, [name or value.name, self.ints(onnx_axes)], keepdims=keepdims)


__all__ = ["Builder", "Value"]
