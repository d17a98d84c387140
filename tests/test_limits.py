"""Bounded work and clean errors for bad input (issue 20): every parameter that sets the size of
work has an upper limit, checked before any allocation, with an estimate of the memory in the
refusal; extreme or malformed input is one line on stderr (exit 2), without a traceback, numpy's
warnings or Python's own wording; internal errors are not disguised as bad usage."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_helpers import one_error_line, run_main

from recmem.checks.claim import MAX_ENTRIES, Param, parse_int
from recmem.checks.limits import MEMORY_BUDGET, grows, memory_estimate, over_budget

# a refusal must come at once: a process still running after this long has started the work
PROMPT_S = 20
# Python's and numpy's own words, which a message to the user must not carry
INTERNALS = ("invalid literal", "int() with base", "too large for a float", "Exceeds the limit",
             "RuntimeWarning", "Traceback", "zero-size array", "np.str_", "is a directory")


def _run_prompt(*args: str, cwd: Path | None = None, home: Path) -> subprocess.CompletedProcess[str]:
    """``recmem ARGS`` in a fresh process that must finish within PROMPT_S seconds (a runaway run
    fails the test with TimeoutExpired instead of hanging it)."""
    return subprocess.run([sys.executable, "-m", "recmem.checks", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=PROMPT_S,
                          env={**os.environ, "RECMEM_HOME": str(home)})


def _clean_refusal(out: subprocess.CompletedProcess[str]) -> str:
    line = one_error_line(out)
    for word in INTERNALS:
        assert word not in out.stderr, out.stderr
    return line


# ---- item 1: limits on every size-setting parameter -------------------------------------------

def _size_params() -> list[tuple[str, Param]]:
    from recmem.checks.registry import all_claims

    return [(c.id, p) for c in all_claims().values() for p in c.params]


def test_every_integer_parameter_has_a_limit_that_its_default_and_budget_respect() -> None:
    from recmem.checks.registry import all_claims
    from recmem.checks.runner import resolve_params

    missing, over = [], []
    for cid, p in _size_params():
        if p.parse in (int, parse_int) and p.max is None:
            missing.append(f"{cid}:{p.name}")
        p.validate(p.default)  # every default passes its own limits
        if p.cost is not None and p.max is not None:
            need = memory_estimate(p.cost, p.max)
            if need > MEMORY_BUDGET:
                over.append(f"{cid}:{p.name} needs {need:.3g} bytes at its limit {p.max}")
        if isinstance(p.default, tuple | list):
            assert len(p.default) <= MAX_ENTRIES
    assert not missing, f"integer parameters without an upper limit: {missing}"
    assert not over, over
    for claim in all_claims().values():  # the joint estimates admit the defaults too
        resolve_params([claim], {})


@pytest.mark.parametrize(("claim", "param", "value"), [
    ("O.det", "N", "100000"),  # ran away before (memory growing ~110 MB/s)
    ("O.det", "n_max_symbolic", "12"),  # Leibniz: 12! terms
    ("O.ring-conditioning", "Ns", "16,99999999999999999999"),
    ("W.lyapunov", "N", "5000"),
])
def test_a_size_over_its_limit_is_refused_at_once_with_a_memory_estimate(
        tmp_path: Path, claim: str, param: str, value: str) -> None:
    line = _clean_refusal(_run_prompt("verify", claim, "--param", f"{param}={value}", "--quiet",
                                      home=tmp_path))
    assert f"parameter {param} must be at most" in line and "memory" in line, line
    assert len(line) < 300, line  # 20-digit values are shown whole, longer ones shortened


def test_sizes_that_multiply_are_bounded_together(capsys: Any) -> None:
    line = one_error_line(run_main(capsys, "verify", "O.universality", "--param", "L=4096",
                                   "--param", "trajectories=2048", "--param", "N=1024"))
    assert "together would need" in line and "GB of memory" in line, line


def test_a_range_parameter_is_refused_before_the_range_is_built(tmp_path: Path) -> None:
    line = _clean_refusal(_run_prompt("verify", "W.stable-exp", "--param",
                                      "beta_exponents=0-99999999999", "--quiet", home=tmp_path))
    assert "range within 0-64" in line, line


def test_the_limit_message_names_both_estimates() -> None:
    p = Param("N", 4, "h", int, max=100, cost=grows(1e6, 2))
    with pytest.raises(ValueError, match=r"must be at most 100, got 101 \(N = 101 would need about "
                                         r"10\.2 GB of memory; the limit keeps a run under about "
                                         r"10 GB\)"):
        p.convert("101")
    with pytest.raises(ValueError, match="more memory than any computer has"):
        p.convert("9" * 400)
    assert over_budget(MEMORY_BUDGET, "x") is None
    assert over_budget(8e9, "a sweep") == ("a sweep would need about 8 GB of memory; the limit "
                                           "keeps a run under about 4 GB")


@pytest.mark.parametrize("args", [
    ["verify", "O.det", "--examples", "99999999999999999999"],
    ["verify", "O.det", "--jobs", "99999999999999999999"],  # a traceback (OverflowError) before
    ["verify", "O.det", "--seed", "99999999999999999999"],
    ["memory", "exp:1/2", "--seed", "99999999999999999999"],
    ["reproduce", "O-mnist", "--seed", "99999999999999999999"],
])
def test_huge_counts_and_seeds_are_usage_errors(capsys: Any, args: list[str]) -> None:
    one_error_line(run_main(capsys, *args))


# ---- item 2: one clean line for malformed and extreme input -----------------------------------

@pytest.mark.parametrize(("value", "expect"), [
    ("x", "expected an integer, got 'x'"),  # was: invalid literal for int() with base 10: 'x'
    ("9" * 5000, "5000 digits is far too large"),  # was: Exceeds the limit (4300 digits) …
    ("-5", "must be ≥ 1, got -5"),
    ("1.5", "expected an integer"),
])
def test_a_bad_integer_parameter_says_what_is_wrong(capsys: Any, value: str, expect: str) -> None:
    line = one_error_line(run_main(capsys, "verify", "O.det", "--param", f"N={value}"))
    assert expect in line and "int()" not in line and len(line) < 200, line


@pytest.mark.parametrize("value", ["1e400", "1" * 5000, "nan", "inf", "1/0"])
def test_a_bad_rational_parameter_is_one_short_line(capsys: Any, value: str) -> None:
    line = one_error_line(run_main(capsys, "verify", "O.det", "--param", f"r_min={value}"))
    assert len(line) < 200, line


def test_a_parameter_given_twice_with_different_values_is_refused(capsys: Any) -> None:
    line = one_error_line(run_main(capsys, "verify", "O.det", "--param", "N=3", "--param", "N=4"))
    assert "given twice" in line


def _rnn(path: Path, compressed: bool = False, **arrays: Any) -> str:
    full = {"W": np.array([[-1.0]]), "U": np.array([[1.0]]), "c": np.array([1.0]), **arrays}
    (np.savez_compressed if compressed else np.savez)(path, **full)
    return str(path)


@pytest.mark.parametrize(("arrays", "expect"), [
    ({"W": np.zeros((0, 0)), "U": np.zeros((0, 1)), "c": np.zeros(0)}, "at least one row"),
    ({"W": np.array([["a"]])}, "must hold real numbers"),  # was: … float: np.str_('a')
    ({"W": np.array([[-1 + 1j]])}, "complex"),  # was: the imaginary part dropped silently
    ({"W": np.array([[-1.0]], dtype=object)}, "Python objects"),
    ({"U": np.zeros((1, 0))}, "at least one column"),  # was: a zero-size reduction
])
def test_memory_refuses_a_malformed_rnn_in_one_line(capsys: Any, tmp_path: Path,
                                                     arrays: dict[str, Any], expect: str) -> None:
    line = one_error_line(run_main(capsys, "memory", _rnn(tmp_path / "w.npz", **arrays)))
    assert expect in line, line
    assert not any(word in line for word in INTERNALS), line


def test_memory_refuses_a_folder_and_an_archive_too_large_to_load(
        capsys: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks import memory_cli

    (tmp_path / "d.npz").mkdir()
    assert "is a folder" in one_error_line(run_main(capsys, "memory", str(tmp_path / "d.npz")))
    # a compressed archive of zeros: small on disk, large once loaded (the limit is lowered here
    # so that the test writes little)
    target = _rnn(tmp_path / "z.npz", compressed=True, W=-np.eye(300), U=np.zeros((300, 1)),
                  c=np.zeros(300))
    assert Path(target).stat().st_size < 100_000
    monkeypatch.setattr(memory_cli, "MAX_NPZ_BYTES", 500_000)
    line = one_error_line(run_main(capsys, "memory", target))
    assert "once uncompressed" in line and "at most 500 kB" in line, line


def test_memory_with_extreme_weights_prints_no_numpy_warning(tmp_path: Path) -> None:
    target = _rnn(tmp_path / "big.npz", W=np.array([[-1e300]]), U=np.array([[1e300]]),
                  c=np.array([1e300]))
    line = _clean_refusal(_run_prompt("memory", target, "--quiet", home=tmp_path))
    assert "cannot compute the memory" in line, line


def test_memory_with_a_huge_kernel_parameter_is_one_short_line(capsys: Any) -> None:
    line = one_error_line(run_main(capsys, "memory", "exp:1e400"))
    assert "401 digits" in line and len(line) < 200, line


# ---- item 3: internal errors are not usage errors ---------------------------------------------

def test_an_internal_error_of_the_memory_query_keeps_its_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks import memory_cli
    from recmem.numerics import memory

    def broken(*args: Any, **kw: Any) -> Any:
        raise KeyError("a bug in recmem")

    monkeypatch.setattr(memory, "memory_function", broken)
    with pytest.raises(KeyError, match="a bug in recmem"):
        memory_cli.query("exp:1/2")


def test_a_failing_user_module_is_still_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: Any) -> None:
    (tmp_path / "mytarget.py").write_text("def f(t, x):\n    raise KeyError('mine')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    line = one_error_line(run_main(capsys, "memory", "mytarget:f", "--quiet"))
    assert "KeyError" in line, line


def test_a_bug_in_a_parameter_parser_is_not_a_usage_error() -> None:
    def parser(text: str) -> int:
        raise TypeError("a bug")

    with pytest.raises(TypeError):
        Param("x", 1, "h", parser).convert("1")
