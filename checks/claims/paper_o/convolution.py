"""O.linear-functional-conv (O App. A, Theorem 4) and O.linear-rnn-conv (Theorem 5): cited results
of [26] on linear functionals, checked on instances (CORROBORATED at best).

Theorem 4 (statement: :class:`recmem.theory.linear_functionals.LinearFunctionalConvolution`): a
library of functionals given by their definitions (convolutions with exponential-polynomial
kernels, the zero functional, a delay, anti-causal and time-reversed convolutions, a modulated
convolution, a convolution of u²) is decided exactly (sums Σ q·e^a, Lindemann–Weierstrass): which
of the five hypotheses each satisfies (a violated one with its exact witness) and whether it is a
convolution with an integrable kernel (the kernel recovered from the step response, or an exact
consequence of any representation that fails). Finding: property 5 as printed, H_t(u^τ) =
H_(t+τ)(u) with u^τ_t = u(t − τ), fails for every non-zero causal convolution (they satisfy
H_t(u^τ) = H_(t−τ)(u), i.e. H(S_τu) = S_τH(u) as paper W §2.2 states it); the printed theorem
holds on the instances only through the zero functional. Both readings are claims. Numeric
side (float64 by scipy's QUADPACK, mpmath by its quadrature): every H_t(u) integrated from the
functional's definition, the hypotheses (property 5 with the statement's sign) and the
representation (S(t) against ∫₀^t ρ, the convolution with that kernel integrated in the input's
variable) decided from those values within 4·64·u, read through the same statement.

Theorem 5 (statement: :class:`recmem.theory.linear_rnn_conv.LinearRNNApproximation`): exact
RNNs for exponential-sum and Jordan kernels (SymPy matrix exponential; every arithmetic's matrix
exponential at sample times), and for ρ = (1 + s)^−2 the trapezoidal RNNs of widths 5 … 25 whose
L¹ error ∫|ρ − ρ̂| (= sup_t sup_‖u‖<1 |H_t(u) − Ĥ_t(u)|) is computed in each arithmetic from the
closed-form antiderivative between the sign changes of ρ − ρ̂.
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import (
    Claim,
    Context,
    Param,
    Provenance,
    by_arithmetic,
    grows,
    parse_fraction,
)
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.scalars import Scalars
from recmem.theory.linear_functionals import (
    HATS,
    KINDS,
    SHIFTS,
    SHRINK,
    TIMES,
    Functional,
    LinearFunctionalConvolution,
    Piece,
    Term,
    convolution_proof,
    facts_of,
    hat,
    library,
    scaled,
    shifted,
    step,
)
from recmem.theory.linear_rnn_conv import (
    HALF_WIDTHS,
    KernelInstance,
    LinearRNNApproximation,
    rnn_proof,
    sinc_rnn,
)

QUOTE_4 = (r"Theorem 4 (Linear functionals in $C_0(\mathbb{R}, \mathbb{R}^d)$ are convolutions [26]) "
           r"*Let $\{H_t : t \in \mathbb{R}\}$ be a family of continuous, linear, causal, regular, "
           r"and time-homogeneous functionals on \mathcal{U} , i.e. such that* 1. (Continuous) "
           r"$\forall t \in \mathbb{R}, \sup_{\|u\| < 1} H_t(u) < \infty$. 2. (Linear) $\forall t "
           r"\in \mathbb{R}, u, v \in \mathcal{U}$ and $\nu, \lambda \in \mathbb{R}$, we have "
           r"$H_t(\lambda u + \nu v) = \lambda H_t(u) + \nu H_t(v)$. 3. (Causal) For all $u, v \in "
           r"\mathcal{U}$ such that $u(s) = v(s)$ for all $s \leq t$, we have $H_t(v) = H_t(u)$. "
           r"4. (Regular) Let (u^n) be a sequence in \mathcal{U} s.t. $u^n(s) \rightarrow 0$ for "
           r"almost every $s \in \mathbb{R}$, then, for all $t \in \mathbb{R}$, we have $\lim_{n "
           r"\rightarrow \infty} H_t(u^n) = 0$. 5. (Time Homogeneous) For all $u \in \mathcal{U}$ "
           r"let $u_t^\tau = u(t - \tau)$, then $H_t(u^\tau) = H_{t+\tau}(u)$. Then, for any $\{H_t "
           r": t \in \mathbb{R}\}$ there exist a function (a kernel) $\bar{\rho} : \mathbb{R}_+ "
           r"\rightarrow \mathbb{R}^M$ such that for all $t \in \mathbb{R}$. $$H_t(u) = "
           r"\int_0^\infty \rho(s)^\top u(t-s) ds = \sum_i (\bar{\rho}^i \star u^i)_t.$$")
QUOTE_5 = (r"Theorem 5 (Linear RNNs can parametrize any convolution [26]) *Let $\{H_t : t \in "
           r"\mathbb{R}\}$ be a family of continuous, linear, causal, regular, and time-homogeneous "
           r"functionals on \mathcal{U} . Then, for any $\epsilon > 0$ there exists $\{\hat{H}_t : "
           r"t \in \mathbb{R}\} \in \hat{\mathcal{H}}$ such that* $$\sup_{t \in \mathbb{R}} "
           r"\sup_{\|u\| < 1} \|H_t(u) - \hat{H}_t(u)\| \leq \epsilon.$$ The result above typically "
           r"involves taking N (RNN width) to infinity.")
QUOTE_HN = (r"$$\mathcal{H}_N := \left\{ \{H_t : t \in \mathbb{R}\}, H_t(u) = \int_0^t C^\top e^{As} "
            r"B u(t-s) ds, C \in \mathbb{R}^{1 \times N}, A \in \mathbb{R}^{N \times N}, B \in "
            r"\mathbb{R}^{N \times M} \right\}.$$")

# ---- Theorem 4 ------------------------------------------------------------------------------

# The library's kernels: 2e^{−s} − ½e^{−3s} and s·e^{−s} (exact rationals)
LIBRARY_KERNELS = (((Fraction(2), 0, Fraction(1)), (Fraction(-1, 2), 0, Fraction(3))),
                   ((Fraction(1), 1, Fraction(1)),))


def _facts(f: Functional, ctx: Context) -> Any:
    """The statement-independent facts of a functional, shared by the statement and its
    controls (``ctx.shared``)."""
    key = ("linear-functional facts", f)
    if key not in ctx.shared:
        ctx.shared[key] = facts_of(f)
    return ctx.shared[key]


def symbolic_4(ctx: Context) -> list[Evidence]:
    """The statement on the library, exactly (theory.linear_functionals.convolution_proof)."""
    t0 = time.perf_counter()
    facts = [(f, _facts(f, ctx)) for f in library(LIBRARY_KERNELS)]
    return [from_proof(convolution_proof(ctx.law(LinearFunctionalConvolution), facts),
                       time.perf_counter() - t0)]


def strategy_4(ctx: Context) -> Any:
    """Functionals of every kind with one-term kernels c·s^m·e^{−rs} (c ∈ {1, −1, 2}, m ≤ 1,
    r ∈ {1/2, 1, 2}), delays τ₀ ∈ {1/2, 1}, modulations γ ∈ {1/64, 1}, and the zero functional."""
    from hypothesis import strategies as st

    term = st.tuples(st.sampled_from([Fraction(1), Fraction(-1), Fraction(2)]), st.integers(0, 1),
                     st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2)]))
    return st.builds(Functional, kind=st.sampled_from(KINDS),
                     kernel=st.one_of(st.just(()), st.tuples(term)),
                     tau0=st.sampled_from([Fraction(1, 2), Fraction(1)]),
                     gamma=st.sampled_from([Fraction(1, 64), Fraction(1)]))


def holds_4(f: Functional, ctx: Context) -> Instance:
    """Exact judge: the functional's hypotheses and representation (shared facts)."""
    ok, info = ctx.law(LinearFunctionalConvolution).judge(f, _facts(f, ctx))
    return Instance(ok, "exact arithmetic in Σ q·e^a (Lindemann–Weierstrass)", info)


