"""W.memory-equivalence: App. H of paper W (ICLR 2024 camera-ready) — memory functions over Heaviside
inputs (Def. 3.1, eq. (5)) and over impulse inputs (App. F eq. (119), App. H's ρ_T) are
"qualitatively equivalent", i.e. characterise the same decay speed (theory.memory_equivalence).

``W.memory-equivalence`` (as printed, over the RNNs of Figure 10) is refuted by the scalar hardtanh
RNN h' = hardtanh(x − h): Heaviside memory 1/(t + 1), impulse memory (e − 1)e^{−t}.
``W.memory-equivalence.linear`` is the correction (linear functionals, App. F/G's setting, the Dirac
impulse), and ``W.memory-equivalence.identity`` App. H's "why special inputs" argument.

Numeric sides: the memories are queried with the package's :func:`~recmem.numerics.memory.memory_function`
(Heaviside, and impulse pulses) on the witness RNN integrated by DOP853 (numpy); in mpmath the linear
witness is integrated by mpmath's Taylor integrator, and the hardtanh witness (σ not analytic, so no
Taylor series) by its exact piecewise solution (:func:`hardtanh_scalar_flow`: between the input's
switch times and the kinks |z| = 1 of hardtanh the ODE is h' = ±1 or linear, with closed-form solutions
and closed-form switching times), its sup taken over the same magnitudes as numpy's. The decay slopes
s = −Δlog M/Δt between consecutive times are compared: the statement says s_heav = factor·s_imp.
Finite-time slopes are not the limits γ: for the linear witness ρ = e^{−t/2} both memories are the
same exponential at every t (a pulse of any width δ scales it by (e^{δ/2} − 1)/(δ/2)), so the slopes
agree exactly; for the hardtanh witness they differ by ~0.8 — an uncertified FAIL (the symbolic side
and the exact search certify).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.checks.claim import Claim, Context, Provenance, by_arithmetic
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.memory_equivalence import (
    IdentityInputs,
    MemoryEquivalence,
    identity_proof,
    judge_instance,
    memory_equivalence_proof,
)

QUOTE_H = (r"Apart from the previous sections that study the equivalence of memory functions over linear "
           r"functionals. In Figure 10, we show that the memory functions evaluated over different test "
           r"inputs are qualitatively equivalent. Since the reversed inputs are harder to evaluate "
           r"numerically, we only compare the memory functions evaluated over Heaviside inputs and impulse "
           r"inputs. Besides the qualitative comparison that different memory functions are “equivalent”, "
           r"here we show they all characterize the decay speed of the model’s memory of a impulse change at "
           r"time t = 0. … $$\rho_ {T} := \sup _ {x \neq 0} \frac {\left| y _ {T} \left(\mathbf {i} ^ {x}"
           r"\right) \right|}{| x |} = \sup _ {x \neq 0} \frac {H _ {T} ((x , 0 , \dots))}{| x |}. \quad "
           r"\text { Impulse - inputs - based   memory }$$ We show the “equivalence” of different memory "
           r"functions in linear functional sense in Appendix F and G.")
QUOTE_FIG10 = ("Figure 10: Memory functions of randomly-initialized recurrent networks evaluated over "
               "Heaviside inputs and impulse inputs. The memory functions evaluated over different inputs "
               "are numerically equivalent.")
QUOTE_WHY = (r"Why special inputs A natural question is why we need a particular set of inputs rather than "
             r"use any continuous input. The identity functional $H_{t}(\mathbf{x}) = x_{t}$ takes the input "
             r"sequence $x_{t} = \frac{1}{t}, t > 0$ to a polynomial decaying output $y_{t} = \frac{1}{t}$ . "
             r"However, this does not mean the functional has a polynomial-decaying memory. In fact, this "
             r"identity functional has no memory of past inputs in the sense that changing $x_{0}$ does not "
             r"influence the output of $y_{t}$ with t > 0.")

# Times of the slope comparison: t + 1 ∈ SCALAR_MAGS, so the Heaviside search contains the hardtanh
# witness's maximising input x = t + 1 at every time.
TIMES = np.array([1.0, 3.0, 7.0])
# Impulse magnitudes: the witness's pulse memory is attained by every x ≤ δ (the linear regime).
IMPULSE_MAGS = (0.125, 1.0, 8.0)
# Pulse width standing for the Dirac reading (width 0) in the numerics; the linear witness's slopes
# do not depend on it (see the module docstring).
DIRAC_WIDTH = 2.0**-6


def witness_rnn(law: MemoryEquivalence) -> Any:
    """The numeric witness of the statement's scope: h' = hardtanh(x − h) (rnn) or h' = x − h/2
    (linear: ρ(t) = e^{−t/2}); ŷ = h."""
    if law.scope == "rnn":
        return mm.scalar_hardtanh_rnn()
    return mm.rnn_of([[Fraction(-1, 2)]], [[Fraction(1)]], [Fraction(1)], "identity")


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by exact memories (theory.memory_equivalence)."""
    t0 = time.perf_counter()
    return [from_proof(memory_equivalence_proof(ctx.law(MemoryEquivalence)), time.perf_counter() - t0)]


