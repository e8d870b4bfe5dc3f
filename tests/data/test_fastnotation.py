"""The fast reader of vector-notation data files: same arrays, bit for bit, and
the same located messages as the general reader (textfiles._read_uniform swapped
out), on varied files; it hands over whatever it does not accept.  Every test
runs with both tokenizers: the C one, and the numba one a machine without a C
compiler uses."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from tenflang.native import clib
from tenflang.data import fastnotation, textfiles
from tenflang.data.fastnotation import FastRead, read_uniform
from tenflang.data.vectors import load_examples
from tenflang.base.errors import TenflangError

from support.data_files import FLOATS, NAMES, SETTINGS, SPACES, assert_same, write

SEPARATORS = st.sampled_from([",", " ,", ", ", " ", "  ", "\t", ",\t"])


@pytest.fixture(scope="module", params=["c", "numba"], autouse=True)
def tokenizer(request):
    if request.param == "c":
        if clib.unavailable_reason():
            pytest.skip(clib.unavailable_reason())
        assert fastnotation._kernel().__module__ == fastnotation.__name__
        yield "c"
        return
    pytest.importorskip("numba")           # an optional extra
    from tenflang.data._notation_kernel import read_lines
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fastnotation, "_kernel", lambda: read_lines)
        yield "numba"


def general(path):
    """What the general reader alone makes of the file (or its error)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(textfiles, "_read_uniform", lambda *args: FastRead())
        return outcome(path)


def outcome(path):
    try:
        ex = load_examples(path)
        return ex.arrays, ex.lines
    except TenflangError as err:
        return err.render()


@st.composite
def values(draw, shape):
    if not shape:
        return repr(draw(FLOATS))
    items = [draw(values(shape[1:])) for _ in range(shape[0])]
    sep = draw(SEPARATORS)
    return ("[" + draw(SPACES) + sep.join(items) + draw(st.sampled_from(["", ","]))
            + draw(SPACES) + "]")


@st.composite
def vector_files(draw):
    """Uniform data files in varied spacing, separators, braces, comments, blank lines."""
    names = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    shapes = [draw(st.sampled_from([(), (1,), (4,), (2, 3)])) for _ in names]
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(["", "   ", "# note", " # {x: 1}", "\r"])))
            continue
        entries = [f"{n}{draw(SPACES)}:{draw(SPACES)}{draw(values(s))}" for n, s in zip(names, shapes)]
        braced = draw(st.booleans())
        lines.append(draw(SPACES) + ("{" if braced else "") + draw(SPACES)
                     + draw(SEPARATORS).join(entries) + draw(st.sampled_from(["", ","]))
                     + ("}" if braced else "") + draw(st.sampled_from(["", " # c", "\r", " "])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))


@SETTINGS
@given(text=vector_files())
def test_fast_reader_reads_varied_uniform_files_as_the_general_reader(tmp_path, text):
    path = write(tmp_path, "d.txt", text)
    expected = general(path)
    if isinstance(expected, str):
        assert "no examples" in expected
        return
    fast = read_uniform(path, text.encode())
    assert fast.arrays is not None, "the fast reader gave up on a uniform file"
    assert fast.lines.tolist() == expected[1]
    assert_same(expected[0], fast.arrays)


@SETTINGS
@given(numbers=st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1,
                        max_size=50),
       style=st.sampled_from(["{!r}", "{:.17g}", "{:.6e}", "{:.3f}", "{:.20g}"]))
def test_numbers_convert_bit_identical_to_python_float(tmp_path, numbers, style):
    strings = [style.format(v) for v in numbers]
    text = "".join(f"{{v: {s}}}\n" for s in strings)
    fast = read_uniform(write(tmp_path, "d.txt", text), text.encode())
    expected = np.array([float(s) for s in strings])
    assert np.array_equal(fast.arrays["v"].view(np.int64), expected.view(np.int64))


HARD = ["2.2250738585072011e-308", "2.2250738585072012e-308", "4.9406564584124654e-324",
        "1e-400", "1e400", "0.1", "9007199254740993", "1.7976931348623158e308", "-0", ".5", "5.",
        "+7", "123456789012345678901234567890", "0.000000000000000000000000000001"]


def test_hard_numbers_convert_as_python_float(tmp_path):
    text = "".join(f"x: {s}\n" for s in HARD if s != "1e400")
    fast = read_uniform(write(tmp_path, "d.txt", text), text.encode())
    expected = np.array([float(s) for s in HARD if s != "1e400"])
    assert np.array_equal(fast.arrays["x"].view(np.int64), expected.view(np.int64))


@pytest.mark.parametrize("line", [
    "{x: [1, 2], y: 3",            # brace never closed
    "{x: [1, 2, y: 3}",            # bracket never closed
    "x: [1, 2], y: 3}",            # '}' without '{'
    "x: [1, 2],, y: 3",            # two commas
    "x: [1,, 2], y: 3",
    "x: [1, 2], y: 3q",            # not a number
    "x: [1, 2], y: 3 z",           # a name without a value
    "x: [1, 2] y 3",               # missing ':'
    "x: [1, 2], y: 3, x: [1, 2]",  # duplicate
    "x: [1, 2], y: null",          # null here, bound elsewhere
    "x: [1, 2, 3], y: 3",          # another shape
    "x: [[1, 2]], y: 3",
    "y: 3, x: [1, 2]",             # another order: fine for the general reader
    "x: [1, 2]",                   # y missing
    "x: [1, 2], y: 3, z: 4",       # an extra variable
    "x: [1, 2], y: inf",           # left to the general reader
    "x: [1, 2], y: 1e5000",
    "x: [1, 2], y: 0x10",
    "x: [1, 2], y: 1_000",
    "x: [1, 2], y: 3 # note",
    "x: [1, 2], y: 3 } ",
    "{x: [1 2] y: 3} {",           # a second vector on the line
    "x: [1, 2], y: \u00a03",       # non-ASCII space
])
def test_a_line_unlike_the_first_gives_the_general_readers_result(tmp_path, line):
    text = "".join(f"{{x: [{k}, {k + 1}], y: {k}}}\n" for k in range(5)) + line + "\n{x: [0, 1], y: 2}\n"
    path = write(tmp_path, "d.txt", text)
    expected, got = general(path), outcome(path)
    if isinstance(expected, str):
        assert got == expected and "d.txt:6:" in got
    else:
        assert got[1] == expected[1]
        assert_same(expected[0], got[0])


def test_located_message_comes_from_the_one_bad_line_of_a_long_file(tmp_path):
    text = "{x: [1, 2], y: 3}\n" * 20000 + "{x: [1, 2], y: 3,,}\n" + "{x: [1, 2], y: 3}\n" * 10
    path = write(tmp_path, "d.txt", text)
    assert read_uniform(path, text.encode()).stopped_at == 20001
    message = outcome(path)
    assert message == general(path) and "d.txt:20001:18: error: expected a variable name, found ','" in message


@pytest.mark.parametrize("text", ["{x: null}\n{x: null}\n", "{}\n", "x: []\n", "\ufeff{x: 1}\n",
                                  "# only a comment\n", ""])
def test_files_the_fast_reader_leaves_to_the_general_one(tmp_path, text):
    path = write(tmp_path, "d.txt", text)
    assert read_uniform(path, text.encode()) == FastRead()
