"""Pinkus' theorem as cited by paper O (App. A, Theorem 2), checked on instances.

Printed: for a continuous non-polynomial σ, the span M(σ) = span{σ(wᵀx − θ) : θ ∈ ℝ, w ∈ ℝⁿ} is
dense in C(K) for every compact K (uniform norm). A cited result: recmem does not prove it. What
is decided here, exactly, on instances on K = [0, 1] with targets f̄(x) = x^k:

- *the hypothesis*: whether σ is a polynomial (SymPy's ``is_polynomial`` on σ's closed form);
- *what M(σ) is* where it is a finite-dimensional space: for σ(z) = z^d, every σ(wx − θ) is a
  polynomial of degree ≤ d in x for all w, θ (SymPy expansion with symbolic w, θ), so
  M(z^d) ⊆ P_d; without the bias θ, σ(wx) = w^d x^d and ReLU(wx) = max(w, 0)·x on [0, 1];
- *a certified positive distance*: max_K |g − f̄| ≥ ‖g − f̄‖_{L²[0,1]} ≥ dist_{L²}(x^k, V) for every
  g in a space V spanned by monomials, with dist² an exact rational (Hilbert-matrix Gram solve);
  a distance above ε refutes "some f ∈ M(σ) is ε-close";
- *a constructive witness* for ReLU with bias: the piecewise-linear interpolant of x^k on n equal
  cells is Σ c_i ReLU(x − x_i) + c·ReLU(0·x + 1) ∈ M(ReLU), with max error ≤ h²/8·max|f̄''|
  (Cauchy's interpolation remainder), an exact rational bound; and for σ = z^d with k ≤ d the
  exact coefficients of x^k = Σ_j a_j (x − j)^d (a Vandermonde-type solve over ℚ).

The numeric sides (checks/claims/paper_o/pinkus.py) fit the outer layer by least squares with
fixed inner weights in each arithmetic and bound the sup error of the fit on K.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement

ADMITS = ("non-polynomial", "continuous")
# activations the checks know: ReLU, tanh, and the monomials z^d ("pow:d")
NAMED = ("relu", "tanh")


def parse_activation(name: str) -> tuple[str, int]:
    """("relu"|"tanh", 0) or ("pow", d) for "pow:d" (d ≥ 1); ValueError otherwise."""
    if name in NAMED:
        return name, 0
    if name.startswith("pow:") and name[4:].isdigit() and int(name[4:]) >= 1:
        return "pow", int(name[4:])
    raise ValueError(f"unknown activation {name!r}: relu, tanh or pow:d (d ≥ 1)")


def activation_sympy(name: str, z: Any) -> Any:
    """σ(z) as a SymPy expression."""
    import sympy as sp

    kind, d = parse_activation(name)
    if kind == "relu":
        return sp.Max(0, z)
    if kind == "tanh":
        return sp.tanh(z)
    return z**d


@functools.cache
def is_polynomial(name: str) -> bool:
    """Whether σ is a polynomial, decided by SymPy on its closed form."""
    import sympy as sp

    z = sp.Symbol("z", real=True)
    return bool(activation_sympy(name, z).is_polynomial(z))


@dataclass(frozen=True)
class MLPDensity(Statement):
    """O App. A, Theorem 2 (Pinkus): for every continuous σ satisfying the hypothesis, every
    continuous f̄ on a compact K and every ε > 0, some f ∈ M(σ) has max_K |f − f̄| ≤ ε.

    ``admits``: which σ the hypothesis allows (``non-polynomial`` as printed; ``continuous``: any
    continuous σ, polynomials included); ``bias``: M(σ) spans σ(wᵀx − θ) over θ ∈ ℝ as printed
    (False: θ = 0 only).
    """

    admits: str = "non-polynomial"
    bias: bool = True

    def __post_init__(self) -> None:
        if self.admits not in ADMITS:
            raise ValueError(f"not an MLPDensity statement: {self!r}")

    @property
    def text(self) -> str:
        sig = ("σ continuous and not a polynomial" if self.admits == "non-polynomial"
               else "σ continuous (polynomials included)")
        span = "σ(wᵀx − θ) : θ ∈ ℝ, w ∈ ℝⁿ" if self.bias else "σ(wᵀx) : w ∈ ℝⁿ (no bias θ)"
        return (f"for {sig}, every continuous f̄ on a compact K ⊂ ℝⁿ and every ε > 0 there is "
                f"f ∈ span{{{span}}} with max_(x∈K) |f(x) − f̄(x)| ≤ ε")

    def controls(self) -> tuple[Control, ...]:
        out = []
        if self.admits == "non-polynomial":
            out.append(Control("hypothesis widened: polynomial σ admitted (near: "
                               "dist(x⁴, P₃) = 1/128 on [0, 1])",
                               replace(self, admits="continuous")))
        if self.bias:
            out.append(Control("bias θ dropped from M(σ)", replace(self, bias=False)))
        return tuple(out)

    def admitted(self, activation: str) -> bool:
        """Whether σ satisfies the statement's hypothesis."""
        return self.admits == "continuous" or not is_polynomial(activation)


