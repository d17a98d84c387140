"""``recmem reproduce``: the papers' experiments (CLAIMS.md, "Experiments"), run at a CPU-sized
``ci`` scale or at the paper's own, each writing figures, data and a ``summary.json`` that sets
the measured results beside the paper's.

Each experiment is a module of :mod:`recmem.checks.reproduce.experiments` defining
``EXPERIMENT`` (:class:`~recmem.checks.reproduce.experiment.Experiment`); :func:`all_experiments`
finds them. ``RECMEM_EXPERIMENTS=module[,module…]`` adds the experiments of other importable
modules (each defining ``EXPERIMENT``): a paper kept outside recmem, or a test's stand-in.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache

from recmem.checks.reproduce.experiment import Experiment

EXTRA_ENV = "RECMEM_EXPERIMENTS"


class UnknownExperiment(KeyError):
    """No experiment of that name."""


def all_experiments() -> dict[str, Experiment]:
    """Every registered experiment by name (:func:`_experiments`, for the current
    ``RECMEM_EXPERIMENTS``)."""
    return _experiments(os.environ.get(EXTRA_ENV, ""))


@cache
def _experiments(extra: str) -> dict[str, Experiment]:
    """The experiments of recmem and of the ``extra`` modules by name, in name order (paper O's
    first)."""
    from recmem.checks.reproduce import experiments

    names = [f"{experiments.__name__}.{info.name}"
             for info in pkgutil.iter_modules(experiments.__path__) if not info.name.startswith("_")]
    names += [m.strip() for m in extra.split(",") if m.strip()]
    found: dict[str, Experiment] = {}
    for name in names:
        module = importlib.import_module(name)
        exp = getattr(module, "EXPERIMENT", None)
        if exp is None:
            continue
        if not isinstance(exp, Experiment):
            raise TypeError(f"{module.__name__}.EXPERIMENT is not an Experiment")
        if exp.name in found:
            raise ValueError(f"experiment {exp.name} is defined twice")
        found[exp.name] = exp
    return dict(sorted(found.items()))


def get(name: str) -> Experiment:
    """The experiment called ``name`` (:class:`UnknownExperiment` otherwise)."""
    experiments = all_experiments()
    if name not in experiments:
        raise UnknownExperiment(f"unknown experiment {name!r}; known: {', '.join(experiments)}")
    return experiments[name]


__all__ = ["UnknownExperiment", "all_experiments", "get"]
