"""The activation classes of paper W, Def. 3.8 (eqs. (12)–(13) of the ICLR camera-ready).

Printed: "We consider the following family of bounded monotone Lipschitz continuous activations
which are locally-linear/locally-tanh around 0: For some Z₀ > 0,
  𝒜₀ := {σ(·) | σ(z) = c_σ z, c_σ > 0, |z| < Z₀},                                   (12)
  𝒜₁ := {σ(·) | σ(0) = 0; σ differentiable, σ′(z) = a − bσ(z)², a, b ≥ 0, |z| < Z₀}. (13)
Notice A₀ ∪ A₁ includes the commonly used activations such as hardtanh and tanh. In particular,
tanh corresponds to the case a = b = 1 for A₁ with Z₀ = ∞."

:class:`ActivationClasses` is the claim: tanh ∈ 𝒜₁ with a = b = 1 and Z₀ = ∞ (printed), and
hardtanh ∈ 𝒜₀ with c_σ = 1, Z₀ = 1 — the paper prints no constants for hardtanh ("A₀ ∪ A₁
includes … hardtanh"); c_σ = 1 and the largest Z₀ = 1 are our reading.

Proof of the tanh part: with E = e^{2z} > 0, tanh z = (E − 1)/(E + 1) is differentiable and
σ′ − (a − bσ²) is a rational function of E (dE/dz = 2E), identically 0 exactly when a = b = 1;
1 − σ² = 4E/(E + 1)² ∈ (0, 1] gives boundedness, strict monotonicity and the Lipschitz constant 1.
hardtanh is the piecewise function −1, z, 1: σ(z) − c z vanishes on (−Z₀, Z₀) iff c = 1 and
Z₀ ≤ 1 (σ(z) = 1 ≠ z for z > 1).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Decided, Proof, decide_zero, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

# Activations recmem supports (numerics/activations.py) besides the two of the claim, and sigmoid,
# which W §2 names among "commonly used" activations.
OTHERS = ("identity", "relu", "softplus", "sigmoid")


@dataclass(frozen=True)
class ActivationClasses(Statement):
    """W Def. 3.8: tanh ∈ 𝒜₁(a, b, Z₀ = ∞) and hardtanh ∈ 𝒜₀(c_σ, Z₀).

    Fields: the 𝒜₁ constants of tanh (``a``, ``b``; printed a = b = 1) and the 𝒜₀ constants of
    hardtanh (``c``, ``z0``; our reading c_σ = 1, Z₀ = 1).
    """

    a: Fraction = Fraction(1)
    b: Fraction = Fraction(1)
    c: Fraction = Fraction(1)
    z0: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        return (f"tanh ∈ 𝒜₁ with a = {self.a}, b = {self.b}, Z₀ = ∞, and hardtanh ∈ 𝒜₀ with "
                f"c_σ = {self.c}, Z₀ = {self.z0}, where for some Z₀ > 0 "
                "𝒜₀ := {σ | σ(z) = c_σ z, c_σ > 0, |z| < Z₀} (12) and 𝒜₁ := {σ | σ(0) = 0; σ "
                "differentiable, σ′(z) = a − bσ(z)², a, b ≥ 0, |z| < Z₀} (13), within the bounded "
                "monotone Lipschitz continuous activations")

    def controls(self) -> tuple[Control, ...]:
        return (Control("𝒜₁ constant a changed from 1 to 9/8", replace(self, a=self.a * Fraction(9, 8))),
                Control("𝒜₁ constant b halved", replace(self, b=self.b / 2)),
                Control("𝒜₀ slope c_σ halved", replace(self, c=self.c / 2)),
                Control("𝒜₀ linear-region bound Z₀ doubled", replace(self, z0=2 * self.z0)))

    # -- the defining identities, in any arithmetic --

    def a1_residual(self, sigma: Any, dsigma: Any) -> Any:
        """σ′ − (a − bσ²): zero on |z| < Z₀ for a member of 𝒜₁ (13)."""
        a, b = self.a, self.b
        # integer operations and one division: exact over ℚ(E), balls, floats alike
        return dsigma - (a.numerator * b.denominator - b.numerator * a.denominator * sigma * sigma
                         ) / (a.denominator * b.denominator)

    def a0_residual(self, z: Any, sigma: Any) -> Any:
        """σ(z) − c_σ z: zero on |z| < Z₀ for a member of 𝒜₀ (12)."""
        return sigma - self.c.numerator * z / self.c.denominator

    def a0_region(self, sp: Any) -> Any:
        """The open interval |z| < Z₀ of 𝒜₀'s definition (12), as a SymPy set."""
        return sp.Interval.open(-self.z0.numerator / sp.Integer(self.z0.denominator),
                                self.z0.numerator / sp.Integer(self.z0.denominator))

    def in_a0_region(self, z: Fraction) -> bool:
        """Whether z lies in :meth:`a0_region`."""
        import sympy as sp

        return bool(self.a0_region(sp).contains(sp.Rational(z.numerator, z.denominator)))


