"""Paper W, App. J: Theorem 3.9's linearisation extended to the GRU (eqs. (129)–(142) of the ICLR
2024 camera-ready).

The GRU (129)–(132) is the *definition* here (:func:`gru_step`): every statement is judged against
it. Three statements, one per displayed group of steps:

- :class:`GruField` — (133)–(138): h_t = h_{t−1} + F(h_{t−1}, x_t), F = σ(W_z x + U_z h + b_z) ⊙
  (φ(W_h x + U_h(σ(W_r x + U_r h + b_r) ⊙ h) + b_h) − h) (the continuous-time field (134) is the
  unit Euler step of the GRU); with ``shifted=True`` (139)–(140): under the Heaviside input u^x,
  F(h, x) = f(h) with the biases shifted, printed "b_z := W_z x + b_z, b_r := W_r x + b_r,
  b_h := W_z x + b_h" (the last with W_z, where W_h is meant);
- :class:`GruEquilibrium` — (141): h* = 0 is an equilibrium of (139)–(140) if (the shifted) b_h = 0;
- :class:`GruLinearisation` — (142): the Jacobian of the field at h* = 0 (b_h = 0) is
  Diag(σ(b_z))(U_h Diag(σ(b_r)) − I).

Every formula is written once, generically over an arithmetic given as :class:`Ops` (σ, φ and the
conversion of an exact rational): SymPy expressions, python-flint balls or series, mpmath, numpy
(complex step), torch (autograd) and the dual numbers of :class:`Dual` alike. Parameters are dicts
of exact rationals: ``Wz, Wr, Wh`` (m×d), ``Uz, Ur, Uh`` (m×m), ``bz, br, bh`` (m), the original
(unshifted) biases of (129)–(131).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement

GATES = ("z", "r", "h")
WEIGHTS = ("Wz", "Wr", "Wh", "Uz", "Ur", "Uh")


@dataclass(frozen=True)
class Ops:
    """An arithmetic for the GRU formulas: σ (sigmoid), φ (tanh) and exact rational → scalar."""

    sigmoid: Callable[[Any], Any]
    tanh: Callable[[Any], Any]
    conv: Callable[[Fraction], Any]


def sympy_ops() -> Ops:
    """SymPy: σ(a) = 1/(1 + e^{−a}), φ = tanh, rationals exact."""
    import sympy as sp

    return Ops(lambda a: 1 / (1 + sp.exp(-a)), sp.tanh,
               lambda q: sp.Rational(q.numerator, q.denominator))


def arb_ops(series: bool = False) -> Ops:
    """python-flint balls (arb, or arb_series when ``series``): σ(a) = 1/(1 + e^{−a}),
    φ(a) = 1 − 2/(e^{2a} + 1) (both enclosures)."""
    import flint

    return Ops(lambda a: 1 / (1 + (-a).exp()), lambda a: 1 - 2 / ((2 * a).exp() + 1),
               lambda q: flint.arb(flint.fmpq(q.numerator, q.denominator)))


# ---- the GRU, eqs. (129)–(132): the definition --------------------------------------------------

def matvec(a: Sequence[Sequence[Any]], v: Sequence[Any]) -> list[Any]:
    """a·v over any scalars (a non-empty vector)."""
    out = []
    for row in a:
        acc = row[0] * v[0]
        for aj, vj in zip(row[1:], v[1:], strict=True):
            acc = acc + aj * vj
        out.append(acc)
    return out


def converted(params: Mapping[str, Any], ops: Ops) -> dict[str, Any]:
    """The exact parameters (matrices, vectors of Fractions) in the arithmetic of ``ops``."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k in WEIGHTS:
            out[k] = [[ops.conv(q) for q in row] for row in v]
        elif k.startswith("b"):
            out[k] = [ops.conv(q) for q in v]
    return out


def gru_step(p: Mapping[str, Any], h: Sequence[Any], x: Sequence[Any], ops: Ops) -> list[Any]:
    """One GRU step, literally W App. J (129)–(132) (``p`` converted by :func:`converted`):
    z = σ(W_z x + U_z h + b_z), r = σ(W_r x + U_r h + b_r), ĥ = φ(W_h x + U_h(r ⊙ h) + b_h),
    h' = (1 − z) ⊙ h + z ⊙ ĥ."""
    z = [ops.sigmoid(a + b + c) for a, b, c in zip(matvec(p["Wz"], x), matvec(p["Uz"], h), p["bz"],
                                                   strict=True)]
    r = [ops.sigmoid(a + b + c) for a, b, c in zip(matvec(p["Wr"], x), matvec(p["Ur"], h), p["br"],
                                                   strict=True)]
    rh = [ri * hi for ri, hi in zip(r, h, strict=True)]
    hat = [ops.tanh(a + b + c) for a, b, c in zip(matvec(p["Wh"], x), matvec(p["Uh"], rh), p["bh"],
                                                  strict=True)]
    return [(1 - zi) * hi + zi * ti for zi, hi, ti in zip(z, h, hat, strict=True)]


