#!/usr/bin/env python3
"""Long loops: samples/charlm.tf's character GRU over windows of T characters,
whole `tfcompiler` and `tfweightcalc` processes against PyTorch's `nn.GRU` eager.

    python bench/bench_loops.py                          # T = 16 256 4096: bench/results_loops.md
    python bench/bench_loops.py --quick --runs 1         # T = 16 and 256, a smoke run
    python bench/bench_loops.py --compile-flags=--unroll --windows 256 --out /tmp/unroll.md

The program of window T is samples/charlm.tf's text with its window constants
replaced (`declare input chars [T+1]`, `slice chars 0 T`, `index chars T`):
alphabet 32, embedding 16, a GRU of 64 units folded over T embeddings, the
last state predicting character T.  Data: 1,024 random windows (`chars`,
indices 0..31 stored as floats, one .npz per window).  Both sides: Adam,
lr 0.01, batches of 64, float32 and float64, default threads and one thread
(OPENBLAS/OMP/MKL/NUMBA/TENFLANG_NUM_THREADS=1).

Measured, each a fresh process under /usr/bin/time (wall, peak RSS, CPU), in
an environment without the development machines' OpenBLAS settings
(bench_process.as_users), this checkout on PYTHONPATH:

* compile: `bin/tfcompiler PROGRAM -o GCP` plus `--compile-flags`, once per
  window (default threads), median of --runs; and the GCP's line count.
* per step, in-process: the same difference of the seconds each process
  reports for its training loop (tfweightcalc's "s training", loops_torch's
  "loop … s"): no interpreter start or imports, so PyTorch's seconds-long
  import does not drown its milliseconds-long steps.  The per-step target
  is judged on these; the whole-process figure is beside them.
* per step, whole process: (median wall of the long run − median wall of the short run) /
  (long − short steps) (--steps; default 3 and 3 + max(10, 4096 // T): 259
  at T = 16, 19 at 256, 13 at 4096), tenflang and PyTorch
  (bench/loops_torch.py) in interleaved rounds, order swapped every other
  round, after one uncounted round that fills the loop cache; start-up:
  the short run's median wall minus its steps.  Peak RSS: the long run's.
* cold start-up: one short tenflang run with an empty TENFLANG_CACHE_DIR
  (its fused loops compiled again), minus its steps.
* A process that fails is recorded, not raised: "refused: <first line of
  stderr>" (the last line of a traceback; warnings skipped), "timed out"
  after --timeout seconds (its process group killed), or "killed by signal N"
  (--memory-limit, an address-space limit per process, guards the machine
  against an unrolled T = 4096).
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]
from bench_process import ONE_THREAD, TIME, as_installed, as_users  # noqa: E402

EXAMPLES, BATCH, LR = 1024, 64, 0.01
TARGETS = "start-up ≤ 1 s warm and ≤ 3 s cold; peak RSS ≤ PyTorch's; per step ≤ 1.0× PyTorch; " \
          "compile time independent of the window"


def window_program(window: int) -> str:
    """samples/charlm.tf with its 16-character window made `window` characters."""
    text = (ROOT / "samples" / "charlm.tf").read_text()
    swaps = [(r"declare input chars \[17\]", f"declare input chars [{window + 1}]"),
             (r"slice chars 0 16\)", f"slice chars 0 {window})"),
             (r"index chars 16\)", f"index chars {window})")]
    for pattern, new in swaps:
        text, count = re.subn(pattern, new, text)
        if count != 1:
            raise SystemExit(f"samples/charlm.tf: expected one `{pattern}`, found {count}")
    return text


def prepare(workdir: Path, window: int) -> None:
    (workdir / f"charlm-{window}.tf").write_text(window_program(window))
    rng = np.random.default_rng(window)
    chars = rng.integers(0, 32, (EXAMPLES, window + 1)).astype(np.float64)
    np.savez(workdir / f"data-{window}.npz", chars=chars)


def limit_memory(gib: float | None):
    """A preexec_fn: its own session (so a timeout kills the whole group) and,
    with `gib`, an address-space limit the command's children inherit."""
    def setup():
        os.setsid()
        if gib:
            size = int(gib * 2 ** 30)
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return setup


def reason(stderr: str) -> str:
    """The line of a failed process's stderr that says why."""
    lines = [s.strip() for s in stderr.splitlines() if s.strip()]
    lines = [s for s in lines if not s.lower().startswith("warning")] or ["(no stderr)"]
    said = [s for s in lines if s.startswith("Error:")]       # click's usage errors
    if said:
        return said[0]
    last_is_error = re.match(r"\w+(Error|Exception|Exit)\b", lines[-1])
    return lines[-1] if lines[0].startswith("Traceback") or last_is_error else lines[0]


