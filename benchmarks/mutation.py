"""Mutation score of recmem's checks: plant small errors and see them caught, area by area.

Every mutant is one small change to recmem's code (issue 7's planted errors): an operator swapped
(+/−, */÷), a sign dropped, an exponent or an integer shifted by one, a comparison made strict or
non-strict, ``and``/``or`` exchanged, a ``not`` dropped, a float constant doubled. The code is
split into areas (``--area``, repeatable; default: every area):

- ``statements``: the methods of every :class:`~recmem.theory.statement.Statement` subclass in
  ``theory/`` (the formula and the hypotheses; ``text``, ``controls`` and the field validation
  ``__post_init__`` are presentation and are left alone), the module-level functions of that
  module they call, and the ``statement=…`` expressions of the claim modules;
- ``definitions``: the numeric definitions the claims compare statements against (the backends'
  recurrences, …; see ``DEFINITIONS``);
- ``numerics``: the numerics outside the backends that verdicts rest on (certified brackets,
  Lyapunov solvers, float enclosures, the memory and perturbation functionals; ``NUMERICS``);
- ``proofs``: ``theory/proof.py`` and every function or method in ``theory/`` that builds a
  :class:`~recmem.theory.proof.Proof` (not already a statement method);
- ``commands``: the code of ``recmem condition`` and ``recmem fuzz`` (``COMMAND_FILES``);
- ``constants``: module-level numeric constants (UPPER_CASE names: escalation ceilings, margins,
  thresholds) of ``theory/``, ``numerics/`` and ``checks/``.

A mutant is judged by the claims that use its module (``recmem verify`` of those claims, in a
fresh interpreter that loads the mutated module in place of the original), or, for a module no
claim uses, by the command that does (``COMMANDS``: a few small fixed runs of ``recmem condition``
or ``recmem fuzz``, whose exit status and JSON output are compared with the unmutated runs').
It is **killed** when a claim's verdict (or a command's exit status) changes or the run fails,
**detected** when only a refuted claim's counterexample, a control's verdict, the outcome of one of
a claim's checks, or a field of a command's JSON output changes (anything that differs between
two unmutated runs is left out), and **survives** otherwise. A mutant with no judge (a module that
neither a claim nor a command reads) is counted apart and not run.

Every survivor is printed with its site and change, and with its reason when it is a known
equivalent mutant (read from ``benchmarks/equivalent_mutants_*.json``). An explanation is keyed by
one *site* (:attr:`Mutant.key`: file, qualified name, the change, and the ordinal of that change
among the identical ones in the same function, e.g. ``#2/3``), so it never excuses a neighbour;
an explained mutant that is now killed or detected, and an explanation whose site no longer
exists, are flagged (``--check-explanations`` runs exactly the explained mutants and exits 1 on
either). Target: every mutant that is not explained killed or detected.

    python benchmarks/mutation.py --area statements --module recurrence --jobs 1
    python benchmarks/mutation.py --area numerics --limit 30 --jobs 1 --json mutants.json
    python benchmarks/mutation.py --survivors-of mutants.json   # re-run what survived there
    python benchmarks/mutation.py --check-explanations --stale-only   # explanations whose site is gone
    python benchmarks/mutation.py --check-explanations --area proofs   # re-run the explained ones
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"theory": "recmem.theory", "numerics": "recmem.numerics", "checks": "recmem.checks"}
AREAS = ("statements", "definitions", "numerics", "proofs", "commands", "constants")

# Numeric definitions that statements are checked against: (file, qualified name).
DEFINITIONS: tuple[tuple[str, str], ...] = (
    ("numerics/numpy_backend.py", "NumpyBackend.recurrence"),
    ("numerics/numpy_backend.py", "NumpyBackend.vandermonde"),
    ("numerics/numpy_backend.py", "vander"),  # the one float Vandermonde builder it calls
    ("numerics/mpmath_backend.py", "MpmathBackend.recurrence"),
    ("numerics/flint_backend.py", "FlintBackend.recurrence"),
    ("numerics/torch_backend.py", "TorchBackend.recurrence"),
)

# Numerics outside the backends that verdicts rest on: every function and method of these files.
# (numerics/linear_recurrence.py is left out: no claim and neither command reads it, only
# `recmem reproduce`'s Lotka–Volterra experiment, too slow to judge a mutant by.)
NUMERICS: tuple[str, ...] = (
    "numerics/certified.py", "numerics/condition.py", "numerics/float_enclosure.py",
    "numerics/vandermonde_enclosure.py", "numerics/lyapunov.py", "numerics/memory.py",
    "numerics/perturbation.py",
)

# The code of the commands `recmem condition` and `recmem fuzz`.
COMMAND_FILES: tuple[str, ...] = ("checks/condition_cli.py", "checks/campaign.py",
                                  "checks/fuzz_store.py", "checks/fuzz_cli.py")

# Small fixed runs of a command that judge a mutant of a module no claim uses ({tmp}: a fresh
# folder per run, so no store or replayed counterexample carries over). Each writes its report
# to {tmp}/out.json; the exit status and that report are compared with the unmutated runs'.
COMMANDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "condition": (
        ("condition", "--nodes", "equispaced:-1:1", "--nodes", "ring:1/2:1", "--rows", "4,8",
         "--quantity", "sigma", "--out", "{tmp}/store", "--json", "{tmp}/out.json"),
        ("condition", "--nodes", "chebyshev:-1:1", "--rows", "6", "--backend", "dense",
         "--norm", "1", "--out", "{tmp}/store", "--json", "{tmp}/out.json", "--quiet"),
        ("condition", "--nodes", "circle:1/2", "--rows", "7", "--cols", "5",
         "--quantity", "reconstruct", "--digits", "5", "--out", "{tmp}/store",
         "--json", "{tmp}/out.json", "--quiet"),
        ("condition", "--nodes", "ring:1/2:1", "--rows", "4", "--digits", "31",
         "--out", "{tmp}/store", "--quiet"),  # bad usage: exit 2
    ),
    "fuzz": (
        ("fuzz", "O.det", "--max-examples", "20", "--controls", "--json", "{tmp}/out.json"),
        ("fuzz", "O.det", "--max-examples", "2", "--controls", "--json", "{tmp}/out.json",
         "--quiet"),  # too few examples to refute every control: 'not told apart', exit 1
        ("fuzz", "O.invertible", "--max-examples", "20", "--backend", "numpy",
         "--json", "{tmp}/out.json", "--quiet"),
        ("fuzz", "O.det", "--max-examples", "8", "--shards", "2", "--controls",
         "--json", "{tmp}/out.json", "--quiet"),  # shards: derived seeds, merged reports
        ("fuzz", "O.det", "--max-examples", "0", "--quiet"),  # bad usage: exit 2
    ),
}
# Which command judges a module that no claim uses.
COMMAND_OF: dict[str, str] = {
    "recmem.checks.condition_cli": "condition", "recmem.numerics.condition": "condition",
    "recmem.numerics.vandermonde_enclosure": "condition",
    "recmem.numerics.float_enclosure": "condition",
    "recmem.checks.campaign": "fuzz", "recmem.checks.fuzz_store": "fuzz",
    "recmem.checks.fuzz_cli": "fuzz",
}
# Claims that judge a module whose users the import scan cannot see (theory/proof.py is read by
# every statement module; these claims' proofs go through each of its functions).
CLAIMS_OF: dict[str, tuple[str, ...]] = {
    "recmem.theory.proof": ("O.vandermonde-form", "O.timestamp", "W.limit-decay",
                            "W.activations", "W.theorem.slope"),
}
# Keys of a command's JSON report that measure time or name a folder: never compared.
VOLATILE = frozenset({"seconds", "elapsed", "time", "started", "finished", "store", "out",
                      "path", "wall", "wall_s"})

# Statement methods that present or validate rather than state (and every ``*_text``): not
# mutated.
PRESENTATION = frozenset({"text", "controls", "__str__", "__post_init__"})


def _equivalent() -> dict[str, str]:
    """Mutants known to be equivalent (no registered statement, control, command output changes,
    or the mutated statement is true as well), keyed by :attr:`Mutant.key` (one site each), with
    the reason: the files ``benchmarks/equivalent_mutants_*.json`` (one per area, so they can be
    kept side by side)."""
    out: dict[str, str] = {}
    for path in sorted(Path(__file__).parent.glob("equivalent_mutants_*.json")):
        for key, reason in json.loads(path.read_text(encoding="utf-8")).items():
            if key in out:
                raise SystemExit(f"{path.name}: {key!r} is explained twice")
            out[key] = reason
    return out


EQUIVALENT = _equivalent()

BOOTSTRAP = """
import importlib.abc, importlib.util, os, sys
class _Mutant(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == os.environ.get("RECMEM_MUTANT_MODULE"):
            return importlib.util.spec_from_file_location(name, os.environ["RECMEM_MUTANT_FILE"])
        return None
sys.meta_path.insert(0, _Mutant())
from recmem.checks.cli import main
sys.exit(main(sys.argv[1:]))
"""


# ---- mutation sites --------------------------------------------------------------------------

SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
SYMBOL = {ast.Add: "+", ast.Sub: "−", ast.Mult: "·", ast.Div: "/", ast.Lt: "<", ast.LtE: "≤",
          ast.Gt: ">", ast.GtE: "≥", ast.Eq: "==", ast.NotEq: "!=", ast.And: "and",
          ast.Or: "or"}


@dataclass(frozen=True)
class Site:
    """One place to mutate: the node's position and how to change it."""

    lineno: int
    col: int
    end: tuple[int, int]  # (end line, end column): nested nodes can share a start
    kind: str  # a label of the change: "+ → −", "drop unary −", "3 → 4", …
    apply: Callable[[ast.AST], ast.AST] = field(compare=False)


def _sites(root: ast.AST) -> Iterator[tuple[ast.AST, Site]]:
    """(node, site) of the mutation sites inside ``root`` (f-strings, docstrings and
    annotations are skipped; strings are never mutated)."""
    skip = {id(n) for j in ast.walk(root) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
    skip |= {id(n) for a in ast.walk(root) for ann in _annotations(a) for n in ast.walk(ann)}
    for sub in ast.walk(root):
        if id(sub) not in skip:
            yield from ((sub, s) for s in _own_sites(sub))


def _annotations(node: ast.AST) -> list[ast.AST]:
    """Type annotations of ``node`` (``Literal[1]`` is a type, not a value to mutate)."""
    if isinstance(node, ast.arg | ast.AnnAssign):
        return [node.annotation] if node.annotation is not None else []
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return [node.returns] if node.returns is not None else []
    return []


def _own_sites(sub: ast.AST) -> Iterator[Site]:
    """The mutation sites of one node (not of its children)."""
    pos = _pos(sub)
    if isinstance(sub, ast.BinOp) and type(sub.op) in SWAP_BIN and not _textual(sub):
        new = SWAP_BIN[type(sub.op)]
        yield Site(*pos, f"{SYMBOL[type(sub.op)]} → {SYMBOL[new]}",
                   lambda n, new=new: ast.BinOp(n.left, new(), n.right))
    if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Pow):
        yield Site(*pos, "exponent + 1", lambda n: ast.BinOp(
            n.left, ast.Pow(), ast.BinOp(n.right, ast.Add(), ast.Constant(1))))
    if isinstance(sub, ast.UnaryOp) and isinstance(sub.op, ast.USub):
        yield Site(*pos, "drop unary −", lambda n: n.operand)
    if isinstance(sub, ast.UnaryOp) and isinstance(sub.op, ast.Not):
        yield Site(*pos, "drop not", lambda n: n.operand)
    if isinstance(sub, ast.Compare) and len(sub.ops) == 1 and type(sub.ops[0]) in SWAP_CMP:
        new_c = SWAP_CMP[type(sub.ops[0])]
        yield Site(*pos, f"{SYMBOL[type(sub.ops[0])]} → {SYMBOL[new_c]}",
                   lambda n, new_c=new_c: ast.Compare(n.left, [new_c()], n.comparators))
    if isinstance(sub, ast.BoolOp):
        other = ast.Or if isinstance(sub.op, ast.And) else ast.And
        yield Site(*pos, f"{SYMBOL[type(sub.op)]} → {SYMBOL[other]}",
                   lambda n, other=other: ast.BoolOp(other(), n.values))
    if (isinstance(sub, ast.Constant) and type(sub.value) in (int, float)
            and not isinstance(sub.value, bool)):
        v = sub.value
        w = v + 1 if isinstance(v, int) else (2 * v if v else 1.0)
        yield Site(*pos, f"{v} → {w}", lambda n, w=w: ast.Constant(w))


def _textual(node: ast.BinOp) -> bool:
    """String concatenation or %-formatting (``"a" + f"{b}"``): text, not arithmetic; its
    ``+ → −`` only raises TypeError where a message is built."""
    return any(isinstance(x, ast.JoinedStr) or (isinstance(x, ast.Constant)
                                                and isinstance(x.value, str))
               for x in (node.left, node.right))


def _pos(node: ast.AST) -> tuple[int, int, tuple[int, int]]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
            (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0))