# ---- Theorem 4, numerically: the definitions integrated by quadrature in one arithmetic --------

# the numeric side's test points (a subset of the exact side's, to stay cheap at 256 bits): one
# time, one hat, one shift for the hypotheses; both hats for the representation
N_TIMES = TIMES[-1:]
N_HAT = HATS[0]
N_SHIFTS = SHIFTS[:1]


_QUAD_CONTEXTS: dict[int, Any] = {}
_NUMERIC_FACTS: dict[tuple[str, Any], Any] = {}


class _Quadrature(Scalars):
    """Quadrature in one arithmetic: scipy's QUADPACK (QAGS, 21-point Gauss–Kronrod) in float64,
    mpmath's Gauss–Legendre (tanh-sinh on a half-line) at the backend's precision. Each integral
    is taken over one piece on which the integrand is analytic (the pieces' ends are breakpoints),
    and returns its own error estimate (the run-time oracle)."""

    def __init__(self, backend: AbstractBackend) -> None:
        super().__init__(backend)
        if self.kind == "numpy" and self.dt != self.np.float64:
            raise BackendUnavailable(f"{backend.name}: scipy's quadrature runs in float64 only")
        if self.kind not in ("numpy", "mpmath"):
            raise BackendUnavailable(f"{backend.name}: no adaptive quadrature in this arithmetic")
        if self.kind == "mpmath":
            if backend.precision_bits < 53:
                raise BackendUnavailable(f"{backend.name}: mpmath's Gauss–Legendre nodes do not "
                                         "converge below 53 bits")
            # one context per precision for the whole process: its Gauss–Legendre nodes are
            # cached on it (computing them at 256 bits costs more than the integrals)
            shared: Any = _QUAD_CONTEXTS.setdefault(backend.precision_bits, mpmath.MPContext())
            shared.prec = backend.precision_bits
            self.mp = shared
        self.worst_estimate = mpmath.mpf(0)

    def integral(self, g: Any, lo: Fraction, hi: Fraction | None) -> Any:
        """∫_lo^hi g (hi None: ∞); records the larger of the estimates of its error."""
        if self.kind == "numpy":
            import scipy.integrate

            # epsrel as small as QUADPACK accepts (50·eps ≈ 1.1e-14 is its floor)
            val, err = scipy.integrate.quad(g, float(lo), math.inf if hi is None else float(hi),
                                            epsabs=0.0, epsrel=2.0**-46, limit=100)
        else:
            mp = self.mp
            # degree 6 (96 nodes) reaches 2^-256 on these O(1)-long pieces (the error roughly
            # squares per degree: one more per doubling of the precision); mpmath's estimate from
            # the last three degrees is the oracle
            bits = self.backend.precision_bits
            degree = 6 + max(0, math.ceil(math.log2(bits / 256)))
            val, err = mp.quad(g, [self.num(lo), mp.inf if hi is None else self.num(hi)],
                               method="gauss-legendre" if hi is not None else "tanh-sinh",
                               maxdegree=degree if hi is not None else None, error=True)
        # relative to max(1, |value|), as the residuals are
        rel = mpmath.mpf(err) / max(mpmath.mpf(1), abs(mpmath.mpf(val)))
        self.worst_estimate = max(self.worst_estimate, rel)
        return val


