"""Stable reparameterisation of paper W (§3.4, eq. (16) of the ICLR camera-ready).

Printed: "g: ℝ^{m×m} → ℝ^{m×m,−}, g(M) = W. (16) This reparameterized RNN is stable as the
eigenvalues' real part are always negative. … The exponential function g(M) = −e^M and the
softplus function g(M) = −log(1 + e^M) maps the eigenvalues of M to negative range"; and "LRU
(Orvieto et al., 2023) proposed to parameterizes the real part of eigenvalues by exp(−exp(λ)),
which corresponds to the discrete case for g(M) = −e^M."

:class:`StableReparam` is the one statement of the W.reparam family. Its knobs: the reading of
g(M) (matrix functions or entrywise), the hypothesis on M (every real M as printed, or the strip
|Im λ(M)| < h·π of the correction), the sign of g and the margin of the conclusion
Re λ(g(M)) < −margin. Matrix reading: by the spectral mapping theorem (Higham, *Functions of
Matrices*, Thm 1.13; multiplicities kept, defective M included) the eigenvalues of g(M) are g(λ)
for the eigenvalues λ = x + iy of M, and

    Re(−e^λ) = −e^x cos y,   Re(−Log(1 + e^λ)) = −½ log(1 + 2e^x cos y + e^{2x}),

so −e^M is Hurwitz iff cos(Im λ) > 0 for every λ, and −log(I + e^M) iff 2cos(Im λ) + e^{Re λ} > 0.
Both hold on the strip |Im λ| < π/2 (real spectra: symmetric, triangular, diagonal M), where
Re(1 + e^λ) > 1 also makes the principal logarithm exist; both fail for real M with |Im λ| just
past π/2 (−e^M) or further (M = [[0, −1], [5, 0]] for softplus). For rational M the signs are
never 0 (Lindemann–Weierstrass: Im λ is algebraic, π/2 + kπ is not; e^x cos y = μ ≠ 0 rational
has no algebraic solution), so certified balls always decide. Entrywise reading: a matrix with
negative entries need not be Hurwitz (M = 0 gives −[[1, 1], [1, 1]], eigenvalues {0, −2}).

:class:`LruEigenvalue` is the LRU sentence, read with "real part" literally or as the modulus.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zero, proof_from_steps
from recmem.theory.statement import Control, Statement

Matrix = list[list[Fraction]]

# Precision escalation for certified sign decisions (the signs are never 0 for rational M).
START_BITS = 64
MAX_BITS = 4096
MAPS = ("exp", "softplus")


def plus_rational(x: Any, q: Fraction) -> Any:
    """x + q in x's arithmetic (arb, mpmath, SymPy, floats), q an exact rational."""
    return x if q == 0 else (x * q.denominator + q.numerator) / q.denominator


def _pi_multiple(h: Fraction) -> str:
    """h·π as text: π/2, π, 9π/16."""
    num = "π" if h.numerator == 1 else f"{h.numerator}π"
    return num if h.denominator == 1 else f"{num}/{h.denominator}"


