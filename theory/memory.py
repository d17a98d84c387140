"""Paper W's nonlinear-RNN memory claims, symbolically (ICLR 2024 camera-ready equation numbers):
Remark 3.3 with App. A.5–A.6 ("RNNs have decaying memory"), App. I.1 (an RNN without decaying memory),
and the step of Thm 3.9's proof in App. A.8–A.9 (eqs. (47), (53), (67)–(68)); plus the exact helpers
the linear-RNN claims share (e^{Wt}, exponential polynomials, the exact instances).

Conventions: RNN dh/dt = σ(W h + U x + b), h_{−∞} = 0, ŷ = cᵀh (eq. (1)); Heaviside input
u^x = x·1_[0,∞); memory M(H)(t) = sup_{x≠0} |d/dt H_t(u^x)| / |x|_∞ (Def. 3.1, eq. (5)). From rest
(b = 0), z = W h + U x obeys z' = W σ(z), z(0) = U x, and d/dt ŷ = cᵀσ(z).

Statements (each read by every side of its claims):

- :class:`DecayingRNN` — RNNs with activations in a class and recurrent weights in a class have
  decaying memory (eq. (6)) or exponentially decaying memory (eq. (7)). Remark 3.3 + A.6 (Lipschitz
  σ, any W) is refuted by App. I.1's own W = [[1, 1], [−4, −3]] with hardtanh
  (:func:`app_i1_witness`); the correction (σ ∈ {tanh, hardtanh}, W diagonally stable) is
  proved by a Persidskii Lyapunov function (:func:`diagonal_stability_proof`), and its decay need not
  be exponential (the scalar hardtanh RNN has M(t) = 1/(t + 1)).
- :class:`StableStep` — A.8/A.9's conclusion (67)–(68) under the hypotheses the proof uses;
  refuted by the scalar hardtanh RNN (its memory decays like 1/t with either normalisation).

Exact decision procedures for the searches: :func:`hardtanh_corner` (a saturated invariant corner:
non-decay), :func:`saturation_lower_bound` (M(t) ≥ |cᵀs|/(1 + t|Ws|_∞): not exponential),
:func:`diagonal_certificate_2x2`, :func:`hurwitz_2x2`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from recmem.theory.proof import Proof, Step, decide_zero, decide_zeros, fact, proof_from_steps
from recmem.theory.statement import Control, Statement

Rat = Fraction
Mat = list[list[Fraction]]


def _sp() -> Any:
    import sympy

    return sympy


# ---- exact instances and matrix exponentials ---------------------------------------------------

# Exact instances (name, W, U, c): normal and non-normal, complex, defective, and two that are
# blind to the slowest mode. Rows are lists of Fractions (all dyadic: exact in float64).
def _m(rows: Sequence[Sequence[int | Fraction]]) -> Mat:
    return [[Fraction(v) for v in row] for row in rows]


INSTANCES: dict[str, tuple[Mat, Mat, list[Fraction]]] = {
    "diagonal": (_m([[-1, 0], [0, -2]]), _m([[1], [1]]), [Fraction(1), Fraction(1)]),
    "complex pair −1 ± 2i": (_m([[-1, 2], [-2, -1]]), _m([[1], [0]]), [Fraction(1), Fraction(0)]),
    "defective (W of App. I.1)": (_m([[1, 1], [-4, -3]]), _m([[1], [0]]), [Fraction(1), Fraction(0)]),
    "3×3 Jordan block, non-normal": (_m([[-1, 1, 0], [0, -1, 2], [0, 0, -3]]), _m([[0, 1], [0, 0], [1, 0]]),
                                     [Fraction(1), Fraction(0), Fraction(0)]),
    "c ⟂ slowest mode": (_m([[-1, 0], [0, -2]]), _m([[1], [1]]), [Fraction(0), Fraction(1)]),
    "U ⟂ slowest mode, non-normal": (_m([[-2, 1], [0, -1]]), _m([[1], [0]]), [Fraction(1), Fraction(1)]),
}


def sym_matrix(rows: Sequence[Sequence[Fraction]]) -> Any:
    """A SymPy matrix of exact rationals."""
    sp = _sp()
    return sp.Matrix([[sp.Rational(v.numerator, v.denominator) for v in row] for row in rows])


@cache
def _expm_cached(key: tuple[tuple[Fraction, ...], ...]) -> Any:
    sp = _sp()
    t = sp.Symbol("t", positive=True)
    return (sym_matrix(key) * t).exp()


def matrix_exp(w: Mat) -> Any:
    """e^{Wt} as a SymPy matrix in the positive symbol ``t`` (cached)."""
    return _expm_cached(tuple(tuple(r) for r in w))


def kernel_of(w: Mat, u: Mat, c: Sequence[Fraction]) -> list[Any]:
    """ρ(t)ᵀ = cᵀ e^{Wt} U as SymPy expressions (one per input coordinate; cached)."""
    return list(_kernel_cached(tuple(map(tuple, w)), tuple(map(tuple, u)), tuple(c)))


@cache
def _kernel_cached(w: tuple[tuple[Fraction, ...], ...], u: tuple[tuple[Fraction, ...], ...],
                   c: tuple[Fraction, ...]) -> tuple[Any, ...]:
    sp = _sp()
    row = sym_matrix([list(c)]) * matrix_exp([list(r) for r in w]) * sym_matrix([list(r) for r in u])
    return tuple(sp.simplify(v) for v in row)


def exp_poly(expr: Any, t: Any) -> dict[Any, Any]:
    """expr = Σ_λ p_λ(t) e^{λt} with polynomials p_λ ≠ 0: the map λ → p_λ."""
    sp = _sp()
    out: dict[Any, Any] = {}
    for term in sp.Add.make_args(sp.expand(sp.powsimp(sp.expand(expr.rewrite(sp.exp))))):
        exps = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.exp)]
        rate = sp.expand(sum((f.args[0] for f in exps), sp.Integer(0)) / t)
        rest = sp.simplify(term / sp.Mul(*exps)) if exps else term
        if rate.has(t) or not rest.is_polynomial(t):
            raise ValueError(f"not an exponential polynomial term: {term}")
        out[rate] = out.get(rate, 0) + rest
    return {lam: sp.expand(p) for lam, p in out.items() if sp.simplify(p) != 0}


def spectral_abscissa(w: Mat) -> Any:
    """max Re λ(W), exactly."""
    sp = _sp()
    return max((sp.re(v) for v in sym_matrix(w).eigenvals()), key=lambda v: float(v))


def hurwitz_2x2(w: Mat) -> bool:
    """Routh–Hurwitz for 2×2: trace < 0 and det > 0."""
    return w[0][0] + w[1][1] < 0 and w[0][0] * w[1][1] - w[0][1] * w[1][0] > 0


def diagonal_certificate_2x2(w: Mat) -> list[Fraction] | None:
    """A positive diagonal D with DW + WᵀD ≺ 0, exactly, or None when none exists.

    A 2×2 W is diagonally stable iff w11 < 0, w22 < 0 and det W > 0; then D = diag(1, r) with
    r = (2 w11 w22 − w12 w21)/w21² (w21 ≠ 0) minimises (w12 + r w21)² − 4 r w11 w22, whose value
    −4 w11 w22 det W / w21² is negative.
    """
    (a, b), (c, d) = w
    if not (a < 0 and d < 0 and a * d - b * c > 0):
        return None
    r = (2 * a * d - b * c) / (c * c) if c != 0 else b * b / (2 * a * d) + 1
    dm = [Fraction(1), r]
    s = [[2 * dm[0] * a, dm[0] * b + dm[1] * c], [dm[0] * b + dm[1] * c, 2 * dm[1] * d]]
    assert s[0][0] < 0 and s[0][0] * s[1][1] - s[0][1] ** 2 > 0, "diagonal certificate failed"
    return dm


def diagonal_domain_on_grid() -> bool:
    """Whether :func:`diagonal_certificate_2x2` (the statement's domain decision for diagonally
    stable W) is right at every W with entries in {0, ±1/2, ±1, ±2}, exactly: where it returns a
    D, D is positive and DW + WᵀD ≺ 0 (negative trace, positive determinant); where it returns
    None, W violates a necessary condition of diagonal stability (the diagonal of DW + WᵀD is
    2d_iw_ii, so w_ii < 0; and DW + WᵀD ≺ 0 makes W Hurwitz, so det W > 0 for 2×2). The grid
    reaches the boundary (w_ii = 0, det W = 0) and beyond, where a certificate must be refused."""
    vals = [Fraction(k, 2) for k in range(-4, 5) if k not in (-3, 3)]
    for a, b, c, d in itertools.product(vals, repeat=4):
        w = [[a, b], [c, d]]
        try:
            dm = diagonal_certificate_2x2(w)
        except AssertionError:
            return False
        if dm is None:
            if a < 0 and d < 0 and a * d - b * c > 0:
                return False  # refused a W whose certificate exists (the criterion's converse)
            continue
        off = dm[0] * b + dm[1] * c
        s00, s11 = 2 * dm[0] * a, 2 * dm[1] * d
        if not (min(dm) > 0 and s00 + s11 < 0 and s00 * s11 - off * off > 0):
            return False
    return True


def hardtanh_corner(w: Mat, u: Mat, c: Sequence[Fraction], x: Sequence[Fraction]) -> dict[str, Any] | None:
    """An exact certificate that the hardtanh RNN (b = 0) has dŷ/dt ≡ cᵀs ≠ 0 for the input u^x.

    With z = W h + U x, z' = W σ(z) and z(0) = U x. If every |z_i(0)| ≥ 1 with signs s, then
    σ(z) = s while z stays in the corner C_s = {s_i z_i ≥ 1}, where z' = W s is constant; C_s is
    invariant iff s_i (W s)_i ≥ 0 for all i. Then dŷ/dt = cᵀσ(z) = cᵀs for all t ≥ 0.
    """
    m = len(w)
    z0 = [sum((u[i][j] * x[j] for j in range(len(x))), Fraction(0)) for i in range(m)]
    if any(abs(v) < 1 for v in z0):
        return None
    s = [Fraction(1) if v > 0 else Fraction(-1) for v in z0]
    v = [sum((w[i][j] * s[j] for j in range(m)), Fraction(0)) for i in range(m)]
    rate = sum((ci * si for ci, si in zip(c, s, strict=True)), Fraction(0))
    if any(si * vi < 0 for si, vi in zip(s, v, strict=True)) or rate == 0:
        return None
    return {"z(0) = Ux": [str(q) for q in z0], "corner signs s": [str(q) for q in s],
            "z'(t) = Ws": [str(q) for q in v], "dŷ/dt ≡ cᵀs": str(rate),
            "M(t) ≥ |cᵀs|/|x|_∞ for all t": str(abs(rate) / max(abs(q) for q in x))}


APP_I1_W = _m([[1, 1], [-4, -3]])
APP_I1_U = _m([[1, 0], [0, 1]])
APP_I1_C = [Fraction(1), Fraction(0)]
APP_I1_X = [Fraction(1), Fraction(-1)]


def app_i1_witness() -> tuple[Proof, dict[str, Any]]:
    """App. I.1's W = [[1, 1], [−4, −3]] with hardtanh, b = 0, U = I, c = e₁, x = (1, −1): exact.

    W has the double eigenvalue −1 (Hurwitz, defective). z(t) = (1, −1 − t) solves z' = Wσ(z) exactly
    (σ(z(t)) = (1, −1)), so dŷ/dt ≡ 1 and M(t) ≥ 1 for all t ≥ 0, while h = W⁻¹(z − Ux) grows like t.
    Returns (the exact checks as a :class:`Proof` of steps — proved, undecided, or a failed
    derivation when SymPy decides a step false —, the data)."""
    sp = _sp()
    t = sp.Symbol("t", nonnegative=True)
    w = sym_matrix(APP_I1_W)
    lam = sp.Symbol("lambda")
    eig = w.eigenvals()
    hurwitz = all(sp.re(v) < 0 for v in eig)

    def hardtanh(v: Any) -> Any:
        return sp.Piecewise((-1, v <= -1), (1, v >= 1), (v, True))

    z = sp.Matrix([1, -1 - t])
    sig = z.applyfunc(hardtanh)
    x0 = sym_matrix(APP_I1_U) * sym_matrix([[v] for v in APP_I1_X])
    at = [{t: 1}]  # an exact point: a wrong step is decided false (a failed derivation)
    checks: dict[str, Step] = {
        "σ(z(t)) = (1, −1)": decide_zeros(list(sig - sp.Matrix([1, -1])), points=at),
        "z' = Wσ(z)": decide_zeros(list(z.diff(t) - w * sig), points=at),
        "z(0) = Ux": decide_zeros(list(z.subs(t, 0) - x0)),
        "Hurwitz": fact(bool(hurwitz), "every eigenvalue of W has Re λ < 0")}
    rate = (sym_matrix([APP_I1_C]) * sig)[0]
    cert = hardtanh_corner(APP_I1_W, APP_I1_U, APP_I1_C, APP_I1_X)
    data = {"activation": "hardtanh (1-Lipschitz; in 𝒜₀ with c_σ = 1, Z₀ = 1)",
            "W": "[[1, 1], [-4, -3]] (App. I.1, Fig. 11(b))",
            "char. polynomial": str(sp.factor(w.charpoly(lam).as_expr())), "eigenvalues": str(eig),
            "defective": bool((w + sp.eye(2)) != sp.zeros(2)), "U": "I", "b": "0", "c": "(1, 0)",
            "x": "(1, -1)", "z(t) = Wh + Ux": "(1, -1 - t)", "dŷ/dt": str(rate),
            "h(t)": str(list(w.inv() * (z - x0))),
            "M(t)": f"≥ |dŷ/dt|/|x|_∞ = {rate}/{max(abs(v) for v in APP_I1_X)} for every t ≥ 0 "
                    "(not decaying)",
            **(cert or {})}
    checks["dŷ/dt = 1"] = decide_zeros([rate - 1], points=at)
    # exact rational arithmetic: no certificate is decided false
    checks["saturated corner"] = fact(cert is not None, "the saturated-corner certificate applies")
    # a step SymPy does not confirm leaves the witness unestablished (not a disproof); a step it
    # decides false is a failed derivation
    derivation = proof_from_steps(checks, "App. I.1's hardtanh RNN", "SymPy: the exact solution",
                                  {k: str(v) for k, v in data.items()})
    return derivation, {**data, **{k: derivation.details[k] for k in checks}}


def saturation_lower_bound(w: Mat, c: Sequence[Fraction]) -> dict[str, Any] | None:
    """For a hardtanh RNN with U = I, b = 0 and c ≠ 0: M(t) ≥ |cᵀs|/(1 + t·|Ws|_∞) for every t, with s
    the sign vector maximising |cᵀs| — so the memory is never exponentially decaying.

    The input x = R·s (|x|_∞ = R) starts in the corner C_s = {s_i z_i ≥ 1} and moves with the constant
    velocity Ws while there, so s_i z_i(t) ≥ R − t|Ws|_∞ ≥ 1 for R = 1 + t|Ws|_∞: at time t the rate is
    cᵀσ(z) = cᵀs and the ratio |cᵀs|/R."""
    m = len(w)
    best = max(itertools.product((1, -1), repeat=m),
               key=lambda sv: abs(sum((ci * si for ci, si in zip(c, sv, strict=True)), Fraction(0))))
    rate = sum((ci * si for ci, si in zip(c, best, strict=True)), Fraction(0))
    if rate == 0:
        return None
    speed = max(abs(sum((w[i][j] * best[j] for j in range(m)), Fraction(0))) for i in range(m))
    return {"corner signs s": list(best), "|cᵀs|": str(abs(rate)), "|Ws|_∞": str(speed),
            "M(t) ≥": f"{abs(rate)}/(1 + {speed}t) (input x = (1 + {speed}t)·s)"}


ACTIVATIONS = ("continuous", "lipschitz", "tanh-hardtanh")
RECURRENCES = ("any", "hurwitz", "diagonally-stable", "app-i1")
CONCLUSIONS = ("decaying", "exponential")
_ACT_TEXT = {"continuous": "any continuous activation σ", "lipschitz": "a Lipschitz continuous activation σ",
             "tanh-hardtanh": "σ ∈ {tanh, hardtanh}"}
_REC_TEXT = {"any": "any W", "hurwitz": "Hurwitz W (max Re λ(W) < 0)",
             "diagonally-stable": "W diagonally stable (DW + WᵀD ≺ 0 for a positive diagonal D)",
             "app-i1": "App. I.1's W = [[1, 1], [−4, −3]]"}


@dataclass(frozen=True)
class DecayingRNN(Statement):
    """RNNs (1) with ``activation`` and ``recurrence`` have decaying memory (eq. (6)), or exponentially
    decaying memory (eq. (7)) when ``conclusion`` is ``exponential``; for every U, b, c."""

    activation: str = "lipschitz"
    recurrence: str = "any"
    conclusion: str = "decaying"

    def __post_init__(self) -> None:
        if (self.activation not in ACTIVATIONS or self.recurrence not in RECURRENCES
                or self.conclusion not in CONCLUSIONS):
            raise ValueError(f"not a DecayingRNN statement: {self!r}")

    @property
    def text(self) -> str:
        concl = ("decaying memory: lim_(t→∞) M(H)(t) = 0 (Def. 3.2, eq. (6))" if self.conclusion == "decaying"
                 else "exponentially decaying memory: lim_(t→∞) e^(βt)M(H)(t) = 0 for some β > 0 (eq. (7))")
        if self.recurrence == "app-i1":
            return (f"The RNN (1) of App. I.1 (Fig. 11(b)), W = [[1, 1], [−4, −3]], U = I, b = 0, with "
                    f"{_ACT_TEXT[self.activation]} (tanh as printed), has {concl}")
        return (f"RNNs (1) with {_ACT_TEXT[self.activation]} and {_REC_TEXT[self.recurrence]} have {concl}, "
                "for every U, b, c")

    def controls(self) -> tuple[Control, ...]:
        out = []
        if self.conclusion == "decaying":
            out.append(Control("conclusion strengthened to exponentially decaying memory (eq. (7))",
                               replace(self, conclusion="exponential")))
        wider_rec = {"diagonally-stable": "hurwitz", "hurwitz": "any"}.get(self.recurrence)
        if wider_rec is not None:
            out.append(Control(f"hypothesis widened: {_REC_TEXT[self.recurrence]} → {_REC_TEXT[wider_rec]}",
                               replace(self, recurrence=wider_rec)))
        wider_act = {"tanh-hardtanh": "lipschitz", "lipschitz": "continuous"}.get(self.activation)
        if wider_act is not None and len(out) < 2:
            out.append(Control(f"activation class widened to {_ACT_TEXT[wider_act]}",
                               replace(self, activation=wider_act)))
        return tuple(out)

    def admits_activation(self, sigma: str) -> bool:
        """Whether the activation ``sigma`` (tanh, hardtanh, identity) is in the statement's class."""
        return sigma in ("tanh", "hardtanh") or (sigma == "identity" and self.activation != "tanh-hardtanh")

    def admits_matrix(self, w: Mat) -> bool:
        """Whether the 2×2 W is in the statement's class (exactly)."""
        if self.recurrence == "any":
            return True
        if self.recurrence == "hurwitz":
            return hurwitz_2x2(w)
        if self.recurrence == "diagonally-stable":
            return diagonal_certificate_2x2(w) is not None
        return w == APP_I1_W


