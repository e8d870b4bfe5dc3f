"""`tfcompiler --dot` (backprop/dot.py) and `--stats` (backprop/stats.py)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenflang.backprop import compile_gradient
from tenflang.analysis.graphviz import quote, to_dot
from tenflang.analysis.stats import program_stats, report
from tenflang.lang import parse

from support import programs
from support.paths import ROOT

ORIGINAL = programs.ORIGINAL_EXAMPLE_AS_WRITTEN

MACRO_PROGRAM = "\n" + programs.DENSE_MACRO + """\
declare input x [4]
declare weight W [3, 4]
declare weight b [3]
declare intvar h [3]
declare loss L
define h = dense x W b
define L = sum h
"""

# Per-example live bytes, by hand (x 32, y 24, t/h/e/a 24 each, s/L 8; c is
# computed from a weight only, so it is not per-example):
#   point 0 (start)  x y          56      point 4 a      y h a    72
#   point 1 c        x y          56      point 5 e      y a e    72
#   point 2 t        x y t        80      point 6 s      a e s    56
#   point 3 h        y t h        72      point 7 L      a s L    40
PEAK_PROGRAM = """
declare input x [4]
declare weight W [3, 4]
declare weight b [3]
declare exp_output y [3]
declare intvar c [3]
declare intvar t [3]
declare intvar h [3]
declare output a [3]
declare intvar e [3]
declare intvar s
declare loss L
define c = mul b 2
define t = matmul W x
define h = add t c
define a = tanh h
define e = sub a y
define s = sum e
define L = mul s s
"""


# --- a structural reader for the DOT that to_dot writes -----------------------

QUOTED = r'"(?:[^"\\]|\\.)*"'
NODE = re.compile(rf"^\s*({QUOTED}) \[(.*)\];$")
EDGE = re.compile(rf"^\s*({QUOTED}) -> ({QUOTED})(?: \[label=({QUOTED})\])?;$")


def unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


def braces_balanced(text: str) -> bool:
    unquoted = re.sub(QUOTED, '""', text)
    depth = 0
    for char in unquoted:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def read_dot(text: str):
    """(nodes: name -> attribute text, edges: [(from, to, label or None)])."""
    nodes, edges = {}, []
    lines = text.splitlines()
    assert lines[0].startswith("digraph ") and lines[0].endswith("{") and lines[-1] == "}"
    for line in lines[1:-1]:
        if edge := EDGE.match(line):
            edges.append((unquote(edge[1]), unquote(edge[2]),
                          unquote(edge[3]) if edge[3] else None))
        elif node := NODE.match(line):
            nodes[unquote(node[1])] = node[2]
        else:
            assert re.match(r"^\s*(node|edge) \[.*\];$", line), line
    return nodes, edges


def assert_well_formed(text: str):
    assert braces_balanced(text)
    nodes, edges = read_dot(text)
    for source, target, _ in edges:
        assert source in nodes and target in nodes
    return nodes, edges


def node_label(attributes: str) -> list[str]:
    found = re.search(rf"label=({QUOTED})", attributes)
    return found[1][1:-1].split("\\n")


# --- DOT ------------------------------------------------------------------------

def test_dot_of_the_original_example_has_expected_nodes_and_edges():
    nodes, edges = assert_well_formed(to_dot(parse(ORIGINAL, shape_program=True)))
    assert list(nodes) == ["x", "y", "w", "z", "o", "diff", "lambda"]
    assert edges == [("z", "x", "1"), ("z", "w", "2"), ("o", "z", None),
                     ("diff", "o", "1"), ("diff", "y", "2"), ("lambda", "diff", "1")]


def test_dot_labels_show_name_op_literals_and_shape():
    nodes, _ = read_dot(to_dot(parse(ORIGINAL, shape_program=True)))
    assert node_label(nodes["lambda"]) == ["lambda", "pow _ 2", "[]"]
    assert node_label(nodes["z"]) == ["z", "mul _ _", "[]"]
    assert node_label(nodes["w"]) == ["w", "weight", "[]"]


def test_dot_style_follows_declared_kind():
    nodes, _ = read_dot(to_dot(parse(ORIGINAL, shape_program=True)))
    styles = {name: re.sub(r'label="(?:[^"\\]|\\.)*", ', "", attrs) for name, attrs in nodes.items()}
    assert styles["x"] != styles["y"] != styles["w"] != styles["z"]
    assert styles["o"] != styles["lambda"] != styles["z"]
    assert "doubleoctagon" in styles["lambda"] and "box" in styles["w"]


def test_dot_of_undefined_variable_is_dashed():
    program = parse("declare input x\ndeclare intvar u\ndeclare output o\ndefine o = neg x\n")
    nodes, edges = assert_well_formed(to_dot(program))
    assert "dashed" in nodes["u"] and node_label(nodes["u"])[1] == "(undefined)"
    assert edges == [("o", "x", None)]


def test_dot_of_same_operand_twice_gives_two_edges():
    program = parse("declare input x\ndeclare output o\ndefine o = mul x x\n")
    _, edges = read_dot(to_dot(program))
    assert edges == [("o", "x", "1"), ("o", "x", "2")]


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("source", [ORIGINAL, MACRO_PROGRAM, PEAK_PROGRAM])
def test_dot_of_gcp_is_well_formed_and_quotes_generated_names(source, level):
    gcp = compile_gradient(parse(source, shape_program=True), level)
    nodes, edges = assert_well_formed(to_dot(gcp))
    assert set(nodes) == set(gcp.declarations())
    assert any("/" in name for name in nodes)
    assert len(edges) == sum(1 for d in gcp.definitions() for o in d.operands
                             if hasattr(o, "name"))


def test_dot_of_macro_expansion_names_dotted_locals():
    text = to_dot(compile_gradient(parse(MACRO_PROGRAM, shape_program=True), 0))
    assert '"h.t" -> "W" [label="1"];' in text
    assert '"d/dh.t"' in text


def test_quote_escapes_quotes_and_backslashes():
    assert quote('a"b\\c') == '"a\\"b\\\\c"'
    assert quote("d/dh.t") == '"d/dh.t"'


def test_dot_is_deterministic():
    assert to_dot(parse(ORIGINAL)) == to_dot(parse(ORIGINAL))
    gcp = lambda: compile_gradient(parse(MACRO_PROGRAM, shape_program=True), 0)  # noqa: E731
    assert to_dot(gcp()) == to_dot(gcp())


# --- stats ----------------------------------------------------------------------

def test_stats_of_the_original_example():
    stats = program_stats(parse(ORIGINAL, shape_program=True))
    assert stats["lines"] == 11 and stats["declarations"] == 7 and stats["definitions"] == 4
    assert stats["ops"] == {"mul": 1, "logistic": 1, "sub": 1, "pow": 1}
    assert stats["flops"] == 4
    assert stats["weight_bytes"] == 8
    assert stats["peak_live_bytes"] == 3 * 8      # e.g. x, y and z while z is made


@pytest.mark.parametrize("b_shape, flops", [("[4]", 2 * 3 * 4), ("[4, 5]", 2 * 3 * 4 * 5)])
def test_matmul_flops_and_weight_bytes(b_shape, flops):
    program = parse(f"declare weight A [3, 4]\ndeclare input b {b_shape}\n"
                    "declare output v\ndefine v = matmul A b\n")
    stats = program_stats(program)
    assert stats["flops"] == flops
    assert stats["weight_bytes"] == 3 * 4 * 8 and stats["parameters"] == 3 * 4


def test_peak_live_by_hand():
    stats = program_stats(parse(PEAK_PROGRAM, shape_program=True))
    assert stats["peak_live_bytes"] == 80 and stats["peak_at"] == "t"
    assert stats["weight_bytes"] == (12 + 3) * 8 and stats["parameters"] == 12 + 3
    assert stats["flops"] == 3 + 24 + 3 + 3 + 3 + 3 + 1


def test_unused_input_is_live_only_at_start():
    program = parse("declare input big [100]\ndeclare input x\ndeclare output o\n"
                    "define o = neg x\n")
    stats = program_stats(program)
    assert stats["peak_live_bytes"] == 800 + 8 and stats["peak_at"] is None


def random_program(steps: list[tuple[int, int, bool]]) -> str:
    """An input v0 [3], a weight w [3], then per step: `add` of the last value and an
    earlier one (or w), `sum` of the last value, or `mul w 2` (not per-example);
    the step's value is an intvar or an output."""
    names, decls, body = ["v0", "w"], ["declare input v0 [3]", "declare weight w [3]"], []
    for k, (kind, pick, output) in enumerate(steps, start=1):
        last = names[-1]
        rhs = [f"add {last} {names[pick % len(names)]}", f"sum {last}", "mul w 2"][kind]
        decls.append(f"declare {'output' if output else 'intvar'} v{k}")
        body.append(f"define v{k} = {rhs}")
        names.append(f"v{k}")
    decls.append("declare output out")
    body.append(f"define out = sum {names[-1]}")
    return "\n".join(decls + body) + "\n"


