"""W.gru: paper W's App. J, Theorem 3.9's linearisation extended to the GRU (eqs. (129)–(142) of the
ICLR 2024 camera-ready), one claim per displayed group of steps, each judged against the GRU
(129)–(132) itself (recmem.theory.gru.gru_step, the definition):

- ``W.gru.update`` — (133)–(138): the update is h_{t−1} + F(h_{t−1}, x_t) with F the printed
  continuous-time field, i.e. (134) is the GRU's unit Euler step;
- ``W.gru.bias-shift`` — (139)–(140) after the printed change of variables "b_h := W_z x + b_h":
  REFUTED (the input enters φ through W_h, not W_z); ``.corrected``: b_h := W_h x + b_h;
- ``W.gru.equilibrium`` — (141): h* = 0 is an equilibrium when the shifted b_h = 0 (the GRU under
  u^x stays at rest);
- ``W.gru`` — (142): the linearisation at h* = 0 is Diag(σ(b_z))(U_h Diag(σ(b_r)) − I).

Symbolic side: SymPy expands the definition against the statement with every weight, bias, state
and input a symbol (theory.gru.*_proof). Numeric side, in every arithmetic, the definition against
the statement's formula (checks.numeric.identity_check; an mpmath failure is certified in arb): the
step itself for (133)–(141); for (142) the Jacobian of the GRU step by each arithmetic's own
differentiation — mpmath ``diff`` (finite differences at raised precision), flint ``arb_series``
(certified first-order Taylor arithmetic), numpy complex step Im G(iδe_j)/δ, torch autograd — minus
I. Search: exact instances (m, d ≤ 2), decided by SymPy (exact zero) or an arb enclosure excluding
0 (dual numbers for the Jacobian).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.theory import gru as g
from recmem.theory.gru import GruEquilibrium, GruField, GruLinearisation, Ops

QUOTE_GRU = (r"We will analyze GRU as LSTM comes with more complicated structure. The classical GRU is "
             r"of the following structure: $$ z _ {t} = \sigma (W _ {z} x _ {t} + U _ {z} h _ {t - 1} + "
             r"b _ {z}), \tag {129} $$ $$ r _ {t} = \sigma (W _ {r} x _ {t} + U _ {r} h _ {t - 1} + b _ "
             r"{r}), \tag {130} $$ $$ \hat {h} _ {t} = \phi (W _ {h} x _ {t} + U _ {h} (r _ {t} \odot h "
             r"_ {t - 1}) + b _ {h}), \tag {131} $$ $$ h _ {t} = \left(1 - z _ {t}\right) \odot h _ {t "
             r"- 1} + z _ {t} \odot \hat {h} _ {t}. \tag {132} $$ Here $\sigma$ is sigmoid activation "
             r"and $\phi$ is the tanh activation.")
QUOTE_133_138 = (r"The hidden state equations can be reformulated into $$ h _ {t} = h _ {t - 1} + z _ "
                 r"{t} \odot (\hat {h} _ {t} - h _ {t - 1}). \tag {133} $$ The corresponding "
                 r"continuous-time version can be given by $$ \frac {d h _ {t}}{d t} = z _ {t} \odot "
                 r"(\hat {h} _ {t} - h _ {t}) \tag {134} $$ $$ = \sigma (W _ {z} x _ {t} + U _ {z} h _ "
                 r"{t} + b _ {z}) \odot (\hat {h} _ {t} - h _ {t}) \tag {135} $$ $$ = \sigma (W _ {z} x "
                 r"_ {t} + U _ {z} h _ {t} + b _ {z}) \odot (\phi (W _ {h} x _ {t} + U _ {h} (r _ {t} "
                 r"\odot h _ {t}) + b _ {h}) - h _ {t}) \tag {136} $$ $$ = \sigma (W _ {z} x _ {t} + U "
                 r"_ {z} h _ {t} + b _ {z}) \tag {137} $$ $$ \odot \left(\phi (W _ {h} x _ {t} + U _ "
                 r"{h} (\sigma (W _ {r} x _ {t} + U _ {r} h _ {t} + b _ {r}) \odot h _ {t}) + b _ "
                 r"{h}) - h _ {t}\right). \tag {138} $$")
QUOTE_139_140 = (r"Let $x \in R^{d}$ and we consider the Heaviside inputs $\mathbf{u}_{t}^{x} = x \cdot "
                 r"\mathbf{1}_{[0,\infty)}(t) = \begin{cases} x & t \geq 0, \\ 0 & t < 0. \end{cases}$ . "
                 r"After change of variable over the bias term $b_{z} := W_{z}x + b_{z}, b_{r} := "
                 r"W_{r}x + b_{r}, b_{h} := W_{z}x + b_{h}$ , the corresponding hidden dynamics can be "
                 r"simplified into $$ \frac {d h _ {t}}{d t} = \sigma (U _ {z} h _ {t} + b _ {z}) "
                 r"\tag {139} $$ $$ \odot \left(\phi (U _ {h} (\sigma (U _ {r} h _ {t} + b _ {r}) "
                 r"\odot h _ {t}) + b _ {h}) - h _ {t}\right), \tag {140} $$")
QUOTE_141 = (r"Notice that $h^* = 0$ is an equilibrium point if $b_h = 0$ : $$ \sigma (b _ {z}) \odot "
             r"(\phi (U _ {h} (\sigma (b _ {r}) \odot 0) + 0) - 0) = 0. \tag {141} $$")
QUOTE_142 = (r"Similar linearization can be utilized to analyse the corresponding first-order system: "
             r"$$ \frac {d h _ {t}}{d t} = \mathrm{Diag} (\sigma (b _ {z})) (U _ {h} \mathrm{Diag} "
             r"(\sigma (b _ {r})) - I) h _ {t}. \tag {142} $$")
WHERE = "App. J, eqs. (129)–(142) (ICLR camera-ready)"

C_GRU = 4.0
TAG_FIELD, TAG_EQ, TAG_LIN = 129, 141, 142
CS_STEP = 2.0**-64  # complex step δ: the O(δ²) term is far below u and nothing cancels


# ---- exact draws -------------------------------------------------------------------------------

def _q(rng: random.Random) -> Fraction:
    return Fraction(rng.randint(-16, 16), 8)


def draw(ctx: Context, tag: int) -> dict[str, Any]:
    """Seeded exact instance: params (m units, d inputs, entries p/8 in [−2, 2]), h and x."""
    m, d = int(ctx["m"]), int(ctx["d"])
    rng = random.Random(ctx.seed * 1000 + tag)
    p = g.zero_instance(m, d)
    for k in p:
        p[k] = [[_q(rng) for _ in row] for row in p[k]] if k in g.WEIGHTS else [_q(rng) for _ in p[k]]
    return {"params": p, "h": [_q(rng) for _ in range(m)], "x": [_q(rng) for _ in range(d)]}


# ---- each arithmetic's σ, φ and conversion -----------------------------------------------------

def backend_ops(backend: AbstractBackend) -> Ops:
    """σ, φ and rational → scalar in ``backend`` (flint: arb balls; numpy: its dtype; torch:
    0-d tensors of its real dtype)."""
    kind = backend.spec.kind
    if kind == "mpmath":
        c = rp.mp_ctx(backend)
        return Ops(lambda a: 1 / (1 + c.exp(-a)), c.tanh, lambda q: c.mpf(q.numerator) / q.denominator)
    if kind == "flint":
        return g.arb_ops()
    if kind == "numpy":
        import numpy as np

        real = np.float32 if backend.spec.dtype == "float32" else np.float64
        return Ops(lambda a: 1 / (1 + np.exp(-a)), np.tanh, lambda q: real(q.numerator / q.denominator))
    torch, dev, rd = rp.torch_of(backend)
    return Ops(torch.sigmoid, torch.tanh,
               lambda q: torch.tensor(q.numerator / q.denominator, dtype=rd, device=dev))


def _require(backend: AbstractBackend) -> None:
    if backend.spec.kind == "mpmath" and backend.precision_bits < rp.MIN_BITS:
        raise BackendUnavailable(f"{backend.name}: fewer than {rp.MIN_BITS} bits")


def _instance_text(inst: Mapping[str, Any]) -> dict[str, Any]:
    return g.show_instance(inst)


def _kappa(params: Mapping[str, Any], h: list[Fraction], x: list[Fraction], scale: Any) -> mpmath.mpf:
    """Σ_i (|h_i| + 1 + Σ|terms of the pre-activations of unit i|) / scale, at 64 bits: the
    absolute error of one GRU evaluation is ≲ u·(that sum) (σ′ ≤ 1/4, φ′ ≤ 1, |σ|, |φ| ≤ 1)."""
    c = mpmath.MPContext()
    c.prec = 64

    def f(q: Fraction) -> Any:
        return c.mpf(q.numerator) / q.denominator

    total = c.mpf(0)
    for i in range(len(h)):
        total += abs(f(h[i])) + 1
        for gate in g.GATES:
            total += sum(abs(f(w) * f(v)) for w, v in zip(params[f"W{gate}"][i], x, strict=True))
            total += sum(abs(f(u) * f(v)) for u, v in zip(params[f"U{gate}"][i], h, strict=True))
            total += abs(f(params[f"b{gate}"][i]))
    s = c.mpf(scale)
    return total / (s if s > 0 else 1)


def _step_norm(inst: Mapping[str, Any]) -> mpmath.mpf:
    """‖GRU step‖₂ at 64 bits (the scale of κ)."""
    c = mpmath.MPContext()
    c.prec = 64
    ops = Ops(lambda a: 1 / (1 + c.exp(-a)), c.tanh, lambda q: c.mpf(q.numerator) / q.denominator)
    step = g.gru_step(g.converted(inst["params"], ops), [ops.conv(q) for q in inst["h"]],
                      [ops.conv(q) for q in inst["x"]], ops)
    return c.sqrt(sum(v * v for v in step))


# ---- W.gru.update, W.gru.bias-shift(.corrected): (133)–(140) -----------------------------------

def field_symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by theory.gru.field_proof."""
    t0 = time.perf_counter()
    return [from_proof(g.field_proof(ctx.law(GruField)), time.perf_counter() - t0)]


