"""A plan's static memory plan: buffers made once per batch shape, reused by liveness.

    slots = Slots()                        # codegen fills it while it writes the plan
    k = slots.take("h", (128,), True)      # `h` is written into buf[k] (`out=buf[k]`)
    slots.alias("r", ["h"])                # `r` is a view of `h` (or `h` written in place)
    slots.release(["h", "r"])              # their last use: buf[k] is free again
    buf = Buffers().arrays(slots.layout, batch=32, dtype=numpy.float64, xp=numpy)

Conventions:

* A slot is one array of shape [B, *shape] (or [1, *shape] for a value that
  does not vary per example) in the run's dtype; `Slots.layout` lists the
  slots' (per-example shape, varies per example) in slot order.  A value takes
  a free slot of its shape, or a new one: interval colouring in program order,
  so the slots are at most the values live at once (of each shape).
* A slot is busy while any value that may share its memory is live: the value
  written into it, views of it (`Op.view`: reshape, transpose, `copy`...) and
  results written into it in place.  It frees when the last of them is
  released (the plan's `del` points).  A released slot is reused only by a
  later step, never by the step that releases it (a fused loop's arrays are
  `restrict`: its outputs must not be its inputs).
* Which steps write into slots is codegen's choice (interp/runtime/codegen.py): numpy
  ufunc steps and the arrays of fused loops.  Everything else still makes its
  own array at every run: the ops' own forwards (softmax, convolution,
  pooling, ...), BLAS products and the batch sums inside them, views, and the
  plan's results where they are summed inside a product or loop.
* A convolution's columns that its kernel gradient reads too are counted
  from the forward to the kernel gradient: what a run holds while it keeps
  them, up to `image_c.KEEP_BYTES` (12 MiB).  Past that size the run makes
  them again in the kernel gradient, a chunk per loop thread at a time, and
  holds less than this plan counts (LeNet-5, float32, batch 256: 15 MB of
  columns, made again).
* A run's results pass through `run.collect`, which sums them over the batch
  into new arrays, so the plan uses slots only with a batch reduction (what
  training runs): a caller never holds a buffer the next run overwrites.
* `Buffers` keeps the arrays between runs (the training loop holds one per
  run): made on the first run of a batch shape, reused by every later one, so
  a training loop's steady state allocates nothing for the slots.  It keeps
  `KEPT` layouts (a full batch and an epoch's shorter last one).
"""
from __future__ import annotations

from collections import OrderedDict

from tenflang.ops.shapes import size
from ..backends.c.rows_c import FORWARDS as ROW_OPS

KEPT = 4          # batch shapes whose buffers a Buffers keeps
# temporaries the size of its result an op's function holds at once, at most
# (softmax, log_softmax, the derivatives of tanh and the logistic: two)
SCRATCH = 2
CONVOLUTIONS = ("conv2d", "conv2d_image_grad", "conv2d_kernel_grad")
ROW_KERNELS = frozenset(ROW_OPS)        # softmax, log_softmax, one_hot


