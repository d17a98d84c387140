"""L App. E.3 (the real canonical form), every displayed line, one statement each
(:mod:`recmem.theory.lru_real_form`):

- ``L.e3.action``: the two displayed chains for A·Re(v) and A·Im(v). The second is printed
  A·Im(v) = ½A(v − v*) = ½(λv − λ*v*) = Im(λv): ½(v − v*) is i·Im(v), so two of its equalities
  are false (A = [1], λ = 1, v = i: A·Im v = 1, ½A(v − v*) = i); with 1/(2i) every line holds.
- ``L.e3.real-form`` (eq. (26)): AṼ = Ṽ[[Re λ, −Im λ], [Im λ, Re λ]] contradicts the chains'
  own last lines (column 1 of ṼΛ̃ is Re λ Re v + Im λ Im v): the transpose is right; refuted on
  the rotation A = [[0, −1], [1, 0]], λ = i, v = (1, −i).
- ``L.e3.real-eigenvector``: "v + v* ∈ ℝ^N is an eigenvector" fails when v + v* = 0 (v = i·w);
  the correction takes i(v − v*) then.

Sides: SymPy derivations (general, v = x + iy, λ = α + iβ); every arithmetic evaluates the lines
on real 2×2 matrices with a conjugate pair (numerics.lru_real_form), A applied by matrix-vector
products; the search decides exact rational matrices with eigenvalues in ℚ(i).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics import lru_real_form as nr
from recmem.numerics.backend import AbstractBackend, make_backend
from recmem.numerics.native import conj, scalars
from recmem.theory import lru_real_form as tr

QUOTE_PAIR = (r"If $\lambda\in\mathbb{C}$ is an eigenvalue of $A\in\mathbb{R}^{N\times N}$ with "
              r"eigenvector $v\in\mathbb{C}^{N}$, then since $A$ is real-valued we have $Av^{*}=(A^{*}v)"
              r"^{*}=(Av)^{*}=(\lambda v)^{*}=\lambda^{*}v^{*}$. Hence, $\lambda^{*}$ is an eigenvalue "
              r"with eigenvector $v^{*}$.")
QUOTE_REAL = (r"This also shows that there always does exist a real eigenvector corresponding to each "
              r"real eigenvalue: let $v\in\mathbb{C}^{N}$ be a complex eivengvector with real eigenvalue "
              r"$\lambda$, then $v+v^{*}\in\mathbb{R}^{N}$ is an eigenvector with eigenvalue $\lambda$ "
              r"since, again using the fact that $A$ is real, $A(v+v^{*})=Av+Av^{*}=Av+(Av)^{*}="
              r"\lambda(v+v^{*})$.")
QUOTE_CHAINS = (r"$$ \displaystyle A\cdot\text{Re}(v) $$ $$ \displaystyle=\frac{1}{2}A(v+v^{*}) $$ "
                r"$$ \displaystyle=\frac{1}{2}\left(\lambda v+\lambda^{*}v^{*}\right) $$ $$ "
                r"\displaystyle=\text{Re}(\lambda v) $$ $$ \displaystyle=\text{Re}\left[(\text{Re}"
                r"(\lambda)+i\text{Im}(\lambda))(\text{Re}(v)+i\text{Im}(v))\right] $$ $$ "
                r"\displaystyle=\text{Re}(\lambda)\text{Re}(v)-\text{Im}(\lambda)\text{Im}(v). $$ "
                r"Similarly, $$ \displaystyle A\cdot\text{Im}(v) $$ $$ \displaystyle=\frac{1}{2}"
                r"A(v-v^{*}) $$ $$ \displaystyle=\frac{1}{2}\left(\lambda v-\lambda^{*}v^{*}\right) $$ "
                r"$$ \displaystyle=\text{Im}(\lambda v) $$ $$ \displaystyle=\text{Im}\left[(\text{Re}"
                r"(\lambda)+i\text{Im}(\lambda))(\text{Re}(v)+i\text{Im}(v))\right] $$ $$ "
                r"\displaystyle=\text{Re}(\lambda)\text{Im}(v)+\text{Im}(\lambda)\text{Re}(v). $$")
QUOTE_BLOCK = (r"This shows that the action of $A$ on the new real basis $\tilde{V}$ is of simple form: "
               r"$$ A\tilde{V}=\tilde{V}\begin{pmatrix}\text{Re}(\lambda)&-\text{Im}(\lambda)\\ "
               r"\text{Im}(\lambda)&\text{Re}(\lambda)\end{pmatrix}=:\tilde{V}\tilde{\Lambda} $$")
QUOTE_BASIS = (r"Let us now choose a different real basis for the columns of $V$, the real and "
               r"imaginary parts of $v$: $\tilde{V}=[\text{Re}(v),\text{Im}(v)]$.")
WHERE = "App. E.3"


def _kappa(values: list[Any], scale: mpmath.mpf) -> mpmath.mpf:
    """max(1, scale/‖values‖): the size of the products summed over the size of the result."""
    norm = mpmath.norm(mpmath.matrix([abs(v) for v in values]))
    return max(mpmath.mpf(1), scale / max(norm, mpmath.mpf(2) ** -20))


def _numeric(build: Callable[[Any, AbstractBackend, Any], tuple[list[Any], list[Any]]],
             label: str) -> Callable[[AbstractBackend, Context], list[Evidence]]:
    """An identity check over the seeded 2×2 instances: ``build(law, bk)`` returns the flat
    (lhs, rhs) lists of native scalars; κ from the instances' sizes at 64 bits."""
    def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
        law = ctx.statement
        mats = nr.complex_pair_matrices(ctx.seed + 9001, int(ctx["instances"]))

        def compute(bk: AbstractBackend) -> tuple[Any, Any]:
            lhs, rhs = [], []
            for m in mats:
                a, b = build(law, bk, m)
                lhs += a
                rhs += b
            return bk.vector_of(lhs), bk.vector_of(rhs)

        f64 = make_backend("mpmath@64")
        with f64.activate():
            sizes = [abs(x) for m in mats for x in m]
            kappa = _kappa(f64.entries(compute(f64)[1]), 8 * mpmath.mpf(float(max(sizes))) ** 2
                           * len(mats))
        return [identity_check(f"{label}, {len(mats)} real 2×2 matrices", backend, compute,
                               instance={"seed": ctx.seed + 9001, "instances": len(mats)},
                               kappa=kappa, n=16)]
    return numeric


