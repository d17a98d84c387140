"""L App. E.1.1: Proposition 4 (spectral effect of ReLU) and "a linear RNN keeps the frequency".

Statements in :mod:`recmem.theory.lru_spectral`. Prop. 4's sides: SymPy's exact Dirac weights on
periodic witnesses u = cos(t − p₀) − a (and the rectangle's transform, general); quadrature in
numpy (float64) on the integrable witness u(t) = (1 − (t − p)²)e^{−(t − p)²/2},
p = 1/2 (ReLU region [p − 1, p + 1]): the left side ∫ReLU(u(t))e^{−iωt}dt (the definition)
against the statement's right side with F_u(ν) = √(2π)ν²e^{−ν²/2}e^{−iνp}. The linear RNN's
sides: SymPy (general), the recurrence run in numpy/torch/mpmath, exact ℚ(i) search.
"""

from __future__ import annotations

import functools
import itertools
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.scalars import Scalars
from recmem.theory.lru_spectral import (
    EXAMPLE,
    ReluSpectrum,
    SameFrequency,
    relu_spectrum_instance,
    relu_spectrum_proof,
    same_frequency_instance,
    same_frequency_proof,
)

Q_PROP4 = (r"Let $u:\mathbb{R}\to\mathbb{R}$ be a continuous-time signal. Let $P_{i}$ be the $i$ -th "
           r"region activated by the ReLU applied to $u$, and let us write "
           r"$P_{i}=[p_{i}-L_{i},p_{i}+L_{i}]$. Then $$ \mathcal{F}_{\text{ReLU}(u)}="
           r"\mathcal{F}_{u}(\omega)\star\left[\sum_{i}2L_{i}"
           r"e^{-i\omega p_{i}}\text{sinc}(\omega L_{i})\right]. $$ where $\mathcal{F}$ denotes the "
           r"Fourier transform, $\star$ the convolution operation and $\text{sinc}(x):=\sin(x)/x$.")
Q_PROOF = (r"$$ \displaystyle=\left(\int_{-\infty}^{\infty}U_{1}(\nu)e^{i\nu t}d\nu\right)\cdot\left("
           r"\int_{-\infty}^{\infty}U_{2}(\xi)e^{i\xi t}d\xi\right) $$ … 2. The Fourier transform of a "
           r"rectangular pulse between $-\tau$ and $\tau$ is $2\tau\cdot\text{sinc}(\omega\tau)$, where "
           r"$\text{sinc}(x)=\sin(x)/x$.")
Q_LINEAR = (r"However, one thing a linear RNN cannot do is store information under frequencies which are "
            r"not present in the input signal: if the input is a sine wave of a certain frequency, the "
            r"output will be a scaled and shifted sine wave of the same frequency.")
P_SHIFT = Fraction(1, 2)  # centre p of the integrable witness's region
OMEGAS = (Fraction(0), Fraction(1), Fraction(5, 2))
T_CUT = 24  # |ν| ≤ 24: the neglected tail of ν²e^{−ν²/2} is below e^{−280} < 2^−400


def _prop4_sides(mp: Any, law: ReluSpectrum, omega: Any) -> tuple[Any, Any, Any]:
    """(left, right, ∫|right integrand|) at ω by mpmath quadrature in the context ``mp``."""
    p = mp.mpf(P_SHIFT.numerator) / P_SHIFT.denominator
    two_pi = 2 * mp.pi

    def u(t: Any) -> Any:
        s = t - p
        return (1 - s * s) * mp.exp(-s * s / 2)

    def f_u(v: Any) -> Any:
        return mp.sqrt(two_pi) * v * v * mp.exp(-v * v / 2) * mp.expj(-v * p)

    def right_integrand(v: Any) -> Any:
        return f_u(v) * law.kernel(omega - v, p, mp.mpf(1), mp.expj, mp.sinc)

    cuts = [-T_CUT, -8, 0, 8, T_CUT]
    left = mp.quad(lambda t: max(u(t), 0) * mp.expj(-omega * t), [p - 1, p, p + 1])
    right = law.factor(two_pi) * mp.quad(right_integrand, cuts)
    return left, right, mp.quad(lambda v: abs(right_integrand(v)), cuts)


@functools.cache
def _prop4_kappa() -> Any:
    """κ = ∫|integrand| / |∫integrand| of the right side (the oscillating sinc convolution's
    cancellation), from mpmath at 64 bits, once; the quadrature rules' own error is far below
    c·n·κ·u."""
    mp = mpmath.MPContext()
    mp.prec = 64
    return max(m / abs(r) for _, r, m in (_prop4_sides(mp, ReluSpectrum(two_pi_power=1),
                                                       mp.mpf(w.numerator) / w.denominator)
                                          for w in OMEGAS))


