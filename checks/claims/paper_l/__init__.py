"""Claims of paper L (Orvieto, Smith, Gu, Fernando, Gulcehre, Pascanu, De, Resurrecting
Recurrent Neural Networks for Long Sequences, ICML 2023), registered as the plugin ``L``
(``pyproject.toml``, entry points ``recmem.papers``)."""

from recmem.checks.plugins import Paper

PAPER = Paper(
    key="L",
    authors="A. Orvieto, S. L. Smith, A. Gu, A. Fernando, C. Gulcehre, R. Pascanu, S. De",
    title="Resurrecting Recurrent Neural Networks for Long Sequences",
    version="ICML 2023 (arXiv 2303.06349)",
    source="https://arxiv.org/abs/2303.06349",
    claims=(__name__,),
    order=(),
    ledger=f"{__name__}:ledger.toml",
    experiments=(),
    record_types=(),
)
