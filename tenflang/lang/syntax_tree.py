"""The TenFlang syntax tree: frozen dataclasses (`node`), and nothing of lark.

Positions (1-based line and column) are carried for error messages but are
left out of equality, so a program printed and parsed again compares equal to
the original.  `origin` is the chain of macro call sites a statement was
expanded from, innermost first (empty for statements written directly); a
site is a `Pos`, or a `Step` for a step of a `fold`/`scan` (lang/loops.py).
"""
from __future__ import annotations

from dataclasses import field
from enum import StrEnum

from tenflang.base.frozen import frozen as node    # a frozen dataclass built quickly (tenflang/base/frozen.py)


class DeclKind(StrEnum):
    """What a declaration declares (docs/design.md); each equals the word the
    language writes, so `Declare.kind` may be either."""
    INPUT = "input"
    EXP_OUTPUT = "exp_output"
    WEIGHT = "weight"
    INTVAR = "intvar"
    OUTPUT = "output"
    LOSS = "loss"


KINDS = tuple(k.value for k in DeclKind)
# bound from data, never defined
BOUND_KINDS = frozenset({DeclKind.INPUT, DeclKind.WEIGHT, DeclKind.EXP_OUTPUT})


@node
class Pos:
    line: int
    column: int


@node
class Step:
    """A call site that is step `step` (0-based) of the `fold`/`scan` whose op
    is at `pos`; error messages name the step."""
    pos: Pos | None
    step: int
    loop: str


@node
class Var:
    name: str
    pos: Pos | None = field(default=None, compare=False, repr=False)


@node
class Num:
    value: float
    pos: Pos | None = field(default=None, compare=False, repr=False)
    text: str | None = field(default=None, compare=False, repr=False)   # as written


@node
class Dims:
    """A shape literal `[d1, ...]` written where an attribute goes."""
    values: tuple[int, ...]
    pos: Pos | None = field(default=None, compare=False, repr=False)


@node
class Expr:
    """A parenthesised operand `(op operands...)` (docs/design.md §2.4.1); macro
    expansion lowers it to one definition per op (`lang/nested.py`)."""
    op: str
    operands: tuple["Operand", ...]
    pos: Pos | None = field(default=None, compare=False, repr=False)      # the '('
    op_pos: Pos | None = field(default=None, compare=False, repr=False)
    depth: int = field(default=1, compare=False, repr=False)      # parentheses, innermost 1


Operand = Var | Num | Dims | Expr
Attribute = int | tuple[int, ...]


@node
class Init:
    """A weight's initialiser, `init ...` after its declaration (docs/design.md
    §2.2): `scheme` is "constant" for `init 1` (its number in `args`), else
    the word written (`normal`, `uniform`, `he`, `glorot`) with its numbers.
    `checks` decides whether the scheme and its numbers make sense."""
    scheme: str
    args: tuple[Num, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False)     # the scheme's


INIT_SCHEMES = {"constant": ("VALUE",), "normal": ("STD",), "uniform": ("LO", "HI"),
                "he": (), "glorot": ()}      # scheme -> the numbers it takes


@node
class Declare:
    kind: str
    name: str
    shape: tuple[int, ...] | None = None      # None: not written (scalar for data); in a
    # macro an axis may be a `Var`, an integer parameter, until the call (lang/owned.py)
    pos: Pos | None = field(default=None, compare=False, repr=False)
    name_pos: Pos | None = field(default=None, compare=False, repr=False)
    origin: tuple[Pos | Step, ...] = field(default=(), compare=False, repr=False)
    generated: bool = field(default=False, compare=False, repr=False)   # a nested result
    init: Init | None = None                  # a weight's `init ...`, None if not written


@node
class Define:
    """`define name = op operands... attributes...`; `define v = a` is the op
    `copy`.  The parser puts everything after the op into `operands`
    (`Dims` included); `checks.split_attributes` moves the op's attributes
    into `attrs` as ints and tuples of ints."""
    name: str
    op: str
    operands: tuple[Operand, ...]
    pos: Pos | None = field(default=None, compare=False, repr=False)
    op_pos: Pos | None = field(default=None, compare=False, repr=False)
    origin: tuple[Pos | Step, ...] = field(default=(), compare=False, repr=False)
    attrs: tuple[Attribute, ...] = ()
    cell: str = ""                 # a kept loop's macro (lang/loops.py), else ""
    more: tuple[str, ...] = ()     # targets after `name`: a loop's adjoint has several

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.name,) + self.more


@node
class Macro:
    name: str
    params: tuple[str, ...]
    result: str
    body: tuple["Statement", ...]
    pos: Pos | None = field(default=None, compare=False, repr=False)
    more: tuple[str, ...] = ()     # results after `result`: a loop cell's adjoint has several

    @property
    def results(self) -> tuple[str, ...]:
        return (self.result,) + self.more


@node
class Comment:
    """A comment line in generated code (the parser drops comments)."""
    text: str


Statement = Declare | Define | Macro | Comment


@node(slots=False)       # check() keeps its result beside the fields
class Program:
    statements: tuple[Statement, ...]
    filename: str = field(default="<input>", compare=False)
    source: str = field(default="", compare=False, repr=False)
    # the macros a kept loop calls, their bodies expanded (lang/loops.py): name -> Macro
    cells: dict = field(default_factory=dict, compare=False, repr=False)

    def declarations(self) -> dict[str, Declare]:
        return {s.name: s for s in self.statements if isinstance(s, Declare)}

    def definitions(self) -> list[Define]:
        return [s for s in self.statements if isinstance(s, Define)]
