"""samples/make_data.py: the committed data, bit for bit, from the script; and
without scikit-learn a clear message before anything is written."""
from __future__ import annotations

import subprocess
import sys

import pytest

from support.paths import SAMPLES_DIR

SCRIPT = SAMPLES_DIR / "make_data.py"


def run_script(*code_and_args, cwd=None):
    return subprocess.run([sys.executable, *code_and_args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_regenerates_the_committed_data_bit_for_bit(tmp_path):
    pytest.importorskip("sklearn")
    done = run_script(SCRIPT, tmp_path)
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in tmp_path.iterdir())
    assert "example_train.txt" in made and "digit_images_test.txt" in made
    for name in made:
        assert (tmp_path / name).read_bytes() == (SAMPLES_DIR / name).read_bytes(), name


def test_without_scikit_learn_it_says_so_and_writes_nothing(tmp_path):
    """scikit-learn made unimportable (a None entry in sys.modules), as on a
    plain install."""
    out = tmp_path / "out"
    out.mkdir()
    code = ("import runpy, sys; sys.modules['sklearn'] = None; "
            f"sys.argv = ['make_data.py', {str(out)!r}]; "
            f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')")
    done = run_script("-c", code)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ("samples/make_data.py: error: the breast-cancer and digits data "
                           "come from scikit-learn, which is not installed: pip install "
                           "scikit-learn (nothing was written)\n")
    assert list(out.iterdir()) == []
