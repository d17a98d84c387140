"""`recmem reproduce L-fig23-spectrum` and `L-fig4-phase` (paper L §3.2.2 Fig. 2–3, §3.4 Fig. 4):
one ci-scale run of each checked through its summary.json, CSVs and PNGs; planted slips in the
sampler below the experiments (Lemma 2's ½, the phase range) turn findings into disagreements;
determinism and resumption on small settings; the numerics of recmem.numerics.lru_spectra on
tiny inputs against brute force."""

from __future__ import annotations

import csv
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from reproduce_runs import run_ci

from recmem.checks.reproduce.experiment import AGREEMENTS, RunContext
from recmem.checks.reproduce.experiments import l_fig4_phase, l_fig23_spectrum
from recmem.numerics import lru_spectra as ls
from recmem.theory.ring import LEMMA6, RingSampling

pytest.importorskip("matplotlib")

MODULES = {"L-fig23-spectrum": l_fig23_spectrum, "L-fig4-phase": l_fig4_phase}



_run = run_ci


@pytest.fixture(scope="module")
def spectrum_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, dict[str, Any]]:
    out = tmp_path_factory.mktemp("l-fig23")
    return (out, *_run(out, "L-fig23-spectrum"))


@pytest.fixture(scope="module")
def phase_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, dict[str, Any]]:
    out = tmp_path_factory.mktemp("l-fig4")
    return (out, *_run(out, "L-fig4-phase"))


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _finding(findings: list[Any], figure: str) -> Any:
    hits = [f for f in findings if (f["figure"] if isinstance(f, dict) else f.figure).startswith(figure)]
    assert len(hits) == 1, f"{len(hits)} findings for {figure}"
    return hits[0]


def _check_common(out: Path, code: int, summary: dict[str, Any], files: set[str]) -> None:
    assert summary["complete"] is True and summary["scale"] == "ci"
    disagree = any(f["agreement"] == "disagrees" for f in summary["findings"])
    assert code == (1 if disagree else 0)
    for f in summary["findings"]:
        assert f["agreement"] in AGREEMENTS and "criterion" in f["statement"]
        assert f["statement"].rstrip(".").endswith(f["agreement"]), f["figure"]
    assert set(summary["files"]) == files
    for name in files:
        if name.endswith(".png"):
            data = (out / name).read_bytes()
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    assert summary["choices"]


# ---- L-fig23-spectrum at ci scale ---------------------------------------------------------------
def test_spectrum_summary(spectrum_run: tuple[Path, int, dict[str, Any]]) -> None:
    out, code, summary = spectrum_run
    _check_common(out, code, summary, {"fig2_glorot.png", "fig3_lemma2.png", "fig23_radial_cdf.png",
                                       "statistics.csv", "spectra_draw0.csv"})
    assert code == 0 and all(f["agreement"] == "agrees" for f in summary["findings"])
    fig2 = _finding(summary["findings"], "Fig. 2 (Theorem 1)")
    ns = l_fig23_spectrum.SETTINGS["ci"]["N"]
    radial = [fig2["measured"][f"N={n}"]["radial D"] for n in ns]
    assert radial[-1] < radial[0]  # the spectrum approaches the disk law
    assert all(fig2["measured"][f"N={n}"]["radial D"] <= fig2["measured"][f"N={n}"][
        "critical D (N i.i.d. points)"] for n in ns)
    assert summary["measured"]["trace_residual_max"] <= l_fig23_spectrum.TRACE_RESIDUAL_MAX
    limit = _finding(summary["findings"], "Fig. 3 (Lemma 2 with (0, 1) vs Glorot)")
    assert limit["measured"][f"N={ns[-1]}"]["radial D"] < limit["measured"][f"N={ns[0]}"]["radial D"]
    rings = [f for f in summary["findings"] if f["figure"].startswith("Lemma 2 ring")]
    assert len(rings) == len(l_fig23_spectrum.SETTINGS["ci"]["rings"])


def test_spectrum_csvs(spectrum_run: tuple[Path, int, dict[str, Any]]) -> None:
    out, _, _ = spectrum_run
    stats = _csv(out / "statistics.csv")
    ci = l_fig23_spectrum.SETTINGS["ci"]
    per_n = ci["draws"] * (3 + len(ci["rings"]))  # glorot, lemma2 (0, 1), two-sample, rings
    assert len(stats) == len(ci["N"]) * per_n
    for row in stats:
        if row["source"] == "lemma2":  # Lemma 2's draws lie in their ring
            assert float(row["max_modulus"]) <= float(Fraction(row["r_max"])) + 1e-15
            assert float(row["min_modulus"]) >= float(Fraction(row["r_min"])) - 1e-15
    pts = _csv(out / "spectra_draw0.csv")
    glorot = [r for r in pts if r["source"] == "glorot" and int(r["N"]) == ci["N"][-1]]
    assert len(glorot) == ci["N"][-1]
    # a real matrix: the spectrum is closed under conjugation
    z = np.array([complex(float(r["re"]), float(r["im"])) for r in glorot])
    assert np.allclose(np.sort_complex(z), np.sort_complex(z.conj()), atol=1e-12)


