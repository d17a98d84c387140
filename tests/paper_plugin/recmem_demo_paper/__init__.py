"""A paper kept outside recmem: its plugin object, found through the entry point
``recmem.papers`` (``D = recmem_demo_paper:PAPER``)."""

from recmem.checks.plugins import Paper

PAPER = Paper(
    key="D",
    authors="A. Writer",
    title="A Demonstration Paper on Scalar Recurrences",
    version="v1",
    source="https://example.org/demo-paper",
    claims=("recmem_demo_paper.claims",),
    order=("impulse",),
    experiments=("recmem_demo_paper.experiment",),
    not_reproduced=(("Table 1", "needs the paper's data set, not distributed"),),
)