def shift_biases(params: Mapping[str, Any], x: Sequence[Fraction],
                 sources: Mapping[str, str]) -> dict[str, list[Fraction]]:
    """The change of variables before (139): b_g := W_{sources[g]} x + b_g, exactly."""
    out = {}
    for g in GATES:
        wx = matvec(params[sources[g]], list(x))
        out[f"b{g}"] = [w + b for w, b in zip(wx, params[f"b{g}"], strict=True)]
    return out


def unshift(params: Mapping[str, Any], x: Sequence[Fraction],
            shifted: Mapping[str, Sequence[Fraction]]) -> dict[str, Any]:
    """The original biases b_g = b′_g − W_g x whose correct shift (b′_g = W_g x + b_g) is
    ``shifted``: a GRU instance given by its shifted biases (the hypotheses of (141)–(142))."""
    out = dict(params)
    for g in GATES:
        wx = matvec(params[f"W{g}"], list(x))
        out[f"b{g}"] = [b - w for b, w in zip(shifted[f"b{g}"], wx, strict=True)]
    return out


# ---- (133)–(140): the field --------------------------------------------------------------------

RESET_PLACES = {"inside": "U_h(r ⊙ h)", "outside": "r ⊙ (U_h h)"}


@dataclass(frozen=True)
class GruField(Statement):
    """W App. J (133)–(138), or with ``shifted`` (139)–(140): the GRU update is h_t = h_{t−1} +
    sign·F(h_{t−1}, x_t) with F = σ_gate ⊙ (φ(W_h x + [reset placement] + b_h) − leak·h).

    Fields: ``sign`` of the gated term (printed +1), ``gate`` whose σ multiplies the bracket
    (printed z), ``reset`` placement (printed inside: U_h(r ⊙ h)), ``leak`` the coefficient of h in
    the bracket (printed 1); ``shifted``: the Heaviside input is absorbed into the biases, b_g :=
    W_{source} x + b_g, with ``z_source`` (printed W_z), W_r for b_r, and ``h_source`` (printed
    W_z — a misprint for W_h).
    """

    sign: int = 1
    gate: str = "z"
    reset: str = "inside"
    leak: Fraction = Fraction(1)
    shifted: bool = False
    h_source: str = "Wh"
    z_source: str = "Wz"

    @property
    def text(self) -> str:
        s = "+" if self.sign > 0 else "−"
        leak = "" if self.leak == 1 else f"({self.leak})·"
        inner = RESET_PLACES[self.reset].replace("r", "σ(W_r x + U_r h + b_r)", 1) \
            if not self.shifted else RESET_PLACES[self.reset].replace("r", "σ(U_r h + b_r)", 1)
        if not self.shifted:
            g = self.gate
            return (f"GRU (129)–(132): h_t = h_(t−1) {s} σ(W_{g} x_t + U_{g} h_(t−1) + b_{g}) ⊙ "
                    f"(φ(W_h x_t + {inner} + b_h) − {leak}h_(t−1)) with h = h_(t−1), i.e. the "
                    "continuous-time field (134)–(138) is the GRU's unit Euler step")
        src = {"z": self.z_source, "r": "Wr", "h": self.h_source}
        shift = ", ".join(f"b_{g} := {src[g][0]}_{src[g][1]} x + b_{g}" for g in GATES)
        return (f"GRU (129)–(132) under the Heaviside input u^x, t ≥ 0, after {shift}: h_t = "
                f"h_(t−1) {s} f(h_(t−1)), f(h) = σ(U_{self.gate} h + b_{self.gate}) ⊙ "
                f"(φ({inner} + b_h) − {leak}h) (139)–(140)")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("sign of the gated term flipped", replace(self, sign=-self.sign)),
               Control("update gate z replaced by the reset gate r",
                       replace(self, gate="r" if self.gate == "z" else "z")),
               Control("reset gate applied after U_h (r ⊙ U_h h, the cuDNN placement)",
                       replace(self, reset="outside" if self.reset == "inside" else "inside")),
               Control("coefficient of h in the bracket times 15/16",
                       replace(self, leak=self.leak * Fraction(15, 16)))]
        if self.shifted:
            out.append(Control("b_z shifted by W_r x instead of W_z x",
                               replace(self, z_source="Wr" if self.z_source == "Wz" else "Wz")))
        return tuple(out)

    def field(self, p: Mapping[str, Any], h: Sequence[Any], x: Sequence[Any], ops: Ops,
              wx: Mapping[str, Sequence[Any]] | None = None) -> list[Any]:
        """The statement's F(h, x) (``p`` converted). ``wx``: the products W_g x for the
        (139)–(140) reading (the shifted biases b_g + W_source x), computed by the caller in the
        same arithmetic; unused for (138)."""
        if self.shifted:
            if wx is None:
                raise ValueError("the shifted field needs the products W_g x")
            src = {"z": self.z_source, "r": "Wr", "h": self.h_source}
            b = {g: [bi + wi for bi, wi in zip(p[f"b{g}"], wx[src[g]], strict=True)]
                 for g in GATES}
            drive = {g: [bi * 0 for bi in b[g]] for g in GATES}
        else:
            b = {g: list(p[f"b{g}"]) for g in GATES}
            drive = {g: matvec(p[f"W{g}"], x) for g in GATES}

        def pre(g: str) -> list[Any]:
            return [a + c + d for a, c, d in zip(drive[g], matvec(p[f"U{g}"], h), b[g],
                                                 strict=True)]

        gate = [ops.sigmoid(a) for a in pre(self.gate)]
        r = [ops.sigmoid(a) for a in pre("r")]
        if self.reset == "inside":
            inner = matvec(p["Uh"], [ri * hi for ri, hi in zip(r, h, strict=True)])
        else:
            inner = [ri * ui for ri, ui in zip(r, matvec(p["Uh"], h), strict=True)]
        lk = ops.conv(self.leak)
        hat = [ops.tanh(a + c + d) for a, c, d in zip(drive["h"], inner, b["h"], strict=True)]
        return [self.sign * gi * (ti - lk * hi)
                for gi, ti, hi in zip(gate, hat, h, strict=True)]

    def update(self, p: Mapping[str, Any], h: Sequence[Any], x: Sequence[Any], ops: Ops,
               wx: Mapping[str, Sequence[Any]] | None = None) -> list[Any]:
        """h + F(h, x): the update the statement says the GRU performs."""
        return [hi + fi for hi, fi in zip(h, self.field(p, h, x, ops, wx), strict=True)]


