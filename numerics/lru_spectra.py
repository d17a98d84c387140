"""Spectra and impulse responses of paper L's initialisations (L §3.2.2, Theorem 1, Lemma 2,
Fig. 2–3; §3.4, Fig. 4), for ``recmem reproduce`` and for claims that measure the same objects.

- :func:`glorot_spectrum`: the eigenvalues of a dense A with i.i.d. N(0, 1/N) entries (Glorot
  initialisation of a square matrix, L Fig. 2 and Theorem 1), with the trace as its oracle;
- :func:`lemma2_spectrum`: N draws of Lemma 2 (= paper O's Lemma 6) through recmem's one sampler,
  :func:`recmem.numerics.nodes.ring`, reading the formula from :mod:`recmem.theory.ring`;
- distances of a spectrum to the area-uniform law on a ring (radial and angular Kolmogorov–Smirnov
  statistics) and between two spectra (two-sample KS), with their critical values;
- :func:`phase_nodes`, :func:`impulse_sign_changes`: λ_j = exp(−ν + iθ_j) with θ_j uniform on
  [0, θ_max] (Lemma 2 with the phase range of §3.4), the states x_k = λ^{k−1} of
  x_k = Λx_{k−1} + Bu_k under the impulse u = (1, 0, …, 0) with B u₁ = 1, and the number of sign
  changes of Re x_k over k = 1 … L, beside its exact value :func:`predicted_sign_changes` and its
  law :func:`expected_sign_changes`.

Nothing here judges a figure; the experiments state their criteria.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.numerics import nodes as nd
from recmem.theory.ring import LEMMA6, RingSampling


# ---- Theorem 1 / Fig. 2: the Glorot spectrum ------------------------------------------------------
@dataclass(frozen=True)
class Spectrum:
    """Eigenvalues of one matrix and the relative residual of their oracle Σλ = tr A."""

    eigenvalues: np.ndarray  # (N,) complex128
    trace_residual: float  # |Σλ − tr A| / (N·u·‖A‖_F): O(1) for a backward-stable solver


def glorot_matrix(n: int, rng: np.random.Generator) -> np.ndarray:
    """A ∈ ℝ^{N×N} with i.i.d. N(0, 1/N) entries: Glorot initialisation of a square matrix
    (variance 2/(fan_in + fan_out) = 1/N), as L Fig. 2's caption and Theorem 1 state it."""
    return rng.standard_normal((n, n)) / math.sqrt(n)


def glorot_spectrum(n: int, rng: np.random.Generator) -> Spectrum:
    """The eigenvalues of :func:`glorot_matrix` (L Fig. 2) by LAPACK's dgeev, with the trace as
    oracle. Eigenvalue errors are ≈ κ_λ·u‖A‖ (κ_λ ≈ √N for this non-normal ensemble), ~1e-13,
    far below the 1/√N resolution of every statistic computed from them; real eigenvalues come
    back with imaginary part exactly 0 (dgeev returns them as real)."""
    a = glorot_matrix(n, rng)
    lam = np.linalg.eigvals(a).astype(np.complex128)
    scale = n * np.finfo(np.float64).eps * max(float(np.linalg.norm(a)), 1e-300)
    return Spectrum(lam, float(abs(lam.sum() - np.trace(a)) / scale))


def expected_real_eigenvalues(n: int) -> float:
    """E[# real eigenvalues] of an N×N matrix with i.i.d. Gaussian entries (Edelman, Kostlan and
    Shub 1994): 1/2 + √2·₂F₁(1, −1/2; N; 1/2)/B(N, 1/2) ≈ √(2N/π). The finite-N part of L Fig. 2
    that Theorem 1's limit does not show: the spectrum has an atom on the real axis of mass
    ≈ √(2/(πN))."""
    from scipy import special

    return 0.5 + math.sqrt(2) * float(special.hyp2f1(1, -0.5, n, 0.5)) / float(special.beta(n, 0.5))


# ---- Lemma 2 / Fig. 3 -----------------------------------------------------------------------------
def lemma2_spectrum(n: int, r_min: Fraction, r_max: Fraction, seed: int,
                    law: RingSampling | None = None) -> np.ndarray:
    """N draws of L's Lemma 2 (paper O's Lemma 6, the same formula) from 𝕋(r_min, r_max), as
    complex128: recmem's exact sampler :func:`recmem.numerics.nodes.ring` (``law`` a statement of
    :mod:`recmem.theory.ring`, default the printed one)."""
    return nd.ring(n, Fraction(r_min), Fraction(r_max), seed, law).complex128()


