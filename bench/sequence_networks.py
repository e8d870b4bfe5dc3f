"""The sequence networks of bench_convnets.py: a transformer encoder block, a GRU
classifier over digits and the character LM of samples/charlm.tf.

Each network is given three times, to compute one function from one set of
weights: as a TenFlang program (`PROGRAMS`, per example), and as one batched
`forward(lib, case, p, x)` that convnet_reference.py runs in PyTorch eager
and in JAX (`lib` gives the few calls whose names differ).  Conventions:

- encoder: 10 tokens of 8 features, embedded to model width 32 (`x·E + P`,
  P a learned position embedding); one pre-LN block: z = h + attention(LN1 h)
  with 2 heads of 16 (no q/k/v biases, scale 1/4), out = z + MLP(LN2 z), the
  MLP 32-128-32 with the exact GELU (erf form: TenFlang's `gelu`, PyTorch's
  default, `jax.nn.gelu(approximate=False)`); layer norm over the features,
  eps 1e-5, learned gain and shift; the head classifies the mean token into
  10 classes.  Random tokens and labels (timing, not learning).
- gru: 20 digits (0-9), each a row of a 10 × 8 embedding (`take`), a GRU of
  hidden 32 folded over them (the cell of samples/charlm.tf: input bias only,
  h' = z·h + (1 − z)·tanh(a_n + r·(U h)_n), initial state a weight h0), the last
  state classified into 10 classes; the label is the sum of the digits mod 10.
- charlm: samples/charlm.tf itself on samples/charlm_train.npz (a GRU of 64
  over 16 characters of a 32-symbol alphabet predicts the 17th).

The loops stay loops in TenFlang (more than 8 steps: docs/design.md §2.4.2);
the references run the cell in a Python loop (JAX: unrolled inside the jit).
Batches of 64 divide the 4,096 examples of encoder and gru, and charlm's runs
(≤ 330 steps) end before its first epoch's short last batch (30,000 windows):
JAX compiles its step once.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TOKENS, FEATURES, WIDTH, HEADS, CLASSES = 10, 8, 32, 2, 10
DIGITS, EMBED, HIDDEN = 20, 8, 32

GRU_MACRO = """macro gru h x W U b -> hn
  declare intvar a
  declare intvar u
  declare intvar r
  declare intvar z
  define a = add (matmul W x) b
  define u = matmul U h
  define r = logistic (add (slice a 0 {n}) (slice u 0 {n}))
  define z = logistic (add (slice a {n} {n2}) (slice u {n} {n2}))
  define hn = add (mul z h) (mul (sub 1 z) (tanh (add (slice a {n2} {n3}) (mul r (slice u {n2} {n3})))))
