"""The small TenFlang programs the tests compile, run, train and mutate, each
written once, and the ways the tests turn a program into its GCP.

Each program is a source string named for what it is; a test that needs a
particular variant (an odd spacing, a macro after the declarations, a nested
macro) uses the one written for it here, never a retyped copy.  A program whose
lines a test's assertions point into (an error case with its line and column,
a parser corner with its statement list, a byte count by hand) stays beside
those assertions.  The sample programs under samples/ are the larger corpus
(`support.paths.SAMPLES`); the original design's example is both a sample file
and, tidily spaced, a string here.  `fits` serves the tests that draw programs
at random.
"""
from __future__ import annotations

import textwrap

import tenflang
from tenflang.ops import table as ops
from tenflang.backprop import compile_gradient
from tenflang.ops.shapes import ShapeMismatch

from .paths import SAMPLES_DIR


def src(text: str) -> str:
    """A program written indented inside a test, as the file would hold it."""
    return textwrap.dedent(text).lstrip("\n")


def gcp(source: str, level: int = 1, filename: str = "t.tf", loops: str = "auto"):
    """The GCP (a Program) of a shape program given as text; `loops`: the reader's."""
    return compile_gradient(tenflang.parse(source, filename, shape_program=True, loops=loops),
                            level)


def gcp_text(source: str, level: int = 1) -> str:
    return tenflang.print_program(gcp(source, level))


def fits(op: str, shapes) -> bool:
    """Whether `op` takes operands of these shapes (for programs drawn at random)."""
    try:
        ops.TABLE[op].shape(*shapes)
        return True
    except ShapeMismatch:
        return False


def sample_gcp(name: str):
    """The GCP of `samples/<name>`, compiled at the default level."""
    return compile_gradient(tenflang.parse_file(str(SAMPLES_DIR / name), shape_program=True))


# ---------------------------------------------------------------- the original design's example

# o = logistic(w * x), loss (o - y)^2, as the original design lays it out (double spaces,
# a comment line above): the sample file.
ORIGINAL_EXAMPLE_FILE = SAMPLES_DIR / "example_shape.tf"
ORIGINAL_EXAMPLE_AS_WRITTEN = ORIGINAL_EXAMPLE_FILE.read_text()

# The same program tidily spaced, no comment: `define z = mul x w` is line 9, column 8.
ORIGINAL_EXAMPLE = """\
declare input x
declare exp_output y
declare weight w
declare intvar z
declare output o
declare intvar diff
declare loss lambda

define z = mul x w
define o = logistic z
define diff = sub o y
define lambda = pow diff 2
"""

# The original design's interpreter walkthrough: y is never defined and there is no loss,
# so it is a program for the interpreter, not a shape program.
WALKTHROUGH = """\
declare input x
declare weight w
declare exp_output y
declare output o

declare intvar a
declare intvar b
declare intvar c

define c = mul y w
define a = mul x w
define o = add a w
"""

# ---------------------------------------------------------------- scalar models

# o = w·x with the absolute error as loss: plain gradient descent swings around the optimum.
ABSOLUTE_ERROR_LINE = """
declare input x
declare exp_output y
declare weight w
declare output o
declare intvar e
declare loss l
define o = mul w x
define e = sub o y
define l = abs e
"""

# o = v·(a·x): two weights that, both started at 0, hold each other at 0 for ever.
STUCK_PRODUCT = """
declare input x
declare exp_output y
declare weight a
declare weight v
declare intvar h
declare output o
declare intvar e
declare loss l
define h = mul a x
define o = mul v h
define e = sub o y
define l = mul e e
"""

# One weight w feeding y0 = x·w, which fans out twice into itself and rejoins the loss:
# l = (xw)^4 + xw.
FAN_OUT_DIAMOND = """declare input x
declare weight w
declare intvar y0
declare intvar y1
declare intvar y2
declare loss l
define y0 = mul x w
define y1 = mul y0 y0
define y2 = mul y1 y1
define l = add y2 y0
"""

# Two losses, a = x·w and b = a·w: the gradient is their sum, x + 2xw.
TWO_LOSSES = ("declare input x\ndeclare weight w\ndeclare loss a\ndeclare loss b\n"
              "define a = mul x w\ndefine b = mul a w\n")

# softplus(x·w) ^ .5, with a constant in exponent notation: number literals in odd forms.
SOFTPLUS_ROOT = """\
declare input x
declare weight w
declare intvar k
declare intvar z
declare output o
declare loss l
define k = -2.5E+4
define z = mul x w
define o = softplus z
define l = pow o .5
"""

# ---------------------------------------------------------------- vectors and matrices