# ---- the statement ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class StableReparam(Statement):
    """W §3.4 eq. (16): both maps g send every admitted M to a W whose eigenvalues have real part
    below −``margin``.

    ``reading``: "matrix" (e^M the matrix exponential, log the principal matrix logarithm) or
    "entrywise"; ``half_width``: the hypothesis |Im λ| < half_width·π on every eigenvalue λ of M
    (None: every real M, the printed domain ℝ^{m×m}); ``sign``: +1 for the printed maps −e^M and
    −log(I + e^M), −1 for their negatives; ``margin``: 0 as printed ("real part … negative").
    """

    reading: str = "matrix"
    half_width: Fraction | None = None
    sign: int = 1
    margin: Fraction = Fraction(0)

    @property
    def text(self) -> str:
        s = "−" if self.sign > 0 else ""
        maps = f"g(M) = {s}e^M and g(M) = {s}log(I + e^M)"
        how = ("(matrix exponential, principal matrix logarithm)" if self.reading == "matrix"
               else "(applied to each entry M_ij)")
        dom = ("every M ∈ ℝ^{m×m}" if self.half_width is None else
               f"every real M whose eigenvalues all satisfy |Im λ| < {_pi_multiple(self.half_width)}")
        bound = "0" if self.margin == 0 else f"−{self.margin}"
        return (f"stable reparameterisation (16), g: ℝ^(m×m) → ℝ^(m×m,−): {maps} {how} map "
                f"{dom} to a W whose eigenvalues all have Re λ < {bound}, so the reparameterised "
                "RNN stays stable under every perturbation of M within that set")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("sign of g flipped (g = +e^M, +log(I + e^M))",
                       replace(self, sign=-self.sign)),
               Control("conclusion tightened from Re λ < 0 to Re λ < −1/8",
                       replace(self, margin=self.margin + Fraction(1, 8)))]
        if self.half_width is not None:
            w = self.half_width
            out.append(Control(f"hypothesis widened from |Im λ| < {_pi_multiple(w)} to "
                               f"|Im λ| < {_pi_multiple(2 * w)}", replace(self, half_width=2 * w)))
        return tuple(out)

    # -- the maps and the conclusion, in any arithmetic --

    def g_scalar(self, which: str, z: Any, exp: Callable[[Any], Any],
                 log: Callable[[Any], Any]) -> Any:
        """g at a scalar z: sign·(−e^z) or sign·(−Log(1 + e^z)) (an eigenvalue of M under the
        matrix reading, an entry under the entrywise one)."""
        e = exp(z)
        return -self.sign * e if which == "exp" else -self.sign * log(1 + e)

    def g_matrix(self, which: str, expm_m: Any, logm: Callable[[Any], Any], eye: Any) -> Any:
        """g(M) from e^M (the backend's matrix exponential of M) and a matrix logarithm."""
        return -self.sign * expm_m if which == "exp" else -self.sign * logm(eye + expm_m)

    def excess(self, re_mu: Any) -> Any:
        """Re μ + margin for an eigenvalue μ of g(M): the conclusion is excess < 0."""
        return plus_rational(re_mu, self.margin)

    def strip_bound(self, pi: Any) -> Any:
        """half_width·π in the arithmetic of ``pi`` (None: no hypothesis)."""
        if self.half_width is None:
            return None
        return self.half_width.numerator * pi / self.half_width.denominator

    def admits(self, m: Matrix) -> bool | None:
        """Whether M satisfies the hypothesis (certified: flint roots of the exact characteristic
        polynomial against half_width·π; None when undecided at MAX_BITS)."""
        import flint

        if self.half_width is None:
            return True
        bits = START_BITS
        while bits <= MAX_BITS:
            with flint.ctx.workprec(bits):
                bound = self.strip_bound(flint.arb.pi())
                ims = [abs(r.imag) for r, _ in certified_eigenvalues(m, bits)]
                if all(y < bound for y in ims):
                    return True
                if any(y > bound for y in ims):
                    return False
            bits *= 2
        return None

    def decide(self, m: Matrix) -> tuple[bool | None, str, dict[str, Any]]:
        """The conclusion at one admitted M, certified (matrix: spectral mapping on certified
        eigenvalues; entrywise: Routh–Hurwitz with exact zero tests)."""
        if self.reading == "matrix":
            return _decide_matrix(self, m)
        return _decide_entrywise(self, m)


# ---- certified eigenvalues and sign decisions -----------------------------------------------------

def certified_eigenvalues(m: Matrix, bits: int = 128) -> list[tuple[Any, int]]:
    """Eigenvalues of a rational matrix with multiplicities, as certified acb balls.

    The characteristic polynomial is exact over ℚ (flint fmpq_mat.charpoly); its roots are isolated
    by flint's certified complex root finder (squarefree factorisation, so repeated and defective
    eigenvalues are returned once with their multiplicity). Real roots come back with zero
    imaginary part exactly.
    """
    import flint

    n = len(m)
    a = flint.fmpq_mat(n, n, [flint.fmpq(x.numerator, x.denominator) for row in m for x in row])
    with flint.ctx.workprec(bits):
        roots: list[Any] = a.charpoly().complex_roots()  # (acb, multiplicity) pairs
        return [(r, int(mult)) for r, mult in roots]


def _acb_exp(z: Any) -> Any:
    return z.exp()


def _acb_log(z: Any) -> Any:
    return z.log()


