"""One contract for the code generated from fused groups: the CPU's C loops
(interp/backends/c/c_loops.py), the same loops for numba (interp/backends/numba/numba_loops.py) and the
CUDA kernels (interp/backends/cuda/kernels.py) are three `Renderer`s of one `KernelSpec`.

    spec = group_spec(group, "loop_1")      # a fused group (interp/planning/fusion.py) as a spec
    lines = CLoops().kernel(spec, "float32")  # or NumbaLoops(), CudaKernels()

The spec, the same for every target (the model is tinygrad's `Renderer` with
its C-style base):

* A kernel computes a run of elementwise `Line`s for every element (e, j):
  example e of the batch and element j of the per-example shape G (n =
  size(G) elements, row-major).  It reads `inputs`, writes `outputs` element
  by element and sums the `reduced` values over the examples.
* Arrays are flat, in the interpreter's layout (ops/forwards.py): a leading example
  axis of size B for a `batched` value (else 1), then the per-example axes.
  Value v is read and written at `Renderer.offset(v, G)`: `e * n + j` for a
  per-example value of shape G, `e` for a per-example scalar, `j` for a weight
  of shape G, `0` for a scalar weight, and numpy's broadcasting with constant
  strides in between.  An output smaller than G is written by the one element
  whose coordinates along its broadcast axes are 0 (`write_guard`).
* A CPU loop over j runs as two nested loops, `jo` over G's first `split`
  axes and `ji` over the rest (j = jo · m + ji, m the rest's size), when some
  input is broadcast along G's leading axes only (a convolution's bias
  [C, 1, 1] against [C, H, W]): its offset is then `jo`, the same for a whole
  inner loop, which the C compiler vectorises; `(j / 64)` it does not
  (measured: 79 against 16 µs for a bias and relu over 64 × 16 × 8 × 8
  floats).  `split_axes` chooses it; without such an input the loop is flat.

Written once, for every target (`Renderer.body`): one load per input, one
line per step commented with its TenFlang line, one store per output.  Names
come from `tenflang.base.naming` through `Renderer.names()`: a value is
`spell(name)` (C: `v_x`, Python: `x`), its arrays that with a suffix (`_in`,
`_out`, `_partial`, `_acc`; `Identifiers` keeps all distinct), and `WORDS`
(the kernels' index and loop names) are never a value's.

Per target, a few named fields and methods: `spell`, `words`, `comment`,
`idiv` and `conjunction` (integer division and `and` in its syntax),
`declare` (a local), `expression` (a step's scalar form), `kernel` (the loop
around the body, with its parameters and sums) and `module` (the file around
the kernels).  `CStyle` is C and CUDA C's common part: C types, `restrict`
pointers, the preamble of helpers and literals by dialect (interp/backends/scalar_c.py).

On the CPU a sum is taken per block of `BLOCK` examples into `partial[block,
j]` and the wrapper (interp/backends/cpu_loops.py) adds the blocks in order, so a
sum does not depend on the thread count, and the C and numba loops add the
same terms in the same order.  Native code written by hand (the image ops'
kernels, interp/backends/c/image_c.py) can take the same conventions from `CStyle`: the
preamble (`tf_min`/`tf_max`), `restrict` parameters, literals and names.
"""
from __future__ import annotations

import math

from tenflang.base.frozen import frozen
from tenflang.lang.printer import number, op_words
from tenflang.base.naming import Generated, Identifiers, c_identifier, numbered
from tenflang.ops.shapes import Shape
from .scalar_c import CTYPES, Untranslatable, literal, preamble, to_c

BLOCK = 1024               # examples per partial sum on the CPU
WORDS = ("i", "e", "j", "jo", "ji", "n", "r", "batch", "rows", "start", "stop", "block", "end")


@frozen
class Value:
    """A value a kernel reads or writes: the program's name and where it lives."""
    name: str
    shape: Shape              # per-example shape
    batched: bool             # has an example axis of size B (else of size 1)


