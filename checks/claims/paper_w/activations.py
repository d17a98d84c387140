"""W.activations: tanh ∈ 𝒜₁ (a = b = 1, Z₀ = ∞) and hardtanh ∈ 𝒜₀ (W Def. 3.8, eqs. (12)–(13)).

One statement, recmem.theory.activations.ActivationClasses (the 𝒜₁ constants of tanh, the 𝒜₀
constants of hardtanh), read by every side. Symbolic side: the identity in ℚ(E), E = e^{2z}, for
tanh, and hardtanh's pieces inside (−Z₀, Z₀). Numeric side, on grids of exact dyadic points in
every arithmetic (float32 included), σ being the project's own activations
(recmem.numerics.activations, as the RNN simulations use them; flint has its own ball forms),
each differentiating σ by its own means — mpmath ``diff``
(finite differences at raised precision), flint Taylor arithmetic (arb_series, a certified
derivative), numpy complex-step differentiation Im σ(z + ih)/h, torch autograd (whose tanh
backward rule is literally 1 − tanh², so it is also checked by complex step) — and judging the
statement's residuals σ′ − (a − bσ²) and σ(z) − c_σ z. Search: exact points, hardtanh's reaching
past the statement's Z₀.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, Outcome, from_proof, harness
from recmem.numerics.activations import activation
from recmem.numerics.backend import AbstractBackend
from recmem.theory.activations import ActivationClasses

QUOTE = ("Definition 3.8. We consider the following family of bounded monotone Lipschitz "
         "continuous activations which are locally-linear/locally-tanh around 0: For some "
         "$Z_{0} > 0$ , $$\\mathcal {A} _ {0} := \\{\\sigma (\\cdot) | \\sigma (z) = c _ {\\sigma} "
         "z, c _ {\\sigma} > 0, | z | < Z _ {0} \\}, \\tag {12}$$ $$\\mathcal {A} _ {1} := "
         "\\{\\sigma (\\cdot) | \\sigma (0) = 0; \\sigma \\text { differentiable }, \\sigma^ "
         "{\\prime} (z) = a - b \\sigma (z) ^ {2}, a, b \\geq 0, | z | < Z _ {0} \\}. \\tag {13}$$ "
         "Notice $A_{0} \\cup A_{1}$ includes the commonly used activations such as hardtanh and "
         "tanh. In particular, tanh corresponds to the case a = b = 1 for $A_{1}$ with "
         "$Z_{0} = \\infty$ .")
C_ACT = 4.0
CS_STEP = Fraction(1, 2**64)  # complex step h: error O(h²σ‴) is far below u, and no cancellation
QUOTIENT_STEP = Fraction(1, 64)  # hardtanh's difference quotient: exact on a linear piece


def tanh_grid(ctx: Context) -> list[Fraction]:
    """z = k/8 for |z| ≤ z_max, plus ±16, ±64 (deep saturation) when z_max allows."""
    z_max = int(ctx["z_max"])
    pts = [Fraction(k, 8) for k in range(-8 * z_max, 8 * z_max + 1)]
    return pts + [Fraction(s * v) for v in (16, 64) if v > z_max for s in (-1, 1)]


def hardtanh_grid(law: ActivationClasses) -> list[Fraction]:
    """z = k/16·Z₀ for |k| ≤ 15: the statement's region |z| < Z₀ up to its boundary."""
    return [Fraction(k, 16) * law.z0 for k in range(-15, 16)]


# ---- tanh: σ and σ′ by each backend's own differentiation ---------------------------------------

def _float_dtypes(backend: AbstractBackend) -> tuple[Any, Any]:
    import numpy as np

    single = backend.spec.dtype == "float32"
    return (np.float32, np.complex64) if single else (np.float64, np.complex128)


