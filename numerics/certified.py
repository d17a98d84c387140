"""Certified linear algebra in ball arithmetic: singular values, condition numbers, eigenvalue
extremes and ball ends — the one module that claims and commands call for certified matrices.

(The float64 route for large Vandermonde matrices, with a priori rounding bounds, is in
``numerics.float_enclosure`` and ``numerics.vandermonde_enclosure``; ``numerics.condition``
chooses between them.)

κ₂(A) = σ_max/σ_min is bracketed from certified eigenvalue enclosures of the Hermitian Gram matrix
AᴴA (python-flint, Rump's algorithm). Forming AᴴA squares κ, so the working precision must exceed
2·log₂κ plus a margin; the precision is doubled until the smallest eigenvalue's ball excludes 0
or a ceiling is reached (then κ is reported as a lower bound only).

A wide matrix (more columns than rows, e.g. O's V_k with k > N) has rank ≤ rows < columns, so
its smallest singular value — the columns-th one, σ_min of κ₂ = σ_max/σ_min — is exactly 0 and
κ₂ = ∞. That is decided from the shape alone (no eigenvalues are computed) and reported as a
certified infinite κ, never as the ratio of the min(rows, columns) nonzero singular values.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.exact import QQi
from recmem.numerics.nodes import Nodes

MAX_BITS = 8192
GERSHGORIN_EARLY_N = 48  # up to this size, failed eigenvalue enclosures go to Gershgorin at once


@dataclass(frozen=True)
class KappaBracket:
    """lo ≤ κ₂ ≤ hi (hi = inf when σ_min could not be separated from 0), with the bits used.

    ``certified`` with ``lo = hi = inf`` is a certified infinite κ₂ (a wide matrix: rank ≤ rows
    < columns); see :attr:`infinite`.
    """

    lo: mpmath.mpf
    hi: mpmath.mpf
    bits: int
    certified: bool

    def __post_init__(self) -> None:
        # run-time oracle: a bracket of κ₂ ≥ 1 (InternalInconsistency otherwise, a bug of recmem)
        from recmem.numerics.certified_oracles import check_interval

        check_interval(self.lo, self.hi, "κ₂ bracket", floor=1)

    @property
    def value(self) -> mpmath.mpf:
        """The upper end: the conservative value to scale tolerances with."""
        return self.hi

    @property
    def infinite(self) -> bool:
        """Whether κ₂ = ∞ is certified (σ_min = 0 exactly, e.g. a wide matrix)."""
        return self.certified and not mpmath.isfinite(self.lo)

    @property
    def log2(self) -> float:
        return float(mpmath.log(self.hi if mpmath.isfinite(self.hi) else self.lo, 2))

    def __str__(self) -> str:
        if self.infinite:
            return "∞ (certified: rank ≤ rows < columns)"
        if not mpmath.isfinite(self.hi):
            return f">= {mpmath.nstr(self.lo, 3)} (σ_min not separated from 0 at {self.bits} bits)"
        if self.hi / self.lo < 1 + mpmath.mpf(10) ** -3:
            return f"{mpmath.nstr(self.hi, 4)} (certified, {self.bits} bits)"
        return f"[{mpmath.nstr(self.lo, 3)}, {mpmath.nstr(self.hi, 3)}] (certified, {self.bits} bits)"


def exact_matrix_builder(rows: Sequence[Sequence[QQi]]) -> Callable[[int], Any]:
    """A builder of the flint matrix of exact ``rows`` at any precision. Domain: a nonempty
    rectangular matrix of exact Gaussian rationals (ValueError otherwise, raised here)."""
    from recmem.numerics.validate import exact_rows

    rows = exact_rows(rows, "exact_matrix_builder")

    def build(bits: int) -> Any:
        from recmem.numerics.backend import BackendSpec
        from recmem.numerics.flint_backend import FlintBackend

        return FlintBackend(BackendSpec("flint", bits=bits)).matrix(rows)

    return build


def vandermonde_builder(nodes: Nodes, k: int) -> Callable[[int], Any]:
    """A builder of V_k (O's orientation) for exact nodes at any precision. Domain: N ≥ 1 nodes,
    k ≥ 1 (ValueError otherwise, raised here)."""
    from recmem.numerics.validate import DomainError, positive_int

    positive_int(k, "vandermonde_builder: k")
    if len(nodes) < 1:
        raise DomainError("vandermonde_builder needs N ≥ 1 nodes, got none")

    def build(bits: int) -> Any:
        from recmem.numerics.backend import BackendSpec
        from recmem.numerics.flint_backend import FlintBackend

        fb = FlintBackend(BackendSpec("flint", bits=bits))
        return fb.vandermonde(nodes.to(fb), k)

    return build


@dataclass(frozen=True)
class SigmaBracket:
    """Certified brackets (lo, hi) of σ_max, σ_min and ‖A‖_F of one matrix, with the bits used.

    σ_min is the smallest of the ``columns`` singular values of A (the one κ₂ and least squares
    need). For a wide matrix it is exactly 0: ``smin = (0, 0)`` with ``certified`` True.
    """

    smax: tuple[mpmath.mpf, mpmath.mpf]
    smin: tuple[mpmath.mpf, mpmath.mpf]
    fro: tuple[mpmath.mpf, mpmath.mpf]
    bits: int
    certified: bool  # σ_min's ball excluded 0, or σ_min = 0 exactly (wide matrix)

    def __post_init__(self) -> None:
        # run-time oracle: three brackets of non-negative numbers (their agreement with each
        # other needs the shape: certified_oracles.check_sigma, called by sigma_bracket)
        from recmem.numerics.certified_oracles import check_interval

        for name, (lo, hi) in (("smax", self.smax), ("smin", self.smin), ("fro", self.fro)):
            check_interval(lo, hi, f"{name} bracket")

    @property
    def rank_deficient(self) -> bool:
        """Whether σ_min = 0 is certified (a wide matrix)."""
        return self.certified and self.smin[1] == 0

    @property
    def kappa(self) -> KappaBracket:
        """κ₂ = σ_max/σ_min as a bracket (upper end inf when σ_min was not separated from 0;
        both ends inf, certified, when σ_min = 0 exactly)."""
        if self.rank_deficient:
            return KappaBracket(mpmath.inf, mpmath.inf, self.bits, True)
        if not self.certified:
            lo = _div(self.smax[0], self.smin[1], up=False) if self.smin[1] > 0 else mpmath.mpf(1)
            return KappaBracket(max(lo, mpmath.mpf(1)), mpmath.inf, self.bits, False)
        # directed rounding: a quotient rounded to nearest could move an end inwards
        return KappaBracket(_div(self.smax[0], self.smin[1], up=False),
                            _div(self.smax[1], self.smin[0], up=True), self.bits, True)

    def fro_over_smin(self) -> mpmath.mpf:
        """‖A‖_F/σ_min (upper end): the conditioning of entrywise rounding errors, ≤ √rank·κ₂."""
        return (_div(self.fro[1], self.smin[0], up=True) if self.certified and self.smin[0] > 0
                else mpmath.inf)


def eigenvalue_balls(g: Any) -> Any:
    """flint's certified eigenvalue enclosures of the ``acb_mat`` ``g`` (Rump's method,
    ``multiple=True``); ValueError when they cannot be isolated. One function, so that the tests
    can force the fallbacks that follow a failure (Gershgorin brackets)."""
    return g.eig(multiple=True)


def _div(a: Any, b: Any, *, up: bool) -> Any:
    """a/b for positive finite mpmath numbers, rounded down (or ``up``) at their precision."""
    from mpmath.libmp import mpf_div, round_ceiling, round_floor

    ctx = a.context if a.context.prec >= b.context.prec else b.context
    return ctx.make_mpf(mpf_div(a._mpf_, b._mpf_, ctx.prec, round_ceiling if up else round_floor))


def enclose(f: Callable[..., Any], *args: Any, bits: int) -> tuple[Any, Any]:
    """Outward-rounded ends (lo, hi) of f(*args): the one way to compute with certified bracket
    ends (round-to-nearest arithmetic on an end could move it inwards, and a bracket too tight
    turns INCONCLUSIVE into PASS).

    ``f`` runs in mpmath interval arithmetic (every operation rounds its lower end down and its
    upper end up) at ``bits`` + 64 bits; it gets one interval per argument and may use +, −, ·, /,
    integer powers and ``x.ctx.sqrt(x)``. Each argument — an mpmath number of any context, an
    int or a Fraction (also inside ``f``) — is enclosed outwards, exactly where representable.
    The ends come back as exact mpmath numbers of a private context of that precision (never the
    global one, which rounds to 53 bits). Used for the ends of a formula monotone in its
    arguments: evaluate it at the lower ends and keep ``lo``, at the upper ends and keep ``hi``.
    """
    ctx = _interval_context(max(bits, 53) + 64)
    out = ctx.convert(f(*(ctx.convert(a) for a in args)))
    lo, hi = out._mpi_
    mp = _real_context(ctx.prec)
    return mp.make_mpf(lo), mp.make_mpf(hi)


@functools.lru_cache(maxsize=32)
def _interval_context(prec: int) -> _IntervalContext:
    """One interval context per precision (making one costs ~1 ms; its precision never changes)."""
    ctx = _IntervalContext()
    ctx.prec = prec
    return ctx


def _real_context(prec: int) -> Any:
    """One private mpmath context per precision for :func:`enclose`'s ends (never changed)."""
    return fixed_context(prec)


