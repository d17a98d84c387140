"""recmem.numerics.recurrence_kernels: the fused Triton route of the diagonal recurrence
x_k = λ x_{k−1} + u_k (paper O eq. (2)).

- Without Triton or a GPU the route is refused with a one-line error and never chosen; a kernel
  that fails to build, or builds and gives wrong numbers, fails its self-test with a warning and is
  not used.
- Where Triton is installed, its CPU interpreter (``TRITON_INTERPRET=1``) runs the kernel on CPU
  tensors: the accuracy tests of test_linear_recurrence.py (113-bit reference, every route) and the
  tests below marked ``interpreter`` run again in a subprocess with the fused route included.
- Where a GPU is present, test_linear_recurrence.py's CUDA test covers the compiled kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from recmem.numerics import linear_recurrence as lr
from recmem.numerics import recurrence_kernels as rk

ROOT = Path(__file__).resolve().parent.parent
interpreter = pytest.mark.skipif(not rk.interpreting() or not rk._triton_installed(),
                                 reason="runs inside Triton's interpreter (see test_in_the_interpreter)")


def test_fused_route_is_refused_without_a_gpu() -> None:
    if rk.available(torch.device("cpu")):
        pytest.skip("Triton's interpreter is on: the route runs on CPU")
    assert "fused" not in lr.routes("states", "cpu")
    with pytest.raises(ValueError, match="route 'fused' needs a CUDA device and Triton") as info:
        lr.states(np.ones(2), np.ones((1, 3, 2)), route="fused")
    assert "\n" not in str(info.value)
    for what in lr.ROUTES:
        assert lr.choose_route(what, 1, 4096, 256, "cpu") != "fused"


@pytest.mark.parametrize(("what", "batch", "length", "inputs", "want"), [
    ("states", 1000, 65536, 1, "fused"),
    ("readout", 1000, 65536, None, "fused"),
    # the smallest factored problems, where the kernel's few launches beat sum and fft (H200)
    ("final", 1, 1024, 1, "fused"), ("final", 10, 4096, 1, "fused"),
    ("final", 1, 16384, 1, "sum"), ("final", 100, 1024, 1, "sum"), ("final", 1, 1024, None, "sum"),
    ("readout", 1, 16384, 1, "fused"), ("readout", 10, 1024, 1, "fused"),
    ("readout", 10, 4096, 1, "fft"), ("readout", 1000, 65536, 1, "fft"),
])
def test_cuda_route_choice_with_the_kernel(monkeypatch: pytest.MonkeyPatch, what: str, batch: int,
                                           length: int, inputs: int | None, want: str) -> None:
    """choose_route's CUDA rules where the fused kernel is available (thresholds measured on an
    H200, linear_recurrence.choose_route), and the torch routes where it is not."""
    monkeypatch.setattr(rk, "available", lambda device: device.type == "cuda")
    assert lr.choose_route(what, batch, length, 256, "cuda", inputs=inputs) == want
    monkeypatch.setattr(rk, "available", lambda device: False)
    assert lr.choose_route(what, batch, length, 256, "cuda", inputs=inputs) != "fused"


def test_a_kernel_that_fails_to_build_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("PTX assembly failed\nsecond line")

    monkeypatch.setattr(rk, "run_chunks", broken)
    with pytest.warns(RuntimeWarning, match=r"not used on cpu: RuntimeError: PTX assembly failed$"):
        assert not rk._self_test.__wrapped__(torch.device("cpu"))


def test_a_kernel_with_wrong_numbers_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The self-test can fail: a kernel that forgets the recurrence (states = inputs) is caught."""

    def no_carry(lam: torch.Tensor, u: torch.Tensor, chunk: int, *, init: torch.Tensor | None,
                 out: torch.Tensor | None, ends: torch.Tensor | None, n_chunks: int) -> None:
        assert out is not None and ends is not None
        out.copy_(u)
        ends.zero_()

    monkeypatch.setattr(rk, "run_chunks", no_carry)
    with pytest.warns(RuntimeWarning, match="disagree with a plain loop"):
        assert not rk._self_test.__wrapped__(torch.device("cpu"))


@pytest.mark.skipif(not rk._triton_installed() or rk.interpreting(),
                    reason="needs triton (pip install triton) for its interpreter")
