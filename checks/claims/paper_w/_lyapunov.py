"""What the Lyapunov claims of paper W share (ICLR camera-ready numbering: App. A.9 eqs. (48)–(49),
Lemmas A.8–A.9 in App. A.10).

- seeded exact draws of Hurwitz matrices with an exactly known spectral abscissa
  (:func:`hurwitz`, :func:`spd`), in four families: non-normal (similar to a quasi-triangular
  matrix), normal, diagonalizable (W = V B V⁻¹ with B normal), defective (one Jordan block);
- Hypothesis strategies over *all* Hurwitz matrices of the stated sizes (:func:`hurwitz_instances`);
- exact decisions over ℚ (PSD by the signs of the characteristic polynomial, Rayleigh witnesses,
  rational bounds on λ_max);
- per-arithmetic spectral quantities and the evidence of an inequality or equality.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Context, Param, at_least, grows, parse_fraction
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.certified import fixed_context, symmetric_extreme
from recmem.numerics.certified_oracles import InternalInconsistency

KINDS = ("nonnormal", "normal", "diagonalizable", "defective")
C_TOL = 4.0  # the constant c of c·n·κ·u


# ---- parameters -------------------------------------------------------------------------------

def p_n(default: int, help: str = "size n of W (n×n)") -> Param:
    """The size n of the drawn W (W App. A.9: W ∈ ℝ^{m×m})."""
    # the Lyapunov equation as an exact n²×n² linear system: ~100 bytes an entry
    return Param("N", default, help, int, check=at_least(1), max=64, cost=grows(100, 4))


def p_kind(default: str = "nonnormal") -> Param:
    """Which family of Hurwitz W is drawn (see :func:`hurwitz`)."""
    return Param("kind", default, "family of the drawn W: " + ", ".join(KINDS), str, choices=KINDS)


def p_departure(default: Fraction = Fraction(1)) -> Param:
    """Scale of the non-normal part of the drawn W."""
    return Param("departure", default, "scale of the strictly upper entries of the quasi-triangular "
                 "factor (non-normality of nonnormal/defective draws)", parse_fraction,
                 check=lambda v: None if v >= 0 else "must be ≥ 0")


def p_draw() -> Param:
    """Which seeded draw of W."""
    return Param("draw", 0, "which draw of W (added to --seed)", int, check=at_least(0),
                 max=2**32 - 1)  # like --seed


def p_n_search(default: int = 4) -> Param:
    """The largest n of the exact counterexample search."""
    return Param("n_search", default, "largest n in the counterexample search (CLAIMS.md: 2…8)", int,
                 check=at_least(1), max=16, cost=grows(100, 4))


# ---- exact draws ------------------------------------------------------------------------------

@dataclass(frozen=True)
class HurwitzDraw:
    """An exact Hurwitz W (``fmpq_mat``) with its exact spectral abscissa α(W) = max Re λ(W).

    ``V`` (when set) gives W = V B V⁻¹ with B normal: orthogonal for ``normal`` draws.
    """

    W: Any
    abscissa: Fraction
    kind: str
    seed: int
    V: Any = None

    @property
    def n(self) -> int:
        return int(self.W.nrows())

    def __str__(self) -> str:
        return f"{self.kind} W (n={self.n}, seed {self.seed}, α(W) = {self.abscissa})"


def _dy(rng: random.Random, lo: Fraction, hi: Fraction, bits: int = 5) -> Fraction:
    """A dyadic rational in [lo, hi] with ``bits`` fractional bits."""
    s = 2 ** bits
    return Fraction(rng.randint(int(lo * s), int(hi * s)), s)


def _fq(x: Fraction) -> Any:
    import flint

    return flint.fmpq(x.numerator, x.denominator)


def _blocks(rng: random.Random, n: int, allow_complex: bool = True) -> list[tuple[Fraction, ...]]:
    """Diagonal blocks: (−a,) real or (−a, ω, r) for the 2×2 block [[−a, ωr], [−ω/r, −a]]."""
    out: list[tuple[Fraction, ...]] = []
    i = 0
    while i < n:
        a = _dy(rng, Fraction(1, 4), Fraction(2))
        if allow_complex and i + 1 < n and rng.random() < 0.5:
            out.append((-a, _dy(rng, Fraction(1, 4), Fraction(2)), Fraction(2) ** rng.randint(-1, 1)))
            i += 2
        else:
            out.append((-a,))
            i += 1
    return out


def _block_matrix(blocks: list[tuple[Fraction, ...]], n: int, normal: bool) -> Any:
    import flint

    t = flint.fmpq_mat(n, n)
    i = 0
    for b in blocks:
        t[i, i] = _fq(b[0])
        if len(b) == 3:
            om, r = b[1], (Fraction(1) if normal else b[2])
            t[i + 1, i + 1] = _fq(b[0])
            t[i, i + 1], t[i + 1, i] = _fq(om * r), _fq(-om / r)
            i += 2
        else:
            i += 1
    return t


def _unit_triangular(rng: random.Random, n: int, lower: bool, scale: Fraction) -> Any:
    from recmem.numerics.lyapunov import identity

    s = identity(n)
    for i in range(n):
        for j in range(n):
            if (j < i) if lower else (j > i):
                s[i, j] = _fq(_dy(rng, -scale, scale))
    return s


def cayley(skew_entries: list[list[Fraction]] | Any) -> Any:
    """The rational orthogonal matrix (I − S)(I + S)⁻¹ of a rational skew-symmetric S."""
    from recmem.numerics.lyapunov import fmpq_matrix, identity

    s = fmpq_matrix(skew_entries)
    eye = identity(s.nrows())
    return (eye - s) * (eye + s).inv()


def hurwitz(n: int, seed: int, kind: str = "nonnormal", departure: Fraction = Fraction(1)) -> HurwitzDraw:
    """A seeded exact Hurwitz W of size n (the test matrices of W.lyapunov and its lemmas).

    nonnormal: S T S⁻¹, T quasi-upper-triangular (diagonal blocks [−a] and [[−a, ωr], [−ω/r, −a]],
    strictly upper entries in [−departure, departure]), S unit lower triangular;
    defective: S (−aI + N) S⁻¹ with N strictly upper, nonzero superdiagonal (one Jordan block);
    normal: U B Uᵀ, B real normal form, U rational orthogonal (Cayley);
    diagonalizable: V B V⁻¹, B real normal form, V = (unit lower)(unit upper).
    Every entry is an exact dyadic or rational; α(W) is exact.
    """
    import flint

    from recmem.numerics.lyapunov import fmpq_matrix

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    rng = random.Random(f"hurwitz/{kind}/{n}/{seed}")
    small = Fraction(1, 4)
    if kind == "defective":
        a = _dy(rng, Fraction(1, 4), Fraction(2))
        t = flint.fmpq_mat(n, n)
        for i in range(n):
            t[i, i] = _fq(-a)
            for j in range(i + 1, n):
                v = _dy(rng, -departure, departure)
                if j == i + 1 and v == 0:
                    v = departure if departure != 0 else Fraction(1)
                t[i, j] = _fq(v)
        s = _unit_triangular(rng, n, True, small)
        return HurwitzDraw(s * t * s.inv(), -a, kind, seed)
    blocks = _blocks(rng, n)
    alpha = max(b[0] for b in blocks)
    if kind == "nonnormal":
        t = _block_matrix(blocks, n, normal=False)
        starts, i = set(), 0
        for b in blocks:
            starts.add(i)
            i += len(b) - 1 if len(b) == 3 else 1
        for i in range(n):
            for j in range(i + 1, n):
                if not (j == i + 1 and i in starts and t[i + 1, i] != 0):
                    t[i, j] = _fq(_dy(rng, -departure, departure))
        s = _unit_triangular(rng, n, True, small)
        return HurwitzDraw(s * t * s.inv(), alpha, kind, seed)
    b = _block_matrix(blocks, n, normal=True)
    if kind == "normal":
        skew = [[Fraction(0)] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                skew[i][j] = _dy(rng, -Fraction(1, 2), Fraction(1, 2))
                skew[j][i] = -skew[i][j]
        u = cayley(skew)
        return HurwitzDraw(u * b * u.transpose(), alpha, kind, seed, V=u)
    v = _unit_triangular(rng, n, True, Fraction(1, 2)) * _unit_triangular(rng, n, False, Fraction(1, 2))
    return HurwitzDraw(v * b * v.inv(), alpha, kind, seed, V=fmpq_matrix(v))


def spd(n: int, seed: int) -> Any:
    """A seeded exact symmetric positive definite Q = G Gᵀ/n + I/4 (``fmpq_mat``)."""
    import flint

    from recmem.numerics.lyapunov import identity

    rng = random.Random(f"spd/{n}/{seed}")
    g = flint.fmpq_mat(n, n, [_fq(_dy(rng, Fraction(-1), Fraction(1))) for _ in range(n * n)])
    return g * g.transpose() / n + identity(n) / 4


def draw_from(ctx: Context, n: int | None = None, kind: str | None = None, offset: int = 0) -> HurwitzDraw:
    """The claim's W from its parameters (cached per context)."""
    n = int(ctx["N"]) if n is None else n
    kind = str(ctx.params.get("kind", "nonnormal")) if kind is None else kind
    seed = ctx.seed + int(ctx.params.get("draw", 0)) + offset
    dep = Fraction(ctx.params.get("departure", Fraction(1)))
    key = f"hurwitz/{kind}/{n}/{seed}/{dep}"
    if key not in ctx.cache:
        ctx.cache[key] = hurwitz(n, seed, kind, dep)
    return ctx.cache[key]  # type: ignore[no-any-return,unused-ignore]