def _curves_numpy(law: MemoryEquivalence, seed: int) -> tuple[np.ndarray, ...]:
    """(M_heav, its error, M_imp, its error) at TIMES by the package's memory_function (DOP853):
    a pure function of the witness, the width and the times, memoised."""
    from recmem.numerics.memory import memory_function

    rnn = witness_rnn(law)
    width = float(law.width) if law.width else DIRAC_WIDTH

    def compute() -> tuple[np.ndarray, ...]:
        heav = memory_function(mm.memo_functional(rnn), TIMES, magnitudes=mm.SCALAR_MAGS, seed=seed,
                               refine_rounds=0, accuracy=True)
        imp = memory_function(mm.memo_functional(rnn), TIMES, inputs="impulse", width=width,
                              magnitudes=IMPULSE_MAGS, seed=seed, refine_rounds=0, accuracy=True)
        assert heav.accuracy is not None and imp.accuracy is not None
        return heav.values, heav.accuracy, imp.values, imp.accuracy

    return mm.memo(("memory-equivalence numpy", mm.rnn_key(rnn), width, seed), compute)



def _with_drift(at: Callable[[int], tuple[list[Any], list[Any]]], bits: int) -> tuple[list[Any], ...]:
    """The Heaviside and impulse memories at ``bits`` and each one's drift |value − value at
    bits + MP_EXTRA_BITS| (the error estimate both mpmath routes report)."""
    (h1, i1), (h2, i2) = at(bits), at(bits + mm.MP_EXTRA_BITS)
    return h1, [abs(a - b) for a, b in zip(h1, h2, strict=True)], i1, [
        abs(a - b) for a, b in zip(i1, i2, strict=True)]

def _curves_mpmath(law: MemoryEquivalence, bits: int) -> tuple[list[Any], ...]:
    """The same at ``bits`` by Taylor integration (linear witness; the input x = 1 attains the sup of a
    linear functional), error from a second run at bits + 16."""
    from recmem.numerics.ode import response_mpmath
    from recmem.numerics.signals import heaviside, impulse

    rnn = witness_rnn(law)
    width = float(law.width) if law.width else DIRAC_WIDTH

    def at(b: int) -> tuple[list[Any], list[Any]]:
        ctx = mm.mp_context(b)
        heav = [abs(v) for v in response_mpmath(rnn, heaviside((1.0,)), TIMES, ctx)[1]]
        imp = [abs(v) for v in response_mpmath(rnn, impulse((1.0,), width), TIMES, ctx)[0]]
        return heav, imp

    return mm.memo(("memory-equivalence mpmath", mm.rnn_key(rnn), width, bits),
                   lambda: _with_drift(at, bits))


