"""W.lyapunov-local: Lemma A.9 of paper W (ICLR camera-ready App. A.10, eqs. (86)–(89); proof
(90)–(102)): with q(v) := vᵀ(WᵀDiag(v)²P + PDiag(v)²W)v, "for any positive constant L, there exists
an Υ > 0 such that |q(v_m)| ≤ L|v_m|₂² holds for any m and |v_m|₂ ≤ Υ".

Claims (one statement class, theory.lyapunov.LocalQuartic, read by every side):

- ``W.lyapunov-local`` — the lemma as printed: one Υ for every m of a sequence of Hurwitz W_m under
  (86)–(87); REFUTED by W_m = −I_m + 2N_m (the exact closed form (P_m)_mm = ½Σ_{k<m} C(2k, k)).
- ``.weak`` — for each fixed m (one W): Υ = √(L/(2‖W‖₂‖P‖₂)) works.
- ``.explicit`` — the proof's radius Υ = √(β₀L/M₀) ((102), and (52)'s Υ_L); REFUTED by one W.
- ``.explicit.corrected`` — the radius √(β₀L/(nM₀κ₂(V)²)) for diagonalizable W = VBV⁻¹.

and the finding in the proof (theory.lyapunov.DiagCubeBound):

- ``.eq92`` — (92)–(98): |Diag(v)²Wv|₂ ≤ M₀|v|₂³; REFUTED: (92) expands (Σ_j v_j²W_ji v_i)_i, not
  the entries v_i²Σ_j W_ij v_j of Diag(v)²Wv, and the bound fails for the latter;
- ``.eq92.corrected`` — |Diag(v)²Wv|₂ ≤ √m·M₀|v|₂³.

By homogeneity (q is a quartic form) an explicit radius works iff K(W) := sup_d |q(d)|/|d|₂⁴ ≤
L/Υ² (a constant C(W) of the reading): the checks evaluate |q(d)|/|d|₂⁴ over directions in each
arithmetic (P from solving (88) there) against C(W). The printed lemma's numeric side
(:func:`sequence_numeric`) confirms the symbolic side's witness W_m = −I_m + 2N_m instead: P_m from
the integral (78), q(v) and (89) at its points v = Υe_m, in each arithmetic; its counterexample
search (:func:`sequence_holds`) decides the printed lemma exactly on sequences W_m = H ⊕ (banded
triangular Toeplitz tail) (theory.lyapunov_sequences: one Υ serves every m iff the tail's symbol
has max_{|z|=1} Re φ < 0 and the band does not grow with m).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import fixed_context
from recmem.theory.lyapunov import DiagCubeBound, LocalQuartic, quartic

QUOTE = (r"Lemma A.9. Assume $\{W_m \in \mathbb{R}^{m \times m}\}_{m=1}^{\infty}$ is a sequence of "
         r"Hurwitz matrices with eigenvalues bounded away from 0: $$\sup _ {m} \max _ {i \in [ m ]} "
         r"(R e (\lambda_ {i} (W _ {m}))) \leq - \beta_ {0}. \tag {86}$$ Assume the max norms for "
         r"matrices $\{W_{m}\}_{m=1}^{\infty}$ are uniformly bounded: $$\sup _ {m} \sup _ {1 \leq i, "
         r"j \leq m} | W _ {m, i j} | \leq M _ {0}. \tag {87}$$ Define the solution to the following "
         r"Lyapunov equation to be $P_{m}$ : $$W _ {m} ^ {\top} P _ {m} + P _ {m} W _ {m} = - I _ "
         r"{m}. \tag {88}$$ We show that for any positive constant $L$ , there exists an $\Upsilon "
         r"> 0$ such that the following inequality holds for any $m$ and $|v_m|_2 \leq \Upsilon$ : "
         r"$$\left| v _ {m} ^ {\top} \left(W _ {m} ^ {\top} \operatorname{Diag} \left(v _ {m}\right) "
         r"^ {2} P _ {m} + P _ {m} \operatorname{Diag} \left(v _ {m}\right) ^ {2} W _ {m}\right) v _ "
         r"{m} \right| \leq L \left| v _ {m} \right| _ {2} ^ {2}. \tag {89}$$")
QUOTE_RADIUS = (r"For any $0 < \Upsilon \leq \sqrt{\frac{\beta_0L}{M_0}}$ , we have … $$\leq \frac "
                r"{1}{\beta_ {0}} M _ {0} \Upsilon^ {2} | v _ {m} | _ {2} ^ {2} \tag {101}$$ $$\leq "
                r"L | v _ {m} | _ {2} ^ {2}. \tag {102}$$ … (A.9:) By Lemma A.9, for any positive "
                r"$L \in (0,1)$ , there is an $\Upsilon_L = \sqrt{\frac{\beta_0L}{M_0}} > 0$ such "
                r"that the following inequality holds for any $m$ , … (52)")
QUOTE_92 = (r"$$\left| \operatorname{Diag} \left(v _ {m}\right) ^ {2} W _ {m} v _ {m} \right| _ {2} = "
            r"\sqrt {\sum_ {i = 1} ^ {m} \left(\sum_ {j = 1} ^ {m} v _ {m , j} ^ {2} W _ {m , j i} v _ "
            r"{m , i}\right) ^ {2}} \tag {92}$$ $$\leq \sqrt {\sum_ {i = 1} ^ {m} (\sum_ {j = 1} ^ "
            r"{m} v _ {m , j} ^ {2} | W _ {m , j i} | | v _ {m , i} |) ^ {2}} \tag {93}$$ … $$= M _ "
            r"{0} (\sum_ {j = 1} ^ {m} v _ {m, j} ^ {2}) \sqrt {(\sum_ {i = 1} ^ {m} | v _ {m , i} | "
            r"^ {2})} \tag {97}$$ $$\leq M _ {0} \left| v _ {m} \right| _ {2} ^ {3} \tag {98}$$")
WHERE = "App. A.10, Lemma A.9, eqs. (86)–(89); proof eqs. (90)–(102); App. A.9 eq. (52)"
READING_EXISTS = ("existential, as printed: one Υ > 0 for every m of the sequence ('for any m and "
                  "|v_m|₂ ≤ Υ')")
READING_EXPLICIT = ("explicit: the proof's radius, any 0 < Υ ≤ √(β₀L/M₀) ((102), and Υ_L in "
                    "(52)), for every m")
READING_CORRECTED = ("explicit, corrected: for each m, any 0 < Υ ≤ √(β₀L/(m M₀ κ₂(V_m)²)) for a "
                     "diagonalizable W_m = V_m B V_m⁻¹ (B normal)")
READING_WEAK = "for one W (a fixed m), with the witness Υ = √(L/(2‖W‖₂‖P‖₂))"


# ---- q(d)/|d|⁴ over directions in one arithmetic -------------------------------------------------

def direction_set(n: int, seed: int, count: int) -> list[list[Fraction]]:
    """Exact directions: the basis, e_i ± e_j, and ``count`` seeded dyadic random directions."""
    out = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            for s in (1, -1):
                out.append([Fraction(int(k == i)) + s * Fraction(int(k == j)) for k in range(n)])
    rng = random.Random(f"directions/{n}/{seed}")
    for _ in range(count):
        d = [Fraction(rng.randint(-64, 64), 32) for _ in range(n)]
        if any(d):
            out.append(d)
    return out


@dataclass(frozen=True)
class Ratio:
    """max_d |q(d)|/|d|₂⁴ in one arithmetic (:func:`ratio_in`) and the P it rests on."""

    value: lc.Value
    norms: dict[str, lc.Value]  # {"W": ‖W‖₂, "P": ‖P‖₂}
    tol_abs: mpmath.mpf
    arg: list[Fraction]  # the maximising direction
    P: Any
    oracle: Any  # numerics.lyapunov.Residual of P
    p_error: mpmath.mpf  # bound on ‖P̂ − P‖_F: c·n·κ(L)·u·‖P̂‖_F (0 for balls)


def ratio_in(backend: AbstractBackend, w: Any, dirs: list[list[Fraction]], cond: Any) -> Ratio:
    """max_d |q(d)|/|d|⁴, {"W": ‖W‖₂, "P": ‖P‖₂}, the tolerance of the ratio, the maximising
    direction, P (solved from (88) in ``backend``) and its oracle. Balls in flint (certified);
    point arithmetics carry c·n·κ(L)·u·2‖W‖₂‖P‖₂ (q is linear in P, |q(d)| ≤ 2‖W‖₂‖P‖₂|d|⁴)."""
    kind = backend.spec.kind
    bits = backend.precision_bits
    n = int(w.nrows())
    p = lc.solve_in(backend, w)
    oracle = lc.oracle_of(backend, w, p)  # from the P read here, against the exact W
    if kind == "flint":
        val, norms, tol0, arg = _ratio_flint(w, p, dirs, bits)
        return Ratio(val, norms, tol0, arg, p, oracle, mpmath.mpf(0))
    from recmem.numerics.lyapunov import to_float64, to_mp

    if kind == "mpmath":
        ctx = fixed_context(bits)
        wm, pm = to_mp(w, ctx), ctx.matrix(p)
        best, arg = ctx.mpf(-1), dirs[0]
        for d in dirs:
            dv = ctx.matrix([[ctx.mpf(x.numerator) / x.denominator] for x in d])
            pd, wd = pm * dv, wm * dv
            q = quartic(pd, wd, dv, ctx.mpf(0))
            r = abs(q) / ctx.fsum(x ** 2 for x in dv) ** 2
            if r > best:
                best, arg = r, d
        wn = max(ctx.svd_r(wm, compute_uv=False))
        pn = max(ctx.eigsy((pm + pm.T) / 2, eigvals_only=True))
    else:
        import numpy as np

        pf = p.cpu().numpy() if kind == "torch" else p
        dt = pf.dtype  # the arithmetic's precision (float32 or float64)
        dm = np.array([[float(x) for x in d] for d in dirs], dtype=dt)
        wf = to_float64(w).astype(dt)
        q = quartic((dm @ pf.T).T, (dm @ wf.T).T, dm.T)  # computed in the arithmetic's dtype
        rs = np.abs(q) / (dm ** 2).sum(axis=1) ** 2
        k = int(np.argmax(rs))
        best, arg = mpmath.mpf(float(rs[k])), dirs[k]
        wn = mpmath.mpf(float(np.linalg.norm(wf, 2)))
        pn = mpmath.mpf(float(np.linalg.eigvalsh((pf + pf.T) / 2)[-1]))
    n_eff = n * n if kind == "mpmath" else n
    tol_abs = lc.C_TOL * (n_eff * cond.value + n) * backend.unit_roundoff * 2 * wn * pn
    p_err = lc.C_TOL * n_eff * cond.value * backend.unit_roundoff * pn * n  # ‖P‖_F ≤ √n‖P‖₂
    return Ratio(lc.Value.point(best, bits),
                 {"W": lc.Value.point(wn, bits), "P": lc.Value.point(pn, bits)},
                 mpmath.mpf(tol_abs), arg, p, oracle, mpmath.mpf(p_err))


def _ratio_flint(w: Any, p: Any, dirs: list[list[Fraction]], bits: int
                 ) -> tuple[lc.Value, dict[str, lc.Value], mpmath.mpf, list[Fraction]]:
    import flint

    with flint.ctx.workprec(bits):
        wa = flint.arb_mat(w)
        n = wa.nrows()
        best: Any = None
        arg = dirs[0]
        for d in dirs:
            dv = flint.arb_mat([[flint.fmpq(x.numerator, x.denominator)] for x in d])
            pd, wd = p * dv, wa * dv
            q = quartic([pd[i, 0] for i in range(n)], [wd[i, 0] for i in range(n)],
                        [dv[i, 0] for i in range(n)], flint.arb(0))
            d2 = sum((dv[i, 0] * dv[i, 0] for i in range(n)), flint.arb(0))
            r = abs(q) / (d2 * d2)  # x*x, not x**2 (NaN for balls containing 0)
            if best is None or r.mid() > best.mid():
                best, arg = r, d
        wn2 = lc.lmax(wa.transpose() * wa, "flint", bits)
        pn = lc.lmax(p, "flint", bits)
    # ‖W‖₂ = √λ_max(WᵀW), its ends rounded outwards
    return lc.ball_value(best, bits), {"W": wn2.sqrt(), "P": pn}, mpmath.mpf(0), arg


def _limit(law: LocalQuartic, m0: Fraction, beta0: Fraction, n: int, kappa: lc.Value | None,
           norms: dict[str, lc.Value]) -> lc.Value:
    """L/Υ² of the reading (``law.limit``) as an interval: it increases with ‖W‖₂, ‖P‖₂ and κ₂(V),
    so their lower/upper ends give its ends (outward-rounded when they are balls)."""
    from recmem.numerics.certified import enclose

    w, p = norms["W"], norms["P"]
    bits = w.bits

    def ends(end: str) -> tuple[Any, Any, Any]:
        return (getattr(kappa, end) if kappa is not None else 1, getattr(w, end), getattr(p, end))

    if w.certified and (kappa is None or kappa.certified):
        # the formula in interval arithmetic (M₀, β₀ exact): each end rounded outwards
        def formula(k: Any, wn: Any, pn: Any) -> Any:
            return law.limit(m0=m0, beta0=beta0, n=n, kappa=k, wnorm=wn, pnorm=pn)

        return lc.Value(enclose(formula, *ends("lo"), bits=bits)[0],
                        enclose(formula, *ends("hi"), bits=bits)[1], True, bits)
    ctx = lc.hp(bits)
    exact = lambda q: ctx.mpf(q.numerator) / q.denominator  # noqa: E731

    def at(end: str) -> Any:
        k, wn, pn = (ctx.mpf(x) for x in ends(end))
        return law.limit(m0=exact(m0), beta0=exact(beta0), n=n, kappa=k, wnorm=wn, pnorm=pn)

    lo, hi = at("lo"), at("hi")
    return lc.Value(lo, hi, False, bits)


@dataclass(frozen=True)
class Case:
    """A W of the numeric sides (label independent of the statement) with exact α(W) and V."""

    label: str
    W: Any
    alpha: Fraction
    V: Any = None


def cases(ctx: Context, law: LocalQuartic) -> list[Case]:
    """A W drawn from the law's family (parameters N, kind, departure, draw), W = [−1] (where
    q(v) = −v⁴ and every explicit radius is attained), for the printed radius the Jordan block
    [[−1, 1], [0, −1]], and for diagonalizable W the far-from-normal [[−1, 8], [0, −2]] =
    V·diag(−1, −2)·V⁻¹, V = [[1, −8], [0, 1]] (κ₂(V) = 33 + 8√17): there max_d |q(d)|/|d|⁴ ≈ 22.4
    exceeds nM₀/β₀ = 16, so a radius without κ₂(V)² fails."""
    from recmem.numerics.lyapunov import fmpq_matrix

    kind = "diagonalizable" if law.family == "diagonalizable" else str(ctx["kind"])
    d = lc.draw_from(ctx, kind=kind)
    out = [Case("drawn W", d.W, d.abscissa, d.V),
           Case("W = [−1] (radius attained)", fmpq_matrix([[-1]]), Fraction(-1), fmpq_matrix([[1]]))]
    if law.radius == "beta0/M0":
        out.append(Case("W = [[−1, 1], [0, −1]]", fmpq_matrix([[-1, 1], [0, -1]]), Fraction(-1)))
    if law.family == "diagonalizable":
        out.append(Case("W = [[−1, 8], [0, −2]] (far from normal)", fmpq_matrix([[-1, 8], [0, -2]]),
                        Fraction(-1), fmpq_matrix([[1, -8], [0, 1]])))
    return out


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """max_d |q(d)|/|d|₂⁴ (P from (88) in ``backend``) against the reading's L/Υ², with β₀ = −α(W)
    (the largest the hypothesis admits) and M₀ = max|W_ij|."""
    from recmem.numerics.lyapunov import condition_certified, fractions

    law = ctx.law(LocalQuartic)
    out = []
    for case in cases(ctx, law):
        if law.radius == "beta0/(n M0 kappa^2)" and case.V is None:
            continue
        t0 = time.perf_counter()
        n = int(case.W.nrows())
        cond = lc.cached(ctx, f"cond/{case.label}/{fractions(case.W)}",
                         functools.partial(condition_certified, case.W))
        dirs = direction_set(n, ctx.seed + int(ctx["draw"]), int(ctx["directions"]))
        rt = ratio_in(backend, case.W, dirs, cond)
        val, norms, tol_abs, arg = rt.value, rt.norms, rt.tol_abs, rt.arg
        m0 = max(abs(x) for row in fractions(case.W) for x in row)
        beta0 = -case.alpha
        kv = None
        if law.radius == "beta0/(n M0 kappa^2)":
            kv = lc.kappa_v(case.V, backend.spec.kind, backend.precision_bits,
                            backend.spec.device or "cpu")
        bound = _limit(law, m0, beta0, n, kv, norms)
        if not bound.certified and law.radius != "beta0/M0":
            # the computed ‖W‖₂, ‖P‖₂ or κ₂(V) err by ≲ c·n·κ·u relatively
            tol_abs += lc.C_TOL * n * (cond.value + (kv.mid if kv is not None else 0)) * \
                backend.unit_roundoff * 2 * bound.mid

        def again(fb: AbstractBackend, w: Any = case.W, dirs: Any = dirs, cond: Any = cond,
                  m0: Fraction = m0, beta0: Fraction = beta0, n: int = n) -> Any:
            r2 = ratio_in(fb, w, dirs, cond)
            if not r2.oracle.ok:
                return None
            return r2.value, _limit(law, m0, beta0, n, None, r2.norms)

        check = f"max_d |q(d)|/|d|⁴ ≤ L/Υ² ({case.label}, {len(dirs)} directions)"
        ev = lc.compare(
            check, backend, val, bound,
            relation="le", tol_abs=tol_abs,
            tol_text=(f"c·n·κ(L)·u·2‖W‖₂‖P‖₂, c={lc.C_TOL}, κ(L)={cond}, "
                      f"u=2^-{backend.precision_bits}") if tol_abs else "ball arithmetic",
            kappa_text=str(cond), t0=t0,
            recompute=again if law.radius == "beta0/M0" else None,
            data={"maximising direction": str([str(x) for x in arg]), "M0": str(m0),
                  "beta0": str(beta0)},
            counterexample={"W": lc._fmt(fractions(case.W)), "M0": str(m0), "beta0": str(beta0),
                            "L": "1", "direction": str([str(x) for x in arg]),
                            "max |q(d)|/|d|^4": str(val), "L/Upsilon^2": str(bound)})
        ev = lc.with_oracle(ev, rt.oracle)
        if rt.oracle.ok:  # the same P from the other arithmetics of this run
            routes, bad = lc.compare_routes(ctx, ("solve (88)", str(fractions(case.W))),
                                            backend.name, rt.P, rt.p_error, check, backend.name)
            ev = replace(ev, data={**ev.data, **routes})
            out += [ev] if bad is None else [ev, bad]
        else:
            out.append(ev)
    return out


# ---- the exact search ---------------------------------------------------------------------

def _extras(draw: Any, n: int) -> dict[str, Any]:
    from hypothesis import strategies as st

    return {**lc.directions(draw, n),
            "m0_factor": draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(3, 2)]))}


def strategy(ctx: Context) -> Any:
    """Exact W of the statement's family (sizes 1…n_search), β₀ = f·(−α(W)), M₀ = factor·max|W_ij|
    (factor ≥ 1), and a direction d."""
    law = ctx.law(LocalQuartic)
    family = "diagonalizable" if law.family == "diagonalizable" else "all"
    return lc.hurwitz_instances(1, int(ctx["n_search"]), family, extras=_extras)


class _Surd:
    """q·√r over ℚ (q, r rationals, r ≥ 0), closed under products and quotients with rationals and
    other surds: enough to evaluate a reading's constant (``LocalQuartic.limit``: products and
    quotients of M₀, β₀, n, κ₂(V), ‖W‖₂, ‖P‖₂) with κ₂(V), ‖W‖₂ square roots of rationals, exactly
    and without SymPy (its ``expand`` of c² cost ~20 ms per call in the search). A sum (which
    these products never form) raises TypeError, and the caller falls back to SymPy."""

    __slots__ = ("q", "r")

    def __init__(self, q: Fraction, r: Fraction) -> None:
        if r < 0:
            raise ValueError("a surd √r needs r ≥ 0")
        self.q, self.r = Fraction(q), Fraction(r)

    def __mul__(self, other: Any) -> _Surd:
        if isinstance(other, _Surd):
            return _Surd(self.q * other.q, self.r * other.r)
        if isinstance(other, int | Fraction):
            return _Surd(self.q * other, self.r)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> _Surd:
        if isinstance(other, _Surd):  # q₁√r₁/(q₂√r₂) = (q₁/(q₂r₂))·√(r₁r₂)
            return _Surd(self.q / (other.q * other.r), self.r * other.r)
        if isinstance(other, int | Fraction):
            return _Surd(self.q / other, self.r)
        return NotImplemented

    def __rtruediv__(self, other: Any) -> _Surd:
        if isinstance(other, int | Fraction):  # x/(q√r) = (x/(qr))·√r
            return _Surd(Fraction(other) / (self.q * self.r), self.r)
        return NotImplemented

    def rational(self) -> Fraction | None:
        """The value when √r is rational (r a square of a rational), else None."""
        num, den = self.r.numerator, self.r.denominator
        a, b = math.isqrt(num), math.isqrt(den)
        return self.q * Fraction(a, b) if a * a == num and b * b == den else None

    @staticmethod
    def square_of(c: Any) -> Fraction | None:
        """c² exactly for a rational or a surd c; None for anything else."""
        if isinstance(c, int | Fraction):
            return Fraction(c) * Fraction(c)
        return (c * c).rational() if isinstance(c, _Surd) else None


def _limit_bounds(law: LocalQuartic, inst: lc.HurwitzInstance, w: Any, p: Any, m0: Fraction
                  ) -> tuple[Fraction, Fraction | None]:
    """Rational bounds lo ≤ (L/Υ²)² ≤ hi of the reading's constant (``law.limit``, which increases
    with ‖W‖₂, ‖P‖₂, κ₂(V)) from rational bounds of ‖W‖₂², ‖P‖₂ and κ₂(V)², evaluated exactly."""
    import sympy as sp

    n = inst.n
    k2_lo: Fraction = Fraction(1)
    k2_hi: Fraction | None = Fraction(1)
    if law.radius == "beta0/(n M0 kappa^2)":
        assert inst.V is not None
        from recmem.numerics.lyapunov import fmpq_matrix

        v = fmpq_matrix(inst.V)
        g, gi = v.transpose() * v, lc.inverse_gram(v)
        k2_lo = lc.lmax_lower(g) * lc.lmax_lower(gi)
        ug, ugi = lc.lmax_upper(g), lc.lmax_upper(gi)
        k2_hi = None if ug is None or ugi is None else ug * ugi
    wtw = w.transpose() * w
    w2_lo, p_lo, w2_hi, p_hi = lc.lmax_lower(wtw), lc.lmax_lower(p), lc.lmax_upper(wtw), lc.lmax_upper(p)
    q = lambda x: sp.Rational(x.numerator, x.denominator)  # noqa: E731

    def squared(k2: Fraction, w2: Fraction, pn: Fraction) -> Fraction:
        # exactly, with κ₂(V) = √k2 and ‖W‖₂ = √w2 as surds over ℚ (the readings' constants are
        # products and quotients: c² is rational); SymPy where the reading leaves that form
        try:
            exact = _Surd.square_of(law.limit(m0=m0, beta0=inst.beta0, n=n,
                                              kappa=_Surd(Fraction(1), k2),
                                              wnorm=_Surd(Fraction(1), w2), pnorm=pn))
        except (TypeError, ValueError, ZeroDivisionError):
            exact = None
        if exact is not None:
            return exact
        c = law.limit(m0=q(m0), beta0=q(inst.beta0), n=n, kappa=sp.sqrt(q(k2)),
                      wnorm=sp.sqrt(q(w2)), pnorm=q(pn))
        return Fraction(str(sp.Rational(sp.expand(c * c))))

    lo = squared(k2_lo, w2_lo, p_lo)
    hi = None if None in (k2_hi, w2_hi, p_hi) else squared(k2_hi, w2_hi, p_hi)  # type: ignore[arg-type]
    return lo, hi


def holds(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    """Exact over ℚ: for the drawn direction and the candidate directions (the basis, small lattice
    directions, a float maximiser) that a float screen ranks highest, q(d)² against rational bounds
    of (L/Υ²)²·|d|⁸; a violation is certified against an upper bound and shown with a rational
    v = s·d, |v|₂ ≤ Υ, L = 1."""
    from recmem.numerics import lyapunov as ly

    law = ctx.law(LocalQuartic)
    w = ly.fmpq_matrix(inst.W)
    p = lc.exact_p(w)  # checked by its oracle (R = 0 over ℚ)
    m0 = max(abs(x) for row in inst.W for x in row) * inst.extra["m0_factor"]
    values: dict[str, Any] = {**inst.record(), "M0": str(m0), "L": "1",
                              "d": str([str(x) for x in inst.extra["d"]])}
    lo, hi = _limit_bounds(law, inst, w, p, m0)
    cands = lc.candidate_directions(w, p, inst.extra["d"], lattice=law.radius == "beta0/M0")
    # a float screen picks which candidates to decide exactly: the drawn d and the 4 largest
    # ratios |q(d)|/|d|⁴ (a search heuristic; every decision below is exact)
    screen = lc.float_ratios(w, p, cands)
    top = sorted(range(1, len(cands)), key=lambda k: -screen[k])[:4]
    undecided = False
    for d in [cands[0]] + [cands[k] for k in top]:
        q = lc.local_q(w, p, d)
        d2 = sum((x * x for x in d), Fraction(0))
        if q * q <= lo * d2 ** 4:
            continue
        if hi is not None and q * q > hi * d2 ** 4:
            values |= {"direction": str([str(x) for x in d]), "q(direction)": str(q)}
            if law.radius == "beta0/M0":  # an explicit violating v, |v|₂² ≤ Υ² = 1/c
                c = law.limit(m0=m0, beta0=inst.beta0, n=inst.n, kappa=1, wnorm=1, pnorm=1)
                s = lc.rational_scale(d2 / abs(q), 1 / (c * d2))
                if s is not None:
                    v = [s * x for x in d]
                    values |= {"v": str([str(x) for x in v]), "|v|^2": str(s * s * d2),
                               "Upsilon^2": str(1 / c), "|q(v)|": str(abs(q) * s ** 4),
                               "L|v|^2": str(s * s * d2)}
            return Instance(False, "exact over ℚ: q(d)² exceeds a certified upper bound of "
                            "(L/Υ²)²·|d|⁸, so |q(v)| > L|v|₂² at v = Υd/|d|₂", values)
        undecided = True
    if undecided:
        return Instance(None, "undecided: the rational bounds of L/Υ² do not separate", values)
    return Instance(True, "exact over ℚ: q(d)² ≤ ℓ·|d|⁸ with a rational lower bound ℓ of (L/Υ²)², for "
                    "the drawn d and the candidate directions", values)


def symbolic(ctx: Context) -> list[Evidence]:
    """The reading decided by the superdiagonal sequence, exact witnesses or the general
    argument (theory.lyapunov.local_proof)."""
    from recmem.theory.lyapunov import local_proof

    proof, sec = lc.proof_time(lambda: local_proof(ctx.law(LocalQuartic)))
    return [from_proof(proof, sec)]


# ---- the printed lemma (one Υ for every m): the witness W_m = −I_m + 2N_m in each arithmetic -----

WITNESS_CHECK = "witness W_m = −I_m + 2N_m: (P_m)_mm, q(v), |v|₂² and (89) at the symbolic side's points"
RADIUS_CHECK = "witness W_m = −I_m + 2N_m: |q(v)|/|v|₂⁴ against L/Υ²"


def sequence_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The witness the symbolic side refutes the uniform reading with, confirmed in ``backend``'s
    arithmetic. P_m of W_m = −I_m + 2N_m (m = 2…6) comes from the integral (78) (quadrature +
    doubling, or its ball enclosure; never a Lyapunov solver); then, at each point v = Υe_m of
    theory.lyapunov.superdiagonal_point (L = 1, Υ = 1, 1/2, 1/4), q(v) (:func:`quartic` of the
    computed Pv, Wv and v) and |v|₂² in the arithmetic, against their derived exact values, and
    (89)'s violation |q(v)| − L|v|₂² > 0 (``LocalQuartic.excess``). The computed (P_m)_mm are
    compared with the closed form ½Σ_{k<m} C(2k, k) too. A finite computation cannot refute "one
    Υ for every m", so a confirmation is INCONCLUSIVE and a contradiction a FAIL.

    A statement with the explicit radius Υ² = β₀L/M₀ (the control "the explicit radius √(β₀L/M₀)")
    is also tested on the witness: by homogeneity it fails iff |q(v)|/|v|₂⁴ > L/Υ² =
    ``law.limit`` (β₀ = 1, M₀ = 2 for the whole sequence), which one m refutes.
    """
    from recmem.theory.lyapunov import (
        SUPERDIAGONAL_SIZES,
        SUPERDIAGONAL_UPSILONS,
        superdiagonal_corner,
        superdiagonal_point,
    )

    law = ctx.law(LocalQuartic)
    t0 = time.perf_counter()
    lam = Fraction(1)
    # the symbolic side's points (a Υ without a violating m gives none: its disproof is undecided)
    points = [(ups, *p) for ups in SUPERDIAGONAL_UPSILONS
              if (p := superdiagonal_point(ups, lam)) is not None]
    sizes = sorted(set(SUPERDIAGONAL_SIZES) | {p[1] for p in points})
    terms = {t.m: t for t in lc.sequence_terms(backend, ctx, sizes)}
    rows = [lc.Derived(f"(P_{t.m})_{t.m}{t.m}", lc.term_value(t, t.P[t.m - 1, t.m - 1]),
                       superdiagonal_corner(t.m), t.rel_tol) for t in terms.values() if t.P is not None]
    signs: list[tuple[str, lc.Value, mpmath.mpf]] = []
    ratios: list[tuple[Fraction, lc.SequenceTerm, list[Fraction], lc.Value]] = []
    u = backend.unit_roundoff
    for ups, m, v, q in points:
        t = terms[m]
        if t.P is None:
            continue
        qv, v2, exc, ratio = lc.evaluate(t, v, functools.partial(_at_point, law, lam))
        rows += [lc.Derived(f"q(v) at Υ = {ups} (m = {m})", qv, q, t.rel_tol),
                 lc.Derived(f"|v|₂² at Υ = {ups}", v2, ups * ups, lc.C_TOL * m * u)]
        # |Δ(|q| − L|v|²)| ≤ |Δq| + L|Δ|v|²|
        signs.append((f"|q(v)| − L|v|₂² at Υ = {ups} (m = {m})", exc,
                      t.rel_tol * abs(qv.mid) + lc.C_TOL * m * u * lam * abs(v2.mid)))
        ratios.append((ups, t, v, ratio))
    out = [lc.witness_evidence(WITNESS_CHECK, backend, list(terms.values()), rows, signs, t0=t0,
                               confirms="(P_m)_mm of the integral (78), q(v) and |v|₂² at "
                                        "v = Υe_m, with (89) violated at each point,",
                               derived="values")]
    if law.radius == "beta0/M0" and ratios:
        out.append(_witness_radius(law, backend, ratios, lam))
    return out


