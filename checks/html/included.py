"""Pages for the folders ``recmem report --html DIR --include FOLDER`` adds to the site: a
condition sweep (``recmem condition --out FOLDER``: its store ``condition.sqlite``) or a
reproduction (``recmem reproduce NAME --out FOLDER``: its ``summary.json`` and the figures and data
it lists).

:func:`check_includes` reads every folder first, so that the command refuses bad input
(:class:`IncludeError`, one line) before it writes anything; :func:`write_include_pages` then
writes ``sweeps/<slug>/index.html`` and ``reproductions/<slug>/index.html`` under the site's
folder, with copies of the figures beside them. Only JSON and SQLite are read (read-only), only
files the folder itself lists are copied, and nothing outside an included folder is ever read:
a listed file that is a link to outside it is refused.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeAlias
from urllib.parse import quote

from recmem.checks.html.sweep_view import NO_MATPLOTLIB, PLOT_NOTE, ConditionSweep, Panel, text
from recmem.checks.reproduce.cli import SUMMARY_FILE
from recmem.checks.sweep_store import STORE_NAME as STORE_FILE

if TYPE_CHECKING:
    import jinja2

# what a reproduction's summary.json always holds (recmem.checks.reproduce.cli._summary)
SUMMARY_KEYS = ("experiment", "title", "source", "scale", "settings", "seed", "device",
                "findings", "files")
FINDING_KEYS = ("figure", "quantity", "measured", "paper", "agreement", "statement")
# the kinds of listed files copied next to the page: figures are shown, data linked
FIGURE_SUFFIXES = (".png",)
DATA_SUFFIXES = (".csv",)
# a reproduction's one-word status, worst first (any disagreement makes `recmem reproduce` exit 1)
AGREEMENT_ORDER = ("disagrees", "partial", "undetermined", "agrees")
ROOT = "../../"  # from sweeps/<slug>/ and reproductions/<slug>/ to the site's root


class IncludeError(ValueError):
    """A folder given with ``--include`` that cannot be shown: missing, not a folder, neither a
    sweep's nor a reproduction's, unreadable, or listing a file outside itself. One line naming
    the folder and why; the command exits with 2 before writing anything."""


@dataclass(frozen=True)
class IncludedPage:
    """A page written for an included folder, as the site's index lists it: ``href`` is relative
    to the site's root; ``status`` one word (a sweep's :attr:`ConditionSweep.status`, a
    reproduction's worst agreement or ``incomplete``), None when there is nothing to judge."""

    kind: str  # "sweep" | "reproduction"
    title: str
    href: str
    summary: str
    status: str | None


@dataclass(frozen=True)
class ListedFile:
    """A file a reproduction lists (``files`` of summary.json), inside its folder."""

    name: str  # as listed: a relative POSIX path
    path: Path  # resolved, inside the folder

    @property
    def href(self) -> str:
        """The copy's URL relative to the page."""
        return quote(self.name)


@dataclass(frozen=True)
class Reproduction:
    """A reproduction's folder, read: its summary.json as it is, the figures and data files it
    lists (checked to lie inside the folder), and the listed files that are not there."""

    folder: Path
    summary: Mapping[str, Any] = field(compare=False)
    figures: tuple[ListedFile, ...]
    data: tuple[ListedFile, ...]
    missing: tuple[str, ...]

    @property
    def title(self) -> str:
        """``EXPERIMENT: title`` as summary.json says."""
        return f"{self.summary['experiment']}: {self.summary['title']}"

    @property
    def findings(self) -> list[dict[str, str]]:
        """Each finding with every field as text (strings as they are, other values as JSON)."""
        return [{k: text(f[k]) for k in FINDING_KEYS} for f in self.summary["findings"]]

    @property
    def status(self) -> str | None:
        """``incomplete`` for an interrupted run, else the worst agreement of its findings
        (:data:`AGREEMENT_ORDER`); None without findings."""
        if self.summary.get("complete") is False:
            return "incomplete"
        found = {f["agreement"] for f in self.summary["findings"]}
        return next((a for a in AGREEMENT_ORDER if a in found), None)

    def counts(self) -> str:
        """The findings counted by agreement: ``2 agrees, 1 partial``."""
        c = Counter(str(f["agreement"]) for f in self.summary["findings"])
        return ", ".join(f"{n} {a}" for a, n in sorted(c.items(), key=_agreement_rank)) or "none"

    def items(self, name: str) -> list[tuple[str, str]]:
        """A mapping of summary.json (``settings``, ``choices``, ``measured``, ``versions``) as
        (name, text) pairs; empty when absent."""
        value = self.summary.get(name)
        return [(str(k), text(v)) for k, v in value.items()] if isinstance(value, dict) else []