def hardtanh_scalar_flow(p: tuple[Any, Any, Any], pieces: list[tuple[Any, Any, Any]], t: Any,
                         mp: Any) -> tuple[Any, Any]:
    """(h(t), h'(t)) of the scalar RNN h' = hardtanh(wh + ua(s) + b), h(0) = 0, w < 0 (W eq. (1) with
    σ = hardtanh ∈ 𝒜₀), for a piecewise-constant input a = ``pieces`` [(s0, s1, a), …] (s1 None: to ∞;
    right-continuous, as the Heaviside u^x and the pulse (x/δ)·1_[0,δ) of W Def. 3.1 / App. F), exactly
    up to the rounding of ``mp``. ``p`` = (w, u, b) in ``mp``.

    On a piece, z = wh + ua + b obeys z' = w·hardtanh(z): from |z₀| ≤ 1, z = z₀e^{wτ} (it stays there);
    from z₀ > 1 (< −1), h' = 1 (−1) and z moves linearly towards ±1, reached after τ₁ = (|z₀| − 1)/|w|,
    then decays as ±e^{w(τ − τ₁)}; h = (z − ua − b)/w off saturation."""
    w, u, b = p
    k = -w
    h, dh = mp.zero, mp.zero
    for s0, s1, a in pieces:
        if t < s0:
            break
        tau = (t if s1 is None or t < s1 else s1) - s0
        c0 = u * a + b
        z0 = w * h + c0
        if abs(z0) > 1:
            sign = 1 if z0 > 0 else -1
            t1 = (abs(z0) - 1) / k  # the kink |z| = 1 is reached in closed form
            if tau <= t1:
                h, dh = h + sign * tau, mp.mpf(sign)
                continue
            z = sign * mp.exp(-k * (tau - t1))
        else:
            z = z0 * mp.exp(-k * tau)
        h, dh = (z - c0) / w, z
    return h, dh


def _curves_piecewise(law: MemoryEquivalence, bits: int) -> tuple[list[Any], ...]:
    """The hardtanh witness's memories at TIMES in mpmath at ``bits``: max over x = ±SCALAR_MAGS of
    |c·h'(t)|/|x| on u^x (Def. 3.1 eq. (5)) and over x = ±IMPULSE_MAGS of |c·h(t) − c·h₀(t)|/|x| on the
    pulse (x/δ)·1_[0,δ) (App. F eq. (119); h₀ the response to x = 0), the same candidates as the numpy
    side's memory_function, by :func:`hardtanh_scalar_flow`; error from a second run at bits + 16."""
    rnn = witness_rnn(law)
    if rnn.W.shape != (1, 1) or rnn.U.shape != (1, 1) or rnn.sigma.name != "hardtanh" or \
            not rnn.W[0, 0] < 0:
        raise ValueError("the piecewise solution is for the scalar hardtanh RNN with w < 0")
    width = law.width if law.width else Fraction(DIRAC_WIDTH)

    def at(b: int) -> tuple[list[Any], list[Any]]:
        mp = mm.mp_context(b)
        # float64 parameters and magnitudes convert exactly
        p = (mp.mpf(rnn.W[0, 0]), mp.mpf(rnn.U[0, 0]), mp.mpf(rnn.b[0]))
        c = mp.mpf(rnn.c[0])
        dl = mm.mq(mp, width)
        heav, imp = [], []
        for t in TIMES:
            tm = mp.mpf(t)
            heav.append(max(abs(c * hardtanh_scalar_flow(p, [(0, None, s * mp.mpf(x))], tm, mp)[1]) / x
                            for x in mm.SCALAR_MAGS for s in (1, -1)))
            def pulse(a: Any, tm: Any = tm) -> Any:
                return hardtanh_scalar_flow(p, [(0, dl, a), (dl, None, mp.zero)], tm, mp)[0]

            base = pulse(mp.zero)
            imp.append(max(abs(c * (pulse(s * mp.mpf(x) / dl) - base)) / x
                           for x in IMPULSE_MAGS for s in (1, -1)))
        return heav, imp

    return mm.memo(("memory-equivalence piecewise", mm.rnn_key(rnn), width, bits),
                   lambda: _with_drift(at, bits))