def _applied(bk: AbstractBackend, m: Any) -> tuple[Any, Any, list[Any], tuple[Any, ...], Any]:
    a, lam, v = nr.eigenpair(bk, m)
    i_unit = nr.imag_unit(bk)
    x, y = nr.parts(v, i_unit)
    applied = (nr.matvec(a, x), nr.matvec(a, y), nr.matvec(a, v),
               nr.matvec(a, [conj(c) for c in v]))
    return a, lam, v, applied, i_unit


def _chains(law: Any, bk: AbstractBackend, m: Any) -> tuple[list[Any], list[Any]]:
    _, lam, v, applied, i_unit = _applied(bk, m)
    re = lambda z: (z + conj(z)) / 2  # noqa: E731
    im = lambda z: (z - conj(z)) / (2 * i_unit)  # noqa: E731
    lhs, rhs = [], []
    for chain in law.chains(applied, v, lam, re, im, i_unit):
        for p, q in itertools.pairwise(chain):
            lhs += p
            rhs += q
    return lhs, rhs


def _block(law: Any, bk: AbstractBackend, m: Any) -> tuple[list[Any], list[Any]]:
    _, lam, v, applied, i_unit = _applied(bk, m)
    x, y = nr.parts(v, i_unit)
    re, im = (lam + conj(lam)) / 2, (lam - conj(lam)) / (2 * i_unit)
    blk = law.block(re, im, bk.exp(bk.log(lam * conj(lam)) / 2))
    rhs = [x[i] * blk[0][c] + y[i] * blk[1][c] for c in range(2) for i in range(2)]
    return list(applied[0]) + list(applied[1]), rhs


def _eigen(law: Any, bk: AbstractBackend, m: Any) -> tuple[list[Any], list[Any]]:
    """Real eigenvalue s of the triangular [[p, q], [0, s]] (p ≠ s), eigenvector c·(q, s − p) with
    c ∈ {1, i, 1 + i/2}: A z and Im z against scale·λ z and 0."""
    p, q, _, s = m
    p = p if p != s else p + 1
    pp, qq, ss, zero = scalars(bk, [p, q, s, 0])
    i_unit = nr.imag_unit(bk)
    a = [[pp, qq], [zero, ss]]
    lhs, rhs = [], []
    for c in (1, i_unit, 1 + i_unit / 2):
        v = [c * qq, c * (ss - pp)]
        z = law.vector(v, conj, lambda w: all(e == 0 for e in w), i_unit)
        lhs += nr.matvec(a, z) + [(e - conj(e)) / (2 * i_unit) for e in z]
        rhs += [law.scale * ss * e for e in z] + [zero, zero]
    return lhs, rhs


# ---- exact search --------------------------------------------------------------------------