def _matches(node: ast.AST, site: Site) -> bool:
    return any((s.lineno, s.col, s.end, s.kind) == (site.lineno, site.col, site.end, site.kind)
               for s in _own_sites(node))


class _Apply(ast.NodeTransformer):
    def __init__(self, site: Site) -> None:
        self.site = site
        self.done = False

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if not self.done and _matches(node, self.site):
            self.done = True
            return ast.copy_location(self.site.apply(node), node)
        return node



@dataclass(frozen=True)
class Mutant:
    """A mutated module: where, what changed, in which area; :meth:`source` builds the code."""

    file: str
    module: str
    qualname: str
    area: str
    site: Site
    before: str
    after: str
    ordinal: tuple[int, int] = (1, 1)  # (k, n): the k-th of n identical changes in qualname
    text: str = field(default="", repr=False, compare=False)  # the file as it was read

    @property
    def key(self) -> str:
        """One site: file, qualified name, the change, and its ordinal among the identical
        changes in that function (``#k/n``). It survives edits elsewhere in the file (no line
        number), and it no longer matches (the explanation turns stale, and is flagged) when an
        identical change is added to or removed from the same function, so an explanation never
        passes to another site."""
        k, n = self.ordinal
        return f"{self.file}:{self.qualname}:{self.before} → {self.after} #{k}/{n}"

    def source(self) -> str:
        """The mutated module's source."""
        tree = ast.parse(self.text)
        applier = _Apply(self.site)
        mutated = applier.visit(tree)
        if not applier.done:
            raise RuntimeError(f"site of {self.key} not found")
        ast.fix_missing_locations(mutated)
        return ast.unparse(mutated)


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return ".".join([FOLDERS[rel.parts[0]], *rel.with_suffix("").parts[1:]])


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """(qualified name, node) of each top-level function and each method of a top-level class
    (nested functions belong to the function around them)."""
    for n in tree.body:
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
            yield n.name, n
        elif isinstance(n, ast.ClassDef):
            for m in n.body:
                if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{n.name}.{m.name}", m