def hardtanh_expr(sp: Any, z: Any) -> Any:
    """hardtanh(z) = −1 (z < −1), z (|z| ≤ 1), 1 (z > 1) as a SymPy Piecewise."""
    return sp.Piecewise((-1, z < -1), (1, z > 1), (z, True))


@functools.cache
def _tanh_facts() -> tuple[tuple[str, Decided], ...]:
    """Facts about tanh that no statement field changes (cached): its exp form, σ(0) = 0,
    1 − σ² in ℚ(E) (bounded, increasing, 1-Lipschitz) and tanh ∉ 𝒜₀, each decided by SymPy as a
    derivation step (confirmed, undecided, or decided false: a difference also evaluated at an
    exact point)."""
    import sympy as sp

    z = sp.Symbol("z", real=True)
    big_e = sp.Symbol("E", positive=True)  # E = e^{2z}
    th_e = (big_e - 1) / (big_e + 1)
    return (
        ("tanh(z) = (e^{2z} − 1)/(e^{2z} + 1)",
         decide_zeros([sp.tanh(z).rewrite(sp.exp) - th_e.subs(big_e, sp.exp(2 * z))],
                      points=[{z: 1}])),
        ("σ(0) = 0", decide_zeros([sp.tanh(0)])),
        ("1 − σ² = 4E/(E + 1)² (> 0: |σ| < 1, σ′ > 0; Lipschitz 1)",
         decide_zeros([1 - th_e**2 - 4 * big_e / (big_e + 1)**2], points=[{big_e: 2}])),
        ("tanh ∉ 𝒜₀ (z³ coefficient −1/3)",
         decide_zeros([sp.series(sp.tanh(z), z, 0, 4).removeO().coeff(z, 3) + sp.Rational(1, 3)])),
    )


def _tanh_part(sp: Any, st: ActivationClasses) -> tuple[bool | None, dict[str, Any], dict[str, Any]]:
    """tanh ∈ 𝒜₁ with the statement's a, b and Z₀ = ∞, decided in ℚ(E), E = e^{2z}."""
    big_e, residual = tanh_residual_in_e(st)
    # σ′(z) = dσ/dE · dE/dz = dσ/dE · 2E, a rational function of E: differentiable for all z
    ok, witness = decide_zero(residual, [{big_e: 1}, {big_e: 2}, {big_e: 3}], simplify=sp.cancel)
    facts = _tanh_facts_proof()
    details: dict[str, Any] = {k: facts.details[k] for k, _ in _tanh_facts()}
    details["σ′ − (a − bσ²) in ℚ(E), E = e^{2z}"] = str(residual)
    if ok is False:  # a constant nonzero residual is shown at z = 0 (E = 1)
        e_val = sp.sympify(witness["point"]["E"]) if "point" in witness else sp.Integer(1)
        witness = {"activation": "tanh", "z": str(sp.log(e_val) / 2),
                   "σ′ − (a − bσ²)": str(residual.subs(big_e, e_val))}
    if not all(v[0] is True for _, v in _tanh_facts()[:2]):  # exp form and σ(0) = 0 unproved
        ok = None
    return ok, witness, details


