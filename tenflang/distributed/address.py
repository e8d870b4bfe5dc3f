"""`--scheduler` values, and waiting on the cluster without hanging.

    kind, value = parse_scheduler("tcp://host:8786")     # ("address", ...) or ("local", N)
    client = within(12, lambda: Client(value), should_stop, "the Dask scheduler at ...")

Conventions:

* ``local:N`` starts N local worker processes, 1 <= N <= limits.MAX_LOCAL_WORKERS
  (``local``: one per core); otherwise an address ``[SCHEME://]HOST[:PORT]``
  with a scheme Dask speaks (`SCHEMES`) and a port 1-65535.  Anything else is a
  usage error (exit 2) saying which part is wrong.
* `within` runs a blocking cluster call in a helper thread and waits for it in
  short slices: a server that accepts a connection but never answers cannot
  hang the command past its deadline, and Ctrl-C / SIGTERM (which set the
  command's stop flag) end the wait at once (RunFailure, exit 1).  Nothing
  here imports dask.
"""
from __future__ import annotations

import os
import re
import threading
import time
from typing import Callable

from tenflang.base import limits
from tenflang.base.errors import RunFailure, TenflangError

SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
_ADDRESS_RE = re.compile(r"(?:(?P<scheme>[^:/\s]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+)"
                         r"(?::(?P<port>[^\s/]*))?/?")
EXAMPLE = "tcp://HOST:8786, or local:N to start N local worker processes"


def parse_scheduler(text: str) -> tuple[str, int | str]:
    """("local", worker count) for ``local:N``, else ("address", text)."""
    text = text.strip()
    if text == "local" or text.startswith("local:"):
        return "local", local_workers(text)
    m = _ADDRESS_RE.fullmatch(text)
    if m is None:
        raise TenflangError(f"--scheduler {text!r}: expected a Dask scheduler address such as "
                            + EXAMPLE)
    scheme, port = m.group("scheme"), m.group("port")
    if scheme is not None and scheme not in SCHEMES:
        raise TenflangError(f"--scheduler {text!r}: unknown protocol '{scheme}'; Dask speaks "
                            f"{', '.join(SCHEMES)} (for example {EXAMPLE})")
    if scheme is None and port is None:
        raise TenflangError(f"--scheduler {text!r}: expected a Dask scheduler address "
                            f"(HOST:PORT or SCHEME://HOST[:PORT]) such as {EXAMPLE}")
    if port is not None and not (port.isdigit() and 1 <= int(port) <= 65535):
        raise TenflangError(f"--scheduler {text!r}: the port must be a number from 1 to 65535")
    return "address", text


def local_workers(text: str) -> int:
    count = text[6:] if text != "local" else str(os.cpu_count() or 1)
    if not count.isdigit() or int(count) < 1:
        raise TenflangError(f"--scheduler {text}: local:N needs a worker count N >= 1")
    if int(count) > limits.MAX_LOCAL_WORKERS:
        raise TenflangError(f"--scheduler {text}: at most {limits.MAX_LOCAL_WORKERS} local "
                            "workers; for more, start a Dask cluster and pass its address")
    return int(count)


def within(seconds: float | None, call: Callable, should_stop: Callable[[], bool], what: str,
           slack: float = 0.0):
    """`call()`'s result, waited for at most `seconds` (None: no deadline) plus
    `slack` (time for a call with a timeout of its own to report first, in its
    own words) and only while `should_stop()` is false; else RunFailure naming
    `what`.  An exception of `call` is raised here.  A call given up on is left
    to finish (or not) in its daemon thread."""
    box: dict = {}

    def run():
        try:
            box["result"] = call()
        except BaseException as err:        # re-raised in the caller's thread
            box["error"] = err
    worker = threading.Thread(target=run, name="tenflang-cluster-wait", daemon=True)
    worker.start()
    deadline = None if seconds is None else time.monotonic() + seconds + slack
    while worker.is_alive():
        if should_stop():
            raise RunFailure(f"interrupted while waiting for {what}")
        if deadline is not None and time.monotonic() > deadline:
            raise RunFailure(f"{what} did not answer within {seconds:g} s")
        worker.join(0.05)
    if "error" in box:
        raise box["error"]
    return box["result"]
