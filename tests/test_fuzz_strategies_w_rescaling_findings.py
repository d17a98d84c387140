"""Counterexample searches of W.rescaling (+ .corrected, .integrable), W.theorem.horizon
(+ .corrected) and W.theorem.slope.a1 (+ .corrected): each campaign earns its claim's verdict,
refutes every negative control, and the exact judges decide hand-made instances as computed by
hand (theory.exp_sums, theory.rescaling, theory.stability)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from fuzz_helpers import assert_earns, campaign, judge

from recmem.checks.claim import Context
from recmem.checks.registry import get
from recmem.theory.exp_sums import ExpPoly
from recmem.theory.rescaling import PARTS, IntegrableTargets
from recmem.theory.stability import GridHorizons, grid_sides, grid_time_holds

# claim → (status of its campaign, example budget)
EXPECTED = {
    "W.rescaling": ("refuted", 100),
    "W.rescaling.corrected": ("survived", 100),
    "W.rescaling.integrable": ("refuted", 20),
    "W.theorem.horizon": ("refuted", 100),
    "W.theorem.horizon.corrected": ("survived", 100),
    "W.theorem.slope.a1": ("refuted", 200),
    "W.theorem.slope.a1.corrected": ("survived", 100),
}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_campaign_earns_the_verdict_and_refutes_every_control(claim_id: str) -> None:
    status, budget = EXPECTED[claim_id]
    assert_earns(claim_id, status, budget)


# ---- shrunk counterexamples --------------------------------------------------------------------

def test_shrunk_counterexamples_are_the_simple_ones() -> None:
    cx = campaign("W.rescaling", 100, controls=False).counterexamples[0]
    assert cx["instance"] == "('rescaled RNN, w_k = pick, vs ρ', 1, Fraction(1, 1))"
    assert cx["values"]["RNN memory ρ̂_m(t)"].startswith("2.71828")  # e^{+t} at t = 1
    cx = campaign("W.theorem.slope.a1", 200, controls=False).counterexamples[0]
    assert "'w': (Fraction(-1, 1),)" in cx["instance"]  # one unit, on the edge max λ = −β₀


# ---- hand-made instances -------------------------------------------------------------------------

def test_exponential_polynomials_are_decided_exactly() -> None:
    e = ExpPoly.exp(1)
    assert (e - ExpPoly.of([(1, 1)])).is_zero() and (e - e).sign() == (0, 0)
    assert (ExpPoly.of([(1, Fraction(1, 2)), (1, Fraction(1, 2))]) - ExpPoly.exp(Fraction(1, 2))
            * 2).is_zero()
    # e − 2.718281828459045235360287471352 (30 decimals) ≈ 6.6e−31 > 0: 64 bits cannot
    # tell, a doubled precision can
    close = e - ExpPoly.constant(Fraction(2718281828459045235360287471352, 10**30))
    sign, bits = close.sign()
    assert sign == 1 and bits > 64
    assert (ExpPoly.exp(2) * ExpPoly.exp(-2) - ExpPoly.constant(1)).is_zero()


def test_rescaling_judge_on_known_memories() -> None:
    # printed pick w_k = 1: Σ k^−2 e^{+t/k} ≠ Σ k^−2 e^{−t/k} at every t > 0, equal at t = 0
    r = judge("W.rescaling", (PARTS[0], 2, Fraction(1)))
    assert r.holds is False and r.ratio is None
    assert r.values["sign of the difference (arb)"].startswith("> 0")
    assert judge("W.rescaling", (PARTS[0], 5, Fraction(0))).holds is True
    for part in PARTS:
        assert judge("W.rescaling.corrected", (part, 7, Fraction(3, 2))).holds is True
    # the readout control c_k = k^−3 differs from k^−2 already at t = 0 (1 + 1/8 vs 1 + 1/4)
    law = get("W.rescaling.corrected").statement
    ctl = replace(law, readout_power=3)
    r = judge("W.rescaling.corrected", (PARTS[1], 2, Fraction(0)), ctl)
    assert r.holds is False and r.values["ρ̂_m(t) − ρ_m(t), terms collected"] == "-1/8"
    # the 1/k² rescaling agrees at m = 1 (1/1 = 1/1²) and differs from m = 2 on
    ctl = replace(law, rescale_power=2)
    assert judge("W.rescaling.corrected", (PARTS[2], 1, Fraction(5)), ctl).holds is True
    assert judge("W.rescaling.corrected", (PARTS[2], 2, Fraction(5)), ctl).holds is False


def test_integrability_judge_on_known_series() -> None:
    # ∫ρ = Σ 1/k (harmonic: diverges, condensation ratio 1) and ∫ρ₂ = Σ 1 (ratio 2)
    r = judge("W.rescaling.integrable", (1, 4))
    assert r.holds is False and r.ratio == 1.0
    assert r.values["∫_0^∞ ρ_K = Σ_(k≤K) (exact)"].startswith("25/12")
    r = judge("W.rescaling.integrable", (2, 4))
    assert r.holds is False and r.ratio == 2.0 and r.values["∫_0^∞ ρ_K = Σ_(k≤K) (exact)"] == "4"
    # coefficients k^−4: ∫ of the k-th term is k^−3, a convergent series (ratio 1/4)
    r = judge("W.rescaling.integrable", (1, 4), IntegrableTargets(coef_power=4))
    assert r.holds is True and r.ratio == 0.25


def test_horizon_judge_and_its_quantifiers() -> None:
    r = judge("W.theorem.horizon", ("evaluate", 32))  # 33/10: the first time past 16/5
    assert r.holds is False and r.values["time"] == "33/10"
    assert r.values["nearest train time"] == "16/5"
    assert judge("W.theorem.horizon", ("train", 31)).holds is True  # 16/5 is in both
    assert judge("W.theorem.horizon.corrected", ("train", 31)).holds is True
    law = get("W.theorem.horizon.corrected").statement
    extended = law.controls()[1].statement  # training grid one step past the evaluation grid
    assert judge("W.theorem.horizon.corrected", ("train", 100), extended).holds is False
    # the relation holds iff it holds at every time it quantifies over
    for claim_id in ("W.theorem.horizon", "W.theorem.horizon.corrected"):
        st = get(claim_id).statement
        for s in (st, *(c.statement for c in st.controls())):
            assert isinstance(s, GridHorizons)
            every = all(grid_time_holds(s, side, k)[0] for side in grid_sides(s)
                        for k in range(len(s.points(s.train if side == "train" else s.evaluate))))
            assert every is s.holds()[0], s.text


def _a1(a: Fraction, b: Fraction, L: Fraction, u0: Fraction, t: Fraction) -> dict[str, Any]:
    return {"a": a, "b": b, "L": L, "beta0": Fraction(1), "w": (Fraction(-1),), "v0_sq": (u0,),
            "t": t}


def test_a1_judge_on_known_solutions() -> None:
    # σ' = 1/2 (a = 1/2, b = 0), w = −1, v_0² = 4, t = 1: V(v_t) = 2e^{−1}; printed bound
    # 2e^{−2(3/4)} (κ = 1, L = 1/4) is below it, the corrected one 2e^{−3/4} above
    inst = _a1(Fraction(1, 2), Fraction(0), Fraction(1, 4), Fraction(4), Fraction(1))
    r = judge("W.theorem.slope.a1", inst)
    assert r.holds is False and math.isclose(r.ratio, math.exp(1 / 2), rel_tol=1e-12)
    r = judge("W.theorem.slope.a1.corrected", inst)
    assert r.holds is True and math.isclose(r.ratio, math.exp(-1 / 4), rel_tol=1e-12)
    # an exact tie (a = 1 − L, b = 0): e^{−3/2}·2 on both sides, decided by Lindemann–Weierstrass
    tie = judge("W.theorem.slope.a1", _a1(Fraction(3, 4), Fraction(0), Fraction(1, 4),
                                           Fraction(4), Fraction(1)))
    assert tie.holds is True and "Lindemann" in tie.certified_by and tie.ratio == 1.0
    # tanh (a = b = 1) at the edge v_0² = Υ_L² = L = 1/16, t = 1/4: the corrected rate holds,
    # the rate 9/8 too fast (its control) does not
    edge = _a1(Fraction(1), Fraction(1), Fraction(1, 16), Fraction(1, 16), Fraction(1, 4))
    law = get("W.theorem.slope.a1.corrected").statement
    assert judge("W.theorem.slope.a1.corrected", edge).holds is True
    fast = law.controls()[0].statement
    assert judge("W.theorem.slope.a1.corrected", edge, fast).holds is False
    # outside the hypothesis (v_0 beyond Υ_L, or max λ > −β₀): vacuous
    outside = _a1(Fraction(1), Fraction(1), Fraction(1, 16), Fraction(1, 8), Fraction(1, 4))
    assert judge("W.theorem.slope.a1", outside).certified_by.startswith("outside")
    assert judge("W.theorem.slope.a1", {**edge, "w": (Fraction(-1, 2),)}).holds is True


def test_drawn_instances_lie_in_the_stated_domain() -> None:
    from hypothesis import find, settings
    from hypothesis.errors import NoSuchExample

    claim = get("W.theorem.slope.a1.corrected")
    ctx: Context = claim.context()
    law = claim.statement
    assert claim.strategy is not None

    def outside(inst: dict[str, Any]) -> bool:
        a, b, L = inst["a"], inst["b"], inst["L"]
        return not (a > 0 and b >= 0 and 0 < L < 1 and max(inst["w"]) <= -inst["beta0"]
                    and inst["t"] >= 0 and min(inst["v0_sq"]) >= 0
                    and (b == 0 or sum(inst["v0_sq"]) <= law.upsilon_squared(a, b, L)))

    with pytest.raises(NoSuchExample):
        find(claim.strategy(ctx), outside, settings=settings(max_examples=200, database=None))
