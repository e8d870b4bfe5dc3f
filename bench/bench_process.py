"""Whole-process benchmarks: what a user times with `time tfweightcalc …`.

    python bench/bench_process.py                 # writes bench/results.md (~10 min loaded)
    python bench/bench_process.py --quick         # small sizes, a smoke run
    python bench/bench_process.py --runs 7
    python bench/bench_process.py --only logreg   # that workload alone: results-process-logreg.md

Each workload runs as fresh processes, in interleaved pairs (tenflang's CLI,
then the hand-written numpy script of numpy_script.py doing load + train +
write, the order swapped every other pair), so that load from other processes
hits both alike.  Per process: wall time and peak resident memory (the
kernel's ru_maxrss of the child, from os.wait4).  Medians of the pairs.

* threads "default": the environment as a user has it (BLAS and the fused
  loops pick their thread counts); "1": OPENBLAS/OMP/MKL/NUMBA/TENFLANG_NUM_THREADS=1
  for both.
* data memory: peak RSS minus the peak of the same run on a 1,000-example file
  (the fixed cost of Python, imports and a JIT compiler apart; reported too).
* start-up: the wall time of that run on the 1,000-example file: start, imports,
  reading the program and the data, the steps (microseconds on 1,000
  examples) and writing the weights -- the time to the first iteration, near enough.
* per iteration (seed, logreg): (wall of 50 steps - wall of 10 steps) / 40, each a
  median (--quick: 10 and 2); "CPU per iteration" the same of CPU seconds.
* tenflang runs as this checkout's bin/ commands, the checkout on PYTHONPATH.
* CPU: user + system seconds of the process (rusage): steadier than wall time
  when other processes compete for the cores, and it counts every thread.
* text load: `tenflang.load_examples` of a 1,000,000-line file of
  {x: [4 numbers], y: number} (repr floats), whole process and in-process.
* compile: `tfcompiler` on a generated 100,000-line program (bench_compile), whole process.
* first run: the seed workload (10 steps) with an empty cache directory
  (TENFLANG_CACHE_DIR), so the fused loops and the text tokenizer are compiled,
  against the same run with the cache filled; with a C compiler, and with
  CC unset to a missing one (numba compiles instead).
* Every run but the first-run ones uses one cache directory filled beforehand,
  as a user's is after their first run.
* MLP: in-process, from run_all.py's timing (tenflang's train vs numpy), float64.
"""
from __future__ import annotations

import argparse
import os
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
from workloads import cases, make_data  # noqa: E402

PYTHON = sys.executable
TIME = "/usr/bin/time"              # GNU time: peak RSS and CPU of one command

def tool(name: str) -> list[str]:
    """A command of this checkout (bin/NAME; main() puts the checkout on PYTHONPATH)."""
    return [PYTHON, str(ROOT / "bin" / name)]
ONE_THREAD = {k: "1" for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                               "NUMBA_NUM_THREADS", "TENFLANG_NUM_THREADS")}


def as_installed(env: dict) -> dict:
    """`env` without PYTHONDONTWRITEBYTECODE: an installed package has its bytecode
    compiled, while a checkout run with it set compiles every edited module again
    in every process (0.05 s and more of a start-up)."""
    return {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}


# The development machines pin numpy's OpenBLAS to AVX2 kernels and a cache size
# (OPENBLAS_CORETYPE=Haswell, OPENBLAS_L2_SIZE); a user's machine does not set them,
# so the benchmarks' children run without them (and report the kernel that ran).
MACHINE_SETTINGS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def as_users(env: dict) -> dict:
    """`env` without the development machines' OpenBLAS settings (MACHINE_SETTINGS)."""
    return {k: v for k, v in env.items() if k not in MACHINE_SETTINGS}


