"""W.lyapunov-bound: Lemma A.8 of paper W (‖P‖₂ ≤ 1/(2β₀) for WᵀP + PW = −I, Re λ_i(W) ≤ −β₀ < 0),
refuted for non-normal W, with its corrected (normal W) and weakened (κ₂(V)², diagonalizable W)
statements."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, parse_fraction
from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend

QUOTE = ("Lemma A.8. Given a sequence of Lyapunov equation with Hurwitz matrices | (77) | Assume the "
         "eigenvalues of are uniformly bounded away from : | (78) | Show that the norm of are "
         "uniformly bounded | (79) |")
QUOTE_PROOF = ("Assume ’s eigenvalue-eigenvector couples are . Without loss of generality, we assume are "
               "all unit eigenvectors. | (81) | For simplicity, we first assume the eigenvalues are "
               "distinct. Therefore, any unit vector can be decomposed into linear combination of "
               "eigenvectors | (82) |")
WHERE = "App. A.10, Lemma A.8 (eq. 77–87)"
NOTES = ("Where the proof goes wrong (eq. 81–87; the formulas are lost in the text file, the words "
         "remain): it takes unit eigenvectors v_i ('Without loss of generality, we assume are all unit "
         "eigenvectors'), writes a unit x = Σ c_i v_i and bounds xᵀPx = ∫|e^{Wt}x|²dt termwise by "
         "Σ|c_i|²/(2β₀) = 1/(2β₀): that treats the v_i as orthonormal (no cross terms, Σ|c_i|² = |x|²), "
         "true for normal W only; for non-normal W the cross terms do not vanish and "
         "Σ|c_i|² = |V⁻¹x|² can be as large as ‖V⁻¹‖₂². The repeated-eigenvalue step ('it's feasible "
         "to construct the eigenvectors to be orthogonal') fails likewise. "
         "The qualitative conclusion (79), ‖P_m‖ uniformly bounded, also fails without a bound on W: "
         "W_m = [[−1, m], [0, −1]] has ‖P_m‖₂ ≥ 1/2 + m²/4; with |W_ij| ≤ M₀ (as in Lemma A.9) it holds "
         "by compactness.")


# ---- λ_max(P) in one arithmetic ---------------------------------------------------------------

def lmax_in(backend: AbstractBackend, w: Any, cond: Any) -> tuple[lc.Value, mpmath.mpf, str,
                                                                   Callable[[int], lc.Value]]:
    """(λ_max(P) for WᵀP + PW = −I in ``backend``, its tolerance, the tolerance's source, a
    recomputation at another precision). Weyl: |λ_max(P̂) − λ_max(P)| ≤ ‖P̂ − P‖_F ≲ c·n·κ(L)·u·‖P‖_F
    (n → n² for LU on the Kronecker system in mpmath)."""
    kind = backend.spec.kind
    n = int(w.nrows())
    p = lc.solve_in(backend, w)
    val = lc.lmax(p, kind, backend.precision_bits)
    n_eff = n * n if kind == "mpmath" else n
    tol_abs = lc.C_TOL * n_eff * cond.value * backend.unit_roundoff * _fro_mid(p, kind) \
        if not backend.encloses else mpmath.mpf(0)
    src = (f"c·n·κ(L)·u·‖P‖_F (Weyl), c={lc.C_TOL}, n={n_eff}, κ(L)={cond}" if not backend.encloses
           else "ball arithmetic")

    def again(bits: int) -> lc.Value:
        return lc.lmax(lc.solve_in(lc.backend_at(backend, bits), w), kind, bits)

    return val, mpmath.mpf(tol_abs), src, again


def _fro_mid(p: Any, kind: str) -> mpmath.mpf:
    from recmem.numerics.lyapunov import to_mp

    if kind == "torch":
        p = p.cpu().numpy()
    return mpmath.mpf(lc.MP64.mnorm(to_mp(p, lc.MP64), "f"))


def _cond(ctx: Context, d: Any) -> Any:
    from recmem.numerics.lyapunov import condition_certified

    return lc.cached(ctx, f"cond/{d}", lambda: condition_certified(d.W))


def _example(a: Fraction) -> Any:
    from recmem.numerics.lyapunov import fmpq_matrix

    return fmpq_matrix([[Fraction(-1), a], [Fraction(0), Fraction(-1)]])


# ---- W.lyapunov-bound (as printed) -------------------------------------------------------------

def symbolic_printed(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import bound_counterexample

    proof, sec = lc.proof_time(bound_counterexample)
    return [from_proof(proof, sec)]


def numeric_printed(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    from recmem.numerics.lyapunov import condition_certified, fractions

    out = []
    a = Fraction(ctx["a"])
    cases = [(f"W = [[−1, {a}], [0, −1]], β₀ = 1", _example(a), Fraction(1),
              lc.cached(ctx, f"cond/example/{a}", lambda: condition_certified(_example(a))))]
    d = lc.draw_from(ctx)
    cases.append((f"{d}, β₀ = −α(W)", d.W, -d.abscissa, _cond(ctx, d)))
    for label, w, beta0, cond in cases:
        t0 = time.perf_counter()
        val, tol_abs, src, again = lmax_in(backend, w, cond)
        bound = Fraction(1) / (2 * beta0)
        out.append(lc.compare(
            f"‖P‖₂ ≤ 1/(2β₀) ({label})", backend, val, bound, relation="le", tol_abs=tol_abs,
            tol_text=src, kappa_text=str(cond), recompute=again, t0=t0,
            data={"2β₀‖P‖₂": mpmath.nstr(val.scale(2 * beta0).mid, 8)},
            counterexample={"W": lc._fmt(fractions(w)), "beta0": str(beta0),
                            "lambda_max(P)": str(val), "1/(2 beta0)": str(Fraction(1) / (2 * beta0))}))
    return out


def holds_printed(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    from recmem.numerics import lyapunov as ly

    p = ly.exact(inst.W).P
    c = Fraction(1) / (2 * inst.beta0)
    ok = lc.charpoly_psd(ly.identity(inst.n) * lc._fq(c) - p)
    values = {**inst.record(), "P": lc._fmt(ly.fractions(p)), "1/(2 beta0)": str(c)}
    how = "exact arithmetic over ℚ: cI − P ⪰ 0 iff the coefficients of det(tI − (cI − P)) alternate"
    if not ok:
        n = inst.n
        basis = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
        v = next((b for b in basis if lc.rayleigh(p, b) > c), lc.top_eigvec(p))  # simplest first
        r = lc.rayleigh(p, v)
        if r > c:
            values |= {"v": str([str(x) for x in v]), "v^T P v / v^T v": str(r)}
            how = ("exact arithmetic over ℚ: a rational v with vᵀPv/vᵀv > 1/(2β₀), and the signs of "
                   "the characteristic polynomial of cI − P")
    return Instance(ok, how, values)


# ---- .corrected: normal W ----------------------------------------------------------------------

def symbolic_normal(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import normal_bound_proof

    proof, sec = lc.proof_time(normal_bound_proof)
    return [from_proof(proof, sec)]


def numeric_normal(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    d = lc.draw_from(ctx, kind="normal")
    cond = _cond(ctx, d)
    t0 = time.perf_counter()
    val, tol_abs, src, again = lmax_in(backend, d.W, cond)
    target = Fraction(1) / (2 * -d.abscissa)
    return [lc.compare(f"‖P‖₂ = 1/(2β*), β* = −max Re λ(W) ({d})", backend, val, target,
                       relation="eq", tol_abs=tol_abs, tol_text=src, kappa_text=str(cond),
                       recompute=again, t0=t0)]


def holds_normal(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    from recmem.numerics import lyapunov as ly

    p = ly.exact(inst.W).P
    c = Fraction(1) / (2 * inst.beta0)
    eye = ly.identity(inst.n)
    le = lc.charpoly_psd(eye * lc._fq(c) - p)
    tight = inst.beta0 != -inst.alpha or (p - eye * lc._fq(c)).det() == 0
    return Instance(le and tight, "exact arithmetic over ℚ: cI − P ⪰ 0 by the signs of its "
                    "characteristic polynomial; equality by det(P − cI) = 0 when β₀ = −α(W)",
                    {**inst.record(), "P": lc._fmt(ly.fractions(p)), "1/(2 beta0)": str(c),
                     "bound holds": le, "equality at beta0 = -alpha": tight})


# ---- .weak: diagonalizable W --------------------------------------------------------------------

def symbolic_weak(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import diagonalizable_bound_proof

    proof, sec = lc.proof_time(diagonalizable_bound_proof)
    return [from_proof(proof, sec)]


def numeric_weak(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    d = lc.draw_from(ctx, kind="diagonalizable")
    cond = _cond(ctx, d)
    t0 = time.perf_counter()
    val, tol_abs, src, _ = lmax_in(backend, d.W, cond)
    kind = backend.spec.kind
    kv = lc.kappa_v(d.V, kind, backend.precision_bits, backend.spec.device or "cpu")
    bound = kv.square().scale(Fraction(1) / (2 * -d.abscissa))
    # κ₂(V) from an SVD in precision u has relative error ≲ c·n·κ₂(V)·u: add it to the tolerance.
    n = d.n
    tol_k = (lc.C_TOL * n * kv.mid * backend.unit_roundoff * 2 * bound.mid) if not kv.certified \
        else mpmath.mpf(0)
    return [lc.compare(f"‖P‖₂ ≤ κ₂(V)²/(2β₀), β₀ = −α(W) ({d}, κ₂(V) = {mpmath.nstr(kv.mid, 6)})",
                       backend, val, bound, relation="le", tol_abs=tol_abs + tol_k,
                       tol_text=src + (" + c·n·κ₂(V)·u for κ₂(V)²" if tol_k else ""),
                       kappa_text=str(cond), t0=t0,
                       data={"ratio 2β₀‖P‖₂/κ₂(V)²": mpmath.nstr(val.mid / bound.mid, 8)})]


def holds_weak(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    from recmem.numerics import lyapunov as ly

    assert inst.V is not None
    p = ly.exact(inst.W).P
    v = ly.fmpq_matrix(inst.V)
    g, gi = v.transpose() * v, lc.inverse_gram(v)
    lo = lc.lmax_lower(g) * lc.lmax_lower(gi) / (2 * inst.beta0)  # ≤ κ₂(V)²/(2β₀)
    values = {**inst.record(), "P": lc._fmt(ly.fractions(p)), "kappa2(V)^2/(2 beta0) >=": str(lo)}
    if lc.charpoly_psd(ly.identity(inst.n) * lc._fq(lo) - p):
        return Instance(True, "exact over ℚ: λ_max(P) ≤ ℓ (signs of the characteristic polynomial) "
                              "and ℓ ≤ κ₂(V)²/(2β₀) (rational Rayleigh quotients of VᵀV, (VᵀV)⁻¹)",
                        values)
    ug, ugi = lc.lmax_upper(g), lc.lmax_upper(gi)
    if ug is not None and ugi is not None:
        up = ug * ugi / (2 * inst.beta0)
        vec = lc.top_eigvec(p)
        if lc.rayleigh(p, vec) > up:
            return Instance(False, "exact over ℚ: vᵀPv/vᵀv exceeds a certified upper bound of "
                                   "κ₂(V)²/(2β₀)", values | {"upper": str(up)})
    return Instance(None, "undecided: the rational bounds do not separate", values)


# ---- claims ---------------------------------------------------------------------------------------

def _params(n: int, kind: str | None = None, n_search: int = 6) -> tuple[Param, ...]:
    base: tuple[Param, ...] = (lc.p_n(n),)
    if kind is None:
        base += (lc.p_kind("nonnormal"), lc.p_departure())
    return (*base, lc.p_draw(), lc.p_n_search(n_search))


CLAIMS = [
    Claim(
        id="W.lyapunov-bound",
        title="Lemma A.8: ‖P‖₂ ≤ 1/(2β₀)",
        statement="Lemma A.8: if Wᵀ P + P W = −I and sup_i Re λ_i(W) ≤ −β₀ < 0, then ‖P‖₂ ≤ 1/(2β₀)",
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance="exact (SymPy family, ℚ in the search); enclosure (flint eigenvalue balls); "
                  "floats: c·n·κ(L)·u·‖P‖_F on λ_max (Weyl), κ(L) certified; mpmath violations "
                  "recomputed at doubled precision",
        uses=("W.lyapunov",),
        params=(Param("a", Fraction(2), "corner a of the example W = [[−1, a], [0, −1]]",
                      parse_fraction), *_params(4)),
        symbolic=symbolic_printed,
        numeric=numeric_printed,
        strategy=lambda ctx: lc.hurwitz_instances(1, int(ctx["n_search"]), "all"),
        holds=holds_printed,
        notes=NOTES,
    ),
    Claim(
        id="W.lyapunov-bound.corrected",
        title="Lemma A.8 for normal W (equality)",
        statement="For normal W with sup_i Re λ_i(W) ≤ −β₀ < 0, the solution of Wᵀ P + P W = −I has "
                  "‖P‖₂ ≤ 1/(2β₀), with equality ‖P‖₂ = 1/(2β₀) when β₀ = −max_i Re λ_i(W)",
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance="exact (SymPy blocks, ℚ in the search: equality by det(P − I/(2β₀)) = 0); "
                  "enclosure (flint: the ball of λ_max(P) contains 1/(2β*)); floats: c·n·κ(L)·u·‖P‖_F",
        uses=("W.lyapunov",),
        params=_params(5, "normal", n_search=8),
        symbolic=symbolic_normal,
        numeric=numeric_normal,
        strategy=lambda ctx: lc.hurwitz_instances(1, int(ctx["n_search"]), "normal"),
        holds=holds_normal,
        corrects="W.lyapunov-bound",
        notes="For normal W, Wᵀ commutes with W and P = −(W + Wᵀ)⁻¹, whose eigenvalues are "
              "1/(−2 Re λ_i(W)). This is the case the proof of Lemma A.8 (orthonormal eigenvectors) "
              "actually covers.",
    ),
    Claim(
        id="W.lyapunov-bound.weak",
        title="Lemma A.8 weakened: ‖P‖₂ ≤ κ₂(V)²/(2β₀)",
        statement="If W = V B V⁻¹ with B normal (every diagonalizable real W), Wᵀ P + P W = −I and "
                  "sup_i Re λ_i(W) ≤ −β₀ < 0, then ‖P‖₂ ≤ κ₂(V)²/(2β₀)",
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance="exact over ℚ in the search (rational Rayleigh bounds + characteristic-polynomial "
                  "signs); enclosure (flint: certified κ₂(V) and λ_max(P)); floats: "
                  "c·n·κ(L)·u·‖P‖_F + c·n·κ₂(V)·u·bound",
        uses=("W.lyapunov",),
        params=_params(5, "diagonalizable"),
        symbolic=symbolic_weak,
        numeric=numeric_weak,
        strategy=lambda ctx: lc.hurwitz_instances(1, int(ctx["n_search"]), "diagonalizable"),
        holds=holds_weak,
        corrects="W.lyapunov-bound",
        notes="From ‖P‖₂ ≤ ∫₀^∞ ‖e^{Wt}‖₂² dt and ‖e^{Wt}‖₂ ≤ κ₂(V)e^{−β₀t}. Equality for orthogonal V "
              "(the corrected claim). Defective W are limits of diagonalizable ones but κ₂(V) → ∞: "
              "no bound in terms of β₀ alone exists for them (W.lyapunov-bound's counterexample is "
              "defective).",
    ),
]
