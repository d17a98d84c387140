"""W.rnn-linear-memory: the memory of a linear RNN, ρ(t)ᵀ = cᵀe^{Wt}U, and its decay rate as printed in
the ICLR 2024 camera-ready (no sentence prints "decays at rate −max Re λ(W)"; see
:mod:`recmem.theory.memory_rnn`). One statement, :class:`~recmem.theory.memory_rnn.LinearRNNDecay`:

- ``W.rnn-linear-memory`` — App. A.8 eqs. (31), (36)–(41) for one linear RNN: if max Re λ(W) < −β₀
  then |v_t|₂ = |e^{Wt}v_0|₂ ≤ e^{−β₀t}|v_0|₂, constant 1. REFUTED: a non-normal W grows first
  (W = [[−2, 10], [0, −2]], v_0 = (1, 1)/√2: d/dt|e^{Wt}v_0|² = 2v_0ᵀWv_0 = 6 > 0 at t = 0).
- ``W.rnn-linear-memory.bound`` — reading: the non-strict spectral bound of A.9 eq. (47) and
  Lemma A.8 eq. (76) (max Re λ(W) ≤ −β₀) with an unspecified constant, M(t) ≤ Ce^{−β₀t}. REFUTED at
  the boundary by a defective W (App. I.1's: ρ(t) = (1 + 2t)e^{−t} with β₀ = 1).
- ``W.rnn-linear-memory.corrected`` — Thm A.4 eq. (24) for one RNN: max Re λ(W) < −β₀ ⇒
  e^{β₀t}M(t) → 0. VERIFIED (exponential-polynomial argument).

Checks: symbolic (SymPy e^{Wt} + exact probes the statement's hypothesis admits); an exact search
over 2×2 RNNs W = S W₀ S⁻¹ with closed-form e^{W₀t} and β₀ drawn at and inside the hypothesis's
boundary; numerics per arithmetic — the kernel (the simulated linear RNN's rate, the definition,
against the statement's formula evaluated with the arithmetic's matrix exponential), the printed
bound (38) on the non-normal probe (flint: certified), and for the o(1)/constant readings the trend of
e^{rt}M(t) over t = 8, 16, 32 on the probes the hypothesis admits (uncertified: FAIL at most).
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.memory_rnn import PROBES, Instance2, LinearRNNDecay

QUOTE_22 = (r"Before presenting our main results, we review known Jackson and Bernstein-type results "
            r"established for linear RNNs, corresponding to setting $\sigma(z)=z$ and b=0 in equation 1. … "
            r"its approximation using linear RNNs can be reduced to the study of the approximation of "
            r"$\rho \in L^{1}([0, \infty), \mathbb{R}^{d})$ by exponential sums of the form "
            r"$(c^{\top}e^{WsU})^{\top}$ .")
QUOTE_D = (r"The linear functional approximation is equivalent to the approximation of function $\rho(t)$ "
           r"by exponential sum $c^{\top}e^{Wt}U$ .")
QUOTE_A8 = (r"$$\sup _ {m} \max _ {i \in [ m ]} (\operatorname{Re} (\lambda_ {i} (W _ {m}))) <   - \beta_ "
            r"{0}. \tag {31}$$ … Therefore the dynamics of $v_{m,t}$ is exactly the linear system in "
            r"$t > T_{\epsilon}$ . It can be seen that for $t \geq T_{\epsilon}$ $$\left| v _ {m, t} \right| "
            r"_ {2} = \left| e ^ {W _ {m} \left(t - T _ {\epsilon}\right)} v _ {m, T _ {\epsilon}} \right| _ "
            r"{2} \tag {36}$$ $$\leq \left| e ^ {W _ {m} (t - T _ {\epsilon})} \right| _ {2} \left| v _ "
            r"{m, T "
            r"_ {\epsilon}} \right| _ {2} \tag {37}$$ $$\leq e ^ {- \beta_ {0} (t - T _ {\epsilon})} | v _ "
            r"{m, T _ {\epsilon}} | _ {2} \tag {38}$$ The model memory decays exponentially: for $t \geq "
            r"T_{\epsilon}$ , $$\left| c _ {m} ^ {\top} v _ {m, t} \right| \leq \left| c _ {m} \right| _ "
            r"{2} \left| v _ {m, T _ {\epsilon}} \right| _ {2} e ^ {- \beta_ {0} (t - T _ {\epsilon})} "
            r"\tag {39}$$")
QUOTE_A9 = (r"Similarly, we have the following uniform bound on eigenvalues of $\{W_m\}$ : $$\sup _ {m} "
            r"\max _ {i \in [ m ]} (\operatorname{Re} (\lambda_ {i} (W _ {m}))) \leq - \beta_ {0}. \tag "
            r"{47}$$")
QUOTE_A4 = (r"Define $w_{m} = \max_{j\in [m]}Re(\lambda_{j})$ , where $\{\lambda_j\}_{j=1}^m$ are the "
            r"eigenvalues of $\bar{W}$ in $\{\bar{H}_t:t\in\mathbb{R}\}$ . Assume the parameters are "
            r"uniformly bounded and there exists a constant $\beta >0$ such that $\limsup_{m\to\infty}w_m<"
            r"-\beta$ , then we have $$e ^ {\beta t} y _ {i} ^ {(k)} (t) = o (1) \text {   as   } t \to + "
            r"\infty , \quad i = 1, \dots , d, k = 1, \dots , \alpha + 1. \tag {24}$$")

# Times of the kernel check and of the trend check; the steps of the (38) check.
KERNEL_TIMES = (Fraction(1, 4), Fraction(1, 2), Fraction(1))
TREND_TIMES = (Fraction(8), Fraction(16), Fraction(32))
BOUND_TIMES = (Fraction(1, 16), Fraction(1, 8), Fraction(1, 4))
NON_NORMAL = "non-normal W = [[−2, 10], [0, −2]], U = I, c = (1, 1), β₀ = 1"


def _instances(ctx: Context) -> dict[str, tuple[Any, Any, Any]]:
    """The fixed exact instances of theory.memory and ``draws`` seeded 3×3 non-normal Hurwitz draws."""
    from recmem.theory.memory import INSTANCES

    out = dict(INSTANCES)
    for k in range(int(ctx["draws"])):
        out[f"random 3×3 Hurwitz draw {k} (seed {ctx.seed + k})"] = mm.hurwitz_draw(ctx.seed + k)
    return out


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by SymPy and the exact probes (theory.memory_rnn.linear_rnn_decay_proof)."""
    from recmem.theory.memory_rnn import linear_rnn_decay_proof

    t0 = time.perf_counter()
    return [from_proof(linear_rnn_decay_proof(ctx.law(LinearRNNDecay)), time.perf_counter() - t0)]