def _decide_matrix(st: StableReparam, m: Matrix) -> tuple[bool | None, str, dict[str, Any]]:
    import flint

    bits = START_BITS
    while bits <= MAX_BITS:
        with flint.ctx.workprec(bits):
            roots = certified_eigenvalues(m, bits)
            undecided = False
            worst: dict[str, str] = {}
            for which in MAPS:
                for lam, _ in roots:
                    ex = st.excess(st.g_scalar(which, flint.acb(lam), _acb_exp, _acb_log).real)
                    if ex > 0:
                        return False, (f"flint at {bits} bits: certified eigenvalue λ of M, and "
                                       "the ball of Re g(λ) + margin lies in (0, ∞) (spectral "
                                       "mapping)"), {
                            "M": _show(m), "g": _g_name(st, which), "lambda(M)": str(lam),
                            "Re g(lambda) + margin": str(ex)}
                    if not ex < 0:
                        undecided = True
                    else:
                        worst.setdefault(which, str(ex))
            if not undecided:
                return True, f"flint at {bits} bits: every Re g(λ) + margin ball lies in (−∞, 0)", {
                    "M": _show(m), "max Re g(lambda) + margin": worst}
        bits *= 2
    return None, f"undecided at {MAX_BITS} bits", {"M": _show(m)}


def _g_name(st: StableReparam, which: str) -> str:
    s = "−" if st.sign > 0 else "+"
    f = f"{s}e^M" if which == "exp" else f"{s}log(I + e^M)"
    return f + (" (entrywise)" if st.reading == "entrywise" else " (matrix function)")


def _show(m: Matrix) -> str:
    return ";".join(",".join(str(x) for x in row) for row in m)


# ---- entrywise reading: Routh–Hurwitz with exact zero tests ------------------------------------------

def hurwitz_minors(coeffs: list[Any]) -> list[Any]:
    """Leading principal minors Δ₁…Δ_n of the Hurwitz matrix of s^n + a₁s^{n−1} + … + a_n.

    ``coeffs`` = [1, a₁, …, a_n] (any ring: arb balls or SymPy expressions). All roots lie in the
    open left half-plane iff every Δ_k > 0 (Routh–Hurwitz); a Δ_k ≤ 0 means some root has Re ≥ 0.
    """
    n = len(coeffs) - 1

    def a(k: int) -> Any:
        return coeffs[k] if 0 <= k <= n else 0

    minors = []
    for k in range(1, n + 1):
        rows = [[a(2 * (j + 1) - (i + 1)) for j in range(k)] for i in range(k)]
        minors.append(_det(rows))
    return minors


def _det(rows: list[list[Any]]) -> Any:
    """Laplace expansion (sizes ≤ 4 here): works over any commutative ring."""
    if len(rows) == 1:
        return rows[0][0]
    total: Any = 0
    for j, x in enumerate(rows[0]):
        minor = [r[:j] + r[j + 1:] for r in rows[1:]]
        term = x * _det(minor)
        total = total + term if j % 2 == 0 else total - term
    return total


def _shifted(st: StableReparam, g: list[list[Any]]) -> list[list[Any]]:
    """g + margin·I: the conclusion Re μ(g) < −margin says this matrix is Hurwitz."""
    return [[plus_rational(x, st.margin) if i == j else x for j, x in enumerate(row)]
            for i, row in enumerate(g)]


def entrywise_zero_minor(st: StableReparam, m: Matrix, which: str) -> int | None:
    """Index k of a Hurwitz minor of g(M) + margin·I (entrywise g) that is exactly 0, or None.

    exp: entries e^q = X^{qL} with X = e^{1/L} transcendental (Lindemann), so a minor is 0 iff it
    is 0 as a Laurent polynomial in X (decided exactly). softplus: entries log(1 + e^q) as
    independent atoms; a minor that vanishes as a polynomial in the atoms is 0; one that does not
    is reported as not identically zero (its sign is left to the balls).
    """
    import sympy as sp

    n = len(m)
    lcm = 1
    for row in m:
        for q in row:
            lcm = lcm * q.denominator // math.gcd(lcm, q.denominator)
    x_sym = sp.Symbol("X", positive=True)
    atoms: dict[Fraction, Any] = {}

    def entry(q: Fraction) -> Any:
        """g(q) exactly: e^q = X^{qL}; log(1 + e^q) an atom A_q."""
        def log_atom(_: Any) -> Any:
            if q not in atoms:
                atoms[q] = sp.Symbol(f"A{len(atoms)}", positive=True)
            return atoms[q]
        return st.g_scalar(which, q, lambda _: x_sym ** int(q * lcm), log_atom)

    g = _shifted(st, [[entry(q) for q in row] for row in m])
    s = sp.Symbol("s")
    cp = sp.Poly((s * sp.eye(n) - sp.Matrix(g)).det(method="berkowitz"), s)
    coeffs = [sp.expand(c) for c in cp.all_coeffs()]
    for k, d in enumerate(hurwitz_minors(coeffs), start=1):
        if sp.expand(d) == 0:
            return k
    return None


