"""L §3.4 after Proposition 3: the one-dimensional white-noise derivation and the γ normalisation.

- ``L.white-noise-1d`` (printed) / ``L.white-noise-1d.corrected``: the displayed chain
  E|x_k|² = (Σλ^i E[u_{k−i}])(Σλ^j E[u_{k−j}])^* = Σ λ^i(λ^j)^* E[u_{k−i}u_{k−j}] = Σ|λ|^{2i} → 1/(1 − |λ|²)
  (statement :class:`recmem.theory.lru_blowup.WhiteNoise1D`). The printed first line puts E
  inside each factor: zero-mean input makes it 0 (k = 1, λ = 0, u_1 = ±1: E|x_1|² = 1 ≠ 0). The
  correction: E[(Σλ^i u_{k−i})(Σλ^j u_{k−j})^*], with E[u_k²] = 1 stated (the last equality needs it).
- ``L.eq7.gamma``: γ^log = log √(1 − |λ|²) in Eq. (7) gives E|x_∞|² = E|(Bu)|² under white noise
  (statement :class:`~recmem.theory.lru_blowup.GammaNorm`).

Numerics: the definition E|x_k|² by enumerating every ±σ input sequence (an exact white-noise law)
in the backend's arithmetic against each printed line; the normalised stationary variance
exp(2γ^log)·Σ_j |λ|^{2j} summed in the arithmetic against 1. Search: exact SymPy instances.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.lru_ring import column, const_of, geometric_sum
from recmem.numerics.native import conj, scalar
from recmem.theory.lru_blowup import GammaNorm, WhiteNoise1D, gamma_proof, white_noise_1d_proof

QUOTE_1D = (r"we present a simplified derivation of the $1/\rho$ gain formula for the one-dimensional "
            r"setting under white-noise input <sup>8</sup>: let $\Lambda=\lambda\in\mathbb{C}$, and $B=1$. "
            r"Let $p^{*}$ denote the conjugate of $p\in\mathbb{C}$, we have that $|p|^{2}=p^{*}p$ and in "
            r"expectation over the input, using Eq.(4) and the fact that $\mathbb{E}[u_{k-i}u_{k-j}]=0$ "
            r"for $i\neq j$: $$ \displaystyle\mathbb{E}|x_{k}|^{2}=\left(\sum_{i=0}^{k-1}\lambda^{i}"
            r"\mathbb{E}[u_{k-i}]\right)\left(\sum_{j=0}^{k-1}\lambda^{j}\mathbb{E}[u_{k-j}]\right)^{*}="
            r"\sum_{i,j=0}^{k-1}\lambda^{i}(\lambda^{j})^{*}\mathbb{E}[u_{k-i}u_{k-j}]=\sum_{i=0}^{k-1}"
            r"|\lambda|^{2i}\overset{\infty}{\to}\frac{1}{1-|\lambda|^{2}}. $$")
QUOTE_GAMMA = (r"Since the formula above holds for every Euclidean direction in our recurrence ($\Lambda$ "
               r"is diagonal), we can add a normalization parameter that is initialized element-wise. … "
               r"we use normalization parameter $\gamma^{\log}\in\mathbb{R}^{N}$, initialized element-wise "
               r"as $\gamma_{i}^{\log}\leftarrow\log(\sqrt{1-|\lambda_{i}|^{2}})$,<sup>9</sup> and modify "
               r"the recurrence as: $$ x_{k}=\Lambda x_{k-1}+\exp(\gamma^{\log})\odot(Bu_{k}), $$")
# exact points λ (Gaussian rationals, |λ| < 1) and the horizon k of the numeric sides
LAMBDAS = (QQi(Fraction(1, 2), Fraction(1, 4)), QQi(Fraction(-9, 10)))
K = 5


def _sigma(law: WhiteNoise1D) -> Fraction:
    """σ with σ² = the statement's variance (a perfect square: the ±σ law stays exact)."""
    v = law.variance
    root = Fraction(int(mpmath.sqrt(v.numerator)), int(mpmath.sqrt(v.denominator)))
    if root * root != v:
        raise ValueError(f"the variance must be a rational square, got {v}")
    return root


def symbolic_1d(ctx: Context) -> list[Evidence]:
    """Each printed line against E|x_k|² in SymPy (theory.lru_blowup.white_noise_1d_proof)."""
    t0 = time.perf_counter()
    return [from_proof(white_noise_1d_proof(ctx.law(WhiteNoise1D)), time.perf_counter() - t0)]


