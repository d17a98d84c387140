"""O.ring (Lemma 6), O.invertible and O.timestamp with their corrections: one statement each
(theory.ring.RingSampling / Invertible, theory.timestamp.Timestamp) read by every side, negative
controls that every default run tells apart, and honest verdicts at low precision."""

from __future__ import annotations

import cmath
import math
from dataclasses import replace
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from claim_helpers import run
from hypothesis import given
from hypothesis import strategies as st

from recmem.checks.claim import Context
from recmem.checks.claims.paper_o import ring, timestamp
from recmem.checks.registry import get
from recmem.checks.report import ClaimResult
from recmem.checks.runner import UsageError, run_claim
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import make_backend, parse_spec
from recmem.numerics.exact import QQi
from recmem.numerics.nodes import lemma6_node, uniform_draws
from recmem.theory.ring import LEMMA6, Invertible, RingSampling, invertible_proof, lemma6_law
from recmem.theory.timestamp import CORRECTED, PRINTED, Timestamp, decide, timestamp_proof

F = Fraction
SEARCH = "exact (Hypothesis search)"


def _one(result: ClaimResult, backend: str):
    (e,) = [e for e in result.evidence if e.backend == backend]
    return e


def _all_controls_told_apart(result: ClaimResult) -> None:
    assert result.controls, "every claim declares controls"
    for c in result.controls:
        assert c.verdict in (Verdict.REFUTED, Verdict.FAILED), (c.change, c.verdict)


# ---- O.ring ------------------------------------------------------------------------------------

def test_ring_verified_and_every_control_told_apart_by_every_check():
    r = run("O.ring")
    assert r.verdict is Verdict.VERIFIED
    for backend in ("mpmath@128", "flint@128", "numpy"):
        e = _one(r, backend)
        assert e.kind == "statistical" and e.outcome is Outcome.PASS
        assert float(e.residual) <= float(e.tolerance) == pytest.approx(3.0)
        # the sampler at the degenerate corners of Lemma 6's domain: the circle |λ| = 1, the point 0
        corners = e.data["degenerate corners"]
        assert set(corners) == {"unit circle r_min = r_max = 1", "corner r_min = r_max = 0"}
        assert all(c["within error bounds"] for c in corners.values())
        assert corners["corner r_min = r_max = 0"]["max | |λ|² − r² |"] == 0.0
    assert r.controls is not None and len(r.controls) == 3
    for c in r.controls:
        assert c.verdict is Verdict.REFUTED, c.change
        by = {e.backend: e for e in c.evidence}
        assert by["sympy"].outcome is Outcome.REFUTE and by["sympy"].counterexample
        assert by[SEARCH].outcome is Outcome.REFUTE
        # the same statistical test rejects the control's sample in every arithmetic
        for backend in ("mpmath@128", "flint@128", "numpy"):
            assert by[backend].outcome is Outcome.FAIL, (c.change, backend)
            assert float(by[backend].residual) > 2 * float(by[backend].tolerance)


def test_ring_statistics_reject_the_radius_uniform_mistake():
    """|λ| uniform (instead of |λ|²) is not area-uniform: the combined test rejects it."""
    rng = np.random.default_rng(1)
    r = rng.uniform(0.0, 1.0, 3000)
    theta = rng.uniform(0.0, 2 * np.pi, 3000)
    bad = ring.statistics("numpy", list(r * np.exp(1j * theta)), F(0), F(1))
    assert bad.outcome is Outcome.FAIL
    assert "KS |λ|²" in bad.data and bad.data["KS |λ|²"]["D"] > 0.1
    good = ring.statistics("numpy", list(np.sqrt(r) * np.exp(1j * theta)), F(0), F(1))
    assert good.outcome is Outcome.PASS


def test_ring_statistics_inconclusive_when_rounding_could_flip_the_test():
    """Error bounds as wide as the test's resolution leave it undecided, never a pass."""
    rng = np.random.default_rng(2)
    r2 = rng.uniform(0.25, 1.0, 2000)
    lam = np.sqrt(r2) * np.exp(2j * np.pi * rng.uniform(0, 1, 2000))
    assert ring.statistics("numpy", list(lam), F(1, 2), F(1)).outcome is Outcome.PASS
    wide = ring.statistics("numpy", list(lam), F(1, 2), F(1), rel_err=[0.02] * 2000)
    assert wide.outcome is Outcome.INCONCLUSIVE


