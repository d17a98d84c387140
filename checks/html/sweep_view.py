"""A condition sweep's folder as a Python object: ``load_sweep(FOLDER)`` reads the store
``condition.sqlite`` that ``recmem condition --out FOLDER`` writes, read-only, and the object shows
itself in a notebook (``_repr_html_``) as the site's sweep page does (template
``sweep_body.html``): the recorded invocations, the table of points with their certified brackets,
the plot and the overlay bounds.

Every cell is formatted by the functions that write the command's own table
(:mod:`recmem.checks.condition_cli`), so the page and the terminal say the same; the plot is the
one of ``--plot`` (:func:`recmem.checks.condition_plot.write_plot`), drawn from the stored
points. Nothing here writes to the sweep's folder.
"""

from __future__ import annotations

import base64
import json
import os
import shlex
import sqlite3
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recmem.checks.condition_cli import (
    RIGHT_ALIGNED,
    SIGMA_COLUMNS,
    TABLE_COLUMNS,
    certification,
    inconsistent,
    point_cells,
    symbol,
    violations,
    where,
)
from recmem.checks.sweep_store import (
    AUTO_PRECISION,
    FORMAT,
    KEY_COLUMNS,
    STORE_NAME,
    VERSION,
    PointKey,
    csv_text,
    record,
)

if TYPE_CHECKING:
    import jinja2

# what the plot draws, said under it (condition_plot's legend names each line)
PLOT_NOTE = ("log₁₀ of the value against N: the certified bracket as error bars (one point per "
             "seed), a solid line through the median over seeds, numpy's float64 value dashed, "
             "each overlay bound that applies dotted (▼ an upper bound, ▲ a lower bound), a "
             "violated bound marked with a red ×.")
NO_MATPLOTLIB = "No plot: drawing it needs matplotlib (pip install 'recmem[plot]')."


@dataclass(frozen=True)
class Invocation:
    """One recorded run of ``recmem condition`` on the folder (the store's ``sweeps`` table)."""

    id: int
    started: str
    finished: str | None
    status: str  # complete, interrupted, refused, or running (a process that was killed)
    command: str  # the canonical command line, shell-quoted
    settings: dict[str, Any]

    def settings_text(self) -> list[tuple[str, str]]:
        """The settings as (name, text) pairs in stored order: strings as they are, other values
        as JSON (``[null]`` is an automatic precision)."""
        return [(k, text(v)) for k, v in self.settings.items()]


@dataclass(frozen=True)
class TableRow:
    """One point as the results table shows it: the cells under :attr:`Section.columns`, the
    state of its ``certified`` cell (``yes``, ``no``, ``inconsistent``, ``float64``), whether an
    overlay bound is violated, and the engine's reason for an inconsistency."""

    cells: tuple[str, ...]
    state: str
    violated: bool
    inconsistency: str | None


@dataclass(frozen=True)
class OverlayRow:
    """One proved bound that applies to a point (the engine's ``overlays``), as stored."""

    point: str
    name: str
    side: str
    bound: str
    holds: bool | None
    source: str


