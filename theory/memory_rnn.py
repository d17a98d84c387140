"""The memory of a linear RNN in paper W (ICLR 2024 camera-ready): ρ(t)ᵀ = cᵀe^{Wt}U and its decay.

What is printed (no sentence says "decays at rate −max Re λ(W)"):

- §2.2: linear RNNs are eq. (1) with σ(z) = z and b = 0, and ρ is approximated "by exponential sums of
  the form (cᵀe^{WsU})ᵀ" (App. D: "the approximation of function ρ(t) by exponential sum cᵀe^{Wt}U");
- App. A.8, under eq. (31) sup_m max_i Re λ_i(W_m) < −β₀: "|v_{m,t}|₂ = |e^{W_m(t−T_ε)}v_{m,T_ε}|₂ (36)
  ≤ |e^{W_m(t−T_ε)}|₂|v_{m,T_ε}|₂ (37) ≤ e^{−β₀(t−T_ε)}|v_{m,T_ε}|₂ (38)", so the memory
  |c_mᵀv_{m,t}| ≤ |c_m|₂|v_{m,T_ε}|₂e^{−β₀(t−T_ε)} (39); A.9 and Lemma A.8 use the non-strict
  max Re λ ≤ −β₀ (eqs. (47), (76));
- Thm A.4 (Li et al. 2022), eq. (24): if lim sup_m w_m < −β, β > 0 (w_m the largest real part of the
  eigenvalues of W̄), then e^{βt}y_i^{(k)}(t) = o(1) — for one linear RNN (y_i' = ρ_i): e^{βt}ρ(t) → 0.

:class:`LinearRNNDecay` is the one statement: the kernel formula (``transpose`` flips W to Wᵀ, a
control) and a decay conclusion at rate r = ``rate_factor``·β₀ given the hypothesis
max Re λ(W) < −β₀ (``strict``) or ≤ −β₀, with β₀ > 0 (or ≥ 0: ``beta0_positive`` False): ``one``:
|e^{Wt}Ux|₂ ≤ e^{−rt}|Ux|₂ (eqs. (36)–(38) with v_0 = Ux, the state derivative of the linear RNN
from rest); ``some``: M(t) ≤ Ce^{−rt} for some C; ``little-o``: e^{rt}M(t) → 0 (eq. (24)); M(t) =
sup_x |d/dt H_t(u^x)|/|x|_∞ = |ρ(t)|₁ (W.memory-linear).

Exact 2×2 instances (:class:`Instance2`): W = S W₀ S⁻¹ with S = [[1, s], [0, 1]] and W₀ upper
triangular [[λ₁, b], [0, λ₂]] (distinct, double/defective, non-normal) or a rotation [[a, ω], [−ω, a]];
then e^{W₀t} is known in closed form with rational coefficients, ρ_j(t) = (Sᵀc)ᵀe^{W₀t}(S⁻¹U)_j is an
exponential polynomial Σ p_λ(t)e^{λt} with exact coefficients, and every conclusion is decided in ℚ:
``some`` ⇔ α_{c,U} < −r or (α_{c,U} = −r and no t-factor there); ``little-o`` ⇔ α_{c,U} < −r
(α_{c,U}: the largest real exponent present); ``one`` ⇔ (range U = ℝ²) the log-norm
λ_max((W + Wᵀ)/2) ≤ −r, and a first-order violation d/dt(|e^{Wt}v|² − e^{−2rt}|v|²)|₀ =
vᵀ(W + Wᵀ)v + 2r|v|² > 0 at some v = Ue_j refutes it; the transposed kernel differs from the
definition iff cᵀ(Wᵀ − W)U ≠ 0 (Cayley–Hamilton: e^{At} = f(t)A + g(t)I with the same f ≢ 0, g for
A and Aᵀ).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Decided, Proof, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

BOUNDS = ("one", "some", "little-o")
F = Fraction
Mat = list[list[Fraction]]


@dataclass(frozen=True)
class LinearRNNDecay(Statement):
    """The memory of a linear RNN (σ(z) = z, b = 0 in eq. (1)): ρ(t)ᵀ = cᵀe^{Wt}U, and a decay
    conclusion at rate ``rate_factor``·β₀ whenever max Re λ(W) < −β₀ (``strict``; else ≤ −β₀),
    β₀ > 0 (``beta0_positive``; else β₀ ≥ 0). See the module docstring for ``bound``."""

    bound: str = "one"
    strict: bool = True
    beta0_positive: bool = True
    rate_factor: Fraction = Fraction(1)
    transpose: bool = False

    def __post_init__(self) -> None:
        if self.bound not in BOUNDS:
            raise ValueError(f"unknown bound {self.bound!r}")

    @property
    def text(self) -> str:
        kernel = "cᵀe^(Wᵀt)U" if self.transpose else "cᵀe^(Wt)U"
        rel = "<" if self.strict else "≤"
        b0 = "β₀ > 0" if self.beta0_positive else "β₀ ≥ 0"
        r = "β₀" if self.rate_factor == 1 else f"({self.rate_factor})β₀"
        conclusion = {
            "one": f"its state derivative v_t = dh_t/dt decays at rate {r} with constant 1: "
                   f"|v_t|₂ = |e^(Wt)v_0|₂ ≤ e^(−{r}t)|v_0|₂ for v_0 = Ux (App. A.8 eqs. (36)–(38)), so "
                   f"M(t) ≤ |c|₂·sup_(|x|_∞ ≤ 1)|Ux|₂·e^(−{r}t) (eqs. (39)–(41))",
            "some": f"M(t) ≤ C·e^(−{r}t) for some constant C and all t ≥ 0",
            "little-o": f"e^({r}t)·M(t) → 0 as t → ∞ (Thm A.4 eq. (24) for one RNN)",
        }[self.bound]
        return (f"A linear RNN (σ(z) = z, b = 0 in eq. (1)) has ρ(t)ᵀ = {kernel}, so M(t) = |ρ(t)|₁; "
                f"whenever max Re λ(W) {rel} −β₀ with {b0}, {conclusion}")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("W transposed in the kernel: ρ(t)ᵀ = cᵀe^(Wᵀt)U", replace(self, transpose=True))
               if not self.transpose else
               Control("transpose removed from the kernel", replace(self, transpose=False)),
               Control("the conclusion's rate multiplied by 17/16 (near control)",
                       replace(self, rate_factor=self.rate_factor * F(17, 16)))]
        if self.strict:
            out.append(Control("hypothesis widened: max Re λ(W) < −β₀ → ≤ −β₀", replace(self, strict=False)))
        else:
            out.append(Control("hypothesis widened to β₀ ≥ 0 (max Re λ(W) ≤ 0)",
                               replace(self, beta0_positive=False)))
        return tuple(out)

    def admits(self, alpha: Fraction, beta0: Fraction) -> bool:
        """Whether (max Re λ(W) = alpha, β₀) satisfies the hypothesis."""
        if beta0 < 0 or (self.beta0_positive and beta0 == 0):
            return False
        return alpha < -beta0 if self.strict else alpha <= -beta0

    def rate(self, beta0: Fraction) -> Fraction:
        """The conclusion's rate r = rate_factor·β₀."""
        return self.rate_factor * beta0

    def state_bound_sq(self, v0_sq: Any, t: Any, beta0: Any, exp: Any, number: Any = lambda q: q) -> Any:
        """The ``one`` conclusion's bound (e^{−rt}|v_0|₂)² on |v_t|₂² = |e^{Wt}v_0|₂², in any arithmetic
        (``exp`` its exponential, ``number`` converting the exact rate factor)."""
        return exp(-2 * number(self.rate_factor) * beta0 * t) * v0_sq

    def conclusion_holds(self, inst: Instance2, beta0: Fraction) -> tuple[bool | None, str]:
        """The conclusion at one exact instance (rate part), with the reason."""
        r = self.rate(beta0)
        if self.bound == "one":
            return inst.state_bound(r)
        alpha, top_power = inst.alpha_cu()
        if alpha is None:
            return True, "ρ ≡ 0"
        if self.bound == "little-o":
            ok = alpha < -r
            return ok, f"α_(c,U) = {alpha} {'<' if ok else '≥'} −r = {-r}"
        ok = alpha < -r or (alpha == -r and top_power == 0)
        why = (f"α_(c,U) = {alpha}, t-power {top_power} there, −r = {-r}: "
               + ("bounded" if ok else "e^(rt)M(t) unbounded"))
        return ok, why

    def kernel_holds(self, inst: Instance2) -> tuple[bool, str]:
        """Whether the statement's kernel formula equals the definition's cᵀe^{Wt}U at ``inst``."""
        if not self.transpose:
            return True, "the formula is the definition's cᵀe^(Wt)U"
        w = inst.w()
        diff = [sum((inst.c[i] * (w[k][i] - w[i][k]) * inst.u[k][j] for i in range(2) for k in range(2)),
                    F(0)) for j in range(len(inst.u[0]))]
        ok = all(v == 0 for v in diff)
        return ok, f"cᵀ(Wᵀ − W)U = {[str(v) for v in diff]}"


