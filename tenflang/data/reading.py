"""Reading the bytes of a data or weights file, for every format.

Conventions:

* A file that cannot be opened, a device (`inputs`: a stream is read up to
  a limit), or text that is not UTF-8, is one
  `TenflangError` at the file (and, for bad UTF-8, the line), saying which kind
  of file (`what`: "data", "weights") it was.  Text is read as UTF-8 with an
  optional byte-order mark.
* Lines are what the readers split on: ``\\n`` only, so a line number means the
  same in every reader and in every message (`line_of`).
"""
from __future__ import annotations

from tenflang.base.errors import Location, TenflangError
from tenflang.base.inputs import read_input, regular


def file_bytes(path: str, what: str) -> bytes:
    """The bytes of the file; a device is refused, a stream capped (`inputs`)."""
    return read_input(path, f"{what} file")


def unreadable(path: str, what: str, e: OSError) -> TenflangError:
    return TenflangError(f"cannot read {what} file: {e.strerror or e}", Location(file=path))


def decode(path: str, data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TenflangError(f"{what} file is not UTF-8 text (binary data must be an .npz file)",
                            Location(path, data.count(b"\n", 0, e.start) + 1)) from None


def file_text(path: str, what: str) -> str:
    return decode(path, file_bytes(path, what), what)


def line_of(path: str, number: int) -> str | None:
    """The text of line `number` (1-based) of a file, for a message; None when
    the file cannot be read or is shorter.  Read again, line by line: only a
    message needs it, and the file may be far bigger than one line.  A stream
    was read once and is not read again."""
    if not regular(path):
        return None
    try:
        with open(path, "rb") as f:
            for i, raw in enumerate(f, 1):
                if i == number:
                    return raw.rstrip(b"\n").decode("utf-8-sig" if i == 1 else "utf-8", "replace")
    except OSError:
        pass
    return None