def run_process(cmd: list[str], env: dict) -> tuple[float, float, float]:
    """(wall seconds, peak RSS MiB, CPU seconds: user + system) of one process,
    in `as_installed(env)`; raises when it fails.  It runs under /usr/bin/time,
    whose small process is the one forked: Linux carries a parent's peak RSS into
    a forked child's ru_maxrss, so forking this (large) process would report its
    peak instead."""
    with tempfile.NamedTemporaryFile("r") as usage, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        done = subprocess.run([TIME, "-f", "%M %U %S", "-o", usage.name, *cmd],
                              env=as_installed(env),
                              stdout=subprocess.DEVNULL, stderr=err)
        wall = time.perf_counter() - start
        if done.returncode:
            err.seek(0)
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{err.read().decode()[-2000:]}")
        peak_kib, user, system = usage.read().split()[-3:]
    return wall, int(peak_kib) / 1024, float(user) + float(system)


def pairs(commands: dict[str, list[str]], env: dict, runs: int) -> dict[str, list]:
    """Each command `runs` times, interleaved, order swapped every other round,
    after one run each that is not counted (it fills the cache, warms the disk)."""
    out = {name: [] for name in commands}
    names = list(commands)
    for name in names:
        run_process(commands[name], env)
    for i in range(runs):
        for name in names if i % 2 == 0 else names[::-1]:
            out[name].append(run_process(commands[name], env))
    return out


def median(samples: list, k: int) -> float:
    return statistics.median(s[k] for s in samples)


def prepare(workdir: Path, quick: bool, only: str | None = None) -> dict:
    """Data files (.npz, a 1,000-example .npz, text) and GCPs for the workloads
    (`only`: that workload's, and no text or big program)."""
    from tenflang import compile_gradient, parse
    from tenflang.lang import print_program
    files = {}
    for case in cases(quick):
        if case.key not in ((only,) if only else ("scalar", "logreg")):
            continue
        data = make_data(case)
        np.savez(workdir / f"{case.key}.npz", **data)
        np.savez(workdir / f"{case.key}-small.npz", **{k: v[:1000] for k, v in data.items()})
        (workdir / f"{case.key}.gcp.tf").write_text(print_program(compile_gradient(parse(case.program))))
        files[case.key] = case
    if only:
        return files
    rng = np.random.default_rng(0)
    lines = 20_000 if quick else 1_000_000
    x, y = rng.standard_normal((lines, 4)).tolist(), rng.standard_normal(lines).tolist()
    with open(workdir / "text.txt", "w") as f:
        f.writelines(f"{{x: [{a!r}, {b!r}, {c!r}, {d!r}], y: {e!r}}}\n" for (a, b, c, d), e in zip(x, y))
    from bench_compile import generate
    (workdir / "big.tf").write_text(generate(2_000 if quick else 100_000))
    return files


def train_commands(workdir: Path, case, data: str, iters: int) -> dict[str, list[str]]:
    return {
        "tenflang": [*tool("tfweightcalc"), str(workdir / f"{case.key}.gcp.tf"), data,
                     "-o", str(workdir / "w-tenflang.txt"), "--max-iters", str(iters),
                     "--lr", str(case.lr), "--tol", "0", "--quiet"],
        "numpy": [PYTHON, str(HERE / "numpy_script.py"), case.key, data, str(iters),
                  str(workdir / "w-numpy.txt"), "quick" if case.n < 100_000 else ""],
    }