# ---------------------------------------------------------------------------------------------
# exact 2×2 instances


@dataclass(frozen=True)
class Instance2:
    """A 2×2 linear RNN W = S W₀ S⁻¹ (S = [[1, s], [0, 1]]), U (2×d), c, with W₀ = [[l1, b], [0, l2]]
    (``kind`` triangular) or [[l1, b], [−b, l1]] (``kind`` rotation, b ≠ 0)."""

    kind: str
    l1: Fraction
    l2: Fraction
    b: Fraction
    s: Fraction
    u: tuple[tuple[Fraction, ...], ...]
    c: tuple[Fraction, ...]
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def w0(self) -> Mat:
        if self.kind == "rotation":
            return [[self.l1, self.b], [-self.b, self.l1]]
        return [[self.l1, self.b], [F(0), self.l2]]

    def w(self) -> Mat:
        """W = S W₀ S⁻¹ exactly."""
        s = self.s
        a = self.w0()
        sa = [[a[0][0] + s * a[1][0], a[0][1] + s * a[1][1]], [a[1][0], a[1][1]]]  # S·W₀
        return [[sa[0][0], sa[0][1] - s * sa[0][0]], [sa[1][0], sa[1][1] - s * sa[1][0]]]  # ·S⁻¹

    def alpha(self) -> Fraction:
        """max Re λ(W)."""
        return self.l1 if self.kind == "rotation" else max(self.l1, self.l2)

    def _reduced(self) -> tuple[list[Fraction], list[list[Fraction]]]:
        """(Sᵀc, S⁻¹U): ρ_j = (Sᵀc)ᵀ e^{W₀t} (S⁻¹U)_j."""
        c, s = self.c, self.s
        ct = [c[0], s * c[0] + c[1]]
        ut = [[self.u[0][j] - s * self.u[1][j] for j in range(len(self.u[0]))], list(self.u[1])]
        return ct, ut

    def terms(self, j: int) -> dict[tuple[Fraction, int], Fraction]:
        """ρ_j(t) for triangular W₀ as {(λ, k): coefficient of t^k e^{λt}} (exact)."""
        ct, ut = self._reduced()
        u0, u1 = ut[0][j], ut[1][j]
        out: dict[tuple[Fraction, int], Fraction] = {}

        def add(key: tuple[Fraction, int], v: Fraction) -> None:
            out[key] = out.get(key, F(0)) + v

        add((self.l1, 0), ct[0] * u0)
        add((self.l2, 0), ct[1] * u1)
        if self.l1 != self.l2:
            k = self.b / (self.l1 - self.l2)
            add((self.l1, 0), ct[0] * u1 * k)
            add((self.l2, 0), -ct[0] * u1 * k)
        else:
            add((self.l1, 1), ct[0] * u1 * self.b)
        return {key: v for key, v in out.items() if v != 0}

    def alpha_cu(self) -> tuple[Fraction | None, int]:
        """(α_{c,U}, the largest t-power at it): the exponents ρ contains (None: ρ ≡ 0)."""
        if self.kind == "rotation":
            ct, ut = self._reduced()
            seen = any(ct[0] * ut[0][j] + ct[1] * ut[1][j] != 0 or ct[0] * ut[1][j] - ct[1] * ut[0][j] != 0
                       for j in range(len(self.u[0])))
            return (self.l1, 0) if seen else (None, 0)
        keys = [key for j in range(len(self.u[0])) for key in self.terms(j)]
        if not keys:
            return None, 0
        alpha = max(lam for lam, _ in keys)
        return alpha, max(k for lam, k in keys if lam == alpha)

    def state_bound(self, r: Fraction) -> tuple[bool | None, str]:
        """|e^{Wt}Ux|₂ ≤ e^{−rt}|Ux|₂ for all x, t ≥ 0? Exact: a first-order violation at t = 0
        refutes; the log-norm bound λ_max((W + Wᵀ)/2) ≤ −r proves; else undecided."""
        w = self.w()
        sym = [[w[0][0] + r, (w[0][1] + w[1][0]) / 2], [(w[0][1] + w[1][0]) / 2, w[1][1] + r]]
        cols = [(f"Ue_{j + 1}", [self.u[0][j], self.u[1][j]]) for j in range(len(self.u[0]))]
        if len(cols) == 2:  # U(e₁ ± e₂): the range's diagonals
            cols += [(f"U(e₁ {'+' if g > 0 else '−'} e₂)",
                      [cols[0][1][i] + g * cols[1][1][i] for i in range(2)]) for g in (1, -1)]
        for name, v in cols:
            q = sum((v[i] * sym[i][k] * v[k] for i in range(2) for k in range(2)), F(0))
            if q > 0:
                return False, (f"v = {name} = {[str(x) for x in v]}: d/dt(|e^(Wt)v|² − e^(−2rt)|v|²) at "
                               f"t = 0 is {2 * q} > 0")
        tr = sym[0][0] + sym[1][1]
        det = sym[0][0] * sym[1][1] - sym[0][1] ** 2
        if tr <= 0 and det >= 0:
            return True, "log-norm: (W + Wᵀ)/2 + rI ⪯ 0"
        rank = 2 if any(self.u[0][j] * self.u[1][k] - self.u[0][k] * self.u[1][j] != 0
                        for j in range(len(self.u[0])) for k in range(len(self.u[0]))) else 1
        if rank == 2:
            return False, "(W + Wᵀ)/2 + rI has a positive eigenvalue on range U = ℝ²"
        return None, "undecided (rank-1 U without a first-order violation)"

    def describe(self) -> dict[str, Any]:
        return {"W": [[str(v) for v in r] for r in self.w()], "U": [[str(v) for v in r] for r in self.u],
                "c": [str(v) for v in self.c], "max Re λ(W)": str(self.alpha())}


