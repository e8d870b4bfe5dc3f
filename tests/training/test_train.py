"""tfweightcalc: optimizers, mini-batches, determinism, and every failure path."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import tenflang
from tenflang.training.config import TrainConfig
from tenflang.training.loop import train
from tenflang.training.signature import initial_weights, signature
from tenflang.training.sampling import batch_indices
from tenflang.data.vectors import load_weights

from support.paths import SAMPLES_DIR
from support.commands import cli_env, command_line, stderr_on_a_terminal
from support.programs import sample_gcp, src


@pytest.fixture(scope="module")
def linear_gcp(tmp_path_factory):
    path = tmp_path_factory.mktemp("gcp") / "linear.gcp.tf"
    path.write_text(tenflang.print_program(sample_gcp("linear_regression.tf")))
    return path


def linear_data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    return {"x": x, "y": x @ np.array([2.0, -1.0, 0.5]) + 0.3}


@pytest.mark.parametrize("optimizer,lr", [("sgd", 0.1), ("momentum", 0.05), ("adam", 0.05)])
def test_each_optimizer_recovers_linear_weights(optimizer, lr):
    result = train(sample_gcp("linear_regression.tf"), linear_data(),
                   TrainConfig(lr=lr, optimizer=optimizer, max_iters=20000, tol=1e-10))
    assert result.reason == "converged"
    np.testing.assert_allclose(result.weights["w"], [2.0, -1.0, 0.5], atol=1e-8)
    np.testing.assert_allclose(result.weights["b"], 0.3, atol=1e-8)


def test_sgd_step_is_the_original_designs_update():
    """One full-batch step: w <- w - lr * (average gradient over the examples)."""
    gcp, data = sample_gcp("example_shape.tf"), {"x": np.array([1.0, -2.0, 0.5]),
                                             "y": np.array([0.2, 0.9, 0.4])}
    result = train(gcp, data, TrainConfig(lr=0.7, max_iters=1, tol=0), init={"w": np.array(0.3)})
    o = 1 / (1 + np.exp(-0.3 * data["x"]))
    grad = np.mean(2 * (o - data["y"]) * o * (1 - o) * data["x"])
    np.testing.assert_allclose(result.weights["w"], 0.3 - 0.7 * grad, rtol=1e-14)
    assert result.iterations == 1


def test_minibatches_cover_each_epoch_once_and_are_seeded():
    n, size = 10, 4
    epoch = [batch_indices(n, size, seed=3, iteration=i) for i in range(3)]
    assert sorted(np.concatenate(epoch)) == list(range(n))
    assert [len(b) for b in epoch] == [4, 4, 2]
    again = [batch_indices(n, size, seed=3, iteration=i) for i in range(3)]
    assert all(np.array_equal(a, b) for a, b in zip(epoch, again))
    assert not np.array_equal(batch_indices(n, size, seed=4, iteration=0), epoch[0])
    assert batch_indices(n, None, seed=3, iteration=0) is None


def test_initialisation_breaks_symmetry_for_matrices_and_is_seeded():
    sig = signature(sample_gcp("mlp_digits.tf"))
    w = initial_weights(sig, seed=0)
    limit = np.sqrt(6 / (64 + 32))
    assert w["W1"].shape == (32, 64) and np.all(np.abs(w["W1"]) <= limit)
    assert len(np.unique(w["W1"])) == w["W1"].size
    assert np.array_equal(w["b1"], np.zeros(32))
    assert np.array_equal(initial_weights(sig, 0)["W2"], w["W2"])
    assert not np.array_equal(initial_weights(sig, 1)["W2"], w["W2"])


INIT_PROGRAM = """\
declare input x [400]
declare weight C [200, 400] init -0.25
declare weight N [200, 400] init normal 0.02
declare weight U [200, 400] init uniform -0.1 0.3
declare weight H [200, 400] init he
declare weight G [200, 400] init glorot
declare weight D [200, 400]
declare loss l
define l = sum (matmul (add (add (add C N) (add U H)) (add G D)) x)
"""


def test_every_initialiser_has_its_statistics_over_a_large_weight():
    sig = signature(tenflang.compile_gradient(tenflang.parse(INIT_PROGRAM, shape_program=True)))
    w = initial_weights(sig, seed=0)
    assert np.array_equal(w["C"], np.full((200, 400), -0.25))
    assert abs(w["N"].mean()) < 0.001 and w["N"].std() == pytest.approx(0.02, rel=0.02)
    assert w["U"].min() >= -0.1 and w["U"].max() < 0.3
    assert w["U"].mean() == pytest.approx(0.1, abs=0.002)
    assert w["U"].std() == pytest.approx(0.4 / np.sqrt(12), rel=0.02)
    assert abs(w["H"].mean()) < 0.002 and w["H"].std() == pytest.approx(np.sqrt(2 / 400), rel=0.02)
    limit = np.sqrt(6 / (400 + 200))
    assert np.abs(w["G"]).max() <= limit
    assert w["G"].std() == pytest.approx(limit / np.sqrt(3), rel=0.02)
    # a matrix without an initialiser draws what `init glorot` draws, as it always did
    assert np.abs(w["D"]).max() <= limit and not np.array_equal(w["D"], w["G"])
    again = initial_weights(sig, seed=0)
    assert all(np.array_equal(again[n], w[n]) for n in w)
    assert not np.array_equal(initial_weights(sig, seed=1)["N"], w["N"])


def test_init_1_trains_batch_norm_with_gamma_starting_at_1(run_cli, tmp_path):
    """The issue's case: batch norm's scale written `init 1` starts at 1 (checked after
    0 iterations), and a weights file given with --init still wins over `init`."""
    (tmp_path / "bn.tf").write_text(src("""
        macro batchnorm x gamma beta -> y
          declare intvar c
          declare intvar s
          define c = sub x (batch_mean x)
          define s = sqrt (add (batch_mean (mul c c)) 1e-5)
          define y = add (mul (div c s) gamma) beta
        end

        declare input x [4]
        declare exp_output t [3]
        declare weight W [3, 4] init he
        declare weight gamma [3] init 1
        declare weight beta [3]
        declare intvar y [3]
        declare loss l
        define y = batchnorm (matmul W x) gamma beta
        define l = sum (mul (sub y t) (sub y t))
        """))
    rng = np.random.default_rng(0)
    tenflang.save_examples(str(tmp_path / "d.txt"), {"x": rng.normal(size=(20, 4)),
                                                   "t": rng.normal(size=(20, 3))})
    code, _, err = run_cli(["tfcompiler", tmp_path / "bn.tf", "-o", tmp_path / "g.tf"])
    assert code == 0, err
    assert "declare weight gamma [3] init 1" in (tmp_path / "g.tf").read_text()
    code, _, err = run_cli(["tfweightcalc", tmp_path / "g.tf", tmp_path / "d.txt",
                            "--max-iters", "0", "-o", tmp_path / "w0.txt"])
    assert code == 0, err
    start = load_weights(str(tmp_path / "w0.txt"))
    assert np.array_equal(start["gamma"], np.ones(3)) and np.array_equal(start["beta"], np.zeros(3))
    assert start["W"].std() == pytest.approx(np.sqrt(2 / 4), rel=0.5)
    code, _, err = run_cli(["tfweightcalc", tmp_path / "g.tf", tmp_path / "d.txt",
                            "--max-iters", "20", "--lr", "0.1", "-o", tmp_path / "w.txt"])
    assert code == 0, err
    assert not np.array_equal(load_weights(str(tmp_path / "w.txt"))["gamma"], np.ones(3))
    (tmp_path / "g2.txt").write_text("{gamma: [2, 2, 2]}\n")
    code, _, err = run_cli(["tfweightcalc", tmp_path / "g.tf", tmp_path / "d.txt",
                            "--max-iters", "0", "--init", tmp_path / "g2.txt",
                            "-o", tmp_path / "w2.txt"])
    assert code == 0, err
    given = load_weights(str(tmp_path / "w2.txt"))
    assert np.array_equal(given["gamma"], [2.0, 2.0, 2.0])
    assert np.array_equal(given["W"], start["W"])          # the rest start as without --init


def test_validation_split_reports_held_out_loss():
    result = train(sample_gcp("linear_regression.tf"), linear_data(),
                   TrainConfig(lr=0.1, max_iters=3, tol=0, val_fraction=0.25))
    assert result.val_loss is not None and result.val_loss > 0


# ---- command line ----------------------------------------------------------

def cli(*args, timeout=120):
    done = subprocess.run(command_line(["tfweightcalc", *map(str, args)]), capture_output=True,
                          text=True, env=cli_env(), timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def test_cli_prints_weights_and_one_summary_line(linear_gcp):
    code, out, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--tol", "1e-10",
                         "--max-iters", "5000")
    assert code == 0, err
    lines = [line for line in err.strip().splitlines() if not line.startswith("epoch ")]
    assert len(lines) == 1 and "converged" in lines[0] and "iterations" in lines[0]
    assert "w: [" in out and "b: " in out


def test_cli_same_seed_same_bytes_and_quiet(linear_gcp, tmp_path):
    args = [linear_gcp, SAMPLES_DIR / "linear_train.txt", "--optimizer", "adam", "--batch-size",
            "16", "--max-iters", "30", "--seed", "7", "--quiet"]
    first, second = cli(*args), cli(*args)
    assert first[0] == 0 and first[1] == second[1]
    assert len(first[2].strip().splitlines()) == 1
    other = cli(*args[:-2], "--seed", "8")
    assert other[1] != first[1]


def test_cli_output_file_npz_and_text(linear_gcp, tmp_path):
    for name in ("w.txt", "w.npz"):
        out = tmp_path / name
        code, stdout, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "-o", out,
                                "--max-iters", "2000", "--tol", "1e-10")
        assert code == 0 and stdout == "", err
        np.testing.assert_allclose(load_weights(str(out))["w"], [2, -1, 0.5], atol=1e-8)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.npz", "w.txt"]   # no temp files


def test_cli_init_fine_tunes_from_a_weights_file(linear_gcp, tmp_path):
    init = tmp_path / "init.txt"
    init.write_text("{w: [2, -1, 0.5], b: 0.3}\n")
    code, out, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--init", init,
                         "--tol", "1e-6")
    assert code == 0 and "0 iterations" in err and "converged" in err


@pytest.mark.parametrize("content,message", [
    ("{w: [2, -1], b: 0.3}\n", "weight 'w' has shape [2], expected [3]"),
    ("{w: [2, -1, 0.5], b: 0.3, q: 1}\n", "unexpected weight 'q'"),
    ("{w: [2, -1, 0.5], b: zz}\n", "not a number"),
])
def test_cli_bad_init_file(linear_gcp, tmp_path, content, message):
    init = tmp_path / "init.txt"
    init.write_text(content)
    code, out, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--init", init)
    assert code == 2 and message in err and "init.txt" in err
    assert "Traceback" not in err and out == ""


def test_cli_gcp_without_weights(tmp_path):
    gcp = tmp_path / "noweights.tf"
    gcp.write_text("declare input x\ndeclare loss l\ndefine l = mul x x\n")
    data = tmp_path / "d.txt"
    data.write_text("{x: 1}\n")
    code, out, err = cli(gcp, data)
    assert code == 2 and "declares no weights" in err and "noweights.tf" in err


def test_cli_data_missing_a_variable(linear_gcp, tmp_path):
    data = tmp_path / "d.txt"
    data.write_text("{x: [1, 2, 3]}\n")
    code, out, err = cli(linear_gcp, data)
    assert code == 2 and "'y'" in err and "d.txt" in err and "Traceback" not in err


def test_cli_divergence_keeps_last_finite_weights(linear_gcp, tmp_path):
    out = tmp_path / "w.txt"
    code, stdout, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--lr", "50", "-o", out)
    assert code == 1
    assert "diverged at iteration" in err and "--lr" in err and "Traceback" not in err
    weights = load_weights(str(out))
    assert all(np.all(np.isfinite(v)) for v in weights.values())


def test_cli_resumed_run_takes_the_same_steps(linear_gcp, tmp_path):
    common = [linear_gcp, SAMPLES_DIR / "linear_train.txt", "--optimizer", "adam",
              "--batch-size", "24", "--tol", "0", "--seed", "5"]
    straight = cli(*common, "--max-iters", "40")
    checkpoint = tmp_path / "ck.npz"
    first = cli(*common, "--max-iters", "17", "--checkpoint", checkpoint, "--checkpoint-every", "5")
    assert first[0] == 0 and checkpoint.exists()
    resumed = cli(*common, "--max-iters", "40", "--checkpoint", checkpoint)
    assert resumed[0] == 0 and "resuming from" in resumed[2] and "iteration 17" in resumed[2]
    assert resumed[1] == straight[1]


def test_cli_checkpoint_from_another_optimizer_is_refused(linear_gcp, tmp_path):
    checkpoint = tmp_path / "ck.npz"
    cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--max-iters", "3",
        "--checkpoint", checkpoint)
    code, _, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--optimizer", "adam",
                       "--checkpoint", checkpoint)
    assert code == 2 and "--optimizer sgd" in err


def test_cli_corrupt_checkpoint(linear_gcp, tmp_path):
    checkpoint = tmp_path / "ck.npz"
    checkpoint.write_bytes(b"not a zip file")
    code, _, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--checkpoint", checkpoint)
    assert code == 2 and "not a tfweightcalc checkpoint (not an .npz archive)" in err
    assert "pickled" not in err and checkpoint.read_bytes() == b"not a zip file"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_cli_signal_writes_checkpoint_and_weights_then_exits_1(tmp_path, signum):
    gcp = tmp_path / "mlp.gcp.tf"
    gcp.write_text(tenflang.print_program(sample_gcp("mlp_digits.tf")))
    checkpoint, out = tmp_path / "ck.npz", tmp_path / "w.npz"
    proc = subprocess.Popen(command_line([
        "tfweightcalc", gcp, SAMPLES_DIR / "digits_train.txt", "--optimizer", "adam",
        "--lr", "0.01", "--max-iters", "1000000", "--checkpoint", checkpoint,
        "--checkpoint-every", "3", "-o", out]), env=cli_env(), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not checkpoint.exists() and time.time() < deadline:
        time.sleep(0.1)
    assert checkpoint.exists()
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    assert "interrupted at iteration" in stderr and "Traceback" not in stderr
    assert stdout == ""
    weights = load_weights(str(out))
    assert weights["W1"].shape == (32, 64)
    with np.load(checkpoint) as saved:
        np.testing.assert_array_equal(saved["w:W1"], weights["W1"])


# A second signal raised at every line the first one's handler runs (and the
# functions it calls): a handler that took a lock (threading.Event.set) waited
# for ever on the lock its interrupted self held.
SECOND_SIGNAL_INSIDE_THE_HANDLER = """
import signal, sys
from tenflang.base import stopping
from tenflang.training.session import StopFlag
flag, lines, inside = StopFlag(), [], [0]

