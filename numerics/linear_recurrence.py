"""The diagonal complex linear recurrence at speed (paper O, eq. (2)–(4)).

    x_k = λ ⊙ x_{k−1} + u_k,   k = 1 … L,   x_0 = x0 (or 0),   y_k = Re(C x_k)

over a batch of sequences, where ``u_k`` is already the projected input B u_k of paper O eq. (2).
Three routes compute it, all accurate to float rounding (forward error ≲ c·L·u relative to the
magnitudes Σ_j |λ|^{k−j}|u_j|, u the unit roundoff of the dtype):

- ``loop``: sequential in time, vectorised over batch and channels, one fused ``addcmul`` per step
  written in place into a preallocated output (paper O eq. (2) as written);
- ``scan``: a blocked reduce-then-scan: the time axis is cut into C chunks of T steps; a first pass
  runs all chunks at once from rest and keeps only their end states, the C chunk ends are chained by
  the same recurrence with λ^T (recursively, so the carry is itself a scan), and a second pass
  re-runs every chunk from its true start state. Every step is an ``addcmul`` over B·C·N numbers
  instead of B·N, which is what pays off when B·N is small. Nothing divides by λ^k: the closed form
  x_k = λ^k Σ_j λ^{−j} u_j overflows once |λ|^{−k} leaves the float range (≈ 6 700 steps at
  |λ| = 0.9) and is not used anywhere;
- ``fft`` (readout only, and ``sum`` for the final state): the readout is a causal convolution
  with the kernel K[m] = Re Σ_n C_n λ_n^m B_n (paper O eq. (3)) done by rfft/irfft padded to 2L,
  and x_L = Σ_j λ^{L−j} u_j is one weighted sum (a GEMM when the input is factored as B·s).

The readout-only routes pay off when the input is given factored, u_k = B s_k with s_k ∈ R^M and
M ≪ N (``b=``): then no (B, L, N) tensor is ever formed. Powers λ^m are never built by running
products (whose rounding errors accumulate along m): λ^m = |λ|^m e^{imθ} from ``pow`` and
cos/sin (relative error ≈ 2π·m·u from the rounding of θ, the same order as the recurrence's own),
blocked as λ^{qT+r} = λ^{qT}·λ^r (twice over) so only O(N·L^{1/4}) transcendental calls are made.

``choose_route`` picks the fastest route from the shape and device by rules whose thresholds were
measured with ``benchmarks/bench_recurrence.py`` (see its docstring). The routes write into
preallocated outputs and do not support autograd: they evaluate, they do not train.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from recmem.numerics import recurrence_kernels
from recmem.numerics.certified_oracles import InternalInconsistency

ROUTES: dict[str, tuple[str, ...]] = {
    "states": ("loop", "scan", "fused"),
    "final": ("loop", "scan", "sum", "fused"),
    "readout": ("loop", "scan", "fft", "fused"),
}
# Routes that need a CUDA device and Triton (numerics/recurrence_kernels.py).
GPU_ROUTES = frozenset({"fused"})

# Bytes of any temporary block (materialised inputs, states of a readout block, FFT work arrays).
_BLOCK_BYTES = 64 * 2**20
# Smallest chunk length of the scan; shorter chunks only add carry work.
_MIN_CHUNK = 8
# The scan cuts time into chunks only when a step of the loop acts on at most _SCAN_MAX_ROW numbers
# (B·N): then the loop is dominated by the per-operation overhead of torch (≈ 5 µs on CPU, a kernel
# launch on CUDA), and the chunks make every step act on ≈ _SCAN_STEP_ELEMENTS numbers instead.
# CPU (2 cores, N = 256, L = 16384, measured with benchmarks/bench_recurrence.py and a sweep of the
# target): scan/loop time 0.35 at B = 1, 0.7 at B = 2, ≈ 1 at B = 4, 1.1–1.3 at B ≥ 8; targets 2^14
# to 2^16 did equally well. CUDA (measured on one H100, N = 256, `bench_recurrence.py --device
# cuda`): states scan/loop time 0.07–0.11 at B = 10 (B·N = 2560; L = 1024 … 16384) but 1.7 at
# B = 100 (B·N = 25600, L = 4096): the threshold lies between, and 2^13 keeps B ≤ 32 chunked.
_SCAN_MAX_ROW = {"cpu": 2**10, "cuda": 2**13}
_SCAN_STEP_ELEMENTS = {"cpu": 2**14, "cuda": 2**20}


# ----------------------------------------------------------------------------------------------
# inputs
# ----------------------------------------------------------------------------------------------


@dataclass
class _Problem:
    """Validated inputs: λ (N,), the input (dense u (B, L, N) or factored s (B, L, M) with b (N, M))."""

    lam: torch.Tensor
    u: torch.Tensor | None
    s: torch.Tensor | None
    b: torch.Tensor | None
    x0: torch.Tensor | None
    batch: int
    length: int
    n: int
    cdtype: torch.dtype
    _table_memo: dict[int | None, _Tables] = field(default_factory=dict)

    def tables(self, t: int | None = None) -> _Tables:
        """``_tables(λ, L, t)``, made once per call: the readout's kernel, its final state and the
        x0 term share them (at B·M = 1 they are the same tables; a third of the time at L = 1024)."""
        if t not in self._table_memo:
            self._table_memo[t] = _tables(self.lam, self.length, t)
        return self._table_memo[t]

    @property
    def device(self) -> torch.device:
        return self.lam.device

    @property
    def inputs(self) -> int | None:
        """M when the input is factored (u_k = B s_k), None for a dense u."""
        return None if self.b is None else int(self.b.shape[1])

    def block(self, k0: int, k1: int, out: torch.Tensor | None) -> torch.Tensor:
        """The inputs u_{k0+1} … u_{k1} as a (B, k1−k0, N) complex tensor.

        A view of u when it is dense; otherwise u_k = B s_k is written into ``out`` (preallocated:
        fresh allocations of this size cost page faults comparable to the recurrence itself).
        """
        if self.u is not None:
            return self.u[:, k0:k1]
        assert self.s is not None and self.b is not None and out is not None
        s = self.s[:, k0:k1]
        if self.b.shape[1] == 1 and not s.is_complex():  # real × complex as one real broadcast
            torch.mul(s[..., None], torch.view_as_real(self.b[:, 0]), out=torch.view_as_real(out))
        elif self.b.shape[1] == 1:
            torch.mul(s, self.b[:, 0], out=out)
        elif not s.is_complex():
            bt = torch.view_as_real(self.b.T.contiguous()).flatten(1)  # (M, 2N)
            out.copy_(torch.view_as_complex(torch.matmul(s, bt).unflatten(-1, (self.n, 2))))
        else:
            out.copy_(torch.matmul(s, self.b.T))
        return out

    def kernel_input(self) -> recurrence_kernels.Factored | None:
        """The input as the fused kernels take it factored (real s, one input vector b), or None
        when it is dense or has M > 1 inputs (then it is formed in blocks like for the other routes)."""
        if self.s is None or self.b is None or self.b.shape[1] != 1 or self.s.is_complex():
            return None
        return recurrence_kernels.Factored(self.s[:, :, 0], self.b[:, 0].contiguous())

    def block_steps(self, per_step_numbers: int) -> int:
        """How many time steps fit a temporary block of ``per_step_numbers`` complex numbers each."""
        itemsize = torch.empty((), dtype=self.cdtype).element_size()
        return max(1, _BLOCK_BYTES // max(1, per_step_numbers * itemsize))


def _as_tensor(a: Any, name: str, device: torch.device | None = None) -> torch.Tensor:
    if isinstance(a, torch.Tensor):
        return a if device is None else a.to(device)
    if isinstance(a, np.ndarray | list | tuple | complex | float | int):
        return torch.as_tensor(np.asarray(a), device=device)
    raise ValueError(f"{name} must be a numpy array or a torch tensor, got {type(a).__name__}")


def _complex_dtype(*tensors: torch.Tensor | None) -> torch.dtype:
    """complex64 when every given tensor is single precision (or integer), else complex128."""
    single = {torch.float32, torch.complex64, torch.float16, torch.bfloat16}
    floats = [t.dtype for t in tensors if t is not None and (t.is_floating_point() or t.is_complex())]
    return torch.complex64 if floats and all(d in single for d in floats) else torch.complex128


def _prepare(lam: Any, u: Any, x0: Any, b: Any) -> _Problem:
    u_t = _as_tensor(u, "u")
    device = u_t.device
    lam_t = _as_tensor(lam, "lam", device)
    b_t = None if b is None else _as_tensor(b, "b", device)
    x0_t = None if x0 is None else _as_tensor(x0, "x0", device)
    if lam_t.dim() != 1:
        raise ValueError(f"lam must have shape (N,), got {tuple(lam_t.shape)}")
    n = int(lam_t.shape[0])
    cdtype = _complex_dtype(lam_t, u_t, b_t, x0_t)
    rdtype = torch.float32 if cdtype == torch.complex64 else torch.float64
    lam_t = lam_t.to(cdtype)
    s_t = u_d = None
    if b_t is None:
        if u_t.dim() != 3 or u_t.shape[2] != n:
            raise ValueError(f"u must have shape (B, L, N={n}), got {tuple(u_t.shape)}")
        u_d = u_t.to(cdtype)
    else:
        if b_t.dim() == 1:
            b_t = b_t[:, None]
        if b_t.dim() != 2 or b_t.shape[0] != n:
            raise ValueError(f"b must have shape (N={n},) or (N={n}, M), got {tuple(b_t.shape)}")
        m = int(b_t.shape[1])
        if u_t.dim() == 2 and m == 1:
            u_t = u_t[:, :, None]
        if u_t.dim() != 3 or u_t.shape[2] != m:
            raise ValueError(f"with b of shape (N, M={m}), u must have shape (B, L, M={m}) "
                             f"(or (B, L) when M = 1), got {tuple(u_t.shape)}")
        b_t = b_t.to(cdtype)
        s_t = u_t.to(cdtype if u_t.is_complex() else rdtype)
    batch, length = int(u_t.shape[0]), int(u_t.shape[1])
    if x0_t is not None:
        if x0_t.dim() == 1:
            x0_t = x0_t[None, :].expand(batch, -1)
        if x0_t.dim() != 2 or x0_t.shape[1] != n or x0_t.shape[0] != batch:
            raise ValueError(f"x0 must have shape (N={n},) or (B={batch}, N={n}), got {tuple(x0_t.shape)}")
        x0_t = x0_t.to(cdtype).contiguous()
    return _Problem(lam_t, u_d, s_t, b_t, x0_t, batch, length, n, cdtype)


def _readout_matrix(c: Any, p: _Problem) -> tuple[torch.Tensor, bool]:
    """C as (P, N) complex, and whether it was given as a vector (N,)."""
    c_t = _as_tensor(c, "c", p.device)
    vector = c_t.dim() == 1
    if vector:
        c_t = c_t[None, :]
    if c_t.dim() != 2 or c_t.shape[1] != p.n:
        raise ValueError(f"c must have shape (N={p.n},) or (P, N={p.n}), got {tuple(c_t.shape)}")
    return c_t.to(p.cdtype), vector


def _check_route(what: str, route: str, p: _Problem) -> str:
    if what not in ROUTES:
        raise ValueError(f"what must be one of {sorted(ROUTES)}, got {what!r}")
    if route == "auto":
        return choose_route(what, p.batch, p.length, p.n, p.device, inputs=p.inputs)
    if route not in ROUTES[what]:
        raise ValueError(f"route for {what!r} must be 'auto' or one of {ROUTES[what]}, got {route!r}")
    if route in GPU_ROUTES and not recurrence_kernels.available(p.device):
        raise ValueError(f"route {route!r} needs a CUDA device and Triton, with a kernel that passed its "
                         f"self-test there (the input is on {p.device})")
    return route


def routes(what: str, device: Any = "cpu") -> tuple[str, ...]:
    """The routes for ``what`` that can run on ``device`` (the fused kernels only on CUDA with Triton)."""
    dev = torch.device(device)
    return tuple(r for r in ROUTES[what] if r not in GPU_ROUTES or recurrence_kernels.available(dev))


# ----------------------------------------------------------------------------------------------
# powers of λ
# ----------------------------------------------------------------------------------------------


def powers(lam: torch.Tensor, exponents: torch.Tensor) -> torch.Tensor:
    """λ^m for integer m ≥ 0 (paper O eq. (3)–(4) entries), shape (len(m), N), in λ's dtype.

    |λ|^m by ``pow`` (accurate to about an ulp) and the phase m·θ: the rounding of θ = arg λ
    makes the relative error ≈ 2π·m·u, never a running product. Computed in float64 whatever
    λ's dtype. λ = 0 gives 0^0 = 1 and 0^m = 0; powers below 1e-150 are 0 (see ``_flush``).
    """
    lam64 = lam.to(torch.complex128)
    m = exponents.to(device=lam.device, dtype=torch.float64)[:, None]
    mag, phase = torch.pow(lam64.abs(), m), m * torch.angle(lam64)
    # r·cos + i r·sin: the same numbers as torch.polar, measured 5× faster (vectorised cos/sin)
    return _flush(torch.complex(mag * torch.cos(phase), mag * torch.sin(phase)).to(lam.dtype))


def _flush(t: torch.Tensor) -> torch.Tensor:
    """Powers below 1e-150 (1e-18 in single precision) set to 0, in place: any product of two of the
    rest is a normal number, while subnormal operands make a GEMM ~10× slower on x86 (measured:
    x_L at B = 1000, L = 65536 took 3.9 s with λ^m down to 0.9^8192 ≈ 1e-375). The terms dropped
    are below 1e-150 of the inputs they multiply."""
    tiny = 1e-150 if t.dtype == torch.complex128 else 1e-18
    # |t|² < tiny² (a normal number in either precision): complex abs is a slow hypot, measured 3 ns
    # per entry, half the time of building the power tables
    re, im = t.real, t.imag
    return t.masked_fill_(torch.addcmul(re * re, im, im) < tiny * tiny, 0)


def _power_block(lam: torch.Tensor, m0: int, m1: int, table: torch.Tensor) -> torch.Tensor:
    """λ^m for m = m0 … m1−1 as λ^{m0}·λ^r with the table λ^r, r < len(table) (≥ m1 − m0)."""
    return _flush(table[: m1 - m0] * powers(lam, torch.tensor([m0])))


@dataclass
class _Tables:
    """λ^m = λ^{qT}·λ^r (m = qT + r) from two tables: low (T, N) and high (Q, N)."""

    low: torch.Tensor  # (T, N): λ^r
    high: torch.Tensor  # (Q, N): λ^{qT}

    @property
    def t(self) -> int:
        return int(self.low.shape[0])

    @property
    def q(self) -> int:
        return int(self.high.shape[0])


def _pow2_near(x: float) -> int:
    return 1 << max(0, round(math.log2(max(1.0, x))))


def _tables(lam: torch.Tensor, length: int, t: int | None = None) -> _Tables:
    """Tables λ^r (r < T) and λ^{qT} (q < Q = ⌈length/T⌉), T = t (default ≈ √length, a power of two).

    Each table is itself the outer product of two "digit" tables (r = r1·T' + r0, q = q1·Q' + q0
    with T' ≈ √T, Q' ≈ √Q), and all four digit tables come from one call of ``powers``: O(N·L^{1/4})
    cos/sin/pow evaluations and a handful of torch operations, each adding one rounding to the
    relative error ≈ 2π·m·u of ``powers``.
    """
    t = _pow2_near(math.sqrt(length)) if t is None else t
    q = max(1, -(-length // t))
    t0, q0 = _pow2_near(math.sqrt(t)), _pow2_near(math.sqrt(q))
    t1, q1 = -(-t // t0), -(-q // q0)
    digits = (torch.arange(t0), torch.arange(t1) * t0, torch.arange(q0) * t, torch.arange(q1) * (q0 * t))
    lo0, lo1, hi0, hi1 = powers(lam, torch.cat(digits)).split([t0, t1, q0, q1])
    low = _flush((lo1[:, None, :] * lo0[None, :, :]).flatten(0, 1)[:t].contiguous())
    high = _flush((hi1[:, None, :] * hi0[None, :, :]).flatten(0, 1)[:q].contiguous())
    return _Tables(low, high)


def _expsum(tab: _Tables, w: torch.Tensor, length: int) -> torch.Tensor:
    """Σ_n λ_n^m w[n, j] for m = 0 … length−1: (length, J), by complex GEMMs on the tables.

    With m = qT + r this is Σ_n λ_n^{qT} (λ_n^r w[n, j]): for every column j one GEMM (Q, N)·(N, T)
    (or for every r one GEMM (Q, N)·(N, J) when J > T); L·N·J multiply-adds, no (L, N) matrix.
    """
    cols = int(w.shape[1])
    out = torch.empty(tab.q, tab.t, cols, dtype=w.dtype, device=w.device)
    if cols <= tab.t:
        for j in range(cols):
            torch.matmul(tab.high, (tab.low * w[:, j]).T, out=out[:, :, j])
    else:
        for r in range(tab.t):
            torch.matmul(tab.high, tab.low[r][:, None] * w, out=out[:, r])
    return out.flatten(0, 1)[:length]


# ----------------------------------------------------------------------------------------------
# loop
# ----------------------------------------------------------------------------------------------


def _run(lam: torch.Tensor, u: torch.Tensor, x: torch.Tensor | None, out: torch.Tensor) -> None:
    """out[:, j] = λ·out[:, j−1] + u[:, j] sequentially (out[:, −1] := x, or 0 when x is None)."""
    steps = u.shape[1]
    if steps == 0:
        return
    if x is None:
        out[:, 0].copy_(u[:, 0])
    else:
        torch.addcmul(u[:, 0], lam, x, out=out[:, 0])
    for j in range(1, steps):
        torch.addcmul(u[:, j], lam, out[:, j - 1], out=out[:, j])


def _run_final(lam: torch.Tensor, u: torch.Tensor, x: torch.Tensor | None) -> torch.Tensor | None:
    """The last state of ``_run`` without keeping the others (two alternating buffers)."""
    steps = u.shape[1]
    if steps == 0:
        return x
    cur = u[:, 0].clone() if x is None else torch.addcmul(u[:, 0], lam, x)
    nxt = torch.empty_like(cur)
    for j in range(1, steps):
        torch.addcmul(u[:, j], lam, cur, out=nxt)
        cur, nxt = nxt, cur
    return cur


# ----------------------------------------------------------------------------------------------
# blocked reduce-then-scan
# ----------------------------------------------------------------------------------------------


def scan_chunks(batch: int, steps: int, n: int, device: Any = "cpu") -> int:
    """Number of chunks C the scan cuts ``steps`` time steps into; 1 means the scan *is* the loop
    (the same operations), which it is whenever B·N > _SCAN_MAX_ROW (see there)."""
    kind = "cuda" if torch.device(device).type == "cuda" else "cpu"
    row = max(1, batch * n)
    if row > _SCAN_MAX_ROW[kind]:
        return 1
    return max(1, min(_SCAN_STEP_ELEMENTS[kind] // row, steps // _MIN_CHUNK))


def _scan(lam: torch.Tensor, u: torch.Tensor, x: torch.Tensor | None, out: torch.Tensor) -> None:
    """States of u (B, S, N) from x into out (B, S, N): reduce-then-scan over C chunks of T steps."""
    batch, steps, n = u.shape
    c = scan_chunks(batch, steps, n, u.device)
    if c == 1:
        _run(lam, u, x, out)
        return
    t = steps // c
    body = c * t
    uc = u[:, :body].unflatten(1, (c, t))
    ends = _chunk_ends(lam, uc)  # each chunk's end state from rest (B, C, N)
    lam_t = powers(lam, torch.tensor([t]))[0]
    # chain the chunk ends: e_c = λ^T e_{c−1} + ends_c, a recurrence of length C (scanned in turn)
    _scan(lam_t, ends, x, ends)
    starts = torch.empty_like(ends)
    if x is None:
        starts[:, 0].zero_()
    else:
        starts[:, 0].copy_(x)
    starts[:, 1:].copy_(ends[:, :-1])
    oc = out[:, :body].unflatten(1, (c, t))
    torch.addcmul(uc[:, :, 0], lam, starts, out=oc[:, :, 0])
    for j in range(1, t):
        torch.addcmul(uc[:, :, j], lam, oc[:, :, j - 1], out=oc[:, :, j])
    if body < steps:
        _run(lam, u[:, body:], out[:, body - 1], out[:, body:])


def _chunk_ends(lam: torch.Tensor, uc: torch.Tensor) -> torch.Tensor:
    """The state at the end of every chunk of uc (B, C, T, N) run from rest: (B, C, N)."""
    out = _run_final(lam, uc.transpose(1, 2), None)  # steps over T, each on (B, C, N) at once
    assert out is not None
    return out


def _scan_final(lam: torch.Tensor, u: torch.Tensor, x: torch.Tensor | None) -> torch.Tensor | None:
    """x_S of u (B, S, N) from x, by the reduce pass only (the carry is itself a final state)."""
    batch, steps, n = u.shape
    c = scan_chunks(batch, steps, n, u.device)
    if c == 1:
        return _run_final(lam, u, x)
    t = steps // c
    body = c * t
    ends = _chunk_ends(lam, u[:, :body].unflatten(1, (c, t)))
    last = _scan_final(powers(lam, torch.tensor([t]))[0], ends, x)
    return _run_final(lam, u[:, body:], last)


# ----------------------------------------------------------------------------------------------
# fused GPU kernels: the same reduce-then-scan, one kernel per pass
# ----------------------------------------------------------------------------------------------


def _fused_chunk(batch: int, steps: int, n: int, device: torch.device) -> tuple[int, int]:
    """(chunk length T, chunk count C) of the fused kernels; T a whole number of tiles."""
    c = recurrence_kernels.chunks(batch, steps, n, device)
    tile = recurrence_kernels.TILE_STEPS
    per_chunk = -(-steps // c)
    t = -(-per_chunk // tile) * tile
    return t, -(-steps // t)


def _fused(lam: torch.Tensor, u: torch.Tensor | recurrence_kernels.Factored, x: torch.Tensor | None,
           out: torch.Tensor) -> None:
    """``_scan`` by the fused kernels: chunk ends from rest (reading u once), the ends chained by
    the recurrence with λ^T (recursively, by the same kernels), every chunk re-run from its true
    start writing its states (u read again, x written once). ``out`` may be u itself; a factored
    u (real s, one input vector b) is formed in the kernel and never stored."""
    batch, steps, n = u.shape
    if steps == 0:
        return
    t, c = _fused_chunk(batch, steps, n, u.device)
    if c == 1:
        init = None if x is None else x[:, None, :]
        recurrence_kernels.run_chunks(lam, u, t, init=init, out=out, ends=None, n_chunks=1)
        return
    ends = torch.empty(batch, c - 1, n, dtype=u.dtype, device=u.device)
    recurrence_kernels.run_chunks(lam, u, t, init=None, out=None, ends=ends, n_chunks=c - 1)
    starts = torch.empty(batch, c, n, dtype=u.dtype, device=u.device)
    if x is None:
        starts[:, 0].zero_()
    else:
        starts[:, 0].copy_(x)
    _fused(powers(lam, torch.tensor([t]))[0], ends, x, starts[:, 1:])
    recurrence_kernels.run_chunks(lam, u, t, init=starts, out=out, ends=None, n_chunks=c)


def _fused_final(lam: torch.Tensor, u: torch.Tensor | recurrence_kernels.Factored,
                 x: torch.Tensor | None) -> torch.Tensor | None:
    """x_S by the fused kernels' reduce pass alone: every chunk's end from rest, then the ends
    chained (recursively) up to the start of the last chunk."""
    batch, steps, n = u.shape
    if steps == 0:
        return x
    t, c = _fused_chunk(batch, steps, n, u.device)
    ends = torch.empty(batch, c, n, dtype=u.dtype, device=u.device)
    if c == 1:
        init = None if x is None else x[:, None, :]
        recurrence_kernels.run_chunks(lam, u, t, init=init, out=None, ends=ends, n_chunks=1)
        return ends[:, 0]
    recurrence_kernels.run_chunks(lam, u, t, init=None, out=None, ends=ends, n_chunks=c)
    start = _fused_final(powers(lam, torch.tensor([t]))[0], ends[:, : c - 1], x)
    if start is None:
        return ends[:, c - 1]
    return torch.addcmul(ends[:, c - 1], powers(lam, torch.tensor([steps - (c - 1) * t]))[0], start)


# ----------------------------------------------------------------------------------------------
# weighted sums and the FFT convolution (no states)
# ----------------------------------------------------------------------------------------------


def _final_sum(p: _Problem) -> torch.Tensor:
    """x_L = Σ_j λ^{L−j} u_j + λ^L x0 (paper O eq. (3) at k = L) as one weighted sum over time.

    Factored input: with L − j = qT + r, Σ_r s ⊗ λ^r is a GEMM (B·Q·M, T)·(T, N) and the sum over q
    weights it by λ^{qT}; then B is applied per channel. Dense input: an elementwise-weighted
    reduction in time blocks. No division by powers of λ anywhere.
    """
    lam, length = p.lam, p.length
    x = torch.zeros(p.batch, p.n, dtype=p.cdtype, device=p.device)
    if p.u is not None:
        tab = p.tables()
        low_rev = tab.low.flip(0)  # time runs against the exponent: m = L−1−j
        # CPU: sub-blocks whose product temporary (B, S, N) stays in cache (≈ 2 MB; measured 1.5–3×
        # faster than 64 MB blocks); CUDA: whole table blocks (few launches)
        cache = 2**17 if p.device.type == "cpu" else p.block_steps(1)
        sub = max(1, min(tab.t, cache // max(1, p.batch * p.n)))
        for q in range(tab.q):
            m0, m1 = q * tab.t, min(length, (q + 1) * tab.t)  # exponents of this block
            v = tab.high[q] * low_rev[tab.t - (m1 - m0) :]  # λ^{L−1−j}, j = L−m1 … L−1−m0
            for r0 in range(0, m1 - m0, sub):
                r1 = min(m1 - m0, r0 + sub)
                x += (p.u[:, length - m1 + r0 : length - m1 + r1] * v[r0:r1]).sum(1)
    elif length:
        assert p.s is not None and p.b is not None
        m = p.s.shape[2]
        # T ≈ √(B·M·L) balances the table (T, N) against the partial sums (B, L/T, M, N)
        t = min(_pow2_near(math.sqrt(p.batch * m * length)), _pow2_near(2 * length))
        tab = p.tables(None if t == _pow2_near(math.sqrt(length)) else t)
        # batch rows per block: bounds the partial sums (Q·M·N complex) and the reversed inputs
        rows = max(1, p.block_steps(max(tab.q * m * p.n, tab.q * tab.t * m // 2)))
        low = tab.low if p.s.is_complex() else torch.view_as_real(tab.low).flatten(1)  # (T, N | 2N)
        for b0 in range(0, p.batch, rows):
            b1 = min(p.batch, b0 + rows)
            srev = torch.zeros(b1 - b0, tab.q * tab.t, m, dtype=p.s.dtype, device=p.device)
            srev[:, :length] = p.s[b0:b1].flip(1)  # srev[:, L−j] = s_j: exponent of λ runs with time
            # one 2-D GEMM (b·Q·M, T)·(T, N): batched or einsum forms measured 2–6× slower here
            rows_qm = srev.unflatten(1, (tab.q, tab.t)).transpose(2, 3).reshape(-1, tab.t)
            z = torch.matmul(rows_qm, low)
            if not p.s.is_complex():
                z = torch.view_as_complex(z.unflatten(-1, (p.n, 2)))
            z = (z.view(b1 - b0, tab.q, m, p.n) * tab.high[:, None, :]).sum(1)  # (b, M, N)
            x[b0:b1] = (z * p.b.T).sum(1)
    if p.x0 is not None:
        x += powers(lam, torch.tensor([length]))[0] * p.x0
    return x


def _readout_gemm(states: torch.Tensor, c: torch.Tensor, real: bool) -> torch.Tensor:
    """y = Re(C x) (or C x) for a block of states (B, S, N) and C (P, N): (B, S, P)."""
    if not real:
        return torch.matmul(states, c.T)
    # Re(Σ_n C_n x_n) = Σ_n (Re C_n Re x_n − Im C_n Im x_n): one real GEMM on interleaved parts
    w = torch.stack((c.real, -c.imag), dim=-1).flatten(1).T  # (2N, P)
    return torch.matmul(torch.view_as_real(states).flatten(-2), w)


def _x0_readout(p: _Problem, c: torch.Tensor, real: bool, y: torch.Tensor) -> None:
    """Adds Re(C λ^k x0) (k = 1 … L) to y (B, L, P): exponential sums with weights λ·C·x0."""
    if p.x0 is None or not p.length:
        return
    w = (c[None, :, :] * (p.lam * p.x0)[:, None, :]).flatten(0, 1).T  # (N, B·P): λ^k = λ^{k−1}·λ
    tab = p.tables()
    nout = c.shape[0]
    rows = max(1, p.block_steps(p.length * nout))  # batch rows per block of exponential sums
    for b0 in range(0, p.batch, rows):
        b1 = min(p.batch, b0 + rows)
        g = _expsum(tab, w[:, b0 * nout : b1 * nout], p.length).unflatten(1, (b1 - b0, nout))
        y[b0:b1] += (g.real if real else g).transpose(0, 1)


def _kernel(p: _Problem, c: torch.Tensor) -> torch.Tensor:
    """K[m, p, q] = Σ_n C_{pn} λ_n^m B_{nq}, m = 0 … L−1 (the S4-style convolution kernel): (L, P, M)."""
    assert p.b is not None
    w = (c.T[:, :, None] * p.b[:, None, :]).flatten(1)  # (N, P·M)
    return _expsum(p.tables(), w, p.length).unflatten(1, (c.shape[0], p.b.shape[1]))


def _fft(kind: str, x: torch.Tensor, n: int, dim: int) -> torch.Tensor:
    """torch.fft.<kind>, except for a single transform on CPU: torch's MKL transform of one long
    row was measured at 22 ms for 2^15 points against 0.12 ms for SciPy's pocketfft (batches: equal).
    SciPy runs single-threaded: its worker threads would compete with torch's spinning OpenMP
    threads for the cores (measured 5–40× slowdowns on a 2-core machine)."""
    if x.device.type != "cpu" or x.numel() // max(1, x.shape[dim]) > 1:
        return getattr(torch.fft, kind)(x, n=n, dim=dim)
    import scipy.fft

    res = getattr(scipy.fft, kind)(x.detach().numpy(), n=n, axis=dim, workers=1)
    return torch.from_numpy(np.ascontiguousarray(res))


def _spectral_product(sf: torch.Tensor, kf: torch.Tensor) -> torch.Tensor:
    """Y[b, f, p] = Σ_q S[b, f, q] K[f, p, q] (einsum was measured several times slower here)."""
    if sf.shape[2] == 1:
        return sf * kf[:, :, 0]
    return (sf[:, :, None, :] * kf[None]).sum(-1)


def _readout_fft(p: _Problem, c: torch.Tensor, real: bool) -> torch.Tensor:
    """y_k = Re(C x_k) as a causal convolution by FFT padded to 2L (paper O eq. (3)): (B, L, P)."""
    length, nfft, nout = p.length, 2 * p.length, c.shape[0]
    rdtype = torch.float32 if p.cdtype == torch.complex64 else torch.float64
    y = torch.empty(p.batch, length, nout, dtype=rdtype if real else p.cdtype, device=p.device)
    if p.s is not None:
        k = _kernel(p, c)  # (L, P, M)
        real_path = not p.s.is_complex()
        if real_path:
            # real inputs: the kernel's real (and imaginary, for complex outputs) parts as real kernels
            kr = k.real if real else torch.cat((k.real, k.imag), dim=1)
            kf = _fft("rfft", kr, nfft, 0)
        else:
            kf = _fft("fft", k, nfft, 0)
        per_row = nfft * (p.s.shape[2] + kf.shape[1]) * 2
        rows = max(1, p.block_steps(per_row))
        for b0 in range(0, p.batch, rows):
            b1 = min(p.batch, b0 + rows)
            if real_path:
                sf = _fft("rfft", p.s[b0:b1], nfft, 1)
                yb = _fft("irfft", _spectral_product(sf, kf), nfft, 1)[:, :length]
                y[b0:b1] = yb if real else torch.complex(yb[..., :nout], yb[..., nout:])
            else:
                sf = _fft("fft", p.s[b0:b1], nfft, 1)
                yb = _fft("ifft", _spectral_product(sf, kf), nfft, 1)[:, :length]
                y[b0:b1] = yb.real if real else yb
    else:
        assert p.u is not None
        # dense input: one convolution per channel, summed with the weights C in frequency space
        tab = p.tables()
        g = (tab.high[:, None, :] * tab.low[None, :, :]).flatten(0, 1)[:length]  # λ_n^m (L, N)
        acc = torch.zeros(p.batch, nfft, nout, dtype=p.cdtype, device=p.device)
        cols = max(1, min(p.n, p.block_steps(nfft * 2) // max(1, p.batch)))
        for n0 in range(0, p.n, cols):
            n1 = min(p.n, n0 + cols)
            gf = _fft("fft", g[:, n0:n1], nfft, 0)
            uf = _fft("fft", p.u[:, :, n0:n1], nfft, 1)
            acc += torch.matmul(uf * gf, c[:, n0:n1].T)
        yb = _fft("ifft", acc, nfft, 1)[:, :length]
        y.copy_(yb.real if real else yb)
    _x0_readout(p, c, real, y)
    return y


# ----------------------------------------------------------------------------------------------
# public API
# ----------------------------------------------------------------------------------------------

_STATE_RUNS = {"loop": _run, "scan": _scan, "fused": _fused}
_FINAL_RUNS = {"loop": _run_final, "scan": _scan_final, "fused": _fused_final}


def states(lam: Any, u: Any, *, route: str = "auto", x0: Any = None, b: Any = None) -> torch.Tensor:
    """All states x_1 … x_L of x_k = λ ⊙ x_{k−1} + u_k (paper O eq. (2), from x_0 = x0 or 0).

    lam: (N,) complex; u: (B, L, N) real or complex, already multiplied by the input matrix — or,
    with ``b`` (N, M) (or (N,)), the raw inputs (B, L, M) (or (B, L)) and u_k = b s_k is formed in
    blocks. Returns (B, L, N) complex (complex64 when every input is single precision) on u's device.
    """
    p = _prepare(lam, u, x0, b)
    name = _check_route("states", route, p)
    out = torch.empty(p.batch, p.length, p.n, dtype=p.cdtype, device=p.device)
    kernel_input = p.kernel_input() if name == "fused" else None
    if kernel_input is not None:  # u formed inside the kernel: the states are written, nothing read
        _fused(p.lam, kernel_input, p.x0, out)
        return out
    run = _STATE_RUNS[name]
    # factored inputs are expanded block by block straight into the output and run there in place
    step = p.length if p.u is not None else p.block_steps(p.batch * p.n)
    x = p.x0
    for k0 in range(0, p.length, max(1, step)):
        k1 = min(p.length, k0 + step)
        run(p.lam, p.block(k0, k1, out[:, k0:k1]), x, out[:, k0:k1])
        x = out[:, k1 - 1]
    return out


def final_state(lam: Any, u: Any, *, route: str = "auto", x0: Any = None, b: Any = None) -> torch.Tensor:
    """x_L (paper O eq. (3) at k = L), shape (B, N), without materialising all states.

    Routes: ``loop`` and ``scan`` keep only the running state (the scan's reduce pass), ``sum`` is
    the weighted sum Σ_j λ^{L−j} u_j (a GEMM for factored inputs). Arguments as in ``states``.
    """
    p = _prepare(lam, u, x0, b)
    name = _check_route("final", route, p)
    if name == "sum":
        return _final_sum(p)
    kernel_input = p.kernel_input() if name == "fused" else None
    if kernel_input is not None:
        x_l = _fused_final(p.lam, kernel_input, p.x0)
        return torch.zeros(p.batch, p.n, dtype=p.cdtype, device=p.device) if x_l is None else x_l.contiguous()
    run = _FINAL_RUNS[name]
    step = p.length if p.u is not None else p.block_steps(p.batch * p.n)
    buf = None if p.u is not None else _buffer(p, step)
    x = p.x0
    for k0 in range(0, p.length, max(1, step)):
        k1 = min(p.length, k0 + step)
        x = run(p.lam, p.block(k0, k1, None if buf is None else buf[:, : k1 - k0]), x)
    if x is None:
        return torch.zeros(p.batch, p.n, dtype=p.cdtype, device=p.device)
    return x if x.is_contiguous() else x.contiguous()


def _buffer(p: _Problem, steps: int) -> torch.Tensor:
    return torch.empty(p.batch, min(max(1, steps), max(1, p.length)), p.n, dtype=p.cdtype, device=p.device)


def readout(lam: Any, u: Any, c: Any, *, route: str = "auto", x0: Any = None, real: bool = True,
            b: Any = None) -> tuple[torch.Tensor, torch.Tensor]:
    """y_k = Re(C x_k) for k = 1 … L (paper O §2, ŷ_k = Re[C x_k]) and the final state x_L.

    c: (N,) gives y of shape (B, L); (P, N) gives (B, L, P). ``real=False`` returns C x_k itself.
    Routes: ``loop``/``scan`` make the states one time block at a time (never all at once) and
    read them out by a GEMM; ``fft`` convolves with the kernel K[m] = C λ^m (B) by FFT and gets x_L
    from the weighted sum. Other arguments as in ``states``.
    """
    p = _prepare(lam, u, x0, b)
    cm, vector = _readout_matrix(c, p)
    name = _check_route("readout", route, p)
    if name == "fft":
        y = _readout_fft(p, cm, real) if p.length else _empty_y(p, cm, real)
        x = _final_sum(p)
    else:
        y = _empty_y(p, cm, real)
        run = _STATE_RUNS[name]
        step = min(max(1, p.length), p.block_steps(p.batch * p.n))
        buf = _buffer(p, step)
        carry = p.x0
        for k0 in range(0, p.length, step):
            k1 = min(p.length, k0 + step)
            block = buf[:, : k1 - k0]
            run(p.lam, p.block(k0, k1, block), carry, block)  # factored inputs: expanded in place
            y[:, k0:k1] = _readout_gemm(block, cm, real)
            carry = block[:, -1].clone()
        x = torch.zeros(p.batch, p.n, dtype=p.cdtype, device=p.device) if carry is None else carry
    return (y[..., 0] if vector else y), x


def _empty_y(p: _Problem, c: torch.Tensor, real: bool) -> torch.Tensor:
    rdtype = torch.float32 if p.cdtype == torch.complex64 else torch.float64
    return torch.empty(p.batch, p.length, c.shape[0], dtype=rdtype if real else p.cdtype, device=p.device)


# Where the fused kernel's few launches beat ``sum`` and ``fft`` on CUDA (measured on an H200,
# choose_route's docstring): total steps B·L, and for the final state also L.
_FUSED_FINAL_MAX_LENGTH = 4096
_FUSED_FINAL_MAX_STEPS = 40960
_FUSED_READOUT_MAX_STEPS = 16384


def choose_route(what: str, batch: int, length: int, n: int, device: Any = "cpu", *,
                 inputs: int | None = None) -> str:
    """The fastest route for computing ``what`` ∈ {"states", "final", "readout"} at this shape.

    ``inputs`` is M when the input is given factored (u_k = B s_k, ``b=``), None for a dense u.
    Measured on CPU (2 cores, N = 256, benchmarks/bench_recurrence.py, times as ratios in one run):

    - states: the scan wherever it cuts time into chunks (B·N ≤ 1024, see _SCAN_MAX_ROW), 2.5–5×
      faster than the loop at B = 1; elsewhere the scan is the loop.
    - final, factored input: ``sum`` (one GEMM) everywhere: 4–8× faster than the scan at B = 1,
      L = 1024 … 4096, and 20–300× faster than the loop from B = 10 on.
    - final, dense input: the scan at B·N ≤ 256 (B = 1: 4–7× the loop, 1.7–2× ``sum``) and at
      B·N ≤ 1024 for L ≤ 2048 (B = 4, L = 1024: scan 1.6 ms, sum 2.6 ms; at L = 4096 … 16384
      ``sum`` is 1.2–1.6× faster than the scan); ``sum`` up to B·N = 2^15 (1.5–1.9× the loop at
      B = 10 … 100); the loop beyond (``sum`` 0.75× at B = 200, 0.55× at B = 1000).
    - readout, factored input: ``fft`` everywhere (1.2–1.7× the scan at B = 1, L = 1024; 15–60×
      the loop from B = 10 on).
    - readout, dense input: never ``fft`` (one FFT per channel: 3–9× slower than the loop); the scan
      where it chunks, else the loop.

    CUDA (one H100, ``--device cuda``): the same structure with the CUDA chunking threshold
    (_SCAN_MAX_ROW); ``sum`` for the final state and ``fft`` for a factored readout were the best
    route at every measured shape (B = 10 … 1000, L = 1024 … 65536: 12–700× the loop). Where the
    fused Triton kernel is available (``recurrence_kernels.available``) it makes the states and a
    dense readout's states: three kernel launches in all, against one launch per step (or per
    chunk step) of the torch routes. On one H200 (torch 2.11, Triton 3.6, N = 256, factored input)
    it was the best states route at every measured shape (B·L ≤ 10^6: 0.5–4.4 ms, 4.8–700× the
    loop), and at the smallest shapes, where every route costs about a millisecond of launches, also
    the best final state (B·L ≤ 40960 with L ≤ 4096: 0.7–0.8 ms against ``sum``'s 0.8–0.9 ms) and
    the best readout (B·L ≤ 16384: 0.8–0.9 ms against ``fft``'s 1.2 ms; at B·L = 40960 ``fft`` took
    1.6 ms against 2.0 ms); beyond, ``sum`` and ``fft`` win, by up to 24× and 70× at B = 1000,
    L = 65536. A dense final state stays with ``sum`` (not measured against the kernel). These
    times are from the kernel's untuned start (8 programs per SM); with the tuned 16
    (``recurrence_kernels.PROGRAMS_PER_SM``) the chunking of these cells is the same except at B = 10,
    L = 4096 (53 chunks instead of 27; the tuning sweep's states time there: 0.64 against 0.67 ms).
    """
    if what not in ROUTES:
        raise ValueError(f"what must be one of {sorted(ROUTES)}, got {what!r}")
    dev = torch.device(device) if not isinstance(device, torch.device) else device
    fused = dev.type == "cuda" and recurrence_kernels.available(dev)
    if fused:
        steps = batch * length
        small_final = (inputs is not None and length <= _FUSED_FINAL_MAX_LENGTH
                       and steps <= _FUSED_FINAL_MAX_STEPS)
        if (what == "states" or (what == "final" and small_final)
                or (what == "readout" and (inputs is None or steps <= _FUSED_READOUT_MAX_STEPS))):
            return "fused"
    chunked = scan_chunks(batch, length, n, dev) > 1
    if what == "states":
        return "scan" if chunked else "loop"
    if what == "final":
        if inputs is not None or dev.type == "cuda":
            return "sum"
        row = batch * n
        if chunked and (row <= 256 or length <= 2048):
            return "scan"
        return "sum" if row <= 2**15 else "loop"
    if inputs is not None:
        return "fft"
    return "scan" if chunked else "loop"


# ----------------------------------------------------------------------------------------------
# run-time oracle: two routes compared on a slice (issue 19)
# ----------------------------------------------------------------------------------------------

# The c of every route's forward-error bound c·(L + 16)·u·scale (tests/test_linear_recurrence.py
# asserts it on every route against a 113-bit reference and measures at most 0.15·L·u·scale; the
# 16 steps cover the FFT's O(log L) rounding at small L).
ROUTE_C = 2.0
_UNIT_ROUNDOFF = {torch.complex128: 2.0**-53, torch.complex64: 2.0**-24}


@dataclass(frozen=True)
class RouteCheck:
    """One object of the recurrence computed by two routes, compared against the sum of both
    routes' error bounds (ROUTE_C·(L + 16)·u·scale each, u the unit roundoff of the dtype that
    ran, scale the magnitudes max_k Σ_n |C_n| a_{k,n}, a_k = Σ_j |λ|^{k−j}|u_j| + |λ|^k|x0|)."""

    what: str
    routes: tuple[str, str]
    difference: float  # max |route A − route B| over the compared entries
    bound: float  # the sum of both routes' error bounds
    at: str  # the entry where the difference is largest
    values: tuple[complex, complex]  # both routes' values there
    unit_roundoff: float

    @property
    def agree(self) -> bool:
        """Whether the routes agree within both error bounds (NaN disagrees)."""
        return math.isfinite(self.difference) and self.difference <= self.bound

    def describe(self) -> str:
        """One line: the object, both routes, the difference against the bound, both values."""
        a, b = (v.real if v.imag == 0 else v for v in self.values)
        return (f"{self.what}: {self.routes[0]} vs {self.routes[1]} differ by {self.difference:.3g} "
                f"(bound {self.bound:.3g} = 2 × {ROUTE_C:g}·(L + 16)·u·scale, u = {self.unit_roundoff:.3g}); "
                f"at {self.at}: {a:.12g} vs {b:.12g}")

    def to_dict(self) -> dict[str, Any]:
        a, b = self.values
        return {"what": self.what, "routes": list(self.routes), "difference": f"{self.difference:.4g}",
                "bound": f"{self.bound:.4g}", "at": self.at, "values": [str(a), str(b)],
                "agree": self.agree}


class RouteDisagreement(InternalInconsistency):
    """Two routes of the recurrence disagree beyond both error bounds: an internal inconsistency
    of recmem (a bug in a route), never a property of the inputs."""

    def __init__(self, checks: list[RouteCheck]) -> None:
        self.checks = checks
        super().__init__("recurrence routes disagree beyond both error bounds: "
                         + "; ".join(c.describe() for c in checks if not c.agree))


def _check_readout(n: int) -> torch.Tensor:
    """The readout vector of the cross-check: unit-modulus C_n = e^{2πi·n·φ} (φ the golden ratio's
    fractional part: phases spread over the circle, none repeating), so that no channel and no
    conjugation error cancels out of Re(C x_k)."""
    phi = (math.sqrt(5) - 1) / 2
    return torch.polar(torch.ones(n, dtype=torch.float64),
                       2 * math.pi * phi * torch.arange(n, dtype=torch.float64))


def cross_check(lam: Any, u: Any, computed: torch.Tensor, route: str, *, b: Any = None,
                x0: Any = None, rows: int = 1) -> list[RouteCheck]:
    """Compare states ``computed`` (B, L, N), made by ``route`` from (lam, u, b, x0) as in
    :func:`states`, on their first ``rows`` batch rows against two routes that share no code with
    the step recurrences (loop, scan, fused): the readout y_k = Re(C x_k) for every k by ``fft``
    (paper O eq. (3), with :func:`_check_readout`'s C) and the final state x_L by ``sum``
    (O eq. (3) at k = L). Cheap (one row: O(L log L + N·L^{1/4}) beyond the magnitudes) and run
    where a verdict rests on the states (issue 19: two routes to one object are compared).

    Returns the two :class:`RouteCheck` results; the caller reports a disagreement (an ERROR of
    recmem, :class:`RouteDisagreement`)."""
    p = _prepare(lam, u, x0, b)
    rows = max(1, min(rows, p.batch))
    if not p.length or not p.batch:
        return []
    part = p.u if p.u is not None else p.s
    assert part is not None
    xs = computed[:rows].to(p.cdtype)
    x0_part = None if p.x0 is None else p.x0[:rows]
    c = _check_readout(p.n).to(p.cdtype).to(p.device)
    y_fft, x_sum = readout(p.lam, part[:rows], c, route="fft", x0=x0_part, b=p.b)
    y_states = _readout_gemm(xs, c[None, :], True)[..., 0]
    # the magnitudes the rounding errors scale with (in float64 numpy, sequential: no route under
    # test computes them): a_k = |λ| a_{k−1} + |u_k|, with |u_k| = Σ_q |b_q||s_q| when factored
    lam_abs = p.lam.abs().double().cpu().numpy()
    if p.u is not None:
        u_abs = p.u[:rows].abs().double().cpu().numpy()
    else:
        assert p.s is not None and p.b is not None
        u_abs = p.s[:rows].abs().double().cpu().numpy() @ p.b.abs().double().cpu().numpy().T
    a = np.zeros((rows, p.n)) if x0_part is None else x0_part.abs().double().cpu().numpy()
    mags = np.empty((p.length, rows, p.n))
    for k in range(p.length):
        a = np.multiply(lam_abs, a, out=mags[k])
        a += u_abs[:, k]
    y_scale = float(np.max(mags.sum(axis=2)))  # max_k Σ_n |C_n| a_{k,n}, |C_n| = 1
    unit = _UNIT_ROUNDOFF[p.cdtype]
    per_route = ROUTE_C * (p.length + 16) * unit
    out = []
    for what, mine, other, other_route, scale, axis in (
            ("readout Re(C x_k), k = 1 … L", y_states, y_fft, "fft", y_scale, "k"),
            ("final state x_L", xs[:, -1], x_sum, "sum", float(np.max(a, initial=0.0)), "node")):
        diff = (mine - other).abs()
        # NaN counts as the largest difference (a route that produced NaN disagrees)
        worst = int(torch.argmax(torch.nan_to_num(diff, nan=math.inf)).item())
        row, j = divmod(worst, int(diff.shape[1]))
        value = math.nan if bool(torch.isnan(diff).any()) else float(diff.max())
        out.append(RouteCheck(
            f"{what} (first {rows} batch row{'s' if rows > 1 else ''})", (route, other_route), value,
            2 * per_route * scale, f"row {row}, {axis} {j + 1 if axis == 'k' else j}",
            (complex(mine[row, j].item()), complex(other[row, j].item())), unit))
    return out
