"""What is known of the installed TenFlang: its version (ONNX models record
it; `tenflang --version` shows it)."""
from __future__ import annotations


def version() -> str:
    """TenFlang's installed version; "unknown" when run from a source tree."""
    from importlib import metadata        # here: its import costs every command 10 ms
    try:
        return metadata.version("tenflang")
    except metadata.PackageNotFoundError:
        return "unknown"
