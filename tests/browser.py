"""Headless Chromium for the tests: open a local HTML file, collect what went wrong, check links.

Generic (it knows nothing of recmem's pages). The browser is Debian's ``chromium`` (``.ci/run``
installs it where it can), driven by Playwright's Python API; Playwright's own browser downloads
are never used. Pages are opened from ``file://`` with the network cut off: a request to any other
scheme is recorded as a problem and aborted, so a page that would fetch something at view time
fails its test instead of hanging on DNS.

* :func:`browser_or_skip` launches the browser or skips the calling test(s) with the reason;
  :func:`close_browser` ends it.
* :func:`open_page` opens a file and returns a :class:`PageReport` that keeps collecting console
  errors and warnings, uncaught page errors, failed requests and network requests while the page
  stays open (so an interaction's errors are seen too).
* :func:`check_links` checks every relative reference of the page against the file system,
  fragments included.
* :func:`screenshot` keeps a PNG of the page.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import url2pathname

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, Request, WebSocket

__all__ = ["CHROMIUM_ARGS", "LinkReport", "PageReport", "browser_or_skip", "check_links",
           "chromium_path", "close_browser", "open_page", "screenshot"]

# No sandbox: CI runs as root in a container, where Chromium's sandbox cannot start. The rest keep
# the browser from reaching the network on its own (updates, sync, QUIC probes) and from a GPU.
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync")
# Schemes a page may load from without the network.
_LOCAL_SCHEMES = frozenset(("file", "data", "blob", "about"))
# Each launched browser's Playwright driver, to stop it with the browser.
_drivers: dict[int, Playwright] = {}


def chromium_path() -> str | None:
    """Debian's Chromium (``/usr/bin/chromium``), else ``chromium`` on the PATH; None: neither."""
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def browser_or_skip() -> Browser:
    """A launched headless Chromium; ``pytest.skip`` with the precise reason when there is no
    Chromium binary, Playwright cannot be imported, or the launch fails. End it with
    :func:`close_browser`."""
    executable = chromium_path()
    if executable is None:
        pytest.skip("no chromium binary (/usr/bin/chromium or chromium on the PATH): "
                    "`apt-get install chromium` (.ci/run does it where it may)")
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError as exc:
        pytest.skip(f"playwright is not importable: {exc}")
    driver = sync_playwright().start()
    try:
        browser = driver.chromium.launch(executable_path=executable, headless=True,
                                         args=list(CHROMIUM_ARGS), timeout=60_000)
    except Error as exc:
        driver.stop()
        pytest.skip(f"chromium ({executable}) failed to launch: {_launch_failure(str(exc))}")
    _drivers[id(browser)] = driver
    return browser


def _launch_failure(message: str) -> str:
    """One line from Playwright's launch error: its first line, the browser's last lines on
    stderr and how the process ended (the launch command line and call log left out)."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    # (the browser's stderr appears twice: in the browser logs and in the call log)
    stderr = list(dict.fromkeys(ln.split("[err]", 1)[1].strip() for ln in lines if "[err]" in ln))[-2:]
    ended = [ln.split("<", 1)[1].rstrip(">") for ln in lines if "<process did exit" in ln][-1:]
    return "; ".join(lines[:1] + stderr + ended)


def close_browser(browser: Browser) -> None:
    """Close a browser from :func:`browser_or_skip` and stop its Playwright driver."""
    try:
        browser.close()
    finally:
        driver = _drivers.pop(id(browser), None)
        if driver is not None:
            driver.stop()


@dataclass
class PageReport:
    """An open page and what went wrong in it so far (the lists grow while the page is open)."""

    path: Path
    url: str
    page: Page
    console: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    network_requests: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Every console error or warning, page error, failed request and network request, one
        line each (empty: the page is clean)."""
        return ([f"console {c}" for c in self.console]
                + [f"page error: {e}" for e in self.page_errors]
                + [f"failed request: {r}" for r in self.failed_requests]
                + [f"network request at view time: {u}" for u in self.network_requests])

    def close(self) -> None:
        """Close the page."""
        self.page.close()

    def __enter__(self) -> PageReport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _is_network(url: str) -> bool:
    return urlsplit(url).scheme.lower() not in _LOCAL_SCHEMES