def _statement_targets(tree: ast.Module, rel: str) -> list[tuple[str, ast.AST]]:
    """Statement methods, the module functions they call, and the claims' ``statement=``."""
    out: list[tuple[str, ast.AST]] = []
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    called: set[str] = set()
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        if not any(isinstance(b, ast.Name) and b.id == "Statement" for b in cls.bases):
            continue
        for m in (m for m in cls.body if isinstance(m, ast.FunctionDef)):
            if m.name in PRESENTATION or m.name.endswith("_text"):
                continue
            out.append((f"{cls.name}.{m.name}", m))
            called |= {c.func.id for c in ast.walk(m) if isinstance(c, ast.Call)
                       and isinstance(c.func, ast.Name)}
    out += [(name, funcs[name]) for name in sorted(called & set(funcs))]
    if rel.startswith("checks/claims/"):
        for call in ast.walk(tree):
            for kw in getattr(call, "keywords", []) if isinstance(call, ast.Call) else []:
                if kw.arg == "statement":
                    out.append((f"statement= (line {kw.value.lineno})", kw.value))
    return out


def _builds_proof(node: ast.AST) -> bool:
    return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
               and c.func.id in ("Proof", "proof_from_steps") for c in ast.walk(node))


def _is_constant_name(name: str) -> bool:
    return name.strip("_").replace("_", "").isalnum() and name.upper() == name \
        and any(ch.isalpha() for ch in name)


