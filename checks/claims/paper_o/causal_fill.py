"""O.causal-fill: vec(ũ_k) = Ψ_L Ω_k⁺ x agrees with u on its first k columns (O App. C, eq. 29).

Hypotheses (Prop. 7, as the paper's Step 2 uses them): rank Ω_k = P and x = x̃_k, the state's
N − 1 Vandermonde channels after step k. The input follows Assumption A at step k
(u_{:,1:k} = Σ α_i ψ^i_{:,1:k}) and is arbitrary after k, so the check also shows that nothing
beyond column k is needed or claimed. The statement is ``theory.sparse.CausalFill``.
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_o import _sparse as sp
from recmem.checks.claims.paper_o._common import p_rmax, p_rmin
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.nodes import uniform_draws
from recmem.theory.sparse import CausalFill, causal_fill_input, causal_fill_proof, judge_causal_fill

QUOTE = ("3. In the last step, we are not restricted to recovering the first k columns of u: we can "
         "instead compute vec(ũ_k) = Ψ_L Ω_k^+ x ∈ ℝ^{ML}, (29) and note that by definition of Ψ, "
         "we have that ũ_{:,1:k} = u_{:,1:k}. That is, given the coding coefficients recovered "
         "from the first k inputs, we can actually provide an estimate of the entire signal.")


def _problem(ctx: Context) -> sp.SparseProblem:
    return sp.problem(ctx, int(ctx["M"]), int(ctx["R"]))


def tail(ctx: Context, prob: sp.SparseProblem, k: int) -> list[list[Fraction]]:
    """u after step k: exact dyadics in [−2, 2) from a pinned seed (not following Ψα)."""
    n = prob.dims * (prob.length - k)
    d = uniform_draws(ctx.seed + 1009 * k + 17, n)
    vals = [Fraction(round((4 * v - 2) * 256), 256) for v in d]
    w = prob.length - k
    return [vals[j * w:(j + 1) * w] for j in range(prob.dims)]


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided symbolically (theory.sparse.causal_fill_proof): the row-selection
    and state lemmas as polynomial identities and the recovery step, or an exact counterexample."""
    t0 = time.perf_counter()
    proof = causal_fill_proof(ctx.law(CausalFill))
    return [from_proof(proof, time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Ψ_L G(Ω_k)x̃ in the backend (x̃ from the recurrence on u, which follows Ψα up to k and
    the pinned tail after), its claimed columns read with the statement's layout, against u —
    at the first k the hypothesis admits and at k = L − 1 (a nonempty tail)."""
    law = ctx.law(CausalFill)
    rec = law.recovery
    prob = _problem(ctx)
    m, length = prob.dims, prob.length
    psi_l = [[QQi(v) for v in row] for row in prob.psi(length)]
    out = []
    for k in sp.steps(ctx, prob, rec, last=length - 1):
        check = f"(Ψ_L G(Ω_k)x̃)'s claimed columns vs u at k = {k}"
        if not sp.admitted(prob, rec, k):
            out.append(sp.outside(check, backend, f"{rec.condition} fails at k = {k}"))
            continue
        u = causal_fill_input(prob.basis, prob.alpha, k, tail(ctx, prob, k))
        cols = law.columns(k, length)
        # S selects the claimed entries ũ_{j,t}, t < cols, from vec(ũ) ∈ ℝ^{ML} (the layout's rows)
        sel = [[sp.ONE if c == law.position(j, t, m, length) else sp.ZERO
                for c in range(m * length)] for j in range(m) for t in range(cols)]
        target = [u[j][t] for j in range(m) for t in range(cols)]
        factor = sp.factors(prob, k)

        def compute(b: AbstractBackend, k: int = k, u: Any = u, sel: Any = sel,
                    target: Any = target, factor: Any = factor) -> tuple[Any, Any]:
            x = sp.tilde_state(b, prob, k + rec.state_shift, u)
            est = rec.estimate(sp.omega_native(b, prob, k), x, sp.BackendOps(b, prob.count, factor))
            u_tilde = b.matmul(b.matrix(psi_l), est)  # vec(ũ_k) = Ψ_L G(Ω_k) x̃
            return b.matmul(b.matrix(sel), u_tilde), b.matrix(sp.column_of(target))

        # α̂'s error is ≲ c·n·κ·u·‖α‖ (as in O.sparse); Ψ_k maps it to at most ‖Ψ_k‖·‖δα‖
        # against ‖Ψ_kα‖ ≥ σ_min(Ψ_k)‖α‖: hence κ = κ(recovery)·κ₂(Ψ_k), both certified.
        kappa = sp.recovery_kappa(prob, k) * sp.psi_kappa(prob, k).value
        out.append(identity_check(check, backend, compute, kappa=mpmath.mpf(kappa),
                                  n=m * k + prob.rows,
                                  instance={"k": k, "problem": prob.description,
                                            "tail seed": ctx.seed + 1009 * k + 17}))
    return out


DIMS = (2, 1)  # M = 2 first: a transposed vec layout differs only for M ≥ 2
TAIL = (1, 0, 2)  # L − k: a nonempty tail first


@functools.cache
def instances() -> Any:
    """The search's strategy (built once; hypothesis imported on first use: `recmem list` needs
    none): M ≤ 2, R ≤ 3, P ≤ 3, k ≤ 4, L − k ≤ 2, exact integer basis on all L columns, exact α,
    exact distinct nodes, arbitrary integer input after step k (rank Ω_k < P happens: P > RM,
    or a basis that vanishes on the first k columns). The simplest draw is a generic instance
    with M = 2 and one column after k (``_sparse.int_matrix``, ``_sparse.distinct_nodes``)."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        m = draw(sp.sampled(DIMS))
        r = draw(sp.int_range(1, 3))
        p = draw(sp.int_range(1, 3))
        k = draw(sp.int_range(1, 4))
        length = k + draw(sp.sampled(TAIL))
        basis = [sp.int_matrix(draw, m, length, salt=i + 1) for i in range(p)]
        nodes = sp.distinct_nodes(draw, r * m + 1)
        alpha = sp.int_matrix(draw, 1, p)[0]
        rest = sp.int_matrix(draw, m, length - k, salt=4)
        return {"M": m, "R": r, "P": p, "L": length, "k": k, "basis": basis, "lambda0": nodes[0],
                "blocks": [nodes[1 + j * r:1 + (j + 1) * r] for j in range(m)], "alpha": alpha,
                "tail": rest}

    return build()


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact (theory.sparse.judge_causal_fill): where rank Ω_k = P, the statement's columns of
    Ψ_L G(Ω_k)x̃ equal u's (else vacuous)."""
    j = judge_causal_fill(ctx.law(CausalFill), inst)
    return Instance(j.holds, j.certified_by, j.values, j.detail)


CLAIMS = [
    Claim(
        id="O.causal-fill",
        summary="eq. 29",
        title="Fixed-size causal reconstruction (eq. 29)",
        statement=CausalFill(),
        validate=sp.parameter_check(lambda v: (int(v["M"]), int(v["R"])),
                                    CausalFill().recovery),
        provenance=Provenance("O", "App. C, Step 2, eq. (28)–(29)", QUOTE),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·(kM + N − 1)·κ₂(Ω_k)·κ₂(Ψ_k)·u "
                  "with both κ₂ certified (floats)",
        uses=("O.sparse", "O.block.corrected"),
        params=(sp.p_dims(2), sp.p_block(3), sp.p_length(16), sp.p_count(4),
                sp.p_ks(auto="the first k with rank Ω_k = P, and L − 1"),
                sp.p_exact_nodes(), p_rmin(), p_rmax()),
        symbolic=symbolic,
        numeric=numeric,
        strategy=lambda ctx: instances(),
        holds=holds,
        notes="The input after step k is arbitrary (pinned exact draws), so only the claimed "
              "columns can agree. 'auto' steps: the first k with rank Ω_k = P and k = L − 1 "
              "(k = L would leave no column after k, where the 'one more column' control "
              "coincides with the statement).",
    ),
]