_CONTEXTS = threading.local()


def fixed_context(prec: int) -> Any:
    """A private mpmath context of ``prec`` bits, one per precision and thread, shared by its
    callers: never change its precision (mpmath's own ``workprec`` inside a function, restored on
    exit, is fine). Making a context costs ~4–10 ms (mpmath binds every function anew), which
    made thousands of certified brackets and node draws per run spend seconds there; per thread,
    so that one thread's ``workprec`` never changes another's numbers."""
    cache = getattr(_CONTEXTS, "by_prec", None)
    if cache is None:
        cache = _CONTEXTS.by_prec = {}
    ctx = cache.get(prec)
    if ctx is None:
        ctx = cache[prec] = mpmath.MPContext()
        ctx.prec = prec
    return ctx


class _IntervalContext(mpmath.ctx_iv.MPIntervalContext):
    """mpmath's interval context, which also encloses a Fraction (its ends rounded outwards).
    mpmath numbers of any context are taken exactly (their ``_mpf_``), ints and floats outwards."""

    def convert(self, x: Any) -> Any:
        if isinstance(x, Fraction):
            from mpmath.libmp import from_rational, round_ceiling, round_floor

            p, q = x.numerator, x.denominator
            return self.make_mpf((from_rational(p, q, self.prec, round_floor),
                                  from_rational(p, q, self.prec, round_ceiling)))
        return super().convert(x)


