"""W.memory-linear: for a linear functional, sup_{x≠0} |d/dt H_t(u^x)|/|x|_∞ = |ρ(t)|₁ (W §3.1).

Symbolic: the fundamental theorem of calculus for every continuous ρ, closed forms with symbolic
parameters, and attainment of Hölder's bound at x = sign ρ(t) (recmem.theory.memory).

Numeric, per arithmetic, independently of the closed form of |ρ|₁: H_t(u^x) by quadrature, d/dt by
finite differences, for x the basis vectors e_i (by linearity these give d/dt H_t(u^x) = xᵀD for
every x, and the sup of |xᵀD| over the cube is |D|₁, attained at x = sign D). The result is compared
with |ρ(t)|₁ from :func:`recmem.numerics.memory.memory_function` (analytic for linear functionals).

- numpy: :meth:`LinearFunctional.output` (QUADPACK, epsrel 1e-13) + five-point differences;
  tolerance h⁴/30·|w|₁ sup|k⁽⁴⁾| (truncation) + 1.5·ε_quad/h (noise) + 4u|ρ|₁;
- mpmath@P: ``quad`` at P bits with its error estimate, five-point differences, same error terms;
- flint@P: ``acb.integral`` (certified) and the central difference with the Taylor remainder
  h²/6·sup|k''| added to the ball: the enclosure of d/dt H_t must contain |ρ(t)|₁.
"""

from __future__ import annotations

import time
from typing import Any

import mpmath
import numpy as np

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Provenance, by_arithmetic
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.kernels import Kernel

QUOTE = ("Let and consider the following Heaviside input sequence In the linear case, notice that "
         "according to Equation 5 | (6) | Hence, conditions on may be replaced by conditions on the left "
         "hand side, which is well-defined also for nonlinear functionals.")
# Relative accuracy requested from (and assumed of) QUADPACK in LinearFunctional.output.
QUAD_EPSREL = 1e-13


def symbolic(ctx: Context) -> list[Evidence]:
    from recmem.theory.memory import linear_memory_proof

    t0 = time.perf_counter()
    return [from_proof(linear_memory_proof(), time.perf_counter() - t0)]


def _sign(v: float) -> float:
    return 1.0 if v >= 0 else -1.0


