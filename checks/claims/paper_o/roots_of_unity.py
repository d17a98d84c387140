"""O.roots-of-unity: with λ the N-th roots of unity, cond(V_k) = 1 for 1 ≤ k ≤ N (O §3.1, App. E.1,
citing [5]).

One statement (theory.roots_of_unity.RootsOfUnityCondition) read by every side. κ₂(V_k) is
σ_1/σ_k over all k singular values of the N×k matrix: for k > N it is ∞ (σ_k = 0 exactly), never
the ratio of the N nonzero ones. The parameter k is 1 ≤ k ≤ N (a usage error otherwise); the
numeric check also evaluates the statement at the largest k it covers.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows
from recmem.checks.claims.paper_o._common import p_n
from recmem.checks.claims.paper_o._recurrence import k_at_most_n, p_k, resolve_k
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics import nodes as nd
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.certified import kappa2 as certified_kappa2
from recmem.numerics.certified import vandermonde_builder
from recmem.numerics.linalg import kappa2
from recmem.theory.roots_of_unity import RootsOfUnityCondition

# c of the c·n·κ·u policy, as in checks.numeric.identity_check
C = 4.0
# a ball check escalates its precision up to this factor of the requested one (as identity_check)
ESCALATION = 4


def symbolic(ctx: Context) -> list[Evidence]:
    """Exact V_kᴴV_k = N·I_k in ℤ[ζ_M] for small N and every k the statement covers, the
    geometric sum for all N, and the claim's own (N, k) exactly."""
    from recmem.theory.roots_of_unity import exact_condition, roots_condition_proof

    law = ctx.law(RootsOfUnityCondition)
    t0 = time.perf_counter()
    n = int(ctx["N"])
    k = resolve_k(ctx, n)
    proof = roots_condition_proof(law, int(ctx["n_max_symbolic"]))
    ev = from_proof(proof, time.perf_counter() - t0)
    if proof.holds is True:
        own, why = exact_condition(law, n, k)
        ev.data["own instance"] = why
        if own is True:
            ev.scope = f"{ev.scope}; the claim's own N = {n}, k = {k} exactly"
        else:  # pragma: no cover - contradicts the general argument
            ev.outcome = Outcome.REFUTE if own is False else Outcome.INCONCLUSIVE
            ev.counterexample = {"N": n, "k": k, "reason": why} if own is False else None
            ev.certified_by = "exact arithmetic in ℤ[ζ_M]" if own is False else None
    ev.seconds = time.perf_counter() - t0
    return [ev]


def _ks(law: RootsOfUnityCondition, ctx: Context) -> tuple[int, list[int]]:
    """N, and the k at which the statement is evaluated: the requested k and the largest k the
    statement covers."""
    n = int(ctx["N"])
    return n, sorted({resolve_k(ctx, n), law.k_max(n)})


