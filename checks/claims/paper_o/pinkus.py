"""O.pinkus: O App. A, Theorem 2 (Pinkus' theorem, cited): one-hidden-layer MLPs with a continuous
non-polynomial activation are dense in C(K). Checked on instances; CORROBORATED at best.

One statement (:class:`recmem.theory.pinkus.MLPDensity`) read by every side:

- symbolic (exact instances): SymPy decides which σ are polynomials (the hypothesis), expands
  σ(wx − θ) with symbolic w, θ where M(σ) is finite-dimensional on K = [0, 1], and decides each
  instance (σ, x^k, ε): an exact witness in M(σ) (the ReLU interpolant with its remainder bound,
  Σ a_j (x − j)^d = x^k) or a certified distance > ε (the exact L² distance, a lower bound of the
  sup distance);
- numeric, in each arithmetic: for widths n = 8, 16, 32, the outer layer fitted by least squares
  on a grid (inner weights fixed), and the fit's sup error on K bounded by its maximum on a fine
  grid plus h²/8·max|e''| (Taylor; the fine grid holds every ReLU knot, so e is C² on each
  cell). It passes when some width gives a bound ≤ ε for every admitted σ, target; residual: the
  largest over (σ, target) of the smallest bound over the widths.
- search: instances (σ ∈ {ReLU, z^d}, x^k, ε) decided exactly (theory.pinkus.judge).

Controls: polynomial σ admitted (z³ cannot reach x⁴ closer than 1/128 in sup; near, the exact L²
lower bound is 1/210 > ε), and the bias θ dropped (ReLU(wx) spans only {a·x} on [0, 1]).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, by_arithmetic, parse_fraction
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.pinkus import MLPDensity, judge, parse_activation

QUOTE = (r"Theorem 2 (Universality of MLPs with one hidden layer — Pinkus’ Theorem [31]) . Consider "
         r"the set $$\mathcal{M}(\sigma) = \text{span}\{\sigma(w^\top x - \theta) : \theta \in "
         r"\mathbb{R}, w \in \mathbb{R}^n\},$$ where $\sigma : \mathbb{R} \rightarrow \mathbb{R}$ is "
         r"a continuous non-linearity. Then, as long as σ is not polynomial (e.g. it is a ReLU or "
         r"sigmoid), for any continuous $\bar{f} \in \mathbb{R}^n \rightarrow \mathbb{R}$, any "
         r"compact set $K \subset \mathbb{R}^n$, and any $\epsilon > 0$, there exists $f \in "
         r"\mathcal{M}(\sigma)$ such that $\max_{x \in K} |f(x) - \bar{f}(x)| \leq \epsilon$.")

WIDTHS = (8, 16, 32)
GRID = 4  # fit grid: GRID·n + 1 points
FINE = 32  # fine grid: FINE·n + 1 points (even, so the ReLU knots (i + ½)/n lie on it)
TANH_SLOPE = Fraction(1, 2)  # tanh neurons: w = n/2 (steeper: worse fits; flatter: κ(A) grows)
SUP_TANH2 = Fraction(77, 100)  # sup |tanh''| = 4/(3√3) = 0.7698… < 0.77


def _activations(ctx: Context) -> tuple[str, ...]:
    return tuple(a for a in str(ctx["activations"]).split(",") if a)


def _powers(ctx: Context) -> tuple[int, ...]:
    return tuple(int(k) for k in str(ctx["targets"]).split(",") if k)


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement on the claim's instances, exactly (theory.pinkus.density_proof)."""
    from recmem.theory.pinkus import density_proof

    t0 = time.perf_counter()
    proof = density_proof(ctx.law(MLPDensity), _activations(ctx), _powers(ctx), ctx["eps"])
    return [from_proof(proof, time.perf_counter() - t0)]


# ---- the numeric fit, in any arithmetic -----------------------------------------------------