SPECTRUM_SMALL = {"N": [64, 256], "draws": 2, "rings": [["1/2", "9/10"]]}


def _small(module: Any, settings: dict[str, Any], out: Path, seed: int = 0) -> RunContext:
    ctx = RunContext(experiment=module.EXPERIMENT, scale="ci", settings=settings, seed=seed,
                     device="cpu", out=out, quiet=True)
    module.EXPERIMENT.run(ctx)
    return ctx


def test_planted_slip_in_lemma2_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lemma 2's ½ dropped in the one sampler (ν = −log(…): |λ| uniform instead of |λ|²) makes the
    Fig. 3 findings disagree; the same settings without the slip agree."""
    monkeypatch.setattr(l_fig23_spectrum, "_figures", lambda *a, **k: None)
    clean = _small(l_fig23_spectrum, SPECTRUM_SMALL, tmp_path / "clean")
    assert all(f.agreement == "agrees" for f in clean.findings if not f.figure.startswith("Fig. 2 (approx"))
    monkeypatch.setattr(RingSampling, "nu", lambda self, a, log: -log(a))
    slip = _small(l_fig23_spectrum, SPECTRUM_SMALL, tmp_path / "slip")
    assert _finding(slip.findings, "Fig. 3 (Lemma 2, (r_min").agreement == "disagrees"
    assert _finding(slip.findings, "Lemma 2 ring (1/2, 9/10)").agreement == "disagrees"
    assert _finding(slip.findings, "Fig. 3 (Lemma 2 with (0, 1) vs Glorot)").agreement != "agrees"
    # the Glorot side does not use the sampler: unchanged
    assert (_finding(slip.findings, "Fig. 2 (Theorem 1)").measured
            == _finding(clean.findings, "Fig. 2 (Theorem 1)").measured)


def test_spectrum_resumes_from_finished_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(l_fig23_spectrum, "_figures", lambda *a, **k: None)
    calls: list[int] = []
    cell = l_fig23_spectrum.disk_cell

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return cell(*args, **kwargs)

    monkeypatch.setattr(l_fig23_spectrum, "disk_cell", counted)
    settings = {**SPECTRUM_SMALL, "rings": []}
    _small(l_fig23_spectrum, settings, tmp_path)
    first = (tmp_path / "statistics.csv").read_text()
    _small(l_fig23_spectrum, settings, tmp_path)
    assert len(calls) == 4 and (tmp_path / "statistics.csv").read_text() == first


# ---- L-fig4-phase at ci scale -------------------------------------------------------------------
def test_phase_summary(phase_run: tuple[Path, int, dict[str, Any]]) -> None:
    out, code, summary = phase_run
    _check_common(out, code, summary, {"fig4_impulse.png", "fig4_periods.png", "fig4_components.csv",
                                       "fig4_traces.csv"})
    verdicts = {f["figure"]: f["agreement"] for f in summary["findings"]}
    # the caption's L = 1024 sentence: θ on 0…2π gives hundreds of periods, θ on 0…π/50 a few
    assert verdicts["Fig. 4 caption, L = 1024 (reading A: θ on 0…2π)"] == "disagrees"
    assert verdicts["Fig. 4 caption, L = 1024 (reading B: θ on 0…π/50)"] == "agrees"
    assert code == 1
    others = {k: v for k, v in verdicts.items() if "reading A" not in k}
    assert set(others.values()) == {"agrees"}
    upper = _finding(summary["findings"], "Fig. 4 (upper")["measured"]["median"]
    lower = _finding(summary["findings"], "Fig. 4 (lower")["measured"]["median"]
    assert upper >= 10 * lower  # ≈ 50× in the law
    assert summary["measured"]["closed_form_residual_max"] <= 1e-9


def test_phase_csvs(phase_run: tuple[Path, int, dict[str, Any]]) -> None:
    out, _, _ = phase_run
    ci = l_fig4_phase.SETTINGS["ci"]
    rows = _csv(out / "fig4_components.csv")
    assert len(rows) == ci["components"] * len(ci["ranges"]) * 2
    assert all(r["sign_changes"] == r["predicted"] for r in rows)  # the exact count
    small = [float(r["theta_eff"]) for r in rows if r["range"] == "small"]
    assert max(small) <= math.pi / 50
    traces = _csv(out / "fig4_traces.csv")
    assert len(traces) == 2 * ci["length"] and set(traces[0]) == {"k", "range", "re_x1", "re_x2", "re_x3"}
    assert float(traces[0]["re_x1"]) == 1.0  # x_1 = B u_1 = 1


PHASE_SMALL = {**l_fig4_phase.SETTINGS["ci"], "length": 4096, "short_length": 256, "components": 64}


def test_planted_phase_slip_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """θ = π·turns·u₂ instead of 2π·turns·u₂ in the one sampler: the reduced ranges halve and the
    phase-range finding disagrees."""
    monkeypatch.setattr(l_fig4_phase, "_figures", lambda *a, **k: None)
    clean = _small(l_fig4_phase, PHASE_SMALL, tmp_path / "clean")
    assert _finding(clean.findings, "Fig. 4 (phase ranges)").agreement == "agrees"
    monkeypatch.setattr(RingSampling, "angle_turns",
                        lambda self, u2, const=lambda q: q: const(self.turns) * u2 / 2)
    slip = _small(l_fig4_phase, PHASE_SMALL, tmp_path / "slip")
    assert _finding(slip.findings, "Fig. 4 (phase ranges)").agreement == "disagrees"


def test_phase_same_seed_same_numbers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(l_fig4_phase, "_figures", lambda *a, **k: None)
    settings = {**PHASE_SMALL, "components": 8, "length": 512, "short_length": 64}
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        _small(l_fig4_phase, settings, tmp_path / name, seed)
    first = (tmp_path / "a" / "fig4_components.csv").read_text()
    assert first == (tmp_path / "b" / "fig4_components.csv").read_text()
    assert first != (tmp_path / "c" / "fig4_components.csv").read_text()


# ---- the numerics on tiny inputs ----------------------------------------------------------------
def test_sign_changes_match_the_exact_count() -> None:
    rng = np.random.default_rng(1)
    lam = 0.999 * np.exp(1j * rng.uniform(0, 2 * np.pi, 50))
    k = np.arange(300)
    brute = ls.sign_changes((lam[None, :] ** k[:, None]).real)
    assert np.array_equal(brute, ls.predicted_sign_changes(lam, 300))
    res = ls.impulse_sign_changes(lam, [100, 300], keep=2, block=16)
    assert np.array_equal(res.counts[300], brute) and res.max_residual < 1e-12
    assert np.array_equal(res.counts[100], ls.predicted_sign_changes(lam, 100))
    assert np.allclose(res.traces[:, 0], (lam[0] ** k).real, atol=1e-12)


@pytest.mark.parametrize("theta_max", [math.pi / 50, 1.0, math.pi, 4.0, 2 * math.pi])
def test_expected_sign_changes_against_quadrature(theta_max: float) -> None:
    length = 200
    theta = (np.arange(200_000) + 0.5) / 200_000 * theta_max  # midpoint rule over θ
    count = np.floor((length - 1) * np.minimum(theta, 2 * np.pi - theta) / np.pi + 0.5)
    assert ls.expected_sign_changes(theta_max, length) == pytest.approx(count.mean(), abs=2e-3)
    with pytest.raises(ValueError):
        ls.expected_sign_changes(7.0, length)


def test_spectrum_helpers() -> None:
    assert ls.expected_real_eigenvalues(1) == pytest.approx(1.0)
    assert ls.expected_real_eigenvalues(2) == pytest.approx(math.sqrt(2))
    assert ls.expected_real_eigenvalues(400) == pytest.approx(math.sqrt(800 / math.pi) + 0.5, abs=0.05)
    assert list(ls.area_cdf_r2(np.array([-1.0, 0.25, 0.5, 2.0]), 0.5, 1.0)) == [0.0, 0.0, 1 / 3, 1.0]
    z = ls.lemma2_spectrum(32, Fraction(1, 2), Fraction(9, 10), seed=5)
    rad, ang = ls.two_sample_ks(z, z)
    assert rad.statistic == 0 and ang.statistic == 0
    assert np.abs(z).min() >= 0.5 and np.abs(z).max() <= 0.9 + 1e-15
    spec = ls.glorot_spectrum(50, np.random.default_rng(0))
    assert spec.trace_residual < 10 and len(spec.eigenvalues) == 50
    lam = ls.phase_nodes(40, 5e-5, Fraction(1, 100), seed=2)
    assert np.allclose(np.abs(lam), math.exp(-5e-5), rtol=0, atol=1e-15)
    assert np.all((np.angle(lam) >= 0) & (np.angle(lam) <= math.pi / 50))
    assert ls.phase_law(Fraction(1)) is LEMMA6