def test_ring_degenerate_circle():
    r = run("O.ring", backends=("sympy", "mpmath@128", "numpy"), samples=300, r_min="1/2",
            r_max="1/2")
    assert r.verdict is Verdict.VERIFIED
    stats_ev = [e for e in r.evidence if e.kind == "statistical"]
    assert stats_ev and all("|λ|² = r² (circle)" in e.data for e in stats_ev)
    _all_controls_told_apart(r)


def test_ring_corner_check_fails_a_sampler_that_misses_the_circle(monkeypatch):
    """A planted error in the sampler (λ = 0 where the logarithm's argument is 1, i.e. on the
    unit circle corner) fails the corner check of the numeric side."""
    original = RingSampling.node

    def planted(self, u1, u2, r_min, r_max, **kw):
        if bool(self.log_argument(u1, r_min, r_max, kw["const"]) == 1):
            return kw["zero"]
        return original(self, u1, u2, r_min, r_max, **kw)

    monkeypatch.setattr(RingSampling, "node", planted)
    u = [F(k, 16) for k in range(16)]
    bad, data = ring._corner_failures(make_backend("numpy"), LEMMA6, u, u, (F(1, 2), F(1)))
    assert bad and not data["unit circle r_min = r_max = 1"]["within error bounds"]
    assert data["corner r_min = r_max = 0"]["within error bounds"]


def test_ring_sampling_takes_unit_fraction_coefficients():
    with pytest.raises(ValueError, match="unit fraction"):
        RingSampling(nu_coeff=F(2, 3))
    assert LEMMA6.atom(F(0), F(0)) == 0  # the printed law's only atom, from its own sampler
    assert replace(LEMMA6, turns=F(0)).atom(F(1, 2), F(1, 2)) == F(1, 2)


def test_lemma6_node_is_the_printed_formula():
    """numerics.nodes evaluates the statement: exp(−ν + iθ) with ν = −½ log(u₁(r_max² − r_min²)
    + r_min²) and θ = 2πu₂, written out here independently."""
    mp = mpmath.MPContext()
    mp.prec = 128
    for u1, u2, a, b in [(F(1, 3), F(2, 7), F(1, 2), F(1)), (F(5, 8), F(1, 9), F(0), F(3, 4))]:
        q = [mp.mpf(v.numerator) / v.denominator for v in (u1, u2, a, b)]
        arg = q[0] * (q[3] ** 2 - q[2] ** 2) + q[2] ** 2
        want = mp.exp(mp.mpc(mp.log(arg) / 2, 2 * mp.pi * q[1]))
        assert lemma6_node(u1, u2, a, b, mp) == want
    assert lemma6_node(F(1, 3), F(1, 5), F(0), F(0), mp) == 0  # ν = +∞


@given(fractions_in(0, 1), fractions_in(0, 1), fractions_in(0, 1), fractions_in(0, 1))
def test_lemma6_backend_within_its_error_bound(u1, u2, a, b):
    """Lemma 6 in float64 and float32 vs 128 bits, within C_ROUND·(OPS_PER_NODE + |ν|)·u."""
    r_min, r_max = min(a, b), max(a, b)
    mp = mpmath.MPContext()
    mp.prec = 128
    ref = lemma6_node(u1, u2, r_min, r_max, mp)
    for spec in ("numpy", "numpy:float32"):
        be = make_backend(spec)
        got = complex(ring.lemma6_backend(be, [u1], [u2], r_min, r_max)[0])
        if ref == 0:
            assert got == 0
            continue
        bound = ring.C_ROUND * ring.kappa_of_draw(LEMMA6, u1, r_min, r_max) * float(
            be.unit_roundoff)
        assert abs(got - complex(ref)) <= bound * abs(complex(ref))