@frozen
class Line:
    """One elementwise step: `target = form`, `a`/`b`/`c` being `operands`."""
    target: str
    form: str                 # the op's scalar form, a Python expression over a, b, c
    operands: tuple           # names, or numbers (literals)
    text: str = ""            # the TenFlang line it comes from (a comment)


@frozen
class KernelSpec:
    name: str                         # the kernel's (function's) name
    shape: Shape                      # the per-example shape G it runs over
    inputs: tuple[Value, ...]
    lines: tuple[Line, ...]
    outputs: tuple[Value, ...]        # written element by element
    reduced: tuple[Value, ...] = ()   # summed over the examples (shape G)


def kernel_key(spec: KernelSpec) -> tuple:
    """What `spec` computes, its names left out: equal for two specs whose
    kernels differ only in their names (ResNet's repeated blocks), so that
    one compiled kernel runs both.  Its `anonymous` form, a literal kept by
    its type and repr (0.0 == -0.0 in Python, not in a kernel)."""
    plain = anonymous(spec)

    def exact(x):
        return x if isinstance(x, str) else (type(x).__name__, repr(x))

    def values(vs):
        return tuple((v.name, tuple(v.shape), v.batched) for v in vs)
    lines = tuple((line.target, line.form, tuple(map(exact, line.operands)))
                  for line in plain.lines)
    return tuple(plain.shape), values(plain.inputs), lines, values(plain.outputs), \
        values(plain.reduced)


def anonymous(spec: KernelSpec) -> KernelSpec:
    """`spec` with its values named `t1`, `t2`, ... by first appearance
    (parameters keep their order) and no comments: two specs with the same
    `kernel_key` have the same anonymous form (what the C loops' library is
    cached under, c_loops.py)."""
    numbers: dict = {}

    def named(x):
        return numbers.setdefault(x, f"t{len(numbers) + 1}") if isinstance(x, str) else x

    def values(vs):
        return tuple(Value(named(v.name), v.shape, v.batched) for v in vs)
    inputs = values(spec.inputs)
    lines = tuple(Line(named(line.target), line.form, tuple(map(named, line.operands)))
                  for line in spec.lines)
    return KernelSpec(spec.name, spec.shape, inputs, lines, values(spec.outputs),
                      values(spec.reduced))


def tenflang_line(step) -> str:
    """A plan's step as its TenFlang line (a comment of generated code); a kept
    loop's names its macro and its several targets."""
    operands = [o if isinstance(o, str) else number(o) for o in step.operands]
    return f"{', '.join(step.targets)} = " + op_words(
        step.op.name, ([step.cell] if step.cell else []) + operands, step.op.written(step.attrs))


def form_of(op, forms: dict | None) -> str:
    form = (forms or {}).get(op.name) or op.scalar
    if not form:
        raise Untranslatable(f"the op '{op.name}' has no scalar form to fuse")
    return form


def group_spec(group, name: str, forms: dict | None = None) -> KernelSpec:
    """A fused group as a spec; `forms` overrides scalar forms by op name."""
    shape = tuple(group.shape)

    def read(i):
        return Value(i.name, i.shape, i.role.varies)
    lines = tuple(Line(s.target, form_of(s.op, forms), tuple(s.operands), tenflang_line(s))
                  for s in group.steps)
    return KernelSpec(name, shape, tuple(read(i) for i in group.inputs), lines,
                      tuple(Value(o.name, shape, True) for o in group.outputs if not o.reduce),
                      tuple(Value(o.name, shape, True) for o in group.outputs if o.reduce))


def group_specs(groups, prefix: str = Generated.LOOP, forms: dict | None = None
                ) -> list[KernelSpec]:
    """One spec per group, named `<prefix>_<k>` (k = 1, 2, ... as the plan calls `F.fused_<k>`)."""
    return [group_spec(g, numbered(prefix, k), forms) for k, g in enumerate(groups, start=1)]


def output_order(group) -> list[int]:
    """Where each of `Group.outputs` is among a kernel's results (outputs, then reduced)."""
    order = [o.name for o in group.outputs if not o.reduce] + \
        [o.name for o in group.outputs if o.reduce]
    return [order.index(o.name) for o in group.outputs]


def size(shape: Shape) -> int:
    return math.prod(shape)


