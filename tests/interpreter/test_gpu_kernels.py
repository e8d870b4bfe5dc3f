"""The CUDA backend's kernels, checked on any machine (no GPU needed).

* Translation: every construct of a scalar form to CUDA C, float and double;
  what cannot be translated is one clear error naming it.
* NVRTC: every generated kernel — of every elementwise op, of every sample
  program's plans (forward, and its GCP at -O0 and -O1 with the batch
  reduction training runs), float64 and float32 — compiles to PTX.  Skipped,
  with the reason, when the NVRTC library does not load.
* Semantics: the same kernel sources compiled for the host and launched
  thread by thread (tests/support/cuda_emulator.py) agree with numpy: every
  elementwise op against its own xp forward, including the tails; broadcasting
  of inputs and outputs; batch reductions with one and many partial sums and a
  grid-stride loop.  Skipped when no host C++ compiler is present.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.ops import table as ops
from tenflang.backprop import compile_gradient
from tenflang.interp.runtime import on_gpu as grouping
from tenflang.interp.backends.cuda.fused import kernel_specs, kernels_source
from tenflang.interp.backends.cuda.kernels import KernelSpec, Line, Value, render
from tenflang.interp.backends.cuda.launch import FusedKernel, reduction_rows
from tenflang.interp.backends.cuda.ptx import ARCH, KernelCompileError, nvrtc_or_reason, to_ptx
from tenflang.interp.backends.scalar_c import Untranslatable, to_c
from tenflang.interp import make_plan
from tenflang.lang.syntax_tree import BOUND_KINDS

from support import op_cases
from support.paths import SAMPLES, SAMPLES_DIR

# The emulator compiles every kernel with the host's C++ compiler: the two language
# models (a GRU folded over 16 characters: hundreds of kernels, 40 s each here) are
# left to NVRTC's compile test; their cell's ops are the LSTM and RNN samples' own.
EMULATED = [p for p in SAMPLES if not p.stem.startswith("charlm")]
from support.programs import index_ranges
from support.cuda_emulator import compiler_or_reason, host_runner

NVRTC, NVRTC_REASON = nvrtc_or_reason()
needs_nvrtc = pytest.mark.skipif(NVRTC is None, reason=f"NVRTC unavailable: {NVRTC_REASON}")
CXX, CXX_REASON = compiler_or_reason()
needs_cxx = pytest.mark.skipif(CXX is None, reason=f"cannot emulate kernels: {CXX_REASON}")
DTYPES = ("float64", "float32")
ELEMENTWISE = sorted(n for n, op in ops.TABLE.items() if op.elementwise)


def forms() -> dict:
    """The op table's scalar forms."""
    return {n: ops.TABLE[n].scalar for n in ELEMENTWISE}


# ------------------------------------------------------------------ translation

@pytest.mark.parametrize("form, dtype, c", [
    ("math.exp(a)", "float64", "exp(x)"),
    ("math.exp(a)", "float32", "expf(x)"),
    ("a if a > 0 else b", "float64", "((x > 0.0) ? x : y)"),
    ("min(a, b)", "float64", "tf_min(x, y)"),
    ("max(a, b, 1)", "float32", "tf_max(tf_max(x, y), 1.0f)"),
    ("a ** 2", "float64", "pow(x, 2.0)"),
    ("a ** 2", "float32", "powf(x, 2.0f)"),
    ("abs(a)", "float32", "fabsf(x)"),
    ("1 / 2 * a", "float64", "((1.0 / 2.0) * x)"),       # never C's integer division
    ("-a + +b", "float64", "((-x) + y)"),
    ("0 < a <= 1 and not b", "float64", "((0.0 < x && x <= 1.0) && (!y))"),
    ("a > 0 or b != 0", "float64", "((x > 0.0) || (y != 0.0))"),
    ("math.isnan(a)", "float32", "isnan(x)"),
    ("float(a > b)", "float32", "((float) (x > y))"),
    ("math.log1p(math.exp(-abs(a)))", "float64", "log1p(exp((-fabs(x))))"),
    ("math.inf", "float64", "__longlong_as_double(0x7ff0000000000000LL)"),
    ("-math.inf", "float32", "(-__int_as_float(0x7f800000))"),
    ("a // b", "float64", "floor(x / y)"),
    ("1e-300", "float64", "1e-300"),
])
def test_scalar_forms_translate(form, dtype, c):
    assert to_c(form, {"a": "x", "b": "y"}, dtype) == c


