"""Hostile and careless input: escapes and resource exhaustion.

Each class of issue 16 (terminal escapes, path traversal, regex blow-up, macro
bombs, a silent scheduler, huge inputs) has its cases here; every case feeds
the input in and checks the message and the exit code, and where time is the
danger, that the work grows linearly."""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import threading
import time

import pytest

import tenflang
from tenflang.base import limits
from tenflang.data.vectors import load_examples
from tenflang.distributed.address import parse_scheduler, within
from tenflang.base.errors import Location, RunFailure, TenflangError, printable

from support.paths import ROOT
from support.commands import cli_env, command_line

SHAPE = ROOT / "samples" / "example_shape.tf"


# ----------------------------------------------------------------------------- terminal escapes

ESCAPES = ["\x1b[2J", "\x1b]0;owned\x07", "\x07", "\x9b31m", "\x08\x08", "\r", "\x00",
           "\u202e", "\x7f"]


@pytest.mark.parametrize("bad", ESCAPES, ids=repr)
def test_no_control_character_reaches_the_terminal_from_a_program(run_cli_batch, tmp_path, bad):
    (tmp_path / "p.tf").write_text(f"declare input x\ndefine y{bad} = neg x\n")
    (tmp_path / "q.tf").write_text(f"declare input x{bad}y\n")
    results = run_cli_batch([["tenflang", "check", "p.tf"], ["tenflang", "check", "q.tf"],
                             ["tfcompiler", "p.tf"]], cwd=tmp_path)
    for code, out, err in results:
        assert code == 2
        assert not any(c in err for c in bad if not c.isprintable()), repr(err)
        assert "\\x" in err or "\\u" in err or "\\r" in err


@pytest.mark.parametrize("bad", [e for e in ESCAPES if not e.isspace()], ids=repr)
def test_no_control_character_reaches_the_terminal_from_data(run_cli_batch, work, bad):
    (work / "bad.txt").write_text(f"{{x: 1, y: 2}}\n{{x: 1{bad}, y: 2}}\n")
    (work / "bad.csv").write_text(f"x,y\n1,2\n1{bad},2\n")
    (work / "badw.txt").write_text(f"{{w{bad}: 1}}\n")
    results = run_cli_batch([["tfweightcalc", "g.tf", "bad.txt"], ["tfweightcalc", "g.tf", "bad.csv"],
                             ["tfevaluate", "s.tf", "d.txt", "badw.txt"]], cwd=work)
    for code, out, err in results:
        assert code == 2, err
        assert not any(c in err for c in bad if not c.isprintable()), repr(err)


def test_file_names_with_escapes_are_shown_escaped(run_cli_batch, work):
    name = "evil\x1b[31m.tf"
    (work / name).write_text(SHAPE.read_text())
    [(code, _, err)] = run_cli_batch([["tenflang", "check", name]], cwd=work)
    assert code == 0 and err == "evil\\x1b[31m.tf: ok\n"


def test_printable_escapes_and_keeps_the_caret_under_the_character():
    err = TenflangError("bad", Location("f", 1, 4, "ab\x1bcd"))
    lines = err.render().split("\n")
    assert lines[1] == "    ab\\x1bcd"
    assert lines[2].index("^") == lines[1].index("c")
    assert printable("tab\tkept") == "tab\tkept"


def test_a_huge_line_gives_a_bounded_excerpt():
    line = "a" * 1_000_000 + "!" + "b" * 1_000_000
    text = TenflangError("x", Location("f", 1, 1_000_001, line)).render()
    assert len(text) < 3 * limits.MAX_EXCERPT_CHARS
    excerpt, caret = text.split("\n")[1:]
    assert excerpt[caret.index("^")] == "!"


def test_a_huge_quoted_token_is_cut():
    text = TenflangError(f"value of 'x' is not a number: '{'9' * 10**6}z'").render()
    assert len(text) < limits.MAX_MESSAGE_CHARS + 100
    assert "(1000001 characters)" in text


