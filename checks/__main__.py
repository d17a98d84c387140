"""``python -m recmem.checks``: the recmem command line."""

from recmem.checks.cli import main

raise SystemExit(main())
