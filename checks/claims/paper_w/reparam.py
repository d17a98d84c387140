"""W.reparam: "−e^M and −log(1 + e^M) map the eigenvalues of M to negative range" (W §3.4).

ICLR §3.4 eq. 16 (arXiv eq. 18). Two readings of g(M): matrix functions (``W.reparam``) and
entrywise functions (``W.reparam.elementwise``). Both are refuted for real M: the matrix
exponential maps an eigenvalue x + iy to −e^x(cos y + i sin y), which has positive real part when
|y| > π/2 (M = [[0, −2], [2, 0]]); an entrywise-negative matrix need not be Hurwitz (M = 0 gives
eigenvalues {0, −2}). ``W.reparam.corrected``: M with every |Im λ| < π/2 (real spectrum included).
``W.reparam.lru``: LRU's |exp(−exp ν + iθ)| = exp(−exp ν) < 1, the time-1 map of −e^ν + iθ.
The analysis is in recmem.theory.reparam.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, parse_fraction
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.theory.proof import Proof

QUOTE = ("We can accomplish this by substituting the recurrent weight with a continuous matrix "
         "function, which we will refer to as “stable reparameterization” | (18) | This "
         "reparameterized RNN is stable as the eigenvalues’ real part are always negative. We show "
         "there are several methods to achieve this reparameterization: The exponential function "
         "and the softplus function maps the eigenvalues of to negative range (see Figure 4 and "
         "Figure 8 for the stable approximation of linear functional with polynomial decay memory).")
QUOTE_LRU = ("LRU (Orvieto et al., 2023) proposed to parameterizes the real part of eigenvalues by , "
             "which corresponds to the discrete case for .")
LOCATION = "§3.4, eq. 16 (ICLR) / eq. 18 (arXiv)"
STATEMENT = ("Stable reparameterisation g: ℝ^{m×m} → ℝ^{m×m,−}, g(M) = W: the exponential function "
             "g(M) = −e^M and the softplus function g(M) = −log(1 + e^M) map the eigenvalues of M to "
             "negative range (Re < 0) for every M ∈ ℝ^{m×m}, so the reparameterised RNN is stable "
             "under every perturbation of M")
C_EIG = 4.0  # the constant c of c·n·κ·u (as in checks.numeric.identity_check)


# ---- instances -----------------------------------------------------------------------------------

def _draws(ctx: Context, family: str) -> list[rp.Matrix]:
    """The parameter M followed by ``draws`` seeded random exact matrices of size n."""
    key = ("reparam-instances", family)
    if key in ctx.cache:
        return ctx.cache[key]
    from recmem.theory.reparam import in_strip

    rng = random.Random(ctx.seed * 7919 + 17)
    n, out = int(ctx["n"]), [rp.parse_matrix(ctx["M"])]
    for i in range(int(ctx["draws"])):
        if family == "strip":
            m = _strip_draw(rng, n, i)
            if in_strip(m) is not True:  # cannot happen by construction; never test outside it
                raise AssertionError(f"draw outside the strip: {rp.show_matrix(m)}")
            out.append(m)
        else:
            out.append(rp.random_matrix(rng, n, 3, 4))
    ctx.cache[key] = out
    return out


def _strip_draw(rng: random.Random, n: int, i: int) -> rp.Matrix:
    """Matrices the corrected claim allows, by turns: symmetric, upper triangular (non-normal),
    and general with entries in [−1/n, 1/n] (|Im λ| ≤ ‖M‖₂ ≤ ‖M‖_F ≤ 1 < π/2)."""
    a = rp.random_matrix(rng, n, 3, 4)
    if i % 3 == 0:
        return [[a[min(r, c)][max(r, c)] for c in range(n)] for r in range(n)]
    if i % 3 == 1:
        return [[a[r][c] if c >= r else Fraction(0) for c in range(n)] for r in range(n)]
    return [[x / (3 * n) for x in row] for row in a]


# ---- numeric side ----------------------------------------------------------------------------------

def _max_re(vals: list[Any], ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpf:
    return max(rp.real_of(ctx, v) for v in vals)


def _judge(backend: AbstractBackend, m: rp.Matrix, which: str, reading: str,
           cache: dict[Any, Any]) -> rp.Judged:
    """Judge 'every eigenvalue of g(M) has Re < 0' for one M in one backend."""
    label = f"M = {rp.show_matrix(m)}, g = {'−e^M' if which == 'exp' else '−log(I + e^M)'}"
    vals = rp.eigenvalues(backend, m, which, reading)
    if backend.encloses:
        if not vals:
            return rp.Judged(label, Outcome.INCONCLUSIVE, None, None,
                             "flint could not isolate the eigenvalues")
        judged = [rp.ball_negative(label, v.real) for v in vals]
        bad = [j for j in judged if j.outcome is not Outcome.PASS]
        return next((j for j in bad if j.outcome is Outcome.REFUTE), bad[0] if bad else judged[0])
    key = (rp.show_matrix(m), which, reading)
    if key not in cache:
        cache[key] = rp.kappa_data(m, which, reading)
    kappa, scale = cache[key]
    bound = C_EIG * len(m) * backend.unit_roundoff * kappa * scale
    return rp.point_negative(label, _max_re(vals, rp.hp_context(backend)), bound)


def _numeric(reading: str, family: str) -> Callable[[AbstractBackend, Context], list[Evidence]]:
    def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
        """Eigenvalues of g(M) for the instances, each judged Re < 0 (W §3.4)."""
        rp.require_float64(backend)
        t0 = time.perf_counter()
        cache = ctx.cache.setdefault("reparam-kappa", {})
        ms = _draws(ctx, family)
        runs: list[tuple[rp.Matrix, str, rp.Judged]] = []
        for m in ms:
            for which in rp.MAPS:
                runs.append((m, which, _judge(backend, m, which, reading, cache)))
        judged = [j for _, _, j in runs]
        items = {j.label: mpmath.nstr(j.value, 6) if j.value is not None else "?" for j in judged}

        def certify(labels: list[str]) -> str | None:
            hi = make_backend(BackendSpec("mpmath", bits=2 * backend.precision_bits))
            for m, which, j in runs:
                if j.label not in labels or j.value is None or j.bound is None:
                    continue
                v2 = _max_re(rp.eigenvalues(hi, m, which, reading), rp.hp_context(hi))
                if rp.stays_put(j.value, v2, j.bound, backend.precision_bits):
                    return (f"max Re λ(g(M)) stays put as precision rises: {mpmath.nstr(j.value, 8)}"
                            f" at {backend.precision_bits} bits, {mpmath.nstr(v2, 8)} at "
                            f"{hi.precision_bits} bits ({j.label})")
            return None

        src = ("flint: enclosures of the eigenvalues of g(M) (acb_mat.eig; spectral mapping on "
               "certified eigenvalues of M where needed)" if backend.encloses else
               f"|δ Re λ| ≤ c·n·u·κ₂(V)·S with c = {C_EIG}, κ₂(V) of the eigenvectors and S the "
               "Fréchet bound of g at M, both at 128 bits (Bauer–Fike)")
        return [rp.evidence(f"Re λ(g(M)) < 0, g = −e^M and −log(I + e^M) ({reading}), "
                            f"{len(ms)} matrices", backend, judged, t0, tolerance_source=src,
                            certify=certify, data={"max Re λ(g(M))": items})]
    return numeric


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


def strip_matrices() -> Any:
    """Matrices the corrected claim allows: diagonal, symmetric, triangular, small general, and
    general ones whose certified spectrum lies in |Im λ| < π/2."""
    from hypothesis import strategies as st

    from recmem.theory.reparam import in_strip

    def symmetric(m: rp.Matrix) -> rp.Matrix:
        return [[m[min(r, c)][max(r, c)] for c in range(len(m))] for r in range(len(m))]

    def upper(m: rp.Matrix) -> rp.Matrix:
        return [[x if c >= r else Fraction(0) for c, x in enumerate(row)] for r, row in enumerate(m)]

    def diagonal(m: rp.Matrix) -> rp.Matrix:
        return [[x if c == r else Fraction(0) for c, x in enumerate(row)] for r, row in enumerate(m)]

    base = matrices()
    return st.one_of(base.map(diagonal), base.map(symmetric), base.map(upper),
                     matrices(3, 1, 4).map(lambda m: [[x / 2 for x in r] for r in m]),
                     base.filter(lambda m: in_strip(m) is True))


def holds_matrix(m: rp.Matrix, ctx: Context) -> Instance:
    """Both matrix maps Hurwitz at this M, certified (theory.reparam.decide_matrix_reading)."""
    from recmem.theory.reparam import decide_matrix_reading

    ok, how, values = decide_matrix_reading(m)
    return Instance(ok, how, values)


def holds_entrywise(m: rp.Matrix, ctx: Context) -> Instance:
    """Both entrywise maps Hurwitz at this M, certified or exact (Routh–Hurwitz)."""
    from recmem.theory.reparam import decide_entrywise

    for which in rp.MAPS:
        ok, how, values = decide_entrywise(m, which)
        if ok is not True:
            return Instance(ok, how, values)
    return Instance(True, how, values)


def holds_strip(m: rp.Matrix, ctx: Context) -> Instance:
    """The corrected claim at one M: in the strip (certified) ⇒ both matrix maps Hurwitz."""
    from recmem.theory.reparam import in_strip

    inside = in_strip(m)
    if inside is not True:
        return Instance(None, "outside the hypotheses (spectrum not certified in |Im λ| < π/2)",
                        {"M": rp.show_matrix(m)})
    return holds_matrix(m, ctx)


# ---- LRU ---------------------------------------------------------------------------------------

def _lru_grid(ctx: Context) -> list[Fraction]:
    lo, hi = ctx["nu_min"], ctx["nu_max"]
    k0, k1 = int(lo * 4), int(hi * 4)
    return [Fraction(k, 4) for k in range(k0, k1 + 1)]


def _lru_theta(nu: Fraction) -> Fraction:
    return Fraction(1) + nu / 3  # any real θ: |λ| does not depend on it


def _lru_values(backend: AbstractBackend, nus: list[Fraction]) -> list[tuple[Any, Any]]:
    """(|λ|, exp(−exp ν)) with λ = exp(−exp ν + iθ), in the backend's own complex arithmetic."""
    kind = backend.spec.kind
    out: list[tuple[Any, Any]] = []
    if kind == "mpmath":
        c = backend.ctx
        for nu in nus:
            a = -c.exp(c.mpf(nu.numerator) / nu.denominator)
            th = c.mpf(_lru_theta(nu).numerator) / _lru_theta(nu).denominator
            out.append((abs(c.exp(c.mpc(a, th))), c.exp(a)))
    elif kind == "flint":
        import flint

        for nu in nus:
            a = -flint.arb(flint.fmpq(nu.numerator, nu.denominator)).exp()
            th = flint.arb(flint.fmpq(_lru_theta(nu).numerator, _lru_theta(nu).denominator))
            out.append((abs(flint.acb(a, th).exp()), a.exp()))
    elif kind == "numpy":
        import numpy as np

        for nu in nus:
            a = -np.exp(np.float64(nu.numerator / nu.denominator))
            th = float(_lru_theta(nu))
            out.append((float(abs(np.exp(np.complex128(complex(a, th))))), float(np.exp(a))))
    else:
        torch = backend.torch
        x = torch.tensor([n.numerator / n.denominator for n in nus], dtype=torch.float64,
                         device=backend.device)
        th = torch.tensor([float(_lru_theta(n)) for n in nus], dtype=torch.float64, device=x.device)
        a = -torch.exp(x)
        lam = torch.exp(torch.complex(a, th))
        out = list(zip(torch.abs(lam).cpu().tolist(), torch.exp(a).cpu().tolist(), strict=True))
    return out


