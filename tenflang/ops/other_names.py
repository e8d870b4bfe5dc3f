"""Other frameworks' op names: an unknown op that is one says what to write.

    other_name("sigmoid")      # "did you mean 'logistic'?"
    other_name("softmax2")     # None: not a name we know

The parser's message for an unknown op (tenflang/lang/checks.py) adds the
hint.  A hint names the TenFlang ops it uses and is given only while they
are all in the op table (tenflang/ops/table.py), which stays the one place each
op lives: this module holds no op, only the words of the messages.
"""
from __future__ import annotations

from .table import TABLE


# name -> (what to write, the ops it uses); tests/ops/test_ops_breadth.py checks they exist
OTHER_NAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "sigmoid": ("did you mean 'logistic'?", ("logistic",)),
    "clamp": ("did you mean 'clip'?", ("clip",)),
    "relu6": ("write 'clip x 0 6'", ("clip",)),
    "hardtanh": ("write 'clip x -1 1'", ("clip",)),
    "silu": ("write 'mul x (logistic x)'", ("mul", "logistic")),
    "swish": ("write 'mul x (logistic x)'", ("mul", "logistic")),
    "logsigmoid": ("write 'neg (softplus (neg x))'", ("neg", "softplus")),
    "linear": ("a dense layer is 'add (matmul W x) b' (W [out, in], b [out], as in PyTorch), "
               "or 'matmul x W' for x @ W", ("add", "matmul")),
    "dense": ("a dense layer is 'add (matmul W x) b' (W [out, in], b [out])", ("add", "matmul")),
    "mm": ("did you mean 'matmul'?", ("matmul",)),
    "bmm": ("did you mean 'matmul'? (rank-3 operands are batched)", ("matmul",)),
    "matmult": ("did you mean 'matmul'?", ("matmul",)),
    "cat": ("did you mean 'concat'?", ("concat",)),
    "concatenate": ("did you mean 'concat'?", ("concat",)),
    "batch_norm": ("batch normalisation is a macro over 'batch_mean': see the 'batchnorm' "
                   "macro in docs/guide/language.md", ("batch_mean",)),
    "dropout": ("dropout is 'mul x (dropout_mask x 0.5)' (0.5 the probability of a zero)",
                ("mul", "dropout_mask")),
    "embedding": ("did you mean 'take'? ('take W i' picks rows of W)", ("take",)),
    "square": ("write 'pow x 2' (or 'mul x x')", ("pow", "mul")),
    "mse_loss": ("a program describes one example: write its squared error, as "
                 "'pow (sub x b) 2' for a prediction x and a target b (training takes the "
                 "mean over the examples)", ("pow", "sub")),
    "cross_entropy": ("a program describes one example: write its cross-entropy, as "
                      "'neg (dot (log_softmax x) (one_hot i 3))' for scores x and a class "
                      "index i of 3", ("neg", "dot", "log_softmax", "one_hot")),
    "max_pool2d": ("did you mean 'maxpool2d'?", ("maxpool2d",)),
    "avg_pool2d": ("did you mean 'avgpool2d'?", ("avgpool2d",)),
}
for _alias in ("batchnorm", "batchnorm2d", "batch_normalization"):
    OTHER_NAMES[_alias] = OTHER_NAMES["batch_norm"]


def other_name(name: str) -> str | None:
    """What to write instead of another framework's op `name` (None: not one we
    know, or one whose TenFlang ops are not in the table)."""
    hint = OTHER_NAMES.get(name.lower())
    return hint[0] if hint and all(op in TABLE for op in hint[1]) else None
