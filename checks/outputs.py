"""Output files: checked before any work starts, written atomically with the user's umask.

The one place where recmem writes files:

- :func:`check_output_path` (while arguments are parsed): a path that cannot be written is a
  usage error (exit 2, one line) before a long run, not a traceback after it;
- :func:`refuse_clashes` (before any work): an output that is recmem's own state (the result
  store, stored counterexamples), the command's store or input, or another output of the same
  command is refused, so no run destroys what it reads or keeps;
- :func:`write_atomic` (text or bytes) and :func:`atomic_path` (a temporary path for writers that
  want a file name: ``savefig``, ``torch.save``), with :func:`write_figure` for matplotlib: each
  writes a temporary file beside the target and renames it over the target, so a reader never
  sees a half-written file and an interrupted write leaves the previous one; the temporary file is
  removed whatever happens, and one left by a killed process is removed by the next write of the
  same path (:func:`remove_stale_temps`);
- :func:`check_output_folder` and :func:`replace_folder`: a folder of outputs (a site) is checked
  up front the same way, built beside its target under a temporary name and moved into place
  whole, so a reader never sees a half-built folder and an interrupted build leaves the previous
  one; an existing folder is replaced only when asked (``--force``) and only when recmem wrote it;
- :func:`apply_mode`: every file recmem writes gets the mode a plain ``open`` gives
  (``0o666 & ~umask``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Temporary files are ".NAME.RANDOM.HOST-PID.recmem-tmp" beside the target: hidden, tied to the
# target's name, and naming the process that writes them, so that a later run can tell a temp
# left by a killed process (removed) from one being written right now (left alone).
TEMP_SUFFIX = ".recmem-tmp"
# SQLite keeps a database's state in these files beside it too
SQLITE_SIDECARS = ("-wal", "-shm", "-journal")


class OutputPathError(ValueError):
    """An output path that cannot be written (a usage error: exit status 2)."""


# ---- permissions ---------------------------------------------------------------------------------

def umask() -> int:
    """The process's umask (read from /proc where it can be, without changing it)."""
    status = "/proc/self/status"  # Linux ≥ 4.7 shows the umask there
    with contextlib.suppress(OSError, ValueError), open(status, encoding="ascii") as fh:
        for line in fh:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode of every file recmem writes: what a plain ``open`` gives (0666 less the umask)."""
    return 0o666 & ~umask()


def apply_mode(path: str | os.PathLike[str]) -> None:
    """Give ``path`` the mode of :func:`file_mode` (temporary files are created 0600)."""
    os.chmod(path, file_mode())


# ---- temporary files -----------------------------------------------------------------------------

def _host() -> str:
    return socket.gethostname().replace(".", "_").replace("-", "_") or "host"


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.{_host()}-{os.getpid()}"
                            f"{TEMP_SUFFIX}")


def _writer_alive(temp: Path) -> bool:
    """Whether the process named in ``temp``'s name may still be writing it (a process of another
    host, or an unreadable name, counts as alive: its temp is left alone)."""
    owner = temp.name.removesuffix(TEMP_SUFFIX).rsplit(".", 1)[-1]
    host, _, pid = owner.rpartition("-")
    if host != _host() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, owned by someone else
        return True
    return True


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove the temporary files (or folders: :func:`replace_folder`) of ``target`` left by
    writers that were killed (their process is gone); returns them. A temp of a live process is
    left alone."""
    removed = []
    with contextlib.suppress(OSError):
        for temp in target.parent.glob(f".{_glob_escape(target.name)}.*{TEMP_SUFFIX}"):
            if not _writer_alive(temp):
                with contextlib.suppress(OSError):
                    _remove(temp)
                    removed.append(temp)
    return removed