def _checked(sb: SigmaBracket, shape: tuple[int, int], path: str | None) -> SigmaBracket:
    """``sb`` after its run-time oracles (``numerics.certified_oracles``): its brackets agree with
    each other, and the code path that made it (``path``, None for "no bracket") brackets a
    matrix known exactly at the same precision. InternalInconsistency otherwise."""
    from recmem.numerics import certified_oracles as oracles

    oracles.check_sigma(sb, min(shape))
    if path is not None:
        oracles.sentinel(path, sb.bits)
    return sb


def sigma_bracket(build: Callable[[int], Any], *, start_bits: int = 128,
                  max_bits: int = MAX_BITS) -> SigmaBracket:
    """Certified σ_max, σ_min and ‖A‖_F of the matrix that ``build(bits)`` returns (an
    ``acb_mat``), from Rump-certified eigenvalue balls of the Hermitian Gram matrix AᴴA.

    The matrix is rebuilt from its exact description at every precision tried; the precision
    doubles until the smallest eigenvalue's ball excludes 0 or ``max_bits`` would be passed.
    ‖A‖_F² is the trace (the sum of the balls). Bounds are converted exactly from the balls and
    rounded outwards in a context as precise as the balls.

    A wide matrix (rows < columns) is decided from its shape (:func:`_wide`): σ_min = 0 exactly,
    and no eigenvalue is computed.

    Domain: ``build`` returns a nonempty ``acb_mat`` (complex entries are in the domain), any shape;
    ``start_bits`` ≥ 2. An empty matrix raises ValueError. When σ_min cannot be separated from 0
    by ``max_bits`` the bracket says so (``certified`` False, upper end ∞): never a wrong value.
    """
    import flint

    from recmem.numerics.flint_backend import arb_to_mpf
    from recmem.numerics.validate import DomainError, positive_int

    start_bits = positive_int(start_bits, "start_bits", 2)
    with flint.ctx.workprec(start_bits):
        first = build(start_bits)
    if first.nrows() < 1 or first.ncols() < 1:
        raise DomainError(f"sigma_bracket needs a nonempty matrix, got {first.nrows()}×"
                          f"{first.ncols()}")
    shape = (first.nrows(), first.ncols())
    if first.nrows() < first.ncols():
        return _checked(_wide(first, start_bits), shape, "wide")
    bits = start_bits
    path = "gram-eig"

    def gram(b: int) -> tuple[Any, Any]:
        """AᴴA and its trace at ``b`` bits (the matrix rebuilt from its exact description)."""
        with flint.ctx.workprec(b):
            a = first if b == start_bits else build(b)
            g = a.conjugate().transpose() * a
            return g, sum((g[i, i].real for i in range(g.nrows())), flint.arb(0))

    while True:
        try:
            g, trace = gram(bits)
            try:
                with flint.ctx.workprec(bits):
                    eigs = [e.real for e in eigenvalue_balls(g)]
                path = "gram-eig"
            except ValueError:
                # Exactly repeated eigenvalues defeat the enclosures at every precision:
                # Gershgorin brackets of the two extremes instead. Its mpmath eigenvectors
                # cost O(N³) at high precision (44 s at N = 128, 128 bits), so for larger N
                # a higher precision is tried first and the brackets only at the last step.
                if g.nrows() > GERSHGORIN_EARLY_N and 2 * bits <= max_bits:
                    raise
                # Clustered but distinct eigenvalues (the Gram of an ill-conditioned matrix)
                # separate at twice the precision, where the enclosures cost a fraction of the
                # brackets (N = 40 real nodes: 0.9 s at 256 bits against 2 × 2 s for the
                # brackets at 128, measured): tried first; repeated ones fail there too and
                # take the brackets at this precision, as before.
                eigs = []
                if 2 * bits <= max_bits:
                    try:
                        g2, trace2 = gram(2 * bits)
                        with flint.ctx.workprec(2 * bits):
                            eigs = [e.real for e in eigenvalue_balls(g2)]
                        bits, trace, path = 2 * bits, trace2, "gram-eig"
                    except (ValueError, ZeroDivisionError):
                        eigs = []
                if not eigs:
                    with flint.ctx.workprec(bits):
                        eigs = [_hull(*symmetric_extreme(g, bits, largest))
                                for largest in (False, True)]
                    path = "gram-gershgorin"
        except (ValueError, ZeroDivisionError):
            eigs = []
        last = 2 * bits > max_bits
        if eigs or last:
            ctx = fixed_context(bits + 16)
            down, up = 1 - 4 * ctx.eps, 1 + 4 * ctx.eps

            def ends(x: Any, c: Any = ctx, d: Any = down, u: Any = up) -> tuple[Any, Any]:
                mid, rad = arb_to_mpf(x.mid(), c), arb_to_mpf(x.rad(), c)
                return (max((mid - rad) * d, c.mpf(0)), (mid + rad) * u)

            if not eigs:
                z = (mpmath.mpf(0), mpmath.inf)
                return _checked(SigmaBracket(z, z, z, bits, False), shape, None)
            balls = [ends(e) for e in eigs]
            sq = lambda v, c=ctx: (c.sqrt(v[0]), c.sqrt(v[1]))  # noqa: E731
            smax = sq((max(b[0] for b in balls), max(b[1] for b in balls)))
            smin = sq((min(b[0] for b in balls), min(b[1] for b in balls)))
            certified = all(
                arb_to_mpf(e.mid(), ctx) - arb_to_mpf(e.rad(), ctx) > 0 for e in eigs)
            if certified or last:
                return _checked(SigmaBracket(smax, smin, sq(ends(trace)), bits, certified), shape,
                                path)
        bits *= 2