def decaying_rnn_decide(statement: DecayingRNN, sigma: str, w: Mat, c: Sequence[Fraction]
                        ) -> tuple[bool | None, str, dict[str, Any]]:
    """The statement at one exact instance (σ, 2×2 W, U = I, b = 0, c): (holds, certified by, data)."""
    values: dict[str, Any] = {"σ": sigma, "W": [[str(v) for v in r] for r in w], "U": "I", "b": "0",
                              "c": [str(v) for v in c]}
    if not (statement.admits_activation(sigma) and statement.admits_matrix(w)):
        return True, "not in the statement's domain", values
    if sigma == "hardtanh":
        for x in itertools.product((Fraction(1), Fraction(-1), Fraction(2), Fraction(-2)), repeat=2):
            if (cert := hardtanh_corner(w, APP_I1_U, c, list(x))) is not None:
                return False, ("exact rational arithmetic: z(0) = Ux lies in a saturated corner that z' = Ws "
                               "keeps invariant, so dŷ/dt ≡ cᵀs ≠ 0"), {**values, "x": [str(v) for v in x],
                                                                        **cert}
        if statement.conclusion == "exponential" and (low := saturation_lower_bound(w, c)) is not None:
            return False, ("exact: the saturated input x = (1 + t|Ws|_∞)·s keeps the rate cᵀs up to time t, "
                           "so M(t) ≥ |cᵀs|/(1 + t|Ws|_∞)"), {**values, **low}
    if statement.conclusion == "decaying" and sigma in ("tanh", "hardtanh") and (
            d := diagonal_certificate_2x2(w)) is not None:
        return True, (f"diagonal stability, D = diag({d[0]}, {d[1]}) (theorem of "
                      "W.rnn-decaying.corrected)"), values
    if sigma == "identity" and hurwitz_2x2(w):
        return True, "linear RNN with Hurwitz W: ρ = cᵀe^(Wt)U decays exponentially", values
    return None, "undecided (no certificate applies)", values


