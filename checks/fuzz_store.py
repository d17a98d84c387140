"""Stored fuzz counterexamples: a data-only format under ``$RECMEM_HOME/fuzz-examples``.

``recmem fuzz`` keeps each confirmed counterexample so that the next campaign and ``recmem
verify`` judge it again. Whoever can write to ``$RECMEM_HOME`` can write these files, so reading
them must never run code: an entry is JSON (``json.loads``: data only) holding the instance as
exact values written as text, and the only constructors it can reach are those of a fixed list
of value types (:func:`record_types`), called with decoded values as keyword arguments. No
``pickle``, no ``eval``, no import chosen by the file.

The format (:data:`FORMAT`), value by value:

- ``null``, ``true``/``false``, integers and strings are themselves;
- a :class:`~fractions.Fraction` is ``{"Fraction": "p/q"}``; a float ``{"float": "<hex>"}``
  (``float.hex``: exact);
- a list is a JSON array, a tuple ``{"tuple": [...]}``, a dict ``{"dict": [[key, value], ...]}``
  (keys of any of these kinds, order kept);
- a record (a dataclass or named tuple of :func:`record_types`: Gaussian rationals, the claims'
  instance and design types) is ``{"record": "module.Name", "fields": {...}}`` with every field
  its constructor takes, except private ones (a leading ``_``: caches, rebuilt on use).

An entry is ``{"format": FORMAT, "instance": value}``. The folder layout is the one of
Hypothesis's ``DirectoryBasedExampleDatabase`` that earlier versions used (one folder per claim
key, one file per counterexample, both named by a SHA-384 prefix), so entries those versions
stored (pickles) are found and skipped, never loaded: an entry that is not in this format, is
too large or cannot be read is skipped and counted; :func:`stored_instances` says so in one
warning line per process, and ``recmem fuzz`` in one line per run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
import re
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from recmem.checks.claim import Claim

FORMAT = "recmem-fuzz-example/1"
# an entry larger than this is not one recmem wrote (its instances are a few kB at most): it is
# skipped unread, so a planted file cannot make every run read gigabytes
MAX_ENTRY_BYTES = 1 << 20

# The value types an entry may construct, by the name the format writes (``module.Name``), each
# with the module and attribute it is imported from. Only these: recmem's shared value types
# below, and those each installed paper declares (``Paper.record_types``, checks/plugins.py); a
# claim whose instances hold another type gets it added there (tests/test_fuzz_store_safety.py
# draws every claim's strategy and fails on a type the format cannot store).
SHARED_RECORD_TYPES = (
    "recmem.numerics.exact.QQi",
    "recmem.numerics.designs.Design",
    "recmem.theory.limit_decay_families.DecayFamily",
    "recmem.theory.linear_functionals.Functional",
    "recmem.theory.linear_rnn_conv.KernelInstance",
    "recmem.theory.lyapunov_sequences.ToeplitzSequence",
    "recmem.theory.memory_rnn.Instance2",
)


@cache
def record_types() -> dict[str, tuple[str, str]]:
    """Every value type an entry may construct: name → (module, attribute)."""
    from recmem.checks import plugins

    names = [*SHARED_RECORD_TYPES, *(t for p in plugins.papers().values() for t in p.record_types)]
    return {name: (name.rsplit(".", 1)[0], name.rsplit(".", 1)[1]) for name in names}

_FRACTION = re.compile(r"-?[0-9]+/[0-9]+")


class StoredFormatError(ValueError):
    """A stored entry that is not in the data-only format (or a value it cannot hold)."""


# ---- the format ------------------------------------------------------------------------------

def _record_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _record_class(name: str) -> type:
    """The class a record names, when it is one of :func:`record_types` (imported from the
    fixed table, never from a name the file chose)."""
    if name not in record_types():
        raise StoredFormatError(f"unknown record type {name!r}")
    module, attr = record_types()[name]
    cls = getattr(importlib.import_module(module), attr)
    assert isinstance(cls, type) and _record_name(cls) == name, name
    return cls


def _record_fields(cls: type) -> tuple[str, ...]:
    """The fields a record stores: those its constructor takes, except private ones (caches)."""
    if dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    else:
        names = tuple(getattr(cls, "_fields", ()))  # a named tuple
    return tuple(n for n in names if not n.startswith("_"))


def _encode(value: Any) -> Any:
    # exact types only: a subclass (an enum, a named tuple not listed) would come back as its
    # base type, so it is refused rather than stored as something else
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is Fraction:
        return {"Fraction": f"{value.numerator}/{value.denominator}"}
    if type(value) is float:
        return {"float": value.hex()}
    if type(value) is list:
        return [_encode(v) for v in value]
    if type(value) is tuple:
        return {"tuple": [_encode(v) for v in value]}
    if type(value) is dict:
        return {"dict": [[_encode(k), _encode(v)] for k, v in value.items()]}
    name = _record_name(type(value))
    if name in record_types():
        return {"record": name, "fields": {n: _encode(getattr(value, n))
                                           for n in _record_fields(type(value))}}
    raise StoredFormatError(f"a {name} cannot be stored (not a value type of the data-only "
                            "format: Paper.record_types of its plugin)")


def _decode(value: Any) -> Any:
    if value is None or isinstance(value, bool | str) or type(value) is int:
        return value
    if type(value) is list:
        return [_decode(v) for v in value]
    if type(value) is not dict:  # a bare JSON float: never written by encode
        raise StoredFormatError(f"unexpected {type(value).__name__}")
    keys = set(value)
    if keys == {"Fraction"} and isinstance(value["Fraction"], str) \
            and _FRACTION.fullmatch(value["Fraction"]):
        p, q = value["Fraction"].split("/")
        if int(q) == 0:
            raise StoredFormatError("a fraction with denominator 0")
        return Fraction(int(p), int(q))
    if keys == {"float"} and isinstance(value["float"], str):
        return float.fromhex(value["float"])
    if keys == {"tuple"} and type(value["tuple"]) is list:
        return tuple(_decode(v) for v in value["tuple"])
    if keys == {"dict"} and type(value["dict"]) is list:
        out = {}
        for pair in value["dict"]:
            if type(pair) is not list or len(pair) != 2:
                raise StoredFormatError("a dict entry that is not a [key, value] pair")
            key = _decode(pair[0])
            if isinstance(key, list | dict):
                raise StoredFormatError("an unhashable dict key")
            out[key] = _decode(pair[1])
        return out
    if keys == {"record", "fields"} and isinstance(value["record"], str) \
            and type(value["fields"]) is dict:
        cls = _record_class(value["record"])
        if set(value["fields"]) != set(_record_fields(cls)):
            raise StoredFormatError(f"the fields of {value['record']} do not match")
        return cls(**{k: _decode(v) for k, v in value["fields"].items()})
    raise StoredFormatError(f"unknown value {sorted(keys)}")


def encode(instance: Any) -> bytes:
    """``instance`` as an entry of the data-only format (UTF-8 JSON); :class:`StoredFormatError`
    when it holds a value the format cannot store."""
    return json.dumps({"format": FORMAT, "instance": _encode(instance)}, ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")


def decode(blob: bytes) -> Any:
    """The instance an entry holds; :class:`StoredFormatError` for anything that is not an entry
    of the data-only format (a pickle of an older recmem, another format, a wrong shape, a
    record type that is not in :func:`record_types`, a constructor that refuses its fields)."""
    try:
        doc = json.loads(blob.decode("utf-8"))
        if type(doc) is not dict or set(doc) != {"format", "instance"} \
                or doc["format"] != FORMAT:
            raise StoredFormatError("not an entry of " + FORMAT)
        return _decode(doc["instance"])
    except StoredFormatError:
        raise
    except Exception as exc:  # JSON, UTF-8, int(), nesting too deep, a constructor refusing
        raise StoredFormatError(f"{type(exc).__name__}: {exc}") from None


# ---- the folder ------------------------------------------------------------------------------

def folder() -> Path:
    """Where counterexamples are stored: ``$RECMEM_HOME/fuzz-examples``."""
    from recmem.checks.store import home

    return home() / "fuzz-examples"


def database_key(claim: Claim) -> bytes:
    """The key of a claim's stored counterexamples: its ID and its statement's text (a changed
    statement starts afresh)."""
    text = claim.statement.text if claim.statement is not None else ""
    return f"recmem-fuzz:{claim.id}:{hashlib.sha256(text.encode()).hexdigest()[:16]}".encode()


def _name(data: bytes) -> str:
    # Hypothesis's DirectoryBasedExampleDatabase names folders and files so (earlier versions of
    # recmem stored their pickles through it): the same layout finds those entries to skip them
    return hashlib.sha384(data).hexdigest()[:16]


def key_folder(claim: Claim) -> Path:
    """The folder of ``claim``'s stored counterexamples (one file each)."""
    return folder() / _name(database_key(claim))


