"""L.lemma2 (L §3.2.2, Lemma 2: sampling uniformly on the ring) and L.lemma2.proof (App. F.1).

Lemma 2 is paper O's Lemma 6, printed identically (same hypothesis 0 ≤ r_min ≤ r_max ≤ 1, same ν
and θ, same conclusion; O adds only the name 𝕋(r_min, r_max)): the statement is O's
(recmem.theory.ring.LEMMA6) and so are its checks (O.ring's SymPy pushforward derivation, KS/χ²
statistics in every arithmetic, exact CDF search), with L's own page text.

L.lemma2.proof checks each displayed line of App. F.1 (recmem.theory.lru_spectrum.RingProofF1):
SymPy line by line; numerically, in every arithmetic, each line's definition (integrals
by quadrature, F(e^{−ν}), u) against the printed line at exact (r_min, r_max, u); search: the
same lines exactly (SymPy) at exact points.
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance, by_arithmetic
from recmem.checks.claims.paper_o import ring as o_ring
from recmem.checks.claims.paper_o._common import p_rmax, p_rmin
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.lru_arith import Lin
from recmem.theory.lru_spectrum import RING_PROOF, RingProofF1, ring_proof_f1
from recmem.theory.ring import LEMMA6

QUOTE_LEMMA = (r"Lemma 2. Let $u_{1},u_{2}$ be independent uniform random variables on the interval "
               r"$[0,1]$. Let $0\leq r_{\min}\leq r_{\max}\leq 1$. Compute "
               r"$\nu=-\frac{1}{2}\log\left(u_{1}(r_{\max}^{2}-r_{\min}^{2})+r_{\min}^{2}\right)$ "
               r"and $\theta=2\pi u_{2}$. Then $\exp(-\nu+i\theta)$ is uniformly distributed on the "
               r"ring in $\mathbb{C}$ between circles of radii $r_{\min}$ and $r_{\max}$.")
QUOTE_PROOF = (r"The area of the ring in between $r_{\min}$ and $r_{\max}$ is "
               r"$\pi(r_{\max}^{2}-r_{\min}^{2})$, while the cumulative distribution function for "
               r"the radius distribution is such that $F_{r}(r_{\min})=0$, $F_{r}(r_{\max})=1$ and "
               r"for $r\in[r_{\min},r_{\max}]$ we therefore have $$ "
               r"F(r)=\frac{r^{2}-r_{\min}^{2}}{r_{\max}^{2}-r_{\min}^{2}}. $$ Under parametrization "
               r"of $r$ using the exponential, $r=e^{-\nu}$, one gets $$ "
               r"F(r)=\frac{e^{-2\nu}-r_{\min}^{2}}{r_{\max}^{2}-r_{\min}^{2}}. $$ Finally, we use "
               r"the inverse sampling theorem (see e.g. [^81]): one can sample $\nu$ using the "
               r"formula $\nu=F^{-1}(u)$, where $u$ is uniform on $[0,1]$. By setting $$ "
               r"u=\frac{e^{-2\nu}-r_{\min}^{2}}{r_{\max}^{2}-r_{\min}^{2}}, $$ we get $$ "
               r"e^{-2\nu}=(r_{\max}^{2}-r_{\min}^{2})u+r_{\min}^{2}, $$ from which follows that "
               r"$\nu=-\frac{1}{2}\log((r_{\max}^{2}-r_{\min}^{2})u+r_{\min}^{2})$.")

# exact levels u of the numeric round trip (dyadic, exact in every arithmetic)
LEVELS = tuple(Fraction(k, 16) for k in range(1, 16))


def symbolic_proof(ctx: Context) -> list[Evidence]:
    """SymPy, line by line (theory.lru_spectrum.ring_proof_f1)."""
    t0 = time.perf_counter()
    return [from_proof(ring_proof_f1(ctx.law(RingProofF1)), time.perf_counter() - t0)]


def _gl2(la: Lin) -> Any:
    """∫_a^b 2πs ds by 2-point Gauss–Legendre (exact for this linear integrand: only rounding)."""
    two, half = la.num(2), la.num(Fraction(1, 2))
    g = la.sqrt(la.num(3)) / la.num(3) * half  # the nodes ±1/√3, halved

    def integral(a: Any, b: Any) -> Any:
        mid, h = (a + b) * half, (b - a)
        return two * la.pi() * h * half * ((mid - g * h) + (mid + g * h))

    return integral


def numeric_proof(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Each line's definition (the integrals by quadrature, F(e^{−ν}), u) against the printed
    line at exact levels u, ν = ν(u), r = e^{−ν}, in ``backend``."""
    law = ctx.law(RingProofF1)
    r_min, r_max = Fraction(ctx["r_min"]), Fraction(ctx["r_max"])

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        la = Lin(bk)
        lo, hi, integral = la.num(r_min), la.num(r_max), _gl2(la)
        lhs, rhs = [], []
        for q in LEVELS:
            u = la.num(q)
            nu = law.nu(u, lo, hi, la.log)
            for d, p in law.lines(la.exp(-nu), nu, u, lo, hi, pi=la.pi(), integral=integral,
                                  exp=la.exp, log=la.log).values():
                lhs.append(d)
                rhs.append(p)
        return bk.vector_of(lhs), bk.vector_of(rhs)

    # w = (r_max² − r_min²)u + r_min² is known to ~u·w; log, exp add ~u·|log w|; the subtraction
    # of r_min² and the division scale it by 1/(r_max² − r_min²): κ = max w(1 + |log w|)/(Δ·u)
    d = float(r_max**2 - r_min**2)
    kappa = max((d * float(u) + float(r_min**2)) * (1 + abs(mpmath.log(d * float(u)
                                                                      + float(r_min**2))))
                / (d * float(u)) for u in LEVELS)
    return [identity_check(f"App. F.1 lines (1)–(5) at {len(LEVELS)} levels u, r_min = {r_min}, "
                           f"r_max = {r_max}", backend, compute, kappa=kappa, n=16,
                           instance={"r_min": str(r_min), "r_max": str(r_max)},
                           instances=len(LEVELS))]


