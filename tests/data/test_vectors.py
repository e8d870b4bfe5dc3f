"""Vector files: round trips (bit-exact), layout of each format, and one test per
kind of bad file (message, file and line)."""
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from tenflang.data import textfiles
from tenflang.data.fastnotation import FastRead
from tenflang.base.errors import Location, RunFailure, TenflangError
from tenflang.data.vectors import (Examples, format_examples, format_weights, load_examples,
                              load_weights, save_examples, save_weights)
from tenflang.base.outputs import write_file

from support.data_files import (FLOATS, NAMES, SETTINGS, SHAPES, SPACES, assert_same,
                                same_bits, write)


@st.composite
def example_sets(draw, min_vars=1, with_null=True):
    n = draw(st.integers(1, 4))
    names = draw(st.lists(NAMES, min_size=min_vars, max_size=3, unique=True))
    arrays = {}
    for name in names:
        if with_null and draw(st.integers(0, 5)) == 0:
            arrays[name] = None
        else:
            arrays[name] = draw(hnp.arrays(np.float64, (n,) + draw(SHAPES), elements=FLOATS))
    if all(a is None for a in arrays.values()):
        arrays[names[0]] = np.zeros(n)
    return arrays


def error_of(call, *args, **kwargs) -> TenflangError:
    with pytest.raises(TenflangError) as info:
        call(*args, **kwargs)
    return info.value


def saved_and_loaded(tmp_path, name, arrays, **options) -> Examples:
    path = str(tmp_path / name)
    save_examples(path, arrays)
    return load_examples(path, **options)


# ------------------------------------------------------------------ round trips

@SETTINGS
@given(arrays=example_sets())
def test_txt_round_trip_is_bit_exact(tmp_path, arrays):
    loaded = saved_and_loaded(tmp_path, "d.txt", arrays)
    assert_same(arrays, loaded.arrays)
    assert len(loaded) == len(next(a for a in arrays.values() if a is not None))


@SETTINGS
@given(arrays=example_sets())
def test_csv_round_trip_is_bit_exact(tmp_path, arrays):
    assert_same(arrays, saved_and_loaded(tmp_path, "d.csv", arrays).arrays)


@SETTINGS
@given(arrays=example_sets())
def test_npz_round_trip_is_bit_exact_and_drops_nulls(tmp_path, arrays):
    loaded = saved_and_loaded(tmp_path, "d.npz", arrays)
    assert loaded.lines is None
    assert_same(arrays, loaded.arrays, keep_null=False)


@SETTINGS
@given(arrays=example_sets())
def test_json_lines_hold_the_same_floats(arrays):
    n = len(next(a for a in arrays.values() if a is not None))
    lines = list(format_examples(arrays, "json"))
    assert len(lines) == n
    for k, line in enumerate(lines):
        obj = json.loads(line)
        assert list(obj) == list(arrays)
        for name, a in arrays.items():
            assert obj[name] is None if a is None else same_bits(a[k], obj[name])


@SETTINGS
@given(weights=st.dictionaries(NAMES, SHAPES.flatmap(
    lambda s: hnp.arrays(np.float64, s, elements=FLOATS)), max_size=4))
def test_weights_round_trip_is_bit_exact(tmp_path, weights):
    for name in ("w.txt", "w.npz"):
        path = str(tmp_path / name)
        save_weights(path, weights)
        assert_same(weights, load_weights(path))


def test_float32_is_written_short_and_reads_back_exactly(tmp_path):
    arrays = {"o": np.array([0.1, 1 / 3, 1e-40, -0.0], dtype=np.float32)}
    assert next(format_examples(arrays, "txt")) == "{o: 0.1}"
    for ext in ("txt", "csv", "npz"):
        back = saved_and_loaded(tmp_path, f"d.{ext}", arrays).arrays["o"].astype(np.float32)
        assert np.array_equal(back.view(np.int32), arrays["o"].view(np.int32))


def test_nan_and_inf_round_trip_with_allow_nan(tmp_path):
    arrays = {"x": np.array([np.nan, np.inf, -np.inf, 1.0]), "v": np.full((4, 2), np.inf)}
    for ext in ("txt", "csv", "npz"):
        loaded = saved_and_loaded(tmp_path, f"d.{ext}", arrays, allow_nan=True).arrays
        for name in arrays:
            assert np.array_equal(loaded[name], arrays[name], equal_nan=True)
    assert list(format_examples({"x": arrays["x"]}, "json"))[:3] == \
        ['{"x": null}', '{"x": 1e999}', '{"x": -1e999}']