# o = W x + b with the squared error e·e: every declaration has a shape.
AFFINE_SQUARED_ERROR = """declare input x [4]
declare exp_output y [2]
declare weight W [2, 4]
declare weight b [2]
declare intvar t
declare output o
declare loss l
declare intvar e
define t = matmul W x
define o = add t b
define e = sub o y
define l = dot e e
"""

# w used twice (a = w * x, then w · a) beside a weight no loss reads.
SHARED_AND_UNUSED_WEIGHTS = """declare input x [3]
declare weight w [3]
declare weight unused [2, 2]
declare intvar a
declare intvar b
declare loss l1
declare loss l2
define a = mul w x
define b = dot w a
define l1 = sum a
define l2 = mul b b
"""

# o = v · (k * x) + c: with k and v both 0, neither can ever move (c learns alone).
ZERO_HIDDEN_LAYER = """
declare input x [3]
declare exp_output y
declare weight k [3]
declare weight v [3]
declare weight c
declare intvar h
declare intvar t
declare output o
declare intvar e
declare loss l
define h = mul k x
define t = dot v h
define o = add t c
define e = sub o y
define l = mul e e
"""

# A 2×3 input matrix times w, mean squared error, and a second loss c² on its own weight.
MATRIX_REGRESSION_TWO_LOSSES = """\
declare input X [2, 3]
declare weight w [3]
declare weight c
declare exp_output t [2]
declare intvar m
declare intvar e
declare intvar q
declare loss l
declare loss r
define m = matmul X w
define e = sub m t
define q = mul e e
define l = mean q
define r = mul c c
"""

# ---------------------------------------------------------------- networks built from a macro

DENSE_MACRO = """\
macro dense x W b -> y
  declare intvar t
  define t = matmul W x
  define y = add t b
end
"""

# 4 inputs -> 5 tanh units -> 3 classes, softmax cross-entropy; the macro stands after
# the declarations, between them and the lines that call it.
TWO_LAYER_MLP = """
declare input x [4]
declare exp_output y [3]
declare weight W1 [5, 4]
declare weight b1 [5]
declare weight W2 [3, 5]
declare weight b2 [3]
declare intvar h
declare intvar a
declare output o
declare intvar lp
declare intvar t
declare loss l
""" + DENSE_MACRO + """\
define h = dense x W1 b1
define a = tanh h
define o = dense a W2 b2
define lp = log_softmax o
define t = dot lp y
define l = neg t
"""

# The same network with its hidden layer a macro calling `dense`: a macro inside a macro.
TWO_LAYER_MLP_NESTED_MACROS = DENSE_MACRO + """\
macro layer x W b -> y
  declare intvar h
  define h = dense x W b
  define y = tanh h
end
declare input x [4]
declare exp_output y [3]
declare weight W1 [5, 4]
declare weight b1 [5]
declare weight W2 [3, 5]
declare weight b2 [3]
declare intvar a
declare output s [3]
declare intvar p
declare intvar f
declare loss l
define a = layer x W1 b1
define s = dense a W2 b2
define p = log_softmax s
define f = dot p y
define l = neg f
"""

# MNIST-sized: 784 pixels -> 128 relu units -> 10 scores, loss p · y (undeclared shapes
# for the intermediates, so shape inference has them to fill in).
MNIST_SIZED_MLP = DENSE_MACRO + """\
declare input x [784]
declare exp_output y [10]
declare weight W1 [128, 784]
declare weight b1 [128]
declare weight W2 [10, 128]
declare weight b2 [10]
declare intvar h
declare intvar a
declare output s
declare intvar p
declare loss l
define h = dense x W1 b1
define a = relu h
define s = dense a W2 b2
define p = log_softmax s
define l = dot p y
"""


def index_ranges(lines, shapes) -> dict[str, int]:
    """Data variables read as indices: name -> n, the indices 0..n-1 that
    `one_hot` (its classes) and `take` (its table's rows) accept, where the
    variable reaches them directly or through `slice`, `index`, `reshape` or a
    copy.  `lines` are (target, op, operand names or numbers, attributes), of
    a program's definitions or a plan's steps."""
    source: dict[str, str] = {}
    out: dict[str, int] = {}
    for target, op, operands, attrs in lines:
        if op in ("slice", "index", "reshape", "copy") and isinstance(operands[0], str):
            source[target] = source.get(operands[0], operands[0])
        read = ((operands[0], attrs[0]) if op == "one_hot"
                else (operands[1], shapes[operands[0]][0]) if op == "take" else (None, 0))
        if isinstance(read[0], str):
            name = source.get(read[0], read[0])
            out[name] = min(out.get(name, read[1]), read[1])
    return out