def run(cmd: list[str], env: dict, opts) -> dict:
    """{wall, peak (MiB), cpu, loop: the training loop's seconds it reports} of
    one process, or {error}: it never raises."""
    with tempfile.NamedTemporaryFile("r") as usage, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([TIME, "-f", "%M %U %S", "-o", usage.name, *cmd],
                                env=as_installed(env), stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=limit_memory(opts.memory_limit))
        try:
            code = proc.wait(timeout=opts.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)      # the group this run started, nothing else
            proc.wait()
            return {"error": f"timed out ({opts.timeout:.0f} s)"}
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read().decode(errors="replace")
        usage_text = usage.read()          # GNU time writes "terminated by signal N" here
    if code:
        signalled = re.search(r"terminated by signal (\d+)", usage_text)
        return {"error": f"killed by signal {signalled.group(1)}" if signalled
                else f"refused: {reason(stderr)}"}
    fields = usage_text.split()
    loop = LOOP_SECONDS.search(stderr)
    return {"wall": wall, "peak": int(fields[-3]) / 1024, "cpu": float(fields[-2]) + float(fields[-1]),
            "loop": float(loop.group(1) or loop.group(2)) if loop else "no loop time reported"}


# what the two sides print of their training loop's seconds
LOOP_SECONDS = re.compile(r"([0-9.]+) s training|^loop ([0-9.]+) s$", re.MULTILINE)


