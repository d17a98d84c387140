"""What the sparse-recovery claims share (O §3.2 eq. 6; App. B Prop. 7, eq. 15–22; App. C eq. 29).

One exact problem — nodes, basis Ψ, coefficients α — built from a claim's parameters, and its
quantities formed in any backend through the :class:`AbstractBackend` interface. The backend
interface has no row slicing or stacking, so block matrices are assembled as sums of products
with exact 0/1 embedding matrices (exact in every arithmetic: they only add zeros).

Layout (App. B): N = RM + 1 channels; channel 0 is the timestamp feature with node λ₀; block j
(R channels) is fed by input dimension j (B of eq. 15). For M = 1 this is §3.2, where Ω_k has the
N − 1 Vandermonde rows (the paper's Ω_k ∈ ℂ^{(N−1)×P}).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Context, Param, at_least
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.conditioning import KappaBracket, exact_matrix_builder, kappa2
from recmem.numerics.exact import QQi, to_mpc
from recmem.numerics.haar import haar_basis
from recmem.numerics.nodes import uniform_draws

ZERO, ONE = QQi(Fraction(0)), QQi(Fraction(1))


# ---- fast exact strategies -----------------------------------------------------------------
# ``st.fractions(max_denominator=…)`` builds a fresh strategy on every draw (flatmap), which costs
# more than judging a small instance exactly; numerator/denominator pairs from fixed strategies
# are ~10× cheaper and still shrink towards 0 and small denominators.
_DENS = (1, 2, 3, 4, 8)


def small_fractions(bound: int = 2) -> Any:
    """Exact rationals n/d in [−bound, bound] with d ∈ {1, 2, 3, 4, 8}."""
    from hypothesis import strategies as st

    ints = {d: st.integers(-bound * d, bound * d) for d in _DENS}

    @st.composite
    def frac(draw: Any) -> Fraction:
        d = draw(st.sampled_from(_DENS))
        return Fraction(draw(ints[d]), d)

    return frac()


def small_nodes() -> Any:
    """Exact Gaussian rationals in the closed unit disk with small denominators."""
    from hypothesis import strategies as st

    part = small_fractions(1)
    return st.builds(QQi, part, part).filter(lambda z: z.re * z.re + z.im * z.im <= 1)


# A pool of exact nodes in the closed unit disk (0, ±1, ±i, the points of modulus 1/2 and 1/3 on
# the axes, (±1 ± i)/2, Pythagorean points (3 ± 4i)/5 of modulus 1, and a few others): drawing from
# a fixed pool is much cheaper than composing fractions, and shrinks towards the simplest nodes.
_H, _T = Fraction(1, 2), Fraction(1, 3)
_POOL_PARTS: list[tuple[Fraction | int, Fraction | int]] = [
    (0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (_H, 0), (-_H, 0), (0, _H), (0, -_H),
    (_H, _H), (_H, -_H), (-_H, _H), (-_H, -_H),
    (Fraction(3, 5), Fraction(4, 5)), (Fraction(3, 5), Fraction(-4, 5)),
    (Fraction(-3, 5), Fraction(4, 5)), (_T, 0), (-_T, 0), (0, _T), (0, -_T),
    (Fraction(1, 4), Fraction(3, 4)), (Fraction(-3, 4), Fraction(1, 4)),
    (Fraction(9, 10), 0), (0, Fraction(9, 10))]
NODE_POOL: tuple[QQi, ...] = tuple(QQi(Fraction(a), Fraction(b)) for a, b in _POOL_PARTS)


@functools.cache
def pool_nodes(count: int) -> Any:
    """``count`` distinct exact nodes from :data:`NODE_POOL` (one strategy per count)."""
    from hypothesis import strategies as st

    return st.lists(st.sampled_from(NODE_POOL), min_size=count, max_size=count, unique=True)


@functools.cache
def int_range(lo: int, hi: int) -> Any:
    """``st.integers(lo, hi)``, built once per range (strategy construction is not free)."""
    from hypothesis import strategies as st

    return st.integers(lo, hi)


def p_length(default: int) -> Param:
    """Sequence length L (App. B: u ∈ ℝ^{M×L}); a power of two for the Haar basis (App. E.2)."""
    return Param("L", default, "sequence length L (a power of two: Haar basis)", int,
                 check=lambda v: None if v >= 1 and not v & (v - 1) else
                 f"must be a power of two, got {v}")


def p_count(default: int) -> Param:
    """Number P of basis functions (Assumption A; §3.2)."""
    return Param("P", default, "number P of basis functions (sparsity)", int, check=at_least(1))


def p_ks(default: str = "auto") -> Param:
    """The steps k at which eq. 6 / eq. 22 / eq. 29 are checked."""
    return Param("ks", default, "steps k to check, comma-separated, or 'auto' (the first k with "
                 "rank Ψ_k = P, and L)", str)


def p_exact_nodes(default: str = "ring") -> Param:
    """Node family for the sparse claims: exact Gaussian-rational families only (the exact side
    needs Ω_k over ℚ(i); roots of unity are algebraic)."""
    return Param("nodes", default, "node family: ring (Lemma 6) or real", str,
                 choices=("ring", "real"))


def p_dims(default: int) -> Param:
    """Input dimension M (Prop. 7)."""
    return Param("M", default, "input dimension M", int, check=at_least(1))


def p_block(default: int) -> Param:
    """Nodes per input dimension R, N = RM + 1 (App. B, eq. 15)."""
    return Param("R", default, "nodes per input dimension R (N = RM + 1)", int, check=at_least(1))


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


def steps(ctx: Context, prob: SparseProblem) -> list[int]:
    """The k to check: the ``ks`` parameter, or the first k with rank Ψ_k = P together with L."""
    from recmem.theory import exact_linalg as ex
    from recmem.theory.sparse import dm

    spec = str(ctx["ks"]).strip()
    if spec != "auto":
        ks = sorted({int(s) for s in spec.split(",") if s.strip()})
        bad = [k for k in ks if not 1 <= k <= prob.length]
        if bad:
            raise ValueError(f"ks must lie in 1…L={prob.length}, got {bad}")
        return ks
    first = next((k for k in range(1, prob.length + 1)
                  if ex.rank(dm(prob.psi(k))) == prob.count), prob.length)
    return sorted({first, prob.length})


# ---- exact quantities (for condition numbers) ----------------------------------------------


def omega_rows(prob: SparseProblem, k: int) -> list[list[QQi]]:
    """Ω_k = V_kΨ_k (eq. 21), exactly, as rows of Gaussian rationals."""
    from recmem.theory.sparse import block_vandermonde, dm, to_rows

    return to_rows(block_vandermonde(prob.blocks, k) * dm(prob.psi(k)))


def omega_kappa(ctx: Context, prob: SparseProblem, k: int) -> KappaBracket:
    """Certified κ₂(Ω_k), computed from the exact Ω_k in ball arithmetic (cached)."""
    key = ("omega-kappa", prob, k)
    if key not in ctx.cache:
        ctx.cache[key] = kappa2(exact_matrix_builder(omega_rows(prob, k)))
    return ctx.cache[key]


def psi_kappa(ctx: Context, prob: SparseProblem, k: int) -> KappaBracket:
    """Certified κ₂(Ψ_k) (cached)."""
    key = ("psi-kappa", prob, k)
    if key not in ctx.cache:
        rows = [[QQi(v) for v in r] for r in prob.psi(k)]
        ctx.cache[key] = kappa2(exact_matrix_builder(rows))
    return ctx.cache[key]


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


def drive_rows(prob: SparseProblem, with_timestamp: bool) -> list[list[QQi]]:
    """B ũ_t for t = 1…L as exact rows (N×L with the timestamp channel, (N−1)×L without)."""
    u = prob.u()
    rows = [[ONE] * prob.length] if with_timestamp else []
    for j, blk in enumerate(prob.blocks):
        rows += [[QQi(v) for v in u[j]] for _ in blk]
    return rows


def omega_native(b: AbstractBackend, prob: SparseProblem, k: int) -> Any:
    """Ω_k = V_kΨ_k in the backend: Σ_j E_j V_{k,j} Ψ_k^{(j)} (E_j exact embeddings)."""
    psi = prob.psi(k)
    out = None
    off = 0
    for j, blk in enumerate(prob.blocks):
        vj = b.vandermonde(b.vector(list(blk)), k)
        term = b.matmul(vj, b.matrix([[QQi(v) for v in r] for r in psi[j * k:(j + 1) * k]]))
        if prob.dims > 1:
            term = b.matmul(b.matrix(embedding(prob.rows, len(blk), off)), term)
        out = term if out is None else out + term
        off += len(blk)
    return out


def tilde_states(b: AbstractBackend, prob: SparseProblem) -> Any:
    """x̃_1…x̃_L: the recurrence on the N − 1 Vandermonde channels (the timestamp channel
    decouples from them because Λ is diagonal and B block-diagonal)."""
    return b.recurrence(b.vector(prob.vandermonde_nodes), b.matrix(drive_rows(prob, False)))


def b_matrix(prob: SparseProblem) -> list[list[QQi]]:
    """B of eq. 15, N×(M+1): blockdiag(1, 1_{R×1}, …, 1_{R×1})."""
    rows = [[ONE] + [ZERO] * prob.dims]
    for j, blk in enumerate(prob.blocks):
        rows += [[ZERO] + [ONE if i == j else ZERO for i in range(prob.dims)] for _ in blk]
    return rows


def encoded_input(prob: SparseProblem) -> list[list[QQi]]:
    """ũ ∈ ℝ^{H×L} of eq. 13: the constant feature 1 on top of u."""
    return [[ONE] * prob.length] + [[QQi(v) for v in row] for row in prob.u()]


def recovery_checks(backend: AbstractBackend, ctx: Context, prob: SparseProblem) -> list[Any]:
    """α̂ = Ω_k⁺x̃_k in ``backend`` (x̃_k from the recurrence) against the exact α, at every step
    of :func:`steps` (O eq. 6 and eq. 22).

    Ω_k and x̃_k are sums of k terms per input dimension (|λ| ≤ 1, ±1 basis: no cancellation to
    amplify), and the least-squares solve of a consistent system is backward stable: the error
    of α̂ is ≲ κ₂(Ω_k)·(kM + N − 1)·u (inner-product length plus row count), κ₂ certified.
    """
    from recmem.checks.numeric import identity_check

    out = []
    for k in steps(ctx, prob):
        kappa = omega_kappa(ctx, prob, k)

        def compute(b: AbstractBackend, k: int = k) -> tuple[Any, Any]:
            x = b.columns(tilde_states(b, prob), k - 1, k)
            return b.pinv_apply(omega_native(b, prob, k), x), b.matrix(column_of(prob.alpha))

        out.append(identity_check(f"Ω_k⁺x̃_k = α at k={k}, {prob.description}", backend, compute,
                                  kappa=kappa, n=prob.dims * k + prob.rows))
    return out