def _input(q: _Quadrature, u: tuple[Piece, ...]) -> Any:
    """x ↦ u(x) for the piecewise-linear input (pieces (lo, hi, α, β): α + βx on [lo, hi]; zero
    elsewhere), its constants rounded once into the arithmetic."""
    pieces = [(None if lo is None else q.num(lo), None if hi is None else q.num(hi), q.num(al),
               q.num(be)) for lo, hi, al, be in u]
    zero = q.num(0)

    def at(x: Any) -> Any:
        for lo, hi, al, be in pieces:
            if (lo is None or x >= lo) and (hi is None or x <= hi):
                return al + be * x
        return zero
    return at


def _kernel(q: _Quadrature, kernel: tuple[Term, ...]) -> Any:
    """s ↦ ρ(s) = Σ c s^m e^{−rs}, term by term, its constants rounded once into the arithmetic."""
    terms = [(q.num(c), m, -q.num(r)) for c, m, r in kernel]
    zero = q.num(0)

    exp = q.mp.exp if q.kind == "mpmath" else q.np.exp

    def at(s: Any) -> Any:
        return sum(((c * s if m == 1 else c * s**m if m else c) * exp(r * s)
                    for c, m, r in terms), zero)
    return at


def _definition(q: _Quadrature, f: Functional, u: tuple[Piece, ...], t: Fraction) -> Any:
    """H_t(u) from the functional's definition (theory.linear_functionals.Functional): the delay
    read off, every other kind integrated over s ≥ 0 by quadrature, split where the argument of
    u crosses an end of one of its pieces."""
    if f.kind == "delay":
        return _input(q, u)(q.num(t - f.tau0))
    if not f.kernel:
        return q.num(0)
    # the argument x(s) of u, and s as a function of x (to find the breakpoints)
    arg = {"anti-causal": (lambda s: q.num(t) + s, lambda x: x - t),
           "reflected": (lambda s: s - q.num(t), lambda x: x + t)}.get(
        f.kind, (lambda s: q.num(t) - s, lambda x: t - x))
    ends = {Fraction(0)} | {arg[1](e) for lo, hi, _, _ in u for e in (lo, hi) if e is not None}
    cuts = sorted(e for e in ends if e >= 0)
    power = 2 if f.kind == "squared" else 1
    rho, u_at = _kernel(q, f.kernel), _input(q, u)

    def g(s: Any) -> Any:
        return rho(s) * u_at(arg[0](s)) ** power

    # u vanishes beyond its pieces, except a step's infinite piece: integrate to ∞ when the
    # input is non-zero there
    tail = any((hi is None and f.kind in ("anti-causal", "reflected"))
               or (lo is None and f.kind not in ("anti-causal", "reflected")) for lo, hi, _, _ in u)
    bounds = list(itertools.pairwise(cuts)) + ([(cuts[-1], None)] if tail else [])
    # a piece on which u is zero (outside its support) contributes nothing: no quadrature
    live = [(a, b) for a, b in bounds
            if u_at(arg[0](q.num((a + b) / 2 if b is not None else a + 1))) != 0]
    total = sum((q.integral(g, a, b) for a, b in live), q.num(0))
    return total * q.num(1 + f.gamma * t * t) if f.kind == "modulated" else total


def _representation(q: _Quadrature, kernel: tuple[Term, ...], u: tuple[Piece, ...],
                    t: Fraction) -> Any:
    """∫ ρ(t − τ) u(τ) dτ over τ ≤ t (the convolution with the kernel recovered from the step
    response), integrated in the input's own variable τ, split at the ends of u's pieces."""
    if not kernel:
        return q.num(0)
    ends = sorted({e for lo, hi, _, _ in u for e in (lo, hi) if e is not None and e < t} | {t})
    rho, u_at, tt = _kernel(q, kernel), _input(q, u), q.num(t)
    total = q.num(0)
    for a, b in itertools.pairwise(ends):
        total += q.integral(lambda x: rho(tt - x) * u_at(x), a, b)
    return total