# ---- (141): the equilibrium -------------------------------------------------------------------


@dataclass(frozen=True)
class GruEquilibrium(Statement):
    """W App. J (141): h* = 0 is an equilibrium of (139)–(140) if b_``bias`` = 0 (shifted
    biases); ``radius`` > 0 widens the hypothesis to |b_bias| ≤ radius (a control)."""

    bias: str = "h"
    radius: Fraction = Fraction(0)

    @property
    def text(self) -> str:
        hyp = (f"b_{self.bias} = 0" if self.radius == 0 else
               f"|b_{self.bias}|∞ ≤ {self.radius}")
        return ("h* = 0 is an equilibrium of (139)–(140), σ(b_z) ⊙ (φ(U_h(σ(b_r) ⊙ 0) + b_h) − 0) "
                f"= 0 (141), whenever {hyp} (biases after the shift; the GRU (129)–(132) under "
                "u^x stays at rest)")

    def controls(self) -> tuple[Control, ...]:
        others = [g for g in GATES if g != self.bias]
        return (*(Control(f"hypothesis on b_{g} instead of b_{self.bias}", replace(self, bias=g))
                  for g in others),
                Control("hypothesis widened to |b| ≤ radius + 1/8",
                        replace(self, radius=self.radius + Fraction(1, 8))))

    def hypothesis_values(self) -> tuple[Fraction, ...]:
        """The values of the hypothesised (shifted) bias the checks use: 0 and the boundary ±radius."""
        return (Fraction(0),) if self.radius == 0 else (self.radius, -self.radius, Fraction(0))

    def admits(self, shifted: Mapping[str, Sequence[Fraction]]) -> bool:
        """Whether shifted biases meet the hypothesis."""
        return all(abs(b) <= self.radius for b in shifted[f"b{self.bias}"])


# ---- (142): the linearisation -----------------------------------------------------------------