def field_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The GRU step (129)–(132) against the statement's update h + F(h, x), at a seeded exact
    instance, in ``backend``."""
    _require(backend)
    law = ctx.law(GruField)
    inst = draw(ctx, TAG_FIELD)
    kappa = _kappa(inst["params"], inst["h"], inst["x"], _step_norm(inst))

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        ops = backend_ops(bk)
        p = g.converted(inst["params"], ops)
        h, x = [ops.conv(q) for q in inst["h"]], [ops.conv(q) for q in inst["x"]]
        wx = {w: g.matvec(p[w], x) for w in ("Wz", "Wr", "Wh")}
        return bk.vector_of(g.gru_step(p, h, x, ops)), bk.vector_of(law.update(p, h, x, ops, wx))

    m, d = int(ctx["m"]), int(ctx["d"])
    return [identity_check(f"GRU step (129)–(132) vs h + F(h, x), m = {m}, d = {d}", backend, compute,
                           instance=_instance_text(inst), kappa=kappa, n=4 * (m + d) + 16, c=C_GRU)]


@functools.cache
def _fracs(lo: int, hi: int) -> Any:
    from recmem.checks.strategies import fractions_in

    return fractions_in(lo, hi, 4)


def _layout(m: int, d: int) -> list[tuple[str, int, int]]:
    """The entries of an instance (key, row, column; column −1 for a vector): the weights, the
    biases, then the state h and the input x."""
    out = [(k, i, j) for k in g.WEIGHTS for i in range(m) for j in range(d if k[0] == "W" else m)]
    out += [(f"b{gate}", i, -1) for gate in g.GATES for i in range(m)]
    return out + [("h", i, -1) for i in range(m)] + [("x", k, -1) for k in range(d)]


def _fill(m: int, d: int, background: int, entries: list[tuple[int, Fraction]]) -> dict[str, Any]:
    """An instance {params, h, x}: every entry 0 (``background`` 0) or p/4 in [−2, 2] drawn from
    random.Random(background), then the drawn (index, value) pairs (the last for an index wins)."""
    layout = _layout(m, d)
    p = g.zero_instance(m, d)
    inst: dict[str, Any] = {"params": p, "h": [Fraction(0)] * m, "x": [Fraction(0)] * d}
    rng = random.Random(background)
    entries = [(i, Fraction(rng.randint(-8, 8), 4)) for i in range(len(layout))
               if background] + list(entries)
    for idx, value in entries:
        key, i, j = layout[idx % len(layout)]
        if key in ("h", "x"):
            inst[key][i] = value
        elif j < 0:
            p[key][i] = value
        else:
            p[key][i][j] = value
    return inst


def _instances(ctx: Context) -> Any:
    """{params, h, x} for m, d ∈ {1, 2}: a dense background of entries p/4 in [−2, 2] from a drawn
    seed (none for seed 0) and up to 8 drawn (place, value) entries over it. Hypothesis shrinks
    the seed to 0 where it can, leaving the few entries that make a counterexample (34 separately
    drawn entries cost its shrinker seconds)."""
    from hypothesis import strategies as st

    def build(md: tuple[int, int]) -> Any:
        m, d = md
        n = len(_layout(m, d))
        pairs = st.lists(st.tuples(st.integers(0, n - 1), _fracs(-2, 2)), max_size=8)
        return st.tuples(st.integers(0, 2**16), pairs).map(lambda e: _fill(m, d, *e))
    return st.tuples(st.integers(1, 2), st.integers(1, 2)).flatmap(build)


def field_strategy(ctx: Context) -> Any:
    """{params, h, x}: any real GRU, state and input (:func:`_instances`)."""
    return _instances(ctx)


def _decide(residual: Callable[[Ops], list[Any]], values: dict[str, Any]) -> Instance:
    """An instance's residual decided: an arb enclosure (128 bits) excluding 0 → False; the exact
    residual the zero polynomial in the σ, φ atoms (theory.gru.Formal) → True; else undecided."""
    import flint

    with flint.ctx.workprec(128):
        hit = g.certified_nonzero(residual(g.arb_ops()))
    if hit is not None:
        return Instance(False, "arb enclosure of the residual at 128 bits excludes 0",
                        {**values, "component": hit[0], "residual (ball)": hit[1]})
    exact = residual(g.formal_ops())
    if all(e.is_zero() for e in exact):
        return Instance(True, "exact: the residual is the zero polynomial over ℚ in the σ(·), φ(·) "
                        "atoms (σ(0) = 1/2, φ(0) = 0)", values)
    return Instance(None, "the residual's ball contains 0 but it is not formally 0", values)


def field_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """GRU step − (h + F) at one exact instance (theory.gru.field_residual)."""
    law = ctx.law(GruField)

    def residual(ops: Ops) -> list[Any]:
        return g.field_residual(law, g.converted(inst["params"], ops),
                                [ops.conv(q) for q in inst["h"]], [ops.conv(q) for q in inst["x"]],
                                ops)
    return _decide(residual, _instance_text(inst))


# ---- W.gru.equilibrium: (141) -------------------------------------------------------------------

def _equilibrium_instance(law: GruEquilibrium, ctx: Context) -> dict[str, Any]:
    inst = draw(ctx, TAG_EQ)
    shifted = {f"b{gate}": list(inst["params"][f"b{gate}"]) for gate in g.GATES}
    shifted[f"b{law.bias}"] = [law.hypothesis_values()[0]] * int(ctx["m"])
    return {"params": inst["params"], "x": inst["x"], "shifted": shifted}


def equilibrium_symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by theory.gru.equilibrium_proof."""
    t0 = time.perf_counter()
    return [from_proof(g.equilibrium_proof(ctx.law(GruEquilibrium)), time.perf_counter() - t0)]


