"""Fused GPU kernels (Triton) for the diagonal complex recurrence x_k = λ ⊙ x_{k−1} + u_k
(paper O eq. (2)): one pass over a chunk of time per program, reading u once and writing x once.

A program owns one batch row b, one chunk of ``chunk`` time steps and ``BN`` channels. It walks
its chunk in tiles of ``TT`` steps: a tile of u (TT, BN) is loaded at once (TT·BN independent
loads in flight, to hide their latency; measured on an H200 the kernel reaches 17–28 % of
``copy_``'s bandwidth at B·L ≥ 6·10^5, see the constants below), the tile's states from rest are
an associative scan along time of the pairs (λ^j, x) with (a₁, x₁)·(a₂, x₂) = (a₂a₁, a₂x₁ + x₂),
and the carry h enters as x_j = s_j + λ^{j+1} h with the scanned λ^{j+1} (products of at most TT
factors: a relative rounding of ≈ TT·u, no division by any power of λ). A factored input
u_k = b·s_k (real s, M = 1) is formed in registers: 8 bytes read per step instead of 16 per step
and channel. ``linear_recurrence`` chains the chunks (their end states, then a second pass from the
true start states); this module only launches.

Needs ``triton`` (shipped with PyTorch's CUDA builds) and CUDA tensors; ``available`` says whether
both are there and the kernel passed a self-test on that device. Under ``TRITON_INTERPRET=1`` the
kernel runs on CPU tensors in Triton's interpreter (slowly): that is how it is tested without a
GPU. Complex tensors are read through ``torch.view_as_real``: real and imaginary parts
interleaved, the channel axis contiguous.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import warnings
from dataclasses import dataclass
from typing import Any

import torch

# Tile shape, warps per program and programs per multiprocessor: the best of
# benchmarks/tune_recurrence_kernel.py's eight configurations on one H200 (2026-11-29, torch 2.11,
# Triton 3.6; geometric mean over 12 problems of the achieved fraction of copy_'s bandwidth, one
# sweep): TT = 16, BN = 64, 4 warps, 16 programs per SM 8.9 % against 7.7 % with 8 programs per SM
# (the untuned start), the other six 5.3–8.7 %. TT·BN = 1024 complex numbers per tile keep the
# scan's 4 real components in ≈ 64 registers per thread at 4 warps; 16-step tiles put 16
# independent loads per channel in flight. Every configuration agreed with the scan to 1.2e-13
# relative. The kernel reaches 17–28 % of copy_ from B·L ≈ 6·10^5 up and is launch-bound below.
TILE_STEPS = 16
TILE_CHANNELS = 64
NUM_WARPS = 4
PROGRAMS_PER_SM = 16


@functools.cache
def _triton_installed() -> bool:
    return importlib.util.find_spec("triton") is not None


def interpreting() -> bool:
    """Whether Triton runs kernels in its CPU interpreter (``TRITON_INTERPRET=1``): then the fused
    routes accept CPU tensors, which is how the tests check them on a machine without a GPU."""
    return os.environ.get("TRITON_INTERPRET", "") == "1"


def available(device: torch.device) -> bool:
    """Whether the fused kernels can run on ``device``: Triton importable and a CUDA device on which
    the kernel compiled and passed its self-test (``_self_test``), or Triton's interpreter."""
    if not _triton_installed():
        return False
    if interpreting():
        return True
    if device.type != "cuda" or not torch.cuda.is_available():
        return False
    return _self_test(torch.device("cuda", device.index if device.index is not None
                                   else torch.cuda.current_device()))