def test_lemma6_law_proved_and_every_control_disproved_with_a_witness():
    proof = lemma6_law(LEMMA6)
    assert proof.holds is True and proof.general
    assert proof.details["CDF of |λ|² (derived)"] == "(-r_min**2 + s)/(e*(e + 2*r_min))"
    for control in LEMMA6.controls():
        p = lemma6_law(control.statement)
        assert p.holds is False, control.change
        assert p.counterexample and p.counterexample["check"], control.change


def test_ring_holds_exactly_on_its_domain_and_fails_for_each_control():
    claim = get("O.ring")
    ctx = claim.context()
    for inst in [(F(1, 2), F(1), F(1, 2), F(1, 3)), (F(0), F(1), F(1, 4), F(3, 4)),
                 (F(1, 2), F(1, 2), F(1, 4), F(1, 2)), (F(0), F(0), F(0), F(1, 2))]:
        assert claim.holds(inst, ctx).holds is True, inst
    for control in claim.controls:
        cctx = replace(ctx, statement=control.statement)
        assert claim.holds((F(0), F(1), F(1, 4), F(1, 4)), cctx).holds is False, control.change


@given(get("O.ring").strategy(get("O.ring").context()))
def test_ring_search_domain_holds(inst):
    claim = get("O.ring")
    assert claim.holds(inst, claim.context()).holds is True


# ---- O.invertible ------------------------------------------------------------------------------

def test_invertible_refuted_by_minimal_corner_in_every_check():
    r = run("O.invertible", N=8, examples=40)
    assert r.verdict is Verdict.REFUTED
    search = _one(r, SEARCH)
    ce = search.counterexample
    assert (ce["N"], ce["r_min"], ce["r_max"], ce["det"]) == (2, "0", "0", "0")
    assert ce["nodes"] == ["0", "0"] and "exact" in search.certified_by
    assert _one(r, "sympy").outcome is Outcome.REFUTE
    # the numeric draws reach the corner of Lemma 6's domain themselves
    for backend in ("mpmath@128", "flint@128", "numpy"):
        e = _one(r, backend)
        assert e.outcome is Outcome.REFUTE and e.certified_by and e.counterexample
        assert e.counterexample["r_max"] == "0"
    _all_controls_told_apart(r)


def test_invertible_corner_reproduced_in_float32():
    r = run("O.invertible", backends=("numpy:float32",), N=2, r_min=0, r_max=0)
    assert r.verdict is Verdict.REFUTED
    assert all(e.outcome is Outcome.REFUTE and e.certified_by for e in r.evidence)


def test_invertible_corrected_verified_and_controls_refuted_in_every_arithmetic():
    r = run("O.invertible.corrected", N=12, r_min="1/2")
    assert r.verdict is Verdict.VERIFIED
    ball = _one(r, "flint@128")
    assert ball.outcome is Outcome.PASS
    assert all(case["outcome"] == "pass" for case in ball.data.values())
    assert float(_one(r, "numpy").residual) <= 1
    assert r.controls is not None
    assert {c.change for c in r.controls} == {c.change for c in CORRECTED_INV.controls()}
    for c in r.controls:
        assert c.verdict is Verdict.REFUTED, c.change
        assert {e.backend for e in c.evidence if e.outcome is Outcome.REFUTE} == {
            "sympy", SEARCH, "mpmath@128", "flint@128", "numpy"}, c.change


CORRECTED_INV = Invertible(rmax_positive=True)


def test_invertible_float32_inconclusive_when_ill_conditioned():
    r = run("O.invertible.corrected", backends=("numpy:float32",), N=16)
    (e,) = [e for e in r.evidence if e.backend == "numpy:float32"]
    assert e.outcome is Outcome.INCONCLUSIVE
    assert e.data["N = 16 at T(0, 1)"]["needed bits"] > 24


def test_invertible_corrected_rejects_rmax_zero():
    with pytest.raises(UsageError):
        run("O.invertible.corrected", r_max=0)


def test_invertible_proof_reads_the_statement():
    assert invertible_proof(Invertible()).holds is False
    assert invertible_proof(CORRECTED_INV).holds is True
    where = {c.change: invertible_proof(c.statement).counterexample for c in
             CORRECTED_INV.controls()}
    assert [(w["r_min"], w["r_max"], w["det"]) for w in where.values()] == [
        ("0", "0", "0"), ("1", "1", "0"), ("0", "1", "0")]