class _NumericFacts:
    """Theorem 4's hypotheses and its conclusion for one functional, decided from values
    computed by quadrature: an identity holds when its residual |a − b|/max(1, |a|, |b|) (the
    values are O(1): ∫|ρ| ≤ 2, ‖u‖ ≤ 2) is within ``tol``, fails beyond ``margin``, and is
    undecided in between."""

    def __init__(self, q: _Quadrature, f: Functional, tol: mpmath.mpf, margin: mpmath.mpf) -> None:
        self.q, self.f, self.tol, self.margin = q, f, tol, margin
        self.memo: dict[tuple[tuple[Piece, ...], Fraction], Any] = {}
        self.hi = _QUAD_CONTEXTS.setdefault(-max(q.backend.precision_bits + 16, 64),
                                            mpmath.MPContext())
        self.hi.prec = max(q.backend.precision_bits + 16, 64)  # residuals above the arithmetic

    def h(self, u: list[Piece], t: Fraction) -> Any:
        key = (tuple(u), t)
        if key not in self.memo:
            self.memo[key] = _definition(self.q, self.f, key[0], t)
        return self.memo[key]

    def residual(self, a: Any, b: Any) -> mpmath.mpf:
        ctx = self.hi
        a = ctx.mpf(a) if self.q.kind == "mpmath" else ctx.mpf(float(a))
        b = ctx.mpf(b) if self.q.kind == "mpmath" else ctx.mpf(float(b))
        return mpmath.mpf(abs(a - b) / max(ctx.one, abs(a), abs(b)))

    def decide(self, pairs: list[tuple[Any, Any, str]]) -> tuple[bool | None, mpmath.mpf, str]:
        """(all equal: True / one differs beyond ``margin``: False / else None, the largest
        residual, the first differing pair's label)."""
        worst, where = mpmath.mpf(0), ""
        for a, b, label in pairs:
            r = self.residual(a, b)
            if r > worst:
                worst = r
            if r > self.margin:
                return False, r, label
        return (True if worst <= self.tol else None), worst, where

    def properties(self) -> tuple[dict[str, tuple[bool, str]], dict[str, tuple[bool, str]]]:
        """(properties in theory.linear_functionals.properties' keys, whether each is undecided)."""
        h, zero = self.h, self.q.num(0)
        lam = Fraction(-3, 2)
        checks: dict[str, list[tuple[Any, Any, str]]] = {
            "linear": [(h(scaled(hat(*N_HAT), lam), t), lam_times(self.q, lam, h(hat(*N_HAT), t)),
                        f"H_{t}(λu) vs λH_{t}(u)") for t in N_TIMES],
            "causal": [(h(hat(t + 1, Fraction(1, 2)), t), zero, f"H_{t}(hat({t + 1}, 1/2)) vs 0")
                       for t in N_TIMES]}
        for sign in (1, -1):
            checks[f"time-homogeneous{sign:+d}"] = [
                (h(shifted(hat(*N_HAT), tau), t), h(hat(*N_HAT), t + sign * tau),
                 f"H_{t}(u^τ) vs H_({t + sign * tau})(u), τ = {tau}")
                for t in N_TIMES for tau in N_SHIFTS]
        props = {"continuous": (True, "bounded by construction")}
        undecided = {"continuous": (False, "")}
        for name, pairs in checks.items():
            ok, r, label = self.decide(pairs)
            props[name] = (ok is True, f"residual {tol.fmt(r)}" + (f" at {label}" if label else ""))
            undecided[name] = (ok is None, "")
        stuck = self.stuck()
        props["regular"] = (stuck is False, "shrinking hats: " + (
            "H_t(u^n) stays put" if stuck else "H_t(u^n) → 0" if stuck is False else "undecided"))
        undecided["regular"] = (stuck is None, "")
        return props, undecided

    def stuck(self) -> bool | None:
        """Whether H_t(hat(t − τ₀, 2^-n)) stays at one non-zero value for every n (None:
        undecided)."""
        t = N_TIMES[-1]
        vals = [self.h(hat(t - self.f.tau0, w), t) for w in SHRINK[:3]]
        same, _, _ = self.decide([(v, vals[0], "") for v in vals[1:]])
        nonzero, _, _ = self.decide([(vals[0], self.q.num(0), "")])
        if same is None or nonzero is None:
            return None
        return same is True and nonzero is False

    def representation(self) -> tuple[bool | None, mpmath.mpf, str]:
        """Theorem 4's conclusion: exact consequences of any representation first (as in
        theory.linear_functionals.representation), then the kernel recovered from the step
        response S(t) = H_t(1_[0,∞)) = ∫₀^t ρ and the convolution with it on hats."""
        q, f, h = self.q, self.f, self.h

        def s_of(t: Fraction) -> Any:  # the step response S(t) = H_t(1_[0,∞))
            return h(step(Fraction(0)), t)

        consequences = [
            [(s_of(Fraction(-1)), q.num(0), "S(−1) vs 0")],
            [(h(step(a), tt), s_of(tt - a), f"H_{tt}(1_[{a},∞)) vs S({tt - a})")
             for tt, a in ((Fraction(2), Fraction(1)),)],
            [(h(scaled(hat(*N_HAT), Fraction(2)), t), lam_times(q, Fraction(2), h(hat(*N_HAT), t)),
              f"H_{t}(2u) vs 2H_{t}(u)") for t in N_TIMES]]
        worst = mpmath.mpf(0)
        stuck = self.stuck()
        if stuck:
            return False, mpmath.mpf(1), "H_t(u^n) stays put for hats shrinking to a point"
        for pairs in consequences:
            ok, r, label = self.decide(pairs)
            if ok is False:
                return False, r, label
            worst = max(worst, r)
        ok, r, label = self.decide(
            [(s_of(t), q.integral(_kernel(q, f.kernel), Fraction(0), t)
              if f.kernel else q.num(0), f"S({t}) vs ∫₀^{t} ρ") for t in N_TIMES]
            + [(h(hat(a, w), t), _representation(q, f.kernel, tuple(hat(a, w)), t),
                f"H_{t}(hat({a}, {w})) vs ∫ρ(t−τ)u(τ)dτ") for t in N_TIMES for a, w in HATS])
        if ok is False:
            return None, r, f"no kernel recovered: {label}"
        return (None if ok is None or stuck is None else True), max(worst, r), label


def lam_times(q: _Quadrature, lam: Fraction, v: Any) -> Any:
    """λ·v in the arithmetic."""
    return q.num(lam) * v


# quadrature rounding: each value is a rule of at most ~64 nodes per piece over O(1) integrands
# (c·n·u with c = 4, n = 64), so two values of one identity agree to 4·64·u; a violation must
# exceed 2^(P/2) times that to count as one (the library's smallest is ≈ 1/64)
QUAD_C, QUAD_N = 4.0, 64