def _at_point(law: LocalQuartic, lam: Fraction, pv: Any, wv: Any, v: Any,
              conv: Callable[[Fraction], Any]) -> tuple[Any, Any, Any, Any]:
    """(q(v), |v|₂², |q(v)| − L|v|₂², |q(v)|/|v|₂⁴) from Pv, Wv, v in one arithmetic (``conv``
    rounds a rational into it)."""
    zero = conv(Fraction(0))
    qv = quartic(pv, wv, v, zero)
    v2 = sum((x * x for x in v), zero)
    return qv, v2, law.excess(qv, v2, conv(lam)), abs(qv) / (v2 * v2)


def _witness_radius(law: LocalQuartic, backend: AbstractBackend,
                    ratios: list[tuple[Fraction, lc.SequenceTerm, list[Fraction], lc.Value]],
                    lam: Fraction) -> Evidence:
    """|q(v)|/|v|₂⁴ at the witness points against ``law``'s L/Υ² (β₀ = −α(W_m), M₀ = max|W_ij| of
    the sequence): the first point that violates it beyond the tolerance, else the last."""
    t0 = time.perf_counter()
    m0 = max(t.max_entry for _, t, _, _ in ratios)
    beta0 = -max(t.alpha for _, t, _, _ in ratios)

    def limit(m: int) -> Fraction:
        return Fraction(law.limit(m0=m0, beta0=beta0, n=m, kappa=None, wnorm=None, pnorm=None))

    def tol_of(t: lc.SequenceTerm, r: lc.Value) -> mpmath.mpf:
        return mpmath.mpf(0) if backend.encloses else t.rel_tol * abs(r.mid) * 2

    ups, t, v, ratio = next(((a, b, c, d) for a, b, c, d in ratios
                             if d.mid - limit(b.m) > tol_of(b, d)), ratios[-1])

    def again(fb: AbstractBackend, m: int = t.m, v: list[Fraction] = v) -> Any:
        t2 = lc.sequence_term(fb, m)
        if t2.P is None or not t2.residual.ok:
            return None
        return lc.evaluate(t2, v, functools.partial(_at_point, law, lam))[3], limit(m)

    return lc.compare(RADIUS_CHECK, backend, ratio, limit(t.m), relation="le",
                      tol_abs=tol_of(t, ratio),
                      tol_text="ball arithmetic" if backend.encloses else
                      f"relative 2·c·(a + m + 8)·u·‖P̂‖_F/|(P̂)_mm| = {2 * t.rel_tol}, "
                      f"u=2^-{t.bits}", t0=t0, recompute=again,
                      data={"m": str(t.m), "Upsilon": str(ups), "M0": str(m0), "beta0": str(beta0)},
                      counterexample={"W": lc._fmt(t.W), "M0": str(m0), "beta0": str(beta0),
                                      "L": str(lam), "v": str([str(x) for x in v]),
                                      "|q(v)|/|v|^4": str(ratio), "L/Upsilon^2": str(limit(t.m))})


