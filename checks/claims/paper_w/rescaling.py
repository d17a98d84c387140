"""W.rescaling: "rescaling is not an a priori solution to stable approximation" (W App. C).

One statement, recmem.theory.rescaling.RescaledExample, read by every side: the worked example as
printed (``W.rescaling``: "pick w_k = 1" in ρ̂(t) = Σ c_k e^{(1/k) w_k t} gives a growing memory,
refuted) and with the sign fixed (``W.rescaling.corrected``: w_k = −1). The finding
``W.rescaling.integrable`` (recmem.theory.rescaling.IntegrableTargets): App. C's targets are not in
L¹, which §2.2 requires of every linear functional's memory.

Numeric side, in every arithmetic: the memory of each RNN by its definition c^T e^{Wt} U (the
backend's matrix exponential of the diagonal W·t: mpmath expm, flint acb_mat.exp, scipy expm,
torch.linalg.matrix_exp) against the target's closed form Σ k^−2 e^{−t/k^p}, for the three parts
of the example at m = m_max and t = t_max·{1/64, 1/8, 1}.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.exact import QQi
from recmem.theory.rescaling import (
    PARTS,
    IntegrableTargets,
    RescaledExample,
    l1_instance,
    memory_instance,
)

QUOTE = ("Now we consider the special case: Assume $W$ is diagonal $W = \\text{diag}([w_1, w_2, "
         "\\ldots, w_m])$ . Element of matrix $U$ is 1. And the vector $c = [c_1, c_2, \\ldots, "
         "c_m]$ . In this section, we compare the vanilla linear RNN with a memory function "
         "$\\hat{\\rho}(t)=\\sum_{k=1}^{m}c_{k}e^{w_{k}t}$ and a rescaled linear RNN with a memory "
         "function $\\hat{\\rho}(t)=\\sum_{k=1}^{m}c_{k}e^{\\frac{1}{k}w_{k}t}$ . They are "
         "represented in the simplest form with $c_{k}$ and $w_{k}$ as the trainable weights. It "
         "can be seen that the target linear functional with memory function $\\rho(t)=\\sum_{k=1}"
         "^{\\infty}\\frac{1}{k^{2}}e^{-\\frac{1}{k}t}$ cannot be stably approximated by linear RNN "
         "but can be stably approximated by rescaled linear RNN. (For rescaled linear RNN, one "
         "just need to pick $w_{k}=1$ .) … However, this rescaling does not work for all memory "
         "functions. Take the memory function $\\rho(t) = \\sum_{k=1}^{\\infty} \\frac{1}{k^2} "
         "e^{-\\frac{1}{k^2} t}$ as an example, it may not be possible to stably approximate target "
         "with this memory function with linear RNN or the rescaled version.")
QUOTE_L1 = ("§2.2: “its approximation using linear RNNs can be reduced to the study of the "
            "approximation of $\\rho \\in L^{1}([0, \\infty), \\mathbb{R}^{d})$ by exponential sums "
            "of the form $(c^{\\top}e^{WsU})^{\\top}$” … App. C: “$\\rho(t)=\\sum_{k=1}^{\\infty}"
            "\\frac{1}{k^{2}}e^{-\\frac{1}{k}t}$” … “$\\rho(t) = \\sum_{k=1}^{\\infty} "
            "\\frac{1}{k^2} e^{-\\frac{1}{k^2} t}$” … App. D: “The additional 1 is added as we "
            "require the memory function to be integrable.”")
LOCATION = "App. C (no numbered equations; ICLR camera-ready)"


def times(ctx: Context) -> list[Fraction]:
    """t = t_max·{1/64, 1/8, 1} (each 8 times the last: see numeric)."""
    t_max = Fraction(int(ctx["t_max"]))
    return [t_max / 64, t_max / 8, t_max]


C_QUAD = 16.0


def _float64_only(backend: AbstractBackend) -> None:
    if backend.spec.kind in ("numpy", "torch") and backend.spec.dtype != "float64":
        raise BackendUnavailable(f"{backend.name}: this check runs in float64 only")


def _expm(bk: AbstractBackend, a: Any) -> Any:
    """The backend's own matrix exponential."""
    kind = bk.spec.kind
    if kind == "mpmath":
        return rp.mp_ctx(bk).expm(a)
    if kind == "flint":
        with bk.activate():
            return a.exp()
    if kind == "numpy":
        import scipy.linalg as sl

        return sl.expm(a)
    return rp.torch_of(bk)[0].linalg.matrix_exp(a)