# ---------------------------------------------------------------------------------------------
# exact facts


def l2_distance_sq(k: int, powers: tuple[int, ...]) -> Fraction:
    """dist_{L²[0,1]}(x^k, span{x^j : j ∈ powers})², exactly: ‖x^k‖² − gᵀG⁻¹g with the Gram
    (Hilbert-type) matrix G_ij = 1/(p_i + p_j + 1) and g_i = 1/(p_i + k + 1)."""
    n = len(powers)
    g = [[Fraction(1, p + q + 1) for q in powers] + [Fraction(1, p + k + 1)] for p in powers]
    for c in range(n):  # Gauss–Jordan over ℚ (G is positive definite: no pivoting needed)
        piv = g[c][c]
        g[c] = [v / piv for v in g[c]]
        for r in range(n):
            if r != c and g[r][c] != 0:
                f = g[r][c]
                g[r] = [a - f * b for a, b in zip(g[r], g[c], strict=True)]
    proj = sum((Fraction(1, powers[i] + k + 1) * g[i][n] for i in range(n)), Fraction(0))
    return Fraction(1, 2 * k + 1) - proj


def span_powers(activation: str, bias: bool) -> tuple[int, ...] | None:
    """The monomials spanning M(σ) restricted to K = [0, 1], where M(σ) is finite-dimensional
    there (proved by :func:`span_proof`); None for a σ with infinite-dimensional M(σ) (ReLU with
    bias, tanh)."""
    kind, d = parse_activation(activation)
    if kind == "pow":
        return tuple(range(d + 1)) if bias else (d,)
    if kind == "relu" and not bias:
        return (1,)
    return None


@functools.cache
def span_proof(activation: str, bias: bool) -> tuple[bool | None, str]:
    """SymPy: every σ(wx − θ) (θ = 0 without bias) restricted to x ∈ [0, 1] lies in the span of
    the monomials :func:`span_powers` names, for all real w, θ. Returns (decided, how)."""
    import sympy as sp

    powers = span_powers(activation, bias)
    if powers is None:
        return None, "M(σ) is not a finite span of monomials"
    x = sp.Symbol("x", nonnegative=True)
    w, th = sp.symbols("w theta", real=True)
    kind, d = parse_activation(activation)
    arg = w * x - th if bias else w * x
    if kind == "pow":
        poly = sp.Poly(sp.expand(activation_sympy(activation, arg)), x)
        ok = all(m[0] in powers for m in poly.monoms())
        return ok, f"(w·x{' − θ' if bias else ''})^{d} expanded in x has monomials {poly.monoms()}"
    # ReLU without bias, x ≥ 0: max(0, w x) = x·max(0, w), by the two signs of w
    wp, wn = sp.Symbol("wp", positive=True), sp.Symbol("wn", negative=True)
    ok_p = sp.simplify(sp.Max(0, wp * x) - wp * x) == 0
    ok_n = sp.simplify(sp.Max(0, wn * x)) == 0
    return bool(ok_p and ok_n), "max(0, w x) = w x for w > 0 and 0 for w < 0 when x ≥ 0"


def relu_witness(k: int, eps: Fraction) -> tuple[int, Fraction]:
    """The width n of the ReLU interpolant of x^k on n equal cells of [0, 1] whose error bound
    h²/8·max|f̄''| = k(k−1)/(8n²) is ≤ ε, and that bound (exact; k ≤ 1: n = 1, error 0)."""
    if k <= 1:
        return 1, Fraction(0)
    m2 = Fraction(k * (k - 1))
    n = 1
    while m2 / (8 * n * n) > eps:
        n *= 2
    return n, m2 / (8 * n * n)


