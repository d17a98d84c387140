"""Running an experiment at ci scale the way a user does (`recmem reproduce NAME --scale ci`), for
the tests of the papers' reproductions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def run_ci(out: Path, name: str, *extra: str) -> tuple[int, dict[str, Any]]:
    """Exit status and summary.json of `recmem reproduce NAME --scale ci --out OUT` on the CPU."""
    from recmem.checks.cli import main

    code = main(["reproduce", name, "--scale", "ci", "--out", str(out), "--quiet", "--device", "cpu",
                 *extra])
    return code, json.loads((out / "summary.json").read_text(encoding="utf-8"))