@dataclass
class Stored:
    """What is stored for one claim: the instances read, and how many entries were skipped
    (unreadable, too large, or not in the data-only format)."""

    instances: list[Any] = field(default_factory=list)
    skipped: int = 0


def read(claim: Claim) -> Stored:
    """The counterexamples stored for ``claim``, in a fixed order (by their text); entries
    that cannot be used are skipped and counted, never loaded as code."""
    out = Stored()
    try:
        names = sorted(os.listdir(key_folder(claim)))
    except OSError:  # no campaign has stored any (or the folder cannot be read)
        return out
    blobs = []
    for name in names:
        if name.startswith("."):  # a temporary file of a write in progress (outputs.atomic_path)
            continue
        path = key_folder(claim) / name
        try:
            if not path.is_file() or path.stat().st_size > MAX_ENTRY_BYTES:
                out.skipped += 1
                continue
            blobs.append(path.read_bytes())
        except OSError:
            out.skipped += 1
    for blob in sorted(blobs):
        try:
            out.instances.append(decode(blob))
        except StoredFormatError:
            out.skipped += 1
    return out


def skipped_warning(skipped: int, whose: str) -> str:
    """The one line that says stored entries were skipped (``whose``: "of 3 claim(s)", say)."""
    return (f"recmem: warning: skipped {skipped} stored counterexample(s) {whose} "
            f"in {folder()}: unreadable or not in recmem's data-only format (earlier versions "
            "stored pickles, which are never loaded); they are not replayed: delete them, and "
            "run `recmem fuzz` to store new ones")