def test_a_bad_token_in_a_long_line_prints_little(work):
    line = "{x: [" + "1, " * 3_000_000 + "1x], y: 2}\n"       # 9 MB
    (work / "big.txt").write_text("{x: [1], y: 2}\n" + line)
    started = time.perf_counter()
    code, out, err = run(["tfweightcalc", "g.tf", "big.txt"], work)
    assert code == 2 and "not a number: '1x'" in err
    assert len(err) < 2000
    assert time.perf_counter() - started < 60


def run(args, cwd, timeout=120, **kw):
    done = subprocess.run(command_line(args), cwd=cwd, capture_output=True, text=True,
                          env=cli_env(), timeout=timeout, **kw)
    return done.returncode, done.stdout, done.stderr


# ----------------------------------------------------------------------------- regex blow-up

def refused(path, text: str) -> bool:
    """Does the data reader refuse the file `text` (a located error)?"""
    path.write_text(text)
    try:
        load_examples(str(path))
    except TenflangError:
        return True
    return False


def scan_seconds(path, bad_line: str) -> float:
    """The best of three reads of a data file whose second line is `bad_line`."""
    text = "{x: 1, y: 2}\n" + bad_line + "\n"
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        assert refused(path, text)
        best = min(best, time.perf_counter() - started)
    return best


@pytest.mark.parametrize("make", [
    lambda n: "{x: 1, y: 2" + " " * n + "z",
    lambda n: " " * n + "z",
    lambda n: "{x: 1, y: " + "1" * n + "z",
    lambda n: "{x: 1, y: " + "1" * n + "." + "1" * n + "e",
    lambda n: "{x: 1," + " \t" * n + "y: 2 z",
    lambda n: "{x: 1, y: 2" + " \t" * n + "," + " " * n + "q",
    lambda n: "{x:" + " " * n + "1" + " " * n + ", y" + " " * n + ":" + " " * n + "2" + " " * n,
], ids=["trailing", "leading", "digits", "digits-dot", "separator", "comma", "everywhere"])
def test_the_data_reader_is_linear(make, tmp_path):
    load_examples(str(ROOT / "samples" / "example_inputs.txt"))   # compiled once, not timed
    path = tmp_path / "d.txt"
    small, big = scan_seconds(path, make(16_000)), scan_seconds(path, make(256_000))
    assert big < 1.0                        # was over 100 s for a 4 KB line
    assert big < 64 * max(small, 5e-3)     # 16x the input: ~16x the time, quadratic is 256x


def test_the_fast_reader_still_refuses_what_the_notation_refuses(tmp_path):
    for bad in ["{x: 1y: 2}", "{x: 1, y: 2", "x: 1 y: 2 }", "{x: 1,, y: 2}"]:
        assert refused(tmp_path / "d.txt", "{x: 1, y: 2}\n" + bad + "\n"), bad


# ----------------------------------------------------------------------------- the scheduler

@pytest.fixture
def silent_scheduler():
    """A TCP server that accepts connections and never says a word."""
    pytest.importorskip("distributed")          # the command reaches it through Dask
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                pass
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def test_a_silent_scheduler_honours_the_connect_timeout(work, silent_scheduler):
    started = time.perf_counter()
    code, _, err = run(["tfweightcalc", "g.tf", "d.txt", "--scheduler", silent_scheduler,
                        "--connect-timeout", "2"], work, timeout=60)
    assert code == 1
    assert f"the Dask scheduler at {silent_scheduler} did not answer within 2 s" in err
    assert time.perf_counter() - started < 30


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_end_the_wait_for_a_silent_scheduler(work, silent_scheduler, sig):
    proc = subprocess.Popen(command_line(["tfweightcalc", "g.tf", "d.txt", "--scheduler",
                                          silent_scheduler, "--connect-timeout", "600"]),
                            cwd=work, env=cli_env(), stderr=subprocess.PIPE, text=True)
    time.sleep(5)                                     # importing dask, then waiting
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the signal was swallowed")
    assert proc.returncode == 1
    assert "interrupted while waiting for the Dask scheduler" in err


