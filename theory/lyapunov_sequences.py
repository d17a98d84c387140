"""Sequences W_m ∈ ℝ^{m×m} (m = 1, 2, …) with a finite exact description, for paper W's Lemmas A.8
and A.9 read as statements about sequences (ICLR camera-ready App. A.10, eqs. (75)–(77) and
(86)–(89), as used in App. A.9 eqs. (50)–(52)), and exact decisions of what those lemmas say
about the whole sequence.

The family (:class:`ToeplitzSequence`): a fixed Hurwitz block H (h×h, h ≥ 0) followed by a banded
triangular Toeplitz tail,

    W_m = H ⊕ T_{m−h}(m) for m > h,   W_m = T_m(m) for m ≤ h,
    T_k(m) = −a·I_k + Σ_{j=1}^{K} (c_j + d_j·m)·N_k^j   (N_k the k×k superdiagonal shift, a > 0),

with rational a, c_j, d_j. It contains the witness of theory.lyapunov.superdiagonal_disproof
(W_m = −I_m + 2N_m: a = 1, c = (2,)), normal sequences (c = d = 0), defective ones (c_1 ≠ 0: one
Jordan block per tail) and, through H, any fixed non-normal or normal Hurwitz block.

Facts (exact; P_m solves W_mᵀP_m + P_mW_m = −I_m, eq. (75)/(88)):

(i) every eigenvalue of the tail is −a, so sup_m max_i Re λ_i(W_m) = max(α(H), −a);
(ii) sup_m max_ij |W_m,ij| < ∞ (eq. (87)) iff every d_j = 0;
(iii) with d = 0, let φ(z) = −a + Σ_j c_j z^j and M = max_{|z|=1} Re φ(z) = max_{x∈[−1,1]}
    (−a + Σ_j c_j T_j(x)) (T_j Chebyshev, x = cos θ). Then sup_k ‖P(T_k)‖₂ = 1/(−2M) when M < 0 and
    = ∞ when M ≥ 0, and (P(T_k))_kk → ∞ iff M ≥ 0. Proof: in the basis e_k, …, e_1, T_k is
    multiplication by φ on ℂ[z]/(z^k), the compression of the analytic Toeplitz operator T(φ) on
    H²; e^{T_k t} is the compression of T(e^{φt}) and T_{k+1} = [[T_k, 0], [∗, −a]] in that basis,
    so P(T_k) is dominated by the leading block of P(T_{k+1}) and the quadratic forms increase to
    that of P_∞ = ∫₀^∞ T(e^{φt})*T(e^{φt}) dt = T(1/(−2 Re φ)) (T(f̄)T(g) = T(f̄g) for analytic g),
    whose norm is ‖1/(−2 Re φ)‖_∞ (Brown–Halmos: ‖T(w)‖ = ‖w‖_∞). For the corner,
    (P(T_k))_kk = Σ_{j<k} ∫₀^∞ |[z^j]e^{φt}|² dt ↑ (1/2π)∫ dθ/(−2 Re φ(e^{iθ})), infinite iff M ≥ 0
    (Re φ is smooth, so at a maximum of value 0 it vanishes at least quadratically);
(iv) if some d_j ≠ 0 (say the first is j*), (P_m)_mm → ∞: [z^{j*}]e^{φ_m t} = (c_{j*} + d_{j*}m)t
    + R(t) with R fixed once m > j*, and ∫ e^{−2at}((c + dm)t + R)² dt → ∞;
(v) for W = H ⊕ T, P(W) = P(H) ⊕ P(T), so ‖P(W)‖₂ = max(‖P(H)‖₂, ‖P(T)‖₂), and q(v) of Lemma A.9
    splits over the blocks; q(e_i) = 2(P)_ii(W)_ii, so |q(e_m)| = 2a(P_m)_mm on the tail's last
    basis vector, while |q(v)| ≤ 2‖W‖₂‖P‖₂|v|₂⁴ with ‖T_k‖₂ ≤ a + Σ|c_j|.

Hence sup_m ‖P_m‖₂ < ∞ and the existence of one Υ for every m (Lemma A.9, as printed) both hold
exactly when d = 0 and M < 0; :func:`symbol_max` decides the sign of M (plus a shift) exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from recmem.numerics.poly_sign import PolyMax, chebyshev_to_monomial, max_sign

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class ToeplitzSequence:
    """W_m = H ⊕ T_{m−h}(m) (module docstring; W App. A.10 Lemmas A.8–A.9 about sequences): tail
    −a·I + Σ_j (c_j + d_j·m)N^j, head H with its exact spectral abscissa ``head_alpha`` (None when h
    = 0)."""

    a: Fraction
    c: tuple[Fraction, ...]
    d: tuple[Fraction, ...] = ()
    head: Matrix = ()
    head_alpha: Fraction | None = None

    @property
    def h(self) -> int:
        """The size of the head block H."""
        return len(self.head)

    def coefficients(self, m: int) -> list[Fraction]:
        """c_j + d_j·m, j = 1…K: the tail's band at sequence index m."""
        d = list(self.d) + [Fraction(0)] * (len(self.c) - len(self.d))
        return [cj + dj * m for cj, dj in zip(self.c, d, strict=True)]

    def tail(self, k: int, m: int) -> list[list[Fraction]]:
        """T_k(m) (k×k)."""
        cs = self.coefficients(m)
        return [[-self.a if i == j else (cs[j - i - 1] if 0 < j - i <= len(cs) else Fraction(0))
                 for j in range(k)] for i in range(k)]

    def W(self, m: int) -> list[list[Fraction]]:
        """W_m, exactly (m×m)."""
        if m <= self.h:
            return self.tail(m, m)
        k = m - self.h
        t = self.tail(k, m)
        z = Fraction(0)
        return [list(r) + [z] * k for r in self.head] + [[z] * self.h + row for row in t]

    @property
    def abscissa(self) -> Fraction:
        """sup_m max_i Re λ_i(W_m) = max(α(H), −a) (fact (i))."""
        return -self.a if self.head_alpha is None else max(self.head_alpha, -self.a)

    @property
    def bounded_entries(self) -> bool:
        """Whether sup_m max_ij |W_m,ij| < ∞, eq. (87) (fact (ii)): every d_j = 0."""
        return not any(self.d)

    def max_entry(self) -> Fraction:
        """sup_m max_ij |W_m,ij| for a sequence with bounded entries (the M₀ of (87) at its
        boundary)."""
        if not self.bounded_entries:
            raise ValueError("the entries of this sequence grow with m")
        vals = [abs(self.a), *map(abs, self.c), *(abs(x) for row in self.head for x in row)]
        return max(vals)

    def symbol_real_part(self) -> list[Fraction]:
        """Re φ(e^{iθ}) = −a + Σ_j c_j cos jθ as a polynomial in x = cos θ (monomial coefficients)."""
        return chebyshev_to_monomial([-self.a, *self.c])

    def symbol_max(self, shift: Fraction = Fraction(0)) -> PolyMax:
        """sign(M + shift) exactly, M = max_{|z|=1} Re φ(z) (fact (iii)), and an approximation."""
        p = self.symbol_real_part()
        p[0] += shift
        return max_sign(p, Fraction(-1), Fraction(1))

    def tail_corner(self, m: int) -> Fraction:
        """(P_m)_mm: the last diagonal entry of the solution of (75) for W_m, whose last basis vector
        lies in the tail (m > h, or m ≤ h: the whole W_m is a tail), exactly from
        (P)_kk = Σ_{j<k} ∫₀^∞ e^{−2at}E_j(t)² dt, E_j(t) = [z^j] exp(t·Σ_i c_i(m) z^i)."""
        k = m - self.h if m > self.h else m
        return corner(self.a, self.coefficients(m), k)


