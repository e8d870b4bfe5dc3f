"""The error corpus: malformed programs through the command line.

Every case is a small program with one mistake.  It goes through a command
(`tenflang check FILE`, `tfcompiler FILE` or `tfcompiler --check FILE`) and
must give: exit status 2, nothing on stdout, no traceback, and on stderr
`FILE:LINE:COL: error: MESSAGE`, then the source line and a caret under the
column (docs/design.md §4), then one `FILE:LINE:COL: note:` per macro call site
for errors inside an expansion.  The same program through the Python API
renders the same text.

All cases run through the click entry points in one subprocess
(`run_cli_batch`: a process start costs about half a second, the corpus has
~70 cases); a selection of them, one per command at least, also runs as a
separate process the way a user types it (`python -m tenflang`, `bin/tfcompiler`),
and must give byte-identical results.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from support import programs
from support.commands import run_cli_batch as run_cli_batch_impl, run_cli as run_cli_impl
from support.programs import src
from tenflang.base import limits
from tenflang.base.errors import TenflangError
from tenflang.lang import parse, parse_file, read_source


@dataclass(frozen=True)
class Case:
    name: str
    source: str | bytes
    line: int | None           # None: a whole-file error, `FILE: error: ...`
    column: int | None
    message: str               # a substring of the message
    notes: tuple[tuple[int, int], ...] = ()
    command: str = "check"     # check | tfcompiler | tfcompiler-check
    exact: bool = False        # `message` is the whole message

    @property
    def filename(self) -> str:
        return f"{self.name}.tf"


LOSS = "declare loss l\n"

DENSE = programs.DENSE_MACRO

CONV = "declare input x {x}\ndeclare weight K {K}\ndeclare intvar c\n" + LOSS + \
    "define c = conv2d x K{attrs}\ndefine l = sum c\n"
POOL = "declare input x {x}\ndeclare intvar p\n" + LOSS + \
    "define p = {op} x{attrs}\ndefine l = sum p\n"
LRN = "declare input x {x}\ndeclare intvar n\n" + LOSS + \
    "define n = {op} x{attrs}\ndefine l = sum n\n"
TWO = "declare input a {a}\ndeclare input b {b}\ndeclare output v\ndefine v = {line}\n"
THREE = ("declare input a {a}\ndeclare input b {b}\ndeclare input c {c}\ndeclare output v\n"
         "define v = {line}\n")

CASES = [
    # --- syntax ------------------------------------------------------------------------
    Case("syntax_declare_without_name", "declare input\n", 1, 14,
         "unexpected end of line; expected a name"),
    Case("syntax_empty_right_side", "declare intvar z\ndefine z = \n", 2, 12,
         "unexpected end of line; expected a name or a number"),
    Case("syntax_missing_equals", "declare intvar z\ndefine z add x y\n", 2, 10,
         "unexpected 'add'; expected '='"),
    Case("syntax_missing_target", "declare input x\ndefine = add x x\n", 2, 8,
         "unexpected '='; expected a name"),
    Case("syntax_unclosed_shape", "declare input x [3,\n", 1, 20,
         "unexpected end of line; expected a name or an integer"),
    Case("syntax_trailing_comma_in_shape", "declare input x [3,]\n", 1, 20,
         "unexpected ']'; expected a name or an integer"),
    Case("syntax_fractional_dimension", "declare input x [3.5]\n", 1, 19,
         "unexpected '.5'; expected ',' or ']'"),
    Case("syntax_negative_dimension", "declare input x [-3]\n", 1, 18,
         "unexpected '-3'; expected ']', a name or an integer"),
    Case("syntax_bad_character", "declare input x $\n", 1, 17, "unexpected character '$'"),
    Case("syntax_bad_character_after_tabs", "declare\tinput\tx\t$\n", 1, 17,
         "unexpected character '$'"),
    Case("syntax_unknown_keyword", "declare loss l\nfoo\n", 2, 1,
         "unexpected 'foo'; expected 'declare', 'define' or 'macro'", exact=True),
    Case("syntax_unknown_keyword_first", "foo\n", 1, 1,
         "unexpected 'foo'; expected 'declare', 'define', 'macro' or end of line", exact=True),
    Case("syntax_unknown_keyword_in_macro", "macro f a -> r\n  foo\nend\n", 2, 3,
         "unexpected 'foo'; expected 'declare', 'define', 'end' or 'macro'", exact=True),
    Case("syntax_extra_word_in_declaration", "declare input x y\n", 1, 17,
         "unexpected 'y'; expected '[', 'init' or end of line"),
    Case("syntax_name_starting_with_digit", "declare input 3x\n", 1, 15,
         "unexpected '3'; expected a name"),
    Case("syntax_name_ending_with_dot", "declare input x.\n", 1, 16,
         "unexpected character '.'"),
    Case("syntax_minus_before_name", "declare input x\n" + LOSS + "define l = neg -x\n", 3, 16,
         "unexpected character '-'"),
    Case("syntax_stray_end", "declare input x\nend\n", 2, 1,
         "unexpected 'end'; expected 'declare', 'define', 'macro' or end of file"),
    Case("syntax_malformed_number", "declare input x\n" + LOSS + "define l = add x 1.2.3\n",
         3, 18, "malformed number '1.2.3'", exact=True),
    Case("syntax_number_glued_to_name", "declare input x\n" + LOSS + "define l = mul x 2x\n",
         3, 18, "malformed number '2x'"),
    Case("syntax_exponent_without_digits", "declare input x\n" + LOSS + "define l = mul x 1e\n",
         3, 18, "malformed number '1e'"),
    Case("syntax_number_out_of_range", "declare input x\n" + LOSS + "define l = mul x 1e999\n",
         3, 18, "number '1e999' is out of range"),
    Case("syntax_original_listing_line_numbers", "1  declare input  x\n", 1, 1, "unexpected '1'"),

    # --- declarations and definitions ----------------------------------------------------
    Case("unknown_type", "declare inptu x\n", 1, 9,
         "unknown variable type 'inptu'; expected one of input, exp_output, weight, intvar, "
         "output, loss"),
    Case("undeclared_operand", "declare input x\n" + LOSS + "define l = add x q\n", 3, 18,
         "'q' is not declared", exact=True),
    Case("redeclared", "declare input x\ndeclare weight x\n", 2, 16,
         "'x' is already declared on line 1"),
    Case("defined_twice", "declare input x\n" + LOSS + "define l = add x 1\ndefine l = add x 2\n",
         4, 8, "'l' is already defined"),
    Case("defined_before_declared", "declare input x\ndefine l = add x 1\n" + LOSS, 2, 8,
         "'l' is defined before it is declared"),
    Case("defined_but_never_declared",
         "declare input x\n" + LOSS + "define l = add x 1\ndefine m = add x 1\n", 4, 8,
         "'m' is defined but never declared; add 'declare intvar m' before line 4 "
         "(tenflang fmt --fix adds it)", exact=True),
    # initialisers (docs/design.md §2.2): a weight's only
    Case("init_on_an_input", "declare input x init 1\n" + LOSS + "define l = add x 1\n", 1, 22,
         "'x' is declared input: only a weight has an initial value (init)"),
    Case("init_unknown", "declare weight w [2, 2] init kaiming\n" + LOSS + "define l = sum w\n",
         1, 30, "unknown initialiser 'kaiming'; init takes a number, normal STD, uniform LO HI, "
         "he or glorot", exact=True),
    Case("used_before_defined", "declare input x\n" + LOSS + "declare intvar t\n"
         "define l = add x t\ndefine t = add x 1\n", 4, 18, "'t' is used before it is defined"),
    Case("used_in_own_definition", "declare input x\n" + LOSS + "define l = add x l\n", 3, 18,
         "'l' is used in its own definition"),
    Case("defining_an_input", "declare input x\n" + LOSS + "define x = add x 1\n", 3, 8,
         "'x' is declared input and cannot be defined"),
    Case("defining_a_weight", "declare weight w\n" + LOSS + "define w = 3\n", 3, 8,
         "'w' is declared weight and cannot be defined"),
    Case("defining_an_exp_output", "declare exp_output y\n" + LOSS + "define y = 3\n", 3, 8,
         "'y' is declared exp_output and cannot be defined"),
    Case("unknown_op_did_you_mean", "declare input x\n" + LOSS + "define l = logistc x\n", 3, 12,
         "unknown op 'logistc'; did you mean 'logistic'?", exact=True),
    Case("unknown_op_no_hint", "declare input x\n" + LOSS + "define l = wibble x\n", 3, 12,
         "unknown op 'wibble'; the ops are listed in docs/guide/op-reference.md", exact=True),
    Case("too_few_operands", "declare input x\n" + LOSS + "define l = add x\n", 3, 12,
         "'add' takes 2 operands, got 1"),
    Case("too_many_operands", "declare input x\n" + LOSS + "define l = exp x x\n", 3, 12,
         "'exp' takes 1 operand, got 2"),
    # attributes (docs/design.md §2.3.1): literals after the operands, as the op table says
    Case("attribute_is_a_name", "declare input x [3]\ndeclare input k\n" + LOSS
         + "define l = sum x k\n", 4, 18,
         "'sum' attribute 'axis' must be an integer literal, not the name 'k'"),
    Case("attribute_is_a_fraction", "declare input x [3]\n" + LOSS + "define l = sum x 0.5\n",
         3, 18, "'sum' attribute 'axis' must be an integer, got 0.5"),
    Case("attribute_in_exponent_form", "declare input x [3]\n" + LOSS + "define l = sum x 1e0\n",
         3, 18, "'sum' attribute 'axis' must be an integer, got 1e0"),
    Case("too_many_attributes", "declare input x [2, 3]\n" + LOSS
         + "define l = sum x 0 1\n", 3, 20,
         "'sum' takes 1 operand, then the attribute [axis], got 3 values"),
    Case("attribute_is_a_shape_literal", "declare input x [3]\n" + LOSS
         + "define l = sum x [0]\n", 3, 18,
         "'sum' attribute 'axis' must be an integer, not a shape literal"),
    Case("shape_literal_as_operand", "declare input x [3]\n" + LOSS
         + "define l = dot x [3]\n", 3, 18, "a shape literal goes only where an op takes"),
    Case("shape_literal_not_integer", "declare input x [3]\n" + LOSS
         + "define l = sum x [1.5]\n", 3, 19, "'1.5' in a shape literal: an integer is required"),
    Case("axis_out_of_range", "declare input x [2, 3]\ndeclare intvar s\n" + LOSS
         + "define s = sum x 2\ndefine l = sum s\n", 4, 12,
         "sum [2, 3] axis 2: axis 2 is out of range for a rank-2 operand"),
    Case("axis_of_a_scalar", "declare input x\n" + LOSS + "define l = mean x 0\n", 3, 12,
         "mean [] axis 0: axis 0 is out of range for a rank-0 operand"),
    Case("axis_leaves_a_vector_loss", "declare input x [2, 3]\n" + LOSS
         + "define l = logsumexp x -1\n", 2, 14, "loss 'l' has shape [2]"),
    # arranging, indexing and classifying ops (docs/design.md §2.3.1)
    Case("reshape_size_mismatch", "declare input x [2, 3]\ndeclare intvar r\n" + LOSS
         + "define r = reshape x [4, 2]\ndefine l = sum r\n", 4, 12,
         "reshape [2, 3] shape [4, 2]: 6 elements cannot be arranged as [4, 2] (8 elements)",
         exact=True),
    Case("reshape_minus_one_does_not_divide", "declare input x [2, 3]\ndeclare intvar r\n"
         + LOSS + "define r = reshape x [4, -1]\ndefine l = sum r\n", 4, 12,
         "reshape [2, 3] shape [4, -1]: 6 elements cannot be arranged as [4, -1]", exact=True),
    Case("reshape_two_minus_ones", "declare input x [2, 3]\n" + LOSS
         + "define l = reshape x [-1, -1]\n", 3, 22,
         "'reshape' attribute 'shape' may have only one -1, got [-1, -1]"),
    Case("reshape_shape_is_a_name", "declare input x [2, 3]\ndeclare input s\n" + LOSS
         + "define l = reshape x s\n", 4, 22,
         "'reshape' attribute 'shape' must be an integer literal, not the name 's'"),
    Case("reshape_without_shape", "declare input x [2, 3]\n" + LOSS + "define l = reshape x\n",
         3, 12, "'reshape' takes 1 operand, then the attribute shape; attribute 'shape' is "
         "missing"),
    Case("slice_out_of_range", "declare input x [4, 2]\ndeclare intvar s\n" + LOSS
         + "define s = slice x 2 5\ndefine l = sum s\n", 4, 12,
         "slice [4, 2] start 2 stop 5: rows 2..5 are out of range: need 0 ≤ start < stop ≤ 4",
         exact=True),
    Case("slice_empty", "declare input x [4]\ndeclare intvar s\n" + LOSS
         + "define s = slice x 2 2\ndefine l = sum s\n", 4, 12, "rows 2..2 are out of range"),
    Case("index_out_of_range", "declare input x [8, 8]\ndeclare intvar r\n" + LOSS
         + "define r = index x 8\ndefine l = sum r\n", 4, 12,
         "index [8, 8] i 8: index 8 is out of range: need 0 ≤ i < 8", exact=True),
    Case("index_negative", "declare input x [8, 8]\n" + LOSS + "define l = index x -1\n",
         3, 20, "'index' attribute 'i' must be ≥ 0, got -1"),
    Case("index_of_a_scalar", "declare input x\n" + LOSS + "define l = index x 0\n", 3, 12,
         "index [] i 0: operand must have rank ≥ 1"),
    Case("permute_not_a_permutation", "declare input x [2, 3]\n" + LOSS
         + "define l = permute x [0, 0]\n", 3, 22,
         "'permute' attribute 'axes' must be a permutation of 0..1, got [0, 0]"),
    Case("permute_wrong_rank", "declare input x [2, 3]\ndeclare intvar p\n" + LOSS
         + "define p = permute x [2, 0, 1]\ndefine l = sum p\n", 4, 12,
         "permute [2, 3] axes [2, 0, 1]: a rank-2 operand needs a permutation of 2 axes, got 3"),
    Case("one_hot_no_classes", "declare input y\ndeclare intvar h\n" + LOSS
         + "define h = one_hot y 0\ndefine l = sum h\n", 4, 22,
         "'one_hot' attribute 'n' must be ≥ 1, got 0"),
    Case("one_hot_of_a_vector", "declare input y [3]\ndeclare intvar h\n" + LOSS
         + "define h = one_hot y 4\ndefine l = sum h\n", 4, 12,
         "one_hot [3] n 4: operand must be a scalar class index"),
    Case("concat_shapes_differ", "declare input a [2, 3]\ndeclare input b [2, 4]\n"
         "declare intvar c\n" + LOSS + "define c = concat a b\ndefine l = sum c\n", 5, 12,
         "concat [2, 3] × [2, 4]: operands must have equal shapes except the first axis"),
    Case("batched_matmul_batch_sizes_differ", "declare input a [2, 3, 4]\n"
         "declare input b [3, 4, 5]\ndeclare intvar c\n" + LOSS
         + "define c = matmul a b\ndefine l = sum c\n", 5, 12,
         "matmul [2, 3, 4] × [3, 4, 5]: batch sizes differ"),
    Case("transpose_of_a_vector", "declare input a [3]\ndeclare intvar t\n" + LOSS
         + "define t = transpose a\ndefine l = sum t\n", 4, 12,
         "transpose [3]: operand must be a matrix [m, n] (or have rank ≥ 2"),
    Case("softmax_of_a_scalar", "declare input a\n" + LOSS + "define l = softmax a\n", 3, 12,
         "softmax []: operand must have rank ≥ 1"),
    # nested expressions (docs/design.md §2.4.1): errors point at the nested op's own column
    Case("nested_unknown_op", "declare input x [3]\n" + LOSS + "define l = sum (tahn x)\n",
         3, 17, "unknown op 'tahn'; did you mean 'tanh'?"),
    Case("nested_shape_mismatch", "declare input x [3]\ndeclare input W [2, 4]\n" + LOSS
         + "define l = sum (tanh (matmul W x))\n", 4, 23,
         "matmul [2, 4] × [3]: inner dimensions differ"),
    Case("nested_undeclared_name", "declare input x [3]\n" + LOSS
         + "define l = sum (add x y)\n", 3, 23, "'y' is not declared"),
    Case("nested_wrong_arity", "declare input x [3]\n" + LOSS + "define l = sum (add x)\n",
         3, 17, "'add' takes 2 operands, got 1"),
    Case("nested_attribute_is_a_name", "declare input x [3]\ndeclare input k\n" + LOSS
         + "define l = exp (sum x k)\n", 4, 23,
         "'sum' attribute 'axis' must be an integer literal, not the name 'k'"),
    Case("nested_unclosed", "declare input x [3]\n" + LOSS + "define l = sum (exp (neg x)\n",
         3, 16, "'(' is never closed: ')' expected before the end of the line", exact=True),
    Case("nested_unclosed_two", "declare input x [3]\n" + LOSS + "define l = sum (exp (neg x\n",
         3, 21, "'(' is never closed (and 1 before it)"),
    Case("nested_extra_close", "declare input x [3]\n" + LOSS + "define l = sum (exp x))\n",
         3, 23, "')' closes no '(' (unbalanced parentheses)", exact=True),
    Case("nested_empty_parentheses", "declare input x [3]\n" + LOSS + "define l = sum ()\n",
         3, 17, "unexpected ')'; expected a name"),
    Case("nested_too_deep", "declare input x\n" + LOSS + "define l = " + "neg (" * 101
         + "x" + ")" * 101 + "\n", 3, 16, "expression nested deeper than 100 parentheses"),
    Case("nested_in_a_macro_body", "macro m x -> y\n  define y = sum (exp (matmul x x))\nend\n"
         "declare input v [3]\n" + LOSS + "define l = m v\n", 2, 24,
         "matmul [3] × [3]: a vector [k] multiplies a matrix [k, n] (two vectors: `dot`)",
         notes=((6, 12),)),
    Case("nested_macro_called_before_defined", "declare input x\n" + LOSS
         + "define l = exp (m x)\nmacro m a -> b\n  define b = neg a\nend\n", 3, 17,
         "macro 'm' is called before it is defined (on line 4)"),
    Case("nested_macro_calls_itself", "macro m a -> b\n  define b = neg (m a)\nend\n", 2, 19,
         "macro 'm' calls itself; macros cannot be recursive"),
    Case("reserved_dot_name", "declare input x.y\n" + LOSS + "define l = exp x.y\n", 1, 15,
         "'x.y': names containing '.' or '/' are reserved for generated code"),
    Case("reserved_slash_name", "declare input x\n" + LOSS + "declare intvar d/dx\n"
         "define d/dx = exp x\ndefine l = exp d/dx\n", 3, 16, "reserved for generated code",
         command="tfcompiler"),

    # --- losses and shapes -------------------------------------------------------------------
    Case("no_loss", "declare input x\ndeclare output o\ndefine o = exp x\n", None, None,
         "the program declares no loss", command="tfcompiler"),
    Case("no_loss_empty_file", "", None, None, "the program declares no loss"),
    Case("loss_not_scalar", "declare input x [3]\n" + LOSS + "define l = exp x\n", 2, 14,
         "loss 'l' has shape [3]; a loss must be a scalar"),
    Case("loss_never_defined", "declare input x\n" + LOSS, 2, 14,
         "loss 'l' is declared but never defined", command="tfcompiler-check"),
    Case("matmul_inner_dimensions", src("""
        declare input x [10, 784]
        declare input v [783]
        declare intvar h
        declare loss l
        define h = matmul x v
        define l = sum h
        """), 5, 12, "matmul [10, 784] × [783]: inner dimensions differ", exact=True),
    Case("dot_lengths",
         "declare input a [3]\ndeclare input b [4]\n" + LOSS + "define l = dot a b\n",
         4, 12, "dot [3] × [4]: lengths differ", exact=True),
    Case("broadcast_mismatch", "declare input a [2, 3]\ndeclare input b [2]\ndeclare intvar s\n"
         + LOSS + "define s = add a b\ndefine l = sum s\n", 5, 12,
         "add [2, 3] × [2]: shapes cannot be broadcast together", command="tfcompiler"),
    Case("log_softmax_rows_are_not_a_loss", "declare input a [2, 3]\n" + LOSS +
         "define l = log_softmax a\n", 2, 14, "loss 'l' has shape [2, 3]"),
    # convolution and pooling (docs/design.md §2.3.1): shapes shown, the attribute at fault named
    Case("conv2d_channel_mismatch", CONV.format(x="[3, 8, 8]", K="[16, 1, 3, 3]", attrs=""), 5, 12,
         "conv2d [3, 8, 8] × [16, 1, 3, 3]: kernel has 1 input channel, image has 3", exact=True),
    Case("conv2d_image_not_chw", CONV.format(x="[8, 8]", K="[4, 1, 3, 3]", attrs=""), 5, 12,
         "conv2d [8, 8] × [4, 1, 3, 3]: image must be [C, H, W] (channels, height, width)",
         exact=True),
    Case("conv2d_kernel_not_fckk", CONV.format(x="[1, 8, 8]", K="[4, 3, 3]", attrs=""), 5, 12,
         "conv2d [1, 8, 8] × [4, 3, 3]: kernel must be [F, C, kh, kw]", exact=True),
    Case("conv2d_kernel_larger_than_image", CONV.format(x="[1, 3, 3]", K="[2, 1, 5, 5]",
                                                         attrs=" 1 0"), 5, 12,
         "conv2d [1, 3, 3] × [2, 1, 5, 5] pad 0: the 5×5 kernel is larger than the 3×3 image "
         "padded by 0", exact=True),
    Case("conv2d_stride_zero", CONV.format(x="[1, 8, 8]", K="[2, 1, 3, 3]", attrs=" 0"), 5, 23,
         "'conv2d' attribute 'stride' must be ≥ 1, got 0", exact=True),
    Case("conv2d_negative_pad", CONV.format(x="[1, 8, 8]", K="[2, 1, 3, 3]", attrs=" 1 -1"), 5, 25,
         "'conv2d' attribute 'pad' must be ≥ 0, got -1", exact=True),
    # grouped convolution: channels and filters split into equal groups (PyTorch's rule)
    Case("conv2d_channels_do_not_split_into_groups",
         CONV.format(x="[6, 8, 8]", K="[4, 2, 3, 3]", attrs=" 1 0 4"), 5, 12,
         "conv2d [6, 8, 8] × [4, 2, 3, 3] groups 4: the image's 6 channels do not split into "
         "4 equal groups", exact=True),
    Case("conv2d_filters_do_not_split_into_groups",
         CONV.format(x="[6, 8, 8]", K="[4, 2, 3, 3]", attrs=" 1 0 3"), 5, 12,
         "conv2d [6, 8, 8] × [4, 2, 3, 3] groups 3: the kernel's 4 filters do not split into "
         "3 equal groups", exact=True),
    Case("conv2d_kernel_channels_are_not_a_group",
         CONV.format(x="[6, 8, 8]", K="[4, 6, 3, 3]", attrs=" 1 0 2"), 5, 12,
         "conv2d [6, 8, 8] × [4, 6, 3, 3] groups 2: kernel has 6 input channels per group, "
         "image has 3 per group (6 in 2 groups)", exact=True),
    Case("conv2d_groups_zero", CONV.format(x="[2, 8, 8]", K="[2, 1, 3, 3]", attrs=" 1 0 0"),
         5, 27, "'conv2d' attribute 'groups' must be ≥ 1, got 0", exact=True),
    # local response normalisation (docs/design.md §2.3.3): number attributes, checked
    Case("lrn_size_zero", LRN.format(x="[4, 2, 2]", op="lrn", attrs=" 0"), 4, 18,
         "'lrn' attribute 'n' must be ≥ 1, got 0", exact=True),
    Case("lrn_size_a_fraction", LRN.format(x="[4, 2, 2]", op="lrn", attrs=" 2.5"), 4, 18,
         "'lrn' attribute 'n' must be an integer, got 2.5", exact=True),
    Case("lrn_k_zero", LRN.format(x="[4, 2, 2]", op="lrn", attrs=" 5 0.0001 0.75 0"), 4, 32,
         "'lrn' attribute 'k' must be > 0, got 0", exact=True),
    Case("lrn_negative_alpha", LRN.format(x="[4, 2, 2]", op="lrn", attrs=" 5 -0.5"), 4, 20,
         "'lrn' attribute 'alpha' must be ≥ 0, got -0.5", exact=True),
    Case("lrn_alpha_is_a_name", LRN.format(x="[4, 2, 2]", op="lrn", attrs=" 5 x"), 4, 20,
         "'lrn' attribute 'alpha' must be a number literal, not the name 'x'", exact=True),
    Case("lrn_without_size", LRN.format(x="[4, 2, 2]", op="lrn", attrs=""), 4, 12,
         "'lrn' takes 1 operand, then the attributes n [alpha] [beta] [k]; attribute 'n' is "
         "missing", exact=True),
    Case("lrn_of_a_scalar", LRN.format(x="", op="lrn", attrs=" 5"), 4, 12,
         "lrn [] n 5: operand must have rank ≥ 1: its first axis is the channels "
         "([C], [C, H, W], ...)", exact=True),
    Case("channel_sum_front_past_the_window", LRN.format(x="[4]", op="channel_sum",
                                                          attrs=" 2 2"), 4, 12,
         "channel_sum [4] n 2 front 2: the window of 2 channels cannot start 2 before its "
         "channel (need front < n)", exact=True),
    Case("conv2d_stride_is_a_name", CONV.format(x="[1, 8, 8]", K="[2, 1, 3, 3]", attrs=" s"),
         5, 23, "'conv2d' attribute 'stride' must be an integer literal, not the name 's'"),
    Case("maxpool2d_window_larger_than_image", POOL.format(op="maxpool2d", x="[6, 2, 2]",
                                                           attrs=" 3"), 4, 12,
         "maxpool2d [6, 2, 2] k 3: the 3×3 window is larger than the 2×2 image", exact=True),
    Case("maxpool2d_without_window", POOL.format(op="maxpool2d", x="[6, 4, 4]", attrs=""), 4, 12,
         "'maxpool2d' takes 1 operand, then the attributes k [stride] [pad] [ceil]; attribute 'k' is "
         "missing",
         exact=True),
    Case("avgpool2d_of_a_vector", POOL.format(op="avgpool2d", x="[16]", attrs=" 2"), 4, 12,
         "avgpool2d [16] k 2: image must be [C, H, W] (channels, height, width)", exact=True),
    Case("avgpool2d_stride_zero", POOL.format(op="avgpool2d", x="[1, 4, 4]", attrs=" 2 0"), 4, 26,
         "'avgpool2d' attribute 'stride' must be ≥ 1, got 0", exact=True),
    # padded pooling (docs/design.md §2.3.2): PyTorch's limit 2·pad ≤ k
    Case("maxpool2d_pad_more_than_half_the_window",
         POOL.format(op="maxpool2d", x="[2, 6, 6]", attrs=" 2 1 2"), 4, 12,
         "maxpool2d [2, 6, 6] k 2 pad 2: padding 2 is more than half the 2×2 window "
         "(need 2·pad ≤ k, as PyTorch's pooling does)", exact=True),
    Case("avgpool2d_pad_more_than_half_the_window",
         POOL.format(op="avgpool2d", x="[2, 6, 6]", attrs=" 3 1 2"), 4, 12,
         "avgpool2d [2, 6, 6] k 3 pad 2: padding 2 is more than half the 3×3 window "
         "(need 2·pad ≤ k, as PyTorch's pooling does)", exact=True, command="tfcompiler"),
    Case("maxpool2d_ceil_not_a_flag",
         POOL.format(op="maxpool2d", x="[2, 6, 6]", attrs=" 3 2 0 2"), 4, 30,
         "'maxpool2d' attribute 'ceil' must be 0 or 1, got 2", exact=True),
    Case("avgpool2d_ceil_window_larger_than_image",
         POOL.format(op="avgpool2d", x="[2, 2, 2]", attrs=" 3 2 0 1"), 4, 12,
         "avgpool2d [2, 2, 2] k 3: the 3×3 window is larger than the 2×2 image", exact=True,
         command="tfcompiler"),
    Case("avgpool2d_negative_pad", POOL.format(op="avgpool2d", x="[2, 6, 6]", attrs=" 3 1 -1"),
         4, 28, "'avgpool2d' attribute 'pad' must be ≥ 0, got -1", exact=True),
    # the smaller ops of docs/design.md §2.3.2
    Case("concat_axis_out_of_range", TWO.format(a="[2, 3]", b="[2, 4]", line="concat a b 2"),
         4, 12, "concat [2, 3] × [2, 4] axis 2: axis 2 is out of range for rank-2 operands "
         "(axes are 0-based; -1 is the last)", exact=True),
    Case("concat_differs_off_the_axis", TWO.format(a="[2, 3]", b="[3, 4]", line="concat a b -1"),
         4, 12, "concat [2, 3] × [3, 4] axis -1: operands must have equal shapes except axis -1",
         exact=True, command="tfcompiler"),
    # concat of any number of operands: the trailing integer literal is the axis
    Case("concat_third_operand_differs",
         THREE.format(a="[2, 3]", b="[2, 4]", c="[3, 1]", line="concat a b c 1"), 5, 12,
         "concat [2, 3] × [2, 4] × [3, 1] axis 1: operands must have equal shapes except "
         "axis 1", exact=True),
    Case("concat_of_one_operand",
         THREE.format(a="[2, 3]", b="[2, 4]", c="[3, 1]", line="concat a 1"), 5, 12,
         "'concat' takes 2 or more operands, then the attribute [axis], got 1", exact=True),
    Case("concat_with_two_axes",
         THREE.format(a="[2, 3]", b="[2, 4]", c="[3, 1]", line="concat a b 1 0"), 5, 25,
         "'concat' takes 2 or more operands, then the attribute [axis], got 4 values",
         exact=True),
    Case("matmul_vector_by_a_matrix_of_other_rows",
         TWO.format(a="[3]", b="[4, 2]", line="matmul a b"), 4, 12,
         "matmul [3] × [4, 2]: inner dimensions differ", exact=True),
    Case("leaky_relu_slope_wider_than_x", TWO.format(a="[3]", b="[2, 3]", line="leaky_relu a b"),
         4, 12, "leaky_relu [3] × [2, 3]: the other operands must broadcast to the first "
         "operand's shape [3]", exact=True),
    Case("clip_bounds_wider_than_x", TWO.format(a="[3]", b="[2, 1]", line="clip a b 1"),
         4, 12, "clip [3] × [2, 1] × []: the other operands must broadcast to the first "
         "operand's shape [3]", exact=True),
    Case("where_does_not_broadcast", TWO.format(a="[4]", b="[3]", line="where a b 0"), 4, 12,
         "where [4] × [3] × []: shapes cannot be broadcast together", exact=True),
    # another framework's name says what to write
    Case("unknown_op_sigmoid", TWO.format(a="[3]", b="[3]", line="sigmoid a"), 4, 12,
         "unknown op 'sigmoid'; did you mean 'logistic'?", exact=True),
    Case("unknown_op_linear", TWO.format(a="[3]", b="[3]", line="linear a"), 4, 12,
         "unknown op 'linear'; a dense layer is 'add (matmul W x) b' (W [out, in], b [out], "
         "as in PyTorch), or 'matmul x W' for x @ W", exact=True, command="tfcompiler"),
    Case("unknown_op_relu6", TWO.format(a="[3]", b="[3]", line="relu6 a"), 4, 12,
         "unknown op 'relu6'; write 'clip x 0 6'", exact=True),
    Case("unknown_op_square", TWO.format(a="[3]", b="[3]", line="square a"), 4, 12,
         "unknown op 'square'; write 'pow x 2' (or 'mul x x')", exact=True),
    Case("infix_operator", TWO.format(a="[3]", b="[3]", line="a * b"), 4, 14,
         "unexpected character '*'; TenFlang has no infix operators: write the op first, as "
         "'mul a b'", exact=True),
    Case("conv2d_image_grad_adjoint_shape", src("""
        declare input g [2, 5, 5]
        declare weight K [2, 1, 3, 3]
        declare input x [1, 8, 8]
        declare intvar d
        declare loss l
        define d = conv2d_image_grad g K x
        define l = sum d
        """), 6, 12, "conv2d_image_grad [2, 5, 5] × [2, 1, 3, 3] × [1, 8, 8]: the adjoint must "
         "have the shape [2, 6, 6] of `conv2d`'s result", exact=True),
    Case("empty_dimension", "declare input x [3, 0]\n", 1, 15,
         "'x' has an empty dimension in its shape [3, 0]"),
    Case("declared_shape_mismatch", "declare input x [3]\ndeclare intvar h [4]\n" + LOSS +
         "define h = exp x\ndefine l = sum h\n", 4, 8,
         "'h' is declared with shape [4] but its definition gives [3]"),

    # --- macros --------------------------------------------------------------------------------
    Case("macro_calls_itself", "macro f a -> r\n  define r = f a\nend\n", 2, 14,
         "macro 'f' calls itself; macros cannot be recursive"),
    Case("macro_calls_later_macro", src("""
        macro f a -> r
          define r = g a
        end
        macro g a -> r
          define r = f a
        end
        declare loss l
        define l = f 1
        """), 2, 14, "macro 'f' calls macro 'g', which is defined after it (on line 4)"),
    Case("macro_called_before_defined", src("""
        declare loss l
        define l = f 1
        macro f a -> r
          define r = exp a
        end
        """), 2, 12, "macro 'f' is called before it is defined (on line 3)"),
    Case("macro_wrong_arity", "macro f a -> r\n  define r = exp a\nend\ndeclare input x\n" + LOSS +
         "define l = f x x\n", 6, 12, "macro 'f' takes 1 operand, got 2", exact=True),
    Case("macro_unknown_name_in_body", "macro f a -> r\n  define r = add a q\nend\n", 2, 20,
         "'q' is not a parameter, local or the result of macro 'f'"),
    Case("macro_defines_parameter", "macro f a -> r\n  define a = exp r\n  define r = exp a\nend\n",
         2, 10, "'a' is a parameter of macro 'f' and cannot be defined"),
    Case("macro_result_never_defined",
         "macro f a -> r\n  declare intvar t\n  define t = exp a\nend\n", 1, 7,
         "macro 'f' never defines its result 'r'"),
    Case("macro_local_not_intvar",
         "macro f a -> r\n  declare input t\n  define r = exp t\nend\n",
         2, 11, "a macro declares intvars and weights; 't' is declared input"),
    # weights a macro owns (docs/design.md §2.4.3)
    Case("macro_weight_never_called", src("""
        macro f x C -> y
          declare weight W [C]
          define y = mul x W
        end
        declare input x [3]
        declare loss l
        define l = sum x
        """), 2, 18, "macro 'f' declares the weight 'W' but is never called, so no such "
         "weight exists; call the macro or remove the weight", exact=True),
    Case("macro_weight_called_only_by_an_uncalled_macro", src("""
        macro f x -> y
          declare weight W [3]
          define y = mul x W
        end
        macro g x -> y
          define y = f x
        end
        declare input x [3]
        declare loss l
        define l = sum x
        """), 2, 18, "macro 'f' declares the weight 'W' but is never called"),
    Case("macro_weight_name_taken", src("""
        macro f x -> y
          declare weight W [3]
          define y = sum (mul x W)
        end
        declare input x [3]
        declare weight h.W [3]
        declare loss h
        define h = f x
        """), 2, 18, "macro 'f' declares the weight 'W', which this call names 'h.W'; 'h.W' "
         "is already declared on line 6: give the call another target", notes=((8, 12),),
         exact=True),
    Case("macro_shape_unknown_parameter", src("""
        macro f x C -> y
          declare weight W [C, D]
          define y = matmul W x
        end
        """), 2, 24, "'D' in the shape of 'W' is not a parameter of macro 'f'; a shape in a "
         "macro holds integers and the macro's integer parameters", exact=True),
    Case("shape_name_outside_a_macro", "declare input x [N]\n", 1, 18,
         "'N' in the shape of 'x': outside a macro a shape holds integers; a name there "
         "stands for an integer parameter of a macro", exact=True),
    Case("macro_integer_parameter_given_a_name", src("""
        macro f x C -> y
          declare weight W [C, 3]
          define y = sum (matmul W x)
        end
        declare input x [3]
        declare loss l
        define l = f x x
        """), 7, 16, "the shape of 'W' in macro 'f' has the axis 'C', so the call passes 'C' "
         "a whole number ≥ 1; got 'x'", exact=True, command="tfcompiler"),
    Case("macro_integer_parameter_given_a_fraction", src("""
        macro f x C -> y
          declare weight W [C, 3]
          define y = sum (matmul W x)
        end
        declare input x [3]
        declare loss l
        define l = f x 2.5
        """), 7, 16, "the shape of 'W' in macro 'f' has the axis 'C', so the call passes 'C' "
         "a whole number ≥ 1; got 2.5"),
    Case("macro_integer_parameter_passed_on_as_zero", src("""
        macro g x C -> y
          declare weight W [C, 3]
          define y = sum (matmul W x)
        end
        macro f x C -> y
          define y = g x C
        end
        declare input x [3]
        declare loss l
        define l = f x 0
        """), 6, 18, "the shape of 'W' in macro 'g' has the axis 'C', so the call passes 'C' "
         "a whole number ≥ 1; got 0", notes=((10, 12),)),
    Case("macro_redefined", "macro f a -> r\n  define r = exp a\nend\n"
         "macro f a -> r\n  define r = exp a\nend\n", 4, 7, "macro 'f' is already defined"),
    Case("macro_named_like_an_op", "macro copy a -> r\n  define r = exp a\nend\n", 1, 7,
         "'copy' is the name of an op"),
    Case("macro_repeats_parameter", "macro f a a -> r\n  define r = exp a\nend\n", 1, 7,
         "macro 'f' repeats a parameter name"),
    Case("macro_declares_parameter",
         "macro f a -> r\n  declare intvar a\n  define r = exp a\nend\n", 2, 18,
         "'a' is a parameter or the result of macro 'f' and cannot be declared inside it"),
    Case("macro_inside_macro", "macro f a -> r\n  macro g b -> s\n    define s = exp b\n  end\n"
         "  define r = exp a\nend\n", 2, 9, "a macro cannot be defined inside another macro"),
    Case("macro_unclosed", "declare input x\nmacro f a -> r\n  define r = exp a\n", 2, 1,
         "macro 'f' is never closed: 'end' expected before the end of the file"),
    Case("macro_unclosed_then_code", "macro f a -> r\n  define r = exp a\n\ndeclare input x\n"
         "declare loss l\ndefine l = f x\n", 1, 1, "macro 'f' is never closed"),
    Case("macro_expansion_shape_error", DENSE + src("""
        declare input x [3]
        declare weight W [4, 2]
        declare weight b [4]
        declare intvar h
        declare loss l
        define h = dense x W b
        define l = sum h
        """), 3, 14, "matmul [4, 2] × [3]: inner dimensions differ", notes=((11, 12),)),
    Case("macro_expansion_unknown_op", "macro f a -> r\n  define r = expp a\nend\n"
         "declare input x\n" + LOSS + "define l = f x\n", 2, 14,
         "unknown op 'expp'; did you mean 'exp'?", notes=((6, 12),)),
    Case("macro_expansion_undeclared_argument", "macro f a -> r\n  define r = exp a\nend\n"
         + LOSS + "define l = f q\n", 2, 18, "'q' is not declared", notes=((5, 12),)),
    Case("macro_expansion_local_used_before_defined", src("""
        macro f a -> r
          declare intvar t
          define r = add a t
          define t = exp a
        end
        declare input x
        declare loss l
        define l = f x
        """), 3, 20, "'l.t' is used before it is defined", notes=((8, 12),)),
    Case("macro_nested_expansion_error", src("""
        macro g a -> r
          define r = dot a a
        end
        macro f a -> r
          declare intvar t
          define t = exp a
          define r = g t
        end
        declare input x [3, 3]
        declare loss l
        define l = f x
        """), 2, 14, "dot [3, 3] × [3, 3]: operands must be vectors [n]",
         notes=((7, 14), (11, 12)), command="tfcompiler"),

    # --- files ---------------------------------------------------------------------------------
    Case("not_utf8", b"declare loss l\ndefine l = 1 # caf\xe9\n", 2, 19,
         "the file is not UTF-8 text (byte 0xe9 cannot be decoded)"),
    Case("not_utf16", "declare loss l\n".encode("utf-16"), 1, 1, "the file is not UTF-8 text"),
]

COMMANDS = {
    "check": ["tenflang", "check"],
    "tfcompiler": ["tfcompiler"],
    "tfcompiler-check": ["tfcompiler", "--check"],
}

IDS = [c.name for c in CASES]


def test_corpus_is_large_and_names_are_unique():
    assert len(CASES) >= 40
    assert len(set(IDS)) == len(IDS)


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("errors")
    for case in CASES:
        data = case.source if isinstance(case.source, bytes) else case.source.encode()
        (folder / case.filename).write_bytes(data)
    return folder


@pytest.fixture(scope="session")
def cli_results(corpus_dir):
    """Every case through its command: name → (exit code, stdout, stderr)."""
    results = run_cli_batch_impl([COMMANDS[c.command] + [c.filename] for c in CASES],
                                 cwd=corpus_dir)
    return dict(zip(IDS, results))


OWN_PROCESS = ["syntax_bad_character_after_tabs", "undeclared_operand", "reserved_slash_name",
               "no_loss", "loss_never_defined", "macro_nested_expansion_error", "not_utf8"]


def test_cases_in_their_own_process(corpus_dir, cli_results):
    cases = [c for c in CASES if c.name in OWN_PROCESS]
    assert len(cases) == len(OWN_PROCESS)
    assert {c.command for c in cases} == set(COMMANDS)

    def run(case):
        return run_cli_impl(COMMANDS[case.command] + [case.filename], cwd=corpus_dir)
    with ThreadPoolExecutor(max_workers=4) as pool:
        for case, result in zip(cases, pool.map(run, cases)):
            assert result == cli_results[case.name], case.name


def source_lines(case: Case) -> list[str]:
    data = case.source if isinstance(case.source, bytes) else case.source.encode()
    return data.decode("utf-8", errors="replace").split("\n")


def excerpt(case: Case, line: int, column: int) -> list[str]:
    """The source line as shown: control characters escaped (`\\x00`), which
    moves the caret by the width of the escapes before it."""
    text = source_lines(case)[line - 1].rstrip("\r").replace("\t", " ")
    shown = "".join(c.encode("unicode_escape").decode() if ord(c) < 32 else c for c in text)
    before = "".join(c.encode("unicode_escape").decode() if ord(c) < 32 else c
                     for c in text[:column - 1])
    return [f"    {shown}", "    " + " " * len(before) + "^"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_error_through_the_command_line(case, cli_results):
    code, out, err = cli_results[case.name]
    assert code == 2, err
    assert out == ""
    assert "Traceback" not in err
    lines = err.rstrip("\n").split("\n")
    if case.line is None:
        head = f"{case.filename}: error: "
        assert lines[0].startswith(head), err
        assert len(lines) == 1
    else:
        head = f"{case.filename}:{case.line}:{case.column}: error: "
        assert lines[0].startswith(head), err
        shown, caret = excerpt(case, case.line, case.column)
        if len(shown) <= limits.MAX_EXCERPT_CHARS:
            assert lines[1:3] == [shown, caret], err
        else:               # a long line is cut after the caret, "..." marking the cut
            assert lines[1].endswith("...") and shown.startswith(lines[1][:-3]), err
            assert lines[2] == caret, err
    message = lines[0][len(head):]
    if case.exact:
        assert message == case.message
    else:
        assert case.message in message
    notes = lines[3:] if case.line is not None else []
    assert len(notes) == 3 * len(case.notes), err
    for i, (line, column) in enumerate(case.notes):
        assert notes[3 * i] == (f"{case.filename}:{line}:{column}: note: "
                                "in the expansion of this macro call")
        assert notes[3 * i + 1:3 * i + 3] == excerpt(case, line, column)


@pytest.mark.parametrize("case", [c for c in CASES if isinstance(c.source, str)],
                         ids=[c.name for c in CASES if isinstance(c.source, str)])
def test_api_renders_what_the_command_prints(case, cli_results):
    with pytest.raises(TenflangError) as info:
        parse(case.source, case.filename, shape_program=True)
    error = info.value
    assert error.exit_code == 2
    assert (error.location.line, error.location.column) == (case.line, case.column)
    assert [(w.line, w.column) for _, w in error.notes] == list(case.notes)
    assert error.render() == cli_results[case.name][2].rstrip("\n")


# --- files that are not programs ----------------------------------------------------------------

@pytest.mark.parametrize("command", [["tenflang", "check"], ["tfcompiler"]])
def test_missing_file(command, run_cli, tmp_path):
    code, out, err = run_cli(command + ["nope.tf"], cwd=tmp_path)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.strip() == "nope.tf: error: cannot read program: No such file or directory"


@pytest.mark.parametrize("command", [["tenflang", "check"], ["tfcompiler"]])
def test_directory_given_as_file(command, run_cli, tmp_path):
    (tmp_path / "dir.tf").mkdir()
    code, out, err = run_cli(command + ["dir.tf"], cwd=tmp_path)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "'dir.tf' is a directory" in err


def test_directory_through_the_api(tmp_path):
    with pytest.raises(TenflangError, match="cannot read program") as info:
        parse_file(str(tmp_path))
    assert info.value.location.file == str(tmp_path)


def test_byte_order_mark_is_accepted(tmp_path, run_cli):
    path = tmp_path / "bom.tf"
    path.write_bytes(b"\xef\xbb\xbfdeclare loss l\ndefine l = 1\n")
    assert read_source(str(path)).startswith("declare")
    code, out, err = run_cli(["tenflang", "check", "bom.tf"], cwd=tmp_path)
    assert (code, err.strip()) == (0, "bom.tf: ok")


def test_non_utf8_column_counts_characters(tmp_path):
    path = tmp_path / "accent.tf"
    path.write_bytes("declare loss l  # é".encode() + b" \xff\n")
    with pytest.raises(TenflangError) as info:
        read_source(str(path))
    assert (info.value.location.line, info.value.location.column) == (1, 21)


def test_valid_program_passes_both_commands(run_cli, repo_root):
    sample = repo_root / "samples" / "example_shape.tf"
    code, out, err = run_cli(["tenflang", "check", sample])
    assert code == 0 and err.strip().endswith("example_shape.tf: ok")
    code, out, err = run_cli(["tfcompiler", "--check", sample])
    assert code == 0 and out == ""


def test_interpreter_programs_may_skip_the_shape_program_rules(run_cli, tmp_path):
    (tmp_path / "walk.tf").write_text("declare input x\ndeclare intvar h.t\ndeclare output o\n"
                                      "define h.t = exp x\ndefine o = h.t\n")
    code, _, err = run_cli(["tenflang", "check", "--any-program", "walk.tf"], cwd=tmp_path)
    assert code == 0, err
    code, _, err = run_cli(["tenflang", "check", "walk.tf"], cwd=tmp_path)
    assert code == 2 and "walk.tf:2:16: error: 'h.t': names containing" in err


@pytest.mark.parametrize("text", [
    "# a comment with a line separator \u2028 in it\ndeclare loss l\ndefine l = q\n",
    "declare\floss l\ndefine\fl = q\n",
    "declare loss l\r\ndefine l = q\r\n",
])
def test_excerpt_is_the_line_the_lexer_counted(text):
    """Lines end at '\\n' only: a form feed or U+2028 inside a
    line must not shift the excerpt shown under the message."""
    with pytest.raises(TenflangError) as info:
        parse(text, "u.tf", shape_program=True)
    where = info.value.location
    assert (where.line, where.column) == ((3, 12) if text.startswith("#") else (2, 12))
    assert where.source_line.rstrip("\r").endswith("l = q")