def _expm_memo(bk: AbstractBackend, diag: tuple[Fraction, ...]) -> Any:
    """The backend's expm of the exact matrix diag(``diag``): a pure function of the matrix and the
    backend (its arithmetic, precision and, for mpmath, its context: a matrix belongs to the
    context that made it), memoised under the backend object itself, so the parts and controls
    of one run that share a unit's rates (the vanilla part, a changed readout or target) share
    the one exponential, which is what each would compute again."""
    def compute() -> tuple[AbstractBackend, Any]:
        m = len(diag)
        wt = bk.matrix([[QQi(diag[i]) if i == j else QQi(Fraction(0)) for j in range(m)]
                        for i in range(m)])
        return bk, _expm(bk, wt)  # the backend is kept with its result: its id stays unique

    if bk.spec.kind == "mpmath":
        # mpmath's expm (Taylor with scaling and squaring, ~0.1 s for 6×6 at 256 bits) is a pure
        # function of the matrix and the working precision: the entries are kept as raw (mantissa,
        # exponent) tuples under the precision and rebuilt in this backend's own context, which
        # is exact (make_mpf and make_mpc do not round), so every backend of one precision — each claim's
        # and each control's — gets the bit-identical matrix it would compute itself
        mp = rp.mp_ctx(bk)

        def raw() -> tuple[tuple[tuple[bool, Any], ...], ...]:
            e = compute()[1]
            # expm's entries are mpf or mpc (each kept as it is: its type is part of the value)
            return tuple(tuple((hasattr(v, "_mpc_"), getattr(v, "_mpc_", None) or v._mpf_)
                               for v in (e[i, j] for j in range(e.cols)))
                         for i in range(e.rows))

        entries = mm.memo(("rescaling expm mpmath", int(mp.prec), diag), raw)
        return mp.matrix([[mp.make_mpc(v) if cplx else mp.make_mpf(v) for cplx, v in row]
                          for row in entries])
    owner, e = mm.memo(("rescaling expm", id(bk), bk.name, diag), compute)
    return e if owner is bk else compute()[1]


