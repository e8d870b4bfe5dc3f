"""The hand-written numpy program a user would write instead of tenflang, run as
a whole process by bench_process.py: load the .npz, train, write the weights.

    python bench/numpy_script.py CASE DATA.npz ITERS OUT.txt [quick]

CASE is a workload key (scalar, logreg; `quick`: its --quick size); the training loop is the numpy
reference of references.py (same math, same start as tenflang's CLI: zeros).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from references import setup_numpy  # noqa: E402
from workloads import cases, initial_weights  # noqa: E402


def main(key: str, data_path: str, iters: str, out: str, quick: str = "") -> None:
    case = {c.key: c for c in cases(quick == "quick")}[key]
    case.iters = int(iters)
    with np.load(data_path) as z:
        data = {k: z[k] for k in z.files}
    weights = setup_numpy(case, data, initial_weights(case), "float64")()
    with open(out, "w") as f:
        f.write("{\n" + "".join(f"  {k}: {np.asarray(v).tolist()!r}\n" for k, v in weights.items())
                + "}\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
