"""argparse types shared by every ``recmem`` command: each refuses a bad value while the arguments
are parsed, so bad input is a one-line usage error (exit 2) before any work starts."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from pathlib import Path


def int_between(lo: int, hi: int | None = None, what: str = "an integer") -> Callable[[str], int]:
    """An integer in ``lo … hi`` (no upper limit when ``hi`` is None)."""
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {value}")
        return value
    convert.__name__ = "integer"
    return convert


def seed(text: str) -> int:
    """A seed: a non-negative integer (what ``random.Random`` and numpy's generators share)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def finite(what: str, check: Callable[[float], bool], expect: str) -> Callable[[str], float]:
    """A finite float satisfying ``check`` (``expect`` says which, in the error)."""
    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not (math.isfinite(value) and check(value)):
            raise argparse.ArgumentTypeError(f"must be {expect}, got {text}")
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