def _scalar(bk: AbstractBackend, q: Fraction) -> Any:
    return bk.entries(bk.vector([QQi(q)]))[0]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Each part's RNN memory c^T e^{Wt} U (definition) against its target's closed form."""
    _float64_only(backend)
    law = ctx.law(RescaledExample)
    m = int(ctx["m_max"])
    ts = times(ctx)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        lhs, rhs = [], []
        ones = bk.matrix([[QQi(Fraction(1))] for _ in range(m)])
        for part in PARTS:
            units = [law.rnn(part, k) for k in range(1, m + 1)]
            c = bk.matrix([[QQi(ck) for ck, _ in units]])
            # e^{W·t₀} by the backend's matrix exponential at the smallest t₀ = t_max/64, then
            # e^{W·8t₀} and e^{W·64t₀} by three squarings each (the semigroup property)
            diag = tuple(units[i][1] * ts[0] for i in range(m))
            e = _expm_memo(bk, diag)
            for t in ts:
                if t != ts[0]:
                    for _ in range(3):
                        e = bk.matmul(e, e)
                lhs.append(bk.entries(bk.matmul(bk.matmul(c, e), ones))[0])
                terms = [law.target(part, k) for k in range(1, m + 1)]
                acc = _scalar(bk, Fraction(0))
                for coef, rate in terms:
                    acc = acc + _scalar(bk, coef) * bk.exp(_scalar(bk, rate * t))
                rhs.append(acc)
        return bk.vector_of(lhs), bk.vector_of(rhs)

    # every term is positive, so the sums are perfectly conditioned; each exponential carries the
    # rounding of its argument, amplified by |rate·t| ≤ t_max (and expm's own error ~ ‖Wt‖·u),
    # and six squarings double a relative error six times (2⁶ = 64)
    kappa = mpmath.mpf(64 + int(ctx["t_max"]))
    instance = {"m": m, "t": [str(t) for t in ts], "parts": list(PARTS),
                "statement": law.text}
    return [identity_check("RNN memory c^T e^{Wt} U against the target's closed form", backend,
                           compute, instance=instance, kappa=kappa, n=2 * m,
                           instances=len(PARTS) * len(ts))]


def symbolic(ctx: Context) -> list[Evidence]:
    """The worked example decided term by term (theory.rescaling.rescaling_proof)."""
    from recmem.theory.rescaling import rescaling_proof

    t0 = time.perf_counter()
    return [from_proof(rescaling_proof(ctx.law(RescaledExample)), time.perf_counter() - t0)]


L1_K = (4,)  # truncations ρ_K whose L¹ norms are computed by quadrature


def _termwise(law: IntegrableTargets, p: int, ks: range) -> list[Fraction]:
    """∫_0^∞ of each term, from SymPy's integral of the statement's term (exact rationals)."""
    import sympy as sp

    k = sp.Symbol("k", positive=True, integer=True)
    expr = sp.simplify(law.term_integral(sp, k, p))
    return [Fraction(str(expr.subs(k, j))) for j in ks]


def _quad(backend: AbstractBackend, law: IntegrableTargets, p: int, big_k: int) -> Any:
    """∫_0^∞ ρ_K(t) dt, ρ_K = Σ_(k≤K) k^−q e^(−t/k^p), by the backend's own quadrature, split
    at the decay scales 1, K^p, 8K^p, T = 64·K^p (the integrand is smooth and positive; beyond T
    it is below K·e^(−64))."""
    kind = backend.spec.kind
    top = 64 * big_k**p
    cuts = [0, 1, big_k**p, 8 * big_k**p, top]
    if kind == "flint":
        import flint

        def g(t: Any, _: Any) -> Any:
            return sum((law.term(k, p, t, lambda v: v.exp()) for k in range(1, big_k + 1)),
                       flint.acb(0))

        total = sum((flint.acb.integral(g, a, b) for a, b in itertools.pairwise(cuts)),
                    flint.acb(0))
        # tail beyond T: Σ_k k^−q ∫_T^∞ e^(−t/k^p) dt = Σ_k k^(p−q) e^(−T/k^p) ≤ K^(p+1) e^(−64)
        return total + flint.arb(0, (flint.arb(big_k) ** (p + 1) * flint.arb(-64).exp()).upper())
    if kind == "numpy":
        import numpy as np
        import scipy.integrate as si

        def h(t: float) -> float:
            return float(sum(law.term(k, p, t, np.exp) for k in range(1, big_k + 1)))

        return sum(si.quad(h, a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
                   for a, b in itertools.pairwise(cuts))
    # mpmath's tanh-sinh costs ~0.1 s per integral at 256 bits; flint's certified quadrature
    # covers the arbitrary-precision side of this supporting check
    raise BackendUnavailable(f"{backend.name}: this check runs in flint (certified quadrature) "
                             "and numpy (scipy quad)")


def numeric_l1(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The partial L¹ norms ∫_0^∞ ρ_K by quadrature (the definition) against the termwise
    integrals on which the disproof rests (Tonelli): they grow like Σ_(k≤K) k^(p−q)."""
    _float64_only(backend)
    law = ctx.law(IntegrableTargets)
    t0 = time.perf_counter()
    judged, norms = [], {}
    hp = rp.hp_context(backend)
    for p in law.rate_powers:
        for big_k in L1_K:
            exact = sum(_termwise(law, p, range(1, big_k + 1)), Fraction(0))
            got = _quad(backend, law, p, big_k)
            label = f"p = {p}, K = {big_k}"
            norms[label] = f"∫ρ_K = {got}, Σ k^(p−q) = {exact}"
            if backend.encloses:
                import flint

                want = flint.arb(flint.fmpq(exact.numerator, exact.denominator))
                judged.append(rp.ball_zero(label, got - want, rp.arb_bounds(want)[1],
                                           backend.precision_bits))
                continue
            want = hp.mpf(exact.numerator) / exact.denominator
            # the quadrature's own tolerance (scipy's requested relative 1e-13), K terms summed
            # per node
            bound = C_QUAD * (mpmath.mpf("1e-13") + big_k * backend.unit_roundoff) * want
            judged.append(rp.point_zero(label, rp.real_of(hp, got) - want, bound, want))
    src = ("enclosure (acb.integral, tail beyond 64·K^p in the radius)" if backend.encloses
           else f"c·(quadrature tolerance + K·u)·norm, c = {C_QUAD}")
    return [rp.evidence("partial L¹ norms by quadrature against the termwise integrals", backend,
                        judged, t0, tolerance_source=src, data={"norms": norms})]


