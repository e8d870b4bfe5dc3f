"""Shared test fixtures.

* `run_cli(args, cwd=None, stdin=None) -> (exit_code, stdout, stderr)` runs a
  command in a fresh interpreter, as a user would: `args[0]` is `tenflang`
  (run as `python -m tenflang`) or one of the bin/ scripts (`tfcompiler`,
  `tfweightcalc`, `tfevaluate`), the rest its arguments.  PYTHONPATH points at
  the repository root, so the working tree is what runs, installed or not.
* `run_cli_batch(list_of_args, cwd=None) -> [(exit_code, stdout, stderr), ...]`
  runs many commands in ONE fresh interpreter, each through the same click
  entry point the scripts call (`tenflang.cli.main` / `tfcompiler` / ...)
  with its own captured stdout and stderr and its own `sys.exit` status; an
  exception escaping a command is printed as a traceback on its stderr, as
  the real script would.  For large corpora: a process start costs ~0.5 s.
* `stderr_on_a_terminal(args)` -> (exit code, what stderr showed) runs a
  command with stderr on a pseudo-terminal 100 columns wide (progress bars).
* `samples`: the paths of `samples/*.tf` (the sample programs double as the
  test corpus).
* `work`: a fresh directory holding the sample program `s.tf`, its GCP `g.tf`,
  its training data `d.txt`, new inputs `in.txt` and weights `w.txt`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.tf"))
BIN_SCRIPTS = ("tfcompiler", "tfweightcalc", "tfevaluate")


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("PYTHONIOENCODING", "utf-8")
    return env


def command_line(args) -> list[str]:
    args = [str(a) for a in args]
    if args and args[0] == "tenflang":
        return [sys.executable, "-m", "tenflang", *args[1:]]
    if args and args[0] in BIN_SCRIPTS:
        return [sys.executable, str(ROOT / "bin" / args[0]), *args[1:]]
    return [sys.executable, "-m", "tenflang", *args]   # a bare subcommand: `check FILE`


def run_cli_impl(args, cwd=None, stdin: str | None = None, timeout: float = 120):
    done = subprocess.run(command_line(args), cwd=cwd, input=stdin, capture_output=True,
                          text=True, encoding="utf-8", errors="replace", env=cli_env(),
                          timeout=timeout)
    return done.returncode, done.stdout, done.stderr


BATCH_DRIVER = r"""
import contextlib, io, json, sys, traceback
from tenflang import cli
commands = {"tenflang": cli.main, "tfcompiler": cli.tfcompiler,
            "tfweightcalc": cli.tfweightcalc, "tfevaluate": cli.tfevaluate}
results = []
for args in json.load(sys.stdin):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            commands[args[0]].main(args[1:], prog_name=args[0])
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    results.append([code, out.getvalue(), err.getvalue()])
sys.__stdout__.write(json.dumps(results))
"""


def run_cli_batch_impl(commands, cwd=None, timeout: float = 300):
    commands = [[str(a) for a in args] for args in commands]
    for args in commands:
        if args[0] not in ("tenflang",) + BIN_SCRIPTS:
            raise ValueError(f"not a TenFlang command: {args}")
    done = subprocess.run([sys.executable, "-c", BATCH_DRIVER], cwd=cwd,
                          input=json.dumps(commands), capture_output=True, text=True,
                          encoding="utf-8", env=cli_env(), timeout=timeout)
    assert done.returncode == 0, done.stderr
    return [tuple(r) for r in json.loads(done.stdout)]


def stderr_on_a_terminal(args) -> tuple[int, str]:
    import fcntl
    import pty
    import struct
    import termios
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    done = subprocess.run(command_line(args), stdout=subprocess.PIPE, stderr=follower,
                          env=cli_env(), timeout=120)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return done.returncode, b"".join(chunks).decode(errors="replace")


@pytest.fixture
def run_cli_batch():
    """`run_cli_batch([["tenflang", "check", a], ["tfcompiler", b]])` → [(code, out, err)]."""
    return run_cli_batch_impl


@pytest.fixture
def run_cli():
    """`run_cli(["tenflang", "check", path])` → (exit code, stdout, stderr)."""
    return run_cli_impl


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
    from tenflang.backprop import compile_gradient
    shape = ROOT / "samples" / "example_shape.tf"
    (tmp_path / "s.tf").write_text(shape.read_text())
    gcp = compile_gradient(tenflang.parse_file(str(shape), shape_program=True))
    (tmp_path / "g.tf").write_text(tenflang.print_program(gcp))
    (tmp_path / "d.txt").write_text((ROOT / "samples" / "example_train.txt").read_text())
    (tmp_path / "in.txt").write_text((ROOT / "samples" / "example_inputs.txt").read_text())
    (tmp_path / "w.txt").write_text("{w: 0.5}\n")
    return tmp_path
