"""A program's names never collide with generated code (tenflang/base/naming.py):
values named like every C keyword (C89 to C23), math.h function and macro,
predefined C macro, Python keyword and builtin run on the numpy path, the C
loops and the numba loops with the results numpy gives written out here; the
CUDA kernels of such a program compile (NVRTC, where installed); and
`tfweightcalc`/`tfevaluate` train and evaluate a program with intvars `NAN`
and `range` on 2,000 examples (fused loops)."""
from __future__ import annotations

import builtins
import keyword

import numpy as np
import pytest

import tenflang
from tenflang.native import clib
from tenflang.base import naming
from tenflang.interp.backends.c import c_loops
from tenflang.interp import make_plan, run_plan
from tenflang.interp.backends.numba import numba_loops
from tenflang.interp.runtime.codegen import compiled, plan_source
from tenflang.interp.runtime.run import FUSE_FROM

C_KEYWORDS = """auto break case char const continue default do double else enum extern float for
    goto if inline int long register restrict return short signed sizeof static struct switch
    typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic
    _Imaginary _Noreturn _Static_assert _Thread_local alignas alignof bool constexpr false
    nullptr static_assert thread_local true typeof typeof_unqual _BitInt _Decimal32 _Decimal64
    _Decimal128 class template typename namespace new delete this operator""".split()
MATH_H = """NAN INFINITY HUGE_VAL HUGE_VALF HUGE_VALL FP_NAN FP_INFINITE FP_ZERO FP_SUBNORMAL
    FP_NORMAL FP_ILOGB0 FP_ILOGBNAN FP_FAST_FMA FP_FAST_FMAF MATH_ERRNO MATH_ERREXCEPT
    math_errhandling M_E M_LOG2E M_LOG10E M_LN2 M_LN10 M_PI M_PI_2 M_PI_4 M_1_PI M_2_PI
    M_2_SQRTPI M_SQRT2 M_SQRT1_2 isnan isinf isfinite isnormal signbit fpclassify isgreater
    isgreaterequal isless islessequal islessgreater isunordered float_t double_t exp expm1 log
    log1p log2 log10 sqrt cbrt tanh sinh cosh sin cos tan atan asin acos erf erfc floor ceil
    round fabs copysign pow fmod atan2 trunc hypot fmin fmax fma expf logf sqrtf fabsf tanhf
    tf_min tf_max""".split()
PREDEFINED = """__LINE__ __FILE__ __DATE__ __TIME__ __STDC__ __STDC_VERSION__ __STDC_HOSTED__
    __func__ __COUNTER__ __GNUC__ __x86_64__ __linux__ __CUDACC__ linux unix i386 NULL size_t
    errno EDOM ERANGE""".split()
GENERATED = """i j e r n S start stop block end batch rows np math numba xp F env dtype run
    loop_1 fused_1 in_x out_x acc_x partial_x x_in x_out x_part x_sum""".split()
TENFLANG_KEYWORDS = {"declare", "define", "macro", "end"}
NAMES = [n for n in dict.fromkeys(C_KEYWORDS + MATH_H + PREDEFINED + GENERATED + keyword.kwlist
                                   + keyword.softkwlist + dir(builtins))
         if n.isidentifier() and n not in TENFLANG_KEYWORDS and n != "x"]


def chain_program() -> str:
    """`x` through one elementwise chain whose values bear every name in NAMES:
    tanh and add alternately (bounded values), ending in the output `o`."""
    lines = ["declare input x", "declare output o"] + [f"declare intvar {n}" for n in NAMES]
    prev2 = prev = "x"
    for k, name in enumerate(NAMES):
        lines.append(f"define {name} = add {prev} {prev2}" if k % 2 else f"define {name} = tanh {prev}")
        prev2, prev = prev, name
    return "\n".join(lines + [f"define o = mul {prev} 2"]) + "\n"


def chain_in_numpy(x: np.ndarray) -> np.ndarray:
    prev2 = prev = x
    for k in range(len(NAMES)):
        prev2, prev = prev, (prev + prev2) if k % 2 else np.tanh(prev)
    return prev * 2


def fallen_back(specs, dtype="float64"):
    raise AssertionError("the C loops did not compile: the run fell back to numba")


def no_compiler(specs, dtype="float64"):
    raise clib.Unavailable("no C compiler (a test's stand-in)")


