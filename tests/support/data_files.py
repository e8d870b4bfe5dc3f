"""Data and weights files for the tests: writing one as given, comparing what a
reader returns bit for bit, and the hypothesis strategies for variable names
and floats (the awkward ones included) that the file tests draw from."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings, strategies as st

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
NAMES = st.sampled_from(["x", "y", "W1", "_b", "d/dw", "h.t", "dz/dw", "d/dh.t", "file"])
SHAPES = st.sampled_from([(), (1,), (3,), (2, 2), (2, 3), (1, 2, 2)])
FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308,
                     1e-300, 1e300, 0.1, 1 / 3, 123456789.0]))
SPACES = st.sampled_from(["", " ", "  ", "\t"])


def write(tmp_path, name, text) -> str:
    """`text` (str, as UTF-8, or bytes) as the file `name` under `tmp_path`; its path."""
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(path)


def same_bits(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(a.view(np.int64), b.view(np.int64))


def assert_same(expected, loaded, keep_null=True):
    """The same names in the same order, each bit-exact (None for a null)."""
    expected = {k: v for k, v in expected.items() if keep_null or v is not None}
    assert list(loaded) == list(expected)
    for name, a in expected.items():
        assert (loaded[name] is None) if a is None else same_bits(a, loaded[name]), name