def test_within_gives_up_and_raises_the_calls_error():
    with pytest.raises(RunFailure, match="the thing did not answer within 0.1 s"):
        within(0.1, lambda: time.sleep(5), lambda: False, "the thing")
    with pytest.raises(RunFailure, match="interrupted while waiting for the thing"):
        within(None, lambda: time.sleep(5), lambda: True, "the thing")
    with pytest.raises(ZeroDivisionError):
        within(1, lambda: 1 / 0, lambda: False, "the thing")
    assert within(1, lambda: 42, lambda: False, "the thing") == 42
    started = time.perf_counter()          # the slack lets a call's own timeout speak first
    with pytest.raises(TimeoutError, match="its own words"):
        within(0.1, lambda: time.sleep(0.3) or (_ for _ in ()).throw(TimeoutError("its own words")),
               lambda: False, "the thing", slack=2)
    assert time.perf_counter() - started < 1.5


@pytest.mark.parametrize("value,message", [
    ("local:99999999", f"at most {limits.MAX_LOCAL_WORKERS} local workers"),
    ("local:0", "needs a worker count N >= 1"),
    ("local:-3", "needs a worker count N >= 1"),
    ("local:two", "needs a worker count N >= 1"),
    ("foo://host:8786", "unknown protocol 'foo'"),
    ("http://host:8786", "unknown protocol 'http'"),
    ("tcp://host:99999", "the port must be a number from 1 to 65535"),
    ("tcp://host:0", "the port must be a number from 1 to 65535"),
    ("tcp://host:abc", "the port must be a number from 1 to 65535"),
    ("host", "expected a Dask scheduler address \\(HOST:PORT"),
    ("tcp://", "expected a Dask scheduler address"),
    ("a b:1", "expected a Dask scheduler address"),
])
def test_bad_scheduler_values_say_what_is_wrong(value, message):
    with pytest.raises(TenflangError, match=message) as caught:
        parse_scheduler(value)
    assert caught.value.exit_code == 2


@pytest.mark.parametrize("value", ["tcp://host:8786", "host:8786", "tls://10.0.0.1:8786",
                                   "tcp://[::1]:8786", "tcp://host", "ws://host:80"])
def test_good_scheduler_addresses(value):
    assert parse_scheduler(value) == ("address", value)


def test_local_n_through_the_command_line_is_bounded(run_cli_batch, work):
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "g.tf", "d.txt", "--scheduler",
                                       "local:99999999"]], cwd=work)
    assert code == 2 and "at most 256 local workers" in err


# ----------------------------------------------------------------------------- macro bombs

def macro_chain(count: int, calls: int) -> str:
    """`count` macros, each calling the one before `calls` times (1 or 2)."""
    lines = ["macro m0 a -> r", "  define r = neg a", "end"]
    for i in range(1, count):
        second = f"  define r = m{i - 1} t{i}" if calls == 2 else f"  define r = neg t{i}"
        lines += [f"macro m{i} a -> r", f"  declare intvar t{i}", f"  define t{i} = m{i - 1} a",
                  second, "end"]
    lines += ["declare input x", "declare output y", f"define y = m{count - 1} x"]
    return "\n".join(lines) + "\n"


def test_a_macro_bomb_is_refused_at_the_call_before_expanding():
    started = time.perf_counter()
    with pytest.raises(TenflangError) as caught:
        tenflang.parse(macro_chain(30, 2), "bomb.tf")
    assert time.perf_counter() - started < 10
    text = caught.value.render()
    assert text.startswith(f"bomb.tf:151:12: error: with this call of macro 'm29' the program "
                           f"expands to more than {limits.MAX_EXPANDED_STATEMENTS} statements")


