"""W.lyapunov-bound: Lemma A.8 of paper W (ICLR camera-ready App. A.10, eqs. (75)–(77): ‖P‖₂ ≤ 1/(2β₀)
for WᵀP + PW = −I and sup_i Re λ_i(W) ≤ −β₀), refuted for non-normal W, with its corrected
(normal W) and weakened (κ₂(V)², diagonalizable W) statements, and the reading
W.lyapunov-bound.uniform: the lemma's qualitative conclusion, sup_m ‖P_m‖₂ < ∞, for sequences
W_m ∈ ℝ^{m×m} under Lemma A.9's (86)–(87) (what the proof of Theorem 3.9 uses in A.9), refuted by
W_m = −I_m + 2N_m.

P is defined by its equation here, so every arithmetic solves (75) (exact Kronecker over ℚ in the
search, Kronecker LU in mpmath, certified balls in flint, Bartels–Stewart in numpy, sign-function
Newton in torch, each in its own precision) and compares its λ_max with the bound, where β₀ is
the largest value the statement's hypothesis admits for the drawn W. The sequence reading's numeric
side (:func:`sequence_numeric`) instead confirms the symbolic side's witness W_m = −I_m + 2N_m with
P_m from the integral (78) in each arithmetic (a finite computation cannot refute "for every m"),
and its counterexample search (:func:`sequence_holds`) decides the reading exactly on sequences
with a finite description, W_m = H ⊕ (banded triangular Toeplitz tail), from the closed form
sup_m ‖P_m‖₂ = max(‖P(H)‖₂, 1/(−2 max_{|z|=1} Re φ(z))) of theory.lyapunov_sequences.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, parse_fraction
from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.lyapunov import NormBound

QUOTE = (r"Lemma A.8. Given a sequence of Lyapunov equation with Hurwitz matrices "
         r"$\{W_m\}_{m=1}^{\infty}$ $$W _ {m} ^ {\top} P _ {m} + P _ {m} W _ {m} = - I _ {m}. "
         r"\tag {75}$$ Assume the eigenvalues of $W_{m}$ are uniformly bounded away from 0: "
         r"$$\sup _ {i \in [ m ]} R e (\lambda_ {i} (W _ {m})) \leq - \beta_ {0}. \tag {76}$$ Show "
         r"that the $L_{2}$ norm of $P_{m}$ are uniformly bounded $$\sup _ {m} \| P _ {m} \| _ {2} "
         r"\leq \frac {1}{2 \beta_ {0}}. \tag {77}$$")
QUOTE_PROOF = (r"Assume $W_{m}$ 's eigenvalue-eigenvector couples are $(\lambda_i, v_i), i \in [m]$ . "
               r"Without loss of generality, we assume $v_i$ are all unit eigenvectors. … any unit "
               r"vector $u$ can be decomposed into linear combination of eigenvectors $$u = \sum_ {i "
               r"= 1} ^ {m} c _ {i} v _ {i}, \quad \sum_ {i = 1} ^ {m} c _ {i} ^ {2} = 1. \tag {80}$$ "
               r"We have $$u ^ {\top} P _ {m} u = \int_ {0} ^ {\infty} \| e ^ {W _ {m} t} u \| _ {2} "
               r"^ {2} d t \tag {81}$$ $$= \int_ {0} ^ {\infty} \sum_ {i = 1} ^ {m} c _ {i} ^ {2} e ^ "
               r"{2 \lambda_ {i} t} \| v _ {i} \| _ {2} ^ {2} d t \tag {82}$$")
QUOTE_A9 = (r"By Lemma A.8, we know $P_{m}$ has a uniformly bounded $L_{2}$ norm $$\sup _ {m} \| P _ "
            r"{m} \| _ {2} \leq \frac {1}{2 \beta_ {0}}. \tag {50}$$ … Assume the max norms for "
            r"matrices $\{W_{m}\}_{m=1}^{\infty}$ are uniformly bounded: $$\sup _ {m} \sup _ {1 \leq "
            r"i, j \leq m} | W _ {m, i j} | \leq M _ {0}. \tag {87}$$")
WHERE = "App. A.10, Lemma A.8, eqs. (75)–(77); proof eqs. (78)–(85)"
NOTES = ("Where the proof goes wrong (eqs. (79)–(85)): it takes unit eigenvectors v_i, writes a unit "
         "u = Σ c_i v_i with Σ c_i² = 1 (80) and expands ‖e^{W_m t}u‖² as Σ c_i² e^{2λ_i t}‖v_i‖² "
         "(82): that treats the v_i as orthonormal (no cross terms, Σ|c_i|² = |u|²), true for normal "
         "W only; it also writes e^{2λ_i t} and c_i² for possibly complex λ_i, c_i (needs Re and "
         "|c_i|²). The repeated-eigenvalue step ('it's feasible to construct the eigenvectors to be "
         "orthogonal') fails likewise. A bound on the entries (87) does not rescue uniform "
         "boundedness when the size m grows: see W.lyapunov-bound.uniform (W_m = −I_m + 2N_m).")


# ---- λ_max(P) in one arithmetic ---------------------------------------------------------------

@dataclass(frozen=True)
class Lmax:
    """λ_max(P) of a solved P in one arithmetic (:func:`lmax_in`)."""

    value: lc.Value
    tol_abs: mpmath.mpf  # Weyl: also the bound on ‖P̂ − P‖_F the route comparison uses
    source: str
    again: Callable[[AbstractBackend], lc.Value | None]  # the same in another arithmetic
    P: Any
    oracle: Any  # numerics.lyapunov.Residual of P


def lmax_in(backend: AbstractBackend, w: Any, cond: Any) -> Lmax:
    """λ_max(P) for WᵀP + PW = −I in ``backend``, its tolerance and source, a recomputation in
    another arithmetic (None when that P fails its oracle), P and its oracle. Weyl:
    |λ_max(P̂) − λ_max(P)| ≤ ‖P̂ − P‖_F ≲ c·n·κ(L)·u·‖P‖_F (n → n² for LU on the Kronecker system in
    mpmath), u of the arithmetic that ran."""
    kind = backend.spec.kind
    n = int(w.nrows())
    p = lc.solve_in(backend, w)
    oracle = lc.oracle_of(backend, w, p)  # from the P read here, against the exact W
    pp = p.cpu().numpy() if kind == "torch" else p
    val = lc.lmax(pp, "numpy" if kind == "torch" else kind, backend.precision_bits)
    n_eff = n * n if kind == "mpmath" else n
    tol_abs = lc.C_TOL * n_eff * cond.value * backend.unit_roundoff * _fro_mid(pp) \
        if not backend.encloses else mpmath.mpf(0)
    src = (f"c·n·κ(L)·u·‖P‖_F (Weyl), c={lc.C_TOL}, n={n_eff}, κ(L)={cond}, "
           f"u=2^-{backend.precision_bits}" if not backend.encloses else "ball arithmetic")

    def again(other: AbstractBackend) -> lc.Value | None:
        p2 = lc.solve_in(other, w)
        if not lc.oracle_of(other, w, p2).ok:
            return None
        return lc.lmax(p2, other.spec.kind, other.precision_bits)

    return Lmax(val, mpmath.mpf(tol_abs), src, again, p, oracle)


def _fro_mid(p: Any) -> mpmath.mpf:
    from recmem.numerics.lyapunov import to_mp

    return mpmath.mpf(lc.MP64.mnorm(to_mp(p, lc.MP64), "f"))


def _cond(ctx: Context, w: Any, key: str) -> Any:
    from recmem.numerics.lyapunov import condition_certified

    return lc.cached(ctx, f"cond/{key}", lambda: condition_certified(w))


def _example(a: Fraction) -> Any:
    from recmem.numerics.lyapunov import fmpq_matrix

    return fmpq_matrix([[Fraction(-1), a], [Fraction(0), Fraction(-1)]])


INSIDE = Fraction(63, 64)  # strictly inside the hypothesis, so ball arithmetic can certify ≤
FAMILY_KIND = {"hurwitz": None, "normal": "normal", "diagonalizable": "diagonalizable"}
FAMILY_SEARCH = {"hurwitz": "all", "normal": "normal", "diagonalizable": "diagonalizable"}


@dataclass(frozen=True)
class Case:
    """One exact W of the numeric sides: its label (independent of the statement), exact α(W),
    and V (W = V B V⁻¹, B normal) when known."""

    label: str
    W: Any
    alpha: Fraction
    V: Any = None
    margin: Fraction = Fraction(1)  # β₀ = margin × the largest value the hypothesis admits


def cases(ctx: Context, law: NormBound) -> list[Case]:
    """The W's each arithmetic tests ``law`` on: a W drawn from the law's family (parameters N,
    kind for Hurwitz W, departure, draw) with β₀ at 63/64 of the largest value the hypothesis
    admits, a normal W at the largest β₀ (orthogonal V: the bound is attained, so a smaller bound
    or a wider hypothesis fails there), and for Hurwitz W the Jordan-type example
    [[−1, a], [0, −1]] (parameter a)."""
    kind = FAMILY_KIND[law.family] or str(ctx["kind"])
    d = lc.draw_from(ctx, kind=kind)
    t = lc.draw_from(ctx, n=3, kind="normal")
    out = [Case("drawn W, β₀ = 63/64 of the largest admitted", d.W, d.abscissa, d.V, INSIDE),
           Case("normal W, largest β₀ (bound attained)", t.W, t.abscissa, t.V)]
    if law.family == "hurwitz":
        a = Fraction(ctx["a"])
        out.append(Case(f"W = [[−1, {a}], [0, −1]]", _example(a), Fraction(-1)))
    return out


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """λ_max(P) from solving (75) in ``backend`` against scale·κ₂(V)^p/(2β₀), β₀ the largest value
    the hypothesis admits for each case's W (κ₂(V) computed in the same arithmetic)."""
    from recmem.numerics.lyapunov import fractions

    law = ctx.law(NormBound)
    out = []
    for case in cases(ctx, law):
        if law.kappa_power and case.V is None:
            continue
        t0 = time.perf_counter()
        cond = _cond(ctx, case.W, case.label + str(fractions(case.W)))
        beta0 = law.largest_beta0(case.alpha) * case.margin
        if not law.admits_beta0(case.alpha, beta0):  # pragma: no cover - admitted by construction
            continue
        lm = lmax_in(backend, case.W, cond)
        val, tol_abs, src = lm.value, lm.tol_abs, lm.source
        kv: lc.Value | None = None
        if law.kappa_power:
            kv = lc.kappa_v(case.V, backend.spec.kind, backend.precision_bits,
                            backend.spec.device or "cpu")
            bound: Any = _bound_interval(law, beta0, kv)
            if not kv.certified:  # κ₂(V) from an SVD in precision u: relative error ≲ c·n·κ₂(V)·u
                tol_abs += lc.C_TOL * case.W.nrows() * kv.mid * backend.unit_roundoff * 2 * bound.mid
                src += " + c·n·κ₂(V)·u·bound for κ₂(V)²"
        else:
            bound = law.bound_value(beta0, 1)  # no κ₂(V) in this bound
        check = f"λ_max(P) ≤ the bound ({case.label})"

        def again(fb: AbstractBackend, lm: Lmax = lm, bound: Any = bound) -> Any:
            v = lm.again(fb)
            return None if v is None else (v, bound)

        ev = lc.compare(
            check, backend, val, bound, relation="le",
            tol_abs=tol_abs, tol_text=src, kappa_text=str(cond), t0=t0,
            recompute=None if law.kappa_power else again,
            data={"beta0": str(beta0), "kappa2(V)": str(kv) if kv is not None else "not used"},
            counterexample={"W": lc._fmt(fractions(case.W)), "beta0": str(beta0),
                            "lambda_max(P)": str(val), "bound": str(bound)})
        out += _oracle_and_routes(ctx, backend, ev, case.W, lm, check)
    return out