# ------------------------------------------------------------------ formats and layout

TENSORS = {"v": np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]),
           "M": np.array([[[1.0, 0.0], [0.0, 1.0]], [[2.0, -0.0], [0.5, 1e-300]]])}


@pytest.mark.parametrize("ext", ["txt", "csv", "npz", "json"])
def test_1d_and_2d_tensors_in_every_format(tmp_path, ext):
    path = str(tmp_path / f"d.{ext}")
    save_examples(path, TENSORS, fmt=ext)
    if ext == "json":
        rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
        assert rows[1] == {"v": [4.0, 5.0, 6.5], "M": [[2.0, -0.0], [0.5, 1e-300]]}
        return
    assert_same(TENSORS, load_examples(path).arrays)


def test_text_and_csv_layout():
    assert list(format_examples(TENSORS, "txt"))[0] == \
        "{v: [1.0, 2.0, 3.0], M: [[1.0, 0.0], [0.0, 1.0]]}"
    header, first, _ = format_examples({**TENSORS, "q": None, "s": np.array([3.0, 4.0])}, "csv")
    assert header == 'v[0],v[1],v[2],"M[0,0]","M[0,1]","M[1,0]","M[1,1]",q,s'
    assert first == "1.0,2.0,3.0,1.0,0.0,0.0,1.0,,3.0"
    assert list(format_examples({"y": None}, "txt", count=2)) == ["{y: null}"] * 2
    assert format_weights({"w": np.float64(0.5), "d/dW": np.eye(2)}) == \
        "{\n  w: 0.5\n  d/dW: [[1.0, 0.0], [0.0, 1.0]]\n}\n"


def test_notation_comments_blank_lines_optional_braces_and_generated_names(tmp_path):
    path = write(tmp_path, "d.txt", (
        "# inputs for the sample\n"
        "\n"
        "{x: 3, d/dw: -0.5, h.t: [1, 2, 3], M: [[1, 0], [0, 1]]}   # first\n"
        "x: 1e3 d/dw: .25 h.t: [1 2 3.5,] M: [[1,0],[0,1]],\r\n"
        "   \n"
        "{ x : -2.5E-3 ,d/dw:+7, h.t:[ 0 , 0 , 0 ], M: [[1 0] [0 1]] }\n"))
    ex = load_examples(path)
    assert ex.lines == [3, 4, 6] and len(ex) == 3
    assert ex.arrays["x"].tolist() == [3.0, 1000.0, -0.0025]
    assert ex.arrays["d/dw"].tolist() == [-0.5, 0.25, 7.0]
    assert ex.arrays["h.t"].tolist()[1] == [1.0, 2.0, 3.5]
    assert ex.arrays["M"].shape == (3, 2, 2)


def test_scalar_fast_path_agrees_with_general_parser(tmp_path):
    lines = ["# header", "{x: 0.5, y: 0.25}", "x: 1, y: 2  # c", "", "{ x:-1e-3 y:inf }\r"]
    ex = load_examples(write(tmp_path, "a.txt", "\n".join(lines) + "\n"), allow_nan=True)
    assert ex.lines == [2, 3, 5]
    assert ex.arrays["x"].tolist() == [0.5, 1.0, -0.001]
    assert ex.arrays["y"].tolist() == [0.25, 2.0, np.inf]
    mixed = load_examples(write(tmp_path, "b.txt", "\n".join(lines + ["{y: 1, x: 2}"])),
                          allow_nan=True)     # other order: the general parser
    assert mixed.arrays["x"].tolist() == [0.5, 1.0, -0.001, 2.0]
    big = write(tmp_path, "c.txt", "{x: 0.5, y: 0.25}\n" * 20000)
    assert load_examples(big).arrays["y"].shape == (20000,)


def test_nulls_and_missing_variables_in_every_example(tmp_path):
    ex = load_examples(write(tmp_path, "d.txt", "{x: 1, y: null}\n{x: 2}\n"))
    assert ex.arrays["y"] is None and ex.arrays["x"].tolist() == [1.0, 2.0]
    ex = load_examples(write(tmp_path, "d.csv", "x,y\n1,\n2,\n"))
    assert ex.arrays["y"] is None and ex.lines == [2, 3] and ex.header_line == 1


