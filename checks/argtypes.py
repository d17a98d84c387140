"""argparse types shared by every ``recmem`` command: each refuses a bad value while the arguments
are parsed, so bad input is a one-line usage error (exit 2) before any work starts."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Seeds are below 2^32: every generator recmem seeds (random, numpy, torch) takes them, and the
# offsets added to them (draws, replicates, shards) stay far below torch's 2^64.
MAX_SEED = 2**32 - 1
# Examples of one counterexample search (``verify --examples``, ``fuzz --max-examples``).
MAX_EXAMPLES = 10**6


def brief(value: Any, width: int = 40, quote: bool = True) -> str:
    """``value`` for a one-line message: its repr for strings (``quote``), its text otherwise,
    with long digit strings (1e400 read exactly, 99999999999999999999…) cut to their length in
    digits, and at most ``width`` characters."""
    text = repr(value) if isinstance(value, str) and quote else str(value)
    text = re.sub(r"\d{25,}", lambda m: f"{m.group()[:6]}…({len(m.group())} digits)", text)
    return text if len(text) <= width else text[:width - 1] + "…"




def int_between(lo: int, hi: int | None = None, what: str = "an integer") -> Callable[[str], int]:
    """An integer in ``lo … hi`` (no upper limit when ``hi`` is None)."""
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {brief(text)}") from None
        if value < lo or (hi is not None and value > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {brief(value)}")
        return value
    convert.__name__ = "integer"
    return convert


def seed(text: str) -> int:
    """A seed: an integer 0 … 2^32 − 1 (what ``random.Random``, numpy's and torch's generators
    all take)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {brief(text)}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to {MAX_SEED} (2^32 − 1), "
                                         f"got {brief(value)}")
    return value


def finite(what: str, check: Callable[[float], bool], expect: str) -> Callable[[str], float]:
    """A finite float satisfying ``check`` (``expect`` says which, in the error)."""
    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {brief(text)}") from None
        if not (math.isfinite(value) and check(value)):
            raise argparse.ArgumentTypeError(f"must be {expect}, got {brief(text, quote=False)}")
        return value
    convert.__name__ = what
    return convert


def output_path(option: str, formats: Sequence[str] | None = None) -> Callable[[str], Path]:
    """An output file (``recmem.checks.outputs.check_output_path``), optionally with one of the
    file ``formats`` (suffixes without the dot)."""
    def convert(text: str) -> Path:
        from recmem.checks.outputs import OutputPathError, check_output_path

        try:
            path = check_output_path(text, option)
        except OutputPathError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{option} ")) from None
        if formats is not None and path.suffix and path.suffix[1:].lower() not in formats:
            raise argparse.ArgumentTypeError(f"{text}: unknown format {path.suffix!r} "
                                             f"(expected one of {', '.join(formats)})")
        return path
    convert.__name__ = "path"
    return convert