def _targets(area: str, tree: ast.Module, rel: str) -> list[tuple[str, ast.AST]]:
    """(qualified name, node) of what ``area`` mutates in the file ``rel``."""
    if area == "statements":
        return _statement_targets(tree, rel)
    if area == "definitions":
        wanted = {q for f, q in DEFINITIONS if f == rel}
        return [(q, n) for q, n in _functions(tree) if q in wanted]
    if area in ("numerics", "commands"):
        return [(q, n) for q, n in _functions(tree)
                if q.rsplit(".", 1)[-1] not in ("__str__", "__repr__")]
    if area == "proofs":
        if rel == "theory/proof.py":
            return list(_functions(tree))
        taken = {q for q, _ in _statement_targets(tree, rel)}
        return [(q, n) for q, n in _functions(tree) if q not in taken and _builds_proof(n)]
    if area == "constants":
        out: list[tuple[str, ast.AST]] = []
        for n in tree.body:
            names = ([t.id for t in n.targets if isinstance(t, ast.Name)]
                     if isinstance(n, ast.Assign) else
                     [n.target.id] if isinstance(n, ast.AnnAssign)
                     and isinstance(n.target, ast.Name) and n.value is not None else [])
            value = getattr(n, "value", None)
            if value is not None and names and all(_is_constant_name(x) for x in names):
                out.append((names[0], value))
        return out
    raise ValueError(f"unknown area {area!r}")


def area_files(area: str) -> list[Path]:
    """The files an area mutates."""
    if area == "statements":
        return sorted(ROOT.glob("theory/*.py")) + sorted(ROOT.glob("checks/claims/*/*.py"))
    if area == "definitions":
        return sorted({ROOT / f for f, _ in DEFINITIONS})
    if area == "numerics":
        return [ROOT / f for f in NUMERICS]
    if area == "proofs":
        return sorted(ROOT.glob("theory/*.py"))
    if area == "commands":
        return [ROOT / f for f in COMMAND_FILES]
    if area == "constants":
        return sorted(p for folder in ("theory", "numerics", "checks")
                      for p in ROOT.glob(f"{folder}/*.py"))
    raise ValueError(f"unknown area {area!r}")


def mutants(areas: tuple[str, ...] | list[str] = AREAS,
            only: list[str] | None = None) -> list[Mutant]:
    """Every mutant of ``areas`` (in files whose path contains one of ``only``, if given), in
    file order, each with its ordinal among the identical changes of its function."""
    found: list[Mutant] = []
    for area in areas:
        for path in area_files(area):
            if not only or any(m in str(path) for m in only):
                found += file_mutants(area, str(path.relative_to(ROOT)), *_parsed(path))
    return found


def file_mutants(area: str, rel: str, text: str, tree: ast.Module | None = None) -> list[Mutant]:
    """The mutants of ``area`` in one file (``rel``: its path in the repository, ``text``: its
    source)."""
    tree = tree or ast.parse(text)
    lines = text.splitlines(keepends=True)
    module = _module_name(ROOT / rel)
    found: list[Mutant] = []
    for qualname, node in _targets(area, tree, rel):
        group: list[Mutant] = []
        for sub, site in _sites(node):
            after = ast.unparse(site.apply(sub))  # apply builds a new node, never edits sub
            group.append(Mutant(rel, module, qualname, area, site, _segment(lines, sub), after,
                                text=text))
        found += _numbered(group)
    return found