def _arb_exp(x: Any) -> Any:
    return x.exp()


def _arb_log(x: Any) -> Any:
    return x.log()


def _decide_entrywise(st: StableReparam, m: Matrix) -> tuple[bool | None, str, dict[str, Any]]:
    """Whether g(M) + margin·I (g entrywise) is Hurwitz for both maps, certified.

    Minors as flint balls first (precision doubling); a minor < 0 certifies instability, all > 0
    stability; a minor whose ball keeps containing 0 is tested for exact zero
    (:func:`entrywise_zero_minor`), which certifies instability (Δ_k = 0).
    """
    import flint

    how = ""
    values: dict[str, Any] = {"M": _show(m)}
    for which in MAPS:
        values = {"M": _show(m), "g": _g_name(st, which)}
        bits, decided = START_BITS, False
        while bits <= 512 and not decided:
            with flint.ctx.workprec(bits):
                g = _shifted(st, [[st.g_scalar(which, flint.arb(flint.fmpq(q.numerator,
                                                                            q.denominator)),
                                                _arb_exp, _arb_log) for q in row] for row in m])
                coeffs = list(reversed(flint.arb_mat(g).charpoly().coeffs()))
                minors = hurwitz_minors(coeffs)
                for k, d in enumerate(minors, start=1):
                    if d < 0:
                        return False, (f"flint at {bits} bits: Hurwitz minor Δ_{k} of the "
                                       "characteristic polynomial of g(M) + margin·I has a ball "
                                       "in (−∞, 0)"), {**values, "minor": k, "Delta": str(d)}
                if all(d > 0 for d in minors):
                    decided = True
                    how = f"flint at {bits} bits: every Hurwitz minor ball lies in (0, ∞)"
            bits *= 2
        if decided:
            continue
        zero = entrywise_zero_minor(st, m, which)
        if zero is None:
            return None, "undecided: a Hurwitz minor ball contains 0 and is not identically 0", \
                values
        why = ("e^q = X^(qL) with X = e^(1/L) transcendental" if which == "exp"
               else "identically 0 as a polynomial in the entries log(1 + e^q)")
        return False, (f"exact: Hurwitz minor Δ_{zero} = 0 (SymPy; {why}), so some eigenvalue "
                       "has Re λ ≥ −margin"), {**values, "minor": zero, "Delta": "0"}
    return True, how, values


# ---- symbolic side ----------------------------------------------------------------------------------

def _simplest_inside(lo: float, hi: float) -> Fraction | None:
    """The rational of smallest denominator (≤ 64) strictly inside (lo, hi), or None."""
    for q in (1, 2, 4, 8, 16, 32, 64):
        p = math.floor(lo * q) + 1
        if p / q < hi:
            return Fraction(p, q)
    return None


def witness_candidates(st: StableReparam) -> list[tuple[Matrix, str]]:
    """Exact matrices where the statement may fail, derived from its fields (each is then judged
    exactly; the derivation only chooses where to look): M = 0 (1×1: the sign of g; 2×2: a
    singular entrywise g), M = [[x]] with e^x < margin (a margin above 0 is not attained as
    x → −∞), and the rotation [[0, −b], [b, 0]] with the simplest rational b in (π/2,
    min(half_width·π, π)) (eigenvalues ±ib past π/2, where cos b < 0)."""
    zero1: Matrix = [[Fraction(0)]]
    zero2: Matrix = [[Fraction(0)] * 2 for _ in range(2)]
    out = [(zero1, "M = 0 (1×1)"), (zero2, "M = 0 (2×2)")]
    if st.margin > 0:
        x = Fraction(-math.ceil(-math.log(float(st.margin))) - 1)
        out.append(([[x]], f"M = [[{x}]]: e^x < margin"))
    hi = math.pi if st.half_width is None else min(float(st.half_width) * math.pi, math.pi)
    b = _simplest_inside(math.pi / 2, hi)
    if b is not None:
        out.append(([[Fraction(0), -b], [b, Fraction(0)]], f"rotation with eigenvalues ±{b}i"))
    return out


