"""PyTorch's `nn.GRU` on the character language model of samples/charlm.tf:
the same sizes (a 32-symbol alphabet, 16-dimensional embeddings, a 64-unit
GRU, 16 steps of context), data (samples/charlm_train.npz, charlm_test.txt), optimiser (Adam,
learning rate 0.01, batches of 64 drawn as tfweightcalc draws them:
shuffled epochs) and number of steps; held-out bits per character and the
training time (wall and CPU), one thread and the default threads.

    python bench/bench_charlm_torch.py                 # --iters 1500
    python bench/bench_charlm_torch.py --iters 300

Skips (exit 0, with a note) where torch is not installed.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenflang.data.vectors import load_examples  # noqa: E402
from loops_torch import model as char_gru  # noqa: E402  (bench/ is the script's folder)

ALPHABET, EMBED, HIDDEN, CONTEXT = 32, 16, 64, 16


def windows(name: str) -> np.ndarray:
    return load_examples(str(ROOT / "samples" / name)).arrays["chars"].astype(np.int64)


def train(torch, iters: int, batch: int, lr: float, seed: int = 0) -> tuple[float, float, float]:
    """(held-out bits per character, wall seconds, CPU seconds) of one run."""
    torch.manual_seed(seed)
    nn = torch.nn
    model = char_gru(torch, torch.float64)     # the network bench_loops.py times too
    train_set, test_set = map(torch.from_numpy, (windows("charlm_train.npz"),
                                                 windows("charlm_test.txt")))
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss()
    rng = np.random.default_rng(seed)
    order, at = rng.permutation(len(train_set)), 0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(iters):
        if at + batch > len(order):
            order, at = rng.permutation(len(train_set)), 0
        rows = train_set[order[at:at + batch]]
        at += batch
        optimiser.zero_grad()
        loss(model(rows[:, :CONTEXT]), rows[:, CONTEXT]).backward()
        optimiser.step()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    with torch.no_grad():
        nats = loss(model(test_set[:, :CONTEXT]), test_set[:, CONTEXT]).item()
    return nats / math.log(2), wall, cpu


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--iters", type=int, default=1500)
    options.add_argument("--batch-size", type=int, default=64)
    options.add_argument("--lr", type=float, default=0.01)
    args = options.parse_args()
    try:
        import torch
    except ImportError:
        print("torch is not installed: skipped (pip install -r bench/requirements.txt)")
        return 0
    print("| implementation | threads | steps | held-out bits/char | train wall s | train CPU s |")
    print("|---|---|---|---|---|---|")
    default_threads = torch.get_num_threads()
    for threads in sorted({1, default_threads}):
        torch.set_num_threads(threads)
        bits, wall, cpu = train(torch, args.iters, args.batch_size, args.lr)
        print(f"| PyTorch {torch.__version__} nn.GRU | {threads} | {args.iters} | {bits:.3f} "
              f"| {wall:.1f} | {cpu:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