def test_csv_header_columns_in_any_order_and_comments(tmp_path):
    ex = load_examples(write(tmp_path, "d.csv",
                             "# data\nM[1,1],M[0,0], M[0,1] ,M[1,0],s\n\n4,1,2,3,9\n"))
    assert ex.arrays["M"].tolist() == [[[1.0, 2.0], [3.0, 4.0]]]
    assert ex.lines == [4]


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_csv_lines_end_in_any_of_the_three_ways(tmp_path, end):
    """A lone CR ends a line too (old Mac files), as Python's universal newlines
    and pandas read it; it was 'malformed CSV: new-line character seen in
    unquoted field'."""
    ex = load_examples(write(tmp_path, "d.csv", end.join(["x,y", "1,2", "# c", "3,4", ""])))
    assert ex.arrays["x"].tolist() == [1.0, 3.0] and ex.lines == [2, 4]
    bad = write(tmp_path, "e.csv", end.join(["x,y", "1,2", "3,z", ""]))
    check(error_of(load_examples, bad), "CSV cell of column 'y' is not a number: 'z'", bad, 3)


def test_validate_accepts_optional_and_null_optional(tmp_path):
    ex = load_examples(write(tmp_path, "d.txt", "{x: [1, 2], y: null}\n"))
    ex.validate({"x": (2,), "y": ()}, required={"x"}, optional={"y"})
    Examples("e.npz", {"x": np.zeros((3, 2))}, None).validate({"x": (2,)}, {"x"}, {"y"})



# ------------------------------------------------------------------ Examples.locate

@pytest.mark.parametrize("reader", ["fast", "general"])
def test_locate_in_a_text_file_is_the_line_and_the_entry(tmp_path, monkeypatch, reader):
    path = write(tmp_path, "d.txt", "# two examples\n{x: [1, 2], y: 3}\n\n{x: [4, 5],   y: 6}\n")
    if reader == "general":
        monkeypatch.setattr(textfiles, "_read_uniform", lambda *args: FastRead())
    ex = load_examples(path)
    assert ex.locate(1, "y") == Location(path, 4, 15, "{x: [4, 5],   y: 6}")
    assert ex.locate(None, "x") == Location(path, 2, 2, "{x: [1, 2], y: 3}")
    assert ex.locate(0) == ex.locate(0, "nope") == Location(path, 2, None, "{x: [1, 2], y: 3}")
    assert error_of(ex.validate, {"x": (2,)}, {"x"}).location == ex.locate(None, "y")


def test_locate_in_a_csv_file_is_the_first_cell_of_a_name(tmp_path):
    path = write(tmp_path, "d.csv", '"M[0,1]",y,"M[0,0]"\n1,22,3\n# c\n4,nan,6\n')
    ex = load_examples(path, allow_nan=True)
    assert ex.arrays["M"].tolist() == [[[3.0, 1.0]], [[6.0, 4.0]]]
    assert ex.locate(None, "y") == Location(path, 1, 10, '"M[0,1]",y,"M[0,0]"')
    assert ex.locate(None, "M") == Location(path, 1, 1, '"M[0,1]",y,"M[0,0]"')
    assert ex.locate(1, "y") == Location(path, 4, 3, "4,nan,6")
    assert ex.locate(0, "M") == Location(path, 2, 1, "1,22,3")
    assert ex.locate(0) == Location(path, 2, None, "1,22,3")
    assert error_of(ex.check_finite).location == ex.locate(1, "y")
    assert error_of(ex.validate, {"y": ()}, {"y"}).location == ex.locate(None, "M")


def test_locate_in_an_npz_file_is_the_file_and_messages_name_the_example(tmp_path):
    path = str(tmp_path / "d.npz")
    save_examples(path, {"x": np.array([[0.0, 1.0], [2.0, np.inf], [4.0, 5.0]])})
    ex = load_examples(path, allow_nan=True)
    assert ex.locate(2, "x") == ex.locate(None, "x") == Location(file=path)
    err = error_of(ex.check_finite)
    assert err.location == ex.locate(1, "x") and "'x' is inf in example 1 (0-based)" in err.message

def test_write_file_replaces_and_leaves_no_temp_files(tmp_path):
    path = str(tmp_path / "out.txt")
    write_file(path, "old\n")
    write_file(path, b"new\n")
    assert Path(path).read_text() == "new\n" and os.listdir(tmp_path) == ["out.txt"]
    with pytest.raises(RunFailure):
        write_file(str(tmp_path / "missing-dir" / "x.txt"), "data")


