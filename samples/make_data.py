"""Write the samples' data files (deterministic; re-run to regenerate).

    python samples/make_data.py

The breast-cancer and digits sets come from the scikit-learn package's
bundled copies (no download).  Held-out splits: 20 %, stratified,
random_state=0.  Breast-cancer features are standardised with the training
split's mean and deviation, rounded to 6 significant digits; digit pixels are
scaled to [0, 1] (value / 16, exact).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tenflang.data.vectors import format_examples  # noqa: E402


def write(name: str, arrays: dict) -> None:
    lines = format_examples({k: np.asarray(v, dtype=float) for k, v in arrays.items()}, "txt")
    (HERE / name).write_text("".join(line + "\n" for line in lines))


def seed_example() -> None:
    """The original design's o = logistic(w x) with w = 1.7; y is the exact output."""
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(0, 2, 200), 4)
    write("example_train.txt", {"x": x, "y": 1 / (1 + np.exp(-1.7 * x))})
    write("example_inputs.txt", {"x": np.array([-2.0, -0.5, 0.0, 0.5, 2.0])})


def linear() -> None:
    """y = 2 x0 - x1 + 0.5 x2 + 0.3, exactly."""
    rng = np.random.default_rng(2)
    x = np.round(rng.normal(size=(200, 3)), 4)
    write("linear_train.txt", {"x": x, "y": x @ np.array([2.0, -1.0, 0.5]) + 0.3})


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


if __name__ == "__main__":
    seed_example()
    linear()
    breast_cancer()
    digits()
    digit_images()