def corner(a: Fraction, band: Sequence[Fraction], k: int) -> Fraction:
    """(P)_kk for T = −a·I_k + Σ_j band[j−1]·N_k^j and WᵀP + PW = −I: the integral (78) of the
    last column of e^{Tt}, exactly (module docstring, fact (iii))."""
    # series in z (mod z^k) whose coefficients are polynomials in t (lists of Fractions)
    cz = [Fraction(0)] + list(band[: k - 1]) + [Fraction(0)] * max(0, k - 1 - len(band))
    cz = cz[:k]
    e = [[Fraction(0)] for _ in range(k)]
    e[0] = [Fraction(1)]
    power = [Fraction(1)] + [Fraction(0)] * (k - 1)  # C(z)^n / n!, z-coefficients (numbers)
    for n in range(1, k):
        nxt = [Fraction(0)] * k
        for i, x in enumerate(power):
            if x:
                for j in range(1, k - i):
                    nxt[i + j] += x * cz[j]
        power = [x / n for x in nxt]
        for j, x in enumerate(power):
            if x:
                e[j] = e[j] + [Fraction(0)] * (n + 1 - len(e[j]))
                e[j][n] += x
    total = Fraction(0)
    two_a = 2 * a
    for poly in e:
        sq = [Fraction(0)] * (2 * len(poly) - 1)
        for i, x in enumerate(poly):
            for j, y in enumerate(poly):
                sq[i + j] += x * y
        total += sum((x * math.factorial(i) / two_a ** (i + 1) for i, x in enumerate(sq)),
                     Fraction(0))
    return total