@pytest.mark.parametrize("form, what", [
    ("a % b", "this operator"), ("foo(a)", "this call"), ("c + a", "the name 'c'"),
    ("a.real", "this attribute"), ("'x'", "a non-numeric constant"), ("[a]", "List"),
    ("math.exp(a, base=2)", "keyword arguments"), ("a is b", "this comparison"),
    ("min(a)", "min of fewer than two values"), ("a +", "not a Python expression"),
])
def test_untranslatable_forms_are_one_clear_error(form, what):
    with pytest.raises(Untranslatable) as err:
        to_c(form, {"a": "x", "b": "y"}, where="myop")
    assert str(err.value).startswith("myop: ") and what in str(err.value)


def test_every_elementwise_op_has_a_scalar_form():
    missing = [n for n in ELEMENTWISE if not forms().get(n)]
    assert not missing


# ------------------------------------------------------------------ NVRTC

def single_op_spec(name: str, arity: int) -> KernelSpec:
    inputs = (Value("a", (5,), True), Value("b", (5,), False), Value("c", (5,), False))[:arity]
    line = Line("v", forms()[name], tuple(v.name for v in inputs),
                f"v = {name} {' '.join(v.name for v in inputs)}")
    return KernelSpec(f"op_{name}", (5,), inputs, (line,), (Value("v", (5,), True),))


@needs_nvrtc
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ELEMENTWISE)
def test_every_elementwise_op_kernel_compiles_with_nvrtc(name, dtype):
    ptx = to_ptx(render(single_op_spec(name, ops.TABLE[name].arity), dtype))
    assert f".entry op_{name}(" in ptx and ".target sm_90" in ptx


@needs_nvrtc
def test_a_kernel_that_does_not_compile_is_reported_with_the_log():
    with pytest.raises(KernelCompileError) as err:
        to_ptx('extern "C" __global__ void k() { no_such_function(1.0); }', "bad.cu")
    assert "no_such_function" in str(err.value) and "is undefined" in str(err.value)


def sample_plans(path):
    """The plans a sample runs as: its forward pass, and its GCP's training step
    at -O0 and -O1 (all data bound; the training step reduces over the batch)."""
    return plans_of(tenflang.parse_file(path))


def plans_of(program):
    data = {d.name for d in program.declarations().values() if d.kind in BOUND_KINDS}
    yield "forward", make_plan(program, data), None
    for level in (0, 1):
        gcp = tenflang.parse(tenflang.print_program(compile_gradient(program, level=level)))
        decls = gcp.declarations().values()
        bound = {d.name for d in decls if d.kind in BOUND_KINDS}
        wanted = [d.name for d in decls if d.kind in ("output", "loss")]
        yield f"gcp-O{level}", make_plan(gcp, bound, wanted), "mean"


def plan_groups(plan, reduce):
    return grouping.groups(plan, reduce)


@needs_nvrtc
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_kernel_compiles_with_nvrtc(path, dtype):
    assert compile_plans(sample_plans(path), dtype, path.stem) > 0, "every sample fuses"


@needs_nvrtc
@pytest.mark.parametrize("arch", ["compute_60", "compute_70", "compute_80"])
def test_kernels_compile_for_older_gpus_too(arch):
    """Pascal, Volta, Ampere: nothing in a kernel needs Hopper."""
    assert compile_plans(sample_plans(SAMPLES[-1]), "float64", "old", arch) > 0


