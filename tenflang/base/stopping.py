"""Stop signals: how a command answers SIGINT (Ctrl-C), SIGTERM and SIGHUP.

    old = install(interrupt_once)      # ... the phase runs ...
    restore(old)

Conventions (docs/guide/troubleshooting.md, section 8, "Limits" and "An interrupted run"):

* The three are one request: stop, keep what can be kept, exit 1.  SIGHUP
  (the terminal closed, an ssh session dropped) is answered as SIGTERM is.
  A signal that was ignored when the command started (`nohup` ignores
  SIGHUP) stays ignored.
* A handler only records the signal in `received` (a list append takes no
  lock) and, in a phase with no flag to poll, raises KeyboardInterrupt the
  first time (`interrupt_once`).  It calls nothing that may take a lock: a
  second signal arriving while a handler held one would run the handler
  again on the same thread, which would wait for that lock for ever.
* Once one has arrived, later ones are ignored: the weights being written
  are finished, the messages printed, and the process exits with status 1,
  never by the signal.  `restore` ignores them then (SIG_IGN), instead of
  putting back a handler that raises or the default action, which kills.
  Not a Python handler that notes them: as the interpreter ends it puts the
  default action back in place of those, and a signal in that last moment
  ended the process by the signal after all (exit -2/130).
"""
from __future__ import annotations

import signal

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))

#: The stop signals this process received, in order.
received: list[int] = []


def note(signum, frame) -> None:
    received.append(signum)


def interrupt_once(signum, frame) -> None:
    """KeyboardInterrupt for the first stop signal; later ones are only noted
    (a second Ctrl-C must not interrupt the cleanup of the first)."""
    first = not received
    received.append(signum)
    if first:
        raise KeyboardInterrupt


def stopping() -> bool:
    return bool(received)


def install(handler) -> dict:
    """`handler` for each stop signal not ignored; {signal: the handler it had}."""
    old = {}
    for sig in STOP_SIGNALS:
        previous = signal.getsignal(sig)
        if previous != signal.SIG_IGN:
            old[sig] = signal.signal(sig, handler)
    return old


def restore(old: dict) -> None:
    """Put back the handlers `install` replaced; once a stop signal has been
    received, ignore the stop signals instead (see the module docstring)."""
    for sig, handler in old.items():
        signal.signal(sig, signal.SIG_IGN if received else handler)
