"""Shared test fixtures; the helpers behind them live in `tests/support`.

* `run_cli`, `run_cli_batch`: `support.commands.run_cli` / `run_cli_batch`.
* `samples`: the paths of `samples/*.tf` (the sample programs double as the
  test corpus).
* `work`: a fresh directory holding the sample program `s.tf`, its GCP `g.tf`,
  its training data `d.txt`, new inputs `in.txt` and weights `w.txt`.
* `loop_threads`: `loop_threads("3")` runs the rest of the test's compiled loops
  on 3 threads.
* `env_switch`: `env_switch("TENFLANG_FUSE", "0")` turns fused loops off for the
  rest of the test (None unsets the variable).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from support import commands, programs
from support.paths import ROOT, SAMPLES, SAMPLES_DIR


@pytest.fixture
def run_cli_batch():
    """`run_cli_batch([["tenflang", "check", a], ["tfcompiler", b]])` → [(code, out, err)]."""
    return commands.run_cli_batch


@pytest.fixture
def run_cli():
    """`run_cli(["tenflang", "check", path])` → (exit code, stdout, stderr)."""
    return commands.run_cli


@pytest.fixture(scope="session")
def samples() -> list[Path]:
    assert SAMPLES, "no samples/*.tf found"
    return list(SAMPLES)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture
def work(tmp_path):
    """A fresh directory with the sample program, its GCP, data and weights."""
    import tenflang
    (tmp_path / "s.tf").write_text(programs.ORIGINAL_EXAMPLE_AS_WRITTEN)
    (tmp_path / "g.tf").write_text(tenflang.print_program(programs.sample_gcp("example_shape.tf")))
    (tmp_path / "d.txt").write_text((SAMPLES_DIR / "example_train.txt").read_text())
    (tmp_path / "in.txt").write_text((SAMPLES_DIR / "example_inputs.txt").read_text())
    (tmp_path / "w.txt").write_text("{w: 0.5}\n")
    return tmp_path


@pytest.fixture
def loop_threads(monkeypatch):
    """`loop_threads("3")`: TENFLANG_NUM_THREADS=3 from now on in this test.  A process
    reads the count once (`tenflang.native.loop_pool.threads`) and sizes its loop pool by it, so
    both are forgotten at each change and when the test ends."""
    from tenflang.native import blas_threads, loop_pool

    def forget():
        loop_pool.threads.cache_clear()
        loop_pool.pool.cache_clear()
        blas_threads.settle.cache_clear()

    def use(count: str) -> None:
        monkeypatch.setenv("TENFLANG_NUM_THREADS", count)
        forget()
    yield use
    forget()


@pytest.fixture
def env_switch(monkeypatch):
    """`env_switch("TENFLANG_FUSE", "0")`: the variable set (None: unset) from now on
    in this test.  A process reads TENFLANG_FUSE and TENFLANG_NATIVE once
    (`tenflang.native.switches.fused_loops_on`, `native_kernels_on`), so their answers are
    forgotten at each change and when the test ends (before monkeypatch restores
    the environment: the next read sees the caller's)."""
    from tenflang.native import switches

    def forget():
        switches.fused_loops_on.cache_clear()
        switches.native_kernels_on.cache_clear()

    def use(name: str, value: str | None) -> None:
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
        forget()
    yield use
    forget()


@pytest.fixture
def native_on(env_switch):
    """For the tests of the native kernels (`pytestmark = pytest.mark.usefixtures(
    "native_on")`): a TENFLANG_NATIVE=0 or TENFLANG_FUSE=0 in the caller's
    environment (a run of the suite on the numpy path) must not switch them
    off; the tests of that switch set it themselves."""
    env_switch("TENFLANG_NATIVE", None)
    env_switch("TENFLANG_FUSE", None)
