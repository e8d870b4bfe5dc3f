"""Write the samples' data files (deterministic; re-run to regenerate).

    python samples/make_data.py [DIR]
    python samples/make_data.py --charlm [DIR]

writes them into DIR (default: samples/), the same bytes on every machine.
`--charlm` writes the character language model's data instead (`charlm`):
windows of the docstrings of Python standard-library modules, which change
from one Python version to the next (the committed files: Python 3.11).
The breast-cancer and digits sets come from scikit-learn's bundled copies (no
download): without scikit-learn the script stops before writing anything.
Held-out splits: 20 %, stratified, random_state=0.  Breast-cancer features are
standardised with the training split's mean and deviation, rounded to 6
significant digits; digit pixels are scaled to [0, 1] (value / 16, exact).
Every file is made in memory first (`write` queues it) and written at the end.
Arithmetic whose last bit could depend on the machine is avoided: `exp` is
correctly rounded (`exact_exp`, not the platform's), and dot products are
written out in a fixed order (not BLAS).
"""
from __future__ import annotations

import sys
from decimal import Decimal, localcontext
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tenflang.data.vectors import format_examples  # noqa: E402

FILES: dict[str, str] = {}       # name -> text, written once every file is made


def write(name: str, arrays: dict) -> None:
    lines = format_examples({k: np.asarray(v, dtype=float) for k, v in arrays.items()}, "txt")
    FILES[name] = "".join(line + "\n" for line in lines)


def exact_exp(z: np.ndarray) -> np.ndarray:
    """exp, correctly rounded to float64 (40 digits, then rounded once): the
    platform's exp may differ in the last bit from one machine to another."""
    with localcontext() as context:
        context.prec = 40
        return np.array([float(Decimal(float(t)).exp()) for t in np.ravel(z)]).reshape(np.shape(z))


def require_scikit_learn() -> None:
    try:
        import sklearn  # noqa: F401
    except ImportError:
        sys.exit("samples/make_data.py: error: the breast-cancer and digits data come from "
                 "scikit-learn, which is not installed: pip install scikit-learn "
                 "(nothing was written)")


def seed_example() -> None:
    """The original design's o = logistic(w x) with w = 1.7; y is the exact output."""
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(0, 2, 200), 4)
    write("example_train.txt", {"x": x, "y": 1 / (1 + exact_exp(-1.7 * x))})
    write("example_inputs.txt", {"x": np.array([-2.0, -0.5, 0.0, 0.5, 2.0])})


def linear() -> None:
    """y = 2 x0 - x1 + 0.5 x2 + 0.3, exactly."""
    rng = np.random.default_rng(2)
    x = np.round(rng.normal(size=(200, 3)), 4)
    write("linear_train.txt", {"x": x, "y": ((2.0 * x[:, 0] - x[:, 1]) + 0.5 * x[:, 2]) + 0.3})


def splits(x, y):
    from sklearn.model_selection import train_test_split
    return train_test_split(x, y, test_size=0.2, random_state=0, stratify=y)


def breast_cancer() -> None:
    from sklearn.datasets import load_breast_cancer
    x, y = load_breast_cancer(return_X_y=True)
    x_train, x_test, y_train, y_test = splits(x, y)
    mean, std = x_train.mean(axis=0), x_train.std(axis=0)
    scale = lambda a: np.array([[float(f"{v:.6g}") for v in row] for row in (a - mean) / std])  # noqa
    write("breast_cancer_train.txt", {"x": scale(x_train), "y": y_train})
    write("breast_cancer_test.txt", {"x": scale(x_test), "y": y_test})


def digits() -> None:
    from sklearn.datasets import load_digits
    x, y = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = splits(x / 16.0, y)
    write("digits_train.txt", {"x": x_train, "y": np.eye(10)[y_train]})
    write("digits_test.txt", {"x": x_test, "y": np.eye(10)[y_test]})


def digit_images() -> None:
    """The same split as `digits`, each image as its 8 rows of 8 pixels and its
    label as a class index (for the convolutional, recurrent and attention samples)."""
    from sklearn.datasets import load_digits
    x, y = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = splits(x / 16.0, y)
    write("digit_images_train.txt", {"x": x_train.reshape(-1, 8, 8), "label": y_train})
    write("digit_images_test.txt", {"x": x_test.reshape(-1, 8, 8), "label": y_test})


ALPHABET = " abcdefghijklmnopqrstuvwxyz.,()_"      # 32 symbols; the rest is dropped
WINDOW = 17                          # 16 characters of context and the one after them
TRAIN_MODULES = ("argparse", "collections", "csv", "datetime", "email.message", "fractions",
                 "functools", "heapq", "itertools", "json", "logging", "os", "pathlib",
                 "random", "shutil", "statistics", "string", "subprocess", "tarfile", "textwrap")
TEST_MODULES = ("calendar", "difflib", "gzip", "pprint", "zipfile")


def docstring_text(modules) -> str:
    """The docstrings of the modules and their public members, lower-cased, in
    ALPHABET, whitespace runs as one space."""
    import importlib
    import inspect
    import re
    docs = []
    for name in modules:
        module = importlib.import_module(name)
        docs.append(inspect.getdoc(module) or "")
        for member, value in sorted(vars(module).items()):
            if not member.startswith("_") and getattr(value, "__module__", None) == name:
                docs.append(inspect.getdoc(value) or "")
    text = re.sub(r"\s+", " ", " ".join(docs).lower())
    return re.sub(r" +", " ", "".join(c for c in text if c in ALPHABET))


def windows(text: str, count: int, rng) -> np.ndarray:
    """`count` windows of WINDOW characters (as ALPHABET indices) at distinct
    random places of `text`, in text order."""
    codes = np.array([ALPHABET.index(c) for c in text], dtype=np.uint8)
    starts = rng.choice(len(codes) - WINDOW, size=count, replace=False)
    return np.stack([codes[s:s + WINDOW] for s in np.sort(starts)])


def charlm(out: Path) -> None:
    """samples/charlm.tf's data: 30 000 training windows from TRAIN_MODULES
    (compressed .npz, 90 KB: overlapping windows compress well) and 1 000
    held-out ones from TEST_MODULES (text, one `{chars: [...]}` per line)."""
    rng = np.random.default_rng(26)
    train = windows(docstring_text(TRAIN_MODULES), 30_000, rng)
    test = windows(docstring_text(TEST_MODULES), 1_000, rng)
    np.savez_compressed(out / "charlm_train.npz", chars=train)
    (out / "charlm_test.txt").write_text("".join(
        "{chars: [" + ", ".join(map(str, row)) + "]}\n" for row in test))


def main(out: Path) -> None:
    require_scikit_learn()
    seed_example()
    linear()
    breast_cancer()
    digits()
    digit_images()
    for name, text in FILES.items():
        (out / name).write_text(text)


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--charlm"]
    (charlm if "--charlm" in sys.argv[1:] else main)(Path(arguments[0]) if arguments else HERE)
