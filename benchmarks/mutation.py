"""Mutation score of recmem's checks: plant small errors in the statements and see them caught.

Every mutant is one small change to the code that carries a claim's statement (issue 7's planted
errors): an operator swapped (+/−, */÷), a sign dropped, an exponent or an integer shifted by one,
a comparison made strict or non-strict, ``and``/``or`` exchanged, a float constant doubled. The
targets are

- the methods of every :class:`~recmem.theory.statement.Statement` subclass in ``theory/`` (the
  formula and the hypotheses; ``text``, ``controls`` and the field validation ``__post_init__``
  are presentation and are left alone), and the module-level functions of that module they call;
- the ``statement=…`` expressions of the claim modules (the paper's values of the knobs);
- the numeric definitions the claims compare statements against (``--definitions``: the
  backends' recurrences, the Lyapunov integral's quadrature, …; see ``DEFINITIONS``).

Each mutant runs ``recmem verify`` of the claims it can affect in a fresh interpreter that loads
the mutated module in place of the original. It is **killed** when a claim's verdict changes (a
passing claim stops passing, a refuted one is no longer refuted), **detected** when only a
refuted claim's counterexample, a control's verdict or the outcome of one of the claim's checks
changes (a numeric side that stops refuting while the symbolic side still does, say; checks
whose outcome differs between two unmutated runs are left out), and **survives** otherwise.
Every survivor is printed with its location and change, and with the reason when it is a known
equivalent mutant (``EQUIVALENT``, read from ``benchmarks/equivalent_mutants_*.json``). Target:
every non-equivalent mutant killed.

    python benchmarks/mutation.py                       # everything (tens of minutes on 2 cores)
    python benchmarks/mutation.py --module recurrence   # the statements of theory/recurrence.py
    python benchmarks/mutation.py --limit 20 --jobs 2 --json mutants.json
    python benchmarks/mutation.py --survivors-of mutants.json   # re-run what survived there
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"theory": "recmem.theory", "numerics": "recmem.numerics", "checks": "recmem.checks"}

# Numeric definitions that statements are checked against: (file, qualified name).
DEFINITIONS: tuple[tuple[str, str], ...] = (
    ("numerics/numpy_backend.py", "NumpyBackend.recurrence"),
    ("numerics/numpy_backend.py", "NumpyBackend.vandermonde"),
    ("numerics/mpmath_backend.py", "MpmathBackend.recurrence"),
    ("numerics/flint_backend.py", "FlintBackend.recurrence"),
    ("numerics/torch_backend.py", "TorchBackend.recurrence"),
)

# Statement methods that present or validate rather than state (and every ``*_text``): not
# mutated.
PRESENTATION = frozenset({"text", "controls", "__str__", "__post_init__"})

def _equivalent() -> dict[str, str]:
    """Mutants known to be equivalent (no registered statement or control changes, or the mutated
    statement is true as well), keyed by :attr:`Mutant.key`, with the reason: the files
    ``benchmarks/equivalent_mutants_*.json`` (one per area, so they can be kept side by side)."""
    out: dict[str, str] = {}
    for path in sorted(Path(__file__).parent.glob("equivalent_mutants_*.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
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


def _sites(root: ast.AST) -> Iterator[Site]:
    """Mutation sites inside ``root`` (f-strings are skipped; strings are never mutated)."""
    skip = {id(n) for j in ast.walk(root) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
    for sub in ast.walk(root):
        if id(sub) not in skip:
            yield from _own_sites(sub)


def _own_sites(sub: ast.AST) -> Iterator[Site]:
    """The mutation sites of one node (not of its children)."""
    pos = _pos(sub)
    if isinstance(sub, ast.BinOp) and type(sub.op) in SWAP_BIN:
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
    """A mutated module: where, what changed, and its source."""

    file: str
    module: str
    qualname: str
    site: Site
    before: str
    after: str
    source: str = field(repr=False)

    @property
    def key(self) -> str:
        """A name that survives edits elsewhere in the file (no line number)."""
        return f"{self.file}:{self.qualname}:{self.before} → {self.after}"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return ".".join([FOLDERS[rel.parts[0]], *rel.with_suffix("").parts[1:]])


def _targets(tree: ast.Module, path: Path) -> list[tuple[str, ast.AST]]:
    """(qualified name, node) of what to mutate in one file."""
    out: list[tuple[str, ast.AST]] = []
    rel = str(path.relative_to(ROOT))
    wanted = {q for f, q in DEFINITIONS if f == rel}
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    called: set[str] = set()
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        methods = [m for m in cls.body if isinstance(m, ast.FunctionDef)]
        is_statement = any(isinstance(b, ast.Name) and b.id == "Statement" for b in cls.bases)
        for m in methods:
            q = f"{cls.name}.{m.name}"
            presents = m.name in PRESENTATION or m.name.endswith("_text")
            if (is_statement and not presents) or q in wanted:
                out.append((q, m))
                called |= {c.func.id for c in ast.walk(m) if isinstance(c, ast.Call)
                           and isinstance(c.func, ast.Name)}
    out += [(name, funcs[name]) for name in sorted(called & set(funcs))]
    out += [(name, node) for name, node in funcs.items() if name in wanted]
    if rel.startswith("checks/claims/"):
        for call in ast.walk(tree):
            for kw in getattr(call, "keywords", []) if isinstance(call, ast.Call) else []:
                if kw.arg == "statement":
                    out.append((f"statement= (line {kw.value.lineno})", kw.value))
    return out


def mutants(files: list[Path]) -> list[Mutant]:
    """Every mutant of the target code in ``files``."""
    found: list[Mutant] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        for qualname, node in _targets(tree, path):
            for site in _sites(node):
                mutated = copy.deepcopy(tree)
                applier = _Apply(site)
                mutated = applier.visit(mutated)
                if not applier.done:
                    continue
                ast.fix_missing_locations(mutated)
                before = ast.get_source_segment(text, _node_at(tree, site)) or "?"
                after = ast.unparse(site.apply(copy.deepcopy(_node_at(tree, site))))
                found.append(Mutant(str(path.relative_to(ROOT)), _module_name(path), qualname,
                                    site, before, after, ast.unparse(mutated)))
    return found


def _node_at(tree: ast.AST, site: Site) -> ast.AST:
    return next(n for n in ast.walk(tree) if _matches(n, site))


# ---- which claims a mutant can affect ------------------------------------------------------------

def affected_claims(module: str) -> list[str]:
    """Claims whose statement class lives in ``module``, or whose claim module (or a private
    helper module it imports) imports ``module``; for a module of numeric definitions
    (``DEFINITIONS``), the claims that call one of its methods (``.recurrence(`` …), directly or
    through a ``recmem.numerics`` module they import: every backend is reached through the
    backend interface, never by importing its module."""
    methods = sorted({q.rsplit(".", 1)[-1] for f, q in DEFINITIONS
                      if _module_name(ROOT / f) == module})
    out = subprocess.run([sys.executable, "-c", _AFFECTED, module, ",".join(methods)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


_AFFECTED = r"""
import inspect, json, sys
from recmem.checks.registry import all_claims
target = sys.argv[1]
calls = ["." + m + "(" for m in sys.argv[2].split(",") if m]
short = target.rsplit(".", 1)[1]
hits = []
for c in all_claims().values():
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
            srcs.append(inspect.getsource(sys.modules[m.__module__]))  # a function imported by name
    if calls and any(call in s for s in srcs for call in calls):
        hits.append(c.id); continue
    for line in (l for s in srcs for l in s.splitlines()):
        if target in line or (("import " + short) in line and target.rsplit(".", 1)[0] in line):
            hits.append(c.id); break
    else:
        if mod is not None and mod.__name__ == target:
            hits.append(c.id)
print(json.dumps(hits))
"""


# ---- running ------------------------------------------------------------------------------------

def run_verify(claims: list[str], mutant: Mutant | None, examples: int, workdir: Path,
               timeout: float = 900) -> dict[str, Any]:
    """``recmem verify claims`` (under the mutant, if given): claim id → what to compare."""
    env = dict(os.environ)
    report = workdir / f"r{os.getpid()}_{time.perf_counter_ns()}.json"
    if mutant is not None:
        src = workdir / f"m{time.perf_counter_ns()}.py"
        src.write_text(mutant.source, encoding="utf-8")
        env.update(RECMEM_MUTANT_MODULE=mutant.module, RECMEM_MUTANT_FILE=str(src))
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


def judge(base: dict[str, Any], got: dict[str, Any]) -> tuple[str, str]:
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
        changed = [k for k, v in b["checks"].items() if got[cid]["checks"].get(k, v) != v]
        if changed:
            return "detected", (f"{cid}: check {changed[0]!r} {b['checks'][changed[0]]} → "
                                f"{got[cid]['checks'][changed[0]]}")
    return "survived", ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", action="append", default=[],
                    help="only files whose path contains this (repeatable)")
    ap.add_argument("--definitions", action="store_true",
                    help="also mutate the numeric definitions listed in DEFINITIONS")
    ap.add_argument("--limit", type=int, default=0, help="at most this many mutants")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)))
    ap.add_argument("--examples", type=int, default=30, help="search examples per claim")
    ap.add_argument("--json", metavar="PATH", help="write every mutant's result here")
    ap.add_argument("--survivors-of", metavar="PATH",
                    help="only the mutants that survived in this earlier --json (by key)")
    args = ap.parse_args(argv)

    files = sorted(ROOT.glob("theory/*.py")) + sorted(ROOT.glob("checks/claims/*/*.py"))
    if args.definitions:
        files += sorted({ROOT / f for f, _ in DEFINITIONS})
    if args.module:
        files = [f for f in files if any(m in str(f) for m in args.module)]
    todo = mutants(files)
    if args.survivors_of:
        before = json.loads(Path(args.survivors_of).read_text(encoding="utf-8"))
        keys = {r["key"] for r in before if r["status"] == "survived"}
        todo = [m for m in todo if m.key in keys]
    if args.limit:
        todo = todo[:args.limit]
    if not todo:
        print("no mutants")
        return 0
    claims_of: dict[str, list[str]] = {}
    for m in todo:
        if m.module not in claims_of:
            claims_of[m.module] = affected_claims(m.module)
    todo = [m for m in todo if claims_of[m.module]]
    print(f"{len(todo)} mutants in {len({m.file for m in todo})} files; "
          f"{args.jobs} jobs", flush=True)
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        baselines, limits = {}, {}
        for mod, ids in claims_of.items():
            t_mod = time.perf_counter()
            first = run_verify(ids, None, args.examples, work)
            # a mutant may be slower (precision escalation), but not 10× and a minute slower
            limits[mod] = 10 * (time.perf_counter() - t_mod) + 60
            if "error" in first:
                raise SystemExit(f"the unmutated run of {mod}'s claims failed: {first['error']}")
            again = run_verify(ids, None, args.examples, work, limits[mod])
            if "error" in again or any(again[c]["verdict"] != first[c]["verdict"] for c in first):
                raise SystemExit(f"two unmutated runs of {mod}'s claims disagree on a verdict")
            baselines[mod] = steady(first, again)
        base_time = time.perf_counter() - t0
        print(f"baseline runs (each twice): {base_time:.1f} s for {len(baselines)} modules",
              flush=True)

        def one(m: Mutant) -> dict[str, Any]:
            t = time.perf_counter()
            got = run_verify(claims_of[m.module], m, args.examples, work, limits[m.module])
            status, why = judge(baselines[m.module], got)
            return {"key": m.key, "file": m.file, "line": m.site.lineno, "in": m.qualname,
                    "change": m.site.kind, "before": m.before, "after": m.after,
                    "claims": claims_of[m.module], "status": status, "why": why,
                    "equivalent": EQUIVALENT.get(m.key, ""),
                    "seconds": round(time.perf_counter() - t, 2)}

        with ThreadPoolExecutor(args.jobs) as pool:
            for i, r in enumerate(pool.map(one, todo), 1):
                results.append(r)
                print(f"[{i}/{len(todo)}] {r['status']:8s} {r['file']}:{r['line']} "
                      f"{r['in']}: {r['before']} → {r['after']}  {r['why']}", flush=True)
    killed = sum(r["status"] == "killed" for r in results)
    detected = sum(r["status"] == "detected" for r in results)
    survivors = [r for r in results if r["status"] == "survived"]
    equivalent = [r for r in survivors if r["equivalent"]]
    real = len(results) - len(equivalent)
    print(f"\nkilled {killed}, detected {detected}, survived {len(survivors)} "
          f"({len(equivalent)} known equivalent) of {len(results)} mutants in "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"kill rate over non-equivalent mutants: {(killed + detected) / max(real, 1):.1%} "
          f"(killed alone: {killed / max(real, 1):.1%})")
    for r in survivors:
        note = f"  [equivalent: {r['equivalent']}]" if r["equivalent"] else ""
        print(f"  SURVIVED {r['file']}:{r['line']} in {r['in']}: {r['before']} → {r['after']} "
              f"(claims {', '.join(r['claims'])}){note}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return 0 if len(survivors) == len(equivalent) else 1


if __name__ == "__main__":
    sys.exit(main())
