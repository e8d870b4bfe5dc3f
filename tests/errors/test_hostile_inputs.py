"""Hostile and careless input, second round: sizes, bombs, outputs over inputs.

Each case feeds in what a probe fed in (scaled down where the claim still
holds) and checks the message, the exit code, a generous time bound and, for
a memory bomb, the peak memory of the process that ran it (`measured`)."""
from __future__ import annotations

import hashlib
import io
import signal
import json
import os
import subprocess
import sys
import time
import zipfile

import numpy as np
import pytest

import tenflang
from tenflang.base import limits
from tenflang.base.errors import TenflangError

from support.commands import cli_env, command_line

# The command runs as the only child of a small Python process that then
# reports the child's peak resident memory (ru_maxrss, KiB on Linux).
_MEASURE = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "code = subprocess.call(sys.argv[1:]); "
            "sys.stderr.write('\\n@%d %f' % (resource.getrusage(resource.RUSAGE_CHILDREN)"
            ".ru_maxrss, time.perf_counter() - t)); sys.exit(code)")


def measured(args, cwd, timeout=120):
    """(exit code, stdout, stderr, seconds, peak MiB) of a command run as a user would."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *command_line(args)], cwd=cwd,
                          capture_output=True, text=True, env=cli_env(), timeout=timeout)
    err, _, tail = done.stderr.rpartition("\n@")
    peak_kib, seconds = tail.split()
    return done.returncode, done.stdout, err, float(seconds), int(peak_kib) / 1024


def digests(folder) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


# ----------------------------------------------------------------------------- item 2: attributes

@pytest.mark.parametrize("value", ["99999999999999999999", str(limits.MAX_ATTRIBUTE + 1),
                                   "-99999999999999999999"])
def test_a_huge_attribute_is_refused_by_check(run_cli_batch, tmp_path, value):
    (tmp_path / "p.tf").write_text("declare input x [1, 4, 4]\ndeclare output o\n"
                                   f"define o = maxpool2d x 2 {value}\n")
    [(code, _, err)] = run_cli_batch([["tenflang", "check", "--any-program", "p.tf"]],
                                     cwd=tmp_path)
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"p.tf:3:26: error: 'maxpool2d' attribute 'stride' is too large: "
                          f"{int(value)}; the limit is {limits.MAX_ATTRIBUTE}")


def test_an_attribute_at_the_limit_checks_and_evaluates(tmp_path):
    program = tenflang.parse("declare input x [1, 4, 4]\ndeclare output o\n"
                             f"define o = maxpool2d x 2 {limits.MAX_ATTRIBUTE}\n")
    x = np.arange(32.0).reshape(2, 1, 4, 4)
    out = tenflang.evaluate(program, {"x": x}, {})["o"]
    assert np.array_equal(out, x[:, :, :2, :2].max(axis=(2, 3), keepdims=True))


# ----------------------------------------------------------------------------- item 3: rank

def test_a_reshape_to_70_axes_is_refused_by_check(run_cli_batch, tmp_path):
    ones = ", ".join(["1"] * 70)
    (tmp_path / "r.tf").write_text(f"declare input x\ndeclare output o\n"
                                   f"define o = reshape x [{ones}]\n")
    (tmp_path / "w.tf").write_text(f"declare weight w [{', '.join(['1'] * 64)}]\n")
    (tmp_path / "d.txt").write_text("{x: 1}\n")
    (tmp_path / "e.txt").write_text("{}\n")
    results = run_cli_batch([["tenflang", "check", "--any-program", "r.tf"],
                             ["tfevaluate", "r.tf", "d.txt", "e.txt"],
                             ["tenflang", "check", "--any-program", "w.tf"]], cwd=tmp_path)
    for code, _, err in results[:2]:
        assert code == 2 and err.startswith(
            f"r.tf:3:22: error: 'reshape' attribute 'shape' has 70 entries; the limit is "
            f"{limits.MAX_RANK}")
    code, _, err = results[2]
    assert code == 2 and err.startswith(f"w.tf:1:16: error: 'w' would have 64 axes per "
                                        f"example; the limit is {limits.MAX_RANK}")


def test_an_inferred_shape_over_the_rank_limit_is_located(monkeypatch):
    monkeypatch.setattr(limits, "MAX_RANK", 1)
    with pytest.raises(TenflangError) as caught:
        tenflang.parse("declare input x [2]\ndeclare input y [3]\ndeclare output o\n"
                       "define o = outer x y\n", "r.tf")
    assert caught.value.render().startswith(
        "r.tf:4:8: error: 'o' would have 2 axes per example; the limit is 1")


def test_a_tensor_at_the_rank_limit_runs():
    dims = ", ".join(["1"] * limits.MAX_RANK)
    program = tenflang.parse(f"declare input x\ndeclare output o\ndefine o = reshape x [{dims}]\n")
    out = tenflang.evaluate(program, {"x": np.array([3.0, 4.0])}, {})["o"]
    assert out.shape == (2,) + (1,) * limits.MAX_RANK and out.ravel().tolist() == [3.0, 4.0]


# ----------------------------------------------------------------------------- item 7: CSV header

def test_a_csv_header_naming_only_a_far_column_is_refused_at_once(work):
    (work / "d.csv").write_text("x[199999999],y\n1,2\n")       # 20 bytes
    code, _, err, seconds, peak = measured(["tfweightcalc", "g.tf", "d.csv"], work)
    assert code == 2 and "Traceback" not in err
    assert "d.csv:1:1: error: CSV header: no column 'x[0]' (found x[199999999])" in err
    assert seconds < 20 and peak < 300         # was 21.9 s and 7.6 GB


def test_the_first_missing_csv_column_is_named(tmp_path):
    (tmp_path / "d.csv").write_text("M[0,0],M[0,1],M[1,1],M[2,2]\n1,2,3,4\n")
    with pytest.raises(TenflangError, match=r"no column 'M\[0,2\]'"):
        tenflang.load_examples(str(tmp_path / "d.csv"))


# ----------------------------------------------------------------------------- item 8: npz bombs

def npz_with_bomb(path, inflated: int, used=("x", "y")):
    """A small .npz: 4 examples of each `used` scalar, and a compressed member
    'junk' of `inflated` zero bytes, written without holding it in memory."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in used:
            with z.open(f"{name}.npy", "w") as f:
                np.lib.format.write_array(f, np.ones(4))
        with z.open("junk.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array_header_2_0(
                f, {"descr": "<f8", "fortran_order": False, "shape": (4, inflated // 32)})
            block = bytes(1 << 22)
            for _ in range(inflated // len(block)):
                f.write(block)


def test_an_inflating_npz_member_is_refused_from_its_header(work):
    npz_with_bomb(work / "d.npz", 128 << 20)          # 128 KB on disk, 128 MiB inflated
    code, _, err, seconds, peak = measured(["tfweightcalc", "g.tf", "d.npz"], work)
    assert code == 2 and "Traceback" not in err
    assert "d.npz: error: array 'junk' would inflate from" in err
    assert f"more than {limits.MAX_COMPRESSION_RATIO} times (the limit)" in err
    assert seconds < 20 and peak < 100


def test_an_unused_npz_member_is_refused_before_it_is_read(tmp_path, monkeypatch):
    npz_with_bomb(tmp_path / "d.npz", 8 << 20)
    monkeypatch.setattr(limits, "MAX_COMPRESSION_RATIO", 10 ** 6)    # only the name is wrong
    inflated = []
    monkeypatch.setattr(np.lib.format, "read_array",
                        lambda *a, **k: inflated.append(1) or pytest.fail("an array was read"))
    with pytest.raises(TenflangError, match="unexpected variable 'junk': the program does not "
                                            r"read it \(expected: x, y\)"):
        tenflang.load_examples(str(tmp_path / "d.npz"), shapes={"x": (), "y": ()})
    assert not inflated


def test_an_npz_member_over_the_rank_limit_is_refused(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.ones((2,) + (1,) * (limits.MAX_RANK + 1)))
    with pytest.raises(TenflangError, match=f"has {limits.MAX_RANK + 1} axes per example"):
        tenflang.load_examples(str(tmp_path / "d.npz"))


# ----------------------------------------------------------------------------- item 10: outputs

OVER_SHARDS = [["-o", "sh/shard-00000.npz"], ["-o", "sh/manifest.json"],
               ["--plot", "sh/loss.png"], ["--checkpoint", "sh/ck.npz"], ["-o", "sh/../sh/new.txt"]]


def test_an_output_inside_the_shard_directory_is_refused(run_cli_batch, work):
    [(code, _, err)] = run_cli_batch([["tenflang", "shard", "d.txt", "--out", "sh",
                                       "--rows", "50"]], cwd=work)
    assert code == 0, err
    before = digests(work / "sh")
    results = run_cli_batch([["tfweightcalc", "g.tf", "sh", "--max-iters", "2", *option]
                             for option in OVER_SHARDS], cwd=work)
    for option, (code, out, err) in zip(OVER_SHARDS, results):
        assert code == 2 and out == ""
        assert f"error: {option[0]} {option[1]} is inside the input directory DATA (sh); " \
               "write outputs outside it" in err
    assert digests(work / "sh") == before


# ----------------------------------------------------------------------------- item 6: maxpool

POOL = """declare input x [1, 64, 64]
declare weight a
declare exp_output y
declare intvar h
declare output o
declare loss l
define h = maxpool2d (mul x a) 32 1
define o = sum h
define l = pow (sub o y) 2
"""


def test_the_maxpool_adjoint_stays_within_what_stats_reports(run_cli_batch, tmp_path):
    (tmp_path / "p.tf").write_text(POOL)
    [(code, _, err)] = run_cli_batch([["tfcompiler", "p.tf", "-o", "g.tf", "--stats"]],
                                     cwd=tmp_path)
    assert code == 0, err
    per_example = int(next(line for line in err.splitlines() if line.startswith("peak live"))
                      .split()[-1].replace(",", ""))
    rng = np.random.default_rng(0)
    peaks = {}
    for n in (4, 300):
        np.savez(tmp_path / f"d{n}.npz", x=rng.random((n, 1, 64, 64)), y=rng.random(n))
        code, out, err, seconds, peaks[n] = measured(["tfweightcalc", "g.tf", f"d{n}.npz",
                                                      "--max-iters", "1"], tmp_path)
        assert code == 0 and "a:" in out and seconds < 60, err
    # the k² = 1024 masks of a window offset each took 300·33·33 bytes at once: 330 MB
    assert peaks[300] - peaks[4] < 4 * per_example * 300 / 2 ** 20, (peaks, per_example)


# ----------------------------------------------------------------------------- item 14: smaller

def test_json_output_is_strict_json(run_cli_batch, tmp_path):
    (tmp_path / "p.tf").write_text("declare input x\ndeclare output o\ndeclare output e\n"
                                   "define o = log x\ndefine e = exp x\n")
    (tmp_path / "d.txt").write_text("{x: -1}\n{x: 1000}\n{x: 0}\n")
    (tmp_path / "w.txt").write_text("{}\n")
    [(code, out, err)] = run_cli_batch([["tfevaluate", "p.tf", "d.txt", "w.txt",
                                         "--format", "json"]], cwd=tmp_path)
    assert code == 0, err

    def refuse(constant):
        raise AssertionError(f"not JSON: {constant}")
    rows = [json.loads(line, parse_constant=refuse) for line in out.splitlines()]
    assert rows[0]["o"] is None and rows[1]["e"] == float("inf") and rows[2]["o"] == -float("inf")


def test_stale_temporary_files_of_a_killed_writer_are_removed(work):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = work / f".ck.npz.{dead.pid}.abcd1234.tmp"
    live = work / f".ck.npz.{os.getpid()}.abcd1234.tmp"     # a writer still at work
    stale.write_bytes(b"half a checkpoint")
    live.write_bytes(b"being written")
    code, _, err, seconds, _ = measured(["tfweightcalc", "g.tf", "d.txt", "--checkpoint",
                                         "ck.npz", "--max-iters", "2"], work)
    assert code == 0, err
    assert not stale.exists() and live.exists() and (work / "ck.npz").exists()


def test_weights_go_to_stdout_when_neither_o_nor_a_rescue_file_can_be_written(
        monkeypatch, capfd):
    from tenflang.training import rescue
    monkeypatch.setattr(rescue, "rescue_file", lambda weights, statistics=None: None)    # a full disk
    state = rescue.State({"w": np.array(0.25)})
    kept, failed = rescue.keep_weights(state, "/dev/full", None, tenflang.TrainConfig())
    assert kept == ["standard output"] and "No space left on device" in failed[0]
    assert [line.strip() for line in capfd.readouterr().out.splitlines()] == ["{", "w: 0.25", "}"]


@pytest.mark.parametrize("digit", ["\u0663", "\uff13", "\u09e9"], ids=["arabic", "fullwidth",
                                                                       "bengali"])
def test_non_ascii_digits_are_not_numbers(tmp_path, digit):
    for name, text, column in [("d.txt", f"{{x: {digit}, y: 1}}\n", 5),
                               ("d.csv", f"x,y\n{digit},1\n", 1)]:
        (tmp_path / name).write_text(text)
        with pytest.raises(TenflangError, match=f"not a number: '{digit}'") as caught:
            tenflang.load_examples(str(tmp_path / name))
        assert caught.value.location.column == column
    (tmp_path / "w.txt").write_text(f"{{w: 1{digit}}}\n")
    with pytest.raises(TenflangError, match="not a number"):
        tenflang.load_weights(str(tmp_path / "w.txt"))
    with pytest.raises(TenflangError, match=f"malformed number '{digit}'"):
        tenflang.parse(f"declare input x\ndeclare output o\ndefine o = mul x {digit}\n")
    (tmp_path / "h.csv").write_text(f"x[{digit}],y\n1,2\n")
    with pytest.raises(TenflangError, match="is not a variable name or an element"):
        tenflang.load_examples(str(tmp_path / "h.csv"))


def test_chunk_size_1_makes_few_chunks(work):
    pytest.importorskip("distributed")
    from tenflang.data.shards import describe
    rng = np.random.default_rng(0)
    (work / "d2000.txt").write_text("".join(f"{{x: {a!r}, y: {b!r}}}\n"
                                            for a, b in rng.random((2000, 2)).tolist()))
    data = describe(str(work / "d2000.txt"), chunk_size=1)
    assert len(data.chunks) <= limits.MAX_SMALL_CHUNKS and sum(data.chunk_rows()) == 2000
    assert len(describe(str(work / "d2000.txt"), chunk_size=1500).chunks) == 2
    code, out, err, seconds, _ = measured(["tfweightcalc", "g.tf", "d2000.txt", "--scheduler",
                                           "local:1", "--chunk-size", "1", "--max-iters", "2"],
                                          work)
    assert code == 0 and "w: " in out, err
    assert seconds < 60                      # 2000 chunks: 49 s


# ----------------------------------------------------------------------------- item 4: long compiles

def chain_program(n: int) -> str:
    """A chain of n elementwise statements (the probe's had 10 000)."""
    lines = ["declare input x", "declare exp_output y", "declare weight w", "declare loss l"]
    lines += [f"declare intvar v{i}" for i in range(n)]
    lines += ["define v0 = mul x w"] + [f"define v{i} = sin v{i - 1}" for i in range(1, n)]
    return "\n".join(lines + [f"define l = pow (sub v{n - 1} y) 2"]) + "\n"


def test_a_long_chain_is_cut_into_loops_of_bounded_size():
    from tenflang.interp.runtime.codegen import batched_names
    from tenflang.interp.planning.fusion import Group, fuse
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    gcp = tenflang.compile_gradient(tenflang.parse(chain_program(1000)))
    plan = gradient_plan(gcp, signature(gcp))
    groups = [g for g in fuse(plan, "mean", batched_names(plan)) if isinstance(g, Group)]
    assert sum(len(g.steps) for g in groups) > 2000
    assert max(len(g.steps) for g in groups) == limits.MAX_FUSED_STEPS


def stuck_compiler(tmp_path):
    """A C compiler that never ends and starts a helper (as cc starts cc1);
    the helper writes its pid where the test can find it."""
    cc = tmp_path / "stuck-cc"
    cc.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {tmp_path}/helper.pid\nsleep 300\n")
    cc.chmod(0o755)
    return cc


def compiling(args, work, env, marker):
    """The command `args` started in `work`, once its stuck compiler has left
    `marker` (within two minutes)."""
    proc = subprocess.Popen(command_line(args), cwd=work, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), proc.communicate()
    return proc


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie is gone too: its parent (the killed compiler) was never waited by it
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(")")[-1].split()[0] == "Z"


def test_a_compile_past_its_time_limit_ends_the_whole_compiler(tmp_path, monkeypatch):
    from tenflang.native import clib
    monkeypatch.setattr(limits, "COMPILE_SECONDS", 1)
    work = tmp_path / "work"
    work.mkdir()
    started = time.perf_counter()
    with pytest.raises(clib.Abandoned, match="the C compiler took more than 1 s"):
        clib.compile_c([str(stuck_compiler(tmp_path))], str(work))
    assert time.perf_counter() - started < 5
    helper = int((tmp_path / "helper.pid").read_text())
    deadline = time.monotonic() + 5
    while not gone(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(helper)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_during_the_c_compile_answer_within_a_second(work, sig):
    gcp = tenflang.compile_gradient(tenflang.parse(chain_program(50)))
    (work / "c.tf").write_text(tenflang.print_program(gcp))
    rng = np.random.default_rng(0)
    np.savez(work / "d.npz", x=rng.random(2000), y=rng.random(2000))   # fused: ≥ 1000 examples
    env = {**cli_env(), "CC": str(stuck_compiler(work)), "TENFLANG_CACHE_DIR": str(work / "cache"),
           "TENFLANG_FUSE": "1"}
    proc = compiling(["tfweightcalc", "c.tf", "d.npz", "--max-iters", "3"], work, env,
                     work / "helper.pid")
    time.sleep(0.3)
    sent = time.perf_counter()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert time.perf_counter() - sent < 5            # within a second, on a busy machine
    assert proc.returncode == 1 and "Traceback" not in err
    assert "interrupted" in err and "w: " in out      # the last good weights kept
    assert gone(int((work / "helper.pid").read_text()))
    assert not list((work / "cache").rglob("*.c"))   # no source left behind


def test_ctrl_c_during_a_compile_of_the_first_step_keeps_the_weights(work):
    """The row kernels' compile (softmax) is asked for in the first step: Ctrl-C
    there raised `Abandoned` past the callers, which caught only Unavailable."""
    from support.paths import SAMPLES_DIR
    (work / "mlp.tf").write_text(tenflang.print_program(tenflang.compile_gradient(
        tenflang.parse_file(str(SAMPLES_DIR / "mlp_digits.tf"), shape_program=True))))
    cc = work / "slow-cc"         # stuck on the row kernels, a compiler for the rest
    cc.write_text("#!/bin/sh\nfor a; do case $a in *.c) if grep -q softmax_rows $a; then "
                  f"touch {work}/stuck; sleep 300; fi;; esac; done\nexec cc \"$@\"\n")
    cc.chmod(0o755)
    # the row kernels are asked for even in a run of the suite on the numpy path
    env = {**cli_env(), "CC": str(cc), "TENFLANG_CACHE_DIR": str(work / "cache"),
           "TENFLANG_NATIVE": "1", "TENFLANG_FUSE": "1"}
    proc = compiling(["tfweightcalc", "mlp.tf", str(SAMPLES_DIR / "digits_train.txt"),
                      "--max-iters", "5", "-o", "w-out.txt"], work, env, work / "stuck")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1 and "Traceback" not in err, err
    assert "interrupted at iteration 1" in err
    assert set(tenflang.load_weights(str(work / "w-out.txt"))) == {"W1", "b1", "W2", "b2"}


def test_a_cache_that_takes_no_file_compiles_elsewhere_or_not_at_all(tmp_path, monkeypatch):
    """A cache on a full disk (ENOSPC while the source or library is written)
    ended the run in a traceback; the library is now built in a temporary
    directory, and where none takes it either, it is Unavailable (the caller
    runs without it, as without a compiler)."""
    from tenflang.native import clib
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(tmp_path / "cache"))
    real, calls = clib.build, []

    def full_cache(cc, source, path, *rest):
        calls.append(path)
        if path.startswith(str(tmp_path / "cache")) or len(calls) > 2:
            raise OSError(28, "No space left on device")
        real(cc, source, path, *rest)
    monkeypatch.setattr(clib, "build", full_cache)
    source = "int tenflang_probe_%d(void) { return 7; }\n"
    lib = clib.library(source % 1)
    assert lib.tenflang_probe_1() == 7 and len(calls) == 2
    assert not calls[1].startswith(str(tmp_path / "cache"))
    with pytest.raises(clib.Unavailable, match="no directory takes the compiled library"):
        clib.library(source % 2)


# ----------------------------------------------------------------------------- item 5: Ctrl-C at start

@pytest.mark.parametrize("delay", [0.15, 0.3, 0.5])
def test_ctrl_c_while_a_command_starts_prints_no_traceback(work, delay):
    for args in (["tfweightcalc", "g.tf", "d.txt"], ["tenflang", "train", "g.tf", "d.txt"]):
        proc = subprocess.Popen(command_line(args), cwd=work, env=cli_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
        assert proc.returncode in (1, -signal.SIGINT, 0)     # 0: it finished first


# ----------------------------------------------------------------------------- item 9: MemoryError

def test_running_out_of_memory_while_sharding_is_reported_as_such(work):
    """A MemoryError inside the .npz writer made zipfile's cleanup raise
    'I/O operation on closed file', which hid it behind a traceback."""
    np.savez(work / "big.npz", x=np.ones((1_000_000, 4)), y=np.ones(1_000_000))
    code = ("import resource, runpy, sys; lim = int(sys.argv[1]) << 20; "
            "resource.setrlimit(resource.RLIMIT_AS, (lim, lim)); sys.argv = sys.argv[1:]; "
            "runpy.run_module('tenflang', run_name='__main__')")
    outcomes = []
    # MiB of address space: some fail, some do not (where depends on the threads
    # OpenBLAS starts, each with its buffers: 200 MiB is enough on one thread)
    for limit in (150, 175, 200, 250, 300, 400):
        done = subprocess.run([sys.executable, "-c", code, str(limit), "shard", "big.npz",
                               "--out", f"sh{limit}", "--rows", "100000000"], cwd=work,
                              env=cli_env(), capture_output=True, text=True, timeout=120)
        if "Traceback" in done.stderr and "import" in done.stderr.split("Traceback")[1][:2000] \
                and "tenflang/cli/shard_command" not in done.stderr:
            continue                             # too little memory to start Python at all
        assert "Traceback" not in done.stderr, done.stderr
        outcomes.append(done.returncode)
        if done.returncode:
            assert done.returncode == 1 and "error: out of memory" in done.stderr
    assert 1 in outcomes, outcomes


# ----------------------------------------------------------------------------- items 11, 12: training

INDEX_FROM_WEIGHTS = """declare input x
declare exp_output y
declare weight w
declare intvar k
declare intvar h
declare loss l
define k = mul (step (sub w 1)) 2
define h = one_hot k 2
define l = add (pow (sub w y) 2) (sum (mul h x))
"""


def test_a_data_error_mid_run_keeps_the_last_good_weights(run_cli_batch, work):
    """The class index, computed from w, leaves 0..1 once w passes 1 (iteration 13)."""
    gcp = tenflang.compile_gradient(tenflang.parse(INDEX_FROM_WEIGHTS))
    (work / "k.tf").write_text(tenflang.print_program(gcp))
    (work / "k.txt").write_text("".join(f"{{x: {0.1 * i}, y: 5}}\n" for i in range(20)))
    started = time.perf_counter()
    [(code, out, err)] = run_cli_batch([["tfweightcalc", "k.tf", "k.txt", "--lr", "0.01",
                                         "--max-iters", "200", "-o", "w.txt", "--checkpoint",
                                         "ck.npz", "--checkpoint-every", "8"]], cwd=work)
    assert time.perf_counter() - started < 60
    assert code == 1 and "Traceback" not in err
    assert "error: training stopped at iteration 13: one_hot: class index 2.0" in err
    assert "the last good weights (iteration 12) are in ck.npz and w.txt" in err
    w = tenflang.load_weights(str(work / "w.txt"))["w"]
    assert 1 < w < 1.2                                   # 12 steps of lr 0.01 towards 5
    # the same error in the first step is bad input: exit 2, nothing written
    (work / "w2.txt").write_text("{w: 3}\n")
    [(code, out, err)] = run_cli_batch([["tfweightcalc", "k.tf", "k.txt", "--init", "w2.txt",
                                         "-o", "w3.txt"]], cwd=work)
    assert code == 2 and "class index 2.0" in err and not (work / "w3.txt").exists()


SQRT = """declare input x
declare exp_output y
declare weight w
declare intvar o
declare loss l
define o = mul (sqrt x) w
define l = pow (sub o y) 2
"""


def sqrt_data(path, bad_rows):
    rng = np.random.default_rng(1)
    path.write_text("".join(f"{{x: {-1.0 if i in bad_rows else rng.random()!r}, "
                            f"y: {rng.random()!r}}}\n" for i in range(100)))


def test_a_nan_validation_loss_is_never_the_best(run_cli_batch, work):
    from tenflang.training.sampling import split
    gcp = tenflang.compile_gradient(tenflang.parse(SQRT))
    (work / "q.tf").write_text(tenflang.print_program(gcp))
    sqrt_data(work / "q.txt", {int(split(100, 0.2, 0)[1][0])})   # in the validation split
    [(code, out, err)] = run_cli_batch([["tfweightcalc", "q.tf", "q.txt", "--max-iters", "30",
                                         "--val-fraction", "0.2", "--patience", "2"]], cwd=work)
    assert code == 0, err
    assert "(the best" not in err and "stopped early" not in err
    assert "warning: the validation loss was nan at 30 of 30 evaluations" in err
    assert "reached --max-iters" in err and "w: " in out


def test_a_nan_from_the_data_is_not_blamed_on_the_learning_rate(run_cli_batch, work):
    gcp = tenflang.compile_gradient(tenflang.parse(SQRT))
    (work / "q.tf").write_text(tenflang.print_program(gcp))
    sqrt_data(work / "q.txt", {3})
    sqrt_data(work / "r.txt", set())
    results = run_cli_batch([["tfweightcalc", "q.tf", "q.txt", "--max-iters", "30"],
                             ["tfweightcalc", "q.tf", "r.txt", "--max-iters", "30", "--lr",
                              "1e6"]], cwd=work)
    code, out, err = results[0]
    assert code == 1 and out == ""                       # no step: nothing trained to keep
    assert "training diverged at iteration 1: the loss is nan" in err
    assert "the weights have not moved yet, so an example gives NaN" in err
    assert "smaller --lr" not in err
    code, _, err = results[1]                            # a real divergence still says --lr
    assert code == 1 and "try a smaller --lr (it was 1e+06)" in err


def test_running_out_of_memory_while_a_command_loads_is_one_line(monkeypatch, capfd):
    """A MemoryError while a command's modules load (the address space a
    little smaller than the sharding test's) ended in a traceback."""
    from types import SimpleNamespace
    from tenflang import cli

    def no_memory(name, package=None):
        raise MemoryError
    monkeypatch.setattr(cli, "importlib", SimpleNamespace(import_module=no_memory))
    with pytest.raises(SystemExit) as stop:
        cli._command("shard")
    assert stop.value.code == 1
    assert capfd.readouterr().err == "error: out of memory: the data, the program or its " \
        "tensors are larger than this machine's memory (training: try --batch-size; or " \
        "smaller shapes)\n"


@pytest.mark.parametrize("where", ["data", "checkpoint"])
def test_a_good_file_too_large_for_memory_is_out_of_memory_not_a_bad_file(work, monkeypatch,
                                                                           where):
    """numpy's 'Unable to allocate' while reading a valid .npz was reported as
    'not a valid .npz file' (exit 2, the file blamed): it is out of memory, exit 1,
    and no file is written or changed (the checkpoint least of all)."""
    from click.testing import CliRunner
    from tenflang import cli
    from tenflang.data import vectors

    vectors.save_examples(str(work / "d.npz"), vectors.load_examples(str(work / "d.txt")).arrays)
    monkeypatch.chdir(work)
    args = ["train", "g.tf", "d.npz", "-o", "w-out.txt", "--max-iters", "2"]
    if where == "checkpoint":
        assert CliRunner().invoke(cli.main, [*args, "--checkpoint", "c.npz"]).exit_code == 0
        args += ["--checkpoint", "c.npz", "--max-iters", "4"]
    kept = {f.name: f.read_bytes() for f in work.iterdir() if f.is_file()}
    real = np.load

    def short_of_memory(file, *a, **k):
        if str(getattr(file, "name", file)).endswith("c.npz" if where == "checkpoint"
                                                      else "d.npz"):
            raise MemoryError("Unable to allocate 30.5 MiB for an array")
        return real(file, *a, **k)
    monkeypatch.setattr(np, "load", short_of_memory)
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 1, result.output
    assert "error: out of memory" in result.output and "not a" not in result.output
    assert {f.name: f.read_bytes() for f in work.iterdir() if f.is_file()} == kept


def lying_npz(path, names=("x", "y")) -> None:
    """An .npz whose stored members' headers claim 10^12 rows of 8 bytes and hold 8."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name in names:
            member = io.BytesIO()
            np.lib.format.write_array_header_1_0(
                member, {"descr": "<f8", "fortran_order": False, "shape": (10**12,)})
            archive.writestr(f"{name}.npy", member.getvalue() + bytes(8))


@pytest.mark.parametrize("where", ["data", "checkpoint"])
def test_a_header_claiming_more_than_its_member_holds_is_a_bad_file(work, monkeypatch, where):
    """numpy allocates what an .npy header claims before it reads: a 300-byte file
    claiming 8 TB runs out of memory, and that is the file's fault (exit 2, the
    file named), not the machine's."""
    from click.testing import CliRunner
    from tenflang import cli

    monkeypatch.chdir(work)
    lying_npz(work / "lie.npz", ("x", "y") if where == "data" else ("w:w", "meta"))
    lie = (work / "lie.npz").read_bytes()
    data, more = ("lie.npz", []) if where == "data" else ("d.txt", ["--checkpoint", "lie.npz"])
    result = CliRunner().invoke(cli.main, ["train", "g.tf", data, *more, "--max-iters", "2",
                                           "-o", "w-out.txt"])
    assert result.exit_code == 2, result.output
    expected = "not a valid .npz file" if where == "data" else "not a tfweightcalc checkpoint"
    assert f"lie.npz: error: {expected}" in result.output
    assert "claims 8000000000000 bytes but holds" in result.output
    assert "out of memory" not in result.output
    assert (work / "lie.npz").read_bytes() == lie
    assert not (work / "w-out.txt").exists()


# ----------------------------------------------------------------------------- corrupt .npz members

def npy_member(array=None, shape=None, keep=None) -> bytes:
    """An .npy member: `array`'s, or a header claiming `shape`; cut to `keep` data bytes."""
    out = io.BytesIO()
    if array is not None:
        np.lib.format.write_array(out, np.asarray(array, dtype=np.float64))
        shape = np.shape(array)
        header = len(out.getvalue()) - 8 * int(np.prod(shape))
    else:
        np.lib.format.write_array_header_1_0(
            out, {"descr": "<f8", "fortran_order": False, "shape": shape})
        header = len(out.getvalue())
        out.write(np.arange(1.0, 3.0).tobytes())
    data = out.getvalue()
    return data if keep is None else data[:header + keep]


def stored_npz(path, members: dict) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def flipped(path) -> None:
    """`path` with one bit flipped in the middle of its first member's values."""
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 4] ^= 0x40
    path.write_bytes(bytes(raw))


CORRUPT = {
    "short": (lambda p: stored_npz(p, {"x.npy": npy_member(shape=(5,)),
                                       "y.npy": npy_member(np.ones(5))}),
              "member 'x.npy' claims 40 bytes but holds 16"),
    "negative": (lambda p: stored_npz(p, {"x.npy": npy_member(shape=(-5,)),
                                          "y.npy": npy_member(np.ones(2))}),
                 "member 'x.npy' has the shape [-5] in its header"),
    "flipped": (lambda p: (tenflang.save_examples(str(p), {"x": np.ones(100_000),
                                                           "y": np.ones(100_000)}), flipped(p)),
                "member 'x.npy' fails its CRC-32 check"),
}


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_a_corrupt_npz_data_member_is_refused_naming_file_and_member(run_cli, work, case):
    """The fast reader read a member's values where its header said, however many
    the member held: the next member's zip header came back as floats, exit 0."""
    make, message = CORRUPT[case]
    make(work / "d.npz")
    started = time.perf_counter()
    code, out, err = run_cli(["tfweightcalc", "g.tf", "d.npz", "--max-iters", "2",
                              "-o", "w-out.txt"], cwd=work)
    assert (code, out) == (2, "") and "Traceback" not in err
    assert f"d.npz: error: not a valid .npz file: {message}" in err
    assert not (work / "w-out.txt").exists() and time.perf_counter() - started < 60


def test_a_pickled_member_is_refused_as_not_numbers_not_by_its_size(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.array([1, "a", None], dtype=object), y=np.ones(3))
    with pytest.raises(TenflangError, match="array 'x' holds object values, not numbers"):
        tenflang.load_examples(str(tmp_path / "d.npz"))


@pytest.mark.parametrize("keep", [0, 4])
def test_a_weights_npz_member_missing_its_bytes_is_refused(run_cli, work, keep):
    stored_npz(work / "w.npz", {"w.npy": npy_member(np.float64(0.5), keep=keep)})
    code, out, err = run_cli(["tfevaluate", "g.tf", "in.txt", "w.npz"], cwd=work)
    assert (code, out) == (2, "") and "Traceback" not in err
    assert f"w.npz: error: not a valid .npz file: member 'w.npy' claims 8 bytes but " \
           f"holds {keep}" in err


def test_a_member_read_in_place_is_checked_against_its_crc(tmp_path, monkeypatch):
    """A member read straight into its array (`_read_checked`) never passes numpy's
    own checks: its CRC-32 is computed as it is read."""
    from tenflang.data import npzfiles
    path = tmp_path / "d.npz"
    tenflang.save_examples(str(path), {"x": np.arange(300_000.0)})
    assert tenflang.load_examples(str(path)).arrays["x"][-1] == 299_999
    flipped(path)
    calls, real = [], npzfiles._read_checked
    monkeypatch.setattr(npzfiles, "_read_checked", lambda *a: calls.append(1) or real(*a))
    with pytest.raises(TenflangError, match="member 'x.npy' fails its CRC-32 check"):
        tenflang.load_examples(str(path))
    assert calls


@pytest.mark.parametrize("flip", [False, True])
def test_a_large_member_is_checksummed_in_parallel_parts(tmp_path, monkeypatch, loop_threads,
                                                         flip):
    """A single thread checksums at half the speed the page cache reads: a large
    member is read in parts on several threads, their CRCs combined."""
    import zlib
    from tenflang.data import crc
    loop_threads("3")
    monkeypatch.setattr(crc, "PARALLEL_BYTES", 1 << 16)
    monkeypatch.setattr(crc, "CHUNK_BYTES", 1 << 12)
    parts = []
    real = crc.read_part
    monkeypatch.setattr(crc, "read_part", lambda *a: parts.append(len(a[2])) or real(*a))
    values = np.random.default_rng(0).random(100_001)
    path = tmp_path / "d.npz"
    tenflang.save_examples(str(path), {"x": values})
    if flip:
        raw = bytearray(path.read_bytes())
        raw[len(raw) * 3 // 4] ^= 1                     # in the last part
        path.write_bytes(bytes(raw))
        with pytest.raises(TenflangError, match="member 'x.npy' fails its CRC-32 check"):
            tenflang.load_examples(str(path))
    else:
        assert np.array_equal(tenflang.load_examples(str(path)).arrays["x"], values)
    assert len(parts) == 3 and sum(parts) == values.nbytes
    for a, b in [(b"hello ", b"world"), (b"", b"x"), (b"x", b""), (bytes(9), values.tobytes())]:
        assert crc.combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)


# ----------------------------------------------------------------------------- repeats

def test_a_weights_npz_holding_a_weight_twice_is_refused(run_cli, work):
    """zipfile reads the last of two members of one name: the text format
    refuses a repeated weight, and so does the archive."""
    stored_npz(work / "w.npz", {"w.npy": npy_member(np.float64(0.5)),
                                "x.npy": npy_member(np.float64(1.0))})
    raw = (work / "w.npz").read_bytes().replace(b"x.npy", b"w.npy")
    (work / "w.npz").write_bytes(raw)
    code, out, err = run_cli(["tfevaluate", "g.tf", "in.txt", "w.npz"], cwd=work)
    assert (code, out) == (2, "") and "Traceback" not in err
    assert "w.npz: error: not a valid .npz file: it holds member 'w.npy' twice" in err


def test_a_manifest_listing_a_shard_twice_is_refused_at_once(run_cli_batch, work):
    [(code, _, err)] = run_cli_batch([["tenflang", "shard", "d.txt", "--out", "sh",
                                       "--rows", "50"]], cwd=work)
    assert code == 0, err
    meta = json.loads((work / "sh" / "manifest.json").read_text())
    first = meta["shards"][0]
    meta["shards"] += [first] * 100_000             # 5 MB of manifest
    meta["rows"] += first["rows"] * 100_000
    (work / "sh" / "manifest.json").write_text(json.dumps(meta))
    code, out, err, seconds, peak = measured(["tfweightcalc", "g.tf", "sh", "--max-iters", "2",
                                              "--scheduler", "local:1", "-o", "w-out.txt"], work)
    assert (code, out) == (2, "") and "Traceback" not in err
    assert f"manifest.json: error: the manifest lists the shard '{first['file']}' more than " \
           "once" in err
    assert seconds < 30 and peak < 400 and not (work / "w-out.txt").exists()


# ----------------------------------------------------------------------------- --dtype float32

BEYOND_FLOAT32 = "beyond the range of float32 (±3.4028235e+38), where it would become " \
                 "infinite; use float64 (--dtype float64)"


def test_values_beyond_float32_are_refused_naming_the_variable(run_cli_batch, work):
    """`--dtype float32` turned 1e300 into inf without a word: `--init {w: 1e300}`
    trained to `w: inf`, tfevaluate printed `o: 1.0`, export verified an inf
    initializer with a relative error of 0."""
    pytest.importorskip("onnxruntime")
    (work / "big.txt").write_text("{w: 1e300}\n")
    (work / "bigx.txt").write_text("{x: 0.5}\n{x: -1e300}\n")
    (work / "bigd.txt").write_text("{x: 1, y: 1}\n{x: 1e39, y: 2}\n")
    np.savez(work / "big.npz", x=np.array([1.0, 3.4028235e38, 3.5e38]), y=np.ones(3))
    f32 = ["--dtype", "float32"]
    cases = [
        (["tfweightcalc", "g.tf", "d.txt", "--init", "big.txt", "-o", "o1.txt", *f32],
         "big.txt:1:2: error: weight 'w' is 1e+300, "),
        (["tfweightcalc", "g.tf", "bigd.txt", "-o", "o2.txt", *f32],
         "bigd.txt:2:2: error: variable 'x' is 1e+39, "),
        (["tfweightcalc", "g.tf", "big.npz", "-o", "o3.txt", *f32],
         "big.npz: error: variable 'x' is 3.5e+38 in example 2 (0-based), "),
        (["tfevaluate", "s.tf", "bigx.txt", "w.txt", "-o", "o4.txt", *f32],
         "bigx.txt:2:2: error: variable 'x' is -1e+300, "),
        (["tfevaluate", "s.tf", "in.txt", "big.txt", "-o", "o5.txt", *f32],
         "big.txt:1:2: error: weight 'w' is 1e+300, "),
        (["tenflang", "export", "s.tf", "big.txt", "-o", "o6.onnx", *f32],
         "big.txt:1:2: error: weight 'w' is 1e+300, "),
        (["tenflang", "export", "s.tf", "w.txt", "-o", "o7.onnx", "--verify", "bigx.txt", *f32],
         "bigx.txt:2:2: error: variable 'x' is -1e+300, "),
    ]
    results = run_cli_batch([args for args, _ in cases], cwd=work)
    for (args, message), (code, out, err) in zip(cases, results):
        assert (code, out) == (2, ""), (args, err)
        assert err.startswith(message + BEYOND_FLOAT32) and "Warning" not in err, (args, err)
    assert not [p.name for p in work.iterdir() if p.name.startswith("o")]
    [(code, _, err)] = run_cli_batch([["tfevaluate", "s.tf", "bigx.txt", "big.txt"]], cwd=work)
    assert code == 0, err                    # float64 holds them


def test_the_api_refuses_values_beyond_float32_too():
    from support import programs
    gcp = programs.sample_gcp("example_shape.tf")
    program = tenflang.parse((programs.SAMPLES_DIR / "example_shape.tf").read_text())
    f32, ones = tenflang.TrainConfig(max_iters=2, dtype="float32"), np.ones(2)
    calls = [
        (lambda: tenflang.train(gcp, {"x": ones, "y": np.array([1.0, -1e300])}, f32),
         "data 'y' is -1e+300 in example 1 (0-based), "),
        (lambda: tenflang.train(gcp, {"x": ones, "y": ones}, f32, init={"w": 1e300}),
         "weight 'w' is 1e+300, "),
        (lambda: tenflang.evaluate(program, {"x": np.array([1e39])}, {"w": 1.0},
                                   dtype="float32"), "data 'x' is 1e+39 in example 0 (0-based), "),
        (lambda: tenflang.evaluate(program, {"x": ones}, {"w": 1e300}, dtype="float32"),
         "weight 'w' is 1e+300, "),
    ]
    for call, message in calls:
        with pytest.raises(TenflangError) as caught:
            call()
        assert caught.value.message.startswith(message + BEYOND_FLOAT32)
    result = tenflang.train(gcp, {"x": ones, "y": ones}, f32, init={"w": 3e38})
    assert np.isfinite(result.weights["w"])


def test_first_unfit_finds_the_earliest_value_past_the_rounding_edge():
    from tenflang.base.dtypes import first_unfit
    top = float(np.finfo(np.float32).max)
    edge = top + 2.0 ** 103                  # from here float32 rounds to inf
    with np.errstate(over="ignore"):
        assert np.isinf(np.float32(edge)) and np.float32(np.nextafter(edge, 0)) == top
    arrays = {"a": np.array([[0.0, np.inf], [np.nan, -edge]]), "b": np.array([edge, 0.0]),
              "c": np.array([np.nextafter(edge, 0)]), "d": np.full(1, np.inf, np.float32)}
    assert first_unfit(arrays, "float32") == (0, "b", edge)
    assert first_unfit({"a": arrays["a"]}, "float32") == (1, "a", -edge)
    assert first_unfit({k: arrays[k] for k in "cd"}, "float32") is None
    assert first_unfit(arrays, "float64") is None


# ----------------------------------------------------------------------------- long names

def renamed(work, name: str, program: str = "s.tf") -> str:
    """The sample program with its weight `w` named `name`, written to a new file."""
    import re
    text = re.sub(r"\bw\b", name, (work / program).read_text())
    path = f"n{len(name)}.tf"
    (work / path).write_text(text)
    return path


def test_a_name_past_the_limit_is_refused_when_the_program_is_read(run_cli_batch, work):
    """A weight named with 100 000 characters crashed `-o w.npz`, --checkpoint,
    `tfevaluate -o out.npz` and `tenflang shard` (zip's 65 535-byte member
    name) with a traceback, losing the trained weights."""
    long = renamed(work, "w" * 100_000)
    (work / "long.txt").write_text("{%s: 1, y: 2}\n" % ("x" * 100_000))
    commands = [["tfcompiler", long, "-o", "o1.tf"], ["tenflang", "check", long],
                ["tfweightcalc", long, "d.txt", "-o", "o2.npz", "--checkpoint", "o3.npz"],
                ["tfevaluate", long, "in.txt", "w.txt", "-o", "o4.npz"],
                ["tenflang", "shard", "long.txt", "--rows", "1", "--out", "o5"]]
    message = f"(100000 characters) is longer than {limits.MAX_NAME_CHARS} characters (the limit)"
    for args, (code, out, err) in zip(commands, run_cli_batch(commands, cwd=work)):
        assert (code, out) == (2, "") and "Traceback" not in err, (args, err)
        where = "long.txt:1:2" if args[1] == "shard" else f"{long}:4:17"
        assert err.startswith(f"{where}: error: the name '") and message in err, (args, err)
    assert not [p.name for p in work.iterdir() if p.name.startswith("o")]


def test_names_at_the_limit_train_and_write_every_output(run_cli_batch, work):
    """A name of MAX_NAME_CHARS is read; its GCP's gradient `d/d<name>` would be
    longer, so tfcompiler refuses it (never writing a GCP tfweightcalc refuses);
    a name short enough for its GCP trains and is written everywhere."""
    limit = limits.MAX_NAME_CHARS
    at, short = renamed(work, "w" * limit), renamed(work, "w" * (limit - 3))
    results = run_cli_batch([["tenflang", "check", at], ["tfcompiler", at, "-o", "g-at.tf"],
                             ["tfcompiler", short, "-o", "g-short.tf"]], cwd=work)
    assert results[0][0] == 0 and results[2][0] == 0, results
    code, out, err = results[1]
    assert code == 2 and err.startswith(f"{at}: error: the GCP of this program would declare "
                                        "'d/dwww") and "(the limit of a name)" in err
    assert not (work / "g-at.tf").exists()
    [(code, _, err), (code2, _, err2)] = run_cli_batch([
        ["tfweightcalc", "g-short.tf", "d.txt", "--max-iters", "3", "-o", "w.npz",
         "--checkpoint", "c.npz"], ["tfevaluate", short, "in.txt", "w.npz", "-o", "o.npz"]],
        cwd=work)
    assert code == 0 and code2 == 0, (err, err2)
    assert list(np.load(work / "w.npz")) == ["w" * (limit - 3)]


# ----------------------------------------------------------------- issue 49, item 10: devices, streams

DEVICE_CASES = [
    (["tenflang", "check", "/dev/urandom"], "program", "/dev/urandom"),
    (["tfcompiler", "/dev/zero"], "program", "/dev/zero"),
    (["tenflang", "plan", "/dev/zero"], "program", "/dev/zero"),
    (["tfweightcalc", "g.tf", "/dev/zero"], "data file", "/dev/zero"),
    (["tfweightcalc", "g.tf", "zero.npz"], "data file", "zero.npz"),
    (["tfweightcalc", "g.tf", "d.txt", "--init", "/dev/urandom"], "weights file", "/dev/urandom"),
    (["tfevaluate", "s.tf", "/dev/zero", "w.txt"], "data file", "/dev/zero"),
    (["tfevaluate", "s.tf", "in.txt", "/dev/zero"], "weights file", "/dev/zero"),
    (["tenflang", "export", "s.tf", "zero.npz", "-o", "m.onnx"], "weights file", "zero.npz"),
    (["tenflang", "shard", "/dev/urandom", "--out", "sh", "--rows", "2"], "data file",
     "/dev/urandom"),
    (["tfweightcalc", "g.tf", "zdir", "--scheduler", "local:1"], "shard",
     "zdir/shard-00000.npz"),
    (["tfweightcalc", "g.tf", "mdir", "--scheduler", "local:1"], "shard manifest",
     "mdir/manifest.json"),
]


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not os.path.exists("/dev/urandom"),
                    reason="no /dev/zero or /dev/urandom")
def test_a_device_where_a_file_is_meant_is_refused_at_once(run_cli_batch, work):
    """`tfcompiler /dev/zero` read 7.6 GB in 27.7 s before 'out of memory', and
    `tenflang check /dev/urandom` was still reading at 40 s: a device is
    refused before a byte is read, a link to one too."""
    (work / "zero.npz").symlink_to("/dev/zero")
    (work / "zdir").mkdir()                      # zipfile read a device to its end
    (work / "zdir" / "shard-00000.npz").symlink_to("/dev/zero")
    (work / "mdir").mkdir()                      # the manifest was read to its end
    (work / "mdir" / "manifest.json").symlink_to("/dev/zero")
    started = time.perf_counter()
    results = run_cli_batch([args for args, _, _ in DEVICE_CASES], cwd=work, timeout=120)
    assert time.perf_counter() - started < 60
    for (args, what, path), (code, out, err) in zip(DEVICE_CASES, results):
        assert code == 2 and out == "", (args, err)
        assert err == (f"{path}: error: cannot read {what}: it is a character device, not a "
                       "regular file (a device such as /dev/zero never ends); give a file, a "
                       "pipe or a FIFO\n"), args
    assert not (work / "m.onnx").exists() and not (work / "sh").exists()


def test_a_stream_over_the_limit_is_refused_with_bounded_memory(work):
    """`<(cat /dev/zero)` is a pipe: read up to `limits.MAX_STREAM_BYTES`, then
    refused (it ran the machine out of memory)."""
    script = 'exec "$@" <(exec cat /dev/zero)'
    done = subprocess.run([sys.executable, "-c", _MEASURE, "bash", "-c", script, "bash",
                           *command_line(["tfcompiler"])], cwd=work, capture_output=True,
                          text=True, env=cli_env(), timeout=120)
    err, _, tail = done.stderr.rpartition("\n@")
    peak_mib, seconds = int(tail.split()[0]) / 1024, float(tail.split()[1])
    assert done.returncode == 2 and "Traceback" not in err, err
    assert err.endswith(f"error: cannot read program: the stream holds more than "
                        f"{limits.MAX_STREAM_BYTES} bytes (the limit for a pipe or FIFO); "
                        "write it to a file and give that\n"), err
    assert seconds < 60
    assert peak_mib < limits.MAX_STREAM_BYTES / 2**20 + 400, peak_mib


def test_a_stream_is_capped_as_it_is_read(tmp_path, monkeypatch):
    """The limit holds while reading: a writer that never stops is left after
    the limit and one chunk."""
    import threading
    from tenflang.base import inputs
    monkeypatch.setattr(limits, "MAX_STREAM_BYTES", 5 * inputs.CHUNK_BYTES)
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    written = [0]

    def endless():
        try:
            with open(fifo, "wb") as f:
                while True:
                    written[0] += f.write(b"# comment\n" * 100_000)
        except BrokenPipeError:
            pass
    writer = threading.Thread(target=endless, daemon=True)
    writer.start()
    with pytest.raises(TenflangError, match="the stream holds more than 5242880 bytes"):
        tenflang.parse_file(str(fifo))
    writer.join(10)
    assert not writer.is_alive() and written[0] < 8 * inputs.CHUNK_BYTES


def test_streams_and_dev_stdin_keep_working(work):
    """A pipe (`/dev/stdin`, `<(...)`) and a FIFO are read; one read once, so a
    message that quotes a line of a FIFO does not open it again (that would
    wait for a writer for ever)."""
    def shell(line: str, stdin=None):
        return subprocess.run(["bash", "-c", line, "bash", *command_line(["tenflang"])],
                              cwd=work, capture_output=True, text=True, env=cli_env(),
                              timeout=60, stdin=stdin)
    done = shell('"$@" compile /dev/stdin < s.tf && cat s.tf | "$@" compile /dev/stdin')
    assert done.returncode == 0 and done.stdout.count("d/dw") >= 2, done.stderr
    done = shell('"$@" evaluate <(cat s.tf) <(cat in.txt) <(cat w.txt)')
    assert done.returncode == 0 and done.stdout.startswith("{o: "), done.stderr
    done = shell('"$@" train g.tf <(cat d.txt) --max-iters 3 --init /dev/stdin < w.txt')
    assert done.returncode == 0 and "w: " in done.stdout, done.stderr
    os.mkfifo(work / "bad.csv")
    done = shell("printf 'x,y\\n1,2\\n3,\\n' > bad.csv & \"$@\" train g.tf bad.csv")
    assert done.returncode == 2 and "bad.csv:3: error: " in done.stderr, done.stderr
    os.mkfifo(work / "fifo.npz")
    done = shell('"$@" train g.tf fifo.npz')
    assert done.returncode == 2 and done.stderr == (
        "fifo.npz: error: cannot read data file: it is a pipe or FIFO, and an .npz archive is "
        "read by seeking in it; write it to a file and give that\n")


def test_fmt_reads_standard_input_as_any_input(work):
    """`tenflang fmt -` read standard input without bound (`< /dev/zero`)."""
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(command_line(["tenflang", "fmt", "-"]), cwd=work, stdin=zero,
                              capture_output=True, text=True, env=cli_env(), timeout=60)
    assert done.returncode == 2 and done.stderr.startswith(
        "<stdin>: error: cannot read program: it is a character device, not a regular file")
    with open(work / "s.tf", "rb") as program:
        done = subprocess.run(command_line(["tenflang", "fmt", "-"]), cwd=work, stdin=program,
                              capture_output=True, text=True, env=cli_env(), timeout=60)
    assert done.returncode == 0 and "declare weight" in done.stdout