# ---- the printed lemma (one Υ for every m): the exact search over sequences W_m ------------------

def sequence_strategy(ctx: Context) -> Any:
    """Sequences W_m = H ⊕ T_{m−h}(m) (banded triangular Toeplitz tails, a fixed Hurwitz head of size
    ≤ n_search; theory.lyapunov_sequences) with β₀ up to the largest value (86) admits and
    M₀ ≥ the largest entry (:func:`_lyapunov.toeplitz_sequences`)."""
    return lc.toeplitz_sequences(int(ctx["n_search"]))


SEQ_HOW = ("exact: by homogeneity one Υ serves every m iff sup_m K(W_m) < ∞, K(W) = "
           "sup_d |q(d)|/|d|₂⁴; with the tail's symbol φ(z) = −a + Σ c_j z^j and M = max_(|z|=1) "
           "Re φ, K(W_m) ≤ 2‖W_m‖₂‖P_m‖₂ ≤ 2(a + Σ|c_j|)·max(‖P(H)‖₂, 1/(−2M)) when M < 0, while "
           "|q_m(e_m)| = 2a(P_m)_mm → ∞ when M ≥ 0 or the band grows with m "
           "(theory.lyapunov_sequences); the sign of M from rational endpoint and critical values "
           "and certified isolation of irrational critical points")