def cached(ctx: Context, key: str, make: Callable[[], Any]) -> Any:
    """``make()`` once per context."""
    if key not in ctx.cache:
        ctx.cache[key] = make()
    return ctx.cache[key]


# ---- Hypothesis strategies over all Hurwitz matrices ----------------------------------------

@dataclass(frozen=True)
class HurwitzInstance:
    """An exact instance drawn by Hypothesis: W = U T Uᵀ (U rational orthogonal, T quasi-triangular
    with exact α), or W = V B V⁻¹ (B normal), and β₀ = f·(−α) with 0 < f ≤ 1.

    ``quasi`` (T) and ``similarity`` (U or V) give W = similarity·T·similarity⁻¹ exactly (what
    :func:`recmem.theory.lyapunov.exact_integral` needs). With a shift (strategies that reach
    outside the Hurwitz matrices) α may be ≥ 0; β₀ is then 0.
    """

    W: tuple[tuple[Fraction, ...], ...]
    alpha: Fraction
    beta0: Fraction
    V: tuple[tuple[Fraction, ...], ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    quasi: tuple[tuple[Fraction, ...], ...] | None = field(default=None, compare=False, repr=False)
    similarity: tuple[tuple[Fraction, ...], ...] | None = field(default=None, compare=False,
                                                                 repr=False)

    @property
    def n(self) -> int:
        return len(self.W)

    def record(self) -> dict[str, Any]:
        out = {"W": _fmt(self.W), "alpha(W)": str(self.alpha), "beta0": str(self.beta0)}
        if self.V is not None:
            out["V"] = _fmt(self.V)
        return out


def _fmt(m: Any) -> str:
    return "[" + ", ".join("[" + ", ".join(str(x) for x in row) + "]" for row in m) + "]"


def hurwitz_instances(n_min: int = 1, n_max: int = 4, family: str = "all",
                      extras: Callable[[Any, int], Any] | None = None,
                      shift_up_to: Fraction | None = None) -> Any:
    """Hypothesis strategy over exact Hurwitz W of sizes n_min…n_max with their exact α(W).

    family ``all``: W = U T Uᵀ with T real quasi-upper-triangular (1×1 blocks −a, 2×2 blocks
    [[−a, ωr], [−ω/r, −a]], arbitrary strictly upper entries) and U = Cayley(S) orthogonal: every real
    matrix is orthogonally similar to such a T (real Schur form), and rational Cayley matrices are
    dense in SO(n), so this covers all Hurwitz W up to closure, non-normal and defective ones included.
    ``normal``: T block diagonal with r = 1. ``diagonalizable``: W = V B V⁻¹ with B normal and
    V = (unit lower)(unit upper). ``extras(draw, n)`` draws further parts of the instance.
    ``shift_up_to``: with probability ½ the whole spectrum is shifted right by s ∈ [0, shift_up_to]
    (W + sI), so the strategy also reaches the boundary of the Hurwitz matrices and beyond (to
    show that a hypothesis on α(W) is needed). Pools shrink towards 0, 1, −1, 1/2, …
    (checks/strategies.py).
    """
    return _hurwitz_build()(n_min, n_max, family, extras, shift_up_to)


@functools.cache
def _hurwitz_build() -> Any:
    """The composite strategy of :func:`hurwitz_instances` (its arguments as the composite's),
    defined once per process: ``st.composite`` parses the defining module's source on every
    definition (~20 ms here), which the ~40 calls of a ``verify --paper W`` each paid when it was
    defined inside hurwitz_instances; the body, and so every draw, is the same."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    neg = fractions_in(Fraction(1, 4), Fraction(2))
    off = fractions_in(Fraction(-2), Fraction(2))
    unit = fractions_in(Fraction(-1), Fraction(1))
    ratio = st.sampled_from([Fraction(1), Fraction(2), Fraction(1, 2), Fraction(4), Fraction(1, 4)])
    frac = fractions_in(Fraction(1, 4), Fraction(1))

    @st.composite
    def build(draw: Any, n_min: int, n_max: int, family: str,
              extras: Callable[[Any, int], Any] | None,
              shift_up_to: Fraction | None) -> HurwitzInstance:
        from recmem.numerics.lyapunov import fmpq_matrix, fractions, identity

        # The layout of the largest size N is drawn first, top-left to bottom-right, and the size n
        # last; the instance is the trailing n×n part. Shrinking prefers small early choices, so
        # nonzero entries drift to the bottom-right and n can then shrink without losing them.
        big = n_max
        spec: list[tuple[Fraction, ...]] = []
        i = 0
        while i < big:
            if i + 1 < big and draw(st.booleans()):
                r = Fraction(1) if family != "all" else draw(ratio)
                spec.append((-draw(neg), draw(neg), r))
                i += 2
            else:
                spec.append((-draw(neg),))
                i += 1
        heads, pos = [], 0
        for b in spec:
            heads.append(pos)
            pos += 2 if len(b) == 3 else 1
        inside = {(h, h + 1) for h, b in zip(heads, spec, strict=True) if len(b) == 3}
        uppers = {(r_, c_): draw(off) for r_ in range(big) for c_ in range(r_ + 1, big)
                  if (r_, c_) not in inside} if family == "all" else {}
        pairs = {(r_, c_): draw(unit) / 2 for r_ in range(big) for c_ in range(r_ + 1, big)}
        pairs2 = {(r_, c_): draw(unit) / 2 for r_ in range(big) for c_ in range(r_ + 1, big)} \
            if family == "diagonalizable" else {}
        n = draw(st.integers(n_min, n_max))
        cut = big - n
        # the trailing blocks; a 2×2 block cut in half leaves its lower diagonal entry as 1×1
        blocks: list[tuple[Fraction, ...]] = []
        for h, b in zip(heads, spec, strict=True):
            if h >= cut:
                blocks.append(b)
            elif len(b) == 3 and h + 1 == cut:
                blocks.append((b[0],))
        alpha = max(b[0] for b in blocks)
        t = _block_matrix(blocks, n, normal=family != "all")
        for (r_, c_), x in uppers.items():
            if r_ >= cut:
                t[r_ - cut, c_ - cut] = _fq(x)
        v = None
        if family in ("all", "normal"):
            skew = [[Fraction(0)] * n for _ in range(n)]
            for (r_, c_), x in pairs.items():
                if r_ >= cut:
                    skew[r_ - cut][c_ - cut], skew[c_ - cut][r_ - cut] = x, -x
            u = cayley(skew)
            w = u * t * u.transpose()
            v = u if family == "normal" else None
        else:
            lo, up = identity(n), identity(n)
            for (r_, c_), x in pairs.items():
                if r_ >= cut:
                    lo[c_ - cut, r_ - cut] = _fq(x)
                    up[r_ - cut, c_ - cut] = _fq(pairs2[(r_, c_)])
            v = lo * up
            w = v * t * v.inv()
        f = draw(frac)
        shift = Fraction(0)
        if shift_up_to is not None and draw(st.booleans()):
            shift = draw(fractions_in(Fraction(0), shift_up_to))
        if shift:
            t = t + identity(n) * _fq(shift)
            w = w + identity(n) * _fq(shift)
            alpha += shift
        ex = extras(draw, n) if extras is not None else {}
        sim = u if family in ("all", "normal") else v
        return HurwitzInstance(tuple(map(tuple, fractions(w))), alpha,
                               -alpha * f if alpha < 0 else Fraction(0),
                               None if v is None else tuple(map(tuple, fractions(fmpq_matrix(v)))),
                               ex, tuple(map(tuple, fractions(t))),
                               tuple(map(tuple, fractions(sim))))

    return build


def directions(draw: Any, n: int) -> dict[str, Any]:
    """A nonzero rational direction d ∈ ℚⁿ (the ``v`` of Lemma A.9 up to scale)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    d = draw(st.lists(fractions_in(Fraction(-2), Fraction(2)), min_size=n, max_size=n))
    if not any(d):  # no filter: the simplest draw stays valid, so the search tries it first
        d[-1] = Fraction(1)
    return {"d": tuple(d)}


# ---- exact decisions over ℚ ---------------------------------------------------------------

def charpoly_psd(m: Any) -> bool:
    """Whether the symmetric rational M is positive semidefinite, exactly: det(tI − M) = Σ c_k t^k
    has real roots, and they are all ≥ 0 iff (−1)^(n−k) c_k ≥ 0 for every k (Descartes)."""
    coeffs = [Fraction(int(c.p), int(c.q)) for c in m.charpoly().coeffs()]  # c_0 … c_n
    n = len(coeffs) - 1
    return all((-1) ** (n - k) * c >= 0 for k, c in enumerate(coeffs))


def charpoly_pd(m: Any) -> bool:
    """Whether the symmetric rational M is positive definite, exactly (PSD and det M ≠ 0)."""
    return charpoly_psd(m) and m.det() != 0


def rational_vector(x: Any, bits: int = 40) -> list[Fraction]:
    """A float vector rounded to dyadic rationals (exact inputs for Rayleigh quotients)."""
    return [Fraction(round(float(v) * 2 ** bits), 2 ** bits) for v in x]


def rayleigh(m: Any, v: list[Fraction]) -> Fraction:
    """vᵀ M v / vᵀ v over ℚ."""
    n = len(v)
    num = sum((v[i] * Fraction(int(m[i, j].p), int(m[i, j].q)) * v[j]
               for i in range(n) for j in range(n)), Fraction(0))
    return num / sum((x * x for x in v), Fraction(0))


def top_eigvec(m: Any) -> list[Fraction]:
    """A rational approximation of the top eigenvector of the symmetric rational M."""
    import numpy as np

    from recmem.numerics.lyapunov import to_float64

    a = to_float64(m)
    _, vecs = np.linalg.eigh((a + a.T) / 2)
    v = rational_vector(vecs[:, -1] / np.max(np.abs(vecs[:, -1])))
    return v if any(v) else [Fraction(1)] + [Fraction(0)] * (len(v) - 1)


def lmax_lower(m: Any) -> Fraction:
    """A rational lower bound of λ_max(M) (M symmetric rational): the best Rayleigh quotient of
    the basis vectors and the rationalised top eigenvector."""
    n = m.nrows()
    cands = [top_eigvec(m)] + [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    return max(rayleigh(m, v) for v in cands)


def lmax_upper(m: Any) -> Fraction | None:
    """A rational upper bound u ≥ λ_max(M) certified by uI − M ⪰ 0 (exact), or None."""
    from recmem.numerics.lyapunov import identity

    lo = lmax_lower(m)
    n = m.nrows()
    for k in (40, 30, 20, 10, 4):
        u = lo + abs(lo) * Fraction(1, 2 ** k) + Fraction(1, 2 ** (k + 20))
        if charpoly_psd(identity(n) * _fq(u) - m):
            return u
    return None


def inverse_gram(v: Any) -> Any:
    """(VᵀV)⁻¹ over ℚ."""
    g = v.transpose() * v
    return g.inv()


def local_q(w: Any, p: Any, d: tuple[Fraction, ...]) -> Fraction:
    """q(d) = dᵀ(Wᵀ Diag(d)² P + P Diag(d)² W)d = 2 (Pd)ᵀ Diag(d)² (Wd) over ℚ (Lemma A.9 of W)."""
    n = len(d)
    wf = [[Fraction(int(w[i, j].p), int(w[i, j].q)) for j in range(n)] for i in range(n)]
    pf = [[Fraction(int(p[i, j].p), int(p[i, j].q)) for j in range(n)] for i in range(n)]
    from recmem.theory.lyapunov import quartic

    wd = [sum((wf[i][j] * d[j] for j in range(n)), Fraction(0)) for i in range(n)]
    pd = [sum((pf[i][j] * d[j] for j in range(n)), Fraction(0)) for i in range(n)]
    return Fraction(quartic(pd, wd, d, Fraction(0)))


def candidate_directions(w: Any, p: Any, d: tuple[Fraction, ...], *, lattice: bool = False,
                         samples: int = 64, seed: int = 0) -> list[tuple[Fraction, ...]]:
    """Directions to test Lemma A.9 of W along: the drawn d, the basis, the float maximiser of |q(u)|
    over ``samples`` seeded unit vectors (rationalised) and, with ``lattice``, small integer
    directions (entries up to 3 in absolute value for n ≤ 3, up to 1 beyond), simplest first so
    shrunk counterexamples read simply. A search heuristic: every candidate is judged exactly."""
    import itertools

    import numpy as np

    n = len(d)
    out = [tuple(d)]
    out += [tuple(Fraction(int(i == j)) for j in range(n)) for i in range(n)]
    if lattice:
        r = 3 if n <= 3 else 1
        pts = [c for c in itertools.product(range(-r, r + 1), repeat=n) if any(c)]
        pts.sort(key=lambda c: (max(map(abs, c)), sum(map(abs, c)), c))
        out += [tuple(Fraction(x) for x in c) for c in pts]
    rng = np.random.default_rng(seed)
    u = rng.standard_normal((samples, n))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    q = float_ratios(w, p, u)
    best = rational_vector(u[int(np.argmax(q))], bits=12)
    if any(best):
        out.append(tuple(best))
    return out


def float_ratios(w: Any, p: Any, dirs: Any) -> Any:
    """|q(d)|/|d|₂⁴ in float64 for each row d of ``dirs`` (a screen before exact decisions)."""
    import numpy as np

    from recmem.numerics.lyapunov import to_float64
    from recmem.theory.lyapunov import quartic

    u = np.array([[float(x) for x in row] for row in dirs], dtype=np.float64)
    wf, pf = to_float64(w), to_float64(p)
    q = quartic((u @ pf.T).T, (u @ wf.T).T, u.T)  # rows: one direction each
    return np.abs(q) / (u ** 2).sum(axis=1) ** 2


def rational_scale(lo: Fraction, hi: Fraction) -> Fraction | None:
    """A rational s > 0 with lo < s² ≤ hi (None if lo ≥ hi)."""
    import math

    if lo >= hi or hi <= 0:
        return None
    for k in range(4, 200, 4):
        s = Fraction(math.isqrt(int(hi * 4 ** k)), 2 ** k)  # s² ≤ hi
        if s * s > lo:
            return s
    return None


# ---- per-arithmetic spectral quantities -------------------------------------------------------

def hp(bits: int) -> Any:
    """A private mpmath context with 64 guard bits beyond ``bits`` (the global one is never used:
    it would round every high-precision value to 53 bits); one per precision, shared
    (:func:`recmem.numerics.certified.fixed_context`: making one costs ~1 ms, and the numeric
    sides asked for thousands per run), so its precision is never changed."""
    return fixed_context(max(bits, 53) + 64)


@dataclass(frozen=True)
class Value:
    """A real quantity computed in one arithmetic as an interval [lo, hi]: certified (outward-rounded
    ends of a ball) or a point value (lo = hi) whose error the caller's tolerance covers. The ends are
    mpmath numbers of any context, kept exactly; arithmetic on them runs in :func:`hp` contexts."""

    lo: Any
    hi: Any
    certified: bool
    bits: int

    @staticmethod
    def point(x: Any, bits: int) -> Value:
        return Value(x, x, False, bits)

    @staticmethod
    def exact(q: Fraction, bits: int) -> Value:
        """A certified enclosure of the rational q (a Fraction, int, fmpq or SymPy Rational;
        ends rounded outwards)."""
        from recmem.numerics.certified import enclose

        exact = Fraction(int(q.numerator), int(q.denominator))
        return Value(*enclose(lambda x: x, exact, bits=bits), True, bits)

    @property
    def mid(self) -> Any:
        ctx = hp(self.bits)
        return (ctx.mpf(self.lo) + ctx.mpf(self.hi)) / 2

    @property
    def rad(self) -> Any:
        ctx = hp(self.bits)
        return (ctx.mpf(self.hi) - ctx.mpf(self.lo)) / 2

    def scale(self, q: Fraction) -> Value:
        """q·[lo, hi] for a rational q > 0 (outward when certified)."""
        if self.certified:
            return self._outward(lambda x: x * q, self.lo)
        ctx = hp(self.bits)
        f = ctx.mpf(q.numerator) / q.denominator
        return Value(ctx.mpf(self.lo) * f, ctx.mpf(self.hi) * f, False, self.bits)

    def square(self) -> Value:
        """[lo², hi²] for 0 ≤ lo (outward when certified)."""
        if self.certified:
            return self._outward(lambda x: x * x, self.lo)
        ctx = hp(self.bits)
        return Value(ctx.mpf(self.lo) ** 2, ctx.mpf(self.hi) ** 2, False, self.bits)

    def sqrt(self) -> Value:
        """[√max(lo, 0), √hi] (outward when certified): e.g. ‖A‖₂ from a bracket of λ_max(AᵀA)."""
        if self.certified:
            return self._outward(lambda x: x.ctx.sqrt(x), max(self.lo, 0))
        ctx = hp(self.bits)
        return Value(ctx.sqrt(max(ctx.mpf(self.lo), ctx.mpf(0))), ctx.sqrt(ctx.mpf(self.hi)), False,
                     self.bits)

    def _outward(self, f: Any, lo: Any) -> Value:
        """[f(lo), f(hi)] for f increasing, a certified Value: the ends rounded outwards
        (``numerics.certified.enclose``; rounded to nearest an end could move inwards)."""
        from recmem.numerics.certified import enclose

        return Value(enclose(f, lo, bits=self.bits)[0], enclose(f, self.hi, bits=self.bits)[1],
                     True, self.bits)

    def __str__(self) -> str:
        tag = "ball" if self.certified else "±"
        return f"{mpmath.nstr(self.mid, 8)} ({tag} {mpmath.nstr(self.rad, 2)}, {self.bits} bits)"


MP64 = mpmath.MPContext()
MP64.prec = 64


def ball_value(x: Any, bits: int) -> Value:
    """A flint ``arb`` as a :class:`Value` (outward-rounded ends)."""
    from recmem.numerics.certified import arb_ends

    lo, hi = arb_ends(x, bits)
    return Value(lo, hi, True, bits)


def lmax(p: Any, kind: str, bits: int) -> Value:
    """λ_max of a computed symmetric P: a certified ball (flint: eigenvalue enclosures of every
    matrix in the ball, Rump), or a point value with radius 0 (the caller adds its tolerance)."""
    if kind == "flint":
        lo, hi = symmetric_extreme(p, bits, largest=True)
        return Value(lo, hi, True, bits)
    return Value.point(max(_point_eigs(p, kind, bits)), bits)


def _point_eigs(p: Any, kind: str, bits: int) -> list[Any]:
    if kind == "mpmath":
        ctx = fixed_context(bits)
        pm = ctx.matrix(p)
        sym = (pm + pm.T) / 2
        return list(ctx.eigsy(sym, eigvals_only=True))  # kept in ctx: no rounding to 53 bits
    if kind == "torch":
        import torch

        t = p if p.ndim == 2 else p[0]
        return [mpmath.mpf(float(x)) for x in torch.linalg.eigvalsh((t + t.T) / 2).cpu()]
    import numpy as np

    a = np.asarray(p, dtype=np.float64)
    return [mpmath.mpf(float(x)) for x in np.linalg.eigvalsh((a + a.T) / 2)]


def lmin(p: Any, kind: str, bits: int) -> Value:
    """λ_min of a computed symmetric P (see :func:`lmax`)."""
    if kind == "flint":
        lo, hi = symmetric_extreme(p, bits, largest=False)
        return Value(lo, hi, True, bits)
    return Value.point(min(_point_eigs(p, kind, bits)), bits)


def kappa_v(v: Any, kind: str, bits: int, device: str = "cpu") -> Value:
    """κ₂(V) of an exact V in one arithmetic (certified bracket in flint)."""
    if kind == "flint":
        import flint

        from recmem.numerics.certified import kappa2

        kb = kappa2(lambda b: flint.acb_mat(flint.arb_mat(v)), start_bits=bits)
        return Value(kb.lo, kb.hi, True, kb.bits)
    from recmem.numerics.lyapunov import to_float64, to_mp

    if kind == "mpmath":
        ctx = fixed_context(bits)
        s = ctx.svd_r(to_mp(v, ctx), compute_uv=False)
        return Value.point(max(s) / min(s), bits)
    if kind == "torch":
        import torch

        t = torch.as_tensor(to_float64(v), dtype=torch.float64, device=device)
        return Value.point(mpmath.mpf(float(torch.linalg.cond(t))), 53)
    import numpy as np

    return Value.point(mpmath.mpf(float(np.linalg.cond(to_float64(v)))), 53)


def solve_in(backend: AbstractBackend, w: Any, q: Any = None) -> Any:
    """P in ``backend``'s arithmetic (native matrix, one P; torch returns a 2-D tensor).

    The solve reads only W, Q and the arithmetic, so it runs once per run (:data:`_SOLVES`): the
    statement, each control and the other Lyapunov claims that test the same W read that P (a
    fresh copy each, so no reader can change another's). Keyed by the backend (kind, precision,
    dtype, device), the exact W and Q and the solver routines themselves, so a replaced routine
    (a test's planted slip) solves afresh; every reader still judges its P by its own oracle."""
    from recmem.numerics import lyapunov as ly

    key = (str(backend.spec), backend.name, tuple(map(tuple, ly.fractions(ly.fmpq_matrix(w)))),
           None if q is None else tuple(map(tuple, ly.fractions(ly.fmpq_matrix(q)))),
           ly.solve, ly.exact, ly.kronecker_mpmath, ly.kronecker_flint, ly.bartels_stewart,
           ly.sign_newton, ly.refine)
    if key not in _SOLVES:
        sol = ly.solve(w, q, backend)
        if len(_SOLVES) >= 1024:
            _SOLVES.pop(next(iter(_SOLVES)))
        _SOLVES[key] = sol.P[0] if backend.spec.kind == "torch" else sol.P
    return _copy(_SOLVES[key])


_SOLVES: dict[tuple[Any, ...], Any] = {}


def _copy(p: Any) -> Any:
    """A copy of a solved P (numpy, torch, mpmath matrix, flint matrix), equal entry by entry."""
    import flint

    if hasattr(p, "detach"):
        return p.clone()
    if isinstance(p, flint.arb_mat):
        return flint.arb_mat(p)
    if isinstance(p, flint.fmpq_mat):
        return flint.fmpq_mat(p)
    return p.copy()


# ---- run-time oracles of every P a claim reads (issue 19) ------------------------------------
#
# A P that a check reads is judged first by its own residual against the equation it claims to
# solve (numerics.lyapunov.residual_oracle), recomputed here from the P actually read and the
# claim's exact W, Q — never taken from the solver's own statement, so a slip anywhere between
# the solver and the check shows. A P that fails it makes the check FAILED (a float residual
# beyond c·m·u) or ERROR (an exact or ball answer that fails: an internal inconsistency of
# recmem), never PASS and never a refutation of the paper. Where two arithmetics compute the same
# P in one run, :func:`compare_routes` compares them (ctx.shared).

class OracleFailure(InternalInconsistency):
    """An exact P that fails its oracle (a bug of recmem: the check reports ERROR). One mechanism
    with the certified routines' run-time oracles (``numerics.certified_oracles``)."""


def oracle_of(backend: AbstractBackend, w: Any, p: Any, q: Any = None) -> Any:
    """The oracle (:class:`~recmem.numerics.lyapunov.Residual`) of a P solved for WᵀP + PW = −Q
    (W App. A.9 eq. (48)) in ``backend``: exact over ℚ, a ball containing 0 in flint, else
    ρ ≤ c·m·u with u of the arithmetic and m = n² for mpmath (LU on the Kronecker system), n for
    numpy (Bartels–Stewart) and torch (sign-Newton)."""
    import flint

    from recmem.numerics import lyapunov as ly

    if isinstance(p, flint.fmpq_mat):
        return ly.residual_oracle(w, q, p)
    n = int(ly.fmpq_matrix(w).nrows())
    if backend.encloses:
        return ly.residual_oracle(w, q, p, bits=backend.precision_bits + 64)
    m = n * n if backend.spec.kind == "mpmath" else n
    return ly.residual_oracle(w, q, p, unit_roundoff=backend.unit_roundoff, scale=m)


def exact_p(w: Any, q: Any = None) -> Any:
    """The exact P of WᵀP + PW = −Q over ℚ (``fmpq_mat``), checked by its oracle (R = 0 exactly);
    :class:`OracleFailure` (ERROR evidence) otherwise."""
    from recmem.numerics import lyapunov as ly

    p = ly.exact(w, q).P
    orc = ly.residual_oracle(w, q, p)
    if not orc.ok:
        raise OracleFailure(f"the exact Lyapunov solver's P fails its oracle: {orc.text} "
                            f"(relative residual {mpmath.nstr(orc.value, 3)}): a bug of recmem")
    return p


def with_oracle(ev: Evidence, orc: Any, what: str = "P") -> Evidence:
    """``ev`` with the oracle of the P it read recorded in its data; a failed oracle turns it into
    FAIL (point arithmetic) or ERROR (exact/ball: an internal inconsistency), with the residual
    shown, and drops any counterexample (nothing computed from that P refutes anything)."""
    data = {**ev.data, **orc.record()}
    if orc.ok:
        return replace(ev, data=data)
    outcome = Outcome.ERROR if orc.certified else Outcome.FAIL
    why = (f"{what} fails its oracle: {orc.text}; relative residual {mpmath.nstr(orc.value, 3)}"
           + (f" > tolerance {mpmath.nstr(orc.tolerance, 3)}" if orc.tolerance else "")
           + (" (an internal inconsistency of recmem, not a finding about the paper)"
              if orc.certified else " (the check's value rests on it, so it decides nothing)"))
    return replace(ev, outcome=outcome, data=data, counterexample=None, certified_by=None,
                   message=f"{why}; {ev.message}" if ev.message else why)


def _as_arb(p: Any, bits: int) -> Any:
    """A computed P as an ``arb_mat`` (balls as they are, points exactly)."""
    import flint

    from recmem.numerics.lyapunov import _point_to_arb

    if hasattr(p, "detach") and p.ndim == 3:
        p = p[0]
    with flint.ctx.workprec(bits):
        return flint.arb_mat(p) if isinstance(p, flint.fmpq_mat) else _point_to_arb(p)


ROUTE_BITS = 1024  # the comparison runs here: beyond every arithmetic offered (flint/mpmath ≤ 512)


def compare_routes(ctx: Context, key: Any, route: str, p: Any, error: mpmath.mpf,
                   check: str, backend: str) -> tuple[dict[str, str], Evidence | None]:
    """Compare the P computed by ``route`` (an arithmetic's name) with every other route's P for
    the same object ``key`` computed earlier in this run (kept in ``ctx.shared``: the object does
    not depend on the statement). ``error``: the route's bound on ‖P̂ − P‖_F (0 for balls, whose
    radii enter the comparison, and exact answers).

    Returns (data for the check: the routes it agrees with, their distances), and an ERROR
    evidence naming both values when ‖P̂₁ − P̂₂‖_F exceeds both bounds (balls: the lower end of the
    distance of the two enclosures) — never averaged away."""
    import flint

    from recmem.numerics.flint_backend import arb_to_mpf

    store = ctx.shared.setdefault(("lyapunov routes", key), {})
    mine = _as_arb(p, ROUTE_BITS)
    data: dict[str, str] = {}
    bad = None
    for other, (q, err2) in store.items():
        if other == route:
            continue
        with flint.ctx.workprec(ROUTE_BITS):
            d = mine - q
        # the lower end of ‖ΔP‖_F over the balls: Σ max(|mid| − rad, 0)², rounded down (64 bits)
        lows = [max(abs(arb_to_mpf(e.mid(), MP64)) - arb_to_mpf(e.rad(), MP64) * (1 + MP64.eps),
                    MP64.mpf(0)) for e in d.entries()]
        dist_lo = mpmath.mpf(MP64.sqrt(MP64.fsum(x * x for x in lows)) * (1 - 4 * MP64.eps))
        bound = mpmath.mpf(error) + mpmath.mpf(err2)
        data[f"P agrees with {other}"] = (f"‖ΔP‖_F ≥ {mpmath.nstr(dist_lo, 3)} vs bound "
                                          f"{mpmath.nstr(bound, 3)}: "
                                          + ("yes" if dist_lo <= bound else "NO"))
        if dist_lo > bound and bad is None:
            bad = Evidence(check=f"routes agree on P ({check})", kind="numeric", backend=backend,
                           outcome=Outcome.ERROR,
                           message=(f"{route} and {other} computed the same P and disagree beyond "
                                    f"both error bounds: ‖P({route}) − P({other})‖_F ≥ "
                                    f"{mpmath.nstr(dist_lo, 4)} > {mpmath.nstr(bound, 3)} (an "
                                    "internal inconsistency of recmem)"),
                           residual=mpmath.nstr(dist_lo, 3), tolerance=mpmath.nstr(bound, 3),
                           tolerance_source="the sum of both routes' error bounds",
                           data={f"P ({route})": _short(mine), f"P ({other})": _short(q)})
    store.setdefault(route, (mine, mpmath.mpf(error)))
    return data, bad


def _short(m: Any) -> str:
    """An ``arb_mat``'s midpoints to 8 digits."""
    from recmem.numerics.flint_backend import arb_to_mpf

    return "[" + ", ".join("[" + ", ".join(mpmath.nstr(arb_to_mpf(m[i, j].mid(), MP64), 8)
                                           for j in range(m.ncols())) + "]"
                           for i in range(m.nrows())) + "]"


# ---- evidence -------------------------------------------------------------------------------

Recompute = Callable[[AbstractBackend], "tuple[Value, Fraction | Value] | None"]


def certify_in_balls(bits: int) -> AbstractBackend:
    """The flint backend that certifies a point arithmetic's violation: ball arithmetic at
    max(2·bits, 128) bits (a violation that merely "stays put" as the precision rises is a
    heuristic, not a certificate)."""
    return make_backend(BackendSpec("flint", bits=max(2 * bits, 128)))


def compare(check: str, backend: AbstractBackend, value: Value, bound: Fraction | Value, *,
            relation: str, tol_abs: mpmath.mpf, tol_text: str, kappa_text: str | None = None,
            recompute: Recompute | None = None, t0: float | None = None,
            data: dict[str, Any] | None = None, counterexample: dict[str, Any] | None = None
            ) -> Evidence:
    """Evidence that ``value`` ≤ ``bound`` (relation "le") or = ``bound`` (relation "eq").

    Ball arithmetic: disjoint balls refute (certified), separated or narrow containing balls pass,
    overlapping wide balls are inconclusive. Point arithmetic: the claimed relation must hold up to
    ``tol_abs`` (from c·n·κ·u); a violation beyond it is a FAIL, except in mpmath where
    ``recompute(flint backend)`` recomputes (value, bound) in ball arithmetic
    (:func:`certify_in_balls`): separated enclosures make it a certified REFUTE; anything else
    (overlap, or None: the recomputation's own oracle failed) leaves it a FAIL. A tolerance beyond
    half the bound is INCONCLUSIVE.
    """
    t0 = time.perf_counter() if t0 is None else t0
    b = bound if isinstance(bound, Value) else Value.exact(bound, value.bits)
    ctx = hp(max(value.bits, b.bits))
    excess = ctx.mpf(value.mid) - ctx.mpf(b.mid)
    # ERROR until a path below sets the outcome it earned (a path that forgot is a visible bug)
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.ERROR,
                    precision_bits=value.bits, condition_number=kappa_text,
                    residual=tol.fmt(excess), tolerance=tol.fmt(tol_abs),
                    tolerance_source=tol_text, counterexample=None,
                    data={"value": str(value), "bound": str(b), **(data or {})})
    if value.certified and backend.encloses:
        base = replace(base, enclosure=f"value ∈ [{mpmath.nstr(value.lo, 10)}, "
                                       f"{mpmath.nstr(value.hi, 10)}], bound ∈ "
                                       f"[{mpmath.nstr(b.lo, 10)}, {mpmath.nstr(b.hi, 10)}]")
        if relation == "le":
            if value.lo > b.hi:
                return replace(base, outcome=Outcome.REFUTE, counterexample=counterexample,
                               certified_by="ball arithmetic: the value's enclosure lies above the "
                                            "bound's", seconds=time.perf_counter() - t0)
            outcome = Outcome.PASS if value.hi <= b.lo else Outcome.INCONCLUSIVE
            return replace(base, outcome=outcome, seconds=time.perf_counter() - t0)
        if value.lo > b.hi or b.lo > value.hi:
            return replace(base, outcome=Outcome.REFUTE, counterexample=counterexample,
                           certified_by="ball arithmetic: the enclosures are disjoint",
                           seconds=time.perf_counter() - t0)
        width = max(value.rad, b.rad) / max(abs(ctx.mpf(b.mid)), ctx.ldexp(1, -value.bits))
        limit = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(value.bits // 4))
        outcome = Outcome.PASS if width <= limit else Outcome.INCONCLUSIVE
        return replace(base, outcome=outcome, seconds=time.perf_counter() - t0)
    scale = abs(ctx.mpf(b.mid))
    if scale > 0 and tol_abs >= scale / 2:
        return replace(base, outcome=Outcome.INCONCLUSIVE, message="tolerance ≥ half the bound",
                       seconds=time.perf_counter() - t0)
    violated = excess > tol_abs if relation == "le" else abs(excess) > tol_abs
    if not violated:
        return replace(base, outcome=Outcome.PASS, seconds=time.perf_counter() - t0)
    note = "not certified in this arithmetic"
    if recompute is not None and backend.spec.kind == "mpmath":
        fb = certify_in_balls(value.bits)
        try:
            with fb.activate():
                again = recompute(fb)
        except (ValueError, ArithmeticError) as exc:  # a recomputation that raised certifies nothing
            again, note = None, f"the ball recomputation (flint@{fb.precision_bits}) raised {exc}"
        else:
            note = f"the ball recomputation (flint@{fb.precision_bits}) failed its own oracle"
        if again is not None:
            v2, bound2 = again
            b2 = bound2 if isinstance(bound2, Value) else Value.exact(bound2, v2.bits)
            apart = v2.lo > b2.hi if relation == "le" else (v2.lo > b2.hi or b2.lo > v2.hi)
            if v2.certified and b2.certified and apart:
                return replace(base, outcome=Outcome.REFUTE, counterexample=counterexample,
                               certified_by=(f"ball arithmetic (recomputed in "
                                             f"flint@{fb.precision_bits}): the value's enclosure "
                                             f"[{mpmath.nstr(v2.lo, 10)}, {mpmath.nstr(v2.hi, 10)}] "
                                             + ("lies above" if relation == "le" else
                                                "is disjoint from")
                                             + f" the bound's [{mpmath.nstr(b2.lo, 10)}, "
                                               f"{mpmath.nstr(b2.hi, 10)}]"),
                               seconds=time.perf_counter() - t0)
            note = f"the ball recomputation (flint@{fb.precision_bits}) does not separate them"
    return replace(base, outcome=Outcome.FAIL, counterexample=counterexample,
                   message=f"violation {mpmath.nstr(excess, 4)} exceeds the tolerance "
                           f"{mpmath.nstr(tol_abs, 3)} ({note})",
                   seconds=time.perf_counter() - t0)


def proof_time(fn: Callable[[], Any]) -> tuple[Any, float]:
    """(fn(), seconds)."""
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


# ---- the witness sequence W_m = −I_m + 2N_m (W.lyapunov-bound.uniform, W.lyapunov-local) ---------
#
# Both sequence claims are refuted by the symbolic side alone, from closed forms derived there
# (theory.lyapunov.superdiagonal_disproof). The numeric sides confirm that witness in each
# arithmetic, computed independently from its definition: P_m is the integral ∫₀^∞ e^{W_mᵀt}e^{W_mt}dt
# (eq. (78), i.e. (49) with Q = I), evaluated by numerics.lyapunov's quadrature + doubling (point
# arithmetics) or its certified enclosure (flint), never by a Lyapunov solver.

@dataclass(frozen=True)
class SequenceTerm:
    """P_m = ∫₀^∞ e^{W_mᵀt}e^{W_mt}dt for one W_m of the witness sequence, in one arithmetic.

    ``P``: the native matrix (mpmath, flint ``arb_mat``, numpy, torch) or None when the doubling did
    not converge (``status``); ``arith``: the :class:`~recmem.numerics.lyapunov.PointArithmetic`
    it ran in (None for flint balls); ``rel_tol``: the relative tolerance of (P_m)_mm (and of any
    quantity linear in it), c·(a + m + 8)·u·‖P̂‖_F/|(P̂)_mm| with a the doubling's error growth
    (:class:`~recmem.numerics.lyapunov.IntegralResult`), u of the arithmetic that ran (0 for balls).
    """

    m: int
    W: list[list[Fraction]]
    P: Any
    status: str
    text: str
    arith: Any
    bits: int
    rel_tol: mpmath.mpf
    residual: Any = None  # the integral's oracle (numerics.lyapunov.Residual), None if diverged
    routes: dict[str, str] = field(default_factory=dict)  # agreement with other arithmetics
    disagreement: Evidence | None = None  # ERROR evidence when another arithmetic disagrees

    @property
    def alpha(self) -> Fraction:
        """The exact spectral abscissa of the triangular W_m: its largest diagonal entry."""
        return max(self.W[i][i] for i in range(self.m))

    @property
    def max_entry(self) -> Fraction:
        """max_ij |(W_m)_ij| (the M₀ of (87))."""
        return max(abs(x) for row in self.W for x in row)


def sequence_term(backend: AbstractBackend, m: int, bits: int | None = None) -> SequenceTerm:
    """P_m of the witness W_m = −I_m + 2N_m from its integral in ``backend``'s arithmetic (at
    ``bits`` for mpmath/flint when given), uncached."""
    from recmem.numerics import lyapunov as ly
    from recmem.theory.lyapunov import LyapunovIntegral, superdiagonal

    w = [[Fraction(x) for x in row] for row in superdiagonal(m)]
    integrand = LyapunovIntegral()  # e^{Wᵀt} Q e^{Wt}, here with Q = I (eq. (78))
    wq, eye = ly.fmpq_matrix(w), ly.identity(m)
    kind = backend.spec.kind
    if kind == "flint":
        b = bits or backend.precision_bits
        res = ly.integral_enclosure(wq, eye, integrand.congruence, bits=b)
        # the oracle recomputed from the P read here (never the route's own statement)
        orc = None if res.P is None else ly.residual_oracle(
            wq, eye, res.P, congruence=integrand.congruence, bits=b + 64, what="L_C(P) + X")
        return SequenceTerm(m, w, res.P, res.status, res.text, None, b, mpmath.mpf(0), orc)
    arith = ly.PointArithmetic(kind, bits=bits or backend.precision_bits,
                               dtype=backend.spec.dtype or "float64",
                               device=backend.spec.device or "cpu")
    res = ly.integral_doubling(wq, eye, integrand.congruence, arith)
    rel = mpmath.inf
    if res.status == "converged":
        corner = abs(_native_scalar(res.P[m - 1, m - 1]))
        # |Δ(P)_mm| ≤ ‖ΔP‖_F ≲ c·(a + m + 8)·u·‖P̂‖_F (m + 8: the few roundings of the callers)
        rel = C_TOL * (res.amplification + m + 8) * arith.unit_roundoff * arith.fro(res.P) / corner \
            if corner > 0 else mpmath.inf
    orc = None if res.P is None else ly.residual_oracle(
        wq, eye, res.P, unit_roundoff=arith.unit_roundoff, scale=res.amplification + m,
        congruence=integrand.congruence, what="L_C(P) + X")
    return SequenceTerm(m, w, res.P, res.status, res.text, arith, arith.bits, mpmath.mpf(rel), orc)


# P_m of the witness per arithmetic, for the run: W.lyapunov-bound.uniform and W.lyapunov-local
# read the same P_m (the same W_m, integral and arithmetic: the same operations, the same values),
# so the second claim reads the first one's instead of integrating again. Keyed by the backend's
# name (kind, precision, dtype, device) and by the routines that compute and judge the term, so a
# replaced routine (a test's planted slip) computes afresh. The route comparisons and oracles are
# still made per claim (:func:`sequence_terms`, :func:`witness_evidence`).
_TERMS: dict[tuple[Any, ...], SequenceTerm] = {}


def _run_term(backend: AbstractBackend, m: int) -> SequenceTerm:
    from recmem.numerics import lyapunov as ly

    key = (backend.name, str(backend.spec), m, ly.integral_doubling, ly.integral_enclosure,
           ly.residual_oracle, sequence_term)
    if key not in _TERMS:
        if len(_TERMS) >= 256:
            _TERMS.pop(next(iter(_TERMS)))
        _TERMS[key] = sequence_term(backend, m)
    return _TERMS[key]


def sequence_terms(backend: AbstractBackend, ctx: Context, sizes: Any) -> list[SequenceTerm]:
    """:func:`sequence_term` for each m in ``sizes``, cached in ``ctx.shared`` (the witness does
    not depend on the statement, so the controls reuse it; the integral itself is computed once
    per run and arithmetic, :func:`_run_term`)."""
    out = []
    for m in sizes:
        key = ("superdiagonal integral", backend.name, m)
        if key not in ctx.shared:
            t = _run_term(backend, m)
            if t.P is not None and (t.residual is None or t.residual.ok):
                # the same P_m from the other arithmetics of this run: ‖ΔP‖_F within both bounds
                # (point: c·(a + m + 8)·u·‖P̂‖_F = rel_tol·|(P̂)_mm|; balls: their radii)
                err = mpmath.mpf(0) if t.arith is None else \
                    t.rel_tol * abs(_native_scalar(t.P[m - 1, m - 1]))
                routes, bad = compare_routes(ctx, ("superdiagonal", m), backend.name, t.P, err,
                                             f"P_{m} of the witness", backend.name)
                t = replace(t, routes=routes, disagreement=bad)
            ctx.shared[key] = t
        out.append(ctx.shared[key])
    return out


def _native_scalar(x: Any) -> mpmath.mpf:
    """A point scalar (mpmath, numpy, torch) as an mpmath number, exactly."""
    if isinstance(x, mpmath.ctx_mp_python.mpnumeric):
        return x
    return mpmath.mpf(float(x))


def term_value(term: SequenceTerm, x: Any) -> Value:
    """A scalar computed in ``term``'s arithmetic as a :class:`Value` (a ball for flint)."""
    if term.arith is None:
        return ball_value(x, term.bits)
    return Value.point(_native_scalar(x), term.bits)


def evaluate(term: SequenceTerm, v: list[Fraction],
             f: Callable[[Any, Any, Any, Callable[[Fraction], Any]], tuple[Any, ...]]
             ) -> list[Value]:
    """``f(Pv, Wv, v, conv)`` evaluated in ``term``'s arithmetic (P the computed integral, W and the
    exact v rounded into the arithmetic, ``conv`` rounds an exact rational into it, so that every
    operation runs there: a float32 computation stays in float32), its results as Values."""
    col = [[x] for x in v]
    if term.arith is None:
        import flint

        from recmem.numerics.lyapunov import fmpq_matrix

        with flint.ctx.workprec(term.bits):
            wa, va = flint.arb_mat(fmpq_matrix(term.W)), flint.arb_mat(fmpq_matrix(col))
            pv, wv = term.P * va, wa * va
            vals = f([pv[i, 0] for i in range(term.m)], [wv[i, 0] for i in range(term.m)],
                     [va[i, 0] for i in range(term.m)],
                     lambda x: flint.arb(flint.fmpq(x.numerator, x.denominator)))
            return [term_value(term, x) for x in vals]
    a = term.arith
    wm, vm = a.matrix(term.W), a.matrix(col)
    pv, wv = a.mul(term.P, vm), a.mul(wm, vm)
    conv: Callable[[Fraction], Any] = a.scalar
    if a.kind == "torch":
        conv = lambda x: a.torch.as_tensor(a.scalar(x), dtype=a.t_dtype, device=a.device)  # noqa: E731
    vals = f([pv[i, 0] for i in range(term.m)], [wv[i, 0] for i in range(term.m)],
             [vm[i, 0] for i in range(term.m)], conv)
    return [term_value(term, x) for x in vals]


@dataclass(frozen=True)
class Derived:
    """A quantity of the witness computed in one arithmetic (``value``) and its exact value derived
    by the symbolic side (``exact``), with the relative tolerance of the point value."""

    name: str
    value: Value
    exact: Fraction
    rel_tol: mpmath.mpf


def witness_evidence(check: str, backend: AbstractBackend, terms: list[SequenceTerm],
                     rows: list[Derived], signs: list[tuple[str, Value, mpmath.mpf]], *,
                     confirms: str, derived: str, t0: float) -> Evidence:
    """The witness of a sequence claim confirmed or contradicted in one arithmetic.

    Each row's computed value must agree with the derived exact value: a point value within the
    largest relative tolerance τ of the rows (residual = the largest relative deviation, tolerance
    = τ), a ball by containing it (residual = the largest relative midpoint deviation, tolerance =
    the largest relative radius). Each of ``signs`` (name, computed value, absolute tolerance) must
    be positive beyond its tolerance (a ball: its lower end > 0). A finite computation cannot decide
    a statement about every m, so a confirmation is INCONCLUSIVE (the symbolic side decides; the
    message names what was computed, ``confirms``, and the symbolic side's formula, ``derived``); a
    contradiction is a FAIL (the derivation of the refutation is then in doubt).
    """
    ms = [t.m for t in terms]
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.INCONCLUSIVE,
                    precision_bits=min(t.bits for t in terms), instances=len(rows),
                    message=terms[-1].text)
    bad = [t for t in terms if t.status != "converged"]
    if bad:
        return replace(base, message=f"the integral for m = {bad[0].m} did not converge in "
                                     f"{backend.name} ({bad[0].status}): {bad[0].text}",
                       seconds=time.perf_counter() - t0)
    failed = [t for t in terms if t.residual is not None and not t.residual.ok]
    if failed:
        return replace(with_oracle(base, failed[0].residual, f"the integral P_{failed[0].m}"),
                       seconds=time.perf_counter() - t0)
    split = [t for t in terms if t.disagreement is not None]
    if split:
        d = split[0].disagreement
        assert d is not None
        return replace(base, outcome=Outcome.ERROR, message=d.message, data=d.data,
                       seconds=time.perf_counter() - t0)
    ctx = hp(max(t.bits for t in terms))
    devs, data = [], {}
    for r in rows:
        ex = ctx.mpf(r.exact.numerator) / r.exact.denominator
        devs.append(abs(ctx.mpf(r.value.mid) - ex) / abs(ex))
        data[r.name] = f"{r.value} (derived {r.exact})"
    for name, val, _ in signs:
        data[name] = str(val)
    data[f"integral (m = {terms[-1].m})"] = terms[-1].text
    if terms[-1].residual is not None:
        data |= terms[-1].residual.record()
        data["P's residual"] = ", ".join(f"m = {t.m}: {mpmath.nstr(t.residual.value, 2)}"
                                         for t in terms if t.residual is not None)
    data |= {f"{k} (m = {terms[-1].m})": v for k, v in terms[-1].routes.items()}
    balls = all(t.arith is None for t in terms)
    if balls:
        agree = [not (r.value.lo > Value.exact(r.exact, r.value.bits).hi
                      or r.value.hi < Value.exact(r.exact, r.value.bits).lo) for r in rows]
        width = max(r.value.rad / abs(ctx.mpf(r.exact.numerator) / r.exact.denominator)
                    for r in rows)
        positive = [val.lo > 0 for _, val, _ in signs]
        src = "ball arithmetic: every derived value inside its computed enclosure"
        resolvable = True
    else:
        width = max(r.rel_tol for r in rows)
        agree = [d <= width for d in devs]
        positive = [ctx.mpf(val.mid) > t for _, val, t in signs]
        src = (f"τ = max over the rows of c·(a + m + 8)·u·‖P̂_m‖_F/|(P̂_m)_mm|, c={C_TOL}, "
               f"a the doubling's error growth (up to {mpmath.nstr(max(t.rel_tol for t in terms), 3)} "
               f"relative), u=2^-{min(t.bits for t in terms)}")
        resolvable = width < tol.RESOLVE_LIMIT
    base = replace(base, residual=tol.fmt(max(devs)), tolerance=tol.fmt(width),
                   tolerance_source=src, data=data,
                   enclosure="; ".join(f"{r.name} ∈ [{mpmath.nstr(r.value.lo, 12)}, "
                                       f"{mpmath.nstr(r.value.hi, 12)}]" for r in rows)
                   if balls else None)
    done = time.perf_counter() - t0
    if not resolvable:
        return replace(base, seconds=done, message=f"tolerance {tol.fmt(width)} ≥ 1/2: the "
                                                   f"witness is not resolvable in {backend.name}")
    if not all(agree):
        off = [r.name for r, ok in zip(rows, agree, strict=True) if not ok]
        return replace(base, outcome=Outcome.FAIL, seconds=done,
                       message=f"{backend.name} contradicts the derived witness at {', '.join(off)}: "
                               "the derivation of the refutation is in doubt")
    if not all(positive):
        off = [s[0] for s, ok in zip(signs, positive, strict=True) if not ok]
        return replace(base, seconds=done, message=f"the derived values agree, but "
                                                   f"{', '.join(off)} is not resolved in {backend.name}")
    return replace(base, seconds=done,
                   message=f"the witness sequence W_m = −I_m + 2N_m is confirmed to m = {max(ms)} in "
                           f"{backend.name}: the computed {confirms} agree with the symbolic side's "
                           f"{derived}: {', '.join(f'{r.name} = {r.exact}' for r in rows)}; "
                           "a finite computation cannot decide a statement about every m (the "
                           "symbolic side decides)")


# ---- sequences W_m (Lemmas A.8–A.9 read about sequences): a Hypothesis strategy ------------------

SEQUENCE_BAND = 3  # the largest band K of the Toeplitz tails drawn
GUIDE_INF = 1e9  # the search-guidance ratio of an unbounded quantity (Hypothesis needs a finite one)


@dataclass(frozen=True)
class SequenceInstance:
    """A drawn sequence W_m (theory.lyapunov_sequences.ToeplitzSequence) with β₀ = f × the largest
    value the statement's hypothesis admits (0 < f ≤ 1) and M₀ = m0_factor × sup_m max|W_m,ij|
    (factor ≥ 1; used where the statement names M₀)."""

    seq: Any  # ToeplitzSequence
    f: Fraction
    m0_factor: Fraction = Fraction(1)

    def record(self) -> dict[str, Any]:
        s = self.seq
        out = {"sequence": "W_m = H ⊕ T_(m−h)(m), T_k(m) = −a·I_k + Σ_j (c_j + d_j·m)·N_k^j",
               "a": str(s.a), "c": str([str(x) for x in s.c]),
               "d": str([str(x) for x in s.d]) if any(s.d) else "0 (entries bounded)",
               "sup_m alpha(W_m)": str(s.abscissa)}
        if s.h:
            out["H"] = _fmt(s.head)
        out["W_4"] = _fmt(s.W(4))
        return out


def toeplitz_sequences(head_max: int = 2, band: int = SEQUENCE_BAND) -> Any:
    """Hypothesis strategy over sequences W_m = H ⊕ T_{m−h}(m) (W App. A.10, Lemmas A.8–A.9 read
    about sequences; theory.lyapunov_sequences): tail −a·I + Σ_{j≤band} (c_j + d_j·m)N^j with
    c_j ∈ [−2, 2] (zeros allowed: normal tails, single Jordan blocks, wider bands), a ∈ [1/4, 2],
    a = Σ|c_j| (the boundary max Re φ ≤ 0 of the symbol φ, = 0 where the signs align) or
    a = Σ|c_j| + [1/4, 2] (max Re φ < 0: uniformly bounded P_m), d = 0 (bounded entries, eq. (87))
    two times out of three; half of the time a head H from
    :func:`hurwitz_instances` (1…head_max, every real Hurwitz family); β₀ = f × the largest value
    the hypothesis admits, f ∈ [1/4, 1]; M₀ = factor × the largest entry, factor ∈ {1, 3/2, 2}.
    Pools shrink towards 0, 1, −1, 1/2, …, so a shrunk counterexample reads like −I + N."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in
    from recmem.theory.lyapunov_sequences import ToeplitzSequence

    coef = fractions_in(Fraction(-2), Fraction(2))
    diag = fractions_in(Fraction(1, 4), Fraction(2))
    growth = fractions_in(Fraction(-1), Fraction(1))
    heads = hurwitz_instances(1, head_max, "all") if head_max >= 1 else st.none()
    fs = fractions_in(Fraction(1, 4), Fraction(1))
    m0s = st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2)])
    modes = st.sampled_from(["pool", "edge", "inside"])
    grows = st.sampled_from([False, False, True])  # a band growing with m a third of the time

    @st.composite
    def build(draw: Any) -> SequenceInstance:
        # c_K … c_1 drawn in this order: shrinking simplifies early draws first, so a shrunk
        # counterexample keeps its nonzero coefficient in c_1 (−I + N rather than −I + N³)
        c = tuple(reversed([draw(coef) for _ in range(band)]))
        a, mode = draw(diag), draw(modes)
        if mode != "pool" and any(c):  # max Re φ ≤ −a + Σ|c_j|, with equality where signs align
            a = sum((abs(x) for x in c), Fraction(0)) + (a if mode == "inside" else 0)
        d = tuple(draw(growth) for _ in range(band)) if draw(grows) else ()
        head = draw(heads) if head_max >= 1 and draw(st.booleans()) else None
        seq = ToeplitzSequence(a, c, d, head.W if head is not None else (),
                               head.alpha if head is not None else None)
        return SequenceInstance(seq, draw(fs), draw(m0s))

    return build()


def head_p(seq: Any) -> Any:
    """P(H) of the sequence's head block (exact over ℚ, ``fmpq_mat``; a fresh copy), or None
    without a head."""
    import flint

    return flint.fmpq_mat(_head_p(seq.head)) if seq.h else None


@functools.lru_cache(maxsize=512)
def _head_p(head: tuple[tuple[Fraction, ...], ...]) -> Any:
    return exact_p(head)


def lmax_float(p: Any) -> float:
    """λ_max of a symmetric rational matrix in float64 (search guidance only)."""
    import numpy as np

    from recmem.numerics.lyapunov import to_float64

    a = to_float64(p)
    return float(np.linalg.eigvalsh((a + a.T) / 2)[-1])
