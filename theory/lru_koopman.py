"""L App. E.1.2, Koopman operator theory, on a system with a finite Koopman-invariant subspace.

The text displays, for eigenfunctions φ_j of K_S (K_S f = f∘S) with eigenvalues λ_j,
K_S(Σ_j ν_jφ_j)(x) = Σ_j λ_k ν_jφ_j(x) — the eigenvalue index k is a slip for j (read as printed,
one eigenvalue λ_k for every j, the display says K_S f = λ_k f for every f) — and
x_k = VΛ^kΦ(x_0). Both are checked on S(x₁, x₂) = (a x₁, b x₂ + c x₁²), a = 1/2, b = 1/3, c = 1,
whose eigenfunctions φ₁ = x₁ (λ = a), φ₂ = x₂ − d x₁² (λ = b), φ₃ = x₁² (λ = a²), d = c/(a² − b),
span the coordinates: x₁ = φ₁, x₂ = φ₂ + dφ₃, so V = [[1, 0, 0], [0, 1, d]].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

A, B, C = Fraction(1, 2), Fraction(1, 3), Fraction(1)
D = C / (A * A - B)  # −12


def _same(q: Fraction) -> Any:
    return q


def step(x: tuple[Any, Any], num: Callable[[Fraction], Any] = _same) -> tuple[Any, Any]:
    """S(x₁, x₂) = (a x₁, b x₂ + c x₁²) in any arithmetic (``num`` converts the constants)."""
    return x[0] * num(A), x[1] * num(B) + x[0] * x[0] * num(C)


def eigenfunctions(x: tuple[Any, Any], num: Callable[[Fraction], Any] = _same) -> list[Any]:
    """(φ₁, φ₂, φ₃)(x) = (x₁, x₂ − d x₁², x₁²)."""
    return [x[0], x[1] - x[0] * x[0] * num(D), x[0] * x[0]]


EIGENVALUES = (A, B, A * A)


@dataclass(frozen=True)
class KoopmanExpansion(Statement):
    """K_S(Σ ν_jφ_j) = Σ λ_(index) ν_jφ_j with index j (``eig_index="j"``) or the printed k (one
    eigenvalue, k ∈ {1, 2, 3}, for every j), and x_n = VΛ^(n + power_offset)Φ(x_0) with
    V = [[1, 0, 0], [0, 1, mode_sign·d]]."""

    eig_index: str = "k"
    power_offset: int = 0
    mode_sign: int = 1

    @property
    def text(self) -> str:
        pw = "n" if self.power_offset == 0 else f"n+{self.power_offset}"
        return (f"for S(x₁, x₂) = (x₁/2, x₂/3 + x₁²) with eigenfunctions φ = (x₁, x₂ + 12x₁², x₁²), "
                f"eigenvalues (1/2, 1/3, 1/4): K_S(Σ_j ν_jφ_j) = Σ_j λ_{self.eig_index} ν_jφ_j"
                + (" (one eigenvalue λ_k, any k)" if self.eig_index == "k" else "")
                + f", and x_n = VΛ^{pw}Φ(x_0) with V = [[1, 0, 0], [0, 1, "
                f"{'−' if self.mode_sign > 0 else ''}12]]")

    def controls(self) -> tuple[Control, ...]:
        return (Control("Λ^n → Λ^(n+1) (near)", replace(self, power_offset=self.power_offset + 1)),
                Control("sign of the Koopman mode d flipped", replace(self, mode_sign=-self.mode_sign)))

    def expansion(self, nus: list[Any], x: tuple[Any, Any], k: int,
                  num: Callable[[Fraction], Any] = _same) -> Any:
        """Σ_j λ_(j or k) ν_jφ_j(x) as the statement gives it (k: the printed fixed index)."""
        lams = [num(EIGENVALUES[j if self.eig_index == "j" else k]) for j in range(3)]
        terms = zip(lams, nus, eigenfunctions(x, num), strict=True)
        return sum((lam * nu * phi for lam, nu, phi in terms), x[0] * 0)

    def trajectory(self, x0: tuple[Any, Any], n: Any,
                   num: Callable[[Fraction], Any] = _same) -> tuple[Any, Any]:
        """VΛ^(n + offset)Φ(x_0)."""
        phi = eigenfunctions(x0, num)
        pw = [num(lam) ** (n + self.power_offset) * p for lam, p in zip(EIGENVALUES, phi, strict=True)]
        return pw[0], pw[1] + pw[2] * num(D) * self.mode_sign


def koopman_instance(st: KoopmanExpansion, x0: tuple[Fraction, Fraction], n: int,
                     nus: list[int]) -> tuple[bool, dict[str, str]]:
    """Exact (ℚ): x_n by iterating S against VΛ^nΦ(x_0); K_S f = f(S(x_0)) against the expansion
    for f = Σν_jφ_j and every printed index k ∈ {1, 2, 3} (as printed it must hold for the k meant)."""
    x = x0
    for _ in range(n):
        x = step(x)
    values = {"x_0": str(x0), "n": str(n), "x_n": str(x), "VΛ^nΦ(x_0)": str(st.trajectory(x0, n))}
    if x != st.trajectory(x0, n):
        return False, values
    kf = sum((nu * p for nu, p in zip(nus, eigenfunctions(step(x0)), strict=True)), Fraction(0))
    claimed = [st.expansion([Fraction(v) for v in nus], x0, k) for k in range(3)]
    values |= {"ν": str(nus), "K_S f(x_0)": str(kf), "expansion (k = 1, 2, 3)": str(claimed)}
    return all(kf == c for c in claimed), values


def koopman_proof(st: KoopmanExpansion) -> Proof:
    """SymPy, for symbolic x: the eigenfunction identities φ_j∘S = λ_jφ_j; the expansion for
    symbolic ν (printed: against each k, a nonzero difference is the counterexample); the
    trajectory by induction for symbolic n (base VΛ^0Φ(x) = x, step S(VΛ^nΦ) = VΛ^(n+1)Φ)."""
    import sympy as sp

    x1, x2 = sp.symbols("x1 x2")
    nu = list(sp.symbols("nu1:4"))
    n = sp.Symbol("n", integer=True, nonnegative=True)
    x = (x1, x2)
    kf = sum(v * p for v, p in zip(nu, eigenfunctions(step(x)), strict=True))
    for k in range(3):
        diff = sp.expand(kf - st.expansion(nu, x, k))
        if diff != 0:
            at = {x1: 1, x2: 1, nu[0]: 1, nu[1]: 1, nu[2]: 1}
            return Proof(False, "this system", "SymPy: polynomial identity in x, ν",
                         counterexample={"printed index k": k + 1, "K_S f − expansion": str(diff),
                                         "at x = (1, 1), ν = (1, 1, 1)": str(diff.subs(at))})
    base = [sp.expand(a - b) for a, b in zip(st.trajectory(x, 0), x, strict=True)]
    if any(b != 0 for b in base):
        return Proof(False, "this system, n = 0", "SymPy: VΛ^0Φ(x) against x",
                     counterexample={"VΛ^0Φ(x) − x": str(base)})
    pts = [{x1: 1, x2: 2, n: 3}]
    steps = {
        "φ_j∘S = λ_jφ_j": decide_zeros([sp.expand(a - lam * b) for a, lam, b in zip(
            eigenfunctions(step(x)), EIGENVALUES, eigenfunctions(x), strict=True)]),
        "S(VΛ^nΦ(x)) = VΛ^(n+1)Φ(x)": decide_zeros(
            [a - b for a, b in zip(step(st.trajectory(x, n)), st.trajectory(x, n + 1), strict=True)],
            simplify=lambda e: sp.simplify(sp.expand(sp.powsimp(sp.expand(e)))), points=pts)}
    return proof_from_steps(steps, "this system: all x, ν and n ≥ 0 (induction on n)",
                            "SymPy: polynomial identities; induction step", general=True)
