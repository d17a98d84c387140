"""O.roots-of-unity: with λ the N-th roots of unity, cond(V_k) = 1 (O §3.1, App. E.1, citing [5]).

Scope: 1 ≤ k ≤ N (the section's standing N ≥ k). For k > N the columns of V_k repeat and
κ₂ = ∞ (theory/roots_of_unity.py); the parameter check rejects k > N.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o._common import p_n, proof_evidence
from recmem.checks.claims.paper_o._recurrence import k_at_most_n, p_k, resolve_k
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics import nodes as nd
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend

# c of the c·n·κ·u policy, as in checks.numeric.identity_check
C = 4.0
# a ball check escalates its precision up to this factor of the requested one (as identity_check)
ESCALATION = 4


def symbolic(ctx: Context) -> list[Evidence]:
    """Exact V_kᴴV_k = N·I_k in ℤ[ζ_N] for small N, all k ≤ N; geometric sum for all N; and the
    claim's own (N, k) exactly in ℤ[ζ_N]."""
    from recmem.theory.roots_of_unity import gram_is_scaled_identity, roots_condition_identity

    t0 = time.perf_counter()
    n = int(ctx["N"])
    k = resolve_k(ctx, n)
    proof = roots_condition_identity(int(ctx["n_max_symbolic"]))
    ev = proof_evidence(proof, time.perf_counter() - t0)
    if proof.holds is True:
        own, why = gram_is_scaled_identity(n, k)
        ev.data["own instance"] = why
        if own:
            ev.scope = f"{ev.scope}; the claim's own N = {n}, k = {k} exactly in ℤ[ζ_{n}]"
        else:  # pragma: no cover - contradicts the general argument
            ev.outcome = Outcome.REFUTE
            ev.counterexample = {"N": n, "k": k, "reason": why}
            ev.certified_by = "exact arithmetic in ℤ[ζ_N]"
    ev.seconds = time.perf_counter() - t0
    return [ev]


def _kappa_point(b: AbstractBackend, nodes: nd.Nodes, k: int) -> mpmath.mpf:
    """κ₂(V_k) = σ_max/σ_min from the backend's own singular values.

    ``svdvals`` hands its values back as ``mpmath.mpf`` of the *global* context, which rounds
    them to ``mpmath.mp.prec`` (53 bits by default) and would cap an mpmath@256 check at float64
    accuracy; the global precision is therefore raised around the call and the ratio.
    """
    with mpmath.workprec(b.precision_bits + 16):
        s = b.svdvals(b.vandermonde(nodes.to(b), k))
        return mpmath.mpf(s[0]) / mpmath.mpf(s[-1]) if s[-1] > 0 else mpmath.inf