def power_witness(k: int, d: int) -> list[Fraction]:
    """Exact a_0 … a_d with Σ_j a_j (x − j)^d = x^k (k ≤ d): M(z^d) contains P_d."""
    from math import comb

    # coefficient of x^m in (x − j)^d: C(d, m)(−j)^(d−m); solve the (d+1)×(d+1) system over ℚ
    rows = [[Fraction(comb(d, m) * (-j) ** (d - m)) for j in range(d + 1)]
            + [Fraction(int(m == k))] for m in range(d + 1)]
    n = d + 1
    for c in range(n):
        p = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[p] = rows[p], rows[c]
        piv = rows[c][c]
        rows[c] = [v / piv for v in rows[c]]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    return [rows[j][n] for j in range(n)]


def judge(statement: MLPDensity, activation: str, k: int,
          eps: Fraction) -> tuple[bool | None, dict[str, Any]]:
    """Decide the statement on one instance (σ, f̄ = x^k on [0, 1], ε) exactly: True with a
    witness in M(σ), False with a certified positive distance > ε, None when neither is
    available (tanh; a distance ≤ ε in L² that says nothing about the sup)."""
    info: dict[str, Any] = {"σ": activation, "target": f"x^{k} on [0, 1]", "ε": str(eps)}
    if not statement.admitted(activation):
        return True, {**info, "why": "σ is a polynomial: outside the hypothesis (vacuous)"}
    kind, d = parse_activation(activation)
    powers = span_powers(activation, statement.bias)
    if powers is not None:
        if k in powers:
            if kind == "pow" and statement.bias:
                coeffs = power_witness(k, d)
                return True, {**info, "witness": f"x^{k} = Σ_j a_j (x − j)^{d}",
                              "a": [str(a) for a in coeffs]}
            return True, {**info, "witness": f"x^{k} itself lies in span{{x^{powers[0]}}}"}
        dist2 = l2_distance_sq(k, powers)
        info |= {"M(σ) on [0, 1]": "span{" + ", ".join(f"x^{p}" for p in powers) + "}",
                 "dist_L2(x^k, M(σ))²": str(dist2)}
        if dist2 > eps * eps:
            return False, {**info, "certificate": "max_K |f − f̄| ≥ ‖f − f̄‖_L² ≥ dist_L2 > ε for "
                           "every f ∈ M(σ) (exact rationals)"}
        return None, {**info, "why": "the L² distance does not exceed ε: undecided"}
    if kind == "relu":
        n, bound = relu_witness(k, eps)
        return True, {**info, "witness": f"piecewise-linear interpolant on {n} cells "
                      "= Σ c_i ReLU(x − i/n) + c·ReLU(1)", "error bound h²/8·max|f̄''|": str(bound)}
    return None, {**info, "why": f"no exact witness for {activation}"}


def density_proof(statement: MLPDensity, activations: tuple[str, ...], powers: tuple[int, ...],
                  eps: Fraction) -> Proof:
    """The statement on the instances σ ∈ ``activations``, f̄ = x^k (k ∈ ``powers``), ε, exactly:
    the hypothesis by SymPy, the span of M(σ) by SymPy expansion where it is finite, then
    :func:`judge`. A cited theorem checked on finitely many instances: never ``general``."""
    t0 = time.perf_counter()
    decided, spans = [], {}
    for act in activations:
        if statement.admitted(act) and span_powers(act, statement.bias) is not None:
            ok, how = span_proof(act, statement.bias)
            spans[act] = how
            if ok is not True:
                return Proof(None, "instances", f"SymPy could not confirm the span of M({act}): {how}")
        for k in powers:
            holds, info = judge(statement, act, k, eps)
            if holds is False:
                return Proof(False, f"σ = {act}, f̄ = x^{k} on K = [0, 1], ε = {eps}",
                             "SymPy span of M(σ) + exact L² distance (a lower bound of the sup "
                             "distance)", counterexample={**info, "span": spans.get(act, "")})
            if holds is True:
                decided.append(f"{act}/x^{k}")
    if not decided:
        return Proof(None, "instances", "no instance decided exactly")
    return Proof(True, f"instances {', '.join(decided)} on K = [0, 1], ε = {eps} (a cited theorem: "
                 "finitely many instances)", "SymPy hypothesis and span + exact witnesses in M(σ)",
                 details={"spans": "; ".join(f"{a}: {h}" for a, h in spans.items()),
                          "seconds": round(time.perf_counter() - t0, 3)})