# ------------------------------------------------------------------ bad files

def check(err: TenflangError, message: str, file: str, line: int | None = None):
    assert message in err.message, err.render()
    rendered = err.render()
    assert rendered.startswith(f"{file}:{line}:" if line else f"{file}:"), rendered
    return rendered


def refused(tmp_path, name, text, message, line=None, load=load_examples) -> str:
    """`text` written to `name` and loaded: the one error says `message` and points at
    the file (and `line`); the rendered error."""
    path = write(tmp_path, name, text)
    return check(error_of(load, path), message, path, line)


def invalid(path, shapes: dict) -> TenflangError:
    """The error of validating the examples in `path` against `shapes`, all required."""
    return error_of(load_examples(path).validate, shapes, set(shapes))


def test_missing_variable(tmp_path):
    path = write(tmp_path, "d.txt", "\n{xx: 1}\n")
    err = invalid(path, {"x": ()})
    check(err, "missing variable 'x'", path, 2)
    assert "unexpected 'xx'" in err.message


def test_extra_variable(tmp_path):
    path = write(tmp_path, "d.txt", "{x: 1, q: 2}\n")
    err = invalid(path, {"x": ()})
    assert f"{path}:1:8:" in check(err, "unexpected variable 'q'", path, 1)


def test_wrong_shape(tmp_path):
    path = write(tmp_path, "d.txt", "# c\n{x: [1, 2, 3]}\n")
    err = invalid(path, {"x": (4,)})
    check(err, "variable 'x' has shape [3], expected [4]", path, 2)
    path = write(tmp_path, "d.csv", "x[0],x[1],x[2]\n1,2,3\n")
    err = invalid(path, {"x": (4,)})
    check(err, "variable 'x' has shape [3], expected [4]", path, 1)
    path = str(tmp_path / "d.npz")
    save_examples(path, {"x": np.zeros((2, 3))})
    err = invalid(path, {"x": (4,)})
    check(err, "variable 'x' has shape [3], expected [4]", path)


def test_null_required_variable(tmp_path):
    path = write(tmp_path, "d.txt", "{x: null}\n")
    check(invalid(path, {"x": ()}), "null variable 'x'", path, 1)


def test_not_a_number(tmp_path):
    path = write(tmp_path, "d.txt", "{x: 1}\n{x: abc}\n")
    rendered = check(error_of(load_examples, path), "value of 'x' is not a number: 'abc'", path, 2)
    assert rendered.startswith(f"{path}:2:5:") and rendered.endswith("\n    {x: abc}\n        ^")
    check(error_of(load_examples, write(tmp_path, "e.txt", "{x: [1, 2x]}\n")),
          "not a number: '2x'", str(tmp_path / "e.txt"), 1)
    # the first bad item of a list, also where it opens the list (the caret was at the second)
    first = error_of(load_examples, write(tmp_path, "f.txt", "{x: [f(1), f(2), 3]}\n")).render()
    assert first.startswith(f"{tmp_path / 'f.txt'}:1:6: error: value of 'x' is not a number: "
                            "'f(1)'"), first


def test_ragged_list(tmp_path):
    refused(tmp_path, "d.txt", "{M: [[1, 2], [3]]}\n", "ragged list for 'M'", 1)
    refused(tmp_path, "e.txt", "{M: [1, [3]]}\n",
            "element 2 has shape [1] but element 1 is a number", 1)


def test_variable_bound_in_some_examples_only(tmp_path):
    refused(tmp_path, "d.txt", "{x: 1, y: 2}\n{x: 3}\n",
            "variable 'y' is missing here but bound in line 1", 2)
    refused(tmp_path, "e.txt", "{x: 1, y: null}\n{x: 3, y: 4}\n",
            "variable 'y' is bound here but null in line 1", 2)
    refused(tmp_path, "f.csv", "x,y\n1,2\n3,\n",
            "variable 'y' is null here but bound in line 2", 3)


def test_shape_differs_between_examples(tmp_path):
    refused(tmp_path, "d.txt", "{v: [1, 2]}\n{v: [1, 2, 3]}\n",
            "variable 'v' has shape [3] here but [2] in line 1", 2)