def symbolic_l1(ctx: Context) -> list[Evidence]:
    """∫_0^∞ ρ by Tonelli and SymPy (theory.rescaling.integrability_proof)."""
    from recmem.theory.rescaling import integrability_proof

    t0 = time.perf_counter()
    return [from_proof(integrability_proof(ctx.law(IntegrableTargets)), time.perf_counter() - t0)]


# ---- the counterexample search ------------------------------------------------------------------
LARGE_TIMES = (Fraction(64), Fraction(256), Fraction(1024))


def strategy(ctx: Context) -> Any:
    """App. C's worked example quantifies over its three parts (:data:`PARTS`), every width
    m ≥ 1 and every time t ≥ 0: an instance is (part, m, t) with m = 1…64 (1 included) and t a
    rational in [0, 16] with denominator dividing 8 (t = 0 included), or a large time 64, 256,
    1024 (exact; the judge is exact at every size)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    times = st.one_of(fractions_in(0, 16, 8), st.sampled_from(LARGE_TIMES))
    return st.tuples(st.sampled_from(PARTS), st.integers(1, 64), times)


def holds(instance: tuple[str, int, Fraction], ctx: Context) -> Instance:
    """Exact (W App. C): the RNN's memory Σ_(k≤m) c_k e^(rate_k t) minus the target's truncation
    (both read from the statement) as an exponential polynomial with rational coefficients and exponents,
    zero iff every coefficient collected by exponent is (Lindemann–Weierstrass); a nonzero
    difference's sign is certified in arb (theory.rescaling.memory_instance). An identity: no
    ratio."""
    part, m, t = instance
    ok, values = memory_instance(ctx.law(RescaledExample), part, m, t)
    return Instance(ok, "exact: exponents and coefficients collected over ℚ, Lindemann–"
                    "Weierstrass (distinct rational exponents: e^q linearly independent); values "
                    "and the difference's sign in ball arithmetic (python-flint)", values,
                    "" if ok else "the RNN's memory differs from the target's truncation")


def l1_strategy(ctx: Context) -> Any:
    """§2.2's requirement ρ ∈ L¹([0, ∞)) quantifies over App. C's targets, one per rate power p
    in the statement (the targets are fixed functions, so there is no other variable): an
    instance is (p, K), p from the statement's rate powers and K = 1…256 the truncation whose
    exact partial norm ∫ρ_K the judge reports as the divergence's witness (K does not change the
    verdict)."""
    from hypothesis import strategies as st

    law = ctx.law(IntegrableTargets)
    return st.tuples(st.sampled_from(law.rate_powers), st.integers(1, 256))


def l1_holds(instance: tuple[int, int], ctx: Context) -> Instance:
    """Exact (W §2.2, App. C): Tonelli (nonnegative terms), SymPy's termwise integral C·k^e of the statement's
    term, and the p-series (finite iff e < −1); ratio: the condensation ratio 2^(e+1) — the
    boundary e = −1 (ratio 1, the harmonic series) already diverges (theory.rescaling.
    l1_instance)."""
    p, big_k = instance
    ok, values, ratio = l1_instance(ctx.law(IntegrableTargets), p, big_k)
    return Instance(ok, "exact: Tonelli, SymPy's termwise integral, p-series test", values,
                    "" if ok is not False else "∫_0^∞ ρ = ∞: not in L¹([0, ∞))", ratio=ratio)


def _params() -> tuple[Param, ...]:
    return (Param("t_max", 32, "largest t; the memories are compared at t_max·{1/64, 1/8, 1}", int,
                  check=at_least(1), max=10**6),
            Param("m_max", 6, "width m of the RNNs compared with the truncated targets", int,
                  check=at_least(1), max=256))


TOL = ("SymPy exact; flint: enclosure of the difference; floats: c·n·κ·u with κ = 64 + t_max "
       "(positive terms; exponentials of arguments up to t_max; six squarings)")
NOTES = ("The memories are exponential sums with distinct rates, so the example holds iff it holds "
         "term by term (SymPy, all m and t). App. C's 'stably' is checked as the trainable "
         "weights: fixed (w_k = −1) for the rescaled RNN, w_k = −1/k → 0 for the vanilla one. "
         "ρ decays like 1/t (|ρ(t) − 1/t| ≤ 4e^−2/t²), not exponentially, which by Thm 3.9 rules "
         "out a stable approximation by linear RNNs; "
         "the rescaling factor 1/k is fixed in the printed text (our earlier reconstruction "
         "allowed any fixed factors a_k). Caveat on both examples: they are not integrable "
         "(W.rescaling.integrable).")

CLAIMS = [
    Claim(
        id="W.rescaling",
        summary="App. C as printed: \"pick w_k = 1\" gives Σk⁻²e^{+t/k}, a growing memory",
        title="App. C's rescaled RNN with 'pick w_k = 1' (as printed)",
        statement=RescaledExample(pick=Fraction(1)),
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.rnn-linear-memory", "W.stable-exp"),
        params=_params(),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="Refuted: with the printed memory ρ̂(t) = Σ c_k e^{(1/k) w_k t}, 'pick w_k = 1' "
              "gives Σ k^−2 e^{+t/k}, which grows; ρ needs w_k = −1 (W.rescaling.corrected). "
              "Until the camera-ready text was available this claim was checked in a "
              "reconstruction with W = −diag(w), which silently fixed the sign. " + NOTES,
    ),
    Claim(
        id="W.rescaling.corrected",
        summary="with w_k = −1 the rescaled example decays like 1/t and its weights are fixed",
        title="App. C's worked example with the sign fixed (w_k = −1)",
        statement=RescaledExample(pick=Fraction(-1)),
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.rescaling",),
        params=_params(),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.rescaling",
        notes=NOTES,
    ),
    Claim(
        id="W.rescaling.integrable",
        summary="finding: App. C's targets are not integrable (∫ρ = Σ1/k = ∞), against §2.2 and App. "
                "D",
        title="App. C's targets are integrable memory functions (finding: they are not)",
        statement=IntegrableTargets(),
        provenance=Provenance("W", "App. C vs §2.2 and App. D (ICLR camera-ready)", QUOTE_L1),
        tolerance="SymPy exact (termwise integrals by Tonelli, divergence of their sum); "
                  "flint: enclosure of the quadrature; points: c·(quadrature tolerance + K·u)",
        uses=("W.rescaling",),
        symbolic=symbolic_l1,
        numeric=numeric_l1,
        strategy=l1_strategy,
        holds=l1_holds,
        notes="Finding (the printed text disagrees with itself): ∫_0^∞ k^−2 e^{−t/k} dt = 1/k and "
              "∫_0^∞ k^−2 e^{−t/k²} dt = 1, so ∫_0^∞ ρ = Σ 1/k = ∞ and ∫_0^∞ ρ₂ = Σ 1 = ∞: "
              "neither is the kernel of a bounded linear functional on (C₀, sup) (‖H‖ = ∫|ρ|), "
              "and the truncations converge in sup-norm but not in W's functional norm "
              "(∫|ρ − ρ_m| = Σ_(k>m) 1/k = ∞). Only the symbolic side decides it (a divergent "
              "integral has no finite numeric certificate); the numeric side computes the "
              "partial norms ∫ρ_K by quadrature and confirms the termwise integrals the "
              "disproof rests on (∫ρ_4 = 25/12 for ρ, 4 for ρ₂).",
    ),
]