@dataclass(frozen=True)
class GruLinearisation(Statement):
    """W App. J (142): at h* = 0 with b_h = 0, the field's Jacobian is sign·Diag(σ(b_gate))
    (U_h' Diag(σ(b_other)) − identity·I), printed gate z, U_h' = U_h on the left of Diag(σ(b_r))
    (``reset_side`` right), sign +1, identity 1. Biases are the shifted ones."""

    sign: int = 1
    gate: str = "z"
    reset_side: str = "right"
    transpose: bool = False
    identity: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        other = "r" if self.gate == "z" else "z"
        u = "U_hᵀ" if self.transpose else "U_h"
        prod = (f"{u} Diag(σ(b_{other}))" if self.reset_side == "right"
                else f"Diag(σ(b_{other})) {u}")
        s = "" if self.sign > 0 else "−"
        ident = "I" if self.identity == 1 else f"({self.identity})I"
        return (f"at h* = 0 (shifted b_h = 0) the GRU field (139)–(140) linearises to dh/dt = "
                f"{s}Diag(σ(b_{self.gate}))({prod} − {ident}) h (142); equivalently the GRU step's "
                "Jacobian there is I + that matrix")

    def controls(self) -> tuple[Control, ...]:
        return (Control("U_h transposed", replace(self, transpose=not self.transpose)),
                Control("gates swapped (σ(b_r) outside, σ(b_z) inside)",
                        replace(self, gate="r" if self.gate == "z" else "z")),
                Control("Diag(σ(b_r)) on the left of U_h (the cuDNN placement)",
                        replace(self, reset_side="left" if self.reset_side == "right" else "right")),
                Control("sign flipped", replace(self, sign=-self.sign)),
                Control("identity coefficient times 7/8",
                        replace(self, identity=self.identity * Fraction(7, 8))))

    def matrix(self, uh: Sequence[Sequence[Any]], bz: Sequence[Any], br: Sequence[Any],
               ops: Ops) -> list[list[Any]]:
        """The statement's matrix from U_h and the shifted b_z, b_r (converted) in ``ops``."""
        m = len(bz)
        outer = [ops.sigmoid(b) for b in (bz if self.gate == "z" else br)]
        inner = [ops.sigmoid(b) for b in (br if self.gate == "z" else bz)]
        u = [[uh[j][i] for j in range(m)] for i in range(m)] if self.transpose else uh
        idn, zero = ops.conv(self.identity), ops.conv(Fraction(0))
        out = []
        for i in range(m):
            row = []
            for j in range(m):
                prod = u[i][j] * (inner[j] if self.reset_side == "right" else inner[i])
                diag = idn if i == j else zero
                row.append(self.sign * outer[i] * (prod - diag))
            out.append(row)
        return out


# ---- exact formal arithmetic: polynomials over ℚ in σ(·), φ(·) atoms ---------------------------


class Formal:
    """An exact value: a polynomial over ℚ whose variables are the atoms σ(a), φ(a) (a itself a
    Formal, keyed canonically), with σ(0) = 1/2 and φ(0) = 0 evaluated. A Formal that is the zero
    polynomial is exactly 0 (the converse need not hold: an arb enclosure decides those)."""

    __slots__ = ("terms",)

    def __init__(self, terms: Mapping[tuple[int, ...], Fraction]) -> None:
        self.terms = {k: v for k, v in terms.items() if v != 0}

    @classmethod
    def const(cls, q: Fraction | int) -> Formal:
        """The constant q."""
        return cls({(): Fraction(q)})

    def key(self) -> tuple[Any, ...]:
        """A canonical hashable form (equal polynomials, equal keys)."""
        return tuple(sorted(self.terms.items()))

    def constant(self) -> Fraction | None:
        """The value when the polynomial is a constant, else None."""
        if not self.terms:
            return Fraction(0)
        if set(self.terms) == {()}:
            return self.terms[()]
        return None

    @classmethod
    def atom(cls, fn: str, arg: Formal, registry: dict[tuple[Any, ...], int]) -> Formal:
        """The variable fn(arg), numbered in ``registry`` (one per evaluation: equal arguments
        give the same variable)."""
        idx = registry.setdefault((fn, arg.key()), len(registry))
        return cls({(idx,): Fraction(1)})

    @staticmethod
    def lift(o: Any) -> Formal:
        """A Formal from a Formal, an int or a Fraction."""
        return o if isinstance(o, Formal) else Formal.const(o)

    def __add__(self, o: Any) -> Formal:
        if not isinstance(o, Formal | int | Fraction):
            return NotImplemented
        t = dict(self.terms)
        for k, v in Formal.lift(o).terms.items():
            t[k] = t.get(k, Fraction(0)) + v
        return Formal(t)

    __radd__ = __add__

    def __neg__(self) -> Formal:
        return Formal({k: -v for k, v in self.terms.items()})

    def __sub__(self, o: Any) -> Formal:
        if not isinstance(o, Formal | int | Fraction):
            return NotImplemented
        return self + (-Formal.lift(o))

    def __rsub__(self, o: Any) -> Formal:
        if not isinstance(o, Formal | int | Fraction):
            return NotImplemented
        return Formal.lift(o) - self

    def __mul__(self, o: Any) -> Formal:
        if not isinstance(o, Formal | int | Fraction):
            return NotImplemented
        t: dict[tuple[int, ...], Fraction] = {}
        for k1, v1 in self.terms.items():
            for k2, v2 in Formal.lift(o).terms.items():
                k = tuple(sorted(k1 + k2))
                t[k] = t.get(k, Fraction(0)) + v1 * v2
        return Formal(t)

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Formal:
        q = Formal.lift(o).constant()
        if q is None or q == 0:
            raise ZeroDivisionError("Formal divides by nonzero rationals only")
        return self * Formal.const(1 / q)

    def is_zero(self) -> bool:
        """Whether this is the zero polynomial (then the value is exactly 0)."""
        return not self.terms