def brute_force_peak(program) -> int:
    """Live sets point by point, straight from the definitions (quadratic)."""
    from tenflang.lang import check
    from tenflang.ops.shapes import size
    shapes, defs, decls = check(program), program.definitions(), program.declarations()
    varying = {"v0"}
    for d in defs:
        if any(getattr(o, "name", None) in varying for o in d.operands):
            varying.add(d.name)
    start = {"v0": 0} | {d.name: i for i, d in enumerate(defs, 1)}
    end = {}
    for name in varying:
        uses = [i for i, d in enumerate(defs, 1)
                if any(getattr(o, "name", None) == name for o in d.operands)]
        end[name] = len(defs) if decls[name].kind == "output" else max(uses + [start[name]])
    return max(sum(8 * size(shapes[n]) for n in varying if start[n] <= point <= end[n])
               for point in range(len(defs) + 1))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 50), st.booleans()),
                min_size=1, max_size=12))
def test_peak_live_matches_brute_force(steps):
    program = parse(random_program(steps))
    assert program_stats(program)["peak_live_bytes"] == brute_force_peak(program)


def test_report_shows_both_programs_aligned():
    program = parse(ORIGINAL, shape_program=True)
    text = report(program, compile_gradient(program, 1))
    lines = text.splitlines()
    assert "shape program" in lines[0] and lines[0].rstrip().endswith("GCP")
    row = {" ".join(line.split()[:-2]): line.split()[-2:] for line in lines[1:]
           if len(line.split()) >= 3}
    assert row["lines"] == ["11", str(program_stats(compile_gradient(program, 1))["lines"])]
    assert row["logistic_deriv"] == ["0", "1"]
    numeric = [line for line in lines[1:] if line.split() and line.split()[-1][0].isdigit()]
    assert len({len(line) for line in numeric}) == 1       # right-aligned numbers