def test_a_program_of_more_plain_statements_than_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(limits, "MAX_EXPANDED_STATEMENTS", 40)
    lines = ["declare input x"] + [f"declare intvar v{i}" for i in range(30)]
    lines += ["define v0 = neg x"] + [f"define v{i} = neg v{i - 1}" for i in range(1, 30)]
    with pytest.raises(TenflangError) as caught:
        tenflang.parse("\n".join(lines) + "\n", "long.tf")
    assert caught.value.render().startswith(
        "long.tf:41:8: error: the program has more than 40 statements (the limit)")


def test_a_bomb_just_under_the_limit_expands():
    program = tenflang.parse(macro_chain(15, 2), "ok.tf")     # 2**15-ish lines
    assert len(program.statements) > 2 ** 15


def test_a_long_macro_chain_is_a_located_error_not_a_recursion_error():
    with pytest.raises(TenflangError) as caught:
        tenflang.parse(macro_chain(1200, 1), "chain.tf")
    assert f"macro 'm{limits.MAX_MACRO_DEPTH}' nests macro calls " \
           f"{limits.MAX_MACRO_DEPTH + 1} deep; the limit is {limits.MAX_MACRO_DEPTH}" in str(caught.value)
    assert caught.value.location.line == 3 + 5 * (limits.MAX_MACRO_DEPTH - 1) + 1


def test_a_chain_at_the_depth_limit_compiles_and_runs():
    program = tenflang.parse(macro_chain(limits.MAX_MACRO_DEPTH, 1))
    assert float(tenflang.interpret(program, {"x": 2.0})["y"]) == (-2.0 if limits.MAX_MACRO_DEPTH % 2
                                                                   else 2.0)


def test_the_command_line_reports_a_bomb_with_exit_2(run_cli_batch, tmp_path):
    (tmp_path / "bomb.tf").write_text(macro_chain(40, 2))
    (tmp_path / "chain.tf").write_text(macro_chain(1200, 1))
    for code, _, err in run_cli_batch([["tenflang", "check", "--any-program", "bomb.tf"],
                                       ["tfcompiler", "chain.tf"]], cwd=tmp_path):
        assert code == 2 and "Traceback" not in err and "the limit" in err


# ----------------------------------------------------------------------------- huge inputs

@pytest.mark.parametrize("depth", [33, 65, 100_000])
def test_deeply_nested_lists_are_a_located_error(work, depth):
    (work / "deep.txt").write_text("{x: " + "[" * depth + "1" + "]" * depth + ", y: 1}\n")
    started = time.perf_counter()
    with pytest.raises(TenflangError) as caught:
        tenflang.load_examples(str(work / "deep.txt"))
    assert time.perf_counter() - started < 2
    assert f"nests lists more than {limits.MAX_LIST_DEPTH} deep" in caught.value.message
    assert caught.value.location.column == 5 + limits.MAX_LIST_DEPTH


def test_lists_at_the_depth_limit_load(work):
    d = limits.MAX_LIST_DEPTH
    (work / "deep.txt").write_text("{x: " + "[" * d + "1" + "]" * d + "}\n")
    assert tenflang.load_examples(str(work / "deep.txt")).arrays["x"].shape == (1,) + (1,) * d


def test_deep_lists_in_a_weights_file(work):
    (work / "deep.txt").write_text("{w: " + "[" * 70 + "1" + "]" * 70 + "}\n")
    with pytest.raises(TenflangError, match="nests lists more than"):
        tenflang.load_weights(str(work / "deep.txt"))


@pytest.mark.parametrize("program,line,column", [
    ("declare weight W [100000, 100000]\n", 1, 16),
    ("declare input x [4294967296]\n", 1, 15),
    ("declare input x [99999999999999999999999999]\n", 1, 15),
    ("declare input x [100000]\ndeclare input y [100000]\ndeclare output o\n"
     "define o = outer x y\n", 4, 8),
])
def test_a_tensor_over_the_size_limit_is_a_located_error_from_check(program, line, column):
    with pytest.raises(TenflangError) as caught:
        tenflang.parse(program, "big.tf")
    assert "elements per example" in caught.value.message
    assert f"the limit is {limits.MAX_TENSOR_ELEMENTS}" in caught.value.message
    assert (caught.value.location.line, caught.value.location.column) == (line, column)


