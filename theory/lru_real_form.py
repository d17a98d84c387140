"""The real canonical form of paper L App. E.3, written once: conjugate eigenpairs, real
eigenvectors of real eigenvalues, and the 2×2 block of a conjugate pair (eq. (26)).

The derivations are SymPy steps over symbols: λ = α + iβ, v = x + iy with x = Re v, y = Im v
formal real vectors (every identity below is linear in the vectors with scalar coefficients, so
it holds coordinate-wise iff it holds for commuting real symbols x, y), A real.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from recmem.theory.proof import Proof, decide_zero, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

# The smallest counterexample: the rotation A = [[0, −1], [1, 0]], λ = i, v = (1, −i).
ROTATION = ((0, -1), (1, 0))


@dataclass(frozen=True)
class RealBlock(Statement):
    """L App. E.3 eq. (26): for real A with eigenpair (λ, v), Im λ ≠ 0, and Ṽ = [Re v, Im v],
    AṼ = ṼΛ̃ with Λ̃ = [[d, s·Im λ], [−s·Im λ, d]] (s = ``upper_sign``·``off_scale``; d = Re λ,
    or |λ| when ``diag_abs``). Printed: upper_sign = −1 (Λ̃ = [[Re λ, −Im λ], [Im λ, Re λ]])."""

    upper_sign: int = -1
    off_scale: int = 1
    diag_abs: bool = False

    @property
    def text(self) -> str:
        d = "|λ|" if self.diag_abs else "Re(λ)"
        k = "" if self.off_scale == 1 else f"{self.off_scale}·"
        up, lo = ("−", "") if self.upper_sign < 0 else ("", "−")
        return (f"A real, Av = λv, Im λ ≠ 0, Ṽ = [Re(v), Im(v)]: AṼ = Ṽ[[{d}, {up}{k}Im(λ)], "
                f"[{lo}{k}Im(λ), {d}]]")

    def controls(self) -> tuple[Control, ...]:
        return (Control("off-diagonal Im(λ) doubled", replace(self, off_scale=2 * self.off_scale)),
                Control("diagonal Re(λ) replaced by |λ|", replace(self, diag_abs=True)))

    def block(self, re: Any, im: Any, absval: Any) -> list[list[Any]]:
        """Λ̃ over any field, from Re λ, Im λ and |λ|."""
        d = absval if self.diag_abs else re
        off = self.upper_sign * self.off_scale * im
        return [[d, off], [-off, d]]


@dataclass(frozen=True)
class ActionChain(Statement):
    """L App. E.3, the two displayed chains for real A, Av = λv:
    A·Re(v) = ½A(v + v*) = ½(λv + λ*v*) = Re(λv) = Re[(Re λ + i Im λ)(Re v + i Im v)]
    = Re λ Re v − Im λ Im v, and A·Im(v) = f·A(v − v*) = f·(λv − λ*v*) = Im(λv) = …
    = Re λ Im v + Im λ Re v. Printed f = ½ (``im_over_i`` False); Im(v) = (v − v*)/(2i) needs
    f = 1/(2i)."""

    im_over_i: bool = False
    last_sign: int = -1   # sign of Im λ Im v in the last line of the Re chain (printed −)
    im_last_sign: int = 1  # sign of Im λ Re v in the last line of the Im chain (printed +)

    @property
    def text(self) -> str:
        f = "1/(2i)" if self.im_over_i else "1/2"
        sg = "−" if self.last_sign < 0 else "+"
        sg_im = "−" if self.im_last_sign < 0 else "+"
        return (f"A real, Av = λv: A·Re(v) = ½A(v + v*) = ½(λv + λ*v*) = Re(λv) = Re λ Re v {sg} "
                f"Im λ Im v, and A·Im(v) = {f}·A(v − v*) = {f}·(λv − λ*v*) = Im(λv) = Re λ Im v "
                f"{sg_im} Im λ Re v")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of Im λ Im v flipped", replace(self, last_sign=-self.last_sign)),
                Control("sign of Im λ Re v flipped in the Im chain",
                        replace(self, im_last_sign=-self.im_last_sign)))

    def im_factor(self, i_unit: Any) -> Any:
        """The factor f in front of A(v − v*) and (λv − λ*v*)."""
        return 1 / (2 * i_unit) if self.im_over_i else i_unit / (2 * i_unit)

    def chains(self, applied: Sequence[Any], v: Any, lam: Any, re: Any, im: Any,
               i_unit: Any) -> list[list[Any]]:
        """The displayed expressions of each chain, in order, over any field. ``applied`` =
        (A·Re v, A·Im v, A·v, A·v*) computed by the caller, ``v``/``lam`` the eigenpair,
        ``re``/``im`` real and imaginary parts; vectors are lists."""
        a_re, a_im, av, avc = applied
        f = self.im_factor(i_unit)
        vc = [p - 2 * i_unit * im(p) for p in v]
        rl, il = re(lam), im(lam)
        chain_re = [list(a_re),
                    [(lam * p + (rl - i_unit * il) * q) / 2 for p, q in zip(v, vc, strict=True)],
                    [re(lam * p) for p in v],
                    [rl * re(p) + self.last_sign * il * im(p) for p in v]]
        chain_im = [list(a_im),
                    [f * (p - q) for p, q in zip(av, avc, strict=True)],
                    [f * (lam * p - (rl - i_unit * il) * q) for p, q in zip(v, vc, strict=True)],
                    [im(lam * p) for p in v],
                    [rl * im(p) + self.im_last_sign * il * re(p) for p in v]]
        return [chain_re, chain_im]


STEP_NAMES = (("A·Re(v) = ½A(v + v*) = ½(λv + λ*v*)", "½(λv + λ*v*) = Re(λv)",
               "Re(λv) = Re[(Re λ + i Im λ)(Re v + i Im v)] = Re λ Re v ∓ Im λ Im v"),
              ("A·Im(v) = f·A(v − v*)", "f·A(v − v*) = f·(λv − λ*v*)", "f·(λv − λ*v*) = Im(λv)",
               "Im(λv) = Im[(Re λ + i Im λ)(Re v + i Im v)] = Re λ Im v + Im λ Re v"))


def action_chain_proof(law: ActionChain) -> Proof:
    """Decide the chains with SymPy: v = x + iy, λ = α + iβ (real symbols), Av = λv and
    Av* = λ*v* (A real); each displayed equality is decided; a false one is shown at
    v = (i) … i.e. x = 0, y = 1, α = 1, β = 0 (A = [1]) or α = 0, β = 1."""
    import sympy as sp

    al, be, x, y = sp.symbols("alpha beta x y", real=True)
    lam, v = al + sp.I * be, x + sp.I * y
    av, avc = lam * v, sp.conjugate(lam) * sp.conjugate(v)  # A v and A v* (A real)
    applied = ([(av + avc) / 2], [(av - avc) / (2 * sp.I)], [av], [avc])  # A x, A y by linearity
    chains = law.chains(applied, [v], lam, sp.re, sp.im, sp.I)
    points = [{al: 1, be: 0, x: 0, y: 1}, {al: 0, be: 1, x: 1, y: 0}, {al: 1, be: 1, x: 1, y: 1}]
    steps: dict[str, Any] = {}
    for names, chain in zip(STEP_NAMES, chains, strict=True):
        for name, lhs, rhs in zip(names, chain[:-1], chain[1:], strict=True):
            ok, witness = decide_zero(sp.expand(lhs[0] - rhs[0]), points)
            if ok is False:
                return Proof(False, name, "SymPy: the displayed step, v = x + iy, λ = α + iβ",
                             counterexample={"step": name, **witness})
            steps[name] = (ok, witness)
    return proof_from_steps(steps, "every real A and eigenpair (λ, v)",
                            "SymPy: each displayed equality, v = x + iy, λ = α + iβ", general=True)


def derived_action() -> tuple[Any, Any, Any]:
    """(symbols, A·Re v, A·Im v) from Av = λv, Av* = λ*v*: the true action (the chains' ends)."""
    import sympy as sp

    al, be, x, y = sp.symbols("alpha beta x y", real=True)
    lam, v = al + sp.I * be, x + sp.I * y
    av, avc = lam * v, sp.conjugate(lam) * sp.conjugate(v)
    return (al, be, x, y), sp.expand((av + avc) / 2), sp.expand((av - avc) / (2 * sp.I))


def conjugate_pair_step(n: int = 3) -> Any:
    """Av* = (Av)* for a real N×N A and complex v (App. E.3, first display), entry-wise."""
    import sympy as sp

    a = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"a{i}{j}", real=True))
    v = sp.Matrix(n, 1, lambda i, _: sp.Symbol(f"p{i}", real=True) + sp.I * sp.Symbol(f"q{i}",
                                                                                      real=True))
    return decide_zeros(list(a * v.conjugate() - (a * v).conjugate()), sp.expand)