M_CHECK = 8  # the explicit radius is tested on the tail's e_m for m ≤ this


def sequence_holds(inst: lc.SequenceInstance, ctx: Context) -> Instance:
    """Lemma A.9 for the drawn sequence W_m (W App. A.10, (86)–(89)), exactly: the hypotheses (86)
    with the drawn β₀ and, when assumed, (87); then "some Υ serves every m" (theory.lyapunov_sequences,
    facts (iii)–(v)), or, for the explicit radius Υ² = β₀L/M₀, |q(v)|/|v|⁴ against L/Υ² at the tail's
    e_m (m ≤ 8) and the head's candidate directions (a violation is exact; no violation is proved
    only through K ≤ 2‖W‖₂‖P‖₂ with rational bounds, else undecided). ``ratio``: max_θ Σ c_j cos jθ/a
    for the existential reading (≥ 1 iff no Υ serves), the largest |q(d)|/|d|⁴ found over L/Υ² for
    the explicit one."""
    law = ctx.law(LocalQuartic)
    seq = inst.seq
    values: dict[str, Any] = inst.record()
    if law.family != "hurwitz" or not law.uniform:
        return Instance(None, "the sequence search covers the uniform reading over Hurwitz W_m",
                        values)
    beta0 = inst.f * -seq.abscissa  # (86): sup_m max_i Re λ_i(W_m) ≤ −β₀ < 0
    values["beta0"] = str(beta0)
    if law.entry_bound and not seq.bounded_entries:
        return Instance(True, "outside the hypothesis (87): the band grows with m (vacuous)", values)
    if law.radius == "exists":
        if not seq.bounded_entries:
            return Instance(False, "exact: the band c_j + d_j·m grows with m, so |q_m(e_m)| = "
                            "2a(P_m)_mm → ∞ (theory.lyapunov_sequences, facts (iv)–(v)): no Υ "
                            "serves every m", values | _witness(seq), ratio=lc.GUIDE_INF)
        mx = seq.symbol_max()
        values["max_|z|=1 Re phi(z)"] = f"{mx.approx:.6g} (sign {mx.sign:+d}, at {mx.where})"
        ratio = float((mx.approx + seq.a) / seq.a)
        if mx.sign < 0:
            return Instance(True, SEQ_HOW, values, ratio=ratio)
        return Instance(False, SEQ_HOW, values | _witness(seq), ratio=ratio)
    if law.radius != "beta0/M0" or not seq.bounded_entries:
        return Instance(None, "the sequence search decides the existential reading and the "
                        "explicit radius √(β₀L/M₀) with (87)", values)
    m0 = inst.m0_factor * seq.max_entry()
    limit = Fraction(law.limit(m0=m0, beta0=beta0, n=0, kappa=None, wnorm=None, pnorm=None))
    values |= {"M0": str(m0), "L": "1", "L/Upsilon^2": str(limit)}
    best, where = _largest_quartic(seq)
    values |= {"largest |q(d)|/|d|^4 found": str(best), "at": where}
    ratio = float(best / limit)
    if best > limit:
        return Instance(False, "exact over ℚ: |q(d)|/|d|₂⁴ > L/Υ² at a direction of one W_m, so "
                        "|q(v)| > L|v|₂² at v = Υd/|d|₂ (homogeneity)", values, ratio=ratio)
    k_bound = _quartic_bound_squared(seq)
    if k_bound is not None and k_bound <= limit * limit:
        return Instance(True, "exact over ℚ: sup_m K(W_m)² ≤ 4‖W_m‖₂²‖P_m‖₂² ≤ (L/Υ²)² with "
                        "rational bounds (‖P(T)‖₂ ≤ 1/(2δ) from M + δ < 0 decided exactly)",
                        values | {"sup_m K(W_m)^2 <=": str(k_bound)}, ratio=ratio)
    return Instance(None, "undecided: no direction violates the radius and the bound "
                    "2‖W‖₂‖P‖₂ does not separate", values, ratio=ratio)


