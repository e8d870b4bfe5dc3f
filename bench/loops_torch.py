#!/usr/bin/env python3
"""One whole training run of bench_loops.py's character GRU in PyTorch eager.

    python bench/loops_torch.py DTYPE STEPS DATA.npz OUT.npz

The process does what `tfweightcalc charlm-T.gcp.tf DATA --optimizer adam
--lr 0.01 --batch-size 64 --max-iters STEPS --dtype DTYPE -o OUT` does: load
the data (`chars`, [N, T+1] indices stored as floats), take STEPS Adam steps
on batches of 64 drawn as shuffled epochs, write the weights.  The network is
samples/charlm.tf's: a 32-symbol alphabet embedded in 16 dimensions, `nn.GRU`
with 64 units over the first T characters, a linear layer on the last state,
cross-entropy against character T.  Threads: as the environment sets them
(OMP_NUM_THREADS=1 gives one).
"""
from __future__ import annotations

import sys
import time

import numpy as np

ALPHABET, EMBED, HIDDEN, BATCH, LR = 32, 16, 64, 64, 0.01


def model(torch, dtype):
    nn = torch.nn

    class CharGRU(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(ALPHABET, EMBED)
            self.gru = nn.GRU(EMBED, HIDDEN, batch_first=True)
            self.out = nn.Linear(HIDDEN, ALPHABET)

        def forward(self, chars):
            states, _ = self.gru(self.embed(chars))
            return self.out(states[:, -1])

    return CharGRU().to(dtype)


def batches(n: int, steps: int, seed: int = 0):
    """Row indices of each step's batch, shuffled epoch after epoch."""
    rng, done = np.random.default_rng(seed), 0
    while True:
        order = rng.permutation(n)
        for start in range(0, n - BATCH + 1, BATCH):
            if done == steps:
                return
            yield order[start:start + BATCH]
            done += 1


def main(dtype: str, steps: str, data: str, out: str) -> int:
    import torch
    torch.manual_seed(0)
    chars = torch.from_numpy(np.load(data)["chars"].astype(np.int64))
    net = model(torch, getattr(torch, dtype))
    optimiser = torch.optim.Adam(net.parameters(), lr=LR)
    loss = torch.nn.CrossEntropyLoss()
    context = chars.shape[1] - 1
    start = time.perf_counter()
    for rows in batches(len(chars), int(steps)):
        batch = chars[torch.from_numpy(rows)]
        optimiser.zero_grad()
        loss(net(batch[:, :context]), batch[:, context]).backward()
        optimiser.step()
    print(f"loop {time.perf_counter() - start:.4f} s", file=sys.stderr)   # bench_loops reads it
    np.savez(out, **{k: v.detach().numpy() for k, v in net.state_dict().items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