def numeric_4(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The statement on the library, from values computed by quadrature in ``backend``: each
    functional's hypotheses decided numerically (property 5 with the statement's sign), and for
    every functional that has the statement's hypotheses, the representation (the kernel from the
    step response, the convolution with it on hats) — FAIL when such a functional is not one."""
    law = ctx.law(LinearFunctionalConvolution)
    t0 = time.perf_counter()
    with backend.activate():
        # statement-independent (as facts_of is): computed once per arithmetic in the process, for
        # the statement, its controls and the other reading
        key = (backend.name, LIBRARY_KERNELS)
        if key not in _NUMERIC_FACTS:
            q = _Quadrature(backend)
            judged = tol.condition_scaled(mpmath.mpf(0), c=QUAD_C, n=QUAD_N, kappa=mpmath.mpf(1),
                                          unit_roundoff=backend.unit_roundoff, kappa_text="1")
            bound = QUAD_C * QUAD_N * backend.unit_roundoff
            margin = bound * mpmath.mpf(2) ** (backend.precision_bits // 2)
            facts = []
            for f in library(LIBRARY_KERNELS):
                nf = _NumericFacts(q, f, bound, margin)
                props, undecided = nf.properties()
                facts.append((f, props, undecided, nf.representation()))
            _NUMERIC_FACTS[key] = (facts, bound, judged.source, q.worst_estimate)
        facts, bound, source, estimate = _NUMERIC_FACTS[key]
    worst, failed, undecided_any, rows = mpmath.mpf(0), None, [], {}
    for f, props, undecided, (rep, r, label) in facts:
        ok, info = law.judge(f, (props, (rep, label)))
        covered = all(law.fact(props, h)[0] for h in law.hypotheses)
        if any(law.fact(undecided, h)[0] for h in law.hypotheses):
            undecided_any.append(f.description)
            continue
        if not covered:
            continue
        rows[f.description] = tol.fmt(r)
        if ok is False and failed is None:
            failed = (f, r, info)
        elif ok is None:
            undecided_any.append(f.description)
        else:
            worst = max(worst, r)
    check = "the library by quadrature: hypotheses, then the step-response kernel's convolution"
    base = dict(check=check, kind="numeric", backend=backend.name,
                precision_bits=backend.precision_bits, tolerance=tol.fmt(bound),
                tolerance_source=source + "; quadrature error estimates (relative) ≤ the tolerance",
                data=rows, seconds=time.perf_counter() - t0)
    if estimate > bound:
        return [Evidence(outcome=Outcome.FAIL, residual=tol.fmt(worst),
                         message=f"a quadrature's relative error estimate {tol.fmt(estimate)} "
                                 "exceeds the tolerance: its values are not resolved", **base)]
    if failed is not None:
        f, r, info = failed
        return [Evidence(outcome=Outcome.FAIL, residual=tol.fmt(r),
                         message=f"{f.description} has the hypotheses (numerically) but is no "
                                 f"convolution: {info.get('representation')} (quadrature: "
                                 "uncertified)", **base)]
    if undecided_any:
        return [Evidence(outcome=Outcome.INCONCLUSIVE, residual=tol.fmt(worst),
                         message="undecided at this precision: " + "; ".join(undecided_any),
                         **base)]
    return [Evidence(outcome=Outcome.PASS, residual=tol.fmt(worst), **base)]


# ---- Theorem 5 ------------------------------------------------------------------------------

# the exactly representable kernels and the non-exponential one
KERNELS_5 = (KernelInstance("expsum", (Fraction(2), Fraction(-1, 2)), (Fraction(1), Fraction(3))),
             KernelInstance("jordan", (), (Fraction(1),)),
             KernelInstance("poly", power=2))
SAMPLE_TIMES = (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4))


def symbolic_5(ctx: Context) -> list[Evidence]:
    """Exact RNNs by SymPy's matrix exponential; the pole of (1 + s)^−p against ``exact``."""
    t0 = time.perf_counter()
    return [from_proof(rnn_proof(ctx.law(LinearRNNApproximation), list(KERNELS_5)),
                       time.perf_counter() - t0)]


class _Arith(Scalars):
    """Scalars of one arithmetic (checks/claims/paper_o/_scalars.py) with the matrix exponential's
    response."""

    def sqrt(self, x: Any) -> Any:
        return self.mp.sqrt(x) if self.kind == "mpmath" else self.num(x) ** 0.5

    @property
    def pi(self) -> Any:
        if self.kind == "mpmath":
            return self.mp.pi
        return self.dt.type(3.141592653589793) if self.kind == "numpy" else self.num(
            Fraction(3.141592653589793))

    def expm_response(self, w: list[list[Fraction]], b: list[Fraction], c: list[Fraction],
                      s: Fraction) -> Any:
        """cᵀ e^{Ws} b with the arithmetic's own matrix exponential."""
        n = len(w)
        if self.kind == "mpmath":
            e = self.mp.expm(self.mp.matrix([[self.num(v * s) for v in row] for row in w]))
            return self.mp.fsum(self.num(c[i]) * e[i, j] * self.num(b[j])
                                for i in range(n) for j in range(n))
        if self.kind == "numpy":
            import scipy.linalg

            if self.dt != self.np.float64:
                raise BackendUnavailable(f"{self.backend.name}: scipy's expm runs in float64 only")
            e = scipy.linalg.expm(self.np.array([[float(v * s) for v in row] for row in w]))
            return self.np.array([float(v) for v in c]) @ e @ self.np.array([float(v) for v in b])
        t = self.torch
        m = t.tensor([[float(v * s) for v in row] for row in w], dtype=self.tdt, device=self.dev)
        cv = t.tensor([float(v) for v in c], dtype=self.tdt, device=self.dev)
        bv = t.tensor([float(v) for v in b], dtype=self.tdt, device=self.dev)
        return cv @ t.linalg.matrix_exp(m) @ bv