@functools.cache
def _self_test(device: torch.device) -> bool:
    """Compile the kernel on ``device`` and check it once against a plain loop (three chunks, a start
    state, ends and states): a GPU or Triton version on which it fails to build or disagrees is
    reported by a warning and left to the torch routes instead of giving wrong numbers."""
    try:
        g = torch.Generator().manual_seed(0)
        batch, steps, n, chunk = 2, 70, 40, 32
        lam = torch.polar(0.5 + 0.5 * torch.rand(n, generator=g, dtype=torch.float64),
                          6.3 * torch.rand(n, generator=g, dtype=torch.float64)).to(device)
        u = torch.randn(batch, steps, n, generator=g, dtype=torch.complex128).to(device)
        init = torch.randn(batch, 3, n, generator=g, dtype=torch.complex128).to(device)
        want = torch.empty_like(u)
        for k in range(steps):
            prev = init[:, k // chunk] if k % chunk == 0 else want[:, k - 1]
            want[:, k] = lam * prev + u[:, k]
        got = torch.empty_like(u)
        ends = torch.empty_like(init)
        run_chunks(lam, u, chunk, init=init, out=got, ends=ends, n_chunks=3)
        scale = float(want.abs().max())
        ok = (float((got - want).abs().max()) <= 1e-12 * scale
              and float((ends[:, -1] - want[:, -1]).abs().max()) <= 1e-12 * scale)
        reason = "its results disagree with a plain loop"
    except Exception as exc:  # any failure to build or run disqualifies the kernel, with its reason
        ok, reason = False, f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    if not ok:
        warnings.warn(f"recmem: the fused Triton recurrence kernel is not used on {device}: {reason}",
                      RuntimeWarning, stacklevel=3)
    return ok


@functools.cache
def _kernel() -> Any:
    """The Triton kernel (numerics/recurrence_triton.py), imported on first use: importing triton
    costs seconds and is not possible without it."""
    from recmem.numerics import recurrence_triton

    return recurrence_triton.chunk_kernel


def _real(t: torch.Tensor) -> tuple[torch.Tensor, int, int]:
    """(B, S, N) complex with unit channel stride → its real view and the (batch, time) strides
    counted in real numbers."""
    if t.stride(-1) != 1:
        raise ValueError("the fused kernels need the channel axis contiguous")
    return torch.view_as_real(t), 2 * t.stride(0), 2 * t.stride(1)


def chunks(batch: int, steps: int, n: int, device: torch.device) -> int:
    """How many chunks of time the fused kernels cut ``steps`` into: enough programs
    (B · ⌈N/BN⌉ · C ≈ PROGRAMS_PER_SM per multiprocessor) to fill the GPU, each chunk at least four
    tiles long (shorter chunks only add carry work)."""
    sms = torch.cuda.get_device_properties(device).multi_processor_count if device.type == "cuda" else 1
    per_chunk = batch * -(-n // TILE_CHANNELS)
    want = -(-PROGRAMS_PER_SM * sms // max(1, per_chunk))
    return max(1, min(want, steps // (4 * TILE_STEPS)))


@dataclass(frozen=True)
class Factored:
    """The input u_k = b·s_k given factored (paper O eq. (2) with M = 1): s (B, S) real, b (N,)
    complex. The kernel forms u_k in registers and never reads a (B, S, N) input."""

    s: torch.Tensor
    b: torch.Tensor

    @property
    def shape(self) -> tuple[int, int, int]:
        return int(self.s.shape[0]), int(self.s.shape[1]), int(self.b.shape[0])

    @property
    def dtype(self) -> torch.dtype:
        return self.b.dtype

    @property
    def device(self) -> torch.device:
        return self.s.device


def run_chunks(lam: torch.Tensor, u: torch.Tensor | Factored, chunk: int, *, init: torch.Tensor | None,
               out: torch.Tensor | None, ends: torch.Tensor | None, n_chunks: int) -> None:
    """Launch one pass over the first ``n_chunks`` chunks of ``chunk`` steps of u (B, S, N).

    Chunk c starts from ``init[:, c]`` ((B, C, N); rest when None), writes its states into ``out``
    (B, S, N) when given (``out`` may be ``u`` itself) and its end state into ``ends[:, c]`` when given.
    """
    batch, steps, n = u.shape
    if n_chunks == 0 or batch == 0 or n == 0:
        return
    lam_r = torch.view_as_real(lam.contiguous())
    if isinstance(u, Factored):
        ur, su_b, su_t = lam_r, 0, 0  # unused
        sv, ss_b, ss_t = u.s, u.s.stride(0), u.s.stride(1)
        bv = torch.view_as_real(u.b.contiguous())
    else:
        ur, su_b, su_t = _real(u)
        sv, ss_b, ss_t, bv = lam_r, 0, 0, lam_r  # unused
    dummy = lam_r  # never read or written when its flag is off
    o, so_b, so_t = _real(out) if out is not None else (dummy, 0, 0)
    i, si_b, si_c = _real(init) if init is not None else (dummy, 0, 0)
    e, se_b, se_c = _real(ends) if ends is not None else (dummy, 0, 0)
    grid = (-(-n // TILE_CHANNELS), n_chunks, batch)
    _kernel()[grid](ur, sv, bv, lam_r, i, o, e, steps, n, chunk, su_b, su_t, ss_b, ss_t, so_b, so_t,
                    si_b, si_c, se_b, se_c, FACTORED=isinstance(u, Factored),
                    HAS_INIT=init is not None, STORE_STATES=out is not None,
                    STORE_END=ends is not None, TT=TILE_STEPS, BN=TILE_CHANNELS, num_warps=NUM_WARPS)