end
""".format(n=HIDDEN, n2=2 * HIDDEN, n3=3 * HIDDEN)

GRU_PROGRAM = GRU_MACRO + f"""
declare input x [{DIGITS}]
declare exp_output label
declare weight E [10, {EMBED}]
declare weight W [{3 * HIDDEN}, {EMBED}]
declare weight U [{3 * HIDDEN}, {HIDDEN}]
declare weight b [{3 * HIDDEN}]
declare weight h0 [{HIDDEN}]
declare weight V [{CLASSES}, {HIDDEN}]
declare weight c [{CLASSES}]
declare intvar h
declare output scores [{CLASSES}]
declare loss xent
define h = fold gru h0 (take E x) W U b
define scores = add (matmul V h) c
define xent = neg (dot (log_softmax scores) (one_hot label {CLASSES}))
"""


def layer_norm(out: str, a: str, gain: str, shift: str) -> list[str]:
    """TenFlang lines of `out = LN(a)` over the features (biased variance, eps 1e-5)."""
    return [f"define {out}_c = sub {a} (reshape (mean {a} -1) [{TOKENS}, 1])",
            f"define {out}_s = sqrt (add (reshape (mean (mul {out}_c {out}_c) -1) [{TOKENS}, 1]) 1e-5)",
            f"define {out} = add (mul (div {out}_c {out}_s) {gain}) {shift}"]


def heads(name: str, weight: str) -> str:
    d = WIDTH // HEADS
    return (f"define {name} = permute (reshape (matmul n1 {weight}) "
            f"[{TOKENS}, {HEADS}, {d}]) [1, 0, 2]")


def encoder_program() -> str:
    lines = [f"declare input x [{TOKENS}, {FEATURES}]", "declare exp_output label"]
    lines += [f"declare weight {k} [{', '.join(map(str, s))}]" for k, s in ENCODER_SHAPES.items()]
    body = ["define h = add (matmul x E) P", *layer_norm("n1", "h", "g1", "s1"),
            heads("q", "Wq"), heads("k", "Wk"), heads("v", "Wv"),
            f"define attn = softmax (mul (matmul q (permute k [0, 2, 1])) "
            f"{1 / math.sqrt(WIDTH // HEADS)!r})",
            f"define ctx = reshape (permute (matmul attn v) [1, 0, 2]) [{TOKENS}, {WIDTH}]",
            "define z = add h (matmul ctx Wo)", *layer_norm("n2", "z", "g2", "s2"),
            "define m = add (matmul (gelu (add (matmul n2 W1) b1)) W2) b2",
            "define o = add z m",
            "define scores = add (matmul Wc (mean o 0)) bc",
            f"define xent = neg (dot (log_softmax scores) (one_hot label {CLASSES}))"]
    names = [line.split()[1] for line in body if line.split()[1] not in ("scores", "xent")]
    lines += [f"declare intvar {n}" for n in names]
    lines += [f"declare output scores [{CLASSES}]", "declare loss xent"]
    return "\n".join(lines + body) + "\n"


ENCODER_SHAPES = {"E": (FEATURES, WIDTH), "P": (TOKENS, WIDTH), "g1": (WIDTH,), "s1": (WIDTH,),
                  "Wq": (WIDTH, WIDTH), "Wk": (WIDTH, WIDTH), "Wv": (WIDTH, WIDTH),
                  "Wo": (WIDTH, WIDTH), "g2": (WIDTH,), "s2": (WIDTH,),
                  "W1": (WIDTH, 4 * WIDTH), "b1": (4 * WIDTH,), "W2": (4 * WIDTH, WIDTH),
                  "b2": (WIDTH,), "Wc": (CLASSES, WIDTH), "bc": (CLASSES,)}
GRU_SHAPES = {"E": (10, EMBED), "W": (3 * HIDDEN, EMBED), "U": (3 * HIDDEN, HIDDEN),
              "b": (3 * HIDDEN,), "h0": (HIDDEN,), "V": (CLASSES, HIDDEN), "c": (CLASSES,)}
CHARLM_SHAPES = {"E": (32, 16), "W": (192, 16), "U": (192, 64), "b": (192,), "h0": (64,),
                 "V": (32, 64), "c": (32,)}
SHAPES = {"encoder": ENCODER_SHAPES, "gru": GRU_SHAPES, "charlm": CHARLM_SHAPES}


def program(case: str) -> str:
    if case == "charlm":
        return (ROOT / "samples" / "charlm.tf").read_text()
    return encoder_program() if case == "encoder" else GRU_PROGRAM


def make_data(case: str) -> dict:
    rng = np.random.default_rng(1)
    if case == "charlm":
        return dict(np.load(ROOT / "samples" / "charlm_train.npz"))
    if case == "encoder":
        return {"x": rng.standard_normal((4096, TOKENS, FEATURES)),
                "label": rng.integers(0, CLASSES, 4096).astype(np.float64)}
    digits = rng.integers(0, 10, (4096, DIGITS))
    return {"x": digits.astype(np.float64), "label": (digits.sum(1) % 10).astype(np.float64)}


def initial_weights(case: str) -> dict:
    """Glorot uniform matrices (E, P: N(0, 1) / 4), gains 1, biases and h0 0."""
    rng = np.random.default_rng(2)
    out = {}
    for name, shape in SHAPES[case].items():
        if name in ("E", "P"):
            out[name] = rng.standard_normal(shape) / 4
        elif len(shape) == 2:
            limit = math.sqrt(6.0 / sum(shape))
            out[name] = rng.uniform(-limit, limit, shape)
        else:
            out[name] = np.ones(shape) if name[0] == "g" else np.zeros(shape)
    return out


def inputs(case: str, data: dict) -> tuple:
    """(x, labels, x holds indices) of a data file, as the references read it."""
    if case == "charlm":
        chars = data["chars"].astype(np.int64)
        return chars[:, :16], chars[:, 16], True
    return data["x"], data["label"].astype(np.int64), case == "gru"


def ln(lib, a, g, s):
    c = a - lib.mean(a, -1)
    return c / lib.sqrt(lib.mean(c * c, -1) + 1e-5) * g + s


def encoder(lib, p, x):
    b, d = x.shape[0], WIDTH // HEADS
    h = x @ p["E"] + p["P"]
    n1 = ln(lib, h, p["g1"], p["s1"])
    q, k, v = (lib.permute((n1 @ p[w]).reshape(b, TOKENS, HEADS, d), (0, 2, 1, 3))
               for w in ("Wq", "Wk", "Wv"))
    attn = lib.softmax((q @ lib.permute(k, (0, 1, 3, 2))) * (1 / math.sqrt(d)))
    ctx = lib.permute(attn @ v, (0, 2, 1, 3)).reshape(b, TOKENS, WIDTH)
    z = h + ctx @ p["Wo"]
    n2 = ln(lib, z, p["g2"], p["s2"])
    o = z + lib.gelu(n2 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return lib.mean(o, 1, False) @ p["Wc"].T + p["bc"]


def gru(lib, p, x):
    """x: [B, T] indices; the GRU cell of samples/charlm.tf over E's rows."""
    n = p["U"].shape[1]
    e = p["E"][x]
    h = lib.broadcast(p["h0"], (x.shape[0], n))
    for t in range(x.shape[1]):
        a, u = e[:, t] @ p["W"].T + p["b"], h @ p["U"].T
        r = lib.sigmoid(a[:, :n] + u[:, :n])
        z = lib.sigmoid(a[:, n:2 * n] + u[:, n:2 * n])
        h = z * h + (1 - z) * lib.tanh(a[:, 2 * n:] + r * u[:, 2 * n:])
    return h @ p["V"].T + p["c"]


def forward(lib, case, p, x):
    return encoder(lib, p, x) if case == "encoder" else gru(lib, p, x)