def decaying_rnn_proof(statement: DecayingRNN) -> Proof:
    """Decide ``statement``: App. I.1's hardtanh RNN refutes every class that admits it; the
    saturation bound M(t) ≥ |cᵀs|/(1 + t|Ws|_∞) refutes exponential decay for hardtanh and any W the
    class admits; diagonal stability with σ ∈ {tanh, hardtanh} proves decay (Persidskii)."""
    if statement.admits_matrix(APP_I1_W) and statement.admits_activation("hardtanh"):
        derivation, data = app_i1_witness()
        if derivation.holds is not True:  # undecided, or a failed derivation (FAILED)
            return derivation
        return Proof(False, "the App. I.1 hardtanh RNN (one exact instance)",
                     "exact solution z(t) = (1, −1 − t) of z' = Wσ(z), z(0) = Ux, staying in the saturated "
                     "corner {z₁ ≥ 1, z₂ ≤ −1}; SymPy checks z' = Wσ(z), σ(z) = (1, −1), the spectrum of W",
                     counterexample=data)
    if statement.conclusion == "exponential" and statement.admits_activation("hardtanh"):
        w = _m([[-1, 0], [0, -1]])  # diagonally stable, Hurwitz: in every class but App. I.1's
        if statement.admits_matrix(w):
            from recmem.theory.memory_defs import hardtanh_memory_proof

            derivation = hardtanh_memory_proof(Fraction(0))
            if derivation.holds is not True:  # undecided, or a failed derivation (FAILED)
                return derivation
            steps = derivation.details
            low = saturation_lower_bound(w, [Fraction(1), Fraction(0)])
            if low is None:
                return Proof(None, "hardtanh, W = −I", "SymPy could not check the saturated memory",
                             details=steps)
            return Proof(False, "hardtanh, W = −I, U = I, b = 0, c = e₁ (decoupled scalar RNNs)",
                         "exact: the first unit is the scalar hardtanh RNN, M(t) = 1/(t + 1) (SymPy checks "
                         "the "
                         "maximisation over x); e^(βt)/(t + 1) → ∞ for every β > 0",
                         counterexample={"W": "−I", "U": "I", "c": "(1, 0)", "σ": "hardtanh",
                                         "M(t)": "1/(t + 1) (≥ the saturation bound " + low["M(t) ≥"] + ")",
                                         "e^(βt)M(t)": "→ ∞ for every β > 0"}, details=steps)
    if (statement.activation, statement.recurrence, statement.conclusion) == (
            "tanh-hardtanh", "diagonally-stable", "decaying"):
        return diagonal_stability_proof()
    return Proof(None, "no witness", "no exact witness and no general argument for this class")