def _witness(seq: Any, upsilon: Fraction = Fraction(1), m_max: int = 12) -> dict[str, str]:
    """(P_m)_mm for m = 1…6 and, with L = 1, the first m ≤ m_max where v = Υe_m violates (89)
    (|q(Υe_m)| = 2aΥ⁴(P_m)_mm > Υ² = L|v|₂²)."""
    out = {"(P_m)_mm, m = 1…6": ", ".join(str(seq.tail_corner(m)) for m in range(1, 7))}
    for m in range(seq.h + 1, seq.h + m_max + 1):
        q = 2 * seq.a * upsilon ** 4 * seq.tail_corner(m)
        if q > upsilon ** 2:
            out[f"L = 1, Υ = {upsilon}"] = (f"m = {m}, v = Υe_{m}: |q(v)| = {q} > L|v|₂² = "
                                            f"{upsilon ** 2}")
            break
    return out


def _largest_quartic(seq: Any) -> tuple[Fraction, str]:
    """The largest exact |q(d)|/|d|₂⁴ over the tail's last basis vectors (|q(e_m)| = 2a(P_m)_mm,
    m ≤ M_CHECK) and the head's candidate directions (drawn-free: basis, lattice, float maximiser)."""
    best, where = Fraction(0), ""
    for m in range(seq.h + 1, seq.h + M_CHECK + 1):
        r = 2 * seq.a * seq.tail_corner(m)
        if r > best:
            best, where = r, f"e_{m} of W_{m}"
    if seq.h:
        from recmem.numerics.lyapunov import fmpq_matrix

        w, p = fmpq_matrix(seq.head), lc.head_p(seq)
        cands = lc.candidate_directions(w, p, tuple(Fraction(int(i == 0)) for i in range(seq.h)),
                                        lattice=True)
        screen = lc.float_ratios(w, p, cands)
        for k in sorted(range(len(cands)), key=lambda k: -screen[k])[:4]:
            d = cands[k]
            r = abs(lc.local_q(w, p, d)) / sum((x * x for x in d), Fraction(0)) ** 2
            if r > best:
                best, where = r, f"d = {[str(x) for x in d]} on the head H (any W_m, m > {seq.h})"
    return best, where


