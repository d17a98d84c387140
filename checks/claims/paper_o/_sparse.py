"""What the sparse-recovery claims share (O §3.2 eq. 6; App. B Prop. 7, eq. 15–22; App. C eq. 26–31).

One exact problem — nodes, basis Ψ, coefficients α — built from a claim's parameters; the steps
k its statement's hypothesis admits; its quantities formed in any backend through the
:class:`AbstractBackend` interface; the statements' formulas (``theory/sparse.py``) evaluated
there; and the merging of a statement's parts into one check per step (so that a negative control
that changes one part is told apart by the check, rule C2). The backend interface has no row
slicing or stacking, so block matrices are assembled as sums of products with exact 0/1 embedding
matrices (exact in every arithmetic: they only add zeros).

Layout (App. B): N = RM + 1 channels; channel 0 is the timestamp feature with node λ₀; block j
(R channels) is fed by input dimension j (B of eq. 15). For M = 1 this is §3.2, where Ω_k has the
N − 1 Vandermonde rows (the paper's Ω_k ∈ ℂ^{(N−1)×P}).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Context, Param, at_least, grows
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import KappaBracket, exact_matrix_builder, kappa2
from recmem.numerics.exact import QQi, to_mpc
from recmem.numerics.haar import haar_basis
from recmem.numerics.nodes import uniform_draws
from recmem.theory.sparse import NODE_POOL, Recovery

ZERO, ONE = QQi(Fraction(0)), QQi(Fraction(1))


# ---- fast exact strategies -----------------------------------------------------------------
# Few draws per instance: the shrinker's work (which a negative control's search pays in full,
# since it shrinks its first counterexample) grows with the number of choices.


# Distinct nodes are taken from the pool rotated to start at 1/2: the simplest draw (the first
# example a search tries, and where its shrinking ends) is then a generic instance — λ₀ = 1/2,
# no node 0 or 1 — on which a false variant of a statement already fails, so a negative control's
# search stops at once instead of shrinking a random counterexample.
_GENERIC = NODE_POOL[5:] + NODE_POOL[:5]
_UNITS = tuple(s for s in range(1, len(_GENERIC)) if math.gcd(s, len(_GENERIC)) == 1)


def distinct_nodes(draw: Any, count: int) -> list[QQi]:
    """``count`` distinct exact nodes from :data:`NODE_POOL` in two draws: an offset and a stride
    coprime to the pool's size (the simplest draw: 1/2, −1/2, i/2, −i/2, …)."""
    from hypothesis import strategies as st

    offset = draw(int_range(0, len(_GENERIC) - 1))
    stride = draw(st.sampled_from(_UNITS))
    return [_GENERIC[(offset + i * stride) % len(_GENERIC)] for i in range(count)]


_VALUES = (Fraction(1), Fraction(2), Fraction(-1), Fraction(0), Fraction(-2))


def int_matrix(draw: Any, rows: int, cols: int, salt: int = 0) -> list[list[Fraction]]:
    """A rows×cols matrix with entries in {−2, …, 2} in one draw: the base-5 digits d of one
    integer, the entry at position p being (1, 2, −1, 0, −2)[(d + p + salt) mod 5].

    One choice instead of rows·cols keeps the shrinker cheap. The simplest draw (digits 0) is the
    non-constant pattern 1, 2, −1, 0, −2, 1, … shifted by ``salt`` (pass distinct salts for
    matrices that should differ), so it is a generic instance rather than the zero matrix."""
    n = rows * cols
    code = draw(int_range(0, 5**n - 1)) if n else 0
    vals = []
    for pos in range(n):
        code, d = divmod(code, 5)
        vals.append(_VALUES[(d + pos + salt) % 5])
    return [vals[i * cols:(i + 1) * cols] for i in range(rows)]


@functools.cache
def int_range(lo: int, hi: int) -> Any:
    """``st.integers(lo, hi)``, built once per range (strategy construction is not free)."""
    from hypothesis import strategies as st

    return st.integers(lo, hi)


