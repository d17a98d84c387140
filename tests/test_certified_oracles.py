"""Run-time oracles of the certified routines (numerics/certified_oracles.py, issue 19).

Every fallback, escalation and error branch of ``numerics.certified`` is forced here and its
bracket checked to contain a value known exactly; each oracle is shown to catch a planted slip
(a wrong Gershgorin fallback, a too-tight bracket end, a κ in the wrong norm) that went through
silently before it existed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest

from recmem.numerics import certified
from recmem.numerics import certified_oracles as oracles
from recmem.numerics import condition as cond
from recmem.numerics.certified import exact_matrix_builder, sigma_bracket, vandermonde_builder
from recmem.numerics.certified_oracles import InternalInconsistency
from recmem.numerics.exact import QQi
from recmem.numerics.node_families import parse_family
from recmem.numerics.nodes import roots


@pytest.fixture(autouse=True)
def fresh_sentinels() -> Iterator[None]:
    """Each test starts with no sentinel passed (a planted slip must meet its sentinel) and
    leaves none behind that ran on a planted routine."""
    oracles.reset()
    yield
    oracles.reset()


def enclosures_fail(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make flint's eigenvalue enclosures fail (as on clusters they cannot isolate), so that the
    fallbacks run; the list counts the failures."""
    failures: list[int] = []

    def fail(g: Any) -> Any:
        failures.append(g.nrows())
        raise ValueError("planted: enclosures failed")

    monkeypatch.setattr(certified, "eigenvalue_balls", fail)
    return failures


def q(x: Any) -> Fraction:
    return x if isinstance(x, Fraction) else certified.mpf_to_fraction(x)


def contains_sqrt(bracket: tuple[Any, Any], square: Fraction) -> bool:
    lo, hi = q(bracket[0]), bracket[1]
    return lo * lo <= square and (hi == mpmath.inf or q(hi) ** 2 >= square)


def rows_of(matrix: list[list[int]]) -> list[list[QQi]]:
    return [[QQi(Fraction(x)) for x in r] for r in matrix]


# ---- the sentinels themselves -----------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["gram-eig", "gram-gershgorin", "wide", "symmetric-eig",
                                  "symmetric-gershgorin", "structured:2", "structured:1",
                                  "structured:inf", "structured:fro", "dense-inverse:1",
                                  "dense-inverse:inf", "dense-inverse:fro"])
@pytest.mark.parametrize("bits", [53, 128, 1024])
def test_every_sentinel_passes_on_the_correct_routines(kind: str, bits: int) -> None:
    oracles.sentinel(kind, bits)
    assert (kind, bits) in oracles.PASSED


def test_gram_gershgorin_sentinel_really_takes_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = certified._gershgorin_extreme
    def spy(*a: Any) -> Any:
        calls.append(a)
        return real(*a)

    monkeypatch.setattr(certified, "_gershgorin_extreme", spy)
    oracles.sentinel("gram-gershgorin", 128)
    assert calls, "the 4×4 roots-of-unity Gram matrix 4I must go through the Gershgorin fallback"


def test_check_interval_refuses_what_is_not_a_bracket() -> None:
    oracles.check_interval(Fraction(1, 2), mpmath.inf, "κ", floor=1)  # weak, not wrong
    oracles.check_interval(mpmath.inf, mpmath.inf, "κ", floor=1)  # a certified κ = ∞
    for lo, hi, floor in [(2, 1, 0), (-1, 1, 0), (mpmath.nan, 1, 0), (Fraction(1, 2), 0.9, 1),
                          (mpmath.inf, 3, 1), (0, float("nan"), 0)]:
        with pytest.raises(InternalInconsistency):
            oracles.check_interval(lo, hi, "x", floor=floor)
    with pytest.raises(InternalInconsistency):
        certified.KappaBracket(mpmath.mpf(1), mpmath.mpf("0.5"), 64, True)  # κ ≤ 1/2: impossible


def test_mpf_to_fraction_keeps_every_bit_of_a_private_context() -> None:
    """It used to round an mpf of a private MPContext to the global 53 bits, to nearest: a
    bracket end moved inwards (a too-tight end) on every conversion of the dense route."""
    ctx = mpmath.MPContext()
    ctx.prec = 300
    x = ctx.mpf(1) / 3
    assert abs(q(x) - Fraction(1, 3)) < Fraction(1, 2**290)
    assert q(-x) == -q(x)