def formal_ops() -> Ops:
    """Exact :class:`Formal` arithmetic: σ(0) = 1/2, φ(0) = 0, other values atoms (numbered
    afresh for each call: use one ``formal_ops()`` for the two sides of an identity)."""
    registry: dict[tuple[Any, ...], int] = {}

    def sig(a: Any) -> Formal:
        a = Formal.lift(a)
        return Formal.const(Fraction(1, 2)) if a.constant() == 0 else Formal.atom("σ", a, registry)

    def th(a: Any) -> Formal:
        a = Formal.lift(a)
        return Formal.const(0) if a.constant() == 0 else Formal.atom("φ", a, registry)

    return Ops(sig, th, Formal.const)


# ---- forward-mode dual numbers over any arithmetic (exact Jacobians) ---------------------------


@dataclass(frozen=True)
class Dual:
    """a + b·ε with ε² = 0 over any scalars: f(h + εv) carries the directional derivative."""

    a: Any
    b: Any

    def _lift(self, o: Any) -> Dual:
        return o if isinstance(o, Dual) else Dual(o, 0 * self.b)

    def __add__(self, o: Any) -> Dual:
        o = self._lift(o)
        return Dual(self.a + o.a, self.b + o.b)

    __radd__ = __add__

    def __neg__(self) -> Dual:
        return Dual(-self.a, -self.b)

    def __sub__(self, o: Any) -> Dual:
        return self + (-self._lift(o))

    def __rsub__(self, o: Any) -> Dual:
        return self._lift(o) - self

    def __mul__(self, o: Any) -> Dual:
        o = self._lift(o)
        return Dual(self.a * o.a, self.a * o.b + self.b * o.a)

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Dual:
        if isinstance(o, Dual):
            raise TypeError("division by a dual number is not needed here")
        return Dual(self.a / o, self.b / o)


def dual_ops(base: Ops) -> Ops:
    """σ and φ on dual numbers over ``base``: σ′ = σ(1 − σ), φ′ = 1 − φ²."""
    def sig(d: Any) -> Any:
        if not isinstance(d, Dual):
            return base.sigmoid(d)
        s = base.sigmoid(d.a)
        return Dual(s, s * (1 - s) * d.b)

    def th(d: Any) -> Any:
        if not isinstance(d, Dual):
            return base.tanh(d)
        t = base.tanh(d.a)
        return Dual(t, (1 - t * t) * d.b)

    return Ops(sig, th, base.conv)


def step_jacobian_dual(params: Mapping[str, Any], x: Sequence[Fraction], base: Ops) -> list[list[Any]]:
    """∂(gru_step)/∂h at h = 0, column by column with dual numbers over ``base`` (exact over
    :class:`Formal` or SymPy, certified over arb balls), minus I: the Jacobian of the
    continuous-time field (134)."""
    return jacobian_at_rest(converted(params, base), [base.conv(q) for q in x], base)