def aligned(shape: Shape, rank: int) -> Shape:
    return (1,) * (rank - len(shape)) + tuple(shape)


def strides(shape: Shape) -> list[int]:
    return [size(shape[k + 1:]) for k in range(len(shape))]


def split_axes(spec: KernelSpec) -> int:
    """How many of G's leading axes a CPU loop's outer loop `jo` runs over (0:
    one flat loop over j): the fewest after which every input is either whole
    or of size 1 along the remaining axes (module docstring)."""
    group = tuple(spec.shape)
    for k in range(len(group)):
        tails = [aligned(v.shape, len(group))[k:] for v in spec.inputs]
        if all(t == group[k:] or size(t) == 1 for t in tails):
            return k
    return 0


class Renderer:
    """A target's way of writing a `KernelSpec` (see the module docstring)."""
    spell = staticmethod(c_identifier)
    words: tuple[str, ...] = WORDS
    comment = "//"
    idiv = "/"                   # integer division of non-negative indices
    conjunction = " && "

    def names(self, words=()) -> Identifiers:
        """The identifiers of one kernel's scope (`words`: a kernel's own, more)."""
        return Identifiers(self.spell, self.words + tuple(words))

    def declare(self, dtype: str, name: str, code: str) -> str:
        raise NotImplementedError

    def statement(self, code: str) -> str:
        return code

    def guarded(self, condition: str, statement: str) -> str:
        raise NotImplementedError

    def expression(self, line: Line, ids: Identifiers, dtype: str) -> str:
        raise NotImplementedError

    def kernel(self, spec: KernelSpec, dtype: str) -> list[str]:
        raise NotImplementedError

    def coordinate(self, k: int, group: Shape, split: int = 0) -> str:
        """Element j's coordinate along axis k of the group's shape (with
        `split` outer axes: from `jo` or `ji`, the module docstring)."""
        index, first, axes = "j", 0, tuple(group)
        if split:
            index, first, axes = ("jo", 0, axes[:split]) if k < split else ("ji", split, axes)
        stride = size(axes[k + 1:])
        c = index if stride == 1 else f"({index} {self.idiv} {stride})"
        return c if k == first else f"({c} % {group[k]})"

    def offset(self, value: Value, group: Shape, split: int = 0) -> str:
        """Where element (e, j) reads or writes `value` (broadcasting)."""
        shape = aligned(value.shape, len(group))
        if size(group) == 1:
            inner = "0"
        elif shape == tuple(group):
            inner = "j"
        else:
            inner = " + ".join(f"{self.coordinate(k, group, split)} * {stride}" if stride != 1
                               else self.coordinate(k, group, split)
                               for k, stride in enumerate(strides(shape)) if shape[k] != 1) or "0"
        if not value.batched:
            return inner
        outer = "e" if size(shape) == 1 else f"e * {size(shape)}"
        return outer if inner == "0" else f"{outer} + {inner}"

    def write_guard(self, value: Value, group: Shape, batched: bool, split: int = 0
                    ) -> str | None:
        """The condition under which one element alone writes a smaller output."""
        shape = aligned(value.shape, len(group))
        terms = [f"{self.coordinate(k, group, split)} == 0" for k in range(len(group))
                 if shape[k] == 1 and group[k] != 1]
        if batched and not value.batched:
            terms.insert(0, "e == 0")
        return self.conjunction.join(terms) or None

    def body(self, spec: KernelSpec, ids: Identifiers, dtype: str, indent: str,
             split: int = 0) -> list[str]:
        """Loads, one line per step, stores (element (e, j) in scope; with
        `split` outer axes, `jo` and `ji` too)."""
        out = [self.declare(dtype, ids(v.name),
                            f"{ids(v.name, '_in')}[{self.offset(v, spec.shape, split)}]")
               for v in spec.inputs]
        for line in spec.lines:
            code = self.declare(dtype, ids(line.target), self.expression(line, ids, dtype))
            out.append(code + (f"    {self.comment} {line.text}" if line.text else ""))
        batched = any(v.batched for v in spec.inputs)
        for v in spec.outputs:
            store = self.statement(
                f"{ids(v.name, '_out')}[{self.offset(v, spec.shape, split)}] = {ids(v.name)}")
            guard = self.write_guard(v, spec.shape, batched, split)
            out.append(self.guarded(guard, store) if guard else store)
        return [indent + line for line in out]

    def loop(self, index: str, count: int) -> str:
        """The first line of a loop of `index` over 0..count-1."""
        raise NotImplementedError

    end_loop: str | None = None      # the line that closes a loop, if the syntax has one

    def element_loops(self, spec: KernelSpec, ids: Identifiers, dtype: str, depth: int
                      ) -> list[str]:
        """On the CPU: the loop over the elements j of G around the body and the
        partial sums, at `depth` indents (flat, or `jo` and `ji`: the module
        docstring)."""
        split, n = split_axes(spec), size(spec.shape)
        inner = size(spec.shape[split:]) if split else n
        loops = [("jo", n // inner), ("ji", inner)] if split else [("j", n)]
        lines = ["    " * (depth + k) + self.loop(index, count)
                 for k, (index, count) in enumerate(loops)]
        pad = "    " * (depth + len(loops))
        if split:
            lines.append(pad + self.index_line("j", f"jo * {inner} + ji"))
        lines += self.body(spec, ids, dtype, pad, split)
        lines += [pad + line for line in self.partial_sums(spec, ids)]
        if self.end_loop:
            lines += ["    " * (depth + k) + self.end_loop for k in reversed(range(len(loops)))]
        return lines

    def index_line(self, name: str, code: str) -> str:
        """An index computed from others, `name = code`."""
        raise NotImplementedError

    def partial_sums(self, spec: KernelSpec, ids: Identifiers) -> list[str]:
        """On the CPU: each reduced value added to its block's partial sum."""
        n = size(spec.shape)
        row = "block" if n == 1 else f"block * {n} + j"
        return [self.statement(f"{ids(v.name, '_partial')}[{row}] += {ids(v.name)}")
                for v in spec.reduced]

    def arrays(self, spec: KernelSpec, ids: Identifiers) -> list[str]:
        """The kernel's array parameters: inputs, outputs, partial sums."""
        return ([ids(v.name, "_in") for v in spec.inputs]
                + [ids(v.name, "_out") for v in spec.outputs]
                + [ids(v.name, "_partial") for v in spec.reduced])


class CStyle(Renderer):
    """C and CUDA C: what the two share (see the module docstring)."""
    dialect = "c"
    restrict = "restrict"
    index = "long"               # the type of e, j and the sizes

    end_loop = "}"

    def declare(self, dtype: str, name: str, code: str) -> str:
        return f"const {CTYPES[dtype]} {name} = {code};"

    def loop(self, index: str, count: int) -> str:
        return f"for ({self.index} {index} = 0; {index} < {count}; {index}++) {{"

    def index_line(self, name: str, code: str) -> str:
        return f"const {self.index} {name} = {code};"

    def statement(self, code: str) -> str:
        return code + ";"

    def guarded(self, condition: str, statement: str) -> str:
        return f"if ({condition}) {statement}"

    def operand(self, operand, ids: Identifiers, dtype: str) -> str:
        return ids(operand) if isinstance(operand, str) else literal(
            operand, CTYPES[dtype], self.dialect)

    def expression(self, line: Line, ids: Identifiers, dtype: str) -> str:
        names = dict(zip("abc", (self.operand(o, ids, dtype) for o in line.operands)))
        return to_c(line.form, names, dtype, where=line.text or line.target, dialect=self.dialect)

    def parameters(self, spec: KernelSpec, ids: Identifiers, dtype: str) -> list[str]:
        """The array parameters, as `restrict` pointers (inputs read-only)."""
        t, reads = CTYPES[dtype], len(spec.inputs)
        return [f"{'const ' if k < reads else ''}{t} *{self.restrict} {name}"
                for k, name in enumerate(self.arrays(spec, ids))]

    def preamble(self, dtype: str) -> str:
        return preamble(dtype, self.dialect).rstrip("\n")
