"""O.roots-of-unity: with λ the N-th roots of unity, cond(V_k) = 1 (O §3.1, App. E.1, citing [5]).

Scope: 1 ≤ k ≤ N (the section's standing N ≥ k). For k > N the columns of V_k repeat and
κ₂ = ∞ (theory/roots_of_unity.py); the parameter check rejects k > N.
"""

from __future__ import annotations

import time
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o._common import p_n
from recmem.checks.claims.paper_o._recurrence import k_at_most_n, p_k, resolve_k
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics import nodes as nd
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.conditioning import kappa2, vandermonde_builder

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
    ev = from_proof(proof, time.perf_counter() - t0)
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
    """κ₂(V_k) = σ_max/σ_min from the backend's own singular values."""
    s = b.svdvals(b.vandermonde(nodes.to(b), k))
    return s[0] / s[-1] if s[-1] > 0 else mpmath.inf


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

        bits = backend.precision_bits
        max_width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(backend.precision_bits // 4))
        while True:
            # the certified bracket at exactly this precision (no escalation inside)
            kb = kappa2(vandermonde_builder(nodes, k), start_bits=bits, max_bits=bits)
            if not kb.certified:
                contains, width = True, mpmath.inf
                text = "λ_min(VᴴV) not separated from 0"
            else:
                contains = bool(kb.lo <= 1 <= kb.hi)
                width = kb.hi - kb.lo
                text = f"κ₂ ∈ [{mpmath.nstr(kb.lo, 25)}, {mpmath.nstr(kb.hi, 25)}]"
            j = tol.enclosure(contains, width, max_width, bits)
            if (j.outcome is not Outcome.INCONCLUSIVE
                    or 2 * bits > ESCALATION * backend.precision_bits):
                break
            bits *= 2
        base.outcome, base.tolerance, base.tolerance_source = j.outcome, j.tolerance, j.source
        base.residual = tol.fmt(width)
        base.enclosure = f"{text} at {bits} bits (contains 1: {contains})"
        base.precision_bits, base.needed_bits = bits, j.needed_bits
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