def area_cdf_r2(s: np.ndarray, r_min: float, r_max: float) -> np.ndarray:
    """P(|λ|² ≤ s) for λ area-uniform on r_min ≤ |λ| ≤ r_max (r_min < r_max), for every real s:
    the statement's :meth:`~recmem.theory.ring.RingSampling.ring_cdf_r2` clipped to [0, 1]."""
    return np.clip(LEMMA6.ring_cdf_r2(np.asarray(s, dtype=float), r_min, r_max), 0.0, 1.0)


@dataclass(frozen=True)
class KS:
    """A Kolmogorov–Smirnov statistic D and its p-value."""

    statistic: float
    pvalue: float


def _turns(lam: np.ndarray) -> np.ndarray:
    """arg λ / 2π in [0, 1)."""
    return np.mod(np.angle(lam) / (2 * np.pi), 1.0)


def radial_ks(lam: np.ndarray, r_min: float = 0.0, r_max: float = 1.0) -> KS:
    """KS test of |λ|² against the area-uniform ring law (:func:`area_cdf_r2`): D is
    sup_r |#{|λ| ≤ r}/N − (r² − r_min²)/(r_max² − r_min²)| (clipped), the uniform disk law
    P(|λ| ≤ r) = r² for (0, 1) (L Theorem 1, Lemma 2)."""
    from scipy import stats

    res = stats.kstest(np.abs(lam) ** 2, lambda s: area_cdf_r2(s, r_min, r_max))
    return KS(float(res.statistic), float(res.pvalue))


def angular_ks(lam: np.ndarray) -> KS:
    """KS test of arg λ/2π against U[0, 1) (the angular part of the area-uniform law)."""
    from scipy import stats

    res = stats.kstest(_turns(lam), "uniform")
    return KS(float(res.statistic), float(res.pvalue))


def two_sample_ks(a: np.ndarray, b: np.ndarray) -> tuple[KS, KS]:
    """(radial, angular) two-sample KS tests between the spectra ``a`` and ``b``: |λ|² and
    arg λ/2π (L Fig. 3's caption: Lemma 2 with (0, 1) "coincides with Glorot init. in the
    limit")."""
    from scipy import stats

    rad = stats.ks_2samp(np.abs(a) ** 2, np.abs(b) ** 2)
    ang = stats.ks_2samp(_turns(a), _turns(b))
    return (KS(float(rad.statistic), float(rad.pvalue)), KS(float(ang.statistic), float(ang.pvalue)))


def ks_critical(n: int, alpha: float) -> float:
    """The one-sample KS critical value: P(D_n > c) = α for n i.i.d. draws of the hypothesised
    law (scipy's exact ``kstwo``)."""
    from scipy import stats

    return float(stats.kstwo.isf(alpha, n))


# ---- §3.4 / Fig. 4: phase range and impulse response ----------------------------------------------
def phase_law(turns: Fraction) -> RingSampling:
    """Lemma 2 with θ = 2π·turns·u₂, i.e. θ uniform on [0, 2π·turns] (L §3.4: "phase potentially
    restricted to a thin slice", App. A); turns = 1 is the printed Lemma 2."""
    return LEMMA6 if turns == 1 else replace(LEMMA6, turns=Fraction(turns))


def phase_nodes(n: int, nu: float, turns: Fraction, seed: int) -> np.ndarray:
    """N eigenvalues exp(−ν + iθ_j), θ_j uniform on [0, 2π·turns] (L Fig. 4), by Lemma 2's sampler
    on the circle r_min = r_max = r: r is e^{−ν} rounded to float64 (exact binary, so ν is kept to
    ~1e-16 relative; ν = −½·log r² is Lemma 2's ν there)."""
    r = Fraction(math.exp(-nu))
    return nd.ring(n, r, r, seed, phase_law(turns)).complex128()


def impulse_states(lam: np.ndarray, length: int, device: str = "cpu") -> tuple[Any, float]:
    """x_1 … x_L of x_k = Λx_{k−1} + Bu_k, x_0 = 0, under u = (1, 0, …, 0) with Bu₁ = 1 in every
    component (L Fig. 4), by :func:`recmem.numerics.linear_recurrence.states` ((L, N) complex128
    torch tensor), and its oracle: the largest |x_k − λ^{k−1}| against the closed form
    (:func:`~recmem.numerics.linear_recurrence.powers`, which shares no code with the
    recurrence), relative to max |x_k|."""
    import torch

    from recmem.numerics import linear_recurrence as lr

    lam_t = torch.as_tensor(lam, dtype=torch.complex128, device=device)
    u = torch.zeros(1, length, dtype=torch.float64, device=device)
    u[0, 0] = 1.0
    x = lr.states(lam_t, u, b=torch.ones(len(lam), dtype=torch.complex128, device=device))[0]
    closed = lr.powers(lam_t, torch.arange(length, device=device))
    scale = float(x.abs().max())
    return x, float((x - closed).abs().max()) / max(scale, 1e-300)