@given(get("O.invertible.corrected").strategy(get("O.invertible.corrected").context()))
def test_invertible_corrected_holds_on_its_domain(instance):
    claim = get("O.invertible.corrected")
    assert claim.holds(instance, claim.context()).holds is not False


@given(get("O.invertible").strategy(get("O.invertible").context()))
def test_invertible_fails_exactly_at_the_corner(instance):
    claim = get("O.invertible")
    n, _r_min, r_max = instance
    verdict = claim.holds(instance, claim.context()).holds
    if r_max == 0 and n >= 2:
        assert verdict is False
    else:
        assert verdict is not False


# ---- O.timestamp -------------------------------------------------------------------------------

def test_timestamp_refuted():
    r = run("O.timestamp")
    assert r.verdict is Verdict.REFUTED
    search = _one(r, SEARCH)
    assert search.counterexample["lambda0"] == "0" and search.counterexample["k"] == 1
    # the default λ₀ = 0.9·e^{2πi/15}: 8·24° > 180°, so the principal Log wraps at k = 8
    ball = _one(r, "flint@128")
    assert ball.outcome is Outcome.REFUTE and ball.counterexample["k"] == 8
    assert "ball" in ball.certified_by
    mp = _one(r, "mpmath@128")
    assert mp.outcome is Outcome.REFUTE and mp.counterexample["k"] == 8
    assert mp.certified_by.startswith("exact")
    _all_controls_told_apart(r)


def test_timestamp_failure_classes():
    from recmem.theory.timestamp import FAILURE_CLASSES

    for _, lam0, k in FAILURE_CLASSES:
        assert decide(PRINTED, lam0, k)[0] is False
    assert all(decide(PRINTED, QQi(F(1, 2)), k)[0] for k in range(1, 30))
    unit = QQi(F(3, 5), F(4, 5))  # Arg = 53.13°: wraps at k = 4
    assert [decide(PRINTED, unit, k)[0] for k in range(1, 6)] == [True, True, True, False, False]


@given(st.tuples(st.fractions(-1, 1, max_denominator=16), st.fractions(-1, 1, max_denominator=16)),
       st.integers(1, 12))
def test_decide_printed_matches_branch_condition(parts, k):
    re_, im_ = parts
    if re_ * re_ + im_ * im_ > 1 or (re_, im_) in ((0, 0), (1, 0)):
        return
    # on the cut |k·Arg λ| = π, decided exactly (and compared elsewhere): a Gaussian rational's
    # argument is a rational multiple of π only at multiples of π/4, so the cut is λ < 0 (k = 1),
    # λ ∈ iℝ (k = 2) or Arg λ = ±π/4 (k = 4)
    if (k == 1 and im_ == 0 and re_ < 0) or (k == 2 and re_ == 0) or (k == 4 and re_ == abs(im_)):
        return
    # off it, on this finite domain |k·Arg λ| is ≥ 5·10⁻⁴ from π (checked over every point), far
    # beyond atan2's rounding, so floats decide the branch
    arg = math.atan2(float(im_), float(re_))
    expected = -math.pi < k * arg <= math.pi
    assert decide(PRINTED, QQi(re_, im_), k)[0] is expected
    if expected:
        # |log λ| ≥ log(16/15) here, so rounding moves the quotient by ≲ 12·4u/log(16/15) ≈ 10⁻¹³
        lam = complex(float(re_), float(im_))
        assert abs(cmath.log(lam**k) / cmath.log(lam) - k) < 1e-9


