"""O.rnn-universality: O App. A, Theorem 3 (universality of non-linear RNNs, cited from [15]),
checked on instances with explicit constructions; CORROBORATED at best.

The printed "technical assumptions" are not stated, so the claim fixes targets that meet any
reading of them (contracting systems ẋ̄ = −x̄ + f(u), ȳ = x̄, bounded inputs |u| ≤ 1, from rest;
f(u) = u and u²) and checks the existence of an RNN (9) with a non-polynomial σ (softplus) within
ε uniformly in time (statement: :class:`recmem.theory.rnn_universality.RNNUniversality`):

- symbolic (exact instances): the softplus identities and remainder bound the construction rests
  on (SymPy), and the certified uniform error bound of each target's RNN against ε;
- numeric, in each arithmetic: the target and the RNN integrated by the same classical RK4 for
  u(t) = sin 2t on [0, 8], max |y − ȳ| over the steps against ε; for σ(z) = z (the control) the
  lower bound max_t |ȳ_u + ȳ_(−u)|/2 that every linear RNN's error reaches on u or −u; without
  the compact set of inputs (the other control), the same RNN also at amplitudes 4 and 16;
- search: (target, ε) decided exactly.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, by_arithmetic, parse_fraction
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.scalars import Scalars
from recmem.theory.rnn_universality import TARGETS, RNNUniversality, universality_proof

QUOTE = (r"Theorem 3 (Universality of non-linear RNNs [15]) Consider the continuous-time non-linear "
         r"dynamical system with form $$\dot{\bar{x}}(t) = \bar{f}(\bar{x}(t), u(t)), \quad "
         r"\bar{y}(t) = h(\bar{x}(t)), \quad (8)$$ with $\bar{x}(t) \in \mathbb{R}^{\bar{N}}$, "
         r"$u(t) \in \mathbb{R}^M$. Under some technical assumptions (bounded input, non-chaotic "
         r"f), for any $\epsilon > 0$ there exists a non-linear RNN $$\dot{x}(t) = "
         r"-\frac{1}{\tau}x(t) + \sigma(Ax(t) + Bu(t)), \quad y(t) = Cx(t), \quad (9)$$ for some "
         r"non-polynomial σ , $\tau > 0$, $A \in \mathbb{R}^{N \times N}$, $B \in \mathbb{R}^{N "
         r"\times M}$, $C \in \mathbb{R}^{M \times N}$ that approximates the solution of equation "
         r"(8) up to error ϵ uniformly in time, on compact sets of inputs.")

HORIZON, STEPS = 8, 128  # RK4 on [0, 8] with h = 1/16 (local error O(h⁵), far below ε)
AMPLITUDES = (1, 4, 16)  # input amplitudes: 1 is the compact set; more only for the control


def symbolic(ctx: Context) -> list[Evidence]:
    """The construction's facts and each target's certified bound (theory.rnn_universality)."""
    t0 = time.perf_counter()
    return [from_proof(universality_proof(ctx.law(RNNUniversality), TARGETS, ctx["eps"]),
                       time.perf_counter() - t0)]


class _Ops(Scalars):
    """Scalars of one arithmetic (checks/claims/paper_o/_scalars.py) with softplus."""

    def fn(self, name: str, x: Any) -> Any:
        if name == "softplus":  # log(1 + e^z), each library's stable form
            if self.kind == "mpmath":
                return self.mp.log(1 + self.mp.exp(x))
            if self.kind == "numpy":
                return self.np.logaddexp(self.dt.type(0), x)
            return self.torch.nn.functional.softplus(x)
        return super().fn(name, x)


def _rk4(ops: _Ops, rhs: Any, n: int) -> list[list[Any]]:
    """Classical RK4 from rest for x' = rhs(t, x) (n states): the states at the STEPS + 1 nodes."""
    h = ops.num(Fraction(HORIZON, STEPS))
    x = [ops.num(0)] * n
    out = [x]
    for k in range(STEPS):
        t = h * k
        k1 = rhs(t, x)
        k2 = rhs(t + h / 2, [a + h / 2 * b for a, b in zip(x, k1, strict=True)])
        k3 = rhs(t + h / 2, [a + h / 2 * b for a, b in zip(x, k2, strict=True)])
        k4 = rhs(t + h, [a + h * b for a, b in zip(x, k3, strict=True)])
        x = [a + h / 6 * (p + 2 * q + 2 * r + s)
             for a, p, q, r, s in zip(x, k1, k2, k3, k4, strict=True)]
        out.append(x)
    return out


def _target(ops: _Ops, target: str, sign: int, amp: int = 1) -> list[Any]:
    """ȳ at the nodes for u(t) = sign·amp·sin 2t."""
    def rhs(t: Any, x: list[Any]) -> list[Any]:
        u = sign * amp * ops.fn("sin", 2 * t)
        return [-x[0] + (u if target == "linear" else u * u)]

    return [x[0] for x in _rk4(ops, rhs, 1)]