def local(frame, event, arg):
    if frame.f_code is StopFlag.handle.__code__ and event in ("call", "return"):
        inside[0] += 1 if event == "call" else -1
    elif event == "line" and inside[0]:
        lines.append(frame.f_code.co_name)
        signal.raise_signal(signal.SIG%s)
    return local

def tracer(frame, event, arg):
    if inside[0] or frame.f_code is StopFlag.handle.__code__:
        return local(frame, event, arg)
    return None

with flag.installed():
    sys.settrace(tracer)
    signal.raise_signal(signal.SIG%s)
    sys.settrace(None)
print(flag.raised, len(stopping.received), len(lines), sorted(set(lines)))
"""


@pytest.mark.parametrize("first,second", [("INT", "INT"), ("TERM", "INT"), ("INT", "HUP")])
def test_a_second_signal_inside_the_stop_handler_does_not_hang_it(first, second):
    done = subprocess.run([sys.executable, "-c", SECOND_SIGNAL_INSIDE_THE_HANDLER
                           % (second, first)], env=cli_env(), capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done.stderr
    raised, received, lines, names = done.stdout.split(" ", 3)
    assert int(raised) in (getattr(signal, "SIG" + first), getattr(signal, "SIG" + second))
    assert int(lines) >= 2 and int(received) == 1 + int(lines)     # each one noted
    assert "abandon_compiles" in names and "handle" in names


def test_signals_after_the_first_are_ignored_and_the_exit_status_stays_1():
    """Once a stop signal has arrived, the handlers restored ignore the stop
    signals: a second Ctrl-C while the weights are written or the process
    ends must not end it by the signal (exit -2/130)."""
    script = ("import os, signal, sys\n"
              "from tenflang.base import stopping\n"
              "old = stopping.install(stopping.interrupt_once)\n"
              "try:\n    signal.raise_signal(signal.SIGINT)\nexcept KeyboardInterrupt:\n"
              "    print('interrupted')\n"
              "stopping.restore(old)\n"
              "for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):\n"
              "    os.kill(os.getpid(), sig)\n"
              "print(len(stopping.received))\nsys.exit(1)\n")
    done = subprocess.run([sys.executable, "-c", script], env=cli_env(), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and done.stdout.split() == ["interrupted", "1"], done


def test_sighup_ignored_at_start_stays_ignored(linear_gcp, tmp_path):
    """As under `nohup`: a closed terminal must not stop a run started so."""
    out = tmp_path / "w.txt"
    proc = subprocess.Popen(command_line([
        "tfweightcalc", linear_gcp, SAMPLES_DIR / "linear_train.txt", "--max-iters", "100000000",
        "--tol", "0", "-o", out]), env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    assert "epoch 1/" in proc.stderr.readline()          # training runs
    proc.send_signal(signal.SIGHUP)
    time.sleep(1.0)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "interrupted at iteration" in stderr
    assert set(load_weights(str(out))) == {"w", "b"}


def test_bursts_of_signals_end_a_run_at_once_with_its_weights(tmp_path):
    """Bursts of SIGINT, SIGTERM and SIGHUP at random moments (once training
    runs): each run ends within seconds, exit 1, with -o and the checkpoint
    complete."""
    gcp = tmp_path / "mlp.gcp.tf"
    gcp.write_text(tenflang.print_program(sample_gcp("mlp_digits.tf")))
    rng = np.random.default_rng(49)
    for run in range(4):
        checkpoint, out = tmp_path / f"ck{run}.npz", tmp_path / f"w{run}.txt"
        proc = subprocess.Popen(command_line([
            "tfweightcalc", gcp, SAMPLES_DIR / "digits_train.txt", "--max-iters", "1000000",
            "--checkpoint", checkpoint, "--checkpoint-every", "2", "-o", out]), env=cli_env(),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while not checkpoint.exists() and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0, 0.3))
        signals = rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP], size=8)
        for sig, pause in zip(signals, rng.uniform(0, 0.05, size=len(signals))):
            if proc.poll() is None:
                proc.send_signal(sig)
            time.sleep(pause)
        sent = time.time()
        stdout, stderr = proc.communicate(timeout=60)
        assert time.time() - sent < 10, run
        assert proc.returncode == 1 and "Traceback" not in stderr, (run, stderr)
        assert "interrupted" in stderr and stdout == ""
        weights = load_weights(str(out))
        assert sorted(weights) == ["W1", "W2", "b1", "b2"] and weights["W1"].shape == (32, 64)
        with np.load(checkpoint) as saved:
            np.testing.assert_array_equal(saved["w:W1"], weights["W1"])


def test_cli_plot_writes_a_png(linear_gcp, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "loss.png"
    code, _, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--max-iters", "50",
                       "--plot", png)
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_plot_writes_the_format_its_extension_names(linear_gcp, tmp_path):
    """As matplotlib's savefig: a .pdf held PNG bytes once."""
    pytest.importorskip("matplotlib")
    for name, start in (("loss.pdf", b"%PDF"), ("loss.svg", b"<?xml"), ("loss", b"\x89PNG")):
        code, _, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--max-iters", "20",
                           "--plot", tmp_path / name)
        assert code == 0, err
        assert (tmp_path / name).read_bytes().startswith(start), name
    # docs/design.md §4 gives --plot a PNG: an extension matplotlib does not write gets one
    code, _, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--max-iters", "20",
                       "--plot", tmp_path / "loss.plot")
    assert code == 0, err
    assert err.startswith(f"note: --plot {tmp_path / 'loss.plot'}: matplotlib writes no '.plot' "
                          "files, so the plot is PNG (other formats: ")
    assert (tmp_path / "loss.plot").read_bytes().startswith(b"\x89PNG")