def _exact_excess(st: StableReparam, m: Matrix) -> list[tuple[str, Any, Any]]:
    """(map, eigenvalue μ of g(M), Re μ + margin) exactly in SymPy: the matrix reading through
    SymPy's matrix exponential of M (−e^M) and the spectral mapping on M's exact eigenvalues
    (softplus); the entrywise reading through the exact entries."""
    import sympy as sp

    a = sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in row] for row in m])
    out = []
    for which in MAPS:
        if st.reading == "entrywise":
            g = sp.Matrix([[st.g_scalar(which, x, sp.exp, sp.log) for x in row]
                           for row in a.tolist()])
            mus = list(g.eigenvals())
        elif which == "exp":
            mus = list(st.g_matrix(which, a.exp(), lambda _: None, sp.eye(len(m))).eigenvals())
        else:  # the principal logarithm through the spectral mapping on M's exact eigenvalues
            mus = [st.g_scalar(which, lam, sp.exp, sp.log) for lam in a.eigenvals()]
        out += [(which, mu, st.excess(sp.re(sp.expand_complex(mu)))) for mu in mus]
    return out


def reparam_proof(st: StableReparam) -> Proof:
    """Decide the statement: an exact counterexample among :func:`witness_candidates` (admitted by
    the hypothesis, certified by flint; Re μ + margin ≥ 0 decided by SymPy), or, for the matrix
    reading, the general argument: the range of cos y over the statement's strip (SymPy
    ``function_range``) lies in (0, 1], so e^x cos y > 0 and 2cos y + e^x > 0 for every
    eigenvalue, and Re(1 + e^λ) > 1 gives the principal logarithm; with the spectral mapping
    theorem this covers every admitted real M."""
    import sympy as sp
    from sympy.calculus.util import function_range

    t0 = time.perf_counter()
    tried = []
    for m, why in witness_candidates(st):
        if st.admits(m) is not True:
            tried.append(f"{why}: outside the hypothesis")
            continue
        for which, mu, ex in _exact_excess(st, m):
            if ex.is_negative is False:
                return Proof(False, f"the exact matrix {why}",
                             "SymPy: exact eigenvalues of g(M) and the sign of Re μ + margin",
                             counterexample={"M": _show(m), "g": _g_name(st, which),
                                             "eigenvalue of g(M)": str(mu),
                                             "Re + margin": f"{ex} = {sp.N(ex, 8)} ≥ 0",
                                             "hypothesis": "admitted (certified by flint)"})
        tried.append(f"{why}: no violation")
    details: dict[str, Any] = {"candidates": "; ".join(tried)}
    if st.reading != "matrix":
        return Proof(None, "entrywise reading: no general argument",
                     "no exact candidate violates the statement and no proof applies",
                     details=details)
    y = sp.Symbol("y", real=True)
    bound = st.strip_bound(sp.pi)
    strip = sp.S.Reals if bound is None else sp.Interval.open(-bound, bound)
    rng = function_range(sp.cos(y), y, strip)
    cos_positive = bool(rng.inf > 0) or (rng.inf == 0 and bool(rng.left_open))
    details |= {"range of cos(Im λ) over the hypothesis": str(rng),
                "cos(Im λ) > 0 on it": cos_positive}
    if st.sign > 0 and st.margin <= 0 and cos_positive:
        x = sp.Symbol("x", real=True)
        lam = x + sp.I * y
        re_exp = sp.expand_complex(sp.re(st.g_scalar("exp", lam, sp.exp, sp.log)))
        mod2 = sp.expand_complex((1 + sp.exp(lam)) * (1 + sp.exp(x - sp.I * y)))
        # each identity also at an exact point: a wrong step is decided false (a failed
        # derivation, reported as such), one SymPy cannot reduce stays undecided
        at = [{x: 0, y: 1}]
        checks = {
            "Re(−e^λ) = −e^x cos y": decide_zero(re_exp + sp.exp(x) * sp.cos(y), at),
            "|1 + e^λ|² − 1 = e^x(2cos y + e^x)":
                decide_zero(mod2 - 1 - sp.exp(x) * (2 * sp.cos(y) + sp.exp(x)), at),
            "Re(1 + e^λ) = 1 + e^x cos y": decide_zero(
                sp.expand_complex(sp.re(1 + sp.exp(lam))) - 1 - sp.exp(x) * sp.cos(y), at),
        }
        scope = ("every real M" if st.half_width is None else
                 "every real M whose eigenvalues satisfy |Im λ| < "
                 f"{_pi_multiple(st.half_width)}")
        argument = proof_from_steps(
            checks, scope, "spectral mapping theorem (Higham, Thm 1.13) + SymPy: Re g(λ) in "
            "closed form, range of cos over the strip in (0, 1], so −e^x cos y < 0, "
            "|1 + e^λ| > 1 and Re(1 + e^λ) > 1 (principal logarithm exists)",
            {k: str(v) for k, v in details.items()}
            | {"seconds": round(time.perf_counter() - t0, 3)}, general=True)
        if argument.holds is True or argument.failed_step is not None:
            return argument
        details |= argument.details
    return Proof(None, "no exact candidate violates the statement and the general argument does "
                 "not apply", "SymPy", details={k: str(v) for k, v in details.items()})


