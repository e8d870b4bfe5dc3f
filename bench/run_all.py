"""TenFlang performance suite: tenflang against hand-written numpy, PyTorch
eager, JAX jit and the original design's literal interpreter, same math, same process.

    python bench/run_all.py                  # full sizes, 5 timed runs each
    python bench/run_all.py --quick          # small sizes: a smoke run
    python bench/run_all.py --repeats 7 --out /tmp/results.md
    python bench/run_all.py --profile logreg # cProfile of tenflang's train loop

Prints the tables and writes them, with the machine and the targets, to
bench/results_inprocess.md (`--out`; bench_process.py writes the whole-process bench/results.md).  See bench/README.md for what each column means.
Exit status 1 when tenflang's final weights disagree with numpy's.
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import json
import os
import platform
import pstats
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (str(HERE), str(ROOT)):
    if path not in sys.path:
        sys.path.insert(0, path)


def _threads_from_argv(argv) -> str:
    for i, arg in enumerate(argv):
        if arg == "--threads" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--threads="):
            return arg.split("=", 1)[1]
    return "1"


# Thread counts must be fixed before numpy (OpenBLAS), torch (OpenMP, MKL) and
# jax (XLA) start their pools: every implementation gets the same number.
THREADS = _threads_from_argv(sys.argv[1:])
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = THREADS
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen="
                           + ("false" if THREADS == "1" else "true")
                           + f" intra_op_parallelism_threads={THREADS}").strip()

import numpy as np  # noqa: E402

import workloads  # noqa: E402
from references import IMPLEMENTATIONS, available, blas_threads, setup  # noqa: E402

DTYPES = ("float64", "float32")
# Agreement asserted between tenflang's and numpy's final weights (max abs
# difference over the largest weight), and reported for the other references.
AGREE = {"float64": 1e-8, "float32": 1e-2}
MEMORY_STEPS = {"full": 3, "batch": 20}     # optimizer steps a memory probe takes
MiB = 1024 * 1024


# --- measuring ------------------------------------------------------------------

def rss_kib(field: str = "VmRSS") -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def reset_peak() -> bool:
    """Reset the kernel's resident high-water mark (VmHWM) to the current RSS."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def memory_child(key: str, impl: str, dtype: str, quick: bool) -> dict:
    """Run in a fresh process: the peak resident memory of a short training run
    of `impl` on case `key`, above the process after its imports."""
    case = next(c for c in workloads.cases(quick) if c.key == key)
    if impl == "torch":
        import torch
        (torch.ones(8) + 1).sum()              # lazy library initialisation, not the run's
    elif impl == "jax":
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)
        jax.block_until_ready(jnp.ones(8) + 1)   # backend start-up, not the run's
    elif impl == "tenflang":
        import tenflang.backprop  # noqa: F401
        import tenflang.training.loop  # noqa: F401
    np.ones((8, 8)) @ np.ones((8, 8))        # BLAS start-up buffers, not the run's
    base = rss_kib()
    data = workloads.make_data(case, dtype)
    run = setup(impl, case, data, workloads.initial_weights(case, dtype), dtype)
    del data                    # what the runner keeps of it stays alive through the runner
    before = rss_kib()
    exact = reset_peak()
    steps = MEMORY_STEPS["batch" if case.batch_size else "full"]
    run(steps)
    peak = rss_kib("VmHWM") if exact else None
    if peak is None:
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"peak_mib": (peak - base) / 1024, "train_mib": (peak - before) / 1024,
            "held_mib": (before - base) / 1024, "exact": exact, "steps": steps}


