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
    # the order of the paper: §2–§3.2 (recurrences, ZOH, eigendecomposition, stability, spectra),
    # §3.3–§3.4 (parameterisation, Proposition 3, normalisation), §4, then App. E and F
    order=("unroll", "zoh", "eigen", "stability", "theorem1", "lemma2", "exp-param", "phase",
           "prop3", "white-noise-1d", "eq7", "proof-f2", "s4d-lin", "s4", "e11", "prop4",
           "e12", "e2", "e3"),
    ledger=f"{__name__}:ledger.toml",
    experiments=tuple(f"recmem.checks.reproduce.experiments.{m}" for m in (
        "l_fig23_spectrum", "l_fig4_phase", "l_fig9_blowup", "l_fig6_relu_spectrum",
        "l_fig7_nonlinearity", "l_fig8_exp_param")),
    not_reproduced=(
        ("Tables 1–3, 5–8, Fig. 1 and 5 (Long Range Arena accuracies and training curves)",
         "need the LRA data sets and accelerator-scale training of deep models"),
        ("Table 4 (training speed-ups)", "a measurement of accelerator hardware"),
    ),
)