def _quartic_bound_squared(seq: Any) -> Fraction | None:
    """A rational upper bound of sup_m K(W_m)² from K ≤ 2‖W‖₂‖P‖₂: ‖W_m‖₂² ≤ max(λ_max(HᵀH),
    (a + Σ|c_j|)²), ‖P_m‖₂ ≤ max(‖P(H)‖₂, 1/(2δ)) with δ = −M when M is rational, else a rational
    below −M (M + δ < 0 decided exactly); None when M ≥ 0 or a bound is not found."""
    mx = seq.symbol_max()
    if mx.sign >= 0:
        return None
    if mx.exact is not None:  # M itself is rational: δ = −M
        delta = -mx.exact
    else:
        delta = Fraction(-mx.approx).limit_denominator(2 ** 20) * Fraction(1023, 1024)
        if delta <= 0 or seq.symbol_max(shift=delta).sign >= 0:
            return None
    w2 = (seq.a + sum((abs(x) for x in seq.c), Fraction(0))) ** 2
    p_hi = 1 / (2 * delta)
    if seq.h:
        from recmem.numerics.lyapunov import fmpq_matrix

        w = fmpq_matrix(seq.head)
        hw, hp = lc.lmax_upper(w.transpose() * w), lc.lmax_upper(lc.head_p(seq))
        if hw is None or hp is None:
            return None
        w2, p_hi = max(w2, hw), max(p_hi, hp)
    return 4 * w2 * p_hi * p_hi


# ---- eqs. (92)–(98) ---------------------------------------------------------------------------

def cube_cases(ctx: Context) -> list[tuple[str, list[list[Fraction]], list[Fraction]]]:
    """(label, W, v): W = [1] at v = 1/2 (|Diag(v)²Wv| = |v|³ = 1/8: the bound is attained there
    and a higher power of |v| fails), the normal Hurwitz W = [[−1, 1], [−1, −1]] at v = (1/2, −1/4)
    (the printed bound fails: (92)–(98) is homogeneous of degree 3), and the drawn W with a seeded
    direction scaled to |v|_∞ = 1/2. Every v has |v|₂ < 1, where each control is stricter than the
    statement, so one check can tell them apart (rule C)."""
    from recmem.numerics.lyapunov import fractions

    d = lc.draw_from(ctx)
    dirs = direction_set(d.n, ctx.seed + int(ctx["draw"]), 1)
    top = max(abs(x) for x in dirs[-1])
    v = [x / (2 * top) for x in dirs[-1]]  # |v|_∞ = 1/2: |v|₂ < 1 for n ≤ 3, where |v|⁴ < |v|³
    return [("W = [1], v = 1/2 (bound attained)", [[Fraction(1)]], [Fraction(1, 2)]),
            ("W = [[−1, 1], [−1, −1]], v = (1/2, −1/4)", [[Fraction(-1), Fraction(1)],
                                                          [Fraction(-1), Fraction(-1)]],
             [Fraction(1, 2), Fraction(-1, 4)]),
            ("drawn W, seeded v with |v|_∞ = 1/2", fractions(d.W), v)]