def jacobian_at_rest(p: Mapping[str, Any], xs: Sequence[Any], base: Ops) -> list[list[Any]]:
    """:func:`step_jacobian_dual` for parameters already in the arithmetic of ``base``."""
    m = len(p["bz"])
    zero, one = base.conv(Fraction(0)), base.conv(Fraction(1))
    ops = dual_ops(base)
    cols = []
    for j in range(m):
        h = [Dual(zero, one if i == j else zero) for i in range(m)]
        out = gru_step(p, h, xs, ops)
        cols.append([o.b - (one if i == j else zero) for i, o in enumerate(out)])
    return [[cols[j][i] for j in range(m)] for i in range(m)]


@functools.cache
def derivative_facts() -> tuple[bool, bool]:
    """SymPy: σ′ = σ(1 − σ) for σ(a) = 1/(1 + e^{−a}) and tanh′ = 1 − tanh² (the rules of
    :func:`dual_ops`)."""
    import sympy as sp

    a = sp.Symbol("a", real=True)
    s = 1 / (1 + sp.exp(-a))
    # rational functions of the generator e^{−a} (resp. tanh a): sp.cancel decides them
    return (sp.cancel(sp.diff(s, a) - s * (1 - s)) == 0,
            sp.cancel(sp.diff(sp.tanh(a), a) - (1 - sp.tanh(a) ** 2)) == 0)


# ---- symbolic derivations ----------------------------------------------------------------------


def symbolic_params(m: int, d: int) -> tuple[dict[str, Any], list[Any], list[Any]]:
    """SymPy symbols for every weight, bias, the state h and the input x (m units, d inputs)."""
    import sympy as sp

    p: dict[str, Any] = {}
    for g in GATES:
        p[f"W{g}"] = [[sp.Symbol(f"W{g}_{i}{k}", real=True) for k in range(d)] for i in range(m)]
        p[f"U{g}"] = [[sp.Symbol(f"U{g}_{i}{k}", real=True) for k in range(m)] for i in range(m)]
        p[f"b{g}"] = [sp.Symbol(f"b{g}_{i}", real=True) for i in range(m)]
    h = [sp.Symbol(f"h_{i}", real=True) for i in range(m)]
    x = [sp.Symbol(f"x_{k}", real=True) for k in range(d)]
    return p, h, x


def certified_nonzero(values: Sequence[Any]) -> tuple[int, str] | None:
    """(index, ball) of the first arb ball that excludes 0, or None."""
    for i, v in enumerate(values):
        if not v.contains(0):
            return i, str(v)
    return None


def zero_instance(m: int, d: int) -> dict[str, Any]:
    """All weights and biases 0 (exact), m units, d inputs."""
    z = Fraction(0)
    p: dict[str, Any] = {}
    for g in GATES:
        p[f"W{g}"] = [[z] * d for _ in range(m)]
        p[f"U{g}"] = [[z] * m for _ in range(m)]
        p[f"b{g}"] = [z] * m
    return p


def witness_instances(m: int = 2, d: int = 2) -> list[dict[str, Any]]:
    """Deterministic exact instances (params, h, x) the symbolic checks evaluate a residual at
    when the expansion is not 0: simple ones first (unit weights), then seeded random ones."""
    import random

    out = []
    rng = random.Random(129)

    def q() -> Fraction:
        return Fraction(rng.randint(-8, 8), 4)

    for _ in range(6):
        p = zero_instance(m, d)
        for k in p:
            if k in WEIGHTS:
                p[k] = [[q() for _ in row] for row in p[k]]
            else:
                p[k] = [q() for _ in p[k]]
        out.append({"params": p, "h": [q() for _ in range(m)], "x": [q() for _ in range(d)]})
    return out


def show_instance(inst: Mapping[str, Any]) -> dict[str, Any]:
    """An instance's exact values as strings (for evidence and reports)."""
    out: dict[str, Any] = {}
    for k, v in inst.items():
        if isinstance(v, Mapping):
            out.update(show_instance(v))
        elif isinstance(v, list):
            out[k] = [[str(e) for e in row] if isinstance(row, list) else str(row) for row in v]
        else:
            out[k] = str(v)
    return out


def field_residual(st: GruField, params: Mapping[str, Any], h: Sequence[Any], x: Sequence[Any],
                   ops: Ops) -> list[Any]:
    """gru_step(h, x) − (h + F(h, x)) in ``ops`` (params converted; h, x scalars of ``ops``)."""
    wx = {w: matvec(params[w], x) for w in ("Wz", "Wr", "Wh")}
    g = gru_step(params, h, x, ops)
    u = st.update(params, h, x, ops, wx)
    return [a - b for a, b in zip(g, u, strict=True)]


