"""``python -m recmem.checks``: the recmem command line."""

from recmem.checks.cli import entry

entry()