def block_residual(law: RealBlock, a: Any, v: Sequence[Any], lam: Any) -> Any:
    """AṼ − ṼΛ̃ for exact SymPy data (a a SymPy Matrix, v a list, λ a number)."""
    import sympy as sp

    vt = sp.Matrix([[sp.re(c), sp.im(c)] for c in v])
    m = sp.Matrix(law.block(sp.re(lam), sp.im(lam), sp.Abs(lam)))
    return (a * vt - vt * m).applyfunc(sp.expand)  # entries in ℚ(i, √m): expand is canonical


def real_block_proof(law: RealBlock) -> Proof:
    """Decide eq. (26) (App. E.3): A·Re v, A·Im v from Av = λv, Av* = λ*v*, then the columns of ṼΛ̃ against the
    derived A·Re(v), A·Im(v), coefficient by coefficient (sufficient for every N; necessary
    since Re v, Im v are independent when Im λ ≠ 0); a mismatch is shown on the rotation."""
    import sympy as sp

    t0 = time.perf_counter()
    steps: dict[str, Any] = {"Av* = λ*v* for real A (entry-wise, N = 3)": conjugate_pair_step()}
    (al, be, x, y), ax, ay = derived_action()
    m = law.block(al, be, sp.sqrt(al**2 + be**2))
    diffs = [ax - (m[0][0] * x + m[1][0] * y), ay - (m[0][1] * x + m[1][1] * y)]
    coeffs = [sp.expand(d).coeff(s) for d in diffs for s in (x, y)]
    ok, _ = decide_zeros(coeffs, sp.simplify, [{al: 0, be: 1}])
    if ok is False:
        a = sp.Matrix(ROTATION)
        res = block_residual(law, a, [sp.Integer(1), -sp.I], sp.I)
        return Proof(False, "A = [[0, −1], [1, 0]], λ = i, v = (1, −i)",
                     "columns of ṼΛ̃ against the derived A·Re(v), A·Im(v)",
                     counterexample={"A": str(a.tolist()), "λ": "i", "v": "(1, −i)",
                                     "AṼ − ṼΛ̃": str(res.tolist()),
                                     "coefficient differences": str(coeffs)})
    derived = proof_from_steps(
        {**steps, "columns of ṼΛ̃ equal A·Re(v), A·Im(v)": (ok, {"coefficients": str(coeffs)})},
        "every real N×N A and eigenpair (λ, v) with Im λ ≠ 0",
        "SymPy: A·Re v, A·Im v, then coefficients of Re v, Im v", general=True)
    derived.details["seconds"] = round(time.perf_counter() - t0, 3)
    return derived


