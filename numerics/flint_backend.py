"""python-flint ball arithmetic: every result is an enclosure of the exact answer.

FLINT's working precision is a process-global setting (``flint.ctx.prec``); every operation here
runs inside ``ctx.workprec`` so the global value is restored afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.exact import QQi

flint: Any
try:  # pragma: no cover - exercised when python-flint is absent
    import flint
except ImportError:  # pragma: no cover
    flint = None


def _acb(q: QQi) -> Any:
    return flint.acb(flint.fmpq(q.re.numerator, q.re.denominator),
                     flint.fmpq(q.im.numerator, q.im.denominator))


def arb_to_mpf(x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpf:
    """Midpoint of an ``arb`` as an exact mpmath number (converted through its exact dyadic)."""
    from mpmath.libmp import from_man_exp

    mid = x.mid()
    if not mid.is_finite():  # an indeterminate ball (NaN) or an infinite radius
        return ctx.nan if mid.is_nan() else (ctx.inf if mid > 0 else -ctx.inf)
    man, exp = mid.man_exp()
    # make_mpf keeps every bit of the dyadic midpoint; arithmetic with it rounds as usual
    return ctx.make_mpf(from_man_exp(int(man), int(exp)))


def arb_upper(x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpf:
    """An upper bound of an ``arb`` (midpoint + radius), rounded up by the conversion's 1 ulp."""
    return arb_to_mpf(x.mid(), ctx) + arb_to_mpf(x.rad(), ctx) * (1 + 2 * ctx.eps)