def _remove(path: Path) -> None:
    """Remove a file, or a folder with everything in it (a symlink is removed, never followed)."""
    import shutil

    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to (by name: ``savefig``, ``torch.save``); when
    the block ends normally it gets :func:`file_mode`, is synced and renamed over ``path``. The
    temporary file never outlives the block (an exception or interrupt removes it), and stale
    temps of ``path`` left by killed processes are removed first. Missing folders are created."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    tmp = _temp_name(target)
    try:
        yield tmp
        if not tmp.exists():
            raise OSError(f"nothing was written to {target}")
        apply_mode(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` through :func:`atomic_path`: a reader
    never sees a half-written file, an interrupted write leaves the previous file, and the file
    gets the mode a plain ``open`` would give it (0666 less the umask)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path) as tmp, open(tmp, "xb") as fh:
        fh.write(raw)


def write_figure(fig: Any, path: str | os.PathLike[str], **savefig: Any) -> None:
    """Save the matplotlib figure ``fig`` to ``path`` through :func:`atomic_path`, in the format
    of its suffix (PNG without one) at 110 dpi unless ``savefig`` says otherwise."""
    target = Path(path)
    savefig.setdefault("dpi", 110)
    savefig.setdefault("format", (target.suffix[1:] or "png").lower())
    with atomic_path(target) as tmp:
        fig.savefig(tmp, **savefig)


# ---- paths checked up front ----------------------------------------------------------------------

def _existing_ancestor(path: Path) -> Path:
    for folder in path.parents:
        if folder.exists():
            return folder
    return Path.cwd()  # pragma: no cover (the root always exists)


def check_output_path(path: str | os.PathLike[str], option: str) -> Path:
    """``path`` as a :class:`Path` when a file can be written there (missing folders are created
    on writing), else :class:`OutputPathError` naming ``option`` and the reason."""
    p = Path(path)
    what = f"{option} {os.fspath(path)}"
    if not p.name or p.is_dir():
        raise OutputPathError(f"{what}: is a directory; give a file name")
    folder = _existing_ancestor(p)
    if not folder.is_dir():
        raise OutputPathError(f"{what}: {folder} is not a directory")
    if folder == p.parent:
        # probe exactly what atomic_path will do: a temporary file beside the target
        tmp = _temp_name(p)
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as exc:
            raise OutputPathError(f"{what}: cannot write in {folder} "
                                  f"({exc.strerror or exc})") from None
        tmp.unlink()
    else:
        _probe_folders(folder, what)  # the missing folders are created on writing
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputPathError(f"{what}: the file is read-only")
    return p


def check_output_folder(path: str | os.PathLike[str], option: str, *, marker: str,
                        force: bool) -> Path:
    """``path`` as a :class:`Path` when a folder of outputs can be written there by
    :func:`replace_folder`, else :class:`OutputPathError` naming ``option`` and the reason: a
    file in the way, a folder that cannot be created, or an existing non-empty folder without
    ``force`` — and with ``force`` one that has no ``marker`` file (recmem replaces only a folder
    it wrote itself, never, say, a home folder given by mistake)."""
    p = Path(path)
    what = f"{option} {os.fspath(path)}"
    if p.exists() and not p.is_dir():
        raise OutputPathError(f"{what}: is a file; give a folder")
    if p.is_dir() and any(p.iterdir()):
        if not force:
            raise OutputPathError(f"{what}: the folder is not empty; give --force to replace it")
        if not (p / marker).is_file():
            raise OutputPathError(f"{what}: the folder is not empty and recmem did not write it "
                                  f"(no {marker}); refusing to replace it, even with --force")
    folder = _existing_ancestor(p)
    if not folder.is_dir():
        raise OutputPathError(f"{what}: {folder} is not a directory")
    _probe_folders(p.parent if p.parent.is_dir() else folder, what)
    return p


def _probe_folders(folder: Path, what: str) -> None:
    """:class:`OutputPathError` unless a folder can be created in ``folder`` (probed by making
    one, then removing it)."""
    probe = folder / f".recmem-probe-{secrets.token_hex(4)}"
    try:
        probe.mkdir()
    except OSError as exc:
        raise OutputPathError(f"{what}: cannot create folders in {folder} "
                              f"({exc.strerror or exc})") from None
    probe.rmdir()


@contextlib.contextmanager
def replace_folder(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary folder beside ``path`` to build a folder of outputs in; when the block ends
    normally, its files get :func:`file_mode` and it replaces ``path`` (an existing ``path`` is
    first moved aside under a temporary name, then removed): a reader never sees a half-built
    folder. An exception or interrupt removes the temporary folder and leaves ``path`` as it
    was; stale temporaries of killed builds are removed first. (Callers check ``path`` with
    :func:`check_output_folder` before any work.)"""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    tmp = _temp_name(target)
    old = None
    try:
        tmp.mkdir()
        yield tmp
        mode = file_mode()
        for folder, _, files in os.walk(tmp):
            os.chmod(folder, mode | ((mode & 0o444) >> 2))  # r → x: folders stay enterable
            for name in files:
                os.chmod(os.path.join(folder, name), mode)
        if target.exists():
            old = _temp_name(target)
            os.replace(target, old)
        try:
            os.replace(tmp, target)
        except OSError:
            if old is not None:  # put the previous folder back before anything is removed
                os.replace(old, target)
                old = None
            raise
    finally:
        for leftover in (tmp, old):
            if leftover is not None and leftover.exists():
                with contextlib.suppress(OSError):
                    _remove(leftover)


@dataclass(frozen=True)
class Kept:
    """A file (or folder) a command must not write over: recmem's state, a store, an input.

    ``what`` names it in the refusal ("recmem's result store", "the input of --nodes file:n.txt");
    ``folder``: everything under ``path`` is kept; ``sqlite``: SQLite's files beside ``path``
    (``-wal``, ``-shm``, ``-journal``) are kept too.
    """

    what: str
    path: Path
    folder: bool = False
    sqlite: bool = False


def recmem_state() -> list[Kept]:
    """recmem's own state under ``$RECMEM_HOME``: the result store and stored counterexamples."""
    from recmem.checks.store import home, path

    return [Kept("recmem's result store", path(), sqlite=True),
            Kept("recmem's stored counterexamples", home() / "fuzz-examples", folder=True),
            Kept("recmem's Hypothesis files", home() / "hypothesis", folder=True)]


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _same(a: Path, b: Path) -> bool:
    if _real(a) == _real(b):
        return True
    try:  # hard links, case-insensitive file systems
        return os.path.samefile(a, b)
    except OSError:
        return False


def _inside(path: Path, folder: Path) -> bool:
    return _real(path).is_relative_to(_real(folder))


def refuse_clashes(outputs: Sequence[tuple[str, str | os.PathLike[str] | None]],
                   kept: Iterable[Kept] = ()) -> None:
    """Refuse (:class:`OutputPathError`) an output that is one of ``kept`` or recmem's state
    (:func:`recmem_state`), or the same file as another output; ``outputs`` are (option, path)
    pairs, None for an option not given. Paths are compared resolved (symlinks, ``./x`` and
    ``x``, hard links)."""
    given = [(option, Path(p)) for option, p in outputs if p is not None]
    guarded = [*kept, *recmem_state()]
    for option, p in given:
        for k in guarded:
            hit = (_inside(p, k.path) if k.folder else
                   any(_same(p, k.path.with_name(k.path.name + s))
                       for s in ("", *(SQLITE_SIDECARS if k.sqlite else ()))))
            if hit:
                where = "" if os.fspath(k.path) == os.fspath(p) else f" ({k.path})"
                raise OutputPathError(f"{option} {os.fspath(p)}: is {'in ' if k.folder else ''}"
                                      f"{k.what}{where}; give another path")
    for i, (option, p) in enumerate(given):
        for other, q in given[i + 1:]:
            if _same(p, q):
                raise OutputPathError(f"{option} {os.fspath(p)} and {other} {os.fspath(q)} are the "
                                      "same file; give each its own path")


__all__ = ["Kept", "OutputPathError", "apply_mode", "atomic_path", "check_output_folder",
           "check_output_path", "file_mode", "recmem_state", "refuse_clashes",
           "remove_stale_temps", "replace_folder", "umask", "write_atomic", "write_figure"]