@pytest.mark.parametrize("ext", ["txt", "csv", "npz"])
def test_nan_in_data_needs_allow_nan(tmp_path, ext):
    path = str(tmp_path / f"d.{ext}")
    save_examples(path, {"x": np.array([1.0, 2.0, np.nan]), "y": np.array([0.0, np.inf, 0.0])})
    err = check(error_of(load_examples, path), "variable 'y' is inf", path,
                None if ext == "npz" else 3 if ext == "csv" else 2)
    assert "--allow-nan" in err
    load_examples(path, allow_nan=True)


def test_nan_in_weights_needs_allow_nan(tmp_path):
    path = write(tmp_path, "w.txt", "{\n  w: 1\n  b: nan\n}\n")
    check(error_of(load_weights, path), "weight 'b' is nan", path, 3)
    assert np.isnan(load_weights(path, allow_nan=True)["b"])


def test_empty_file(tmp_path):
    for text in ("", "# only a comment\n\n"):
        refused(tmp_path, "d.txt", text, "no examples")
    refused(tmp_path, "d.csv", "x,y\n", "no examples")
    check(error_of(load_weights, write(tmp_path, "w.txt", "# nothing\n")),
          "empty weights file", str(tmp_path / "w.txt"))
    assert load_weights(write(tmp_path, "w2.txt", "{}\n")) == {}


@pytest.mark.parametrize("text, message, column", [
    ("{x: [1, 2}", "'[' is never closed", 5),
    ("{x: 1, y: 2", "'{' is never closed", 1),
    ("x: 1}", "unexpected '}' without a matching '{'", 5),
    ("{x: 1]}", "expected a variable name, found ']'", 6),
    ("{x 1}", "missing ':' after 'x'", 4),
    ("{x: 1, x: 2}", "duplicate variable 'x' in one vector", 8),
    ("{x: 1} {x: 2}", "unexpected '{' after the vector", 8),
    ("{3: 1}", "expected a variable name, found '3'", 2),
    ("{x: }", "missing value for 'x': found '}'", 5),
    ("{x: [1, null]}", "null inside the list of 'x'", 9),
])
def test_syntax_errors(tmp_path, text, message, column):
    path = write(tmp_path, "d.txt", "{x: 0}\n" + text + "\n")
    rendered = check(error_of(load_examples, path), message, path, 2)
    assert rendered.startswith(f"{path}:2:{column}:"), rendered


def test_syntax_errors_in_weights_point_at_their_line(tmp_path):
    refused(tmp_path, "w.txt", "{\n  w: [[1, 2],\n      [3, 4]]\n  b: [1, 2\n}\n",
            "'[' is never closed", 4, load=load_weights)
    weights = load_weights(write(tmp_path, "v.txt", "w: [[1, 2],\n  [3, 4]]  # W\nb: 1\n"))
    assert weights["w"].shape == (2, 2) and weights["b"].shape == ()
    refused(tmp_path, "x.txt", "{w: 1}\n{w: 2}\n",
            "a weights file holds one vector", 2, load=load_weights)
    refused(tmp_path, "y.txt", "{w: null}\n", "weight 'w' is null", 1, load=load_weights)


def test_unreadable_file(tmp_path):
    for load in (load_examples, load_weights):
        for name in ("nope.txt", "nope.npz", "nope.csv"):
            path = str(tmp_path / name)
            check(error_of(load, path), "cannot read", path)
    refused(tmp_path, "bin.txt", b"\x93NUMPY\xff\xfe", "not UTF-8 text", 1)


def test_malformed_npz(tmp_path):
    path = write(tmp_path, "d.npz", b"this is not a zip file")
    check(error_of(load_examples, path), "not a valid .npz file", path)
    check(error_of(load_weights, path), "not a valid .npz file", path)
    np.save(str(tmp_path / "a.npy"), np.zeros(3))
    os.replace(tmp_path / "a.npy", tmp_path / "a.npz")
    check(error_of(load_examples, str(tmp_path / "a.npz")), "not a valid .npz file",
          str(tmp_path / "a.npz"))
    path = str(tmp_path / "e.npz")
    save_examples(path, {"x": np.zeros(3), "y": np.zeros(4)})
    check(error_of(load_examples, path), "one common leading example axis", path)