@pytest.fixture(params=["c", "numba"])
def loops(request, monkeypatch):
    """The C loops (a compile failure fails the test), then the numba loops."""
    if request.param == "c":
        if clib.unavailable_reason():
            pytest.skip(clib.unavailable_reason())
        monkeypatch.setattr(numba_loops, "compiled", fallen_back)
    else:
        pytest.importorskip("numba")
        monkeypatch.setattr(c_loops, "compiled", no_compiler)
    compiled.cache_clear()
    yield request.param
    compiled.cache_clear()


def test_the_names_are_every_reserved_word_there_is():
    assert {"NAN", "INFINITY", "HUGE_VAL", "__LINE__", "_Bool", "range", "min", "abs",
            "lambda", "__debug__", "None"} <= set(NAMES) and len(NAMES) > 300


def test_values_named_like_reserved_words_run_on_numpy_as_written():
    plan = make_plan(tenflang.parse(chain_program()), {"x"})
    x = np.linspace(-2, 2, 7)
    np.testing.assert_allclose(run_plan(plan, {"x": x})["o"], chain_in_numpy(x), rtol=1e-12)
    source = plan_source(plan)
    # the program's names where they hide nothing (auto), a `_` where they would (vars)
    assert "    auto = xp.tanh(x)\n" in source and "return {'o': vars_}" in source


def test_values_named_like_reserved_words_run_in_fused_loops(loops):
    plan = make_plan(tenflang.parse(chain_program()), {"x"})
    x = np.linspace(-2, 2, FUSE_FROM + 5)
    got = run_plan(plan, {"x": x})["o"]
    np.testing.assert_allclose(got, chain_in_numpy(x), rtol=1e-12, atol=1e-15)


def test_cuda_kernels_of_reserved_names_compile():
    from tenflang.interp.backends.cuda import ptx
    if ptx.nvrtc_or_reason()[0] is None:
        pytest.skip(ptx.nvrtc_or_reason()[1])
    from tenflang.interp.backends.cuda.fused import kernels_source
    from tenflang.interp.runtime.on_gpu import groups
    plan = make_plan(tenflang.parse(chain_program()), {"x"})
    for dtype in ("float64", "float32"):
        source = kernels_source(groups(plan, None), dtype)
        assert "v_NAN" in source and ptx.to_ptx(source)


def test_c_identifiers_never_show_a_program_name_bare():
    ids = naming.Identifiers(naming.c_identifier, ["i", "j"])
    assert [ids(n) for n in ("NAN", "__LINE__", "d/dW1", "h.1", "h_1")] == \
        ["v_NAN", "v___LINE__", "v_d_dW1", "v_h_1", "v_h_1_2"]
    py = naming.Identifiers(naming.python_identifier, ["n"])
    assert [py(n) for n in ("range", "n", "lambda", "h.1", "loop_3", "w")] == \
        ["range_", "n_", "lambda_", "h_1", "loop_3_", "w"]


NAN_RANGE = """declare input x
declare exp_output y
declare weight w
declare intvar NAN
declare intvar range
declare output o
declare loss l
define NAN = mul x w
define range = tanh NAN
define o = add range 0.5
define l = mul (sub o y) (sub o y)
"""


def test_intvars_nan_and_range_train_and_evaluate(tmp_path, run_cli_batch):
    shape = tmp_path / "nan_range.tf"
    shape.write_text(NAN_RANGE)
    x = np.linspace(-1, 1, 2000)
    tenflang.save_examples(str(tmp_path / "d.npz"), {"x": x, "y": np.tanh(0.8 * x) + 0.5})
    tenflang.save_examples(str(tmp_path / "in.npz"), {"x": x})
    gcp, weights = tmp_path / "gcp.tf", tmp_path / "w.txt"
    done = run_cli_batch([["tfcompiler", shape, "-o", gcp],
                          ["tfweightcalc", gcp, tmp_path / "d.npz", "--lr", "0.5",
                           "--max-iters", "30", "-o", weights],
                          ["tfevaluate", shape, tmp_path / "in.npz", weights]])
    for code, out, err in done:
        assert code == 0 and "Traceback" not in err, err
    w = float(tenflang.load_weights(str(weights))["w"])
    assert 0.3 < w < 1.3                      # learning towards 0.8
    assert len(done[2][1].splitlines()) == 2000
