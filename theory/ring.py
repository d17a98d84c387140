"""Lemma 6 of paper O (App. B): the ring law 𝕋(r_min, r_max), and what it implies for V_N (§3.1).

Lemma 6 (as printed): u₁, u₂ ~ U[0, 1] independent, 0 ≤ r_min ≤ r_max ≤ 1,
ν = −½ log(u₁(r_max² − r_min²) + r_min²), θ = 2πu₂; then exp(−ν + iθ) is uniform on the ring
r_min ≤ |λ| ≤ r_max.

- :func:`lemma6_law` derives, with SymPy, the law of λ from the transformation: |λ|² is affine in
  u₁, the CDF of |λ| equals the area fraction of the annulus, and the Jacobian of
  (u₁, u₂) ↦ (|λ|, arg λ) gives exactly the area-uniform density in polar coordinates.
- :func:`invertible_as_printed` analyses §3.1's "V_N is invertible with probability one" under
  λ_i ~ 𝕋(r_min, r_max) on Lemma 6's whole domain: the law has an atom exactly when
  r_min = r_max = 0 (then every node is exp(−∞) = 0), which refutes the statement for N ≥ 2.
- :func:`invertible_corrected` proves the corrected statement (r_max > 0 ⇒ invertible a.s.).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof


def _symbols() -> tuple[Any, ...]:
    import sympy as sp

    u1 = sp.Symbol("u1", nonnegative=True)
    u2 = sp.Symbol("u2", nonnegative=True)
    r_min = sp.Symbol("r_min", nonnegative=True)
    # d = r_max² − r_min² > 0 on the non-degenerate part of the domain: writing r_max through d
    # lets SymPy use the sign of d without case analysis.
    d = sp.Symbol("d", positive=True)
    return u1, u2, r_min, d


def lemma6_argument(u1: Fraction, r_min: Fraction, r_max: Fraction) -> Fraction:
    """Lemma 6's log argument u₁(r_max² − r_min²) + r_min² = exp(−2ν) = |λ|², exactly (O App. B)."""
    return u1 * (r_max * r_max - r_min * r_min) + r_min * r_min


