"""W.memory-linear: sup_{x≠0} |d/dt H_t(u^x)| / ‖u^x‖_∞ = |ρ(t)|₁ for a linear functional
(W §3.1, eq. (4) of the ICLR 2024 camera-ready).

One statement (:class:`recmem.theory.memory_linear.LinearMemory`, Heaviside input) read by every side:

- symbolic: Q_t(x) = d/dt H_t(u^x) from eq. (3) for undefined ρ₁…ρ_d (SymPy's Leibniz rule), the
  sup over x as a maximum over the extreme points of the unit ball, decided against the right-hand
  side (exact witness, or the orthant argument for the printed norms);
- search: exact kernels Σ_j w_j a_j^s at half-integer t, the definition integrated and
  differentiated in ℚ;
- numerics (mpmath, flint, float64): H_t(u^x) by quadrature of eq. (3), d/dt by five-point (flint:
  central) differences, the max over the extreme points, against the norm of ρ(t) from the kernel's
  closed form (module ``_linear_memory``). No arithmetic uses ∫ρ's closed form or the formula |ρ|₁
  on the left.

Negative controls: |x|_∞ → |x|₁ in the denominator, |ρ(t)|₁ → |ρ(t)|_∞ or the signed sum Σρ_i(t),
and the right-hand side times 65/64 (near). The weights (1, −1/2) make d = 2, where they all differ.
"""

from __future__ import annotations

import time

from recmem.checks.claim import Claim, Context, Provenance, by_arithmetic
from recmem.checks.claims.paper_w import _linear_memory as lm
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.verdict import Evidence, from_proof
from recmem.theory.memory_linear import LinearMemory

QUOTE_RIESZ = (r"A key idea is showing that any such functional sequence H admits a Riesz "
               r"representation (see Appendix A.2 and Appendix A.3) $$H _ {t} (\mathbf {x}) = \int_ {0} "
               r"^ {\infty} \rho (s) ^ {\top} x _ {t - s} d s, \quad t \in \mathbb {R}. \tag {3}$$ In this "
               r"sense, $\rho$ completely determines H, and its approximation using linear RNNs can be "
               r"reduced to the study of the approximation of $\rho \in L^{1}([0, \infty), \mathbb{R}^{d})$")
QUOTE = (r"Let $x \in R^{d}$ and consider the following Heaviside input sequence $\mathbf{u}_{t}^{x} = "
         r"x \cdot \mathbf{1}_{[0,\infty)}(t) = \begin{cases} x & t \geq 0, \\ 0 & t < 0. \end{cases}$ . "
         r"In the linear case, notice that according to Equation (3) $$\sup _ {x \neq 0} \frac {\left| "
         r"\frac {d}{d t} H _ {t} (\mathbf {u} ^ {x}) \right|}{\| \mathbf {u} ^ {x} \| _ {\infty}} = "
         r"\sup _ {x \neq 0} \frac {| x ^ {\top} \rho (t) |}{| x | _ {\infty}} = | \rho (t) | _ {1}. "
         r"\tag {4}$$ Hence, conditions on $|\rho(t)|_{1}$ may be replaced by conditions on the left "
         r"hand side, which is well-defined also for nonlinear functionals.")


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided symbolically (theory.memory_linear.linear_memory_proof)."""
    from recmem.theory.memory_linear import linear_memory_proof

    t0 = time.perf_counter()
    return [from_proof(linear_memory_proof(ctx.law(LinearMemory)), time.perf_counter() - t0)]


TOL = ("symbolic (SymPy derivation + orthant argument); exact search in ℚ; mpmath/float64: per point "
       "quadrature error + five-point truncation h⁴/30·sup|(xᵀρ)⁽⁴⁾| + 1.5·ε/h, residual as a multiple "
       "of it; flint: certified integrals and Taylor remainder h²/6·sup|(xᵀρ)''| in the ball")

CLAIMS = [
    Claim(
        id="W.memory-linear",
        summary="sup_x |d/dt H_t(u^x)|/|x|∞ = |ρ(t)|₁ (eq. (4); SymPy for closed forms; quadrature "
                "and a search over x in every arithmetic)",
        title="Memory function of a linear functional",
        statement=LinearMemory(inputs=("heaviside",)),
        provenance=Provenance("W", "§2.2 eq. (3); §3.1 eq. (4)", QUOTE_RIESZ + " … " + QUOTE),
        tolerance=TOL,
        params=(mm.p_kernels("exp:1/2 poly:3/2 expsum:1,-1/2;1,3"), mm.p_weights("1,-1/2"),
                mm.p_times("1/2,1,2,4")),
        symbolic=symbolic,
        numeric=by_arithmetic({"numpy": lm.numeric, "mpmath": lm.numeric, "flint": lm.numeric},
                              "torch has no quadrature with an error estimate; W.memory-linear "
                              "runs on numpy (QUADPACK), mpmath and flint"),
        strategy=lm.strategy,
        holds=lm.holds,
        notes="ρ = w·k with a weight vector w (d = len(w)) and a scalar profile k. The printed "
              "denominator ‖u^x‖_∞ = sup_t |u^x_t|_∞ equals |x|_∞. Eq. (4) has no qualifier on t: "
              "d/dt H_t(u^x) = xᵀρ(t) needs ρ continuous at t (for ρ ∈ L¹ only it holds at almost "
              "every t) and t > 0 (at t = 0 only the right derivative exists); the statement "
              "carries both. The sup of |xᵀv|/|x|_∞ is a maximum over the cube's vertices "
              "(convexity), which every arithmetic evaluates; no arithmetic uses ∫ρ's closed form.",
    ),
]