@dataclass(frozen=True)
class Section:
    """The stored points of one quantity, norm, digits and route: what one invocation of the
    command tabulates and plots together."""

    quantity: str
    norm: str
    digits: int
    backend: str
    keys: tuple[PointKey, ...]
    rows: dict[PointKey, dict[str, Any]] = field(compare=False)
    random: dict[str, bool] = field(compare=False)

    @property
    def symbol(self) -> str:
        """How the value is written (κ₂, …), as in the command's table."""
        return symbol(self.quantity, self.norm)

    @property
    def title(self) -> str:
        """The table's title, as the command prints it."""
        return (f"{self.symbol} of V (N×L)"
                + (f", {self.digits} digits" if self.quantity == "kappa" else "")
                + ("" if self.backend == "auto" else f", backend {self.backend}"))

    def sigmas(self) -> list[str]:
        """The σ brackets the rows carry (``--quantity sigma``)."""
        return [s for s in SIGMA_COLUMNS if any(f"{s}_lower" in r for r in self.rows.values())]

    @property
    def columns(self) -> tuple[str, ...]:
        """The table's header: the command's columns, then the σ brackets present."""
        return (*TABLE_COLUMNS, *(SIGMA_COLUMNS[s] for s in self.sigmas()))

    @property
    def numeric(self) -> tuple[bool, ...]:
        """Per column, whether the command aligns it right (numbers)."""
        return tuple(c in RIGHT_ALIGNED for c in self.columns)

    def table(self) -> list[TableRow]:
        """The table's rows, cell for cell as ``recmem condition`` prints them."""
        sigmas = self.sigmas()
        out = []
        for key in self.keys:
            row = self.rows[key]
            state = certification(key, row)
            cells = tuple(point_cells(key, row, self.random.get(key.family, True), sigmas))
            out.append(TableRow(cells, state, bool(violations(row)),
                                str(row.get("inconsistency")) if inconsistent(row) else None))
        return out

    def overlays(self) -> list[OverlayRow]:
        """Every overlay bound of every point, in the table's order."""
        out = []
        for key in self.keys:
            for o in self.rows[key].get("overlays") or []:
                holds = o.get("holds")
                out.append(OverlayRow(where(key, self.random.get(key.family)),
                                      str(o.get("name", "")), str(o.get("side", "")),
                                      str(o.get("bound", "")),
                                      holds if isinstance(holds, bool) else None,
                                      str(o.get("source", ""))))
        return out

    def checks(self) -> list[tuple[str, str, str]]:
        """The run-time checks of each point that has them (docs/CONDITION.md): (point, float64
        against the certified bracket, the second route against the first, with its method)."""
        out = []
        for key in self.keys:
            row = self.rows[key]
            if "float64_check" in row or "route_check" in row:
                method = row.get("route_check_method")
                out.append((where(key, self.random.get(key.family)),
                            str(row.get("float64_check", "—")),
                            str(row.get("route_check", "—")) + (f" ({method})" if method else "")))
        return out

    def counts(self) -> dict[str, int]:
        """Points by the state of their certified cell, and ``violated``: points with a violated
        bound."""
        c = Counter(r.state for r in self.table())
        c["violated"] = sum(1 for k in self.keys if violations(self.rows[k]))
        return dict(c)

    def summary(self) -> str:
        """One line: how many points, how many certified, what went wrong (the command's
        summary line, without the store's path)."""
        c = self.counts()
        n = len(self.keys)
        if self.backend == "float64":
            done = "float64 only: values, not certified"
        else:
            done = f"{c.get('yes', 0)} certified to {self.digits} digits"
        return (f"{self.symbol}: {n} point(s), {done}"
                + (f", {c['no']} not certified" if c.get("no") else "")
                + (f", {c['violated']} bound(s) VIOLATED" if c.get("violated") else "")
                + (f", {c['inconsistent']} INCONSISTENT" if c.get("inconsistent") else ""))

    def records(self) -> list[dict[str, Any]]:
        """The points as ``--csv``/``--json`` export them (:func:`sweep_store.record`)."""
        return [record(k, self.rows[k]) for k in self.keys]

    def plot_png(self) -> bytes | None:
        """The ``--plot`` picture of these points as PNG bytes; None without matplotlib."""
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            return None
        from recmem.checks.condition_plot import write_plot

        with tempfile.TemporaryDirectory(prefix="recmem-plot-") as tmp:
            path = Path(tmp) / "plot.png"
            write_plot(self.records(), path, self.symbol)
            return path.read_bytes()


@dataclass(frozen=True)
class ConditionSweep:
    """The content of a condition sweep's folder, read once: the recorded invocations and every
    stored point. ``sections`` groups the points by quantity, norm, digits and route."""

    folder: Path
    invocations: tuple[Invocation, ...]
    rows: dict[PointKey, dict[str, Any]] = field(compare=False)
    random: dict[str, bool] = field(compare=False)

    @property
    def name(self) -> str:
        """The folder's name."""
        return self.folder.name or str(self.folder)

    @property
    def families(self) -> list[str]:
        """The node families of the stored points, in order."""
        return sorted({k.family for k in self.rows})

    def sections(self) -> list[Section]:
        """The points grouped as one invocation tabulates them, each sorted as the exports."""
        groups: dict[tuple[str, str, int, str], list[PointKey]] = defaultdict(list)
        for key in sorted(self.rows, key=PointKey.sort_key):
            groups[(key.quantity, key.norm, key.digits, key.backend)].append(key)
        return [Section(q, n, d, b, tuple(keys), {k: self.rows[k] for k in keys}, self.random)
                for (q, n, d, b), keys in sorted(groups.items())]

    def records(self) -> list[dict[str, Any]]:
        """Every stored point as ``--csv``/``--json`` export them, sorted as they are."""
        return [r for s in self.sections() for r in s.records()]

    def csv(self) -> str:
        """Every stored point as ``--csv`` writes them (:func:`sweep_store.csv_text`)."""
        return csv_text(self.records())

    @property
    def status(self) -> str:
        """One word for the folder, worst first: ``inconsistent`` (a bug of recmem: exit 3),
        ``violated`` (a proved bound contradicted), ``not certified``, ``interrupted`` (the last
        invocation did not complete), ``float64 only``, ``certified``; ``empty`` without
        points."""
        if not self.rows:
            return "empty"
        total: Counter[str] = Counter()
        for s in self.sections():
            total.update(s.counts())
        last = self.invocations[-1].status if self.invocations else "complete"
        for word, hit in (("inconsistent", total["inconsistent"]), ("violated", total["violated"]),
                          ("not certified", total["no"]), ("interrupted", last != "complete"),
                          ("float64 only", not total["yes"])):
            if hit:
                return word
        return "certified"

    def summary(self) -> str:
        """One line per section, joined: what the site's index lists."""
        return "; ".join(s.summary() for s in self.sections()) or "no stored point"

    def html(self, env: jinja2.Environment | None = None) -> str:
        """The sweep as an HTML fragment (template ``sweep_body.html``) for a notebook, with the
        notebook's style sheet and the plot embedded as a ``data:`` PNG; ``env`` defaults to the
        site's environment (:func:`recmem.checks.html.render.environment`)."""
        from markupsafe import Markup

        from recmem.checks.html.notebook import style

        if env is None:
            from recmem.checks.html.render import environment

            env = environment()
        panels = []
        for s in self.sections():
            png = s.plot_png()
            panels.append(Panel(s, None if png is None else
                                "data:image/png;base64," + base64.b64encode(png).decode("ascii"),
                                None if png is not None else NO_MATPLOTLIB))
        return env.get_template("sweep_body.html").render(sweep=self, panels=panels,
                                                          plot_note=PLOT_NOTE, css=Markup(style()))

    def _repr_html_(self) -> str:
        """The notebook display: :meth:`html`."""
        return self.html()