def _oracle_and_routes(ctx: Context, backend: AbstractBackend, ev: Evidence, w: Any, lm: Lmax,
                       check: str) -> list[Evidence]:
    """``ev`` judged by the oracle of the P it read, and that P compared with the other
    arithmetics' P for the same W in this run (an ERROR evidence when they disagree)."""
    from recmem.numerics.lyapunov import fractions

    ev = lc.with_oracle(ev, lm.oracle)
    if not lm.oracle.ok:
        return [ev]
    err = mpmath.mpf(0) if backend.encloses else lm.tol_abs  # c·n·κ(L)·u·‖P‖_F (balls: radii)
    routes, bad = lc.compare_routes(ctx, ("solve (75)", str(fractions(w))), backend.name, lm.P,
                                    err, check, backend.name)
    ev = replace(ev, data={**ev.data, **routes})
    return [ev] if bad is None else [ev, bad]


def _bound_interval(law: NormBound, beta0: Fraction, kv: lc.Value) -> lc.Value:
    """``law.bound_value`` over an interval of κ₂(V) (it increases with κ), outward when κ is a
    certified ball (the formula in interval arithmetic, β₀ exact: rounded to nearest an end could
    move inwards)."""
    from recmem.numerics.certified import enclose

    if kv.certified:
        return lc.Value(enclose(law.bound_value, beta0, kv.lo, bits=kv.bits)[0],
                        enclose(law.bound_value, beta0, kv.hi, bits=kv.bits)[1], True, kv.bits)
    ctx = lc.hp(kv.bits)
    b = ctx.mpf(beta0.numerator) / beta0.denominator
    lo, hi = law.bound_value(b, ctx.mpf(kv.lo)), law.bound_value(b, ctx.mpf(kv.hi))
    return lc.Value(lo, hi, False, kv.bits)