def mpf_to_fraction(x: Any) -> Fraction:
    """A finite mpmath number as the exact rational it is (sign included: mpmath's ``man_exp``
    drops the sign, so the raw ``_mpf_`` tuple is read). ValueError for inf or nan.

    A number of any mpmath context is read as it is: ``mpmath.mpf(x)`` would round an mpf of a
    private ``MPContext`` (a different class) to the global 53 bits — to nearest, so a bracket
    end could move inwards. Only what has no ``_mpf_`` (int, float, str) goes through it."""
    raw = getattr(x, "_mpf_", None)
    sign, man, exp, _ = raw if raw is not None else mpmath.mpf(x)._mpf_
    if not man and exp:  # mpmath's special values (inf, nan) have man = 0 and exp ≠ 0
        raise ValueError(f"not a finite number: {x}")
    man, exp = int(man), int(exp)
    # the same rational as Fraction(man)·2^exp, built in one step (no power of a Fraction)
    v = Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)
    return -v if sign else v


def _hull(lo: mpmath.mpf, hi: mpmath.mpf) -> Any:
    """A python-flint ``arb`` containing the interval [lo, hi] of exact mpmath numbers."""
    import flint

    def exact(x: mpmath.mpf) -> Any:
        q = mpf_to_fraction(x)
        return flint.arb(flint.fmpq(q.numerator, q.denominator)) if q else flint.arb(0)

    with flint.ctx.workprec(max(lo.context.prec, hi.context.prec, 53) + 64):
        return exact(lo).union(exact(hi))