# ---- the counterexample search -----------------------------------------------------------------

def strategy(ctx: Context) -> Any:
    """2×2 linear RNNs W = S W₀ S⁻¹ (W₀ triangular [[λ₁, b], [0, λ₂]] or a rotation [[a, ω], [−ω, a]];
    λ, a ∈ {−2, …, 1/2} including 0 and positive values, S = [[1, s], [0, 1]]), U (2×d, d ≤ 2), c, and
    β₀ drawn from −α (the boundary), 3α/4… and small constants, kept when the statement's hypothesis
    admits them: the hypothesis is read from the statement, so a widened one is explored at once."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    law = ctx.law(LinearRNNDecay)
    lam = st.sampled_from([Fraction(v, 2) for v in (-4, -3, -2, -1, 0, 1)])
    q1 = fractions_in(-1, 1, 2)
    s_ = st.sampled_from([Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 2)])

    def build(v: tuple[Any, ...]) -> tuple[Instance2, Fraction]:
        kind, l1, l2, same, b, s, d, u, c, k = v
        if kind == "rotation" and b == 0:
            b = Fraction(1)
        # half the triangular draws have a double eigenvalue (defective when b ≠ 0)
        inst = Instance2(kind, l1, l1 if kind == "rotation" or same else l2, b, s,
                         tuple(tuple(r[:d]) for r in u), tuple(c))
        a = inst.alpha()
        # the boundary −α, points just inside it (where a faster claimed rate fails) and constants
        pool = [-a, -a * Fraction(63, 64), -a * Fraction(31, 32), -a / 2, Fraction(0), Fraction(1, 4),
                Fraction(1, 2), Fraction(1)]
        return inst, pool[k]

    u = st.tuples(st.tuples(q1, q1), st.tuples(q1, q1))
    raw = st.tuples(st.sampled_from(["triangular", "rotation"]), lam, lam, st.booleans(),
                    fractions_in(-2, 2, 2), s_,
                    st.integers(1, 2), u, st.tuples(q1, q1), st.integers(0, 7))
    # maps and a filter on the statement's hypothesis (cheaper than flatmaps)
    return raw.map(build).filter(lambda ib: law.admits(ib[0].alpha(), ib[1]))


def holds(instance: Any, ctx: Context) -> Instance:
    """Exact judge of one 2×2 instance and β₀ (theory.memory_rnn.decide)."""
    from recmem.theory.memory_rnn import decide

    inst, beta0 = instance
    ok, values = decide(ctx.law(LinearRNNDecay), inst, beta0)
    return Instance(ok, "exact rational arithmetic: closed-form e^(W₀t) (exponents and t-powers of ρ), the "
                    "log-norm / first-order test of (38), cᵀ(Wᵀ − W)U for the transposed kernel", values,
                    "" if ok else "the statement fails at this instance")


# ---- numerics ----------------------------------------------------------------------------------

def _float64_only(backend: AbstractBackend) -> None:
    if backend.spec.kind in ("numpy", "torch") and backend.spec.dtype != "float64":
        raise mm.unavailable(backend, "the simulations and matrix exponentials run in float64 only")


def _formula(law: LinearRNNDecay, backend: AbstractBackend, w: Any, t: Fraction, mp: Any) -> Any:
    """e^{Wt} or e^{Wᵀt} (the statement's kernel) in ``backend``'s arithmetic, as an mpmath matrix."""
    wt = [[w[j][i] for j in range(len(w))] for i in range(len(w))] if law.transpose else w
    return mm.expm_point(backend, wt, t, mp)


def _simulated_rates(backend: AbstractBackend, ctx: Context, w: Any, u: Any, c: Any
                     ) -> tuple[list[list[Any]], list[list[Any]], int]:
    """dŷ/dt for the inputs e_j at KERNEL_TIMES by integrating the linear RNN (the definition), with
    an a-posteriori error, in the arithmetic's integrator (memoised: a pure function)."""
    rnn = mm.rnn_of(w, u, c)
    xs = np.eye(rnn.input_dim)
    tf = np.array([float(q) for q in KERNEL_TIMES])
    kind = backend.spec.kind
    # the a-posteriori estimates |y − y_loose| can vanish at isolated times (oscillating errors): each
    # input's estimate is the envelope, the maximum over the times
    if kind == "numpy":
        rates, errs = mm.memo(("lin-rnn scipy", mm.rnn_key(rnn)), lambda: mm.scipy_rates(rnn, xs, tf))
        return rates.tolist(), np.repeat(errs.max(axis=1, keepdims=True), len(tf), axis=1).tolist(), 53
    if kind == "torch":
        rates, errs = mm.memo(("lin-rnn torch", mm.rnn_key(rnn), mm.torch_device(backend)),
                              lambda: mm.torch_rates([rnn], xs, tf, 1e-2, mm.torch_device(backend)))
        return rates[0].tolist(), np.repeat(errs[0].max(axis=1, keepdims=True), len(tf), axis=1).tolist(), 53
    bits = min(backend.precision_bits, int(ctx["ode_bits"]))
    lo, hi = mm.mp_rates_pair(rnn, xs, tf, bits)
    errs = [[abs(a - b) for a, b in zip(r1, r2, strict=True)] for r1, r2 in zip(lo, hi, strict=True)]
    return lo, errs, bits


def _kernel_evidence(backend: AbstractBackend, ctx: Context) -> Evidence:
    """The simulated rates against the statement's formula cᵀe^{Wt}Ue_j (or e^{Wᵀt})."""
    law = ctx.law(LinearRNNDecay)
    t0 = time.perf_counter()
    mp = mm.mp_context(max(backend.precision_bits, 53) + 32)
    worst, rows, outcome, cx, certified, bits = 0.0, [], Outcome.PASS, None, None, 53
    heuristic = ""
    for name, (w, u, c) in _instances(ctx).items():
        rates, errs, bits = _simulated_rates(backend, ctx, w, u, c)
        for k, t in enumerate(KERNEL_TIMES):
            e = _formula(law, backend, w, t, mp)
            kappa = mm.expm_kappa(w, t)
            for j in range(len(u[0])):
                terms = [mm.mq(mp, c[i]) * e[i, k2] * mm.mq(mp, u[k2][j])
                         for i in range(len(c)) for k2 in range(len(c))]
                formula, scale = mp.fsum(terms), mp.fsum(abs(v) for v in terms)
                err = (mp.mpf(errs[j][k]) + 4 * len(c) * kappa * backend.unit_roundoff * scale
                       + 16 * mp.mpf(2) ** -bits * scale)
                res = abs(mp.mpf(rates[j][k]) - formula)
                worst = max(worst, float(res / err))
                if res > err:
                    outcome = Outcome.FAIL
                    cx = {"instance": name, "t": str(t), "input": f"e_{j + 1}",
                          "simulated dŷ/dt": mp.nstr(rates[j][k], 12), "formula": mp.nstr(formula, 12),
                          "error bound": mp.nstr(err, 3)}
                    if backend.spec.kind == "mpmath" and res > 2**12 * err:
                        # two precisions agreeing is a heuristic error estimate, not an
                        # enclosure: the disagreement stays an uncertified FAIL
                        heuristic = (f"heuristic, not certified: the simulation at {bits} and "
                                     f"{bits + mm.MP_EXTRA_BITS} bits agree within {mp.nstr(err, 3)}, "
                                     f"the formula differs by {mp.nstr(res, 3)}")
                    break
            if outcome is not Outcome.PASS:
                break
        rows.append({"instance": name})
        if outcome is not Outcome.PASS:
            break
    engine = {"numpy": "DOP853 vs scipy.linalg.expm", "torch": "RK4 vs torch.linalg.matrix_exp",
              "mpmath": "Taylor series vs mpmath expm"}[backend.spec.kind]
    return Evidence(check=f"kernel: the simulated linear RNN's dŷ/dt for u^(e_j) ({engine}) vs the "
                          "statement's formula", kind="numeric", backend=backend.name, outcome=outcome,
                    precision_bits=bits, instances=len(rows), residual=tol.fmt(worst), tolerance="1",
                    tolerance_source="integration error (rerun at a looser tolerance / 16 more bits / 2Δt) + "
                    "4mκ_exp·u·Σ|terms| (Higham 2008 Lemma 10.15) + 16·2^-p·Σ|terms|; residual as a multiple",
                    counterexample=cx if outcome is Outcome.REFUTE else None, certified_by=certified,
                    message="" if cx is None else f"{cx['instance']}: the simulation and the formula differ"
                    + (f"; {heuristic}" if heuristic else ""),
                    seconds=time.perf_counter() - t0, data={"instances": rows})


def _ball_excess(law: LinearRNNDecay, w: Any, v: list[Fraction], t: Fraction, beta0: Fraction) -> Any:
    """|e^{Wt}v|² − (the statement's bound)², an arb enclosure at the current flint precision."""
    e = mm.expm_ball(w, t)
    vt = [sum((e[i, k] * mm._fq(v[k]) for k in range(2)), mm._fq(Fraction(0))) for i in range(2)]
    bound2 = law.state_bound_sq(mm._fq(v[0] ** 2 + v[1] ** 2), mm._fq(t), mm._fq(beta0),
                                lambda z: z.exp(), number=mm._fq)
    return vt[0] ** 2 + vt[1] ** 2 - bound2


def _ball_excess_at(law: LinearRNNDecay, w: Any, v: list[Fraction], t: Fraction, beta0: Fraction,
                    bits: int) -> Any:
    """:func:`_ball_excess` at ``bits`` bits, or None where python-flint cannot run."""
    fl = rp.flint_for(bits)
    if fl is None:
        return None
    with fl.activate():
        return _ball_excess(law, w, v, t, beta0)


def _bound_evidence(backend: AbstractBackend, ctx: Context) -> Evidence:
    """Eq. (38) on the non-normal probe: |e^{Wt}v|₂ against e^{−rt}|v|₂ for v = Ue_j, small t."""
    law = ctx.law(LinearRNNDecay)
    t0 = time.perf_counter()
    inst, beta0 = PROBES[NON_NORMAL]
    w = inst.w()
    r = law.rate(beta0)
    bits = backend.precision_bits
    rows, outcome, cx, certified, worst = [], Outcome.PASS, None, None, 0.0
    vs = [[inst.u[0][j], inst.u[1][j]] for j in range(len(inst.u[0]))] + [[Fraction(1), Fraction(1)]]
    for t in BOUND_TIMES:
        for v in vs:
            if backend.spec.kind == "flint":
                excess = _ball_excess(law, w, v, t, beta0)
                rows.append({"t": str(t), "v": [str(x) for x in v],
                             "|v_t|² − bound²": excess.str(8, radius=True)})
                if excess > 0:
                    outcome, certified = Outcome.REFUTE, "ball arithmetic: |e^(Wt)v|² − e^(−2rt)|v|² > 0"
                elif not excess < 0:
                    outcome = Outcome.INCONCLUSIVE
            else:
                mp = mm.mp_context(max(bits, 53) + 32)
                e = mm.expm_point(backend, w, t, mp)
                vt = [mp.fsum(e[i, k] * mm.mq(mp, v[k]) for k in range(2)) for i in range(2)]
                norm2 = vt[0] ** 2 + vt[1] ** 2
                bound2 = law.state_bound_sq(mm.mq(mp, v[0] ** 2 + v[1] ** 2), mm.mq(mp, t), mm.mq(mp, beta0),
                                            mp.exp, number=functools.partial(mm.mq, mp))
                err = 8 * mm.expm_kappa(w, t) * backend.unit_roundoff * (norm2 + bound2)
                excess = norm2 - bound2
                worst = max(worst, float(max(excess, 0) / err))
                rows.append({"t": str(t), "v": [str(x) for x in v], "|v_t|² − bound²": mp.nstr(excess, 6)})
                if excess > err:
                    outcome = Outcome.FAIL
                    if backend.spec.kind == "mpmath":
                        # certified only by an enclosure: the same point in ball arithmetic at
                        # twice the bits (an excess that stays put as the precision doubles is a
                        # heuristic, and stays FAIL)
                        ball = _ball_excess_at(law, w, v, t, beta0, 2 * bits)
                        if ball is not None and ball > 0:
                            outcome, certified = Outcome.REFUTE, (
                                f"ball arithmetic (python-flint) at {2 * bits} bits: "
                                f"|e^(Wt)v|² − e^(−2rt)|v|² ∈ {ball.str(5, radius=True)} > 0")
            if outcome in (Outcome.FAIL, Outcome.REFUTE):
                cx = {"W": [[str(x) for x in row] for row in w], "v_0": [str(x) for x in v], "t": str(t),
                      "β₀": str(beta0), "rate r": str(r), **rows[-1]}
                break
        if cx is not None:
            break
    return Evidence(check="eq. (38): |e^(Wt)v_0|₂ vs e^(−rt)|v_0|₂ on W = [[−2, 10], [0, −2]] at small t",
                    kind="numeric", backend=backend.name, outcome=outcome, precision_bits=bits,
                    instances=len(rows), residual=tol.fmt(worst), tolerance="1",
                    tolerance_source="8κ_exp·u·(|v_t|² + bound²) (flint: the ball)",
                    counterexample=cx if outcome is Outcome.REFUTE else None, certified_by=certified,
                    seconds=time.perf_counter() - t0, data={"points": rows})


def _trend_evidence(backend: AbstractBackend, ctx: Context) -> Evidence:
    """e^{rt}M(t) at t = 8, 16, 32 on the probes the hypothesis admits (M from the statement's formula in
    the arithmetic): ``little-o`` needs it to fall (ratio g(32)/g(16) < 1/2 on these probes, whose rate
    gaps are ≥ 1/2), ``some`` not to grow (ratio ≤ 1 + error). Uncertified: FAIL at most."""
    from recmem.theory.memory_rnn import _slow_probe

    law = ctx.law(LinearRNNDecay)
    t0 = time.perf_counter()
    mp = mm.mp_context(max(backend.precision_bits, 53) + 32)
    probes = dict(PROBES)
    if (slow := _slow_probe(law)) is not None:
        probes["slow probe (rate factor)"] = slow
    worst, rows, cx = 0.0, [], None
    limit = 0.5 if law.bound == "little-o" else 1.0
    for name, (inst, beta0) in probes.items():
        if not law.admits(inst.alpha(), beta0):
            continue
        w, u, c = inst.w(), [list(row) for row in inst.u], list(inst.c)
        r = law.rate(beta0)
        g, err = [], mp.mpf(0)
        wt = [[w[j][i] for j in range(2)] for i in range(2)] if law.transpose else w
        for t in TREND_TIMES:
            e = _formula(law, backend, w, t, mp)
            g.append(mm.kernel_l1(e, u, c, mp) * mp.exp(mm.mq(mp, r) * mm.mq(mp, t)))
            # a-posteriori relative error against a reference at 2·max(p, 53) + 32 bits
            ref_bits = 2 * max(backend.precision_bits, 53) + 32
            ref = mm.memo(("expm ref", tuple(map(tuple, wt)), t, ref_bits),
                          functools.partial(mm.expm_reference, wt, t, ref_bits))
            g_ref = mm.kernel_l1(ref, u, c, mp) * mp.exp(mm.mq(mp, r) * mm.mq(mp, t))
            err = max(err, 2 * abs(g[-1] - g_ref) / g_ref if g_ref else mp.mpf(0))
        ratio = g[2] / g[1] if g[1] > 0 else (mp.mpf(0) if g[2] == 0 else mp.inf)
        worst = max(worst, float(ratio))
        rows.append({"probe": name, "β₀": str(beta0), "e^(rt)M(t) at 8, 16, 32": [mp.nstr(v, 6) for v in g],
                     "ratio g(32)/g(16)": mp.nstr(ratio, 6)})
        if ratio > limit * (1 + err) and cx is None:
            cx = rows[-1]
    outcome = Outcome.FAIL if cx is not None else (Outcome.PASS if rows else Outcome.SKIPPED)
    return Evidence(check="trend of e^(rt)M(t) over t = 8, 16, 32 on the admitted probes", kind="numeric",
                    backend=backend.name, outcome=outcome, precision_bits=backend.precision_bits,
                    instances=len(rows), residual=mpmath.nstr(worst, 6), tolerance=str(limit),
                    tolerance_source=("o(1): the ratio g(32)/g(16) must fall below 1/2 (the admitted probes "
                                      "have rate gaps ≥ 1/2)" if law.bound == "little-o" else
                                      "bounded: the ratio must not exceed 1")
                    + " (relative error: twice the distance "
                                      "to a reference at 2·max(p, 53) + 32 bits)",
                    message="" if cx is None else f"e^(rt)M(t) does not decay on {cx['probe']}",
                    seconds=time.perf_counter() - t0, data={"probes": rows})


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The kernel check and, per the statement's bound, the (38) check or the trend check."""
    law = ctx.law(LinearRNNDecay)
    kind = backend.spec.kind
    _float64_only(backend)
    if kind == "torch":
        mm.torch_device(backend)
    if kind == "flint":
        if law.bound != "one":
            raise mm.unavailable(backend, "no ODE integrator in ball arithmetic: only the (38) bound is "
                                          "checked with balls")
        return [_bound_evidence(backend, ctx)]
    out = [_kernel_evidence(backend, ctx)]
    out.append(_bound_evidence(backend, ctx) if law.bound == "one" else _trend_evidence(backend, ctx))
    return out


def _params() -> tuple[Param, ...]:
    return (Param("draws", 1, "seeded random 3×3 non-normal Hurwitz (W, U, c) added to the fixed instances",
                  int, check=at_least(0), max=1000), mm.p_ode_bits(64))


TOL = ("exact (SymPy e^(Wt), ℚ closed forms); kernel: integration error + 4mκ_exp·u; (38): 8κ_exp·u "
       "(flint: certified ball); trend: ratio over t = 8 → 32")
NOTES = ("§2.2 prints the exponential sums as (cᵀe^(WsU))ᵀ, App. D as cᵀe^(Wt)U; the statement uses App. D's "
         "form (U inside the exponent is a typo: WsU is not square unless d = m). No sentence prints 'decays "
         "at rate −max Re λ(W)': the printed rate statements are A.8's (38) (strict spectral bound (31), "
         "constant 1), A.9's (47)/Lemma A.8's (76) (non-strict) and Thm A.4's (24) (strict, o(1)).")

CLAIMS = [
    Claim(
        id="W.rnn-linear-memory",
        summary="A.8's (38) with constant 1 fails for a non-normal W (the norm of e^{Wt} first grows)",
        title="Memory of a linear RNN: ρ = cᵀe^{Wt}U, and A.8's bound (38) with constant 1",
        statement=LinearRNNDecay(bound="one", strict=True),
        provenance=Provenance("W", "§2.2 (after eq. (2)); App. D; App. A.8 eqs. (31), (36)–(39)",
                              QUOTE_22 + " … " + QUOTE_D + " … " + QUOTE_A8),
        tolerance=TOL,
        uses=("W.memory-linear",),
        params=_params(),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes=NOTES + " (38) bounds |e^(W(t−T))|₂ by e^(−β₀(t−T)), i.e. it treats the spectral abscissa as "
              "the "
              "log-norm (the matrix inequality (37)–(38) itself is W.semigroup-bound; this claim is its "
              "consequence for the memory of a linear RNN); for non-normal W the norm first grows (W = "
              "[[−2, 10], [0, −2]]: d/dt|e^(Wt)v|² = "
              "2vᵀWv > 0 at t = 0 for v = (1, 1)). The same step sits in the proof of Thm 3.9 for 𝒜₀.",
    ),
    Claim(
        id="W.rnn-linear-memory.bound",
        summary="with the non-strict bound of (76), App. I.1's defective W gives ρ = (1 + 2t)e^{−t}",
        title="Memory of a linear RNN: M(t) ≤ Ce^{−β₀t} under the non-strict bound max Re λ(W) ≤ −β₀",
        statement=LinearRNNDecay(bound="some", strict=False),
        provenance=Provenance("W", "App. A.9 eq. (47); Lemma A.8 eq. (76); App. A.8 eqs. (36)–(39)",
                              QUOTE_A9 + " … " + QUOTE_A8),
        tolerance=TOL,
        uses=("W.memory-linear",),
        params=_params(),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading="A.8's decay at rate β₀, with an unspecified constant, under the non-strict spectral bound "
                "max Re λ(W) ≤ −β₀ that A.9 (47) and Lemma A.8 (76) print (A.8 (30)–(31) print it strict)",
        notes=NOTES + " At the boundary β₀ = −max Re λ(W), a defective eigenvalue adds a polynomial factor: "
              "App. I.1's W = [[1, 1], [−4, −3]] with U = c = e₁ gives ρ(t) = (1 + 2t)e^(−t).",
    ),
    Claim(
        id="W.rnn-linear-memory.corrected",
        summary="Thm A.4 (24): e^{β₀t}M(t) → 0 when max Re λ(W) < −β₀",
        title="Memory of a linear RNN: e^{β₀t}M(t) → 0 when max Re λ(W) < −β₀ (Thm A.4 eq. (24))",
        statement=LinearRNNDecay(bound="little-o", strict=True),
        provenance=Provenance("W", "App. A.3, Thm A.4 eq. (24); §2.2; App. D", QUOTE_A4 + " … " + QUOTE_D),
        tolerance=TOL,
        uses=("W.memory-linear", "W.memory-def"),
        params=_params(),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.rnn-linear-memory",
        notes="Thm A.4 (Li et al. 2022) for a single linear RNN: with y_i(t) = H_t(e_i), y_i' = ρ_i, and "
              "(24) for k = 1 is e^(βt)ρ(t) → 0 for every β with max Re λ(W) < −β. ρ(t) = Σ p_λ(t)e^(λt) "
              "over "
              "eigenvalues λ of W (the poles c and U see), so e^(β₀t)|ρ(t)|₁ ≤ poly(t)e^((α + β₀)t) → 0. "
              "Defective W add polynomial factors and mode-blind c or U make the decay faster; only "
              "the strict inequality makes the rate β₀ safe.",
    ),
]