class _Ops:
    """Column vectors of one arithmetic: numpy/torch arrays (float64 or float32) or lists of
    mpmath numbers. Pre-activations arrive as exact dyadic float64 arrays (every weight, bias and
    grid point of the design is a dyadic rational of a few bits), so every arithmetic evaluates σ
    at the same exact points."""

    def __init__(self, backend: AbstractBackend) -> None:
        self.kind = backend.spec.kind
        self.backend = backend
        self.mp = mpmath.MPContext()
        self.mp.prec = backend.precision_bits
        self._cache: dict[tuple[str, float], Any] = {}

    def columns(self, act: str, z: Any) -> list[Any]:
        """σ applied to each column of the exact pre-activation array ``z``."""
        kind, d = parse_activation(act)
        if self.kind == "mpmath":
            f = {"relu": lambda v: v if v > 0 else self.mp.zero, "tanh": self.mp.tanh,
                 "pow": lambda v: v**d}[kind]

            def sig(v: float) -> Any:
                key = (act, v)
                if key not in self._cache:  # the lattice of pre-activations repeats values
                    self._cache[key] = f(self.mp.mpf(v))
                return self._cache[key]

            return [[sig(float(v)) for v in col] for col in z.T]
        if self.kind == "numpy":
            import numpy as np

            a = z.astype(self.backend.spec.dtype)
            s = a**d if kind == "pow" else (np.maximum(a, 0) if kind == "relu" else np.tanh(a))
            return list(s.T)
        import torch

        dt = torch.float32 if self.backend.spec.dtype == "float32" else torch.float64
        t = torch.tensor(z, dtype=dt, device=self.backend.spec.device or "cpu")
        s = t**d if kind == "pow" else (torch.relu(t) if kind == "relu" else torch.tanh(t))
        return list(s.T)

    def vec(self, values: Any) -> Any:
        return self.columns("pow:1", values.reshape(-1, 1))[0]

    def dot(self, a: Any, b: Any) -> Any:
        return self.mp.fdot(a, b) if self.kind == "mpmath" else (a * b).sum()

    def sqrt(self, v: Any) -> Any:
        return self.mp.sqrt(v) if self.kind == "mpmath" else v**0.5

    def axpy(self, y: Any, a: Any, x: Any) -> Any:
        """y + a·x."""
        if self.kind == "mpmath":
            return [yi + a * xi for yi, xi in zip(y, x, strict=True)]
        return y + a * x

    def combine(self, cols: list[Any], coef: list[Any], base: Any) -> Any:
        """base + Σ_i coef_i·cols_i (mpmath: one fdot per entry, its fastest route)."""
        if self.kind == "mpmath":
            return [self.mp.fdot([c[j] for c in cols], coef) + b for j, b in enumerate(base)]
        for c, a in zip(cols, coef, strict=True):
            base = base + a * c
        return base

    def absmax(self, v: Any) -> mpmath.mpf:
        if self.kind == "mpmath":
            return mpmath.mpf(max(abs(e) for e in v))
        return mpmath.mpf(float(abs(v).max()))


def _fit(ops: _Ops, cols: list[Any], y: Any) -> list[Any]:
    """Least-squares coefficients by modified Gram–Schmidt with column dropping: a column whose
    remaining norm falls below √u of its own norm is dropped (coefficient 0), so rank-deficient
    spans (ReLU without bias) are fitted too. Any coefficients give an f ∈ M(σ); the check then
    bounds that f's error, so the fit needs no accuracy certificate."""
    root_u = float(mpmath.sqrt(ops.backend.unit_roundoff))
    q: list[tuple[int, Any, Any]] = []  # (column index, unit vector, the norm it was divided by)
    r: dict[tuple[int, int], Any] = {}
    for j, c in enumerate(cols):
        v = c
        n0 = ops.sqrt(ops.dot(c, c))
        for i, qi, _ in q:
            r[(i, j)] = ops.dot(qi, v)
            v = ops.axpy(v, -r[(i, j)], qi)
        nv = ops.sqrt(ops.dot(v, v))
        if float(nv) <= root_u * float(n0) or float(nv) == 0:
            continue
        q.append((j, ops.axpy(v, 1 / nv - 1, v), nv))
    kept = [i for i, _, _ in q]
    rhs = [ops.dot(qi, y) for _, qi, _ in q]
    coef: dict[int, Any] = {}
    for pos in range(len(q) - 1, -1, -1):  # back substitution R a = Qᵀ y on the kept columns
        j, _, njj = q[pos]
        acc = rhs[pos]
        for later in kept[pos + 1:]:
            acc = acc - r[(j, later)] * coef[later]
        coef[j] = acc / njj
    return [coef.get(j, 0 * rhs[0] if rhs else 0) for j in range(len(cols))]


