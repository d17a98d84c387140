"""D-impulse: the paper's Fig. 1, the step response x_k for λ = 0.9, beside its limit 1/(1 − λ)."""

from __future__ import annotations

from fractions import Fraction

from recmem.checks.reproduce.experiment import Experiment, RunContext
from recmem_demo_paper.statement import StepResponse


def run(ctx: RunContext) -> None:
    lam, steps = Fraction(9, 10), ctx["steps"]
    xs = [float(StepResponse().closed_form(lam, k)) for k in range(1, steps + 1)]
    ctx.write_csv("response.csv", [{"k": k, "x_k": x} for k, x in enumerate(xs, 1)])
    limit = float(1 / (1 - lam))
    agrees = abs(xs[-1] - limit) < 1e-3 * limit
    ctx.finding("Fig. 1", "x_k at the last step", round(xs[-1], 6), limit,
                "agrees" if agrees else "disagrees", f"x_{steps} within 0.1 % of 1/(1 − λ) = 10")


EXPERIMENT = Experiment(
    name="D-impulse", title="step response of the scalar recurrence", source="D Fig. 1", run=run,
    settings={"ci": {"steps": 100}, "paper": {"steps": 1000}})
