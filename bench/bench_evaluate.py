"""Evaluation-phase benchmark: the original design's scalar example on 1,000,000 examples.

    PYTHONPATH=. python bench/bench_evaluate.py                     # 1M examples, 5 runs
    PYTHONPATH=. python bench/bench_evaluate.py --examples 100000 --runs 3 --no-cli

What is measured (program `samples/example_shape.tf`, w = 1.7, examples with
both x and y so the loss is computed too):

* in memory: `tenflang.interp.evaluate(program, {x, y}, {w})` on the whole
  batch at once (no Python loop over examples), median of `--runs` runs;
  peak memory of one run from tracemalloc (numpy reports its buffers to it).
  The program is parsed once, before; planning is inside the timing.
* in memory, by phase: the same work `tfevaluate` does, stage by stage and in
  this process: load the inputs file (text, then .npz), evaluate, format
  (txt) and write the results file; one run each.
* end to end: `tfevaluate samples/example_shape.tf INPUTS w.txt -o OUT` as a
  subprocess, once with a 1M-line text inputs file and once with an .npz
  inputs file; wall time (includes interpreter start-up) and the process's
  peak resident set size (VmHWM, read by the process itself as it exits).

Inputs: x ~ N(0, 1), y ~ U(0, 1), seed 0, written with the project's own
writer (`vectors.format_examples`, floats as repr).  Time is wall-clock
(`time.perf_counter`).  The table is printed and written to `--out`
(default bench/results_evaluate.md) as Markdown.
"""
from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tenflang  # noqa: E402
from tenflang.data import vectors  # noqa: E402
from tenflang.base.outputs import write_file  # noqa: E402
from tenflang.interp import evaluate  # noqa: E402

PROGRAM = ROOT / "samples" / "example_shape.tf"
W = 1.7


def make_data(n: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"x": rng.normal(size=n), "y": rng.uniform(size=n)}


def bench_in_memory(data: dict, runs: int) -> tuple[list[float], int]:
    program = tenflang.parse_file(str(PROGRAM))
    evaluate(program, {k: v[:10] for k, v in data.items()}, {"w": W})      # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        values = evaluate(program, data, {"w": W})
        times.append(time.perf_counter() - start)
    expected_o = 1 / (1 + np.exp(-W * data["x"]))
    np.testing.assert_allclose(values["o"], expected_o, rtol=1e-14)
    np.testing.assert_allclose(values["lambda"], (expected_o - data["y"]) ** 2, rtol=1e-12,
                               atol=1e-15)
    tracemalloc.start()
    try:
        evaluate(program, data, {"w": W})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return times, peak


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def bench_phases(inputs_txt: Path, inputs_npz: Path, out: Path) -> dict[str, float]:
    """tfevaluate's stages, in this process, one run each."""
    program = tenflang.parse_file(str(PROGRAM))
    phases = {}
    examples, phases["load text inputs"] = timed(lambda: vectors.load_examples(str(inputs_txt)))
    _, phases["load .npz inputs"] = timed(lambda: vectors.load_examples(str(inputs_npz)))
    values, phases["evaluate"] = timed(lambda: evaluate(program, examples.arrays, {"w": W}))

    def write():
        text = "".join(line + "\n" for line in vectors.format_examples(values, "txt"))
        write_file(str(out), text)
    _, phases["format + write txt results"] = timed(write)
    return phases


# Runs bin/tfevaluate and, on the way out, records the process's own peak RSS
# (VmHWM).  A fork's ru_maxrss would start from this (big) benchmark process's
# high-water mark, so the wait4 figure is only the fallback where /proc is absent.
PEAK_WRAPPER = """
import os, runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
finally:
    try:
        with open("/proc/self/status") as f:
            peak = next(l.split()[1] for l in f if l.startswith("VmHWM:"))
        with open(os.environ["BENCH_PEAK_FILE"], "w") as f:
            f.write(peak)
    except (OSError, StopIteration):
        pass
"""