def _prop4_numpy(law: ReluSpectrum, omega: float) -> tuple[complex, complex]:
    """Both sides in float64 by composite Gauss–Legendre (64 nodes on each of 8 pieces of the
    region, 64 on each of 40 pieces of [−T, T]): the integrands are entire, so the rule's error
    is far below rounding."""
    import numpy as np

    p = float(P_SHIFT)
    x, w = np.polynomial.legendre.leggauss(64)

    def rule(f: Any, a: float, b: float, pieces: int) -> complex:
        edges = np.linspace(a, b, pieces + 1)
        total = 0j
        for lo, hi in itertools.pairwise(edges):
            mid, half = (lo + hi) / 2, (hi - lo) / 2
            total += half * np.sum(w * f(mid + half * x))
        return complex(total)

    def u(t: Any) -> Any:
        return (1 - (t - p) ** 2) * np.exp(-((t - p) ** 2) / 2)

    def right_integrand(v: Any) -> Any:
        f_u = np.sqrt(2 * np.pi) * v * v * np.exp(-v * v / 2) * np.exp(-1j * v * p)
        return f_u * law.kernel(omega - v, p, 1.0, lambda y: np.exp(1j * y),
                                lambda y: np.sinc(y / np.pi))

    left = rule(lambda t: np.maximum(u(t), 0.0) * np.exp(-1j * omega * t), p - 1, p + 1, 8)
    return left, complex(law.factor(2 * np.pi) * rule(right_integrand, -T_CUT, T_CUT, 40))


def prop4_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Both sides of Prop. 4 by quadrature in numpy float64 at ω ∈ {0, 1, 5/2} (composite
    Gauss–Legendre)."""
    law = ctx.law(ReluSpectrum)
    if backend.spec.kind != "numpy" or backend.spec.dtype == "float32":
        # tanh-sinh at 256 bits costs ~3 s per statement and control; the exact Dirac weights
        # (SymPy) and the exact search are the arbitrary-precision side of Prop. 4
        raise BackendUnavailable(f"{backend.name}: Prop. 4's quadrature runs in numpy float64")

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        if bk.spec.kind != "numpy":
            raise BackendUnavailable(f"{bk.name}: no quadrature here")
        pairs = [_prop4_numpy(law, float(w)) for w in OMEGAS]
        return bk.vector_of([a for a, _ in pairs]), bk.vector_of([b for _, b in pairs])

    kappa = _prop4_kappa()
    return [identity_check("∫ReLU(u)e^(−iωt)dt against the statement's convolution, by quadrature",
                           backend, compute, n=64, kappa=kappa, instances=len(OMEGAS), escalate=False,
                           instance={"u(t)": "(1 − (t − 1/2)²)e^(−(t − 1/2)²/2)",
                                     "ω": [str(w) for w in OMEGAS]})]


def _complex(s: Scalars, v: tuple[Fraction, Fraction]) -> Any:
    return s.num(v[0]) + s.num(v[1]) * 1j


def linear_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The diagonal linear RNN of :data:`EXAMPLE` run step by step in the backend (complex
    arithmetic of its dtype), against the sinusoid relation at the statement's frequency."""
    from recmem.theory.lru_spectral import rnn_outputs

    law = ctx.law(SameFrequency)
    if backend.spec.kind not in ("numpy", "torch", "mpmath"):
        raise BackendUnavailable(f"{backend.name}: this check runs in numpy, torch and mpmath")

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        s = Scalars(bk)
        lams, bs, cs = ([_complex(s, v) for v in EXAMPLE[k]] for k in ("lams", "bs", "cs"))
        z = _complex(s, EXAMPLE["z"])
        zbar = _complex(s, (EXAMPLE["z"][0], -EXAMPLE["z"][1]))
        ys = rnn_outputs(law, lams, bs, cs, z, zbar, EXAMPLE["steps"], lambda v: v.real, s.num(0))
        lhs, rhs = law.residuals(ys, (z ** law.freq_mult).real)
        return bk.vector_of(lhs), bk.vector_of(rhs)

    # κ: rounding in the recurrence is amplified by Σ|λ|^j ≤ 1/(1 − max|λ|) = 10
    return [identity_check("y_(n+1) + y_(n−1) against 2cos(mω)·y_n for the RNN run step by step",
                           backend, compute, n=EXAMPLE["steps"], kappa=mpmath.mpf(10),
                           instances=EXAMPLE["steps"] - 1, escalate=False,
                           instance={"instance": str(EXAMPLE)})]


def _symbolic(proof: Any) -> Any:
    def side(ctx: Context) -> list[Evidence]:
        t0 = time.perf_counter()
        return [from_proof(proof(ctx.statement), time.perf_counter() - t0)]
    return side


def prop4_strategy(ctx: Context) -> Any:
    """Periodic witnesses u = cos(t − p₀) − a: a ∈ {0, ±1/2} (exact arccos), p₀ = rπ with
    r ∈ {0, 1/2, 1/3, 1/4}, and Dirac weights at ω = j, |j| ≤ 3."""
    from hypothesis import strategies as st

    return st.tuples(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(-1, 2)]),
                     st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(1, 4)]),
                     st.integers(-3, 3))


def prop4_holds(inst: tuple[Fraction, Fraction, int], ctx: Context) -> Instance:
    """Exact (SymPy): the Dirac weight of both sides at ω = j."""
    ok, values = relu_spectrum_instance(ctx.law(ReluSpectrum), *inst)
    return Instance(ok, "exact: SymPy (Fourier coefficient integrated; algebraic values; "
                    "60-digit strict evalf for a nonzero difference)", values,
                    "" if ok is not False else "the Dirac weights differ")