def tanh_pairs(backend: AbstractBackend, zs: list[Fraction]) -> list[tuple[Any, Any, Any]]:
    """(σ(z), σ′(z) by the backend's own differentiation, second σ′ or None) for each z."""
    kind = backend.spec.kind
    act = activation("tanh")  # the project's σ (numerics/activations.py), as RNNs use it
    if kind == "mpmath":
        c = rp.mp_ctx(backend)

        def sig(v: Any) -> Any:
            return act.mp(c, v)

        return [(sig(x), c.diff(sig, x), None)
                for x in (c.mpf(z.numerator) / z.denominator for z in zs)]
    if kind == "flint":
        import flint

        out: list[tuple[Any, Any, Any]] = []
        for z in zs:
            s = flint.arb_series([flint.arb(flint.fmpq(z.numerator, z.denominator)), 1], prec=2)
            e = (2 * s).exp()
            th = ((e - 1) / (e + 1)).coeffs()
            out.append((th[0], th[1], None))
        return out
    if kind == "numpy":
        import numpy as np

        real, cplx = _float_dtypes(backend)
        h = real(float(CS_STEP))
        x = np.array([z.numerator / z.denominator for z in zs], dtype=real)
        cs = act.numpy(x.astype(cplx) + cplx(1j) * h).imag / h
        return [(a, b, None) for a, b in zip(act.numpy(x), cs, strict=True)]
    torch, dev, rd = rp.torch_of(backend)
    x = torch.tensor([z.numerator / z.denominator for z in zs], dtype=rd,
                     device=dev, requires_grad=True)
    y = act.torch(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    h = float(CS_STEP)
    cs = act.torch(torch.complex(x.detach(), torch.full_like(x.detach(), h))).imag / h
    return list(zip(y.detach().cpu().tolist(), g.cpu().tolist(), cs.cpu().tolist(), strict=True))


def _tanh_judged(backend: AbstractBackend, law: ActivationClasses,
                 zs: list[Fraction]) -> list[rp.Judged]:
    judged = []
    u = backend.unit_roundoff
    hp = rp.hp_context(backend)
    a, b = hp.mpf(law.a.numerator) / law.a.denominator, hp.mpf(law.b.numerator) / law.b.denominator
    for z, (sig, der, der2) in zip(zs, tanh_pairs(backend, zs), strict=True):
        label = f"tanh, z = {z}"
        if backend.encloses:
            judged.append(rp.ball_zero(label, law.a1_residual(sig, der), mpmath.mpf(1),
                                       backend.precision_bits))
            continue
        for tag, d_val in (("", der), (" (complex step)", der2)):
            if d_val is None:
                continue
            s, d = rp.real_of(hp, sig), rp.real_of(hp, d_val)
            # absolute: a − bσ² carries 2b|σ|·|δσ| + rounding, σ′ its own relative error
            bound = C_ACT * u * (abs(a) + 3 * b * s * s + abs(d))
            judged.append(rp.point_zero(label + tag, law.a1_residual(s, d), bound))
    return judged


# ---- hardtanh: σ(z) = c_σ·z on |z| < Z₀ ----------------------------------------------------------

def hardtanh_pairs(backend: AbstractBackend, zs: list[Fraction]) -> list[tuple[Any, Any]]:
    """(σ(z), σ′(z)) by the backend: clip, and a difference quotient with a dyadic step (exact on
    a linear piece) or autograd in torch."""
    kind, h = backend.spec.kind, QUOTIENT_STEP
    act = activation("hardtanh")  # the project's σ (numerics/activations.py)
    if kind == "torch":
        torch, dev, rd = rp.torch_of(backend)
        x = torch.tensor([z.numerator / z.denominator for z in zs], dtype=rd,
                         device=dev, requires_grad=True)
        y = act.torch(x)
        (g,) = torch.autograd.grad(y.sum(), x)
        return list(zip(y.detach().cpu().tolist(), g.cpu().tolist(), strict=True))
    if kind == "flint":
        import flint

        def sig(v: Any) -> Any:
            return v.min(flint.arb(1)).max(flint.arb(-1))

        def conv(q: Fraction) -> Any:
            return flint.arb(flint.fmpq(q.numerator, q.denominator))
    elif kind == "mpmath":
        c = rp.mp_ctx(backend)

        def sig(v: Any) -> Any:
            return act.mp(c, v)

        def conv(q: Fraction) -> Any:
            return c.mpf(q.numerator) / q.denominator
    else:
        real, _ = _float_dtypes(backend)

        def sig(v: Any) -> Any:
            return act.numpy(v)

        def conv(q: Fraction) -> Any:
            return real(q.numerator / q.denominator)
    out: list[tuple[Any, Any]] = []
    for z in zs:
        x, step = conv(z), conv(h)
        out.append((sig(x), (sig(x + step) - sig(x - step)) / (2 * step)))
    return out


def _hardtanh_judged(backend: AbstractBackend, law: ActivationClasses,
                     zs: list[Fraction]) -> list[rp.Judged]:
    judged = []
    hp = rp.hp_context(backend)
    for z, (sig, der) in zip(zs, hardtanh_pairs(backend, zs), strict=True):
        label = f"hardtanh, z = {z}"
        if backend.encloses:
            import flint

            zz = flint.arb(flint.fmpq(z.numerator, z.denominator))
            judged.append(rp.ball_zero(label + ": σ − c_σz", law.a0_residual(zz, sig),
                                       mpmath.mpf(1), backend.precision_bits))
            judged.append(rp.ball_zero(label + ": σ′ − c_σ", law.a0_residual(1, der),
                                       mpmath.mpf(1), backend.precision_bits))
            continue
        # dyadic z, z ± 1/64 and c_σ·z: clip, the quotient and the residual are exact in binary
        # floats (as long as they fit the precision); one rounding of c_σ·z otherwise
        exact = hp.mpf(z.numerator) / z.denominator
        bound = backend.unit_roundoff * abs(exact) * abs(hp.mpf(float(law.c)))
        judged.append(rp.point_zero(label + ": σ − c_σz", law.a0_residual(exact,
                                                                          rp.real_of(hp, sig)),
                                    bound))
        judged.append(rp.point_zero(label + ": σ′ − c_σ", law.a0_residual(1, rp.real_of(hp, der)),
                                    backend.unit_roundoff * abs(hp.mpf(float(law.c)))))
    return judged


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Def. 3.8's identities with the statement's constants on exact grids: tanh′ = a − b·tanh²
    and tanh(0) = 0; hardtanh(z) = c_σ·z and hardtanh′ = c_σ on |z| < Z₀."""
    if backend.spec.kind == "mpmath" and backend.precision_bits < rp.MIN_BITS:
        from recmem.numerics.backend import BackendUnavailable

        raise BackendUnavailable(f"{backend.name}: fewer than {rp.MIN_BITS} bits")
    law = ctx.law(ActivationClasses)
    t0 = time.perf_counter()
    zs, hz = tanh_grid(ctx), hardtanh_grid(law)
    zero = tanh_pairs(backend, [Fraction(0)])[0][0]
    zero_ok = zero.is_zero() if backend.encloses else float(zero) == 0.0
    # tanh(0) = 0 involves none of the statement's constants: a backend whose tanh misses it has
    # a bug (an internal inconsistency, ERROR below), not a finding about Def. 3.8
    judged = [*_tanh_judged(backend, law, zs),
              *([rp.Judged("tanh(0) = 0", Outcome.PASS)] if zero_ok else []),
              *_hardtanh_judged(backend, law, hz)]
    src = ("enclosures of the residuals (tanh′ by arb_series)" if backend.encloses else
           f"tanh: |σ′ − (a − bσ²)| ≤ c·u·(a + 3bσ² + |σ′|), c = {C_ACT}; hardtanh: exact "
           "(dyadic points, linear piece) up to one rounding of c_σ·z")
    out = [rp.evidence(f"Def. 3.8 identities on {len(zs)} tanh and {len(hz)} hardtanh points",
                       backend, judged, t0, tolerance_source=src,
                       data={"tanh differentiation": _HOW[backend.spec.kind],
                             "hardtanh points": f"|z| ≤ {max(hz)}"})]
    if not zero_ok:
        out.append(harness("the backend's tanh(0) = 0", backend.name, False,
                           f"the backend computed tanh(0) = {zero}, not 0 (a bug of the "
                           "arithmetic, not of the paper)", precision_bits=backend.precision_bits))
    return out


_HOW = {"mpmath": "mpmath diff (finite differences at raised precision)",
        "flint": "arb_series Taylor arithmetic (certified)",
        "numpy": "complex step Im tanh(z + ih)/h, h = 2^-64",
        "torch": "autograd (rule 1 − y²) and complex step, h = 2^-64"}


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by theory.activations.activation_proof."""
    from recmem.theory.activations import activation_proof

    t0 = time.perf_counter()
    return [from_proof(activation_proof(ctx.law(ActivationClasses)), time.perf_counter() - t0)]


def strategy(ctx: Context) -> Any:
    """(activation, z): tanh at rationals in [−8, 8]; hardtanh at rationals in [−2Z₀, 2Z₀]
    (the statement's region and as far again beyond it)."""
    from hypothesis import strategies as st

    law = ctx.law(ActivationClasses)
    return st.one_of(st.tuples(st.just("tanh"), fractions_in(-8, 8, 8)),
                     st.tuples(st.just("hardtanh"), fractions_in(-2 * law.z0, 2 * law.z0, 16)))


def holds(instance: tuple[str, Fraction], ctx: Context) -> Instance:
    """The statement's identity at one exact point (theory.activations.identity_at), after a
    flint ball of the residual that would certify a failure by excluding 0."""
    import flint

    from recmem.theory.activations import identity_at

    law = ctx.law(ActivationClasses)
    name, q = instance
    values = {"activation": name, "z": str(q)}
    if name == "hardtanh" and not law.in_a0_region(q):
        return Instance(None, "outside the statement's region |z| < Z₀", values)
    with flint.ctx.workprec(128):
        x = flint.arb(flint.fmpq(q.numerator, q.denominator))
        if name == "tanh":
            s = flint.arb_series([x, 1], prec=2)
            e = (2 * s).exp()
            c = ((e - 1) / (e + 1)).coeffs()
            ball = law.a1_residual(c[0], c[1])
        else:
            ball = law.a0_residual(x, x.min(flint.arb(1)).max(flint.arb(-1)))
        if not ball.contains(0):
            return Instance(False, "flint ball of the residual at 128 bits excludes 0",
                            {**values, "residual": str(ball)})
    ok = identity_at(law, name, q)
    how = ("exact: the residual is R(e^{2z}) for a rational function R that SymPy reduces "
           "(R ≡ 0, or e^{2z} transcendental for rational z ≠ 0)" if name == "tanh"
           else "exact rational arithmetic")
    return Instance(ok, how, values)


CLAIMS = [
    Claim(
        id="W.activations",
        summary="tanh ∈ 𝒜₁ (a = b = 1), hardtanh ∈ 𝒜₀ (c_σ = 1, Z₀ = 1: our reading, not printed)",
        title="tanh ∈ 𝒜₁ and hardtanh ∈ 𝒜₀",
        statement=ActivationClasses(),
        provenance=Provenance("W", "§3.3, Def. 3.8, eqs. (12)–(13) (ICLR camera-ready)", QUOTE),
        tolerance="SymPy exact; flint: enclosures (derivative by Taylor arithmetic); points: "
                  "|σ′ − (a − bσ²)| ≤ c·u·(a + 3bσ² + |σ′|) absolute; hardtanh exact",
        params=(Param("z_max", 8, "tanh grid z = k/8 for |z| ≤ z_max (plus ±16, ±64)", int,
                      check=at_least(1), max=10**4, cost=grows(16 * 1000)),),  # 16 points a unit
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading="hardtanh's constants are ours: the paper prints only 'A₀ ∪ A₁ includes … "
                "hardtanh'; we read hardtanh ∈ 𝒜₀ with c_σ = 1 and the largest Z₀ = 1 (any "
                "0 < Z₀ ≤ 1 works). 'Z₀ = ∞' for tanh is read as 'every z' (the definition's "
                "'for some Z₀ > 0' takes a real Z₀)",
        notes="Also (SymPy): tanh is differentiable (a rational function of E = e^{2z}) and "
              "tanh ∉ 𝒜₀ (z³ coefficient −1/3); hardtanh ∈ 𝒜₁ with a = 1, b = 0 when 'σ "
              "differentiable' is read on |z| < Z₀ ≤ 1 (hardtanh is not differentiable at ±1). "
              "Other activations recmem supports (a note, the paper claims nothing about them): "
              "identity is locally in 𝒜₀ and 𝒜₁ with Z₀ = ∞ but unbounded, so outside Def. 3.8's "
              "family of bounded activations; relu is in neither (relu(−ε) = 0 ≠ −cε; σ′ = 0 on "
              "z < 0 forces a = 0, then 1 = −bz² on z > 0); softplus (σ(0) = log 2) and sigmoid "
              "(σ(0) = 1/2) are in neither.",
    ),
]