def _rnn(ops: _Ops, b: list[Fraction], c: list[Fraction], softplus: bool,
         amp: int = 1) -> list[Any]:
    """y = Cx at the nodes for ẋ_i = −x_i + σ(B_i u), u(t) = amp·sin 2t (τ = 1, A = 0)."""
    bb, cc = [ops.num(v) for v in b], [ops.num(v) for v in c]

    def rhs(t: Any, x: list[Any]) -> list[Any]:
        u = amp * ops.fn("sin", 2 * t)
        return [-xi + (ops.fn("softplus", bi * u) if softplus else bi * u)
                for xi, bi in zip(x, bb, strict=True)]

    states = _rk4(ops, rhs, len(b))
    return [sum((ci * xi for ci, xi in zip(cc, x, strict=True)), ops.num(0)) for x in states]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Each target: the constructed RNN against the target (max over the RK4 nodes), or, for
    σ(z) = z on the square target, the lower bound every linear RNN reaches; worst over targets."""
    law = ctx.law(RNNUniversality)
    t0 = time.perf_counter()
    ops = _Ops(backend)
    eps = ctx["eps"]
    worst, allow, rows = mpmath.mpf(0), mpmath.mpf(0), {}
    u = backend.unit_roundoff
    with backend.activate():
        for target in TARGETS:
            built = law.construction(target, eps)
            ybar = _target(ops, target, 1)
            if built is None:  # y(−u) = −y(u) for a linear RNN
                other = _target(ops, target, -1)
                err = max(abs(float(a + b)) / 2 for a, b in zip(ybar, other, strict=True))
                rows[f"{target}: linear-RNN lower bound"] = tol.fmt(err)
                gain = Fraction(2)
            else:
                b, c, _ = built
                err = 0.0
                # the compact set |u| ≤ 1; without it, the same RNN also for amplitudes 4 and 16
                for amp in AMPLITUDES if not law.bounded_inputs else AMPLITUDES[:1]:
                    y = _rnn(ops, b, c, law.sigma == "non-polynomial", amp)
                    yb = ybar if amp == 1 else _target(ops, target, 1, amp)
                    err = max(err, max(abs(float(a - b_)) for a, b_ in zip(y, yb, strict=True)))
                    if err > 2 * eps:
                        break  # no witness at this amplitude: larger ones are not needed
                rows[f"{target}: N = {len(b)}"] = tol.fmt(err)
                gain = (1 + sum((abs(v) for v in c), Fraction(0))) * (
                    AMPLITUDES[-1] ** 2 if not law.bounded_inputs else 1)
            worst = max(worst, mpmath.mpf(err))
            # rounding: every RK4 step adds O(u) to each O(1) state, y = Cx amplifies by Σ|C_i|
            allow = max(allow, 8 * STEPS * float(gain) * u)
    eps_mp = mpmath.mpf(eps.numerator) / eps.denominator
    if worst - allow > eps_mp:
        outcome, message = Outcome.FAIL, ""
    elif worst + allow <= eps_mp:
        outcome, message = Outcome.PASS, ""
    else:
        outcome, message = Outcome.INCONCLUSIVE, (f"the rounding allowance {tol.fmt(allow)} "
                                                  "straddles ε at this precision")
    return [Evidence(check="RK4 on [0, 8], u = sin 2t: max |y − ȳ| (a linear RNN: its lower bound), "
                     "worst over the targets", kind="numeric", backend=backend.name,
                     outcome=outcome, message=message, precision_bits=backend.precision_bits,
                     residual=tol.fmt(worst), tolerance=tol.fmt(eps_mp),
                     tolerance_source="ε; rounding 8·steps·(1 + Σ|C_i|)·u on either side is "
                                      "inconclusive",
                     data=rows, seconds=time.perf_counter() - t0)]


def strategy(ctx: Context) -> Any:
    """(target, ε) with ε = 2^-j, j ≤ 30."""
    from hypothesis import strategies as st

    return st.fixed_dictionaries({"target": st.sampled_from(TARGETS),
                                  "eps": st.integers(0, 30).map(lambda j: Fraction(1, 2**j))})


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact: the construction's certified uniform bound ≤ ε, or the linear-RNN certificate."""
    ok, info = ctx.law(RNNUniversality).judge(inst["target"], inst["eps"])
    return Instance(ok, "exact rationals (the construction's remainder bound; 1 − e^(−1) > 1/2)",
                    info)


CLAIMS = [
    Claim(
        id="O.rnn-universality",
        summary="cited [15], assumptions unstated: on ẋ̄ = −x̄ + u and −x̄ + u² (|u| ≤ 1) softplus RNNs "
                "reach ε uniformly in time (certified bound); a linear RNN cannot (error ≥ 1 − 1/e), "
                "nor one RNN for all bounded inputs",
        title="Universality of non-linear RNNs (Theorem 3)",
        statement=RNNUniversality(),
        provenance=Provenance("O", "App. A, Theorem 3, eqs. (8)–(9)", QUOTE),
        tolerance="exact (SymPy, ℚ); floats and mpmath: max over the RK4 nodes against ε",
        uses=("O.pinkus",),
        params=(Param("eps", Fraction(1, 64), "the accuracy ε", parse_fraction,
                      check=lambda v: None if 0 < v < 1 else f"must lie in (0, 1), got {v}"),),
        symbolic=symbolic,
        numeric=by_arithmetic({"numpy": numeric, "torch": numeric, "mpmath": numeric},
                              "the RK4 comparison needs a point arithmetic; the exact side "
                              "certifies the bound"),
        strategy=strategy,
        holds=holds,
        reading="the unstated technical assumptions read as: contracting targets ẋ̄ = −x̄ + f(u), "
                "ȳ = x̄ with f(u) ∈ {u, u²}, inputs |u| ≤ 1, from rest",
        notes="The theorem's assumptions are not stated, so only instances are checked; the "
              "uniform-in-time bound comes from the shared leak: ė = −e + (g − f)(u). The "
              "numeric maximum is over the RK4 nodes (the functions are smooth between them).",
    ),
]