def equilibrium_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The GRU step from rest under u^x, with the original biases b = b′ − W x for shifted biases b′
    meeting the hypothesis (its boundary value): the state must stay 0."""
    _require(backend)
    law = ctx.law(GruEquilibrium)
    inst = _equilibrium_instance(law, ctx)
    orig = g.unshift(inst["params"], inst["x"], inst["shifted"])
    m = int(ctx["m"])
    kappa = _kappa(orig, [Fraction(0)] * m, inst["x"], 1)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        ops = backend_ops(bk)
        p = g.converted(orig, ops)
        zero = ops.conv(Fraction(0))
        step = g.gru_step(p, [zero] * m, [ops.conv(q) for q in inst["x"]], ops)
        return bk.vector_of(step), bk.vector_of([zero] * m)

    return [identity_check(f"GRU step from rest under u^x (hypothesis: {law.text.split('whenever ')[1][:24]}"
                           f"), m = {m}", backend, compute, instance=_instance_text(inst),
                           kappa=kappa, n=4 * (m + int(ctx["d"])) + 16, c=C_GRU)]


def equilibrium_strategy(ctx: Context) -> Any:
    """{params, x, shifted}: the hypothesised shifted bias in [−radius, radius] (0 for the printed
    b_h = 0), the other shifted biases the drawn biases (:func:`_instances`)."""
    from hypothesis import strategies as st

    law = ctx.law(GruEquilibrium)
    r = law.radius
    value = st.just(Fraction(0)) if r == 0 else st.one_of(st.sampled_from([r, -r]),
                                                            _fracs_between(-r, r))

    def build(inst: dict[str, Any]) -> Any:
        m = len(inst["h"])
        shifted = {f"b{gate}": list(inst["params"][f"b{gate}"]) for gate in g.GATES}
        return st.lists(value, min_size=m, max_size=m).map(
            lambda hyp: {"params": inst["params"], "x": inst["x"],
                         "shifted": {**shifted, f"b{law.bias}": hyp}})
    return _instances(ctx).flatmap(build)


@functools.cache
def _fracs_between(lo: Fraction, hi: Fraction) -> Any:
    from recmem.checks.strategies import fractions_in

    return fractions_in(lo, hi, 64)


def equilibrium_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """The GRU step from rest at one exact instance (theory.gru.equilibrium_residual): exactly 0,
    or certified nonzero."""
    law = ctx.law(GruEquilibrium)
    if not law.admits(inst["shifted"]):
        return Instance(None, "outside the statement's hypothesis", _instance_text(inst))

    def residual(ops: Ops) -> list[Any]:
        return g.equilibrium_residual(law, inst["params"], inst["x"], inst["shifted"], ops)
    return _decide(residual, _instance_text(inst))


# ---- W.gru: (142) --------------------------------------------------------------------------------

def _lin_instance(ctx: Context) -> dict[str, Any]:
    """A seeded instance at its equilibrium: b_h = −W_h x (shifted b_h = 0)."""
    inst = draw(ctx, TAG_LIN)
    p = inst["params"]
    p["bh"] = [-v for v in g.matvec(p["Wh"], inst["x"])]
    return {"params": p, "x": inst["x"]}


def jacobian(backend: AbstractBackend, params: Mapping[str, Any], x: list[Fraction]) -> list[list[Any]]:
    """∂(GRU step)/∂h at h = 0 minus I by ``backend``'s own differentiation (see the module
    docstring)."""
    ops = backend_ops(backend)
    p = g.converted(params, ops)
    xs = [ops.conv(q) for q in x]
    m = len(params["bz"])
    kind = backend.spec.kind
    cols: list[list[Any]] = []
    if kind == "mpmath":
        c = rp.mp_ctx(backend)
        for j in range(m):
            def comp(i: int, j: int = j) -> Any:
                return c.diff(lambda t: g.gru_step(p, [t if k == j else c.mpf(0) for k in range(m)],
                                                   xs, ops)[i], 0)
            cols.append([comp(i) for i in range(m)])
    elif kind == "flint":
        import flint

        for j in range(m):
            hs: list[Any] = [flint.arb_series([flint.arb(0), 1 if k == j else 0], prec=2)
                             for k in range(m)]
            out = g.gru_step(p, hs, xs, ops)
            cols.append([(o.coeffs() + [flint.arb(0)] * 2)[1] for o in out])
    elif kind == "numpy":
        import numpy as np

        cplx = np.complex64 if backend.spec.dtype == "float32" else np.complex128
        delta = CS_STEP
        for j in range(m):
            hc: list[Any] = [cplx(1j * delta) if k == j else cplx(0) for k in range(m)]
            cols.append([np.imag(o) / delta for o in g.gru_step(p, hc, xs, ops)])
    else:
        torch, dev, rd = rp.torch_of(backend)

        def f(hv: Any) -> Any:
            return torch.stack(g.gru_step(p, list(hv), xs, ops))

        jac = torch.autograd.functional.jacobian(f, torch.zeros(m, dtype=rd, device=dev))
        cols = [[jac[i, j] for i in range(m)] for j in range(m)]
    one = ops.conv(Fraction(1))
    return [[cols[j][i] - (one if i == j else 0) for j in range(m)] for i in range(m)]


def lin_symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by theory.gru.linearisation_proof."""
    t0 = time.perf_counter()
    return [from_proof(g.linearisation_proof(ctx.law(GruLinearisation)), time.perf_counter() - t0)]


