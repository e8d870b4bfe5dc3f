"""Numpy arrays and tuples of them handed to compiled C without conversion.

    lib.f(address(a))              # numpy array a's data, for a c_void_p argument

Conventions:

* A numpy array's data reaches a compiled function through numpy's public
  array struct: its data pointer (`PyArrayObject_fields.data`) is the field
  right after the object header, `OBJECT_HEAD` bytes into the object.  Either
  the array object itself is passed (ctypes `py_object`, no conversion) and C
  reads the pointer with `TF_DATA` (`DATA_POINTER`: the fused loops, Adam's
  update), or Python reads it (`address(a)`, 0.4 µs) and passes the address
  (`c_void_p`).  numpy's own `a.ctypes.data` costs ~3 µs an array, more than
  a small kernel.  The read is checked once per process against
  `a.ctypes.data` (`struct_read`; CPython only, where an object's id is its
  address and `py_object` passes that address); where it does not hold,
  `address` returns `a.ctypes.data` and callers of `TF_DATA` pass addresses
  instead.  An address is good while its array lives: the array must outlive
  the call (held in a variable, never a temporary made for the call, whose
  memory is freed as soon as the address is taken); a `py_object` argument
  keeps its array alive through the call by itself.
* A tuple of arrays reaches C the same way (Adam's update of every weight):
  passed as a `py_object`, its items read at `TUPLE_HEAD` bytes into the
  tuple (`TF_ITEMS`, `TUPLE_ITEMS`: CPython's tuple struct, whose items follow
  its `tuple.__basicsize__` bytes), checked once per process (`tuple_read`).
"""
from __future__ import annotations

import ctypes
import functools
import sys

OBJECT_HEAD = object.__basicsize__     # bytes before an object's first field: numpy's data pointer
# C that reads a numpy array's data pointer from the array passed as a py_object
DATA_POINTER = f"#define TF_DATA(a) (*(char *const *)((const char *)(a) + {OBJECT_HEAD}))"
TUPLE_HEAD = tuple.__basicsize__      # bytes before a tuple's first item
# C that reads the items of a tuple passed as a py_object
TUPLE_ITEMS = f"#define TF_ITEMS(t) ((void *const *)((const char *)(t) + {TUPLE_HEAD}))"


@functools.lru_cache(maxsize=1)
def struct_read() -> bool:
    """Whether an array's data pointer can be read at `OBJECT_HEAD` bytes into
    the object (module docstring), checked on an array that is a view."""
    if sys.implementation.name != "cpython":      # an id is not an address there
        return False
    import numpy as np          # here: importing this module imports no numpy
    probe = np.zeros(4)[1:]
    return ctypes.c_void_p.from_address(id(probe) + OBJECT_HEAD).value == probe.ctypes.data


@functools.lru_cache(maxsize=1)
def tuple_read() -> bool:
    """Whether a tuple's items can be read at `TUPLE_HEAD` bytes into the object
    (module docstring), checked on a tuple made at run time."""
    if sys.implementation.name != "cpython":      # an id is not an address there
        return False
    first, second = object(), object()
    probe = tuple([first, second])
    read = ctypes.c_void_p.from_address(id(probe) + TUPLE_HEAD + ctypes.sizeof(ctypes.c_void_p))
    return (ctypes.c_void_p.from_address(id(probe) + TUPLE_HEAD).value == id(first)
            and read.value == id(second))


def address(a) -> int:
    """The address of numpy array `a`'s data (module docstring): `a` must outlive
    the call that uses it, never a temporary made for that call."""
    if struct_read():
        return ctypes.c_void_p.from_address(id(a) + OBJECT_HEAD).value
    return a.ctypes.data
