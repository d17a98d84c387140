"""``recmem report --html`` and ``recmem verify --html`` (issue 23): the site's pages come from
the report's data, bad input is refused before anything is written, and a site is replaced only
whole and only when asked. (The pages in a real browser: tests/test_site_browser.py.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import one_error_line, run_main

# fast claims of two papers: a printed slip REFUTED with a counterexample, a VERIFIED claim that
# uses another, a claim whose correction is in the run
CLAIMS = ("O.timestamp", "O.timestamp.corrected", "O.vandermonde-form", "W.rnn-decaying.app-i1")
BACKENDS = ("--backend", "sympy", "--backend", "numpy")


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A results store with one run of CLAIMS (and its JSON report)."""
    from recmem.checks.cli import main

    home = tmp_path_factory.mktemp("site-home")
    report = home.parent / "site-report.json"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RECMEM_HOME", str(home))
        assert main(["verify", *CLAIMS, *BACKENDS, "--quiet", "--json", str(report)]) == 1
    return home, json.loads(report.read_text())


@pytest.fixture
def home(stored: tuple[Path, dict], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECMEM_HOME", str(stored[0]))
    return stored[0]


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_latest_stored_run_gives_a_page_per_claim_with_the_reports_data(
        home: Path, stored: tuple[Path, dict], tmp_path: Path, capsys: pytest.CaptureFixture[str]
        ) -> None:
    site = tmp_path / "site"
    out = run_main(capsys, "report", "--html", str(site))
    assert out.returncode == 0, out.stderr
    assert "wrote 7 pages" in out.stdout  # the index, 2 paper pages, 4 claim pages
    report = stored[1]
    index = _text(site / "index.html")
    assert report["run_id"] in index
    assert "not run" not in index  # sympy and numpy both ran
    many = tmp_path / "many"  # a requested arithmetic that ran nothing is said, with why
    report_cuda = json.loads(json.dumps(report))
    report_cuda["backends"].append("torch:cuda")
    (tmp_path / "cuda.json").write_text(json.dumps(report_cuda))
    assert run_main(capsys, "report", "--html", str(many), "--json",
                    str(tmp_path / "cuda.json")).returncode == 0
    assert "not run: torch:cuda (no selected claim has a check in this arithmetic)" in _text(
        many / "index.html")
    for c in report["claims"]:
        paper = c["id"].split(".")[0]
        page = _text(site / paper / "claims" / f"{c['id']}.html")
        assert f"verdict-{c['verdict'].lower()}" in page
        for e in c["evidence"]:  # every residual and tolerance the report gives, as it gives it
            for key in ("residual", "tolerance"):
                if e.get(key):
                    assert str(e[key]).replace("&", "&amp;").replace("<", "&lt;") in page
        paper_page = _text(site / paper / "index.html")
        # its graph node, coloured by its verdict and linked to its page
        node = re.search(rf'<g class="node verdict-{c["verdict"].lower()}" id="node-'
                         rf'{re.escape(c["id"])}" data-claim="{re.escape(c["id"])}">.*?</g>',
                         paper_page, re.S)
        assert node and f'href="claims/{c["id"]}.html"' in node.group(0), c["id"]
        assert f'data-verdict="{c["verdict"]}"' in paper_page  # a row the filter selects
    # the counterexample as Python that evaluates to the report's counterexample
    slip = next(c for c in report["claims"] if c["id"] == "O.timestamp")
    page = _text(site / "O" / "claims" / "O.timestamp.html")
    import ast
    import html

    code = html.unescape(re.search(r'<code class="language-python">counterexample = (.*?)</code>',
                                    page, re.S).group(1))
    assert ast.literal_eval(code) == slip["counterexample"]
    assert (site / ".recmem-site").is_file()


def test_a_change_in_the_report_shows_on_the_page(stored: tuple[Path, dict],
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(json.dumps(stored[1]))
    claim = report["claims"][0]
    claim["evidence"][0]["residual"] = "9.87654e-321"
    claim["verdict"] = "INCONCLUSIVE"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    site = tmp_path / "site"
    out = run_main(capsys, "report", "--html", str(site), "--json", str(path))
    assert out.returncode == 0, out.stderr
    page = _text(site / claim["id"].split(".")[0] / "claims" / f"{claim['id']}.html")
    assert "9.87654e-321" in page and "verdict-inconclusive" in page


def test_paper_and_run_select_the_claims(home: Path, stored: tuple[Path, dict], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "w"
    out = run_main(capsys, "report", "--html", str(site), "--paper", "W", "--run",
                   stored[1]["run_id"])
    assert out.returncode == 0, out.stderr
    assert (site / "W" / "claims" / "W.rnn-decaying.app-i1.html").is_file()
    assert not (site / "O").exists()
    line = one_error_line(run_main(capsys, "report", "--html", str(tmp_path / "l"),
                                   "--paper", "L", "--run", stored[1]["run_id"]))
    assert "no claim of paper L" in line
    assert not (tmp_path / "l").exists()


@pytest.mark.parametrize("case", ["unknown-run", "no-store", "not-json", "not-a-report",
                                  "folder-report", "missing-report", "bad-claims"])
def test_bad_input_is_one_line_and_writes_nothing(case: str, stored: tuple[Path, dict],
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("RECMEM_HOME", str(stored[0]))
    bad = tmp_path / "r.json"
    args = ["--json", str(bad)]
    if case == "unknown-run":
        args = ["--run", "0123456789ab"]
    elif case == "no-store":
        monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "empty-home"))
        args = []
    elif case == "not-json":
        bad.write_text("{not json")
    elif case == "not-a-report":
        bad.write_text(json.dumps({"claims": []}))
    elif case == "folder-report":
        bad.mkdir()
    elif case == "bad-claims":
        bad.write_text(json.dumps({"schema": "recmem.report/2", "claims": [{"id": "O.det"}]}))
    site = tmp_path / "site"
    line = one_error_line(run_main(capsys, "report", "--html", str(site), *args))
    assert "Traceback" not in line
    assert not site.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_non_empty_folder_needs_force_and_must_be_a_site(home: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    line = one_error_line(run_main(capsys, "report", "--html", str(mine)))
    assert "--force" in line
    line = one_error_line(run_main(capsys, "report", "--html", str(mine), "--force"))
    assert "did not write it" in line
    assert _text(mine / "notes.txt") == "keep me"
    site = tmp_path / "site"
    assert run_main(capsys, "report", "--html", str(site)).returncode == 0
    (site / "stale.html").write_text("from an earlier build")
    assert run_main(capsys, "report", "--html", str(site)).returncode == 2
    assert run_main(capsys, "report", "--html", str(site), "--force").returncode == 0
    assert not (site / "stale.html").exists() and (site / "index.html").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_outputs_that_hold_inputs_or_the_store_are_refused(home: Path, stored: tuple[Path, dict],
                                                           tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    for folder in (home, home.parent, home / "fuzz-examples" / "site"):
        line = one_error_line(run_main(capsys, "report", "--html", str(folder), "--force"))
        assert "holds or is inside recmem's" in line
    assert (home / "results.sqlite").is_file()
    report = tmp_path / "out" / "r.json"
    report.parent.mkdir()
    report.write_text(json.dumps(stored[1]))
    line = one_error_line(run_main(capsys, "report", "--html", str(tmp_path), "--json",
                                   str(report)))
    assert "holds or is inside the input of --json" in line
    assert report.is_file()


def test_an_interrupted_build_leaves_the_previous_site(home: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from recmem.checks.html import site as site_module

    site = tmp_path / "site"
    assert run_main(capsys, "report", "--html", str(site)).returncode == 0
    before = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}

    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(site_module, "render", interrupted)
    assert run_main(capsys, "report", "--html", str(site), "--force").returncode == 130
    after = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_verify_html_writes_the_site_of_the_run(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    out = run_main(capsys, "verify", "O.timestamp", *BACKENDS, "--quiet", "--html", str(site))
    assert out.returncode == 1  # O.timestamp is REFUTED
    assert "verdict-refuted" in _text(site / "O" / "claims" / "O.timestamp.html")
    line = one_error_line(run_main(capsys, "verify", "O.timestamp", "--html", str(site)))
    assert "--force" in line
    line = one_error_line(run_main(capsys, "verify", "O.timestamp", "--force"))
    assert "--html" in line


def test_notebook_displays(stored: tuple[Path, dict]) -> None:
    from recmem.checks.report import ClaimResult, Report

    meta = {k: v for k, v in stored[1].items() if k not in ("claims", "summary", "complete")}
    report = Report(meta, [ClaimResult.from_dict(c) for c in stored[1]["claims"]], complete=True)
    html = report._repr_html_()
    assert html.count("<details>") >= len(report.claims)
    for c in report.claims:
        assert f"<code>{c.id}</code>" in html
        assert f"verdict-{str(c.verdict).lower()}" in html
    one = report.claims[0]._repr_html_()
    assert "<math" in one and "Evidence" in one
    assert "<style>" in one


def test_included_folders_get_pages_linked_from_the_index(home: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    from recmem.checks.cli import main

    sweep = tmp_path / "sweep"
    assert main(["condition", "--nodes", "roots-of-unity", "--rows", "4", "--out", str(sweep),
                 "--quiet"]) == 0
    before = sorted(p.name for p in sweep.iterdir())
    site = tmp_path / "site"
    out = run_main(capsys, "report", "--html", str(site), "--include", str(sweep))
    assert out.returncode == 0, out.stderr
    assert "1 included folder)" in out.stdout
    index = _text(site / "index.html")
    assert 'href="sweeps/sweep/index.html"' in index
    assert "[1.000, 1.001]" in _text(site / "sweeps" / "sweep" / "index.html")  # κ₂ = 1, certified
    assert sorted(p.name for p in sweep.iterdir()) == before  # the included folder is only read
    line = one_error_line(run_main(capsys, "report", "--html", str(tmp_path / "other"),
                                   "--include", str(tmp_path / "absent")))
    assert "--include" in line and not (tmp_path / "other").exists()
    line = one_error_line(run_main(capsys, "report", "--html", str(sweep / "site"),
                                   "--include", str(sweep)))
    assert "holds or is inside the input of --include" in line
