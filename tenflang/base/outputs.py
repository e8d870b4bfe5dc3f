"""Writing outputs: the one place a command's output reaches the disk.

    check_outputs({"-o": out, "--plot": png}, {"GCP": gcp_file, "DATA": data})
    write_file(out, text_or_bytes)          # out None or "-": standard output

Conventions (docs/guide/commands.md, "Outputs"):

* A symbolic link is followed: what is written is its target, and the link
  stays a link.  A path naming an inherited descriptor (`/dev/stdout`,
  `/dev/stderr`, `/dev/fd/N`) is written to that descriptor as it is.
* A regular file (or a new one) is replaced atomically: written to a temporary
  file in the same directory, flushed, then renamed over the target, so a
  reader never sees it half-written.  Its permission bits are kept.  The
  temporary file's name holds the writer's process id: a write of the same
  target removes those left by a process that was killed mid-write.
* Anything else is written through, never replaced: a device (`/dev/null`,
  `/dev/stdout`) is opened and written; a FIFO too, once a process reads it
  (`limits.FIFO_READER_WAIT_S` at most, so a FIFO nobody reads does not hang
  the command).  A directory is refused.
* `check_outputs` runs before a command does any work: an output that is one
  of the command's inputs (the same file by any spelling, hard link or
  symbolic link: same `st_dev` and `st_ino`), two outputs that are one file,
  and an output whose directory is missing or not writable are usage errors
  (exit 2), so nothing is computed only to be lost or to destroy an input.
  Standard output is checked the same way (`check_stdout`: its descriptor's
  `st_dev` and `st_ino`), whether or not the command writes to it:
  `tfcompiler sp.tf >> sp.tf` is refused as `-o /dev/stdout` is.
* A failed write raises `RunFailure` (exit 1); standard output included (a
  full disk, `> /dev/full`).

`cache_dir()` is where compiled artefacts persist between runs (the parser's
tables, the machine code of fused loops): ``$TENFLANG_CACHE_DIR``, else
``$XDG_CACHE_HOME/tenflang``, else ``~/.cache/tenflang`` (docs/guide/performance.md).  A
cache that cannot be written only costs time: it is None then.
"""
from __future__ import annotations

import errno
import os
import re
import stat
import sys
import time

from . import limits
from .errors import Location, RunFailure, TenflangError


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


# ----------------------------------------------------------------------------- writing

def write_file(path: str | None, data: str | bytes) -> None:
    """Write `data` (str as UTF-8) to `path`, or to standard output when `path`
    is None or "-"; see the module docstring.  Failure raises RunFailure."""
    if path is None or path == "-":
        write_stdout(data)
        return
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd = inherited_fd(path)
    if fd == 1:
        write_stdout(data)
        return
    if fd is not None:
        write_fd(path, fd, raw)
        return
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise failure(path, err) from None
    if mode is None or stat.S_ISREG(mode):
        replace_atomically(path, os.path.realpath(path), raw, mode)
    elif stat.S_ISDIR(mode):
        raise TenflangError("the output is a directory; name a file", Location(path))
    else:
        write_through(path, path, raw, stat.S_ISFIFO(mode))


_FD_PATH = re.compile(r"/dev/fd/(\d+)|/proc/self/fd/(\d+)|/dev/std(out|err)")


def inherited_fd(path: str) -> int | None:
    """The descriptor a path such as /dev/stdout or /dev/fd/3 names: the
    command writes to it as it is (a shell's `>>` appends), never re-opens or
    replaces what it points to."""
    m = _FD_PATH.fullmatch(path)
    if m is None:
        return None
    return int(m.group(1) or m.group(2) or 0) or {"out": 1, "err": 2}.get(m.group(3), 0)


def write_fd(path: str, fd: int, raw: bytes) -> None:
    try:
        with os.fdopen(os.dup(fd), "wb") as f:
            f.write(raw)
    except OSError as err:
        raise failure(path, err) from None


def check_link(option: str, path: str) -> None:
    """A symbolic link that leads nowhere: a loop is refused (a dangling link
    is written through, its target made)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return
    except OSError as err:
        raise TenflangError(f"{option}: the symbolic link cannot be followed: "
                            f"{err.strerror or err}", Location(path)) from None


def check_name_length(option: str, path: str, folder: str) -> None:
    """The output's name fits the file system (a 300-character name cannot be made)."""
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return
    size = len(os.fsencode(os.path.basename(os.path.realpath(path))))
    if size > longest:
        raise TenflangError(f"{option}: the file name is {size} bytes long; this file system "
                            f"takes at most {longest}", Location(path))