# ---- LRU ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LruEigenvalue(Statement):
    """W §3.4 on LRU: λ = exp(−exp(ν) + iθ) (LRU's eigenvalue) has ``part``(λ) =
    exp(outer_sign·rate·exp(ν)) for all real ν, θ.

    ``part``: "real part" (the printed word) or "modulus" (|λ|, LRU's stable radius); printed
    rate 1 and outer sign −1, i.e. exp(−exp(ν)) ∈ (0, 1).
    """

    part: str = "modulus"
    rate: Fraction = Fraction(1)
    outer_sign: int = -1

    @property
    def text(self) -> str:
        q = "|λ|" if self.part == "modulus" else "Re λ"
        s = "−" if self.outer_sign < 0 else ""
        r = "" if self.rate == 1 else f"({self.rate})·"
        tail = (", so 0 < |λ| < 1: the time-1 map of dh/dt = (−e^ν + iθ)h, the discrete case of "
                "g(M) = −e^M" if self.part == "modulus" else
                ": LRU parameterises the real part of its eigenvalues by exp(−exp(ν))")
        return (f"for all real ν, θ, LRU's eigenvalue λ = exp(−exp(ν) + iθ) has {q} = "
                f"exp({s}{r}exp(ν)){tail}")

    def controls(self) -> tuple[Control, ...]:
        return (Control("outer sign flipped: exp(+exp(ν))", replace(self,
                                                                    outer_sign=-self.outer_sign)),
                Control("rate changed from 1 to 9/8: exp(−(9/8)·exp(ν))",
                        replace(self, rate=self.rate * Fraction(9, 8))))

    def lhs(self, lam: Any, absval: Callable[[Any], Any], real: Callable[[Any], Any]) -> Any:
        """The quantity of λ the statement is about: |λ| or Re λ."""
        return absval(lam) if self.part == "modulus" else real(lam)

    def rhs(self, nu: Any, exp: Callable[[Any], Any]) -> Any:
        """exp(outer_sign·rate·exp(ν))."""
        return exp(self.outer_sign * self.rate.numerator * exp(nu) / self.rate.denominator)


def lru_eigenvalue(nu: Any, theta: Any, exp: Callable[[Any], Any], i: Any) -> Any:
    """LRU's eigenvalue λ = exp(−exp(ν) + iθ) (Orvieto et al. 2023, eq. (6)): the definition."""
    return exp(-exp(nu) + i * theta)


def lru_proof(st: LruEigenvalue) -> Proof:
    """Decide the LRU statement for all real ν, θ with SymPy (difference reduced to 0, or an exact
    point where it is nonzero), with the time-1-map identity as a detail."""
    import sympy as sp

    nu, theta, t = sp.symbols("nu theta t", real=True)
    lam = lru_eigenvalue(nu, theta, sp.exp, sp.I)
    lhs = st.lhs(lam, sp.Abs, sp.re)
    diff = sp.expand_complex(lhs) - st.rhs(nu, sp.exp)
    points = [{nu: 0, theta: 0}, {nu: 0, theta: 1}, {nu: 1, theta: 1}]
    ok, witness = decide_zero(diff, points)
    w = -sp.exp(nu) + sp.I * theta
    h = sp.exp(w * t)
    details = {
        f"{'|λ|' if st.part == 'modulus' else 'Re λ'} (SymPy)": str(sp.simplify(
            sp.expand_complex(lhs))),
        "h(t) = e^{wt} solves dh/dt = w h, w = −e^ν + iθ": sp.simplify(sp.diff(h, t) - w * h) == 0,
        "λ = h(1) (time-1 map)": sp.simplify(h.subs(t, 1) - lam) == 0,
        "Re w = −e^ν < 0": bool(sp.re(w).is_negative),
    }
    if ok is False:
        return Proof(False, "real ν, θ", "SymPy: the difference at an exact point",
                     counterexample=witness, details={k: str(v) for k, v in details.items()})
    if ok is None:
        return Proof(None, "real ν, θ", "SymPy could not reduce the difference",
                     details={**{k: str(v) for k, v in details.items()}, **witness})
    return Proof(True, "all real ν, θ", "SymPy: the difference simplifies to 0",
                 details={k: str(v) for k, v in details.items()}, general=True)
