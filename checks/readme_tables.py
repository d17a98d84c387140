"""The README's findings tables, generated from the claim registry so that they cannot drift.

Each paper's table sits between ``<!-- BEGIN findings O -->`` and ``<!-- END findings O -->``
(likewise ``W``) and has one row per registered claim, in registry order: the claim's ID, its
verdict, and its one-line finding (the claim's ``summary``, its title when it has none). The IDs
and the one-liners come from the registry; the verdicts come from a JSON report of a default run
(``recmem verify --json PATH``), or, for claims the given reports do not cover, from the README
itself::

    recmem verify --json report.json                            # the default run (seed 0)
    python -m recmem.checks.readme_tables --report report.json  # rewrite the tables
    python -m recmem.checks.readme_tables --check               # exit 1 when the README differs

Exit status: 0 when the README is (or now is) up to date, 1 when ``--check`` finds it differs,
2 for bad usage (no README, missing markers, a claim with no verdict, a report of another run).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recmem.checks import plugins, registry
from recmem.checks.claim import Claim
from recmem.checks.outputs import write_atomic
from recmem.checks.verdict import Verdict

HEADER = ("| claim | verdict | in one line |", "|---|---|---|")
_VERDICTS = {str(v) for v in Verdict}
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


class TablesError(Exception):
    """The README or a report cannot be used (a usage error: exit status 2)."""


def begin_marker(paper: str) -> str:
    return f"<!-- BEGIN findings {paper} -->"


def end_marker(paper: str) -> str:
    return f"<!-- END findings {paper} -->"


@dataclass(frozen=True)
class Row:
    """One row of a findings table, as the README shows it (cells unescaped)."""

    id: str
    verdict: str
    summary: str


def one_line(claim: Claim) -> str:
    """The claim's finding in one line: its ``summary``, or its title when it has none."""
    return " ".join((claim.summary or claim.title).split())


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def _unescape(cell: str) -> str:
    return cell.strip().replace("\\|", "|")


def render_row(claim: Claim, verdict: str) -> str:
    return f"| `{claim.id}` | {verdict} | {_escape(one_line(claim))} |"


def render_table(paper: str, verdicts: Mapping[str, str],
                 claims: Iterable[Claim] | None = None) -> list[str]:
    """The table's lines (header included) for every registered claim of ``paper``."""
    chosen = list(claims) if claims is not None else registry.select(paper=paper)
    missing = [c.id for c in chosen if c.id not in verdicts]
    if missing:
        raise TablesError(f"no verdict for {', '.join(missing)}: run `recmem verify --json PATH` "
                          f"and pass --report PATH")
    return [*HEADER, *(render_row(c, verdicts[c.id]) for c in chosen)]


def _block(lines: Sequence[str], paper: str) -> tuple[int, int]:
    """Indices of the BEGIN and END marker lines of ``paper``'s table."""
    begin = [i for i, line in enumerate(lines) if line.strip() == begin_marker(paper)]
    end = [i for i, line in enumerate(lines) if line.strip() == end_marker(paper)]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise TablesError(f"the README needs exactly one {begin_marker(paper)} followed by one "
                          f"{end_marker(paper)}")
    return begin[0], end[0]


def papers_in(text: str) -> list[str]:
    """The installed papers whose tables the README has (markers present), in key order."""
    return [p for p in plugins.paper_keys() if begin_marker(p) in text]


def parse_table(text: str, paper: str) -> list[Row]:
    """The rows between ``paper``'s markers (the header lines left out)."""
    lines = text.splitlines()
    begin, end = _block(lines, paper)
    rows = []
    for line in lines[begin + 1:end]:
        if not line.strip() or line.strip() in HEADER:
            continue
        cells = _CELL_SPLIT.split(line.strip())
        if len(cells) != 5 or cells[0] or cells[-1]:
            raise TablesError(f"not a row of the findings table: {line!r}")
        claim_id, verdict, summary = (_unescape(c) for c in cells[1:4])
        rows.append(Row(claim_id.strip("`"), verdict, summary))
    return rows


def readme_verdicts(text: str) -> dict[str, str]:
    """The verdict column of every table in the README, by claim ID."""
    return {r.id: r.verdict for p in papers_in(text) for r in parse_table(text, p)}


def report_verdicts(path: Path) -> dict[str, str]:
    """The verdicts of a ``recmem verify --json`` report, checked to be a complete default run."""
    try:
        doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TablesError(f"cannot read the report {path}: {exc}") from exc
    if not str(doc.get("schema", "")).startswith("recmem.report/"):
        raise TablesError(f"{path} is not a recmem report (schema {doc.get('schema')!r})")
    if not doc.get("complete"):
        raise TablesError(f"{path} is a partial report (the run was interrupted): run it again")
    settings = []
    if doc.get("seed", 0) != 0:
        settings.append(f"seed {doc['seed']}")
    if doc.get("params"):
        settings.append(f"parameters {doc['params']}")
    if doc.get("controls") is False:
        settings.append("--no-controls")
    if settings:
        raise TablesError(f"{path} is not a run on the default settings ({'; '.join(settings)}): "
                          f"the README's tables show `recmem verify` with its defaults")
    verdicts = {c["id"]: c["verdict"] for c in doc.get("claims", [])}
    unknown = sorted(v for v in verdicts.values() if v not in _VERDICTS)
    if unknown:
        raise TablesError(f"{path}: unknown verdicts {unknown}")
    return verdicts


def render(text: str, verdicts: Mapping[str, str]) -> str:
    """``text`` with every paper's table regenerated (IDs and one-liners from the registry)."""
    papers = papers_in(text)
    if not papers:
        raise TablesError(f"the README has no findings tables ({begin_marker('<paper>')} … "
                          f"{end_marker('<paper>')})")
    lines = text.splitlines()
    for paper in papers:
        begin, end = _block(lines, paper)
        lines[begin + 1:end] = render_table(paper, verdicts)
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m recmem.checks.readme_tables",
        description="Regenerate (or --check) the README's findings tables from the claim registry "
                    "and the verdicts of a `recmem verify --json` report.")
    ap.add_argument("--readme", type=Path, default=Path("README.md"),
                    help="the README to update (default: README.md in the current folder)")
    ap.add_argument("--report", type=Path, action="append", default=[],
                    help="a JSON report of a default run (repeatable; later ones win); claims it "
                         "does not cover keep the README's verdict")
    ap.add_argument("--check", action="store_true",
                    help="change nothing; exit 1 and show the difference when the README differs")
    args = ap.parse_args(argv)
    try:
        try:
            text = args.readme.read_text(encoding="utf-8")
        except OSError as exc:
            raise TablesError(f"cannot read {args.readme}: {exc}") from exc
        verdicts = readme_verdicts(text)
        for path in args.report:
            verdicts.update(report_verdicts(path))
        new = render(text, verdicts)
    except TablesError as exc:
        print(f"readme_tables: error: {exc}", file=sys.stderr)
        return 2
    if new == text:
        print(f"{args.readme}: the findings tables are up to date")
        return 0
    if args.check:
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(keepends=True), new.splitlines(keepends=True),
            fromfile=f"{args.readme} (as is)", tofile=f"{args.readme} (generated)"))
        print(f"{args.readme}: the findings tables differ from the registry; regenerate them with "
              f"`python -m recmem.checks.readme_tables --report REPORT.json`", file=sys.stderr)
        return 1
    write_atomic(args.readme, new)
    print(f"{args.readme}: findings tables regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
