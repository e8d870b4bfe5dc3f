"""Outputs lose nothing: the one writer (`tenflang.base.outputs`) and every command's
use of it — symbolic links followed, devices and FIFOs written through, an
output that is an input refused, outputs checked before training, and trained
weights kept when an output fails."""
from __future__ import annotations

import os
import stat
import threading

import numpy as np
import pytest
from click.testing import CliRunner

import tenflang
from tenflang.base import outputs as files, limits
from tenflang.backprop import compile_gradient
from tenflang.cli import main
from tenflang.base.errors import RunFailure, TenflangError

from support.paths import ROOT



def cli(args, cwd, stdin=None):
    """Run `tenflang ARGS` in-process (CliRunner) in `cwd`; (code, out, err)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        done = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    finally:
        os.chdir(old)
    if done.exception and not isinstance(done.exception, SystemExit):
        raise done.exception
    return done.exit_code, done.stdout, done.stderr


# ----------------------------------------------------------------------------- the writer

def test_new_and_regular_files_are_replaced_atomically_keeping_the_mode(tmp_path):
    path = tmp_path / "out.txt"
    files.write_file(str(path), "one\n")
    assert path.read_text() == "one\n"
    os.chmod(path, 0o640)
    inode = os.stat(path).st_ino
    files.write_file(str(path), b"two\n")
    assert path.read_text() == "two\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert os.stat(path).st_ino != inode           # replaced, not rewritten in place
    assert os.listdir(tmp_path) == ["out.txt"]     # no temporary file left


def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "w.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    files.write_file(str(link), "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n"


def test_a_chain_of_links_and_a_dangling_link(tmp_path):
    target = tmp_path / "t.txt"
    (tmp_path / "b").symlink_to(target)            # dangling until written
    (tmp_path / "a").symlink_to(tmp_path / "b")
    files.write_file(str(tmp_path / "a"), "x\n")
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()
    assert target.read_text() == "x\n"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero device")
def test_a_device_is_written_through_not_replaced():
    before = os.stat("/dev/zero")
    files.write_file("/dev/zero", "discarded\n")
    after = os.stat("/dev/zero")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_device_is_a_run_failure():
    with pytest.raises(RunFailure, match="No space left on device") as caught:
        files.write_file("/dev/full", "x" * 10000)
    assert caught.value.exit_code == 1
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_fifo_is_written_through_to_its_reader(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    files.write_file(str(fifo), "through the pipe\n")
    reader.join(5)
    assert got == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_fifo_nobody_reads_fails_instead_of_hanging(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "FIFO_READER_WAIT_S", 0.2)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(RunFailure, match="nothing reads this FIFO"):
        files.write_file(str(fifo), "lost\n")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_directory_is_not_an_output(tmp_path):
    with pytest.raises(TenflangError, match="is a directory"):
        files.write_file(str(tmp_path), "x")
    with pytest.raises(TenflangError, match="is a directory"):
        files.check_outputs({"-o": str(tmp_path)}, {})


# ----------------------------------------------------------------------------- an input as output

def spellings(work, name):
    """The same file as `name` by another spelling, a hard link and a symlink."""
    os.link(work / name, work / f"hard-{name}")
    (work / f"soft-{name}").symlink_to(work / name)
    return [name, f"./{name}", str(work / name), f"../{work.name}/{name}",
            f"hard-{name}", f"soft-{name}"]


@pytest.mark.parametrize("k", range(6))
def test_compile_refuses_to_overwrite_its_program(work, k):
    out = spellings(work, "s.tf")[k]
    before = (work / "s.tf").read_text()
    code, _, err = cli(["compile", "s.tf", "-o", out], work)
    assert code == 2 and "would overwrite the input SHAPE" in err
    assert (work / "s.tf").read_text() == before


@pytest.mark.parametrize("args,option,role", [
    (["train", "g.tf", "d.txt", "-o", "d.txt"], "-o", "DATA"),
    (["train", "g.tf", "d.txt", "-o", "g.tf"], "-o", "GCP"),
    (["train", "g.tf", "d.txt", "--plot", "d.txt"], "--plot", "DATA"),
    (["train", "g.tf", "d.txt", "--checkpoint", "g.tf"], "--checkpoint", "GCP"),
    (["train", "g.tf", "d.txt", "--init", "w.txt", "-o", "w.txt"], "-o", "--init"),
    (["evaluate", "s.tf", "in.txt", "w.txt", "-o", "in.txt"], "-o", "INPUTS"),
    (["evaluate", "s.tf", "in.txt", "w.txt", "-o", "w.txt"], "-o", "WEIGHTS"),
    (["evaluate", "s.tf", "in.txt", "w.txt", "-o", "s.tf"], "-o", "PROGRAM"),
    (["plan", "s.tf", "-o", "s.tf"], "-o", "PROGRAM"),
    (["compile", "s.tf", "--dot", "s.tf"], "--dot", "SHAPE"),
])
def test_every_command_refuses_an_input_as_output(work, args, option, role):
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    code, out, err = cli(args, work)
    assert code == 2, err
    assert f"{option} " in err and f"would overwrite the input {role}" in err
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before


def test_checkpoint_and_output_must_differ(work):
    code, _, err = cli(["train", "g.tf", "d.txt", "--checkpoint", "c.npz", "-o", "c.npz",
                        "--max-iters", "3"], work)
    assert code == 2 and "name the same file" in err
    assert not (work / "c.npz").exists()
    (work / "c2.npz").symlink_to(work / "c.npz")
    code, _, err = cli(["train", "g.tf", "d.txt", "--checkpoint", "c.npz", "-o", "c2.npz"], work)
    assert code == 2 and "name the same file" in err


def test_shard_refuses_to_replace_its_own_input(work):
    assert cli(["shard", "d.txt", "--out", "sh", "--rows", "2"], work)[0] == 0
    before = (work / "sh" / "shard-00000.npz").read_bytes()
    code, _, err = cli(["shard", "sh/shard-00000.npz", "--out", "sh", "--rows", "1",
                        "--force"], work)
    assert code == 2 and "shard it into another directory" in err
    assert (work / "sh" / "shard-00000.npz").read_bytes() == before


@pytest.mark.parametrize("target", ["../precious.txt", "shard-00000.npz", "fifo"])
def test_shard_force_never_writes_through_a_link(run_cli, work, target):
    """`shard --force` wrote through `DIR/shard-00001.npz -> ../precious.txt` and
    overwrote precious.txt; a link onto another shard would overwrite that one."""
    assert run_cli(["tenflang", "shard", "d.txt", "--out", "sh", "--rows", "2"], cwd=work)[0] == 0
    (work / "precious.txt").write_text("precious\n")
    if target == "fifo":
        os.unlink(work / "sh" / "shard-00001.npz")
        os.mkfifo(work / "sh" / "shard-00001.npz")
    else:
        os.unlink(work / "sh" / "shard-00001.npz")
        (work / "sh" / "shard-00001.npz").symlink_to(target)
    before = {p: p.read_bytes() for p in (work / "precious.txt", work / "sh" / "shard-00000.npz")}
    code, _, err = run_cli(["tenflang", "shard", "d.txt", "--out", "sh", "--rows", "2",
                            "--force"], cwd=work, timeout=60)
    assert code == 2 and "Traceback" not in err, err
    link = f"a symbolic link (to {target})" if target != "fifo" else "not a regular file"
    assert err.startswith(f"sh/shard-00001.npz: error: shard-00001.npz in the shard directory "
                          f"is {link}; --force replaces only the files an earlier run wrote"), err
    assert {p: p.read_bytes() for p in before} == before
    assert (work / "sh" / "shard-00001.npz").is_symlink() == (target != "fifo")


# ----------------------------------------------------------------------------- commands use it

# /dev/zero, not /dev/null: on a shared machine a program that replaces /dev/null
# (as this one did before) would make these tests fail for someone else's bug
DEVICE = "/dev/zero"


@pytest.mark.skipif(not os.path.exists(DEVICE) or not stat.S_ISCHR(os.stat(DEVICE).st_mode),
                    reason="no /dev/zero device")
@pytest.mark.parametrize("args", [
    ["compile", "s.tf", "-o", DEVICE],
    ["compile", "s.tf", "--dot", DEVICE],
    ["plan", "s.tf", "-o", DEVICE],
    ["evaluate", "s.tf", "in.txt", "w.txt", "-o", DEVICE],
    ["train", "g.tf", "d.txt", "-o", DEVICE, "--max-iters", "2"],
    ["train", "g.tf", "d.txt", "--checkpoint", DEVICE, "--max-iters", "2", "-o", "o.txt"],
    ["train", "g.tf", "d.txt", "--plot", DEVICE, "--max-iters", "2", "-o", "o.txt"],
])
def test_a_device_output_stays_a_device(work, args):
    if "--plot" in args:
        pytest.importorskip("matplotlib")
    before = os.stat(DEVICE)
    code, _, err = cli(args, work)
    assert code == 0, err
    after = os.stat(DEVICE)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_outputs_through_symlinks_keep_the_links(work):
    (work / "real").mkdir()
    for name in ("gcp.tf", "w.txt", "c.npz"):
        (work / f"l-{name}").symlink_to(work / "real" / name)
    assert cli(["compile", "s.tf", "-o", "l-gcp.tf"], work)[0] == 0
    assert cli(["train", "g.tf", "d.txt", "-o", "l-w.txt", "--checkpoint", "l-c.npz",
                "--max-iters", "3"], work)[0] == 0
    for name in ("gcp.tf", "w.txt", "c.npz"):
        assert (work / f"l-{name}").is_symlink()
        assert (work / "real" / name).stat().st_size > 0
    assert "d/dw" in (work / "real" / "gcp.tf").read_text()


def test_fmt_follows_a_symlink_and_refuses_a_fifo(work):
    (work / "messy.tf").write_text("declare   input x\n")
    (work / "link.tf").symlink_to(work / "messy.tf")
    code, _, err = cli(["fmt", "link.tf"], work)
    assert code == 0, err
    assert (work / "link.tf").is_symlink()
    assert (work / "messy.tf").read_text() == "declare input x\n"
    os.mkfifo(work / "pipe.tf")
    code, _, err = cli(["fmt", "pipe.tf"], work)
    assert code == 2 and "not a regular file" in err
    assert stat.S_ISFIFO(os.stat(work / "pipe.tf").st_mode)


def test_compile_into_a_fifo_with_a_reader(work):
    os.mkfifo(work / "pipe")
    got = []
    reader = threading.Thread(target=lambda: got.append((work / "pipe").read_text()))
    reader.start()
    assert cli(["compile", "s.tf", "-o", "pipe"], work)[0] == 0
    reader.join(5)
    assert "d/dw" in got[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_standard_output_on_a_full_disk_is_a_clean_failure(run_cli, work):
    with open("/dev/full", "w") as full:
        import subprocess
        import sys
        from support.commands import cli_env
        done = subprocess.run([sys.executable, "-m", "tenflang", "compile", "s.tf"], cwd=work,
                              stdout=full, stderr=subprocess.PIPE, text=True, env=cli_env())
    assert done.returncode == 1
    assert done.stderr.strip() == "error: cannot write to standard output: No space left on device"


# ----------------------------------------------------------------------------- before training

@pytest.mark.parametrize("option", ["-o", "--checkpoint", "--plot"])
def test_an_output_in_a_missing_directory_fails_before_training(work, option):
    name = "missing/out.png" if option == "--plot" else "missing/out.npz"
    code, _, err = cli(["train", "g.tf", "d.txt", option, name, "--max-iters", "100000",
                        "--tol", "0"], work)
    assert code == 2
    assert f"{option}: the directory missing does not exist" in err
    assert "iterations" not in err                   # it never trained


def test_an_output_that_is_a_directory_fails_before_training(work):
    (work / "dir").mkdir()
    code, _, err = cli(["train", "g.tf", "d.txt", "-o", "dir", "--max-iters", "100000",
                        "--tol", "0"], work)
    assert code == 2 and "-o: the output is a directory" in err


def test_odd_output_paths_fail_before_training(work):
    """Each once trained and then failed (exit 1), or wrote where it should not."""
    (work / "loop-a").symlink_to("loop-b")
    (work / "loop-b").symlink_to("loop-a")
    (work / "dangling").symlink_to("nowhere/x.txt")
    (work / "ro.txt").write_text("keep\n")
    (work / "ro.txt").chmod(0o444)
    cases = {"loop-a": "-o: the symbolic link cannot be followed",
             "w.txt/": "-o: the name ends in '/', as a directory's does; name a file",
             "new/": "-o: the name ends in '/', as a directory's does; name a file",
             "dangling": f"-o: the directory {work / 'nowhere'} does not exist",
             "ro.txt": "-o: the file is read-only",
             "n" * 260 + ".txt": "-o: the file name is 264 bytes long; this file system takes "
                                 "at most"}
    for out, message in cases.items():
        code, _, err = cli(["train", "g.tf", "d.txt", "-o", out, "--max-iters", "100000",
                            "--tol", "0"], work)
        assert code == 2 and message in err and "iterations" not in err, (out, err)
    assert (work / "ro.txt").read_text() == "keep\n" and not (work / "new").exists()


@pytest.mark.parametrize("option", ["-o", "--checkpoint", "DATA"])
def test_a_log_directory_is_checked_before_training(work, option):
    """--logdir naming another output, or an existing file: once found after training."""
    args = {"-o": ["-o", "same"], "--checkpoint": ["--checkpoint", "same"], "DATA": []}[option]
    logdir = "d.txt" if option == "DATA" else "same"
    code, _, err = cli(["train", "g.tf", "d.txt", *args, "--logdir", logdir, "--max-iters",
                        "100000", "--tol", "0"], work)
    message = ("--logdir: d.txt is a file; name a directory" if option == "DATA" else
               f"--logdir and {option} name the same place")
    assert code == 2 and message in err and "iterations" not in err, err
    assert not (work / "same").exists()


def test_a_name_near_the_length_limit_is_written(work):
    """The temporary file beside an output is named after it, cut short: a
    244-character name could be made by `touch` but never written."""
    name = "a" * 240 + ".txt"
    assert cli(["compile", "s.tf", "-o", name], work)[0] == 0
    assert "d/dw" in (work / name).read_text()
    assert [p.name for p in work.iterdir() if p.name.endswith(".tmp")] == []


# ----------------------------------------------------------------------------- weights kept

def test_a_checkpoint_that_fails_mid_run_stops_and_keeps_the_weights(work, monkeypatch):
    from tenflang.training import checkpoints
    real = checkpoints.save_checkpoint
    calls = []

    def flaky(path, state, *rest):
        calls.append(state.iteration)
        if len(calls) > 1:
            raise RunFailure("cannot write file: No space left on device")
        real(path, state, *rest)
    monkeypatch.setattr(checkpoints, "save_checkpoint", flaky)
    code, _, err = cli(["train", "g.tf", "d.txt", "-o", "w-out.txt", "--checkpoint", "c.npz",
                        "--checkpoint-every", "5", "--max-iters", "50", "--tol", "0"], work)
    assert code == 1
    assert "cannot write the checkpoint c.npz" in err and "stopped at iteration 10" in err
    assert "the last good weights (iteration 10) are in w-out.txt" in err
    assert calls == [5, 10]                          # not tried again after failing
    assert "w" in tenflang.load_weights(str(work / "w-out.txt"))


def test_a_resumed_run_that_fails_after_steps_keeps_the_weights_it_trained(work, monkeypatch):
    """The check for 'no step was taken' compared with the resumed state's
    iteration, which the run itself moves on: every resumed run that then
    failed wrote no weights at all."""
    from tenflang.training import checkpoints
    args = ["train", "g.tf", "d.txt", "-o", "w-out.txt", "--checkpoint", "c.npz",
            "--checkpoint-every", "5", "--tol", "0"]
    assert cli(args + ["--max-iters", "10"], work)[0] == 0
    (work / "w-out.txt").unlink()
    real = checkpoints.save_checkpoint

    def failing_from_15(path, state, *rest):
        if state.iteration >= 15:
            raise RunFailure("cannot write file: No space left on device")
        real(path, state, *rest)
    monkeypatch.setattr(checkpoints, "save_checkpoint", failing_from_15)
    code, _, err = cli(args + ["--max-iters", "50"], work)
    assert code == 1 and "resuming from c.npz at iteration 10" in err
    assert "no step was taken" not in err
    assert "the last good weights (iteration 15) are in w-out.txt" in err
    assert "w" in tenflang.load_weights(str(work / "w-out.txt"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_an_output_that_fails_after_training_goes_to_a_rescue_file(work):
    code, _, err = cli(["train", "g.tf", "d.txt", "-o", "/dev/full", "--max-iters", "20",
                        "--tol", "0"], work)
    assert code == 1
    assert "/dev/full: error: cannot write file: No space left on device" in err
    rescue = [p for p in work.iterdir() if p.name.startswith("tfweightcalc-rescue-")]
    assert len(rescue) == 1
    assert f"the last good weights (iteration 20) are in {rescue[0]}" in err
    weights = tenflang.load_weights(str(rescue[0]))
    assert np.isfinite(weights["w"]) and weights["w"] != 0


def test_a_run_that_takes_no_step_leaves_the_outputs_as_they_were(work):
    """Weights that overflow in the first step are divergence, and the run has
    nothing trained to keep: it wrote the starting weights over -o, which may
    hold an earlier run's."""
    gcp = compile_gradient(tenflang.parse_file(str(ROOT / "samples" / "linear_regression.tf"),
                                               shape_program=True))
    (work / "lin.tf").write_text(tenflang.print_program(gcp))
    (work / "lin.txt").write_text("".join(f"{{x: [{k}, 1, 2], y: 1000}}\n" for k in range(4)))
    (work / "w-out.txt").write_text("{w: [1, 2, 3], b: 4}\n")
    code, out, err = cli(["train", "lin.tf", "lin.txt", "--lr", "1e307", "-o", "w-out.txt",
                          "--max-iters", "50", "--tol", "0"], work)
    assert code == 1 and out == ""
    assert "diverged at iteration 1: a weight became infinite or NaN" in err
    assert "no step was taken: no weights are written" in err
    assert (work / "w-out.txt").read_text() == "{w: [1, 2, 3], b: 4}\n"


