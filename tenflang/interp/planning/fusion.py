"""Fused groups: chains of elementwise steps that one loop computes.

    items = fuse(plan, reduce="mean")      # the plan's steps, some runs as `Group`s

An elementwise chain run step by step makes one pass over memory per op (and
a temporary per value); one loop over the examples computes every value of
the chain for one element in registers and writes only what is needed after
it.  This module decides *what* is fused, as plain data; renderers decide
*how* (interp/backends/c/c_loops.py: a C loop on the CPU, or interp/backends/numba/numba_loops.py where
there is no C compiler; the CUDA backend renders the same `Group`s as
kernels).  No renderer is imported here.

A `Group` is a run of consecutive plan steps that

* all have an op with a per-element form (`entries.Op.scalar`),
* all vary per example (the example axis has size B) and have the same
  per-example result shape `shape` (flattened to `size` elements), and
* read only literals, values of the group, and `Input`s in one of four roles:

      role       per-example shape   value of element j of example i
      full       shape               x[i, j]
      example    ()                  x[i]        (a per-example scalar)
      shared     shape               x[0, j]     (a weight, same for every example)
      constant   ()                  x[0]        (a scalar weight)

  (arrays as the interpreter holds them: a leading example axis, of size 1
  for values that do not vary per example; `shape` flattened row-major).
  A full or shared input may also have a shape that broadcasts to `shape`
  (`Input.shape`; a convolution's bias [C, 1, 1] added to its [C, H, W]
  output): element j then reads x at j's coordinates, numpy's broadcasting
  (interp/backends/render.py's offsets).

Its `Output`s are the values used after the group or reported; with a batch
reduction, a reported result that nothing else reads ends in the loop
(`reduce="sum"`: summed over the examples into shape `shape`, no [B, ...]
array; the caller divides by B for a mean).  Values used only inside the group
are never stored.  Runs of one step without a reduction are left alone (a
numpy ufunc is as fast).  For a small batch (`small`) only what a loop does
faster than numpy is fused: groups of `SMALL_BATCH_SIZE` elements per example
or more whose forms call no math function (numpy's are vectorised; a C loop's
arithmetic and selects are too, its `math.` calls are not): a relu's or
pooling's gradient, the bias, relu and residual arithmetic of a wide layer.
Where the C loops call math functions in vectors (`vector_math`:
interp/backends/c/c_loops.py; the interpreter asks for it in float64 only, numpy's float32
functions being vectorised already), groups calling them are fused too, from
`SMALL_BATCH_MATH_SIZE` elements per example: a tanh layer's forward and
gradient (numpy's float64 tanh is scalar: 55 µs for 32 × 128 elements, the
vector form's loop about 20).  A run
longer than `limits.MAX_FUSED_STEPS` is cut into groups of at most that many
steps: a compiler's time grows faster than the length of one function, and a
10 000-step loop took it minutes.  Products already reduced inside BLAS (`codegen`'s
batch sums) are not grouped.
"""
from __future__ import annotations

from enum import StrEnum
import math

from tenflang.base.frozen import frozen
from tenflang.ops.shapes import broadcasts_to
from tenflang.base import limits
from tenflang.ops.entries import Reduction

SMALL_BATCH_SIZE = 256      # elements per example a group needs to be fused in a small batch
SMALL_BATCH_MATH_SIZE = 64  # the same for a group calling math functions in vectors


class Role(StrEnum):
    """How a group reads an input (module docstring)."""
    FULL = "full"              # per example, the group's shape
    EXAMPLE = "example"        # per example, a scalar
    SHARED = "shared"          # one for all examples, the group's shape
    CONSTANT = "constant"      # one scalar for all

    @property
    def varies(self) -> bool:
        """Whether the input has a value per example."""
        return self in (Role.FULL, Role.EXAMPLE)


ROLES = tuple(Role)


@frozen
class Input:
    name: str                  # the TenFlang value read
    role: Role
    shape: tuple = ()          # its per-example shape: () or one broadcasting to the group's


@frozen
class Output:
    name: str                  # the TenFlang value written
    reduce: Reduction | None   # None: the [B, *shape] array; SUM: summed over the examples


