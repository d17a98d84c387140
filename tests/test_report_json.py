"""The JSON report written after every claim (checks/report.py Report.write_json) is the report's
own dictionary, encoded once per claim: the kept parts never go stale and the text is exactly
``json.dumps(report.to_dict(), indent=2)`` at every step of a run."""

from __future__ import annotations

import json
from pathlib import Path

import recmem.checks as rc
from recmem.checks.report import Report


def test_incremental_json_is_the_reports_own_dictionary(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    texts: list[str] = []

    def done(_result: object, report: Report) -> None:
        report.write_json(out)
        texts.append(out.read_text())
        assert texts[-1] == json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"

    report = rc.verify(["O.unroll", "O.vandermonde-form"], backends=["numpy"], controls=False,
                       on_claim_done=done)
    assert len(texts) == 2 and len(json.loads(texts[0])["claims"]) == 1
    report.write_json(out)
    final = out.read_text()
    assert final == json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    assert json.loads(final)["complete"] is True
    assert [c["id"] for c in json.loads(final)["claims"]] == ["O.unroll", "O.vandermonde-form"]


def test_an_empty_report_is_written_whole(tmp_path: Path) -> None:
    report = Report.start(backends=["numpy"], precision=53, seed=0, params={}, controls=True)
    report.write_json(tmp_path / "r.json")
    text = (tmp_path / "r.json").read_text()
    assert text == json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    assert json.loads(text)["claims"] == []