def test_dev_stdout_is_the_commands_own_standard_output(work):
    """`-o /dev/stdout` writes to the descriptor the shell gave, so `>>` appends
    and a pipe works (no re-open, no replacement)."""
    import subprocess
    import sys
    from support.commands import cli_env
    (work / "log.txt").write_text("first\n")
    with open(work / "log.txt", "a") as log:
        done = subprocess.run([sys.executable, "-m", "tenflang", "compile", "s.tf", "-o",
                               "/dev/stdout"], cwd=work, stdout=log, env=cli_env())
    assert done.returncode == 0
    text = (work / "log.txt").read_text()
    assert text.startswith("first\n") and "d/dw" in text
    done = subprocess.run([sys.executable, "-m", "tenflang", "compile", "s.tf", "-o",
                           "/dev/stdout"], cwd=work, capture_output=True, text=True, env=cli_env())
    assert done.returncode == 0 and "d/dw" in done.stdout


@pytest.mark.parametrize("args,role,target", [
    (["tfcompiler", "s.tf"], "SHAPE", "s.tf"),
    (["tfweightcalc", "g.tf", "d.txt", "--max-iters", "3"], "DATA", "d.txt"),
    (["tfweightcalc", "g.tf", "d.txt", "--max-iters", "3"], "GCP", "g.tf"),
    (["tfevaluate", "s.tf", "in.txt", "w.txt"], "WEIGHTS", "w.txt"),
    (["tenflang", "plan", "s.tf"], "PROGRAM", "s.tf"),
    (["tenflang", "export", "s.tf", "w.txt", "-o", "m.onnx"], "WEIGHTS", "w.txt"),
])
def test_standard_output_appended_onto_an_input_is_refused(work, args, role, target):
    """`tfcompiler sp.tf >> sp.tf` appended the GCP to its own program, exit 0
    (as `-o /dev/stdout` it was refused): standard output is checked too."""
    import subprocess
    import time
    from support.commands import cli_env, command_line
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    started = time.perf_counter()
    with open(work / target, "ab") as appended:
        done = subprocess.run(command_line(args), cwd=work, stdout=appended,
                              stderr=subprocess.PIPE, text=True, env=cli_env(), timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr == (f"{target}: error: standard output is the input {role} ({target}): "
                           "what the command prints would be added to it; redirect standard "
                           "output to another file\n")
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before
    assert time.perf_counter() - started < 30


def test_standard_output_inside_an_input_directory_is_refused(work):
    import subprocess
    from support.commands import cli_env, command_line
    np.savez(work / "d.npz", x=np.arange(4.0), y=np.arange(4.0))
    assert subprocess.run(command_line(["tenflang", "shard", "d.npz", "--out", "sh", "--rows",
                                        "2"]), cwd=work, env=cli_env()).returncode == 0
    with open(work / "sh" / "manifest.json", "ab") as appended:
        done = subprocess.run(command_line(["tfweightcalc", "g.tf", "sh", "--scheduler",
                                            "local:1"]), cwd=work, stdout=appended,
                              stderr=subprocess.PIPE, text=True, env=cli_env(), timeout=120)
    assert done.returncode == 2 and "standard output is the input DATA (sh)" in done.stderr


def test_an_inherited_descriptor_is_written_as_it_is(work):
    import subprocess
    import sys
    from support.commands import cli_env
    done = subprocess.run(["bash", "-c", 'exec "$@" 3>three.txt', "bash", sys.executable, "-m",
                           "tenflang", "compile", "s.tf", "-o", "/dev/fd/3"], cwd=work,
                          env=cli_env())
    assert done.returncode == 0 and "d/dw" in (work / "three.txt").read_text()
    code, _, err = cli(["compile", "s.tf", "-o", "/dev/fd/97"], work)
    assert code == 1 and "Bad file descriptor" in err


# ----------------------------------------------------------------------------- broken streams

def train_process(work, args, **streams):
    """tfweightcalc on the sample in `work`, in a process of its own, with the
    given stdin/stdout/stderr and `preexec_fn`; the CompletedProcess."""
    import subprocess
    import sys
    from support.commands import cli_env
    return subprocess.run([sys.executable, "-m", "tenflang", "train", "g.tf", "d.txt",
                           "--max-iters", "60", "--tol", "0", *args], cwd=work, env=cli_env(),
                          timeout=120, **streams)


def closed_pipe():
    """The write end of a pipe whose reader has gone (EPIPE at the first write)."""
    read, write = os.pipe()
    os.close(read)
    return write


def rescued(work) -> dict:
    (rescue,) = [p for p in work.iterdir() if p.name.startswith("tfweightcalc-rescue-")]
    return tenflang.load_weights(str(rescue))


@pytest.mark.parametrize("how", ["reader gone", "full disk", "closed"])
def test_a_failing_standard_error_costs_neither_the_run_nor_its_weights(work, how):
    """Epoch lines and the summary go to stderr; when it fails the run goes on
    and `-o` is written, as asked (it once ended the run with exit 1 and no weights)."""
    if how == "full disk" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    pipe = closed_pipe()
    with open("/dev/full" if how == "full disk" else os.devnull, "w") as full:
        stderr = {"reader gone": pipe, "full disk": full, "closed": full}[how]
        done = train_process(work, ["-o", "w-out.txt", "--batch-size", "16"], stderr=stderr,
                             preexec_fn=(lambda: os.close(2)) if how == "closed" else None)
    os.close(pipe)
    assert done.returncode == 0
    assert tenflang.load_weights(str(work / "w-out.txt"))["w"] != 0.5


@pytest.mark.parametrize("how", ["reader gone", "closed"])
def test_weights_for_a_standard_output_that_fails_go_to_a_rescue_file(work, how):
    import subprocess
    pipe = closed_pipe()
    done = train_process(work, [], stdout=pipe, stderr=subprocess.PIPE, text=True,
                         preexec_fn=(lambda: os.close(1)) if how == "closed" else None)
    os.close(pipe)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    why = "its reader has gone (broken pipe)" if how == "reader gone" else "standard output is closed"
    assert why in done.stderr
    assert "the last good weights (iteration 60) are in" in done.stderr
    assert np.isfinite(rescued(work)["w"])


def test_ctrl_c_while_the_weights_are_written_keeps_them(work):
    """Training is over and `-o` is a FIFO whose reader is slow to come: Ctrl-C then
    must not cost the weights (it once ended the run with 'interrupted' alone)."""
    import signal
    import subprocess
    import sys
    import time
    from support.commands import cli_env
    os.mkfifo(work / "fifo")
    run = subprocess.Popen([sys.executable, "-m", "tenflang", "train", "g.tf", "d.txt",
                            "--max-iters", "5", "-o", "fifo"], cwd=work, env=cli_env(),
                           stderr=subprocess.PIPE, text=True)
    time.sleep(limits.FIFO_READER_WAIT_S / 2)        # trained, waiting for a reader
    run.send_signal(signal.SIGINT)
    err = run.communicate(timeout=60)[1]
    assert run.returncode == 1 and "Traceback" not in err, err
    assert "fifo: interrupted while the weights were written" in err
    assert np.isfinite(rescued(work)["w"])


def test_a_short_write_to_an_unbuffered_standard_output_is_a_failure(work):
    """With PYTHONUNBUFFERED a write that fills the disk part-way returns a
    short count and no error: the output was cut and the command said 0."""
    import resource
    import subprocess
    import sys
    from support.commands import cli_env

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
    with open(work / "gcp.tf", "w") as out:
        done = subprocess.run([sys.executable, "-m", "tenflang", "compile",
                               str(ROOT / "samples" / "mlp_digits.tf")], cwd=work, stdout=out,
                              stderr=subprocess.PIPE, text=True, preexec_fn=small_files,
                              env={**cli_env(), "PYTHONUNBUFFERED": "1"}, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == "error: cannot write to standard output: File too large"
