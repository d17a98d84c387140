"""W.rnn-linear-memory: a linear RNN has ρ(t)ᵀ = cᵀe^{Wt}U, and for Hurwitz W its memory "decays
exponentially at rate −max Re λ(W)" (W §2, App. A).

The first half holds for every W. The rate half is ambiguous; each reading is its own claim:

- ``W.rnn-linear-memory`` (reading: the exact asymptotic rate, limsup (1/t) log M(t) = max Re λ(W)):
  REFUTED — when c or U is blind to the slowest mode the rate is faster (W = diag(−1, −2),
  U = (1, 1)ᵀ, c = (0, 1)ᵀ: M(t) = e^{−2t});
- ``W.rnn-linear-memory.bound`` (reading: M(t) ≤ C e^{max Re λ(W)·t}): REFUTED — for a defective W
  (App. I.1's [[1, 1], [−4, −3]], U = e₁, c = e₁) M(t) = (1 + 2t)e^{−t};
- ``W.rnn-linear-memory.corrected``: limsup (1/t) log M(t) = α_{c,U}, the largest real part of the
  poles of cᵀ(sI − W)⁻¹U (the exponents ρ actually contains), α_{c,U} ≤ max Re λ(W) < 0, hence
  e^{βt}M(t) → 0 for every β < −max Re λ(W) (exponentially decaying memory, Def. 3.2).

Numerics: the matrix exponential in every arithmetic (scipy expm, mpmath expm at P bits,
torch.linalg.matrix_exp, flint arb_mat.exp) against a 2P-bit reference with c·m·κ_exp·u, κ_exp from
the Kronecker form of the Fréchet derivative; the integrated RNN's memory (DOP853, RK4, Taylor)
against |cᵀe^{Wt}U|₁; the observed rates of the counterexamples.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend

QUOTE = ("The works in Li et al. (2020; 2022) study the approximation of functional sequences satisfying "
         "Definition 2.1 by linear RNNs. … its approximation using linear RNNs can be reduced to the study "
         "of the approximation of by exponential sums of the form . … Define , where are the eigenvalues "
         "of in . Assume the parameters are uniformly bounded and there exists a constant such that , "
         "then we have | (26) |")
STATEMENT = ("A linear RNN (σ = id, b = 0) has ρ(t)ᵀ = cᵀ e^{Wt} U; for Hurwitz W its memory decays "
             "exponentially at rate −max Re λ(W)")


def _instances(ctx: Context) -> dict[str, tuple[Any, Any, Any]]:
    """The fixed exact instances and ``draws`` seeded 3×3 non-normal Hurwitz draws."""
    from recmem.theory.memory import INSTANCES

    out = dict(INSTANCES)
    for k in range(int(ctx["draws"])):
        out[f"random 3×3 Hurwitz draw {k} (seed {ctx.seed + k})"] = mm.hurwitz_draw(ctx.seed + k)
    return out


# ---- symbolic sides ----------------------------------------------------------------------------

def _symbolic(reading: str) -> Any:
    def run(ctx: Context) -> list[Evidence]:
        from recmem.theory.memory import linear_rnn_kernel_proof, linear_rnn_rate_proof

        t0 = time.perf_counter()
        out = []
        if reading == "corrected":
            out.append(from_proof(linear_rnn_kernel_proof(), time.perf_counter() - t0,
                                      "symbolic: ρᵀ = cᵀe^{Wt}U"))
        t1 = time.perf_counter()
        out.append(from_proof(linear_rnn_rate_proof(reading), time.perf_counter() - t1,
                                  f"symbolic: decay rate ({reading} reading)"))
        return out
    return run


# ---- counterexample search (2×2 Hurwitz W, exact transfer functions) ----------------------------

def strategy(ctx: Context) -> Any:
    """Hurwitz 2×2 W with entries in ½ℤ ∩ [−2, 2], U ∈ (½ℤ ∩ [−1, 1])^{2×d}, d ∈ {1, 2}, nonzero c, U."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in
    from recmem.theory.memory import hurwitz_2x2

    q2, q1 = fractions_in(-2, 2, 2), fractions_in(-1, 1, 2)
    w = st.lists(q2, min_size=4, max_size=4).map(lambda v: [[v[0], v[1]], [v[2], v[3]]]).filter(hurwitz_2x2)
    c = st.lists(q1, min_size=2, max_size=2).filter(any)

    def with_u(d: int) -> Any:
        return st.lists(st.lists(q1, min_size=d, max_size=d), min_size=2, max_size=2).filter(
            lambda u: any(any(r) for r in u))
    return st.tuples(w, st.sampled_from([1, 2]).flatmap(with_u), c)