def _slopes(m: Any, e: Any, log: Any) -> tuple[list[Any], list[Any]]:
    """Decay slopes −(log M(t_{j+1}) − log M(t_j))/(t_{j+1} − t_j) and their error bounds
    (e_j/M_j + e_{j+1}/M_{j+1})/Δt (first order in the relative errors)."""
    s, err = [], []
    for j in range(len(TIMES) - 1):
        dt = float(TIMES[j + 1] - TIMES[j])
        s.append(-(log(m[j + 1]) - log(m[j])) / dt)
        err.append((e[j] / m[j] + e[j + 1] / m[j + 1]) / dt)
    return s, err


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Finite-time decay slopes of the two queried memories of the witness against the statement's
    relation: residual max_j |s_heav − factor·s_imp|, tolerance the slopes' error bounds."""
    law = ctx.law(MemoryEquivalence)
    t0 = time.perf_counter()
    kind = backend.spec.kind
    mh: Any
    eh: Any
    mi: Any
    ei: Any
    log: Any
    u: Any
    if kind == "numpy":
        if backend.spec.dtype != "float64":
            raise mm.unavailable(backend, "DOP853 and its error estimate run in float64")
        mh, eh, mi, ei = _curves_numpy(law, ctx.seed)
        log, u, bits = np.log, mm.U64, 53
    else:
        if law.scope == "rnn":
            # closed-form pieces: cheap at the backend's full precision
            bits = backend.precision_bits
            mh, eh, mi, ei = _curves_piecewise(law, bits)
        else:
            bits = min(backend.precision_bits, 64)
            mh, eh, mi, ei = _curves_mpmath(law, bits)
        mp = mm.mp_context(bits)
        log, u = mp.log, mp.mpf(2) ** -bits
    sh, esh = _slopes(mh, eh, log)
    si, esi = _slopes(mi, ei, log)
    fac = float(law.factor)
    def number(q: Fraction) -> Any:
        return float(q) if kind == "numpy" else mm.mq(mm.mp_context(bits), q)

    res = [law.slope_residual(a, b, number=number) for a, b in zip(sh, si, strict=True)]
    tol = [a + fac * b + 64 * u * (abs(x) + fac * abs(y))
           for a, b, x, y in zip(esh, esi, sh, si, strict=True)]
    worst = max(range(len(res)), key=lambda j: float(res[j] / tol[j]))
    return [mm.judged(f"{law.scope} witness: decay slopes of the queried Heaviside and impulse memories",
                      backend, float(res[worst] / tol[worst]), 1.0,
                      "slope errors (e_j/M_j + e_(j+1)/M_(j+1))/Δt from the integrators' error estimates "
                      "+ 64u; residual max_j |s_heav − factor·s_imp|/tolerance", t0, bits=bits,
                      data={"t": TIMES.tolist(), "M_heav": mm.fmt_list(mh), "M_imp": mm.fmt_list(mi),
                            "slopes heav": mm.fmt_list(sh), "slopes imp": mm.fmt_list(si)},
                      message="" if res[worst] <= tol[worst] else
                      f"slopes {mpmath.nstr(mpmath.mpf(sh[worst]), 4)} (Heaviside) vs "
                      f"{mpmath.nstr(mpmath.mpf(si[worst]), 4)} (impulse) between t = {TIMES[worst]:g} "
                      f"and {TIMES[worst + 1]:g}")]


def strategy(ctx: Context) -> Any:
    """Witnesses of the statement's scope: scalar hardtanh RNNs (w ∈ [−1, −1/4], u, c ∈ [1/4, 2],
    so δ ≤ 1/|w| for the printed width 1) or kernels ρ = Σ c_i e^{−r_i t} (up to 3 terms, rates in
    [0, 3], coefficients in [−2, 2], cancelling ones included)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    law = ctx.law(MemoryEquivalence)
    pos = fractions_in(Fraction(1, 4), 2, 4)
    if law.scope == "rnn":
        return st.tuples(st.just("rnn"), fractions_in(-1, Fraction(-1, 4), 4), pos, pos)
    terms = st.lists(st.tuples(fractions_in(-2, 2, 4), fractions_in(0, 3, 4)), min_size=1, max_size=3)
    return terms.map(lambda ts: ("linear", tuple(c for c, _ in ts), tuple(r for _, r in ts)))


def holds(instance: Any, ctx: Context) -> Instance:
    """Exact rates of the witness's two memories against the statement's relation."""
    ok, values = judge_instance(ctx.law(MemoryEquivalence), instance)
    return Instance(ok, "exact rational rates of closed-form memories (theory.memory_equivalence)", values,
                    "" if ok else "the two memories decay at different speeds")


# ---- why special inputs ------------------------------------------------------------------------

ID_TIMES = (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4))
ID_STEP = Fraction(1, 4)  # central-difference step h < min t, so t ± h > 0


def identity_symbolic(ctx: Context) -> list[Evidence]:
    """The identity functional's output and memories decided by SymPy."""
    t0 = time.perf_counter()
    return [from_proof(identity_proof(ctx.law(IdentityInputs)), time.perf_counter() - t0)]