# ---- planted slips: each oracle catches its slip ------------------------------------------------------
def test_a_wrong_gershgorin_fallback_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plant: the Gershgorin fallback returns a bracket shifted by 1 % (what a wrong disc radius
    or a wrong eigenvector column gives). Before the oracles, sigma_bracket returned a wrong
    certified σ for every matrix with repeated singular values (roots of unity: κ₂ = 1)."""
    real = certified._gershgorin_extreme

    def shifted(p: Any, bits: int, largest: bool) -> tuple[Any, Any]:
        lo, hi = real(p, bits, largest)
        return lo * mpmath.mpf("1.01"), hi * mpmath.mpf("1.01")

    monkeypatch.setattr(certified, "_gershgorin_extreme", shifted)
    enclosures_fail(monkeypatch)
    with pytest.raises(InternalInconsistency, match=r"sentinel (gram|symmetric)-gershgorin"):
        sigma_bracket(vandermonde_builder(roots(8), 8))
    with pytest.raises(InternalInconsistency, match="sentinel symmetric-gershgorin"):
        import flint

        certified.symmetric_extreme(flint.arb_mat([[2, 1], [1, 2]]), 128, True)


def test_a_too_tight_kappa_end_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plant: the κ bracket's lower end is its upper end (a quotient rounded the wrong way, or
    the wrong end picked): still a bracket (lo = hi), and a one-sided comparison on lo
    (κ ≥ bound) would pass on it; the sentinel's κ₂ = φ² (irrational, known exactly) is then
    outside the bracket. A lower end moved above the upper one is caught by the shape check."""
    real = certified._div
    kappa = certified.SigmaBracket.kappa

    def tight(self: certified.SigmaBracket) -> certified.KappaBracket:
        k = kappa.fget(self)
        return certified.KappaBracket(k.hi, k.hi, k.bits, k.certified)

    monkeypatch.setattr(certified.SigmaBracket, "kappa", property(tight))
    a = exact_matrix_builder(rows_of([[3, 1], [1, 2]]))
    with pytest.raises(InternalInconsistency, match="sentinel gram-eig"):
        _ = sigma_bracket(a).kappa
    monkeypatch.setattr(certified.SigmaBracket, "kappa", kappa)
    monkeypatch.setattr(certified, "_div", lambda a, b, *, up: real(a, b, up=up) * (
        1 if up else 1 + mpmath.mpf(10) ** -12))
    with pytest.raises(InternalInconsistency, match=r"lower end .* > upper end"):
        _ = sigma_bracket(a).kappa


