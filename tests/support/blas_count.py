"""numpy's BLAS thread count as threadpoolctl reads it (tests skip without threadpoolctl).

Only numpy's own library counts: scipy (loaded by scikit-learn in other tests)
brings an OpenBLAS of its own, with its own threads, which TenFlang leaves alone.
"""
import os

import numpy as np
import pytest


def numpy_blas_threads() -> int:
    """The thread count of numpy's BLAS: the one in numpy's folder, else every one loaded."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    home = os.path.dirname(os.path.dirname(np.__file__))
    ours = [i for i in blas if i["filepath"].startswith(home)
            and os.path.basename(os.path.dirname(i["filepath"])) in ("numpy.libs", "numpy")]
    ours = ours or blas
    return max(i["num_threads"] for i in ours)