def _decide(instance: Any, reading: str) -> Instance:
    from recmem.theory.memory import rate_structure_2x2

    w, u, c = instance
    r = rate_structure_2x2(w, u, c)
    holds = r["top_order"] >= 1 if reading == "exact" else r["top_order"] <= 1
    values = {"W": [[str(v) for v in row] for row in w], "U": [[str(v) for v in row] for row in u],
              "c": [str(v) for v in c], "max Re λ(W)": r["alpha_w"],
              "limsup (1/t) log M(t)": r["alpha_cU"],
              "order of the pole at max Re λ(W), per input": r["orders"]}
    detail = {"exact": "no input coordinate sees the slowest mode: the rate is faster than −max Re λ(W)",
              "bound": "a double pole at max Re λ(W): M(t) ~ t·e^{max Re λ(W)·t}, no constant C"}[reading]
    return Instance(holds, "exact rational arithmetic (transfer function cᵀ adj(sI − W)U / det(sI − W) "
                    "over ℚ, cancellation by exact root test)", values, "" if holds else detail)


# ---- numerics ----------------------------------------------------------------------------------

def _slope_evidence(backend: AbstractBackend, ctx: Context, reading: str) -> list[Evidence]:
    """The counterexamples in ``backend``'s arithmetic: observed rates / growth vs the claim."""
    from recmem.theory.memory import BOUND_COUNTEREXAMPLE, INSTANCES

    t0 = time.perf_counter()
    mp = mm.mp_context(max(backend.precision_bits, 53) + 32)
    if reading == "exact":
        names = ["c ⟂ slowest mode", "U ⟂ slowest mode, non-normal"]
        worst, rows = mpmath.mpf(0), []
        for name in names:
            w, u, c = INSTANCES[name]
            t1, t2 = Fraction(4), Fraction(8)
            m1, m2 = (_memory_at(backend, w, u, c, t, mp) for t in (t1, t2))
            slope = (mp.log(m2[0]) - mp.log(m1[0])) / mm.mq(mp, t2 - t1)
            # error of the slope: relative errors of M over the time gap (c·m·κ·u each)
            err = (m1[1] + m2[1]) / mm.mq(mp, t2 - t1)
            worst = max(worst, abs(slope - (-1)))
            rows.append({"instance": name, "observed rate (t = 4 → 8)": mp.nstr(slope, 12),
                         "claimed": "-1 (= max Re λ(W))", "slope error bound": mp.nstr(err, 3)})
        ok = worst <= max(mpmath.mpf(r["slope error bound"]) for r in rows)
        return [Evidence(check="observed decay rate of M(t) = |cᵀe^{Wt}U|₁ for W = diag(−1, −2) with a "
                               "mode-blind c or U", kind="numeric", backend=backend.name,
                         outcome=Outcome.PASS if ok else Outcome.FAIL, precision_bits=backend.precision_bits,
                         instances=len(rows), residual=tol.fmt(worst), tolerance=rows[0]["slope error bound"],
                         tolerance_source="(δM(4)/M(4) + δM(8)/M(8))/4 with δM/M ≤ 4·m·κ·u, κ as in "
                                          "the e^{Wt} check (flint: ball radii)",
                         message="ρ(t) = e^{−2t}: the rate is −2 at every t, not max Re λ(W) = −1",
                         seconds=time.perf_counter() - t0, data={"instances": rows})]
    w, u, c = INSTANCES[BOUND_COUNTEREXAMPLE]
    rows, vals, exact = [], [], []
    for t in (Fraction(4), Fraction(8), Fraction(16), Fraction(32)):
        m_t, _ = _memory_at(backend, w, u, c, t, mp)
        g = m_t * mp.exp(mm.mq(mp, t))
        vals.append(g)
        exact.append(1 + 2 * mm.mq(mp, t))  # ρ = (1 + 2t)e^{−t} (symbolic side)
        rows.append({"t": str(t), "M(t)·e^{t}": mp.nstr(g, 12), "exact 1 + 2t": str(1 + 2 * t)})
    # measured relative error against the closed form; growth must exceed it to count
    err = max(abs(v - e) / e for v, e in zip(vals, exact, strict=True))
    grows = err < mpmath.mpf(1) / 8 and all(b - a > err * (a + b) for a, b in itertools.pairwise(vals))
    return [Evidence(check="M(t)·e^{−max Re λ(W)·t} for App. I.1's defective W (U = c = e₁)", kind="numeric",
                     backend=backend.name, outcome=Outcome.FAIL if grows else Outcome.INCONCLUSIVE,
                     precision_bits=backend.precision_bits, instances=len(rows), residual=tol.fmt(err),
                     tolerance="1/8",
                     tolerance_source="relative error of M(t)e^{t} against the exact 1 + 2t; growth counts "
                                      "where it exceeds that error",
                     message="M(t)e^{t} = 1 + 2t increases without bound along t = 4, 8, 16, 32: no C with "
                             "M(t) ≤ C e^{−t}" if grows else "growth not resolved",
                     seconds=time.perf_counter() - t0, data={"values": rows})]