def _segment(lines: list[str], node: ast.AST) -> str:
    """The source text of ``node`` (what :func:`ast.get_source_segment` gives, without splitting
    the file again for every node; positions are UTF-8 byte offsets)."""
    (line, col), (end, end_col) = ((node.lineno, node.col_offset),  # type: ignore[attr-defined]
                                   (node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]
    if end is None or end_col is None:
        return "?"
    chunk = [x.encode("utf-8") for x in lines[line - 1:end]]
    if len(chunk) == 1:
        return chunk[0][col:end_col].decode("utf-8")
    return b"".join([chunk[0][col:], *chunk[1:-1], chunk[-1][:end_col]]).decode("utf-8")


@cache
def _parsed(path: Path) -> tuple[str, ast.Module]:
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text)


def _numbered(group: list[Mutant]) -> list[Mutant]:
    """The mutants of one function, each with its ordinal among the identical changes there
    (in source order)."""
    order = sorted(group, key=lambda m: (m.site.lineno, m.site.col, m.site.end, m.site.kind))
    same = Counter((m.before, m.after) for m in group)
    seen: Counter[tuple[str, str]] = Counter()
    rank = {}
    for m in order:
        seen[(m.before, m.after)] += 1
        rank[id(m)] = (seen[(m.before, m.after)], same[(m.before, m.after)])
    return [Mutant(m.file, m.module, m.qualname, m.area, m.site, m.before, m.after,
                   rank[id(m)], m.text) for m in group]


def stale_explanations(explained: dict[str, str] | None = None) -> list[str]:
    """Explained keys whose site no longer exists in any area (the code moved on: the entry must
    be re-keyed and its reason re-checked, or dropped)."""
    keys = {m.key for m in mutants()}
    return sorted(k for k in (EQUIVALENT if explained is None else explained) if k not in keys)