def temporary_stem(target: str) -> str:
    """`target`'s name as the temporary files written next to it carry it
    (`.<stem>.<pid>.<random>.tmp`): cut to `limits.TEMPORARY_NAME_BYTES`
    bytes, so that a name near the file system's limit can still be written."""
    return os.fsdecode(os.fsencode(os.path.basename(target))[:limits.TEMPORARY_NAME_BYTES])


def new_file(folder: str, prefix: str) -> tuple[int, str]:
    """(descriptor, path) of a file made in `folder` under a name no file had
    (`prefix`, random letters, `.tmp`), readable by its owner only: as
    `tempfile.mkstemp` makes one, without importing tempfile (start-up)."""
    while True:
        path = os.path.join(folder, f"{prefix}{os.urandom(6).hex()}.tmp")
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600), path
        except FileExistsError:
            continue


def replace_atomically(path: str, target: str, raw: bytes, mode: int | None) -> None:
    """Write a temporary file next to `target`, then rename it over `target`."""
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    tmp = None
    try:
        fd, tmp = new_file(os.path.dirname(target),
                           f".{temporary_stem(target)}.{os.getpid()}.")
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IMODE(mode))
        os.replace(tmp, target)
        tmp = None
    except OSError as err:
        raise failure(path, err) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        remove_stale(target)


def remove_stale(target: str) -> None:
    """Remove the temporary files of earlier writes of `target` whose process
    is gone (killed mid-write: `.ck.npz.<pid>.<random>.tmp`)."""
    folder = os.path.dirname(target)
    pattern = re.compile(rf"\.{re.escape(temporary_stem(target))}\.([0-9]+)\.[^.]+\.tmp")
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return
    for name in names:
        found = pattern.fullmatch(name)
        if found and not alive(int(found.group(1))):
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True           # another user's process, or not a pid we can ask about
    return True


def write_through(path: str, target: str, raw: bytes, fifo: bool) -> None:
    """Open and write a device or FIFO in place (it cannot be replaced)."""
    try:
        fd = open_fifo(path, target) if fifo else os.open(target, os.O_WRONLY)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
    except OSError as err:
        raise failure(path, err) from None


def open_fifo(path: str, target: str) -> int:
    """A FIFO opened for writing once it has a reader; without one within
    FIFO_READER_WAIT_S, RunFailure (a plain open would wait forever)."""
    deadline = time.monotonic() + limits.FIFO_READER_WAIT_S
    while True:
        try:
            fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as err:
            if err.errno != errno.ENXIO:      # ENXIO: no reader yet
                raise
            if time.monotonic() >= deadline:
                raise RunFailure(f"nothing reads this FIFO (waited "
                                 f"{limits.FIFO_READER_WAIT_S:g} s for a reader)",
                                 Location(path)) from None
            time.sleep(0.05)
            continue
        os.set_blocking(fd, True)
        return fd


def write_stdout(data: str | bytes) -> None:
    """Write to standard output and flush; a failure (full disk) is RunFailure
    and the unflushed rest is dropped, so Python's exit does not fail again."""
    if sys.stdout is None:                   # started with `>&-`
        raise RunFailure("standard output is closed")
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None                            # a stand-in (a test runner's): no descriptor
    try:
        if fd is not None:
            sys.stdout.flush()
            raw = data if isinstance(data, bytes) else data.encode(
                sys.stdout.encoding or "utf-8", sys.stdout.errors or "strict")
            write_all(fd, raw)
        elif isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        raise
    except OSError as err:
        silence_stdout()
        raise RunFailure(f"cannot write to standard output: {err.strerror or err}") from None


def write_all(fd: int, raw: bytes) -> None:
    """Write all of `raw` to `fd`: an unbuffered stream (PYTHONUNBUFFERED) takes a
    short write on a disk that fills up without an error, and its caller never
    knew; the next write then fails (ENOSPC) and says so."""
    view = memoryview(raw)
    while view:
        view = view[os.write(fd, view):]


def silence_stdout() -> None:
    silence(sys.stdout)


