"""The perturbation error of paper W, Def. 3.4 (eq. (9) of the ICLR camera-ready), estimated from below.

    E_m(β) := sup_{θ̃ ∈ {θ : |θ − θ_m|₂ ≤ β}} ‖H − Ĥ(·; θ̃)‖,   |θ|₂ := max(|W|₂, |U|₂, |b|₂, |c|₂).

The ball of a max-norm is the product of the blocks' balls, so each block is perturbed on its own;
``blocks`` names the blocks that are perturbed at all (the linear-RNN hypothesis space has b = 0;
A.8 eq. (33) perturbs the readout c alone).

**Balls.** ``ball="2"`` is Def. 3.4's: samples are uniform in the *Frobenius* ball of every matrix
block (and the Euclidean ball of every vector block), shrunk by 2^-40. ‖Δ‖₂ ≤ ‖Δ‖_F, so every
sample lies in the β-ball whether |·|₂ means the spectral or the Frobenius norm of a matrix, and the
estimate is a lower bound on E_m(β) under either reading. ``ball="inf"`` is the ∞-norm ball that
Lemma A.6 uses for readout perturbations (|c̃_m − c_m|_∞ ≤ β; entrywise max for every block): a
larger ball for m ≥ 2, used to show that the two printed norms give different suprema.
Membership is certified exactly (:func:`certify_in_ball`: rational sums of squares, or exact
comparisons of the float64 entries); an estimate with ``certify=True`` refuses points outside their
ball (:func:`require_in_ball`: an internal inconsistency, ERROR, never a counterexample).

**Nested balls.** B(β') ⊂ B(β) for β' ≤ β, so the estimate at β is the maximum over the points drawn
for every β' ≤ β (the running maximum of the authors' code): it is non-decreasing in β by
construction, and ``sampled`` keeps the per-β maxima.

**Targeted search.** Projected normalised gradient ascent (torch autograd through the closed form
cᵀe^{Wt}U or through the batched RK4), started from the best samples at each β; its end points are
certified in the ball and re-evaluated by the same evaluator as the samples, and the estimate takes
the larger of the two, so the search never lowers it. For diagonal W, :func:`first_order_points`
adds the maximisers of the first-order expansion (exact maximisers when only c is perturbed: the
error is then linear in Δc).

**Norms** (one-dimensional input, Heaviside inputs u^x = x·1_[0,∞) on a finite grid of times; the
paper's functional norms are suprema over all inputs and all t ≥ 0, so these are lower bounds too):

- ``memory``: sup_t sup_x |d/dt (H_t − Ĥ_t)(u^x)|/|x| (for linear H: sup_t |ρ(t) − ρ̂(t)|, the
  App. D fitting error on the grid);
- ``output``: sup_t sup_x |(H_t − Ĥ_t)(u^x)|/|x|;
- ``sobolev``: sup_t [sup_x |(H_t − Ĥ_t)(u^x)|/|x| + sup_x |d/dt (H_t − Ĥ_t)(u^x)|/|x|], the
  Sobolev-type norm of Def. 3.7 (eq. (11): output plus its time derivative) restricted to
  Heaviside inputs of the magnitudes given;
- ``l1``: Σ_t sup_x |d/dt (H_t − Ĥ_t)(u^x)|/|x|·Δt (for linear H: Σ_t |ρ(t) − ρ̂(t)|·Δt), App. D's
  fitting norm ∫₀^∞ |ρ(s) − cᵀe^{sW}U| ds discretised on the evaluation grid (step Δt).

Evaluators: linear RNNs in closed form through the augmented matrix exponential
exp([[W, U], [0, 0]] t) = [[e^{Wt}, ∫₀ᵗ e^{Ws} ds U], [0, 1]] (numpy/scipy batched, torch batched,
mpmath, flint balls); nonlinear RNNs by :func:`recmem.numerics.ode.response_torch`, batched over
parameter sets and inputs, from the rest state h* = −W̃⁻¹b̃ (σ(z) = 0 only at z = 0 for identity,
tanh and hardtanh).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.numerics.kernels import ExponentialKernel, ExpSumKernel, Kernel, PolynomialKernel

NORMS = ("memory", "output", "sobolev", "l1")
BALLS = ("2", "inf")
READING = {"2": "uniform samples in the Frobenius ball of every matrix block (Euclidean for "
                "vectors), radius β(1 − 2^-40): inside the spectral-norm ball too, so a lower bound "
                "on E_m(β) under either reading of |·|₂",
           "inf": "uniform samples in the ∞-norm ball (entrywise |Δ| ≤ β(1 − 2^-40)) of every block "
                  "(Lemma A.6's |c̃ − c|_∞ ≤ β)"}
# Samples are drawn in the ball of radius (1 − MARGIN)·β, so that rounding the scaled float64
# sample (relative error ≤ 2^-53 per entry) cannot leave the ball; membership is still certified.
MARGIN = 2.0 ** -40
BLOCKS = ("W", "U", "b", "c")
LINEAR_BLOCKS = ("W", "U", "c")  # the linear-RNN hypothesis space: b = 0, not perturbed


def _check_ball(ball: str, blocks: Sequence[str]) -> None:
    if ball not in BALLS:
        raise ValueError(f"unknown ball {ball!r}: expected one of {', '.join(BALLS)}")
    if not blocks or set(blocks) - set(BLOCKS):
        raise ValueError(f"blocks must be a nonempty subset of {', '.join(BLOCKS)}, got {blocks}")


# ---- grids and parameters ------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """The exact uniform grid t_k = t0 + k·step, k = 0 … n−1 (rationals; floats derived once)."""

    t0: Fraction
    step: Fraction
    n: int

    def __post_init__(self) -> None:
        if self.n < 1 or self.step <= 0 or self.t0 <= 0:
            raise ValueError("a grid needs n ≥ 1, step > 0 and t0 > 0 (times after the input onset)")

    @functools.cached_property
    def _exact(self) -> tuple[Fraction, ...]:
        # computed once per grid: the claims ask for the times thousands of times (every response
        # in ball arithmetic, every estimate), and rational arithmetic is slow
        return tuple(self.t0 + k * self.step for k in range(self.n))

    @functools.cached_property
    def _values(self) -> np.ndarray:
        return np.array([float(v) for v in self._exact])

    @property
    def exact(self) -> list[Fraction]:
        return list(self._exact)

    @property
    def values(self) -> np.ndarray:
        return self._values.copy()  # a fresh array: a caller may write into it

    def describe(self) -> str:
        return f"t ∈ {{{self.t0}, {self.t0 + self.step}, …, {self.t0 + (self.n - 1) * self.step}}}"


@dataclass(frozen=True)
class Theta:
    """θ = (W, U, b, c) of a one-input RNN (W Def. 3.4): float64 arrays W (m,m), U, b, c (m,)."""

    W: np.ndarray
    U: np.ndarray
    b: np.ndarray
    c: np.ndarray

    def __post_init__(self) -> None:
        if any(np.iscomplexobj(v) for v in (self.W, self.U, self.b, self.c)):
            raise ValueError("complex entries are not supported: θ = (W, U, b, c) is real")
        if self.W.ndim != 2 or self.W.shape[0] < 1:
            raise ValueError(f"θ needs an m×m W with m ≥ 1, got shape {self.W.shape}")
        if not all(np.all(np.isfinite(v)) for v in (self.W, self.U, self.b, self.c)):
            raise ValueError("θ = (W, U, b, c) has non-finite entries")
        m = self.W.shape[0]
        if self.W.shape != (m, m) or any(v.shape != (m,) for v in (self.U, self.b, self.c)):
            raise ValueError(f"θ shapes do not fit: W {self.W.shape}, U {self.U.shape}, "
                             f"b {self.b.shape}, c {self.c.shape} (need m×m, m, m, m)")

    @property
    def m(self) -> int:
        return int(self.W.shape[0])

    @classmethod
    def linear(cls, W: Any, U: Any, c: Any) -> Theta:
        """θ = (W, U, 0, c) of a linear RNN; real inputs only (complex: ValueError)."""
        if any(np.iscomplexobj(v) for v in (W, U, c)):
            raise ValueError("complex entries are not supported: θ = (W, U, b, c) is real")
        w = np.asarray(W, dtype=float)
        return cls(w, np.asarray(U, dtype=float).reshape(-1), np.zeros(len(w)),
                   np.asarray(c, dtype=float).reshape(-1))

    def norm2(self) -> float:
        """|θ|₂ := max(|W|₂, |U|₂, |b|₂, |c|₂) with the spectral norm of W (float64)."""
        return float(max(np.linalg.norm(self.W, 2), np.linalg.norm(self.U), np.linalg.norm(self.b),
                         np.linalg.norm(self.c)))


@dataclass(frozen=True)
class Perturbations:
    """n perturbations (ΔW, ΔU, Δb, Δc), float64, sample i belonging to betas[beta_index[i]]."""

    dW: np.ndarray  # (n, m, m)
    dU: np.ndarray  # (n, m)
    db: np.ndarray  # (n, m); zero when b is not perturbed (the linear-RNN hypothesis space)
    dc: np.ndarray  # (n, m)
    beta_index: np.ndarray  # (n,)
    betas: tuple[Fraction, ...]

    @property
    def n(self) -> int:
        return len(self.beta_index)

    def apply(self, theta: Theta) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The perturbed parameters, batched: W (n,m,m), U, b, c (n,m)."""
        return (theta.W[None] + self.dW, theta.U[None] + self.dU, theta.b[None] + self.db,
                theta.c[None] + self.dc)

    def take(self, idx: Sequence[int] | np.ndarray) -> Perturbations:
        i = np.asarray(idx, dtype=int)
        return Perturbations(self.dW[i], self.dU[i], self.db[i], self.dc[i], self.beta_index[i],
                             self.betas)

    def concat(self, other: Perturbations) -> Perturbations:
        cat = lambda a, b: np.concatenate([a, b])  # noqa: E731
        return Perturbations(cat(self.dW, other.dW), cat(self.dU, other.dU), cat(self.db, other.db),
                             cat(self.dc, other.dc), cat(self.beta_index, other.beta_index), self.betas)