@frozen
class Group:
    steps: tuple               # the plan's Steps, in order
    shape: tuple[int, ...]     # per-example shape of every step's result
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    release: tuple[str, ...]   # values defined before the group whose last use is in it

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def target(self) -> str:   # a name for messages and generated code
        return self.steps[-1].target


def fuse(plan, reduce: str | None, batched: set[str], blas_reduced=frozenset(),
         small: bool = False, vector_math: bool = False) -> tuple:
    """The plan's steps in order, each maximal fusable run (see the module
    docstring) replaced by its `Group`.  `batched`: the values that vary per
    example; `blas_reduced`: results summed inside a product, left alone;
    `small`: for a small batch, `vector_math`: whose loops call math functions
    in vectors (module docstring)."""
    context = (plan, reduce, batched, last_reads(plan), small, vector_math)
    items, run = [], []
    for i, step in enumerate(plan.steps):
        fits = (step.op.scalar is not None and step.target in batched
                and step.target not in blas_reduced and readable(step, plan.shapes, batched)
                and not (small and step.op.calls_math and not vector_math))
        if run and not (fits and plan.shapes[step.target] == plan.shapes[run[0][1].target]
                        and len(run) < limits.MAX_FUSED_STEPS):
            items += close(run, *context)
            run = []
        if fits:
            run.append((i, step))
        else:
            items.append(step)
    return tuple(items + close(run, *context))


def smallest(steps, vector_math: bool) -> int:
    """Elements per example a group of `steps` needs to be fused in a small batch."""
    if vector_math and any(s.op.calls_math for s in steps):
        return SMALL_BATCH_MATH_SIZE
    return SMALL_BATCH_SIZE


def readable(step, shapes, batched) -> bool:
    """Every operand has a role in a group of the step's shape."""
    shape = shapes[step.target]
    return all(role(shapes[o], shape, o in batched) for o in step.operands if isinstance(o, str))


def role(shape, group_shape, varies: bool) -> Role | None:
    """How a value of per-example `shape` is read in a group of `group_shape`."""
    if tuple(shape) == ():
        return Role.EXAMPLE if varies else Role.CONSTANT
    if broadcasts_to(tuple(shape), tuple(group_shape)):
        return Role.FULL if varies else Role.SHARED
    return None


def close(run: list, plan, reduce, batched, last_read, small: bool, vector_math: bool) -> list:
    """The run [(index, step)] as a Group, or its steps when fusing gains nothing."""
    if not run:
        return []
    steps = [step for _, step in run]
    if small and math.prod(plan.shapes[steps[0].target]) < smallest(steps, vector_math):
        return steps
    group = group_of(run, plan, reduce, batched, last_read)
    if len(steps) == 1 and not any(o.reduce for o in group.outputs):
        return steps
    return [group]


def last_reads(plan) -> dict:
    """Each value -> the index of the last plan step that reads it."""
    return {o: i for i, s in enumerate(plan.steps) for o in s.operands if isinstance(o, str)}


def group_of(run: list, plan, reduce, batched, last_read: dict) -> Group:
    """The run [(index, step)] of readable elementwise steps (`readable`) as a
    Group: its inputs' roles, the outputs used after it or reported (summed in
    the loop where nothing else reads them), the releases it makes."""
    end, steps = run[-1][0], [step for _, step in run]
    shape = tuple(plan.shapes[steps[0].target])
    defined = {s.target for s in steps}
    inputs = {o: Input(o, role(plan.shapes[o], shape, o in batched), tuple(plan.shapes[o]))
              for s in steps for o in s.operands if isinstance(o, str) and o not in defined}
    outputs = []
    for t in dict.fromkeys(s.target for s in steps):
        later = last_read.get(t, -1) > end
        if later or t in plan.results:
            outputs.append(Output(t, Reduction.SUM if reduce and not later and plan.sums(t)
                                  else None))
    release = tuple(n for s in steps for n in s.release if n not in defined)
    return Group(tuple(steps), shape, tuple(inputs.values()), tuple(outputs), release)