def diagonal_stability_proof() -> Proof:
    """W.rnn-decaying.corrected: diagonally stable W and σ ∈ {tanh, hardtanh} give decaying memory.

    z = Wh + Ux + b obeys z' = Wσ(z), z(0) = Ux (the rest state has Wh + b = 0, so b plays no role).
    V(z) = Σ d_iΦ(z_i), Φ' = σ, Φ(0) = 0, Φ → ∞, gives V' = ½σᵀ(DW + WᵀD)σ < 0 off z = 0: global
    asymptotic stability. Memory: |x|_∞ > R gives ratio ≤ |c|₁/R (|σ| ≤ 1); r ≤ |x|_∞ ≤ R converges
    uniformly (a compact set of initial states); |x|_∞ < r decays exponentially (linearisation W,
    Hurwitz since diagonally stable). SymPy checks the identities (for m = 3; the argument is
    termwise in m)."""
    sp = _sp()
    m = 3
    sg = sp.symbols(f"s1:{m + 1}", real=True)  # σ(z_i), abstract
    d = sp.symbols(f"d1:{m + 1}", positive=True)
    wm = sp.Matrix(m, m, sp.symbols(f"w1:{m * m + 1}", real=True))
    dm = sp.diag(*d)
    sv = sp.Matrix(sg)
    # V = Σ d_i Φ(z_i), Φ' = σ: V' = Σ d_i σ(z_i) z_i' = σᵀ D W σ = ½ σᵀ (DW + WᵀD) σ
    vdot = sum(d[i] * sg[i] * (wm * sv)[i] for i in range(m))
    # each step: confirmed, undecided, or decided false (then a failed derivation, reported so)
    checks: dict[str, Step] = {"V' = ½σᵀ(DW + WᵀD)σ": decide_zero(
        vdot - (sv.T * (dm * wm + wm.T * dm) * sv)[0] / 2, simplify=sp.expand)}
    zz = sp.Symbol("s", real=True)

    def to_infinity(expr: Any) -> Step:
        lim = sp.limit(expr, zz, sp.oo)
        return True if lim == sp.oo else fact(False if lim.is_finite else None, f"lim = {lim}")

    phi_tanh = sp.log(sp.cosh(zz))
    checks["tanh: Φ = log cosh, Φ' = σ"] = decide_zero(sp.diff(phi_tanh, zz) - sp.tanh(zz), [{zz: 1}])
    checks["tanh: Φ → ∞"] = to_infinity(phi_tanh)
    checks["tanh: Φ(0) = 0"] = decide_zero(phi_tanh.subs(zz, 0))
    checks["tanh: σ = 0 only at 0"] = True if sp.solve(sp.tanh(zz), zz) == [0] else None
    phi_hard = sp.Piecewise((zz**2 / 2, sp.Abs(zz) <= 1), (sp.Abs(zz) - sp.Rational(1, 2), True))
    checks["hardtanh: Φ = |z| − 1/2 (|z| > 1) → ∞"] = to_infinity(sp.Abs(zz) - sp.Rational(1, 2))
    checks["hardtanh: Φ' = σ on each piece"] = decide_zeros(
        [sp.diff(zz**2 / 2, zz) - zz, sp.diff(zz - sp.Rational(1, 2), zz) - 1], points=[{zz: 1}])
    checks["hardtanh: Φ continuous at |z| = 1"] = decide_zero(phi_hard.subs(zz, 1) - sp.Rational(1, 2))
    checks["the 2×2 domain decision on the grid {0, ±1/2, ±1, ±2}⁴"] = fact(
        diagonal_domain_on_grid(), "the domain decision at some W of the exact grid")
    argument = proof_from_steps(checks, "the Persidskii argument", "Persidskii Lyapunov function")
    if argument.holds is not True:
        return argument
    return Proof(True, "every m, every U, b, c, σ ∈ {tanh, hardtanh}, W with DW + WᵀD ≺ 0 for a positive "
                 "diagonal D (argument in recmem.theory.memory; identities checked for m = 3)",
                 "Persidskii Lyapunov function V = Σ d_iΦ(z_i): SymPy checks V' = ½σᵀ(DW + WᵀD)σ, Φ ≥ 0, "
                 "Φ → ∞, σ(z) = 0 ⇔ z = 0; uniform decay by the three-regime argument",
                 details=argument.details, general=True)


