"""``.npz`` data and weights files: reading, their headers, writing (docs/design.md §3).

Conventions:

* One array per variable, named by it (a variable name, `notation.NAME_RE`);
  data arrays have one common leading example axis, weights none.  A
  variable unbound in every example has no array.
* Arrays load in the dtype asked for; one stored uncompressed, C-ordered and
  already in that dtype is read straight into place, not copied
  (`_npz_member`), its CRC-32 computed as it is read (`crc.read_into`;
  numpy checks the others).  Problems raise `TenflangError` at the file (an archive
  has no lines: `Examples.locate` gives the file, messages name the example);
  numpy's and zipfile's own errors on a corrupt archive become one in
  `corrupt_npz`, for every reader of an archive (a checkpoint's too).
* Every member's .npy header is read, and checked, before any array is
  decompressed (`member_headers`): its name (once), its dtype, a shape that
  fills the member exactly (`check_size`), its rank and size (`limits`), its
  expansion (`limits.MAX_COMPRESSION_RATIO`) and, when the
  caller gives the program's variables, that the program reads it.  A
  small archive cannot make TenFlang inflate gigabytes before an error.
* Written uncompressed in numpy's own layout (`npz_bytes`); the caller writes
  the bytes with `files.write_file`.
"""
from __future__ import annotations

import contextlib
import io
import math
import zipfile
import zlib
from typing import Callable

import numpy as np

from tenflang.base import limits
from tenflang.base.errors import Location, TenflangError
from tenflang.ops.shapes import fmt_shape
from . import crc
from tenflang.base.dtypes import first_unfit, unfit
from .examples import Examples
from .notation import NAME_RE
from .reading import unreadable

_NPY_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0,
                (2, 0): np.lib.format.read_array_header_2_0}


def read_npz(path: str, dtype="float64", shapes: dict | None = None) -> Examples:
    """The examples of a data .npz file, in `dtype`; with `shapes` (the program's
    variables), a member the program does not read is refused from its header."""
    arrays = npz_arrays(path, "data", dtype, shapes)
    lengths = {name: len(a) if a.ndim else None for name, a in arrays.items()}
    if len(set(lengths.values())) > 1 or None in lengths.values():
        raise TenflangError("the arrays of a data .npz file need one common leading example "
                            f"axis; their lengths: {lengths}", Location(file=path))
    return Examples(path, arrays)


def npz_arrays(path: str, what: str, dtype=np.float64,
               shapes: dict | None = None) -> dict[str, np.ndarray]:
    """The arrays of an .npz file in `dtype`, after `member_headers` checked them
    all: one already in `dtype` is read in place (`_npz_member`), others are
    read and converted."""
    check_members(path, member_headers(path, what), what, shapes)
    return read_members(path, what, dtype)


def npz_weights(path: str) -> dict[str, np.ndarray]:
    """The weights of a weights .npz file, or of a tfweightcalc checkpoint: its
    `w:<name>` arrays, the weights of the iteration it was written at, and its
    `t:<name>` arrays, their batch statistics, as a weights file holds them
    after the weights (the format is training/checkpoints.py's; a checkpoint
    also holds `meta`)."""
    headers = member_headers(path, "weights")
    members = {n: n for n in headers}
    if "meta" in headers and any(n.startswith("w:") for n in headers):
        members = {n[2:]: n for n in headers if n.startswith(("w:", "t:"))}
    check_members(path, {v: headers[m] for v, m in members.items()}, "weights", None)
    return read_members(path, "weights", np.float64, members)


def read_members(path: str, what: str, dtype, members: dict | None = None) -> dict:
    """The arrays of the archive in `dtype`; `members` maps each variable to
    the member holding it (default: every member, under its own name)."""
    with corrupt_npz(path, not_valid, what=what), open(path, "rb") as f, \
            np.load(f, allow_pickle=False) as z:
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise ValueError("it holds a single .npy array, not an archive")
        members = members or {k: k for k in z.files}
        arrays = {v: _npz_member(f, z, m, np.dtype(dtype)) for v, m in members.items()}
    bad = first_unfit(arrays, dtype)        # before astype makes it infinite
    if bad:
        example = f" in example {bad[0]} (0-based)" if what == "data" else ""
        raise TenflangError(unfit("variable" if what == "data" else "weight", bad[1], bad[2],
                                  dtype, example), Location(file=path))
    return {name: a.astype(dtype, copy=False) for name, a in arrays.items()}