def strategy_proof(ctx: Context) -> Any:
    """Exact (r_min, r_max, u): 0 ≤ r_min < r_max ≤ 1 and u ∈ (0, 1], on a grid of 1/16."""
    from hypothesis import strategies as st

    g = st.integers(0, 16)
    return st.tuples(g, g, st.integers(1, 16)).filter(lambda v: v[0] != v[1]).map(
        lambda v: (Fraction(min(v[:2]), 16), Fraction(max(v[:2]), 16), Fraction(v[2], 16)))


@functools.cache
def _ring_integral() -> Any:
    """(a, b) ↦ ∫_a^b 2πs ds, integrated once by SymPy (the definition of the area)."""
    import sympy as sp

    s, a, b = sp.symbols("s a b")
    f = sp.integrate(2 * sp.pi * s, (s, a, b))
    return lambda lo, hi: f.subs({a: lo, b: hi})


def holds_proof(inst: tuple[Fraction, Fraction, Fraction], ctx: Context) -> Instance:
    """Exact SymPy: every line's definition against the printed line at the exact point."""
    import sympy as sp

    law = ctx.law(RingProofF1)
    r_min, r_max, u = (sp.Rational(v.numerator, v.denominator) for v in inst)
    nu = law.nu(u, r_min, r_max, sp.log)
    lines = law.lines(sp.exp(-nu), nu, u, r_min, r_max, pi=sp.pi, exp=sp.exp, log=sp.log,
                      integral=_ring_integral())
    diffs = {k: sp.expand(d - p) for k, (d, p) in lines.items()}
    # expand reduces these algebraic numbers to 0 or to a form whose sign SymPy decides
    ok = True if all(v == 0 for v in diffs.values()) else (
        False if any(v.is_zero is False for v in diffs.values()) else None)
    return Instance(ok, "exact SymPy arithmetic",
                    {"r_min": str(r_min), "r_max": str(r_max), "u": str(u),
                     **{k: str(v) for k, v in diffs.items()}})


CLAIMS = [
    Claim(
        id="L.lemma2",
        summary="Lemma 2 = O's Lemma 6, printed identically: shared statement and checks",
        title="Lemma 2: sampling uniformly on the ring",
        statement=LEMMA6,
        provenance=Provenance("L", "§3.2.2, Lemma 2", QUOTE_LEMMA),
        tolerance=o_ring.CLAIMS[0].tolerance,
        uses=("O.ring",),
        params=o_ring.CLAIMS[0].params,
        # the same statement's statistics in mpmath and torch are O.ring's (run there): here the
        # float64 sampler and the certified one (flint) keep the claim's cost down
        symbolic=o_ring.symbolic,
        numeric=by_arithmetic({"numpy": o_ring.numeric, "flint": o_ring.numeric},
                              "the same statement's statistics in this arithmetic are O.ring's"),
        strategy=o_ring.strategy,
        holds=o_ring.holds, validate=o_ring.validate,
        notes="Compared with O's Lemma 6: the same hypothesis, formulas and conclusion.",
    ),
    Claim(
        id="L.lemma2.proof",
        summary="every displayed line of App. F.1 holds (ν = F⁻¹(u) with F decreasing in ν is "
                "still the right law)",
        title="App. F.1: the proof of Lemma 2, line by line",
        statement=RING_PROOF,
        provenance=Provenance("L", "App. F.1, Proof F.1", QUOTE_PROOF),
        tolerance="exact (SymPy); enclosure (flint); c·n·κ·u with κ = max w(1 + |log w|)/(Δu), "
                  "w = Δu + r_min², Δ = r_max² − r_min² (floats)",
        uses=("L.lemma2",),
        params=(p_rmin(Fraction(1, 2)), p_rmax()),
        symbolic=symbolic_proof, numeric=numeric_proof, strategy=strategy_proof,
        holds=holds_proof,
        notes="F in line (3) is a decreasing function of ν (the survival function of ν), so "
              "“ν = F⁻¹(u)” samples ν correctly because 1 − u is uniform too (line 6).",
    ),
]