def _exact_value(k: KernelInstance, s: Fraction, ctx: Any) -> Any:
    """ρ(s) in the mpmath context ``ctx`` from the kernel's closed form (the reference)."""
    sv = ctx.mpf(s.numerator) / s.denominator
    if k.kind == "expsum":
        return ctx.fsum(ctx.mpf(c.numerator) / c.denominator
                        * ctx.exp(-ctx.mpf(r.numerator) / r.denominator * sv)
                        for c, r in zip(k.coeffs, k.rates, strict=True))
    r = k.rates[0]
    return sv * ctx.exp(-ctx.mpf(r.numerator) / r.denominator * sv)


def _impulse_check(backend: AbstractBackend, law: LinearRNNApproximation) -> Evidence:
    """The exact RNNs' impulse responses cᵀe^{Ws}b (the arithmetic's matrix exponential) against
    ρ at sample times: max |ρ̂ − ρ| / max|ρ| ≤ 64·N·u·(1 + ‖W‖s) (expm's backward error bound
    grows with ‖Ws‖; the responses here are sums of N bounded terms)."""
    t0 = time.perf_counter()
    ar = _Arith(backend)
    worst, bound = mpmath.mpf(0), mpmath.mpf(0)
    u = backend.unit_roundoff
    hi = mpmath.MPContext()  # the reference's precision: 32 bits above the arithmetic's
    hi.prec = backend.precision_bits + 32
    for k in KERNELS_5:
        rnn = k.exact_rnn()
        if rnn is None or not law.admits(len(rnn[0])):
            continue
        w, b, c = rnn
        ref = {s: _exact_value(k, s, hi) for s in SAMPLE_TIMES}
        scale = max(abs(v) for v in ref.values())
        for s in SAMPLE_TIMES:
            got = ar.expm_response(w, b, c, s)
            got = hi.mpf(got) if ar.kind == "mpmath" else hi.mpf(float(got))
            worst = max(worst, mpmath.mpf(abs(got - ref[s]) / scale))
            norm_w = max(sum(abs(v) for v in row) for row in w)
            bound = max(bound, 64 * len(w) * u * (1 + float(norm_w * s)))
    outcome = Outcome.PASS if worst <= bound else Outcome.FAIL
    return Evidence(check="exact RNNs (e^(−s), e^(−3s), Jordan s·e^(−s)): cᵀe^(Ws)b vs ρ at s ≤ 4",
                    kind="numeric", backend=backend.name, outcome=outcome,
                    precision_bits=backend.precision_bits, residual=tol.fmt(worst),
                    tolerance=tol.fmt(bound),
                    tolerance_source="64·N·u·(1 + ‖W‖∞ s); reference at P + 32 bits",
                    seconds=time.perf_counter() - t0)


def _l1_error(ar: _Arith, p: int, half_width: int) -> mpmath.mpf:
    """∫₀^∞ |(1 + s)^−p − ρ̂(s)| ds for the trapezoidal RNN, in the arithmetic: the sign changes of
    the difference are bracketed on a grid s ∈ {0} ∪ {2^(j/4)}, j = −40 … 64, and bisected 30
    times (all brackets at once in numpy and torch); between them the integral is F(b) − F(a)
    with the closed-form antiderivative F(s) = (1 − (1 + s)^(1−p))/(p − 1) − Σ c_k (1 −
    e^(−r_k s))/r_k, and F(∞) closes the last piece. A pair of sign changes inside one grid cell
    would be missed (an underestimate)."""
    rates, coeffs = sinc_rnn(p, half_width, ar.pi, ar.sqrt, ar.exp)
    if ar.kind == "mpmath":
        return _l1_scalar(ar, p, rates, coeffs)
    if ar.kind == "numpy":
        xp, r, c = ar.np, ar.np.array(rates), ar.np.array(coeffs)
        outer, stack = xp.multiply.outer, xp.array
    else:
        xp, r, c = ar.torch, ar.torch.stack(rates), ar.torch.stack(coeffs)
        outer, stack = ar.torch.outer, ar.torch.stack
    one = ar.num(1)

    def d(s: Any) -> Any:  # s: a vector of times
        return (one + s) ** (-p) - xp.exp(-outer(s, r)) @ c

    def big_f(s: Any) -> Any:
        return (one - (one + s) ** (1 - p)) / (p - 1) - (one - xp.exp(-outer(s, r))) @ (c / r)

    grid = stack([ar.num(0)] + [ar.num(2) ** (ar.num(j) / 4) for j in range(-40, 65)])
    pos = d(grid) > 0
    change = (pos[1:] != pos[:-1]).nonzero()
    idx = change[0] if ar.kind == "numpy" else change[:, 0]
    lo, hi, sign = grid[idx], grid[idx + 1], pos[idx]
    for _ in range(30):
        mid = (lo + hi) / 2
        keep = (d(mid) > 0) == sign
        lo, hi = xp.where(keep, mid, lo), xp.where(keep, hi, mid)
    f_at = big_f(xp.concatenate([grid[:1], (lo + hi) / 2]) if ar.kind == "numpy"
                 else xp.cat([grid[:1], (lo + hi) / 2]))
    f_inf = one / (p - 1) - (c / r).sum()
    total = abs(f_at[1:] - f_at[:-1]).sum() + abs(f_inf - f_at[-1])
    return mpmath.mpf(float(total))


