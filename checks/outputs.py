"""Output files: checked before any work starts, written atomically with the user's umask.

Every command that writes a file (``--json``, ``--markdown``, ``--plot``) calls
:func:`check_output_path` while parsing its arguments, so a path that cannot be written is a usage
error (exit 2, one line) before a long run, not a traceback after it; :func:`write_atomic` then
writes through a temporary file in the same folder and a rename, and removes the temporary file
whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


class OutputPathError(ValueError):
    """An output path that cannot be written (a usage error: exit status 2)."""


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
        # probe exactly what write_atomic will do: a temporary file beside the target
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{p.name}.")
        except OSError as exc:
            raise OutputPathError(f"{what}: cannot write in {folder} "
                                  f"({exc.strerror or exc})") from None
        os.close(fd)
        os.unlink(tmp)
    else:
        # the missing folders are created on writing: probe that they can be (and remove it)
        try:
            os.rmdir(tempfile.mkdtemp(dir=folder, prefix=".recmem-probe-"))
        except OSError as exc:
            raise OutputPathError(f"{what}: cannot create folders in {folder} "
                                  f"({exc.strerror or exc})") from None
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputPathError(f"{what}: the file is read-only")
    return p


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (a reader never sees a
    half-written file; an interrupted write leaves the previous file). The file gets the mode a
    plain ``open`` would give it (0666 less the umask), and the temporary file never outlives
    the call."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