def cube_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """|Diag(v)²Wv|₂ computed in ``backend`` against the bound factor·m^p·M₀|v|₂^power computed
    there (M₀ = max|W_ij|)."""
    law = ctx.law(DiagCubeBound)
    bits = backend.precision_bits
    out = []
    for label, w, v in cube_cases(ctx):
        t0 = time.perf_counter()
        m = len(v)
        m0 = max(abs(x) for row in w for x in row)
        lhs, rhs = _cube_in(backend, law, w, v, m0)
        # each entry of Diag(v)²Wv is a sum of m products of four factors: relative error ≲ (m+3)u;
        # the norms and the bound add a few more roundings: c·(m + 8)·u·(M₀·m·|v|∞³·√m) absolute
        scale = m0 * m * max(abs(x) for x in v) ** 3 * (m ** 0.5)
        tol_abs = 0 if backend.encloses else lc.C_TOL * (m + 8) * backend.unit_roundoff * \
            mpmath.mpf(float(scale))
        def again(fb: AbstractBackend, w: Any = w, v: Any = v, m0: Fraction = m0) -> Any:
            return _cube_in(fb, law, w, v, m0)

        out.append(lc.compare(
            f"|Diag(v)²Wv|₂ ≤ the bound ({label})", backend, lhs, rhs, relation="le",
            tol_abs=mpmath.mpf(tol_abs), tol_text=f"c·(m + 8)·u·M₀·m^1.5·|v|∞³, c={lc.C_TOL}, "
            f"u=2^-{bits}" if tol_abs else "ball arithmetic", t0=t0, recompute=again,
            counterexample={"W": lc._fmt(w), "v": str([str(x) for x in v]), "M0": str(m0),
                            "|Diag(v)^2 W v|": str(lhs), "bound": str(rhs)}))
    return out


def _cube_in(backend: AbstractBackend, law: DiagCubeBound, w: list[list[Fraction]],
             v: list[Fraction], m0: Fraction) -> tuple[lc.Value, lc.Value]:
    from recmem.theory.lyapunov import diag_product

    kind = backend.spec.kind
    bits = backend.precision_bits
    m = len(v)
    if kind == "flint":
        import flint

        with flint.ctx.workprec(bits):
            wa = [[flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in row] for row in w]
            va = [flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in v]
            c = diag_product(wa, va)
            lhs = sum((x * x for x in c), flint.arb(0)).sqrt()
            vn = sum((x * x for x in va), flint.arb(0)).sqrt()
            rhs = law.bound(m, flint.arb(flint.fmpq(m0.numerator, m0.denominator)), vn,
                            lambda k: flint.arb(k).sqrt())
        return lc.ball_value(lhs, bits), lc.ball_value(rhs, bits)
    if kind == "mpmath":
        ctx = fixed_context(bits)
        conv: Callable[[Fraction], Any] = lambda x: ctx.mpf(x.numerator) / x.denominator  # noqa: E731
        wa, va = [[conv(x) for x in row] for row in w], [conv(x) for x in v]
        c = diag_product(wa, va)
        lhs = ctx.sqrt(ctx.fsum(x * x for x in c))
        rhs = law.bound(m, conv(m0), ctx.sqrt(ctx.fsum(x * x for x in va)), lambda k: ctx.sqrt(k))
        return lc.Value.point(lhs, bits), lc.Value.point(rhs, bits)
    import numpy as np

    dt: Any = np.float32 if backend.spec.dtype == "float32" else np.float64
    wa_: Any = np.array([[x.numerator / x.denominator for x in row] for row in w], dtype=dt)
    va_: Any = np.array([x.numerator / x.denominator for x in v], dtype=dt)
    if kind == "torch":
        import torch

        tdt = torch.float32 if dt == np.float32 else torch.float64
        wt, vt = torch.as_tensor(wa_, dtype=tdt), torch.as_tensor(va_, dtype=tdt)
        c_t = vt * vt * (wt @ vt)
        lhs_f = float(torch.linalg.vector_norm(c_t))
        rhs_f = float(law.bound(m, torch.tensor(float(m0), dtype=tdt), torch.linalg.vector_norm(vt),
                                lambda k: torch.sqrt(torch.tensor(float(k), dtype=tdt))))
    else:
        c_n = va_ * va_ * (wa_ @ va_)
        lhs_f = float(np.linalg.norm(c_n))
        rhs_f = float(law.bound(m, dt(m0.numerator / m0.denominator), np.linalg.norm(va_),
                                lambda k: np.sqrt(dt(k))))
    return lc.Value.point(mpmath.mpf(lhs_f), bits), lc.Value.point(mpmath.mpf(rhs_f), bits)


def cube_strategy(ctx: Context) -> Any:
    """m ≤ n_search, W = M·S with a sign-like pattern S (entries ±1, ±1/2, 0), or half of the time
    the extreme point W_ij = M·sign(v_j) of the entry box (which maximises every |(Wv)_i|), declared
    M₀ = factor·max|W_ij| (factor ≥ 1; the boundary factor 1 mostly), and v with small entries first
    (|v|₂ < 1 is where a higher power of |v|₂ fails)."""
    from hypothesis import strategies as st

    pattern = st.sampled_from([Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(-1, 2), Fraction(0)])
    entries = st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(-1, 2), Fraction(1),
                               Fraction(-1, 4), Fraction(-1), Fraction(2), Fraction(0)])

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        m = draw(st.integers(1, int(ctx["n_search"])))
        scale = draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(1, 2)]))
        w = [[scale * draw(pattern) for _ in range(m)] for _ in range(m)]
        v = draw(st.lists(entries, min_size=m, max_size=m))
        if not any(v):  # no filter: the simplest draw stays valid
            v[-1] = Fraction(1)
        if draw(st.booleans()):  # the maximiser of every |(Wv)_i| over the box: W_ij = M·sign(v_j)
            w = [[scale * (1 if x > 0 else -1 if x < 0 else 0) for x in v] for _ in range(m)]
        # M₀ = max|W_ij| (the boundary of (87)) three times out of four
        factor = draw(st.sampled_from([Fraction(1), Fraction(1), Fraction(1), Fraction(3, 2)]))
        return {"W": w, "v": v, "M0": max((abs(x) for row in w for x in row), default=Fraction(0))
                * factor}

    return build()


def cube_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact over ℚ: |Diag(v)²Wv|₂² against the bound squared; (92)'s printed expansion shown."""
    from recmem.theory.lyapunov import diag_product, printed_expansion

    law = ctx.law(DiagCubeBound)
    w, v, m0 = inst["W"], inst["v"], inst["M0"]
    c = diag_product(w, v)
    lhs2 = sum((x * x for x in c), Fraction(0))
    rhs2 = law.bound_squared(len(v), m0, sum((x * x for x in v), Fraction(0)))
    printed = printed_expansion(w, v)
    return Instance(lhs2 <= rhs2, "exact over ℚ (squares compared)",
                    {"W": lc._fmt(w), "v": str([str(x) for x in v]), "M0": str(m0),
                     "Diag(v)^2 W v": str([str(x) for x in c]), "|Diag(v)^2 W v|^2": str(lhs2),
                     "bound^2": str(rhs2),
                     "(92)'s printed expansion": str([str(x) for x in printed])})