def test_a_too_tight_float_sigma_end_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plant: the float64 stage's σ_max lower end 1e-9 too high (too tight). The structured
    sentinel (σ_max(V) = 2 exactly) catches it; the point is marked, never certified."""
    from recmem.numerics import float_enclosure as fe

    real = fe.sigma_max_bounds

    def tight(x: Any, **kw: Any) -> tuple[Fraction, Fraction]:
        lo, hi = real(x, **kw)
        return lo * (1 + Fraction(1, 10**9)), hi

    monkeypatch.setattr(fe, "sigma_max_bounds", tight)
    row = cond.compute(cond.Point("ring:9/10:1", 12, 12, 0, None, "2", "kappa"))
    assert row["inconsistent"] and not row["certified"]
    assert "sentinel structured:2" in row["inconsistency"]


def test_an_upper_end_below_one_is_inconsistent_not_certified(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """compute used to raise the bracket to [1, 1] and report it certified (κ ≥ 1)."""
    monkeypatch.setattr(cond, "_structured", lambda nodes, point: cond._Result(
        Fraction(1, 2), Fraction(3, 4), 128, "structured", {}))
    row = cond.compute(cond.Point("roots-of-unity", 8, 8, 0, None, "2", "kappa"))
    assert row["inconsistent"] and not row["certified"] and row["value"] is None


def _wrong_norm(monkeypatch: pytest.MonkeyPatch, norm: str = "1") -> None:
    """Plant: the structured route computes κ in another norm than the one asked."""
    real = cond._structured
    monkeypatch.setattr(cond, "_structured",
                        lambda nodes, point: real(nodes, replace(point, norm=norm)))


@pytest.mark.parametrize("norm", ["1", "inf"])
def test_a_kappa_in_the_wrong_norm_is_inconsistent(monkeypatch: pytest.MonkeyPatch,
                                                   norm: str) -> None:
    _wrong_norm(monkeypatch, norm)
    # roots of unity: κ₂ = 1, κ₁ = κ_∞ = N; both the float64 and the dense checks see it
    row = cond.compute(cond.Point("roots-of-unity", 8, 8, 0, None, "2", "kappa"))
    assert row["inconsistent"] and not row["certified"]
    assert row["float64_check"] == "DISAGREES" and row["route_check"] == "DISAGREES"
    # above the dense cutoff, float64 (κ·u small) alone catches it
    row = cond.compute(cond.Point("ring:9/10:1", 40, 40, 0, None, "2", "kappa"))
    assert row["route_check"] == "not run"
    assert row["float64_check"] == "DISAGREES" and row["inconsistent"]


def test_the_dense_cross_check_alone_catches_a_wrong_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where float64 resolves nothing (numpy's value withheld here), --check's second route is
    the oracle: structured and dense brackets of one κ must overlap."""
    _wrong_norm(monkeypatch)
    monkeypatch.setattr(cond, "float64_kappa", lambda nodes, point: None)
    row = cond.compute(cond.Point("ring:9/10:1", 12, 12, 0, None, "2", "kappa", check=True))
    assert row["float64_check"] == "none" and row["route_check"] == "DISAGREES"
    assert row["inconsistent"] and "do not overlap" in row["inconsistency"]
    row = cond.compute(cond.Point("ring:9/10:1", 12, 12, 0, None, "2", "kappa", check=False))
    assert row["route_check"] == "not run" and not row["inconsistent"]  # nothing to compare


def test_float64_agreement_rule() -> None:
    lo, hi = Fraction(100), Fraction(101)
    assert cond.float64_agrees(100.5, lo, hi, 8)[0] == "agrees"
    assert cond.float64_agrees(150.0, lo, hi, 8)[0] == "DISAGREES"
    assert cond.float64_agrees(None, lo, hi, 8)[0] == "none"
    assert cond.float64_agrees(150.0, lo, None, 8)[0] == "unresolved"
    big = Fraction(10**15)
    assert cond.float64_agrees(1.0, big, big, 8)[0] == "unresolved"  # δ ≥ 1/2: no digit left


def test_condition_command_exits_3_and_marks_a_wrong_norm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: a κ computed in the wrong norm was reported, certified, exit 0."""
    import csv
    import json

    from recmem.checks.cli import main

    monkeypatch.delenv("RECMEM_CONDITION_ENGINE", raising=False)
    _wrong_norm(monkeypatch)
    out = tmp_path / "s"
    code = main(["condition", "--nodes", "roots-of-unity", "--rows", "8", "--out", str(out),
                 "--csv", str(tmp_path / "k.csv"), "--json", str(tmp_path / "k.json"), "--quiet"])
    text = capsys.readouterr().out
    assert code == 3
    assert "INCONSISTENT" in text and "0 certified" in text
    (row,) = list(csv.DictReader((tmp_path / "k.csv").open()))
    assert row["inconsistent"] == "true" and row["certified"] == "false"
    (point,) = json.loads((tmp_path / "k.json").read_text())["points"]
    assert point["inconsistent"] is True and point["certified"] is False
    # the slip removed, the next run computes the marked point again: consistent, exit 0
    monkeypatch.undo()
    monkeypatch.delenv("RECMEM_CONDITION_ENGINE", raising=False)
    assert main(["condition", "--nodes", "roots-of-unity", "--rows", "8", "--out", str(out),
                 "--quiet"]) == 0


# ---- fallback, escalation and error branches, each against a value known exactly -------------------
def test_precision_escalation_brackets_the_exact_kappa() -> None:
    """circle:1/2, N = 12: κ₂ = 2^11 exactly; from 8 bits the Gram route must double."""
    nodes = parse_family("circle:1/2").nodes(12, 0)
    sb = sigma_bracket(vandermonde_builder(nodes, 12), start_bits=8)
    assert sb.certified and sb.bits > 8
    k = sb.kappa
    assert q(k.lo) <= 2**11 <= q(k.hi)


@pytest.mark.parametrize("n", [8, certified.GERSHGORIN_EARLY_N + 2])
def test_gershgorin_fallback_brackets_the_exact_sigma(monkeypatch: pytest.MonkeyPatch,
                                                      n: int) -> None:
    """Roots of unity (AᴴA = N·I, σ = √N, κ₂ = 1) with failing enclosures: up to
    GERSHGORIN_EARLY_N the brackets run at once; above, the precision doubles first and the
    brackets run at the last step."""
    failures = enclosures_fail(monkeypatch)
    sb = sigma_bracket(vandermonde_builder(roots(n), n), start_bits=64, max_bits=128)
    assert failures
    assert sb.bits == (64 if n <= certified.GERSHGORIN_EARLY_N else 128) and sb.certified
    assert contains_sqrt(sb.smax, Fraction(n)) and contains_sqrt(sb.smin, Fraction(n))
    assert q(sb.kappa.lo) <= 1 <= q(sb.kappa.hi)


def test_a_singular_matrix_is_never_certified_and_brackets_the_truth() -> None:
    """[[1, 1], [1, 1]]: σ = 2, 0. σ_min's ball never excludes 0: uncertified, κ ≤ ∞ only."""
    sb = sigma_bracket(exact_matrix_builder(rows_of([[1, 1], [1, 1]])), start_bits=64,
                       max_bits=256)
    assert not sb.certified and sb.kappa.hi == mpmath.inf
    assert contains_sqrt(sb.smax, Fraction(4)) and q(sb.smin[0]) == 0


