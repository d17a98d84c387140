"""Claims of paper O (Orvieto et al., On the Universality of Linear Recurrences Followed by
Nonlinear Projections), registered as the plugin ``O`` (``pyproject.toml``, entry points
``recmem.papers``)."""

from recmem.checks.plugins import Paper

PAPER = Paper(
    key="O",
    authors="A. Orvieto, S. De, C. Gulcehre, R. Pascanu, S. L. Smith",
    title="On the Universality of Linear Recurrences Followed by Nonlinear Projections",
    version="arXiv 2307.11888 v1 (workshop version)",
    source="https://arxiv.org/abs/2307.11888v1",
    claims=(__name__,),
    # the order of paper O's tables in CLAIMS.md (readings and corrections sort after their parent)
    order=("unroll", "vandermonde-form", "det", "invertible", "reconstruct", "ring", "timestamp",
           "roots-of-unity", "real-illcond", "ring-conditioning", "sparse", "sparse-conditioning",
           "block", "relaxation", "causal-fill", "universality", "pinkus", "rnn-universality",
           "linear-functional-conv", "linear-rnn-conv"),
    ledger=f"{__name__}:ledger.toml",
    experiments=tuple(f"recmem.checks.reproduce.experiments.{m}"
                      for m in ("o_lotka_volterra", "o_mnist", "o_sparse")),
    record_types=(f"{__name__}.universality.Design",),
)
