"""Issue 20, ``recmem condition`` and its helpers: the float64 column does not depend on how a
sweep runs, sizes beyond memory are refused before any work, stored points are reused only for
the same recmem and the same nodes-file content, both SQLite stores share one set-up (and the
umask's file mode), one exact mpf → Fraction conversion and one float Vandermonde builder.
"""

from __future__ import annotations

import inspect
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from test_condition_cli import condition, error_line, fake, fake_dir, logged, read_csv

from recmem.checks.sweep_store import STORE_NAME

__all__ = ["fake", "fake_dir"]  # fixtures used by name below

ROOT = Path(__file__).resolve().parents[1]


# -- item 1: the float64 column is the same serial, with --jobs 2 (and on a cluster) -----------------

def test_float64_column_is_byte_identical_serial_and_jobs_2_real_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's float64 κ of an ill-conditioned V depends on the BLAS thread count (ring N = 128:
    8.1941024e10 with one thread, 8.1940983e10 with two). The serial run here is given two BLAS
    threads, as on any machine with two cores or more; the --jobs workers have one each. The
    exports (all but the timing column) must be the same bytes."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    monkeypatch.delenv("RECMEM_CONDITION_ENGINE", raising=False)
    sweep = ["--nodes", "ring:0.9:1", "--nodes", "real-uniform:-1:1", "--rows", "64,128,256",
             "--seeds", "2", "--backend", "float64", "--quiet"]
    serial, parallel = tmp_path / "serial.csv", tmp_path / "jobs2.csv"
    with threadpoolctl.threadpool_limits(limits=2):
        code, _, err = condition(capsys, *sweep, "--out", str(tmp_path / "a"), "--csv", str(serial))
    assert code == 0, err
    code, _, err = condition(capsys, *sweep, "--out", str(tmp_path / "b"), "--csv", str(parallel),
                             "--jobs", "2")
    assert code == 0, err

    def timeless(path: Path) -> str:
        lines = path.read_text().splitlines()
        at = lines[0].split(",").index("seconds")
        return "\n".join(",".join(c for i, c in enumerate(line.split(",")) if i != at)
                         for line in lines)

    rows = read_csv(serial)
    assert len(rows) == 12 and {r["rows"] for r in rows} == {"64", "128", "256"}
    assert all(r["float64_blas"].endswith("1 thread") for r in rows)
    assert timeless(parallel) == timeless(serial)


def test_the_engine_pins_blas_threads_and_says_so() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from recmem.numerics.condition import Point, compute

    point = Point("ring:9/10:1", 128, 128, 1, None, "2", "kappa", backend="float64")
    with threadpoolctl.threadpool_limits(limits=1):
        one = compute(point)
    with threadpoolctl.threadpool_limits(limits=2):
        two = compute(point)
        # the limit the caller set is back after the point
        blas = [m for m in threadpoolctl.threadpool_info() if m["user_api"] == "blas"]
        assert all(m["num_threads"] == min(2, os.cpu_count() or 1) for m in blas)
    assert one["float64"] == two["float64"] and one["float64_blas"] == two["float64_blas"]


# -- item 2: sizes beyond memory, the hint, the resume fingerprint ----------------------------------

@pytest.mark.parametrize(("args", "expect"), [
    (["--rows", "100000"], "N = 100000 would need about 1.92 TB of memory"),
    (["--rows", "99999999999999999999"], "would need more memory than any computer has"),
    (["--rows", "8", "--cols", "99999999999"], "L = 99999999999 would need about"),
    (["--rows", "8,5000"], "N = 5000 would need about 4.8 GB of memory"),
])
def test_sizes_beyond_memory_are_refused_before_any_work_real_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], expect: str) -> None:
    """Today: --rows 100000 is a MemoryError traceback after the store was created, and
    --rows 99999999999999999999 runs away."""
    monkeypatch.delenv("RECMEM_CONDITION_ENGINE", raising=False)
    monkeypatch.chdir(tmp_path)
    code, _, err = condition(capsys, "--nodes", "ring:0.9:1", *args)
    line = error_line(code, err)
    assert expect in line and "under about 4 GB" in line
    if "--cols" not in args:
        assert "N ≤ 4564 fits" in line
    assert not (tmp_path / "recmem-condition").exists()  # nothing created