def _npz_member(f, z, name: str, dtype: np.dtype) -> np.ndarray:
    """Array `name` of the open archive `z` (file `f`), read straight into its
    array (no bytes object, no conversion) when it is stored uncompressed,
    C-ordered and already in `dtype`, its CRC-32 computed as it is read
    (`_read_checked`).  Not memory-mapped: numpy's own arrays get huge pages,
    and compute on a mapped file ran 3-5x slower."""
    info = z.zip.getinfo(name + ".npy")
    if info.compress_type != zipfile.ZIP_STORED:
        return z[name]
    f.seek(info.header_offset)
    local = f.read(30)                   # the zip local header: name and extra lengths
    start = (info.header_offset + 30 + int.from_bytes(local[26:28], "little")
             + int.from_bytes(local[28:30], "little"))
    f.seek(start)
    header = _NPY_HEADERS.get(np.lib.format.read_magic(f))
    if header is None:
        return z[name]
    shape, fortran, stored = header(f)
    if fortran or stored != dtype or not math.prod(shape):
        return z[name]
    return _read_checked(f, info, start, np.empty(shape, dtype), name)


def _read_checked(f, info, start: int, array: np.ndarray, name: str) -> np.ndarray:
    """`array` filled from `f` (just past member `name`'s .npy header, which
    starts at `start`), refused unless the member holds exactly its bytes and
    its CRC-32 matches the archive's.  The CRC is computed as the bytes are
    read (`crc.read_into`): a corrupt member never passes as numbers, and the
    read stays about as fast as one `np.fromfile`."""
    end = f.tell()
    if end - start + array.nbytes != info.file_size:
        raise ValueError(f"member '{name}.npy' claims {array.nbytes} bytes but holds "
                         f"{info.file_size - (end - start)}")
    f.seek(start)
    header = zlib.crc32(f.read(end - start))
    try:
        data = crc.read_into(f.fileno(), end, memoryview(array.reshape(-1).view(np.uint8)))
    except ValueError as err:
        raise ValueError(f"member '{name}.npy': {err}") from None
    if crc.combine(header, data, array.nbytes) != info.CRC:
        raise ValueError(f"member '{name}.npy' fails its CRC-32 check (its bytes changed "
                         "after it was written)")
    return array


def member_headers(path: str, what: str = "data") -> dict[str, tuple]:
    """name -> (shape, dtype, zip entry) of each .npy member of an archive, from
    the headers alone (a few bytes of each member are inflated)."""
    headers = {}
    # headers allocate nothing: out of memory here is a good file too large for this machine
    with corrupt_npz(path, not_valid, what=what, overclaims=False), \
            zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if not info.filename.endswith(".npy"):
                raise ValueError(f"member '{info.filename}' is not a numpy array")
            with archive.open(info) as f:
                version = np.lib.format.read_magic(f)
                read = _NPY_HEADERS.get(version, np.lib.format.read_array_header_2_0)
                shape, _, dtype = read(f)
                check_size(info, tuple(shape), dtype, f.tell())
            if info.filename[:-4] in headers:   # zipfile would read the last one alone
                raise ValueError(f"it holds member '{info.filename}' twice")
            headers[info.filename[:-4]] = (tuple(shape), dtype, info)
    return headers


def not_valid(problem: str) -> str:
    """The message of a data or weights archive that numpy or zipfile refused."""
    return f"not a valid .npz file: {problem}"


@contextlib.contextmanager
def corrupt_npz(path: str, message: Callable[[str], str], *, what: str | None = None,
                describe: Callable[[Exception], str] = str, overclaims: bool = True):
    """Inside it, the many kinds of error numpy and zipfile raise for a corrupt
    or truncated archive at `path` become one `TenflangError` at the file,
    `message(describe(error))`.  With `what` ("data", "weights"), a file that
    cannot be read says so (`reading.unreadable`); with `overclaims`, running
    out of memory is a member whose header claims more bytes than it holds
    (numpy allocates first), when one does (`overclaimed`), and else is left
    as it is: the arrays are as large as they say."""
    try:
        yield
    except MemoryError:
        problem = overclaimed(path) if overclaims else None
        if problem is None:
            raise
        raise TenflangError(message(problem), Location(path)) from None
    except Exception as err:
        if what is not None and isinstance(err, OSError):
            raise unreadable(path, what, err) from None
        raise TenflangError(message(describe(err)), Location(path)) from None