def decide(statement: LinearRNNDecay, inst: Instance2, beta0: Fraction) -> tuple[bool | None, dict[str, Any]]:
    """The statement at one instance and β₀ (vacuously true when the hypothesis does not admit it)."""
    values = {**inst.describe(), "β₀": str(beta0)}
    if not statement.admits(inst.alpha(), beta0):
        return True, {**values, "hypothesis": "not admitted"}
    k_ok, k_why = statement.kernel_holds(inst)
    values["kernel"] = k_why
    if not k_ok:
        return False, values
    ok, why = statement.conclusion_holds(inst, beta0)
    values["conclusion"] = why
    return ok, values


# Exact probes for the symbolic side: one per way a nearby statement fails.
def _tri(l1: int | Fraction, l2: int | Fraction, b: int | Fraction, u: Sequence[Sequence[int]],
         c: Sequence[int], s: int = 0) -> Instance2:
    return Instance2("triangular", F(l1), F(l2), F(b), F(s), tuple(tuple(F(v) for v in r) for r in u),
                     tuple(F(v) for v in c))


PROBES: dict[str, tuple[Instance2, Fraction]] = {
    # non-normal: |e^{Wt}v| grows at first although every eigenvalue is −2 (A.8 (38) fails)
    "non-normal W = [[−2, 10], [0, −2]], U = I, c = (1, 1), β₀ = 1":
        (_tri(-2, -2, 10, [[1, 0], [0, 1]], [1, 1]), F(1)),
    # a defective W (λ = −1 twice, similar to App. I.1's [[1, 1], [−4, −3]]) at the boundary β₀ = 1:
    # ρ(t) = 2te^{−t}
    "defective W = [[−1, 2], [0, −1]], U = e₂, c = e₁, β₀ = 1":
        (_tri(-1, -1, 2, [[0], [1]], [1, 0]), F(1)),
    # simple slowest mode at the boundary: M(t) = e^{−t} + …
    "W = diag(−1, −2), U = (1, 1)ᵀ, c = (1, 1), β₀ = 1": (_tri(-1, -2, 0, [[1], [1]], [1, 1]), F(1)),
    # β₀ = 0: a nilpotent W, ρ(t) = t
    "nilpotent W = [[0, 1], [0, 0]], U = e₂, c = e₁, β₀ = 0": (_tri(0, 0, 1, [[0], [1]], [1, 0]), F(0)),
    # non-normal similar W for the transposed kernel
    "W = S·diag(−1, −2)·S⁻¹ (S = [[1, 1], [0, 1]]), U = e₁, c = e₁, β₀ = 1/2":
        (_tri(-1, -2, 0, [[1], [0]], [1, 0], s=1), F(1, 2)),
}