def spread(items: list[Any], limit: int) -> list[Any]:
    """At most ``limit`` of ``items``, chosen deterministically and evenly over the list."""
    if limit <= 0 or len(items) <= limit:
        return list(items)
    return [items[i * len(items) // limit] for i in range(limit)]


# ---- who judges a mutant -------------------------------------------------------------------------

@dataclass(frozen=True)
class Judge:
    """How a mutant is judged: ``recmem verify`` of claims, and/or the runs of a command."""

    claims: tuple[str, ...] = ()
    command: str | None = None

    def __str__(self) -> str:
        parts = [f"claims {', '.join(self.claims)}"] if self.claims else []
        if self.command:
            parts.append(f"`recmem {self.command}` ({len(COMMANDS[self.command])} runs)")
        return " and ".join(parts)


def judges(modules: list[str], restrict: list[str] | None = None) -> dict[str, Judge | None]:
    """The judge of each module: the claims that use it (``affected_claims``; ``CLAIMS_OF`` where
    the import scan cannot see them; only those in ``restrict``, if given) and the command that
    reads it (``COMMAND_OF``), or none when neither exists."""
    scan = affected_claims(modules)
    out: dict[str, Judge | None] = {}
    for mod in modules:
        ids = list(CLAIMS_OF.get(mod, ())) or scan[mod]
        if restrict:
            ids = [c for c in ids if c in restrict]
        command = COMMAND_OF.get(mod)
        out[mod] = Judge(tuple(ids), command) if ids or command else None
    return out


def affected_claims(modules: list[str]) -> dict[str, list[str]]:
    """For each module: claims whose statement class lives in it, or whose claim module (or a
    private helper module it imports) imports it; for a module of numeric definitions
    (``DEFINITIONS``), the claims that call one of its methods (``.recurrence(`` …), directly or
    through a ``recmem.numerics`` module they import: every backend is reached through the
    backend interface, never by importing its module."""
    todo = [[mod, sorted({q.rsplit(".", 1)[-1] for f, q in DEFINITIONS
                          if _module_name(ROOT / f) == mod})] for mod in modules]
    out = subprocess.run([sys.executable, "-c", _AFFECTED, json.dumps(todo)],
                         capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


_AFFECTED = r"""
import inspect, json, sys
from recmem.checks.registry import all_claims
claims = list(all_claims().values())
result = {}
for target, methods in json.loads(sys.argv[1]):
    calls = ["." + m + "(" for m in methods]
    short = target.rsplit(".", 1)[1]
    hits = []
    for c in claims:
        if type(c.statement).__module__ == target:
            hits.append(c.id); continue
        fn = c.symbolic or c.numeric or c.holds
        mod = sys.modules[fn.__module__] if fn else None
        srcs = [inspect.getsource(mod)] if mod else []
        for name, m in list(vars(mod).items()) if mod else []:
            if inspect.ismodule(m) and (m.__name__.split(".")[-1].startswith("_")
                                        or (calls and m.__name__.startswith("recmem.numerics."))):
                srcs.append(inspect.getsource(m))
            elif calls and getattr(m, "__module__", "").startswith("recmem.numerics."):
                srcs.append(inspect.getsource(sys.modules[m.__module__]))
        if calls and any(call in s for s in srcs for call in calls):
            hits.append(c.id); continue
        for line in (l for s in srcs for l in s.splitlines()):
            if target in line or (("import " + short) in line
                                  and target.rsplit(".", 1)[0] in line):
                hits.append(c.id); break
        else:
            if mod is not None and mod.__name__ == target:
                hits.append(c.id)
    result[target] = hits
print(json.dumps(result))
"""


# ---- running ------------------------------------------------------------------------------------

def _mutant_env(mutant: Mutant | None, workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    if mutant is not None:
        src = workdir / f"m{time.perf_counter_ns()}.py"
        src.write_text(mutant.source(), encoding="utf-8")
        env.update(RECMEM_MUTANT_MODULE=mutant.module, RECMEM_MUTANT_FILE=str(src))
    return env


def run_verify(claims: tuple[str, ...], mutant: Mutant | None, examples: int, workdir: Path,
               timeout: float = 900) -> dict[str, Any]:
    """``recmem verify claims`` (under the mutant, if given): claim id → what to compare."""
    env = _mutant_env(mutant, workdir)
    report = workdir / f"r{os.getpid()}_{time.perf_counter_ns()}.json"
    env["RECMEM_HOME"] = str(workdir / "home")
    try:
        proc = subprocess.run([sys.executable, "-c", BOOTSTRAP, "verify", *claims, "--quiet",
                               "--examples", str(examples), "--json", str(report)],
                              capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        # a mutant that makes the run hang is caught: no verdict comes out
        return {"error": f"no verdict within {timeout:.0f} s (the baseline takes far less)"}
    if not report.exists():
        return {"error": (proc.stderr or proc.stdout)[-400:]}
    data = json.loads(report.read_text(encoding="utf-8"))
    return {c["id"]: {"verdict": c["verdict"],
                      "counterexample": _stable(c.get("counterexample")),
                      "controls": [k["verdict"] for k in c.get("controls") or []],
                      "checks": _outcomes(c.get("evidence") or [])}
            for c in data["claims"]}


def run_command(name: str, mutant: Mutant | None, workdir: Path,
                timeout: float = 900) -> dict[str, Any]:
    """The runs of ``COMMANDS[name]`` (under the mutant, if given), in the shape of
    :func:`run_verify`'s answer: per run, its exit status as the verdict (a traceback marked)
    and each field of its JSON report as a check."""
    env = _mutant_env(mutant, workdir)
    out: dict[str, Any] = {}
    for i, argv in enumerate(COMMANDS[name], 1):
        tmp = Path(tempfile.mkdtemp(dir=workdir))
        env["RECMEM_HOME"] = str(tmp / "home")  # no counterexample replayed from another run
        args = [a.replace("{tmp}", str(tmp)) for a in argv]
        try:
            proc = subprocess.run([sys.executable, "-c", BOOTSTRAP, *args], capture_output=True,
                                  text=True, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"`recmem {' '.join(argv[:2])}` did not end within {timeout:.0f} s"}
        crashed = "Traceback (most recent call last)" in proc.stderr
        report = tmp / "out.json"
        fields = (_flatten(json.loads(report.read_text(encoding="utf-8")))
                  if report.exists() else {"report": "missing"})
        # what a user reads: each line of stdout (the tables), and the last lines of stderr (a
        # refusal, bad usage), with times and this run's folder masked
        for j, line in enumerate(proc.stdout.splitlines()):
            fields[f"stdout {j}"] = _masked(line, tmp)
        fields["stderr"] = _masked("\n".join(proc.stderr.strip().splitlines()[-3:]), tmp)
        out[f"run {i}: recmem {' '.join(argv[:2])}"] = {
            "verdict": f"exit {proc.returncode}" + (" (traceback)" if crashed else ""),
            "counterexample": None, "controls": [], "checks": fields, "strict": True}
    return out


def _masked(text: str, tmp: Path) -> str:
    """``text`` with the run's folder and durations (``0.21 s``) masked."""
    return re.sub(r"\d+(\.\d+)? ?s\b", "# s", text.replace(str(tmp), "{tmp}"))


def _flatten(x: Any, prefix: str = "") -> dict[str, str]:
    """Every scalar of a JSON report by its path, leaving out times and folders (``VOLATILE``)."""
    out: dict[str, str] = {}
    if isinstance(x, dict):
        for k, v in x.items():
            if k not in VOLATILE:
                out.update(_flatten(v, f"{prefix}/{k}"))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out.update(_flatten(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = repr(x)
    return out


def run_judge(judge: Judge, mutant: Mutant | None, examples: int, workdir: Path,
              timeout: float = 900) -> dict[str, Any]:
    """Run a judge (under the mutant, if given): its claims, then its command's runs."""
    out: dict[str, Any] = {}
    if judge.claims:
        out.update(run_verify(judge.claims, mutant, examples, workdir, timeout))
    if judge.command and "error" not in out:
        out.update(run_command(judge.command, mutant, workdir, timeout))
    return out


def _outcomes(evidence: list[dict[str, Any]]) -> dict[str, str]:
    """Each check's outcome, keyed by (check, backend) and numbered when a pair repeats."""
    out: dict[str, str] = {}
    for e in evidence:
        base = f"{e.get('check')} [{e.get('backend')}]"
        key, n = base, 1
        while key in out:
            n += 1
            key = f"{base} #{n}"
        out[key] = str(e.get("outcome"))
    return out


def steady(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """The baseline with only what two unmutated runs agree on: a check whose outcome differs
    between them (a time budget, say) cannot tell a mutant apart and is left out of the
    comparison, so it never counts a mutant as detected."""
    out = {}
    for cid, a in first.items():
        b = second.get(cid, {})
        checks = {k: v for k, v in a["checks"].items() if b.get("checks", {}).get(k) == v}
        out[cid] = {**a, "checks": checks}
    return out


def _stable(cx: Any) -> Any:
    if not isinstance(cx, dict):
        return cx
    return {k: v for k, v in cx.items() if k not in ("seconds",)}


def judge_result(base: dict[str, Any], got: dict[str, Any]) -> tuple[str, str]:
    """killed / detected / survived, and what changed."""
    if "error" in got:
        return "killed", "the run failed: " + got["error"].strip().splitlines()[-1][:200]
    for cid, b in base.items():
        g = got.get(cid)
        if g is None:
            return "killed", f"{cid} missing from the report"
        if g["verdict"] != b["verdict"]:
            return "killed", f"{cid}: {b['verdict']} → {g['verdict']}"
    for cid, b in base.items():
        g = got[cid]
        if g["counterexample"] != b["counterexample"] or g["controls"] != b["controls"]:
            return "detected", f"{cid}: counterexample or controls changed ({b['verdict']})"
    for cid, b in base.items():
        # a check whose outcome moved (a numeric side that stops refuting, say) is caught even
        # when another side still decides the verdict
        # a command's report field that is gone counts as changed; a claim's check that did
        # not run (a side that was not needed) does not
        strict = b.get("strict", False)
        changed = [k for k, v in b["checks"].items()
                   if got[cid]["checks"].get(k, "(missing)" if strict else v) != v]
        if changed:
            what = "field" if strict else "check"
            return "detected", (f"{cid}: {what} {changed[0]!r} {b['checks'][changed[0]]} → "
                                f"{got[cid]['checks'].get(changed[0], '(missing)')}")
    return "survived", ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--area", action="append", choices=AREAS, default=[],
                    help="only this area (repeatable; default: every area)")
    ap.add_argument("--module", action="append", default=[],
                    help="only files whose path contains this (repeatable)")
    ap.add_argument("--definitions", action="store_true",
                    help="the same as --area statements --area definitions (kept for old "
                         "command lines)")
    ap.add_argument("--claims", help="judge only by these claims (comma-separated; a module "
                                     "none of them uses is judged by its command, if any): a "
                                     "cheaper, weaker judge for a sample")
    ap.add_argument("--limit", type=int, default=0,
                    help="at most this many mutants per area, spread evenly over the area")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)))
    ap.add_argument("--examples", type=int, default=30, help="search examples per claim")
    ap.add_argument("--json", metavar="PATH", help="write every mutant's result here")
    ap.add_argument("--survivors-of", metavar="PATH",
                    help="only the mutants that survived in this earlier --json (by key)")
    ap.add_argument("--check-explanations", action="store_true",
                    help="list explanations whose site is gone, run only the explained mutants, "
                         "and exit 1 if any explanation is stale or its mutant is now killed or "
                         "detected")
    ap.add_argument("--stale-only", action="store_true",
                    help="with --check-explanations: only the (fast) check for stale sites")
    args = ap.parse_args(argv)

    areas = tuple(args.area) or (("statements", "definitions") if args.definitions else AREAS)
    stale: list[str] = []
    if args.check_explanations:
        stale = stale_explanations()
        for key in stale:
            print(f"  STALE explanation (no such site now): {key}")
        print(f"{len(stale)} of {len(EQUIVALENT)} explanations name a site that no longer "
              "exists", flush=True)
        if args.stale_only:
            return 1 if stale else 0
    todo = mutants(areas, args.module)
    if args.check_explanations:
        todo = [m for m in todo if m.key in EQUIVALENT]
    if args.survivors_of:
        before = json.loads(Path(args.survivors_of).read_text(encoding="utf-8"))
        keys = {r["key"] for r in before if r["status"] == "survived"}
        todo = [m for m in todo if m.key in keys]
    if not todo:
        print("no mutants")
        return 1 if stale else 0
    restrict = args.claims.split(",") if args.claims else None
    judge_of = judges(sorted({m.module for m in todo}), restrict)
    unjudged = Counter(m.area for m in todo if judge_of[m.module] is None)
    todo = [m for m in todo if judge_of[m.module] is not None]
    by_area: dict[str, list[Mutant]] = defaultdict(list)
    for m in todo:
        by_area[m.area].append(m)
    todo = [m for area in areas for m in spread(by_area[area], args.limit)]
    print(f"{len(todo)} mutants in {len({m.file for m in todo})} files "
          f"({', '.join(f'{a}: {len(by_area[a])}' for a in areas if by_area[a])} before "
          f"--limit; {sum(unjudged.values())} with no judge); {args.jobs} jobs", flush=True)
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        baselines, limits = {}, {}
        for judge in sorted({judge_of[m.module] for m in todo}, key=str):
            assert judge is not None
            t_mod = time.perf_counter()
            first = run_judge(judge, None, args.examples, work)
            # a mutant may be slower (precision escalation), but not 10× and a minute slower
            took = time.perf_counter() - t_mod
            limits[judge] = 10 * took + 60
            if "error" in first:
                raise SystemExit(f"the unmutated run of {judge} failed: {first['error']}")
            again = run_judge(judge, None, args.examples, work, limits[judge])
            if "error" in again or any(again[c]["verdict"] != first[c]["verdict"] for c in first):
                raise SystemExit(f"two unmutated runs of {judge} disagree on a verdict")
            baselines[judge] = steady(first, again)
            print(f"baseline of {judge}: {took:.1f} s (twice)", flush=True)

        def one(m: Mutant) -> dict[str, Any]:
            t = time.perf_counter()
            judge = judge_of[m.module]
            assert judge is not None
            got = run_judge(judge, m, args.examples, work, limits[judge])
            status, why = judge_result(baselines[judge], got)
            return {"key": m.key, "area": m.area, "file": m.file, "line": m.site.lineno,
                    "in": m.qualname, "change": m.site.kind, "before": m.before,
                    "after": m.after, "judge": str(judge), "status": status, "why": why,
                    "equivalent": EQUIVALENT.get(m.key, ""),
                    "seconds": round(time.perf_counter() - t, 2)}

        with ThreadPoolExecutor(args.jobs) as pool:
            for i, r in enumerate(pool.map(one, todo), 1):
                results.append(r)
                print(f"[{i}/{len(todo)}] {r['status']:8s} {r['area']} {r['file']}:{r['line']} "
                      f"{r['in']}: {r['before']} → {r['after']}  {r['why']}", flush=True)
    print(f"\n{len(results)} mutants in {time.perf_counter() - t0:.0f} s")
    print(summary(results, unjudged))
    survivors = [r for r in results if r["status"] == "survived"]
    for r in survivors:
        note = f"  [equivalent: {r['equivalent']}]" if r["equivalent"] else ""
        print(f"  SURVIVED {r['file']}:{r['line']} in {r['in']}: {r['before']} → {r['after']} "
              f"(judge: {r['judge']}; key {r['key']!r}){note}")
    drifted = drift(results)
    for r in drifted:
        print(f"  EXPLAINED BUT {r['status'].upper()}: {r['key']!r} ({r['why']}): the "
              "explanation no longer holds; remove it from equivalent_mutants_*.json")
    for key in stale:
        print(f"  STALE explanation: {key!r}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    bad = [r for r in survivors if not r["equivalent"]] or drifted or stale
    return 1 if bad else 0


def drift(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The explained mutants that are now killed or detected: their explanation no longer
    holds (the check improved, or the explanation was wrong) and must be removed."""
    return [r for r in results if r["equivalent"] and r["status"] != "survived"]


def summary(results: list[dict[str, Any]], unjudged: Counter[str] | None = None) -> str:
    """The table of the run: per area, mutants run, killed, detected, survived (of which
    explained), and the kill rate (killed or detected, over the mutants not explained)."""
    areas = [a for a in AREAS if any(r["area"] == a for r in results) or (unjudged or {}).get(a)]
    lines = [f"{'area':12s} {'run':>5s} {'killed':>7s} {'detected':>9s} {'survived':>9s} "
             f"{'explained':>10s} {'kill rate':>10s} {'no judge':>9s}"]
    for area in [*areas, "all"]:
        rs = [r for r in results if area in ("all", r["area"])]
        n = Counter(r["status"] for r in rs)
        explained = sum(r["status"] == "survived" and bool(r["equivalent"]) for r in rs)
        real = len(rs) - explained
        rate = f"{(n['killed'] + n['detected']) / real:.1%}" if real else "—"
        skipped = (sum((unjudged or {}).values()) if area == "all"
                   else (unjudged or {}).get(area, 0))
        lines.append(f"{area:12s} {len(rs):5d} {n['killed']:7d} {n['detected']:9d} "
                     f"{n['survived']:9d} {explained:10d} {rate:>10s} {skipped:9d}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