def unit_ball(rng: np.random.Generator, n: int, dim: int, ball: str = "2") -> np.ndarray:
    """n points uniform in the closed ball of radius 1 − MARGIN in ℝ^dim: Euclidean (``"2"``) or
    the cube of the ∞-norm (``"inf"``)."""
    if ball == "inf":
        return rng.uniform(-1.0, 1.0, size=(n, dim)) * (1.0 - MARGIN)
    g = rng.standard_normal((n, dim))
    norms = np.linalg.norm(g, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    radius = rng.uniform(size=(n, 1)) ** (1.0 / dim)
    return g / norms * radius * (1.0 - MARGIN)


def draw(m: int, betas: Sequence[Fraction], per_beta: int, seed: int | Sequence[int],
         blocks: Sequence[str] = BLOCKS, ball: str = "2") -> Perturbations:
    """``per_beta`` perturbations per β > 0 (one zero perturbation for β = 0: the ball is a point).

    Block by block, uniform in the ball of radius β (see the module docstring); blocks not in
    ``blocks`` stay unperturbed. The generator of β-index i is seeded with (*seed, i), so appending
    β values never changes the samples of others (a prefix of the β list draws the same points).
    """
    _check_ball(ball, blocks)
    if isinstance(m, bool) or not isinstance(m, int | np.integer) or m < 1:
        raise ValueError(f"draw needs m ≥ 1 hidden units, got {m!r}")
    if isinstance(per_beta, bool) or not isinstance(per_beta, int | np.integer) or per_beta < 1:
        raise ValueError(f"draw needs per_beta ≥ 1 samples, got {per_beta!r}")
    seeds = [int(seed)] if isinstance(seed, int | np.integer) else [int(v) for v in seed]
    betas = tuple(Fraction(b) for b in betas)
    if any(b < 0 for b in betas):
        raise ValueError("perturbation radii β must be ≥ 0")
    parts: dict[str, list[np.ndarray]] = {k: [] for k in BLOCKS}
    idx = []
    for i, beta in enumerate(betas):
        k = 1 if beta == 0 else per_beta
        rng = np.random.default_rng([*seeds, i])
        scale = float(beta)
        for name, dim in zip(BLOCKS, (m * m, m, m, m), strict=True):
            d = unit_ball(rng, k, dim, ball) * scale
            parts[name].append(d if name in blocks else np.zeros_like(d))
        idx.append(np.full(k, i))
    dW, dU, db, dc = (np.concatenate(parts[k]) for k in BLOCKS)
    return Perturbations(dW.reshape(-1, m, m), dU, db, dc, np.concatenate(idx), betas)


def exact_sumsq(x: np.ndarray) -> Fraction:
    """Σ x_i² exactly (every float64 is M·2^e with an integer M < 2^53: integer arithmetic)."""
    v = np.abs(np.asarray(x, dtype=float).ravel())
    v = v[v != 0]
    if not len(v):
        return Fraction(0)
    frac, ex = np.frexp(v)
    mant = (frac * 2.0**53).astype(np.int64)  # exact: frac has at most 53 significant bits
    ex = ex.astype(np.int64) - 53
    lo = int(ex.min())
    total = sum(int(a) ** 2 << (2 * (int(e) - lo)) for a, e in zip(mant, ex, strict=True))
    return Fraction(total) * Fraction(2) ** (2 * lo)


def _sumsq_at_most(x: np.ndarray, bound: Fraction) -> bool:
    """Σ x_i² ≤ ``bound``, decided exactly (the answer of ``exact_sumsq(x) <= bound``).

    A float64 screen first: for normal-range entries the computed s = fl(Σ x_i²) satisfies
    |s − Σ x_i²| ≤ γ_{n+1}·Σ x_i² (n squarings and additions, Higham Thm 3.1, γ_k = ku/(1 − ku)),
    so Σ x_i² ≤ s·(1 + 2(n + 2)u) ≤ s_up below (the product rounded, then moved up one ulp): when
    s_up ≤ bound (compared as exact rationals) the sum is certainly ≤ bound. Anything else — an
    entry so small its square could underflow, a non-finite entry, a sum near the bound — is
    decided by the exact integer sum, so the answer is always the exact one (the screen decides
    the samples, which lie at radius ≤ (1 − MARGIN)·β, at a fraction of the cost)."""
    v = np.abs(np.asarray(x, dtype=float).ravel())
    nz = v[v != 0]
    if not len(nz):
        return Fraction(0) <= bound
    if np.all(np.isfinite(nz)) and float(nz.min()) >= 2.0**-400 and float(nz.max()) <= 2.0**400:
        s = float(np.sum(nz * nz))
        s_up = math.nextafter(s * (1.0 + 2.0 * (len(nz) + 2) * 2.0**-53), math.inf)
        if Fraction(s_up) <= bound:
            return True
    return exact_sumsq(x) <= bound


def certify_in_ball(pert: Perturbations, ball: str = "2") -> np.ndarray:
    """Per sample, exactly: every block's ‖Δ‖_F² ≤ β² (hence ‖Δ‖₂ ≤ β too) for ``ball="2"``, every
    entry |Δ| ≤ β for ``ball="inf"`` (the float64 entries are rationals: exact comparisons)."""
    _check_ball(ball, BLOCKS)
    ok = np.empty(pert.n, dtype=bool)
    for i in range(pert.n):
        beta = pert.betas[int(pert.beta_index[i])]
        blocks = (pert.dW[i], pert.dU[i], pert.db[i], pert.dc[i])
        if ball == "2":
            ok[i] = all(_sumsq_at_most(block, beta * beta) for block in blocks)
        else:
            ok[i] = all(Fraction(float(np.max(np.abs(block)))) <= beta for block in blocks)
    return ok


def require_in_ball(pert: Perturbations, ball: str = "2", what: str = "the sampler") -> None:
    """Raise :class:`~recmem.numerics.certified_oracles.InternalInconsistency` unless every point
    of ``pert`` lies in its β-ball (:func:`certify_in_ball`, exact). The points are recmem's own
    (samples, targeted points, search end points): one outside its ball is a bug of recmem, and
    judging it against a statement's supremum could report a counterexample that is none, so the
    claim runner turns this into ERROR before any judge sees the points."""
    from recmem.numerics.certified_oracles import InternalInconsistency

    inside = certify_in_ball(pert, ball)
    if not inside.all():
        bad = np.flatnonzero(~inside)
        raise InternalInconsistency(
            f"internal inconsistency: {what} produced {len(bad)} of {pert.n} points outside "
            f"their β-ball ({'Frobenius/Euclidean' if ball == '2' else '∞-norm'}; first: point "
            f"{int(bad[0])}, β = {pert.betas[int(pert.beta_index[bad[0]])]})")


# ---- targets: linear functionals with a closed-form kernel ------------------------------------
@dataclass(frozen=True)
class LinearTarget:
    """H_t(u^x) = x∫₀ᵗ ρ and d/dt H_t(u^x) = xρ(t) for a one-input kernel ρ (W eq. (3), the
    Riesz form)."""

    kernel: Kernel

    def __post_init__(self) -> None:
        if self.kernel.input_dim != 1:
            raise ValueError("the perturbation estimator handles one-dimensional inputs (as in App. D)")

    @property
    def weight(self) -> Fraction:
        return self.kernel.weights[0]

    def rate_numpy(self, t: np.ndarray) -> np.ndarray:
        return np.asarray(self.kernel.rho(np.asarray(t, dtype=float))[:, 0])

    def out_numpy(self, t: np.ndarray) -> np.ndarray:
        """∫₀ᵗ ρ in closed form (exp, poly, expsum), by quadrature otherwise."""
        t = np.asarray(t, dtype=float)
        k, w = self.kernel, float(self.weight)
        if isinstance(k, ExponentialKernel):
            a = float(k.base)
            return w * (a ** t - 1.0) / math.log(a)
        if isinstance(k, PolynomialKernel):
            p = float(k.exponent)
            return w * ((t + 1.0) ** (1.0 - p) - 1.0) / (1.0 - p)
        if isinstance(k, ExpSumKernel):
            out = np.zeros_like(t)
            for c, r in zip(k.coeffs, k.rates, strict=True):
                out += float(c) * -np.expm1(-float(r) * t) / float(r)
            return w * out
        from scipy.integrate import quad

        return np.array([w * quad(lambda s: float(k.profile(np.array([s]))[0]), 0.0, tk,
                                  epsabs=0.0, epsrel=1e-13, limit=200)[0] for tk in t])

    def rate_mp(self, t: Fraction, ctx: Any) -> Any:
        return self.kernel.rho_mp(ctx.mpf(t.numerator) / t.denominator, ctx)[0]

    def out_mp(self, t: Fraction, ctx: Any) -> Any:
        k = self.kernel
        tt = ctx.mpf(t.numerator) / t.denominator
        w = ctx.mpf(self.weight.numerator) / self.weight.denominator
        if isinstance(k, ExponentialKernel):
            a = ctx.mpf(k.base.numerator) / k.base.denominator
            return w * (ctx.power(a, tt) - 1) / ctx.log(a)
        if isinstance(k, PolynomialKernel):
            p = ctx.mpf(k.exponent.numerator) / k.exponent.denominator
            return w * (ctx.power(tt + 1, 1 - p) - 1) / (1 - p)
        if isinstance(k, ExpSumKernel):
            return w * ctx.fsum(ctx.mpf(c.numerator) / c.denominator
                                * -ctx.expm1(-ctx.mpf(r.numerator) / r.denominator * tt)
                                / (ctx.mpf(r.numerator) / r.denominator)
                                for c, r in zip(k.coeffs, k.rates, strict=True))
        return ctx.quad(lambda s: k.profile_mp(s, ctx), [0, tt]) * w

    def rate_arb(self, t: Fraction) -> Any:
        import flint

        from recmem.numerics.expsum_fit import rho_arb

        return rho_arb(self.kernel, flint.arb(flint.fmpq(t.numerator, t.denominator)))

    def out_arb(self, t: Fraction) -> Any:
        import flint

        k = self.kernel
        tt = flint.arb(flint.fmpq(t.numerator, t.denominator))
        w = flint.arb(flint.fmpq(self.weight.numerator, self.weight.denominator))
        q = lambda v: flint.arb(flint.fmpq(v.numerator, v.denominator))  # noqa: E731
        if isinstance(k, ExponentialKernel):
            la = q(k.base).log()
            return w * ((la * tt).exp() - 1) / la
        if isinstance(k, PolynomialKernel):
            p = q(k.exponent)
            return w * (((1 - p) * (tt + 1).log()).exp() - 1) / (1 - p)
        if isinstance(k, ExpSumKernel):
            out = flint.arb(0)
            for c, r in zip(k.coeffs, k.rates, strict=True):
                out += q(c) * -(-q(r) * tt).expm1() / q(r)
            return w * out
        raise ValueError(f"{k.description} has no closed-form integral: no certified enclosure")


# ---- error norms ---------------------------------------------------------------------------------
def combine(d_out: Any, d_rate: Any, norm: str, step: float = 1.0) -> Any:
    """The chosen norm over the grid (last axis); d_out, d_rate are |differences|/|x| of shape
    (…, X, T), the sup over the input magnitudes X taken first (eq. (11) takes the sup over
    inputs at each t). ``memory``/``output``/``sobolev`` take the sup over t; ``l1`` sums the
    memory differences times the grid ``step`` (App. D's ∫|ρ − ρ̂| on the grid)."""
    if norm not in NORMS:
        raise ValueError(f"unknown norm {norm!r}: expected one of {', '.join(NORMS)}")
    o, r = d_out.max(-2), d_rate.max(-2)
    if not isinstance(o, np.ndarray):  # torch: .max(dim) returns (values, indices)
        o, r = o.values, r.values
    if norm == "l1":
        return r.sum(-1) * step
    val = {"memory": r, "output": o, "sobolev": o + r}[norm]
    out = val.max(-1)
    return out if isinstance(out, np.ndarray) else out.values


# ---- linear RNNs in closed form -----------------------------------------------------------------
# Above this κ₂ of the eigenvector matrix the eigendecomposition route is not trusted and the
# model is recomputed by scaling and squaring (scipy's expm of the augmented matrix).
EIG_COND_LIMIT = 1e8


def linear_response_numpy(W: np.ndarray, U: np.ndarray, c: np.ndarray,
                          grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """(ρ̂(t), ∫₀ᵗ ρ̂) = (cᵀe^{Wt}U, cᵀ∫₀ᵗe^{Ws}ds U) on the grid, batched: W (n,m,m), U, c (n,m).

    By LAPACK's eigendecomposition W = VΛV⁻¹ (vectorised over the batch; scipy's expm costs about
    1 ms per call, 50× more): ρ̂(t) = Σ_j (cᵀV)_j (V⁻¹U)_j e^{λ_j t} and ∫₀ᵗ ρ̂ uses
    (e^{λt} − 1)/λ = expm1(λt)/λ. Models whose V has κ₂ > EIG_COND_LIMIT (near-defective W) are
    recomputed from the augmented matrix exp([[W, U], [0, 0]] t) by scipy's expm. Overflowing models
    (a growing mode) give inf.
    """
    t = grid.values
    with np.errstate(all="ignore"):
        lam, V = np.linalg.eig(W)
        y = np.linalg.solve(V, U.astype(complex)[..., None])[..., 0]
        z = np.einsum("nm,nmj->nj", c.astype(complex), V) * y  # residues (cᵀV)_j (V⁻¹U)_j
        lt = lam[:, None, :] * t[None, :, None]
        small = np.abs(lt) < 1e-8
        phi = np.where(small, t[None, :, None] * (1 + lt / 2),
                       np.expm1(lt) / np.where(small, 1, lam[:, None, :]))
        r = np.einsum("nj,ntj->nt", z, np.exp(lt)).real
        o = np.einsum("nj,ntj->nt", z, phi).real
        bad_v = np.linalg.cond(V) > EIG_COND_LIMIT
    for i in np.flatnonzero(bad_v | ~np.isfinite(np.linalg.cond(V))):
        r[i], o[i] = _expm_response(W[i], U[i], c[i], grid)
    bad = ~(np.isfinite(r).all(axis=1) & np.isfinite(o).all(axis=1))
    r[bad], o[bad] = np.inf, np.inf
    return r, o


def _expm_response(W: np.ndarray, U: np.ndarray, c: np.ndarray, grid: Grid) -> tuple[np.ndarray,
                                                                                       np.ndarray]:
    """One model by scipy's expm of the augmented matrix at t0 and at the step (chained)."""
    import scipy.linalg

    m = len(W)
    M = np.zeros((m + 1, m + 1))
    M[:m, :m], M[:m, m] = W, U
    with np.errstate(all="ignore"):
        e0, es = scipy.linalg.expm(M * float(grid.t0)), scipy.linalg.expm(M * float(grid.step))
        p, v = e0 @ np.append(U, 0.0), e0[:, m]
        r, o = np.empty(grid.n), np.empty(grid.n)
        for k in range(grid.n):
            if k:
                p, v = es @ p, es @ v
            r[k], o[k] = c @ p[:m], c @ v[:m]
    return r, o


def linear_response_torch(W: Any, U: Any, c: Any, grid: Grid) -> tuple[Any, Any]:
    """:func:`linear_response_numpy` in torch: ``matrix_exp`` of the augmented matrix at t0 and at
    the step, the step's powers by doubling (⌈log₂ n⌉ batched products, not n chained ones);
    batched and differentiable."""
    import torch

    n, m = W.shape[0], W.shape[-1]
    kw: dict[str, Any] = {"dtype": W.dtype, "device": W.device}
    M = torch.zeros(n, m + 1, m + 1, **kw)
    M[:, :m, :m] = W
    M[:, :m, m] = U
    e0 = torch.linalg.matrix_exp(M * float(grid.t0))
    pw = torch.linalg.matrix_exp(M * float(grid.step))
    powers = torch.eye(m + 1, **kw).expand(n, 1, m + 1, m + 1)
    while powers.shape[1] < grid.n:  # powers 0…L−1 → 0…2L−1
        powers = torch.cat([powers, powers @ pw.unsqueeze(1)], dim=1)
        pw = pw @ pw
    start = torch.zeros(n, m + 1, 2, **kw)
    start[:, :m, 0] = U
    start[:, m, 1] = 1.0
    states = powers[:, : grid.n] @ (e0 @ start).unsqueeze(1)  # (n, T, m+1, 2)
    rate = (c.unsqueeze(1) * states[:, :, :m, 0]).sum(-1)
    out = (c.unsqueeze(1) * states[:, :, :m, 1]).sum(-1)
    return rate, out


def linear_response_mp(W: np.ndarray, U: np.ndarray, c: np.ndarray, grid: Grid,
                       ctx: Any) -> tuple[list[Any], list[Any]]:
    """One model's (ρ̂(t), ∫₀ᵗρ̂) on the grid at the precision of the mpmath context ``ctx``
    (float64 parameters converted exactly)."""
    m = len(W)
    M = ctx.matrix(m + 1, m + 1)
    for i in range(m):
        for j in range(m):
            M[i, j] = ctx.mpf(float(W[i, j]))
        M[i, m] = ctx.mpf(float(U[i]))
    t0 = ctx.mpf(grid.t0.numerator) / grid.t0.denominator
    st = ctx.mpf(grid.step.numerator) / grid.step.denominator
    e0, es = ctx.expm(M * t0), ctx.expm(M * st)
    cc = [ctx.mpf(float(v)) for v in c]
    p = e0 * ctx.matrix([ctx.mpf(float(u)) for u in U] + [0])
    v = e0[:, m]
    rates, outs = [], []
    for k in range(grid.n):
        if k:
            p, v = es * p, es * v
        rates.append(ctx.fsum(cc[i] * p[i] for i in range(m)))
        outs.append(ctx.fsum(cc[i] * v[i] for i in range(m)))
    return rates, outs


def linear_response_arb(W: np.ndarray, U: np.ndarray, c: Sequence[Any],
                        grid: Grid) -> tuple[list[Any], list[Any]]:
    """One model's (ρ̂(t), ∫₀ᵗρ̂) on the exact grid as arb balls (current flint precision).

    W and U are float64 (converted exactly); entries of c may be floats or arb balls (e.g. the
    enclosure of an exact least-squares fit plus a float64 perturbation).
    """
    import flint

    m = len(W)
    ball = lambda v: v if isinstance(v, flint.arb) else flint.arb(float(v))  # noqa: E731
    rows = [[flint.arb(float(W[i, j])) for j in range(m)] + [flint.arb(float(U[i]))] for i in range(m)]
    rows.append([flint.arb(0)] * (m + 1))
    M = flint.arb_mat(rows)
    q = lambda v: flint.arb(flint.fmpq(v.numerator, v.denominator))  # noqa: E731
    pw = (M * q(grid.step)).exp()
    # the grids t = k·Δt (t0 = Δt) need one matrix exponential, not two (each ~1.3 ms at 256 bits)
    e0 = pw if grid.t0 == grid.step else (M * q(grid.t0)).exp()
    cc = flint.arb_mat([[ball(v) for v in c] + [flint.arb(0)]])
    start = e0 * flint.arb_mat([[flint.arb(float(u)), flint.arb(0)] for u in U]
                               + [[flint.arb(0), flint.arb(1)]])
    # the rows cc·P_k, P_k the k-th power of the step's exponential, by doubling (cc·P_{L+k} =
    # (cc·P_k)·pw^L): each is a product of ⌈log₂ n⌉ factors, so ball radii grow over a few levels
    # instead of over n chained products; a row times a matrix costs (m + 1)², not (m + 1)³
    heads = [cc]
    while len(heads) < grid.n:
        heads += [h * pw for h in heads[: grid.n - len(heads)]]
        pw = pw * pw
    rates, outs = [], []
    for k in range(grid.n):
        v = heads[k] * start
        rates.append(v[0, 0])
        # cc's last entry is 0, so the constant row of the output column does not enter
        outs.append(v[0, 1])
    return rates, outs


# ---- evaluators ----------------------------------------------------------------------------------
Evaluate = Callable[[Perturbations], np.ndarray]


def linear_evaluator(theta: Theta, target: LinearTarget, grid: Grid, norm: str) -> Evaluate:
    """errors(Δθ) in float64 (numpy/scipy closed form) for the linear RNN θ (b is not used)."""
    t = grid.values
    r_t, o_t = target.rate_numpy(t), target.out_numpy(t)

    def evaluate(pert: Perturbations) -> np.ndarray:
        W, U, _, c = pert.apply(theta)
        r, o = linear_response_numpy(W, U, c, grid)
        with np.errstate(all="ignore"):
            err = combine(np.abs(o - o_t)[:, None], np.abs(r - r_t)[:, None], norm,
                          float(grid.step))
        return np.where(np.isfinite(err), err, np.inf)

    return evaluate


def linear_objective_torch(theta: Theta, target: LinearTarget, grid: Grid, norm: str,
                           device: str = "cpu") -> Callable[..., Any]:
    """errors(ΔW, ΔU, Δb, Δc) as a differentiable torch function (closed form, float64)."""
    import torch

    t = grid.values
    kw: dict[str, Any] = {"dtype": torch.float64, "device": device}
    r_t, o_t = torch.tensor(target.rate_numpy(t), **kw), torch.tensor(target.out_numpy(t), **kw)
    W0, U0, c0 = (torch.tensor(v, **kw) for v in (theta.W, theta.U, theta.c))

    def objective(dW: Any, dU: Any, db: Any, dc: Any) -> Any:
        r, o = linear_response_torch(W0 + dW, U0 + dU, c0 + dc, grid)
        err = combine((o - o_t).abs().unsqueeze(1), (r - r_t).abs().unsqueeze(1), norm,
                      float(grid.step))
        # overflow (a growing mode) gives inf or nan: both mean "unbounded on the grid"
        return torch.where(torch.isfinite(err), err, torch.full_like(err, math.inf))

    return objective


def rest_states_torch(W: Any, b: Any) -> tuple[Any, Any]:
    """(h*, ok): h* = −W⁻¹b, the rest state under zero input for σ vanishing only at 0
    (differentiable in W and b), and whether it is the state reached from h_{−∞} = 0 (b = 0, or
    W Hurwitz). Where ok is False, h* is 0 and the model's error is set to inf by the caller."""
    import torch

    with torch.no_grad():
        hurwitz = torch.linalg.eigvals(W).real.amax(dim=1) < 0
        zero_b = (b == 0).all(dim=1)
    eye = torch.eye(W.shape[-1], dtype=W.dtype, device=W.device).expand_as(W)
    safe = torch.where(hurwitz.view(-1, 1, 1), W, -eye)
    h = -torch.linalg.solve(safe, torch.where(hurwitz.view(-1, 1), b, torch.zeros_like(b))
                            .unsqueeze(2)).squeeze(2)
    return h, hurwitz | zero_b


def rnn_errors_torch(W: Any, U: Any, b: Any, c: Any, sigma: str, rate_t: Any, out_t: Any,
                     grid: Grid, magnitudes: Sequence[Fraction], norm: str, dt: float = 1e-2,
                     memory: bool = False) -> Any:
    """Errors of n σ-RNNs (W (n,m,m), U, b, c (n,m) tensors) against targets given on the grid
    (rate_t, out_t: (n, T) tensors, the target's response to the unit Heaviside input; linear
    targets scale with x), by batched RK4 (:func:`recmem.numerics.ode.response_torch`) from the
    rest state h* = −W⁻¹b; differentiable. Every parameter set runs with every magnitude x in one
    batch. Models whose rest state is not reached from h_{−∞} = 0 (b ≠ 0, W not Hurwitz) get inf.

    With ``memory``, also returns the models' memory on the grid, max_x |d/dt Ĥ_t(u^x)|/|x|
    (Def. 3.1 over the magnitudes given: a lower bound), shape (n, T).
    """
    import torch

    from recmem.numerics.activations import activation
    from recmem.numerics.ode import response_torch

    act = activation(sigma).torch
    n, nx = W.shape[0], len(magnitudes)
    xs = torch.tensor([float(x) for x in magnitudes], dtype=W.dtype, device=W.device)
    h0, ok = rest_states_torch(W, b)
    rep = lambda v: v.repeat_interleave(nx, dim=0)  # noqa: E731
    x = xs.repeat(n).unsqueeze(1)
    y, dy = response_torch(rep(W), rep(U).unsqueeze(2), rep(b), rep(c), act, x, grid.values, dt=dt,
                           h0=rep(h0))
    scale = x.abs()
    d_out = ((y - x * rep(out_t)).abs() / scale).view(n, nx, -1)
    d_rate = ((dy - x * rep(rate_t)).abs() / scale).view(n, nx, -1)
    err = combine(d_out, d_rate, norm, float(grid.step))
    err = torch.where(ok & torch.isfinite(err), err, torch.full_like(err, math.inf))
    if not memory:
        return err
    return err, (dy.abs() / scale).view(n, nx, -1).amax(dim=1)


def rnn_objective_torch(theta: Theta, sigma: str, target: LinearTarget, grid: Grid, norm: str,
                        magnitudes: Sequence[Fraction], dt: float = 1e-2,
                        device: str = "cpu") -> Callable[..., Any]:
    """errors(ΔW, ΔU, Δb, Δc) of the σ-RNN θ + Δθ by batched RK4 (differentiable; float64)."""
    import torch

    t = grid.values
    kw: dict[str, Any] = {"dtype": torch.float64, "device": device}
    r_t = torch.tensor(target.rate_numpy(t), **kw)
    o_t = torch.tensor(target.out_numpy(t), **kw)
    W0, U0, b0, c0 = (torch.tensor(v, **kw) for v in (theta.W, theta.U, theta.b, theta.c))

    def objective(dW: Any, dU: Any, db: Any, dc: Any) -> Any:
        n = dW.shape[0]
        return rnn_errors_torch(W0 + dW, U0 + dU, b0 + db, c0 + dc, sigma, r_t.expand(n, -1),
                                o_t.expand(n, -1), grid, magnitudes, norm, dt)

    return objective


def torch_evaluator(objective: Callable[..., Any], device: str = "cpu", chunk: int = 4096) -> Evaluate:
    """errors(Δθ) in float64 numpy from a torch objective, without gradients (chunked batches)."""
    import torch

    def evaluate(pert: Perturbations) -> np.ndarray:
        out = []
        with torch.no_grad():
            for s in range(0, pert.n, chunk):
                blocks = (torch.tensor(v[s:s + chunk], dtype=torch.float64, device=device)
                          for v in (pert.dW, pert.dU, pert.db, pert.dc))
                out.append(objective(*blocks).cpu().numpy())
        return np.concatenate(out) if out else np.zeros(0)

    return evaluate


# ---- first-order targeted points (diagonal W) -------------------------------------------------
def _phi(lam: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For diagonal W = diag(λ): ∂e^{Wt}/∂W_ij = φ_ij(t) e_i e_jᵀ with the divided difference
    φ_ij = (e^{λ_i t} − e^{λ_j t})/(λ_i − λ_j) (t e^{λ_i t} on the diagonal), and its integral
    ψ_ij(t) = ∫₀ᵗ φ_ij. Shapes (T, m, m)."""
    li, lj = lam[:, None], lam[None, :]
    e = np.exp(np.multiply.outer(t, lam))  # (T, m)
    g = np.where(lam != 0, np.expm1(np.multiply.outer(t, lam)) / np.where(lam != 0, lam, 1),
                 t[:, None])  # ∫₀ᵗ e^{λs} ds
    same = np.isclose(li, lj, rtol=0, atol=0)
    den = np.where(same, 1.0, li - lj)
    phi = np.where(same, t[:, None, None] * e[:, :, None], (e[:, :, None] - e[:, None, :]) / den)
    te = t[:, None] * e  # t e^{λt}; ∫₀ᵗ s e^{λs} ds = (t e^{λt} − g)/λ (t²/2 at λ = 0)
    diag_int = np.where(lam != 0, (te - g) / np.where(lam != 0, lam, 1), t[:, None] ** 2 / 2)
    psi = np.where(same, diag_int[:, :, None], (g[:, :, None] - g[:, None, :]) / den)
    return phi, psi


def first_order_points(theta: Theta, target: LinearTarget, grid: Grid, betas: Sequence[Fraction],
                       norm: str, per_beta: int | None = None, *, ball: str = "2",
                       blocks: Sequence[str] = LINEAR_BLOCKS) -> Perturbations:
    """Targeted points for a linear RNN with diagonal W: for a grid time t, each perturbed block
    moves by β(1 − 2^-40) to the maximiser over its ball of the first-order change
    sign(e(t))·⟨∇e(t), Δ⟩ (e = ρ̂ − ρ, or the output error, or both for the Sobolev-type norm):
    ∇e/‖∇e‖₂ in the Euclidean/Frobenius ball, sign(∇e) in the ∞-ball. Closed-form gradients. One
    point per (β, t), or the ``per_beta`` times with the largest first-order prediction
    |e(t)| + β·Σ_blocks ‖∇e(t)‖_* (‖·‖_* the dual norm: 2, resp. 1). For the ``l1`` norm the
    first-order change of Σ_t |e(t)|·Δt gives one point per β. When only c is perturbed the
    error is linear in Δc and these points are the exact maximisers of the shrunk ball.
    These are ordinary points of the ball: evaluated exactly like samples, they can only raise the
    lower bound."""
    _check_ball(ball, blocks)
    W = theta.W
    if np.count_nonzero(W - np.diag(np.diag(W))):
        raise ValueError("first-order points need a diagonal W")
    lam, U, c, t = np.diag(W), theta.U, theta.c, grid.values
    e = np.exp(np.multiply.outer(t, lam))
    g = np.where(lam != 0, np.expm1(np.multiply.outer(t, lam)) / np.where(lam != 0, lam, 1), t[:, None])
    phi, psi = _phi(lam, t)
    er = e @ (c * U) - target.rate_numpy(t)
    eo = g @ (c * U) - target.out_numpy(t)
    grads = []
    for err, base, mat in ((er, e, phi), (eo, g, psi)):
        s = np.sign(err)[:, None]
        grads.append((s[:, :, None] * c[None, :, None] * U[None, None, :] * mat,  # ∂/∂W_ij
                      s * c[None, :] * base,  # ∂/∂U_i
                      s * U[None, :] * base))  # ∂/∂c_i
    pick = {"memory": [grads[0]], "output": [grads[1]], "sobolev": grads, "l1": [grads[0]]}[norm]
    gW, gU, gc = (sum(p[k] for p in pick) for k in range(3))
    size = {"memory": np.abs(er), "output": np.abs(eo), "sobolev": np.abs(er) + np.abs(eo),
            "l1": np.abs(er)}[norm]
    if norm == "l1":  # Σ_t |e(t)|Δt: one direction, the sum of the per-time ones
        step = float(grid.step)
        gW, gU, gc = (v.sum(axis=0, keepdims=True) * step for v in (gW, gU, gc))
        size = np.array([size.sum() * step])
    live = dict(zip(("W", "U", "c"), (gW, gU, gc), strict=True))
    for name in ("W", "U", "c"):
        if name not in blocks:
            live[name] = np.zeros_like(live[name])
    dual = 2 if ball == "2" else 1

    def unit(v: np.ndarray) -> np.ndarray:
        if ball == "inf":
            return np.sign(v) * (1.0 - MARGIN)
        n = np.sqrt((v.reshape(len(v), -1) ** 2).sum(axis=1)).reshape(-1, *([1] * (v.ndim - 1)))
        return np.where(n > 0, v / np.where(n > 0, n, 1), 0.0) * (1.0 - MARGIN)

    slope = sum(np.linalg.norm(v.reshape(len(v), -1), ord=dual, axis=1) for v in live.values())
    uW, uU, uc = (unit(live[k]) for k in ("W", "U", "c"))
    dW, dU, dc, idx = [], [], [], []
    for i, beta in enumerate(betas):
        if beta > 0:
            b = float(beta)
            times = np.arange(len(size)) if per_beta is None else np.argsort(
                -(size + b * slope), kind="stable")[:per_beta]
            dW.append(uW[times] * b)
            dU.append(uU[times] * b)
            dc.append(uc[times] * b)
            idx.append(np.full(len(times), i))
    if not idx:
        z = np.zeros((0, theta.m))
        return Perturbations(np.zeros((0, theta.m, theta.m)), z, z, z, np.zeros(0, dtype=int),
                             tuple(betas))
    dU_ = np.concatenate(dU)
    return Perturbations(np.concatenate(dW), dU_, np.zeros_like(dU_), np.concatenate(dc),
                         np.concatenate(idx), tuple(betas))


# ---- the estimator -------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchSpec:
    """Projected normalised gradient ascent: ``steps`` steps from the ``starts`` best samples per β."""

    objective: Callable[..., Any]
    steps: int = 12
    starts: int = 2
    step_size: float = 0.5  # fraction of β per step (normalised gradient, per block)
    device: str = "cpu"
    only: tuple[int, ...] | None = None  # indices of the β values to search at (None: every β > 0)

    def describe(self) -> str:
        return (f"projected normalised gradient ascent (torch autograd), {self.steps} steps of "
                f"{self.step_size}·β per block from the {self.starts} best samples per β")


@dataclass
class Estimate:
    """A lower bound on E_m(β) for each β, with how it was obtained."""

    betas: tuple[Fraction, ...]
    sampled: np.ndarray  # per β: max over that β's own samples
    searched: np.ndarray  # per β: best end point of the targeted search (nan where none ran)
    values: np.ndarray  # per β: running max over β' ≤ β of max(sampled, searched)
    argmax: list[tuple[int, int]]  # per β: (β index, point index) of the attaining point
    per_beta: int
    evaluations: int
    norm: str
    search: str
    certified_in_ball: bool
    points: Perturbations
    errors: np.ndarray  # error of every point in ``points``
    ball: str = "2"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def unperturbed(self) -> float:
        """E_m(0) = ‖H − Ĥ_m‖ (the β = 0 entry; requires β = 0 in the list)."""
        i = self.betas.index(Fraction(0))
        return float(self.values[i])

    def table(self) -> list[dict[str, Any]]:
        return [{"beta": str(b), "E": _fmt(v), "sampled": _fmt(s), "searched": _fmt(a)}
                for b, v, s, a in zip(self.betas, self.values, self.sampled, self.searched,
                                      strict=True)]

    def describe(self) -> str:
        return (f"lower bound on E_m(β): {self.per_beta} samples per β (nested balls: the running "
                f"max over β' ≤ β), {self.search}; {self.evaluations} evaluations; norm "
                f"{self.norm}; {READING[self.ball]}")


def _fmt(v: float) -> str:
    return "nan" if np.isnan(v) else ("inf" if np.isinf(v) else f"{v:.4g}")


def estimate(evaluate: Evaluate, m: int, betas: Sequence[Fraction], per_beta: int,
             seed: int | Sequence[int],
             *, blocks: Sequence[str] = BLOCKS, ball: str = "2", norm: str = "memory",
             search: SearchSpec | None = None, targeted: Perturbations | None = None,
             keep: int = 4, certify: bool = True) -> Estimate:
    """Estimate E_m(β) from below for every β (W Def. 3.4, eq. (9)); see the module docstring.

    ``blocks``/``ball``: which blocks are perturbed and in which ball (:func:`draw`).
    ``targeted``: extra points of the balls (e.g. :func:`first_order_points`), evaluated like the
    samples; the ``keep`` best per β are kept (reported under ``searched``) and seed the search.
    """
    betas = tuple(Fraction(b) for b in betas)
    if list(betas) != sorted(betas):
        raise ValueError("β values must be increasing")
    pts = draw(m, betas, per_beta, seed, blocks, ball)
    errs = evaluate(pts)
    sampled = np.array([float(np.max(errs[pts.beta_index == i])) for i in range(len(betas))])
    searched = np.full(len(betas), np.nan)
    how = []
    if targeted is not None and targeted.n:
        t_err = evaluate(targeted)
        best = np.concatenate([np.flatnonzero(targeted.beta_index == i)[
            np.argsort(-t_err[targeted.beta_index == i], kind="stable")[:keep]]
            for i in range(len(betas))]).astype(int)
        targeted, t_err = targeted.take(best), t_err[best]
        for i in range(len(betas)):
            if np.any(targeted.beta_index == i):
                searched[i] = float(np.max(t_err[targeted.beta_index == i]))
        pts, errs = pts.concat(targeted), np.concatenate([errs, t_err])
        how.append(f"first-order targeted points (best {keep} per β)")
    if search is not None:
        found = _search(search, pts, errs, betas, blocks, ball)
        if found.n:
            f_err = evaluate(found)
            for i in range(len(betas)):
                sel = found.beta_index == i
                if sel.any():
                    searched[i] = float(np.nanmax([searched[i], np.max(f_err[sel])]))
            pts, errs = pts.concat(found), np.concatenate([errs, f_err])
        how.append(search.describe())
    return summarize(pts, errs, betas, per_beta, norm, "; ".join(how) or "no targeted search",
                     sampled, searched, certify, ball)


def summarize(pts: Perturbations, errs: np.ndarray, betas: Sequence[Fraction], per_beta: int,
              norm: str, how: str, sampled: np.ndarray | None = None,
              searched: np.ndarray | None = None, certify: bool = True,
              ball: str = "2") -> Estimate:
    """The estimate from evaluated points: per β the running max over the points of every β' ≤ β
    (nested balls). ``sampled``/``searched`` default to the per-β maxima / nan."""
    betas = tuple(betas)
    if sampled is None:
        sampled = np.array([float(np.max(errs[pts.beta_index == i])) if np.any(pts.beta_index == i)
                            else np.nan for i in range(len(betas))])
    if searched is None:
        searched = np.full(len(betas), np.nan)
    if certify:  # exact membership of every point, or InternalInconsistency (ERROR)
        require_in_ball(pts, ball, "the estimator (samples, targeted points, search)")
    ok = certify
    values, argmax = np.empty(len(betas)), []
    best, best_at = -np.inf, (0, 0)
    for i in range(len(betas)):
        sel = np.flatnonzero(pts.beta_index == i)
        if len(sel):
            j = sel[int(np.argmax(errs[sel]))]
            if errs[j] > best:
                best, best_at = float(errs[j]), (i, int(j))
        values[i] = best
        argmax.append(best_at)
    return Estimate(betas, sampled, searched, values, argmax, per_beta, len(errs), norm, how, ok,
                    pts, errs, ball)


def _search(spec: SearchSpec, pts: Perturbations, errs: np.ndarray, betas: Sequence[Fraction],
            blocks: Sequence[str], ball: str) -> Perturbations:
    """End points of the targeted search at every β > 0 (projected onto the shrunk ball: scaled
    back into the Euclidean/Frobenius ball, clamped into the ∞-ball)."""
    import torch

    kw: dict[str, Any] = {"dtype": torch.float64, "device": spec.device}
    starts: list[int] = []
    for i, beta in enumerate(betas):
        sel = np.flatnonzero((pts.beta_index == i) & np.isfinite(errs))
        if beta > 0 and len(sel) and (spec.only is None or i in spec.only):
            starts += list(sel[np.argsort(-errs[sel])][: spec.starts])
    if not starts:
        return pts.take([])
    s0 = pts.take(starts)
    radius = torch.tensor([float(betas[i]) * (1.0 - MARGIN) for i in s0.beta_index], **kw)
    tensors = [torch.tensor(v, **kw) for v in (s0.dW, s0.dU, s0.db, s0.dc)]
    names = [f"d{k}" for k in BLOCKS if k in blocks]
    live = [tensors[["dW", "dU", "db", "dc"].index(n)] for n in names]
    best = [b.clone() for b in tensors]
    best_val = torch.full((s0.n,), -math.inf, **kw)

    def flat_norm(v: Any) -> Any:
        return v.reshape(v.shape[0], -1).norm(dim=1).clamp_min(1e-300)

    for step in range(spec.steps + 1):
        for v in live:
            v.requires_grad_(True)
        full = {n: v for n, v in zip(["dW", "dU", "db", "dc"], tensors, strict=True)}
        full.update(dict(zip(names, live, strict=True)))
        val = spec.objective(full["dW"], full["dU"], full["db"], full["dc"])
        finite = torch.isfinite(val)
        improved = finite & (val.detach() > best_val)
        for k, n in enumerate(["dW", "dU", "db", "dc"]):
            src = full[n].detach()
            mask = improved.view(-1, *([1] * (src.dim() - 1)))
            best[k] = torch.where(mask, src, best[k])
        best_val = torch.where(improved, val.detach(), best_val)
        if step == spec.steps or not bool(finite.any()):
            break
        grads = torch.autograd.grad(torch.where(finite, val, torch.zeros_like(val)).sum(), live,
                                    allow_unused=True)
        new = []
        for v, g in zip(live, grads, strict=True):
            v = v.detach()
            if g is not None:
                g = torch.nan_to_num(g)
                shape = (-1, *([1] * (v.dim() - 1)))
                r = radius.view(shape)
                if ball == "inf":  # steepest ascent in the ∞-norm: the sign of the gradient
                    v = torch.clamp(v + spec.step_size * r * torch.sign(g), -r, r)
                else:
                    v = v + spec.step_size * r * g / flat_norm(g).view(shape)
                    v = v * torch.clamp(radius / flat_norm(v), max=1.0).view(shape)
            new.append(v)
        live = new
        tensors = [dict(zip(names, live, strict=True)).get(n, b)
                   for n, b in zip(["dW", "dU", "db", "dc"], tensors, strict=True)]
    out = [b.cpu().numpy() for b in best]
    return Perturbations(out[0], out[1], out[2], out[3], s0.beta_index.copy(), s0.betas)