def _wide(a: Any, bits: int) -> SigmaBracket:
    """σ_max, σ_min = 0 and ‖A‖_F of a wide ``acb_mat`` (rows < columns) without eigenvalues.

    rank A ≤ rows < columns, so the columns-th singular value is exactly 0 (certified by the
    shape). ‖A‖_F is the ball of √Σ|a_ij|², and ‖A‖_F/√rows ≤ σ_max ≤ ‖A‖_F (at most ``rows``
    nonzero singular values) brackets σ_max.
    """
    import flint

    from recmem.numerics.flint_backend import arb_to_mpf

    with flint.ctx.workprec(bits):
        sq = sum((abs(a[i, j]) * abs(a[i, j]) for i in range(a.nrows()) for j in range(a.ncols())),
                 flint.arb(0))
    ctx = mpmath.MPContext()
    ctx.prec = bits + 16
    mid, rad = arb_to_mpf(sq.mid(), ctx), arb_to_mpf(sq.rad(), ctx)
    fro = (ctx.sqrt(max((mid - rad) * (1 - 4 * ctx.eps), ctx.mpf(0))),
           ctx.sqrt((mid + rad) * (1 + 4 * ctx.eps)))
    smax = (fro[0] / ctx.sqrt(a.nrows()) * (1 - 4 * ctx.eps), fro[1])
    zero = mpmath.mpf(0)
    return SigmaBracket(smax, (zero, zero), fro, bits, True)


