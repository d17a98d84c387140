"""Recurrent activations σ of paper W's RNN dh/dt = σ(Wh + Ux + b) in every arithmetic.

W §2.2 names "tanh, hardtanh, sigmoid or ReLU" and Def. 3.8 (eqs. (12)–(13) of the ICLR
camera-ready) the classes that contain tanh and hardtanh; identity gives the linear RNN of §2.2 /
App. A, relu is the activation of W App. E (Fig. 7; its "softplus" is the reparameterisation of W
of §3.4, not an activation), and softplus is an extra smooth activation. Each is given for numpy,
torch and mpmath so that the same model can be integrated in float64, batched on a GPU, or at high
precision; W.activations checks tanh and hardtanh against Def. 3.8 through these forms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Activation:
    """An activation with its numpy, torch and mpmath forms.

    ``smooth`` says whether σ is analytic (Taylor-series ODE integrators need that);
    ``zero_at_zero`` whether σ(0) = 0, so that h = 0 is the rest state of an RNN with b = 0.
    """

    name: str
    numpy: Callable[[np.ndarray], np.ndarray]
    torch: Callable[[Any], Any]
    mp: Callable[[Any, Any], Any]  # (ctx, z) → σ(z)
    smooth: bool
    zero_at_zero: bool


def _torch(name: str) -> Callable[[Any], Any]:
    def apply(z: Any) -> Any:
        import torch

        fns: dict[str, Callable[[Any], Any]] = {
            "identity": lambda v: v, "tanh": torch.tanh, "hardtanh": torch.nn.functional.hardtanh,
            "relu": torch.relu, "softplus": torch.nn.functional.softplus}
        return fns[name](z)
    return apply


ACTIVATIONS: dict[str, Activation] = {
    "identity": Activation("identity", lambda z: z, _torch("identity"), lambda ctx, z: z, True, True),
    "tanh": Activation("tanh", np.tanh, _torch("tanh"), lambda ctx, z: ctx.tanh(z), True, True),
    "hardtanh": Activation("hardtanh", lambda z: np.clip(z, -1.0, 1.0), _torch("hardtanh"),
                           lambda ctx, z: max(min(z, ctx.one), -ctx.one), False, True),
    "relu": Activation("relu", lambda z: np.maximum(z, 0.0), _torch("relu"),
                       lambda ctx, z: max(z, ctx.zero), False, True),
    # log1p(e^z) overflows for large z in float64; logaddexp(0, z) is the stable form.
    "softplus": Activation("softplus", lambda z: np.logaddexp(0.0, z), _torch("softplus"),
                           lambda ctx, z: ctx.log1p(ctx.exp(z)), True, False),
}


def activation(name: str) -> Activation:
    """The activation called ``name`` (ValueError listing the choices otherwise).

    Domain of the forms: real arguments (σ of W §2.2 acts on ℝ^m); numpy/torch apply them
    entrywise, mpmath to one real number."""
    try:
        return ACTIVATIONS[name]
    except KeyError:
        raise ValueError(f"unknown activation {name!r}: expected one of "
                         f"{', '.join(ACTIVATIONS)}") from None
