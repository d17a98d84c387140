"""The memory of a linear functional in paper W (ICLR 2024 camera-ready): eq. (4) of §3.1, the
impulse form (119)–(120) of App. F and the reversed-input form (126)–(127) of App. G.

Printed (W §2.2 eq. (3), §3.1 eq. (4)): for the linear functional
``H_t(x) = ∫₀^∞ ρ(s)ᵀ x_{t−s} ds`` and the Heaviside input ``u^x_t = x·1_[0,∞)(t)``,

    sup_{x≠0} |d/dt H_t(u^x)| / ‖u^x‖_∞ = sup_{x≠0} |xᵀρ(t)| / |x|_∞ = |ρ(t)|₁.        (4)

App. F replaces u^x by the impulse ``i^x_t = x (t = 0), 0 (t ≠ 0)`` and drops d/dt (eq. (119),
(120)); App. G by the reversed input ``r^x_t = x (t < 0), 0 (t ≥ 0)``, read at time t (eq. (126),
(127)). Each is claimed to equal |ρ(t)|₁.

:class:`LinearMemory` is the one statement of this family. The test input's query Q_t(x) is what
the printed memory takes the sup of: d/dt H_t(u^x), H_t(i^x) or d/dt H_t(r^x). Two readings of the
printed impulse: ``literal`` (a function equal to x at the single instant 0: its integral against
ρ vanishes, so H_t(i^x) = 0) and ``dirac`` (the unit mass x·δ₀, the limit of the pulses
(x/δ)·1_[0,δ): H_t(i^x) = xᵀρ(t)). The knobs a nearby false statement changes: the norm of x in
the denominator (∞ as printed, or 1), the norm of ρ(t) on the right (1 as printed, ∞, or the
signed sum Σρ_i), and a constant factor on the right.

Decision procedures here:

- :func:`linear_memory_proof` (symbolic side): Q_t(x) from the definition (3) for undefined
  ρ₁…ρ_d (SymPy: Leibniz rule, DiracDelta, the literal integrand), giving Q_t(x) = ε·xᵀρ(t) with
  ε ∈ {1, −1, 0}; then the sup over x ≠ 0 — a maximum of the convex function |xᵀv| over the unit
  ball of the statement's norm, attained at an extreme point (vertices of the cube for |·|_∞, ±e_i
  for |·|₁) — against the right-hand side: an exact witness v where they differ disproves, and for
  the printed norms the orthant argument proves the identity for every v.
- :func:`exact_query` / :func:`judge` (the counterexample search): the same sup for kernels
  ρ(s) = Σ_j w_j a_j^s with rational bases a_j whose square roots are rational, at half-integer t,
  computed exactly in the ring Σ c·a^s·(ln a)^k (integration divides by ln a, differentiation
  multiplies by it), so the definition is integrated and differentiated exactly in ℚ.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Decided, Proof, decide_zero, proof_from_steps
from recmem.theory.statement import Control, Statement

INPUTS = ("heaviside", "impulse", "reversed")
IMPULSE_READINGS = ("dirac", "literal")
X_NORMS = ("inf", "1")
RHO_NORMS = ("1", "inf", "sum")
# Small but certain deviation of the near control (a constant on the right-hand side).
NEAR_SCALE = Fraction(65, 64)

_QUERY_TEXT = {"heaviside": "d/dt H_t(u^x)", "impulse": "H_t(i^x)", "reversed": "d/dt H_t(r^x)"}
_X_NORM_TEXT = {"inf": "|x|_∞", "1": "|x|₁"}
_RHO_TEXT = {"1": "|ρ(t)|₁", "inf": "|ρ(t)|_∞", "sum": "Σ_i ρ_i(t)"}
_REALISATION_TEXT = {
    "riesz": "the linear functional H_t(x) = ∫₀^∞ ρ(s)ᵀx_(t−s) ds (eq. (3)), ρ continuous at t > 0",
    "simulator": "Def. 3.1's memory function (eq. (5)) of a linear functional (eq. (3)) queried as a black "
                 "box (a linear RNN with cᵀe^(Wt)U = ρ(t)ᵀ, or a user simulator), ρ continuous at t > 0",
}


@dataclass(frozen=True)
class LinearMemory(Statement):
    """sup_{x≠0} |Q_t(x)| / |x|_p = scale·N(ρ(t)) for a linear functional, for every test input
    in ``inputs`` (W eq. (4); App. F (119)–(120); App. G (126)–(127)).

    ``inputs``: the test inputs (``heaviside`` u^x, ``impulse`` i^x, ``reversed`` r^x);
    ``impulse``: the reading of i^x (``dirac`` or ``literal``); ``x_norm``: p of the denominator
    (``inf`` as printed, ``1``); ``rho_norm``: N (``1`` as printed, ``inf``, ``sum`` = Σρ_i
    without absolute values); ``scale``: a constant on the right (1 as printed);
    ``realisation``: how H is given (``riesz``: eq. (3) itself; ``simulator``: a black box, the
    setting of Def. 3.1's queried memory).
    """

    inputs: tuple[str, ...] = ("heaviside",)
    impulse: str = "dirac"
    x_norm: str = "inf"
    rho_norm: str = "1"
    scale: Fraction = Fraction(1)
    realisation: str = "riesz"

    def __post_init__(self) -> None:
        bad = [v for v in self.inputs if v not in INPUTS]
        if (bad or not self.inputs or self.impulse not in IMPULSE_READINGS
                or self.x_norm not in X_NORMS or self.rho_norm not in RHO_NORMS
                or self.realisation not in _REALISATION_TEXT):
            raise ValueError(f"not a LinearMemory statement: {self!r}")

    # ---- text and controls ------------------------------------------------------------------
    @property
    def text(self) -> str:
        rhs = _RHO_TEXT[self.rho_norm]
        if self.scale != 1:
            rhs = f"({self.scale})·{rhs}"
        parts = []
        for inp in self.inputs:
            q = _QUERY_TEXT[inp]
            parts.append(f"sup_(x≠0) |{q}| / {_X_NORM_TEXT[self.x_norm]} = {rhs}"
                         + (f" [{self.input_text(inp)}]"))
        return f"For {_REALISATION_TEXT[self.realisation]}: " + "; ".join(parts)

    def input_text(self, inp: str) -> str:
        """The test input in words (the printed definition, with the reading of i^x)."""
        if inp == "heaviside":
            return "u^x_t = x·1_[0,∞)(t)"
        if inp == "reversed":
            return "r^x_t = x for t < 0, 0 for t ≥ 0, read at time t"
        if self.impulse == "literal":
            return "i^x_t = x at t = 0, 0 for t ≠ 0 (a function: literal reading)"
        return "i^x = x·δ₀, the unit mass at 0 (limit of the pulses (x/δ)·1_[0,δ): Dirac reading)"

    def controls(self) -> tuple[Control, ...]:
        out = [Control("|x|_∞ in the denominator replaced by |x|₁" if self.x_norm == "inf"
                       else "|x|₁ in the denominator replaced by |x|_∞",
                       replace(self, x_norm="1" if self.x_norm == "inf" else "inf"))]
        for other in RHO_NORMS:
            if other != self.rho_norm:
                out.append(Control(f"{_RHO_TEXT[self.rho_norm]} replaced by {_RHO_TEXT[other]}",
                                   replace(self, rho_norm=other)))
        out.append(Control(f"right-hand side multiplied by {NEAR_SCALE} (near control)",
                           replace(self, scale=self.scale * NEAR_SCALE)))
        return tuple(out)

    # ---- the formula, over any ring ---------------------------------------------------------
    def extreme_points(self, d: int) -> list[tuple[int, ...]]:
        """The extreme points of the unit ball of |·|_p in ℝ^d, up to sign (x and −x give the same
        ratio for a linear query): the vertices of the cube for p = ∞, the e_i for p = 1. The sup
        of the convex, positively homogeneous |Q_t(x)| / |x|_p over x ≠ 0 is the maximum of
        |Q_t(x)| over them."""
        if self.x_norm == "inf":
            return [(1, *v) for v in itertools.product((1, -1), repeat=d - 1)]
        return [tuple(int(i == j) for j in range(d)) for i in range(d)]

    def x_norm_of(self, x: Sequence[int]) -> int:
        """|x|_p of an extreme point (exact)."""
        return max(abs(v) for v in x) if self.x_norm == "inf" else sum(abs(v) for v in x)

    def lhs(self, queries: Sequence[Any], points: Sequence[Sequence[int]], *,
            absolute: Callable[[Any], Any], maximum: Callable[[Sequence[Any]], Any]) -> Any:
        """max over the extreme points x of |Q_t(x)| / |x|_p (``queries`` in the order of
        ``points``), in any arithmetic that supplies ``absolute`` and ``maximum``."""
        return maximum([absolute(q) / self.x_norm_of(x) for q, x in zip(queries, points,
                                                                         strict=True)])

    def rhs(self, rho: Sequence[Any], *, absolute: Callable[[Any], Any],
            maximum: Callable[[Sequence[Any]], Any],
            number: Callable[[Fraction], Any] = lambda q: q) -> Any:
        """scale·N(ρ(t)) for the vector ρ(t), in any arithmetic (``number`` converts the exact
        constant into it)."""
        if self.rho_norm == "1":
            acc = absolute(rho[0])
            for v in rho[1:]:
                acc = acc + absolute(v)
        elif self.rho_norm == "inf":
            acc = maximum([absolute(v) for v in rho])
        else:
            acc = rho[0]
            for v in rho[1:]:
                acc = acc + v
        return acc * number(self.scale) if self.scale != 1 else acc


# ---------------------------------------------------------------------------------------------
# symbolic decision


def query_expression(statement: LinearMemory, inp: str, d: int) -> tuple[Any, Any, Any, Any]:
    """(Q_t(x) from the definition (3), x, ρ(t), t) in SymPy for undefined ρ₁…ρ_d."""
    return _query_expression(inp, statement.impulse, d)


@functools.cache
def _query_expression(inp: str, impulse: str, d: int) -> tuple[Any, Any, Any, Any]:
    """The SymPy derivation, a pure function of the test input, the impulse reading and d (the
    norms of the statement do not enter it), computed once per process."""
    import sympy as sp

    s, t = sp.symbols("s t", positive=True)
    xs = sp.symbols(f"x1:{d + 1}", real=True)
    rho = [sp.Function(f"rho{i + 1}") for i in range(d)]
    integrand = sum((x * f(s) for x, f in zip(xs, rho, strict=True)), sp.Integer(0))
    if inp == "heaviside":  # u^x_{t−s} = x exactly for 0 ≤ s ≤ t
        q = sp.Integral(integrand, (s, 0, t)).diff(t).doit()
    elif inp == "reversed":  # r^x_{t−s} = x exactly for s > t
        q = sp.Integral(integrand, (s, t, sp.oo)).diff(t).doit()
    elif impulse == "dirac":
        q = sp.integrate(integrand * sp.DiracDelta(s - t), (s, 0, sp.oo))
    else:  # the literal impulse: i^x_{t−s} = x only at s = t
        q = sp.integrate(sp.Piecewise((integrand, sp.Eq(s, t)), (0, True)), (s, 0, sp.oo))
    return q, xs, [f(t) for f in rho], t


def _orthant_argument(eps: int, d: int) -> tuple[Decided, list[str]]:
    """max over the cube's vertices s of |ε·sᵀv| equals |v|₁ for every v ∈ ℝ^d, |ε| = 1.

    On the orthant of a sign pattern σ ∈ {−1, 0, 1}^d, |v|₁ = σᵀv. The vertex σ' (σ with 0 → 1)
    attains it, and for every vertex s both |v|₁ ∓ ε·sᵀv = Σ_i (σ_i ∓ ε s_i) v_i are sums of terms
    whose coefficient is 0 or has the sign σ_i of v_i: non-negative on the orthant. Checked in
    integers for every σ and s (the argument is termwise, so it holds for every d). Exact integer
    arithmetic: a pattern where it fails is decided false (a failed derivation step)."""
    steps = []
    for sigma in itertools.product((-1, 0, 1), repeat=d):
        attain = tuple(v if v else 1 for v in sigma)
        if sum(abs(eps) * sg * a for sg, a in zip(sigma, attain, strict=True)) != sum(
                abs(sg) for sg in sigma):
            why = f"σ = {sigma}: the vertex {attain} does not attain |v|₁"
            return (False, {"integers": why}), [why]
        for vertex in itertools.product((1, -1), repeat=d):
            for sgn in (1, -1):
                coeff = [sg - sgn * eps * s for sg, s in zip(sigma, vertex, strict=True)]
                if any(c * sg < 0 for c, sg in zip(coeff, sigma, strict=True)):
                    why = f"σ = {sigma}, vertex {vertex}: coefficients {coeff}"
                    return (False, {"integers": why}), [why]
    steps.append(f"every sign pattern σ ∈ {{−1,0,1}}^{d} and vertex s: |v|₁ ∓ ε·sᵀv has "
                 "coefficients of the sign of v_i (or 0); the vertex σ' attains |v|₁")
    return (True, {}), steps


# Exact witness points v = ρ(t) tried against every statement (a disproof needs only one).
WITNESSES: tuple[tuple[Fraction, ...], ...] = (
    (Fraction(1), Fraction(-1, 2), Fraction(1, 4)),
    (Fraction(1), Fraction(1, 2), Fraction(-3, 4)),
    (Fraction(2), Fraction(3), Fraction(0)),
)


_EPSILON: dict[Any, tuple[int | None, dict[int, Decided]]] = {}


def _epsilon(inp: str, impulse: str, d: int) -> tuple[int | None, dict[int, Decided]]:
    """(ε, the decisions tried) with Q_t(x) = ε·xᵀρ(t), ε tried in the order 1, −1, 0 and the
    first one decided True taken; None when none is.

    A pure function of the derivation (:func:`_query_expression`: the test input, the impulse
    reading and d; the statement's norms do not enter it) and of the decider, so decided once per
    process and read by the statement and its controls alike; the key holds the decider
    (``decide_zero`` as this module sees it), so a decider replaced in a test decides afresh. The
    tries stop at the first ε decided True: the later ones are read only when no ε is (to report
    the ones decided false)."""
    key = (inp, impulse, d, decide_zero)
    if key not in _EPSILON:
        _EPSILON[key] = _decide_epsilon(inp, impulse, d)
    return _EPSILON[key]


def _decide_epsilon(inp: str, impulse: str, d: int) -> tuple[int | None, dict[int, Decided]]:
    import sympy as sp

    q, xs, rho_t, t_ = _query_expression(inp, impulse, d)
    xdotrho = sum((x * r for x, r in zip(xs, rho_t, strict=True)), sp.Integer(0))
    # each ε's difference is also evaluated at an exact point (ρ_i(s) = s + i, x_i = i, t = 1),
    # so that Q_t(x) ≠ ε·xᵀρ(t) for every ε is decided false (a failed derivation)
    s_ = sp.Dummy("s")
    at = [{**{r.func: sp.Lambda(s_, s_ + i + 1) for i, r in enumerate(rho_t)},
           **{x: i + 1 for i, x in enumerate(xs)}, t_: 1}]
    tried: dict[int, Decided] = {}
    for e in (1, -1, 0):
        tried[e] = decide_zero(q - e * xdotrho, at)
        if tried[e][0] is True:
            return e, tried
    return None, tried


def linear_memory_proof(statement: LinearMemory, d: int = 3) -> Proof:
    """Decide ``statement`` symbolically for every ρ continuous at t > 0 (the derivation in the
    module docstring). False with an exact witness ρ(t) where the two sides differ."""

    t0 = time.perf_counter()
    details: dict[str, Any] = {}
    for inp in statement.inputs:
        q, _, _, _ = query_expression(statement, inp, d)
        eps, tried = _epsilon(inp, statement.impulse, d)
        details[f"Q_t(x) for {inp}"] = str(q)
        if eps is None:
            wrong = [e for e, (ok, _) in tried.items() if ok is False]
            step = (False, {f"ε = {e}": tried[e][1].get("difference at the point", tried[e][1].get(
                "difference (reduced)")) for e in wrong}) if len(wrong) == 3 else None
            return proof_from_steps({f"Q_t(x) = ε·xᵀρ(t), ε ∈ {{1, −1, 0}} ({inp})": step},
                                    f"input {inp}", "SymPy: Q_t(x) from eq. (3)", details)
        points = statement.extreme_points(d)
        for w in WITNESSES:
            vals = [eps * sum((a * b for a, b in zip(x, w, strict=True)), Fraction(0))
                    for x in points]
            lhs = statement.lhs(vals, points, absolute=abs, maximum=max)
            rhs = statement.rhs(list(w), absolute=abs, maximum=max)
            if lhs != rhs:
                return Proof(False, f"input {inp}: exact evaluation at ρ(t) = {list(map(str, w))}",
                             "SymPy: Q_t(x) from eq. (3); the sup over x is the maximum over the "
                             "extreme points of the unit ball",
                             counterexample={"input": statement.input_text(inp),
                                             "Q_t(x) (SymPy)": str(q), "ρ(t)": [str(v) for v in w],
                                             "sup_x |Q_t(x)|/|x|_p": str(lhs),
                                             "right-hand side": str(rhs),
                                             "maximised over": [list(x) for x in points]},
                             details=details)
        printed = (statement.x_norm, statement.rho_norm, statement.scale) == ("inf", "1", 1)
        if not printed or eps == 0:
            return Proof(None, f"input {inp}", "no exact witness separates the sides and no "
                         "general argument covers these norms", details=details)
        orthant, steps = _orthant_argument(eps, d)
        details[f"orthant argument ({inp})"] = " | ".join(steps)
        if orthant[0] is not True:  # decided false in integers: a failed derivation (FAILED)
            return proof_from_steps({f"orthant argument ({inp})": orthant}, f"input {inp}",
                                    "orthant argument", details)
    details["seconds"] = round(time.perf_counter() - t0, 3)
    inputs = ", ".join(statement.inputs)
    return Proof(True, f"every ρ continuous at t > 0 (undefined functions ρ₁…ρ_{d}), every d "
                 f"(termwise orthant argument, checked for d = {d}); inputs: {inputs}",
                 "SymPy: Q_t(x) from eq. (3) (Leibniz rule / DiracDelta) = ε·xᵀρ(t); sup over x "
                 "= max over the cube's vertices; orthant argument for |v|₁",
                 details=details, general=True)


# ---------------------------------------------------------------------------------------------
# exact instances: ρ(s) = Σ_j w_j a_j^s, computed in ℚ at half-integer t

# Bases a with rational √a, so a^t is rational at half-integer t (the search's kernels).
ROOTS: dict[Fraction, Fraction] = {Fraction(1, 4): Fraction(1, 2), Fraction(9, 16): Fraction(3, 4),
                                   Fraction(1, 16): Fraction(1, 4), Fraction(4, 9): Fraction(2, 3)}


@dataclass(frozen=True)
class ExpTerm:
    """c·a^s·(ln a)^k as a function of s (c rational, a one of :data:`ROOTS`)."""

    coeff: Fraction
    base: Fraction
    log_power: int

    def integral(self) -> ExpTerm:
        """An antiderivative in s: a^s (ln a)^k integrates to a^s (ln a)^(k−1)."""
        return replace(self, log_power=self.log_power - 1)

    def derivative(self) -> ExpTerm:
        return replace(self, log_power=self.log_power + 1)

    def at(self, t: Fraction) -> Fraction:
        """The value at a half-integer t ≥ 0 (needs log_power 0: no ln a left)."""
        if self.log_power != 0:
            raise ValueError("a transcendental factor (ln a)^k with k ≠ 0 is left")
        if (2 * t).denominator != 1 or t < 0:
            raise ValueError(f"t must be a non-negative half-integer, got {t}")
        return self.coeff * ROOTS[self.base] ** int(2 * t)


def exact_query(statement: LinearMemory, inp: str, terms: Sequence[tuple[Fraction,
                Sequence[Fraction]]], x: Sequence[int], t: Fraction) -> Fraction:
    """Q_t(x) for ρ(s) = Σ_j w_j a_j^s (``terms`` = [(a_j, w_j)]), exactly.

    f(s) = xᵀρ(s) = Σ_j (xᵀw_j) a_j^s. Heaviside: G(τ) = ∫₀^τ f = F(τ) − F(0) with F the
    antiderivative, Q = G'(t); reversed: G(τ) = ∫_τ^∞ f = −F(τ) (every a_j < 1), Q = G'(t);
    Dirac impulse: lim_{δ→0} (1/δ)∫_{t−δ}^t f = F'(t); literal impulse: the integrand vanishes
    off the single point s = t, so the integral is 0. Derivatives act on the closed forms.
    """
    f = [ExpTerm(sum((Fraction(xi) * wi for xi, wi in zip(x, w, strict=True)), Fraction(0)),
                 a, 0) for a, w in terms]
    if inp == "impulse" and statement.impulse == "literal":
        return Fraction(0)
    big_f = [term.integral() for term in f]
    if inp == "reversed":
        big_f = [replace(term, coeff=-term.coeff) for term in big_f]
    # Heaviside's −F(0) and the impulse's limit are constants/derivatives: only F' remains
    return sum((term.derivative().at(t) for term in big_f), Fraction(0))


def exact_rho(terms: Sequence[tuple[Fraction, Sequence[Fraction]]], t: Fraction) -> list[Fraction]:
    """ρ(t) = Σ_j w_j a_j^t, exactly."""
    d = len(terms[0][1])
    return [sum((ExpTerm(w[i], a, 0).at(t) for a, w in terms), Fraction(0)) for i in range(d)]


def judge(statement: LinearMemory, terms: Sequence[tuple[Fraction, Sequence[Fraction]]],
          t: Fraction) -> tuple[bool, dict[str, Any]]:
    """Whether the statement holds at this exact instance, with the values compared."""
    d = len(terms[0][1])
    points = statement.extreme_points(d)
    rho = exact_rho(terms, t)
    rhs = statement.rhs(rho, absolute=abs, maximum=max)
    values: dict[str, Any] = {"ρ(s)": " + ".join(f"{[str(v) for v in w]}·({a})^s" for a, w in terms),
                              "t": str(t), "ρ(t)": [str(v) for v in rho],
                              "right-hand side": str(rhs)}
    ok = True
    for inp in statement.inputs:
        qs = [exact_query(statement, inp, terms, x, t) for x in points]
        lhs = statement.lhs(qs, points, absolute=abs, maximum=max)
        values[f"sup_x |Q_t(x)|/|x|_p ({inp})"] = str(lhs)
        ok &= lhs == rhs
    return ok, values
