"""Reading an input file (a program, data, weights): what may be read, and how much.

    data = read_input(path, "program")         # bytes
    data = read_stdin("program")               # a command's `-`
    require_regular(path, "data file")         # an .npz archive: it is read by seeking
    if regular(path): ...                      # read a file again, for a message

Conventions (docs/guide/troubleshooting.md, section 8, "Limits"):

* A regular file is read whole: its size is known before it is read, and the
  readers bound what they build from it.
* A stream is read to its end, at most `limits.MAX_STREAM_BYTES` bytes: a
  pipe or FIFO (`/dev/stdin` from a pipe, a shell's `<(...)`), a socket, a
  terminal, the null device.  One that holds more is an error as soon as the
  limit is passed (exit 2), not after the machine's memory ran out.
* Anything else where a file is meant is refused before a byte is read: a
  device (`/dev/zero`, `/dev/urandom`, a disk) never ends or is no file of
  TenFlang's.  The kind is taken from the opened descriptor, so a symbolic
  link, `/dev/stdin` or `/dev/fd/N` is judged by what it leads to.
* A stream can be read once: a message that quotes a line reads the file
  again only when it is regular (`regular`); a FIFO opened again would wait
  for a writer for ever.
* Failures are `TenflangError`s at the file: "cannot read <what>: <why>".
"""
from __future__ import annotations

import os
import stat
import sys

from . import limits
from .errors import Location, TenflangError

CHUNK_BYTES = 1 << 20          # a stream is read this much at a time


def read_input(path: str, what: str) -> bytes:
    """The bytes of the input `path` (`what` it is, for messages: "program",
    "data file"); see the module docstring."""
    try:
        with open(path, "rb") as f:
            if stream(path, os.fstat(f.fileno()), what, f.fileno()):
                return read_stream(f, path, what)
            return f.read()
    except OSError as err:
        raise TenflangError(f"cannot read {what}: {err.strerror or err}", Location(path)) from None


def read_stdin(what: str) -> bytes:
    """Standard input (a command's `-`), as `read_input` reads a path."""
    stdin = sys.stdin.buffer
    try:
        fd = stdin.fileno()
        st = os.fstat(fd)
    except (AttributeError, OSError, ValueError):     # a stand-in (a test runner's): a stream
        return read_stream(stdin, "<stdin>", what)
    try:
        return read_stream(stdin, "<stdin>", what) if stream("<stdin>", st, what, fd) \
            else stdin.read()
    except OSError as err:
        raise TenflangError(f"cannot read {what}: {err.strerror or err}",
                            Location("<stdin>")) from None


def stream(path: str, st: os.stat_result, what: str, fd: int | None = None) -> bool:
    """Whether the input with status `st` is a stream (False: a regular file);
    any other kind raises TenflangError."""
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return False
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or null_device(st) or (
            stat.S_ISCHR(mode) and fd is not None and os.isatty(fd)):
        return True
    kind = ("a directory" if stat.S_ISDIR(mode) else "a character device" if stat.S_ISCHR(mode)
            else "a block device" if stat.S_ISBLK(mode) else "not a file")
    raise TenflangError(f"cannot read {what}: it is {kind}, not a regular file (a device such as "
                        "/dev/zero never ends); give a file, a pipe or a FIFO", Location(path))


def null_device(st: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev


def read_stream(f, path: str, what: str) -> bytes:
    """All of a stream, refused once it passes `limits.MAX_STREAM_BYTES` (read in
    chunks: what is held never passes the limit by more than one)."""
    chunks, size = [], 0
    while chunk := f.read(CHUNK_BYTES):
        size += len(chunk)
        if size > limits.MAX_STREAM_BYTES:
            raise TenflangError(f"cannot read {what}: the stream holds more than "
                                f"{limits.MAX_STREAM_BYTES} bytes (the limit for a pipe or "
                                "FIFO); write it to a file and give that", Location(path))
        chunks.append(chunk)
    return b"".join(chunks)


def require_regular(path: str, what: str, why: str) -> None:
    """`path` is a regular file (`why`: what needs one); missing files are left
    to the reader, which says so."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return
    if stream(path, st, what):
        raise TenflangError(f"cannot read {what}: it is a pipe or FIFO, and {why}; write it "
                            "to a file and give that", Location(path))


def regular(path: str) -> bool:
    """Whether `path` is a regular file (which can be read again)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False