def measure_memory(key: str, impl: str, dtype: str, quick: bool) -> dict | None:
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072", PYTHONWARNINGS="ignore")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--memory-child", key, impl, dtype,
           "--threads", THREADS]
    if quick:
        cmd.append("--quick")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(ROOT))
    if proc.returncode != 0:
        print(f"  memory probe {key}/{impl}/{dtype} failed:\n{proc.stderr[-2000:]}",
              file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def time_case(case, dtype: str, impls: list[str], repeats: int) -> dict:
    """Median wall time of whole training runs, implementations interleaved."""
    data = workloads.make_data(case, dtype)
    init = workloads.initial_weights(case, dtype)
    runners, out = {}, {}
    for impl in impls:
        runners[impl] = setup(impl, case, data, init, dtype)
        runners[impl](2)                       # warm-up: first-call costs, caches
    times = {impl: [] for impl in runners}
    weights = {}
    for _ in range(repeats):
        for impl, run in runners.items():
            start = time.perf_counter()
            weights[impl] = run()
            times[impl].append(time.perf_counter() - start)
    for impl in runners:
        out[impl] = {"times": times[impl], "weights": weights[impl]}
    return out


def original_interpreter_row(case, examples: int, iters: int, repeats: int, tenflang_gcp) -> dict:
    """Time the original design's literal interpreter on a subset; check it against numpy."""
    import original_interpreter
    import tenflang
    from references import setup_numpy
    data = workloads.make_data(case, "float64")
    subset = {k: v[:examples] for k, v in data.items()}
    init = workloads.initial_weights(case, "float64")
    text = tenflang.print_program(tenflang_gcp)
    per_iter, weights = [], None
    for _ in range(repeats):
        weights, seconds, calls = original_interpreter.timed_run(text, subset, init, case.lr, iters)
        per_iter.append(seconds / calls)
    small = dataclasses.replace(case, n=examples, iters=iters)
    reference = setup_numpy(small, subset, init, "float64")()
    diff = workloads.relative_difference(weights, reference)
    scale = case.n / examples
    return {"times": [t * scale * case.iters for t in per_iter], "diff": diff,
            "examples": examples, "iters": iters, "measured_iter": statistics.median(per_iter)}


def compile_rows(sizes: list[int], repeats: int) -> tuple[list, str]:
    """Parse + compile_gradient time, reusing bench/bench_compile.py's generator."""
    try:
        import bench_compile
        rows = []
        for size in sizes:
            text = bench_compile.generate(size)
            parse_s, compile_s, _, runs = bench_compile.measure(text, 1, repeats, slow=20.0)
            rows.append((bench_compile.count_lines(text), runs, parse_s, compile_s))
            print(f"  compile {rows[-1][0]:,} lines: parse {parse_s:.2f} s, "
                  f"compile {compile_s:.2f} s ({runs} runs)", file=sys.stderr, flush=True)
        return rows, "bench/bench_compile.py's `generate` (imported)"
    except ImportError:
        return minimal_compile_rows(sizes, repeats), "a chain of scalar ops (bench_compile.py missing)"


def minimal_compile_rows(sizes: list[int], repeats: int) -> list:
    import tenflang
    from tenflang.backprop import compile_gradient
    rows = []
    for size in sizes:
        steps = max(1, size // 2 - 5)
        decls = ["declare input x", "declare exp_output y", "declare weight w",
                 "declare intvar c0", "declare loss L"]
        defs = ["define c0 = mul x w"]
        for i in range(1, steps):
            decls.append(f"declare intvar c{i}")
            defs.append(f"define c{i} = " + ("tanh c{}" if i % 2 else "mul c{} w").format(i - 1))
        defs.append(f"define L = sub c{steps - 1} y")
        text = "\n".join(decls + defs) + "\n"
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            program = tenflang.parse(text, "bench.tf", shape_program=True)
            t1 = time.perf_counter()
            compile_gradient(program, level=1)
            times.append((t1 - t0, time.perf_counter() - t1))
        rows.append((len(decls) + len(defs), repeats, statistics.median(t[0] for t in times),
                     statistics.median(t[1] for t in times)))
    return rows


def profile_tenflang(case, dtype: str = "float64", top: int = 15) -> str:
    """cProfile of tenflang's train loop on `case`: top functions by own time."""
    from references import setup_tenflang
    data = workloads.make_data(case, dtype)
    run = setup_tenflang(case, data, workloads.initial_weights(case, dtype), dtype)
    run(2)
    profiler = cProfile.Profile()
    profiler.runcall(run)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    total = next((line.strip() for line in lines if "function calls" in line), "")
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    return "\n".join([total] + lines[start:]).strip()


# --- the report -----------------------------------------------------------------

def git_state() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "tenflang"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return f"{head}" + (" + uncommitted changes under tenflang/" if dirty else "")
    except OSError:
        return "unknown"


def machine_info() -> dict:
    cpu_model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu_model = next((line.split(":", 1)[1].strip() for line in f
                              if line.startswith("model name")), cpu_model)
    except OSError:
        pass
    info = {
        "cpus": os.cpu_count(),
        "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "cpu_model": cpu_model,
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "numpy": np.__version__,
        "blas_threads": blas_threads(),
        "blas": "unknown",
        "load_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "tenflang": git_state(),
    }
    try:
        from threadpoolctl import threadpool_info
        blas = [f"{i['internal_api']} {i.get('version')} ({i['num_threads']} threads)"
                for i in threadpool_info() if i.get("user_api") == "blas"]
        info["blas"] = ", ".join(blas) or "unknown"
    except ImportError:
        pass
    for name in ("torch", "jax"):
        note = available(name)
        if note:
            info[name] = "not installed - skipped"
        else:
            module = __import__(name)
            info[name] = module.__version__
            if name == "torch":
                info[name] += f" ({blas_threads()} threads set)"
    return info


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def fmt_mem(m: dict | None) -> str:
    return "-" if m is None else f"{m['peak_mib']:.1f}"


def ratio(a, b) -> str:
    if a is None or b is None or not b:
        return "-"
    return f"{a / b:.2f}×" if a / b < 100 else f"{a / b:,.0f}×"


LABELS = {"tenflang": "tenflang", "numpy": "numpy (hand-written)",
          "torch": "PyTorch eager",
          "jax": "JAX jit", "seed": "seed interpreter"}


def case_table(case, rows: list[dict]) -> str:
    """One Markdown table for a case: both dtypes, every implementation."""
    batch = bool(case.batch_size)
    head = ["implementation", "dtype",
            *(["time/epoch", "time/step"] if batch else ["time/iter"]),
            "× numpy", "spread", "peak MiB", "mem × numpy", "Δw vs numpy", "runs"]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---", "---"] + ["---:"] * (len(head) - 2)) + "|"]
    for r in rows:
        per = r["median"] / case.iters
        times = [fmt_time(r["median"]), fmt_time(per)] if batch else [fmt_time(per)]
        label = LABELS[r["impl"]] + (" †" if r["impl"] == "seed" else "")
        spread = (f"{(max(r['times']) - min(r['times'])) / r['median'] * 100:.0f}%"
                  if len(r["times"]) > 1 else "-")
        diff = "-" if r.get("diff") is None else f"{r['diff']:.1e}"
        lines.append("| " + " | ".join([
            label, r["dtype"], *times, ratio(r["median"], r.get("numpy_median")), spread,
            fmt_mem(r.get("memory")),
            ratio(r["memory"]["peak_mib"] if r.get("memory") else None,
                  r.get("numpy_memory")), diff, str(len(r["times"]))]) + " |")
    return "\n".join(lines)


def targets(results: dict, seed_row: dict | None) -> list[tuple[str, str, str, bool]]:
    """(case key, target, measured, met) for each of the issue's targets."""
    out = []

    def med(key, dtype, impl):
        r = results.get((key, dtype, impl))
        return r["median"] if r else None


    for dtype in DTYPES:
        for key, name in (("scalar", "workload 1 (scalar)"), ("logreg", "workload 2 (logreg)")):
            t, n, p = med(key, dtype, "tenflang"), med(key, dtype, "numpy"), med(key, dtype, "torch")
            if t is None or n is None:
                continue
            out.append((key, f"{name} {dtype}: tenflang ≤ 1.2× numpy", f"{t / n:.2f}×",
                        t <= 1.2 * n))
            if p is not None:
                out.append((key, f"{name} {dtype}: tenflang ≤ PyTorch eager", f"{t / p:.2f}×",
                            t <= p))
        for key, limit in (("mlp-b256", 1.0), ("mlp-b32", 2.0)):
            t, p = med(key, dtype, "tenflang"), med(key, dtype, "torch")
            if t is None or p is None:
                continue
            bound = "≤ PyTorch eager" if limit == 1 else "within 2× of PyTorch eager"
            out.append((key, f"workload 3 ({key}) {dtype}: tenflang {bound}", f"{t / p:.2f}×",
                        t <= limit * p))
    for (key, dtype, impl), r in sorted(results.items()):
        if impl != "tenflang" or not r.get("memory") or not r.get("numpy_memory"):
            continue
        m = r["memory"]["peak_mib"] / r["numpy_memory"]
        out.append(("memory", f"memory {key} {dtype}: tenflang peak ≤ 1.5× numpy", f"{m:.2f}×",
                    m <= 1.5))
    if seed_row:
        t = results.get(("scalar", "float64", "tenflang"))
        if t:
            factor = seed_row["median"] / t["median"]
            out.append(("seed", "seed interpreter time / tenflang time (workload 1, float64) "
                        "≥ 1000×", f"{factor:,.0f}×", factor >= 1000))
    return out


def write_report(path: Path, args, info: dict, cases, results: dict, seed_row, compile_info,
                 goals, profiles: dict, failures: list, wall: float) -> str:
    lines = ["# TenFlang performance suite", ""]
    lines += [f"Command: `{args.command_line}`  ",
              f"Date: {info['date']}; whole suite {wall / 60:.1f} min  ",
              f"Machine: {info['cpus']} CPUs ({info['affinity']} usable), {info['cpu_model']}, "
              f"{info['platform']}; load average at start "
              f"{' '.join(f'{x:.1f}' for x in info['load_start'] or ())}, at end "
              f"{' '.join(f'{x:.1f}' for x in info.get('load_end') or ())} "
              f"(a shared machine: other processes run; times are medians)  ",
              f"Python {info['python']}, numpy {info['numpy']} with {info['blas']} "
              f"(BLAS threads: {info['blas_threads']}), PyTorch {info['torch']}, "
              f"JAX {info['jax']}  ",
              f"Threads: {THREADS} for every implementation (`--threads`: numpy's BLAS through "
              f"OPENBLAS_NUM_THREADS, `torch.set_num_threads`, XLA's intra-op pool); "
              f"{info['cpus']} cores shared with other processes  ",
              f"tenflang: commit {info['tenflang']}", ""]
    lines += ["How it is measured (details in bench/README.md):", "",
              f"* time: wall clock of whole training runs (setup inside `train` included, data "
              f"generation and GCP compilation not), median of {args.repeats} runs with the "
              f"implementations interleaved, after one untimed 2-step warm-up each; "
              f"per-iteration = run / iterations.  × numpy = median / numpy's median.",
              "* spread: (slowest - fastest) / median over the runs.",
              "* peak MiB: a fresh process per implementation (`--memory-child`), glibc's mmap "
              "threshold fixed at 128 KiB so freed arrays go back to the kernel; after imports, "
              "data generation and setup, the kernel's high-water mark is reset "
              "(`/proc/self/clear_refs`), a short training run is made "
              f"({MEMORY_STEPS['full']} steps full-batch, {MEMORY_STEPS['batch']} mini-batch) "
              "and the peak is read from VmHWM: reported is that peak minus the RSS right "
              "after the imports, i.e. the data the implementation holds plus what training "
              "allocates (library import footprints excluded).  JAX's figure includes what its "
              "jit compilation (done in setup) leaves resident.",
              "* Δw vs numpy: max |w - w_numpy| / max |w_numpy| over the final weights; "
              f"tenflang's is asserted ≤ {AGREE['float64']:g} in float64 "
              f"(≤ {AGREE['float32']:g} in float32).",
              "* † seed interpreter: the original design's literal per-example interpreter "
              "(bench/original_interpreter.py, Python floats, float64 only) timed on "
              f"{seed_row['examples']:,} examples × {seed_row['iters']} iterations "
              f"({fmt_time(seed_row['measured_iter'])} per iteration, median of "
              f"{len(seed_row['times'])} runs) and extrapolated linearly to "
              f"{seed_row['full_n']:,} examples; its Δw is against numpy on that "
              "same subset." if seed_row else "* seed interpreter: not run.", ""]
    for case in cases:
        rows = [results[(case.key, d, i)] for d in DTYPES for i in IMPLEMENTATIONS
                if (case.key, d, i) in results]
        if case.key == "scalar" and seed_row:
            rows.append(seed_row)
        if not rows:
            continue
        lines += [f"## {case.title}", "",
                  f"{case.iters} iterations, lr {case.lr:g}." if not case.batch_size else
                  f"{case.iters} SGD steps (one epoch), lr {case.lr:g}.", "",
                  case_table(case, rows), ""]
    for impl, note in args.skipped.items():
        lines.append(f"Skipped {impl}: {note}.")
    if args.skipped:
        lines.append("")
    if compile_info:
        rows, source = compile_info
        lines += ["## Compile time (parse + compile_gradient -O1)", "",
                  f"Programs from {source}; median of the runs shown (one run where the first "
                  "takes over 20 s).", "",
                  "| lines | runs | parse | compile | total | per 1k lines |",
                  "|---:|---:|---:|---:|---:|---:|"]
        lines += [f"| {n:,} | {r} | {p:.2f} s | {c:.2f} s | {p + c:.2f} s | "
                  f"{(p + c) / n * 1000 * 1000:.0f} ms |" for n, r, p, c in rows]
        lines.append("")
    if goals:
        lines += ["## Targets", ""]
        if args.quick:
            lines += ["(--quick: the sizes are too small for these to mean anything.)", ""]
        lines += ["| target | measured | met |", "|---|---:|:---:|"]
        lines += [f"| {t} | {m} | {'yes' if ok else 'NO'} |" for _, t, m, ok in goals]
        lines.append("")
    if profiles:
        lines += ["## Where tenflang's time goes (targets not met)", "",
                  "cProfile of one tenflang training run (float64), top functions by own time:",
                  ""]
        for key, text in profiles.items():
            lines += [f"### {key}", "", "```", text, "```", ""]
    if failures:
        lines += ["## FAILURES", ""] + [f"* {f}" for f in failures] + [""]
    text = "\n".join(lines)
    path.write_text(text)
    return text


# --- main -------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a fast smoke run")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed runs per implementation (default 5, --quick 2)")
    parser.add_argument("--out", default=None,
                        help="report file (default bench/results_inprocess.md; --quick: "
                             "bench/results-quick.md, so a smoke run keeps the real results)")
    parser.add_argument("--only", nargs="+", metavar="CASE",
                        help="cases to run (scalar logreg mlp-b256 mlp-b32 compile seed)")
    parser.add_argument("--impls", nargs="+", choices=IMPLEMENTATIONS, default=list(IMPLEMENTATIONS))
    parser.add_argument("--dtypes", nargs="+", choices=DTYPES, default=list(DTYPES))
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for numpy's BLAS, torch and XLA alike (default 1)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory probes")
    parser.add_argument("--no-profile", action="store_true",
                        help="skip profiling tenflang on workloads whose targets are not met")
    parser.add_argument("--seed-examples", type=int, default=None,
                        help="examples the original design's interpreter runs on (default 5000, --quick 200)")
    parser.add_argument("--seed-iters", type=int, default=2)
    parser.add_argument("--seed-repeats", type=int, default=3)
    parser.add_argument("--compile-sizes", type=int, nargs="+", default=None)
    parser.add_argument("--profile", metavar="CASE",
                        help="only print a cProfile of tenflang's train loop on CASE")
    parser.add_argument("--memory-child", nargs=3, metavar=("CASE", "IMPL", "DTYPE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.memory_child:
        print(json.dumps(memory_child(*args.memory_child, args.quick)))
        return 0
    all_cases = workloads.cases(args.quick)
    if args.profile:
        case = next(c for c in all_cases if c.key == args.profile)
        print(profile_tenflang(case, top=25))
        return 0

    started = time.perf_counter()
    args.repeats = args.repeats or (2 if args.quick else 5)
    args.out = args.out or str(HERE / ("results-quick.md" if args.quick else "results_inprocess.md"))
    seed_examples = args.seed_examples or (200 if args.quick else 5000)
    compile_sizes = args.compile_sizes or ([200, 1000] if args.quick else [1000, 10000, 100000])
    args.command_line = " ".join(["python bench/run_all.py",
                                  shlex.join(argv if argv is not None else sys.argv[1:])]).strip()
    wanted = set(args.only or [c.key for c in all_cases] + ["compile", "seed"])
    cases = [c for c in all_cases if c.key in wanted]
    args.skipped = {i: available(i) for i in args.impls if available(i)}
    impls = [i for i in args.impls if i not in args.skipped]
    if "numpy" not in impls:
        impls.insert(0, "numpy")        # the baseline of every ratio
    info = machine_info()
    print(f"machine: {info['cpus']} CPUs, {info['cpu_model']}; numpy BLAS threads "
          f"{info['blas_threads']}; torch {info['torch']}; jax {info['jax']}", file=sys.stderr)
    for impl, note in args.skipped.items():
        print(f"skipping {impl}: {note}", file=sys.stderr)

    results, failures = {}, []
    for case in cases:
        for dtype in args.dtypes:
            print(f"{case.key} {dtype}: timing {', '.join(impls)} x {args.repeats}",
                  file=sys.stderr, flush=True)
            timed = time_case(case, dtype, impls, args.repeats)
            ref = timed["numpy"]["weights"]
            for impl, t in timed.items():
                diff = workloads.relative_difference(t["weights"], ref)
                row = {"impl": impl, "dtype": dtype, "times": t["times"],
                       "median": statistics.median(t["times"]), "diff": diff}
                results[(case.key, dtype, impl)] = row
                if impl == "tenflang" and not diff <= AGREE[dtype]:
                    failures.append(f"{case.key} {dtype}: tenflang's final weights differ from "
                                    f"numpy's by {diff:.2e} (relative) > {AGREE[dtype]:g}")
            if not args.no_memory and (dtype == "float64" or not args.quick):
                for impl in impls:
                    results[(case.key, dtype, impl)]["memory"] = measure_memory(
                        case.key, impl, dtype, args.quick)
            numpy_row = results[(case.key, dtype, "numpy")]
            for impl in impls:
                row = results[(case.key, dtype, impl)]
                row["numpy_median"] = numpy_row["median"]
                row["numpy_memory"] = (numpy_row["memory"] or {}).get("peak_mib") \
                    if numpy_row.get("memory") else None
                print(f"  {impl:9s} {row['median'] / case.iters * 1e3:10.3f} ms/iter  "
                      f"{row['median'] / numpy_row['median']:6.2f}x numpy  "
                      f"mem {fmt_mem(row.get('memory'))} MiB  dw {row['diff']:.1e}",
                      file=sys.stderr, flush=True)

    seed_row = None
    scalar = next((c for c in all_cases if c.key == "scalar"), None)
    if "seed" in wanted and scalar is not None:
        print(f"seed interpreter: {seed_examples} examples x {args.seed_iters} iterations "
              f"x {args.seed_repeats}", file=sys.stderr, flush=True)
        from references import compile_case
        s = original_interpreter_row(scalar, seed_examples, args.seed_iters, args.seed_repeats,
                                 compile_case(scalar))
        seed_row = {"impl": "seed", "dtype": "float64", "times": s["times"],
                    "median": statistics.median(s["times"]), "diff": s["diff"],
                    "examples": s["examples"], "iters": s["iters"],
                    "measured_iter": s["measured_iter"], "full_n": scalar.n}
        base = results.get(("scalar", "float64", "numpy"))
        seed_row["numpy_median"] = base["median"] if base else None
        if not s["diff"] <= 1e-9:
            failures.append(f"seed interpreter disagrees with numpy on its subset: {s['diff']:.2e}")
        print(f"  seed      {seed_row['median'] / scalar.iters * 1e3:10.1f} ms/iter "
              f"(extrapolated from {s['measured_iter'] * 1e3:.1f} ms per iteration on "
              f"{seed_examples} examples)  dw {s['diff']:.1e}", file=sys.stderr, flush=True)

    compile_info = None
    if "compile" in wanted:
        print(f"compile: {compile_sizes} lines", file=sys.stderr, flush=True)
        compile_info = compile_rows(compile_sizes, min(args.repeats, 3))

    goals = targets(results, seed_row)
    profiles = {}
    if not args.no_profile and not args.quick:
        missed = {key for key, _, _, ok in goals if not ok}
        for case in cases:
            if case.key in missed:
                print(f"profiling tenflang on {case.key}", file=sys.stderr, flush=True)
                profiles[case.key] = profile_tenflang(case)

    info["load_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    text = write_report(Path(args.out), args, info, cases, results, seed_row, compile_info,
                        goals, profiles, failures, time.perf_counter() - started)
    print(text)
    if failures:
        print("\n".join(["FAILED:"] + failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
