"""Start-up: what a short run costs, as whole processes, against Python's own start.

    python bench/bench_startup.py                 # 15 interleaved rounds: bench/results_startup.md
    python bench/bench_startup.py --runs 31 --out /tmp/startup.md
    git archive OLD | tar -x -C /tmp/old && python bench/bench_startup.py --baseline /tmp/old

The target (issue 29): a whole `tfweightcalc` run on 1,000 examples takes at
most 0.15 s.  The run is bench_process.py's "start-up" one: the seed scalar
workload (samples/example_shape.tf compiled, o = logistic(w x), full batch) on
1,000 examples from an .npz file, 50 iterations, weights written to a file.
Beside it, in the same interleaved rounds:

* `python -c pass` (the floor: the interpreter's own start),
  `python -c "import numpy"` (the floor of any program that computes) and
  `python -c "import tenflang.cli, numpy"` (the floor of `tfweightcalc`:
  click, which the command line is built on (docs/design.md §4), and numpy
  started with the commands' OpenBLAS settings, tenflang/cli/__init__.py);
* `tfcompiler` on samples/example_shape.tf (whose -O1 clean-up folds a
  constant, `sub 2 1`, by Python arithmetic) and on samples/mlp_digits.tf
  (which folds none): neither imports numpy; and `tfevaluate` of the trained
  weights on the same 1,000 examples.

With `--baseline DIR`, the three tools of that checkout run in the same
rounds, with a cache directory of their own.

One more command per checkout times, inside its process, the import of
`tfweightcalc`'s own modules after click and numpy (`IMPORTS`): the part of
the start-up that TenFlang's code decides, free of the interpreter's start
and of most of the host's noise, which on a shared machine moves a whole
process by ±30 ms from one round to the next.  Its column is "in-process".

Each command runs once uncounted (it fills the cache directory, a fresh one in
a temporary directory, as a user's is after their first run, and writes the
bytecode of this checkout), then `--runs` rounds of every command, the order
reversed every other round, so that load from other processes hits all alike.
Per command: the median wall time and the median CPU time (user + system of
the process and all its threads, from os.wait4).  The tools run from this
checkout (`python bin/tfweightcalc`, PYTHONPATH set to it), with the
environment's thread settings, PYTHONDONTWRITEBYTECODE removed (an installed
package has its bytecode compiled).  The load average is written with the
figures: on a shared machine, read CPU times first.  A new run keeps the
results file's own sections (`## ...`, notes written by hand) below its tables.
"""
from __future__ import annotations

import argparse
import dataclasses
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
sys.path.insert(0, str(HERE))
from bench_process import as_installed  # noqa: E402
from workloads import cases, make_data  # noqa: E402

TARGET_S = 0.15
EXAMPLES = 1000
# what every command loads before its own modules: click, OpenBLAS's spin set, numpy
FLOOR = "python -c 'import tenflang.cli, numpy'"
# prints the seconds that tfweightcalc's own modules take to import, after the floor's
IMPORTS = ("import time, tenflang.cli, numpy; t = time.perf_counter(); "
           "import tenflang.cli.train_command; print(time.perf_counter() - t)")


def tools(work: Path, root: Path, label: str = "") -> dict[str, tuple[list[str], dict]]:
    """Name -> (argv, environment) of the three tools of the checkout `root`."""
    py, case = sys.executable, cases()[0]
    shape, gcp = str(root / "samples" / "example_shape.tf"), str(work / f"shape{label}.gcp.tf")
    data, weights = str(work / "small.npz"), str(work / f"w{label}.txt")
    env = {"PYTHONPATH": str(root), "TENFLANG_CACHE_DIR": str(work / f"cache{label}")}
    suffix = f" ({label})" if label else ""
    return {
        f"tfcompiler{suffix}": ([py, str(root / "bin" / "tfcompiler"), shape, "-o", gcp], env),
        f"tfcompiler mlp_digits.tf{suffix}":
            ([py, str(root / "bin" / "tfcompiler"), str(root / "samples" / "mlp_digits.tf"),
              "-o", str(work / f"mlp{label}.gcp.tf")], env),
        f"tfweightcalc, {EXAMPLES:,} examples, {case.iters} iterations{suffix}":
            ([py, str(root / "bin" / "tfweightcalc"), gcp, data, "-o", weights,
              "--max-iters", str(case.iters), "--lr", str(case.lr), "--tol", "0", "--quiet"], env),
        f"tfevaluate, {EXAMPLES:,} examples{suffix}":
            ([py, str(root / "bin" / "tfevaluate"), shape, data, weights,
              "-o", str(work / f"out{label}.txt")], env),
        f"import of tfweightcalc's modules{suffix}": ([py, "-c", IMPORTS], env),
    }