def compile_plans(plans, dtype: str, name: str, arch: str = ARCH) -> int:
    """Compile every kernel of `plans` (one NVRTC program); how many there are."""
    sources = [kernels_source(groups, dtype, forms(), prefix=f"k_{label.replace('-', '_')}")
               for label, plan, reduce in plans
               for groups in [plan_groups(plan, reduce)] if groups]
    if not sources:
        return 0
    source = "\n".join(sources)
    ptx = to_ptx(source, f"{name}.cu", arch)
    assert ptx.count(".entry ") == source.count("__global__")
    return source.count("__global__")


# ------------------------------------------------------------------ host emulation

def run_emulated(spec, dtype, *arrays, block=8, max_blocks=3):
    kernel = FusedKernel(spec, dtype, runner=host_runner, block=block, max_blocks=max_blocks)
    return kernel(np, *arrays)


def tail_values(dtype) -> np.ndarray:
    big = 1e4 if dtype == "float64" else 80.0
    return np.array([-big, -30.0, -2.5, -1.0, -1e-3, 0.0, 1e-3, 0.5, 1.0, 3.0, 30.0, big],
                    dtype=dtype)


@needs_cxx
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ELEMENTWISE)
def test_every_elementwise_op_kernel_agrees_with_its_xp_forward(name, dtype):
    op = ops.TABLE[name]
    a = np.repeat(tail_values(dtype)[None, :], 2, axis=0)          # [2 examples, 12]
    a[1] = a[1][::-1]
    b = np.abs(tail_values(dtype))[None, ::-1] * 0.5 + 0.25          # [1, 12]: a weight
    c = tail_values(dtype)[None, ::-1] * 0.3                         # [1, 12]: another
    spec = KernelSpec(f"op_{name}", (12,), (Value("a", (12,), True), Value("b", (12,), False),
                                            Value("c", (12,), False))[:op.arity],
                      (Line("v", forms()[name], ("a", "b", "c")[:op.arity]),),
                      (Value("v", (12,), True),))
    got, = run_emulated(spec, dtype, *(a, b, c)[:op.arity])
    with np.errstate(all="ignore"):
        want = op.forward(np, *(a, b, c)[:op.arity]).astype(dtype)
    rtol = 1e-13 if dtype == "float64" else 2e-6
    np.testing.assert_allclose(got, np.broadcast_to(want, got.shape), rtol=rtol, atol=0,
                               equal_nan=True, err_msg=name)


BROADCAST = KernelSpec(
    "broadcasting", (3, 4),
    (Value("col", (3, 1), True), Value("row", (4,), False), Value("s", (), True)),
    (Line("p", "a * b", ("col", "row"), "p = mul col row"),
     Line("q", "a + b", ("p", "s"), "q = add p s"),
     Line("t", "math.tanh(a)", ("s",), "t = tanh s"),
     Line("u", "a - b", ("row", 2.5), "u = sub row 2.5")),
    (Value("q", (3, 4), True), Value("t", (), True), Value("u", (4,), False)))


def broadcast_reference(col, row, s):
    p = col * row[:, None, :]
    return p + s[:, None, None], np.tanh(s), row - 2.5


@needs_cxx
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [1, 5])
def test_broadcast_inputs_and_smaller_outputs(dtype, batch):
    rng = np.random.default_rng(batch)
    col, row, s = (rng.normal(size=shape).astype(dtype) for shape in
                   [(batch, 3, 1), (1, 4), (batch,)])
    q, t, u = run_emulated(BROADCAST, dtype, col, row, s)
    for got, want in zip((q, t, u), broadcast_reference(col, row, s)):
        np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == "float32" else 1e-14)