def train_rows(workdir: Path, case, env: dict, runs: int) -> dict:
    """Wall and peak per implementation: full data, small data, and (scalar) 10 steps."""
    full = pairs(train_commands(workdir, case, str(workdir / f"{case.key}.npz"), case.iters),
                 env, runs)
    small = pairs(train_commands(workdir, case, str(workdir / f"{case.key}-small.npz"),
                                 case.iters), env, max(3, runs // 2))
    rows = {}
    for impl in full:
        rows[impl] = {"wall": median(full[impl], 0), "peak": median(full[impl], 1),
                      "cpu": median(full[impl], 2),
                      "fixed": median(small[impl], 1), "startup": median(small[impl], 0),
                      "runs": len(full[impl])}
        rows[impl]["data"] = rows[impl]["peak"] - rows[impl]["fixed"]
    if case.key in ("scalar", "logreg"):
        few = case.iters // 5
        short = pairs(train_commands(workdir, case, str(workdir / f"{case.key}.npz"), few),
                      env, runs)
        for impl in short:
            for key, k in (("per_iter", 0), ("cpu_per_iter", 2)):
                rows[impl][key] = (median(full[impl], k) - median(short[impl], k)) / (case.iters - few)
    return rows


def text_load(workdir: Path, env: dict, runs: int) -> dict:
    path, out = str(workdir / "text.txt"), str(workdir / "load-seconds.txt")
    code = ("import sys, time, tenflang; t = time.perf_counter(); "
            "tenflang.load_examples(sys.argv[1]); open(sys.argv[2], 'w').write(str(time.perf_counter() - t))")
    samples, inner = [], []
    run_process([PYTHON, "-c", code, path, out], env)      # not counted: compiles the tokenizer
    for _ in range(runs):
        samples.append(run_process([PYTHON, "-c", code, path, out], env))
        inner.append(float(Path(out).read_text()))
    return {"wall": median(samples, 0), "peak": median(samples, 1), "cpu": median(samples, 2),
            "inner": statistics.median(inner), "runs": runs}


def first_run(workdir: Path, env: dict, runs: int) -> dict:
    """Wall seconds of a run that compiles its loops (fresh cache) and of one that
    loads them, per engine (C, and numba where CC names no compiler)."""
    case = next(c for c in cases(False) if c.key == "scalar")
    cmd = train_commands(workdir, case, str(workdir / "scalar.npz"), 10)["tenflang"]
    out = {}
    for engine, extra in (("C", {}), ("numba", {"CC": "no-such-compiler"})):
        cold, warm = [], []
        for k in range(runs):
            fresh = str(workdir / f"cache-{engine}-{k}")
            cold.append(run_process(cmd, {**env, **extra, "TENFLANG_CACHE_DIR": fresh})[0])
            warm.append(run_process(cmd, {**env, **extra, "TENFLANG_CACHE_DIR": fresh})[0])
        out[engine] = {"cold": statistics.median(cold), "warm": statistics.median(warm)}
    return out


def compile_time(workdir: Path, env: dict, runs: int) -> dict:
    cmd = [*tool("tfcompiler"), str(workdir / "big.tf"), "-o", str(workdir / "big.gcp.tf")]
    samples = [run_process(cmd, env) for _ in range(runs)]
    return {"wall": median(samples, 0), "peak": median(samples, 1), "cpu": median(samples, 2),
            "runs": runs}


MLP_CHILD = """
import json, statistics, sys
sys.argv = ["run_all", "--threads", sys.argv[1]]
sys.path.insert(0, {here!r})
import run_all, workloads
out = {{}}
for case in workloads.cases({quick}):
    if case.model == "mlp":
        result = run_all.time_case(case, "float64", ["tenflang", "numpy"], {repeats})
        out[case.key] = {{impl: statistics.median(r["times"]) for impl, r in result.items()}}
print(json.dumps(out))
"""


def mlp_rows(quick: bool, repeats: int, threads: str) -> dict:
    """In-process epoch times of tenflang and numpy (run_all.py's measurement, in
    a child so that its thread settings apply before numpy loads)."""
    import json
    code = MLP_CHILD.format(here=str(HERE), quick=quick, repeats=repeats)
    out = subprocess.run([PYTHON, "-c", code, threads], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------- report

def frac(a: float, b: float) -> float:
    return a / b if b > 0 else float("nan")


def ratio(a: float, b: float) -> str:
    return f"{frac(a, b):.2f}×"


def train_table(title: str, rows_by_threads: dict) -> list[str]:
    lines = [f"### {title}", "",
             "| threads | implementation | wall | × numpy | CPU | × numpy | peak RSS MiB | data MiB "
             "| × numpy | fixed MiB | start-up | per iteration | × numpy | CPU per iteration | × numpy "
             "| runs |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for threads, rows in rows_by_threads.items():
        ref = rows["numpy"]
        for impl, r in rows.items():
            per = " | ".join(f"{r[k] * 1e3:.1f} ms | {ratio(r[k], ref[k])}" if k in r else "- | -"
                             for k in ("per_iter", "cpu_per_iter"))
            lines.append(f"| {threads} | {impl} | {r['wall']:.2f} s | {ratio(r['wall'], ref['wall'])} | "
                         f"{r['cpu']:.2f} s | {ratio(r['cpu'], ref['cpu'])} | "
                         f"{r['peak']:.0f} | {r['data']:.0f} | {ratio(r['data'], ref['data'])} | "
                         f"{r['fixed']:.0f} | {r['startup']:.2f} s | {per} | {r['runs']} |")
    return lines + [""]


def target_rows(results: dict) -> list[tuple[str, str, str, bool]]:
    rows = []
    for threads, by_case in results["train"].items():
        lg, sc = by_case.get("logreg"), by_case.get("scalar")
        if lg:
            w = lg["tenflang"]["wall"] / lg["numpy"]["wall"]
            m = frac(lg["tenflang"]["data"], lg["numpy"]["data"])
            cpu = lg["tenflang"]["cpu"] / lg["numpy"]["cpu"]
            it = frac(lg["tenflang"]["per_iter"], lg["numpy"]["per_iter"])
            it_cpu = frac(lg["tenflang"]["cpu_per_iter"], lg["numpy"]["cpu_per_iter"])
            rows.append((f"logreg whole process, threads {threads}",
                         "≤ 0.9× wall, per iteration ≤ 0.7×, data memory ≤ 1.1×",
                         f"{w:.2f}× wall ({cpu:.2f}× CPU), {it:.2f}× per iteration "
                         f"({it_cpu:.2f}× CPU), {m:.2f}× data memory",
                         w <= 0.9 and it <= 0.7 and m <= 1.1))
        if sc:
            w = sc["tenflang"]["wall"] / sc["numpy"]["wall"]
            it = sc["tenflang"]["per_iter"] / sc["numpy"]["per_iter"]
            cpu = sc["tenflang"]["cpu"] / sc["numpy"]["cpu"]
            rows.append((f"seed 1M whole process, threads {threads}", "≤ 1.0× wall, per iteration ≤ 0.6×",
                         f"{w:.2f}× wall ({cpu:.2f}× CPU), {it:.2f}× per iteration",
                         w <= 1.0 and it <= 0.6))
    for threads, mlp in results["mlp"].items():
        for key, r in mlp.items():
            x = r["tenflang"] / r["numpy"]
            rows.append((f"{key} in-process, threads {threads}", "≤ 1.0× numpy", f"{x:.2f}×", x <= 1.0))
    if "text" not in results:        # --only
        return rows
    t = results["text"]
    rows.append(("1M-line text data, load", "≤ 1.5 s",
                 f"{t['wall']:.2f} s whole process, {t['cpu']:.2f} s CPU ({t['inner']:.2f} s "
                 "in-process)", t["wall"] <= 1.5))
    c = results["compile"]
    rows.append(("100,000-line program, compile", "< 5 s",
                 f"{c['wall']:.2f} s whole process, {c['cpu']:.2f} s CPU", c["wall"] < 5))
    return rows


def report(results: dict, argv: list[str], started: float) -> str:
    load = os.getloadavg()
    lines = ["# TenFlang performance: whole processes", "",
             f"Command: `python bench/bench_process.py {' '.join(argv)}`".replace(" `", " `", 1),
             f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
             f"{(time.time() - started) / 60:.1f} min; {os.cpu_count()} CPUs; load average at the "
             f"end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (a shared machine: other processes "
             "run; every figure is a median of interleaved runs)", "",
             "How it is measured: see the docstring of bench/bench_process.py.  In-process tables "
             "(per-iteration compute with the data loaded, PyTorch and JAX beside): "
             "bench/results_inprocess.md (`python bench/run_all.py`).", "",
             "## Targets", "", "| target | goal | measured | met? |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {'yes' if d else '**no**'} |" for a, b, c, d in target_rows(results)]
    lines += ["", "## Training, whole process (`tfweightcalc GCP DATA.npz -o W.txt` vs "
              "`python bench/numpy_script.py`)", ""]
    for key in ("scalar", "logreg"):
        by_threads = {t: r[key] for t, r in results["train"].items() if key in r}
        if by_threads:
            lines += train_table(results["titles"][key], by_threads)
    if "text" not in results:        # --only
        return "\n".join(lines)
    lines += ["## MLP 64-128-10, one epoch, in-process (float64)", "",
              "| threads | case | tenflang | numpy | × numpy |", "|---|---|---:|---:|---:|"]
    for threads, mlp in results["mlp"].items():
        for key, r in mlp.items():
            lines.append(f"| {threads} | {key} | {r['tenflang'] * 1e3:.0f} ms | "
                         f"{r['numpy'] * 1e3:.0f} ms | {ratio(r['tenflang'], r['numpy'])} |")
    t, c = results["text"], results["compile"]
    lines += ["", "## First run: compiling the fused loops (seed workload, 10 steps)", "",
              "| engine | empty cache | cache filled | first-run cost |", "|---|---:|---:|---:|"]
    for engine, r in results["first"].items():
        lines.append(f"| {engine} | {r['cold']:.2f} s | {r['warm']:.2f} s | "
                     f"{r['cold'] - r['warm']:.2f} s |")
    lines += ["", "## Loading and compiling", "",
              f"* text data, {results['text_lines']:,} lines of `{{x: [4 numbers], y: number}}`: "
              f"{t['wall']:.2f} s whole process, {t['cpu']:.2f} s CPU, peak {t['peak']:.0f} MiB "
              f"(`python -c 'import tenflang; tenflang.load_examples(...)'`), {t['inner']:.2f} s "
              f"of it in `load_examples`; median of {t['runs']}.",
              f"* `tfcompiler` on a {results['compile_lines']:,}-line program: {c['wall']:.2f} s "
              f"({c['cpu']:.2f} s CPU), "
              f"peak {c['peak']:.0f} MiB; median of {c['runs']}.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=5, help="interleaved pairs per workload")
    parser.add_argument("--only", choices=["scalar", "logreg"],
                        help="train this workload alone, nothing else (a partial report)")
    parser.add_argument("--out", help="default bench/results.md (--quick: results-process-quick.md; "
                                      "--only KEY: results-process-KEY.md)")
    args = parser.parse_args(argv)
    args.out = args.out or str(HERE / ("results-process-quick.md" if args.quick else
                                       f"results-process-{args.only}.md" if args.only else
                                       "results.md"))
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        base = {**os.environ, "TENFLANG_CACHE_DIR": str(workdir / "cache"), "PYTHONPATH": path}
        envs = {"default": base, "1": {**base, **ONE_THREAD}}
        cases_ = prepare(workdir, args.quick, args.only)
        results = {"train": {}, "mlp": {}, "titles": {k: c.title for k, c in cases_.items()},
                   "text_lines": 20_000 if args.quick else 1_000_000,
                   "compile_lines": 2_000 if args.quick else 100_000}
        for threads, env in envs.items():
            results["train"][threads] = {key: train_rows(workdir, case, env, args.runs)
                                         for key, case in cases_.items()}
            print(f"training, threads {threads}: done", file=sys.stderr)
        if not args.only:
            results["text"] = text_load(workdir, base, args.runs)
            results["compile"] = compile_time(workdir, base, max(3, args.runs // 2))
            results["first"] = first_run(workdir, base, 3)
    for threads in envs if not args.only else ():
        results["mlp"][threads] = mlp_rows(args.quick, args.runs, "2" if threads == "default" else "1")
    text = report(results, argv, started)
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