@dataclass(frozen=True)
class RealEigenvector(Statement):
    """L App. E.3: for real A with a real eigenvalue λ and a complex eigenvector v, z is a real
    eigenvector (z ≠ 0, z ∈ ℝ^N, Az = scale·λ z). Printed: z = v + v*. Corrected (``fallback``):
    z = v + v* when nonzero, else i(v − v*) (= −2 Im v)."""

    fallback: bool = False
    minus: bool = False   # z = v − v* (control)
    scale: int = 1        # eigenvalue scale·λ (control)

    @property
    def text(self) -> str:
        z = "v − v*" if self.minus else "v + v*"
        z += " (or i(v − v*) when v + v* = 0)" if self.fallback else ""
        mu = "λ" if self.scale == 1 else f"{self.scale}λ"
        return f"A real, Av = λv, λ ∈ ℝ, v ∈ ℂ^N∖0: z = {z} is in ℝ^N, nonzero, and Az = {mu}z"

    def controls(self) -> tuple[Control, ...]:
        return (Control("eigenvalue doubled", replace(self, scale=2 * self.scale)),
                Control("v + v* replaced by v − v*", replace(self, minus=True)))

    def vector(self, v: Sequence[Any], conj: Any, zero_test: Any, i_unit: Any) -> list[Any]:
        """z over any field (``conj`` the conjugate, ``zero_test`` decides a vector is 0)."""
        vc = [conj(c) for c in v]
        z = [p - q for p, q in zip(v, vc, strict=True)] if self.minus else [
            p + q for p, q in zip(v, vc, strict=True)]
        if self.fallback and zero_test(z):
            z = [i_unit * (p - q) for p, q in zip(v, vc, strict=True)]
        return z


