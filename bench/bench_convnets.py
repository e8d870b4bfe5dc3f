#!/usr/bin/env python3
"""Training networks as whole processes: tenflang against PyTorch CPU eager and a
JAX `jit`-compiled step.  Cases: an MLP, two LeNets, and (sequence_networks.py)
a pre-LN transformer encoder block, a GRU classifier over embedded digits and
the character LM of samples/charlm.tf.

    python bench/bench_convnets.py                    # writes bench/results_convnets.md
    python bench/bench_convnets.py --only lenet5 --runs 5 --threads 1
    python bench/bench_convnets.py --quick            # few steps, one run: a smoke run
    python bench/bench_convnets.py --only encoder gru charlm --quick --out bench/results_convnets_quick_new.md
    git archive OLD | tar -x -C /tmp/old && python bench/bench_convnets.py --baseline /tmp/old \
        --impls tenflang --only lenet5 --dtypes float32 --runs 7 --out /tmp/ab.md

What a user times: `tfweightcalc GCP DATA.npz --init INIT.npz --optimizer adam
--batch-size B --max-iters N` against convnet_reference.py doing the same
(load, N Adam steps on batches in tenflang's epoch order, write the weights)
in PyTorch or JAX, each a fresh process (bench_process.run_process: wall, peak
RSS, CPU: user + system of all threads), interleaved, the order rotated every
round.  Per step = (median
wall of N_long steps − median wall of N_short) / (N_long − N_short): the fixed
costs (start, imports, JIT compilation, load, write) cancel; the same for CPU
time, which moves less than wall time when other processes load the machine.  The long
runs are a few seconds of steps: PyTorch's start-up alone moves by 0.1-0.3 s from one
process to the next, which over the 120 steps of an earlier digits LeNet pair read as
±2 ms a step (0.25 to 12 ms for a 2-3 ms step).  The short runs pass the end of the
first epoch: its last batch is smaller (1,797 digits: 5 examples), JAX compiles its
step again for that shape, and a short run that stopped before it left that compile
in JAX's per step (up to 8 ms of the digits LeNet's, in earlier tables).  Peak RSS is that
of the long run.  Same network, data, initial weights (drawn here), batch and
optimizer (Adam, lr `LR`) on each side; in float64 the final weights of the
long runs are compared (max relative difference to PyTorch's) to show that
the three did the same math.  Threads: the default, and 1 (OPENBLAS/OMP/...
and TENFLANG_NUM_THREADS=1, XLA's CPU client on one thread).  PyTorch and JAX
are optional: a missing one is left out with a note.  Every child runs without
the development machines' OpenBLAS settings (bench_process.as_users), as on a
user's machine.

Targets (the convolution work's): every case ≤ 0.7× PyTorch eager and ≤ 0.8×
JAX jit per step; LeNet-5's peak memory ≤ PyTorch's.  Beside them, tenflang
with TENFLANG_NATIVE=0 ("numpy path": convolution and pooling by numpy, as
before the native kernels), to show their gain in the same run.  With
`--baseline DIR`, `tfweightcalc` of another checkout runs in the same rounds
(on the GCP this checkout compiled), and a second table gives tenflang against
it: a change's before and after, as the user meets them.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

LR = 0.001
TARGET_TORCH, TARGET_JAX = 0.7, 0.8
# tenflang-numpy: tfweightcalc with TENFLANG_NATIVE=0, the image ops on the numpy path;
# tenflang-baseline: tfweightcalc of the checkout given by --baseline, in the same rounds
IMPLEMENTATIONS = ("tenflang", "tenflang-numpy", "torch", "jax")
BASELINE = "tenflang-baseline"


@dataclass
class Spec:
    title: str
    image: tuple             # per-example input: (H, W) for an image, (n,) for a vector
    convs: list              # (F, k, pad) per conv layer (relu, 2×2 max-pool after each)
    dense: list              # widths of the dense layers, the last one the classes
    activation: str          # between dense layers
    batch: int
    data: str                # "digits" | "random28"
    steps: tuple             # (short, long) run lengths
    network: str = ""        # a sequence_networks case (its own program, data, weights)


CASES = {
    "mlp": Spec("MLP 64-128-10 (digits)", (64,), [], [128, 10], "tanh", 32, "digits",
                (60, 3020)),
    "lenet": Spec("LeNet 16/32, 3×3 pad 1 (digits 8×8)", (8, 8), [(16, 3, 1), (32, 3, 1)],
                  [10], "relu", 64, "digits", (30, 1510)),
    "lenet5": Spec("LeNet-5 (28×28, 5×5 convs, 120-84-10)", (28, 28), [(6, 5, 2), (16, 5, 0)],
                   [120, 84, 10], "relu", 256, "random28", (4, 64)),
    "encoder": Spec("Encoder block (pre-LN, 2 heads, width 32, GELU MLP 128; 10 tokens)",
                    (10, 8), [], [], "", 64, "random", (30, 630), "encoder"),
    "gru": Spec("GRU 32 over 20 embedded digits, 10 classes", (20,), [], [], "", 64,
                "digits20", (30, 630), "gru"),
    "charlm": Spec("Character LM (samples/charlm.tf: GRU 64, 16 characters)", (16,), [], [],
                   "", 64, "charlm_train.npz", (30, 330), "charlm"),
}
DTYPES = {"mlp": ("float64", "float32"), "lenet": ("float64", "float32"),
          "lenet5": ("float32",), "encoder": ("float64", "float32"),
          "gru": ("float64", "float32"), "charlm": ("float64", "float32")}


def weight_shapes(spec: Spec) -> dict:
    shapes, channels = {}, 1
    h, w = spec.image if len(spec.image) == 2 else (None, None)
    for i, (f, k, pad) in enumerate(spec.convs, 1):
        shapes[f"K{i}"], shapes[f"c{i}"] = (f, channels, k, k), (f, 1, 1)
        channels, h, w = f, (h + 2 * pad - k + 1) // 2, (w + 2 * pad - k + 1) // 2
    width = channels * h * w if spec.convs else spec.image[0]
    for i, m in enumerate(spec.dense, 1):
        shapes[f"W{i}"], shapes[f"b{i}"] = (m, width), (m,)
        width = m
    return shapes


def program(spec: Spec) -> str:
    """The network as a TenFlang shape program (weights named as weight_shapes)."""
    shapes = weight_shapes(spec)
    lines = [f"declare input x [{', '.join(map(str, spec.image))}]", "declare exp_output label"]
    lines += [f"declare weight {k} [{', '.join(map(str, s))}]" for k, s in shapes.items()]
    h = f"reshape x [1, {', '.join(map(str, spec.image))}]" if spec.convs else "x"
    defs = []
    for i, (_, _, pad) in enumerate(spec.convs, 1):
        image = f"({h})" if " " in h else h
        defs.append(f"define p{i} = maxpool2d (relu (add (conv2d {image} K{i} 1 {pad}) c{i})) 2")
        h = f"p{i}"
    h = f"flatten {h}" if spec.convs else h
    for i in range(1, len(spec.dense) + 1):
        operand = f"({h})" if " " in h else h
        defs.append(f"define d{i} = add (matmul W{i} {operand}) b{i}")
        h = f"{spec.activation} d{i}"
    n = len(spec.dense)
    lines += [f"declare intvar p{i}" for i in range(1, len(spec.convs) + 1)]
    lines += [f"declare intvar d{i}" for i in range(1, n)] + [f"declare output d{n}",
                                                             "declare loss xent"]
    defs.append(f"define xent = neg (dot (log_softmax d{n}) (one_hot label {spec.dense[-1]}))")
    return "\n".join(lines + defs) + "\n"


def make_data(spec: Spec) -> dict:
    if spec.data == "digits":
        from sklearn.datasets import load_digits
        digits = load_digits()
        x, label = digits.images / 16.0, digits.target
    else:
        rng = np.random.default_rng(1)
        x, label = rng.random((2048, 28, 28)), rng.integers(0, 10, 2048)
    return {"x": x.reshape((len(x),) + spec.image), "label": label.astype(np.float64)}


def initial_weights(spec: Spec) -> dict:
    """Glorot uniform (fan-in and fan-out of a kernel count its window), zero biases."""
    rng = np.random.default_rng(2)
    out = {}
    for name, shape in weight_shapes(spec).items():
        if name[0] in "KW":
            fan_in = math.prod(shape[1:])
            fan_out = shape[0] * math.prod(shape[2:])
            limit = math.sqrt(6.0 / (fan_in + fan_out))
            out[name] = rng.uniform(-limit, limit, shape)
        else:
            out[name] = np.zeros(shape)
    return out


def prepare(workdir: Path, case: str) -> None:
    from tenflang import compile_gradient, parse
    from tenflang.lang import print_program
    spec = CASES[case]
    if spec.network:
        import sequence_networks as nets
        data, init, text = (nets.make_data(case), nets.initial_weights(case),
                            nets.program(case))
    else:
        data, init, text = make_data(spec), initial_weights(spec), program(spec)
    np.savez(workdir / f"{case}-data.npz", **data)
    np.savez(workdir / f"{case}-init.npz", **init)
    gcp = print_program(compile_gradient(parse(text)))
    (workdir / f"{case}.gcp.tf").write_text(gcp)


def commands(workdir: Path, case: str, dtype: str, steps: int, impls,
             baseline: Path | None = None) -> dict:
    spec, w = CASES[case], str(workdir)
    data, init = f"{w}/{case}-data.npz", f"{w}/{case}-init.npz"
    out = {}
    for impl in impls:
        result = f"{w}/{case}-{dtype}-{impl}-{steps}.npz"
        if impl.startswith("tenflang"):
            root, prefix = ROOT, []
            if impl == "tenflang-numpy":
                prefix = ["env", "TENFLANG_NATIVE=0"]
            elif impl == BASELINE:
                root, prefix = baseline, ["env", f"PYTHONPATH={baseline}"]
            out[impl] = prefix + [sys.executable, str(root / "bin" / "tfweightcalc"), f"{w}/{case}.gcp.tf",
                         data, "--init", init, "--optimizer", "adam", "--lr", str(LR),
                         "--batch-size", str(spec.batch), "--max-iters", str(steps),
                         "--tol", "0", "--dtype", dtype, "--quiet", "-o", result]
        else:
            out[impl] = [sys.executable, str(HERE / "convnet_reference.py"), impl, case, dtype,
                         str(steps), data, init, result]
    return out


def environment(threads: str) -> dict:
    from bench_process import as_users
    env = {**as_users(os.environ), "PYTHONPATH": str(ROOT)}
    if threads == "1":
        env.update({k: "1" for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                     "MKL_NUM_THREADS", "NUMBA_NUM_THREADS",
                                     "TENFLANG_NUM_THREADS")})
        env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    return env


def interleaved(cmds: dict, env: dict, runs: int, warm_up: bool) -> dict:
    """Each command `runs` times, the order rotated every round (after one
    uncounted run each with `warm_up`: it fills the caches)."""
    from bench_process import run_process
    names = list(cmds)
    for name in names if warm_up else ():
        run_process(cmds[name], env)
    out = {name: [] for name in names}
    for i in range(runs):
        for name in names[i % len(names):] + names[:i % len(names)]:
            out[name].append(run_process(cmds[name], env))
    return out


def measure(workdir: Path, case: str, dtype: str, threads: str, runs: int, impls,
            warm_up: bool = True, baseline: Path | None = None) -> dict:
    short, long = CASES[case].steps
    env = environment(threads)
    a = interleaved(commands(workdir, case, dtype, short, impls, baseline), env, runs, warm_up)
    b = interleaved(commands(workdir, case, dtype, long, impls, baseline), env, runs, False)
    rows = {}
    for impl in impls:
        wall = [statistics.median(s[0] for s in r[impl]) for r in (a, b)]
        cpu = [statistics.median(s[2] for s in r[impl]) for r in (a, b)]
        rows[impl] = {"step_ms": 1000 * (wall[1] - wall[0]) / (long - short),
                      "cpu_ms": 1000 * (cpu[1] - cpu[0]) / (long - short),
                      "wall_s": wall[1], "peak_mb": statistics.median(s[1] for s in b[impl]),
                      "startup_s": wall[0]}
    if "torch" in impls and dtype == "float64":     # float32 trajectories part over 1,500 steps
        ref = dict(np.load(workdir / f"{case}-{dtype}-torch-{long}.npz"))
        for impl in impls:
            got = dict(np.load(workdir / f"{case}-{dtype}-{impl}-{long}.npz"))
            rows[impl]["diff"] = max(float(np.abs(got[k].reshape(v.shape) - v).max()
                                           / max(np.abs(v).max(), 1e-300)) for k, v in ref.items())
    return rows


def available(impl: str) -> bool:
    if impl.startswith("tenflang"):
        return True
    try:
        __import__(impl)
        return True
    except ImportError:
        return False


def ratio(rows, impl, other, key="step_ms") -> float | None:
    if other not in rows or rows[other][key] <= 0:
        return None
    return rows[impl][key] / rows[other][key]


def table(results: dict) -> list[str]:
    lines = ["| net | batch | dtype | threads | load | tenflang ms | numpy path ms | PyTorch ms "
             "| JAX ms | ÷ numpy path | ÷ PyTorch (≤ 0.7) | ÷ JAX (≤ 0.8) "
             "| CPU ms: tenflang / numpy path / PyTorch / JAX | CPU ÷ PyTorch / JAX "
             "| peak MB: tenflang / PyTorch / JAX | weights vs PyTorch (float64) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (case, dtype, threads), (rows, load) in results.items():
        def ms(impl):
            return f"{rows[impl]['step_ms']:.2f}" if impl in rows else "–"

        def r(other, target):
            v = ratio(rows, "tenflang", other)
            return "–" if v is None else f"{v:.2f} {'met' if v <= target else 'not met'}"
        cpus = " / ".join(f"{rows[i]['cpu_ms']:.2f}" if i in rows else "–"
                          for i in ("tenflang", "tenflang-numpy", "torch", "jax"))
        cpu_ratios = " / ".join("–" if ratio(rows, "tenflang", i, "cpu_ms") is None else
                                f"{ratio(rows, 'tenflang', i, 'cpu_ms'):.2f}" for i in ("torch", "jax"))
        peaks = " / ".join(f"{rows[i]['peak_mb']:.0f}" if i in rows else "–"
                           for i in ("tenflang", "torch", "jax"))
        diff = "; ".join(f"{i} {rows[i]['diff']:.1e}" for i in rows
                         if i != "torch" and "diff" in rows[i])
        lines.append(f"| {CASES[case].title} | {CASES[case].batch} | {dtype} | {threads} "
                     f"| {load:.1f} | {ms('tenflang')} | {ms('tenflang-numpy')} | {ms('torch')} "
                     f"| {ms('jax')} | {r('tenflang-numpy', 1.0).split()[0]} | {r('torch', TARGET_TORCH)} | {r('jax', TARGET_JAX)} | {cpus} | {cpu_ratios} "
                     f"| {peaks} | {diff} |")
    return lines


def baseline_table(results: dict, baseline: Path) -> list[str]:
    """tenflang against the --baseline checkout, row by row (same rounds)."""
    lines = [f"Against the baseline ({baseline}), in the same rounds:", "",
             "| net | dtype | threads | tenflang ms | baseline ms | ÷ baseline "
             "| CPU ms: tenflang / baseline | peak MB: tenflang / baseline |",
             "|---|---|---|---|---|---|---|---|"]
    for (case, dtype, threads), (rows, _) in results.items():
        if BASELINE not in rows or "tenflang" not in rows:
            continue
        new, old = rows["tenflang"], rows[BASELINE]
        lines.append(f"| {CASES[case].title} | {dtype} | {threads} | {new['step_ms']:.2f} "
                     f"| {old['step_ms']:.2f} | {ratio(rows, 'tenflang', BASELINE):.2f} "
                     f"| {new['cpu_ms']:.2f} / {old['cpu_ms']:.2f} "
                     f"| {new['peak_mb']:.0f} / {old['peak_mb']:.0f} |")
    return lines


def main(argv=None) -> int:
    args = parse_args(argv)
    impls = [i for i in args.impls if available(i)]
    missing = [i for i in args.impls if i not in impls]
    if args.baseline:
        impls.insert(1, BASELINE)
    if args.quick:
        for spec in CASES.values():
            spec.steps = (2, max(6, spec.steps[1] // 10))
    started = time.time()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for case in args.only:
            prepare(workdir, case)
            for dtype in (d for d in DTYPES[case] if d in args.dtypes):
                for threads in args.threads:
                    load = os.getloadavg()[0]
                    ran = [i for i in impls if CASES[case].convs or i != "tenflang-numpy"]
                    results[(case, dtype, threads)] = (
                        measure(workdir, case, dtype, threads, args.runs, ran, args.warm_up,
                                args.baseline), load)
                    print("\n".join(table({(case, dtype, threads): results[(case, dtype, threads)]})[2:]),
                          flush=True)
                    if args.out:         # after every row: a long run stopped early keeps its rows
                        Path(args.out).write_text(report(results, missing, argv_of(argv), started,
                                                         args.baseline))
    text = report(results, missing, argv_of(argv), started, args.baseline)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


def argv_of(argv) -> list[str]:
    return sys.argv[1:] if argv is None else argv


def report(results, missing, argv, started, baseline: Path | None = None) -> str:
    lines = [f"# Training networks: tenflang vs PyTorch eager and JAX jit (whole processes)", "",
             f"`python bench/bench_convnets.py {' '.join(argv)}` — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, "
             f"{os.cpu_count()} cores shared with other work (load: the 1-minute load average "
             f"when the row started); per step = difference of whole `tfweightcalc` / reference "
             f"processes of {', '.join(f'{c}: {s.steps[0]} and {s.steps[1]}' for c, s in CASES.items())} "
             f"Adam steps, medians of interleaved runs.", ""]
    if missing:
        lines += [f"Not installed, left out: {', '.join(missing)}.", ""]
    more = ["", *baseline_table(results, baseline)] if baseline else []
    return "\n".join(lines + table(results) + more) + "\n"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", default=list(CASES), choices=list(CASES))
    p.add_argument("--threads", nargs="+", default=["default", "1"], choices=["default", "1"])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--dtypes", nargs="+", default=["float64", "float32"],
                   choices=["float64", "float32"])
    p.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                   help="Count every run (the C loops and the page cache are warm already).")
    p.add_argument("--impls", nargs="+", default=list(IMPLEMENTATIONS), choices=IMPLEMENTATIONS)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--baseline", type=Path, metavar="DIR",
                   help="Also time tfweightcalc of this checkout (e.g. `git archive OLD | tar -x "
                        "-C DIR`) in the same rounds, and add a table against it.")
    p.add_argument("--out", default=str(HERE / "results_convnets.md"))
    args = p.parse_args(argv)
    if args.baseline:
        args.baseline = args.baseline.resolve()
        if not (args.baseline / "bin" / "tfweightcalc").is_file():
            p.error(f"--baseline: {args.baseline} has no bin/tfweightcalc")
    if args.quick:
        args.runs = 1
    return args


if __name__ == "__main__":
    sys.exit(main())
