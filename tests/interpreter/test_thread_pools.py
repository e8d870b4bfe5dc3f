"""The loop threads and numpy's BLAS threads: how many, never both at once, none
spinning (tenflang/native/loop_pool.py, tenflang/native/blas_threads.py)."""
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from support.blas_count import numpy_blas_threads as blas_count
from tenflang.native import blas_threads, clib, loop_pool

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def counted(monkeypatch):
    """`counted(env, cpus)`: loop_pool.threads() with only `env`'s thread variables
    set and `cpus` the CPUs this process may run on."""
    def count(env: dict, cpus: int) -> int:
        for var in ("TENFLANG_NUM_THREADS", "OMP_NUM_THREADS"):
            monkeypatch.delenv(var, raising=False)
        for var, value in env.items():
            monkeypatch.setenv(var, value)
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
        loop_pool.threads.cache_clear()
        return loop_pool.threads()
    yield count
    loop_pool.threads.cache_clear()


@pytest.mark.parametrize("env, cpus, expected", [
    ({}, 3, 3),                                                   # the CPUs it may use
    ({}, 1, 1),
    ({"OMP_NUM_THREADS": "2"}, 8, 2),
    ({"TENFLANG_NUM_THREADS": "5", "OMP_NUM_THREADS": "2"}, 8, 5),   # TenFlang's first
    ({"TENFLANG_NUM_THREADS": "", "OMP_NUM_THREADS": "2"}, 8, 2),    # empty: not set
    ({"TENFLANG_NUM_THREADS": " 3 "}, 8, 3),
    ({"OMP_NUM_THREADS": "0"}, 4, 4),                              # not a count: ignored
    ({"OMP_NUM_THREADS": "two"}, 4, 4),
])
def test_the_thread_count_follows_the_variables_then_the_affinity(counted, env, cpus, expected):
    assert counted(env, cpus) == expected


@pytest.fixture
def threaded_blas(loop_threads, monkeypatch):
    """numpy's BLAS settable and started on 2 threads or more, asked for 2
    ($OPENBLAS_NUM_THREADS), two loop threads; BLAS's count put back afterwards."""
    if not blas_threads.found() or blas_threads.started() < 2:
        pytest.skip("numpy's BLAS not found, or started on one thread")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    loop_threads("2")
    blas_threads.settle()
    yield
    blas_threads.control()[0](blas_threads.started())


def test_blas_is_on_one_thread_inside_a_parallel_region_only(threaded_blas):
    assert blas_count() == 2
    with loop_pool.parallel():
        inside = [blas_count(), loop_pool.submit(blas_count).result()]
    assert inside == [1, 1]
    assert blas_count() == 2


def test_regions_entered_from_two_threads_give_blas_back_after_the_last(threaded_blas):
    """A data loader's checksum beside a step: BLAS stays on one thread until both left."""
    entered, leave, seen = threading.Event(), threading.Event(), []

    def other():
        with loop_pool.parallel():
            entered.set()
            leave.wait(10)
        seen.append(blas_count())
    thread = threading.Thread(target=other)
    thread.start()
    entered.wait(10)
    with loop_pool.parallel():
        with loop_pool.parallel():          # nested
            seen.append(blas_count())
        seen.append(blas_count())
    seen.append(blas_count())              # the other still inside
    leave.set()
    thread.join(10)
    assert seen == [1, 1, 1, 2]


@pytest.mark.parametrize("env, expected", [
    ({}, 1),                                                    # one pool: the loops'
    ({"OPENBLAS_NUM_THREADS": "2"}, 2),                         # asked for
    ({"MKL_NUM_THREADS": "2"}, 2),
    ({"OPENBLAS_NUM_THREADS": "2", "TENFLANG_NUM_THREADS": "1"}, 1),    # no more than the loops
    ({"OPENBLAS_NUM_THREADS": "0"}, 1),                         # not a count
    ({"OPENBLAS_NUM_THREADS": "64", "TENFLANG_NUM_THREADS": "64"}, "started"),
])
def test_blas_outside_the_regions_is_on_one_thread_unless_asked(threaded_blas, loop_threads,
                                                                monkeypatch, env, expected):
    for var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    loop_threads(env.get("TENFLANG_NUM_THREADS", "2"))
    blas_threads.settle()
    assert blas_count() == (blas_threads.started() if expected == "started" else expected)


BIAS_RELU = """declare input x [6, 28, 28]
declare weight c [6, 1, 1]
declare output r [6, 28, 28]
declare intvar a [6, 28, 28]
define a = add x c
define r = relu a
"""


@pytest.mark.skipif(clib.unavailable_reason() is not None, reason="no C compiler here")
def test_a_fused_loop_split_over_threads_runs_with_blas_on_one_thread(threaded_blas, monkeypatch):
    """A fused loop large enough to be split (interp/backends/cpu_loops.py): each
    piece runs with BLAS on one thread; the results are numpy's."""
    import tenflang
    from tenflang.interp import make_plan, run_plan
    from tenflang.interp.backends import cpu_loops
    seen, submit = [], loop_pool.submit
    monkeypatch.setattr(cpu_loops, "submit", lambda f, *a: submit(
        lambda *b: seen.append(blas_count()) or f(*b), *a))
    plan = make_plan(tenflang.parse(BIAS_RELU), {"x", "c"})
    rng = np.random.default_rng(7)
    data = {"x": rng.standard_normal((300, 6, 28, 28)), "c": rng.standard_normal((6, 1, 1))}
    out = run_plan(plan, data)["r"]
    assert np.array_equal(out, np.maximum(data["x"] + data["c"], 0))
    assert seen and set(seen) == {1}
    assert blas_count() == 2


def test_idle_threads_sleep_after_work():
    """In a fresh process importing tenflang first: after a threaded GEMM and a
    region of two loop threads, the process uses (almost) no CPU while it sleeps
    (OpenBLAS's threads spun 0.1 s after each call by default; the loop threads wait
    on a queue)."""
    if len(os.sched_getaffinity(0)) < 2 or not blas_threads.found():
        pytest.skip("one CPU, or numpy's BLAS not found")
    code = """if True:
        import time, tenflang, numpy as np
        from tenflang.native import loop_pool
        a = np.random.default_rng(0).normal(size=(400, 400))
        with loop_pool.parallel():
            loop_pool.submit(sum, range(10**6)).result()
        for _ in range(3):
            a @ a
        cpu = time.process_time()
        time.sleep(0.3)
        print(time.process_time() - cpu)"""
    unset = ("OPENBLAS_THREAD_TIMEOUT", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=env | {"TENFLANG_NUM_THREADS": "2", "PYTHONPATH": str(ROOT)})
    assert float(out.stdout) < 0.03


def test_the_idle_spin_is_set_before_numpy_loads_unless_the_user_set_it(monkeypatch):
    monkeypatch.delenv("OPENBLAS_THREAD_TIMEOUT", raising=False)
    blas_threads.quiet_idle_threads()                  # numpy loaded: too late, nothing set
    assert "OPENBLAS_THREAD_TIMEOUT" not in os.environ
    monkeypatch.delitem(sys.modules, "numpy")
    blas_threads.quiet_idle_threads()
    assert os.environ["OPENBLAS_THREAD_TIMEOUT"] == blas_threads.IDLE_SPIN
    monkeypatch.setenv("OPENBLAS_THREAD_TIMEOUT", "20")
    blas_threads.quiet_idle_threads()
    assert os.environ["OPENBLAS_THREAD_TIMEOUT"] == "20"