def _l1_scalar(ar: _Arith, p: int, rates: list[Any], coeffs: list[Any]) -> mpmath.mpf:
    """:func:`_l1_error` in mpmath, one scalar at a time."""
    mp, one = ar.mp, ar.mp.one

    def d(s: Any) -> Any:
        return (one + s) ** (-p) - mp.fsum(c * mp.exp(-r * s) for r, c in zip(rates, coeffs,
                                                                            strict=True))

    def big_f(s: Any) -> Any:
        if s is None:
            return one / (p - 1) - mp.fsum(c / r for r, c in zip(rates, coeffs, strict=True))
        return (one - (one + s) ** (1 - p)) / (p - 1) - mp.fsum(
            c * (one - mp.exp(-r * s)) / r for r, c in zip(rates, coeffs, strict=True))

    grid = [mp.zero] + [mp.mpf(2) ** (mp.mpf(j) / 4) for j in range(-40, 65)]
    signs = [d(s) > 0 for s in grid]
    cuts: list[Any] = [grid[0]]
    for i in range(len(grid) - 1):
        if signs[i] != signs[i + 1]:
            lo, hi = grid[i], grid[i + 1]
            for _ in range(30):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if (d(mid) > 0) == signs[i] else (lo, mid)
            cuts.append((lo + hi) / 2)
    vals = [big_f(s) for s in cuts] + [big_f(None)]
    return mpmath.mpf(mp.fsum(abs(b - a) for a, b in itertools.pairwise(vals)))


def _l1_check(backend: AbstractBackend, ctx: Context) -> Evidence:
    """The smallest L¹ error over every admitted width against ε (``exact``: against the rounding
    allowance 64·N·u alone, i.e. ε = 0). The residual is the same number for every statement
    that admits the same widths, so a control changes it only through the widths."""
    law = ctx.law(LinearRNNApproximation)
    t0 = time.perf_counter()
    ar = _Arith(backend)
    eps = mpmath.mpf(ctx["eps"].numerator) / ctx["eps"].denominator
    p = int(ctx["power"])
    best, rows, width = mpmath.inf, {}, 0
    for half in HALF_WIDTHS:
        n = 2 * half + 1
        if not law.admits(n):
            continue
        key = ("rnn L1", backend.name, p, half)
        if key not in ctx.shared:
            ctx.shared[key] = _l1_error(ar, p, half)
        err = ctx.shared[key]
        rows[f"N = {n}"] = tol.fmt(err)
        if err < best:
            best, width = err, n
    # the computed L¹ error is a sum of O(N) closed-form terms of size O(1): it is within
    # 64·N·u of the exact one; ε = 0 (``exact``) can only be refuted, never confirmed, by it
    allow = 64 * max(width, 1) * backend.unit_roundoff
    target = mpmath.mpf(0) if law.exact else eps
    if best - allow > target:
        outcome, message = Outcome.FAIL, ("no width reached the target: the constructed RNNs are "
                                          "not optimal, so this is no certificate")
    elif law.exact:  # consistent with 0 at this precision: rounding cannot confirm exactness
        outcome, message = Outcome.INCONCLUSIVE, (f"the L¹ error is within the rounding "
                                                  f"allowance {tol.fmt(allow)} of 0")
    elif best + allow <= target:
        outcome, message = Outcome.PASS, ""
    else:
        outcome, message = Outcome.INCONCLUSIVE, (f"the rounding allowance {tol.fmt(allow)} "
                                                  "straddles ε at this precision")
    return Evidence(check=f"trapezoidal linear RNNs for ρ = (1 + s)^−{p}: smallest L¹ error "
                    "∫|ρ − cᵀe^(Ws)b| over the widths", kind="numeric", backend=backend.name,
                    outcome=outcome, precision_bits=backend.precision_bits,
                    residual=tol.fmt(best), tolerance=tol.fmt(target + allow),
                    tolerance_source=("ε = 0 + rounding 64·N·u" if law.exact
                                      else "ε; rounding 64·N·u on either side is inconclusive"),
                    message=message,
                    data=rows, seconds=time.perf_counter() - t0)


def numeric_5(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Every arithmetic: the exact RNNs' impulse responses, then the L¹ errors."""
    law = ctx.law(LinearRNNApproximation)
    with backend.activate():
        out = []
        try:
            out.append(_impulse_check(backend, law))
        except BackendUnavailable as exc:
            out.append(Evidence(check="exact RNNs: cᵀe^(Ws)b vs ρ", kind="numeric",
                                backend=backend.name, outcome=Outcome.SKIPPED, message=str(exc)))
        out.append(_l1_check(backend, ctx))
    return out


def strategy_5(ctx: Context) -> Any:
    """Kernels: exponential sums (1–3 terms, rational coefficients and positive rates), Jordan
    kernels s·e^{−rs}, and (1 + s)^{−p} (p = 2, 3)."""
    from hypothesis import strategies as st

    q = st.sampled_from([Fraction(1), Fraction(-1, 2), Fraction(2), Fraction(1, 3)])
    r = st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3), Fraction(5, 2)])

    def expsum(n: int) -> Any:
        return st.builds(lambda cs, rs: KernelInstance("expsum", tuple(cs), tuple(rs)),
                         st.lists(q, min_size=n, max_size=n),
                         st.lists(r, min_size=n, max_size=n))

    return st.one_of(st.integers(1, 3).flatmap(expsum),
                     st.builds(lambda x: KernelInstance("jordan", (), (x,)), r),
                     st.builds(lambda p: KernelInstance("poly", power=p), st.integers(2, 3)))