# ---- the step of Thm 3.9's proof (App. A.8–A.9) ------------------------------------------------

_STEP_ACT = {"A0A1": "σ ∈ 𝒜₀ ∪ 𝒜₁ (Def. 3.8)", "lipschitz": "a Lipschitz continuous σ"}


@dataclass(frozen=True)
class StableStep(Statement):
    """App. A.8–A.9, the step of Thm 3.9's proof: RNNs Ĥ_m = Ĥ(·, θ_m) with σ ∈ 𝒜₀ ∪ 𝒜₁ (``activation``),
    sup_m max Re λ(W_m) ≤ −β₀ with β₀ > 0 (eq. (47)), uniformly bounded weights (eqs. (14), (64)) and
    (``uniform_decay``) uniformly decaying memories of the readout-perturbed models,
    lim_t sup_m sup_{|c̃_m − c_m|₂ ≤ β₀} |d/dt ỹ_{m,t}| = 0 (eqs. (53)–(54)), have uniformly exponentially
    decaying memories: for every β < ``rate_factor``·β₀ there is C* with
    sup_m M(Ĥ_m)(t) ≤ C*e^{−βt} (eq. (68)), M(Ĥ_m)(t) = sup_{x≠0} |d/dt Ĥ_{m,t}(u^x)|/(|x|_∞ + ``offset``)
    (eq. (67): offset 1; Def. 3.1: offset 0)."""

    offset: Fraction = Fraction(1)
    activation: str = "A0A1"
    uniform_decay: bool = True
    rate_factor: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        den = "|x|_∞" if self.offset == 0 else f"(|x|_∞ + {self.offset})"
        hyp = (", and uniformly decaying memories of the readout-perturbed models, lim_(t→∞) sup_m "
               "sup_(|c̃_m − c_m|₂ ≤ β₀) |d/dt ỹ_(m,t)| = 0 (eqs. (53)–(54))" if self.uniform_decay else "")
        r = "β₀" if self.rate_factor == 1 else f"({self.rate_factor})β₀"
        return (f"RNNs Ĥ_m with {_STEP_ACT[self.activation]}, sup_m max Re λ(W_m) ≤ −β₀, β₀ > 0 (eq. (47)), "
                f"uniformly bounded weights (eqs. (14), (64)){hyp} have uniformly exponentially decaying "
                f"memories: for every β < {r} there is C* with sup_m M(Ĥ_m)(t) ≤ C*e^(−βt) (eq. (68)), where "
                f"M(Ĥ_m)(t) = sup_(x≠0) |d/dt Ĥ_(m,t)(u^x)| / {den}")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("conclusion's rate doubled (every β < 2β₀)",
                       replace(self, rate_factor=2 * self.rate_factor))]
        if self.activation == "A0A1":
            out.append(Control("activation class widened to every Lipschitz σ",
                               replace(self, activation="lipschitz")))
        if self.uniform_decay:
            out.append(Control("the uniform-decay hypothesis (53) dropped",
                               replace(self, uniform_decay=False)))
        return tuple(out)


