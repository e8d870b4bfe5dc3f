"""Writing output files: the one place a command's output reaches the disk.

A regular file (or a new one) is replaced atomically: written to a temporary
file in the same directory, flushed, then renamed over the target, so a reader
never sees it half-written.  Failure raises `RunFailure`.

`cache_dir()` is where compiled artefacts persist between runs (the parser's
tables, the machine code of fused loops): ``$TENFLANG_CACHE_DIR``, else
``$XDG_CACHE_HOME/tenflang``, else ``~/.cache/tenflang`` (docs/guide.md).  A
cache that cannot be written only costs time: it is None then.
"""
from __future__ import annotations

import os
import tempfile

from .errors import Location, RunFailure


def cache_dir(*parts: str) -> str | None:
    """The cache directory (or a subdirectory of it), created; None if it cannot be."""
    base = (os.environ.get("TENFLANG_CACHE_DIR")
            or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                            "tenflang"))
    path = os.path.join(base, *parts)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


def write_atomically(path: str, text_or_bytes: str | bytes) -> None:
    """Write through a temporary file in the target's directory and os.replace, so
    the target is never half-written.  Failure raises RunFailure."""
    data = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else text_or_bytes
    tmp = None
    try:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                                   prefix="." + os.path.basename(path) + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise RunFailure(f"cannot write file: {e.strerror or e}", Location(file=path)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
