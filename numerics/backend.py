"""One interface over several arithmetics, selected by a spec string.

Specs: ``sympy`` (exact, symbolic side), ``mpmath@BITS``, ``flint@BITS`` (ball arithmetic: results
are enclosures), ``numpy`` / ``numpy:float64`` / ``numpy:float32``, ``torch`` / ``torch:cpu`` /
``torch:cuda`` (complex128 unless ``torch:cpu:float32``). Backends are constructed lazily, so
parsing a spec or listing backends never imports torch.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.exact import QQi

DEFAULT_BITS = 256
MIN_BITS = 2
# the most bits a working precision may have: ~19 700 decimal digits, far past any check's
# need, and far below the sizes at which GMP aborts the process (a precision is an int)
MAX_BITS = 65536

# Capability names a claim may require of a backend.
CAPABILITIES = frozenset(
    {"linalg", "det", "solve", "lstsq", "pinv", "svd", "rank", "enclosure", "log", "exact"}
)


class SpecError(ValueError):
    """A malformed or unknown backend spec (a usage error: exit status 2)."""


class BackendUnavailable(RuntimeError):
    """The backend cannot run here (no CUDA, library missing); its checks become SKIPPED."""


@dataclass(frozen=True)
class BackendSpec:
    """A parsed backend spec."""

    kind: str  # sympy | mpmath | flint | numpy | torch
    bits: int | None = None  # working precision for arbitrary-precision kinds
    device: str | None = None  # torch device
    dtype: str = "float64"  # float64 | float32 for float kinds

    def __str__(self) -> str:
        if self.kind in ("mpmath", "flint"):
            return f"{self.kind}@{self.bits}"
        if self.kind == "numpy":
            return "numpy" if self.dtype == "float64" else f"numpy:{self.dtype}"
        if self.kind == "torch":
            base = f"torch:{self.device}"
            return base if self.dtype == "float64" else f"{base}:{self.dtype}"
        return self.kind

    @property
    def is_symbolic(self) -> bool:
        return self.kind == "sympy"

    @property
    def is_high_precision(self) -> bool:
        return self.kind in ("sympy", "mpmath", "flint")


_SPEC = re.compile(
    r"^(?P<kind>sympy|mpmath|flint|numpy|torch)"
    r"(?:@(?P<bits>-?\d+))?"
    r"(?::(?P<a>[a-z0-9]+))?(?::(?P<b>[a-z0-9]+))?$"
)


def parse_spec(spec: str, default_bits: int = DEFAULT_BITS) -> BackendSpec:
    """Parse a backend spec string; raise :class:`SpecError` with a one-line reason if malformed."""
    m = _SPEC.match(spec.strip())
    if not m:
        raise SpecError(
            f"malformed backend spec {spec!r}: expected sympy, mpmath@BITS, flint@BITS, "
            "numpy[:float32], torch[:cpu|:cuda][:float32]"
        )
    kind, bits_s, a, b = m["kind"], m["bits"], m["a"], m["b"]
    if kind in ("mpmath", "flint"):
        if a or b:
            raise SpecError(f"malformed backend spec {spec!r}: {kind} takes only @BITS")
        bits = int(bits_s) if bits_s is not None else default_bits
        if not MIN_BITS <= bits <= MAX_BITS:
            raise SpecError(f"precision must be between {MIN_BITS} and {MAX_BITS} bits, got "
                            f"{bits} in {spec!r}")
        return BackendSpec(kind, bits=bits)
    if bits_s is not None:
        raise SpecError(f"malformed backend spec {spec!r}: {kind} has a fixed precision")
    if kind == "sympy":
        if a or b:
            raise SpecError(f"malformed backend spec {spec!r}: sympy takes no options")
        return BackendSpec("sympy")
    if kind == "numpy":
        if b or a not in (None, "float64", "float32"):
            raise SpecError(f"malformed backend spec {spec!r}: numpy takes :float64 or :float32")
        return BackendSpec("numpy", dtype=a or "float64")
    device, dtype = "cpu", "float64"
    for part in (a, b):
        if part in ("cpu", "cuda"):
            device = part
        elif part in ("float64", "float32"):
            dtype = part
        elif part is not None:
            raise SpecError(
                f"malformed backend spec {spec!r}: torch takes :cpu or :cuda and :float64 or :float32"
            )
    return BackendSpec("torch", device=device, dtype=dtype)


@dataclass
class AbstractBackend(ABC):
    """An arithmetic. Claims are written once against this interface.

    Domain of every backend: exact Gaussian rationals (:class:`~recmem.numerics.exact.QQi`; complex
    values are in the domain — the arithmetics are complex); vectors and matrices with n ≥ 1
    entries/rows/columns (rectangular); ``vandermonde`` k ≥ 1; ``det`` a square matrix. Outside it,
    ValueError (:class:`~recmem.numerics.validate.DomainError`). NaN/inf cannot be exact inputs.

    Native vectors are one-dimensional in numpy/torch and column matrices in mpmath/flint; code
    outside a backend never looks inside them, it only passes them back to the backend.
    """

    spec: BackendSpec
    capabilities: frozenset[str] = field(default=frozenset())

    # ---- identity -------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return str(self.spec)

    @property
    @abstractmethod
    def precision_bits(self) -> int:
        """Bits of significand (53 for float64)."""

    @property
    def unit_roundoff(self) -> mpmath.mpf:
        """u = 2^-p (round to nearest)."""
        return mpmath.mpf(2) ** (-self.precision_bits)

    @property
    def encloses(self) -> bool:
        """Whether results are certified enclosures (ball arithmetic)."""
        return False

    def activate(self) -> AbstractContextManager[None]:
        """A scope in which arithmetic on this backend's native scalars runs at its precision.

        Needed where the library's precision is process-global (flint); a no-op elsewhere.
        Code written against the interface runs inside it (the runner and checks see to that).
        """
        return nullcontext()

    # ---- construction ---------------------------------------------------------------------
    @abstractmethod
    def vector(self, values: Sequence[QQi]) -> Any:
        """A native vector from exact values."""

    @abstractmethod
    def matrix(self, rows: Sequence[Sequence[QQi]]) -> Any:
        """A native matrix from exact rows."""

    @abstractmethod
    def cis_turns(self, turns: Sequence[Fraction]) -> Any:
        """The native vector (exp(2πi·t) for t in turns), computed at this backend's precision."""

    @abstractmethod
    def to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.matrix:
        """A native vector/matrix as an mpmath matrix (exact conversion of midpoints)."""

    def radius(self, x: Any) -> mpmath.mpf:
        """Largest radius of an enclosure (0 for point arithmetics)."""
        return mpmath.mpf(0)

    # ---- linear algebra -------------------------------------------------------------------
    @abstractmethod
    def vandermonde(self, nodes: Any, k: int) -> Any:
        """N×k matrix with rows (λ^{k-1}, …, λ, 1): O's orientation (eq. 4)."""

    @abstractmethod
    def recurrence(self, nodes: Any, drive: Any) -> Any:
        """States of x_k = diag(λ) x_{k-1} + drive[:, k], x_0 = 0; returns the N×L matrix of x_1…x_L."""

    @abstractmethod
    def matmul(self, a: Any, b: Any) -> Any:
        """Matrix product."""

    @abstractmethod
    def det(self, a: Any) -> Any:
        """Determinant (a native scalar)."""

    @abstractmethod
    def pinv_apply(self, a: Any, b: Any) -> Any:
        """a⁺ b, the minimum-norm least-squares solution (SVD-based where the backend has one)."""

    @abstractmethod
    def svdvals(self, a: Any) -> list[mpmath.mpf]:
        """Singular values, largest first, as mpmath numbers."""

    @abstractmethod
    def scalar_to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
        """A native scalar as an mpmath number."""

    def rank(self, a: Any) -> int:
        """Numerical rank: singular values above max(shape)·σ₁·u."""
        s = self.svdvals(a)
        if not s or s[0] == 0:
            return 0
        shape = self.shape(a)
        cut = max(shape) * s[0] * self.unit_roundoff
        return sum(1 for v in s if v > cut)

    @abstractmethod
    def shape(self, a: Any) -> tuple[int, int]:
        """(rows, columns) of a matrix."""

    # ---- elementwise helpers for code written once against the interface ------------------
    @abstractmethod
    def entries(self, v: Any) -> list[Any]:
        """The native scalars of a vector."""

    @abstractmethod
    def vector_of(self, scalars: Sequence[Any]) -> Any:
        """A native vector from native scalars computed in this backend (inverse of ``entries``)."""

    @abstractmethod
    def matrix_of_scalar(self, x: Any) -> Any:
        """A 1×1 native matrix holding a native scalar."""

    @abstractmethod
    def transpose(self, a: Any) -> Any:
        """The plain (not conjugated) transpose of a matrix."""

    @abstractmethod
    def hadamard(self, a: Any, b: Any) -> Any:
        """Entrywise product of two matrices of one shape."""

    @abstractmethod
    def row_sums(self, a: Any) -> Any:
        """The column vector of row sums."""

    @abstractmethod
    def columns(self, a: Any, start: int, stop: int) -> Any:
        """Columns start…stop−1 (0-based) of a matrix."""

    @abstractmethod
    def log(self, x: Any) -> Any:
        """Principal logarithm of a native scalar."""

    @abstractmethod
    def exp(self, x: Any) -> Any:
        """Exponential of a native scalar."""

    # ---- domain checks shared by the implementations (numerics.validate) ---------------------
    def _check_values(self, values: Sequence[QQi], fn: str) -> list[QQi]:
        from recmem.numerics.validate import exact_values

        return exact_values(values, f"{self.name} {fn}")

    def _check_rows(self, rows: Sequence[Sequence[QQi]], fn: str) -> list[list[QQi]]:
        from recmem.numerics.validate import exact_rows

        return exact_rows(rows, f"{self.name} {fn}")

    def _check_matrix(self, a: Any, fn: str, *, square: bool = False) -> tuple[int, int]:
        from recmem.numerics.validate import DomainError

        rows, cols = self.shape(a)
        if rows < 1 or cols < 1:
            raise DomainError(f"{self.name} {fn} needs a nonempty matrix, got {rows}×{cols}")
        if square and rows != cols:
            raise DomainError(f"{self.name} {fn} needs a square matrix, got {rows}×{cols}")
        return rows, cols

    def _check_k(self, nodes: Any, k: int, fn: str) -> None:
        from recmem.numerics.validate import DomainError, positive_int

        positive_int(k, f"{self.name} {fn}: k")
        if self.shape(nodes)[0] < 1:
            raise DomainError(f"{self.name} {fn} needs N ≥ 1 nodes, got none")


def capabilities_of(kind: str) -> frozenset[str]:
    """What each arithmetic can do (declared, not probed)."""
    common = {"linalg", "det", "solve", "lstsq", "pinv", "svd", "rank", "log"}
    if kind == "flint":
        return frozenset(common | {"enclosure"})
    if kind == "sympy":
        return frozenset({"exact"})
    return frozenset(common)


def make_backend(spec: BackendSpec | str) -> AbstractBackend:
    """Construct a backend; raise :class:`BackendUnavailable` when it cannot run here."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    if spec.kind == "mpmath":
        from recmem.numerics.mpmath_backend import MpmathBackend

        return MpmathBackend(spec, capabilities_of("mpmath"))
    if spec.kind == "flint":
        from recmem.numerics.flint_backend import FlintBackend

        return FlintBackend(spec, capabilities_of("flint"))
    if spec.kind == "numpy":
        from recmem.numerics.numpy_backend import NumpyBackend

        return NumpyBackend(spec, capabilities_of("numpy"))
    if spec.kind == "torch":
        from recmem.numerics.torch_backend import TorchBackend

        return TorchBackend(spec, capabilities_of("torch"))
    raise BackendUnavailable(f"{spec} is the symbolic side, not an arithmetic backend")