def _tanh_facts_proof() -> Proof:
    """:func:`_tanh_facts` as a proof of steps (a fact decided false: a failed derivation)."""
    return proof_from_steps(dict(_tanh_facts()), "tanh", "SymPy: facts about tanh")


def _hardtanh_part(sp: Any, st: ActivationClasses) -> tuple[bool | None, dict[str, Any],
                                                             dict[str, Any]]:
    """hardtanh ∈ 𝒜₀ with the statement's c_σ and Z₀: σ(z) − c_σ z on each piece of hardtanh
    inside (−Z₀, Z₀), identically 0 or nonzero at an exact point of the piece."""

    z = sp.Symbol("z", real=True)
    h = hardtanh_expr(sp, z)
    region = st.a0_region(sp)
    witness: dict[str, Any] = {}
    ok: bool | None = True
    for expr, where in h.as_expr_set_pairs():
        piece = where.intersect(region)
        if piece.is_empty:
            continue
        diff = sp.expand(st.a0_residual(z, expr))
        if diff == 0:
            continue
        # a nonzero polynomial of degree ≤ 1 vanishes at one point at most: try three points
        lo, hi = piece.inf, piece.sup
        points = [lo + (hi - lo) * sp.Rational(k, 4) for k in (2, 1, 3)] if lo != hi else [lo]
        hit = next(((p, diff.subs(z, p)) for p in points if diff.subs(z, p) != 0), None)
        if hit is None:
            ok = None
            continue
        ok, witness = False, {"activation": "hardtanh", "z": str(hit[0]),
                              "σ(z) − c_σ·z": str(hit[1])}
        break
    details: dict[str, Any] = dict(_hardtanh_facts())
    details["c_σ > 0"] = st.c > 0
    if st.c <= 0:
        ok, witness = False, {"activation": "hardtanh", "c_σ": str(st.c), "violates": "c_σ > 0"}
    return ok, witness, details


@functools.cache
def _hardtanh_facts() -> tuple[tuple[str, bool], ...]:
    """hardtanh is bounded, continuous, monotone and 1-Lipschitz (no statement field changes
    these; cached)."""
    import sympy as sp
    from sympy.calculus.util import function_range

    z = sp.Symbol("z", real=True)
    h = hardtanh_expr(sp, z)
    pieces = h.as_expr_set_pairs()
    return (
        ("bounded: range σ(ℝ) = [−1, 1]",
         sp.Union(*(function_range(e, z, s) for e, s in pieces)) == sp.Interval(-1, 1)),
        ("continuous at ±1 (one-sided limits agree)",
         all(sp.limit(h, z, p, "-") == sp.limit(h, z, p, "+") for p in (-1, 1))),
        ("monotone and 1-Lipschitz (continuous, slopes 0, 1, 0)",
         sorted((sp.diff(e, z) for e, _ in pieces), key=str) == [0, 0, 1]),
    )


@functools.cache
def _others() -> tuple[tuple[str, str], ...]:
    """Where identity, relu, softplus and sigmoid fall (a note, not a claim of the paper;
    cached)."""
    import sympy as sp

    return tuple(_classify(sp).items())


def _classify(sp: Any) -> dict[str, str]:
    """Where identity, relu, softplus and sigmoid fall (a note, not a claim of the paper)."""
    z = sp.Symbol("z", real=True)
    eps = sp.Symbol("epsilon", positive=True)
    relu = sp.Max(z, 0)
    softplus = sp.log(1 + sp.exp(z))
    sigmoid = 1 / (1 + sp.exp(-z))
    unbounded = {name: sp.limit(f, z, sp.oo) == sp.oo for name, f in
                 (("identity", z), ("relu", relu), ("softplus", softplus))}

    def tag(ok: bool, text: str) -> str:
        return text if ok else "undecided: " + text

    return {
        "identity": tag(unbounded["identity"],
                        "σ = z: locally 𝒜₀ (c = 1) and 𝒜₁ (a = 1, b = 0) with Z₀ = ∞, but "
                        "unbounded, so outside Def. 3.8's family of bounded activations"),
        "relu": tag(relu.subs(z, -eps) == 0 and relu.subs(z, eps) == eps and unbounded["relu"],
                    "not 𝒜₀: relu(−ε) = 0 ≠ −c·ε; not 𝒜₁: σ′ = 0 on z < 0 forces a = 0, then "
                    "σ′ = 1 = −bz² on z > 0 is impossible; unbounded"),
        "softplus": tag(softplus.subs(z, 0) == sp.log(2) and unbounded["softplus"],
                        "σ(0) = log 2 ≠ 0: neither 𝒜₀ nor 𝒜₁; unbounded"),
        "sigmoid": tag(sigmoid.subs(z, 0) == sp.Rational(1, 2),
                       "σ(0) = 1/2 ≠ 0: neither 𝒜₀ nor 𝒜₁ (bounded, monotone)"),
    }