def numeric_1d(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """E|x_k|² by enumerating the 2^k equally likely inputs u ∈ {±σ}^k, x_k = Σ_i λ^i u_{k−i}
    computed by the recurrence in ``backend``, against each printed line (k = K)."""
    law = ctx.law(WhiteNoise1D)
    sigma = _sigma(law)
    out = []
    for lam in LAMBDAS:
        def compute(b: AbstractBackend, lam: QQi = lam) -> tuple[Any, Any]:
            lb = b.entries(b.vector([lam]))[0] if b.spec.kind not in ("numpy", "torch") else \
                b.vector([lam]).reshape(-1)[0]
            plus, minus, zero = scalar(b, sigma), scalar(b, -sigma), scalar(b, 0)
            total = zero
            for signs in itertools.product((plus, minus), repeat=K):
                x = zero
                for u in signs:  # x_k = λx_{k−1} + u_k from x_0 = 0
                    x = lb * x + u
                total = total + x * conj(x)
            definition = total / 2**K
            var = scalar(b, law.variance)
            lines = law.lines(lb, K, zero, lambda i, j: var if i == j else zero, conj, abs)
            return column(b, [definition] * len(lines)), column(b, list(lines.values()))

        out.append(identity_check(f"E|x_k|² over all ±σ inputs = each printed line (k = {K})", backend,
                                  compute, instance={"lambda": str(lam), "k": str(K),
                                                     "u": f"±{sigma} with probability 1/2"},
                                  kappa=mpmath.mpf(8), n=2**K))
    return out


def strategy_1d(ctx: Context) -> Any:
    """Exact λ = a + ib with |λ| < 1 and a horizon 1 ≤ k ≤ 3."""
    from hypothesis import strategies as st

    q = fractions_in(-1, 1, 8)
    lam = st.tuples(q, q).filter(lambda p: p[0] ** 2 + p[1] ** 2 < 1)
    return st.tuples(lam, st.integers(1, 3))


def holds_1d(instance: tuple[tuple[Fraction, Fraction], int], ctx: Context) -> Instance:
    """The definition (every ±σ input sequence, exact SymPy) against each printed line."""
    import sympy as sp

    law = ctx.law(WhiteNoise1D)
    (a, b), k = instance
    lam = sp.Rational(a) + sp.I * sp.Rational(b)
    sig = sp.Rational(_sigma(law))
    total = sp.Integer(0)
    for signs in itertools.product((sig, -sig), repeat=k):
        x = sum(lam**i * signs[k - 1 - i] for i in range(k))
        total += sp.expand(x * sp.conjugate(x))
    definition = total / 2**k
    var = sp.Rational(law.variance)
    lines = law.lines(lam, k, sp.Integer(0), lambda i, j: var if i == j else sp.Integer(0),
                      sp.conjugate, sp.Abs)
    diffs = {name: sp.expand(v - definition) for name, v in lines.items()}
    bad = {name: str(d) for name, d in diffs.items() if d != 0}
    if any(d != 0 and d.is_zero is not False for d in diffs.values()):
        return Instance(None, "exact SymPy: a difference SymPy could not decide", {"k": k, **bad})
    return Instance(not bad, "exact SymPy: E|x_k|² over every ±σ input sequence",
                    {"lambda": str(lam), "k": k, "E|x_k|²": str(definition), **bad})


# ---- γ normalisation ----------------------------------------------------------------------------

def symbolic_gamma(ctx: Context) -> list[Evidence]:
    """The normalised stationary variance in SymPy (theory.lru_blowup.gamma_proof)."""
    t0 = time.perf_counter()
    return [from_proof(gamma_proof(ctx.law(GammaNorm)), time.perf_counter() - t0)]


def numeric_gamma(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """exp(γ^log)² (the backend's log and exp) times the white-noise stationary variance
    Σ_j |λ|^{2j} summed in the backend, against E|(Bu)|² = 1, at exact λ."""
    law = ctx.law(GammaNorm)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lhs = []
        for lam in LAMBDAS:
            s = scalar(b, lam.re**2 + lam.im**2)
            factor = b.exp(law.gamma_log(s, b.log, const_of(b)))
            lhs.append(factor * factor * geometric_sum(b, s, 0, scalar(b, 1)))
        return column(b, lhs), column(b, [scalar(b, 1)] * len(lhs))

    return [identity_check("exp(2γ^log)·Σ_j |λ|^(2j) = 1 (white noise, E|(Bu)|² = 1)", backend, compute,
                           instance={"lambda": ", ".join(map(str, LAMBDAS))},
                           kappa=mpmath.mpf(1) / (1 - mpmath.mpf(81) / 100), n=64)]


def strategy_gamma(ctx: Context) -> Any:
    """Exact s = |λ|² ∈ [0, 1)."""
    return fractions_in(0, Fraction(63, 64), 64).filter(lambda s: s < 1)


def holds_gamma(s: Fraction, ctx: Context) -> Instance:
    """exp(2γ^log)/(1 − s) against 1, exactly in SymPy."""
    import sympy as sp

    law = ctx.law(GammaNorm)
    sv = sp.Rational(s)
    value = sp.simplify(sp.exp(2 * law.gamma_log(sv, sp.log, lambda q: sp.Rational(q))) / (1 - sv))
    return Instance(bool(sp.simplify(value - 1) == 0), "exact SymPy", {"|λ|²": str(s),
                                                                       "E|x_∞|²/E|(Bu)|²": str(value)})


TOL_1D = ("symbolic (SymPy, every k ≤ 5, symbolic λ); numeric: c·n·κ·u with n = 2^k terms, κ = 8; "
          "search exact")
PROV_1D = Provenance("L", "§3.4, after Proposition 3 (one-dimensional white-noise derivation)", QUOTE_1D)

CLAIMS = [
    Claim(
        id="L.white-noise-1d",
        title="One-dimensional white-noise derivation of the 1/(1 − |λ|²) gain, as printed",
        summary="the first line puts E inside each factor, (Σλ^i E u)(Σλ^j E u)^* = 0 for "
                "zero-mean input (k = 1, u = ±1: E|x_1|² = 1); E[u²] = 1 is also unstated",
        statement=WhiteNoise1D(),
        provenance=PROV_1D, tolerance=TOL_1D,
        symbolic=symbolic_1d, numeric=numeric_1d, strategy=strategy_1d, holds=holds_1d,
        notes="Read as printed: E|x_k|² equals the product of the expected sums. The input is real "
              "(E[u_{k−i}u_{k−j}] without conjugate, as printed)."),
    Claim(
        id="L.white-noise-1d.corrected",
        title="One-dimensional white-noise derivation, corrected",
        summary="E|x_k|² = E[(Σλ^i u_(k−i))(Σλ^j u_(k−j))^*] = Σλ^i(λ^j)^*E[u u] = Σ|λ|^(2i) → "
                "1/(1 − |λ|²), with E[u_k] = 0 and E[u_k²] = 1 stated",
        statement=WhiteNoise1D(means_inside=False),
        corrects="L.white-noise-1d",
        provenance=PROV_1D, tolerance=TOL_1D,
        symbolic=symbolic_1d, numeric=numeric_1d, strategy=strategy_1d, holds=holds_1d,
        notes="Correction: the expectation of the product (not the product of expectations), and "
              "unit variance, which the printed Σ|λ|^{2i} needs (σ² ≠ 1 gives σ²Σ|λ|^{2i})."),
    Claim(
        id="L.eq7.gamma",
        title="γ normalisation (Eq. 7): γ^log = log √(1 − |λ|²) normalises white noise",
        summary="exp(γ^log)² = 1 − |λ|² makes E|x_∞|² = E|(Bu)|² in every direction under white "
                "noise; under constant input only on average over the phase (fixed λ: "
                "(1 − |λ|²)/|1 − λ|², e.g. 3 at λ = 1/2)",
        statement=GammaNorm(),
        provenance=Provenance("L", "§3.4, Eq. (7)", QUOTE_GAMMA),
        uses=("L.white-noise-1d.corrected",),
        tolerance="symbolic (SymPy, general in |λ| < 1); numeric c·n·κ·u, κ = 1/(1 − |λ|²); search exact",
        symbolic=symbolic_gamma, numeric=numeric_gamma, strategy=strategy_gamma, holds=holds_gamma,
        notes="Under constant input u, |x_∞|² = (1 − |λ|²)|ũ|²/|1 − λ|², which lies in "
              "[(1 − r)/(1 + r), (1 + r)/(1 − r)]·|ũ|² (r = |λ|) and averages to |ũ|² only over a "
              "uniform phase (Poisson kernel); with the small phases of §3.4 (θ ∈ [0, π/10]) it stays "
              "≈ (1 + r)/(1 − r) for r → 1. Footnotes 8 and 9 are not in the stored text."),
]