def check_size(info, shape: tuple, dtype, header_bytes: int) -> None:
    """A member whose header, `header_bytes` long, gives a shape of whole
    dimensions whose values fill the rest of the member exactly (numpy would
    read a member holding fewer as its neighbour's bytes, or fail)."""
    if any(d < 0 for d in shape):
        raise ValueError(f"member '{info.filename}' has the shape {list(shape)} in its header")
    if dtype.hasobject:             # pickled: no size to check; `check_members` refuses it
        return
    claimed, held = math.prod(shape) * dtype.itemsize, info.file_size - header_bytes
    if claimed != held and dtype.itemsize:
        raise ValueError(f"member '{info.filename}' claims {claimed} bytes but holds {held}")


def overclaimed(path: str) -> str | None:
    """After numpy ran out of memory reading the archive `path`: what is wrong
    with a member whose header claims more bytes than the member holds (numpy
    allocates what a header claims before it reads), or None: the arrays are
    as large as they say, and memory ran out."""
    try:
        headers = member_headers(path)
    except TenflangError as err:
        return err.message
    for name, (shape, dtype, info) in headers.items():
        claimed = math.prod(shape) * dtype.itemsize
        if claimed > info.file_size:
            return f"array '{name}' claims {claimed} bytes but holds {info.file_size}"
    return None


def check_members(path: str, headers: dict, what: str, shapes: dict | None) -> None:
    """Each member a variable of numbers within the limits, inflating at most
    MAX_COMPRESSION_RATIO times and (with `shapes`) read by the program."""
    at = Location(file=path)
    data = int(what == "data")          # a data array's first axis counts the examples
    for name, (shape, dtype, info) in headers.items():
        if not NAME_RE.fullmatch(name):
            raise TenflangError(f"array name '{name}' is not a variable name", at)
        if dtype.kind not in "biuf":
            raise TenflangError(f"array '{name}' holds {dtype} values, not numbers", at)
        if len(shape) - data > limits.MAX_RANK:
            raise TenflangError(f"array '{name}' has {len(shape) - data} axes per example; "
                                f"the limit is {limits.MAX_RANK}", at)
        if math.prod(shape[data:]) > limits.MAX_TENSOR_ELEMENTS:
            raise TenflangError(f"array '{name}' holds {math.prod(shape[data:])} elements per "
                                f"example; the limit is {limits.MAX_TENSOR_ELEMENTS}", at)
        size = math.prod(shape) * dtype.itemsize
        if (info.compress_type != zipfile.ZIP_STORED and size > limits.MAX_COMPRESSION_RATIO
                * max(info.compress_size, limits.MIN_COMPRESSED_BYTES)):
            raise TenflangError(f"array '{name}' would inflate from {info.compress_size} to "
                                f"{size} bytes, more than {limits.MAX_COMPRESSION_RATIO} times "
                                "(the limit); store it uncompressed (numpy.savez)", at)
        if shapes is not None and name not in shapes:
            raise TenflangError(f"unexpected variable '{name}': the program does not read it "
                                f"(expected: {', '.join(sorted(shapes)) or 'none'})", at)
        if shapes is not None and data and len(shape) and shape[1:] != tuple(shapes[name]):
            raise TenflangError(f"variable '{name}' has shape {fmt_shape(shape[1:])}, "
                                f"expected {fmt_shape(shapes[name])}", at)


def npz_header(path: str) -> tuple[dict, int]:
    """(per-example shape by name, example count) of a data .npz file, from the
    array headers only."""
    headers = member_headers(path)
    check_members(path, headers, "data", None)
    shapes, lengths = {}, set()
    for name, (shape, _, _) in headers.items():
        if not shape:
            raise TenflangError(f"not a valid data .npz file: array '{name}' has no example "
                                "axis", Location(path))
        shapes[name] = shape[1:]
        lengths.add(shape[0])
    if len(lengths) > 1:
        raise TenflangError(f"the arrays of a data .npz file need one common leading example "
                            f"axis; their lengths: {sorted(lengths)}", Location(path))
    if not lengths or 0 in lengths:
        raise TenflangError("no examples in file", Location(path))
    return shapes, lengths.pop()


def npz_bytes(arrays: dict) -> bytes:
    """An .npz archive of the arrays that are not None."""
    # np.savez(**arrays) would clash with names like 'file'; write its layout directly
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
        for name, a in arrays.items():
            if a is not None:
                with z.open(name + ".npy", "w", force_zip64=True) as f:
                    np.lib.format.write_array(f, np.asarray(a), allow_pickle=False)
    return buf.getvalue()