def real_eigenvector_exact(law: RealEigenvector, a: Any, lam: Any, v: Sequence[Any]) -> dict[str,
                                                                                              Any]:
    """The three conditions at exact SymPy data: z real, z ≠ 0, Az = scale·λ z."""
    import sympy as sp

    z = law.vector(v, sp.conjugate, lambda w: all(sp.expand(c) == 0 for c in w), sp.I)
    zm = sp.Matrix([sp.expand(c) for c in z])
    return {"z": [str(c) for c in zm], "real": all(sp.im(c) == 0 for c in zm),
            "nonzero": any(c != 0 for c in zm),
            "eigen": (a * zm - law.scale * lam * zm).applyfunc(sp.expand).is_zero_matrix}


def real_eigenvector_proof(law: RealEigenvector) -> Proof:
    """Decide the statement: symbolically for v = x + iy (x, y real symbols, A real, Av = λv, so
    Ax = λx and Ay = λy), z's realness and eigen-equation; nonzero-ness fails for the printed z
    exactly when x = 0, shown at A = [1], λ = 1, v = i."""
    import sympy as sp

    lam, x, y = sp.symbols("lambda x y", real=True)
    v = [x + sp.I * y]
    z = law.vector(v, sp.conjugate, lambda w: False, sp.I)  # generic branch (x ≠ 0)
    az = sp.expand(z[0].subs({x: lam * x, y: lam * y}, simultaneous=True))  # A z, Ax = λx, Ay = λy
    witnesses = [({"A": "[[1]]", "λ": "1", "v": "(i)"}, sp.Matrix([[1]]), sp.Integer(1), [sp.I]),
                 ({"A": "[[2]]", "λ": "2", "v": "(1)"}, sp.Matrix([[2]]), sp.Integer(2),
                  [sp.Integer(1)])]
    for shown, a, lm, vv in witnesses:
        got = real_eigenvector_exact(law, a, lm, vv)
        if not (got["real"] and got["nonzero"] and got["eigen"]):
            return Proof(False, "N = 1", "exact evaluation of z", counterexample={**shown, **got})
    steps = {"z is real": decide_zero(sp.im(sp.expand(z[0]))),
             "A z = scale·λ z": decide_zero(az - law.scale * lam * sp.expand(z[0])),
             "z ≠ 0 unless Re v = 0 (then i(v − v*) = −2 Im v ≠ 0)": (
                 decide_zero(sp.expand(law.vector([sp.I * y], sp.conjugate, lambda w: True, sp.I)[0]
                                       + 2 * y)) if law.fallback and not law.minus else None)}
    return proof_from_steps(steps, "every real A, real λ, complex eigenvector v",
                            "SymPy with v = x + iy, Ax = λx, Ay = λy", general=True)