class Slots:
    """Slot assignment by liveness, and the run's memory (module docstring)."""

    def __init__(self):
        self.layout: list[tuple[tuple, bool]] = []   # slot -> (per-example shape, varies)
        self.free: dict[tuple, list[int]] = {}        # (shape, varies) -> free slots
        self.array_of: dict[str, object] = {}         # live value -> its slot, or a made array
        self.holders: dict[object, set[str]] = {}     # live array -> values in it
        self.made: dict[object, tuple] = {}           # arrays steps make -> (shape, varies)
        self.live = self.peak = (0, 0)                 # made arrays' elements: (per example, fixed)

    def take(self, name: str, shape, varies: bool) -> int:
        """A free slot for `name` (of per-example `shape`), or a new one."""
        key = (tuple(shape), bool(varies))
        free = self.free.get(key)
        k = free.pop() if free else len(self.layout)
        if k == len(self.layout):
            self.layout.append(key)
        self.hold(name, k)
        return k

    def make(self, name: str, shape, varies: bool, scratch: tuple[int, int] = (0, 0)) -> None:
        """`name` is an array its step makes (not a slot): counted while it lives,
        with `scratch` elements (per example, fixed) more while the step runs
        (the op's temporaries)."""
        array = ("made", len(self.made))
        self.made[array] = (tuple(shape), bool(varies))
        self.live = added(self.live, self.made[array], 1)
        self.peak = tuple(map(max, self.peak, (self.live[0] + scratch[0], self.live[1] + scratch[1])))
        self.hold(name, array)

    def hold(self, name: str, array) -> None:
        self.array_of[name] = array
        self.holders.setdefault(array, set()).add(name)

    def alias(self, name: str, operands) -> None:
        """`name` may share the memory of `operands` (a view, a copy, in place)."""
        for o in operands:
            if o in self.array_of:
                self.hold(name, self.array_of[o])

    def release(self, names) -> None:
        for name in names:
            array = self.array_of.pop(name, None)
            if array is None:
                continue
            self.holders[array].discard(name)
            if not self.holders[array]:
                del self.holders[array]
                if array in self.made:
                    self.live = added(self.live, self.made[array], -1)
                else:
                    self.free.setdefault(self.layout[array], []).append(array)

    def elements(self) -> tuple[int, int]:
        """The run's arrays at their peak, in elements (per example, fixed): every
        slot, and the most the steps' own arrays hold at once, their
        temporaries included as `make` was told (not counted: the data given
        to the run)."""
        total = (0, 0)
        for key in self.layout:
            total = added(total, key, 1)
        return total[0] + self.peak[0], total[1] + self.peak[1]


def columns_shape(step, shapes) -> tuple[int, int]:
    """A convolution step's columns per example: [C·kh·kw, output pixels], C
    all the image's channels (a kernel holds C/groups of them)."""
    name = step.op.name
    kernel = shapes[step.operands[2 if name == "conv2d_kernel_grad" else 1]]
    out = shapes[step.target if name == "conv2d" else step.operands[0]]
    groups = step.attrs[2] if len(step.attrs) > 2 else 1
    return groups * size(kernel[1:]), size(out) // kernel[0]


def workspace(step, shapes, varies: bool, kept: bool = False) -> tuple[int, int]:
    """Elements (per example, fixed) a step's op holds besides its result: a
    convolution its columns, C·kh·kw per output pixel (none when `kept` from
    the forward), another op up to SCRATCH temporaries of its result's size
    (`varies`: per example), a ufunc none, nor an op of the row kernels
    (interp/backends/c/rows_c.py: one C call writing its result)."""
    name = step.op.name
    if name in CONVOLUTIONS:
        return (0, 0) if kept else (size(columns_shape(step, shapes)), 0)
    if step.op.ufunc or name in ROW_KERNELS:
        return (0, 0)
    n = SCRATCH * size(shapes[step.target])
    return (n, 0) if varies else (0, n)


def added(count: tuple[int, int], key: tuple, sign: int) -> tuple[int, int]:
    """`count` (per example, fixed) with an array of (shape, varies) added (or taken)."""
    shape, varies = key
    n = sign * size(shape)
    return (count[0] + n, count[1]) if varies else (count[0], count[1] + n)


class Buffers:
    """The slots' arrays, kept between runs (see the module docstring)."""

    def __init__(self):
        self.kept: OrderedDict = OrderedDict()

    def arrays(self, layout, batch: int, dtype, xp) -> list:
        key = (layout, batch, dtype, xp)         # layout: a tuple (codegen.compiled's)
        if key not in self.kept:
            self.kept[key] = allocate(layout, batch, dtype, xp)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return self.kept[key]

    def nbytes(self) -> int:
        return sum(a.nbytes for arrays in self.kept.values() for a in arrays)


def allocate(layout, batch: int, dtype, xp) -> list:
    return [xp.empty(((batch if varies else 1),) + tuple(shape), dtype) for shape, varies in layout]


__all__ = ["Slots", "Buffers", "allocate"]