def test_a_failing_fallback_gives_no_bracket_not_a_wrong_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The error branch: the Gershgorin fallback raises at the last precision → (0, ∞)."""
    def broken(*_: Any) -> Any:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(certified, "_gershgorin_extreme", broken)
    enclosures_fail(monkeypatch)
    sb = sigma_bracket(vandermonde_builder(roots(4), 4), start_bits=64, max_bits=64)
    assert not sb.certified and sb.smax[1] == mpmath.inf and sb.kappa.hi == mpmath.inf


def test_wide_matrix_brackets() -> None:
    """The 2×3 V of the nodes −1, 1 (rows (λ², λ, 1)): VVᴴ = [[3, −1], [−1, 3]], so σ² = 4, 2,
    ‖V‖_F² = 6, and κ₂ = ∞ (rank ≤ 2 < 3 columns)."""
    nodes = parse_family("equispaced:-1:1").nodes(2, 0)
    sb = sigma_bracket(vandermonde_builder(nodes, 3))
    assert sb.rank_deficient and sb.kappa.infinite
    assert contains_sqrt(sb.fro, Fraction(6)) and contains_sqrt(sb.smax, Fraction(4))


@pytest.mark.parametrize("fallback", [False, True])
@pytest.mark.parametrize("hermitian", [False, True])
def test_symmetric_extreme_brackets_repeated_eigenvalues(monkeypatch: pytest.MonkeyPatch,
                                                         hermitian: bool, fallback: bool) -> None:
    """diag(1, 1, 5, 5) conjugated by a real orthogonal (or unitary) matrix with exact entries:
    the enclosures, and (forced) the Gershgorin fallback, bracket 1 and 5."""
    import flint

    if fallback:
        enclosures_fail(monkeypatch)
    # H = (1/2)[[1, 1, 1, 1], [1, −1, 1, −1], [1, 1, −1, −1], [1, −1, −1, 1]] is orthogonal
    h = [[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]]
    d = [1, 1, 5, 5]
    m = [[sum(h[i][k] * d[k] * h[j][k] for k in range(4)) / 4 for j in range(4)] for i in range(4)]
    p: Any
    if hermitian:
        ph = [1, 1j, -1, -1j]
        p = flint.acb_mat([[flint.acb(m[i][j] * ph[i] * ph[j].conjugate()) for j in range(4)]
                           for i in range(4)])
    else:
        p = flint.arb_mat(m)
    for largest, want in ((False, 1), (True, 5)):
        lo, hi = certified.symmetric_extreme(p, 128, largest)
        assert q(lo) <= want <= q(hi) and q(hi) - q(lo) < Fraction(1, 10**20)


def test_structured_sigma_uncertified_is_an_open_bracket(monkeypatch: pytest.MonkeyPatch) -> None:
    """vandermonde_sigma when ‖V⁻¹‖₂ has no positive lower end: σ_min ∈ (0, ∞), never (0, 0)
    (which claimed σ_min ≤ 0)."""
    from recmem.numerics.float_enclosure import FloatEnclosure

    real = FloatEnclosure.norm_bounds

    def no_lower(self: FloatEnclosure, norm: str, **kw: Any) -> tuple[Fraction, Fraction]:
        lo, hi = real(self, norm, **kw)
        return (Fraction(0), hi) if norm == "2" else (lo, hi)

    monkeypatch.setattr(FloatEnclosure, "norm_bounds", no_lower)
    monkeypatch.setattr(oracles, "sentinel", lambda kind, bits: None)  # the plant is deliberate
    sb = cond.vandermonde_sigma(parse_family("circle:1/2").nodes(6, 0), 6)
    assert not sb.certified and sb.smin[1] == mpmath.inf and sb.kappa.hi == mpmath.inf


# ---- the structured route's escalation, error and rescaling branches --------------------------------
def test_structured_precision_escalation_brackets_the_exact_kappa(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """circle:1/2, N = 16: κ₂ = 2^15 exactly. From 8 bits the ball stage's radii are too large
    (or the nodes not separated): the route doubles the precision until they are small."""
    monkeypatch.setattr(cond, "default_start_bits", lambda n: 8)
    row = cond.compute(cond.Point("circle:1/2", 16, 16, 0, None, "2", "kappa", check=False))
    assert row["method"] == "structured" and row["precision_used"] > 8 and row["certified"]
    assert Fraction(row["lower"]) <= 2**15 <= Fraction(row["upper"])
    sb = cond.vandermonde_sigma(parse_family("circle:1/2").nodes(16, 0), 16)  # the same in σ
    assert sb.certified and q(sb.kappa.lo) <= 2**15 <= q(sb.kappa.hi)


def test_structured_route_beyond_float64_gives_no_bracket() -> None:
    """|λ| = 2^600: the powers leave the float64 range; no bracket, never a wrong one."""
    row = cond.compute(cond.Point(f"circle:{2**600}", 4, 4, 0, None, "2", "kappa", check=False))
    assert row["method"] == "structured" and not row["certified"] and row["value"] is None
    assert "float64 range" in row["note"]


def test_sigma_in_another_norm_brackets_the_exact_sigmas() -> None:
    """The sentinel nodes ±1/2, ±i/2: σ_max = 2, σ_min = 1/4, κ₁ = 15 (quantity sigma, norm 1)."""
    nodes = oracles.sentinel_nodes()
    point = cond.Point("sentinel", 4, 4, 0, None, "1", "sigma", check=True)
    res = cond._route(nodes, point)
    assert Fraction(res.lo) <= 15 <= Fraction(res.hi)
    ex = res.extra
    assert Fraction(ex["sigma_max_lower"]) <= 2 <= Fraction(ex["sigma_max_upper"])
    assert Fraction(ex["sigma_min_lower"]) <= Fraction(1, 4) <= Fraction(ex["sigma_min_upper"])
    assert cond.cross_checks(nodes, point, res, 15.0)["route_check"] == "agrees"


def test_row_rescaling_of_the_inverse_enclosure_keeps_the_exact_norms(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rescaling of a row whose Gautschi bound overestimates it by more than 2^900 (N ≳ 900)
    is forced for every row by raising the threshold; the enclosure must still contain V⁻¹ of the
    sentinel nodes (‖V⁻¹‖_F² = 85/4, ‖V⁻¹‖₁ = 15/4, exactly)."""
    from recmem.numerics import vandermonde_enclosure as ve

    monkeypatch.setattr(ve, "SMALL_ROW", 2.0**60)
    vinv, _ = ve.inverse_enclosure(oracles.sentinel_nodes(), 128)
    assert contains_sqrt(vinv.norm_bounds("fro"), Fraction(85, 4))
    lo, hi = vinv.norm_bounds("1")
    assert lo <= Fraction(15, 4) <= hi