def environment(threads: str, cache: Path) -> dict:
    env = {**as_users(os.environ), "TENFLANG_CACHE_DIR": str(cache),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return {**env, **ONE_THREAD} if threads == "1" else env


def median_of(samples: list[dict], key: str):
    """The median of `key`, or the first sample's error."""
    bad = [s["error"] for s in samples if "error" in s]
    return bad[0] if bad else statistics.median(s[key] for s in samples)


def compile_window(workdir: Path, window: int, env: dict, opts) -> dict:
    gcp = workdir / f"charlm-{window}.gcp.tf"
    cmd = [sys.executable, str(ROOT / "bin" / "tfcompiler"), str(workdir / f"charlm-{window}.tf"),
           "-o", str(gcp), *shlex.split(opts.compile_flags)]
    samples = []
    for _ in range(opts.runs):
        samples.append(run(cmd, env, opts))
        if "error" in samples[-1]:
            break
    wall = median_of(samples, "wall")
    lines = wall if isinstance(wall, str) else sum(1 for _ in gcp.open())
    return {"wall": wall, "lines": lines, "peak": median_of(samples, "peak")}


def commands(workdir: Path, window: int, dtype: str, steps: int, opts) -> dict:
    w, data = str(workdir), str(workdir / f"data-{window}.npz")
    return {
        "tenflang": [sys.executable, str(ROOT / "bin" / "tfweightcalc"),
                     f"{w}/charlm-{window}.gcp.tf", data, "--optimizer", "adam", "--lr", str(LR),
                     "--batch-size", str(BATCH), "--max-iters", str(steps), "--tol", "0",
                     "--dtype", dtype, "-o", f"{w}/w-tenflang.npz"],
        "torch": [opts.torch_python, str(HERE / "loops_torch.py"), dtype, str(steps), data,
                  f"{w}/w-torch.npz"],
    }


def rounds(cmds: dict, env: dict, opts, out: dict) -> None:
    """Each command --runs times into out[name], the order swapped every other round."""
    names = list(cmds)
    for i in range(opts.runs):
        for name in names if i % 2 == 0 else names[::-1]:
            out.setdefault(name, []).append(run(cmds[name], env, opts))


def figures(short: list[dict], long: list[dict], steps: tuple[int, int]) -> dict:
    """Per step (s), start-up (s), peak RSS of the long run (MiB), or their errors."""
    a, b = median_of(short, "wall"), median_of(long, "wall")
    if isinstance(a, str) or isinstance(b, str):
        error = a if isinstance(a, str) else b
        return {"step": error, "startup": error, "peak": error, "in": error}
    step = (b - a) / (steps[1] - steps[0])
    inner = [median_of(short, "loop"), median_of(long, "loop")]
    in_process = inner[0] if isinstance(inner[0], str) else inner[1] if isinstance(inner[1], str) \
        else (inner[1] - inner[0]) / (steps[1] - steps[0])
    return {"step": step, "startup": a - steps[0] * step, "peak": median_of(long, "peak"),
            "in": in_process}


def run_lengths(window: int, opts) -> tuple[int, int]:
    """--steps, else 3 and 3 + max(10, 4096 // T): a short window's steps are
    milliseconds, and ten of them would drown in the start-up's noise."""
    return tuple(opts.steps) if opts.steps else (3, 3 + max(10, 4096 // window))


def measure(workdir: Path, window: int, dtype: str, threads: str, opts) -> dict:
    env = environment(threads, workdir / "cache")
    short, long = steps = run_lengths(window, opts)
    cmds_short = commands(workdir, window, dtype, short, opts)
    cmds_long = commands(workdir, window, dtype, long, opts)
    for cmd in cmds_short.values():               # not counted: fills the loop cache
        run(cmd, env, opts)
    samples_short, samples_long = {}, {}
    rounds(cmds_short, env, opts, samples_short)
    rounds(cmds_long, env, opts, samples_long)
    rows = {name: figures(samples_short[name], samples_long[name], steps) for name in cmds_short}
    cold = run(cmds_short["tenflang"], environment(threads, workdir / f"cold-{dtype}-{threads}"), opts)
    step = rows["tenflang"]["step"]
    rows["tenflang"]["cold"] = cold.get("error") or (
        step if isinstance(step, str) else cold["wall"] - short * step)
    return rows


def blas_kernels(opts) -> list[str]:
    """numpy's BLAS as threadpoolctl sees it in a child (the benchmark's environment),
    and PyTorch's version and BLAS from torch.__config__."""
    probe = ("import numpy, threadpoolctl; print('; '.join(f\"{i['internal_api']} "
             "{i.get('version')} {i.get('architecture')} ({i['num_threads']} threads)\" "
             "for i in threadpoolctl.threadpool_info()))")
    torch_probe = ("import torch, re; blas = re.findall(r'BLAS_INFO=(\\w+)', torch.__config__.show()); "
                   "print('%s, BLAS %s (%d threads)' % (torch.__version__, (blas or ['?'])[0], "
                   "torch.get_num_threads()))")
    env = as_installed(environment("default", Path(tempfile.gettempdir())))
    out = []
    for python, code in ((sys.executable, probe), (opts.torch_python, torch_probe)):
        done = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True)
        out.append(done.stdout.strip() or reason(done.stderr))
    return out


def fmt(value, spec: str, scale: float = 1.0) -> str:
    return value if isinstance(value, str) else format(value * scale if scale != 1 else value, spec)


def quotient(a, b) -> str:
    if isinstance(a, str) or isinstance(b, str) or b <= 0:
        return "–"
    return f"{a / b:.2f}"


def row(window, dtype, threads, load, comp, r) -> str:
    tf, pt = r["tenflang"], r["torch"]
    return (f"| {window} | {dtype} | {threads} | {load:.1f} | {fmt(comp['wall'], '.2f')} "
            f"| {fmt(comp['lines'], ',')} | {fmt(tf['startup'], '.2f')} | {fmt(tf['cold'], '.2f')} "
            f"| {fmt(tf['in'], '.2f', 1e3)} | {fmt(pt['in'], '.2f', 1e3)} "
            f"| {quotient(tf['in'], pt['in'])} "
            f"| {fmt(tf['step'], '.2f', 1e3)} | {fmt(pt['step'], '.2f', 1e3)} "
            f"| {quotient(tf['step'], pt['step'])} | {fmt(pt['startup'], '.2f')} "
            f"| {fmt(tf['peak'], '.0f')} | {fmt(pt['peak'], '.0f')} | {quotient(tf['peak'], pt['peak'])} |")


HEADER = ["| T | dtype | threads | load | compile s | GCP lines | TF start-up warm s "
          "| TF start-up cold s | TF ms/step in-process | PyTorch ms/step in-process "
          "| ÷ PyTorch in-process | TF ms/step whole process | PyTorch ms/step whole process "
          "| ÷ PyTorch whole process | PyTorch start-up s "
          "| TF peak MiB | PyTorch peak MiB | RSS ÷ PyTorch |",
          "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]


def targets(results: list) -> list[str]:
    """Each target against the rows that have its figures: met / not met, as measured."""
    def check(name, ok):
        verdicts = [ok(r) for r in results]
        verdicts = [v for v in verdicts if v is not None]
        if not verdicts:
            return f"* {name}: no figures"
        return f"* {name}: met in {sum(verdicts)} of {len(verdicts)} rows"

    def num(*xs):
        return all(not isinstance(x, str) for x in xs)
    tf = lambda r: r[5]["tenflang"]                      # noqa: E731
    pt = lambda r: r[5]["torch"]                         # noqa: E731
    walls = {r[0]: r[4]["wall"] for r in results if num(r[4]["wall"])}
    spread = f"{min(walls.values()):.2f}–{max(walls.values()):.2f} s over T = " \
             f"{', '.join(map(str, walls))}" if walls else "no figures"
    return [check("start-up ≤ 1 s warm",
                  lambda r: tf(r)["startup"] <= 1 if num(tf(r)["startup"]) else None),
            check("start-up ≤ 3 s cold", lambda r: tf(r)["cold"] <= 3 if num(tf(r)["cold"]) else None),
            check("peak RSS ≤ PyTorch's", lambda r: tf(r)["peak"] <= pt(r)["peak"]
                  if num(tf(r)["peak"], pt(r)["peak"]) else None),
            check("per step ≤ 1.0× PyTorch (in-process)", lambda r: tf(r)["in"] <= pt(r)["in"]
                  if num(tf(r)["in"], pt(r)["in"]) else None),
            f"* compile time independent of the window: {spread}"]


def report(results: list, opts, argv: list[str], started: float, kernels: list[str]) -> str:
    load = os.getloadavg()
    flags = opts.compile_flags or "none"
    lines = ["# Long loops: the character GRU over T characters, tenflang vs PyTorch nn.GRU", "",
             f"Command: `python bench/bench_loops.py {' '.join(argv)}`", "",
             f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}; "
             f"{(time.time() - started) / 60:.1f} min; {os.cpu_count()} CPUs, shared (load: the "
             f"1-minute load average when the row started; at the end {load[0]:.1f} {load[1]:.1f} "
             f"{load[2]:.1f}); tfcompiler flags: {flags}; run lengths (steps of batch {BATCH}) "
             f"{', '.join(f'T={w}: {run_lengths(w, opts)}' for w in opts.windows)}, "
             f"Adam lr {LR}; medians of {opts.runs} "
             "interleaved pair(s).", "",
             f"BLAS: numpy {kernels[0]}; PyTorch {kernels[1]}.", "",
             "How it is measured: the docstring of bench/bench_loops.py.  TF = `tfweightcalc` "
             "(compile: `tfcompiler`, once per window, default threads).", "",
             *HEADER, *(row(*r) for r in results), "", f"Targets ({TARGETS}):", "",
             *targets(results), ""]
    return "\n".join(lines)


def failed(error: str) -> dict:
    """The rows of a window whose compile failed: its error in every tenflang figure."""
    return {"tenflang": dict.fromkeys(("step", "startup", "peak", "cold"), error),
            "torch": dict.fromkeys(("step", "startup", "peak"), "not run")}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--windows", type=int, nargs="+", default=[16, 256, 4096])
    p.add_argument("--quick", action="store_true", help="--windows 16 256")
    p.add_argument("--runs", type=int, default=3, help="interleaved pairs (median)")
    p.add_argument("--dtypes", nargs="+", default=["float32", "float64"],
                   choices=["float32", "float64"])
    p.add_argument("--threads", nargs="+", default=["default", "1"], choices=["default", "1"])
    p.add_argument("--steps", type=int, nargs=2, metavar=("SHORT", "LONG"),
                   help="the two run lengths (default: 3 and 3 + max(10, 4096 // T))")
    p.add_argument("--compile-flags", default="", help="extra tfcompiler flags, e.g. --unroll")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per process")
    p.add_argument("--memory-limit", type=float, default=12.0, metavar="GIB",
                   help="address-space limit per process (0: none)")
    p.add_argument("--torch-python", default=sys.executable,
                   help="the Python that runs loops_torch.py (default this one)")
    p.add_argument("--out", default=str(HERE / "results_loops.md"))
    args = p.parse_args(argv)
    if args.quick:
        args.windows = [16, 256]
    if args.steps and args.steps[1] <= args.steps[0]:
        p.error("--steps: LONG must exceed SHORT")
    return args


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    opts = parse_args(argv)
    started, results = time.time(), []
    kernels = blas_kernels(opts)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for window in opts.windows:
            prepare(workdir, window)
            comp = compile_window(workdir, window, environment("default", workdir / "cache"), opts)
            print(f"T={window}: compile {fmt(comp['wall'], '.2f')} s", file=sys.stderr, flush=True)
            for dtype in opts.dtypes:
                for threads in opts.threads:
                    load = os.getloadavg()[0]
                    rows = failed(comp["wall"]) if isinstance(comp["wall"], str) else \
                        measure(workdir, window, dtype, threads, opts)
                    results.append((window, dtype, threads, load, comp, rows))
                    print(row(*results[-1]), flush=True)
                    # after every row: a run stopped early keeps what it measured
                    Path(opts.out).write_text(report(results, opts, argv, started, kernels))
    text = report(results, opts, argv, started, kernels)
    Path(opts.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