def run_cli(args: list[str], tmp: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (bytes) of one tfevaluate process."""
    peak_file = tmp / "peak_kib"
    peak_file.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT), BENCH_PEAK_FILE=str(peak_file))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", PEAK_WRAPPER, str(ROOT / "bin" / "tfevaluate"),
                             *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"tfevaluate failed ({code}): {stderr.decode()}")
    kib = int(peak_file.read_text()) if peak_file.exists() else usage.ru_maxrss
    return wall, kib * 1024


def mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB"


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5, help="in-memory runs (median)")
    parser.add_argument("--no-cli", action="store_true", help="skip the file and CLI runs")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results_evaluate.md"))
    args = parser.parse_args(argv)
    n = args.examples
    data = make_data(n)

    rows = []   # (what, seconds, examples/s, memory)
    times, peak = bench_in_memory(data, args.runs)
    median = statistics.median(times)
    rows.append((f"in memory `evaluate`, median of {args.runs}", median, rate(n, median),
                 f"{mib(peak)} (tracemalloc peak)"))
    print(f"in memory: {n} examples, runs {', '.join(f'{t:.3f}' for t in times)} s", file=sys.stderr)

    files = {}
    if not args.no_cli:
        with tempfile.TemporaryDirectory(prefix="bench_evaluate.") as tmp:
            tmp = Path(tmp)
            inputs_txt, inputs_npz = tmp / "inputs.txt", tmp / "inputs.npz"
            vectors.save_examples(str(inputs_txt), data)
            vectors.save_examples(str(inputs_npz), data)
            (tmp / "w.txt").write_text(f"{{w: {W!r}}}\n")
            files = {"text inputs": inputs_txt.stat().st_size, ".npz inputs": inputs_npz.stat().st_size}
            for what, seconds in bench_phases(inputs_txt, inputs_npz, tmp / "phases.txt").items():
                rows.append((f"phase: {what}", seconds, rate(n, seconds), ""))
                print(f"phase {what}: {seconds:.3f} s", file=sys.stderr)
            files["txt results"] = (tmp / "phases.txt").stat().st_size
            for label, inputs in (("text", inputs_txt), (".npz", inputs_npz)):
                wall, rss = run_cli([str(PROGRAM), str(inputs), str(tmp / "w.txt"),
                                     "-o", str(tmp / "out.txt")], tmp)
                rows.append((f"`tfevaluate` end to end, {label} inputs → txt (-o)", wall,
                             rate(n, wall), f"{mib(rss)} (max RSS)"))
                print(f"cli {label}: {wall:.3f} s, {mib(rss)}", file=sys.stderr)

    command = "PYTHONPATH=. python bench/bench_evaluate.py" + (
        "" if argv is None and not sys.argv[1:] else " " + shlex.join(sys.argv[1:] if argv is None else argv))
    lines = [
        "# Evaluation benchmark",
        "",
        f"Reproduce: `{command}`",
        "",
        f"Program `samples/example_shape.tf` (the original design's example), w = {W}, "
        f"{n:,} examples with x and y (outputs `o` and the loss `lambda`).",
        "",
        "| what | seconds | examples/s | memory |",
        "|---|---:|---:|---|",
    ]
    lines += [f"| {what} | {seconds:.3f} | {r} | {mem} |" for what, seconds, r, mem in rows]
    if files:
        lines += ["", "File sizes: " + ", ".join(f"{k} {mib(v)}" for k, v in files.items()) + "."]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines += [
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"numpy {np.__version__}, load average {load:.1f} when the run ended (other jobs share "
        "the machine; times are wall-clock).",
        "",
        "Phases are tfevaluate's stages timed in one process (one run each); the end-to-end "
        "rows are separate `tfevaluate` processes (start-up, parse, load, evaluate, format, "
        "atomic write), one run each.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
