"""The op reference's groups: every op of the table in exactly one, in the order
of docs/design.md §2.3 (docs/make_op_reference.py writes docs/guide/op-reference.md's section 3
from them; tests/ops/test_op_parts.py checks that no op is left out).

    group_of("tanh")      # "Elementwise unary"
"""
from __future__ import annotations

GROUPS = [
    ("Elementwise unary", "neg exp log logistic tanh relu sqrt abs sin cos softplus erf gelu"),
    ("Derivative helpers (usable in programs too)",
     "logistic_deriv tanh_deriv gelu_deriv step sign"),
    ("Elementwise binary", "add sub mul div pow max min leaky_relu"),
    ("Elementwise, three operands", "where clip"),
    ("Linear algebra", "matmul dot outer transpose"),
    ("Reductions", "sum mean logsumexp"),
    ("Normalisation", "softmax log_softmax lrn channel_sum"),
    ("Arranging and indexing", "reshape flatten concat slice index permute"),
    ("Classes and accuracy (no derivative)", "one_hot argmax equal"),
    ("Convolution and pooling", "conv2d maxpool2d avgpool2d"),
    ("Adjoints of convolution and pooling (the GCP writes them)",
     "conv2d_image_grad conv2d_kernel_grad maxpool2d_grad maxpool2d_gather avgpool2d_grad"),
    ("Batch statistics and dropout (training and evaluation modes: 2.11)",
     "batch_mean dropout_mask"),
    ("Copy and the compiler's helpers", "copy sum_like broadcast_like unslice"),
    ("Embeddings (the index operand has no derivative)", "take take_grad"),
]


def group_of(name: str) -> str:
    """The title of the group op `name` is listed in (KeyError: in none)."""
    for title, names in GROUPS:
        if name in names.split():
            return title
    raise KeyError(f"op '{name}' is in no group of tenflang/ops/reference.py")
