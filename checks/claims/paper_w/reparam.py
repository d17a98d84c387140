"""W.reparam: "−e^M and −log(1 + e^M) map the eigenvalues of M to negative range" (W §3.4, eq. (16)).

One statement, recmem.theory.reparam.StableReparam, read by every side: two readings of g(M)
(matrix functions, ``W.reparam``; entrywise, ``W.reparam.elementwise``), both refuted, and the
correction ``W.reparam.corrected`` (every eigenvalue of M in the strip |Im λ| < π/2, a field of
the statement). The LRU sentence is recmem.theory.reparam.LruEigenvalue, with one claim per
reading of "real part": ``W.reparam.lru.real-part`` (literal, refuted) and ``W.reparam.lru``
(the modulus, as LRU parameterises it).

Sides: SymPy (exact candidates derived from the statement's fields, and the general argument by
the spectral mapping theorem); the counterexample search (matrices over the statement's domain,
for the strip reaching past its boundary; certified by flint); numerics: the eigenvalues of g(M)
computed from each backend's matrix functions (the definition) judged against the statement's
bound Re λ < −margin, on the parameter M, seeded draws from the statement's domain and rotations
with eigenvalues near and beyond the strip's boundary.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows, parse_fraction
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.reparam import MAPS, LruEigenvalue, StableReparam, lru_eigenvalue

QUOTE = ("If we reparameterize the recurrent weights so that it approach zero and remain stable "
         "(i.e., eigenvalue real part being negative) under perturbations, then this architecture "
         "will maintain stability while having the possibility of approximation. We can "
         "accomplish this by substituting the recurrent weight with a continuous matrix function, "
         "which we will refer to as “stable reparameterization” $$g: \\mathbb {R} ^ {m \\times m} "
         "\\rightarrow \\mathbb {R} ^ {m \\times m, -}, \\quad g (M) = W. \\tag {16}$$ This "
         "reparameterized RNN is stable as the eigenvalues' real part are always negative. We show "
         "there are several methods to achieve this reparameterization: The exponential function "
         "$g(M) = -e^{M}$ and the softplus function $g(M) = -\\log (1 + e^{M})$ maps the "
         "eigenvalues of $M$ to negative range (see Figure 4 and Figure 8 for the stable "
         "approximation of linear functional with polynomial decay memory).")
QUOTE_LRU = ("LRU (Orvieto et al., 2023) proposed to parameterizes the real part of eigenvalues by "
             "$\\exp (-\\exp (\\lambda))$ , which corresponds to the discrete case for "
             "$g(M) = -e^{M}$ .")
LOCATION = "§3.4, eq. (16) (ICLR camera-ready)"
C_EIG = 4.0  # the constant c of c·n·κ·u (as in checks.numeric.identity_check)
# Boundary draws: rotations with eigenvalues ±i·q·(half-width·π), inside (q < 1) and beyond.
BOUNDARY = (Fraction(7, 8), Fraction(31, 32), Fraction(33, 32), Fraction(9, 8))


# ---- instances -----------------------------------------------------------------------------------

def rotation(b: Fraction, a: Fraction = Fraction(0)) -> rp.Matrix:
    """[[a, −b], [b, a]]: eigenvalues a ± ib."""
    return [[a, -b], [b, a]]


def _boundary(law: StableReparam) -> list[rp.Matrix]:
    """Rotations with |Im λ| = q·half_width·π (rounded to 1/64) for q in BOUNDARY."""
    if law.half_width is None:
        return []
    w = float(law.half_width) * math.pi
    return [rotation(Fraction(round(float(q) * w * 64), 64)) for q in BOUNDARY]


def _strip_draw(rng: random.Random, n: int, i: int) -> rp.Matrix:
    """Real-spectrum or small matrices, by turns: symmetric, upper triangular (non-normal), and
    general with entries in [−1/n, 1/n]."""
    a = rp.random_matrix(rng, n, 3, 4)
    if i % 3 == 0:
        return [[a[min(r, c)][max(r, c)] for c in range(n)] for r in range(n)]
    if i % 3 == 1:
        return [[a[r][c] if c >= r else Fraction(0) for c in range(n)] for r in range(n)]
    return [[x / (3 * n) for x in row] for row in a]


def instances(ctx: Context) -> tuple[list[rp.Matrix], int]:
    """(the matrices the statement admits, how many drawn ones it does not): the parameter M,
    ``draws`` seeded matrices from the statement's domain, and the boundary rotations."""
    law = ctx.law(StableReparam)
    if "reparam-instances" in ctx.cache:
        return ctx.cache["reparam-instances"]
    rng = random.Random(ctx.seed * 7919 + 17)
    n = int(ctx["n"])
    if law.half_width is None:
        drawn = [rp.random_matrix(rng, n, 3, 4) for _ in range(int(ctx["draws"]))]
    else:
        drawn = [_strip_draw(rng, n, i) for i in range(int(ctx["draws"]))]
    candidates = [rp.parse_matrix(ctx["M"]), *drawn, *_boundary(law)]
    admitted = [m for m in candidates if law.admits(m) is True]
    ctx.cache["reparam-instances"] = (admitted, len(candidates) - len(admitted))
    return admitted, len(candidates) - len(admitted)