def test_in_the_interpreter() -> None:
    """Accuracy tests of the routes (113-bit reference; λ = 0, |λ| near 1, a start state, dense and
    factored inputs, complex64, empty sequences) and the tests below, with the fused kernel in
    Triton's interpreter: about 3 minutes, for the interpreter runs every tile operation in numpy.
    ``TRITON_INTERPRET=1 pytest tests/test_linear_recurrence.py`` runs all of them (an hour)."""
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    tests = [str(ROOT / "tests" / "test_recurrence_kernels.py"),
             str(ROOT / "tests" / "test_linear_recurrence.py"),
             "-k", "complex64 or numpy_inputs or test_interpreter_ or (every_route and "
                   "(x0-factored-zero_and_mixed or rest-dense-near_unit_circle))"]
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *tests],
                         capture_output=True, text=True, timeout=1200, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert " passed" in out.stdout and " skipped" not in out.stdout.splitlines()[-1]


@interpreter
@pytest.mark.parametrize("dtype", [torch.complex128, torch.complex64])
def test_interpreter_deep_recursion_in_place_and_start_state(monkeypatch: pytest.MonkeyPatch,
                                                             dtype: torch.dtype) -> None:
    """Small tiles and many programs force chunk counts whose chain of ends is itself chunked
    (two levels of recursion), states written over their own input, and a start state."""
    monkeypatch.setattr(rk, "TILE_STEPS", 4)
    monkeypatch.setattr(rk, "TILE_CHANNELS", 8)
    monkeypatch.setattr(rk, "PROGRAMS_PER_SM", 400)
    batch, steps, n = 3, 640, 11
    t, c = lr._fused_chunk(batch, steps, n, torch.device("cpu"))
    assert c > 16 and lr._fused_chunk(batch, c - 1, n, torch.device("cpu"))[1] > 1, (t, c)
    g = torch.Generator().manual_seed(4)
    lam = torch.polar(0.9 + 0.099 * torch.rand(n, generator=g, dtype=torch.float64),
                      6.3 * torch.rand(n, generator=g, dtype=torch.float64)).to(dtype)
    u = torch.randn(batch, steps, n, generator=g, dtype=dtype)
    x0 = torch.randn(batch, n, generator=g, dtype=dtype)
    want = torch.empty_like(u)
    lr._run(lam, u, x0, want)
    tol = 4 * steps * (2.0**-53 if dtype == torch.complex128 else 2.0**-24) * float(want.abs().max())
    got = u.clone()
    lr._fused(lam, got, x0, got)
    torch.testing.assert_close(got, want, rtol=0, atol=tol)
    final = lr._fused_final(lam, u, x0)
    assert final is not None
    torch.testing.assert_close(final, want[:, -1], rtol=0, atol=tol)


@interpreter
def test_interpreter_factored_input_formed_in_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real scalar input through one input vector (u_k = b s_k) goes to the kernel as (s, b): the
    (B, L, N) input is never formed (``_Problem.block`` is not called), and the states and the
    final state agree with the loop, from rest and from a start state."""
    monkeypatch.setattr(rk, "TILE_STEPS", 4)
    monkeypatch.setattr(rk, "TILE_CHANNELS", 8)
    monkeypatch.setattr(rk, "PROGRAMS_PER_SM", 40)
    g = torch.Generator().manual_seed(5)
    batch, steps, n = 2, 300, 9
    lam = torch.polar(0.9 + 0.099 * torch.rand(n, generator=g, dtype=torch.float64),
                      6.3 * torch.rand(n, generator=g, dtype=torch.float64))
    s = torch.randn(batch, steps, generator=g, dtype=torch.float64)
    b = torch.randn(n, generator=g, dtype=torch.complex128)
    x0 = torch.randn(batch, n, generator=g, dtype=torch.complex128)
    for start in (None, x0):
        want = lr.states(lam, s, route="loop", b=b, x0=start)
        tol = 4 * steps * 2.0**-53 * float(want.abs().max())

        def no_blocks(*args: object, **kwargs: object) -> None:
            raise AssertionError("the input was formed outside the kernel")

        with monkeypatch.context() as m:
            m.setattr(lr._Problem, "block", no_blocks)
            got = lr.states(lam, s, route="fused", b=b, x0=start)
            final = lr.final_state(lam, s, route="fused", b=b, x0=start)
        torch.testing.assert_close(got, want, rtol=0, atol=tol)
        torch.testing.assert_close(final, want[:, -1], rtol=0, atol=tol)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal on a machine without CUDA")
def test_tuning_benchmark_refuses_without_cuda() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "tune_recurrence_kernel.py"), "--quick"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 2 and out.stderr.strip() == (
        "CUDA is not available (torch.cuda.is_available() is False)")
