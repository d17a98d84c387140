"""Coverage ledgers (issue 21): the loader's strictness, the counts, ``recmem coverage`` and
``recmem list``, the extraction of numbered items from a paper's text, and the shipped ledgers
against the registry and (where the paper texts are present) against the texts themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import one_error_line, run_main

from recmem.checks import coverage as cv
from recmem.checks import plugins
from recmem.checks.paper_items import extract_items

# ---- a small synthetic paper and its ledger --------------------------------------------------------

# paper-O style: plain text, equation numbers as "(N)" at the end of the display
TEXT = """\
2. Formal problem definition

$$y_k = T_k[(u_i)_{i=1}^k], \\quad (1)$$

$$x_k = \\Lambda x_{k-1} + Bu_k, \\quad (2)$$

Assumption A Consider a proper collection of ordered basis matrices.

Assumption A implies the result below; see Theorem 3 for more.

Appendix A. Approximation theory

Theorem 3 (Universality of non-linear RNNs [15]) Consider the system

Figure 1: Linear RNN + position-wise MLP.
"""

LEDGER = """\
[paper]
id = "O"
text = "synthetic.txt"

[[item]]
ref = "eq 1"
where = "§2"
claims = ["O.unroll"]

[[item]]
ref = "eq 2"
where = "§2"
claims = ["O.unroll", "O.det"]

[[item]]
ref = "assumption A"
where = "§3.2"
status = "definition"
reason = "the sparsity assumption the sparse claims rest on"
used_by = ["O.sparse"]

[[item]]
ref = "section A"
where = "App. A"
status = "not-checkable"
reason = "recalls cited results (Theorems 2 and 3)"

[[item]]
ref = "theorem 3"
where = "App. A"
claims = ["O.nope"]
"""


def _use_ledger(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: str,
                text: str | None = TEXT, paper: str = "O") -> Path:
    """Make ``body`` the ledger of ``paper`` and ``text`` its paper text (in a papers folder of
    its own); returns the ledger's path."""
    ledger = tmp_path / f"ledger_{paper.lower()}.toml"
    ledger.write_text(body, encoding="utf-8")
    monkeypatch.setattr(cv, "ledger_resource", lambda p: ledger if p == paper else None)
    papers = tmp_path / "papers"
    papers.mkdir(exist_ok=True)
    monkeypatch.setenv(cv.PAPERS_ENV, str(papers))
    monkeypatch.setenv("COLUMNS", "200")  # table cells unwrapped: one claim and verdict a line
    if text is not None:
        (papers / "synthetic.txt").write_text(text, encoding="utf-8")
    return ledger


def _covered(body: str) -> str:
    """``body`` with every item checked by a registered claim and nothing else."""
    return body.replace('claims = ["O.nope"]', 'claims = ["O.unroll"]') + (
        '\n[[item]]\nref = "figure 1"\nwhere = "§1"\nstatus = "not-checkable"\n'
        'reason = "an illustration of the architecture"\n')


# ---- the loader refuses every malformed shape ------------------------------------------------------

HEAD = '[paper]\nid = "O"\ntext = "synthetic.txt"\n'
GOOD = '\n[[item]]\nref = "eq 1"\nwhere = "§2"\nclaims = ["O.unroll"]\n'