REDUCE = KernelSpec(
    "reduce_grad", (3,),
    (Value("x", (3,), True), Value("w", (3,), False), Value("y", (), True)),
    (Line("z", "a * b", ("x", "w")), Line("o", "math.exp(min(a, 0.0)) / (1.0 + math.exp(-abs(a)))",
                                          ("z",)),
     Line("d", "a - b", ("o", "y")), Line("g", "a * b", ("d", "x"))),
    (Value("o", (3,), True),), (Value("g", (3,), True), Value("d", (3,), True)))


@needs_cxx
@pytest.mark.parametrize("batch, block, max_blocks", [(1, 8, 2), (7, 4, 3), (1000, 32, 4)])
def test_batch_reduction_with_partial_sums(batch, block, max_blocks):
    rng = np.random.default_rng(batch)
    x, w, y = rng.normal(size=(batch, 3)), rng.normal(size=(1, 3)), rng.normal(size=batch)
    o, g, d = run_emulated(REDUCE, "float64", x, w, y, block=block, max_blocks=max_blocks)
    want_o = 1 / (1 + np.exp(-(x * w)))
    np.testing.assert_allclose(o, want_o, rtol=1e-14)
    np.testing.assert_allclose(g, ((want_o - y[:, None]) * x).sum(axis=0), rtol=1e-12)
    np.testing.assert_allclose(d, (want_o - y[:, None]).sum(axis=0), rtol=1e-12, atol=1e-14)
    assert g.shape == (3,)


