"""An op's per-element scalar form (a Python expression) as C: CUDA C for the
GPU's kernels (interp/backends/cuda/kernels.py), plain C for the CPU's fused loops
(interp/backends/c/c_loops.py).

The op table writes each elementwise op once more as a Python expression over
one element of its operands, `a` and `b`, with `math.` functions and
conditional expressions (`(1.0 if a >= 0.0 else math.exp(-abs(a))) / (1.0 + math.exp(-abs(a)))`).
This module reads that expression with Python's `ast` module and writes the
same computation in C, for `double` or `float`:

    math.exp(a)       -> exp(a)                   float: expf(a)
    x if c else y     -> (c ? x : y)
    min(a, b)         -> tf_min(a, b)             NaN-propagating fmin (see below)
    a ** b            -> pow(a, b)
    abs(a)            -> fabs(a)
    2, 0.5            -> 2.0, 0.5                 float: 2.0f, 0.5f (never integer arithmetic)

`min`/`max` become `tf_min`/`tf_max`, defined in every kernel's preamble as
`fmin`/`fmax` that return NaN when an operand is NaN, as numpy's `minimum` and
`maximum` do (plain `fmin` would turn `relu(NaN)` into 0 and hide a diverging
run).  The two dialects differ only in how NaN and infinity are spelled (CUDA:
through their bits, as NVRTC has no headers; C: the compiler's builtins) and
in the helpers' qualifiers.  Anything the translator does not know is an error
naming the op and the construct, so a new scalar form that C cannot run fails
in the tests, never on a user's machine.
"""
from __future__ import annotations

import ast
import functools
import math

import numpy as np

# math.<name> (and the builtins abs) -> the C function for double; float appends "f"
FUNCTIONS = {
    "exp": "exp", "expm1": "expm1", "log": "log", "log1p": "log1p", "log2": "log2",
    "log10": "log10", "sqrt": "sqrt", "tanh": "tanh", "sinh": "sinh", "cosh": "cosh",
    "sin": "sin", "cos": "cos", "tan": "tan", "atan": "atan", "asin": "asin", "acos": "acos",
    "erf": "erf", "erfc": "erfc", "floor": "floor", "ceil": "ceil", "fabs": "fabs",
    "copysign": "copysign", "pow": "pow", "fmod": "fmod", "atan2": "atan2",
    "trunc": "trunc", "hypot": "hypot", "isnan": "isnan", "isinf": "isinf",
    "isfinite": "isfinite", "fmin": "fmin", "fmax": "fmax",
}
# those with vector forms in glibc's libmvec (2.35 on): `vector_declarations`
VECTOR = ("exp", "expm1", "log", "log1p", "log2", "log10", "tanh", "sinh", "cosh", "sin", "cos",
          "tan", "atan", "asin", "acos", "erf", "erfc", "pow", "atan2", "hypot")
TWO_ARGUMENTS = {"pow", "atan2", "hypot"}
# functions whose C name keeps no "f" suffix in float (they are overloaded predicates)
PREDICATES = {"isnan", "isinf", "isfinite"}
BUILTINS = {"abs": "fabs", "min": "tf_min", "max": "tf_max"}
CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "tau": math.tau}
BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
COMPARE = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!="}
CTYPES = {"float64": "double", "float32": "float"}
# numpy dtype (native byte order) -> its name in CTYPES: `dtype.name` costs 3 µs a call
DTYPES = {np.dtype(name): name for name in CTYPES}


class Untranslatable(ValueError):
    """A scalar form uses something CUDA C cannot say (message names it)."""


# how NaN and +infinity are spelled, per dialect and C type
SPECIAL = {
    ("cuda", "double"): ("__longlong_as_double(0x7ff8000000000000LL)",
                         "__longlong_as_double(0x7ff0000000000000LL)"),
    ("cuda", "float"): ("__int_as_float(0x7fc00000)", "__int_as_float(0x7f800000)"),
    ("c", "double"): ("__builtin_nan(\"\")", "__builtin_inf()"),
    ("c", "float"): ("__builtin_nanf(\"\")", "__builtin_inff()"),
}
QUALIFIERS = {"cuda": "__device__ __forceinline__", "c": "static inline"}


def literal(value: float, ctype: str, dialect: str = "cuda") -> str:
    """A floating C literal of `ctype` (inf and NaN spelled as `SPECIAL` says)."""
    value = float(value)
    nan, inf = SPECIAL[dialect, ctype]
    if math.isnan(value):
        return nan
    if math.isinf(value):
        return ("-" if value < 0 else "") + inf
    text = repr(value)
    if "e" not in text and "." not in text:
        text += ".0"
    return text + ("f" if ctype == "float" else "")


def function(name: str, ctype: str) -> str:
    base = FUNCTIONS[name]
    return base + "f" if ctype == "float" and name not in PREDICATES else base