def test_csv_bad_header(tmp_path):
    path = write(tmp_path, "d.csv", "y,x[0],x[2]\n1,2,3\n")
    rendered = check(error_of(load_examples, path), "no column 'x[1]' (found x[0] and x[2])",
                     path, 1)
    assert rendered.startswith(f"{path}:1:3:")
    refused(tmp_path, "e.csv", "x,x[0]\n1,2\n", "the columns of 'x' repeat", 1)
    refused(tmp_path, "f.csv", "x,2y\n1,2\n", "'2y' is not a variable name", 1)


def test_csv_non_numeric_cell(tmp_path):
    path = write(tmp_path, "d.csv", "x,y\n1,2\n3,abc\n")
    rendered = check(error_of(load_examples, path), "column 'y' is not a number: 'abc'", path, 3)
    assert rendered.startswith(f"{path}:3:3:")


def test_csv_row_with_wrong_number_of_cells(tmp_path):
    refused(tmp_path, "d.csv", "x,y\n1,2\n3\n", "CSV row has 1 cells but the header has 2", 3)


def test_csv_tensor_partly_empty(tmp_path):
    refused(tmp_path, "d.csv", "v[0],v[1]\n1,2\n3,\n", "both empty and non-empty cells", 3)


@pytest.mark.parametrize("cell", ["x[1,]", "x[]", "x[a]", "x[0]]"])
def test_csv_malformed_header_cells(tmp_path, cell):
    refused(tmp_path, "d.csv", f"y,{cell}\n1,2\n", "is not a variable name or an element", 1)


@st.composite
def scalar_files(draw):
    """Scalar data in varied spacing, braces, commas, comments, blank lines, CRLF."""
    names = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 3)) == 0:
            lines.append(draw(st.sampled_from(["", "   ", "# note: x", " # {x: 1}"])))
            continue
        s = [draw(SPACES) + f"{n}{draw(SPACES)}:{draw(SPACES)}{draw(FLOATS)!r}" for n in names]
        body = "".join(e + (draw(st.sampled_from([",", " ,", ", "])) if i < len(s) - 1 else "")
                       for i, e in enumerate(s)) if draw(st.booleans()) else " ".join(s)
        braced = draw(st.booleans())
        lines.append(("{" if braced else "") + body + draw(st.sampled_from(["", ","]))
                     + ("}" if braced else "") + draw(st.sampled_from(["", " # c", "\r"])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))


@SETTINGS
@given(text=scalar_files())
def test_scalar_fast_path_matches_general_parser_on_varied_text(tmp_path, text, monkeypatch):
    path = write(tmp_path, "d.txt", text)
    try:
        fast = load_examples(path)
    except TenflangError as err:
        assert "no examples" in err.message
        return
    with monkeypatch.context() as m:
        m.setattr(textfiles, "_read_uniform", lambda *args: FastRead())
        slow = load_examples(path)
    assert list(fast.lines) == slow.lines and textfiles._read_uniform(path, text.encode()).arrays is not None
    assert_same(slow.arrays, fast.arrays)


def test_csv_errors_point_at_the_cell(tmp_path):
    path = write(tmp_path, "d.csv", "x,y\n1,2\n10000,\n")
    rendered = check(error_of(load_examples, path), "variable 'y' is null here", path, 3)
    assert rendered.startswith(f"{path}:3:7:")
    path = write(tmp_path, "e.csv", "a,b\n1,2\n333,inf\n")
    assert check(error_of(load_examples, path), "variable 'b' is inf", path, 3) \
        .startswith(f"{path}:3:5:")


@pytest.mark.parametrize("compressed", [False, True])
@pytest.mark.parametrize("stored, dtype", [("float64", "float64"), ("float32", "float32"),
                                           ("float32", "float64"), ("int16", "float64"),
                                           (">f8", "float64")])
def test_npz_arrays_load_in_the_asked_dtype_whatever_their_storage(tmp_path, stored, dtype,
                                                                   compressed):
    x = np.arange(24, dtype=np.float64).reshape(4, 2, 3) - 7.5 * (stored[-1] != "6")
    path = str(tmp_path / "d.npz")
    (np.savez_compressed if compressed else np.savez)(path, x=x.astype(stored), y=np.ones(4))
    ex = load_examples(path, dtype=dtype)
    assert ex.arrays["x"].dtype == np.dtype(dtype) and ex.arrays["y"].dtype == np.dtype(dtype)
    assert np.array_equal(ex.arrays["x"], x.astype(stored).astype(dtype))
    assert ex.arrays["x"].flags.c_contiguous and ex.arrays["x"].flags.writeable