def _memory_at(backend: AbstractBackend, w: Any, u: Any, c: Any, t: Fraction, mp: Any) -> tuple[Any, Any]:
    """(|cᵀe^{Wt}U|₁ in ``backend``'s arithmetic, its relative error bound 4·m·κ_exp·u (or the ball's
    relative radius for flint))."""
    if backend.spec.kind == "flint":
        from recmem.numerics.flint_backend import arb_to_mpf

        e = mm.expm_ball(w, t)
        m, d = len(c), len(u[0])
        tot = mm._fq(Fraction(0))
        for j in range(d):
            tot += abs(sum(mm._fq(c[i]) * e[i, k] * mm._fq(u[k][j]) for i in range(m) for k in range(m)))
        mid = arb_to_mpf(tot, mp)  # exact midpoint
        return mid, arb_to_mpf(tot.rad(), mp) / mid
    e = mm.expm_point(backend, w, t, mp)
    kappa = mm.expm_kappa(w, t)
    return mm.kernel_l1(e, u, c, mp), 4 * len(c) * kappa * backend.unit_roundoff


def _expm_evidence(backend: AbstractBackend, ctx: Context) -> Evidence:
    """e^{Wt} in ``backend`` vs a 2P-bit reference, judged by c·m·κ_exp·u (flint: enclosure)."""
    t0 = time.perf_counter()
    insts = _instances(ctx)
    times = [Fraction(1), Fraction(4)]
    bits = backend.precision_bits
    ref_bits = 2 * max(bits, 53) + 32
    mp = mm.mp_context(ref_bits)
    if backend.spec.kind == "flint":
        contains, worst = True, mpmath.mpf(0)
        for w, _, _ in insts.values():
            for t in times:
                ball, ref = mm.expm_ball(w, t), mm.expm_reference(w, t, ref_bits)
                for i in range(len(w)):
                    for j in range(len(w)):
                        x = ball[i, j]
                        contains &= bool(_arb_contains(x, ref[i, j]))
                        worst = max(worst, mpmath.mpf(float(x.rad())))
        max_width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(bits // 4))
        j = tol.enclosure(contains, worst, max_width, bits)
        return Evidence(check="e^{Wt} (arb_mat.exp) encloses the 2P-bit reference", kind="numeric",
                        backend=backend.name, outcome=j.outcome, precision_bits=bits,
                        instances=len(insts) * len(times), residual=tol.fmt(worst), tolerance=j.tolerance,
                        tolerance_source=j.source, enclosure=f"all entries contain the reference: {contains}",
                        certified_by=None if contains else "ball arithmetic: an entry excludes the reference",
                        seconds=time.perf_counter() - t0)
    worst_ratio, rows = mpmath.mpf(0), []
    for name, (w, _, _) in insts.items():
        for t in times:
            key = ("expm-ref", name, t, ref_bits)
            if key not in ctx.cache:
                ctx.cache[key] = mm.expm_reference(w, t, ref_bits)
            if ("expm-kappa", name, t) not in ctx.cache:
                ctx.cache[("expm-kappa", name, t)] = mm.expm_kappa(w, t)
            ref, kappa = ctx.cache[key], ctx.cache[("expm-kappa", name, t)]
            res = mm.rel_fro(mm.expm_point(backend, w, t, mp), ref, mp)
            j = tol.condition_scaled(res, c=4.0, n=len(w), kappa=kappa, unit_roundoff=backend.unit_roundoff,
                                     kappa_text=tol.fmt(kappa) or "?")
            if j.outcome is Outcome.INCONCLUSIVE:
                return Evidence(check="e^{Wt} vs 2P-bit reference", kind="numeric", backend=backend.name,
                                outcome=Outcome.INCONCLUSIVE, residual=tol.fmt(res), tolerance=j.tolerance,
                                tolerance_source=j.source, needed_bits=j.needed_bits)
            bound = 4 * len(w) * kappa * backend.unit_roundoff
            worst_ratio = max(worst_ratio, res / bound)
            rows.append({"instance": name, "t": str(t), "residual": tol.fmt(res), "κ_exp": tol.fmt(kappa)})
    return mm.judged("e^{Wt} (" + {"numpy": "scipy.linalg.expm", "torch": "torch.linalg.matrix_exp",
                                    "mpmath": "mpmath expm"}[backend.spec.kind] + ") vs 2P-bit reference",
                     backend, worst_ratio, 1,
                     "‖Ê − E‖_F/‖E‖_F ≤ 4·m·κ·u, κ = (‖Wt‖₂ + 2^s)e^{‖Wt‖₂}/‖e^{Wt}‖₂ (bound of κ_exp plus s "
                     "squarings; Higham 2008 Lemma 10.15, §10.3) at 64 bits; residual "
                     "as a multiple of the bound", t0,
                     instances=len(rows), data={"points": rows})


def _arb_contains(x: Any, v: Any) -> bool:
    """Whether the arb ball x contains the mpmath number v (compared through an exact dyadic)."""
    import flint

    sign, man, exp, _ = v._mpf_  # exact: the reference keeps its own precision
    value = flint.arb(flint.fmpz(int(man))) * flint.arb(2) ** int(exp)
    return bool(x.contains(-value if sign else value))


def _rnn_evidence(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The integrated linear RNN's queried memory vs |cᵀe^{Wt}U|₁ (2P-bit reference)."""
    from recmem.theory.memory import INSTANCES

    t0 = time.perf_counter()
    name = "3×3 Jordan block, non-normal"
    w, u, c = INSTANCES[name]
    rnn = mm.rnn_of(w, u, c)
    times = [Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4)]
    tf = np.array([float(q) for q in times])
    mp = mm.mp_context(160)
    exact = [mm.kernel_l1(mm.expm_reference(w, t, 160), u, c, mp) for t in times]
    kind = backend.spec.kind
    if kind == "mpmath":
        bits = min(backend.precision_bits, int(ctx["ode_bits"]))
        # the maximising vertices sign ρ(t) (from the reference), each integrated once
        signs = {tuple(1.0 if v >= 0 else -1.0 for v in _rho_row(w, u, c, t, mp)) for t in times}
        verts = np.array(sorted(signs), dtype=float)
        rates, errs, _ = mm.mp_rates(rnn, verts, tf, bits)
        lower = [max(abs(mp.mpf(r[i])) for r in rates) for i in range(len(tf))]
        err = [max(e[i] for e in errs) + 4 * mp.mpf(2) ** -bits * exact[i] for i in range(len(tf))]
        ratio = max(abs(lo - ex) / er for lo, ex, er in zip(lower, exact, err, strict=True))
        return [mm.judged(f"integrated RNN ({name}; Taylor at {bits} bits, vertices) memory vs "
                          "|cᵀe^{Wt}U|₁", backend, ratio, 1,
                          f"|rate({bits}) − rate({bits + mm.MP_EXTRA_BITS})| + 4·2^-{bits}|ρ|₁", t0,
                          bits=bits)]
    xs = mm.candidates(rnn.input_dim, (1.0,), ctx.seed)
    if kind == "numpy":
        from recmem.numerics.functionals import RNNFunctional
        from recmem.numerics.memory import memory_function

        lower = memory_function(RNNFunctional(rnn), tf, magnitudes=(1.0,), seed=ctx.seed).values
        _, errs = mm.scipy_rates(rnn, xs, tf)
        src = "max over candidates of |rate(rtol 1e-12) − rate(rtol 1e-10)| + 4u|ρ|₁"
    else:
        rates, errs3 = mm.torch_rates([rnn], xs, tf, 1e-2, mm.torch_device(backend))
        lower, errs = np.abs(rates[0]).max(axis=0), errs3[0]
        src = "max over candidates of |rate(Δt) − rate(2Δt)| (RK4, Δt = 0.01) + 4u|ρ|₁"
    ex = np.array([float(v) for v in exact])
    err = errs.max(axis=0) + 4 * mm.U64 * ex
    return [mm.judged(f"integrated RNN ({name}) queried memory vs |cᵀe^{{Wt}}U|₁", backend,
                      float(np.max(np.abs(lower - ex) / err)), 1.0, src, t0, bits=53,
                      data={"memory": np.asarray(lower).tolist(), "|c^T e^{Wt} U|_1": ex.tolist()})]


def _rho_row(w: Any, u: Any, c: Any, t: Fraction, mp: Any) -> list[Any]:
    """ρ(t)ᵀ = cᵀe^{Wt}U at 160 bits."""
    e = mm.expm_reference(w, t, 160)
    m = len(c)
    return [mp.fsum(mm.mq(mp, c[i]) * e[i, k] * mm.mq(mp, u[k][j]) for i in range(m) for k in range(m))
            for j in range(len(u[0]))]


def _numeric(reading: str) -> Any:
    def run(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
        kind = backend.spec.kind
        if kind == "torch":
            mm.torch_device(backend)
        if reading != "corrected":
            return _slope_evidence(backend, ctx, reading)
        out = [_expm_evidence(backend, ctx)]
        if kind != "flint":
            out += _rnn_evidence(backend, ctx)
        return out
    return run


def _params() -> tuple[Param, ...]:
    return (Param("draws", 1, "seeded random 3×3 non-normal Hurwitz (W, U, c) added to the fixed instances",
                  int, check=at_least(0)), mm.p_ode_bits(128))


NOTES_READINGS = ("'Decays exponentially at rate r' has two natural readings, registered separately: the "
                  "exact rate (limsup (1/t) log M(t) = −r) and the bound M(t) ≤ C e^{−rt}. Both fail for "
                  "some "
                  "Hurwitz W; every Hurwitz W does give exponentially decaying memory in Def. 3.2's sense "
                  "(e^{βt}M → 0 for β < −max Re λ(W)), which is W.rnn-linear-memory.corrected.")

CLAIMS = [
    Claim(
        id="W.rnn-linear-memory",
        title="Memory of a linear RNN: ρ = cᵀe^{Wt}U, decay rate −max Re λ(W)",
        statement=STATEMENT,
        provenance=Provenance("W", "§2 (eq. 3, 5) and App. A.3 (Thm. A.4)", QUOTE),
        tolerance="exact (ℚ transfer functions, SymPy e^{Wt}); numerics: observed rate vs claimed, slope "
                  "error from 4·m·κ_exp·u",
        params=_params(),
        symbolic=_symbolic("exact"),
        numeric=_numeric("exact"),
        strategy=strategy,
        holds=lambda inst, ctx: _decide(inst, "exact"),
        reading="exact asymptotic rate: limsup_{t→∞} (1/t) log M(t) = max Re λ(W)",
        notes=NOTES_READINGS,
    ),
    Claim(
        id="W.rnn-linear-memory.bound",
        title="Memory of a linear RNN: bound C·e^{max Re λ(W) t}",
        statement=STATEMENT,
        provenance=Provenance("W", "§2 (eq. 3, 5) and App. A.3 (Thm. A.4)", QUOTE),
        tolerance="exact (ℚ transfer functions, SymPy e^{Wt}); numerics: M(t)e^{t} vs 1 + 2t within "
                  "4·m·κ_exp·u",
        params=_params(),
        symbolic=_symbolic("bound"),
        numeric=_numeric("bound"),
        strategy=strategy,
        holds=lambda inst, ctx: _decide(inst, "bound"),
        reading="bound: M(t) ≤ C·e^{max Re λ(W)·t} for some C and all t ≥ 0",
        notes=NOTES_READINGS,
    ),
    Claim(
        id="W.rnn-linear-memory.corrected",
        title="Memory of a linear RNN: exponentially decaying at the rate of the modes c and U see",
        statement="A linear RNN (σ = id, b = 0) has ρ(t)ᵀ = cᵀe^{Wt}U for every W; for Hurwitz W, "
                  "limsup_{t→∞} (1/t) log M(t) = α_{c,U} := max{Re s : s a pole of cᵀ(sI − W)⁻¹U} "
                  "≤ max Re λ(W) < 0 (−∞ if ρ ≡ 0), so lim e^{βt}M(t) = 0 for every β < −max Re λ(W)",
        provenance=Provenance("W", "§2 (eq. 3, 5) and App. A.3 (Thm. A.4)", QUOTE),
        tolerance="symbolic (e^{Wt}, exponential polynomials); e^{Wt}: 4·m·κ_exp·u vs a 2P-bit reference "
                  "(flint: enclosure); integrated RNN: a-posteriori integration error",
        uses=("W.memory-linear", "W.memory-def"),
        params=_params(),
        symbolic=_symbolic("corrected"),
        numeric=_numeric("corrected"),
        corrects="W.rnn-linear-memory",
        notes="ρ(t) = Σ p_λ(t)e^{λt} over the poles λ of the transfer function, with deg p_λ one less than "
              "the pole's order; limsup (1/t) log|ρ|₁ is the largest Re λ present (the leading group is "
              "t^k e^{αt} times a nonzero almost-periodic function). Defective W add polynomial factors "
              "(rate unchanged in the limsup sense); mode-blind c or U make the rate faster.",
    ),
]
