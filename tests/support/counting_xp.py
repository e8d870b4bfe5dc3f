"""An array module that behaves like cupy at the host/device border, on numpy.

`CountingXP()` is an `xp` whose arrays (`Device`) live "on the device": every
host -> device copy (`asarray`/`array` of host data) and every device -> host
copy (`.get()`, `float()`, `int()`, `bool()`, `.item()`) is counted, and — as
cupy does — using a device array where numpy wants one (`np.asarray(dev)`,
`np.exp(dev)`) or a host array in a device function is a TypeError.  Run the
training loop on it and the counts say what crossed the border, without a GPU.
"""
from __future__ import annotations

import numpy as np


class Device:
    __array_priority__ = 1000

    def __init__(self, array: np.ndarray, xp: "CountingXP"):
        self._a, self._xp = array, xp

    def __array__(self, *args, **kwargs):
        raise TypeError("implicit conversion of a device array to a host array "
                        "(cupy refuses it; use .get())")

    def get(self):
        self._xp.d2h += 1
        return self._a.copy()

    def _scalar(self, convert):
        self._xp.d2h += 1
        return convert(self._a)

    def __float__(self):
        return self._scalar(float)

    def __int__(self):
        return self._scalar(int)

    def __bool__(self):
        return self._scalar(bool)

    def item(self):
        return self._scalar(lambda a: a.item())

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        raise TypeError("iterating over a device array copies each element to the host")

    def __getattr__(self, name):
        if name.startswith("__"):     # numpy's __array_interface__ and the like: no way out
            raise AttributeError(name)
        attr = getattr(self._a, name)
        if callable(attr):
            return lambda *args, **kw: self._xp.wrap(
                attr(*self._xp.unwrap(args), **self._xp.unwrap(kw)))
        return self._xp.wrap(attr)

    def __getitem__(self, index):
        return self._xp.wrap(self._a[self._xp.unwrap(index)])

    def __setitem__(self, index, value):
        self._a[self._xp.unwrap(index)] = self._xp.unwrap(value)


def binary(name):
    def method(self, *other):
        return self._xp.wrap(getattr(self._a, name)(*self._xp.unwrap(other)))
    return method


def inplace(name):
    def method(self, other):
        getattr(self._a, name)(self._xp.unwrap(other))
        return self
    return method


for _op in ("add sub mul truediv floordiv pow matmul mod radd rsub rmul rtruediv rpow "
            "rmatmul gt lt ge le eq ne neg pos abs invert and or").split():
    setattr(Device, f"__{_op}__", binary(f"__{_op}__"))
for _op in ("iadd", "isub", "imul", "itruediv", "ipow"):
    setattr(Device, f"__{_op}__", inplace(f"__{_op}__"))


class CountingXP:
    """See the module docstring; `h2d` and `d2h` count the copies."""

    def __init__(self):
        self.h2d = self.d2h = 0

    def wrap(self, value):
        if isinstance(value, (np.ndarray, np.generic)):
            return Device(np.asarray(value), self)
        if isinstance(value, tuple):
            return tuple(self.wrap(v) for v in value)
        return value

    def unwrap(self, value):
        if isinstance(value, Device):
            return value._a
        if isinstance(value, np.ndarray) and value.ndim:
            raise TypeError("a host array given to a device function (cupy refuses it)")
        if isinstance(value, (tuple, list)):
            return type(value)(self.unwrap(v) for v in value)
        if isinstance(value, dict):
            return {k: self.unwrap(v) for k, v in value.items()}
        return value

    def to_device(self, value, dtype, copy):
        if isinstance(value, Device):
            return Device(np.array(value._a, dtype=dtype) if copy else np.asarray(value._a, dtype=dtype),
                          self)
        self.h2d += 1
        return Device(np.array(value, dtype=dtype), self)

    def asarray(self, value, dtype=None):
        return self.to_device(value, dtype, copy=False)

    def array(self, value, dtype=None, copy=True):
        return self.to_device(value, dtype, copy=copy)

    def ascontiguousarray(self, value, dtype=None):
        return self.wrap(np.ascontiguousarray(self.asarray(value)._a, dtype=dtype))

    @property
    def lib(self):
        """`xp.lib.stride_tricks.as_strided`, which cupy has too."""
        from types import SimpleNamespace
        strided = self.wrapped(np.lib.stride_tricks.as_strided)
        return SimpleNamespace(stride_tricks=SimpleNamespace(as_strided=strided))

    def wrapped(self, function):
        return lambda *args, **kw: self.wrap(function(*self.unwrap(args), **self.unwrap(kw)))

    def __getattr__(self, name):
        thing = getattr(np, name)
        if callable(thing) and not isinstance(thing, type):
            return self.wrapped(thing)
        return thing

    def __hash__(self):
        return id(self)