def test_dense_route_at_a_fixed_low_precision_is_uncertified_but_contains_the_truth() -> None:
    """circle:1/2, N = 16, κ₂ = 2^15: at 16 bits σ_min cannot be separated from 0 (the Gram
    matrix squares κ); the bracket is [lo, ∞) with lo ≤ 2^15; κ₁ by the inverse at 6 bits: no
    bracket or one containing the exact value."""
    row = cond.compute(cond.Point("circle:1/2", 16, 16, 0, 16, "2", "kappa", backend="dense"))
    assert not row["certified"] and row["upper"] is None
    assert row["lower"] is None or Fraction(row["lower"]) <= 2**15
    row = cond.compute(cond.Point("circle:1/2", 16, 16, 0, 6, "1", "kappa", backend="dense"))
    exact = Fraction(sum(2**k for k in range(16)), 16) * 16  # ‖V‖₁·‖V⁻¹‖₁ = N·(2^N − 1)/N
    assert row["upper"] is None or Fraction(row["lower"]) <= exact <= Fraction(row["upper"])


def test_a_failing_second_route_marks_the_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """The error branch of the cross-check: the dense route's own oracle fails (planted)."""
    def broken(*_: Any, **__: Any) -> Any:
        raise InternalInconsistency("planted: the dense route's sentinel failed")

    monkeypatch.setattr(cond, "_dense", broken)
    row = cond.compute(cond.Point("roots-of-unity", 8, 8, 0, None, "2", "kappa"))
    assert row["route_check"] == "ERROR" and row["inconsistent"] and not row["certified"]