def strategy(ctx: Context) -> Any:
    """Exact real 2×2 matrices A = S[[α, −β], [β, α]]S⁻¹ (β ≠ 0, S invertible, entries in
    [−1, 1]): every real 2×2 matrix with eigenvalues α ± iβ ∈ ℚ(i) has this form."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    f = fractions_in(-1, 1)
    return st.tuples(f, f.filter(bool), st.tuples(f, f, f, f).filter(
        lambda m: m[0] * m[3] != m[1] * m[2]))


def _exact(inst: Any) -> tuple[list[list[Any]], Any, list[Any], Any]:
    """(A, λ, v, i) over QQ_I: A = SMS⁻¹, λ = α + iβ, v = S(1, −i) (M(1, −i) = λ(1, −i))."""
    from recmem.numerics.exact import QQi
    from recmem.theory.exact_linalg import _dom, element

    al, be, (s1, s2, s3, s4) = inst
    det = s1 * s4 - s2 * s3
    sm = [[s1, s2], [s3, s4]]
    si = [[s4 / det, -s2 / det], [-s3 / det, s1 / det]]
    mm = [[al, -be], [be, al]]
    sa = [[sum(sm[i][k] * mm[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
    a = [[element(QQi(sum(sa[i][k] * si[k][j] for k in range(2)))) for j in range(2)]
         for i in range(2)]
    dom = _dom()
    i_unit = dom(0, 1)
    v = [element(QQi(sm[i][0])) - i_unit * element(QQi(sm[i][1])) for i in range(2)]
    return a, element(QQi(al, be)), v, i_unit


def _conj(z: Any) -> Any:
    from recmem.theory.exact_linalg import _dom

    return _dom()(z.x, -z.y)


def _mv(a: list[list[Any]], v: list[Any]) -> list[Any]:
    return [a[i][0] * v[0] + a[i][1] * v[1] for i in range(2)]


def holds_chain(inst: Any, ctx: Context) -> Instance:
    """Every displayed line at an exact matrix, over ℚ(i) (A applied by exact products)."""
    from recmem.theory.exact_linalg import _dom

    dom = _dom()
    a, lam, v, i_unit = _exact(inst)
    re, im = (lambda z: dom(z.x, 0)), (lambda z: dom(z.y, 0))
    applied = (_mv(a, [re(c) for c in v]), _mv(a, [im(c) for c in v]), _mv(a, v),
               _mv(a, [_conj(c) for c in v]))
    law = ctx.law(tr.ActionChain)
    for name, chain in zip(("Re", "Im"), law.chains(applied, v, lam, re, im, i_unit), strict=True):
        for j, (p, q) in enumerate(itertools.pairwise(chain)):
            if any(x != y for x, y in zip(p, q, strict=True)):
                return Instance(False, "exact over ℚ(i)", {"instance": str(inst), "chain": name,
                                                           "step": j + 1, "lhs": str(p),
                                                           "rhs": str(q)})
    return Instance(True, "exact over ℚ(i)", {"instance": str(inst)})


def holds_block(inst: Any, ctx: Context) -> Instance:
    """AṼ − ṼΛ̃ at an exact matrix (SymPy, λ ∈ ℚ(i))."""
    import sympy as sp

    def to(z: Any) -> Any:
        return (sp.Rational(int(z.x.numerator), int(z.x.denominator))
                + sp.I * sp.Rational(int(z.y.numerator), int(z.y.denominator)))

    dom_a, lam, v, _ = _exact(inst)
    a = sp.Matrix([[to(x) for x in row] for row in dom_a])
    res = tr.block_residual(ctx.law(tr.RealBlock), a, [to(c) for c in v], to(lam))
    return Instance(res.is_zero_matrix, "exact (SymPy, λ ∈ ℚ(i))",
                    {"instance": str(inst), "λ": str(to(lam)), "AṼ − ṼΛ̃": str(res.tolist())})


def strategy_eigen(ctx: Context) -> Any:
    """Exact (A = [[p, q], [0, s]], eigenvalue s or p, eigenvector c·w with c Gaussian ≠ 0)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import disk, fractions_in

    f = fractions_in(-1, 1)
    return st.tuples(f, f, f, disk().filter(lambda z: z.re != 0 or z.im != 0), st.booleans()
                     ).filter(lambda t: t[0] != t[2])


def holds_eigen(inst: Any, ctx: Context) -> Instance:
    """z real, nonzero, A z = scale·λ z at exact data (SymPy)."""
    import sympy as sp

    from recmem.numerics.exact import to_sympy

    p, q, s, c, first = inst
    p, q, s, c = sp.Rational(p), sp.Rational(q), sp.Rational(s), to_sympy(c)
    lam, w = (p, [1, 0]) if first else (s, [q, s - p])
    got = tr.real_eigenvector_exact(ctx.law(tr.RealEigenvector), sp.Matrix([[p, q], [0, s]]), lam,
                                    [c * e for e in w])
    return Instance(got["real"] and got["nonzero"] and got["eigen"], "exact (SymPy)",
                    {"A": str([[p, q], [0, s]]), "λ": str(lam), "c": str(c), **got})


