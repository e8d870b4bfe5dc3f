"""Device choice: which array module (`xp`) a run uses.

`array_module("cpu")` is numpy.  `"gpu"` is cupy with a CUDA device, and a
clear error (exit 2) when cupy does not import or no device is present;
`"auto"` takes the GPU when there is one.  The `TENFLANG_DEVICE` environment
variable sets the default.  Only this package imports cupy.
"""
from __future__ import annotations

import os
import sys

import numpy as np

from tenflang.base.errors import TenflangError

DEVICES = ("auto", "cpu", "gpu")


# where Linux shows an NVIDIA driver (native, in a container, under WSL2)
DRIVER_PATHS = ("/proc/driver/nvidia", "/dev/nvidiactl", "/dev/dxg")


def cupy_or_reason():
    """(cupy module, None) when a CUDA device is usable, else (None, why not).
    On Linux without an NVIDIA driver cupy is not imported at all (importing it
    costs a CPU run 0.1 s)."""
    if sys.platform.startswith("linux") and not any(map(os.path.exists, DRIVER_PATHS)):
        return None, "no NVIDIA driver is loaded (no CUDA device)"
    try:
        import cupy
    except Exception as err:   # ImportError, or a CUDA library failing to load
        return None, f"cupy is not installed or does not import ({type(err).__name__}: {err})"
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None, "no CUDA device is present"
    except Exception as err:
        return None, f"no usable CUDA device ({err})"
    return cupy, None


def array_module(device: str | None = None):
    chosen, device = device_choice(device)
    if device == "cpu":
        return np
    cupy, reason = cupy_or_reason()
    if cupy is not None:
        return cupy
    if device == "gpu":
        raise TenflangError(f"{chosen('gpu')}: {reason}; install the GPU extra "
                            f"(pip install 'tenflang[gpu]') or use {chosen('cpu')}")
    return np


def device_choice(device: str | None):
    """(how the user chose a device, the device): `--device` or, without it,
    $TENFLANG_DEVICE, so that a message names the one the user set."""
    if not device and os.environ.get("TENFLANG_DEVICE", "").strip():
        chosen, device = "TENFLANG_DEVICE={}".format, os.environ["TENFLANG_DEVICE"]
    else:
        chosen, device = "--device {}".format, device or "auto"
    if device.strip().lower() not in DEVICES:
        raise TenflangError(f"{chosen(device)}: unknown device; expected one of "
                            f"{', '.join(DEVICES)}")
    return chosen, device.strip().lower()


def to_host(value):
    """A numpy array (copies from the device when `value` lives there)."""
    return value.get() if hasattr(value, "get") and not isinstance(value, np.ndarray) else value