def identity_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """In ``backend``: the identity functional applied to x_t = 1/t, and central differences
    (H_{t+h} − H_{t−h})/2h of its outputs on u^x, r^x (and the value on the literal impulse) at t > 0,
    against the statement's output t^power and memory."""
    from recmem.checks.numeric import identity_check
    from recmem.numerics.exact import QQi

    law = ctx.law(IdentityInputs)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        ts = bk.entries(bk.vector([QQi(t) for t in ID_TIMES]))
        xs = bk.entries(bk.vector([QQi(1 / t) for t in ID_TIMES]))  # the input x_t = 1/t, sampled
        h = bk.entries(bk.vector([QQi(ID_STEP)]))[0]
        one, zero = bk.entries(bk.vector([QQi(Fraction(1)), QQi(Fraction(0))]))
        lhs, rhs = [], []
        for t, x in zip(ts, xs, strict=True):
            lhs.append(x)  # H_t(x) = x_t
            rhs.append(law.output(t))
            # H_s(u^1) = 1 for s ≥ 0, H_s(r^1) = 0 for s ≥ 0, H_t(i^1) = 0 for t ≠ 0 (t ± h > 0)
            for before, after in ((one, one), (zero, zero)):
                lhs.append((after - before) / (2 * h))
                rhs.append(law.memory_at(t))
            lhs.append(zero)
            rhs.append(law.memory_at(t))
        return bk.vector_of(lhs), bk.vector_of(rhs)

    return [identity_check("identity functional on x_t = 1/t and its memory queries at t > 0", backend,
                           compute, instance={"t": [str(t) for t in ID_TIMES], "h": str(ID_STEP)},
                           kappa=mpmath.mpf(1), n=4)]