def silence(stream) -> None:
    """Point `stream`'s descriptor at the null device: what is still buffered
    for a stream that failed must not fail again at exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def failure(path: str, err: OSError) -> RunFailure:
    return RunFailure(f"cannot write file: {err.strerror or err}", Location(path))


# ----------------------------------------------------------------------------- checking first

def same_file(a: str, b: str) -> bool:
    """Whether paths `a` and `b` name one existing regular file (by any spelling,
    hard link or symbolic link)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(sa.st_mode) and (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def inside(path: str, folder: str) -> bool:
    """Whether `path` (existing or not) lies within the directory `folder`,
    symbolic links resolved."""
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, top]) == top


def check_outputs(outputs: dict, inputs: dict) -> None:
    """Before any work: each output (option -> path; None or "-" is stdout)
    is writable, is none of the `inputs` (role -> path) nor inside an input
    that is a directory (a shard directory: its shards, its manifest), and no
    two outputs are one file.  Raises TenflangError (exit 2)."""
    check_stdout(inputs)
    named = [(option, path) for option, path in outputs.items() if path not in (None, "-")]
    for k, (option, path) in enumerate(named):
        for role, given in inputs.items():
            if given is not None and os.path.isdir(given) and inside(path, given):
                raise TenflangError(f"{option} {path} is inside the input directory {role} "
                                    f"({given}); write outputs outside it", Location(path))
            if given is not None and same_file(path, given):
                raise TenflangError(f"{option} {path} would overwrite the input {role} ({given}); "
                                    "choose another output file", Location(path))
        for other, earlier in named[:k]:
            if os.path.realpath(path) == os.path.realpath(earlier) or same_file(path, earlier):
                raise TenflangError(f"{option} and {other} name the same file; give each "
                                    "output its own file", Location(path))
        check_writable(option, path)


def check_stdout(inputs: dict) -> None:
    """Standard output is none of the `inputs` (role -> path) nor inside an
    input directory: `tfcompiler sp.tf >> sp.tf` would append to its input, as
    `-o /dev/stdout` names it.  Raises TenflangError (exit 2)."""
    try:
        fd = sys.stdout.fileno()
        out = os.fstat(fd)
    except (AttributeError, OSError, ValueError):     # closed, or a stand-in without one
        return
    if not stat.S_ISREG(out.st_mode):
        return
    for role, given in inputs.items():
        try:
            st = os.stat(given) if given is not None else None
        except (OSError, ValueError):
            continue
        if st is not None and ((st.st_dev, st.st_ino) == (out.st_dev, out.st_ino) or (
                stat.S_ISDIR(st.st_mode) and inside(f"/proc/self/fd/{fd}", given))):
            raise TenflangError(f"standard output is the input {role} ({given}): what the "
                                "command prints would be added to it; redirect standard "
                                "output to another file", Location(given))


def check_log_directory(option: str, path: str, others: dict) -> None:
    """Before any work: a directory the command writes its own files into
    (`--logdir`) is no existing file, nor any of the command's `others`
    (option or role -> path)."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise TenflangError(f"{option}: {path} is a file; name a directory", Location(path))
    for other, given in others.items():
        if given not in (None, "-") and os.path.realpath(given) == os.path.realpath(path):
            raise TenflangError(f"{option} and {other} name the same place; give the log "
                                "its own directory", Location(path))


def check_writable(option: str, path: str) -> None:
    """The output `path` can be written: its directory exists and takes new
    files (tried, not guessed: permission bits say nothing to root or on a
    read-only mount).  Devices and FIFOs are not tried."""
    if inherited_fd(path) is not None:
        return
    if os.path.isdir(path):
        raise TenflangError(f"{option}: the output is a directory; name a file", Location(path))
    if path.endswith(os.sep):
        raise TenflangError(f"{option}: the name ends in '{os.sep}', as a directory's does; "
                            "name a file", Location(path))
    if os.path.exists(path) and not os.path.isfile(path):
        return
    if os.path.islink(path) and not os.path.exists(path):
        check_link(option, path)
    if os.path.isfile(path) and not os.stat(path).st_mode & 0o222:
        raise TenflangError(f"{option}: the file is read-only; make it writable (chmod u+w) "
                            "to replace it, or name another", Location(path))
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        shown = folder if os.path.islink(path) else os.path.dirname(path) or "."
        raise TenflangError(f"{option}: the directory {shown} does not exist", Location(path))
    check_name_length(option, path, folder)
    try:
        fd, probe = new_file(folder, ".tenflang-probe.")
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise TenflangError(f"{option}: cannot write in the directory "
                            f"{os.path.dirname(path) or '.'}: {err.strerror or err}",
                            Location(path)) from None