@dataclass(frozen=True)
class Panel:
    """A section with its picture for a template: ``plot_src`` (a file name next to the page or
    a ``data:`` URI) or ``plot_missing`` (why there is none)."""

    section: Section
    plot_src: str | None
    plot_missing: str | None


def text(value: Any) -> str:
    """A stored value as shown: a string as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _error(folder: Path, why: str) -> Exception:
    from recmem.checks.html.included import IncludeError

    return IncludeError(f"{folder}: {why}")


def _random_families(specs: set[str]) -> dict[str, bool]:
    """Which families draw their nodes from the seed (the table shows "—" as the seed of the
    others). A ``file:`` family is deterministic and its file is never opened here; a spec this
    recmem does not parse counts as random, as in the command's table."""
    from recmem.numerics.node_families import parse_family

    out = {}
    for spec in specs:
        if spec.startswith("file:"):
            out[spec] = False
            continue
        try:
            out[spec] = bool(parse_family(spec).random)
        except ValueError:
            out[spec] = True
    return out


def load_sweep(folder: str | os.PathLike[str]) -> ConditionSweep:
    """Read the sweep in ``folder`` (its ``condition.sqlite``) without changing anything.
    :class:`recmem.checks.html.included.IncludeError`, one line naming the folder, when it is
    missing, not a folder, holds no store, or the store cannot be read as a condition store
    (also when the store is a link to a file outside the folder)."""
    from recmem.checks.html.included import IncludeError

    given = Path(folder)
    if not given.exists():
        raise _error(given, "no such folder")
    if not given.is_dir():
        raise _error(given, "not a folder")
    root = given.resolve()
    path = given / STORE_NAME
    if not path.exists():
        raise _error(given, f"no {STORE_NAME}: not a condition sweep's folder")
    if not path.resolve().is_relative_to(root) or not path.resolve().is_file():
        raise _error(given, f"{STORE_NAME} is not a file inside the folder; refused")
    from recmem.checks.sqlite_db import connect

    try:
        conn = connect(path, read_only=True, leave_no_files=True)
    except sqlite3.Error as exc:
        raise _error(given, f"cannot open {STORE_NAME} ({exc})") from None
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT or meta.get("version") != str(VERSION):
            raise _error(given, f"{STORE_NAME} is not a recmem condition store of version "
                                f"{VERSION} (format {meta.get('format')!r}, version "
                                f"{meta.get('version')!r})")
        invocations = tuple(
            Invocation(int(r[0]), str(r[1]), r[2], str(r[3]), shlex.join(json.loads(r[4])),
                       dict(json.loads(r[5])))
            for r in conn.execute("SELECT id, started, finished, status, argv, settings "
                                  "FROM sweeps ORDER BY id"))
        rows: dict[PointKey, dict[str, Any]] = {}
        for r in conn.execute(f"SELECT {', '.join(KEY_COLUMNS)}, row FROM points"):
            cols = dict(zip(KEY_COLUMNS, r[:-1], strict=True))
            precision = cols.pop("precision_requested")
            key = PointKey(**cols, precision=None if precision == AUTO_PRECISION else precision)
            row = json.loads(r[-1])
            if not isinstance(row, dict):
                raise ValueError(f"the point {where(key)} is not a JSON object")
            rows[key] = row
    except IncludeError:
        raise
    except sqlite3.DatabaseError as exc:
        raise _error(given, f"{STORE_NAME} is not a readable recmem condition store "
                            f"({exc})") from None
    except (ValueError, TypeError) as exc:  # malformed JSON in a row or a sweep
        raise _error(given, f"{STORE_NAME} holds a malformed record ({exc})") from None
    finally:
        conn.close()
    return ConditionSweep(given, invocations, rows, _random_families({k.family for k in rows}))


__all__ = ["ConditionSweep", "Invocation", "OverlayRow", "Panel", "Section", "TableRow",
           "load_sweep", "text"]
