"""recmem.numerics.linear_recurrence: every route of the diagonal recurrence x_k = λ x_{k−1} + u_k
(paper O eq. (2)–(4)) against a 113-bit mpmath reference, the routes against each other, the route
choice, input validation, the benchmark's quick mode, and CUDA against CPU.

Accuracy criterion (forward error of a recurrence evaluated in floating point):
max_k |x̂_k − x_k| ≤ c·L·u·max_k a_k with a_k = Σ_j |λ|^{k−j}|u_j| + |λ|^k|x0| (the magnitudes the
rounding errors scale with), u = 2^-53 (complex128) or 2^-24 (complex64); the readout likewise with
Σ_n |C_n| a_{k,n}.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import example, given
from hypothesis import strategies as st

from recmem.numerics import linear_recurrence as lr

ROOT = Path(__file__).resolve().parent.parent
C_BOUND = 2.0  # the c of c·L·u (measured errors: at most 0.15·L·u·scale on these cases)
UNIT = {torch.complex128: 2.0**-53, torch.complex64: 2.0**-24}


def reference(lam: np.ndarray, u: np.ndarray, x0: np.ndarray | None) -> np.ndarray:
    """All states in 113-bit arithmetic (mpmath), rounded to complex128 at the end: (B, L, N)."""
    batch, length, n = u.shape
    out = np.empty((batch, length, n), dtype=np.complex128)
    with mpmath.workprec(113):
        lam_mp = [mpmath.mpc(complex(v)) for v in lam]
        for bi in range(batch):
            x = [mpmath.mpc(0) if x0 is None else mpmath.mpc(complex(x0[bi, i])) for i in range(n)]
            for k in range(length):
                x = [lam_mp[i] * x[i] + mpmath.mpc(complex(u[bi, k, i])) for i in range(n)]
                out[bi, k] = [complex(v) for v in x]
    return out


def magnitudes(lam: np.ndarray, u: np.ndarray, x0: np.ndarray | None) -> np.ndarray:
    """a_k = |λ| a_{k−1} + |u_k|, a_0 = |x0|: the scale of the rounding errors, (B, L, N)."""
    a = np.zeros(u.shape[::2]) if x0 is None else np.abs(x0).astype(float)
    out = np.empty(u.shape)
    for k in range(u.shape[1]):
        a = np.abs(lam) * a + np.abs(u[:, k])
        out[:, k] = a
    return out


def ring(n: int, rmin: float, rmax: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(rmin, rmax, n) * np.exp(2j * np.pi * rng.uniform(size=n))


CASES = {
    "near_unit_circle": lambda: ring(5, 0.999, 0.99999, 1),
    "small": lambda: 0.01 * np.exp(2j * np.pi * np.arange(4) / 4),
    "zero_and_mixed": lambda: np.array([0.0, 0.5, -0.9, 0.99j, 1.0]),
    "ring": lambda: ring(6, 0.9, 0.999, 2),
}


@dataclass
class Data:
    u: np.ndarray  # (B, L, N): the input entering the recurrence
    s: np.ndarray | None  # (B, L, M) when factored, u = s bᵀ
    b: np.ndarray | None
    x0: np.ndarray | None
    c: np.ndarray  # (2, N)

    @property
    def u_abs(self) -> np.ndarray:
        """|u| as the rounding errors see it: Σ_q |b_q||s_q| for a factored input (the products
        are rounded before they cancel), |u| for a dense one."""
        if self.s is not None and self.b is not None:
            return np.abs(self.s) @ np.abs(self.b).T
        return np.abs(self.u)

    def args(self) -> tuple[np.ndarray, dict[str, np.ndarray | None]]:
        if self.s is not None:
            return self.s, {"b": self.b, "x0": self.x0}
        return self.u, {"x0": self.x0}


def _inputs(lam: np.ndarray, batch: int, length: int, factored: bool, seed: int, with_x0: bool) -> Data:
    rng = np.random.default_rng(seed)
    n = len(lam)
    s, b = None, None
    if factored:  # u_k = b s_k with M = 2 real inputs
        s = rng.standard_normal((batch, length, 2))
        b = rng.standard_normal((n, 2)) + 1j * rng.standard_normal((n, 2))
        u = s @ b.T
    else:
        u = rng.standard_normal((batch, length, n)) + 1j * rng.standard_normal((batch, length, n))
    x0 = rng.standard_normal((batch, n)) + 1j * rng.standard_normal((batch, n)) if with_x0 else None
    c = rng.standard_normal((2, n)) + 1j * rng.standard_normal((2, n))
    return Data(u, s, b, x0, c)


def _assert_within(got: torch.Tensor, want: np.ndarray, scale: float, length: int,
                   dtype: torch.dtype = torch.complex128) -> None:
    err = float(np.max(np.abs(got.cpu().numpy() - want))) if want.size else 0.0
    bound = C_BOUND * max(1, length) * UNIT[dtype] * scale
    assert np.isfinite(err) and err <= bound, f"error {err:.3e} > bound {bound:.3e}"


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("factored", [False, True], ids=["dense", "factored"])
@pytest.mark.parametrize("with_x0", [False, True], ids=["rest", "x0"])
def test_every_route_matches_the_reference(case: str, factored: bool, with_x0: bool) -> None:
    lam = CASES[case]()
    d = _inputs(lam, batch=2, length=150, factored=factored, seed=3, with_x0=with_x0)
    ref = reference(lam, d.u, d.x0)
    mag = magnitudes(lam, d.u_abs, d.x0)
    y_ref = (ref @ d.c.T).real
    y_scale = float(np.max(mag @ np.abs(d.c).T))
    u, kw = d.args()
    for route in (*lr.routes("states"), "auto"):
        _assert_within(lr.states(lam, u, route=route, **kw), ref, mag.max(), 150)
    for route in (*lr.routes("final"), "auto"):
        _assert_within(lr.final_state(lam, u, route=route, **kw), ref[:, -1], mag.max(), 150)
    for route in (*lr.routes("readout"), "auto"):
        y, x = lr.readout(lam, u, d.c, route=route, **kw)
        assert y.shape == (2, 150, 2) and y.dtype == torch.float64
        _assert_within(y, y_ref, y_scale, 150)
        _assert_within(x, ref[:, -1], mag.max(), 150)


def test_long_sequence_does_not_overflow() -> None:
    """L = 20 000 at |λ| = 0.9: |λ|^{−L} ≈ 1e915 overflows float64, so any route that divided by
    λ^k would return inf/nan; every route must match the 113-bit reference."""
    lam = 0.9 * np.exp(1j * np.array([0.3, 2.5]))
    length = 20_000
    assert -length * np.log(0.9) > np.log(np.finfo(np.float64).max)  # |λ|^{−L} is not a float64
    rng = np.random.default_rng(5)
    s = rng.standard_normal((1, length, 1))
    b = np.array([[1.0 + 0.5j], [-0.3 + 1.0j]])
    ref = reference(lam, s @ b.T, None)
    mag = magnitudes(lam, s @ b.T, None)
    c = np.array([0.7 - 0.2j, 1.1 + 0.4j])
    for route in lr.routes("states"):
        _assert_within(lr.states(lam, s, route=route, b=b), ref, mag.max(), length)
    for route in lr.routes("final"):
        _assert_within(lr.final_state(lam, s, route=route, b=b), ref[:, -1], mag.max(), length)
    for route in lr.routes("readout"):
        y, x = lr.readout(lam, s, c, route=route, b=b)
        _assert_within(y, (ref @ c).real, float(np.max(mag @ np.abs(c))), length)
        _assert_within(x, ref[:, -1], mag.max(), length)


def test_powers_are_accurate_far_out() -> None:
    """λ^m up to m = 65 535 within c·m·u of the 113-bit value (down to 1e-150; below, 0), and λ = 0
    gives 0^0 = 1, 0^m = 0."""
    lam = np.array([0.9999 * np.exp(2.9j), 0.5 * np.exp(-1.1j), 0.0])
    m = np.array([0, 1, 7, 1000, 65535])
    got = lr.powers(torch.as_tensor(lam), torch.as_tensor(m)).numpy()
    with mpmath.workprec(113):
        want = np.array([[complex(mpmath.mpc(complex(v)) ** int(k)) for v in lam] for k in m])
    normal = np.abs(want) >= 1e-150  # smaller powers are flushed to 0 (subnormal products are slow)
    rel = np.abs(got - want) / np.where(normal, np.abs(want), 1.0)
    assert np.all(np.where(normal, rel, 0) <= C_BOUND * np.maximum(m, 1)[:, None] * 2.0**-53)
    assert np.all(got[~normal] == 0) and not normal[3, 1]  # 0.5^1000 ≈ 1e-301 is flushed
    assert got[0, 2] == 1 and np.all(got[1:, 2] == 0)


@pytest.mark.parametrize("what", sorted(lr.ROUTES))
def test_complex64_within_its_own_roundoff(what: str) -> None:
    lam = ring(4, 0.9, 0.99, 7)
    d = _inputs(lam, batch=2, length=300, factored=True, seed=8, with_x0=True)
    assert d.s is not None and d.b is not None and d.x0 is not None
    ref = reference(lam, d.u, d.x0)
    mag = magnitudes(lam, d.u_abs, d.x0)
    lam32 = torch.as_tensor(lam, dtype=torch.complex64)
    s32 = torch.as_tensor(d.s, dtype=torch.float32)
    b32 = torch.as_tensor(d.b, dtype=torch.complex64)
    x032 = torch.as_tensor(d.x0, dtype=torch.complex64)
    for route in lr.routes(what):
        if what == "states":
            got = lr.states(lam32, s32, route=route, b=b32, x0=x032)
            want = ref
        elif what == "final":
            got = lr.final_state(lam32, s32, route=route, b=b32, x0=x032)
            want = ref[:, -1]
        else:
            got, _ = lr.readout(lam32, s32, torch.as_tensor(d.c[0], dtype=torch.complex64),
                                route=route, b=b32, x0=x032)
            want = (ref @ d.c[0]).real
            assert got.dtype == torch.float32
        if what != "readout":
            assert got.dtype == torch.complex64
        scale = mag.max() * (np.abs(d.c[0]).sum() if what == "readout" else 1.0)
        _assert_within(got, want, scale, 300, torch.complex64)
        # and complex64 is really single precision: complex128 would be ~1e9 times closer
        assert float(np.max(np.abs(got.numpy() - want))) > 1e3 * 300 * 2.0**-53 * mag.max()


@given(batch=st.integers(1, 3), length=st.integers(1, 300), n=st.integers(1, 5),
       m=st.sampled_from([None, 1, 2]), p=st.sampled_from([None, 2]), with_x0=st.booleans(),
       real=st.booleans(), complex_input=st.booleans(), seed=st.integers(0, 2**16))
@example(batch=1, length=5, n=1, m=2, p=None, with_x0=False, real=False, complex_input=False,
         seed=362)  # b_1 s_1 + b_2 s_2 cancels: the error scale is Σ|b_q||s_q|, not |u|
def test_routes_agree(batch: int, length: int, n: int, m: int | None, p: int | None, with_x0: bool,
                      real: bool, complex_input: bool, seed: int) -> None:
    """On random shapes every route returns what the loop returns (to rounding), in the same shape."""
    g = torch.Generator().manual_seed(seed)
    lam = torch.polar(torch.rand(n, generator=g, dtype=torch.float64),
                      6.3 * torch.rand(n, generator=g, dtype=torch.float64))
    dt = torch.complex128 if complex_input else torch.float64
    u = torch.randn(batch, length, n if m is None else m, generator=g, dtype=dt)
    b = None if m is None else torch.randn(n, m, generator=g, dtype=torch.complex128)
    x0 = torch.randn(batch, n, generator=g, dtype=torch.complex128) if with_x0 else None
    c = torch.randn(n if p is None else (p, n), generator=g, dtype=torch.complex128)
    # the rounding errors scale with Σ_q |b_q||s_q| (factored) or |u| (dense)
    u_abs = u.abs() if b is None else u.abs() @ b.abs().T
    mag = magnitudes(lam.numpy(), u_abs.numpy(), None if x0 is None else x0.numpy())
    # c·L·u for each of the two results compared (hence 2×), plus a few u for the FFT's O(log L)
    # rounding that dominates at tiny L
    tol = 2 * C_BOUND * (length + 16) * 2.0**-53 * mag.max()  # states
    tol_y = tol * float(c.abs().sum(-1).max())  # y = C x: the largest row sum of |C|
    want = lr.states(lam, u, route="loop", x0=x0, b=b)
    assert want.shape == (batch, length, n) and want.dtype == torch.complex128
    y_want, x_want = lr.readout(lam, u, c, route="loop", x0=x0, b=b, real=real)
    assert y_want.shape == ((batch, length) if p is None else (batch, length, p))
    assert y_want.is_complex() != real
    torch.testing.assert_close(x_want, want[:, -1], rtol=0, atol=tol)
    torch.testing.assert_close(lr.states(lam, u, route="scan", x0=x0, b=b), want, rtol=0, atol=tol)
    for route in lr.routes("final"):
        torch.testing.assert_close(lr.final_state(lam, u, route=route, x0=x0, b=b), want[:, -1],
                                   rtol=0, atol=tol)
    for route in lr.routes("readout"):
        y, x = lr.readout(lam, u, c, route=route, x0=x0, b=b, real=real)
        torch.testing.assert_close(y, y_want, rtol=0, atol=tol_y)
        torch.testing.assert_close(x, x_want, rtol=0, atol=tol)


def test_scan_chunks_and_recurses_where_it_should() -> None:
    """The scan really cuts time into chunks (and recurses on the carry) for small B·N, and is
    the loop for large B·N, which is what choose_route relies on."""
    cpu = torch.device("cpu")
    assert lr.scan_chunks(1, 65536, 256, cpu) > 1
    assert lr.scan_chunks(1000, 65536, 256, cpu) == 1
    assert lr.scan_chunks(1, 10, 256, cpu) == 1  # too short for chunks of ≥ 8 steps


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_choose_route_is_valid(device: str) -> None:
    for what, routes in lr.ROUTES.items():
        for batch in (1, 3, 10, 100, 1000):
            for length in (1, 64, 1024, 65536):
                for inputs in (None, 1, 4):
                    assert lr.choose_route(what, batch, length, 256, device, inputs=inputs) in routes
    with pytest.raises(ValueError, match="what must be"):
        lr.choose_route("everything", 1, 1, 1, "cpu")


def test_numpy_inputs_and_empty_sequences() -> None:
    lam = np.array([0.5 + 0.1j, -0.2j])
    u = np.ones((2, 3, 2))
    x = lr.states(lam, u)
    assert isinstance(x, torch.Tensor) and x.dtype == torch.complex128
    np.testing.assert_allclose(x[:, 0].numpy(), 1.0)
    np.testing.assert_allclose(x[:, 1].numpy(), np.stack([lam + 1, lam + 1]))
    empty = np.zeros((2, 0, 2))
    x0 = np.array([1.0, 2.0j])
    assert lr.states(lam, empty).shape == (2, 0, 2)
    np.testing.assert_array_equal(lr.final_state(lam, empty, x0=x0).numpy(), np.stack([x0, x0]))
    for route in lr.routes("readout"):
        y, xl = lr.readout(lam, empty, np.ones(2), route=route)
        assert y.shape == (2, 0) and xl.shape == (2, 2) and not xl.abs().any()


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"lam": np.ones((2, 2)), "u": np.ones((1, 3, 2))}, "lam must have shape"),
    ({"lam": np.ones(2), "u": np.ones((3, 2))}, r"u must have shape \(B, L, N=2\)"),
    ({"lam": np.ones(2), "u": np.ones((1, 3, 5))}, r"u must have shape"),
    ({"lam": np.ones(2), "u": np.ones((1, 3, 2)), "x0": np.ones(3)}, "x0 must have shape"),
    ({"lam": np.ones(2), "u": np.ones((1, 3, 2)), "b": np.ones((3, 1))}, "b must have shape"),
    ({"lam": np.ones(2), "u": np.ones((1, 3, 3)), "b": np.ones((2, 2))}, "with b of shape"),
    ({"lam": np.ones(2), "u": np.ones((1, 3, 2)), "route": "fft"}, "route for 'states'"),
    ({"lam": np.ones(2), "u": "text"}, "u must be a numpy array"),
])
def test_bad_input_is_a_one_line_value_error(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match) as info:
        lr.states(**kwargs)
    assert "\n" not in str(info.value)


def test_bad_readout_matrix() -> None:
    with pytest.raises(ValueError, match="c must have shape"):
        lr.readout(np.ones(2), np.ones((1, 3, 2)), np.ones(3))
    with pytest.raises(ValueError, match="route for 'final'"):
        lr.final_state(np.ones(2), np.ones((1, 3, 2)), route="fft")


def test_benchmark_quick_mode_runs() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_recurrence.py"), "--quick",
                          "--repeats", "2"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    text = out.stdout
    for what in lr.ROUTES:
        assert f"L=256 {what}: auto = " in text
    for route in ("loop", "scan", "sum", "fft"):
        assert f"  {route} " in text
    assert "readout-only (fft) vs best states" in text


@pytest.mark.parametrize(("constant", "value", "failure"), [
    ("READOUT_SPEEDUP", 1e9, "readout only"), ("AUTO_TOLERANCE", 0.5, "auto (")])
def test_benchmark_gates_fail_on_cpu(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                     constant: str, value: float, failure: str) -> None:
    """Both of the benchmark's checks are in force on CPU: made unmeetable, the run fails (exit 1)
    and names the cell (on CUDA the readout ratio is printed only, see its docstring)."""
    import importlib.util

    path = ROOT / "benchmarks" / "bench_recurrence.py"
    spec = importlib.util.spec_from_file_location("bench_recurrence", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, bench)  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    monkeypatch.setattr(bench, constant, value)
    code = bench.main(["--quick", "--strict", "--repeats", "1", "--lengths", "256", "--batches", "4",
                       "--gate-batch", "1"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "FAILED:" in out and "B=4 L=256" in out.split("FAILED:")[1]
    assert failure in out.split("FAILED:")[1]


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("batch", [1, 64])
def test_cuda_matches_cpu(batch: int) -> None:
    lam = torch.as_tensor(ring(32, 0.9, 0.999, 11))
    g = torch.Generator().manual_seed(12)
    s = torch.randn(batch, 3000, 1, generator=g, dtype=torch.float64)
    b = torch.randn(32, 1, generator=g, dtype=torch.complex128)
    c = torch.randn(32, generator=g, dtype=torch.complex128)
    x0 = torch.randn(batch, 32, generator=g, dtype=torch.complex128)
    dev = torch.device("cuda")
    assert "fused" in lr.routes("states", dev) or not lr.recurrence_kernels._triton_installed()
    on = {"lam": lam.to(dev), "s": s.to(dev), "b": b.to(dev), "c": c.to(dev), "x0": x0.to(dev)}
    want = lr.states(lam, s, route="loop", b=b, x0=x0)
    y_want, _ = lr.readout(lam, s, c, route="loop", b=b, x0=x0)
    tol = 1e-10 * float(want.abs().max())
    for route in lr.routes("states", dev):
        got = lr.states(on["lam"], on["s"], route=route, b=on["b"], x0=on["x0"])
        assert got.device.type == "cuda"
        torch.testing.assert_close(got.cpu(), want, rtol=0, atol=tol)
        torch.testing.assert_close(lr.states(on["lam"], on["s"].to(torch.complex128) @ on["b"].T, route=route,
                                             x0=on["x0"]).cpu(), want, rtol=0, atol=tol)
    for route in lr.routes("final", dev):
        got = lr.final_state(on["lam"], on["s"], route=route, b=on["b"], x0=on["x0"])
        torch.testing.assert_close(got.cpu(), want[:, -1], rtol=0, atol=tol)
    for route in lr.routes("readout", dev):
        y, x = lr.readout(on["lam"], on["s"], on["c"], route=route, b=on["b"], x0=on["x0"])
        torch.testing.assert_close(y.cpu(), y_want, rtol=0, atol=tol * float(c.abs().sum()))
        torch.testing.assert_close(x.cpu(), want[:, -1], rtol=0, atol=tol)
