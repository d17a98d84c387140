"""Zero-order-hold discretisation of the S4-like layer (paper L §2 eq. (2)–(3), §4), written once.

Ã is diagonal (L §2), so the continuous system and every discretisation act on each state
coordinate n separately: x' = a x + b·u with a = ã_n ∈ ℂ∖{0}, b = row n of B̃. The exact solution
over one interval on which u is held constant at w is obtained here from SymPy's ``dsolve`` (the
definition, not the paper's formula); the statement's recurrence is compared with the grid values
of that solution.

Symbols: E = e^{aΔ} and its conjugate Ē = e^{āΔ} are kept as symbols, so that the sequences are
rational functions in (a, ā, E, Ē, Δ, b, b̄, c, c̄, d, u_j); Re z = (z + z̄)/2 with z̄ obtained by
swapping each symbol with its bar (every u_j, d and Δ is real).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from recmem.theory.proof import Proof, decide_zero
from recmem.theory.statement import Control, Statement


@dataclass(frozen=True)
class ZohSampling(Statement):
    """L §2 eq. (3) (and §4): x_k = A x_{k−1} + B u_{k−lag}, x_rest = 0, y_k = [Re] C x_k + D u_k,
    with A = exp(ΔÃ), C = C̃, D = D̃ and B = (A + b_sign·I)Ã⁻¹B̃ (or ΔB̃ when ``euler``), sample
    the ODE (2) exactly: x_k = x_ct(Δk) and y_k = y_ct(Δk), k = 0 … L−1, for x_ct(0) = 0 and u_ct
    held at u_k on [Δk, Δ(k+1)) (zero-order hold). Printed: rest −1, lag 0, no Re, b_sign −1."""

    rest: int = -1          # the index of the zero state (printed x_{-1} = 0)
    lag: int = 0            # the recurrence's input is u_{k−lag} (printed B u_k)
    real_part: bool = False  # y_k = Re[C x_k] + D u_k (printed y_k = C x_k + D u_k)
    b_sign: int = -1        # B = (A + b_sign I) Ã⁻¹ B̃ (printed (A − I))
    euler: bool = False     # B = Δ B̃ (the first-order multiplier of §4) instead

    @property
    def text(self) -> str:
        mult = "ΔB̃" if self.euler else f"(A {'−' if self.b_sign < 0 else '+'} I)Ã⁻¹B̃"
        u = "u_k" if self.lag == 0 else f"u_(k{-self.lag:+d})".replace("+", "+ ").replace("-", "− ")
        y = "Re[C x_k]" if self.real_part else "C x_k"
        rest = f"x_({self.rest}) = 0".replace("-", "−")
        return (f"with {rest}, x_k = A x_(k−1) + B {u}, y_k = {y} + D u_k, A = exp(ΔÃ), "
                f"B = {mult}: x_k = x_ct(Δk) and y_k = y_ct(Δk) for k ≥ 0 (x_ct(0) = 0, "
                f"u_ct = u_k on [Δk, Δ(k+1)))")

    def controls(self) -> tuple[Control, ...]:
        return (Control("input index shifted by one", replace(self, lag=self.lag - 1)),
                Control("sign of I in B flipped: (A + I)Ã⁻¹B̃", replace(self, b_sign=-self.b_sign)),
                Control("B replaced by its first-order expansion ΔB̃", replace(self, euler=True)),
                Control("real part in the output toggled", replace(self,
                                                                 real_part=not self.real_part)))

    def multiplier(self, a: Any, e: Any, delta: Any) -> Any:
        """The statement's multiplier m of b in B = m·b̃ (any field: SymPy, mpmath, flint, …)."""
        return delta if self.euler else (e + self.b_sign) / a

    def states(self, lam: Any, mult: Any, drive: Sequence[Any], zero: Any, k_max: int) -> list[Any]:
        """x_0 … x_kmax of the statement's recurrence for one coordinate: λ = A_nn, ``mult`` its B
        multiplier, drive[t] = b·u_t (0 outside 0 … len − 1)."""
        def w(t: int) -> Any:
            return drive[t] if 0 <= t < len(drive) else zero

        x, out = zero, [zero] * (max(self.rest, -1) + 1)  # x_0 … x_rest are 0 when rest ≥ 0
        for k in range(self.rest + 1, k_max + 1):
            x = lam * x + mult * w(k - self.lag)
            if k >= 0:
                out.append(x)
        return out


