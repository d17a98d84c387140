"""Node families named by spec strings, for conditioning studies of O's Vandermonde matrix.

O's V (paper O, §3.1, eq. 4) has the nodes λ_i as rows and the columns λ^{L−1} … λ, 1. A study
names its nodes with a spec; :func:`parse_family` turns it into a :class:`Family`, whose
:meth:`Family.nodes` gives N exact nodes (:class:`recmem.numerics.nodes.Nodes`):

==========================  ===================================================================
``ring:RMIN:RMAX``          Lemma 6 of paper O (App. B), one draw per seed
                            (:func:`recmem.numerics.nodes.ring`; hypothesis 0 ≤ RMIN ≤ RMAX ≤ 1)
``roots-of-unity``          exp(2πi·j/N), j = 0 … N−1 (exact turns)
``circle:R``                R·exp(2πi·j/N), j = 0 … N−1, R > 0 (exact :class:`Polar` points;
                            turns when R = 1)
``equispaced:A:B``          A + (B − A)·j/(N − 1), j = 0 … N−1 (A alone when N = 1), A < B
``chebyshev:A:B``           (A+B)/2 + (B−A)/2·cos((2k+1)π/(2N)), k = 0 … N−1 (first kind,
                            largest first; exact :class:`CosPi` points), A < B
``real-uniform:A:B``        A + (B − A)·u_j with exact dyadic uniforms u_j ∈ [0, 1) (53 random
                            bits, :func:`recmem.numerics.nodes.uniform_draws`), A < B; exact
                            dyadic when A and B are (``real-uniform:-1:1`` is
                            :func:`recmem.numerics.nodes.real` with r_max = 1)
``vandercorput``            exp(2πi·t_j) for the base-2 Van der Corput turns 0, 1/2, 1/4, 3/4,
                            1/8, … (the first N; Córdova, Gautschi & Ruscheweyh, Numer. Math.
                            57 (1990) 577–591)
``file:PATH``               nodes read from a file (:func:`read_node_file`); a file family gives
                            its first N nodes, N ≤ the file's count
==========================  ===================================================================

Parameters are decimals or fractions (``0.9``, ``9/10``, ``-1``, ``1e-3``) and are held exactly as
Fractions; the canonical spec (:attr:`Family.spec`) writes them as reduced fractions. Every
problem with a spec or a file is a ValueError with a one-line message saying what is wrong and
what is expected.

Sizes for a sweep are parsed by :func:`parse_sizes`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from recmem.numerics import nodes as nd
from recmem.numerics.exact import QQi

KINDS = ("ring", "roots-of-unity", "circle", "equispaced", "chebyshev", "real-uniform",
         "vandercorput", "file")
USAGE = {"ring": "ring:RMIN:RMAX", "roots-of-unity": "roots-of-unity", "circle": "circle:R",
         "equispaced": "equispaced:A:B", "chebyshev": "chebyshev:A:B",
         "real-uniform": "real-uniform:A:B", "vandercorput": "vandercorput", "file": "file:PATH"}
MAX_SIZES = 10000
# accepted header words of a CSV node file (first data line only, case-insensitive)
CSV_HEADER_WORDS = frozenset({"re", "im", "real", "imag", "x", "y", "node", "nodes", "lambda",
                              "value"})

_EXPECTED = "expected one of " + ", ".join(USAGE[k] for k in KINDS)


@dataclass(frozen=True)
class Family:
    """A parsed node family (see the module docstring for the specs).

    - ``spec``: the canonical spec string (parameters as reduced fractions);
    - ``random``: whether :meth:`nodes` depends on the seed;
    - ``real``: every node set of the family is real;
    - ``on_unit_circle``: every node of every set has modulus exactly 1 (false for ring nodes,
      which are rounded to dyadics);
    - ``duplicates``: a file family's file holds a repeated node (its V is singular for any N
      that includes both copies); always False for the other families (``ring:0:0`` repeats 0,
      which Lemma 6's hypothesis admits: :meth:`recmem.numerics.nodes.Nodes.distinct` says so);
    - ``count``: the number of nodes a file family holds (None: any N).
    """

    spec: str
    kind: str
    params: tuple[Fraction, ...] = ()
    random: bool = False
    real: bool = False
    on_unit_circle: bool = False
    path: str | None = None
    file_nodes: tuple[QQi, ...] | None = field(default=None, repr=False)
    duplicates: bool = False
    count: int | None = None

    def nodes(self, n: int, seed: int = 0) -> nd.Nodes:
        """N exact nodes of the family (``seed`` matters only when :attr:`random`).

        Domain: N ≥ 1 (and N ≤ :attr:`count` for a file family, which gives the file's first N
        nodes), seed a non-negative integer; ValueError otherwise. Ring draws are those of
        :func:`recmem.numerics.nodes.ring` (2N uniforms per draw, so the N-node set is not a
        prefix of the 2N-node set); real-uniform draws are the first N of
        ``uniform_draws(seed, N)``.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"{self.spec}: the number of nodes N must be a positive integer, "
                             f"got {n!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"{self.spec}: the seed must be a non-negative integer, got {seed!r}")
        p = self.params
        if self.kind == "ring":
            return nd.ring(n, p[0], p[1], seed)
        if self.kind == "roots-of-unity":
            return nd.roots(n)
        if self.kind == "circle":
            turns = tuple(Fraction(j, n) for j in range(n))
            desc = f"{n} equispaced points on the circle of radius {p[0]}"
            if p[0] == 1:
                return nd.Nodes("circle", turns=turns, description=desc)
            return nd.Nodes("circle", points=tuple(nd.Polar(p[0], t) for t in turns),
                            description=desc)
        if self.kind == "equispaced":
            a, b = p
            vals = [a] if n == 1 else [a + (b - a) * Fraction(j, n - 1) for j in range(n)]
            return nd.Nodes("equispaced", values=tuple(QQi(v) for v in vals),
                            description=f"{n} equispaced nodes in [{a}, {b}]")
        if self.kind == "chebyshev":
            a, b = p
            pts = tuple(nd.CosPi((a + b) / 2, (b - a) / 2, Fraction(2 * k + 1, 2 * n))
                        for k in range(n))
            return nd.Nodes("chebyshev", points=pts,
                            description=f"{n} Chebyshev points (first kind) on [{a}, {b}], exact")
        if self.kind == "real-uniform":
            a, b = p
            draws = tuple(QQi(a + (b - a) * u) for u in nd.uniform_draws(seed, n))
            return nd.Nodes("real-uniform", values=draws,
                            description=f"{n} real nodes ~ U[{a}, {b}), seed {seed}")
        if self.kind == "vandercorput":
            return nd.Nodes("vandercorput", turns=tuple(van_der_corput(j) for j in range(n)),
                            description=f"the first {n} base-2 Van der Corput points on the "
                                        "unit circle")
        assert self.file_nodes is not None and self.count is not None
        if n > self.count:
            raise ValueError(f"{self.spec}: the file holds {self.count} nodes, asked for N = {n} "
                             f"(a file family gives its first N nodes, N ≤ {self.count})")
        dup = " (the file repeats a node)" if self.duplicates else ""
        return nd.Nodes("file", values=self.file_nodes[:n],
                        description=f"the first {n} of {self.count} nodes of {self.path}{dup}")


def van_der_corput(j: int) -> Fraction:
    """The j-th base-2 Van der Corput number (j ≥ 0): the bits of j mirrored about the binary
    point, 0, 1/2, 1/4, 3/4, 1/8, 5/8, 3/8, 7/8, … (exact)."""
    if j < 0:
        raise ValueError(f"van_der_corput needs j ≥ 0, got {j}")
    out, scale = Fraction(0), Fraction(1, 2)
    while j:
        if j & 1:
            out += scale
        j >>= 1
        scale /= 2
    return out


def _number(text: str, what: str, spec: str) -> Fraction:
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"bad {what} {text!r} in node family {spec!r}: expected a decimal or a "
                         "fraction such as 0.9 or 9/10") from None