Included: TypeAlias = ConditionSweep | Reproduction


def _agreement_rank(item: tuple[str, int]) -> int:
    a = item[0]
    return AGREEMENT_ORDER.index(a) if a in AGREEMENT_ORDER else len(AGREEMENT_ORDER)


def _fail(folder: Path, why: str) -> IncludeError:
    return IncludeError(f"--include {folder}: {why}")


def _inside(folder: Path, name: Any) -> ListedFile:
    """The listed file ``name`` of ``folder``, refused unless it is a relative path without
    ``..`` whose target (links followed) is a regular file inside the folder."""
    if not isinstance(name, str) or not name:
        raise _fail(folder, f"{SUMMARY_FILE} lists a file name that is not text: {name!r}")
    rel = PurePosixPath(name)
    if rel.is_absolute() or ".." in rel.parts or "\\" in name:
        raise _fail(folder, f"{SUMMARY_FILE} lists {name!r}, which is not a path inside the "
                            "folder; refused")
    path = (folder / rel).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise _fail(folder, f"{name} is a link to {path}, outside the folder; refused")
    return ListedFile(name, path)


def load_reproduction(folder: Path) -> Reproduction:
    """Read a reproduction's folder (its summary.json); :class:`IncludeError` when summary.json
    is unreadable, not the JSON recmem writes, or lists a file outside the folder."""
    try:
        summary = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
    except OSError as exc:
        raise _fail(folder, f"cannot read {SUMMARY_FILE} ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise _fail(folder, f"{SUMMARY_FILE} is not JSON ({exc})") from None
    if not isinstance(summary, dict):
        raise _fail(folder, f"{SUMMARY_FILE} is not a JSON object")
    missing_keys = [k for k in SUMMARY_KEYS if k not in summary]
    if missing_keys:
        raise _fail(folder, f"{SUMMARY_FILE} lacks {', '.join(missing_keys)}: not a summary "
                            "of recmem reproduce")
    if not isinstance(summary["findings"], list) or not isinstance(summary["files"], list):
        raise _fail(folder, f"{SUMMARY_FILE}: findings and files must be lists")
    for i, f in enumerate(summary["findings"], 1):
        lacks = [k for k in FINDING_KEYS if not isinstance(f, dict) or k not in f]
        if lacks:
            raise _fail(folder, f"{SUMMARY_FILE}: finding {i} lacks {', '.join(lacks)}")
    listed = [_inside(folder, name) for name in summary["files"]]
    present = [f for f in listed if f.path.is_file()]
    return Reproduction(
        folder, summary,
        figures=tuple(f for f in present if f.path.suffix.lower() in FIGURE_SUFFIXES),
        data=tuple(f for f in present if f.path.suffix.lower() in DATA_SUFFIXES),
        missing=tuple(f.name for f in listed if not f.path.is_file()))


def check_includes(folders: Sequence[Path]) -> list[Included]:
    """Read every folder of ``--include`` (a sweep's or a reproduction's), in order, before
    anything is written: :class:`IncludeError` for the first one that cannot be shown."""
    from recmem.checks.html.sweep_view import load_sweep

    out: list[Included] = []
    for given in folders:
        folder = Path(given)
        if not folder.exists():
            raise _fail(folder, "no such folder")
        if not folder.is_dir():
            raise _fail(folder, "not a folder")
        sweep, repro = (folder / STORE_FILE).exists(), (folder / SUMMARY_FILE).exists()
        if sweep and repro:
            raise _fail(folder, f"holds both {STORE_FILE} and {SUMMARY_FILE}: give a condition "
                                "sweep's folder or a reproduction's, not one holding both")
        if sweep:
            try:
                out.append(load_sweep(folder))
            except IncludeError as exc:
                raise _fail(folder, str(exc).removeprefix(f"{folder}: ")) from None
        elif repro:
            out.append(load_reproduction(folder))
        else:
            raise _fail(folder, f"neither a condition sweep's folder ({STORE_FILE}, from recmem "
                                f"condition --out) nor a reproduction's ({SUMMARY_FILE}, from "
                                "recmem reproduce --out)")
    return out


def _slug(folder: Path, taken: set[str]) -> str:
    """A file name for the folder's page: its name with characters outside [A-Za-z0-9._-]
    replaced, made unique among ``taken`` (which it joins)."""
    name = folder.name or folder.resolve().name
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-") or "folder"
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    taken.add(slug)
    return slug


def _copy(item: ListedFile, page: Path) -> None:
    """Copy a listed file byte for byte next to the page (under its listed name)."""
    target = page / item.name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(item.path.read_bytes())


def write_include_pages(included: Sequence[Included], env: jinja2.Environment, site: Path,
                        context: Mapping[str, Any] | None = None) -> list[IncludedPage]:
    """Write one page per folder of ``included`` (from :func:`check_includes`) under ``site``
    (the site's folder being built): ``sweeps/<slug>/index.html`` with its plots drawn from the
    store, ``reproductions/<slug>/index.html`` with copies of the figures and data files its
    summary.json lists. ``context`` holds the variables every page's ``base.html`` needs (the
    site's navigation and footer); ``root`` is set here. What the site's index lists, in order."""
    common = {**(context or {}), "root": ROOT}
    taken: dict[str, set[str]] = {"sweeps": set(), "reproductions": set()}
    pages = []
    for item in included:
        if isinstance(item, ConditionSweep):
            slug = _slug(item.folder, taken["sweeps"])
            page = site / "sweeps" / slug
            page.mkdir(parents=True, exist_ok=True)
            panels = []
            for i, section in enumerate(item.sections(), 1):
                png = section.plot_png()
                if png is not None:
                    (page / f"plot-{i}.png").write_bytes(png)
                panels.append(Panel(section, None if png is None else f"plot-{i}.png",
                                    NO_MATPLOTLIB if png is None else None))
            html = env.get_template("sweep.html").render(**common, sweep=item, panels=panels,
                                                         plot_note=PLOT_NOTE)
            title = f"Condition sweep {item.name}: {', '.join(item.families) or 'no point'}"
            pages.append(IncludedPage("sweep", title, f"sweeps/{slug}/index.html",
                                      item.summary(), item.status))
        else:
            slug = _slug(item.folder, taken["reproductions"])
            page = site / "reproductions" / slug
            page.mkdir(parents=True, exist_ok=True)
            for listed in (*item.figures, *item.data):
                _copy(listed, page)
            html = env.get_template("reproduction.html").render(**common, repro=item)
            s = item.summary
            pages.append(IncludedPage(
                "reproduction", item.title, f"reproductions/{slug}/index.html",
                f"{s['source']}, {s['scale']} scale, seed {s['seed']}: findings {item.counts()}",
                item.status))
        (page / "index.html").write_text(html, encoding="utf-8")
    return pages


__all__ = ["IncludeError", "Included", "IncludedPage", "ListedFile", "Reproduction",
           "check_includes", "load_reproduction", "write_include_pages"]