def test_cli_plot_without_matplotlib_says_how_to_install(linear_gcp, tmp_path):
    fake = tmp_path / "fake" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named matplotlib')\n")
    env = cli_env()
    env["PYTHONPATH"] = f"{fake.parent}{os.pathsep}{env['PYTHONPATH']}"
    done = subprocess.run(command_line(["tfweightcalc", linear_gcp,
                                        SAMPLES_DIR / "linear_train.txt",
                                        "--plot", tmp_path / "x.png"]),
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "tenflang[plot]" in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_cli_val_fraction_and_float32(linear_gcp):
    code, out, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--val-fraction", "0.2",
                         "--dtype", "float32", "--max-iters", "300")
    assert code == 0 and "validation loss" in err


def test_cli_gpu_without_a_gpu_is_a_clear_error(linear_gcp):
    from tenflang.interp.device import cupy_or_reason
    if cupy_or_reason()[0] is not None:
        pytest.skip("a GPU is present")
    code, out, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", "--device", "gpu")
    assert code == 2 and "--device gpu" in err and "Traceback" not in err


@pytest.mark.parametrize("var, value, expected", [
    ("TENFLANG_NUM_THREADS", "abc", "a number of threads"),
    ("TENFLANG_NUM_THREADS", "0", "a number of threads"),
    ("TENFLANG_NUM_THREADS", "²", "a number of threads"),      # a digit to str.isdigit
    ("TENFLANG_FUSE", "off", "0 (off) or 1 (on)"),
    ("TENFLANG_NATIVE", "no", "0 (off) or 1 (on)"),
    ("TENFLANG_ONEDNN", "yes", "0 (off) or 1 (on)"),
    ("TENFLANG_DEVICE", "tpu", "unknown device"),
])
def test_cli_bad_environment_values_are_named(linear_gcp, var, value, expected):
    """A value the run would read as the default is refused, naming the variable."""
    done = subprocess.run(command_line(["tfweightcalc", str(linear_gcp),
                                        str(SAMPLES_DIR / "linear_train.txt")]),
                          capture_output=True, text=True, env={**cli_env(), var: value})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert var in done.stderr and value in done.stderr and expected in done.stderr
    assert done.stdout == ""