def _numpy(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    from recmem.numerics.functionals import LinearFunctional
    from recmem.numerics.memory import memory_function
    from recmem.numerics.signals import heaviside

    t0 = time.perf_counter()
    times = mm.times_of(ctx)
    mp = mm.mp_context(64)  # error-term arithmetic only
    worst, rows = 0.0, []
    for kernel in mm.kernels_of(ctx):
        f = LinearFunctional(kernel)
        analytic = memory_function(f, times).values
        d = kernel.input_dim
        wl1 = float(mm.l1_weights(kernel))
        for i, t in enumerate(times):
            sgn = np.where(np.array([float(q) for q in kernel.weights]) >= 0, 1.0, -1.0)
            noise = QUAD_EPSREL * max(abs(f.output(heaviside(sgn), np.array([t]))[0]), 1e-300)
            b5 = wl1 * float(mm.derivative_bound(kernel, 4, t / 2, mp))
            h = min(mm.power_of_two_step(noise, b5, 4, 1.5, 1 / 30), 2.0 ** -4, t / 8)
            b5 = wl1 * float(mm.derivative_bound(kernel, 4, t - 2 * h, mp))
            grad = []
            for j in range(d):
                e = np.zeros(d)
                e[j] = 1.0
                vals = {k: f.output(heaviside(e), np.array([t + k * h]))[0] for k, _ in mm.STENCIL5}
                grad.append(mm.stencil5(vals, h))
            sup = float(np.sum(np.abs(grad)))  # max of |xᵀD| over |x|_∞ ≤ 1, at x = sign D
            rho = kernel.rho(np.array([t]))[0]
            signs_ok = all(_sign(g) == _sign(r) for g, r in zip(grad, rho, strict=True) if r != 0)
            tolerance = (h**4 / 30 * b5 + 1.5 * noise / h) * d + 4 * mm.U64 * analytic[i]
            res = abs(sup - analytic[i])
            worst = max(worst, res / tolerance) if signs_ok else float("inf")
            rows.append({"kernel": kernel.description, "t": float(t), "h": h, "sup": sup,
                         "|rho|_1": float(analytic[i]), "residual": res, "tolerance": tolerance,
                         "argmax = sign rho": signs_ok})
    return [mm.judged("sup_x |d/dt H_t(u^x)|/|x|∞ (quadrature + 5-point differences) vs |ρ(t)|₁",
                      backend, worst, 1.0, "per point: h⁴/30·|w|₁ sup|k⁽⁴⁾| (truncation) + 1.5·ε_quad/h "
                      "(QUADPACK epsrel 1e-13) per coordinate + 4u|ρ|₁; residual reported as a multiple "
                      "of its tolerance", t0, bits=53, instances=len(rows), data={"points": rows})]


def _mpmath(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    bits = backend.precision_bits
    mp = mm.mp_context(bits + 16)
    worst, rows = mpmath.mpf(0), []
    for kernel in mm.kernels_of(ctx):
        w = [mp.mpf(q.numerator) / q.denominator for q in kernel.weights]
        wl1 = mp.fsum(abs(v) for v in w)

        def integral(tau: Any, kernel: Kernel = kernel) -> tuple[Any, Any]:
            val, err = mp.quad(lambda s: kernel.profile_mp(s, mp), [0, tau], error=True)
            return val, err

        for t_q in ctx["times"]:
            t = mp.mpf(t_q.numerator) / t_q.denominator
            v0, _ = integral(t)
            noise0 = max(abs(v0), mp.mpf(2) ** -bits) * mp.mpf(2) ** -bits
            b5 = float(wl1 * mm.derivative_bound(kernel, 4, t / 2, mp))
            h = mp.mpf(min(mm.power_of_two_step(float(noise0), b5, 4, 1.5, 1 / 30), 2.0 ** -4, float(t) / 8))
            ints = {k: integral(t + k * h) for k, _ in mm.STENCIL5}
            noise = max(max(e for _, e in ints.values()), noise0)
            dk = mm.stencil5({k: v for k, (v, _) in ints.items()}, h)  # ≈ k(t)
            grad = [wi * dk for wi in w]
            sup = mp.fsum(abs(g) for g in grad)
            l1 = mp.fsum(abs(r) for r in kernel.rho_mp(t, mp))
            b5 = wl1 * mm.derivative_bound(kernel, 4, t - 2 * h, mp)
            tolerance = h**4 / 30 * b5 + mp.mpf(3) / 2 * wl1 * noise / h + 4 * mp.mpf(2) ** -bits * l1
            res = abs(sup - l1)
            worst = max(worst, res / tolerance)
            rows.append({"kernel": kernel.description, "t": str(t_q), "h": mp.nstr(h, 3),
                         "residual": mp.nstr(res, 3), "tolerance": mp.nstr(tolerance, 3)})
    return [mm.judged("sup_x |d/dt H_t(u^x)|/|x|∞ (mpmath quad + 5-point differences) vs |ρ(t)|₁",
                      backend, worst, 1, "per point: h⁴/30·|w|₁ sup|k⁽⁴⁾| + 1.5·|w|₁·(quad error "
                      "estimate)/h + 4·2^-P|ρ|₁; residual reported as a multiple of its tolerance", t0,
                      instances=len(rows), data={"points": rows})]


def _flint(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    import flint

    t0 = time.perf_counter()
    bits = backend.precision_bits
    max_width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(bits // 4))
    out_contains, worst_rad, rows = True, mpmath.mpf(0), []
    for kernel in mm.kernels_of(ctx):
        f = mm.flint_integrand(kernel)
        wl1 = mm._fq(mm.l1_weights(kernel))
        for t_q in ctx["times"]:
            t = mm._fq(t_q)
            h = flint.arb(2) ** (-(bits // 3))
            lo = flint.acb.integral(f, 0, t - h).real
            hi = flint.acb.integral(f, 0, t + h).real
            central = (hi - lo) / (2 * h)
            # Taylor: |(H(t+h) − H(t−h))/2h − H'(t)| ≤ h²/6·sup_{[t−h,t+h]}|k''|
            k2 = mm.flint_derivative(kernel, 2, flint.arb(t.mid(), h))
            trunc = h**2 / 6 * k2.abs_upper()
            dk = central + flint.arb(0, trunc.upper())
            sup = wl1 * abs(dk)  # sup over the cube of |xᵀw|·|k'| = |w|₁|D|
            l1 = wl1 * abs(mm.flint_derivative(kernel, 0, t))
            diff = sup - l1
            contains = bool(diff.contains(0))
            rel = mpmath.mpf(float(diff.rad())) / mpmath.mpf(float(l1.mid()))
            out_contains &= contains
            worst_rad = max(worst_rad, rel)
            rows.append({"kernel": kernel.description, "t": str(t_q), "sup − |ρ|₁": diff.str(5, radius=True),
                         "contains 0": contains})
    j = tol.enclosure(out_contains, worst_rad, max_width, bits)
    return [Evidence(check="sup_x |d/dt H_t(u^x)|/|x|∞ by certified integrals (acb.integral) and a "
                           "central difference with its Taylor remainder vs |ρ(t)|₁",
                     kind="numeric", backend=backend.name, outcome=j.outcome, precision_bits=bits,
                     instances=len(rows), residual=tol.fmt(worst_rad), tolerance=j.tolerance,
                     tolerance_source=j.source,
                     enclosure=f"every ball of sup − |ρ(t)|₁ contains 0: {out_contains}",
                     certified_by=None if out_contains else "ball arithmetic: an enclosure excludes |ρ(t)|₁",
                     seconds=time.perf_counter() - t0, data={"points": rows})]


CLAIMS = [
    Claim(
        id="W.memory-linear",
        title="Memory function of a linear functional",
        statement="For a linear functional, sup_{x≠0} |d/dt H_t(u^x)| / |x|_∞ = |ρ(t)|₁",
        provenance=Provenance("W", "§3.1, eq. (4) ICLR / eq. (6) arXiv", QUOTE),
        tolerance="symbolic (FTC, Hölder); floats: h⁴/30·sup|ρ⁽⁴⁾| + 1.5·ε_quad/h + 4u|ρ|₁; mpmath: same "
                  "at P bits with quad's error estimate; flint: enclosure of the central difference "
                  "± h²/6·sup|ρ''| contains |ρ(t)|₁",
        params=(mm.p_kernels("exp:1/2 poly:3/2 expsum:1,-1/2;1,3"), mm.p_weights("1,-1/2"),
                mm.p_times("1/2,1,2,4")),
        symbolic=symbolic,
        numeric=by_arithmetic({"numpy": _numpy, "mpmath": _mpmath, "flint": _flint},
                              "torch has no quadrature with an error estimate; W.memory-linear "
                              "runs on numpy (QUADPACK), mpmath and flint"),
        notes="ρ = w·k with a weight vector w (d = len(w)) and a scalar profile k; the sup over x is a "
              "maximum of a linear function over the cube, attained at x = sign ρ(t) (checked in every "
              "arithmetic: the argmax vertex sign D equals sign ρ(t)). The numerics never use the "
              "closed form of ∫ρ: they integrate and differentiate.",
    ),
]