def numeric_lru(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """|exp(−exp ν + iθ)| < 1 and = exp(−exp ν) on a grid of exact ν (W §3.4, LRU)."""
    rp.require_float64(backend)
    t0 = time.perf_counter()
    nus = _lru_grid(ctx)
    judged: list[rp.Judged] = []
    for nu, (mod, ref) in zip(nus, _lru_values(backend, nus), strict=True):
        label = f"ν = {nu}"
        if backend.encloses:
            judged.append(rp.ball_negative(f"{label}: |λ| − 1", mod - 1))
            judged.append(rp.ball_zero(f"{label}: |λ| − exp(−exp ν)", mod - ref, rp.arb_bounds(ref)[1],
                                       backend.precision_bits))
            continue
        hp = rp.hp_context(backend)
        m, r = rp.real_of(hp, mod), rp.real_of(hp, ref)
        # exp of a + iθ and abs: relative error ≤ c·u·(1 + |a| + |θ|) (argument reduction of
        # a large |a| costs |a|·u relatively); the same for exp(a)
        a = mpmath.exp(mpmath.mpf(nu.numerator) / nu.denominator)
        th = _lru_theta(nu)
        bound = C_EIG * backend.unit_roundoff * (2 + a + abs(mpmath.mpf(th.numerator) / th.denominator)) * r
        judged.append(rp.point_negative(f"{label}: |λ| − 1", m - 1, bound + backend.unit_roundoff))
        judged.append(rp.point_zero(f"{label}: |λ| − exp(−exp ν)", m - r, 2 * bound, r))
    data = {"grid": f"ν = {nus[0]} … {nus[-1]} step 1/4"}
    if not backend.encloses:
        # where the float |λ| rounds to 1 exactly: exp ν below about u (LRU's ν_log → −∞)
        sat = [nu for nu, (mod, _) in zip(nus, _lru_values(backend, nus), strict=True) if mod == 1]
        data["|λ| rounds to 1 at ν ≤"] = str(max(sat)) if sat else f"none in the grid (≥ {nus[0]})"
    src = ("enclosure" if backend.encloses else
           f"relative error of exp(a + iθ) ≤ c·u·(2 + |a| + |θ|), c = {C_EIG}")
    return [rp.evidence(f"|exp(−exp ν + iθ)| = exp(−exp ν) < 1 on {len(nus)} exact ν", backend,
                        judged, t0, tolerance_source=src, data=data)]


def lru_strategy(ctx: Context) -> Any:
    """(ν, θ): exact rationals, ν ∈ [−8, 8], θ ∈ [−4, 4]."""
    from hypothesis import strategies as st

    return st.tuples(fractions_in(-8, 8, 4), fractions_in(-4, 4, 4))


def holds_lru(instance: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """0 < |exp(−exp ν + iθ)| < 1 certified by a flint ball (escalating precision)."""
    import flint

    nu, theta = instance
    bits = 64
    while bits <= 4096:
        with flint.ctx.workprec(bits):
            a = -flint.arb(flint.fmpq(nu.numerator, nu.denominator)).exp()
            mod = abs(flint.acb(a, flint.arb(flint.fmpq(theta.numerator, theta.denominator))).exp())
            if 0 < mod < 1:
                return Instance(True, f"flint ball at {bits} bits in (0, 1)",
                                {"nu": str(nu), "theta": str(theta), "|lambda|": str(mod)})
            if mod >= 1:
                return Instance(False, f"flint ball at {bits} bits in [1, ∞)",
                                {"nu": str(nu), "theta": str(theta), "|lambda|": str(mod)})
        bits *= 2
    return Instance(None, "undecided", {"nu": str(nu), "theta": str(theta)})


# ---- assembly ------------------------------------------------------------------------------------

def _symbolic(fn: Callable[[], Proof]) -> Callable[[Context], list[Evidence]]:
    def symbolic(ctx: Context) -> list[Evidence]:
        t0 = time.perf_counter()
        return [from_proof(fn(), time.perf_counter() - t0)]
    return symbolic


def _theory(name: str) -> Callable[[], Proof]:
    def call() -> Proof:
        from recmem.theory import reparam

        return getattr(reparam, name)()
    return call


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
                  check=at_least(0)),
            Param("n", 3, "size of the random matrices", int, check=at_least(1)))