def lemma6_law() -> Proof:
    """Lemma 6 (O App. B): exp(−ν + iθ) is area-uniform on the annulus r_min ≤ |λ| ≤ r_max.

    Derivation (SymPy, symbolic r_min ≥ 0 and d = r_max² − r_min² > 0, i.e. 0 ≤ r_min < r_max):

    1. ρ := |exp(−ν + iθ)| = exp(−ν) simplifies to √(u₁d + r_min²), so ρ² = u₁d + r_min² is affine
       and strictly increasing in u₁ (slope d > 0), with ρ(0) = r_min and ρ(1) = r_max.
    2. Hence P(ρ ≤ r) = P(u₁ ≤ (r² − r_min²)/d) = (r² − r_min²)/d for r ∈ [r_min, r_max], which is
       the area fraction ∫_{r_min}^{r} 2πs ds / ∫_{r_min}^{r_max} 2πs ds of the annulus.
    3. Joint law: (u₁, u₂) ↦ (ρ, θ) has Jacobian determinant πd/ρ, so (ρ, θ) has density ρ/(πd)
       on [r_min, r_max] × [0, 2π): the area-uniform density 1/(π(r_max² − r_min²)) times the
       polar area element ρ. This includes the independence of the angle.

    Degenerate corner of the printed domain, r_min = r_max = r: ρ ≡ r and θ uniform, so λ is
    uniform (in arc length) on the circle |λ| = r, and the point 0 when r = 0 (ν = +∞,
    exp(−∞) = 0: the "ring" is a single point). u₁ = 0 with r_min = 0 gives ν = +∞, a null event.
    """
    import sympy as sp

    t0 = time.perf_counter()
    u1, u2, r_min, d = _symbols()
    r, s = sp.symbols("r s", positive=True)
    r_max = sp.sqrt(r_min**2 + d)
    nu = -sp.log(u1 * (r_max**2 - r_min**2) + r_min**2) / 2
    theta = 2 * sp.pi * u2
    rho = sp.simplify(sp.exp(-nu))
    checks: dict[str, bool] = {}
    # 1. ρ² affine in u₁ with slope d; endpoints r_min and r_max.
    checks["rho^2 = u1*d + r_min^2"] = sp.simplify(rho**2 - (u1 * d + r_min**2)) == 0
    checks["d(rho^2)/du1 = d > 0"] = bool(sp.simplify(sp.diff(rho**2, u1) - d) == 0 and d.is_positive)
    checks["rho(0) = r_min"] = sp.simplify(rho.subs(u1, 0) - r_min) == 0
    checks["rho(1) = r_max"] = sp.simplify(rho.subs(u1, 1) - r_max) == 0
    # 2. CDF of |λ| from the transformation (solve ρ = r for u₁, monotone) vs the area fraction.
    sol = sp.solve(sp.Eq(rho**2, r**2), u1)
    checks["rho = r has one solution in u1"] = len(sol) == 1
    cdf = sol[0] if sol else sp.nan
    area = (sp.integrate(2 * sp.pi * s, (s, r_min, r))
            / sp.integrate(2 * sp.pi * s, (s, r_min, r_max)))
    checks["P(|lambda| <= r) = area fraction"] = sp.simplify(cdf - area) == 0
    # 3. Joint density of (ρ, θ) by the Jacobian of the transformation.
    jac = sp.Matrix([[sp.diff(rho, u1), sp.diff(rho, u2)],
                     [sp.diff(theta, u1), sp.diff(theta, u2)]]).det()
    checks["Jacobian = pi*d/rho"] = sp.simplify(jac - sp.pi * d / rho) == 0
    density = sp.simplify(1 / jac)
    uniform_polar = rho / (sp.pi * (r_max**2 - r_min**2))
    checks["density(rho, theta) = rho/(pi (r_max^2 - r_min^2))"] = (
        sp.simplify(density - uniform_polar) == 0)
    # Degenerate corner r_min = r_max: ρ no longer depends on u₁.
    rho_deg = sp.simplify(sp.exp(sp.log(u1 * 0 + r_min**2) / 2))
    checks["r_min = r_max: rho constant"] = sp.diff(rho_deg, u1) == 0
    holds = all(checks.values())
    return Proof(
        holds,
        "0 ≤ r_min < r_max ≤ 1, symbolic in r_min, r_max (CDF of |λ| and joint density of "
        "(|λ|, arg λ)); r_min = r_max = r: uniform on the circle |λ| = r (the point 0 when r = 0)",
        "SymPy: |λ|² = u₁(r_max² − r_min²) + r_min² is affine in u₁; CDF = area fraction; "
        "Jacobian of (u₁,u₂) ↦ (|λ|, θ) gives the area-uniform polar density "
        "(recmem.theory.ring.lemma6_law)",
        counterexample=None if holds else {k: v for k, v in checks.items() if not v},
        details={**{k: v for k, v in checks.items()}, "CDF": str(sp.simplify(cdf)),
                 "density": str(density), "seconds": round(time.perf_counter() - t0, 3)},
    )


def atom_condition() -> tuple[Any, str]:
    """For which (r_min, r_max) Lemma 6's law has an atom (O App. B), derived with SymPy.

    λ = exp(−ν)·e^{2πiu₂} with |λ|² = a(u₁) := u₁(r_max² − r_min²) + r_min². For |λ| > 0 the angle
    2πu₂ is continuous, so {λ = c} is a null event for every c ≠ 0; an atom can only sit at 0,
    where P(λ = 0) = P(a(u₁) = 0). a is affine in u₁, so P(a = 0) > 0 iff a ≡ 0, i.e. iff both of
    its coefficients vanish. Returns the solution set of that system and a description.
    """
    import sympy as sp

    u1 = sp.Symbol("u1")
    rmin, rmax = sp.symbols("r_min r_max", nonnegative=True)
    a = sp.Poly(u1 * (rmax**2 - rmin**2) + rmin**2, u1)
    sols = sp.solve(a.all_coeffs(), [rmin, rmax], dict=True)
    return sols, f"a(u₁) = {a.as_expr()} ≡ 0 ⇔ {sols}"


