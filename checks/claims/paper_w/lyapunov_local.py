"""W.lyapunov-local: Lemma A.9 of paper W, |vᵀ(Wᵀ Diag(v)² P + P Diag(v)² W) v| ≤ L|v|₂² for |v|₂ ≤ Υ.

Two readings of "there is Υ > 0 (any 0 < Υ ≤ √(β₀L/M₀))": the existential one (verified, with the
witness Υ = √(L/(2‖W‖₂‖P‖₂))) and the explicit one (refuted, even for normal W), with a corrected
explicit radius √(β₀L/(n M₀ κ₂(V)²)).

By homogeneity (q(v) := vᵀ(WᵀDiag(v)²P + PDiag(v)²W)v is a quartic form), the inequality for every
|v|₂ ≤ Υ is equivalent to Υ²·|q(d)| ≤ L·|d|₂⁴ for every direction d: the checks below evaluate the
ratio |q(d)|/|d|₂⁴ over directions and compare it with the constant each reading implies (L/Υ²).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend

QUOTE = ("Lemma A.9. Assume is a sequence of Hurwitz matrices with eigenvalues bounded away from 0: "
         "| (88) | Assume the max norms for matrices are uniformly bounded: | (89) | Define the solution "
         "to the following Lyapunov equation to be : | (90) | We show that for any positive constant , "
         "there exists an such that the following inequality holds for any and : | (91) |")
QUOTE_PROOF = ("First, by the property of matrix and vector norm: | (92) | (93) | Notice that the second "
               "inequality holds as a direct result for Lemma A.8.")
WHERE = "App. A.10, Lemma A.9 (eq. 88–103)"
READING_EXISTS = ("existential: for each L > 0 some Υ > 0 works; the parenthesis names one choice "
                  "and is not part of the assertion")
READING_EXPLICIT = ("explicit: every 0 < Υ ≤ √(β₀L/M₀) works, where |W_ij| ≤ M₀ and "
                    "sup_i Re λ_i(W) ≤ −β₀ < 0")


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


def ratio_in(backend: AbstractBackend, w: Any, dirs: list[list[Fraction]], cond: Any
             ) -> tuple[lc.Value, lc.Value, mpmath.mpf, list[Fraction]]:
    """(max_d |q(d)|/|d|⁴, 2‖W‖₂‖P‖₂, tolerance of the ratio, the maximising direction) in
    ``backend``. Balls in flint (certified); float/mpmath values carry the tolerance
    c·n·κ(L)·u·2‖W‖₂‖P‖₂ (q is linear in P, |q(d)| ≤ 2‖W‖₂‖P‖₂|d|⁴)."""
    kind = backend.spec.kind
    bits = backend.precision_bits
    n = int(w.nrows())
    p = lc.solve_in(backend, w)
    if kind == "flint":
        return _ratio_flint(w, p, dirs, bits)
    from recmem.numerics.lyapunov import to_float64, to_mp

    if kind == "mpmath":
        ctx = mpmath.MPContext()
        ctx.prec = bits
        wm, pm = to_mp(w, ctx), ctx.matrix(p)
        best, arg = ctx.mpf(-1), dirs[0]
        for d in dirs:
            dv = ctx.matrix([[ctx.mpf(x.numerator) / x.denominator] for x in d])
            pd, wd = pm * dv, wm * dv
            q = 2 * ctx.fsum(pd[i] * dv[i] ** 2 * wd[i] for i in range(n))
            r = abs(q) / ctx.fsum(x ** 2 for x in dv) ** 2
            if r > best:
                best, arg = r, d
        wn = max(ctx.svd_r(wm, compute_uv=False))
        pn = max(ctx.eigsy((pm + pm.T) / 2, eigvals_only=True))
        const = 2 * wn * pn
    else:
        import numpy as np

        dm = np.array([[float(x) for x in d] for d in dirs])
        if kind == "torch":
            import torch

            dev = backend.spec.device or "cpu"
            wt = torch.as_tensor(to_float64(w), dtype=torch.float64, device=dev)
            dt = torch.as_tensor(dm, dtype=torch.float64, device=dev)
            q = 2 * ((dt @ p.T) * dt ** 2 * (dt @ wt.T)).sum(dim=1)
            rs = (q.abs() / (dt ** 2).sum(dim=1) ** 2).cpu().numpy()
            const = float(2 * torch.linalg.matrix_norm(wt, ord=2) * torch.linalg.eigvalsh(p)[-1])
        else:
            wf = to_float64(w)
            q = 2 * ((dm @ p.T) * dm ** 2 * (dm @ wf.T)).sum(axis=1)
            rs = np.abs(q) / (dm ** 2).sum(axis=1) ** 2
            const = float(2 * np.linalg.norm(wf, 2) * np.linalg.eigvalsh(p)[-1])
        k = int(np.argmax(rs))
        best, arg = float(rs[k]), dirs[k]
    n_eff = n * n if kind == "mpmath" else n
    tol_abs = lc.C_TOL * n_eff * cond.value * backend.unit_roundoff * mpmath.mpf(const)
    return (lc.Value.point(mpmath.mpf(best) if isinstance(best, float) else best, bits),
            lc.Value.point(mpmath.mpf(const) if isinstance(const, float) else const, bits), tol_abs, arg)


def _ratio_flint(w: Any, p: Any, dirs: list[list[Fraction]], bits: int
                 ) -> tuple[lc.Value, lc.Value, mpmath.mpf, list[Fraction]]:
    import flint

    with flint.ctx.workprec(bits):
        wa = flint.arb_mat(w)
        n = wa.nrows()
        best: Any = None
        arg = dirs[0]
        for d in dirs:
            dv = flint.arb_mat([[flint.fmpq(x.numerator, x.denominator)] for x in d])
            pd, wd = p * dv, wa * dv
            q = 2 * sum((pd[i, 0] * dv[i, 0] * dv[i, 0] * wd[i, 0] for i in range(n)), flint.arb(0))
            d2 = sum((dv[i, 0] * dv[i, 0] for i in range(n)), flint.arb(0))
            r = abs(q) / (d2 * d2)  # x*x, not x**2 (NaN for balls containing 0)
            if best is None or r.mid() > best.mid():
                best, arg = r, d
        wn = lc.lmax(wa.transpose() * wa, "flint", bits)
        pn = lc.lmax(p, "flint", bits)
    ctx = lc.hp(bits)
    lo = 2 * ctx.sqrt(max(ctx.mpf(wn.lo), ctx.mpf(0))) * ctx.mpf(pn.lo)
    hi = 2 * ctx.sqrt(ctx.mpf(wn.hi)) * ctx.mpf(pn.hi)
    const = lc.Value(lc._widen(lo, ctx, bits, False), lc._widen(hi, ctx, bits, True), True, bits)
    return lc.ball_value(best, bits), const, mpmath.mpf(0), arg


# ---- existential reading (and the witness Υ) ------------------------------------------------------

def symbolic_exists(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import local_quartic_proof

    proof, sec = lc.proof_time(lambda: local_quartic_proof(3))
    return [from_proof(proof, sec)]


def _cond(ctx: Context, d: Any) -> Any:
    from recmem.numerics.lyapunov import condition_certified

    return lc.cached(ctx, f"cond/{d}", lambda: condition_certified(d.W))


def numeric_exists(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    d = lc.draw_from(ctx)
    cond = _cond(ctx, d)
    t0 = time.perf_counter()
    dirs = direction_set(d.n, d.seed, int(ctx["directions"]))
    val, const, tol_abs, arg = ratio_in(backend, d.W, dirs, cond)
    return [lc.compare(
        f"max_d |q(d)|/|d|⁴ ≤ 2‖W‖₂‖P‖₂ = L/Υ² for the witness Υ = √(L/(2‖W‖₂‖P‖₂)) ({d}, "
        f"{len(dirs)} directions)", backend, val, const, relation="le", tol_abs=tol_abs,
        tol_text=f"c·n·κ(L)·u·2‖W‖₂‖P‖₂, c={lc.C_TOL}, κ(L)={cond}" if tol_abs else "ball arithmetic",
        kappa_text=str(cond), t0=t0, data={"maximising direction": str([str(x) for x in arg])})]


def _witness_bounds(w: Any, p: Any) -> tuple[Fraction, Fraction, Fraction | None, Fraction | None]:
    """Rational (lower, lower, upper, upper) bounds of ‖W‖₂² and ‖P‖₂ (Rayleigh; PSD tests)."""
    wtw = w.transpose() * w
    return lc.lmax_lower(wtw), lc.lmax_lower(p), lc.lmax_upper(wtw), lc.lmax_upper(p)


def holds_exists(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    from recmem.numerics import lyapunov as ly

    w = ly.fmpq_matrix(inst.W)
    p = ly.exact(w).P
    w2_lo, p_lo, w2_hi, p_hi = _witness_bounds(w, p)
    values = {**inst.record(), "d": str([str(x) for x in inst.extra["d"]])}
    undecided = False
    # witness Υ² = L/(2‖W‖₂‖P‖₂); along d the claim is |q(d)| ≤ 2‖W‖₂‖P‖₂|d|⁴ (L cancels)
    for d in lc.candidate_directions(w, p, inst.extra["d"]):
        q = lc.local_q(w, p, d)
        d4 = sum((x * x for x in d), Fraction(0)) ** 2
        if q * q <= 4 * w2_lo * p_lo * p_lo * d4 * d4:
            continue
        if w2_hi is not None and p_hi is not None and q * q > 4 * w2_hi * p_hi * p_hi * d4 * d4:
            return Instance(False, "exact over ℚ: q(d)² exceeds a certified upper bound of "
                                   "(2‖W‖₂‖P‖₂|d|⁴)²", values | {"d": str([str(x) for x in d]),
                                                                 "q(d)": str(q)})
        undecided = True
    if undecided:
        return Instance(None, "undecided", values)
    return Instance(True, "exact over ℚ: q(d)² ≤ 4·ℓ_W·ℓ_P²·|d|⁸ with rational lower bounds "
                          "ℓ_W ≤ ‖W‖₂², ℓ_P ≤ ‖P‖₂ (Rayleigh quotients), for the drawn d and the "
                          "candidate directions", values)


# ---- explicit reading (refuted) --------------------------------------------------------------------

def symbolic_explicit(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import local_explicit_counterexample

    proof, sec = lc.proof_time(local_explicit_counterexample)
    return [from_proof(proof, sec)]


def _m0(w: Any) -> Fraction:
    from recmem.numerics.lyapunov import fractions

    return max(abs(x) for row in fractions(w) for x in row)


def numeric_explicit(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    from recmem.numerics.lyapunov import condition_certified, fmpq_matrix

    ex = fmpq_matrix([[-1, 1], [0, -1]])
    cases: list[tuple[str, Any, Fraction, Any]] = [
        ("W = [[−1, 1], [0, −1]]", ex, Fraction(1),
         lc.cached(ctx, "cond/explicit-example", lambda: condition_certified(ex)))]
    d = lc.draw_from(ctx)
    cases.append((str(d), d.W, -d.abscissa, _cond(ctx, d)))
    out = []
    for label, w, beta0, cond in cases:
        t0 = time.perf_counter()
        m0 = _m0(w)
        dirs = direction_set(int(w.nrows()), 0, int(ctx["directions"]))
        val, _, tol_abs, arg = ratio_in(backend, w, dirs, cond)
        bound = m0 / beta0

        def again(bits: int, w: Any = w, dirs: Any = dirs, cond: Any = cond) -> lc.Value:
            return ratio_in(lc.backend_at(backend, bits), w, dirs, cond)[0]

        out.append(lc.compare(
            f"max_d |q(d)|/|d|⁴ ≤ M₀/β₀ = L/Υ² at Υ = √(β₀L/M₀) ({label}, M₀ = max|W_ij| = {m0}, "
            f"β₀ = −α(W) = {beta0})", backend, val, bound, relation="le", tol_abs=tol_abs,
            tol_text=f"c·n·κ(L)·u·2‖W‖₂‖P‖₂, κ(L)={cond}" if tol_abs else "ball arithmetic",
            kappa_text=str(cond), t0=t0, data={"maximising direction": str([str(x) for x in arg])},
            recompute=again, counterexample={"W": label, "M0": str(m0), "beta0": str(beta0),
                            "direction": str([str(x) for x in arg]),
                            "max |q(d)|/|d|^4": str(val)}))
    return out


def holds_explicit(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    from recmem.numerics import lyapunov as ly

    w = ly.fmpq_matrix(inst.W)
    p = ly.exact(w).P
    m0 = _m0(w) * inst.extra["m0_factor"]  # any M₀ ≥ max|W_ij|
    ups2 = inst.beta0 / m0  # Υ² for L = 1 (the reading is L-free by homogeneity)
    values = {**inst.record(), "M0": str(m0), "L": "1", "Upsilon^2": str(ups2),
              "d": str([str(x) for x in inst.extra["d"]])}
    cands = lc.candidate_directions(w, p, inst.extra["d"], lattice=True)
    # float screen, then exact decisions: the drawn d always, others only where the screen flags
    screen = lc.float_ratios(w, p, cands) * float(inst.beta0 / m0)
    for k, d in enumerate(cands):
        if k > 0 and screen[k] <= 1 - 1e-9:
            continue
        q = lc.local_q(w, p, d)
        d2 = sum((x * x for x in d), Fraction(0))
        if inst.beta0 * abs(q) <= m0 * d2 * d2:
            continue
        # a rational v = s·d with |v|² ≤ Υ² and |q(v)| > L|v|²: s² ∈ (|d|²/|q(d)|, Υ²/|d|²]
        s = lc.rational_scale(d2 / abs(q), ups2 / d2)
        values |= {"direction": str([str(x) for x in d]), "q(direction)": str(q)}
        if s is not None:
            v = [s * x for x in d]
            values |= {"v": str([str(x) for x in v]), "|v|^2": str(s * s * d2),
                       "|q(v)|": str(abs(q) * s ** 4), "L|v|^2": str(s * s * d2)}
        return Instance(False, "exact over ℚ: |q(v)| > L|v|₂² at a rational v with "
                               "|v|₂² ≤ Υ² = β₀L/M₀", values)
    return Instance(True, "exact over ℚ: β₀|q(d)| ≤ M₀|d|⁴ for the drawn d and the candidate "
                          "directions", values)


def _explicit_extras(draw: Any, n: int) -> dict[str, Any]:
    from hypothesis import strategies as st

    return {**lc.directions(draw, n),
            "m0_factor": draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(3, 2)]))}


# ---- explicit reading, corrected ---------------------------------------------------------------

def symbolic_corrected(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import local_explicit_corrected_proof

    proof, sec = lc.proof_time(local_explicit_corrected_proof)
    return [from_proof(proof, sec)]


def numeric_corrected(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    d = lc.draw_from(ctx, kind="diagonalizable")
    cond = _cond(ctx, d)
    t0 = time.perf_counter()
    kind = backend.spec.kind
    dirs = direction_set(d.n, d.seed, int(ctx["directions"]))
    val, _, tol_abs, arg = ratio_in(backend, d.W, dirs, cond)
    kv = lc.kappa_v(d.V, kind, backend.precision_bits, backend.spec.device or "cpu")
    m0, beta0, n = _m0(d.W), -d.abscissa, d.n
    bound = kv.square().scale(n * m0 / beta0)
    return [lc.compare(
        f"max_d |q(d)|/|d|⁴ ≤ n·M₀·κ₂(V)²/β₀ = L/Υ² at Υ = √(β₀L/(nM₀κ₂(V)²)) ({d}, M₀ = {m0}, "
        f"κ₂(V) = {mpmath.nstr(kv.mid, 6)})", backend, val, bound, relation="le", tol_abs=tol_abs,
        tol_text=f"c·n·κ(L)·u·2‖W‖₂‖P‖₂, κ(L)={cond}" if tol_abs else "ball arithmetic",
        kappa_text=str(cond), t0=t0, data={"maximising direction": str([str(x) for x in arg])})]


def holds_corrected(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    from recmem.numerics import lyapunov as ly

    assert inst.V is not None
    w = ly.fmpq_matrix(inst.W)
    p = ly.exact(w).P
    v = ly.fmpq_matrix(inst.V)
    m0 = _m0(w) * inst.extra["m0_factor"]
    k2_lo = lc.lmax_lower(v.transpose() * v) * lc.lmax_lower(lc.inverse_gram(v))  # ≤ κ₂(V)²
    values = {**inst.record(), "M0": str(m0), "d": str([str(x) for x in inst.extra["d"]]),
              "kappa2(V)^2 >=": str(k2_lo)}
    for d in lc.candidate_directions(w, p, inst.extra["d"]):
        q = lc.local_q(w, p, d)
        d2 = sum((x * x for x in d), Fraction(0))
        if inst.beta0 * abs(q) > inst.n * m0 * k2_lo * d2 * d2:
            return Instance(None, "undecided (only a lower bound of κ₂(V)² was formed)",
                            values | {"direction": str([str(x) for x in d]), "q": str(q)})
    return Instance(True, "exact over ℚ: β₀|q(d)| ≤ n·M₀·ℓ·|d|⁴ with ℓ ≤ κ₂(V)² (Rayleigh), for the "
                          "drawn d and the candidate directions", values)


# ---- claims ---------------------------------------------------------------------------------------

STATEMENT = ("Lemma A.9: with |W_ij| ≤ M₀, for any L > 0 there is Υ > 0 (any 0 < Υ ≤ √(β₀L/M₀)) such "
             "that |vᵀ(Wᵀ Diag(v)² P + P Diag(v)² W) v| ≤ L |v|₂² whenever |v|₂ ≤ Υ")


def _params(n: int, kind: str | None = "nonnormal") -> tuple[Param, ...]:
    base: tuple[Param, ...] = (lc.p_n(n),)
    if kind is not None:
        base += (lc.p_kind(kind), lc.p_departure())
    return (*base, lc.p_draw(),
            Param("directions", 24, "random directions d (besides e_i, e_i ± e_j)", int,
                  check=at_least(0)),
            lc.p_n_search(3))


def _strategy(family: str, extras: Callable[[Any, int], Any]) -> Callable[[Context], Any]:
    return lambda ctx: lc.hurwitz_instances(1, int(ctx["n_search"]), family, extras=extras)


CLAIMS = [
    Claim(
        id="W.lyapunov-local",
        title="Lemma A.9 (existential reading)",
        statement=STATEMENT,
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance="exact over ℚ in the search (rational Rayleigh bounds of ‖W‖₂, ‖P‖₂); enclosure "
                  "(flint balls of q(d), ‖W‖₂, ‖P‖₂); floats: c·n·κ(L)·u·2‖W‖₂‖P‖₂",
        uses=("W.lyapunov",),
        params=_params(3),
        symbolic=symbolic_exists,
        numeric=numeric_exists,
        strategy=_strategy("all", lc.directions),
        holds=holds_exists,
        reading=READING_EXISTS,
        notes="Witness Υ = √(L/(2‖W‖₂‖P‖₂)) from |q(v)| ≤ 2‖P‖₂‖W‖₂|v|_∞²|v|₂². In the paper the "
              "lemma is about a sequence W_m; a uniform Υ then needs sup_m ‖P_m‖₂ < ∞, which the "
              "bound |W_ij| ≤ M₀ gives by compactness, not Lemma A.8 (refuted).",
    ),
    Claim(
        id="W.lyapunov-local.explicit",
        title="Lemma A.9 (explicit reading: Υ ≤ √(β₀L/M₀))",
        statement=STATEMENT,
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance="exact over ℚ (SymPy instances, the search); enclosure (flint); floats: "
                  "c·n·κ(L)·u·2‖W‖₂‖P‖₂; mpmath violations recomputed at doubled precision",
        uses=("W.lyapunov-local", "W.lyapunov-bound"),
        params=_params(3),
        symbolic=symbolic_explicit,
        numeric=numeric_explicit,
        strategy=_strategy("all", _explicit_extras),
        holds=holds_explicit,
        reading=READING_EXPLICIT,
        notes="Fails for two reasons: ‖P‖₂ ≤ 1/(2β₀) (Lemma A.8) is false for non-normal W, and the "
              "proof's ‖W‖₂ ≤ M₀ confuses the max-norm bound |W_ij| ≤ M₀ with the spectral norm "
              "(‖W‖₂ ≤ nM₀ only): the normal W = [[−1, 1], [−1, −1]] (P = I/2) already violates it "
              "at v = (25/26, −5/26), L = 1, Υ = 1.",
    ),
    Claim(
        id="W.lyapunov-local.explicit.corrected",
        title="Lemma A.9 with the radius √(β₀L/(n M₀ κ₂(V)²))",
        statement="with |W_ij| ≤ M₀, sup_i Re λ_i(W) ≤ −β₀ < 0 and W = V B V⁻¹ (B normal), for any "
                  "L > 0 and any 0 < Υ ≤ √(β₀L/(n M₀ κ₂(V)²)): |vᵀ(Wᵀ Diag(v)² P + P Diag(v)² W) v| "
                  "≤ L |v|₂² whenever |v|₂ ≤ Υ",
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_PROOF),
        tolerance="exact over ℚ in the search (rational lower bound of κ₂(V)²); enclosure (flint: "
                  "certified κ₂(V)); floats: c·n·κ(L)·u·2‖W‖₂‖P‖₂",
        uses=("W.lyapunov-local", "W.lyapunov-bound.weak"),
        params=_params(4, None),
        symbolic=symbolic_corrected,
        numeric=numeric_corrected,
        strategy=_strategy("diagonalizable", _explicit_extras),
        holds=holds_corrected,
        corrects="W.lyapunov-local.explicit",
        reading=READING_EXPLICIT,
        notes="For normal W (κ₂(V) = 1) the radius is √(β₀L/(nM₀)): the printed one divided by √n.",
    ),
]