def _validate_strip(values: Any) -> str | None:
    from recmem.theory.reparam import in_strip

    if _check_matrix(values["M"]):
        return _check_matrix(values["M"])
    inside = in_strip(rp.parse_matrix(values["M"]))
    return None if inside else "W.reparam.corrected needs every eigenvalue of M in |Im λ| < π/2"


TOL = ("flint: enclosures of eigenvalues (sign of Re certified); mpmath: c·n·κ₂(V)·S·u and a "
       "violation that stays put at doubled precision; floats: c·n·κ₂(V)·S·u (Bauer–Fike with the "
       "Fréchet bound S of g at M, κ at 128 bits); search: certified (flint roots of the exact "
       "characteristic polynomial, spectral mapping; Routh–Hurwitz with exact zero tests)")

CLAIMS = [
    Claim(
        id="W.reparam",
        title="Stable reparameterisation g(M) = −e^M, −log(1 + e^M) (matrix functions)",
        statement=STATEMENT,
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.rnn-linear-memory",),
        params=_params("0,-2;2,0"),
        symbolic=_symbolic(_theory("matrix_reading")),
        numeric=_numeric("matrix", "general"),
        strategy=lambda ctx: matrices(),
        holds=holds_matrix,
        reading="e^M the matrix exponential, log the principal matrix logarithm (primary matrix "
                "functions of M)",
        notes="Refuted: eigenvalues of g(M) are g(λ(M)) (spectral mapping); Re(−e^{x+iy}) = "
              "−e^x cos y > 0 when |y| ∈ (π/2, 3π/2), e.g. M = [[0, −2], [2, 0]]; −log(I + e^M) "
              "fails when 2cos y + e^x < 0, e.g. M = [[0, −1], [5, 0]]; M = [[0, −π], [π, 0]] "
              "gives −e^M = I and I + e^M = 0 (no logarithm). The authors' code "
              "(radarFudan/Curse-of-memory, softplusrnn.py) uses W = −Pᵀ diag(softplus(w)) P with "
              "P orthogonal: a symmetric M, covered by W.reparam.corrected.",
    ),
    Claim(
        id="W.reparam.elementwise",
        title="Stable reparameterisation, entrywise reading",
        statement=STATEMENT,
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.rnn-linear-memory",),
        params=_params("0,1;1,0"),
        symbolic=_symbolic(_theory("entrywise_reading")),
        numeric=_numeric("entrywise", "general"),
        strategy=lambda ctx: matrices(),
        holds=holds_entrywise,
        reading="e^M and log(1 + e^M) applied to each entry M_ij",
        notes="Refuted: a matrix with negative entries need not be Hurwitz; for 2×2, −exp(M) is "
              "Hurwitz iff m₁₁ + m₂₂ > m₁₂ + m₂₁. M = 0 gives eigenvalues {0, −2} (exactly 0), "
              "M = [[0, 1], [1, 0]] gives e − 1 > 0. The only entrywise use that is stable applies "
              "g to the diagonal of a diagonal parameterisation, which is the diagonal case of "
              "W.reparam.corrected.",
    ),
    Claim(
        id="W.reparam.corrected",
        title="Stable reparameterisation for spectra in the strip |Im λ| < π/2",
        statement="If every eigenvalue λ of a real M satisfies |Im λ| < π/2 (in particular if M "
                  "has real spectrum: symmetric, triangular or diagonal M), then −e^M and "
                  "−log(I + e^M) (principal logarithm) are Hurwitz; hence every perturbation that "
                  "keeps the spectrum in the strip (e.g. within a diagonal or symmetric "
                  "parameterisation) keeps the RNN stable",
        provenance=Provenance("W", LOCATION, QUOTE),
        tolerance=TOL,
        uses=("W.reparam",),
        params=_params("-1,3,1;0,1/2,2;0,0,2"),
        symbolic=_symbolic(_theory("strip_theorem")),
        numeric=_numeric("matrix", "strip"),
        strategy=lambda ctx: strip_matrices(),
        holds=holds_strip,
        corrects="W.reparam",
        validate=_validate_strip,
        notes="Sharp for −e^M: any eigenvalue with π/2 < |Im λ| < 3π/2 violates it. −log(I + e^M) "
              "stays Hurwitz on the closed strip |Im λ| ≤ π/2 and beyond while 2cos y + e^x > 0.",
    ),
    Claim(
        id="W.reparam.lru",
        title="LRU's exp(−exp ν) is the discrete case of g = −e^M",
        statement="For all real ν, θ: |exp(−exp(ν) + iθ)| = exp(−exp(ν)) ∈ (0, 1), and "
                  "exp(−exp(ν) + iθ) is the time-1 map of dh/dt = (g(ν) + iθ)h with g(ν) = −e^ν",
        provenance=Provenance("W", LOCATION, QUOTE_LRU),
        tolerance="exact (SymPy); flint enclosures; floats: relative error c·u·(2 + |a| + |θ|) of "
                  "exp(a + iθ), a = −e^ν",
        uses=("W.reparam",),
        params=(Param("nu_min", Fraction(-8), "smallest ν of the grid", parse_fraction),
                Param("nu_max", Fraction(4), "largest ν of the grid", parse_fraction)),
        validate=lambda v: None if v["nu_min"] <= v["nu_max"] else "need nu_min ≤ nu_max",
        symbolic=_symbolic(_theory("lru_discrete")),
        numeric=numeric_lru,
        strategy=lru_strategy,
        holds=holds_lru,
        notes="In float64 |λ| rounds to 1 (marginal stability) once e^ν < u, i.e. ν ≲ −36.7; "
              "run with --param nu_min=-40 to see it (reported per backend). 1 − |λ| = "
              "−expm1(−e^ν) is the accurate margin.",
    ),
]
