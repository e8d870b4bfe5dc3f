"""Sweeps: a dense product, an elementwise chain and its transposed product
made in one pass over the data matrix.

    items = with_sweeps(plan, items, blas)     # fused items, some runs as `Sweep`s

Logistic regression's step is, with X the examples' inputs as rows:

    z = dot w x              one pass over X (BLAS: X·w)
    r = <chain of z>         a fused group (interp/planning/fusion.py), per example
    g = mul r x  (summed)    another pass over X (BLAS: Xᵀr)

numpy needs the two passes, as z must be whole before the chain runs; a loop
over the rows of X computes z_i, the chain and the row's share of g while the
row is still in the cache, so X — the one large array — is read once per
step.  This module finds that pattern on the plan, as data; a renderer makes
the loop (interp/backends/c/sweeps_c.py, C on the CPU).

A `Sweep` is three consecutive items of `fusion.fuse`'s output:

* `dense`: `z = dot w x` (either operand order), x a per-example vector of
  the data ([B, d], one row per example, d ≤ MAX_WIDTH), w a weight vector
  of the same length ([d], one for all examples);
* `group`: a `fusion.Group` of per-example scalars (shape ()) reading z, z
  used by nothing after it and not reported;
* `product`: `g = mul r x` (either order) on the same x, summed over the
  batch inside the product (codegen's `fused_reductions`), r an unreduced
  output of the group that nothing else reads and that is not reported.

Its inputs are w, x and the group's other inputs; its outputs the group's
other outputs (arrays [B] or batch sums) and g, a batch sum.  Everything the
three items release is released after the sweep, as nothing runs between
them.
"""
from __future__ import annotations


from tenflang.base.frozen import frozen
from .fusion import Group, Role

# a row of x and its partial sum of g stay in a core's cache between the dot
# product and the axpy up to about this length; a longer row is read from
# memory twice and the two BLAS products are faster (1.11x at 100,000, 0.92x
# at 10,000: bench/results_sweep.md)
MAX_WIDTH = 16_384


@frozen
class Sweep:
    dense: object              # the plan's Step z = dot w x
    group: Group               # the chain over z, per-example scalars
    product: object            # the plan's Step g = mul r x, summed over the batch
    weights: str               # w
    matrix: str                # x
    width: int                 # d: the length of x's rows, of w and of g

    @property
    def residual(self) -> str:     # r: the chain's value the product weights the rows by
        return next(o for o in self.product.operands if o != self.matrix)

    @property
    def inputs(self) -> tuple:     # the group's inputs but z, by role (w, x apart)
        return tuple(i for i in self.group.inputs if i.name != self.dense.target)

    @property
    def outputs(self) -> tuple:    # the group's outputs but r (g apart)
        return tuple(o for o in self.group.outputs if o.name != self.residual)

    @property
    def release(self) -> tuple[str, ...]:
        inner = {self.dense.target, self.residual}
        names = self.dense.release + self.group.release + self.product.release
        return tuple(n for n in dict.fromkeys(names) if n not in inner)

    @property
    def target(self) -> str:       # a name for messages and generated code
        return self.product.target


def with_sweeps(plan, items: tuple, blas: dict, batched: set[str]) -> tuple:
    """`items` (fusion.fuse's output) with each dense/group/product run that
    forms a `Sweep` (module docstring) replaced by it; `blas`: the results
    summed inside their product."""
    out, k = [], 0
    while k < len(items):
        sweep = match(plan, items[k:k + 3], blas, batched)
        if sweep:
            out.append(sweep)
            k += 3
        else:
            out.append(items[k])
            k += 1
    return tuple(out)


def match(plan, run: tuple, blas: dict, batched: set[str]) -> Sweep | None:
    """The Sweep made by three consecutive items, or None."""
    if len(run) != 3 or not isinstance(run[1], Group) or isinstance(run[0], Group) \
            or isinstance(run[2], Group):
        return None
    dense, group, product = run
    operands = dense_operands(plan, dense, batched)
    if operands is None:
        return None
    weights, matrix = operands
    if not (chain_reads(plan, group, dense.target) and product.target in blas
            and product.op.name == "mul" and matrix in product.operands):
        return None
    residual = [o for o in product.operands if o != matrix]
    if len(residual) != 1 or not product_weight(plan, group, product, residual[0]):
        return None
    return Sweep(dense, group, product, weights, matrix, plan.shapes[matrix][0])


def dense_operands(plan, step, batched: set[str]) -> tuple[str, str] | None:
    """(w, x) of `z = dot w x` with x per example and w shared, both [d]."""
    if step.op.name != "dot" or not all(isinstance(o, str) for o in step.operands):
        return None
    a, b = step.operands
    weights, matrix = (a, b) if b in batched else (b, a)
    if matrix not in batched or weights in batched or len(plan.shapes[matrix]) != 1 \
            or tuple(plan.shapes[weights]) != tuple(plan.shapes[matrix]) \
            or plan.shapes[matrix][0] > MAX_WIDTH:
        return None
    return weights, matrix


def chain_reads(plan, group: Group, z: str) -> bool:
    """The group is a per-example scalar chain that is z's only later reader."""
    return (group.shape == () and z in group.release and z not in plan.results
            and any(i.name == z and i.role is Role.EXAMPLE for i in group.inputs))


def product_weight(plan, group: Group, product, r: str) -> bool:
    """r is the group's unreduced output read by the product alone."""
    return (r in product.release and r not in plan.results
            and any(o.name == r and o.reduce is None for o in group.outputs))