# ---- claims --------------------------------------------------------------------------------


def _symbolic(prove: Callable[[Any], Any], kind: type) -> Callable[[Context], list[Evidence]]:
    def symbolic(ctx: Context) -> list[Evidence]:
        t0 = time.perf_counter()
        return [from_proof(prove(ctx.law(kind)), time.perf_counter() - t0)]
    return symbolic


PARAMS = (Param("instances", 4, "seeded real 2×2 matrices with a conjugate eigenpair", int,
                check=at_least(1), max=256),)
TOL = ("exact (SymPy; search: exact matrices with eigenvalues in ℚ(i)); flint: enclosure; floats, mpmath: "
       "c·n·κ·u with n = 16, κ = size of the products over the size of the result")


def _claim(cid: str, title: str, summary: str, statement: Any, quote: str, **kw: Any) -> Claim:
    kind = type(statement)
    prove: Any = {tr.ActionChain: tr.action_chain_proof, tr.RealBlock: tr.real_block_proof,
             tr.RealEigenvector: tr.real_eigenvector_proof}[kind]
    side: tuple[Any, str, Any, Any] = {
        tr.ActionChain: (_chains, "displayed lines of both chains", strategy, holds_chain),
        tr.RealBlock: (_block, "AṼ against ṼΛ̃", strategy, holds_block),
        tr.RealEigenvector: (_eigen, "A z, Im z against scale·λ z, 0", strategy_eigen,
                             holds_eigen)}[kind]
    return Claim(id=cid, title=title, summary=summary, statement=statement,
                 provenance=Provenance("L", WHERE, quote), tolerance=TOL, params=PARAMS,
                 symbolic=_symbolic(prove, kind), numeric=_numeric(side[0], side[1]),
                 strategy=side[2], holds=side[3], **kw)


CLAIMS = [
    _claim("L.e3.action", "App. E.3: A·Re(v) and A·Im(v) chains, as printed",
           "A·Im(v) = ½A(v − v*) is false (½(v − v*) = i·Im v): A = [1], λ = 1, v = i gives 1 vs i",
           tr.ActionChain(), QUOTE_CHAINS),
    _claim("L.e3.action.corrected", "App. E.3: A·Re(v), A·Im(v) chains with 1/(2i)",
           "with A·Im(v) = (1/2i)A(v − v*) every displayed line holds (SymPy, general)",
           tr.ActionChain(im_over_i=True), QUOTE_CHAINS, corrects="L.e3.action"),
    _claim("L.e3.real-form", "App. E.3 eq. (26): AṼ = ṼΛ̃ with Λ̃ = [[Re λ, −Im λ], [Im λ, Re λ]]",
           "the printed block is the transpose: rotation A = [[0,−1],[1,0]], λ = i, v = (1, −i)",
           tr.RealBlock(), QUOTE_BASIS + " … " + QUOTE_BLOCK, uses=("L.e3.action.corrected",)),
    _claim("L.e3.real-form.corrected", "App. E.3 eq. (26) corrected: Λ̃ = [[Re λ, Im λ], [−Im λ, Re λ]]",
           "AṼ = Ṽ[[Re λ, Im λ], [−Im λ, Re λ]] for Ṽ = [Re v, Im v] (SymPy, general)",
           tr.RealBlock(upper_sign=1), QUOTE_BASIS + " … " + QUOTE_BLOCK,
           corrects="L.e3.real-form", notes="Equivalently the printed block with Ṽ = [Re v, −Im v] "
           "or with λ* in place of λ."),
    _claim("L.e3.real-eigenvector", "App. E.3: v + v* is a real eigenvector of a real eigenvalue",
           "v + v* = 0 when v = i·w: A = [1], λ = 1, v = i",
           tr.RealEigenvector(), QUOTE_PAIR + " " + QUOTE_REAL),
    _claim("L.e3.real-eigenvector.corrected", "App. E.3: v + v*, or i(v − v*) when v + v* = 0",
           "a real eigenvector: v + v* = 2 Re v if nonzero, else i(v − v*) = −2 Im v",
           tr.RealEigenvector(fallback=True), QUOTE_PAIR + " " + QUOTE_REAL,
           corrects="L.e3.real-eigenvector",
           notes="The numeric sides check A z = λ z and Im z = 0; z ≠ 0 is decided by SymPy and "
                 "the exact search."),
]