# ---------------------------------------------------------------------------------------------
# the exact solution on one held interval (SymPy dsolve) and the symbolic comparison


@cache
def _syms() -> dict[str, Any]:
    import sympy as sp

    keys, names = "a ab E Eb b bb c cb", "a ab e^(aΔ) e^(āΔ) b bb c cb"
    out = dict(zip(keys.split(), sp.symbols(names), strict=True))
    out["delta"] = sp.Symbol("Delta", positive=True)
    out["d"] = sp.Symbol("d", real=True)
    return out


def bar_map(us: Sequence[Any]) -> dict[Any, Any]:
    """The symbol swap z ↦ z̄ (the inputs u_j, d and Δ are real)."""
    s = _syms()
    pairs = [("a", "ab"), ("E", "Eb"), ("b", "bb"), ("c", "cb")]
    return {**{s[p]: s[q] for p, q in pairs}, **{s[q]: s[p] for p, q in pairs}}


@cache
def held_flow() -> tuple[Any, str]:
    """The solution at t = Δ of x' = a x + w, x(0) = X (w constant), from SymPy's dsolve, with
    e^{aΔ} written as the symbol E; and the dsolve solution as text."""
    import sympy as sp

    s = _syms()
    t, xx, w, f = sp.Symbol("t", real=True), sp.Symbol("X"), sp.Symbol("w"), sp.Function("f")
    a = sp.Symbol("a", nonzero=True)
    sol = sp.dsolve(sp.Eq(f(t).diff(t), a * f(t) + w), f(t), ics={f(0): xx}).rhs
    at = sp.expand(sol.subs(t, s["delta"]))
    at = at.subs(sp.exp(a * s["delta"]), s["E"]).subs(a, s["a"])
    return sp.Lambda((xx, w), at), str(sol)


def sequences(law: ZohSampling, us: Sequence[Any], k_max: int) -> dict[str, list[Any]]:
    """Statement vs definition for one coordinate, k = 0 … k_max, as SymPy expressions in the
    module's symbols: states x_k (statement) and X_k = x_ct(Δk) (dsolve flow, held inputs), and
    outputs y_k (statement) and Re[c X_k] + d u_k."""
    import sympy as sp

    s = _syms()
    flow, _ = held_flow()
    drive = [s["b"] * u for u in us]
    xs = law.states(s["E"], law.multiplier(s["a"], s["E"], s["delta"]), drive, sp.Integer(0), k_max)
    truth = [sp.Integer(0)]
    for j in range(k_max):
        truth.append(flow(truth[-1], drive[j] if j < len(drive) else 0))
    bars = bar_map(us)

    def re(z: Any) -> Any:
        return (z + z.xreplace(bars)) / 2

    def u(k: int) -> Any:
        return us[k] if k < len(us) else 0

    ys = [(re(s["c"] * x) if law.real_part else s["c"] * x) + s["d"] * u(k)
          for k, x in enumerate(xs)]
    yt = [re(s["c"] * x) + s["d"] * u(k) for k, x in enumerate(truth)]
    return {"x": xs, "X": truth, "y": ys, "y_ct": yt}


# A point of the domain (a = −1, Δ = 1, b = 1, c = i, d = 0, u_j = j + 1) where the differences are
# evaluated exactly when they are not identically zero: e^{aΔ} = e^{−1}.
def _witness_point(us: Sequence[Any]) -> dict[Any, Any]:
    import sympy as sp

    s = _syms()
    pt = {s["a"]: -1, s["ab"]: -1, s["E"]: sp.exp(-1), s["Eb"]: sp.exp(-1), s["delta"]: 1,
          s["b"]: 1, s["bb"]: 1, s["c"]: sp.I, s["cb"]: -sp.I, s["d"]: 0}
    return {**pt, **{u: j + 1 for j, u in enumerate(us)}}