def test_cli_a_bad_device_for_a_cluster_names_the_variable_before_starting_it(linear_gcp):
    """The workers were given it as if it were --device, after the cluster started."""
    pytest.importorskip("distributed", reason="dask.distributed is an optional dependency")
    done = subprocess.run(command_line(["tfweightcalc", str(linear_gcp),
                                        str(SAMPLES_DIR / "linear_train.txt"), "--scheduler",
                                        "local:1"]),
                          capture_output=True, text=True, timeout=120,
                          env={**cli_env(), "TENFLANG_DEVICE": "tpu"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == ("error: TENFLANG_DEVICE=tpu: unknown device; expected one "
                                   "of auto, cpu, gpu")


def test_cli_gpu_from_the_environment_names_the_variable(linear_gcp):
    from tenflang.interp.device import cupy_or_reason
    if cupy_or_reason()[0] is not None:
        pytest.skip("a GPU is present")
    done = subprocess.run(command_line(["tfweightcalc", str(linear_gcp),
                                        str(SAMPLES_DIR / "linear_train.txt")]),
                          capture_output=True, text=True,
                          env={**cli_env(), "TENFLANG_DEVICE": "gpu"})
    assert done.returncode == 2 and "TENFLANG_DEVICE=gpu" in done.stderr
    assert "--device" not in done.stderr


def test_cli_bad_option_values_are_usage_errors(linear_gcp):
    for args in (["--optimizer", "lbfgs"], ["--batch-size", "0"], ["--lr", "fast"]):
        code, _, err = cli(linear_gcp, SAMPLES_DIR / "linear_train.txt", *args)
        assert code == 2 and "Invalid value" in err


def test_training_leaves_the_callers_arrays_alone():
    init = {"w": np.array([0.5, 0.5, 0.5]), "b": np.array(0.0)}
    data = linear_data()
    before = ({k: v.copy() for k, v in init.items()}, {k: v.copy() for k, v in data.items()})
    train(sample_gcp("linear_regression.tf"), data, TrainConfig(lr=0.1, max_iters=5, tol=0),
          init=init)
    for saved, now in ((before[0], init), (before[1], data)):
        for name in saved:
            np.testing.assert_array_equal(saved[name], now[name])


def test_cli_progress_bar_on_a_terminal(linear_gcp):
    """On a terminal stderr shows a progress bar with loss and gradient norm;
    --quiet leaves only the summary line."""
    outputs = {}
    for quiet in (False, True):
        args = [linear_gcp, SAMPLES_DIR / "linear_train.txt", "--max-iters", "40", "--tol", "0"]
        code, outputs[quiet] = stderr_on_a_terminal(["tfweightcalc", *args]
                                                    + (["--quiet"] if quiet else []))
        assert code == 0
    assert "loss" in outputs[False] and "|grad|" in outputs[False] and "40/40" in outputs[False]
    assert "|grad|" not in outputs[True] and "40 iterations" in outputs[True]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_weights_finite_sees_every_nan_and_inf_on_the_host_and_the_device(dtype):
    """A sum of squares that overflows is looked at element by element (the
    weights are finite); one NaN or inf anywhere is found, host or device."""
    from support.counting_xp import CountingXP
    from tenflang.training.norms import weights_finite
    big = np.finfo(dtype).max / 2
    device = CountingXP()
    cases = [({"a": np.full((3, 4), big, dtype), "b": np.asarray(-big, dtype)}, True)]
    for bad in (np.nan, np.inf, -np.inf):
        weights = {"a": np.ones((3, 4), dtype), "b": np.zeros(5, dtype)}
        weights["b"][3] = bad
        cases.append((weights, False))
    for weights, finite in cases:
        with np.errstate(all="raise"):          # and nothing warns
            assert weights_finite(weights, np) is finite
        assert weights_finite({k: device.asarray(w) for k, w in weights.items()}, device) is finite


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_loss_and_norm_on_the_host_are_the_devices_floats(dtype):
    from support.counting_xp import CountingXP
    from tenflang.training.norms import loss_and_norm
    rng = np.random.default_rng(2)
    grads = {k: rng.standard_normal(s).astype(dtype) for k, s in (("W", (9, 7)), ("b", (9,)))}
    loss = np.asarray(rng.random() * 3, dtype)
    device = CountingXP()
    on_device = loss_and_norm(device.asarray(loss), {k: device.asarray(g) for k, g in grads.items()},
                              device)
    assert loss_and_norm(loss, grads, np) == on_device
    assert on_device[0] == float(loss) and on_device[1] == pytest.approx(
        np.sqrt(sum((g.astype(float) ** 2).sum() for g in grads.values())), rel=1e-6)


# ---------------------------------------------------------------- the float32 hint

WIDE = """declare input x [256]
declare exp_output y [400]
declare weight W [400, 256]
declare intvar d [400]
declare loss L
define d = sub (matmul W x) y
define L = dot d d
"""
FLOAT32_HINT = "add --dtype float32 to train it as PyTorch does"


def test_a_network_in_float64_by_default_gets_the_float32_hint_once(tmp_path):
    """A convolution, or 100 000 parameters or more: one note on how to run in
    float32 and what it gains; none when --dtype is given or for a small model."""
    from support.commands import run_cli_batch
    (tmp_path / "wide.tf").write_text(WIDE)
    rng = np.random.default_rng(0)
    tenflang.save_examples(str(tmp_path / "wide.npz"), {"x": rng.normal(size=(4, 256)),
                                                        "y": rng.normal(size=(4, 400))})
    lenet = [SAMPLES_DIR / "lenet_digits.tf", SAMPLES_DIR / "digit_images_train.txt"]
    common = ["--max-iters", "1", "-o", "/dev/null"]
    runs = run_cli_batch([["tenflang", "train", *lenet, *common],
                          ["tenflang", "train", tmp_path / "wide.tf", tmp_path / "wide.npz",
                           *common],
                          ["tenflang", "train", *lenet, *common, "--dtype", "float64"],
                          ["tenflang", "train", SAMPLES_DIR / "linear_regression.tf",
                           SAMPLES_DIR / "linear_train.txt", *common]])
    assert all(code == 0 for code, _, _ in runs), runs
    hints = [[line for line in err.splitlines() if FLOAT32_HINT in line] for _, _, err in runs]
    assert [len(h) for h in hints] == [1, 1, 0, 0]
    assert hints[0][0].startswith("note: a convolutional network trains in float64, the default")
    assert hints[1][0].startswith("note: a network of 102,400 parameters trains in float64")
