"""Every name TenFlang makes, in one place.

Names in programs (docs/design.md fixes them; they appear in GCPs):

* `adjoint("W1")` is `d/dW1`, the gradient of the loss with respect to W1;
* `partial_name("h", "x")` is `dh/dx`, the partial derivative of h by its operand x;
* `temporary("h", 1)` is `tmp/h/1`: the k-th temporary of the GCP block of
  node h (a term of `d/dh` before the sum, an inner node of a derivative
  rule, a contribution before `sum_like`, the partial of an operand that
  occurs twice); the `tmp/` prefix is never a user's name (no `/`), an
  adjoint (`d/d...`) or a partial (`d<v>/d...`), so `d/dv` and `dv/dm` only
  ever name real adjoints and partials;
* `local("z", 1)` is `z.1`: the k-th local of a target — a macro's locals
  (`<call>.<local>`, by name) and the nodes a nested expression
  introduces (`<target>.<k>`); `Namer` hands out fresh ones.

Identifiers in generated code (never a user's name bare where it could
collide with anything the generated code or its language gives a meaning):

* Python (plans, numba loops): `python_identifier` keeps the program's name,
  readable, with `.` and `/` as `_` (`h.1` -> `h_1`, `d/dW1` -> `d_dW1`);
  one that is a Python keyword, soft keyword or builtin (`lambda`, `range`,
  `abs`), starts with `__`, or looks like a generated function (`loop_1`,
  `fused_1`) gets a trailing `_` (`range_`).  That set is complete: a
  function's local can only hide a keyword, a builtin, or a global of its
  module, and the generated modules' globals are `np`, `math`, `numba`,
  `loop_<k>`, `fused_<k>`; a scope's own words (its parameters, loop
  indices: `Identifiers(words=...)`) get the trailing `_` too.
* C and CUDA C (fused loops, sweeps, kernels): `c_identifier` prefixes every
  program name with `v_` (`NAN` -> `v_NAN`, `d/dW1` -> `v_d_dW1`): no C
  keyword, math.h function or macro (`NAN`, `INFINITY`, `HUGE_VAL`, `M_PI`),
  predefined macro (`__LINE__`, `linux`) or identifier the C standard
  reserves (`_Bool`, `__x`) begins so, and the generated code's own words
  never do.
* Functions of generated code are numbered in the plan's order,
  `numbered(Generated.LOOP, 1)` -> `loop_1`: a fused group's loop (C or
  numba) `loop_<k>`, its call in the plan `F.fused_<k>`, its CUDA kernel
  `tenflang_fused_<k>`, a sweep `sweep_<k>`.
* `Identifiers(spell, words)` makes those distinct within one scope: the
  first to claim an identifier keeps it, a later one gets `_2`, `_3`, ...
  (`h.1` and `h_1` in one program); a suffix names a value's array
  (`x` -> `v_x_in`).  Every renderer of loops and kernels takes its scope
  from `interp/backends/render.py`'s `Renderer.names()` (its words: `render.WORDS`).
"""
from __future__ import annotations

import builtins
import keyword
import re
from dataclasses import field
from enum import StrEnum
from typing import Callable

from .frozen import mutable

# ----------------------------------------------------------------------------- program names


def adjoint(name: str) -> str:
    """The name of the gradient of the loss by `name`: `d/d<name>`."""
    return f"d/d{name}"


def partial_name(node: str, operand: str) -> str:
    """The name of the partial derivative of `node` by `operand`: `d<node>/d<operand>`."""
    return f"d{node}/d{operand}"


TEMPORARY = "tmp"


def temporary(node: str, k: int) -> str:
    """The temporary `k` of node `node`'s GCP block: `tmp/<node>/<k>`."""
    return f"{TEMPORARY}/{node}/{k}"


def is_temporary(name: str) -> bool:
    """Whether `name` is a GCP temporary (`tmp/h/1`)."""
    return name.startswith(TEMPORARY + "/")


def local(target: str, k) -> str:
    """The local `k` (a number, or a macro local's name) of `target`: `<target>.<k>`."""
    return f"{target}.{k}"


def is_numbered(name: str) -> bool:
    """Whether `name` is a numbered local (`z.1`: a nested expression's node):
    a user's name segment never starts with a digit, so a message shows the
    expression, never this name."""
    return name.rpartition(".")[2][:1].isdigit()


def cell_adjoint(cell: str) -> str:
    """The adjoint macro of a kept loop's cell `cell`: `adjoint/<cell>`
    (docs/design.md §2.5.1; no variable's name starts `adjoint/`)."""
    return f"adjoint/{cell}"