def test_reduction_rows_fill_the_device_and_bound_each_serial_sum():
    assert reduction_rows(1, 3) == 1
    assert reduction_rows(10**6, 1) == 1 << 16          # a scalar over a million examples
    assert reduction_rows(256, 128 * 784) == 4           # at most 64 examples per thread
    assert reduction_rows(10**6, 1 << 20) == -(-10**6 // 64)


@needs_cxx
@pytest.mark.parametrize("path", EMULATED[:3], ids=lambda p: p.name)
def test_sample_gcp_kernels_emulated_agree_with_the_interpreter(path):
    """The -O1 training step's fused groups, each kernel fed the interpreter's own
    values for its inputs, give the interpreter's values for its outputs."""
    from tenflang.interp import run_plan
    _, plan, reduce = list(sample_plans(path))[2]
    data = plan_data(plan, np.random.default_rng(0), 4)
    names = [s.target for s in plan.steps] + list(plan.bound)
    full = make_plan_reporting(plan, names)
    values = run_plan(full, data)
    reduced = run_plan(plan, data, reduce="sum")
    groups = plan_groups(plan, reduce)
    for spec in kernel_specs(groups, forms()):
        args = [np.asarray(values[v.name])[:1] if not v.batched else values[v.name]
                for v in spec.inputs]
        got = run_emulated(spec, "float64", *args)
        for v, out in zip(spec.outputs, got):
            np.testing.assert_allclose(out, np.asarray(values[v.name])[:out.shape[0]],
                                       rtol=1e-12, err_msg=v.name)
        for v, out in zip(spec.reduced, got[len(spec.outputs):]):
            np.testing.assert_allclose(out, reduced[v.name], rtol=1e-12)


def plan_data(plan, rng, batch: int) -> dict:
    """Values in (0.1, 1) for every bound name; a class or row index (what
    `one_hot` or `take` reads) drawn from its range."""
    classes = index_ranges([(s.target, s.op.name, s.operands, s.attrs) for s in plan.steps],
                           plan.shapes)
    return {n: rng.integers(0, classes[n], size=(batch,) + plan.shapes[n]).astype(float)
            if n in classes
            else rng.uniform(0.1, 1.0, size=((batch,) if n in plan.batched else ())
                             + plan.shapes[n])
            for n in plan.bound}


def make_plan_reporting(plan, names):
    """`plan` with every value reported (to feed kernels the interpreter's values)."""
    from dataclasses import replace
    from tenflang.interp.planning.plan import with_releases
    return replace(plan, steps=with_releases(plan.steps, tuple(names)),
                   results=tuple(names), null=frozenset())


@needs_cxx
@pytest.mark.parametrize("path", EMULATED, ids=lambda p: p.name)
def test_sample_plans_run_fused_equal_the_interpreter(path):
    """Whole plans run with their groups as (emulated) kernels: the forward pass
    and the training step at -O0 and -O1, per example and reduced."""
    from tenflang.interp.runtime.on_gpu import run_fused
    from tenflang.interp import run_plan
    rng = np.random.default_rng(1)
    for label, plan, reduce in sample_plans(path):
        data = plan_data(plan, rng, 6)
        want = run_plan(plan, data, reduce=reduce)
        got = run_fused(plan, data, np, reduce=reduce, runner=host_runner)
        assert set(got) == set(want)
        for name in want:
            np.testing.assert_allclose(got[name], want[name], rtol=1e-11, atol=1e-14,
                                       err_msg=f"{path.name} {label} {name}")


@needs_nvrtc
def test_plan_command_prints_the_gpu_kernels_nvrtc_compiles(run_cli, tmp_path):
    gcp = tmp_path / "gcp.tf"
    assert run_cli(["tfcompiler", SAMPLES_DIR / "mlp_digits.tf", "-o", gcp])[0] == 0
    code, out, err = run_cli(["tenflang", "plan", gcp, "--reduce", "mean", "--device", "gpu",
                              "--fused", "--dtype", "float32"])
    assert code == 0, err
    python, marker, kernels = out.partition("// the fused kernels (tenflang.interp.backends.cuda)\n")
    assert marker and "= F.fused_1(dtype, " in python          # the calls the kernels serve
    assert "summed over the examples" in kernels and "// h = " in kernels
    assert 'extern "C" __global__ void tenflang_fused_1(' in kernels and "const float" in kernels
    assert to_ptx(kernels, "plan.cu").count(".entry ") == python.count("= F.fused_")


def first_case_of_each_op():
    seen = {}
    for case in op_cases.cases():
        seen.setdefault(case.values[0], case)
    return list(seen.values())


@needs_cxx
@pytest.mark.parametrize("op, shapes", first_case_of_each_op())
def test_op_table_programs_run_fused_equal_the_interpreter(op, shapes):
    """Each op's gradient-test program, forward and training step, through the
    whole GPU path (groups as emulated kernels, the rest the op's xp forward)."""
    from tenflang.interp.runtime.on_gpu import run_fused
    from tenflang.interp import run_plan
    program = tenflang.parse(op_cases.program_for(op, shapes))
    data, weights = op_cases.data_for(op, shapes, seed=3)
    bound = {**data, **weights}
    for label, plan, reduce in plans_of(program):
        values = {n: bound[n] for n in plan.bound}
        want = run_plan(plan, values, reduce=reduce)
        got = run_fused(plan, values, np, reduce=reduce, runner=host_runner)
        for name in want:
            np.testing.assert_allclose(got[name], want[name], rtol=1e-11, atol=1e-13,
                                       err_msg=f"{op} {label} {name}")


@needs_nvrtc
@pytest.mark.parametrize("dtype", DTYPES)
def test_values_named_like_c_words_and_functions_compile(dtype):
    """A local named `exp` would hide exp() (and `int` is no name at all in C)."""
    names = ["exp", "int", "log", "expf", "tanh", "rows"]
    lines = ["declare input x", "declare weight k", "declare exp_output y", "declare loss l"]
    lines += [f"declare intvar {n}" for n in names]
    previous = "x"
    for n in names:
        lines.append(f"define {n} = mul {previous} k" if n == "exp" else f"define {n} = tanh {previous}")
        previous = n
    lines.append(f"define l = sub {previous} y")
    program = tenflang.parse("\n".join(lines) + "\n")
    assert compile_plans(plans_of(program), dtype, "names") > 0