@functools.cache
def sampled(values: tuple[Any, ...]) -> Any:
    """``st.sampled_from(values)``, built once per tuple (Hypothesis is imported on first use:
    `recmem list` needs none)."""
    from hypothesis import strategies as st

    return st.sampled_from(values)


# ---- parameters ------------------------------------------------------------------------------


def p_length(default: int) -> Param:
    """Sequence length L (App. B: u ∈ ℝ^{M×L}); a power of two for the Haar basis (App. E.2)."""
    return Param("L", default, "sequence length L (a power of two: Haar basis)", int,
                 check=lambda v: None if v >= 1 and not v & (v - 1) else
                 f"must be a power of two, got {v}", max=4096, cost=grows(64, 2))  # L×L exact Haar


def p_count(default: int) -> Param:
    """Number P of basis functions (Assumption A; §3.2)."""
    return Param("P", default, "number P of basis functions (sparsity)", int, check=at_least(1),
                 max=1024, cost=grows(64 * 4096))  # P exact Haar functions of length L ≤ 4096


def p_ks(default: str = "auto",
         auto: str = "the first k the statement's hypothesis admits") -> Param:
    """The steps k at which eq. 6 / eq. 22 / eq. 29 are checked."""
    return Param("ks", default, f"steps k to check, comma-separated, or 'auto' ({auto})", str)


def p_exact_nodes(default: str = "ring") -> Param:
    """Node family for the sparse claims: exact Gaussian-rational families only (the exact side
    needs Ω_k over ℚ(i); roots of unity are algebraic)."""
    return Param("nodes", default, "node family: ring (Lemma 6) or real", str,
                 choices=("ring", "real"))


def p_dims(default: int) -> Param:
    """Input dimension M (Prop. 7)."""
    return Param("M", default, "input dimension M", int, check=at_least(1), max=64,
                 cost=grows(8 * 512 * 512))  # M exact N×k blocks (N, k ≤ 512)


def p_block(default: int) -> Param:
    """Nodes per input dimension R, N = RM + 1 (App. B, eq. 15)."""
    return Param("R", default, "nodes per input dimension R (N = RM + 1)", int, check=at_least(1),
                 max=256, cost=grows(64, 3))  # exact V of N = RM + 1 ≈ 2R rows (M = 2): 8N³ bytes


# ---- the exact problem -----------------------------------------------------------------------