def cube_symbolic(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import cube_proof

    proof, sec = lc.proof_time(lambda: cube_proof(ctx.law(DiagCubeBound)))
    return [from_proof(proof, sec)]


# ---- claims ---------------------------------------------------------------------------------------

def _params(n: int, kind: str | None = "nonnormal", n_search: int = 3) -> tuple[Param, ...]:
    base: tuple[Param, ...] = (lc.p_n(n),)
    if kind is not None:
        base += (lc.p_kind(kind), lc.p_departure())
    return (*base, lc.p_draw(),
            Param("directions", 24, "random directions d (besides e_i, e_i ± e_j)", int,
                  check=at_least(0), max=10**4),
            lc.p_n_search(n_search))


P_HEAD = Param("n_search", 2, "largest size of the fixed head block H of the sequences W_m = "
               "H ⊕ T_(m−h) in the counterexample search (0: tails only)", int, check=at_least(0),
               max=16)

TOL = ("exact over ℚ in the search (rational bounds of L/Υ²); enclosure (flint balls of q(d), "
       "‖W‖₂, ‖P‖₂, κ₂(V)); point arithmetics: c·n·κ(L)·u·2‖W‖₂‖P‖₂ with u of the arithmetic that "
       "ran; mpmath violations certified only by a recomputation in ball arithmetic (flint); every "
       "solved P checked by its residual oracle and compared across arithmetics")
SEQUENCE_NOTE = ("q_m(Υe_m) = −2Υ⁴(P_m)_mm for W_m = −I_m + 2N_m, and (P_m)_mm = ½Σ_{k<m} C(2k, k) "
                 "grows without bound, so no Υ serves every m; a bound |W_ij| ≤ M₀ gives "
                 "sup_m ‖P_m‖₂ < ∞ only for a fixed size m (compactness), not for a sequence.")

CLAIMS = [
    Claim(
        id="W.lyapunov-local",
        summary="Lemma A.9 as printed (one Υ for every m) fails on the same sequence",
        title="Lemma A.9 as printed: one Υ for every m",
        statement=LocalQuartic(),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance="exact (SymPy: the closed form of (P_m)_mm for every m, with symbolic k; the "
                  "exact solve of (88) for m ≤ 5); the witness confirmed for m ≤ 6 from the "
                  "integral (78): ball enclosure (flint), c·(a + m + 8)·u·‖P̂‖_F/|(P̂)_mm| with a the "
                  "doubling's error growth and u of the arithmetic that ran; search: exact over ℚ "
                  "(the sign of the tail symbol's maximum by certified root isolation)",
        uses=("W.lyapunov", "W.lyapunov-bound.uniform"),
        params=(P_HEAD,),
        symbolic=symbolic,
        numeric=sequence_numeric,
        strategy=sequence_strategy,
        holds=sequence_holds,
        reading=READING_EXISTS,
        notes=SEQUENCE_NOTE + " For one fixed W the existential statement holds "
                              "(W.lyapunov-local.weak).",
    ),
    Claim(
        id="W.lyapunov-local.weak",
        summary="for one W, Υ = √(L/(2‖W‖₂‖P‖₂)) works",
        title="Lemma A.9 for one W: Υ = √(L/(2‖W‖₂‖P‖₂)) works",
        statement=LocalQuartic(radius="1/(2|W||P|)", uniform=False),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        uses=("W.lyapunov",),
        params=_params(3),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.lyapunov-local",
        reading=READING_WEAK,
        notes="|q(v)| ≤ 2‖P‖₂‖W‖₂|v|_∞²|v|₂² ≤ 2‖P‖₂‖W‖₂|v|₂⁴. The radius depends on W (on m), so this "
              "does not give the uniform Υ that the proof of Theorem 3.9 (A.9, eq. (52)) needs.",
    ),
    Claim(
        id="W.lyapunov-local.explicit",
        summary="the explicit Υ = √(β₀L/M₀) fails even for normal W",
        title="Lemma A.9 (explicit reading: Υ ≤ √(β₀L/M₀))",
        statement=LocalQuartic(radius="beta0/M0"),
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_RADIUS),
        tolerance=TOL,
        uses=("W.lyapunov-local", "W.lyapunov-bound"),
        params=_params(3),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading=READING_EXPLICIT,
        notes="Fails for two reasons: ‖P‖₂ ≤ 1/(2β₀) (Lemma A.8) is false for non-normal W, and the "
              "bound (98) is false for the vector Diag(v)²Wv ((92) expands another vector: "
              "W.lyapunov-local.eq92): the normal W = [[−1, 1], [−1, −1]] (P = I/2) already violates "
              "it at v = (25/26, −5/26), L = 1, Υ = 1. One W is a counterexample at its index m "
              "(complete the sequence with −I_m).",
    ),
    Claim(
        id="W.lyapunov-local.explicit.corrected",
        summary="the radius Υ ≤ √(β₀L/(nM₀κ₂(V)²)) works",
        title="Lemma A.9 with the radius √(β₀L/(n M₀ κ₂(V)²))",
        statement=LocalQuartic(radius="beta0/(n M0 kappa^2)", uniform=False, family="diagonalizable"),
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_RADIUS),
        tolerance=TOL + "; κ₂(V) certified in flint",
        uses=("W.lyapunov-local", "W.lyapunov-bound.weak"),
        params=_params(4, None),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.lyapunov-local.explicit",
        reading=READING_CORRECTED,
        notes="‖W‖₂ ≤ ‖W‖_F ≤ nM₀ and ‖P‖₂ ≤ κ₂(V)²/(2β₀) (W.lyapunov-bound.weak) make "
              "√(β₀L/(nM₀κ₂(V)²)) ≤ √(L/(2‖W‖₂‖P‖₂)). For normal W (κ₂(V) = 1) the radius is the "
              "printed one divided by √n; it shrinks with m, so it is no uniform Υ either.",
    ),
    Claim(
        id="W.lyapunov-local.eq92",
        summary="finding: the proof's (92) computes the wrong vector",
        title="Proof of Lemma A.9, eqs. (92)–(98): |Diag(v)²Wv|₂ ≤ M₀|v|₂³",
        statement=DiagCubeBound(),
        provenance=Provenance("W", "App. A.10, proof of Lemma A.9, eqs. (92)–(98)", QUOTE_92),
        tolerance="exact (ℚ: squares compared); enclosure (flint); point arithmetics "
                  "c·(m + 8)·u·M₀·m^1.5·|v|∞³",
        params=(lc.p_n(3), lc.p_kind("nonnormal"), lc.p_departure(), lc.p_draw(),
                lc.p_n_search(3)),
        symbolic=cube_symbolic,
        numeric=cube_numeric,
        strategy=cube_strategy,
        holds=cube_holds,
        notes="A finding: the left side of (92) is the norm of Diag(v)²Wv, with entries "
              "v_i²Σ_j W_ij v_j; the right side expands (Σ_j v_j² W_ji v_i)_i (the square on the "
              "summed index, W transposed), for which (93)–(98) are right. For the actual vector "
              "the dimension-free bound (98) fails; |(Wv)_i| ≤ M₀|v|₁ ≤ √m M₀|v|₂ gives the "
              "correction (.corrected), and the √m is needed (v = (1, s, …, s)).",
    ),
    Claim(
        id="W.lyapunov-local.eq92.corrected",
        summary="with a factor √m: |Diag(v)²Wv|₂ ≤ √m·M₀|v|₂³",
        title="|Diag(v)²Wv|₂ ≤ √m·M₀|v|₂³",
        statement=DiagCubeBound(root_m=True),
        provenance=Provenance("W", "App. A.10, proof of Lemma A.9, eqs. (92)–(98)", QUOTE_92),
        tolerance="exact (ℚ: squares compared); enclosure (flint); point arithmetics "
                  "c·(m + 8)·u·M₀·m^1.5·|v|∞³",
        params=(lc.p_n(3), lc.p_kind("nonnormal"), lc.p_departure(), lc.p_draw(),
                lc.p_n_search(3)),
        symbolic=cube_symbolic,
        numeric=cube_numeric,
        strategy=cube_strategy,
        holds=cube_holds,
        corrects="W.lyapunov-local.eq92",
    ),
]