@dataclass
class FlintBackend(AbstractBackend):
    """Ball arithmetic at ``spec.bits`` bits (arb/acb)."""

    def __post_init__(self) -> None:
        if flint is None:
            raise BackendUnavailable("python-flint is not installed (pip install python-flint)")
        self.bits = int(self.spec.bits or 53)

    @property
    def precision_bits(self) -> int:
        return self.bits

    @property
    def encloses(self) -> bool:
        return True

    def workprec(self) -> Any:
        return flint.ctx.workprec(self.bits)

    def activate(self) -> Any:
        return self.workprec()

    def vector(self, values: Sequence[QQi]) -> Any:
        values = self._check_values(values, "vector")
        with self.workprec():
            return flint.acb_mat([[_acb(v)] for v in values])

    def matrix(self, rows: Sequence[Sequence[QQi]]) -> Any:
        rows = self._check_rows(rows, "matrix")
        with self.workprec():
            return flint.acb_mat([[_acb(v) for v in row] for row in rows])

    def cis_turns(self, turns: Sequence[Fraction]) -> Any:
        with self.workprec():
            out = []
            for t in turns:
                ang = 2 * flint.arb(flint.fmpq(t.numerator, t.denominator))
                out.append([flint.acb(ang.cos_pi(), ang.sin_pi())])
            return flint.acb_mat(out)

    def to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.matrix:
        m = ctx.matrix(x.nrows(), x.ncols())
        for i in range(x.nrows()):
            for j in range(x.ncols()):
                m[i, j] = self.scalar_to_mp(x[i, j], ctx)
        return m

    def scalar_to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
        x = flint.acb(x)
        return ctx.mpc(arb_to_mpf(x.real, ctx), arb_to_mpf(x.imag, ctx))

    def radius(self, x: Any) -> mpmath.mpf:
        ctx = mpmath.mp  # radii need only a few correct bits
        if isinstance(x, flint.acb_mat):
            entries = [x[i, j] for i in range(x.nrows()) for j in range(x.ncols())]
        else:
            entries = [flint.acb(x)]
        return max(
            (max(arb_to_mpf(e.real.rad(), ctx), arb_to_mpf(e.imag.rad(), ctx)) for e in entries),
            default=mpmath.mpf(0),
        )

    def shape(self, a: Any) -> tuple[int, int]:
        return (a.nrows(), a.ncols())

    def entries(self, v: Any) -> list[Any]:
        return [v[i, 0] for i in range(v.nrows())]

    def vector_of(self, scalars: Sequence[Any]) -> Any:
        return flint.acb_mat([[flint.acb(x)] for x in scalars])

    def matrix_of_scalar(self, x: Any) -> Any:
        with self.workprec():
            return flint.acb_mat([[flint.acb(x)]])

    def transpose(self, a: Any) -> Any:
        return a.transpose()

    def hadamard(self, a: Any, b: Any) -> Any:
        with self.workprec():
            return flint.acb_mat([[a[i, j] * b[i, j] for j in range(a.ncols())]
                                  for i in range(a.nrows())])

    def row_sums(self, a: Any) -> Any:
        with self.workprec():
            out = []
            for i in range(a.nrows()):
                acc = flint.acb(0)
                for j in range(a.ncols()):
                    acc += a[i, j]
                out.append([acc])
            return flint.acb_mat(out)

    def columns(self, a: Any, start: int, stop: int) -> Any:
        return flint.acb_mat([[a[i, j] for j in range(start, stop)] for i in range(a.nrows())])

    def log(self, x: Any) -> Any:
        with self.workprec():
            return flint.acb(x).log()

    def exp(self, x: Any) -> Any:
        with self.workprec():
            return flint.acb(x).exp()

    def vandermonde(self, nodes: Any, k: int) -> Any:
        self._check_k(nodes, k, "vandermonde")
        with self.workprec():
            n = nodes.nrows()
            rows = []
            for i in range(n):
                lam = nodes[i, 0]
                # powers by repeated multiplication: exact for exact nodes, radii grow ~linearly in k
                pw = [flint.acb(1)]
                for _ in range(k - 1):
                    pw.append(pw[-1] * lam)
                rows.append(pw[::-1])
            return flint.acb_mat(rows)

    def recurrence(self, nodes: Any, drive: Any) -> Any:
        with self.workprec():
            n, steps = drive.nrows(), drive.ncols()
            out = flint.acb_mat(n, steps)
            for i in range(n):
                x = flint.acb(0)
                lam = nodes[i, 0]
                for k in range(steps):
                    x = lam * x + drive[i, k]
                    out[i, k] = x
            return out

    def matmul(self, a: Any, b: Any) -> Any:
        with self.workprec():
            return a * b

    def det(self, a: Any) -> Any:
        self._check_matrix(a, "det", square=True)
        with self.workprec():
            return a.det()

    def svdvals(self, a: Any) -> list[mpmath.mpf]:
        self._check_matrix(a, "svdvals")
        # Certified eigenvalues of the Hermitian Gram matrix; σ = sqrt(λ). Midpoints returned.
        ctx = mpmath.MPContext()
        ctx.prec = self.bits
        with self.workprec():
            g = a.conjugate().transpose() * a
            eig = g.eig(multiple=True)
            vals = [ctx.sqrt(max(arb_to_mpf(e.real, ctx), ctx.mpf(0))) for e in eig]
        return sorted(vals, reverse=True)

    def rank(self, a: Any) -> int:
        """Certified lower bound on the rank: Gram eigenvalue balls that exclude 0.

        A ball that contains 0 cannot be told from a zero singular value at this precision.
        """
        with self.workprec():
            g = a.conjugate().transpose() * a
            try:
                eig = g.eig(multiple=True)
            except ValueError:
                return 0
            return sum(1 for e in eig if e.real > 0)

    def pinv_apply(self, a: Any, b: Any) -> Any:
        self._check_matrix(a, "pinv_apply")
        # Full column rank assumed (as in every claim that uses it): a⁺b = (aᴴa)⁻¹ aᴴ b, solved
        # with the preconditioned algorithm (plain LU loses the radius, NUMERICS.md pitfall 1).
        with self.workprec():
            ah = a.conjugate().transpose()
            if a.nrows() == a.ncols():
                return a.solve(b, algorithm="precond", nonstop=True)
            return (ah * a).solve(ah * b, algorithm="precond", nonstop=True)