def open_page(browser: Browser, path: str | os.PathLike[str], *,
              timeout_ms: float = 30_000) -> PageReport:
    """Open the local file ``path`` in a new page (``file://``, until its ``load`` event) and
    return its :class:`PageReport`; close it with :meth:`PageReport.close` (or ``with``)."""
    path = Path(path).resolve()
    page = browser.new_page()
    report = PageReport(path=path, url=path.as_uri(), page=page)

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            loc = msg.location
            where = f" ({loc['url']}:{loc.get('lineNumber', '?')})" if loc.get("url") else ""
            report.console.append(f"{msg.type}: {msg.text}{where}")

    def on_request(request: Request) -> None:
        if _is_network(request.url):
            report.network_requests.append(request.url)

    def on_failed(request: Request) -> None:
        report.failed_requests.append(f"{request.url}: {request.failure}")

    def on_websocket(ws: WebSocket) -> None:
        report.network_requests.append(ws.url)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: report.page_errors.append(str(exc)))
    page.on("request", on_request)
    page.on("requestfailed", on_failed)
    page.on("websocket", on_websocket)
    # Recorded by on_request above; aborted here so that nothing leaves the machine.
    page.route(_is_network, lambda route: route.abort())
    page.set_default_timeout(timeout_ms)
    page.goto(report.url, wait_until="load", timeout=timeout_ms)
    return report


@dataclass
class LinkReport:
    """The references of a page: how many were checked, the broken ones, the external ones."""

    checked: int
    problems: list[str]
    external: list[str]


# Every attribute of an element that refers to another file (or to a fragment), as written.
_REFERENCES_JS = """() => {
  const out = [];
  const take = (selector, attrs) => {
    for (const el of document.querySelectorAll(selector))
      for (const a of attrs) {
        const v = el.getAttribute(a);
        if (v !== null) out.push([el.localName, a, v]);
      }
  };
  take('a, area', ['href', 'xlink:href']);
  take('img, script, iframe, source, audio, video, track, embed, image, use', ['src', 'href', 'xlink:href']);
  take('link', ['href']);
  take('object', ['data']);
  return out;
}"""


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is not None and (name == "id" or (name == "name" and tag == "a")):
                self.ids.add(value)


@lru_cache(maxsize=256)
def _file_ids(path: str, mtime_ns: int, size: int) -> frozenset[str]:
    parser = _Ids()
    parser.feed(Path(path).read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return frozenset(parser.ids)


def _fragment_exists(fragment: str, ids: frozenset[str] | set[str]) -> bool:
    # "#" and "#top" need no element (HTML: scroll to the top of the document).
    return fragment in ("", "top") or fragment in ids


def check_links(page: Page) -> LinkReport:
    """Check every reference of the open local page: a relative one must name an existing file
    (not a folder: ``file://`` shows no ``index.html``), and its fragment, if any, an element id of
    the target (the page's live DOM for ``#id``, the file's HTML for ``other.html#id``). An
    absolute ``file:`` URL or a root-relative path is a problem (the folder must open from
    anywhere); references with another scheme (``https:``, ``mailto:``) are listed as external."""
    base = page.url
    if urlsplit(base).scheme != "file":
        raise ValueError(f"check_links needs a page opened from file://, not {base}")
    live_ids = set(page.evaluate("() => Array.from(document.querySelectorAll('[id], a[name]'),"
                                 " e => e.id || e.getAttribute('name'))"))
    problems: list[str] = []
    external: list[str] = []
    refs = page.evaluate(_REFERENCES_JS)
    for tag, attr, raw in refs:
        where = f"<{tag} {attr}={raw!r}>"
        value = raw.strip()
        parts = urlsplit(value)
        if parts.scheme.lower() == "file" or value.startswith("/"):
            problems.append(f"{where}: not relative (the site must open from any folder)")
            continue
        if parts.scheme:
            external.append(value)
            continue
        fragment = unquote(parts.fragment)
        if not parts.path and not parts.query:
            if not _fragment_exists(fragment, live_ids):
                problems.append(f"{where}: no element with id {fragment!r} in this page")
            continue
        target = Path(url2pathname(urlsplit(urljoin(base, value)).path))
        if not target.exists():
            problems.append(f"{where}: {target} does not exist")
        elif target.is_dir():
            problems.append(f"{where}: {target} is a folder (file:// opens no index.html)")
        elif fragment and target.suffix.lower() in (".html", ".htm"):
            stat = target.stat()
            if not _fragment_exists(fragment, _file_ids(str(target), stat.st_mtime_ns, stat.st_size)):
                problems.append(f"{where}: no element with id {fragment!r} in {target}")
    return LinkReport(checked=len(refs), problems=problems, external=external)


def screenshot(page: Page, path: str | os.PathLike[str]) -> Path:
    """A full-page PNG of the open page at ``path``; returns the path."""
    path = Path(path)
    page.screenshot(path=str(path), full_page=True, type="png")
    return path