def step_decide(statement: StableStep, w: Fraction, u: Fraction, c: Fraction, beta0: Fraction
                ) -> tuple[bool | None, dict[str, Any]]:
    """The statement at the constant sequence Ĥ_m = the scalar hardtanh RNN h' = hardtanh(wh + ux),
    ŷ = ch, b = 0 (padded to width m with decoupled copies, W_m = w·I_m, U_m = u·e₁, c_m = c·e₁), β₀.

    Hypotheses, exactly: hardtanh ∈ 𝒜₀ (c_σ = 1, Z₀ = 1); (47) holds iff w ≤ −β₀; weights bounded;
    (53): the readout-perturbed rate is c̃₁σ(z), |c̃₁| ≤ |c| + β₀, and sup_x |σ(z(t))|/|x| =
    |u|/(|w|t + 1) → 0, uniformly over the perturbations and over m. Conclusion: M_o(t) =
    |cu|/(|w|t + 1 + o|u|) (memory_defs.hardtanh_memory) is not O(e^{−βt}) for any β > 0 when
    cu ≠ 0 — and β₀ > 0 leaves such β below rate_factor·β₀."""
    from recmem.theory.memory_defs import hardtanh_memory

    values = {"RNN": f"h' = hardtanh({w}h + {u}x), ŷ = {c}h (b = 0; Ĥ_m the same for every m)",
              "β₀": str(beta0)}
    if not (beta0 > 0 and w <= -beta0):
        return True, {**values, "hypothesis": "(47) fails: not admitted"}
    if c * u == 0:
        return True, {**values, "memory": "0"}
    t = Fraction(1)
    values["M(t)"] = f"{abs(c * u)}/({-w}t + {1 + statement.offset * abs(u)})"
    values["at t = 1"] = str(hardtanh_memory(w, u, c, statement.offset, t))
    values["e^(βt)M(t)"] = "→ ∞ for every β > 0: not ≤ C*e^(−βt)"
    return False, values