def test_timestamp_corrected_horizons_per_precision():
    r = run("O.timestamp.corrected", backends=("sympy", "mpmath@128", "flint@128", "numpy",
                                               "numpy:float32"), L=700)
    assert r.verdict is Verdict.VERIFIED
    assert _one(r, "sympy").outcome is Outcome.PASS and _one(r, "sympy").kind == "symbolic"
    hz = {}
    for e in r.evidence:
        if e.kind != "numeric":
            continue
        assert e.outcome is Outcome.PASS, e.backend
        case = next(iter(e.data.values()))
        measured = case["measured horizon"]
        measured = 700 if isinstance(measured, str) else measured
        assert measured >= case["certified horizon"] >= min(case["predicted horizon"], 700)
        hz[e.backend] = (case["certified horizon"], measured)
    # precision orders the horizons: float32 < float64 < 128 bits
    assert hz["numpy:float32"][0] < hz["numpy"][0] < hz["mpmath@128"][0]
    # and they sit near log(u)/log|λ₀| (≈ 158, 349, 842 for |λ₀| ≈ 0.9), never beyond it
    for be, p in (("numpy:float32", 24), ("numpy", 53), ("mpmath@128", 128)):
        scale = p * math.log(2) / -math.log(0.9)
        assert 0.4 * scale < hz[be][0] <= hz[be][1] < 1.1 * scale
    _all_controls_told_apart(r)
    assert len(r.controls or ()) == 5


def test_timestamp_proof_reads_the_statement():
    assert timestamp_proof(PRINTED).holds is False
    proof = timestamp_proof(CORRECTED)
    assert proof.holds is True and proof.general
    for law in (PRINTED, CORRECTED):
        for control in law.controls():
            p = timestamp_proof(control.statement)
            assert p.holds is False and p.counterexample, control.change
    # the widened hypothesis fails at its new edge points: each side widened on its own
    widened = replace(CORRECTED, strict=False, positive=False)
    assert timestamp_proof(widened).counterexample["lambda0"] == "0"
    assert timestamp_proof(replace(CORRECTED, strict=False)).counterexample["lambda0"] == "1"
    assert timestamp_proof(replace(CORRECTED, positive=False)).counterexample["lambda0"] == "0"
    changes = {c.change: c.statement for c in CORRECTED.controls()}
    assert changes["hypothesis widened to |λ₀| ≤ 1 (the unit circle admitted)"] == replace(
        CORRECTED, strict=False)
    assert changes["hypothesis widened to |λ₀| ≥ 0 (λ₀ = 0 admitted)"] == replace(
        CORRECTED, positive=False)


def test_timestamp_decide_evaluates_the_statements_inversion():
    """The exact decision records the statement's own log_λ₀ z (SymPy) and, for the principal
    form, encloses it in a ball: undefined at λ₀ = 0, and the modulus form's value is k."""
    key = "log_λ0 z (the statement's inversion, SymPy)"
    assert decide(PRINTED, QQi(F(0)), 1)[2][key] == "nan"  # Log 0 / Log 0
    ok, _, values = decide(PRINTED, QQi(F(1, 2)), 3)
    assert ok is True and values["log_λ0 z (ball)"].startswith("[3.0")
    ok, _, values = decide(CORRECTED, QQi(F(0), F(1, 2)), 3)
    assert ok is True and values[key] == "log(8)/log(2)"
    with pytest.raises(ValueError, match="gap_sign"):
        Timestamp(gap_sign=0)


def test_widened_hypothesis_reaches_the_edge_in_every_arithmetic():
    """The numeric side evaluates the edge points of |λ₀| ≤ 1 that a statement admits."""
    assert Timestamp(modulus=True).edge_points() == [QQi(F(0)), QQi(F(1)), QQi(F(-1)),
                                                     QQi(F(0), F(1))]
    assert CORRECTED.edge_points() == []
    claim = get("O.timestamp.corrected")
    widened = [c.statement for c in claim.controls if "widened" in c.change]
    assert [w.admits(QQi(F(1))) for w in widened] == [True, False]
    assert [w.admits(QQi(F(0))) for w in widened] == [False, True]
    for law, edge in zip(widened, ("1", "0"), strict=True):
        ctx = replace(claim.context({"L": 40}), statement=law)
        for spec in ("mpmath@64", "flint@64", "numpy", "numpy:float32"):
            (e,) = timestamp.numeric(make_backend(spec), ctx)
            assert e.outcome is Outcome.REFUTE, spec
            assert e.counterexample["lambda0"] == edge and e.certified_by.startswith("exact")


