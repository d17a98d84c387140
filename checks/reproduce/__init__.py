"""``recmem reproduce``: the papers' experiments (CLAIMS.md, "Experiments"), run at a CPU-sized
``ci`` scale or at the paper's own, each writing figures, data and a ``summary.json`` that sets
the measured results beside the paper's.

Each experiment is a module defining ``EXPERIMENT``
(:class:`~recmem.checks.reproduce.experiment.Experiment`) that an installed paper lists
(``Paper.experiments``, checks/plugins.py); :func:`all_experiments` finds them.
``RECMEM_EXPERIMENTS=module[,module…]`` adds the experiments of other importable modules (each
defining ``EXPERIMENT``): a test's stand-in, or an experiment not yet declared by a paper.
"""

from __future__ import annotations

import importlib
import os
from functools import cache

from recmem.checks.plugins import PluginProblem
from recmem.checks.reproduce.experiment import Experiment

EXTRA_ENV = "RECMEM_EXPERIMENTS"


class UnknownExperiment(KeyError):
    """No experiment of that name."""


def all_experiments() -> dict[str, Experiment]:
    """Every registered experiment by name (:func:`_experiments`, for the current
    ``RECMEM_EXPERIMENTS``)."""
    return _experiments(os.environ.get(EXTRA_ENV, ""))[0]


def problems() -> tuple[PluginProblem, ...]:
    """The declared experiments that could not be registered, one line each (naming the paper
    plugin that declared them); the other experiments are unaffected."""
    return _experiments(os.environ.get(EXTRA_ENV, ""))[1]


@cache
def _experiments(extra: str) -> tuple[dict[str, Experiment], tuple[PluginProblem, ...]]:
    """The experiments of the installed papers and of the ``extra`` modules by name, in name
    order, and the declared modules that could not be used."""
    from recmem.checks import plugins

    declared: list[tuple[str, plugins.Paper | None]] = [
        (m, p) for p in plugins.usable().values() for m in p.experiments]
    declared += [(m.strip(), None) for m in extra.split(",") if m.strip()]
    found: dict[str, Experiment] = {}
    problems: list[PluginProblem] = []
    for name, paper in declared:
        try:
            exp = _experiment(name, found)
        except Exception as exc:
            if paper is None:  # named by the user ($RECMEM_EXPERIMENTS): theirs to fix
                raise
            first = (str(exc).strip().splitlines() or ["no message"])[0][:200]
            problems.append(PluginProblem(paper.key, paper.origin, f"its experiment module {name} "
                                          f"cannot be used ({type(exc).__name__}: {first})",
                                          whole=False))
            continue
        if exp is not None:
            found[exp.name] = exp
    return dict(sorted(found.items())), tuple(problems)


def _experiment(name: str, found: dict[str, Experiment]) -> Experiment | None:
    module = importlib.import_module(name)
    exp = getattr(module, "EXPERIMENT", None)
    if exp is None:
        return None
    if not isinstance(exp, Experiment):
        raise TypeError(f"{module.__name__}.EXPERIMENT is not an Experiment")
    if exp.name in found:
        raise ValueError(f"experiment {exp.name} is defined twice")
    return exp


def get(name: str) -> Experiment:
    """The experiment called ``name`` (:class:`UnknownExperiment` otherwise)."""
    experiments = all_experiments()
    if name not in experiments:
        raise UnknownExperiment(f"unknown experiment {name!r}; known: {', '.join(experiments)}")
    return experiments[name]


__all__ = ["UnknownExperiment", "all_experiments", "get", "problems"]