def _kappa_ball(b: AbstractBackend, nodes: nd.Nodes, k: int) -> tuple[Any, Any]:
    """Certified enclosure [lo, hi] of κ₂(V_k) as arb numbers, from the eigenvalue balls of the
    Hermitian Gram matrix V_kᴴV_k (flint, multiple eigenvalues allowed: here all equal N).

    κ₂² = λ_max/λ_min lies in [max lower / min upper, max upper / min lower]; the bounds are
    formed in arb, so they are rigorous. (``numerics.conditioning.kappa2`` rounds its bracket
    through the 53-bit ``mpmath.mp`` context, too coarse to certify narrowness at 256 bits.)
    Returns (lo, hi) arbs or (None, None) when λ_min is not separated from 0.
    """
    import flint

    with flint.ctx.workprec(b.precision_bits):
        v = b.vandermonde(nodes.to(b), k)
        g = v.conjugate().transpose() * v
        eigs = [e.real for e in g.eig(multiple=True)]
        lowers = [e.lower() for e in eigs]
        uppers = [e.upper() for e in eigs]
        min_lo = functools.reduce(lambda a, c: a.min(c), lowers)
        if not min_lo > 0:
            return None, None
        ratio_lo = functools.reduce(lambda a, c: a.max(c), lowers) / \
            functools.reduce(lambda a, c: a.min(c), uppers)
        ratio_hi = functools.reduce(lambda a, c: a.max(c), uppers) / min_lo
        return ratio_lo.lower().sqrt().lower(), ratio_hi.upper().sqrt().upper()


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """κ₂(V_k) on the N-th roots of unity vs 1, judged by c·n·κ·u with κ = 1 (floats) or by
    a certified enclosure (flint)."""
    n = int(ctx["N"])
    k = resolve_k(ctx, n)
    nodes = nd.roots(n)
    check = f"κ₂(V_k) = 1 on the {n}-th roots of unity, k = {k}"
    t0 = time.perf_counter()
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.PASS,
                    precision_bits=backend.precision_bits, condition_number="1 (the claim)")
    if backend.encloses:
        from recmem.numerics.flint_backend import arb_to_mpf

        b = backend
        while True:
            lo, hi = _kappa_ball(b, nodes, k)
            max_width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(backend.precision_bits // 4))
            # endpoints converted in a context as precise as the balls (mpmath.mp would round
            # them to 53 bits and hide the width)
            mp = mpmath.MPContext()
            mp.prec = b.precision_bits + 16
            if lo is None:
                contains, width = True, mpmath.inf
                text = "λ_min(VᴴV) not separated from 0"
            else:
                contains = bool(lo <= 1) and bool(hi >= 1)
                width = mpmath.mpf(arb_to_mpf((hi - lo).upper(), mp))
                text = (f"κ₂ ∈ [{mp.nstr(arb_to_mpf(lo, mp), 25)}, "
                        f"{mp.nstr(arb_to_mpf(hi, mp), 25)}]")
            j = tol.enclosure(contains, width, max_width, b.precision_bits)
            if (j.outcome is not Outcome.INCONCLUSIVE
                    or 2 * b.precision_bits > ESCALATION * backend.precision_bits):
                break
            b = make_backend(BackendSpec("flint", bits=2 * b.precision_bits))
        base.outcome, base.tolerance, base.tolerance_source = j.outcome, j.tolerance, j.source
        base.residual = tol.fmt(width)
        base.enclosure = f"{text} at {b.precision_bits} bits (contains 1: {contains})"
        base.precision_bits, base.needed_bits = b.precision_bits, j.needed_bits
        base.certified_by = ("ball arithmetic: the enclosure of κ₂ excludes 1" if not contains
                             else None)
        base.seconds = time.perf_counter() - t0
        return [base]
    kappa_hat = _kappa_point(backend, nodes, k)
    res = abs(kappa_hat - 1)
    # All singular values are √N. The SVD's backward error ‖E‖ ≤ p·u‖V‖ moves each by ≤ ‖E‖
    # (Weyl), and the computed nodes/powers perturb V by ≤ k·u per entry (‖δV‖₂ ≤ k√k·u‖V‖₂):
    # n = N·k covers both; κ = 1 is the claimed (and exactly proven) condition number.
    j = tol.condition_scaled(res, c=C, n=n * k, kappa=mpmath.mpf(1),
                             unit_roundoff=backend.unit_roundoff, kappa_text="1")
    base.outcome, base.tolerance, base.tolerance_source = j.outcome, j.tolerance, j.source
    base.residual, base.needed_bits = tol.fmt(res), j.needed_bits
    base.message = f"computed κ₂ = {mpmath.nstr(kappa_hat, 20)}"
    if j.outcome is Outcome.FAIL and backend.spec.kind == "mpmath":
        hi_b = make_backend(BackendSpec("mpmath", bits=2 * backend.precision_bits))
        res2 = abs(_kappa_point(hi_b, nodes, k) - 1)
        # a true κ = 1 makes the residual fall like 2^-p; one that stays put is certified
        if res2 > res * mpmath.mpf(2) ** (-backend.precision_bits // 2):
            base.outcome = Outcome.REFUTE
            base.certified_by = (f"residual stays put as precision rises: {tol.fmt(res)} at "
                                 f"{backend.precision_bits} bits, {tol.fmt(res2)} at "
                                 f"{hi_b.precision_bits} bits")
    base.seconds = time.perf_counter() - t0
    return [base]


def strategy(ctx: Context) -> Any:
    """(N, k) with 1 ≤ k ≤ N ≤ 24: the statement's domain for the N-th roots of unity."""
    from hypothesis import strategies as st

    return st.integers(1, 24).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n)))


def holds(inst: tuple[int, int], ctx: Context) -> Instance:
    """Exact V_kᴴV_k == N·I_k in ℤ[ζ_N] (then every σ = √N and κ₂ = 1)."""
    from recmem.theory.roots_of_unity import gram_is_scaled_identity

    n, k = inst
    ok, why = gram_is_scaled_identity(n, k)
    return Instance(ok, "exact arithmetic in ℤ[ζ_N] (polynomials mod Φ_N)",
                    {"N": n, "k": k, "reason": why})


CLAIMS = [
    Claim(
        id="O.roots-of-unity",
        title="Roots of unity give a perfectly conditioned Vandermonde matrix",
        statement="With λ the N-th roots of unity, cond(V_k) = 1",
        provenance=Provenance("O", "§3.1 (Taming ill-conditioning); App. E.1",
                              "in the complex case it is possible to make the condition number of "
                              "V_k exactly 1 by e.g. choosing the N th-roots of unity as "
                              "eigenvalues of Λ [5, 8]. … Last, in Figure 5 we show what happens "
                              "when picking the N diagonal entries of Λ to be the N -th complex "
                              "roots of 1: as shown in [5], in this setting the Vandermonde "
                              "condition number is 1."),
        tolerance="exact (ℤ[ζ_N], SymPy); certified enclosure of κ₂ (flint); |κ̂₂ − 1| ≤ c·n·κ·u "
                  "with κ = 1, n = N·k (floats)",
        uses=("O.vandermonde-form",),
        params=(p_n(16, "N (the nodes are the N-th roots of unity)"),
                p_k(0, "columns k of V_k, 1 ≤ k ≤ N (0: k = N); for k > N κ₂ = ∞"),
                Param("n_max_symbolic", 16, "largest N of the exact check for every k ≤ N", int,
                      check=at_least(1))),
        validate=k_at_most_n,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="Scope: 1 ≤ k ≤ N, the section's standing hypothesis N ≥ k. For k > N the columns "
              "a and a+N of V_k coincide (λ^N = 1): rank N < k and κ₂ = ∞.",
    ),
]
