"""The data of SciPy's ``TestSolveLyapunov.cases`` (scipy/linalg/tests/test_solvers.py, SciPy 1.17.1),
copied as plain data for recmem's domain tests of numerics.lyapunov (issue 8, item 3).

Source: https://github.com/scipy/scipy/blob/main/scipy/linalg/tests/test_solvers.py
SciPy is distributed under the BSD 3-Clause licence:

    Copyright (c) 2001-2002 Enthought, Inc. 2003, SciPy Developers. All rights reserved.
    Redistribution and use in source and binary forms, with or without modification, are permitted
    provided that the following conditions are met: 1. Redistributions of source code must retain
    the above copyright notice, this list of conditions and the following disclaimer.
    2. Redistributions in binary form must reproduce the above copyright notice, this list of
    conditions and the following disclaimer in the documentation and/or other materials provided
    with the distribution. 3. Neither the name of the copyright holder nor the names of its
    contributors may be used to endorse or promote products derived from this software without
    specific prior written permission. THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND
    CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
    IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED.

SciPy's equation is A X + X Aᴴ = Q (``solve_continuous_lyapunov(a, q)``). recmem's solvers solve
Wᵀ P + P W = −Q' (paper W App. A.9 eq. (48)); for a real A the two agree with W = Aᵀ, Q' = −Q and
P = X (the tests convert). The two ``scipy.sparse`` ``matrix`` cases of SciPy's list are given
here as plain nested lists (same entries). Entries are kept exactly as SciPy writes them; the
floats (0.091, −1/2, …) are taken exactly as the float64 values SciPy's arrays hold.
"""

from __future__ import annotations

import numpy as np

_COMPANION_ROW = [0.100, 0.091, 0.082, 0.073, 0.064, 0.055, 0.046, 0.037, 0.028, 0.019, 0.010]


def _companion() -> np.ndarray:
    a = np.zeros((11, 11), dtype=complex)
    a[0] = [v + 0.j for v in _COMPANION_ROW]
    for i in range(1, 11):
        a[i, i - 1] = 1.000 + 0.j
    return a


# (name, a, q): SciPy's cases in SciPy's order
CASES: list[tuple[str, np.ndarray, np.ndarray]] = [
    ("empty", np.empty((0, 0)), np.empty((0, 0))),
    ("real 2x2, non-symmetric q", np.array([[1, 2], [3, 4]]), np.array([[9, 10], [11, 12]])),
    ("a, q all complex", np.array([[1.0 + 1j, 2.0], [3.0 - 4.0j, 5.0]]),
     np.array([[2.0 - 2j, 2.0 + 2j], [-1.0 - 1j, 2.0]])),
    ("a real; q complex", np.array([[1.0, 2.0], [3.0, 5.0]]),
     np.array([[2.0 - 2j, 2.0 + 2j], [-1.0 - 1j, 2.0]])),
    ("a complex; q real", np.array([[1.0 + 1j, 2.0], [3.0 - 4.0j, 5.0]]),
     np.array([[2.0, 2.0], [-1.0, 2.0]])),
    ("Kitagawa 1977", np.array([[3, 9, 5, 1, 4], [1, 2, 3, 8, 4], [4, 6, 6, 6, 3],
                                [1, 5, 2, 0, 7], [5, 3, 3, 1, 5]]),
     np.array([[2, 4, 1, 0, 1], [4, 1, 0, 2, 0], [1, 0, 3, 0, 3],
               [0, 2, 0, 1, 0], [1, 0, 3, 0, 4]])),
    ("companion, complex dtype, n = 11", _companion(), np.eye(11)),
    ("scipy issue 4176 (matrix q)", np.array([[0, 1], [-1 / 2, -1]]),
     np.array([[0, 3]]).T @ np.array([[0, 3]])),
    ("scipy issue 4176 (array q)", np.array([[0, 1], [-1 / 2, -1]]),
     np.array(np.array([[0, 3]]).T @ np.array([[0, 3]]))),
]