def holds_5(k: KernelInstance, ctx: Context) -> Instance:
    """Exact judge (theory.linear_rnn_conv: exact RNNs, the pole of (1 + s)^−p)."""
    ok, info = ctx.law(LinearRNNApproximation).judge(k)
    return Instance(ok, "exact: the RNN's parameters reproduce ρ term by term; SymPy limit at the "
                    "pole", info)


TOL_4 = ("exact: sums Σ q·e^a with rational q, a decided by Lindemann–Weierstrass; float64 "
         "(scipy quad) and mpmath (quad): identities within 4·64·u, violations beyond 2^(P/2) times "
         "that, quadrature error estimates within it")
NUMERIC_4 = by_arithmetic({"numpy": numeric_4, "mpmath": numeric_4},
                          "no adaptive quadrature in this arithmetic (torch), and flint would only "
                          "re-enclose the exact side's closed forms")
TOL_5 = ("exact (SymPy); floats and mpmath: impulse responses within 64·N·u·(1 + ‖W‖s); the L¹ error "
         "against ε (+ 64·N·u rounding)")

READING_INTENDED = ("property 5 as shift-equivariance, H(S_τu) = S_τH(u) with [S_τu]_t = u(t − τ) (paper "
                    "W §2.2 states it so for the same class, after [26]): H_t(u^τ) = H_(t−τ)(u)")

CLAIMS = [
    Claim(
        id="O.linear-functional-conv",
        summary="cited [26]; as printed, property 5 (H_t(u^τ) = H_(t+τ)(u)) fails for every non-zero "
                "causal convolution: on the instances only H = 0 meets the hypotheses",
        title="Linear functionals are convolutions (Theorem 4, as printed)",
        statement=LinearFunctionalConvolution(shift=1),
        provenance=Provenance("O", "App. A, Theorem 4", QUOTE_4),
        tolerance=TOL_4,
        symbolic=symbolic_4,
        numeric=NUMERIC_4,
        strategy=strategy_4,
        holds=holds_4,
        notes="A cited theorem checked on instances. With u^τ_t = u(t − τ), a causal convolution "
              "satisfies H_t(u^τ) = H_(t−τ)(u), so the printed property 5 excludes it (exact "
              "witness in the facts of every convolution of the library); with causality the "
              "printed hypotheses leave only H = 0 among the instances, which is a convolution "
              "(ρ = 0). Dropping 'regular' or 'linear' then gives no false statement, so only "
              "'causal' (a time-reversed convolution) and 'time-homogeneous' (a modulated "
              "convolution) are dropped as controls. Numeric side (float64, mpmath): every value "
              "integrated from the functional's definition by quadrature, the hypotheses and the "
              "representation decided from those values through the same statement.",
    ),
    Claim(
        id="O.linear-functional-conv.intended",
        summary="read as shift-equivariance H(S_τu) = S_τH(u) (W §2.2): convolutions meet all five "
                "hypotheses and are recovered from their step response; each hypothesis is needed",
        title="Linear functionals are convolutions (Theorem 4, homogeneity as in [26])",
        statement=LinearFunctionalConvolution(shift=-1),
        provenance=Provenance("O", "App. A, Theorem 4", QUOTE_4),
        tolerance=TOL_4,
        uses=("O.linear-functional-conv",),
        symbolic=symbolic_4,
        numeric=NUMERIC_4,
        strategy=strategy_4,
        holds=holds_4,
        reading=READING_INTENDED,
        notes="Controls drop one hypothesis each and are refuted by a functional of the library: "
              "a delay (not regular), an anti-causal convolution, a convolution modulated by "
              "1 + t²/64 (near), a convolution of u² (not linear).",
    ),
    Claim(
        id="O.linear-rnn-conv",
        summary="cited [26]: exact RNNs for exponential kernels; (1+s)^−2 reached to ε = 1/64 in L¹ "
                "at N = 9, never exactly (pole at s = −1); instances only",
        title="Linear RNNs parametrize any convolution (Theorem 5)",
        statement=LinearRNNApproximation(),
        provenance=Provenance("O", "App. A, Theorem 5; §A Ĥ_N", QUOTE_5 + " … " + QUOTE_HN),
        tolerance=TOL_5,
        uses=("O.linear-functional-conv.intended",),
        params=(Param("eps", Fraction(1, 64), "the accuracy ε (L¹ distance of the kernels)",
                      parse_fraction, check=lambda v: None if 0 < v < 1 else
                      f"must lie in (0, 1), got {v}"),
                Param("power", 2, "p of the non-exponential kernel (1 + s)^−p", int,
                      check=lambda v: None if 2 <= v <= 4 else f"must lie in 2 … 4, got {v}",
                      max=4, cost=grows(1e4))),
        symbolic=symbolic_5,
        numeric=by_arithmetic({"numpy": numeric_5, "torch": numeric_5, "mpmath": numeric_5},
                              "no ball matrix exponential and root bracketing here: flint would "
                              "only re-enclose the same closed forms"),
        strategy=strategy_5,
        holds=holds_5,
        reading="Ĥ_N read from rest at −∞ (∫₀^∞), as Theorem 5's sup over t ∈ ℝ needs; the "
                "hypothesis class is Theorem 4's convolutions (integrable ρ)",
        notes="For scalar inputs sup_(‖u‖<1)|H_t(u) − Ĥ_t(u)| = ∫₀^∞|ρ − ρ̂| for every t, the "
              "quantity computed. The trapezoidal RNNs are a construction, not a best "
              "approximation: the FAIL of the bounded-width control is uncertified.",
    ),
]