def _slow_probe(statement: LinearRNNDecay) -> tuple[Instance2, Fraction] | None:
    """For rate_factor > 1 under a strict hypothesis: W = diag(−1, −2), β₀ midway in (1/f, 1)."""
    f = statement.rate_factor
    if f <= 1:
        return None
    beta0 = (1 + 1 / f) / 2
    return _tri(-1, -2, 0, [[1], [1]], [1, 1]), beta0


def _sympy_evidence(inst: Instance2, beta0: Fraction, statement: LinearRNNDecay) -> dict[str, str]:
    """SymPy's view of a refuting probe: ρ(t) from e^{Wt}, and the limit or the first-order value."""
    import sympy as sp

    from recmem.theory.memory import kernel_of

    t = sp.Symbol("t", positive=True)
    w = inst.w()
    rho = kernel_of(w, [list(r) for r in inst.u], list(inst.c))
    out = {"ρ(t)ᵀ = cᵀe^(Wt)U (SymPy)": str([sp.simplify(v) for v in rho])}
    r = sp.Rational(statement.rate(beta0).numerator, statement.rate(beta0).denominator)
    if statement.bound in ("some", "little-o"):
        m = sum((sp.Abs(v) for v in rho), sp.Integer(0))
        out["lim e^(rt)M(t)"] = str(sp.limit(sp.simplify(sp.exp(r * t) * m), t, sp.oo))
    return out