# --- the command line -------------------------------------------------------------

def tfcompiler(*args, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(ROOT / "bin" / "tfcompiler"), *args],
                          capture_output=True, text=True, env=env, cwd=cwd)


ORIGINAL_PATH = str(programs.ORIGINAL_EXAMPLE_FILE)


def test_cli_stats_on_stderr_gcp_on_stdout():
    plain = tfcompiler(ORIGINAL_PATH)
    result = tfcompiler(ORIGINAL_PATH, "--stats")
    assert result.returncode == 0
    assert result.stdout == plain.stdout and "define d/dw" in result.stdout
    assert "shape program" in result.stderr and "FLOPs" in result.stderr
    assert "FLOPs" not in result.stdout


def test_cli_dot_writes_shape_graph(tmp_path):
    out = tmp_path / "graph.dot"
    result = tfcompiler(ORIGINAL_PATH, "--dot", str(out))
    assert result.returncode == 0 and "define d/dw" in result.stdout
    nodes, _ = assert_well_formed(out.read_text())
    assert set(nodes) == {"x", "y", "w", "z", "o", "diff", "lambda"}


def test_cli_dot_gcp_writes_gcp_graph(tmp_path):
    out = tmp_path / "gcp.dot"
    result = tfcompiler(ORIGINAL_PATH, "-O0", "--dot", str(out), "--dot-gcp")
    assert result.returncode == 0
    nodes, _ = assert_well_formed(out.read_text())
    assert {"d/dw", "dz/dw", "d/dlambda"} <= set(nodes)


@pytest.mark.parametrize("options,message", [
    (["--dot-gcp"], "error: --dot-gcp needs --dot FILE (it picks the graph --dot draws)"),
    (["--check", "--dot", "{tmp}/g.dot"], "error: --check only validates the program: it writes "
                                          "no GCP, graph or report; leave out --dot, or --check"),
    (["--check", "--stats", "-o", "{tmp}/g.tf"], "leave out -o, --stats, or --check"),
])
def test_cli_options_that_would_do_nothing_are_usage_errors(tmp_path, options, message):
    """They were silently ignored (exit 0, no file written)."""
    result = tfcompiler(ORIGINAL_PATH, *[o.format(tmp=tmp_path) for o in options])
    assert result.returncode == 2 and result.stdout == "", result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not list(tmp_path.iterdir())


def test_a_file_name_that_is_not_utf8_is_escaped_in_the_dot_and_onnx_outputs(tmp_path):
    """Bytes of a name that are not UTF-8 reach Python as lone surrogates, which
    neither a UTF-8 DOT file nor an ONNX graph's name can hold (a traceback once)."""
    from support.commands import cli_env, command_line
    from support.paths import SAMPLES_DIR
    name = os.fsdecode(b"sh\xff.tf")
    (tmp_path / name).write_text((SAMPLES_DIR / "example_shape.tf").read_text())
    (tmp_path / "w.txt").write_text("{w: 0.5}\n")
    done = subprocess.run(command_line(["tfcompiler", name, "--dot", "g.dot", "-o", os.devnull]),
                          cwd=tmp_path, capture_output=True, env=cli_env())
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "g.dot").read_text().startswith('digraph "sh\\\\xff.tf" {')
    onnx = pytest.importorskip("onnx", reason="onnx is an optional test dependency")
    done = subprocess.run(command_line(["tenflang", "export", name, "w.txt", "-o", "m.onnx"]),
                          cwd=tmp_path, capture_output=True, env=cli_env())
    assert done.returncode == 0, done.stderr
    assert onnx.load(str(tmp_path / "m.onnx")).graph.name == "sh\\xff"


def test_version_from_a_source_tree():
    """click's --version looked the version up by package name: a traceback where
    TenFlang is not installed (PYTHONPATH on the source tree, as the tests run it)."""
    from support.commands import cli_env, command_line
    from tenflang.base.version import version
    done = subprocess.run(command_line(["tenflang", "--version"]), capture_output=True,
                          text=True, env=cli_env())
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"tenflang, version {version()}\n"
