"""Claims of paper W (Wang, Li, Li, Inverse Approximation Theory for Nonlinear Recurrent Neural
Networks, ICLR 2024), registered as the plugin ``W`` (``pyproject.toml``, entry points
``recmem.papers``)."""

from recmem.checks.plugins import Paper

PAPER = Paper(
    key="W",
    authors="S. Wang, Z. Li, Q. Li",
    title="Inverse Approximation Theory for Nonlinear Recurrent Neural Networks",
    version="ICLR 2024 camera-ready (arXiv 2305.19190)",
    source="https://openreview.net/forum?id=yC2waD70Vj",
    claims=(__name__,),
    # the order of paper W's tables in CLAIMS.md (readings and corrections sort after their parent)
    order=("memory-linear", "memory-def", "memory-impulse", "rnn-linear-memory", "rnn-decaying",
           "perturbation", "stable-exp", "activations", "theorem", "lyapunov", "lyapunov-bound",
           "lyapunov-local", "semigroup-bound", "limit-decay", "reparam", "rescaling"),
    ledger=f"{__name__}:ledger.toml",
    experiments=tuple(f"recmem.checks.reproduce.experiments.{m}"
                      for m in ("w_linear_stability", "w_nonlinear_stability", "w_reparam")),
    record_types=tuple(f"{__name__}.{t}" for t in (
        "_lyapunov.HurwitzInstance", "_lyapunov.SequenceInstance",
        "semigroup_bound.SemigroupInstance", "stable_exp.FitDesign", "theorem.TheoremDesign")),
)