def cell_of_adjoint(name: str) -> str:
    """The cell whose adjoint macro is `name` (`gru` of `adjoint/gru`)."""
    return name.removeprefix("adjoint/")


def derivative_of(name: str) -> str | None:
    """The variable a derivative's name is taken by (`h.1` of `d/dh.1` and of
    `dq/dh.1`), None for a name that is not `d/d<v>` or `d<u>/d<v>`."""
    head, slash, tail = name.partition("/")
    return tail[1:] if slash and head[:1] == "d" and tail[:1] == "d" else None


@mutable
class Namer:
    """Fresh names `<base>.1`, `<base>.2`, ... never reusing a name; the
    macro and nested-expression lowering and the reverse sweep share one; the
    sweep's temporaries come from `temporary`.  A fresh name is never the
    derivative by one of `variables` (the program's variables): compiling a
    GCP again (second derivatives), whose `d/dW` is taken, the new adjoint of
    W is `d/dW.1` only where no variable `W.1` exists (docs/design.md §2.5)."""
    used: set[str]
    counters: dict[str, int] = field(default_factory=dict)
    variables: frozenset[str] = frozenset()
    temporaries: dict[str, int] = field(default_factory=dict)   # node -> last k

    def __call__(self, base: str) -> str:
        n = self.counters.get(base, 0)
        while True:
            n += 1
            name = local(base, n)
            if name not in self.used and derivative_of(name) not in self.variables:
                self.counters[base] = n
                self.used.add(name)
                return name

    def temporary(self, node: str) -> str:
        """A fresh temporary of node's block (`naming.temporary`)."""
        k = self.temporaries.get(node, 0)
        while True:
            k += 1
            name = temporary(node, k)
            if name not in self.used:     # taken only where the program is itself a GCP
                self.temporaries[node] = k
                self.used.add(name)
                return name

    def claim(self, name: str) -> str:
        """`name` itself if free, else a fresh variant of it."""
        if name in self.used:
            return self(name)
        self.used.add(name)
        return name


# ----------------------------------------------------------------------------- identifiers

class Generated(StrEnum):
    """The kinds of generated functions (module docstring)."""
    LOOP = "loop"                    # a fused group's C or numba loop
    FUSED = "fused"                  # its call in the plan: F.fused_<k>
    KERNEL = "tenflang_fused"        # its CUDA kernel
    SWEEP = "sweep"                  # a sweep's C loop and its call


def numbered(kind: str, k: int) -> str:
    """The k-th generated function of `kind` (k = 1, 2, ...): `loop_1`."""
    return f"{kind}_{k}"


PYTHON_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(
    dir(builtins))
# the generated modules' own globals (numba's loop_<k>; fused_<k> as the plan's were once)
GENERATED_FUNCTION = re.compile(rf"({Generated.LOOP}|{Generated.FUSED})_\d+$")
C_PREFIX = "v_"


def python_identifier(name: str) -> str:
    """A program name as a readable Python identifier that hides nothing."""
    cleaned = re.sub(r"[./]", "_", name)
    if cleaned in PYTHON_RESERVED or cleaned.startswith("__") or GENERATED_FUNCTION.match(cleaned):
        return cleaned + "_"
    return cleaned


def c_identifier(name: str) -> str:
    """A program name as a C identifier no header, macro or keyword can touch."""
    return C_PREFIX + re.sub(r"\W", "_", name)


class Identifiers:
    """The identifiers of one scope of generated code: each program name (with
    an optional `suffix`, e.g. `_in` for the array it is read from) spelled by
    `spell`; one that is a word of the scope's own (`words`: its parameters,
    loop indices) gets a trailing `_`, and all are distinct (`_2`, `_3`, ...)."""

    def __init__(self, spell: Callable[[str], str] = python_identifier, words=()):
        self.spell, self.names = spell, {}
        self.words, self.taken = frozenset(words), set(words)

    def __call__(self, name: str, suffix: str = "") -> str:
        if (name, suffix) not in self.names:
            base = self.spell(name)
            base = base.rstrip("_") + suffix if suffix else base
            base = candidate = base + "_" if base in self.words else base
            k = 2
            while candidate in self.taken:
                candidate, k = f"{base}_{k}", k + 1
            self.taken.add(candidate)
            self.names[name, suffix] = candidate
        return self.names[name, suffix]

    def share(self, name: str, other: str) -> str:
        """`name` goes by `other`'s identifier (a value written in place of another)."""
        self.names[name, ""] = self(other)
        return self.names[name, ""]

    def given(self, name: str) -> bool:
        return (name, "") in self.names