def identity_strategy(ctx: Context) -> Any:
    """(t, x): t > 0 rational (down to 1/64, up to 64), x ≠ 0."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    return st.tuples(fractions_in(Fraction(1, 64), 64, 64),
                     fractions_in(-4, 4, 4).filter(lambda v: v != 0))


def identity_holds(instance: Any, ctx: Context) -> Instance:
    """Exact: y_t = x_t = 1/t; the three memory queries at t divided by |x|: the central differences
    (H_{t+h} − H_{t−h})/2h, h = t/2, of H_s(u^x) = x·1[s ≥ 0] and H_s(r^x) = x·1[s < 0] (piecewise
    constant, so exact derivatives at t > 0), and H_t(i^x) = i^x_t (0 at t ≠ 0), against the
    statement."""
    law = ctx.law(IdentityInputs)
    t, x = instance
    y = 1 / t
    h = t / 2

    def u(s: Fraction) -> Fraction:
        return x if s >= 0 else Fraction(0)

    def r(s: Fraction) -> Fraction:
        return x if s < 0 else Fraction(0)

    queries = {"Heaviside": (u(t + h) - u(t - h)) / (2 * h), "impulse": x if t == 0 else Fraction(0),
               "reversed": (r(t + h) - r(t - h)) / (2 * h)}
    ok = y == law.output(t) and all(q / abs(x) == law.memory_at(t) for q in queries.values())
    return Instance(ok, "exact rational arithmetic",
                    {"t": str(t), "x": str(x), "y_t": str(y), "claimed y_t": str(law.output(t)),
                     "memories": ", ".join(f"{k} {v / abs(x)}" for k, v in queries.items()),
                     "claimed memory": str(law.memory_at(t))},
                    "" if ok else "the identity functional's output or memory differs from the claim")


# ---- claims ------------------------------------------------------------------------------------

NUMERIC = by_arithmetic({"numpy": numeric, "mpmath": numeric},
                        "the witnesses are integrated by DOP853 (numpy) and Taylor series or exact pieces "
                        "(mpmath); pulse inputs are not in torch's batched RK4 and there is no ODE solver "
                        "in ball arithmetic")
TOL = ("exact (SymPy: closed-form memories and their rates; exact search over witnesses); numpy/mpmath: "
       "finite-time decay slopes within the integrators' a-posteriori error estimates (mpmath: the change "
       "from a run at 16 more bits) + 64u")

CLAIMS = [
    Claim(
        id="W.memory-equivalence",
        summary="Heaviside and impulse memories are not equivalent for RNNs: h′ = hardtanh(x − h) has "
                "1/(t+1) vs (e−1)e^(−t)",
        title="Memory functions over Heaviside and impulse inputs characterise the same decay speed (App. H)",
        statement=MemoryEquivalence(),
        provenance=Provenance("W", "App. H; App. F eq. (119); Figure 10", QUOTE_H + " … " + QUOTE_FIG10),
        tolerance=TOL,
        uses=("W.memory-def", "W.memory-impulse"),
        symbolic=symbolic,
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        reading="App. H's ρ_T = sup H_T((x, 0, …))/|x| in continuous time: the impulse x held for one unit "
                "of time (width δ = 1, unit mass); 'qualitatively equivalent' as equal decay speeds "
                "γ = liminf −log M(t)/t, which includes 'exponentially decaying (7) iff'",
        notes="A finding: the scalar RNN h' = hardtanh(x − h), ŷ = h (hardtanh ∈ 𝒜₀, W = −1 Hurwitz) has "
              "the Heaviside memory 1/(t + 1) (W.memory-def.normalisation's exact form) but the impulse "
              "memory (e − 1)e^(−t): the impulse probes the linearisation at rest (small inputs attain its "
              "sup), the Heaviside query also the saturated regime of large inputs. With the Dirac reading "
              "of App. F (δ → 0 for each x) the impulse memory vanishes identically (the state moves by at "
              "most δ during the pulse), and with App. F's literal impulse (x at the single instant 0) it "
              "vanishes for every functional: the same failure. Figure 10's random RNNs are small-input "
              "(linear-regime) cases. The equivalence holds for linear functionals: "
              "W.memory-equivalence.linear.",
    ),
    Claim(
        id="W.memory-equivalence.linear",
        summary="for linear functionals (App. F/G's setting) the two memories coincide, so their decay "
                "speeds agree",
        title="Memory functions over Heaviside and (Dirac) impulse inputs of a linear functional decay at "
              "the same speed",
        statement=MemoryEquivalence(scope="linear", width=Fraction(0)),
        provenance=Provenance("W", "App. H; App. F eqs. (119)–(120)", QUOTE_H),
        tolerance=TOL,
        uses=("W.memory-impulse",),
        corrects="W.memory-equivalence",
        symbolic=symbolic,
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        reading="the Dirac impulse x·δ₀ of W.memory-impulse",
        notes="Both memories are |ρ(t)|₁ (eq. (4), (120)), so every decay speed agrees. Not checked: the "
              "unit-width pulse of App. H's sequence (x, 0, …) gives |∫_(t−1)^t ρ|₁, whose decay speed "
              "can differ from |ρ(t)|₁'s for oscillating ρ.",
    ),
    Claim(
        id="W.memory-equivalence.identity",
        summary="App. H's identity functional: y_t = 1/t on x_t = 1/t, yet every memory function is 0 "
                "for t > 0",
        title="Why special inputs: the identity functional's output decays like 1/t, its memory is zero",
        statement=IdentityInputs(),
        provenance=Provenance("W", "App. H (Why special inputs)", QUOTE_WHY),
        tolerance="exact (SymPy for every t > 0; exact search); numerics: c·n·u (the queries are exact "
                  "differences of exact samples)",
        uses=("W.memory-def", "W.memory-impulse"),
        symbolic=identity_symbolic,
        numeric=identity_numeric,
        strategy=identity_strategy,
        holds=identity_holds,
        notes="The memory functions of Def. 3.1 (5), App. F (119) and App. G (126) all vanish for t > 0 "
              "(the Heaviside and reversed queries' derivatives are Dirac masses at t = 0; the impulse "
              "query is supported at t = 0), while the output on the input 1/t decays polynomially: "
              "output decay along a generic input is no memory.",
    ),
]