class Translator(ast.NodeVisitor):
    """One expression tree -> one C expression string (fully parenthesised)."""

    def __init__(self, names: dict[str, str], ctype: str, where: str, dialect: str):
        self.names, self.ctype, self.where, self.dialect = names, ctype, where, dialect

    def fail(self, node, what: str):
        raise Untranslatable(f"{self.where}: cannot write {what} in C "
                             f"(`{ast.unparse(node)}`)")

    def generic_visit(self, node):
        self.fail(node, type(node).__name__)

    def visit_Expression(self, node):
        return self.visit(node.body)

    def visit_Constant(self, node):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            self.fail(node, "a non-numeric constant")
        return literal(node.value, self.ctype, self.dialect)

    def visit_Name(self, node):
        if node.id not in self.names:
            self.fail(node, f"the name '{node.id}'")
        return self.names[node.id]

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "math" \
                and node.attr in CONSTANTS:
            return literal(CONSTANTS[node.attr], self.ctype, self.dialect)
        self.fail(node, "this attribute")

    def visit_UnaryOp(self, node):
        inner = self.visit(node.operand)
        if isinstance(node.op, ast.USub):
            return f"(-{inner})"
        if isinstance(node.op, ast.UAdd):
            return inner
        if isinstance(node.op, ast.Not):
            return f"(!{inner})"
        self.fail(node, "this unary operator")

    def visit_BinOp(self, node):
        left, right = self.visit(node.left), self.visit(node.right)
        if isinstance(node.op, ast.Pow):
            return f"{function('pow', self.ctype)}({left}, {right})"
        if isinstance(node.op, ast.FloorDiv):
            return f"{function('floor', self.ctype)}({left} / {right})"
        if type(node.op) not in BINARY:
            self.fail(node, "this operator")
        return f"({left} {BINARY[type(node.op)]} {right})"

    def visit_BoolOp(self, node):
        joiner = " && " if isinstance(node.op, ast.And) else " || "
        return "(" + joiner.join(self.visit(v) for v in node.values) + ")"

    def visit_Compare(self, node):
        parts, left = [], node.left
        for op, right in zip(node.ops, node.comparators):
            if type(op) not in COMPARE:
                self.fail(node, "this comparison")
            parts.append(f"{self.visit(left)} {COMPARE[type(op)]} {self.visit(right)}")
            left = right
        return "(" + " && ".join(parts) + ")"

    def visit_IfExp(self, node):
        return f"({self.visit(node.test)} ? {self.visit(node.body)} : {self.visit(node.orelse)})"

    def visit_Call(self, node):
        if node.keywords:
            self.fail(node, "keyword arguments")
        args = [self.visit(a) for a in node.args]
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id == "math" and func.attr in FUNCTIONS:
            return f"{function(func.attr, self.ctype)}({', '.join(args)})"
        if isinstance(func, ast.Name) and func.id == "float" and len(args) == 1:
            return f"(({self.ctype}) {args[0]})"
        if isinstance(func, ast.Name) and func.id in BUILTINS:
            name = BUILTINS[func.id]
            if func.id == "abs":
                return f"{function('fabs', self.ctype)}({args[0]})"
            if len(args) < 2:
                self.fail(node, f"{func.id} of fewer than two values")
            return functools.reduce(lambda x, y: f"{name}({x}, {y})", args)
        self.fail(node, "this call")


@functools.lru_cache(maxsize=4096)
def parsed(form: str) -> ast.Expression:
    return ast.parse(form, mode="eval")


def to_c(form: str, names: dict[str, str], dtype: str = "float64", where: str = "scalar form",
         dialect: str = "cuda") -> str:
    """The C expression for the Python expression `form`, its names (`a`, `b`)
    replaced by the C expressions in `names`."""
    try:
        tree = parsed(form)
    except SyntaxError as err:
        raise Untranslatable(f"{where}: not a Python expression: {form!r} ({err.msg})") from None
    return Translator(names, CTYPES[dtype], where, dialect).visit(tree)


def preamble(dtype: str, dialect: str = "cuda") -> str:
    """The helpers every kernel or loop may call (NaN-propagating min and max)."""
    t, fmin, fmax = CTYPES[dtype], function("fmin", CTYPES[dtype]), function("fmax", CTYPES[dtype])
    guard = f"TENFLANG_HELPERS_{t.upper()}"     # several kernels may share one file
    q = QUALIFIERS[dialect]
    return (f"#ifndef {guard}\n#define {guard}\n"
            f"{q} {t} tf_min({t} x, {t} y) "
            f"{{ return (x != x || y != y) ? x + y : {fmin}(x, y); }}\n"
            f"{q} {t} tf_max({t} x, {t} y) "
            f"{{ return (x != x || y != y) ? x + y : {fmax}(x, y); }}\n#endif\n")


def vector_calls(forms) -> tuple:
    """The `VECTOR` functions the scalar forms call, in `VECTOR`'s order."""
    text = "\n".join(forms)
    return tuple(name for name in VECTOR if f"math.{name}(" in text)


def vector_declarations(ctype: str, names=VECTOR) -> str:
    """The functions `names` (of `VECTOR`) declared with OpenMP's `declare simd`
    (compiled with -fopenmp-simd, a vectorised loop calls their vector forms:
    c_loops.py)."""
    lines = []
    for name in names:
        params = ", ".join([ctype] * (2 if name in TWO_ARGUMENTS else 1))
        lines += ["#pragma omp declare simd notinbranch",
                  f"{ctype} {function(name, ctype)}({params});"]
    return "\n".join(lines)
