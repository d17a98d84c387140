"""Exact linear algebra over the Gaussian rationals ℚ(i) (SymPy ``DomainMatrix`` over ``QQ_I``).

Used as the ground truth for counterexample searches and exact symbolic checks: every operation is
exact, so equalities and ranks computed here are certificates.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from recmem.numerics.exact import QQi


def _dom() -> Any:
    from sympy import QQ_I

    return QQ_I


def element(q: QQi) -> Any:
    """A ``QQ_I`` element from an exact Gaussian rational."""
    from sympy import QQ

    return _dom()(QQ(q.re.numerator, q.re.denominator), QQ(q.im.numerator, q.im.denominator))


def to_qqi(e: Any) -> QQi:
    """A ``QQ_I`` element back as :class:`QQi`."""
    return QQi(Fraction(int(e.x.numerator), int(e.x.denominator)),
               Fraction(int(e.y.numerator), int(e.y.denominator)))


def matrix(rows: Sequence[Sequence[QQi]]) -> Any:
    """An exact ``DomainMatrix`` over ℚ(i)."""
    from sympy.polys.matrices import DomainMatrix

    n = len(rows)
    m = len(rows[0]) if n else 0
    return DomainMatrix([[element(q) for q in row] for row in rows], (n, m), _dom())


def product(a: Sequence[Sequence[QQi]], b: Sequence[Sequence[QQi]]) -> list[list[QQi]]:
    """a·b exactly over ℚ(i), for matrices given as rows of :class:`QQi`."""
    return [[to_qqi(e) for e in row] for row in (matrix(a) * matrix(b)).to_list()]


def vandermonde(nodes: Sequence[QQi], k: int) -> Any:
    """Exact V_k with rows (λ^{k-1}, …, λ, 1) (O eq. 4)."""
    from sympy.polys.matrices import DomainMatrix

    dom = _dom()
    rows = []
    for q in nodes:
        lam = element(q)
        pw = [dom.one]
        for _ in range(k - 1):
            pw.append(pw[-1] * lam)
        rows.append(pw[::-1])
    return DomainMatrix(rows, (len(nodes), k), dom)


def power_matrix(nodes: Sequence[QQi], powers: Sequence[int]) -> Any:
    """Exact matrix with entries λ_i^(powers[j]) (rows are nodes): O's V_k for the powers
    k−1, …, 0 (eq. 4), any other Vandermonde-type matrix for other exponent lists."""
    from sympy.polys.matrices import DomainMatrix

    dom = _dom()
    top = max(powers, default=0)
    rows = []
    for q in nodes:
        lam = element(q)
        pw = [dom.one]
        for _ in range(top):
            pw.append(pw[-1] * lam)
        rows.append([pw[p] for p in powers])
    return DomainMatrix(rows, (len(nodes), len(powers)), dom)


def moore_penrose_apply(a: Any, b: Any) -> Any:
    """a⁺b exactly over ℚ(i) for a matrix of any rank (the Moore–Penrose pseudo-inverse).

    With the rank factorisation a = C·F (C: the pivot columns of a, full column rank r; F: the r
    nonzero rows of a's reduced row echelon form, full row rank), a⁺ = F⁺C⁺ = Fᴴ(FFᴴ)⁻¹(CᴴC)⁻¹Cᴴ
    (the rank-factorisation formula; Ben-Israel & Greville, *Generalized Inverses*, ch. 1). A
    zero matrix has a⁺ = 0.
    """
    from sympy.polys.matrices import DomainMatrix

    n, m = a.shape
    ref, pivots = a.rref()
    if not pivots:
        return DomainMatrix.zeros((m, b.shape[1]), _dom())
    c = a.extract(list(range(n)), list(pivots))
    f = ref.extract(list(range(len(pivots))), list(range(m)))
    ch, fh = conj_transpose(c), conj_transpose(f)
    y = (ch * c).lu_solve(ch * b)  # C⁺b
    return fh * (f * fh).lu_solve(y)  # F⁺ C⁺ b


def product_of_differences(nodes: Sequence[QQi]) -> Any:
    """Π_{i<j} (λ_i − λ_j), exactly."""
    dom = _dom()
    p = dom.one
    el = [element(q) for q in nodes]
    for i in range(len(el)):
        for j in range(i + 1, len(el)):
            p *= el[i] - el[j]
    return p


def pinv_apply(a: Any, b: Any) -> Any | None:
    """a⁺b exactly over ℚ(i), or None when ``a`` lacks full column rank (O eq. 5, eq. 22).

    Full column rank makes aᴴa invertible and a⁺ = (aᴴa)⁻¹aᴴ; a square ``a`` is then invertible
    and a⁺ = a⁻¹, solved directly. A singular system raises in the exact LU, which is the exact
    certificate of rank deficiency.
    """
    from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError

    try:
        if a.shape[0] == a.shape[1]:
            return a.lu_solve(b)
        ah = conj_transpose(a)
        return (ah * a).lu_solve(ah * b)
    except DMNonInvertibleMatrixError:
        return None


def conj_transpose(a: Any) -> Any:
    """Exact conjugate transpose."""
    from sympy.polys.matrices import DomainMatrix

    rows = a.to_list()
    dom = _dom()
    n, m = a.shape
    # QQ_I elements carry their real and imaginary parts as .x and .y
    return DomainMatrix([[dom(rows[i][j].x, -rows[i][j].y) for i in range(n)] for j in range(m)],
                        (m, n), dom)


def rank(a: Any) -> int:
    """Exact rank."""
    return int(a.rank())