def parse_family(spec: str) -> Family:
    """Parse a node family spec (module docstring) into a :class:`Family`.

    File families read (and check) their file here, so a bad file fails before any work.
    ValueError, one line, for: an empty or unknown spec, a wrong number of parameters, a
    parameter that is not a decimal or fraction, A ≥ B, R ≤ 0, RMIN/RMAX outside Lemma 6's
    hypothesis 0 ≤ RMIN ≤ RMAX ≤ 1 (paper O, App. B), a missing, unreadable or malformed file.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"empty node family spec {spec!r}; {_EXPECTED}")
    text = spec.strip()
    kind, _, rest = text.partition(":")
    kind = kind.strip().lower()
    if kind == "file":
        if not rest.strip():
            raise ValueError(f"node family {spec!r} names no file; expected file:PATH")
        return _file_family(rest.strip(), spec)
    if kind not in USAGE:
        raise ValueError(f"unknown node family {kind!r} in {spec!r}; {_EXPECTED}")
    fields = rest.split(":") if ":" in text else []
    wanted = USAGE[kind].count(":")
    if len(fields) != wanted:
        raise ValueError(f"node family {spec!r} has {len(fields)} parameter(s), {kind} takes "
                         f"{wanted}; expected {USAGE[kind]}")
    if kind in ("roots-of-unity", "vandercorput"):
        return Family(kind, kind, on_unit_circle=True)
    if kind == "circle":
        (r,) = (_number(f, "radius R", spec) for f in fields)
        if r <= 0:
            raise ValueError(f"node family {spec!r} needs a radius R > 0, got R = {r}")
        return Family(f"circle:{r}", "circle", (r,), on_unit_circle=(r == 1))
    if kind == "ring":
        r_min, r_max = (_number(f, name, spec) for f, name in zip(fields, ("RMIN", "RMAX"),
                                                                  strict=True))
        from recmem.theory.ring import LEMMA6

        if not LEMMA6.admits(r_min, r_max):
            raise ValueError(f"node family {spec!r} violates Lemma 6's hypothesis 0 ≤ RMIN ≤ "
                             f"RMAX ≤ 1 (paper O, App. B): got RMIN = {r_min}, RMAX = {r_max}")
        return Family(f"ring:{r_min}:{r_max}", "ring", (r_min, r_max), random=True,
                      real=(r_max == 0))
    a, b = (_number(f, name, spec) for f, name in zip(fields, ("A", "B"), strict=True))
    if a >= b:
        raise ValueError(f"node family {spec!r} needs A < B, got A = {a}, B = {b}")
    return Family(f"{kind}:{a}:{b}", kind, (a, b), random=(kind == "real-uniform"), real=True)


def _file_family(path: str, spec: str) -> Family:
    values = read_node_file(path)
    return Family(f"file:{path}", "file", path=path, file_nodes=values,
                  real=all(v.im == 0 for v in values),
                  on_unit_circle=all(v.re * v.re + v.im * v.im == 1 for v in values),
                  duplicates=len(set(values)) != len(values), count=len(values))


# ---- node files -------------------------------------------------------------------------------
_U = r"(?:\d+/\d+|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"  # unsigned decimal or fraction
_COMPLEX = re.compile(rf"^\(?(?P<re>[+-]?{_U})(?P<im>[+-]{_U}?)[jJiI]\)?$"
                      rf"|^\(?(?P<only>[+-]?{_U}?)[jJiI]\)?$")
_REAL = re.compile(rf"^\(?[+-]?{_U}\)?$")
_FORMAT = ("one node per line: a real (0.5, 1/3, -2e-3), a complex like 0.5+0.25j, or two "
           "columns 're im'")


def _signed(text: str) -> Fraction:
    if text in ("", "+"):
        return Fraction(1)
    if text == "-":
        return Fraction(-1)
    return Fraction(text)


def parse_node(text: str) -> QQi:
    """One node written as a real (``0.5``, ``1/3``, ``-2e-3``) or a complex (``0.5+0.25j``,
    ``-1/2-3i``, ``2j``, ``(1+1j)``), exactly (decimal → exact Fraction). ValueError otherwise."""
    t = text.strip()
    if _REAL.match(t):
        return QQi(Fraction(t.strip("()")))
    m = _COMPLEX.match(t)
    if m is None:
        raise ValueError(f"cannot read {text!r} as a real or complex number")
    if m["only"] is not None:
        return QQi(Fraction(0), _signed(m["only"]))
    return QQi(Fraction(m["re"]), _signed(m["im"]))


def _line_fields(line: str, csv: bool) -> list[str]:
    if csv:
        return [f.strip() for f in line.split(",")]
    return line.split()


def read_node_file(path: str | Path) -> tuple[QQi, ...]:
    """The nodes in a file, exactly as written.

    - ``.npy``: a 1-D array (real or complex, any float or integer dtype), an (n, 1) array, or
      an (n, 2) real array of (re, im); floats are taken as their exact binary values.
    - ``.csv``: one node per line, ``re,im`` or one column (a real or a complex like
      ``0.5+0.25j``); the first data line may be a header of the words in
      :data:`CSV_HEADER_WORDS` (``re,im``).
    - any other name: text, one node per line, a real, a complex like ``0.5+0.25j`` (``i`` also
      accepted), or two whitespace-separated columns ``re im``.

    Text and CSV files may hold blank lines and ``#`` comments (whole-line or trailing); decimal
    strings and fractions become exact Fractions. Duplicates are allowed (the caller decides).
    ValueError, one line naming the file and the line (``.npy``: the row, 1-based) at fault, for
    a missing or unreadable file, a malformed entry, a non-finite value or a file with no nodes.
    """
    p = Path(path)
    if not p.exists():
        raise ValueError(f"node file {str(path)!r} does not exist")
    if not p.is_file():
        raise ValueError(f"node file {str(path)!r} is not a regular file")
    if p.suffix.lower() == ".npy":
        return _read_npy(p)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read node file {str(path)!r}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        lineno = data[:exc.start].count(b"\n") + 1
        raise ValueError(f"{p}: line {lineno}: not UTF-8 text (a binary file? .npy files need the "
                         ".npy suffix)") from None
    csv = p.suffix.lower() == ".csv"
    out: list[QQi] = []
    seen_data = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = _line_fields(line, csv)
        if (csv and not seen_data
                and all(f.lower() in CSV_HEADER_WORDS for f in fields) and len(fields) <= 2):
            seen_data = True
            continue
        seen_data = True
        try:
            if len(fields) == 1:
                out.append(parse_node(fields[0]))
            elif len(fields) == 2:
                re_, im = (QQi(Fraction(f)) if _REAL.match(f) else None for f in fields)
                if re_ is None or im is None:
                    bad = fields[0] if re_ is None else fields[1]
                    raise ValueError(f"cannot read {bad!r} as a real number (two columns are "
                                     "'re im')")
                out.append(QQi(re_.re, im.re))
            else:
                raise ValueError(f"{len(fields)} columns")
        except (ValueError, ZeroDivisionError) as exc:
            raise ValueError(f"{p}: line {number}: {exc}; expected {_FORMAT}") from None
    if not out:
        raise ValueError(f"{p}: no nodes (every line is blank or a comment); expected {_FORMAT}")
    return tuple(out)


def _exact_float(x: np.generic) -> Fraction:
    if not np.isfinite(x):
        raise ValueError(f"non-finite value {x}")
    if isinstance(x, np.integer):
        return Fraction(int(x))
    num, den = x.as_integer_ratio()  # type: ignore[attr-defined]
    return Fraction(int(num), int(den))


def _read_npy(p: Path) -> tuple[QQi, ...]:
    try:
        arr = np.load(p, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"{p}: not a readable .npy array ({why})") from None
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"{p}: holds no single array; expected a 1-D array of nodes or an "
                         "(n, 2) array of (re, im)")
    if arr.dtype.kind not in "iufc":
        raise ValueError(f"{p}: dtype {arr.dtype} is not numeric; expected real or complex "
                         "numbers")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim == 1:
        rows = [(x.real, x.imag) if arr.dtype.kind == "c" else (x, None) for x in arr]
    elif arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype.kind != "c":
        rows = [(r[0], r[1]) for r in arr]
    else:
        raise ValueError(f"{p}: array of shape {arr.shape} and dtype {arr.dtype}; expected a "
                         "1-D array of nodes, an (n, 1) array or a real (n, 2) array of (re, im)")
    out = []
    for i, (re_, im) in enumerate(rows, start=1):
        try:
            out.append(QQi(_exact_float(re_), Fraction(0) if im is None else _exact_float(im)))
        except ValueError as exc:
            raise ValueError(f"{p}: row {i}: {exc}; expected finite real or complex "
                             "numbers") from None
    if not out:
        raise ValueError(f"{p}: an empty array; expected at least one node")
    return tuple(out)


# ---- sizes ------------------------------------------------------------------------------------
_SIZE_ITEM = re.compile(r"^([+-]?\d+)(?:\.\.([+-]?\d+)(?::([+-]?\d+))?)?$")
_SIZES_EXPECTED = ("expected positive integers and ranges such as 8,16,32 or 8..64 or 8..64:8 "
                   "(A..B:STEP, B inclusive when reached)")


def parse_sizes(text: str) -> list[int]:
    """Sizes for a sweep: ``8,16,32``, ``8..64`` (step 1), ``8..64:8`` (step 8, 64 included
    when the steps reach it) and comma-separated mixtures such as ``4,8..16:4``.

    Returns the sizes in the order written, repeats dropped (first occurrence kept).
    ValueError, one line, for an empty text or item, anything not an integer or range, a size
    ≤ 0, a reversed range, a step ≤ 0, or more than :data:`MAX_SIZES` sizes.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"empty sizes {text!r}; {_SIZES_EXPECTED}")
    out: dict[int, None] = {}
    total = 0
    for item in text.split(","):
        it = item.strip()
        m = _SIZE_ITEM.match(it)
        if m is None:
            what = "an empty item" if not it else f"{it!r} is not a size or range"
            raise ValueError(f"bad sizes {text!r}: {what}; {_SIZES_EXPECTED}")
        lo = int(m[1])
        hi = int(m[2]) if m[2] is not None else lo
        step = int(m[3]) if m[3] is not None else 1
        if lo <= 0 or hi <= 0:
            raise ValueError(f"bad sizes {text!r}: sizes must be positive, got {it!r}; "
                             f"{_SIZES_EXPECTED}")
        if step <= 0:
            raise ValueError(f"bad sizes {text!r}: the step must be positive, got {step} in "
                             f"{it!r}; {_SIZES_EXPECTED}")
        if hi < lo:
            raise ValueError(f"bad sizes {text!r}: the range {it!r} runs backwards ({lo} > {hi}); "
                             f"{_SIZES_EXPECTED}")
        total += (hi - lo) // step + 1
        if total > MAX_SIZES:
            raise ValueError(f"bad sizes {text!r}: more than {MAX_SIZES} sizes; use a step "
                             "(A..B:STEP) or fewer items")
        for v in range(lo, hi + 1, step):
            out[v] = None
    return list(out)