_WARNED: set[str] = set()  # the folders this process has warned about


def stored_instances(claim: Claim) -> list[Any]:
    """The counterexamples stored for ``claim`` (:func:`read`); skipped entries are said in one
    warning line on stderr, once per process (``recmem verify`` reads every claim's)."""
    stored = read(claim)
    where = str(folder())
    if stored.skipped and where not in _WARNED:
        _WARNED.add(where)
        whose = f"of {claim.id} (and any of other claims: this is said once)"
        sys.stderr.write(skipped_warning(stored.skipped, whose) + "\n")
    return stored.instances


def store_instance(claim: Claim, instance: Any) -> str | None:
    """Keep a confirmed counterexample for replay (atomically, with the mode of every file
    recmem writes); None when it is stored, otherwise why not (a value the format cannot hold,
    or ``$RECMEM_HOME`` cannot be written): it is still in the report."""
    from recmem.checks.outputs import write_atomic

    try:
        blob = encode(instance)
    except StoredFormatError as exc:
        return str(exc)
    path = key_folder(claim) / _name(blob)
    try:
        if not path.exists():  # the same instance has the same name: stored once
            write_atomic(path, blob)
    except OSError as exc:
        return f"{exc.strerror or exc}: {exc.filename or path}"
    return None


def storage_problem() -> str | None:
    """Why counterexamples cannot be stored under ``$RECMEM_HOME`` (None when they can): the
    folder is created if missing and a file is created in it and removed."""
    from recmem.checks.outputs import OutputPathError, check_output_path

    try:
        folder().mkdir(parents=True, exist_ok=True)
        check_output_path(folder() / ".recmem-probe", "counterexample store")
    except OutputPathError as exc:
        return str(exc)
    except OSError as exc:
        return f"{exc.strerror or exc}: {exc.filename or folder()}"
    return None