@functools.cache
def _expm_checks() -> tuple[tuple[str, Decided], ...]:
    """SymPy: e^{Wt} solves E' = WE, E(0) = I on every exact instance (a pure check, done once),
    each a derivation step (its entries also evaluated at t = 1: a wrong one is decided false)."""
    import sympy as sp

    from recmem.theory.memory import INSTANCES, matrix_exp, sym_matrix

    t = sp.Symbol("t", positive=True)
    out = []
    for name, (w, _, _) in INSTANCES.items():
        e = matrix_exp(w)
        out.append((f"e^(Wt) solves E' = WE, E(0) = I: {name}",
                    decide_zeros([*(e.diff(t) - sym_matrix(w) * e), *(e.subs(t, 0) - sp.eye(len(w)))],
                                 points=[{t: 1}])))
    return tuple(out)


def linear_rnn_decay_proof(statement: LinearRNNDecay) -> Proof:
    """Decide ``statement``: the kernel identity (SymPy: v = Wh + Ux solves v' = Wv, v(0) = Ux, so
    dŷ/dt = cᵀe^{Wt}Ux), then the exact probes the hypothesis admits; a probe where the statement
    fails disproves it (with SymPy's limit or the first-order value). When none does and the
    statement is Thm A.4's (strict, rate β₀, ``some`` or ``little-o``), the exponential-polynomial
    argument proves it for every W: ρ = Σ p_λ(t)e^{λt} over eigenvalues λ of W, so
    |e^{β₀t}ρ(t)| ≤ poly(t)·e^{(α + β₀)t} → 0 when α < −β₀."""
    import sympy as sp

    from recmem.theory.memory import INSTANCES, exp_poly, kernel_of, matrix_exp, sym_matrix

    t0 = time.perf_counter()
    t = sp.Symbol("t", positive=True)
    expm = proof_from_steps(dict(_expm_checks()), "e^(Wt)", "SymPy: e^(Wt) on every instance")
    if expm.holds is not True:  # undecided, or a step decided false (a failed derivation)
        return expm
    details: dict[str, Any] = dict(expm.details)
    probes = dict(PROBES)
    if (slow := _slow_probe(statement)) is not None:
        probes[f"W = diag(−1, −2), U = (1, 1)ᵀ, c = (1, 1), β₀ = {slow[1]}"] = slow
    for name, (inst, beta0) in probes.items():
        ok, values = decide(statement, inst, beta0)
        details[name] = values.get("conclusion", values.get("hypothesis", values.get("kernel")))
        if ok is False:
            cx = {"probe": name, **values, **_sympy_evidence(inst, beta0, statement)}
            if not statement.kernel_holds(inst)[0]:
                w = inst.w()
                wt = [[w[j][i] for j in range(2)] for i in range(2)]
                cu = ([list(inst.c)], [list(r) for r in inst.u])
                diff = sp.simplify((sym_matrix(cu[0]) * (matrix_exp(wt) - matrix_exp(w))
                                    * sym_matrix(cu[1]))[0])
                cx["cᵀe^(Wᵀt)U − cᵀe^(Wt)U (SymPy)"] = str(diff)
            return Proof(False, f"the exact probe: {name}",
                         "exact decision in ℚ (closed-form e^(W₀t)) with SymPy's e^(Wt), limit or "
                         "first-order value", counterexample=cx, details=details)
    thm = (statement.strict and statement.bound in ("some", "little-o") and not statement.transpose
           and statement.rate_factor == 1 and statement.beta0_positive)
    if not thm:
        return Proof(None, "the exact probes", "no probe refutes the statement and no general argument "
                     "covers it", details=details)
    for name, (w, u, c) in INSTANCES.items():
        rho = kernel_of(w, u, c)
        eig = {sp.nsimplify(v) for v in sym_matrix(w).eigenvals()}
        exps = {lam for comp in rho for lam in exp_poly(comp, t)}
        inside = all(any(sp.simplify(lam - v) == 0 for v in eig) for lam in exps)
        details[f"exponents of ρ are eigenvalues of W: {name}"] = inside
        if not inside:
            return Proof(None, name, "an exponent of ρ is not an eigenvalue of W (SymPy)", details=details)
    details["seconds"] = round(time.perf_counter() - t0, 3)
    return Proof(True, "every W ∈ ℝ^(m×m), U, c (uniqueness for v' = Wv and the exponential-polynomial "
                 "argument); e^(Wt) checked on the exact instances (m ≤ 3: complex, defective, non-normal)",
                 "SymPy: e^(Wt) solves E' = WE, E(0) = I; ρ = Σ p_λ(t)e^(λt) over eigenvalues λ of W, so "
                 "e^(β₀t)|ρ(t)| ≤ poly(t)e^((α + β₀)t) → 0 for α = max Re λ(W) < −β₀",
                 details=details, general=True)