def activation_proof(st: ActivationClasses) -> Proof:
    """Decide the statement with SymPy: tanh's identity in ℚ(E) (E = e^{2z}) with the statement's
    a, b; hardtanh's σ(z) − c_σ z on each of its pieces inside (−Z₀, Z₀)."""
    import sympy as sp

    t0 = time.perf_counter()
    ok_t, cx_t, det_t = _tanh_part(sp, st)
    ok_h, cx_h, det_h = _hardtanh_part(sp, st)
    details: dict[str, Any] = {f"tanh: {k}": v for k, v in det_t.items()}
    details |= {f"hardtanh: {k}": v for k, v in det_h.items()}
    details |= {f"note, {k}": v for k, v in _others()}
    details["seconds"] = round(time.perf_counter() - t0, 3)
    if ok_t is False or ok_h is False:
        return Proof(False, "the exact point shown", "SymPy: the defining identity at an exact "
                     "point is nonzero", counterexample=cx_t if ok_t is False else cx_h,
                     details=details)
    facts = _tanh_facts_proof()
    if facts.failed_step is not None:  # a fact about tanh decided false: a failed derivation
        return Proof(None, "all real z", "SymPy decided a fact about tanh false", details=details,
                     failed_step=facts.failed_step)
    undecided = [k for k, v in details.items() if v is False or v == "undecided"]
    if ok_t is None or ok_h is None or undecided:
        return Proof(None, "all real z", "SymPy could not decide" + (
            f": {undecided}" if undecided else ""), details=details)
    return Proof(True, "all real z: tanh by a rational-function identity in E = e^{2z} "
                 "(dE/dz = 2E); hardtanh on each Piecewise piece inside (−Z₀, Z₀)",
                 "SymPy: exp form of tanh, σ′ − (a − bσ²) cancelled to 0 in ℚ(E), "
                 "1 − σ² = 4E/(E+1)²; hardtanh's pieces, range, slopes and continuity",
                 details=details, general=True)


@functools.lru_cache(maxsize=32)
def tanh_residual_in_e(st: ActivationClasses) -> Any:
    """σ′ − (a − bσ²) for σ = tanh as a reduced rational function of E = e^{2z} (SymPy)."""
    import sympy as sp

    big_e = sp.Symbol("E", positive=True)
    th = (big_e - 1) / (big_e + 1)
    return big_e, sp.cancel(st.a1_residual(th, sp.diff(th, big_e) * 2 * big_e))


def identity_at(st: ActivationClasses, name: str, q: Fraction) -> bool | None:
    """Whether the statement's identity for σ holds exactly at the rational point z = q.

    tanh: the residual is R(e^{2q}) with R the reduced rational function of
    :func:`tanh_residual_in_e`: R ≡ 0 holds everywhere; otherwise e^{2q} is transcendental for
    rational q ≠ 0 (Lindemann), so R(e^{2q}) ≠ 0, and q = 0 is decided by R(1). hardtanh: inside
    |q| < Z₀, σ(q) − c_σ q in rational arithmetic; None outside the statement's region.
    """
    if name == "hardtanh":
        if not st.in_a0_region(q):
            return None
        return st.a0_residual(q, max(min(q, Fraction(1)), Fraction(-1))) == 0
    big_e, r = tanh_residual_in_e(st)
    if r == 0:
        return True
    if q != 0:
        return False
    return r.subs(big_e, 1) == 0