def test_a_second_route_without_bracket_is_said_not_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cond, "_dense", lambda nodes, point: cond._Result(
        Fraction(0), Fraction(0), 8, "dense-gram", {}, note="planted: nothing certified"))
    row = cond.compute(cond.Point("roots-of-unity", 8, 8, 0, None, "2", "kappa"))
    assert row["route_check"] == "no bracket" and not row["inconsistent"] and row["certified"]


def test_vandermonde_sigma_of_a_tall_v_takes_the_gram_route() -> None:
    """Tall V of the 8th roots of unity with 4 columns: VᴴV = 8I, σ = √8, κ₂ = 1."""
    sb = cond.vandermonde_sigma(roots(8), 4)
    assert contains_sqrt(sb.smax, Fraction(8)) and contains_sqrt(sb.smin, Fraction(8))
    assert q(sb.kappa.lo) <= 1 <= q(sb.kappa.hi)


# ---- the float stage's branches --------------------------------------------------------------------
def test_float_stage_flush_and_exhausted_squarings_contain_the_exact_sigma() -> None:
    """σ_max of diag(1, 2^-300) is 1: the first squaring gives 2^-600 < FLUSH, flushed to 0 (the
    flush term must cover it); with one squaring allowed the target is not reached and the
    wider bracket must still contain 1. A zero matrix has σ_max = 0 exactly."""
    import numpy as np

    from recmem.numerics import float_enclosure as fe

    x = np.diag([1.0, 2.0**-300])
    for squarings in (48, 1):
        lo, hi = fe.sigma_max_bounds(x, max_squarings=squarings, target=1e-12)
        assert lo <= 1 <= hi
    lo1, hi1 = fe.sigma_max_bounds(np.array([[3.0, 1.0], [1.0, 3.0]]), max_squarings=1)
    assert lo1 <= 4 <= hi1 and (hi1 - lo1) / lo1 > Fraction(1, 10**6)  # not at the target
    assert fe.sigma_max_bounds(np.zeros((3, 3))) == (0, 0)


# ---- the command: --check, and stored rows that predate the checks ----------------------------------
def test_check_flag_runs_the_second_route_and_old_rows_are_recomputed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from recmem.checks.cli import main
    from recmem.checks.sweep_store import PointKey, SweepStore

    monkeypatch.delenv("RECMEM_CONDITION_ENGINE", raising=False)
    out = tmp_path / "s"
    sweep = ["condition", "--nodes", "ring:0.9:1", "--rows", "20", "--out", str(out), "--quiet",
             "--json", str(tmp_path / "k.json")]
    assert main(sweep) == 0
    (point,) = json.loads((tmp_path / "k.json").read_text())["points"]
    assert point["route_check"] == "not run" and point["float64_check"] == "agrees"  # N > 16
    assert main([*sweep, "--check"]) == 0  # the stored row skipped the second route: run again
    (point,) = json.loads((tmp_path / "k.json").read_text())["points"]
    assert point["route_check"] == "agrees" and point["route_check_method"] == "dense-gram"
    # a row stored by an older recmem (no run-time checks) is computed again, not trusted
    key = PointKey(family="ring:9/10:1", quantity="kappa", norm="2", digits=3, backend="auto",
                   precision=None, rows=20, cols=20, seed=0)
    old = {k: v for k, v in point.items() if k not in ("inconsistent", "inconsistency",
                                                        "float64_check", "route_check")}
    with SweepStore(out) as store:
        store.put(key, old | {"value": "7", "lower": "7", "upper": "7"})
    capsys.readouterr()
    assert main(["condition", "--nodes", "ring:0.9:1", "--rows", "20", "--out", str(out),
                 "--no-check"]) == 0
    assert "1 stored point(s) marked inconsistent or without the run-time checks" in \
        capsys.readouterr().err
    with SweepStore(out) as store:
        (row,) = store.get([key]).values()
    assert "inconsistent" in row and row["value"] != "7"