def _point_kappa(b: AbstractBackend, nodes: nd.Nodes, k: int) -> mpmath.mpf:
    """κ₂(V_k) = σ_1/σ_k from the backend's own singular values (∞ for k > N)."""
    with b.activate():
        return kappa2(b, b.vandermonde(nodes.to(b), k))


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """κ₂(V_k) on the statement's nodes vs its claimed value at every k of :func:`_ks`: judged by
    c·n·κ·u (point arithmetic) or by a certified enclosure (flint); an N×k matrix with k > N has
    κ₂ = ∞ exactly (σ_k = 0), whatever the arithmetic."""
    law = ctx.law(RootsOfUnityCondition)
    n, ks = _ks(law, ctx)
    nodes = nd.Nodes("roots", turns=law.turns(n), description=f"N = {n} roots of unity")
    target = mpmath.mpf(law.kappa.numerator) / law.kappa.denominator
    check = f"κ₂(V_k) on the roots of unity vs the claimed value, N = {n}"
    where = f"nodes exp(2πi·j/{law.order(n)}), j < {n}"
    t0 = time.perf_counter()
    # a template: every path below sets the outcome (one that forgot would be ERROR, never PASS)
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.ERROR,
                    precision_bits=backend.precision_bits, message=f"k ∈ {ks}, {where}")
    wide = [k for k in ks if k > n]
    if wide:
        k = wide[0]
        return [replace(base, outcome=Outcome.REFUTE, residual="inf", tolerance="0",
                        condition_number="inf",
                        counterexample={"N": n, "k": k, "nodes": where,
                                        f"σ_{k}": "0", "κ₂": "∞", "claimed": str(law.kappa)},
                        certified_by=(f"exact: V_{k} is {n}×{k}, rank ≤ {n} < {k}, so σ_{k} = 0 "
                                      "and κ₂ = ∞ (no rounding involved)"),
                        seconds=time.perf_counter() - t0)]
    if backend.encloses:
        return [_ball_check(backend, base, nodes, ks, target, where, t0)]
    # The SVD's backward error ‖E‖ ≤ p·u‖V‖ moves each σ by ≤ ‖E‖ (Weyl), so σ_k moves by a
    # relative p·u·κ and κ̂ by about κ·(1 + κ)·p·u: κ(1 + κ)/2 (= 1 at κ = 1) with κ certified by
    # flint at 128 bits, and n = N·k (entries λ^p carry ≤ k·u each, ‖δV‖₂ ≤ k√k·u‖V‖₂) cover both.
    kappas = [certified_kappa2(vandermonde_builder(nodes, k)).value
              for k in ks]
    amp = max(kb * (1 + kb) / 2 for kb in kappas)
    kappa_hat = [_point_kappa(backend, nodes, k) for k in ks]
    res = max(abs(kh - target) / target for kh in kappa_hat)
    j = tol.condition_scaled(res, c=C, n=n * max(ks), kappa=amp,
                             unit_roundoff=backend.unit_roundoff,
                             kappa_text=tol.fmt(amp) or "?")
    ev = replace(base, outcome=j.outcome, residual=tol.fmt(res), tolerance=j.tolerance,
                 tolerance_source=j.source, needed_bits=j.needed_bits,
                 condition_number=", ".join(tol.fmt(kb) or "?" for kb in kappas),
                 message=f"{base.message}; computed κ₂ = "
                         f"{', '.join(mpmath.nstr(kh, 17) for kh in kappa_hat)}")
    if j.outcome is Outcome.FAIL and backend.spec.kind == "mpmath":
        hi_b = make_backend(BackendSpec("mpmath", bits=2 * backend.precision_bits))
        res2 = max(abs(_point_kappa(hi_b, nodes, k) - target) / target for k in ks)
        # a true κ makes the residual fall like 2^-p; one that stays put is strong evidence,
        # not a certificate (CLAIMS.md ground rule 2: the flint check certifies): FAIL, labelled
        trend = "stays put" if res2 > res * mpmath.mpf(2) ** (-backend.precision_bits // 2) else "falls"
        ev = replace(ev, message=(
            f"{ev.message}; heuristic, not certified: the residual {trend} as precision rises: "
            f"{tol.fmt(res)} at {backend.precision_bits} bits, {tol.fmt(res2)} at "
            f"{hi_b.precision_bits} bits"))
    ev.seconds = time.perf_counter() - t0
    return [ev]


def _ball_check(backend: AbstractBackend, base: Evidence, nodes: nd.Nodes, ks: list[int],
                target: mpmath.mpf, where: str, t0: float) -> Evidence:
    """Certified brackets of κ₂ (flint, Rump-certified Gram eigenvalues) at the backend's
    precision, doubled up to ESCALATION× while a bracket is too wide: a bracket that excludes
    the claimed value refutes; narrow brackets that contain it pass."""
    bits = backend.precision_bits
    max_width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(backend.precision_bits // 4))
    while True:
        brackets = [certified_kappa2(vandermonde_builder(nodes, k),
                                     start_bits=bits, max_bits=bits) for k in ks]
        contains = all(kb.lo <= target <= kb.hi for kb in brackets)
        width = max((kb.hi - kb.lo if kb.certified else mpmath.inf) for kb in brackets)
        j = tol.enclosure(contains, width, max_width, bits)
        if j.outcome is not Outcome.INCONCLUSIVE or 2 * bits > ESCALATION * backend.precision_bits:
            break
        bits *= 2
    text = "; ".join(f"κ₂(V_{k}) ∈ [{mpmath.nstr(kb.lo, 25)}, {mpmath.nstr(kb.hi, 25)}]"
                     for k, kb in zip(ks, brackets, strict=True))
    # the residual is the midpoints' distance from the claimed value (what separates the
    # statement from its controls); the brackets' width is in the enclosure text
    mid = max(abs((kb.lo + kb.hi) / 2 - target) / target if kb.certified else mpmath.inf
              for kb in brackets)
    return replace(base, outcome=j.outcome, tolerance=j.tolerance, tolerance_source=j.source,
                   residual=tol.fmt(mid), precision_bits=bits, needed_bits=j.needed_bits,
                   enclosure=f"{text} at {bits} bits (contains the claimed value: {contains})",
                   certified_by=("ball arithmetic: the enclosure of κ₂ excludes the claimed value"
                                 if not contains else None),
                   condition_number=", ".join(str(kb) for kb in brackets),
                   counterexample=({"k": ks, "nodes": where, "enclosure": text,
                                    "claimed": mpmath.nstr(target, 17)} if not contains else None),
                   seconds=time.perf_counter() - t0)


def strategy(ctx: Context) -> Any:
    """(N, k) with N ≤ 24 and 1 ≤ k ≤ k_max(N) (the statement's scope, read from it), the
    boundary k = k_max(N) drawn often."""
    from hypothesis import strategies as st

    law = ctx.law(RootsOfUnityCondition)
    return st.integers(1, 24).flatmap(lambda n: st.tuples(
        st.just(n), st.one_of(st.just(law.k_max(n)), st.integers(1, law.k_max(n)))))


def holds(inst: tuple[int, int], ctx: Context) -> Instance:
    """κ₂(V_k) decided exactly: V_kᴴV_k against N·I_k in ℤ[ζ_M], or σ_k = 0 for k > N."""
    from recmem.theory.roots_of_unity import exact_condition

    n, k = inst
    ok, why = exact_condition(ctx.law(RootsOfUnityCondition), n, k)
    return Instance(ok, "exact arithmetic in ℤ[ζ_M] (polynomials mod Φ_M)",
                    {"N": n, "k": k, "reason": why})


CLAIMS = [
    Claim(
        id="O.roots-of-unity",
        summary="κ₂(V_k) = 1 for every k ≤ N; κ₂ = ∞ for k > N (σ_k = 0)",
        title="Roots of unity give a perfectly conditioned Vandermonde matrix",
        statement=RootsOfUnityCondition(),
        provenance=Provenance("O", "§3.1 (Taming ill-conditioning); App. E.1",
                              "in the complex case it is possible to make the condition number of "
                              "V_k exactly 1 by e.g. choosing the N th-roots of unity as "
                              "eigenvalues of Λ [5, 8]. … Last, in Figure 5 we show what happens "
                              "when picking the N diagonal entries of Λ to be the N -th complex "
                              "roots of 1: as shown in [5], in this setting the Vandermonde "
                              "condition number is 1."),
        tolerance="exact (ℤ[ζ_M], SymPy); certified enclosure of κ₂ (flint); |κ̂₂ − κ_claimed| "
                  "/ κ_claimed ≤ c·n·κ(1+κ)/2·u with κ certified by flint (1 on the N-th roots) "
                  "and n = N·k (floats); k > N: κ₂ = ∞ exactly (σ_k = 0)",
        uses=("O.vandermonde-form",),
        params=(p_n(16, "N (the nodes are the N-th roots of unity)"),
                p_k(0, "columns k of V_k, 1 ≤ k ≤ N (0: k = N); for k > N κ₂ = ∞"),
                Param("n_max_symbolic", 16, "largest N of the exact check for every k ≤ N", int,
                      check=at_least(1), max=512, cost=grows(8, 3))),
        validate=k_at_most_n,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="Scope: 1 ≤ k ≤ N, the section's standing hypothesis N ≥ k. For k > N the N×k "
              "matrix has rank ≤ N < k: σ_k = 0 and κ₂ = ∞ (the columns a and a+N even "
              "coincide, λ^N = 1).",
    ),
]