def lin_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The Jacobian of the GRU step at its equilibrium 0, minus I (the definition, differentiated by
    the arithmetic), against the statement's matrix (142) from U_h and the shifted b_z, b_r."""
    _require(backend)
    law = ctx.law(GruLinearisation)
    inst = _lin_instance(ctx)
    params, x = inst["params"], inst["x"]
    shifted = g.shift_biases(params, x, {"z": "Wz", "r": "Wr", "h": "Wh"})
    m = int(ctx["m"])
    # κ: ‖Diag|σ(b_z)|·(|U_h|·Diag σ(b_r) + I)‖_F / ‖A‖_F at 64 bits (A: the printed matrix)
    c = mpmath.MPContext()
    c.prec = 64
    sz = [1 / (1 + c.exp(-c.mpf(b.numerator) / b.denominator)) for b in shifted["bz"]]
    sr = [1 / (1 + c.exp(-c.mpf(b.numerator) / b.denominator)) for b in shifted["br"]]
    uh = params["Uh"]
    u = [[c.mpf(q.numerator) / q.denominator for q in row] for row in uh]
    num = c.sqrt(sum((sz[i] * (abs(u[i][j]) * sr[j] + (1 if i == j else 0))) ** 2
                     for i in range(m) for j in range(m)))
    den = c.sqrt(sum((sz[i] * (u[i][j] * sr[j] - (1 if i == j else 0))) ** 2
                     for i in range(m) for j in range(m)))
    kappa = num / den

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        ops = backend_ops(bk)
        jac = jacobian(bk, params, x)
        a = law.matrix([[ops.conv(q) for q in row] for row in uh], [ops.conv(q) for q in shifted["bz"]],
                       [ops.conv(q) for q in shifted["br"]], ops)
        return (bk.vector_of([e for row in jac for e in row]),
                bk.vector_of([e for row in a for e in row]))

    return [identity_check(f"Jacobian of the GRU step at h* = 0 minus I ({_HOW[backend.spec.kind]}) vs "
                           f"the matrix of (142), m = {m}", backend, compute,
                           instance=_instance_text(inst), kappa=kappa,
                           n=4 * (m + int(ctx["d"])) + 24, c=C_GRU)]