@given(get("O.timestamp.corrected").strategy(get("O.timestamp.corrected").context()))
def test_timestamp_corrected_holds_exactly(instance):
    claim = get("O.timestamp.corrected")
    assert claim.holds(instance, claim.context()).holds is True


def test_parameter_domains_are_enforced():
    with pytest.raises(UsageError):
        run("O.timestamp.corrected", backends=("numpy",), lambda0_re="3/5", lambda0_im="4/5")
    with pytest.raises(UsageError):
        run("O.timestamp", backends=("numpy",), lambda0_re="1", lambda0_im="1/2")
    with pytest.raises(UsageError):
        run("O.ring", backends=("numpy",), r_min="1", r_max="1/2")
    # bypassing parameter resolution, the numeric side still refuses the point (ERROR evidence)
    claim = get("O.timestamp.corrected")
    values = {**claim.defaults(), "lambda0_re": F(1), "lambda0_im": F(0)}
    r = run_claim(claim, Context(values), [parse_spec("numpy")], controls=False)
    assert r.verdict is Verdict.ERROR


def test_uniform_draws_pairing_is_shared():
    """O.ring pairs draws as numerics.nodes.ring does (u₁ = even, u₂ = odd positions)."""
    ctx = Context({"samples": 3}, seed=5)
    u = uniform_draws(5, 6)
    assert ring.draws(ctx) == (u[0::2], u[1::2])


# ---- low precision -----------------------------------------------------------------------------

# What each low-precision arithmetic concludes on the default instances. INCONCLUSIVE is the
# honest answer where the rounding bounds cannot resolve the question: at 12 bits every |λ| of
# Lemma 6 is known only to ≈ 1 %, which moves the KS statistics by more than their resolution;
# V_16 of ring nodes has κ₂ ≈ 10⁵, beyond 12 and 24 bits. The corrected timestamp formula is
# certified only up to the horizon the rounding analysis gives (k ≤ 2 at 12 bits, 73 at 24).
LOW_PRECISION = {
    ("O.ring", "mpmath@12"): (Verdict.CORROBORATED, "inconclusive"),
    ("O.ring", "mpmath@24"): (Verdict.CORROBORATED, "pass"),
    ("O.ring", "numpy:float32"): (Verdict.CORROBORATED, "pass"),
    ("O.invertible", "mpmath@12"): (Verdict.REFUTED, "refute"),
    ("O.invertible", "mpmath@24"): (Verdict.REFUTED, "refute"),
    ("O.invertible", "numpy:float32"): (Verdict.REFUTED, "refute"),
    ("O.invertible.corrected", "mpmath@12"): (Verdict.CORROBORATED, "inconclusive"),
    ("O.invertible.corrected", "mpmath@24"): (Verdict.CORROBORATED, "inconclusive"),
    ("O.invertible.corrected", "numpy:float32"): (Verdict.CORROBORATED, "inconclusive"),
    ("O.timestamp", "mpmath@12"): (Verdict.REFUTED, "refute"),
    ("O.timestamp", "mpmath@24"): (Verdict.REFUTED, "refute"),
    ("O.timestamp", "numpy:float32"): (Verdict.REFUTED, "refute"),
    ("O.timestamp.corrected", "mpmath@12"): (Verdict.CORROBORATED, "pass"),
    ("O.timestamp.corrected", "mpmath@24"): (Verdict.CORROBORATED, "pass"),
    ("O.timestamp.corrected", "numpy:float32"): (Verdict.CORROBORATED, "pass"),
}


@pytest.mark.parametrize("backend", ["mpmath@12", "mpmath@24", "numpy:float32"])
@pytest.mark.parametrize("claim_id", ["O.ring", "O.invertible", "O.invertible.corrected",
                                      "O.timestamp", "O.timestamp.corrected"])
def test_low_precision_never_passes_a_false_claim_nor_fails_a_true_one(claim_id, backend):
    r = run(claim_id, backends=(backend,), examples=10)
    verdict, outcome = LOW_PRECISION[(claim_id, backend)]
    assert r.verdict is verdict
    assert str(_one(r, backend).outcome) == outcome
    if verdict is not Verdict.REFUTED:
        _all_controls_told_apart(r)
