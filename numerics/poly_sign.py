"""The exact sign of the maximum of a rational polynomial on a closed interval.

max_{x∈[lo, hi]} p(x) is attained at lo, hi or a real root of p′ inside. The endpoint values are
exact rationals. p′ is factored over ℚ (python-flint); a linear factor gives a rational critical
point, evaluated exactly; an irreducible factor F of degree ≥ 2 has only irrational roots, which
flint isolates in certified balls (real roots come back with an exactly zero imaginary part), and
p(r) at such a root is either exactly 0 (F divides p) or nonzero (gcd(F, p) = 1), in which case
its sign is certified by evaluating p on the ball, refined until the ball excludes 0. So the
sign returned is exact. Used by the Toeplitz sequences of paper W's Lemmas A.8–A.9
(theory.lyapunov_sequences), whose symbol's real part on the unit circle is a polynomial in
x = cos θ on [−1, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

PRECISIONS = (64, 128, 256, 512, 1024, 4096)
Candidate = tuple[Fraction | None, float, int, str]  # (exact value or None, approx, sign, where)


@dataclass(frozen=True)
class PolyMax:
    """sign(max_{[lo, hi]} p) exactly (for W App. A.10's Toeplitz sequences), an approximation of
    the maximum (search guidance only), where it is attained, and the maximum itself when it is
    rational (else None)."""

    sign: int
    approx: float
    where: str
    exact: Fraction | None = None  # the maximum itself when it is rational (an endpoint or a
    # rational critical point)


def _fq(x: Fraction) -> Any:
    import flint

    return flint.fmpq(x.numerator, x.denominator)


def _exact_at(p: Any, x: Fraction) -> Fraction:
    v = p(_fq(x))
    return Fraction(int(v.p), int(v.q))


def _ball_at(p: Any, x: Any) -> Any:
    """p(x) for an arb x (Horner)."""
    import flint

    out = flint.arb(0)
    for c in reversed(p.coeffs()):
        out = out * x + flint.arb(c)
    return out


def max_sign(coeffs: Sequence[Fraction], lo: Fraction, hi: Fraction) -> PolyMax:
    """sign(max_{x∈[lo, hi]} p(x)) ∈ {−1, 0, 1} for p(x) = Σ_k coeffs[k]·x^k (rationals), exactly
    (module docstring); lo ≤ hi. Decides the sign of a Toeplitz symbol's maximum for paper W's
    Lemmas A.8–A.9 read about sequences (App. A.10; theory.lyapunov_sequences)."""
    import flint

    p = flint.fmpq_poly([_fq(Fraction(c)) for c in coeffs])
    cands: list[Candidate] = []
    for x in (lo, hi):
        v = _exact_at(p, x)
        cands.append((v, float(v), (v > 0) - (v < 0), f"x = {x}"))
    dp = p.derivative()
    if dp.degree() >= 1:
        _, factors = dp.factor()
        for fac, _mult in factors:
            cands += _critical(p, fac, lo, hi)
    best = max(cands, key=lambda c: (c[2], c[1]))
    return PolyMax(best[2], best[1], best[3], best[0])


def _critical(p: Any, fac: Any, lo: Fraction, hi: Fraction) -> list[Candidate]:
    """Values of p at the roots of the irreducible ``fac`` inside (lo, hi)."""
    import flint

    if fac.degree() == 1:
        c0, c1 = fac.coeffs()
        r = -Fraction(int(c0.p), int(c0.q)) / Fraction(int(c1.p), int(c1.q))
        if lo < r < hi:
            v = _exact_at(p, r)
            return [(v, float(v), (v > 0) - (v < 0), f"x = {r}")]
        return []
    divides = (p % fac) == 0
    for prec in PRECISIONS:
        with flint.ctx.workprec(prec):
            roots = [c.real for c, _ in fac.complex_roots() if c.imag.is_zero()]
            out: list[Candidate] = []
            again = False
            flo, fhi = flint.arb(_fq(lo)), flint.arb(_fq(hi))
            for r in roots:
                if r < flo or r > fhi:  # certainly outside
                    continue
                if not (r > flo and r < fhi):  # straddles an endpoint (irrational root: refine)
                    again = True
                    break
                if divides:
                    out.append((Fraction(0), 0.0, 0, f"x = root of {fac} (p = 0 there)"))
                    continue
                v = _ball_at(p, r)
                if v > 0 or v < 0:
                    out.append((None, float(v.mid()), 1 if v > 0 else -1, f"x ∈ {r.str(10)}"))
                else:
                    again = True
                    break
            if not again:
                return out
    raise ArithmeticError(f"could not separate the critical values of p at the roots of {fac}")


def chebyshev_to_monomial(cheb: Sequence[Fraction]) -> list[Fraction]:
    """Σ_k cheb[k]·T_k(x) in the monomial basis (T_k the Chebyshev polynomials: T_k(cos θ) =
    cos kθ), exactly: the real part of a Toeplitz symbol on the unit circle (W App. A.10,
    theory.lyapunov_sequences)."""
    out = [Fraction(0)] * max(len(cheb), 1)
    t_prev, t_cur = [Fraction(1)], [Fraction(0), Fraction(1)]
    for k, c in enumerate(cheb):
        tk = t_prev if k == 0 else t_cur if k == 1 else None
        if tk is None:
            nxt = [Fraction(0)] + [2 * x for x in t_cur]
            for i, x in enumerate(t_prev):
                nxt[i] -= x
            t_prev, t_cur = t_cur, nxt
            tk = t_cur
        for i, x in enumerate(tk):
            out[i] += c * x
    return out