def step_proof(statement: StableStep) -> Proof:
    """Decide ``statement`` with the scalar hardtanh RNN w = −1, u = c = 1, β₀ = 1/2 (exact:
    memory_defs.hardtanh_memory_proof checks M_o(t) = 1/(t + 1 + o); SymPy takes the limit)."""
    import sympy as sp

    from recmem.theory.memory_defs import hardtanh_memory_proof

    derivation = hardtanh_memory_proof(statement.offset)
    if derivation.holds is not True:  # undecided, or a failed derivation (FAILED)
        return derivation
    t, beta = sp.symbols("t beta", positive=True)
    o = sp.Rational(statement.offset.numerator, statement.offset.denominator)
    m_o = 1 / (t + 1 + o)
    growth = sp.limit(sp.exp(beta * t) * m_o, t, sp.oo)
    # a limit SymPy computes to a finite number (or to one at β = 1) is decided false
    finite = sp.limit(sp.exp(t) * m_o, t, sp.oo) if growth.free_symbols else growth
    grows = fact(True if growth == sp.oo else False if finite.is_finite else None,
                 f"e^(βt)M_o(t) → {growth} (β = 1: {finite})")
    # (53) for the readout perturbations |c̃ − 1| ≤ β₀ = 1/2: sup_x |c̃σ(z)|/|x| ≤ (3/2)/(t + 1) → 0
    uniform = decide_zeros([sp.limit(sp.Rational(3, 2) / (t + 1), t, sp.oo)])
    limits = proof_from_steps({"e^(βt)M_o(t) → ∞ (β > 0)": grows,
                               "(53): (1 + β₀)/(t + 1) → 0": uniform}, "scalar hardtanh RNN",
                              "SymPy: the limits", derivation.details)
    if limits.holds is not True:  # undecided, or a failed derivation (FAILED)
        return limits
    steps = dict(limits.details)
    _, values = step_decide(statement, Fraction(-1), Fraction(1), Fraction(1), Fraction(1, 2))
    return Proof(False, "the constant sequence Ĥ_m = h' = hardtanh(x − h), ŷ = h (w = −1, u = c = 1, b = 0), "
                 "β₀ = 1/2",
                 "exact memory M_o(t) = 1/(t + 1 + o) (SymPy checks the maximisation over x); its limit "
                 "against e^(βt)",
                 counterexample={**values, "hypotheses": "hardtanh ∈ 𝒜₀ (c_σ = 1, Z₀ = 1); max Re λ = −1 ≤ "
                                 "−β₀; weights bounded; readout-perturbed memories ≤ (1 + β₀)/(t + 1) → 0 "
                                 "uniformly (53)", "M(t)": str(m_o), "e^(βt)M(t)": "→ ∞ for every β > 0"},
                 details={k: str(v) for k, v in steps.items()})


