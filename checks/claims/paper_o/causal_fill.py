"""O.causal-fill: vec(ũ_k) = Ψ_L Ω_k⁺ x agrees with u on its first k columns (O App. C, eq. 29).

Hypotheses (Prop. 7, as the paper's Step 2 uses them): rank Ω_k = P and x = x̃_k, the state's
N − 1 Vandermonde channels after step k. The input follows Assumption A at step k
(u_{:,1:k} = Σ α_i ψ^i_{:,1:k}) and is arbitrary after k, so the check also shows that nothing
beyond column k is needed or claimed.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath
from hypothesis import strategies as st

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_o import _sparse as sp
from recmem.checks.claims.paper_o._common import p_rmax, p_rmin
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.nodes import uniform_draws

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


def full_input(ctx: Context, prob: sp.SparseProblem, k: int) -> list[list[Fraction]]:
    """u ∈ ℝ^{M×L}: Σ α_i ψ^i on columns 1…k, :func:`tail` after."""
    base = prob.u()
    t = tail(ctx, prob, k)
    return [base[j][:k] + t[j] for j in range(prob.dims)]


def symbolic(ctx: Context) -> list[Evidence]:
    """Exact eq. 29 on the default instance (theory/sparse.causal_fill_identity)."""
    from recmem.theory.sparse import causal_fill_identity

    prob = _problem(ctx)
    ks = sp.steps(ctx, prob)
    t0 = time.perf_counter()
    proof = causal_fill_identity(prob.lam0, prob.blocks, prob.basis, prob.alpha, ks,
                                 {k: tail(ctx, prob, k) for k in ks}, prob.description)
    return [from_proof(proof, time.perf_counter() - t0, "eq. 29: ũ_{:,1:k} = u_{:,1:k}")]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Ψ_L Ω_k⁺ x̃_k in the backend (x̃_k from the recurrence), first k columns against u."""
    prob = _problem(ctx)
    m, length = prob.dims, prob.length
    psi_l = [[QQi(v) for v in row] for row in prob.psi(length)]
    out = []
    for k in sp.steps(ctx, prob):
        u = full_input(ctx, prob, k)
        drive = [[QQi(v) for v in u[j]] for j, blk in enumerate(prob.blocks) for _ in blk]
        # S selects the rows (j, t ≤ k) of a vec(·) ∈ ℝ^{ML} (eq. 10 ordering): S·Ψ_L = Ψ_k
        sel = [[sp.ONE if c == j * length + t else sp.ZERO for c in range(m * length)]
               for j in range(m) for t in range(k)]
        target = [u[j][t] for j in range(m) for t in range(k)]
        kappa = sp.omega_kappa(ctx, prob, k).value * sp.psi_kappa(ctx, prob, k).value

        def compute(b: AbstractBackend, k: int = k, drive: Any = drive, sel: Any = sel,
                    target: Any = target) -> tuple[Any, Any]:
            x = b.columns(b.recurrence(b.vector(prob.vandermonde_nodes), b.matrix(drive)),
                          k - 1, k)
            alpha_hat = b.pinv_apply(sp.omega_native(b, prob, k), x)
            u_tilde = b.matmul(b.matrix(psi_l), alpha_hat)  # vec(ũ_k) = Ψ_L Ω_k⁺ x̃_k
            return b.matmul(b.matrix(sel), u_tilde), b.matrix(sp.column_of(target))

        # α̂'s error is ≲ c·n·κ₂(Ω_k)·u·‖α‖ (as in O.sparse); Ψ_k maps it to at most
        # ‖Ψ_k‖·‖δα‖ against ‖Ψ_kα‖ ≥ σ_min(Ψ_k)‖α‖: hence κ = κ₂(Ω_k)·κ₂(Ψ_k), both certified.
        out.append(identity_check(f"(Ψ_LΩ_k⁺x̃_k)_{{:,1:k}} = u_{{:,1:k}} at k={k}, "
                                  f"{prob.description}", backend, compute,
                                  kappa=mpmath.mpf(kappa), n=m * k + prob.rows))
    return out


_ENTRY = st.integers(-2, 2).map(Fraction)


@st.composite
def instances(draw: Any) -> dict[str, Any]:
    """M ≤ 2, R ≤ 3, P ≤ 3, k ≤ L ≤ 5, exact integer basis on all L columns, exact α, exact
    distinct nodes, arbitrary integer input after step k."""
    m = draw(st.integers(1, 2))
    r = draw(st.integers(1, 3))
    p = draw(st.integers(1, 3))
    length = draw(st.integers(1, 5))
    k = draw(st.integers(1, length))
    basis = [[[draw(_ENTRY) for _ in range(length)] for _ in range(m)] for _ in range(p)]
    nodes = draw(sp.pool_nodes(r * m + 1))
    alpha = [draw(_ENTRY) for _ in range(p)]
    rest = [[draw(_ENTRY) for _ in range(length - k)] for _ in range(m)]
    return {"M": m, "R": r, "P": p, "L": length, "k": k, "basis": basis, "lambda0": nodes[0],
            "blocks": [nodes[1 + j * r:1 + (j + 1) * r] for j in range(m)], "alpha": alpha,
            "tail": rest}


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact: where rank Ω_k = P, the first k columns of Ψ_LΩ_k⁺x̃_k equal u's (else vacuous)."""
    from recmem.theory.sparse import causal_fill_instance

    r = causal_fill_instance(inst["lambda0"], inst["blocks"], inst["basis"], inst["alpha"],
                             inst["k"], inst["tail"])
    values = {"M": inst["M"], "R": inst["R"], "P": inst["P"], "L": inst["L"], "k": inst["k"],
              "lambda0": str(inst["lambda0"]), "blocks": [[str(q) for q in b]
                                                          for b in inst["blocks"]],
              "basis": [[[str(v) for v in row] for row in bi] for bi in inst["basis"]],
              "alpha": [str(v) for v in inst["alpha"]], "rank Omega_k": r["rank"]}
    if r["agrees"] is None:
        return Instance(True, "exact arithmetic over ℚ(i)", values,
                        "rank Ω_k < P: outside the hypothesis (vacuously true)")
    return Instance(bool(r["agrees"]), "exact arithmetic over ℚ(i)", values)


CLAIMS = [
    Claim(
        id="O.causal-fill",
        title="Fixed-size causal reconstruction (eq. 29)",
        statement="vec(ũ_k) = Ψ_L Ω_k⁺ x agrees with u on its first k columns "
                  "(rank Ω_k = P, x = x̃_k)",
        provenance=Provenance("O", "App. C, Step 2, eq. (29)", QUOTE),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·(kM + N − 1)·κ₂(Ω_k)·κ₂(Ψ_k)·u "
                  "with both κ₂ certified (floats)",
        uses=("O.sparse", "O.block.corrected"),
        params=(sp.p_dims(2), sp.p_block(3), sp.p_length(16), sp.p_count(4), sp.p_ks(),
                sp.p_exact_nodes(), p_rmin(), p_rmax()),
        symbolic=symbolic,
        numeric=numeric,
        strategy=lambda ctx: instances(),
        holds=holds,
        notes="The input after step k is arbitrary (pinned exact draws), so only the claimed "
              "columns can agree; whether later columns agree is recorded, not claimed.",
    ),
]
