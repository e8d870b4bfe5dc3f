"""Running TenFlang's commands as a user would.

* `run_cli(args, cwd=None, stdin=None) -> (exit_code, stdout, stderr)` runs a
  command in a fresh interpreter: `args[0]` is `tenflang` (run as
  `python -m tenflang`) or one of the bin/ scripts (`tfcompiler`,
  `tfweightcalc`, `tfevaluate`), the rest its arguments.  PYTHONPATH points at
  the repository root, so the working tree is what runs, installed or not.
* `run_cli_batch(list_of_args, cwd=None) -> [(exit_code, stdout, stderr), ...]`
  runs many commands in ONE fresh interpreter (`batch_driver.py`); for large
  corpora, since a process start costs ~0.5 s.
* `stderr_on_a_terminal(args)` -> (exit code, what stderr showed) runs a
  command with stderr on a pseudo-terminal 100 columns wide (progress bars).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .paths import ROOT

BATCH_DRIVER = Path(__file__).with_name("batch_driver.py")
BIN_SCRIPTS = ("tfcompiler", "tfweightcalc", "tfevaluate")


def cli_env() -> dict[str, str]:
    """The environment of a command run as a user would run it.  Dask's nanny
    puts MALLOC_TRIM_THRESHOLD_ into the environment of the process that starts
    a local cluster (this one, once a distributed test has run); a user's shell
    has none, and it changes how malloc keeps and returns memory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
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


def run_cli(args, cwd=None, stdin: str | None = None, timeout: float = 120):
    done = subprocess.run(command_line(args), cwd=cwd, input=stdin, capture_output=True,
                          text=True, encoding="utf-8", errors="replace", env=cli_env(),
                          timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def run_cli_batch(commands, cwd=None, timeout: float = 300):
    commands = [[str(a) for a in args] for args in commands]
    for args in commands:
        if args[0] not in ("tenflang",) + BIN_SCRIPTS:
            raise ValueError(f"not a TenFlang command: {args}")
    done = subprocess.run([sys.executable, str(BATCH_DRIVER)], cwd=cwd,
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