def realisation_proof(realisations: dict[str, tuple[Mat, Mat, list[Fraction]]], coeffs: Sequence[Fraction],
                      rates: Sequence[Fraction], weights: Sequence[Fraction]) -> Proof:
    """Each (W, U, c) realises ρ(t) = w·Σ c_i e^{−r_i t}: cᵀe^{Wt}U = ρ(t)ᵀ exactly (W §2)."""
    sp = _sp()
    t = sp.Symbol("t", positive=True)
    prof = sum((sp.Rational(c.numerator, c.denominator) * sp.exp(-sp.Rational(r.numerator, r.denominator) * t)
                for c, r in zip(coeffs, rates, strict=True)), sp.Integer(0))
    target = [sp.Rational(w.numerator, w.denominator) * prof for w in weights]
    details: dict[str, Any] = {}
    for name, wuc in realisations.items():
        diffs = [sp.simplify(a - b) for a, b in zip(kernel_of(*wuc), target, strict=True)]
        details[name] = all(d == 0 for d in diffs)
        if not details[name]:
            bad = next(d for d in diffs if d != 0)
            return Proof(False, f"the realisation '{name}'", "SymPy: cᵀe^{Wt}U − ρ(t)ᵀ",
                         counterexample={"realisation": name, "cᵀe^{Wt}U − ρ(t)ᵀ": str(bad),
                                         "at t = 1": str(sp.nsimplify(bad.subs(t, 1)))},
                         details=details)
    return Proof(True, "the realisations used by the numerics (exact rationals, every t)",
                 "SymPy: cᵀe^{Wt}U − ρ(t)ᵀ simplifies to 0", details=details)
