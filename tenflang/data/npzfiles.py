"""``.npz`` data and weights files: reading, their headers, writing (DESIGN.md §3).

Conventions:

* One array per variable, named by it (a variable name, `notation.NAME_RE`);
  data arrays have one common leading example axis, weights none.  A
  variable unbound in every example has no array.
* Arrays load in the dtype asked for; one stored uncompressed, C-ordered and
  already in that dtype is read straight into place, not copied
  (`_npz_member`).  Problems raise `TenflangError` at the file (an archive
  has no lines: `Examples.locate` gives the file, messages name the example).
* Written uncompressed in numpy's own layout (`npz_bytes`); the caller writes
  the bytes with `files.write_file`.
"""
from __future__ import annotations

import io
import math
import zipfile

import numpy as np

from ..errors import Location, TenflangError
from .examples import Examples
from .notation import NAME_RE
from .reading import unreadable

_NPY_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0,
                (2, 0): np.lib.format.read_array_header_2_0}


def read_npz(path: str, dtype="float64") -> Examples:
    """The examples of a data .npz file, in `dtype`."""
    arrays = npz_arrays(path, "data", dtype)
    lengths = {name: len(a) if a.ndim else None for name, a in arrays.items()}
    if len(set(lengths.values())) > 1 or None in lengths.values():
        raise TenflangError("the arrays of a data .npz file need one common leading example "
                            f"axis; their lengths: {lengths}", Location(file=path))
    return Examples(path, arrays)


def npz_arrays(path: str, what: str, dtype=np.float64) -> dict[str, np.ndarray]:
    """The arrays of an .npz file in `dtype`: one already in `dtype` is read in
    place (`_npz_member`), others are read and converted."""
    return checked_arrays(path, npz_members(path, what, dtype), dtype)


def npz_weights(path: str) -> dict[str, np.ndarray]:
    """The weights of a weights .npz file, or of a tfweightcalc checkpoint: its
    `w:<name>` arrays, the weights of the iteration it was written at (the
    format is training/checkpoints.py's; a checkpoint also holds `meta`)."""
    arrays = npz_members(path, "weights", np.float64)
    if "meta" in arrays and any(name.startswith("w:") for name in arrays):
        arrays = {name[2:]: a for name, a in arrays.items() if name.startswith("w:")}
    return checked_arrays(path, arrays, np.float64)


def npz_members(path: str, what: str, dtype) -> dict:
    """Every member of the archive by name, read as `_npz_member` reads it."""
    try:
        with open(path, "rb") as f, np.load(f, allow_pickle=False) as z:
            if not isinstance(z, np.lib.npyio.NpzFile):
                raise ValueError("it holds a single .npy array, not an archive")
            return {k: _npz_member(f, z, k, np.dtype(dtype)) for k in z.files}
    except OSError as e:
        raise unreadable(path, what, e) from None
    except Exception as e:      # numpy/zipfile raise many kinds for a corrupt file
        raise TenflangError(f"not a valid .npz file: {e}", Location(file=path)) from None


def checked_arrays(path: str, arrays: dict, dtype) -> dict[str, np.ndarray]:
    """`arrays`, each named by a variable and holding numbers, in `dtype`."""
    for name, a in arrays.items():
        if not NAME_RE.fullmatch(name):
            raise TenflangError(f"array name '{name}' is not a variable name", Location(file=path))
        if not isinstance(a, np.ndarray):       # a member that is not a .npy file
            raise TenflangError(f"'{name}' in the archive is not a numpy array",
                                Location(file=path))
        if a.dtype.kind not in "biuf":
            raise TenflangError(f"array '{name}' holds {a.dtype} values, not numbers",
                                Location(file=path))
        arrays[name] = a.astype(dtype, copy=False)
    return arrays


def _npz_member(f, z, name: str, dtype: np.dtype) -> np.ndarray:
    """Array `name` of the open archive `z` (file `f`), read straight into its
    array (one read, no bytes object, no conversion) when it is stored
    uncompressed, C-ordered and already in `dtype`.  Not memory-mapped: numpy's
    own arrays get huge pages, and compute on a mapped file ran 3-5x slower."""
    info = z.zip.getinfo(name + ".npy")
    if info.compress_type != zipfile.ZIP_STORED:
        return z[name]
    f.seek(info.header_offset)
    local = f.read(30)                   # the zip local header: name and extra lengths
    f.seek(info.header_offset + 30 + int.from_bytes(local[26:28], "little")
           + int.from_bytes(local[28:30], "little"))
    header = _NPY_HEADERS.get(np.lib.format.read_magic(f))
    if header is None:
        return z[name]
    shape, fortran, stored = header(f)
    if fortran or stored != dtype or not math.prod(shape):
        return z[name]
    return np.fromfile(f, dtype=dtype, count=math.prod(shape)).reshape(shape)


def npz_header(path: str) -> tuple[dict, int]:
    """(per-example shape by name, example count) of a data .npz file, from the
    array headers only."""
    shapes, lengths = {}, set()
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.filename.endswith(".npy"):
                    continue
                with archive.open(info) as f:
                    version = np.lib.format.read_magic(f)
                    read = _NPY_HEADERS.get(version, np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(f)
                if dtype.kind not in "biuf":
                    raise ValueError(f"array '{info.filename[:-4]}' holds {dtype} values")
                if not shape:
                    raise ValueError(f"array '{info.filename[:-4]}' has no example axis")
                shapes[info.filename[:-4]] = tuple(shape[1:])
                lengths.add(shape[0])
    except OSError as err:
        raise TenflangError(f"cannot read data file: {err.strerror or err}",
                            Location(path)) from None
    except Exception as err:       # zipfile and numpy raise many kinds for a bad file
        raise TenflangError(f"not a valid data .npz file: {err}", Location(path)) from None
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