def test_the_size_limit_through_check_and_compile(run_cli_batch, tmp_path):
    (tmp_path / "big.tf").write_text("declare weight W [100000, 100000]\ndeclare input x "
                                     "[100000]\ndeclare output o\ndeclare loss l\n"
                                     "define o = matmul W x\ndefine l = sum o\n")
    for code, _, err in run_cli_batch([["tenflang", "check", "big.tf"], ["tfcompiler", "big.tf"]],
                                      cwd=tmp_path):
        assert code == 2 and err.startswith("big.tf:1:16: error: 'W' would hold 10000000000")


@pytest.mark.parametrize("header", ["x[0],x[99999999999]", '"M[0,0]","M[99999,99999]"'])
def test_a_csv_header_over_the_size_limit(tmp_path, header):
    (tmp_path / "big.csv").write_text(header + "\n1,2\n")
    with pytest.raises(TenflangError, match="elements per example; the limit is") as caught:
        tenflang.load_examples(str(tmp_path / "big.csv"))
    assert caught.value.location.line == 1


# ----------------------------------------------------------------------------- shard manifests

def shard_dir(run_cli_batch, work) -> object:
    [(code, _, err)] = run_cli_batch([["tenflang", "shard", "d.txt", "--out", "sh",
                                       "--rows", "4"]], cwd=work)
    assert code == 0, err
    return work / "sh"


def rewrite_manifest(folder, change):
    meta = json.loads((folder / "manifest.json").read_text())
    change(meta)
    (folder / "manifest.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("name", ["../secret.npz", "/etc/passwd", "sub/shard.npz", "..", ".",
                                  "", "a\\b.npz", "x\x00.npz"])
def test_a_manifest_cannot_name_a_file_outside_its_directory(run_cli_batch, work, name):
    from tenflang.data.shards import describe
    folder = shard_dir(run_cli_batch, work)
    (work / "secret.npz").write_text("TOP SECRET first line\n")

    def point_elsewhere(meta):
        meta["shards"][0]["file"] = name
    rewrite_manifest(folder, point_elsewhere)
    with pytest.raises(TenflangError) as caught:
        describe(str(folder))
    assert "not a file name in the manifest's own directory" in caught.value.message
    assert "TOP SECRET" not in caught.value.render()


def test_a_traversing_manifest_through_the_command_line(run_cli_batch, work):
    folder = shard_dir(run_cli_batch, work)
    (work / "secret.txt").write_text("TOP SECRET first line\n")

    def point_elsewhere(meta):
        meta["shards"][0]["file"] = "../secret.txt"
    rewrite_manifest(folder, point_elsewhere)
    [(code, _, err)] = run_cli_batch([["tfweightcalc", "g.tf", "sh", "--scheduler", "local:1"]],
                                     cwd=work)
    assert code == 2 and "TOP SECRET" not in err
    assert "not a file name in the manifest's own directory" in err


@pytest.mark.parametrize("change,message", [
    (lambda m: m["shards"][0].update(rows=-5), "rows"),
    (lambda m: m["shards"][0].update(rows=0), "rows"),
    (lambda m: m.update(rows=10**12), "is not the sum"),
    (lambda m: m["variables"].update(x=[100000, 100000]), "more than"),
    (lambda m: m["variables"].update(x=[-1]), "negative"),
])
def test_manifest_counts_and_shapes_are_checked(run_cli_batch, work, change, message):
    from tenflang.data.shards import describe
    folder = shard_dir(run_cli_batch, work)
    rewrite_manifest(folder, change)
    with pytest.raises(TenflangError, match=message) as caught:
        describe(str(folder))
    assert caught.value.location.file.endswith("manifest.json")


def test_prose_between_two_quoted_words_is_not_cut():
    message = "'op' takes 1 operand, then the attributes dims [times]; attribute 'dims' is missing"
    assert TenflangError(message).render() == "error: " + message