def sign_changes(values: np.ndarray) -> np.ndarray:
    """The number of sign changes along axis 0 of a real (L, N) array, per column (exact zeros
    skipped): the zero crossings of each component's trace."""
    s = np.sign(values)
    out = np.zeros(values.shape[1], dtype=np.int64)
    for j in range(values.shape[1]):
        nz = s[:, j][s[:, j] != 0]
        out[j] = int(np.count_nonzero(nz[1:] != nz[:-1]))
    return out


def effective_phase(lam: np.ndarray) -> np.ndarray:
    """θ_eff = |arg λ| ∈ [0, π]: Re λ^k = |λ|^k cos(kθ) depends on θ only through it."""
    return np.abs(np.angle(lam))


def predicted_sign_changes(lam: np.ndarray, length: int) -> np.ndarray:
    """The exact number of sign changes of Re λ^k = |λ|^k cos(kθ_eff), k = 0 … L−1, for θ_eff in
    (0, π) off the zeros: a step passes at most one zero (m + ½)π of cos (they are π > θ_eff
    apart), so the count is #{m ≥ 0: (m + ½)π < (L−1)θ_eff} = ⌊(L−1)θ_eff/π + ½⌋."""
    return np.floor((length - 1) * effective_phase(lam) / np.pi + 0.5).astype(np.int64)


def _floor_integral(x: float) -> float:
    """∫₀ˣ ⌊t + ½⌋ dt for x ≥ 0."""
    j = math.floor(x + 0.5)
    return j * (j - 1) / 2 + j * (x - j + 0.5) if j >= 1 else 0.0


def expected_sign_changes(theta_max: float, length: int) -> float:
    """E ⌊(L−1)θ_eff/π + ½⌋ for θ uniform on [0, θ_max], 0 < θ_max ≤ 2π (θ_eff = θ on [0, π],
    2π − θ beyond): the law of :func:`predicted_sign_changes` under L §3.4's phase ranges,
    ≈ (L−1)θ_max/(2π) for θ_max ≤ π and (L−1)/2 for θ_max = 2π."""
    if not 0 < theta_max <= 2 * math.pi:
        raise ValueError(f"need 0 < θ_max ≤ 2π, got {theta_max}")
    a = (length - 1) / math.pi  # count per radian of θ_eff
    low = min(theta_max, math.pi)
    total = _floor_integral(a * low) / a  # ∫₀^low ⌊aθ + ½⌋ dθ
    if theta_max > math.pi:  # θ ∈ (π, θ_max] folds onto θ_eff ∈ [2π − θ_max, π)
        total += (_floor_integral(a * math.pi) - _floor_integral(a * (2 * math.pi - theta_max))) / a
    return total / theta_max


@dataclass(frozen=True)
class ImpulseCounts:
    """Sign changes of Re x_k over prefixes of the impulse response, per component."""

    lam: np.ndarray  # (N,) the eigenvalues
    counts: dict[int, np.ndarray]  # length L → (N,) sign changes over k = 1 … L
    traces: np.ndarray  # (L_max, m) Re x_k of the first m components (for plotting)
    max_residual: float  # worst :func:`impulse_states` oracle over the blocks


def impulse_sign_changes(lam: np.ndarray, lengths: list[int], keep: int = 3, block: int = 256,
                         device: str = "cpu") -> ImpulseCounts:
    """Sign changes of Re x_k for k ≤ L, for every L in ``lengths`` (prefixes of one response of
    length max L), computed in blocks of ``block`` components to bound memory; the first
    ``keep`` components' traces Re x_k are kept."""
    length = max(lengths)
    counts = {n: np.zeros(len(lam), dtype=np.int64) for n in lengths}
    traces = np.zeros((length, min(keep, len(lam))))
    worst = 0.0
    for j0 in range(0, len(lam), block):
        x, resid = impulse_states(lam[j0:j0 + block], length, device)
        worst = max(worst, resid)
        re = x.real.cpu().numpy()
        for n in lengths:
            counts[n][j0:j0 + block] = sign_changes(re[:n])
        if j0 < traces.shape[1]:
            m = min(traces.shape[1] - j0, re.shape[1])
            traces[:, j0:j0 + m] = re[:, :m]
    return ImpulseCounts(lam, counts, traces, worst)


__all__ = ["KS", "ImpulseCounts", "Spectrum", "angular_ks", "area_cdf_r2", "effective_phase",
           "expected_real_eigenvalues", "expected_sign_changes", "glorot_matrix", "glorot_spectrum",
           "impulse_sign_changes", "impulse_states", "ks_critical", "lemma2_spectrum", "phase_law",
           "phase_nodes", "predicted_sign_changes", "radial_ks", "sign_changes", "two_sample_ks"]