def commands(work: Path, baseline: Path | None) -> dict[str, tuple[list[str], dict]]:
    """Every timed command: the floors, this checkout's tools, the baseline's."""
    py = sys.executable
    out = {"python -c pass": ([py, "-c", "pass"], {}),
           "python -c 'import numpy'": ([py, "-c", "import numpy"], {}),
           FLOOR: ([py, "-c", "import tenflang.cli, numpy"], {"PYTHONPATH": str(ROOT)}),
           **tools(work, ROOT)}
    return out | (tools(work, baseline, "baseline") if baseline else {})


def run(argv: list[str], env: dict, cwd: Path) -> tuple[float, float, float | None]:
    """(wall seconds, CPU seconds, the seconds it printed or None) of one
    process, run in `cwd` (not a checkout: `python -c` puts its directory ahead
    of PYTHONPATH); raises when it fails."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=subprocess.PIPE)
        err = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        printed = out.read().strip()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"{' '.join(argv)} failed ({child.returncode}):\n{err.decode()[-2000:]}")
    seconds = float(printed) if argv[1:2] == ["-c"] and printed else None
    return wall, usage.ru_utime + usage.ru_stime, seconds


def measure(cmds: dict[str, tuple], env: dict, runs: int, cwd: Path) -> dict[str, list]:
    for argv, extra in cmds.values():
        run(argv, env | extra, cwd)          # uncounted: cache, bytecode, disk
    out = {name: [] for name in cmds}
    for i in range(runs):
        for name in cmds if i % 2 == 0 else reversed(cmds):
            argv, extra = cmds[name]
            out[name].append(run(argv, env | extra, cwd))
    return out


def report(samples: dict[str, list], argv: list[str], loads: tuple) -> str:
    med = {name: [statistics.median(s[k] for s in got) for k in (0, 1)]
           + ([statistics.median(s[2] for s in got)] if got[0][2] is not None else [])
           for name, got in samples.items()}
    floor = med["python -c pass"][0]
    train = next(name for name in med if name.startswith("tfweightcalc"))
    lines = ["# Start-up: short runs as whole processes", "",
             f"Command: `python bench/bench_startup.py {' '.join(argv)}`",
             f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} CPUs; "
             f"load average (1 min) {loads[0]:.1f} at the start, {loads[1]:.1f} at the end; "
             f"medians of {len(samples[train])} interleaved rounds (see the docstring of "
             "bench/bench_startup.py).", "",
             "| target | measured | met? |", "|---|---|---|",
             f"| start-up: {train} ≤ {TARGET_S} s | {med[train][0]:.3f} s wall, "
             f"{med[train][1]:.3f} s CPU | {'yes' if med[train][0] <= TARGET_S else '**no**'} |", "",
             "| command | wall | CPU | wall − `python -c pass` | in-process |",
             "|---|---:|---:|---:|---:|"]
    for name, (wall, cpu, *inside) in med.items():
        inside = f"{inside[0]:.3f} s" if inside else ""
        lines.append(f"| {name} | {wall:.3f} s | {cpu:.3f} s | {wall - floor:.3f} s | {inside} |")
    return "\n".join(lines) + "\n"


def notes_of(path: Path) -> str:
    """The sections (`## ...`) of an earlier results file, kept below the new tables."""
    old = path.read_text() if path.exists() else ""
    start = old.find("\n## ")
    return "" if start < 0 else old[start:]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="interleaved rounds")
    parser.add_argument("--out", default=str(HERE / "results_startup.md"))
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="another checkout (e.g. `git archive` of an older commit) whose "
                        "tools are timed in the same rounds")
    args = parser.parse_args(argv)
    env = as_installed(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        case = dataclasses.replace(cases()[0], n=EXAMPLES)
        np.savez(work / "small.npz", **make_data(case))
        start_load = os.getloadavg()[0]
        samples = measure(commands(work, args.baseline and args.baseline.resolve()), env,
                          args.runs, work)
    text = report(samples, argv, (start_load, os.getloadavg()[0]))
    Path(args.out).write_text(text + notes_of(Path(args.out)))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