def multi_haar(length: int, count: int, dims: int) -> list[list[list[Fraction]]]:
    """P basis matrices ψ^i ∈ ℝ^{M×L}: Haar function ⌊i/M⌋ placed in input dimension i mod M.

    For M = 1 these are the columns of ``numerics.haar.haar_basis`` (App. E.2's Haar basis); for
    M > 1 each input dimension carries its own Haar functions (a basis of M-dimensional signals).
    """
    per = -(-count // dims)
    h = haar_basis(length, per)
    out = []
    for i in range(count):
        mat = [[Fraction(0)] * length for _ in range(dims)]
        for t in range(length):
            mat[i % dims][t] = h[t][i // dims]
        out.append(mat)
    return out


def exact_alpha(count: int, seed: int) -> list[Fraction]:
    """P exact dyadic coefficients in [−1, 1) with 12 fractional bits, from a pinned seed."""
    return [Fraction(round((2 * d - 1) * 4096), 4096) for d in uniform_draws(seed + 7919, count)]


@dataclass(frozen=True)
class SparseProblem:
    """An exact instance of Prop. 7: λ₀, the node blocks Λ_1…Λ_M, the basis and α."""

    lam0: QQi
    blocks: tuple[tuple[QQi, ...], ...]
    basis: tuple[tuple[tuple[Fraction, ...], ...], ...]
    alpha: tuple[Fraction, ...]
    description: str

    @property
    def dims(self) -> int:
        """M."""
        return len(self.blocks)

    @property
    def length(self) -> int:
        """L."""
        return len(self.basis[0][0])

    @property
    def count(self) -> int:
        """P."""
        return len(self.alpha)

    @property
    def vandermonde_nodes(self) -> list[QQi]:
        """Λ_1, …, Λ_M flattened (eq. 17 without λ₀)."""
        return [q for blk in self.blocks for q in blk]

    @property
    def rows(self) -> int:
        """N − 1: the Vandermonde channels."""
        return sum(len(b) for b in self.blocks)

    def u(self) -> list[list[Fraction]]:
        """The signal u = Σ α_i ψ^i ∈ ℝ^{M×L}."""
        from recmem.theory.sparse import signal

        return signal(self.basis, self.alpha)

    def psi(self, k: int) -> list[list[Fraction]]:
        """Ψ_k of eq. 11."""
        from recmem.theory.sparse import psi_k

        return psi_k(self.basis, k)


def problem(ctx: Context, dims: int, per_dim: int) -> SparseProblem:
    """The claim's exact problem from its parameters (cached per context).

    Nodes: N = per_dim·dims + 1 draws from the claim's node family (``_common.draw_nodes``): the
    first is λ₀, then R nodes per input dimension. Basis: :func:`multi_haar`. α: :func:`exact_alpha`.
    """
    from recmem.checks.claims.paper_o._common import draw_nodes

    key = ("sparse-problem", dims, per_dim)
    if key not in ctx.cache:
        n = dims * per_dim + 1
        nodes = draw_nodes(ctx, n)
        if nodes.values is None:
            raise ValueError("sparse claims need exact (ring or real) nodes")
        vals = nodes.values
        blocks = tuple(tuple(vals[1 + j * per_dim:1 + (j + 1) * per_dim]) for j in range(dims))
        length, count = int(ctx["L"]), int(ctx["P"])
        basis = tuple(tuple(tuple(r) for r in m) for m in multi_haar(length, count, dims))
        alpha = tuple(exact_alpha(count, ctx.seed))
        ctx.cache[key] = SparseProblem(
            vals[0], blocks, basis, alpha,
            f"M={dims}, R={per_dim}, N={n}, L={length}, P={count} (Haar basis), {nodes.description}")
    return ctx.cache[key]


# The quantities below depend on the problem only (never on the statement under test), so they
# are cached across statements and controls: exact Ω_k of a 53-bit node draw at k = 25 has
# ~1300-bit entries, and its exact rank and certified κ₂ are the costliest inputs of a check.


@functools.lru_cache(maxsize=256)
def omega_exact(prob: SparseProblem, k: int, power_shift: int = 0) -> Any:
    """Ω_k = V_kΨ_k (eq. 21) exactly (V_{k,j}'s columns λ^{k−t+shift})."""
    from recmem.theory.sparse import omega

    return omega(prob.blocks, prob.basis, k, power_shift)


@functools.lru_cache(maxsize=256)
def omega_rank(prob: SparseProblem, k: int, power_shift: int = 0) -> int:
    """The exact rank of Ω_k."""
    from recmem.theory import exact_linalg as ex

    return ex.rank(omega_exact(prob, k, power_shift))


@functools.lru_cache(maxsize=1024)
def psi_rank(prob: SparseProblem, k: int) -> int:
    """The exact rank of Ψ_k (cached: it does not depend on the statement)."""
    from recmem.theory import exact_linalg as ex
    from recmem.theory.sparse import dm

    return ex.rank(dm(prob.psi(k)))


def admitted(prob: SparseProblem, rec: Recovery, k: int, power_shift: int = 0) -> bool:
    """Whether the recovery's hypothesis (``Recovery.admits``) admits step k on this problem.
    rank Ω_k ≤ rank Ψ_k, so the exact rank of Ω_k is computed only where rank Ψ_k could be
    admitted."""
    p, rank_psi = prob.count, psi_rank(prob, k)
    if not rec.admits(p, rank_psi, rank_psi, prob.rows):
        return False
    return rec.admits(p, omega_rank(prob, k, power_shift), rank_psi, prob.rows)


def first_admitted(prob: SparseProblem, rec: Recovery, power_shift: int = 0) -> int:
    """The first step k ≤ L that the statement's hypothesis admits (the edge of its domain, where
    a widened hypothesis first differs from the original one). rank Ω_k ≤ rank Ψ_k, so the
    exact rank of Ω_k is computed only from the first k with rank Ψ_k large enough."""
    for k in range(1, prob.length + 1):
        if admitted(prob, rec, k, power_shift):
            return k
    raise ValueError(f"no k ≤ L = {prob.length} satisfies {rec.condition} on this problem "
                     f"({prob.description})")


def parameter_check(shape: Callable[[Mapping[str, Any]], tuple[int, int]],
                    rec: Recovery | None) -> Callable[[Mapping[str, Any]], str | None]:
    """A claim's joint parameter check, run before any work (``Claim.validate``): the problem
    can be built, explicit ``ks`` lie in 1…L, and with ``ks = auto`` some k ≤ L can satisfy
    ``rec``'s hypothesis at all. That needs no node draw: rank Ω_k ≤ min(N − 1, rank Ψ_k), and
    rank Ψ_k is exact (Haar). ``shape`` maps the parameters to (M, R)."""
    def check(values: Mapping[str, Any]) -> str | None:
        dims, per_dim = shape(values)
        if dims < 1 or per_dim < 1:
            return f"need at least one Vandermonde row per input dimension, got M={dims}, R={per_dim}"
        try:
            prob = problem(Context(dict(values)), dims, per_dim)
        except ValueError as exc:
            return str(exc)
        spec = str(values.get("ks", "auto")).strip()
        if spec != "auto":
            try:
                ks = sorted({int(s) for s in spec.split(",") if s.strip()})
            except ValueError:
                return f"ks must be 'auto' or comma-separated integers, got {spec!r}"
            bad = [k for k in ks if not 1 <= k <= prob.length]
            return f"ks must lie in 1…L={prob.length}, got {bad}" if bad or not ks else None
        if rec is None or any(
                rec.admits(prob.count, min(prob.rows, r), r, prob.rows)
                for r in (psi_rank(prob, k) for k in range(1, prob.length + 1))):
            return None
        return (f"no k ≤ L = {prob.length} can satisfy {rec.condition} with N − 1 = {prob.rows} "
                f"Vandermonde rows and P = {prob.count} (rank Ω_k ≤ min(N − 1, rank Ψ_k)); "
                "more rows (N, or M·R) or a smaller P would")
    return check


def steps(ctx: Context, prob: SparseProblem, rec: Recovery, power_shift: int = 0,
          last: int | None = None) -> list[int]:
    """The k to check: the ``ks`` parameter, or the first k the hypothesis admits (and ``last``
    when given and later)."""
    spec = str(ctx["ks"]).strip()
    if spec != "auto":
        ks = sorted({int(s) for s in spec.split(",") if s.strip()})
        bad = [k for k in ks if not 1 <= k <= prob.length]
        if bad:
            raise ValueError(f"ks must lie in 1…L={prob.length}, got {bad}")
        return ks
    first = first_admitted(prob, rec, power_shift)
    return [first] + ([last] if last is not None and last > first else [])


# ---- condition numbers ---------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _kappa(rows: tuple[tuple[QQi, ...], ...]) -> KappaBracket:
    return kappa2(exact_matrix_builder(rows))


def _kappa_of(a: Any) -> mpmath.mpf:
    from recmem.theory.sparse import to_rows

    return _kappa(tuple(tuple(r) for r in to_rows(a))).value


def psi_kappa(prob: SparseProblem, k: int) -> KappaBracket:
    """Certified κ₂(Ψ_k)."""
    return _kappa(tuple(tuple(QQi(v) for v in r) for r in prob.psi(k)))


@functools.lru_cache(maxsize=256)
def factors(prob: SparseProblem, k: int, power_shift: int = 0) -> tuple[list[int], Any] | None:
    """The exact full-rank factorization Ω_k = Ω_k[:, piv]·F when rank Ω_k < P (None at full
    rank, where Ω_k⁺ = (Ω_kᴴΩ_k)⁻¹Ω_kᴴ needs none)."""
    from recmem.theory.sparse import full_rank_factors

    if omega_rank(prob, k, power_shift) == prob.count:
        return None
    return full_rank_factors(omega_exact(prob, k, power_shift))


@functools.lru_cache(maxsize=256)
def recovery_kappa(prob: SparseProblem, k: int, power_shift: int = 0) -> mpmath.mpf:
    """The condition number that scales the recovery tolerance, certified from exact matrices:
    κ₂(Ω_k) at full column rank; κ₂(Ω_k[:, piv])·κ₂(F)² through the full-rank factorization
    (the two solves B⁺x and (FFᴴ)⁻¹y); 1 for Ω_k = 0."""
    from recmem.theory import exact_linalg as ex

    om = omega_exact(prob, k, power_shift)
    f = factors(prob, k, power_shift)
    if f is None:
        return _kappa_of(om)
    pivots, fmat = f
    if not pivots:
        return mpmath.mpf(1)
    # κ₂(F) of the wide F is σ_1/σ_r: that of the tall Fᴴ (a wide matrix's κ₂ is ∞ here)
    kf = _kappa_of(ex.conj_transpose(fmat))
    return mpmath.mpf(_kappa_of(om.extract(list(range(om.shape[0])), pivots)) * kf * kf)


def sum_condition(prob: SparseProblem, k: int) -> mpmath.mpf:
    """Condition of the state x_k = Σ_t Λ^{k−t} B ũ_t as a sum: ‖ |V||Bũ| ‖₂ / ‖x_k‖₂ (≥ 1).

    The recurrence's rounding error is bounded by k·u·Σ_t |λ|^{k−t}|drive_t| per channel, so this
    ratio is the κ of the state; computed at 128 bits from the exact inputs.
    """
    ctx = mpmath.MPContext()
    ctx.prec = 128
    u = prob.u()
    nodes = [prob.lam0, *prob.vandermonde_nodes]
    feed: list[int | None] = [None] + [j for j, b in enumerate(prob.blocks) for _ in b]
    num = den = ctx.mpf(0)
    for lam_q, j in zip(nodes, feed, strict=True):
        lam = to_mpc(lam_q, ctx)
        drive = [ctx.mpf(1) if j is None else ctx.mpf(u[j][t].numerator) / u[j][t].denominator
                 for t in range(k)]
        x = ctx.fsum(lam ** (k - 1 - t) * drive[t] for t in range(k))
        a = ctx.fsum(abs(lam) ** (k - 1 - t) * abs(drive[t]) for t in range(k))
        num += a * a
        den += abs(x) ** 2
    return ctx.sqrt(num / den) if den > 0 else ctx.inf


# ---- backend quantities --------------------------------------------------------------------


def embedding(rows: int, cols: int, offset: int) -> list[list[QQi]]:
    """The exact 0/1 matrix placing ``cols`` rows at ``offset`` of a ``rows``-row vector."""
    return [[ONE if i == offset + c else ZERO for c in range(cols)] for i in range(rows)]


def column_of(values: Sequence[Fraction | QQi]) -> list[list[QQi]]:
    """Exact rows of a column vector."""
    return [[v if isinstance(v, QQi) else QQi(Fraction(v))] for v in values]


def drive_rows(prob: SparseProblem, u: Sequence[Sequence[Fraction]] | None = None
               ) -> list[list[QQi]]:
    """The Vandermonde channels' drive (B ũ_t without the timestamp row) for t = 1…L as exact
    rows, (N−1)×L; the input is the problem's signal unless ``u`` is given."""
    u = prob.u() if u is None else u
    rows: list[list[QQi]] = []
    for j, blk in enumerate(prob.blocks):
        rows += [[QQi(Fraction(v)) for v in u[j]] for _ in blk]
    return rows


def b_matrix(prob: SparseProblem) -> list[list[QQi]]:
    """B of eq. 15, N×(M+1): blockdiag(1, 1_{R×1}, …, 1_{R×1})."""
    rows = [[ONE] + [ZERO] * prob.dims]
    for j, blk in enumerate(prob.blocks):
        rows += [[ZERO] + [ONE if i == j else ZERO for i in range(prob.dims)] for _ in blk]
    return rows


def encoded_input(prob: SparseProblem) -> list[list[QQi]]:
    """ũ ∈ ℝ^{H×L} of eq. 13: the constant feature 1 on top of u."""
    return [[ONE] * prob.length] + [[QQi(v) for v in row] for row in prob.u()]


def omega_native(b: AbstractBackend, prob: SparseProblem, k: int, power_shift: int = 0) -> Any:
    """Ω_k = V_kΨ_k in the backend: Σ_j E_j V_{k,j} Ψ_k^{(j)} (E_j exact embeddings), with
    V_{k,j}'s columns λ^e for e in ``theory.sparse.column_powers`` (taken from the backend's
    V_K, K = the largest power + 1, by an exact 0/1 selection)."""
    from recmem.theory.sparse import column_powers

    powers = column_powers(k, power_shift)
    width = max(powers) + 1
    # the backend's V_K has columns λ^{K−1} … λ^0: exponent e sits in column K − 1 − e
    select = [[ONE if c == width - 1 - e else ZERO for e in powers] for c in range(width)]
    psi = prob.psi(k)
    out = None
    off = 0
    for j, blk in enumerate(prob.blocks):
        vj = b.vandermonde(b.vector(list(blk)), width)
        if powers != list(range(k - 1, -1, -1)):  # not V_k itself
            vj = b.matmul(vj, b.matrix(select))
        term = b.matmul(vj, b.matrix([[QQi(v) for v in r] for r in psi[j * k:(j + 1) * k]]))
        if prob.dims > 1:
            term = b.matmul(b.matrix(embedding(prob.rows, len(blk), off)), term)
        out = term if out is None else out + term
        off += len(blk)
    return out


def tilde_state(b: AbstractBackend, prob: SparseProblem, steps_fed: int,
                u: Sequence[Sequence[Fraction]] | None = None) -> Any:
    """x̃ after ``steps_fed`` inputs: the recurrence on the N − 1 Vandermonde channels (the
    timestamp channel decouples from them: Λ is diagonal and B block-diagonal); x̃_0 = 0."""
    if steps_fed == 0:
        return b.matrix(column_of([ZERO] * prob.rows))
    states = b.recurrence(b.vector(prob.vandermonde_nodes), b.matrix(drive_rows(prob, u)))
    return b.columns(states, steps_fed - 1, steps_fed)


class BackendOps:
    """The statements' linear algebra (``theory.sparse.LinearOps``) in a backend.

    Ω_k⁺ of a rank-deficient Ω_k is not continuous in Ω_k, so a float pseudoinverse of it would
    invert rounding noise; it is computed instead through the exact full-rank factorization
    Ω_k = Ω_k[:, piv]·F (Greville): Ω_k⁺x = Fᴴ(FFᴴ)⁻¹·Ω_k[:, piv]⁺x, two well-posed solves in the
    backend with the exact 0/1 selector and the exact F as data.
    """

    def __init__(self, b: AbstractBackend, p: int, factor: tuple[list[int], Any] | None) -> None:
        self.b, self.p, self.factor = b, p, factor

    def pinv_apply(self, a: Any, x: Any) -> Any:
        from recmem.theory import exact_linalg as ex
        from recmem.theory.sparse import to_rows

        b = self.b
        if self.factor is None:
            return b.pinv_apply(a, x)
        pivots, f = self.factor
        if not pivots:
            return b.matrix(column_of([ZERO] * self.p))
        select = [[ONE if i == piv else ZERO for piv in pivots] for i in range(self.p)]
        y = b.pinv_apply(b.matmul(a, b.matrix(select)), x)
        fh = ex.conj_transpose(f)
        z = b.pinv_apply(b.matrix(to_rows(f * fh)), y)  # square and invertible: a solve
        return b.matmul(b.matrix(to_rows(fh)), z)

    def transpose(self, a: Any) -> Any:
        return self.b.transpose(a)

    def matmul(self, a: Any, x: Any) -> Any:
        return self.b.matmul(a, x)

    def scale(self, a: Any, c: Fraction) -> Any:
        return a * self.b.entries(self.b.vector([QQi(c)]))[0]


def outside(check: str, backend: AbstractBackend, why: str) -> Evidence:
    """A check at a step outside the statement's hypothesis: nothing is claimed there."""
    return Evidence(check=check, kind="numeric", backend=backend.name,
                    outcome=Outcome.INCONCLUSIVE, precision_bits=backend.precision_bits,
                    message=f"outside the hypothesis: {why}")


def recovery_part(backend: AbstractBackend, ctx: Context, prob: SparseProblem, rec: Recovery,
                  k: int, check: str, power_shift: int = 0,
                  u: Sequence[Sequence[Fraction]] | None = None) -> Evidence:
    """The recovery step G(Ω_k)x̃_{k+s} in ``backend`` (x̃ from the recurrence) against the exact
    α (O eq. 6 and eq. 22), at step k.

    Ω_k and x̃_k are sums of k terms per input dimension (|λ| ≤ 1, ±1 basis: no cancellation to
    amplify), and the least-squares solve of a consistent system is backward stable: the error
    of α̂ is ≲ κ·(kM + N − 1)·u (inner-product length plus row count) with κ = κ₂(Ω_k), or the
    factorization's κ (:func:`recovery_kappa`), certified.
    """
    from recmem.checks.numeric import identity_check

    if not admitted(prob, rec, k, power_shift):
        return outside(check, backend, f"{rec.condition} fails at k = {k}")
    factor = factors(prob, k, power_shift)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        ops = BackendOps(b, prob.count, factor)
        x = tilde_state(b, prob, k + rec.state_shift, u)
        est = rec.estimate(omega_native(b, prob, k, power_shift), x, ops)
        return est, b.matrix(column_of(prob.alpha))

    instance = {"k": k, "problem": prob.description, "step": f"{rec.formula} ({rec.condition})"}
    return identity_check(check, backend, compute, instance=instance,
                          kappa=recovery_kappa(prob, k, power_shift),
                          n=prob.dims * k + prob.rows)


# ---- one check per step: a statement's parts merged ----------------------------------------

_SEVERITY = {Outcome.REFUTE: 0, Outcome.FAIL: 1, Outcome.ERROR: 2, Outcome.INCONCLUSIVE: 3,
             Outcome.SKIPPED: 4, Outcome.PASS: 5}


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def merge(check: str, parts: Sequence[Evidence]) -> Evidence:
    """One check from the checks of a statement's parts: it passes when every part passes; its
    outcome is the worst part's; its residual is max over the parts of residual/tolerance, with
    tolerance 1 (so "residual ≤ tolerance" keeps its meaning, and a negative control that breaks
    any one part moves this residual: rule C2). The deciding part's counterexample, certificate
    and enclosure are kept; every part is listed in ``data``."""
    t0 = time.perf_counter()
    worst = min(parts, key=lambda e: _SEVERITY[e.outcome])
    ratios = []
    for e in parts:
        r, tau = _number(e.residual), _number(e.tolerance)
        if r is not None and tau is not None and tau > 0:
            ratios.append(r / tau)
    needed = [e.needed_bits for e in parts if e.needed_bits is not None]
    summary = [f"{e.check}: {e.outcome}, residual {e.residual}, tolerance {e.tolerance}"
               + (f" ({e.message})" if e.message else "") for e in parts]
    return Evidence(
        check=check, kind="numeric", backend=parts[0].backend, outcome=worst.outcome,
        precision_bits=worst.precision_bits, instances=sum(e.instances for e in parts),
        residual=tol.fmt(max(ratios)) if ratios else None, tolerance="1" if ratios else None,
        tolerance_source="max over the parts of residual/tolerance; parts: " + "; ".join(
            f"{e.check}: {e.tolerance_source}" for e in parts),
        condition_number=worst.condition_number, enclosure=worst.enclosure,
        needed_bits=max(needed) if needed else None, counterexample=worst.counterexample,
        certified_by=worst.certified_by, message=worst.message,
        seconds=sum(e.seconds for e in parts) + time.perf_counter() - t0,
        data={"parts": summary})