def invertible_as_printed(n_max_symbolic: int = 6) -> Proof:
    """§3.1: "V_N is invertible with probability one" for λ_i ~ 𝕋(r_min, r_max), 0 ≤ r_min ≤ r_max ≤ 1.

    By :func:`atom_condition` the law of λ has an atom exactly at r_min = r_max = 0, where every
    node is λ = exp(−∞) = 0 (ν = −½ log 0 = +∞). Then all rows of V_N equal (0, …, 0, 1) and, for
    N ≥ 2, det V_N = 0 with probability one. The smallest N is 2 (V_1 = [1] is invertible); the
    counterexample is checked in exact arithmetic over ℚ(i).
    """
    from recmem.numerics.exact import QQi
    from recmem.theory import exact_linalg as ex

    t0 = time.perf_counter()
    sols, text = atom_condition()
    corner_only = len(sols) == 1 and all(v == 0 for v in sols[0].values())
    found = None
    for n in range(1, n_max_symbolic + 1):
        nodes = [QQi(Fraction(0))] * n  # every draw: λ = exp(−∞) = 0
        det = ex.vandermonde(nodes, n).det()
        if det == ex.element(QQi(Fraction(0))):
            found = {"N": n, "r_min": "0", "r_max": "0", "nodes": ["0"] * n,
                     "V_N": [[str(ex.to_qqi(x)) for x in row]
                             for row in ex.vandermonde(nodes, n).to_list()],
                     "det": "0",
                     "why": "u₁(r_max² − r_min²) + r_min² = 0 for every u₁, so ν = +∞ and "
                            "λ = exp(−∞) = 0 for every node: V_N has identical rows"}
            break
    holds = False if (corner_only and found is not None) else None
    return Proof(holds, f"Lemma 6's domain 0 ≤ r_min ≤ r_max ≤ 1, N ≤ {n_max_symbolic}",
                 "SymPy: the law of λ has an atom iff " + text + "; exact det V_N over ℚ(i) at "
                 "that corner (recmem.theory.ring.invertible_as_printed)",
                 counterexample=found,
                 details={"atoms at": str(sols), "seconds": round(time.perf_counter() - t0, 3)})


def invertible_corrected(n_max_symbolic: int = 6) -> Proof:
    """Corrected §3.1 statement: for 0 ≤ r_min ≤ r_max ≤ 1 with r_max > 0 and any N ≥ 1, V_N is
    invertible with probability one when λ_1, …, λ_N ~ 𝕋(r_min, r_max) are independent.

    Argument: (i) by :func:`atom_condition` the law of λ is atomless when r_max > 0;
    (ii) for independent λ_i, λ_j with an atomless law, P(λ_i = λ_j) = E[P(λ_j = c)|_{c=λ_i}] = 0,
    and a union over the N(N−1)/2 pairs keeps probability 0; (iii) O.det gives
    det V_N = Π_{i<j}(λ_i − λ_j) (polynomial identity, checked here for N ≤ ``n_max_symbolic``,
    all N by the column-reversal argument of recmem.theory.vandermonde), which is ≠ 0 for distinct
    nodes. Lemma 6's law itself is derived in :func:`lemma6_law`.
    """
    from recmem.theory.vandermonde import det_identity

    t0 = time.perf_counter()
    sols, text = atom_condition()
    atomless = len(sols) == 1 and all(v == 0 for v in sols[0].values())
    det = det_identity(n_max_symbolic)
    law = lemma6_law()
    holds = bool(atomless and det.holds and law.holds)
    return Proof(holds if holds else None,
                 "0 ≤ r_min ≤ r_max ≤ 1, r_max > 0, all N ≥ 1 (argument in "
                 f"recmem.theory.ring.invertible_corrected; det identity: {det.scope})",
                 "atomless law (SymPy: " + text + ") ⇒ nodes distinct a.s. ⇒ "
                 "det V_N = Π(λ_i − λ_j) ≠ 0 (O.det)",
                 details={"atomless for r_max > 0": atomless, "det identity": det.holds,
                          "Lemma 6 law": law.holds,
                          "seconds": round(time.perf_counter() - t0, 3)})