def test_a_point_short_of_its_digits_at_automatic_precision_names_what_helps(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Today the hint says "raise --precision (or leave it automatic)" when it is automatic."""
    monkeypatch.setenv("FAKE_UNCERTIFIED_N", "4")
    code, out, _ = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4", "--digits", "5",
                             "--out", str(tmp_path / "a"))
    text = " ".join(out.split())
    assert code == 1
    assert "try --backend dense (N ≤ 256), ask fewer --digits (below 5), or a smaller N" in text
    assert "raise --precision" not in text
    code, out, _ = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4", "--digits", "5",
                             "--precision", "128", "--out", str(tmp_path / "b"))
    text = " ".join(out.split())
    assert code == 1 and "raise --precision (above 128 bits) or leave it automatic" in text


def test_a_changed_nodes_file_or_another_recmem_recomputes_stored_points(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Today a file: family is keyed by its name: after the file changes, the stored points of
    its old content answer the same command; and a store of another recmem is trusted."""
    log = tmp_path / "log"
    monkeypatch.setenv("FAKE_LOG", str(log))
    nodes = tmp_path / "n.txt"
    nodes.write_text("0.5\n0.25\n")
    sweep = ["--nodes", f"file:{nodes}", "--rows", "2", "--out", str(tmp_path / "s"),
             "--csv", str(tmp_path / "a.csv")]
    assert condition(capsys, *sweep)[0] == 0
    first = read_csv(tmp_path / "a.csv")[0]
    assert len(logged(log)) == 1 and len(first["nodes_sha256"]) == 64 and first["recmem"]
    code, _, err = condition(capsys, *sweep)  # the same content: reused
    assert code == 0 and "1 of 1 points already done" in err and len(logged(log)) == 1
    nodes.write_text("0.5\n0.75\n")  # same name, other content
    code, _, err = condition(capsys, *sweep)
    assert code == 0 and len(logged(log)) == 2, err
    assert "another content of their nodes file" in err
    assert read_csv(tmp_path / "a.csv")[0]["nodes_sha256"] != first["nodes_sha256"]
    monkeypatch.setattr("recmem.checks.cli._version", lambda: "0.0.0-other")
    code, _, err = condition(capsys, *sweep)
    assert code == 0 and len(logged(log)) == 3, err
    assert read_csv(tmp_path / "a.csv")[0]["recmem"] == "0.0.0-other"


# -- item 3: one SQLite set-up for both stores ------------------------------------------------------

@pytest.fixture
def umask_002() -> Iterator[None]:
    old = os.umask(0o002)
    try:
        yield
    finally:
        os.umask(old)


def test_both_stores_are_opened_by_the_one_sqlite_set_up(tmp_path: Path, umask_002: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Today each store sets itself up (SQLite's default file mode 0644 under any umask, WAL or
    not, synchronous or not); the files recmem writes follow the umask (0664 here)."""
    from recmem.checks import sqlite_db, store, sweep_store
    from recmem.checks.html import sweep_view

    for module in (store, sweep_store, sweep_view):
        assert "sqlite3.connect" not in inspect.getsource(module)
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    with store._connect(create=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == sqlite_db.BUSY_TIMEOUT_S * 1000
        with sqlite_db.transaction(conn):
            conn.execute("INSERT INTO claim_runs (claim_id, verdict, stored_at, run, result) "
                         "VALUES ('X', 'PROVED', 'now', '{}', '{}')")
        assert (store.path().stat().st_mode & 0o777) == 0o664
    with sweep_store.SweepStore(tmp_path / "sweep") as s:
        c = s._conn
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert c.execute("PRAGMA synchronous").fetchone()[0] == 2
        for suffix in ("", "-wal", "-shm"):
            assert (Path(f"{s.path}{suffix}").stat().st_mode & 0o777) == 0o664, suffix
    assert store.latest("X") is not None  # read back through a read-only connection


def test_the_default_out_folder_is_ignored_by_git() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "check-ignore", "-q", f"recmem-condition/{STORE_NAME}"],
                          cwd=ROOT, check=False)
    assert done.returncode == 0


# -- item 4: one exact mpf → Fraction, one float Vandermonde builder --------------------------------

def _private(value: str, bits: int) -> mpmath.mpf:
    ctx = mpmath.MPContext()
    ctx.prec = bits
    return ctx.mpf(value)


@pytest.mark.parametrize(("x", "exact"), [
    (mpmath.mpf("0.375"), Fraction(3, 8)),
    (mpmath.mpf("-0.375"), Fraction(-3, 8)),
    (mpmath.mpf(-3), Fraction(-3)),
    (mpmath.mpf(0), Fraction(0)),
    (mpmath.mpf(2) ** -1100, Fraction(1, 2**1100)),  # below float's subnormals, exact
    (-mpmath.mpf(2) ** -1100, -Fraction(1, 2**1100)),
    (mpmath.mpf(5e-324), Fraction(5e-324)),  # float's smallest subnormal
    (-mpmath.mpf(2) ** 2000 * 3, -3 * Fraction(2) ** 2000),
    (_private("1", 200) / 3, None),  # an mpf of a private 200-bit context: every bit kept
])
def test_the_one_exact_mpf_to_fraction_keeps_sign_and_every_bit(x: mpmath.mpf,
                                                                 exact: Fraction | None) -> None:
    """Today ``_studies.to_fraction`` drops the sign (−3/8 → 3/8) and rounds a private context's
    mpf to 53 bits."""
    from recmem.checks.claims.paper_o import _studies
    from recmem.numerics import condition
    from recmem.numerics.certified import mpf_to_fraction
    from recmem.theory.vandermonde_bounds import _mp_fraction

    got = mpf_to_fraction(x)
    if exact is None:  # 1/3 at 200 bits: within 2^-200 of 1/3, not within 2^-53
        assert abs(got - Fraction(1, 3)) < Fraction(1, 2**199) and got != Fraction(1, 3)
    else:
        assert got == exact
    assert _studies.to_fraction(x) == got and condition._q(x) == got and _mp_fraction(x) == got


@pytest.mark.parametrize("x", [mpmath.inf, -mpmath.inf, mpmath.nan])
def test_the_one_exact_mpf_to_fraction_refuses_inf_and_nan(x: mpmath.mpf) -> None:
    """Today ``_studies.to_fraction`` maps ±inf and nan to 0."""
    from recmem.checks.claims.paper_o import _studies
    from recmem.numerics.certified import mpf_to_fraction

    for convert in (mpf_to_fraction, _studies.to_fraction):
        with pytest.raises(ValueError, match="not a finite number"):
            convert(x)


def test_one_float_vandermonde_builder() -> None:
    """Today the numpy backend builds V by its own loop (other bits than np.vander's products,
    used by the condition engine, the enclosure and the recovery study)."""
    from recmem.numerics import nodes as nd
    from recmem.numerics.numpy_backend import NumpyBackend, vander
    from recmem.numerics.vandermonde_enclosure import vandermonde_enclosure

    rng = np.random.default_rng(0)
    lam = rng.standard_normal(40) + 1j * rng.standard_normal(40)
    for cols in (0, 1, 2, 41):
        v = vander(lam, cols)
        assert v.shape == (40, cols) and v.dtype == np.complex128
        assert np.array_equal(v, np.vander(lam, cols))  # the same products, bit for bit
    assert vander(lam.astype(np.complex64), 5, np.complex64).dtype == np.complex64
    from recmem.numerics.backend import make_backend

    for spec in ("numpy", "numpy:float32"):
        b = make_backend(spec)
        assert isinstance(b, NumpyBackend)
        got = b.vandermonde(lam.astype(b.cdtype), 7)
        assert got.dtype == b.cdtype and np.array_equal(got, vander(lam, 7, b.cdtype))
    ring = nd.ring(24, Fraction(9, 10), Fraction(1), 1)
    assert np.array_equal(vandermonde_enclosure(ring, 24).mid, vander(ring.complex128(), 24))
    # no other float builder in recmem's code
    for folder in ("numerics", "checks"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name != "numpy_backend.py":
                assert "np.vander(" not in path.read_text(), path


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


@pytest.mark.parametrize("name", ["plain", "what?", "a#b", "50% done"])
def test_read_only_opens_the_named_file_and_can_leave_no_files(tmp_path: Path, name: str) -> None:
    """A read-only connection opens the database at exactly that path (characters that end or
    escape a URI's path included), changes nothing, and with ``leave_no_files`` creates no
    -wal/-shm beside a database whose last writer closed; while they exist it reads through
    them (a running sweep's committed rows)."""
    from recmem.checks import sqlite_db

    folder = tmp_path / name
    folder.mkdir()
    db = folder / "x.sqlite"
    writer = sqlite_db.connect(db)
    writer.execute("CREATE TABLE t (v INTEGER)")
    writer.execute("INSERT INTO t VALUES (1)")
    writer.close()
    assert sorted(p.name for p in folder.iterdir()) == ["x.sqlite"]
    reader = sqlite_db.connect(db, read_only=True, leave_no_files=True)
    assert reader.execute("SELECT v FROM t").fetchall() == [(1,)]
    reader.close()
    assert sorted(p.name for p in folder.iterdir()) == ["x.sqlite"]
    writer = sqlite_db.connect(db)  # a writer still open: its -wal holds the row
    writer.execute("INSERT INTO t VALUES (2)")
    reader = sqlite_db.connect(db, read_only=True, leave_no_files=True)
    assert sorted(reader.execute("SELECT v FROM t").fetchall()) == [(1,), (2,)]
    reader.close()
    writer.close()
    with pytest.raises(sqlite3.OperationalError):
        sqlite_db.connect(db, read_only=True).execute("INSERT INTO t VALUES (3)")