@pytest.mark.parametrize("body, words", [
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nclaims = ["O.det"]\nnote = "x"\n',
     ["item 2 ('eq 2')", "unknown key(s) note"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nstatus = "not-checkable"\n',
     ["item 2 ('eq 2')", "needs a reason"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nstatus = "cited"\nreason = "r"\n',
     ["item 2 ('eq 2')", "status must be", "'cited'"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nclaims = ["O.det"]\n'
     'status = "definition"\nreason = "r"\nused_by = ["O.det"]\n',
     ["item 2 ('eq 2')", "either claims or status"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nstatus = "definition"\nreason = "r"\n',
     ["item 2 ('eq 2')", "needs used_by"]),
    (HEAD + GOOD + GOOD, ["item 2 ('eq 1')", "the same ref as item 1"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq. 2"\nwhere = "§2"\nclaims = ["O.det"]\n',
     ["item 2 ('eq. 2')", "ref must be"]),
    (HEAD + GOOD + '\n[[item]]\nref = "equation 2"\nwhere = "§2"\nclaims = ["O.det"]\n',
     ["item 2 ('equation 2')", "ref must be"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nclaims = ["O.det"]\n',
     ["item 2 ('eq 2')", "where must be"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nclaims = []\n',
     ["item 2 ('eq 2')", "claims must be a non-empty list"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\n',
     ["item 2 ('eq 2')", "give claims"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nstatus = "not-checkable"\nreason = ""\n',
     ["item 2 ('eq 2')", "reason must be one non-empty line"]),
    (HEAD + GOOD + '\n[[item]]\nref = "eq 2"\nwhere = "§2"\nclaims = ["O.det"]\nused_by = ["O.det"]\n',
     ["item 2 ('eq 2')", "used_by goes with"]),
    (HEAD + '[extra]\nx = 1\n' + GOOD, ["unknown top-level key(s) extra"]),
    (HEAD.replace('"O"', '"W"') + GOOD, ["[paper] id is 'W'", "paper 'O'"]),
    (HEAD.replace('"synthetic.txt"', '"../x.txt"') + GOOD, ["[paper] text must be"]),
    (GOOD, ["missing [paper] table"]),
    (HEAD + GOOD + "ref = ", ["not valid TOML"]),
])
def test_the_loader_refuses_a_malformed_ledger_naming_file_and_item(
        body: str, words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = _use_ledger(monkeypatch, tmp_path, body)
    with pytest.raises(cv.LedgerError) as exc:
        cv.load_ledger("O")
    message = str(exc.value)
    assert message.startswith(str(ledger)) and "\n" not in message, message
    for word in words:
        assert word in message, message


def test_the_loader_reads_a_wellformed_ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _use_ledger(monkeypatch, tmp_path, LEDGER)
    ledger = cv.load_ledger("O")
    assert ledger is not None and ledger.paper == "O" and ledger.text == "synthetic.txt"
    assert [i.ref for i in ledger.items] == ["eq 1", "eq 2", "assumption A", "section A",
                                            "theorem 3"]
    assert ledger.items[2].used_by == ("O.sparse",) and ledger.items[2].status == "definition"
    assert ledger.items[1].claims == ("O.unroll", "O.det")


def test_a_paper_without_a_ledger_is_reported_not_covered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv, "ledger_resource", lambda p: None)
    cov = cv.coverage("O")
    assert cov.ledger is None and not cov.ok and cov.summary() == "paper O: no coverage ledger"


# ---- counts ------------------------------------------------------------------------------------------

def test_counts_and_statuses_of_a_synthetic_ledger() -> None:
    ledger = cv.parse_ledger(LEDGER, "synthetic", "O")
    cov = cv.coverage("O", ledger=ledger, verdicts={"O.unroll": "CORROBORATED"}, read_text=False)
    status = {r.ref: r.status for r in cov.rows}
    assert status == {"eq 1": "checked", "eq 2": "checked", "assumption A": "definition",
                      "section A": "not-checkable", "theorem 3": "uncovered"}
    assert cov.counts() == {"checked": 2, "definition": 1, "not-checkable": 1, "uncovered": 1}
    assert not cov.ok and cov.text_read is None
    rows = {r.ref: r for r in cov.rows}
    assert rows["theorem 3"].reason == "unknown claim O.nope"
    assert [(c.id, c.verdict) for c in rows["eq 2"].claims] == [("O.unroll", "CORROBORATED"),
                                                              ("O.det", None)]
    assert cov.summary() == ("paper O: 2 checked, 1 definition, 1 not checkable, 1 uncovered")


def test_an_unknown_used_by_claim_leaves_a_definition_uncovered() -> None:
    body = LEDGER.replace('used_by = ["O.sparse"]', 'used_by = ["O.sparse", "O.gone"]')
    cov = cv.coverage("O", ledger=cv.parse_ledger(body, "synthetic", "O"), read_text=False)
    row = next(r for r in cov.rows if r.ref == "assumption A")
    assert row.status == "uncovered" and row.reason == "unknown claim O.gone"


def test_items_of_the_text_missing_from_the_ledger_are_uncovered() -> None:
    ledger = cv.parse_ledger(LEDGER + '\n[[item]]\nref = "table 9"\nwhere = "App. E"\n'
                             'status = "not-checkable"\nreason = "r"\n'
                             '\n[[item]]\nref = "section 2"\nwhere = "§2"\n'
                             'status = "not-checkable"\nreason = "r"\n', "synthetic", "O")
    cov = cv.coverage("O", ledger=ledger, text=TEXT)
    missing = [r for r in cov.rows if not r.in_ledger]
    assert [(r.ref, r.status, r.in_text) for r in missing] == [("figure 1", "uncovered", True)]
    assert missing[0].reason == cv.MISSING_FROM_LEDGER
    assert cov.counts()["uncovered"] == 2  # theorem 3's unknown claim and figure 1
    # reported, not counted; a section of the main text may be listed (it is numbered) but is
    # not required
    assert cov.not_in_text == ("table 9",)
    assert cov.counts()["not-checkable"] == 3


# ---- the command -------------------------------------------------------------------------------------

def test_coverage_exits_0_when_everything_is_covered_and_writes_json(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from recmem.checks import store
    from recmem.checks.report import ClaimResult
    from recmem.checks.verdict import Verdict

    _use_ledger(monkeypatch, tmp_path, _covered(LEDGER))
    store.save(ClaimResult("O.unroll", "t", "s", Verdict.VERIFIED, {"location": "§3"}, [], {},
                           None, 0.1), {"run_id": "r1"})
    out = run_main(capsys, "coverage", "--paper", "O", "--json", str(tmp_path / "c.json"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "paper O: 3 checked, 1 definition, 2 not checkable, 0 uncovered" in out.stdout
    assert "O.unroll VERIFIED" in out.stdout and "O.det not run" in out.stdout
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert data["ok"] is True
    (paper,) = data["papers"]
    assert paper["paper"] == "O" and paper["text_read"] is True
    assert paper["counts"] == {"checked": 3, "definition": 1, "not-checkable": 2, "uncovered": 0}
    eq2 = next(i for i in paper["items"] if i["ref"] == "eq 2")
    assert eq2["claims"] == [{"id": "O.unroll", "registered": True, "verdict": "VERIFIED"},
                             {"id": "O.det", "registered": True, "verdict": None}]


def test_coverage_exits_1_and_lists_what_is_uncovered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _use_ledger(monkeypatch, tmp_path, LEDGER)
    out = run_main(capsys, "coverage", "--paper", "O", "--json", str(tmp_path / "c.json"))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "unknown claim O.nope" in out.stdout
    assert "missing from the ledger: figure 1" in out.stdout
    assert "2 uncovered" in out.stdout
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert data["ok"] is False and data["papers"][0]["counts"]["uncovered"] == 2


def test_coverage_without_the_paper_text_judges_the_ledger_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _use_ledger(monkeypatch, tmp_path, LEDGER.replace('claims = ["O.nope"]', 'claims = ["O.det"]'),
                text=None)
    out = run_main(capsys, "coverage", "--paper", "O")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "paper text not read" in out.stdout


def test_coverage_exits_1_for_a_paper_without_a_ledger(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cv, "ledger_resource", lambda p: None)
    out = run_main(capsys, "coverage", "--paper", "W")
    assert out.returncode == 1 and "paper W: no coverage ledger" in out.stdout


@pytest.mark.parametrize("args", [["coverage", "--paper", "Q"], ["coverage", "--bogus"]])
def test_coverage_bad_usage_is_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    one_error_line(run_main(capsys, *args))


def test_a_malformed_ledger_is_one_line_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    ledger = _use_ledger(monkeypatch, tmp_path, HEAD + GOOD + GOOD)
    line = one_error_line(run_main(capsys, "coverage", "--paper", "O"))
    assert str(ledger) in line and "the same ref as item 1" in line


@pytest.mark.parametrize("target", ["ledger", "text", "store"])
def test_coverage_json_refuses_to_overwrite_its_inputs_and_recmems_state(
        target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from recmem.checks import store

    ledger = _use_ledger(monkeypatch, tmp_path, LEDGER)
    store.home().mkdir(parents=True, exist_ok=True)
    path = {"ledger": ledger, "text": tmp_path / "papers" / "synthetic.txt",
            "store": store.path()}[target]
    before = path.read_bytes() if path.exists() else None
    line = one_error_line(run_main(capsys, "coverage", "--paper", "O", "--json", str(path)))
    assert "give another path" in line
    assert (path.read_bytes() if path.exists() else None) == before


def test_list_prints_each_papers_coverage_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _use_ledger(monkeypatch, tmp_path, LEDGER)
    out = run_main(capsys, "list")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert "paper O: 2 checked, 1 definition, 1 not checkable, 2 uncovered" in lines
    assert "paper W: no coverage ledger" in lines
    out = run_main(capsys, "list", "--paper", "W")
    assert "paper O:" not in out.stdout and "paper W: no coverage ledger" in out.stdout


# ---- extraction of numbered items ----------------------------------------------------------------

MARKDOWN = r"""# 3.1 MEMORY FUNCTION

$$
\frac{dh_t}{dt} = \sigma(W h_t) \tag{1}
$$

Definition 3.1 (Memory function). For continuous functionals we define

$$
\begin{array}{l} \frac{dV}{dt} = - |v| (58) \\ \leq - (1 - L) |v| (59) \\ \end{array}
$$

and $\beta \leq \beta_0$ . Remark 3.6. It can be seen that approximation requires $E(0) = 0$.

Theorem 3.9. Assume H is a sequence of functionals. As shown in Theorem 3.9, see Theorem 3.9 and
by Lemma A.7, we know that the limit exists. Lemma A.10 is used in the proof for Theorem 3.9.

$$
y = f(2)
$$

$$
H_t(x) = \int \rho(s) x_{t-s} ds \tag {17}
$$

**Lemma A.7.** Consider a dynamical system with the following dynamics:

# ABSTRACT

# A THEORETICAL RESULTS AND PROOFS

# A.7 COMPARISON OF DECAYING MEMORY AND FADING MEMORY

Figure 2: Target with polynomial decaying memory.

Table 1: Test loss and accuracy.

# I.1 EXISTENCE OF NONLINEAR RNNs WITHOUT DECAYING MEMORY
"""


def test_extraction_from_markdown_finds_the_numbered_items_and_not_the_citations() -> None:
    items = extract_items(MARKDOWN)
    refs = [i.ref for i in items]
    assert refs == ["eq 1", "eq 58", "eq 59", "eq 17", "definition 3.1", "remark 3.6",
                    "theorem 3.9", "lemma A.7", "section A", "section A.7", "section I.1",
                    "figure 2", "table 1"]
    assert "lemma A.10" not in refs  # "Lemma A.10 is used …": a citation
    assert "eq 2" not in refs  # f(2) is an argument, not a number
    where = {i.ref: i.where for i in items}
    assert where["theorem 3.9"] == "§3.1" and where["figure 2"] == "App. A.7"
    # the statement is found where it is printed, not where it is first cited
    theorem = next(i for i in items if i.ref == "theorem 3.9")
    assert MARKDOWN.splitlines()[theorem.line - 1].startswith("Theorem 3.9. Assume")


def test_extraction_from_plain_text_follows_paper_os_layout() -> None:
    text = TEXT + (
        "\n1. For simplicity yet without loss in generality, we assume dimensions coincide.\n"
        "\nE.1. Reconstruction using the Vandermonde inverse\n"
        "\nLemma 6 *Let u_1, u_2 be independent uniform random variables.*\n"
        "\nAs in Theorem 4 and Lemma 8, by Proposition 7 we get\n"
        "\n$$x = y \\tag{32}$$\n"
        "\nIn Figure 9 we show example of input-output pairs.\n")
    refs = {i.ref for i in extract_items(text)}
    assert refs == {"eq 1", "eq 2", "eq 32", "assumption A", "theorem 3", "lemma 6", "section A",
                    "section E.1", "figure 1", "figure 9"}
    where = {i.ref: i.where for i in extract_items(text)}
    assert where["eq 1"] == "§2" and where["theorem 3"] == "App. A"
    # sections of the main text on request; a footnote ("1. For simplicity …") is none
    body = {i.ref for i in extract_items(text, body_sections=True)} - refs
    assert body == {"section 2"}


# ---- the shipped ledgers -------------------------------------------------------------------------

def test_every_claim_the_shipped_ledgers_name_is_registered() -> None:
    from recmem.checks.registry import all_claims

    claims = all_claims()
    problems = []
    for paper in plugins.paper_keys():
        ledger = cv.load_ledger(paper)
        if ledger is None:
            problems.append(f"paper {paper}: no ledger at {cv.ledger_resource(paper)}")
            continue
        problems += [f"paper {paper} {item.ref}: unknown claim {c}" for item in ledger.items
                     for c in (*item.claims, *item.used_by) if c not in claims]
    assert not problems, "\n".join(problems)


def _text(paper: str) -> tuple[cv.Ledger, str]:
    ledger = cv.load_ledger(paper)
    assert ledger is not None, f"paper {paper} ships no coverage ledger"
    path = cv.text_path(ledger)
    if path is None:
        pytest.skip(f"the text of paper {paper} ({ledger.text}) is not in {cv.papers_folder()} "
                    f"(set {cv.PAPERS_ENV} to the folder of paper texts)")
    return ledger, path.read_text(encoding="utf-8")


@pytest.mark.parametrize("paper", plugins.paper_keys())
def test_every_item_numbered_in_the_paper_text_is_in_the_shipped_ledger(paper: str) -> None:
    ledger, text = _text(paper)
    listed = {i.ref for i in ledger.items}
    missing = [f"{i.ref} ({i.where}, line {i.line})" for i in extract_items(text)
               if i.ref not in listed]
    assert not missing, (f"{len(missing)} item(s) of paper {paper}'s text missing from its "
                         "ledger:\n" + "\n".join(missing))


def test_the_extraction_finds_every_numbered_item_of_the_papers() -> None:
    """Pins what the extraction reads from the texts (counted by hand against them): paper W
    numbers equations (1)–(142), paper O (1)–(38); paper L's markdown prints no equation number,
    and its prose cites Eq. (1)–(4), (7) and (26); the statements, appendix sections, figures
    and tables below."""
    found = {}
    for paper in plugins.paper_keys():
        _, text = _text(paper)
        found[paper] = [i.ref for i in extract_items(text)]
    eqs = {p: {int(r.split()[1]) for r in refs if r.startswith("eq ")} for p, refs in found.items()}
    assert eqs == {"O": set(range(1, 39)), "W": set(range(1, 143)), "L": {1, 2, 3, 4, 7, 26}}
    other = {p: [r for r in refs if not r.startswith("eq ")] for p, refs in found.items()}
    assert other["O"] == [
        "assumption A", "assumption B", "theorem 1", "theorem 2", "theorem 3", "theorem 4",
        "theorem 5", "lemma 6", "proposition 7", "lemma 8",
        "section A", "section B", "section C", "section D", "section E", "section E.1",
        "section E.2", "section E.3", *(f"figure {n}" for n in range(1, 10))]
    assert other["W"] == [
        "definition 2.1", "definition 3.1", "definition 3.2", "remark 3.3", "definition 3.4",
        "definition 3.5", "remark 3.6", "definition 3.7", "definition 3.8", "theorem 3.9",
        "theorem A.1", "theorem A.2", "theorem A.3", "theorem A.4", "remark A.5", "lemma A.6",
        "lemma A.7", "lemma A.8", "lemma A.9", "lemma A.10",
        "section A", *(f"section A.{n}" for n in range(1, 11)), "section B", "section C",
        "section D", "section E", "section F", "section G", "section H", "section I",
        "section I.1", "section I.2", "section J", *(f"figure {n}" for n in range(1, 13)),
        "table 1"]
    assert other["L"] == [
        "theorem 1", "lemma 2", "proposition 3", "proposition 4",
        "section A", "section B", "section C", "section C.1", "section C.2", "section C.3",
        "section D", "section D.1", "section D.2", "section D.3", "section D.4", "section E",
        "section E.1", "section E.1.1", "section E.1.2", "section E.2", "section E.3", "section F",
        "section F.1", "section F.2", *(f"figure {n}" for n in range(1, 10)),
        *(f"table {n}" for n in range(1, 10))]