# rational points e^{iω} of the unit circle
CIRCLE: list[tuple[Fraction, Fraction]] = [
    (Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), (Fraction(-1), Fraction(0)),
    (Fraction(3, 5), Fraction(4, 5)), (Fraction(5, 13), Fraction(-12, 13)),
    (Fraction(-8, 17), Fraction(15, 17))]


def linear_strategy(ctx: Context) -> Any:
    """1–3 units with λ = (a + ib)/8, a² + b² < 64 (λ = 0 and real λ included), B and C Gaussian
    integers in [−2, 2]², z = e^{iω} a rational point of the unit circle (ω = 0 and π included),
    4–12 steps."""
    from hypothesis import strategies as st

    gi = st.tuples(st.integers(-2, 2), st.integers(-2, 2)).map(lambda v: (Fraction(v[0]), Fraction(v[1])))
    lam = st.tuples(st.integers(-7, 7), st.integers(-7, 7)).filter(lambda v: v[0] ** 2 + v[1] ** 2 < 64).map(
        lambda v: (Fraction(v[0], 8), Fraction(v[1], 8)))
    return st.integers(1, 3).flatmap(lambda n: st.fixed_dictionaries({
        "lams": st.lists(lam, min_size=n, max_size=n), "bs": st.lists(gi, min_size=n, max_size=n),
        "cs": st.lists(gi, min_size=n, max_size=n),
        "z": st.sampled_from(CIRCLE),
        "steps": st.integers(4, 12)}))


def linear_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact: the RNN run in ℚ(i)."""
    ok, values = same_frequency_instance(ctx.law(SameFrequency), inst)
    return Instance(ok, "exact: ℚ(i) arithmetic (SymPy's QQ_I)", values,
                    "" if ok else "the output is not a sinusoid of the stated frequency")


TOL4 = ("SymPy exact (Dirac weights); numpy float64: c·n·κ·u with κ = ∫|integrand|/|∫| of "
        "the right side from mpmath (64 bits)")
NOTE4 = ("The printed formula mixes two Fourier conventions: the convolution step uses u(t) = "
         "∫U(ν)e^{iνt}dν (so F = (1/2π)∫u e^{−iωt}), property 2 uses F = ∫u e^{−iωt}. In every "
         "convention, with the kernel as printed, the right side must carry 1/(2π). Witness: "
         "u = cos t, whose ReLU has mean 1/π: weight of δ(ω) is 2 on the left, 4π printed.")

CLAIMS = [
    Claim(id="L.prop4", title="Spectral effect of ReLU (Proposition 4, as printed)",
          summary="as printed F_ReLU(u) = F_u ⋆ [Σ 2L_i e^{−iωp_i} sinc(ωL_i)] is 2π too large: "
                  "for u = cos t the δ(ω) weight is 2, printed 4π",
          statement=ReluSpectrum(), provenance=Provenance("L", "App. E.1.1, Proposition 4; Proof E.1",
                                                          Q_PROP4 + " … " + Q_PROOF),
          tolerance=TOL4, symbolic=_symbolic(relu_spectrum_proof), numeric=prop4_numeric,
          strategy=prop4_strategy, holds=prop4_holds, notes=NOTE4),
    Claim(id="L.prop4.corrected", title="Spectral effect of ReLU with the factor 1/(2π)",
          summary="F_ReLU(u) = (1/2π)·F_u ⋆ [Σ 2L_i e^{−iωp_i} sinc(ωL_i)] (F = ∫u e^{−iωt}dt)",
          statement=ReluSpectrum(two_pi_power=1),
          provenance=Provenance("L", "App. E.1.1, Proposition 4; Proof E.1", Q_PROP4 + " … " + Q_PROOF),
          tolerance=TOL4, symbolic=_symbolic(relu_spectrum_proof), numeric=prop4_numeric,
          strategy=prop4_strategy, holds=prop4_holds, corrects="L.prop4", notes=NOTE4),
    Claim(id="L.e11.same-frequency", title="A linear RNN maps a sinusoid to a sinusoid of the same frequency",
          summary="in steady state y_n = Re(C x_n) is a scaled, shifted cos(ωn): y_(n+1) + y_(n−1) = "
                  "2cos ω·y_n; from rest a transient Re(C λ^n x) adds",
          statement=SameFrequency(),
          provenance=Provenance("L", "App. E.1.1, Spectral limitations of linear RNNs", Q_LINEAR),
          tolerance="SymPy exact (general); ℚ(i) exact search; floats and mpmath: c·n·κ·u, κ = 10",
          symbolic=_symbolic(same_frequency_proof), numeric=linear_numeric,
          strategy=linear_strategy, holds=linear_holds,
          reading="'the output will be' read in steady state (the input since −∞): from rest the "
                  "output carries a decaying transient (the control 'started from rest' is refuted)",
          notes="The text states it for continuous time (ẋ = Ax + Bu); checked for the discrete "
                "diagonal RNN the paper uses (§3), where the same argument applies."),
]