# ---- numeric side ----------------------------------------------------------------------------------

def _max_excess(law: StableReparam, vals: list[Any], ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpf:
    return law.excess(max(rp.real_of(ctx, v) for v in vals))


def _judge(backend: AbstractBackend, law: StableReparam, m: rp.Matrix, which: str,
           cache: dict[Any, Any]) -> rp.Judged:
    """Judge 'every eigenvalue μ of g(M) has Re μ + margin < 0' for one M in one backend."""
    label = f"M = {rp.show_matrix(m)}, g = {which}"
    # g(M) and its eigenvalues read the map (reading, sign, which) and M, never the conclusion's
    # margin or the hypothesis (half_width): a pure function of those and the arithmetic,
    # memoised, so a control that changes only the margin or the hypothesis reads the eigenvalues
    # it would compute again (its own judgement of them below)
    g_key = (dataclasses.replace(law, margin=Fraction(0), half_width=None), which,
             tuple(map(tuple, m)))
    vals = mm.memo(("reparam eigenvalues", backend.name, backend.precision_bits, g_key),
                   lambda: rp.eigenvalues(backend, law, m, which))
    if backend.encloses:
        import flint

        if not vals:
            return rp.Judged(label, rp.Outcome.INCONCLUSIVE, None, None,
                             "flint could not isolate the eigenvalues")
        judged = [rp.ball_negative(label, law.excess(flint.acb(v).real)) for v in vals]
        return max(judged, key=lambda j: (j.outcome is not rp.Outcome.PASS,
                                          j.outcome is rp.Outcome.REFUTE, j.value))
    key = (rp.show_matrix(m), which)
    if key not in cache:
        # κ₂(V) and S read the map and M only (as the eigenvalues above): memoised likewise
        cache[key] = mm.memo(("reparam kappa", g_key), lambda: rp.kappa_data(law, m, which))
    kappa, scale = cache[key]
    bound = C_EIG * len(m) * backend.unit_roundoff * kappa * scale
    return rp.point_negative(label, _max_excess(law, vals, rp.hp_context(backend)), bound)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Eigenvalues of g(M) from the backend's matrix functions, judged Re μ < −margin (W §3.4)."""
    rp.require_float64(backend)
    law = ctx.law(StableReparam)
    t0 = time.perf_counter()
    cache = ctx.cache.setdefault("reparam-kappa", {})
    ms, outside = instances(ctx)
    runs = [(m, which, _judge(backend, law, m, which, cache)) for m in ms for which in MAPS]
    judged = [j for _, _, j in runs]
    items = {j.label: mpmath.nstr(j.value, 6) if j.value is not None else "?" for j in judged}

    def certify(labels: list[str]) -> str | None:
        # the failing points again in ball arithmetic at twice the bits: only an enclosure of
        # max Re μ + margin in (0, ∞) certifies (a value that stays put when the precision
        # doubles is a heuristic, and stays FAIL)
        fl = rp.flint_for(2 * backend.precision_bits)
        if fl is None:
            return None
        with fl.activate():
            for m, which, j in runs:
                if j.label in labels:
                    cert = rp.ball_certificate(fl, _judge(fl, law, m, which, cache))
                    if cert:
                        return cert
        return None

    src = ("flint: enclosures of the eigenvalues of g(M) (acb_mat.eig; spectral mapping on "
           "certified eigenvalues of M where needed)" if backend.encloses else
           f"|δ Re μ| ≤ c·n·u·κ₂(V)·S with c = {C_EIG}, κ₂(V) of the eigenvectors and S the "
           "Fréchet bound of g at M, both at 128 bits (Bauer–Fike)")
    return [rp.evidence("eigenvalues of g(M) against the bound Re μ < −margin", backend, judged,
                        t0, tolerance_source=src, certify=certify,
                        data={"max Re μ + margin": items, "drawn matrices outside the "
                              "hypothesis (not judged)": outside})]


# ---- counterexample search ---------------------------------------------------------------------------

def matrices(max_n: int = 3, bound: int = 4, den: int = 2) -> Any:
    """Square rational matrices of size 1…max_n with entries p/den in [−bound, bound].

    Drawn sparse: a size n and a list of (row, column, value) entries whose indices are clamped to
    n − 1 (repeated positions add up). Hypothesis then shrinks the number of nonzero entries, their
    values and the size together: clamping maps a 3×3 counterexample such as [[0, 0, 1], [0, 0, 0],
    [−3, 0, 0]] onto the 2×2 [[0, 1], [−3, 0]].
    """
    from hypothesis import strategies as st

    idx = st.integers(0, max_n - 1)
    entries = st.lists(st.tuples(idx, idx, fractions_in(-bound, bound, den)), max_size=max_n * max_n)

    def build(n: int, items: list[tuple[int, int, Fraction]]) -> rp.Matrix:
        m = [[Fraction(0)] * n for _ in range(n)]
        for i, j, v in items:
            m[min(i, n - 1)][min(j, n - 1)] += v
        return m

    return st.tuples(st.integers(1, max_n), entries).map(lambda t: build(*t))


def strip_matrices(half_width: Fraction) -> Any:
    """Matrices around the strip |Im λ| < half_width·π: diagonal, symmetric and triangular ones
    (real spectrum), small general ones, and rotations a ± ib with b from half the half-width to
    twice it (inside, on both sides of the boundary, and beyond: where a widened hypothesis
    fails)."""
    from hypothesis import strategies as st

    def symmetric(m: rp.Matrix) -> rp.Matrix:
        return [[m[min(r, c)][max(r, c)] for c in range(len(m))] for r in range(len(m))]

    def upper(m: rp.Matrix) -> rp.Matrix:
        return [[x if c >= r else Fraction(0) for c, x in enumerate(row)] for r, row in enumerate(m)]

    def diagonal(m: rp.Matrix) -> rp.Matrix:
        return [[x if c == r else Fraction(0) for c, x in enumerate(row)] for r, row in enumerate(m)]

    w = float(half_width) * math.pi
    lo, hi = math.floor(w / 2 * 8) / 8, math.ceil(2 * w * 8) / 8
    rotations = st.tuples(fractions_in(Fraction(lo), Fraction(hi), 8),
                          fractions_in(-2, 2, 4)).map(lambda t: rotation(t[0], t[1]))
    base = matrices()
    return st.one_of(rotations, base.map(diagonal), base.map(symmetric), base.map(upper),
                     matrices(3, 1, 4).map(lambda m: [[x / 2 for x in r] for r in m]))


def strategy(ctx: Context) -> Any:
    """Matrices over the statement's domain (every real M, or around its strip)."""
    law = ctx.law(StableReparam)
    return matrices() if law.half_width is None else strip_matrices(law.half_width)


def holds(m: rp.Matrix, ctx: Context) -> Instance:
    """The statement at one M, certified: outside the hypothesis → undecided; else
    StableReparam.decide (spectral mapping / Routh–Hurwitz)."""
    law = ctx.law(StableReparam)
    inside = law.admits(m)
    if inside is not True:
        return Instance(None, "outside the hypothesis (not certified inside the strip)",
                        {"M": rp.show_matrix(m)})
    ok, how, values = law.decide(m)
    return Instance(ok, how, values)


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by theory.reparam.reparam_proof."""
    from recmem.theory.reparam import reparam_proof

    t0 = time.perf_counter()
    return [from_proof(reparam_proof(ctx.law(StableReparam)), time.perf_counter() - t0)]


# ---- LRU ---------------------------------------------------------------------------------------

def _lru_grid(ctx: Context) -> list[tuple[Fraction, Fraction]]:
    """Exact (ν, θ): ν from nu_min to nu_max in steps of 1/4, θ = 1 + ν/3 (θ takes many values,
    so a statement about Re λ meets cos θ ≠ 1)."""
    lo, hi = ctx["nu_min"], ctx["nu_max"]
    return [(Fraction(k, 4), 1 + Fraction(k, 12)) for k in range(int(lo * 4), int(hi * 4) + 1)]


def _lru_values(backend: AbstractBackend, law: LruEigenvalue,
                grid: list[tuple[Fraction, Fraction]]) -> list[tuple[Any, Any]]:
    """(the statement's quantity of λ = exp(−exp ν + iθ), the statement's exp(∓rate·exp ν)), both
    in the backend's own (complex) arithmetic."""
    kind = backend.spec.kind
    if kind == "mpmath":
        c = rp.mp_ctx(backend)

        def q(x: Fraction) -> Any:
            return c.mpf(x.numerator) / x.denominator

        return [(law.lhs(lru_eigenvalue(q(nu), q(th), c.exp, c.mpc(0, 1)), abs, c.re),
                 law.rhs(q(nu), c.exp)) for nu, th in grid]
    if kind == "flint":
        import flint

        def fq(x: Fraction) -> Any:
            return flint.arb(flint.fmpq(x.numerator, x.denominator))

        return [(law.lhs(lru_eigenvalue(flint.acb(fq(nu)), fq(th), lambda z: z.exp(),
                                        flint.acb(0, 1)), abs, lambda z: z.real),
                 law.rhs(fq(nu), lambda z: z.exp())) for nu, th in grid]
    if kind == "numpy":
        import numpy as np

        nus = np.array([float(nu) for nu, _ in grid])
        ths = np.array([float(th) for _, th in grid])
        lam = lru_eigenvalue(nus.astype(np.complex128), ths, np.exp, 1j)
        return list(zip(law.lhs(lam, np.abs, np.real).tolist(), law.rhs(nus, np.exp).tolist(),
                        strict=True))
    torch, dev, _rd = rp.torch_of(backend)
    nus = torch.tensor([float(nu) for nu, _ in grid], dtype=torch.float64, device=dev)
    ths = torch.tensor([float(th) for _, th in grid], dtype=torch.float64, device=dev)
    lam = lru_eigenvalue(nus.to(torch.complex128), ths, torch.exp, 1j)
    return list(zip(law.lhs(lam, torch.abs, torch.real).cpu().tolist(),
                    law.rhs(nus, torch.exp).cpu().tolist(), strict=True))


def numeric_lru(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The quantity of LRU's λ = exp(−exp ν + iθ) against exp(∓rate·exp ν) on an exact grid."""
    rp.require_float64(backend)
    law = ctx.law(LruEigenvalue)
    t0 = time.perf_counter()
    grid = _lru_grid(ctx)
    judged: list[rp.Judged] = []
    values = _lru_values(backend, law, grid)
    for (nu, th), (lhs, rhs) in zip(grid, values, strict=True):
        label = f"ν = {nu}, θ = {th}"
        if backend.encloses:
            judged.append(rp.ball_zero(label, lhs - rhs, rp.arb_bounds(abs(rhs))[1],
                                       backend.precision_bits))
            continue
        hp = rp.hp_context(backend)
        a_mag = hp.exp(hp.mpf(nu.numerator) / nu.denominator)
        r = abs(rp.real_of(hp, rhs))
        # exp of a + iθ and abs/re: relative error ≤ c·u·(1 + |a| + |θ|) (the rounding of the
        # argument a = −e^ν is amplified by |a|; argument reduction of θ costs |θ|·u); the same
        # for the right-hand side's exp(∓rate·e^ν); scaled by the larger of the two values
        scale = max(abs(rp.real_of(hp, lhs)), r)
        bound = C_EIG * backend.unit_roundoff * (2 + 2 * a_mag + abs(hp.mpf(float(th)))) * scale
        judged.append(rp.point_zero(label, rp.real_of(hp, lhs) - rp.real_of(hp, rhs), bound,
                                    max(scale, hp.mpf(2) ** -900)))
    def certify(labels: list[str]) -> str | None:
        # the failing points again in ball arithmetic at twice the bits: only an enclosure of
        # the difference that excludes 0 certifies (one that stays put is a heuristic: FAIL)
        fl = rp.flint_for(2 * backend.precision_bits)
        if fl is None:
            return None
        with fl.activate():
            again = _lru_values(fl, law, grid)
            for (lhs, rhs), j in zip(again, judged, strict=True):
                if j.label in labels:
                    cert = rp.ball_certificate(fl, rp.ball_zero(
                        j.label, lhs - rhs, rp.arb_bounds(abs(rhs))[1], fl.precision_bits))
                    if cert:
                        return cert
        return None

    src = ("enclosure of the difference" if backend.encloses else
           f"relative error of exp(a + iθ) and exp(a) ≤ c·u·(2 + 2|a| + |θ|), c = {C_EIG}")
    return [rp.evidence("LRU eigenvalue against the statement's exp(∓rate·exp ν)", backend,
                        judged, t0, tolerance_source=src, certify=certify,
                        data={"grid": f"ν = {grid[0][0]} … {grid[-1][0]} step 1/4, θ = 1 + ν/3"})]


def lru_strategy(ctx: Context) -> Any:
    """(ν, θ): exact rationals, ν ∈ [−8, 8], θ ∈ [−4, 4]."""
    from hypothesis import strategies as st

    return st.tuples(fractions_in(-8, 8, 4), fractions_in(-4, 4, 4))


def holds_lru(instance: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """The statement at one exact (ν, θ): a flint ball of the difference that excludes 0 refutes
    (precision doubling); otherwise SymPy reduces the exact difference to 0."""
    import flint
    import sympy as sp

    law = ctx.law(LruEigenvalue)
    nu, theta = instance
    values = {"nu": str(nu), "theta": str(theta)}
    with flint.ctx.workprec(128):
        fnu = flint.arb(flint.fmpq(nu.numerator, nu.denominator))
        fth = flint.arb(flint.fmpq(theta.numerator, theta.denominator))
        lam = lru_eigenvalue(flint.acb(fnu), fth, lambda z: z.exp(), flint.acb(0, 1))
        diff = flint.acb(law.lhs(lam, abs, lambda z: z.real) - law.rhs(fnu, lambda z: z.exp()))
        if not diff.contains(0):
            return Instance(False, "flint ball at 128 bits of the difference excludes 0",
                            {**values, "difference": str(diff)})
    snu, sth = sp.Rational(nu.numerator, nu.denominator), sp.Rational(theta.numerator,
                                                                       theta.denominator)
    exact = sp.expand_complex(law.lhs(lru_eigenvalue(snu, sth, sp.exp, sp.I), sp.Abs, sp.re))
    d = sp.simplify(exact - law.rhs(snu, sp.exp))
    if d == 0:
        return Instance(True, "exact: SymPy reduces the difference to 0", values)
    return Instance(None, "undecided: ball ∋ 0 and SymPy did not reduce to 0",
                    {**values, "difference": str(d)})


def symbolic_lru(ctx: Context) -> list[Evidence]:
    """The LRU statement decided by theory.reparam.lru_proof."""
    from recmem.theory.reparam import lru_proof

    t0 = time.perf_counter()
    return [from_proof(lru_proof(ctx.law(LruEigenvalue)), time.perf_counter() - t0)]


# ---- assembly ------------------------------------------------------------------------------------

def _check_matrix(text: str) -> str | None:
    try:
        m = rp.parse_matrix(text)
    except ValueError as exc:
        return str(exc)
    return None if len(m) <= 6 else "at most 6×6"


def _params(default_m: str) -> tuple[Param, ...]:
    return (Param("M", default_m, "an exact real matrix 'a,b;c,d' checked in every arithmetic", str,
                  check=_check_matrix),
            Param("draws", 3, "seeded random exact matrices checked besides M", int,
                  check=at_least(0), max=1000),
            Param("n", 3, "size of the random matrices", int, check=at_least(1), max=32,
                  cost=grows(1000, 4)))  # exact n×n products with entries of ~n² digits


def _admitted(statement: StableReparam) -> Callable[[Any], str | None]:
    def validate(values: Any) -> str | None:
        if msg := _check_matrix(values["M"]):
            return msg
        if statement.admits(rp.parse_matrix(values["M"])) is True:
            return None
        return f"M must satisfy the hypothesis of the statement: {statement.text}"
    return validate


TOL = ("flint: enclosures of eigenvalues (sign of Re certified); mpmath: c·n·κ₂(V)·S·u, a "
       "violation certified by recomputing it in ball arithmetic; floats: c·n·κ₂(V)·S·u (Bauer–Fike with the "
       "Fréchet bound S of g at M, κ at 128 bits); search: certified (flint roots of the exact "
       "characteristic polynomial, spectral mapping; Routh–Hurwitz with exact zero tests)")
READING_MATRIX = ("e^M the matrix exponential, log the principal matrix logarithm and 1 read as I "
                  "(primary matrix functions of M); ℝ^{m×m,−} (never defined in the paper) read "
                  "as the Hurwitz matrices, from 'the eigenvalues' real part are always negative'")
CORRECTED = StableReparam(reading="matrix", half_width=Fraction(1, 2))


# The two readings of the LRU sentence share their tolerance, parameters and every side.
_LRU_SIDES: dict[str, Any] = dict(
    tolerance="exact (SymPy); flint enclosures; floats: relative error c·u·(2 + 2|a| + |θ|) of "
              "exp(a + iθ), a = −e^ν",
    params=(Param("nu_min", Fraction(-8), "smallest ν of the grid", parse_fraction),
            Param("nu_max", Fraction(4), "largest ν of the grid", parse_fraction)),
    validate=lambda v: None if v["nu_min"] <= v["nu_max"] else "need nu_min ≤ nu_max",
    symbolic=symbolic_lru, numeric=numeric_lru, strategy=lru_strategy, holds=holds_lru)

CLAIMS = [
    Claim(
        id="W.reparam",
        summary="−e^M (matrix exponential) is unstable for M = [[0, −2], [2, 0]]; softplus likewise",
        title="Stable reparameterisation g(M) = −e^M, −log(1 + e^M) (matrix functions)",
        statement=StableReparam(reading="matrix"),
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.rnn-linear-memory",),
        params=_params("0,-2;2,0"),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading=READING_MATRIX,
        notes="Refuted: eigenvalues of g(M) are g(λ(M)) (spectral mapping); Re(−e^{x+iy}) = "
              "−e^x cos y > 0 when |y| ∈ (π/2, 3π/2), e.g. M = [[0, −2], [2, 0]]; −log(I + e^M) "
              "fails when 2cos y + e^x < 0, e.g. M = [[0, −1], [5, 0]]; M = [[0, −π], [π, 0]] "
              "gives −e^M = I and I + e^M = 0 (no logarithm). The authors' code "
              "(radarFudan/Curse-of-memory, softplusrnn.py) uses W = −Pᵀ diag(softplus(w)) P with "
              "P orthogonal: a symmetric M, covered by W.reparam.corrected.",
    ),
    Claim(
        id="W.reparam.elementwise",
        summary="−exp(M) entrywise at M = 0 has eigenvalue 0",
        title="Stable reparameterisation, entrywise reading",
        statement=StableReparam(reading="entrywise"),
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.rnn-linear-memory",),
        params=_params("0,1;1,0"),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading="e^M and log(1 + e^M) applied to each entry M_ij",
        notes="Refuted: a matrix with negative entries need not be Hurwitz; for 2×2, −exp(M) is "
              "Hurwitz iff m₁₁ + m₂₂ > m₁₂ + m₂₁. M = 0 gives eigenvalues {0, −2} (exactly 0), "
              "M = [[0, 1], [1, 0]] gives e − 1 > 0. The only entrywise use that is stable applies "
              "g to the diagonal of a diagonal parameterisation, which is the diagonal case of "
              "W.reparam.corrected.",
    ),
    Claim(
        id="W.reparam.corrected",
        summary="stable when every eigenvalue of M has |Im λ| < π/2 (real spectra: symmetric, "
                "diagonal)",
        title="Stable reparameterisation for spectra in the strip |Im λ| < π/2",
        statement=CORRECTED,
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.reparam",),
        params=_params("-1,3,1;0,1/2,2;0,0,2"),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.reparam",
        reading=READING_MATRIX,
        validate=_admitted(CORRECTED),
        notes="In particular every M with real spectrum (symmetric, triangular, diagonal), so "
              "every perturbation that keeps the spectrum in the strip (e.g. within a diagonal or "
              "symmetric parameterisation) keeps the RNN stable. Sharp for −e^M: any eigenvalue "
              "with π/2 < |Im λ| < 3π/2 violates it. −log(I + e^M) stays Hurwitz on the closed "
              "strip and beyond while 2cos y + e^x > 0.",
    ),
    Claim(
        id="W.reparam.lru",
        summary="|exp(−e^ν + iθ)| < 1 for real ν (the modulus reading)",
        title="LRU's exp(−exp ν) is the modulus of its eigenvalue, the discrete case of −e^M",
        statement=LruEigenvalue(part="modulus"),
        provenance=Provenance("W", LOCATION, QUOTE_LRU),
        uses=("W.reparam",),
        **_LRU_SIDES,
        reading="'the real part of eigenvalues' read as their modulus |λ| (LRU, Orvieto et al. "
                "2023: λ = exp(−exp(ν) + iθ), whose modulus exp(−exp(ν)) is what its ν "
                "parameterises; the paper's λ in exp(−exp(λ)) is our ν); 'the discrete case' read "
                "as the time-1 map h(1) of dh/dt = (−e^ν + iθ)h",
        notes="In float64 |λ| rounds to 1 (marginal stability) once e^ν < u, i.e. ν ≲ −36.7; "
              "1 − |λ| = −expm1(−e^ν) is the accurate margin. The literal reading is "
              "W.reparam.lru.real-part.",
    ),
    Claim(
        id="W.reparam.lru.real-part",
        summary="the printed \"real part\" reading: ν = 0, θ = 1",
        title="LRU's exp(−exp ν) as the real part of its eigenvalue (literal reading)",
        statement=LruEigenvalue(part="real part"),
        provenance=Provenance("W", LOCATION, QUOTE_LRU),
        uses=("W.reparam.lru",),
        **_LRU_SIDES,
        reading="'parameterizes the real part of eigenvalues by exp(−exp(λ))' read literally: "
                "Re λ = exp(−exp(ν)) for LRU's λ = exp(−exp(ν) + iθ)",
        notes="Refuted: Re λ = exp(−exp ν)·cos θ, equal to exp(−exp ν) only when θ ∈ 2πℤ; the "
              "printed word 'real part' fits the continuous-time exponent −exp(ν) + iθ (whose "
              "real part −exp(ν) is g(ν) = −e^ν) or the modulus (W.reparam.lru).",
    ),
]