def test_help_documents_exit_3_and_check(capsys: pytest.CaptureFixture[str]) -> None:
    from recmem.checks.cli import main

    with pytest.raises(SystemExit):
        main(["condition", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "3 an internal inconsistency" in text and "--check" in text


def test_dense_inverse_escalation_and_failure_bracket_the_exact_kappa1() -> None:
    """equispaced:0:1, N = 24 (κ₁ ≈ 1e17, exact over ℚ): 28 digits need more than the first
    128 bits, so the route doubles. circle:1/2, N = 16 (κ₁ = 2^16 − 1 exactly) at 2 bits: the
    inverse fails: no bracket, never a wrong one."""
    from recmem.theory import real_nodes as rn

    nodes = parse_family("equispaced:0:1").nodes(24, 0)
    assert nodes.values is not None
    exact = rn.kappa1([v.re for v in nodes.values])
    row = cond.compute(cond.Point("equispaced:0:1", 24, 24, 0, None, "1", "kappa", 28, "dense"))
    assert row["precision_used"] > 128 and row["certified"]
    assert Fraction(row["lower"]) <= exact <= Fraction(row["upper"])
    row = cond.compute(cond.Point("circle:1/2", 16, 16, 0, 2, "1", "kappa", backend="dense"))
    assert not row["certified"] and row["upper"] is None


def test_vandermonde_sigma_falls_back_to_the_gram_route_when_never_separated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The structured σ route's error branch: the nodes are not separated up to the ceiling
    (forced), so the Gram route answers; circle:1/2, N = 8: κ₂ = 2^7 exactly."""
    from recmem.numerics import vandermonde_enclosure as ve

    def never(nodes: Any, bits: int) -> Any:
        raise ve.NotSeparated("planted")

    monkeypatch.setattr(ve, "inverse_enclosure", never)
    monkeypatch.setattr(cond, "MAX_BITS", 512)
    sb = cond.vandermonde_sigma(parse_family("circle:1/2").nodes(8, 0), 8)
    assert sb.certified and q(sb.kappa.lo) <= 2**7 <= q(sb.kappa.hi)


def test_failed_enclosures_are_retried_at_twice_the_precision_before_the_brackets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Enclosures that fail at 128 bits only (as on clustered but distinct eigenvalues) are tried
    at 256 before the Gershgorin brackets: on diag(1, 2) the bracket comes from the enclosures at
    256 bits, contains the exact σ = 2 and 1, and no bracket is computed."""
    import flint

    real_balls, real_gersh = certified.eigenvalue_balls, certified._gershgorin_extreme
    gersh: list[int] = []

    def fail_at_128(g: Any) -> Any:
        if flint.ctx.prec <= 128:
            raise ValueError("planted: enclosures failed at 128 bits")
        return real_balls(g)

    def spy(p: Any, bits: int, largest: bool) -> Any:
        gersh.append(bits)
        return real_gersh(p, bits, largest)

    monkeypatch.setattr(certified, "eigenvalue_balls", fail_at_128)
    monkeypatch.setattr(certified, "_gershgorin_extreme", spy)
    sb = sigma_bracket(exact_matrix_builder(rows_of([[1, 0], [0, 2]])), start_bits=128,
                       max_bits=1024)
    assert sb.certified and sb.bits == 256 and not gersh
    assert contains_sqrt(sb.smax, Fraction(4)) and contains_sqrt(sb.smin, Fraction(1))
    assert contains_sqrt(sb.fro, Fraction(5))