def _certified_witness(residual: Callable[[Mapping[str, Any], Ops], list[Any]],
                       witnesses: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The first witness instance at which the residual's arb enclosure (128 bits) excludes 0."""
    import flint

    with flint.ctx.workprec(128):
        ops = arb_ops()
        for inst in witnesses:
            hit = certified_nonzero(residual(inst, ops))
            if hit is not None:
                return {**show_instance(inst), "component": hit[0],
                        "residual (arb ball, 128 bits)": hit[1]}
    return None


@functools.cache
def _sym_field_parts(m: int, d: int) -> tuple[Any, Any, Any]:
    return symbolic_params(m, d)


def field_proof(st: GruField, m: int = 2, d: int = 2) -> Proof:
    """Decide ``st`` symbolically: gru_step − (h + F) with every weight, bias, state and input a
    symbol (m units, d inputs) expanded by SymPy; 0 proves it (for m ≤ ``m``, d ≤ ``d``: a smaller
    GRU is the decoupled block of a larger one with zero weights); otherwise the residual at exact
    witness instances, certified nonzero by an arb enclosure, is the counterexample."""
    import sympy as sp

    p, h, x = _sym_field_parts(m, d)
    res = field_residual(st, p, h, x, sympy_ops())
    expanded = [sp.expand(r) for r in res]
    scope = f"m ≤ {m} units, d ≤ {d} inputs, every real weight, bias, state and input"
    if all(e == 0 for e in expanded):
        return Proof(True, scope, "SymPy expansion of (129)–(132) minus the statement's update",
                     general=True)

    def residual(inst: Mapping[str, Any], ops: Ops) -> list[Any]:
        return field_residual(st, converted(inst["params"], ops), [ops.conv(q) for q in inst["h"]],
                              [ops.conv(q) for q in inst["x"]], ops)

    cx = _certified_witness(residual, witness_instances(m, d))
    if cx is not None:
        return Proof(False, scope, "SymPy expansion nonzero; an exact instance with the residual's "
                     "arb enclosure excluding 0", counterexample=cx)
    return Proof(None, scope, "SymPy expansion nonzero but no witness certified",
                 details={"residual": str(expanded[0])[:300]})


def equilibrium_residual(st: GruEquilibrium, params: Mapping[str, Any], x: Sequence[Fraction],
                         shifted: Mapping[str, Sequence[Fraction]], ops: Ops) -> list[Any]:
    """The GRU step from rest (h = 0) under u^x, with the original biases that the (correct) shift
    maps to ``shifted`` — zero iff h* = 0 is an equilibrium (a fixed point of (132))."""
    orig = unshift(params, x, shifted)
    p = converted(orig, ops)
    zero = ops.conv(Fraction(0))
    return gru_step(p, [zero] * len(orig["bz"]), [ops.conv(q) for q in x], ops)


def equilibrium_proof(st: GruEquilibrium, m: int = 2, d: int = 2) -> Proof:
    """Decide ``st``: the GRU step from rest with symbolic weights, input and shifted biases, the
    hypothesised bias set to each of its values (0, ±radius); an identically 0 step proves it; else
    an exact instance (the other shifted biases unit values) certified nonzero in arb."""
    import sympy as sp

    p, _, x = _sym_field_parts(m, d)
    shifted = {f"b{g}": list(p[f"b{g}"]) for g in GATES}
    scope = f"m ≤ {m}, d ≤ {d}, every real weight, input and shifted bias meeting the hypothesis"
    ops = sympy_ops()
    for value in st.hypothesis_values():
        hyp = dict(shifted)
        hyp[f"b{st.bias}"] = [ops.conv(value)] * m
        step = [sp.expand(e) for e in equilibrium_residual_sym(p, x, hyp, ops)]
        if all(e == 0 for e in step):
            continue
        witnesses = []
        for w in witness_instances(m, d):
            sb = {f"b{g}": list(w["params"][f"b{g}"]) for g in GATES}
            sb[f"b{st.bias}"] = [value] * m
            witnesses.append({"params": w["params"], "x": w["x"], "shifted": sb})

        def residual(inst: Mapping[str, Any], o: Ops) -> list[Any]:
            return equilibrium_residual(st, inst["params"], inst["x"], inst["shifted"], o)

        cx = _certified_witness(residual, witnesses)
        if cx is not None:
            return Proof(False, scope, "SymPy: the step from rest is not 0; an exact instance "
                         "certified nonzero (arb)", counterexample=cx)
        return Proof(None, scope, "the step from rest is not identically 0 but no witness certified")
    return Proof(True, scope, "SymPy: the GRU step (129)–(132) from rest, under the hypothesis, "
                 "is identically 0 (φ(0) = 0)", general=True)


def equilibrium_residual_sym(p: Mapping[str, Any], x: Sequence[Any],
                             shifted: Mapping[str, Sequence[Any]], ops: Ops) -> list[Any]:
    """:func:`equilibrium_residual` with symbolic entries (no Fractions to convert)."""
    orig = dict(p)
    for g in GATES:
        wx = matvec(p[f"W{g}"], x)
        orig[f"b{g}"] = [b - w for b, w in zip(shifted[f"b{g}"], wx, strict=True)]
    zero = ops.conv(Fraction(0))
    return gru_step(orig, [zero] * len(orig["bz"]), x, ops)


@functools.cache
def _sym_jacobian(m: int, d: int) -> tuple[Any, ...]:
    """SymPy: ∂(gru_step)/∂h at h = 0 minus I, with b_h = −W_h x (shifted b_h = 0), by forward-mode
    dual numbers over SymPy (the chain rule, with the rules of :func:`derivative_facts`), and the
    symbols (statement-independent, so cached)."""
    import sympy as sp

    p, _, x = symbolic_params(m, d)
    ops = sympy_ops()
    q = {**p, "bh": [-w for w in matvec(p["Wh"], x)]}
    jac = [[sp.expand(e, power_exp=False, power_base=False, log=False, multinomial=False)
            for e in row] for row in jacobian_at_rest(q, x, ops)]
    bz = [b + w for b, w in zip(p["bz"], matvec(p["Wz"], x), strict=True)]
    br = [b + w for b, w in zip(p["br"], matvec(p["Wr"], x), strict=True)]
    return p, x, jac, bz, br


def linearisation_residual(st: GruLinearisation, params: Mapping[str, Any],
                           x: Sequence[Fraction], base: Ops) -> list[Any]:
    """Entries of (Jacobian of the GRU step at 0, minus I; dual numbers over ``base``) minus the
    statement's matrix, for an instance whose shifted b_h is 0."""
    jac = step_jacobian_dual(params, x, base)
    shifted = shift_biases(params, x, {"z": "Wz", "r": "Wr", "h": "Wh"})
    a = st.matrix([[base.conv(q) for q in row] for row in params["Uh"]],
                  [base.conv(q) for q in shifted["bz"]], [base.conv(q) for q in shifted["br"]],
                  base)
    return [jac[i][j] - a[i][j] for i in range(len(a)) for j in range(len(a))]


def linearisation_proof(st: GruLinearisation, m: int = 2, d: int = 1) -> Proof:
    """Decide ``st``: SymPy differentiates the GRU step (129)–(132) at h = 0 with every weight,
    input and bias a symbol (b_h = −W_h x: the shifted b_h is 0) and compares minus I with the
    statement's matrix; else an exact instance with an arb enclosure excluding 0."""
    import sympy as sp

    p, _, jac, bz, br = _sym_jacobian(m, d)
    a = st.matrix(p["Uh"], bz, br, sympy_ops())
    diff = [jac[i][j] - sp.expand(a[i][j], power_exp=False, power_base=False, log=False,
                                  multinomial=False) for i in range(m) for j in range(m)]
    scope = (f"m ≤ {m} units, d ≤ {d} inputs, every real weight, input and bias with shifted "
             "b_h = 0")
    if all(e == 0 for e in diff):
        if not all(derivative_facts()):
            return Proof(None, scope, "SymPy could not confirm σ′ = σ(1 − σ) and tanh′ = 1 − tanh²")
        return Proof(True, scope, "SymPy: d/dh of (129)–(132) at h = 0 (forward-mode chain rule with "
                     "σ′ = σ(1 − σ), tanh′ = 1 − tanh², both by sp.diff), minus I, expanded against "
                     "the statement's matrix", general=True)
    witnesses = []
    for w in witness_instances(m, d):
        prm = dict(w["params"])
        prm["bh"] = [-v for v in matvec(prm["Wh"], w["x"])]
        witnesses.append({"params": prm, "x": w["x"]})

    def residual(inst: Mapping[str, Any], o: Ops) -> list[Any]:
        return linearisation_residual(st, inst["params"], inst["x"], o)

    cx = _certified_witness(residual, witnesses)
    if cx is not None:
        return Proof(False, scope, "SymPy: Jacobian minus the statement's matrix is not 0; an "
                     "exact instance certified nonzero (arb, dual numbers)", counterexample=cx)
    return Proof(None, scope, "difference not 0 but no witness certified")