# ---- the exact search ---------------------------------------------------------------------

def strategy(ctx: Context) -> Any:
    """Exact Hurwitz W of the statement's family, sizes 1…n_search, with β₀ up to the largest value
    its hypothesis admits (β₀ = f·(−α(W))/beta_factor, 1/4 ≤ f ≤ 1)."""
    law = ctx.law(NormBound)
    base = lc.hurwitz_instances(1, int(ctx["n_search"]), FAMILY_SEARCH[law.family])
    return base.map(lambda inst: _rescale(inst, law))


def _rescale(inst: lc.HurwitzInstance, law: NormBound) -> lc.HurwitzInstance:
    """β₀ = f·(the largest value the statement's hypothesis admits), f = inst.beta0/(−α)."""
    return replace(inst, beta0=inst.beta0 / -inst.alpha * law.largest_beta0(inst.alpha))


def holds(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    """Exact over ℚ: P from (75) (Kronecker), λ_max(P) ≤ c by the signs of the characteristic
    polynomial of cI − P, with c = scale/(2β₀) or, with κ₂(V)², rational bounds on κ₂(V)² from
    Rayleigh quotients of VᵀV and (VᵀV)⁻¹ (a violation is certified against an upper bound)."""
    from recmem.numerics import lyapunov as ly

    law = ctx.law(NormBound)
    values: dict[str, Any] = {**inst.record()}
    if not law.admits_beta0(inst.alpha, inst.beta0):
        return Instance(True, "outside the hypothesis (vacuous)", values)
    p = lc.exact_p(inst.W)  # checked by its oracle (R = 0 over ℚ)
    values["P"] = lc._fmt(ly.fractions(p))
    n = inst.n
    if not law.kappa_power:
        c = law.bound_value(inst.beta0, 1)  # no κ₂(V) in this bound
        values["bound"] = str(c)
        ok = lc.charpoly_psd(ly.identity(n) * lc._fq(c) - p)
        if not ok:
            basis = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
            v = next((b for b in basis if lc.rayleigh(p, b) > c), lc.top_eigvec(p))
            if lc.rayleigh(p, v) > c:
                values |= {"v": str([str(x) for x in v]), "v^T P v / v^T v": str(lc.rayleigh(p, v))}
        return Instance(ok, "exact over ℚ: cI − P ⪰ 0 iff the coefficients of det(tI − (cI − P)) "
                        "alternate in sign", values)
    assert inst.V is not None
    v = ly.fmpq_matrix(inst.V)
    g, gi = v.transpose() * v, lc.inverse_gram(v)
    lo = _bound_at(law, inst.beta0, lc.lmax_lower(g) * lc.lmax_lower(gi))  # ≤ the bound
    values["bound >="] = str(lo)
    if lc.charpoly_psd(ly.identity(n) * lc._fq(lo) - p):
        return Instance(True, "exact over ℚ: λ_max(P) ≤ ℓ (characteristic polynomial) and ℓ ≤ "
                        "scale·κ₂(V)²/(2β₀) (rational Rayleigh quotients of VᵀV, (VᵀV)⁻¹)", values)
    ug, ugi = lc.lmax_upper(g), lc.lmax_upper(gi)
    if ug is not None and ugi is not None:
        up = _bound_at(law, inst.beta0, ug * ugi)
        vec = lc.top_eigvec(p)
        if lc.rayleigh(p, vec) > up:
            return Instance(False, "exact over ℚ: vᵀPv/vᵀv exceeds a certified upper bound of "
                            "scale·κ₂(V)²/(2β₀)", values | {"bound <=": str(up),
                                                             "v^T P v / v^T v": str(lc.rayleigh(p, vec))})
    return Instance(None, "undecided: the rational bounds do not separate", values)


def _bound_at(law: NormBound, beta0: Fraction, kappa2: Fraction) -> Fraction:
    """``law.bound_value`` at κ₂(V) = √kappa2, exactly (κ enters through an even power)."""
    import sympy as sp

    b = sp.expand(law.bound_value(sp.Rational(beta0.numerator, beta0.denominator),
                                  sp.sqrt(sp.Rational(kappa2.numerator, kappa2.denominator))))
    if not b.is_Rational:
        raise ValueError(f"the bound {b} is not rational: κ₂(V) enters through an odd power")
    return Fraction(str(b))


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by exact witnesses and the general arguments (theory.lyapunov)."""
    from recmem.theory.lyapunov import norm_bound_proof

    proof, sec = lc.proof_time(lambda: norm_bound_proof(ctx.law(NormBound)))
    return [from_proof(proof, sec)]


# ---- the sequence reading (.uniform): the witness W_m = −I_m + 2N_m in each arithmetic ------------

WITNESS_CHECK = "witness W_m = −I_m + 2N_m: (P_m)_mm from the integral (78) against the closed form"
BOUND_CHECK = "witness W_m = −I_m + 2N_m: ‖P_m‖₂ ≥ (P_m)_mm against the bound"


def sequence_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The witness the symbolic side refutes the sequence reading with, confirmed in ``backend``'s
    arithmetic: (P_m)_mm of W_m = −I_m + 2N_m for m = 2…6 from the integral (78) (quadrature +
    doubling, or its ball enclosure; never a Lyapunov solver) against the derived closed form
    ½Σ_{k<m} C(2k, k) (theory.lyapunov.superdiagonal_corner). A finite computation cannot refute
    sup_m ‖P_m‖₂ < ∞, so a confirmation is INCONCLUSIVE and a contradiction a FAIL.

    A statement with a constant bound (bound "constant", e.g. the control "the printed 1/(2β₀)")
    is also tested on the witness: ‖P_m‖₂ ≥ (P_m)_mm = eₘᵀP_m eₘ, with β₀ the largest value its
    hypothesis admits for α(W_m) = −1 (:func:`_witness_bound`). A computed (P_m)_mm above the
    bound refutes it only when certified by flint balls: flint's own enclosure, or, for an mpmath
    value, its recomputation as a flint ball (the integral (78) again, at the precision of
    ``lc.certify_in_balls``, whose residual oracle must pass) lying above the bound
    (``lc.compare``). Any other excess (numpy, torch, overlapping balls, a recomputation that
    failed its oracle) is a FAIL, and (P_m)_mm ≤ bound is INCONCLUSIVE: it bounds ‖P_m‖₂ only
    from below.
    """
    from recmem.theory.lyapunov import SUPERDIAGONAL_SIZES, superdiagonal_corner

    law = ctx.law(NormBound)
    t0 = time.perf_counter()
    terms = lc.sequence_terms(backend, ctx, SUPERDIAGONAL_SIZES)
    values = {t.m: lc.term_value(t, t.P[t.m - 1, t.m - 1]) if t.P is not None else None
              for t in terms}
    rows = [lc.Derived(f"(P_{t.m})_{t.m}{t.m}", v, superdiagonal_corner(t.m), t.rel_tol)
            for t in terms if (v := values[t.m]) is not None]
    out = [lc.witness_evidence(WITNESS_CHECK, backend, terms, rows, [], t0=t0,
                               confirms="(P_m)_mm of the integral (78)",
                               derived="½Σ_(k<m) C(2k, k)")]
    if law.bound == "constant" and law.family == "hurwitz" and not law.kappa_power and rows:
        out.append(_witness_bound(law, backend, terms, values))
    return out


def _witness_bound(law: NormBound, backend: AbstractBackend, terms: list[lc.SequenceTerm],
                   values: dict[int, lc.Value | None]) -> Evidence:
    """(P_m)_mm ≤ ‖P_m‖₂ against ``law``'s constant bound at the first m whose computed value
    exceeds it (else the largest m)."""
    t0 = time.perf_counter()

    def bound_of(t: lc.SequenceTerm) -> Fraction:
        return Fraction(law.bound_value(law.largest_beta0(t.alpha), 1))

    def tol_of(t: lc.SequenceTerm, v: lc.Value) -> mpmath.mpf:
        return mpmath.mpf(0) if backend.encloses else t.rel_tol * abs(v.mid)

    done = [(t, v) for t in terms if (v := values[t.m]) is not None]
    pick, val = next(((t, v) for t, v in done if v.mid - bound_of(t) > tol_of(t, v)), done[-1])
    beta0 = law.largest_beta0(pick.alpha)

    def again(fb: AbstractBackend, m: int = pick.m) -> Any:
        t = lc.sequence_term(fb, m)
        if t.P is None or not t.residual.ok:
            return None
        return lc.term_value(t, t.P[m - 1, m - 1]), bound_of(pick)

    ev = lc.compare(BOUND_CHECK, backend, val, bound_of(pick), relation="le",
                    tol_abs=tol_of(pick, val),
                    tol_text="ball arithmetic" if backend.encloses else
                    f"relative c·(a + m + 8)·u·‖P̂‖_F/|(P̂)_mm| = {tol.fmt(pick.rel_tol)}, "
                    f"u=2^-{pick.bits}", t0=t0, recompute=again,
                    data={"m": str(pick.m), "beta0": str(beta0), "M0": str(pick.max_entry)},
                    counterexample={"W": lc._fmt(pick.W), "beta0": str(beta0),
                                    f"(P_{pick.m})_{pick.m}{pick.m} <= ||P||_2": str(val),
                                    "bound": str(bound_of(pick))})
    if ev.outcome is Outcome.PASS:  # (P_m)_mm bounds ‖P_m‖₂ only from below
        return replace(ev, outcome=Outcome.INCONCLUSIVE,
                       message="(P_m)_mm ≤ bound does not bound ‖P_m‖₂")
    return ev


# ---- the sequence reading (.uniform): the exact search over sequences W_m -----------------------

def sequence_strategy(ctx: Context) -> Any:
    """Sequences W_m = H ⊕ T_{m−h}(m) (banded triangular Toeplitz tails, a fixed Hurwitz head of size
    ≤ n_search; theory.lyapunov_sequences) with β₀ up to the largest value the statement's
    hypothesis (76) admits (:func:`_lyapunov.toeplitz_sequences`)."""
    return lc.toeplitz_sequences(int(ctx["n_search"]))


SEQ_HOW = ("exact: sup_m ‖P_m‖₂ = max(‖P(H)‖₂, 1/(−2M)), M = max_(|z|=1) Re φ(z) of the tail's "
           "symbol φ(z) = −a + Σ c_j z^j (∞ when M ≥ 0 or the band grows with m; "
           "theory.lyapunov_sequences); the sign of M + shift from rational endpoint and critical "
           "values and certified isolation of irrational critical points; ‖P(H)‖₂ ≤ c by the signs "
           "of the characteristic polynomial of cI − P(H) over ℚ")


def sequence_holds(inst: lc.SequenceInstance, ctx: Context) -> Instance:
    """Lemma A.8 for the drawn sequence W_m (W App. A.10, (75)–(77); as used in A.9 (50)), exactly:
    the statement's hypotheses (76) with the drawn β₀ and, when it assumes them, the bounded
    entries (87); then its conclusion, sup_m ‖P_m‖₂ < ∞ ("finite") or ≤ scale/(2β₀) ("constant"),
    from the closed form of sup_m ‖P_m‖₂ (theory.lyapunov_sequences, facts (iii)–(v)). ``ratio``:
    for "finite", max_θ Σ c_j cos jθ / a (≥ 1 iff the sequence is unbounded), for "constant",
    sup_m ‖P_m‖₂ over the bound."""
    from recmem.numerics.lyapunov import identity

    law = ctx.law(NormBound)
    seq = inst.seq
    values: dict[str, Any] = inst.record()
    if law.family != "hurwitz" or law.kappa_power:
        return Instance(None, "the sequence search covers Hurwitz W_m without κ₂(V)", values)
    alpha = seq.abscissa
    beta0 = inst.f * law.largest_beta0(alpha)
    values["beta0"] = str(beta0)
    if not law.admits_beta0(alpha, beta0):  # pragma: no cover - f ≤ 1 stays admitted
        return Instance(True, "outside the hypothesis (76) (vacuous)", values)
    if law.entry_bound and not seq.bounded_entries:
        return Instance(True, "outside the hypothesis (87): the band grows with m (vacuous)", values)
    if not seq.bounded_entries:
        values |= _corners(seq)
        return Instance(False, "exact: the band c_j + d_j·m grows with m, so (P_m)_mm → ∞ "
                        "(theory.lyapunov_sequences, fact (iv)); sup_m ‖P_m‖₂ = ∞", values,
                        ratio=lc.GUIDE_INF)
    if law.bound == "finite":
        mx = seq.symbol_max()
        values |= {"max_|z|=1 Re phi(z)": f"{mx.approx:.6g} (sign {mx.sign:+d}, at {mx.where})"}
        ratio = float((mx.approx + seq.a) / seq.a)
        if mx.sign < 0:
            return Instance(True, SEQ_HOW, values | {"sup_k ||P(T_k)||_2 (tail)":
                                                     f"{-0.5 / mx.approx:.6g}"}, ratio=ratio)
        return Instance(False, SEQ_HOW, values | _corners(seq), ratio=ratio)
    bound = Fraction(law.bound_value(beta0, 1))  # no κ₂(V) in this bound
    values["bound"] = str(bound)
    mx = seq.symbol_max(shift=1 / (2 * bound))  # 1/(−2M) ≤ bound ⟺ M + 1/(2·bound) ≤ 0
    m_tail = mx.approx - float(1 / (2 * bound))
    sup_tail = -0.5 / m_tail if m_tail < 0 else lc.GUIDE_INF
    values["max_|z|=1 Re phi(z)"] = f"{m_tail:.6g}"
    ok_tail = mx.sign <= 0
    ok_head, sup_head = True, 0.0
    if seq.h:
        p = lc.head_p(seq)
        ok_head = lc.charpoly_psd(identity(seq.h) * lc._fq(bound) - p)
        sup_head = lc.lmax_float(p)
        values["||P(H)||_2"] = f"{sup_head:.6g}"
    ratio = min(max(sup_tail, sup_head) / float(bound), lc.GUIDE_INF)
    if ok_tail and ok_head:
        return Instance(True, SEQ_HOW, values, ratio=ratio)
    return Instance(False, SEQ_HOW, values | {"exceeds the bound": "the tail (its symbol)" if not
                                              ok_tail else "the head H"} | _corners(seq),
                    ratio=ratio)


def _corners(seq: Any, sizes: range = range(1, 7)) -> dict[str, str]:
    """(P_m)_mm of the first W_m, exactly (a lower bound of ‖P_m‖₂, for the report)."""
    return {"(P_m)_mm, m = 1…6": ", ".join(str(seq.tail_corner(m)) for m in sizes)}


# ---- claims ---------------------------------------------------------------------------------------

def _params(n: int, family: str, n_search: int = 4) -> tuple[Param, ...]:
    base: tuple[Param, ...] = (lc.p_n(n),)
    if family == "hurwitz":
        base = (Param("a", Fraction(2), "corner a of the example W = [[−1, a], [0, −1]]",
                      parse_fraction), *base, lc.p_kind("nonnormal"), lc.p_departure())
    return (*base, lc.p_draw(), lc.p_n_search(n_search))


P_HEAD = Param("n_search", 2, "largest size of the fixed head block H of the sequences W_m = "
               "H ⊕ T_(m−h) in the counterexample search (0: tails only)", int, check=at_least(0),
               max=16)

TOL = ("exact (SymPy witnesses and blocks; ℚ in the search); enclosure (flint eigenvalue balls); "
       "floats: c·n·κ(L)·u·‖P‖_F on λ_max (Weyl), κ(L) certified, u of the arithmetic that ran; "
       "mpmath violations certified only by a recomputation in ball arithmetic (flint); every "
       "solved P checked by its residual oracle and compared across arithmetics")

CLAIMS = [
    Claim(
        id="W.lyapunov-bound",
        summary="Lemma A.8 fails for non-normal W: W = [[−1, 1], [0, −1]] gives ‖P‖₂ = (5 + √5)/8 > "
                "1/2",
        title="Lemma A.8: ‖P‖₂ ≤ 1/(2β₀)",
        statement=NormBound(),
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance=TOL,
        uses=("W.lyapunov",),
        params=_params(4, "hurwitz"),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes=NOTES + " The lemma is stated for a sequence W_m; a single W with ‖P‖₂ > 1/(2β₀) is "
                      "a counterexample at its index (complete the sequence with −I_m).",
    ),
    Claim(
        id="W.lyapunov-bound.corrected",
        summary="Lemma A.8 holds for normal W (with equality)",
        title="Lemma A.8 for normal W",
        statement=NormBound(family="normal"),
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance=TOL,
        uses=("W.lyapunov",),
        params=_params(5, "normal", n_search=5),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.lyapunov-bound",
        notes="For normal W, Wᵀ commutes with W and P = −(W + Wᵀ)⁻¹, whose eigenvalues are "
              "1/(−2 Re λ_i(W)): ‖P‖₂ = 1/(2β₀) when β₀ = −max Re λ(W). This is the case the proof "
              "of Lemma A.8 (orthonormal eigenvectors) actually covers.",
    ),
    Claim(
        id="W.lyapunov-bound.weak",
        summary="‖P‖₂ ≤ κ₂(V)²/(2β₀) for W = VBV⁻¹ with B normal",
        title="Lemma A.8 weakened: ‖P‖₂ ≤ κ₂(V)²/(2β₀)",
        statement=NormBound(family="diagonalizable", kappa_power=2),
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance=TOL + "; κ₂(V) certified in flint, + c·n·κ₂(V)·u·bound in point arithmetics",
        uses=("W.lyapunov",),
        params=_params(5, "diagonalizable"),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.lyapunov-bound",
        notes="From ‖P‖₂ ≤ ∫₀^∞ ‖e^{Wt}‖₂² dt and ‖e^{Wt}‖₂ ≤ κ₂(V)e^{−β₀t}. Equality for orthogonal V "
              "(the corrected claim). Defective W are limits of diagonalizable ones but κ₂(V) → ∞: "
              "no bound in terms of β₀ alone exists for them (W.lyapunov-bound's counterexample is "
              "defective).",
    ),
    Claim(
        id="W.lyapunov-bound.uniform",
        summary="the sequence version (75)–(77): W_m = −I + 2·(superdiagonal) keeps |W_ij| ≤ 2 and "
                "every eigenvalue at −1, yet (P_m)_mm = ½Σ_{k<m}C(2k, k) is unbounded",
        title="Lemma A.8's uniform boundedness for sequences under (86)–(87)",
        statement=NormBound(bound="finite", entry_bound=True),
        provenance=Provenance("W", "App. A.10, Lemma A.8 (75)–(77) as used in App. A.9 eq. (50) "
                                   "under Lemma A.9's (87)", QUOTE + " … " + QUOTE_A9),
        tolerance="exact (SymPy: the closed form of (P_m)_mm for every m, with symbolic k; the "
                  "exact solve of (75) for m ≤ 5); the witness confirmed for m ≤ 6 from the "
                  "integral (78): ball enclosure (flint), c·(a + m + 8)·u·‖P̂‖_F/|(P̂)_mm| with a the "
                  "doubling's error growth and u of the arithmetic that ran; search: exact over ℚ "
                  "(the sign of the tail symbol's maximum by certified root isolation)",
        uses=("W.lyapunov",),
        params=(P_HEAD,),
        symbolic=symbolic,
        numeric=sequence_numeric,
        strategy=sequence_strategy,
        holds=sequence_holds,
        reading="the lemma's qualitative conclusion 'the L₂ norm of P_m are uniformly bounded', "
                "for sequences of growing size m with bounded entries (87), as the proof of "
                "Theorem 3.9 uses it in A.9 (50), (63)",
        notes="A finding. (P_m)_mm = ½Σ_{k<m} C(2k, k) for W_m = −I_m + 2N_m, so ‖P_m‖₂ → ∞ although "
              "every eigenvalue is −1 and every entry is bounded by 2. Compactness bounds ‖P‖₂ only "
              "for a fixed size m.",
    ),
]