_HOW = {"mpmath": "mpmath diff", "flint": "arb_series", "numpy": "complex step",
        "torch": "autograd"}


def lin_strategy(ctx: Context) -> Any:
    """{params, x} at the equilibrium (b_h = −W_h x) from :func:`_instances`."""
    def at_rest(inst: dict[str, Any]) -> dict[str, Any]:
        p = dict(inst["params"])
        p["bh"] = [-v for v in g.matvec(p["Wh"], inst["x"])]
        return {"params": p, "x": inst["x"]}
    return _instances(ctx).map(at_rest)


def lin_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Jacobian (dual numbers through (129)–(132)) minus I minus the statement's matrix at one
    exact instance: exactly 0 (SymPy), or certified nonzero (arb)."""
    law = ctx.law(GruLinearisation)

    def residual(ops: Ops) -> list[Any]:
        return g.linearisation_residual(law, inst["params"], inst["x"], ops)
    return _decide(residual, _instance_text(inst))


# ---- the claims ----------------------------------------------------------------------------------

def _params() -> tuple[Param, ...]:
    # the Jacobian costs m² differentiations of an O(m(m + d)) step: m, d ≤ 16 keep a run short
    return (Param("m", 3, "GRU units m of the numeric instance", int, check=at_least(1), max=16),
            Param("d", 2, "input dimension d of the numeric instance", int, check=at_least(1), max=16))


TOL = ("SymPy exact; flint: enclosures (arb; arb_series for the Jacobian); points: c·n·κ·u with the "
       "backend's u, κ from the magnitudes of the GRU's terms at 64 bits")
NOTE = ("The GRU (129)–(132) is the definition; h is the hidden state, x the input, σ sigmoid, φ tanh. "
        "App. J stops at (142) ('Similar linearization can be utilized'): it derives no Hurwitz "
        "condition or decay rate of its own; with (142), Lemma A.7 and the Hartman–Grobman argument of "
        "Thm 3.9 would ask Diag(σ(b_z))(U_h Diag(σ(b_r)) − I) to be Hurwitz.")

CLAIMS = [
    Claim(
        id="W.gru",
        summary="(142): the GRU's linearisation at h* = 0 is Diag(σ(b_z))(U_h Diag(σ(b_r)) − I)",
        title="GRU linearisation at the equilibrium (App. J, eq. (142))",
        statement=GruLinearisation(),
        provenance=Provenance("W", WHERE, f"{QUOTE_GRU} … {QUOTE_141} {QUOTE_142}"),
        tolerance=TOL,
        uses=("W.gru.update", "W.gru.bias-shift.corrected", "W.gru.equilibrium"),
        params=_params(),
        symbolic=lin_symbolic,
        numeric=lin_numeric,
        strategy=lin_strategy,
        holds=lin_holds,
        notes=NOTE,
    ),
    Claim(
        id="W.gru.update",
        summary="(133)–(138): the GRU step is h + σ(W_z x + U_z h + b_z) ⊙ (ĥ − h), the unit Euler "
                "step of the continuous-time field",
        title="GRU update as the unit Euler step of its field (App. J, eqs. (133)–(138))",
        statement=GruField(),
        provenance=Provenance("W", WHERE, f"{QUOTE_GRU} {QUOTE_133_138}"),
        tolerance=TOL,
        params=_params(),
        symbolic=field_symbolic,
        numeric=field_numeric,
        strategy=field_strategy,
        holds=field_holds,
        notes="(134) replaces h_{t−1} by h_t inside the gates: the GRU is its unit Euler step "
              "h_t = h_{t−1} + F(h_{t−1}, x_t), which is what is checked (the continuous-time system "
              "is a definition).",
    ),
    Claim(
        id="W.gru.bias-shift",
        summary="(139)–(140) with the printed shift b_h := W_z x + b_h: wrong unless W_z x = W_h x "
                "(m = d = 1, W_h = 1, x = 1)",
        title="Heaviside input absorbed into the biases, as printed (App. J, eqs. (139)–(140))",
        statement=GruField(shifted=True, h_source="Wz"),
        provenance=Provenance("W", WHERE, f"{QUOTE_GRU} … {QUOTE_139_140}"),
        tolerance=TOL,
        uses=("W.gru.update",),
        params=_params(),
        symbolic=field_symbolic,
        numeric=field_numeric,
        strategy=field_strategy,
        holds=field_holds,
        notes="The input enters φ through W_h x (131); shifting b_h by W_z x leaves φ's argument off "
              "by (W_h − W_z)x. A misprint: the corrected shift W_h x makes (139)–(140) right.",
    ),
    Claim(
        id="W.gru.bias-shift.corrected",
        summary="(139)–(140) with b_h := W_h x + b_h",
        title="Heaviside input absorbed into the biases, b_h shifted by W_h x",
        statement=GruField(shifted=True, h_source="Wh"),
        provenance=Provenance("W", WHERE, f"{QUOTE_GRU} … {QUOTE_139_140}"),
        tolerance=TOL,
        uses=("W.gru.update",),
        params=_params(),
        symbolic=field_symbolic,
        numeric=field_numeric,
        strategy=field_strategy,
        holds=field_holds,
        corrects="W.gru.bias-shift",
    ),
    Claim(
        id="W.gru.equilibrium",
        summary="(141): with the shifted b_h = 0 the GRU under u^x stays at rest (φ(0) = 0)",
        title="h* = 0 is an equilibrium when b_h = 0 (App. J, eq. (141))",
        statement=GruEquilibrium(),
        provenance=Provenance("W", WHERE, f"{QUOTE_GRU} … {QUOTE_141}"),
        tolerance=TOL,
        uses=("W.gru.bias-shift.corrected",),
        params=_params(),
        symbolic=equilibrium_symbolic,
        numeric=equilibrium_numeric,
        strategy=equilibrium_strategy,
        holds=equilibrium_holds,
        notes="Read with the corrected shift (W.gru.bias-shift.corrected): b_h = 0 after the shift "
              "means W_h x + b_h = 0 for the original bias.",
    ),
]