def zoh_proof(law: ZohSampling, k_max: int = 4) -> Proof:
    """Decide ``law`` symbolically (L §2 eq. (3)).

    1. The definition: SymPy's dsolve of x' = a x + w, x(0) = X on one held interval, at t = Δ.
    2. k = 0 … k_max: the statement's x_k and y_k against X_k = x_ct(Δk) and Re[c X_k] + d u_k,
       rational functions of (a, ā, E, Ē, Δ, b, b̄, c, c̄, d, u_j); a nonzero difference is shown
       with its exact value at a = −1, Δ = 1, b = 1, c = i, u_j = j + 1.
    3. All k: when the statement's step A x + B u equals the flow (identically in X and w), starts
       at x_0 = 0 and reads u_{k−1}, both sequences obey the same first-order recursion from the
       same value, so they agree for every k (induction), for every diagonal Ã with nonzero ã_n.
    """
    import sympy as sp

    t0 = time.perf_counter()
    us = sp.symbols(f"u0:{k_max + 1}", real=True)
    seq = sequences(law, us, k_max)
    point = _witness_point(us)
    for k in range(k_max + 1):
        for name, mine, ref in (("x_k", seq["x"][k], seq["X"][k]), ("y_k", seq["y"][k],
                                                                       seq["y_ct"][k])):
            ok, witness = decide_zero(sp.cancel(mine - ref), [point], sp.cancel)
            if ok is not True:
                if ok is None:
                    return Proof(None, f"k = {k}", f"{name}: SymPy could not decide", details=witness)
                return Proof(False, f"k = {k}", "statement minus the dsolve solution sampled at Δk",
                             counterexample={"k": k, "quantity": name, "statement": str(mine),
                                             "exact (dsolve)": str(ref), **witness})
    s = _syms()
    flow, sol = held_flow()
    xx, w = sp.symbols("X w")
    step = sp.cancel(s["E"] * xx + law.multiplier(s["a"], s["E"], s["delta"]) * w - flow(xx, w))
    general = step == 0 and law.rest == 0 and law.lag == 1
    return Proof(True, f"k ≤ {k_max}" + (", and every k ≥ 0 by induction" if general else ""),
                 "SymPy dsolve on each held interval + rational-function comparison",
                 details={"dsolve": sol, "seconds": round(time.perf_counter() - t0, 3)},
                 general=general)


@cache
def _cached_sequences(law: ZohSampling, count: int, k: int) -> tuple[Any, dict[str, list[Any]]]:
    import sympy as sp

    syms = sp.symbols(f"u0:{count}", real=True)
    return syms, sequences(law, syms, k)


def zoh_exact(law: ZohSampling, values: Mapping[str, Any], us: Sequence[Any], k: int) -> Any:
    """x_k − X_k and y_k − y_ct(Δk) at exact values (keys a, delta, b, c, d: SymPy numbers), E and
    Ē still symbols: a polynomial in (E, Ē) with coefficients in ℚ(i)."""
    import sympy as sp

    s = _syms()
    syms, seq = _cached_sequences(law, len(us), k)
    sub = {s["a"]: values["a"], s["ab"]: sp.conjugate(values["a"]), s["delta"]: values["delta"],
           s["b"]: values["b"], s["bb"]: sp.conjugate(values["b"]), s["c"]: values["c"],
           s["cb"]: sp.conjugate(values["c"]), s["d"]: values["d"],
           **dict(zip(syms, us, strict=True))}
    # a is a nonzero number here: the differences are polynomials in (E, Ē), and expand is
    # canonical for them
    return [sp.expand((seq[p][k] - seq[q][k]).xreplace(sub)) for p, q in (("x", "X"), ("y", "y_ct"))]


ZOH_PRINTED = ZohSampling()
ZOH_CORRECTED = ZohSampling(rest=0, lag=1, real_part=True)
