"""Run-time oracles of the certified routines (issue 19): no certified bracket leaves
``numerics.certified``, ``numerics.condition`` or the float64 enclosures unchecked.

Two kinds of check, both cheap:

- **Shape checks** on every bracket returned (:func:`check_interval`, :func:`check_sigma`): the
  ends are numbers or +∞ (never NaN), lo ≤ hi, σ ≥ 0 and κ ≥ 1 are not excluded, and the brackets
  of one matrix agree with each other (σ_min ≤ σ_max ≤ ‖A‖_F ≤ √r·σ_max, r = min(rows, cols)).
- **Sentinels** (:func:`sentinel`): each routine is run, once per process, precision and code path,
  on a small matrix whose value is known exactly, through the same code path as the call that
  triggered it, and its bracket must contain that value (exact rational comparisons):

  ========================  ===================================================================
  kind                      matrix and exact values
  ========================  ===================================================================
  ``gram-eig``              A = [[1, 1], [0, 1]]: σ_max² = φ², σ_min² = φ⁻², κ₂ = φ² (the roots of
                            x² − 3x + 1, φ the golden ratio), ‖A‖_F² = 3
  ``gram-gershgorin``       the fallback of the Gram route (Gershgorin/Rayleigh brackets and their
                            hull) on AᴴA, A = diag(1, 1, 2)·Q, Q = (1/3)[[1, 2, 2], [2, 1, −2],
                            [2, −2, 1]] (exactly orthogonal): λ(AᴴA) = 1, 1, 4
  ``wide``                  A = [1, 1] (1×2): σ_max = ‖A‖_F = √2, σ_min = 0, κ₂ = ∞
  ``symmetric-eig``         [[2, 1], [1, 2]]: λ = 1, 3
  ``symmetric-gershgorin``  the fallback of ``symmetric_extreme`` on [[2, 1, 1], [1, 2, 1],
                            [1, 1, 2]] (real) and its unitary conjugate by diag(1, i, −1)
                            (Hermitian): λ = 1, 1, 4
  ``structured:NORM``       O's V of the nodes ±1/2, ±i/2 (V = F·diag(1/8, 1/4, 1/2, 1), F the 4×4
                            DFT matrix) through the O(N²) route: ‖V‖, ‖V⁻¹‖ in the norm, exactly
                            (2: 2 and 4; 1: 4 and 15/4; inf: 15/8 and 8; fro: √85/4 and √85/2)
  ``dense-inverse:NORM``    the same V through flint's certified inverse: κ = 8, 15, 15, 85/8
  ========================  ===================================================================

A check that fails raises :class:`InternalInconsistency`: a bug of recmem, which the claim runner
turns into ERROR and ``recmem condition`` into a marked point (exit status 3), never a finding
about the paper. A sentinel that passed is remembered for the process (:data:`PASSED`), so each
costs once; :func:`reset` forgets them (the tests that plant slips call it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import mpmath

PASSED: set[tuple[str, int]] = set()
_RUNNING: set[tuple[str, int]] = set()


class InternalInconsistency(RuntimeError):
    """A certified routine contradicted a value known exactly, or returned something that is not
    a bracket: a bug of recmem (ERROR), never a statement about the paper. Deliberately not a
    ValueError, so that no ``except ValueError`` of a caller (a refused point, a failed
    enclosure) can swallow it."""


def reset() -> None:
    """Forget which sentinels passed (they run again on the next call)."""
    PASSED.clear()


def _q(x: Any) -> Fraction | None:
    """An end as an exact rational; None for +∞. InternalInconsistency for NaN or −∞."""
    raw = getattr(x, "_mpf_", None)
    if raw is not None and raw[1]:  # a nonzero mantissa: a finite mpmath number (the usual case)
        from recmem.numerics.certified import mpf_to_fraction

        return mpf_to_fraction(x)
    if isinstance(x, Fraction | int):
        return Fraction(x)
    if isinstance(x, float):
        if x == float("inf"):
            return None
        if x != x or x == float("-inf"):
            raise InternalInconsistency(f"a bracket end is {x}")
        return Fraction(x)
    if mpmath.isnan(x) or x == -mpmath.inf:
        raise InternalInconsistency(f"a bracket end is {x}")
    if x == mpmath.inf:
        return None
    from recmem.numerics.certified import mpf_to_fraction

    return mpf_to_fraction(x)  # every bit of x, whatever its mpmath context


def check_interval(lo: Any, hi: Any, what: str, *, floor: int = 0) -> None:
    """``[lo, hi]`` is a bracket of a quantity known to be ≥ ``floor`` (σ ≥ 0, κ ≥ 1): finite
    or +∞ ends, lo ≤ hi, lo ≥ 0 and hi ≥ ``floor`` (an upper end below the floor excludes every
    possible value). lo below the floor is allowed: a weak bracket is not a wrong one."""
    qlo, qhi = _q(lo), _q(hi)
    if qlo is not None and qlo < 0:
        raise InternalInconsistency(f"{what}: lower end {lo} < 0")
    if qlo is not None and qhi is not None and qlo > qhi:
        raise InternalInconsistency(f"{what}: lower end {lo} > upper end {hi}")
    if qhi is not None and qhi < floor:
        raise InternalInconsistency(f"{what}: upper end {hi} < {floor}, which every value exceeds")
    if qlo is None and qhi is not None:
        raise InternalInconsistency(f"{what}: lower end +∞ but upper end {hi}")


def check_sigma(sb: Any, rank: int) -> None:
    """The brackets of a ``numerics.certified.SigmaBracket`` are brackets and agree:
    σ_min ≤ σ_max, σ_max ≤ ‖A‖_F ≤ √rank·σ_max, and its κ bracket is one (κ ≥ 1)."""
    for name in ("smax", "smin", "fro"):
        end = getattr(sb, name)
        check_interval(end[0], end[1], f"{name} bracket")
    smax_lo, smax_hi = _q(sb.smax[0]), _q(sb.smax[1])
    smin_lo, fro_lo, fro_hi = _q(sb.smin[0]), _q(sb.fro[0]), _q(sb.fro[1])
    if smax_hi is not None and smin_lo is not None and smin_lo > smax_hi:
        raise InternalInconsistency(f"σ_min ≥ {sb.smin[0]} exceeds σ_max ≤ {sb.smax[1]}")
    if fro_hi is not None and smax_lo is not None and smax_lo > fro_hi:
        raise InternalInconsistency(f"σ_max ≥ {sb.smax[0]} exceeds ‖A‖_F ≤ {sb.fro[1]}")
    if smax_hi is not None and fro_lo is not None and fro_lo ** 2 > rank * smax_hi ** 2:
        raise InternalInconsistency(f"‖A‖_F ≥ {sb.fro[0]} exceeds √{rank}·σ_max, σ_max ≤ "
                                    f"{sb.smax[1]}")
    k = sb.kappa
    check_interval(k.lo, k.hi, "κ₂ bracket", floor=1)


def check_ordered(lo: Any, hi: Any, what: str) -> None:
    """``[lo, hi]`` is a bracket of a real number of any sign: no NaN, lo ≤ hi."""
    for x in (lo, hi):
        if mpmath.isnan(x):
            raise InternalInconsistency(f"{what}: a bracket end is NaN")
    if lo > hi:  # mpmath compares exactly across contexts
        raise InternalInconsistency(f"{what}: lower end {lo} > upper end {hi}")


def contains(lo: Any, hi: Any, value: Fraction | None, what: str) -> None:
    """``value`` (exact; None for +∞) lies in [lo, hi]; InternalInconsistency otherwise."""
    qlo, qhi = _q(lo), _q(hi)
    ok = (qhi is None if value is None else
          (qlo is not None and qlo <= value and (qhi is None or value <= qhi)))
    if not ok:
        raise InternalInconsistency(f"{what}: the certified bracket [{lo}, {hi}] excludes the "
                                    f"exact value {value if value is not None else '∞'}")


def contains_root(lo: Any, hi: Any, poly: Callable[[Fraction], Fraction], split: Fraction,
                  what: str) -> None:
    """[lo, hi] contains the root above ``split`` of ``poly``, which increases on [split, ∞) and is
    negative at ``split`` (e.g. φ² as the root above 3/2 of x² − 3x + 1), decided exactly."""
    qlo, qhi = _q(lo), _q(hi)
    lo_ok = qlo is not None and (qlo <= split or poly(qlo) <= 0)
    hi_ok = qhi is None or (qhi >= split and poly(qhi) >= 0)
    if not (lo_ok and hi_ok):
        raise InternalInconsistency(f"{what}: the certified bracket [{lo}, {hi}] excludes the "
                                    "exact value")


def contains_sqrt(lo: Any, hi: Any, square: Fraction, what: str) -> None:
    """[lo, hi] contains √``square``, decided exactly (lo² ≤ square ≤ hi²)."""
    qlo, qhi = _q(lo), _q(hi)
    if not (qlo is not None and qlo * qlo <= square and (qhi is None or qhi * qhi >= square)):
        raise InternalInconsistency(f"{what}: the certified bracket [{lo}, {hi}] excludes "
                                    f"√{square}")


@contextmanager
def _once(kind: str, bits: int) -> Iterator[bool]:
    """Whether the sentinel (kind, bits) must run now (not yet passed, not already running: a
    sentinel calls the routine it checks, which must not start it again)."""
    key = (kind, bits)
    if key in PASSED or key in _RUNNING:
        yield False
        return
    _RUNNING.add(key)
    try:
        yield True
        PASSED.add(key)
    finally:
        _RUNNING.discard(key)


def sentinel(kind: str, bits: int) -> None:
    """Run the sentinel ``kind`` (module docstring) at ``bits`` unless it passed in this process;
    InternalInconsistency when its bracket excludes the exact value."""
    with _once(kind, bits) as run:
        if run:
            name, _, norm = kind.partition(":")
            _SENTINELS[name](bits, norm)


# ---- the sentinels ------------------------------------------------------------------------------
def _qqi_rows(rows: list[list[tuple[int, int]]]) -> list[list[Any]]:
    from recmem.numerics.exact import QQi

    return [[QQi(Fraction(re), Fraction(im)) for re, im in r] for r in rows]


def _golden(x: Fraction) -> Fraction:
    return x * x - 3 * x + 1


def _gram_eig(bits: int, _: str) -> None:
    from recmem.numerics.certified import exact_matrix_builder, sigma_bracket

    sb = sigma_bracket(exact_matrix_builder(_qqi_rows([[(1, 0), (1, 0)], [(0, 0), (1, 0)]])),
                       start_bits=bits, max_bits=bits)
    what = f"sentinel gram-eig at {bits} bits"
    # σ_max² = φ² is the root above 3/2 of x² − 3x + 1; σ_min² = 1/φ² = 3 − φ² the one below
    # (squares taken exactly: an mpmath square would round)
    smax_lo, smax_hi, smin_lo, smin_hi = (_q(x) for x in (*sb.smax, *sb.smin))
    sq = lambda x: None if x is None else x * x  # noqa: E731
    contains_root(sq(smax_lo), sq(smax_hi), _golden, Fraction(3, 2), what + ": σ_max²")
    contains_root(Fraction(-1) if smin_hi is None else 3 - smin_hi * smin_hi,
                  None if smin_lo is None else 3 - smin_lo * smin_lo, _golden, Fraction(3, 2),
                  what + ": 3 − σ_min²")
    k = sb.kappa
    contains_root(k.lo, k.hi, _golden, Fraction(3, 2), what + ": κ₂")
    contains_sqrt(sb.fro[0], sb.fro[1], Fraction(3), what + ": ‖A‖_F")


def _gram_gershgorin(bits: int, _: str) -> None:
    # the fallback of sigma_bracket, as it runs there: the hull of the Gershgorin/Rayleigh
    # brackets of the extreme eigenvalues of AᴴA, here for A = diag(1, 1, 2)·Q with Q the exact
    # orthogonal (1/3)[[1, 2, 2], [2, 1, −2], [2, −2, 1]]: AᴴA = Qᵀdiag(1, 1, 4)Q, λ = 1, 1, 4
    import flint

    from recmem.numerics.certified import _gershgorin_extreme, _hull, exact_matrix_builder

    q = [[1, 2, 2], [2, 1, -2], [2, -2, 1]]
    rows = [[(d * x, 0) for x in r] for d, r in zip((1, 1, 2), q, strict=True)]
    build = exact_matrix_builder([[x._replace(re=x.re / 3) for x in r] for r in _qqi_rows(rows)])
    what = f"sentinel gram-gershgorin at {bits} bits"
    with flint.ctx.workprec(bits):
        a = build(bits)
        g = a.conjugate().transpose() * a
        for largest, want in ((False, Fraction(1)), (True, Fraction(4))):
            lo, hi = _gershgorin_extreme(g, bits, largest)
            contains(lo, hi, want, what + (": λ_max" if largest else ": λ_min"))
            if not _hull(lo, hi).contains(flint.arb(int(want))):
                raise InternalInconsistency(f"{what}: the hull of [{lo}, {hi}] excludes {want}")


def _wide(bits: int, _: str) -> None:
    from recmem.numerics.certified import exact_matrix_builder, sigma_bracket

    sb = sigma_bracket(exact_matrix_builder(_qqi_rows([[(1, 0), (1, 0)]])), start_bits=bits,
                       max_bits=bits)
    what = f"sentinel wide at {bits} bits"
    contains_sqrt(sb.smax[0], sb.smax[1], Fraction(2), what + ": σ_max")
    contains_sqrt(sb.fro[0], sb.fro[1], Fraction(2), what + ": ‖A‖_F")
    contains(sb.smin[0], sb.smin[1], Fraction(0), what + ": σ_min")
    k = sb.kappa
    contains(k.lo, k.hi, None, what + ": κ₂")


def _symmetric_matrices() -> list[tuple[Any, Fraction, Fraction, str]]:
    import flint

    m = [[2, 1, 1], [1, 2, 1], [1, 1, 2]]
    d = [1, 1j, -1]
    h = [[m[j][k] * d[j] * d[k].conjugate() for k in range(3)] for j in range(3)]
    return [
        (flint.arb_mat([[2, 1], [1, 2]]), Fraction(1), Fraction(3), "symmetric-eig"),
        (flint.arb_mat(m), Fraction(1), Fraction(4), "symmetric-gershgorin"),
        (flint.acb_mat([[flint.acb(complex(z).real, complex(z).imag) for z in r] for r in h]),
         Fraction(1), Fraction(4), "symmetric-gershgorin"),
    ]


def _symmetric(bits: int, kind: str) -> None:
    from recmem.numerics.certified import _gershgorin_extreme, symmetric_extreme

    # the fallback is called as symmetric_extreme calls it when the enclosures fail
    route = symmetric_extreme if kind == "symmetric-eig" else _gershgorin_extreme
    for p, lam_min, lam_max, name in _symmetric_matrices():
        if name != kind:
            continue
        what = f"sentinel {name} ({type(p).__name__}) at {bits} bits"
        lo, hi = route(p, bits, False)
        contains(lo, hi, lam_min, what + ": λ_min")
        lo, hi = route(p, bits, True)
        contains(lo, hi, lam_max, what + ": λ_max")


def sentinel_nodes() -> Any:
    """The nodes ±1/2, ±i/2 of the structured and dense-inverse sentinels."""
    from recmem.numerics.exact import QQi
    from recmem.numerics.nodes import Nodes

    h = Fraction(1, 2)
    return Nodes("sentinel", values=(QQi(h), QQi(Fraction(0), h), QQi(-h), QQi(Fraction(0), -h)))


# ‖V‖ and ‖V⁻¹‖ of the sentinel V = F·diag(1/8, 1/4, 1/2, 1) (F the 4×4 DFT matrix, F/2 unitary),
# as squares (the Frobenius norms are irrational): module docstring
SENTINEL_NORMS_SQUARED = {"2": (Fraction(4), Fraction(16)),
                          "1": (Fraction(16), Fraction(225, 16)),
                          "inf": (Fraction(225, 64), Fraction(64)),
                          "fro": (Fraction(85, 16), Fraction(85, 4))}


def _structured(bits: int, norm: str) -> None:
    from recmem.numerics.vandermonde_enclosure import inverse_enclosure, vandermonde_enclosure

    nodes = sentinel_nodes()
    what = f"sentinel structured:{norm} at {bits} bits"
    v_sq, vi_sq = SENTINEL_NORMS_SQUARED[norm]
    vinv, _ = inverse_enclosure(nodes, bits)
    a = vandermonde_enclosure(nodes, 4).norm_bounds(norm, target=1e-9)
    b = vinv.norm_bounds(norm, target=1e-9)
    check_interval(a[0], a[1], what + ": ‖V‖")
    check_interval(b[0], b[1], what + ": ‖V⁻¹‖")
    contains_sqrt(a[0], a[1], v_sq, what + ": ‖V‖")
    contains_sqrt(b[0], b[1], vi_sq, what + ": ‖V⁻¹‖")


def _dense_inverse(bits: int, norm: str) -> None:
    from recmem.numerics.condition import Point, dense_inverse

    what = f"sentinel dense-inverse:{norm} at {bits} bits"
    res = dense_inverse(sentinel_nodes(), Point("sentinel", 4, 4, 0, bits, norm, "kappa"), bits)
    v_sq, vi_sq = SENTINEL_NORMS_SQUARED[norm]
    if res.hi <= 0:
        raise InternalInconsistency(f"{what}: no bracket ({res.note})")
    contains_sqrt(res.lo, res.hi, v_sq * vi_sq, what + ": κ")


_SENTINELS: dict[str, Callable[[int, str], None]] = {
    "gram-eig": _gram_eig, "gram-gershgorin": _gram_gershgorin, "wide": _wide,
    "symmetric-eig": lambda bits, _: _symmetric(bits, "symmetric-eig"),
    "symmetric-gershgorin": lambda bits, _: _symmetric(bits, "symmetric-gershgorin"),
    "structured": _structured, "dense-inverse": _dense_inverse,
}