def _neurons(act: str, n: int, bias: bool) -> list[tuple[Fraction, Fraction]]:
    """Fixed inner weights (w, θ) of width n (+ the constant neuron w = 0, θ = −1 with bias):
    knots at the cell midpoints (i + ½)/n; slope n/2 for tanh, 1 otherwise. Without bias the
    slopes are (i + 1)/n·s and θ = 0. With n a power of two all are dyadic."""
    kind, _ = parse_activation(act)
    s = TANH_SLOPE * n if kind == "tanh" else Fraction(1)
    if not bias:
        return [(s * Fraction(i + 1, n), Fraction(0)) for i in range(n)]
    return [(s, s * Fraction(2 * i + 1, 2 * n)) for i in range(n)] + [(Fraction(0), Fraction(-1))]


def _mpq(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def _second_derivative_bound(act: str, neurons: list[tuple[Fraction, Fraction]],
                             coef: list[Any], k: int) -> mpmath.mpf:
    """max|e''| on every fine-grid cell for e = Σ a_i σ(w_i x − θ_i) − x^k on [0, 1]:
    k(k−1) + Σ|a_i| w_i² sup|σ''| over the pre-activations (ReLU: σ'' = 0 off its knots, which lie
    on the fine grid; tanh: 4/(3√3) < 0.77; z^d: d(d−1)R^(d−2), R = max|w x − θ|)."""
    kind, d = parse_activation(act)
    total = mpmath.mpf(k * (k - 1))
    for (w, th), a in zip(neurons, coef, strict=True):
        if kind == "relu":
            continue
        if kind == "tanh":
            s2 = _mpq(SUP_TANH2)
        else:
            s2 = mpmath.mpf(d * (d - 1)) * _mpq(max(abs(th), abs(w - th))) ** max(d - 2, 0)
        total += abs(mpmath.mpf(float(a))) * _mpq(w) ** 2 * s2
    return total


def _exact_grid(neurons: list[tuple[Fraction, Fraction]], points: int) -> Any:
    """Pre-activations w_i x_j − θ_i on x_j = j/(points − 1), exactly, as float64: every w_i,
    θ_i and x_j is dyadic, so the numerators are integers (int64) over one power of two."""
    import numpy as np

    den = max(q.denominator for nt in neurons for q in nt) * (points - 1)
    if den & (den - 1) or den > 2**40:
        raise ValueError("the design's pre-activations are not exact float64 values")
    w = np.array([int(wi * den) for wi, _ in neurons], dtype=np.int64)  # w_i·den, an integer
    th = np.array([int(ti * den) for _, ti in neurons], dtype=np.int64)
    j = np.arange(points, dtype=np.int64)
    num = np.outer(j, w) // (points - 1) - th  # (w_i·den)·j/(points − 1): exact, den ∣ …
    return num.astype(np.float64) / den


def sup_bound(ops: _Ops, act: str, k: int, n: int, bias: bool) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(bound on max_[0,1] |f − x^k| for the width-n least-squares fit f ∈ M(σ), the fine-grid
    maximum alone), computed in ``ops``'s arithmetic."""
    import numpy as np

    neurons = _neurons(act, n, bias)
    zg, zf = _exact_grid(neurons, GRID * n + 1), _exact_grid(neurons, FINE * n + 1)
    coef = _fit(ops, ops.columns(act, zg), ops.vec(np.linspace(0, 1, GRID * n + 1) ** k))
    grid_max = ops.absmax(ops.combine(ops.columns(act, zf), coef,
                                      ops.vec(-np.linspace(0, 1, FINE * n + 1) ** k)))
    h = mpmath.mpf(1) / (FINE * n)
    return grid_max + h * h / 8 * _second_derivative_bound(act, neurons, coef, k), grid_max


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """For each admitted σ and target x^k: the smallest sup-error bound over the widths; passes
    when every one is ≤ ε. The fits are statement-independent, so they are shared between the
    statement and its controls (``ctx.shared``); the statement decides which σ, which span."""
    law = ctx.law(MLPDensity)
    t0 = time.perf_counter()
    ops = _Ops(backend)
    eps = _mpq(ctx["eps"])
    worst, rows = mpmath.mpf(0), {}
    with backend.activate():
        for act in _activations(ctx):
            if not law.admitted(act):
                continue
            for k in _powers(ctx):
                best = mpmath.inf
                for n in WIDTHS:
                    key = ("pinkus", backend.name, act, k, n, law.bias)
                    if key not in ctx.shared:
                        ctx.shared[key] = sup_bound(ops, act, k, n, law.bias)
                    bound, _ = ctx.shared[key]
                    best = min(best, bound)
                    rows[f"{act}, x^{k}, n = {n}"] = tol.fmt(bound)
                    if best <= eps:
                        break  # a witness: wider nets are not needed
                worst = max(worst, best)
                if worst > eps:
                    break  # one (σ, f̄) without a witness decides the check
            if worst > eps:
                break
    ok = worst <= eps
    # a precision that cannot resolve ε at all (u above ε) proves nothing either way
    unresolved = backend.unit_roundoff * 2**10 > eps
    outcome = Outcome.PASS if ok else (Outcome.INCONCLUSIVE if unresolved else Outcome.FAIL)
    return [Evidence(check="least-squares MLP fits: smallest certified-by-Taylor sup error over "
                     "widths 8, 16, 32, worst over σ and targets", kind="numeric",
                     backend=backend.name, outcome=outcome, precision_bits=backend.precision_bits,
                     residual=tol.fmt(worst), tolerance=tol.fmt(eps),
                     tolerance_source="ε of the statement (sup bound = fine-grid max + h²/8·max|e''|)",
                     message=("" if ok else "no width reached ε: the bound is an upper bound of "
                              "the distance, no certificate that none exists"),
                     data=rows, seconds=time.perf_counter() - t0)]


# ---- search -----------------------------------------------------------------------------------


def strategy(ctx: Context) -> Any:
    """Instances (σ ∈ {ReLU, z^d, d ≤ 4}, f̄ = x^k with k ≤ 6, ε ∈ {1/2^j}) of the statement's
    domain; the polynomial σ lie just outside the printed hypothesis."""
    from hypothesis import strategies as st

    return st.fixed_dictionaries({
        "activation": st.sampled_from(["relu", "pow:1", "pow:2", "pow:3", "pow:4"]),
        "k": st.integers(0, 6),
        "eps": st.integers(1, 12).map(lambda j: Fraction(1, 2**j)),
    })


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact judge (theory.pinkus.judge): a witness in M(σ), or a certified distance > ε."""
    ok, info = judge(ctx.law(MLPDensity), inst["activation"], int(inst["k"]), inst["eps"])
    return Instance(ok, "exact rationals: a witness in M(σ) with its remainder bound, or the "
                    "exact L² distance (≤ the sup distance)", info)


TOL = ("exact (SymPy, ℚ); floats and mpmath: a fit passes when its sup-error bound (fine-grid max "
       "+ h²/8·max|e''|) is ≤ ε; a precision with 2¹⁰u > ε is inconclusive")

CLAIMS = [
    Claim(
        id="O.pinkus",
        summary="cited (Pinkus): ReLU/tanh MLPs reach x⁴ on [0,1] to ε = 1/256; polynomial σ or no "
                "bias cannot (exact distances); instances only",
        title="Universality of one-hidden-layer MLPs (Pinkus)",
        statement=MLPDensity(),
        provenance=Provenance("O", "App. A, Theorem 2", QUOTE),
        tolerance=TOL,
        params=(Param("activations", "relu,tanh,pow:3", "activations σ tried (relu, tanh, pow:d)",
                      str),
                Param("targets", "4", "exponents k of the targets f̄(x) = x^k on K = [0, 1]", str),
                Param("eps", Fraction(1, 256), "the accuracy ε", parse_fraction,
                      check=lambda v: None if 0 < v < 1 else f"must lie in (0, 1), got {v}")),
        symbolic=symbolic,
        numeric=by_arithmetic({"numpy": numeric, "torch": numeric, "mpmath": numeric},
                              "the fit needs a real arithmetic with a least-squares solve; flint "
                              "balls add nothing to an upper bound that any f ∈ M(σ) provides"),
        strategy=strategy,
        holds=holds,
        notes="A cited theorem: recmem checks it on instances (K = [0, 1], targets x^k), never in "
              "general, so its verdict is CORROBORATED at best. The 'only if' direction (a "
              "polynomial σ of degree d gives M(σ) ⊆ P_d) is what refutes the widened control.",
    ),
]
