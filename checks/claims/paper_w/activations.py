"""W.activations: tanh ∈ 𝒜₁ (a = b = 1, Z₀ = ∞) and hardtanh ∈ 𝒜₀ (c_σ = 1, Z₀ = 1) (W Def. 3.8).

Symbolic side: recmem.theory.activations (rational-function identity in E = e^{2z} for tanh,
Piecewise analysis for hardtanh, and where identity, relu, softplus and sigmoid fall, as a note).
Numeric side, on grids of exact dyadic points in every arithmetic, each differentiating σ by its
own means: mpmath ``diff`` (finite differences at raised precision), flint Taylor arithmetic
(arb_series, a certified derivative), numpy complex-step differentiation Im σ(z + ih)/h, torch
autograd (whose tanh backward rule is literally 1 − tanh², so it is also checked by complex step).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend

QUOTE = ("Definition 3.8. We consider the following family of bounded monotone Lipschitz continuous "
         "activations which are locally-linear/locally-tanh around 0: For some , | (14) | | (15) | "
         "Notice includes the commonly used activations such as hardtanh and tanh. In particular, "
         "tanh corresponds to the case for with .")
C_ACT = 4.0
CS_STEP = Fraction(1, 2**64)  # complex step h: error O(h²σ‴) is far below u, and no cancellation


def tanh_grid(ctx: Context) -> list[Fraction]:
    """z = k/8 for |z| ≤ z_max, plus ±16, ±64 (deep saturation) when z_max allows."""
    z_max = int(ctx["z_max"])
    pts = [Fraction(k, 8) for k in range(-8 * z_max, 8 * z_max + 1)]
    return pts + [Fraction(s * v) for v in (16, 64) if v > z_max for s in (-1, 1)]


def hardtanh_grid() -> list[Fraction]:
    """z = k/16 with |z| < 1 (the stated domain |z| < Z₀ = 1)."""
    return [Fraction(k, 16) for k in range(-15, 16)]


# ---- tanh: σ′ − (1 − σ²) ------------------------------------------------------------------------

def tanh_pairs(backend: AbstractBackend, zs: list[Fraction]) -> list[tuple[Any, Any, Any]]:
    """(σ(z), σ′(z) by the backend's own differentiation, second σ′ or None) for each z."""
    kind = backend.spec.kind
    out: list[tuple[Any, Any, Any]] = []
    if kind == "mpmath":
        c = backend.ctx
        for z in zs:
            x = c.mpf(z.numerator) / z.denominator
            out.append((c.tanh(x), c.diff(c.tanh, x), None))
    elif kind == "flint":
        import flint

        for z in zs:
            s = flint.arb_series([flint.arb(flint.fmpq(z.numerator, z.denominator)), 1], prec=2)
            e = (2 * s).exp()
            th = ((e - 1) / (e + 1)).coeffs()
            out.append((th[0], th[1], None))
    elif kind == "numpy":
        import numpy as np

        h = float(CS_STEP)
        x = np.array([z.numerator / z.denominator for z in zs], dtype=np.float64)
        cs = np.tanh(x + 1j * h).imag / h
        out = [(float(a), float(b), None) for a, b in zip(np.tanh(x), cs, strict=True)]
    else:
        torch = backend.torch
        x = torch.tensor([z.numerator / z.denominator for z in zs], dtype=torch.float64,
                         device=backend.device, requires_grad=True)
        y = torch.tanh(x)
        (g,) = torch.autograd.grad(y.sum(), x)
        h = float(CS_STEP)
        cs = torch.tanh(torch.complex(x.detach(), torch.full_like(x.detach(), h))).imag / h
        out = list(zip(y.detach().cpu().tolist(), g.cpu().tolist(), cs.cpu().tolist(), strict=True))
    return out


def _tanh_judged(backend: AbstractBackend, zs: list[Fraction]) -> list[rp.Judged]:
    judged = []
    u = backend.unit_roundoff
    hp = rp.hp_context(backend)
    for z, (sig, der, der2) in zip(zs, tanh_pairs(backend, zs), strict=True):
        label = f"z = {z}"
        if backend.encloses:
            judged.append(rp.ball_zero(label, der - (1 - sig * sig), mpmath.mpf(1),
                                       backend.precision_bits))
            continue
        s, d = rp.real_of(hp, sig), rp.real_of(hp, der)
        # absolute: 1 − σ² carries 2|σ|·|δσ| + u, σ′ its own relative error: c·u·(1 + σ² + |σ′|)
        bound = C_ACT * u * (1 + s * s + abs(d))
        judged.append(rp.point_zero(label, d - (1 - s * s), bound))
        if der2 is not None:
            d2 = rp.real_of(hp, der2)
            judged.append(rp.point_zero(label + " (complex step)", d2 - (1 - s * s),
                                        C_ACT * u * (1 + s * s + abs(d2))))
    return judged


# ---- hardtanh: σ(z) = z and σ′(z) = 1 on |z| < 1 ----------------------------------------------

def hardtanh_pairs(backend: AbstractBackend, zs: list[Fraction]) -> list[tuple[Any, Any]]:
    """(σ(z), σ′(z)) by the backend: clip, and a difference quotient with a dyadic step (exact for
    a linear piece, |z| + h < 1) or autograd in torch."""
    kind, h = backend.spec.kind, Fraction(1, 64)
    out: list[tuple[Any, Any]] = []
    if kind == "torch":
        torch = backend.torch
        x = torch.tensor([z.numerator / z.denominator for z in zs], dtype=torch.float64,
                         device=backend.device, requires_grad=True)
        y = torch.nn.functional.hardtanh(x)
        (g,) = torch.autograd.grad(y.sum(), x)
        return list(zip(y.detach().cpu().tolist(), g.cpu().tolist(), strict=True))
    if kind == "flint":
        import flint

        def sig(v: Any) -> Any:
            return v.min(flint.arb(1)).max(flint.arb(-1))

        def conv(q: Fraction) -> Any:
            return flint.arb(flint.fmpq(q.numerator, q.denominator))
    elif kind == "mpmath":
        c = backend.ctx

        def sig(v: Any) -> Any:
            return max(min(v, c.one), -c.one)

        def conv(q: Fraction) -> Any:
            return c.mpf(q.numerator) / q.denominator
    else:
        import numpy as np

        def sig(v: Any) -> Any:
            return np.clip(v, -1.0, 1.0)

        def conv(q: Fraction) -> Any:
            return np.float64(q.numerator / q.denominator)
    for z in zs:
        x, step = conv(z), conv(h)
        out.append((sig(x), (sig(x + step) - sig(x - step)) / (2 * step)))
    return out


def _hardtanh_judged(backend: AbstractBackend, zs: list[Fraction]) -> list[rp.Judged]:
    judged = []
    hp = rp.hp_context(backend)
    for z, (sig, der) in zip(zs, hardtanh_pairs(backend, zs), strict=True):
        label = f"z = {z}"
        if backend.encloses:
            import flint

            zz = flint.arb(flint.fmpq(z.numerator, z.denominator))
            judged.append(rp.ball_zero(label + ": σ − z", sig - zz, mpmath.mpf(1),
                                       backend.precision_bits))
            judged.append(rp.ball_zero(label + ": σ′ − 1", der - 1, mpmath.mpf(1),
                                       backend.precision_bits))
            continue
        # dyadic z, z ± 1/64 and |z| + 1/64 < 1: clip and the quotient are exact in binary floats
        exact = hp.mpf(z.numerator) / z.denominator
        judged.append(rp.point_zero(label + ": σ − z", rp.real_of(hp, sig) - exact, hp.mpf(0)))
        judged.append(rp.point_zero(label + ": σ′ − 1", rp.real_of(hp, der) - 1, hp.mpf(0)))
    return judged


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Def. 3.8's identities on exact grids: tanh′ = 1 − tanh², hardtanh(z) = z, hardtanh′ = 1."""
    rp.require_float64(backend)
    t0 = time.perf_counter()
    zs = tanh_grid(ctx)
    src = ("enclosure of σ′ − (1 − σ²) (derivative by arb_series)" if backend.encloses else
           f"|σ′ − (1 − σ²)| ≤ c·u·(1 + σ² + |σ′|), c = {C_ACT}")
    zero = tanh_pairs(backend, [Fraction(0)])[0][0]
    zero_ok = (zero.is_zero() if backend.encloses else float(zero) == 0.0)
    ev_t = rp.evidence(f"tanh′(z) = 1 − tanh(z)², tanh(0) = 0 on {len(zs)} exact z", backend,
                       [*_tanh_judged(backend, zs),
                        rp.Judged("σ(0) = 0", Outcome.PASS if zero_ok else Outcome.FAIL)],
                       t0, tolerance_source=src,
                       data={"differentiation": _HOW[backend.spec.kind]})
    t1 = time.perf_counter()
    hz = hardtanh_grid()
    ev_h = rp.evidence(f"hardtanh(z) = z and hardtanh′(z) = 1 on {len(hz)} exact z, |z| < 1",
                       backend, _hardtanh_judged(backend, hz), t1,
                       tolerance_source="exact (dyadic points, linear piece)" if not backend.encloses
                       else "enclosure", data={"largest |z|": str(max(hz))})
    return [ev_t, ev_h]


_HOW = {"mpmath": "mpmath diff (finite differences at raised precision)",
        "flint": "arb_series Taylor arithmetic (certified)",
        "numpy": "complex step Im tanh(z + ih)/h, h = 2^-64",
        "torch": "autograd (rule 1 − y²) and complex step, h = 2^-64"}


def symbolic(ctx: Context) -> list[Evidence]:
    """SymPy proofs of both memberships (theory.activations.activation_classes)."""
    from recmem.theory.activations import activation_classes

    t0 = time.perf_counter()
    return [from_proof(activation_classes(), time.perf_counter() - t0)]


def strategy(ctx: Context) -> Any:
    """(activation, z): tanh at rationals in [−8, 8], hardtanh at rationals in (−1, 1)."""
    from hypothesis import strategies as st

    return st.one_of(st.tuples(st.just("tanh"), fractions_in(-8, 8, 8)),
                     st.tuples(st.just("hardtanh"), fractions_in(-1, 1, 16).filter(lambda q: abs(q) < 1)))


def holds(instance: tuple[str, Fraction], ctx: Context) -> Instance:
    """The defining identity at one exact point (exact SymPy / rational arithmetic), cross-checked
    by a flint ball that must contain 0 (a ball excluding 0 would certify a failure)."""
    import flint

    from recmem.theory.activations import identity_at

    name, q = instance
    values = {"activation": name, "z": str(q)}
    with flint.ctx.workprec(128):
        x = flint.arb(flint.fmpq(q.numerator, q.denominator))
        if name == "tanh":
            s = flint.arb_series([x, 1], prec=2)
            e = (2 * s).exp()
            c = ((e - 1) / (e + 1)).coeffs()
            ball = c[1] - (1 - c[0] * c[0])
        else:
            ball = x.min(flint.arb(1)).max(flint.arb(-1)) - x
        if not ball.contains(0):
            return Instance(False, "flint ball of the residual excludes 0", {**values,
                                                                           "residual": str(ball)})
    ok = identity_at(name, q)
    how = ("exact: the residual is a rational function of E = e^{2z} that SymPy reduces to 0; "
           "flint ball at 128 bits ∋ 0" if name == "tanh" else "exact rational arithmetic")
    return Instance(ok, how, values)


CLAIMS = [
    Claim(
        id="W.activations",
        title="tanh ∈ 𝒜₁ and hardtanh ∈ 𝒜₀",
        statement="tanh ∈ 𝒜₁ with a = b = 1, Z₀ = ∞; hardtanh ∈ 𝒜₀ with c_σ = 1, Z₀ = 1, where "
                  "𝒜₀ = {σ : σ(z) = c_σ z, c_σ > 0, |z| < Z₀} and 𝒜₁ = {σ : σ(0) = 0, "
                  "σ′(z) = a − bσ(z)², a, b ≥ 0, |z| < Z₀} (bounded, monotone, Lipschitz σ)",
        provenance=Provenance("W", "Def. 3.8 (eq. 14–15 of the arXiv text)", QUOTE),
        tolerance="SymPy exact; flint: enclosures (derivative by Taylor arithmetic); points: "
                  "|σ′ − (1 − σ²)| ≤ c·u·(1 + σ² + |σ′|) absolute; hardtanh exact",
        params=(Param("z_max", 8, "tanh grid z = k/8 for |z| ≤ z_max (plus ±16, ±64)", int,
                      check=at_least(1)),),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="Also (SymPy): hardtanh ∈ 𝒜₁ with a = 1, b = 0, Z₀ = 1; tanh ∉ 𝒜₀ (z³ coefficient "
              "−1/3). Other activations recmem supports (a note, the paper claims nothing about "
              "them): identity is locally in 𝒜₀ and 𝒜₁ with Z₀ = ∞ but unbounded, so outside "
              "Def. 3.8's family of bounded activations; relu is in neither (relu(−ε) = 0 ≠ −cε; "
              "σ′ = 0 on z < 0 forces a = 0, then 1 = −bz² on z > 0); softplus (σ(0) = log 2) and "
              "sigmoid (σ(0) = 1/2) are in neither.",
    ),
]
