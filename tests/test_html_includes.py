"""The pages of ``recmem report --html DIR --include FOLDER`` (checks/html/included.py) and the
notebook display of a condition sweep (checks/html/sweep_view.py), built from folders the real
commands write: a tiny ``recmem condition`` sweep and the fastest reproduction at ci scale."""

from __future__ import annotations

import hashlib
import json
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from recmem.checks.condition_cli import bracket
from recmem.checks.html.included import (
    IncludeError,
    Reproduction,
    check_includes,
    write_include_pages,
)
from recmem.checks.html.render import environment
from recmem.checks.html.sweep_view import ConditionSweep, load_sweep
from recmem.checks.sweep_store import SweepStore

REPRODUCTION = "L-fig6-relu-spectrum"  # the fastest experiment at ci scale (about 2 s)
# what base.html needs from the site (recmem.checks.html.site._common)
CONTEXT = {"run": {}, "origin": "a test", "nav_papers": [], "recmem_version": "test",
           "generated": "now", "complete": True}


class Tables(HTMLParser):
    """The text of every cell of every table of a page, by the table's class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table = self.tables.setdefault(dict(attrs).get("class") or "", [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self._table[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(path: Path) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def sweep_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three tiny points of the real engine: two seeds of a random family and one deterministic
    point."""
    from recmem.checks.cli import main

    out = tmp_path_factory.mktemp("inc") / "sweep"
    assert main(["condition", "--nodes", "ring:0.9:1", "--nodes", "roots-of-unity", "--rows",
                 "4", "--seeds", "2", "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def repro_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from reproduce_runs import run_ci

    out = tmp_path_factory.mktemp("inc") / "repro"
    code, summary = run_ci(out, REPRODUCTION)
    assert code in (0, 1) and summary["findings"] and summary["files"]
    return out


def stored(folder: Path) -> dict[Any, dict[str, Any]]:
    with SweepStore(folder, create=False) as store:
        return store.get(store.stored_keys())


def test_pages_show_the_stores_brackets_and_summarys_findings(
        sweep_folder: Path, repro_folder: Path, tmp_path: Path) -> None:
    before = {p.name: digest(p) for p in sweep_folder.iterdir() if p.is_file()}
    included = check_includes([sweep_folder, repro_folder])
    assert [type(i) for i in included] == [ConditionSweep, Reproduction]
    site = tmp_path / "site"
    pages = write_include_pages(included, environment(), site, CONTEXT)
    assert [(p.kind, p.href) for p in pages] == [("sweep", "sweeps/sweep/index.html"),
                                                 ("reproduction", "reproductions/repro/index.html")]
    # read-only: the sweep's folder is as it was (no journal, no file added or changed)
    assert {p.name: digest(p) for p in sweep_folder.iterdir() if p.is_file()} == before
    # the sweep's page: one table row per stored point, each bracket the command's own
    rows = stored(sweep_folder)
    assert len(rows) == 3
    table = tables(site / pages[0].href)["sweep-table"]
    header, body = table[0], table[1:]
    assert len(body) == 3
    cells = [dict(zip(header, r, strict=True)) for r in body]
    for key, row in rows.items():
        seed = str(key.seed) if key.family.startswith("ring") else "—"
        match = [c for c in cells if c["family"] == key.family and c["N"] == str(key.rows)
                 and c["seed"] == seed]
        assert len(match) == 1
        assert match[0]["bracket"] == bracket(row, key.digits)
        assert match[0]["certified"] == "yes"
    assert pages[0].status == "certified"
    assert (site / "sweeps/sweep/plot-1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    overlays = tables(site / pages[0].href)["overlay-table"][1:]
    assert len(overlays) == sum(len(r.get("overlays") or []) for r in rows.values()) > 0

    # the reproduction's page: every finding as summary.json says, every figure copied
    summary = json.loads((repro_folder / "summary.json").read_text(encoding="utf-8"))
    page = site / pages[1].href
    findings = tables(page)["findings"]
    assert findings[0] == ["figure", "quantity", "paper", "recmem", "criterion", "agreement"]
    assert findings[1:] == [[f["figure"], f["quantity"], f["paper"], f["measured"], f["statement"],
                             f["agreement"]] for f in summary["findings"]]
    figures = [n for n in summary["files"] if n.endswith(".png")]
    assert figures
    html = page.read_text(encoding="utf-8")
    for name in summary["files"]:
        assert digest(page.parent / name) == digest(repro_folder / name)
    for name in figures:
        assert f'<img src="{name}"' in html
    assert summary["title"] in html and summary["source"] in html
    assert pages[1].status == "agrees" if all(
        f["agreement"] == "agrees" for f in summary["findings"]) else pages[1].status != "agrees"


def test_two_folders_of_one_name_get_two_pages(repro_folder: Path, tmp_path: Path) -> None:
    twin = tmp_path / "elsewhere" / "repro"
    shutil.copytree(repro_folder, twin)
    pages = write_include_pages(check_includes([repro_folder, twin]), environment(),
                                tmp_path / "site", CONTEXT)
    assert [p.href for p in pages] == ["reproductions/repro/index.html",
                                       "reproductions/repro-2/index.html"]
    assert all((tmp_path / "site" / p.href).is_file() for p in pages)


def test_bad_folders_are_refused_in_one_line(repro_folder: Path, tmp_path: Path) -> None:
    def refused(folder: Path, why: str) -> None:
        with pytest.raises(IncludeError, match=why) as info:
            check_includes([folder])
        assert "\n" not in str(info.value) and str(folder) in str(info.value)

    refused(tmp_path / "absent", "no such folder")
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    refused(tmp_path / "a-file", "not a folder")
    (tmp_path / "empty").mkdir()
    refused(tmp_path / "empty", "neither a condition sweep")
    bad = tmp_path / "bad"
    shutil.copytree(repro_folder, bad)
    (bad / "summary.json").write_text("{not json", encoding="utf-8")
    refused(bad, "summary.json is not JSON")
    (bad / "summary.json").write_text('{"experiment": "x"}', encoding="utf-8")
    refused(bad, "lacks title")
    # a listed figure that is a link to a file outside the folder
    linked = tmp_path / "linked"
    shutil.copytree(repro_folder, linked)
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"not yours")
    figure = next(n for n in json.loads((linked / "summary.json").read_text())["files"]
                  if n.endswith(".png"))
    (linked / figure).unlink()
    (linked / figure).symlink_to(secret)
    refused(linked, "outside the folder")
    # an SQLite file that is not a condition store
    import sqlite3

    other = tmp_path / "other"
    other.mkdir()
    sqlite3.connect(other / "condition.sqlite").execute("CREATE TABLE t (x)").connection.close()
    refused(other, "not a readable recmem condition store")
    with pytest.raises(IncludeError, match=r"no condition\.sqlite"):
        load_sweep(tmp_path / "empty")


def test_a_violated_bound_is_shown_loudly(sweep_folder: Path, tmp_path: Path) -> None:
    folder = tmp_path / "violated"
    rows = stored(sweep_folder)
    key = min(rows)
    row = dict(rows[key])
    row["overlays"] = [{**o, "holds": False} for o in row["overlays"]]
    with SweepStore(folder) as store:  # the real writer, still open: the point is in its WAL
        store.put(key, row)
        sweep = load_sweep(folder)
    assert sweep.status == "violated"
    (section,) = sweep.sections()
    (shown,) = section.table()
    assert shown.violated and shown.cells[section.columns.index("certified")] == "yes VIOLATED"
    assert "bound(s) VIOLATED" in sweep.summary()


def test_notebook_display_has_the_table_and_the_plot(sweep_folder: Path) -> None:
    sweep = load_sweep(sweep_folder)
    html = sweep._repr_html_()
    rows = stored(sweep_folder)
    assert 'class="sweep-table"' in html
    for key, row in rows.items():
        assert bracket(row, key.digits) in html
    assert '<img src="data:image/png;base64,' in html
    assert sweep.csv().count("\n") == len(rows) + 1