def arb_ends(x: Any, bits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Outward-rounded ends (lo, hi) of a python-flint ``arb`` as exact mpmath numbers.

    The midpoint and radius are converted exactly in a context of ``bits`` + 64 bits; mid ∓ rad is
    then moved outwards by |·|·2^−(bits+32), which covers the rounding of those two operations.
    """
    from recmem.numerics.flint_backend import arb_to_mpf

    ctx = fixed_context(max(bits, 53) + 64)  # shared: a new context per call cost ~1 ms
    mid, rad = arb_to_mpf(x.mid(), ctx), arb_to_mpf(x.rad(), ctx)
    lo, hi = mid - rad, mid + rad
    return (lo - abs(lo) * ctx.ldexp(1, -(bits + 32)), hi + abs(hi) * ctx.ldexp(1, -(bits + 32)))


def symmetric_extreme(p: Any, bits: int, largest: bool) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Certified (lo, hi) around λ_max (or λ_min) of every real symmetric (``arb_mat``) or complex
    Hermitian (``acb_mat``) matrix in the ball matrix ``p``, at ``bits``.

    First flint's eigenvalue enclosures (Rump's method, ``multiple=True``). When they fail to
    isolate clustered eigenvalues (a normal W, or a Gram matrix with repeated singular values,
    gives exactly repeated ones), a bracket instead: X = eigenvectors of the midpoint from mpmath
    (``eigsy``/``eighe``) at ``bits``; the Gershgorin discs of X⁻¹PX (ball arithmetic) contain
    every eigenvalue, and the eigenvalues are real, so max_i(Re Z_ii + R_i) bounds λ_max above;
    the Rayleigh quotient xᴴPx/xᴴx of the top column (balls) bounds it below (and symmetrically
    for λ_min). Domain: a square ball matrix.
    """
    import flint

    from recmem.numerics import certified_oracles as oracles

    try:
        with flint.ctx.workprec(bits):
            eigs = eigenvalue_balls(flint.acb_mat(p))
        ends = [arb_ends(e.real, bits) for e in eigs]
        pick = max if largest else min
        out, path = (pick(e[0] for e in ends), pick(e[1] for e in ends)), "symmetric-eig"
    except ValueError:
        out, path = _gershgorin_extreme(p, bits, largest), "symmetric-gershgorin"
    # run-time oracles: a bracket, and this path brackets matrices known exactly at these bits
    oracles.check_ordered(*out, f"λ_{'max' if largest else 'min'} bracket ({path})")
    oracles.sentinel(path, bits)
    return out


def _gershgorin_extreme(p: Any, bits: int, largest: bool) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The bracket of :func:`symmetric_extreme` when eigenvalue enclosures fail."""
    import flint

    from recmem.numerics.flint_backend import arb_to_mpf

    hermitian = isinstance(p, flint.acb_mat)
    ctx = mpmath.MPContext()
    ctx.prec = bits
    n = p.nrows()
    if hermitian:
        mid = ctx.matrix([[ctx.mpc(arb_to_mpf(p[i, j].real, ctx), arb_to_mpf(p[i, j].imag, ctx))
                           for j in range(n)] for i in range(n)])
        vals, vecs = ctx.eighe((mid + mid.H) / 2)
    else:
        mid = ctx.matrix([[arb_to_mpf(p[i, j], ctx) for j in range(n)] for i in range(n)])
        vals, vecs = ctx.eigsy((mid + mid.T) / 2)
    k = max(range(n), key=lambda i: vals[i]) if largest else min(range(n), key=lambda i: vals[i])
    with flint.ctx.workprec(bits):
        x: Any
        if hermitian:
            x = flint.acb_mat([[flint.acb(vecs[i, j].real, vecs[i, j].imag) for j in range(n)]
                               for i in range(n)])
        else:
            x = flint.arb_mat([[flint.arb(vecs[i, j]) for j in range(n)] for i in range(n)])
        z = x.inv() * p * x
        discs = []
        for i in range(n):
            rad = sum((abs(z[i, j]) for j in range(n) if j != i), flint.arb(0))
            centre = z[i, i].real if hermitian else z[i, i]
            discs.append(arb_ends(centre + rad, bits) if largest else arb_ends(centre - rad, bits))
        col = type(x)([[x[i, k]] for i in range(n)])
        colh = col.conjugate().transpose() if hermitian else col.transpose()
        num = (colh * p * col)[0, 0]
        den = (colh * col)[0, 0]
        q = num / den
        ray = arb_ends(q.real if hermitian else q, bits)
    if largest:
        return ray[0], max(d[1] for d in discs)
    return min(d[0] for d in discs), ray[1]


def kappa2(build: Callable[[int], Any], *, start_bits: int = 128,
           max_bits: int = MAX_BITS) -> KappaBracket:
    """Certified bracket of κ₂ of the matrix that ``build(bits)`` returns as a flint ``acb_mat``
    (see :func:`sigma_bracket`); a wide matrix gives a certified κ₂ = ∞."""
    return sigma_bracket(build, start_bits=start_bits, max_bits=max_bits).kappa
