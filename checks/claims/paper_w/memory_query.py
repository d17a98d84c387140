"""W.memory-query: App. B of paper W (ICLR 2024 camera-ready) — the memory function of a sentiment
model queried with a repeated word (Figures 5, 6: LSTMs and BERT on IMDB reviews).

The IMDB experiment is NOT reproduced: the reviews, the trained LSTMs and the fine-tuned BERT are not
available here. What is checked is the query procedure on a stand-in whose memory is known in
closed form (theory.memory_query.RepeatQuery): a linear recurrent scorer with a diagonal A, for
which the repeated-word query must return |cᵀA^kB|₁ at repeat count k — exactly (SymPy, exact
search) and in every arithmetic (the recurrence run on the repeated word in the backend, against
the kernel's norm computed in the backend).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.theory.memory_query import RepeatQuery, judge, kernel, repeat_query_proof, scores

QUOTE = ("In the following example, we show the memory function of sentiment score's for single repeated "
         "word using LSTM and fine-tuned BERT model. In Figure 5, it can be seen that the memory function "
         "of simple words such as “good” and “bad” is decaying exponentially. However, the memory of "
         "sentiment in “ha” can be complicated as it’s not decaying fast. This phenomenon also holds for "
         "stacked Bidirectional LSTM models. … Figure 5: Memory function of sentiment scores for different "
         "words based on IMDB movie reviews using Bidirectional LSTM and stacked Bidirectional LSTM")

# The stand-in scorer: N = 3 states, a word embedding of dimension d = 2 (exact dyadic rationals).
LAMBDA = (Fraction(7, 8), Fraction(-1, 2), Fraction(1, 4))
B = ((Fraction(1), Fraction(-1, 2)), (Fraction(1, 4), Fraction(1)), (Fraction(-3, 4), Fraction(1, 2)))
C = (Fraction(1), Fraction(1, 2), Fraction(-1))


def symbolic(ctx: Context) -> list[Evidence]:
    """Telescoping + the sup over x (theory.memory_query)."""
    t0 = time.perf_counter()
    return [from_proof(repeat_query_proof(ctx.law(RepeatQuery)), time.perf_counter() - t0)]


def _kappa(law: RepeatQuery, k: int) -> Any:
    """Cancellation in the query y(x^{(k+1)}) − y(x^{(k)}) = Σ_{j≤k} cᵀA^jBx − Σ_{j<k} cᵀA^jBx, at its
    maximising extreme point: (Σ_{j≤k}|t_j| + Σ_{j<k}|t_j|)/|t_k|, t_j = cᵀA^jBx (exact, then a float)."""
    points = law.memory().extreme_points(len(B[0]))
    best = max(points, key=lambda p: abs(sum(v * x for v, x in zip(kernel(LAMBDA, B, C, k), p, strict=True))))
    terms = [abs(sum(v * x for v, x in zip(kernel(LAMBDA, B, C, j), best, strict=True)))
             for j in range(k + 1)]
    return mpmath.mpf(float((2 * sum(terms) - terms[k]) / terms[k]))


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The scorer run on the repeated word in ``backend`` (its recurrence), the query
    max_x |y(x^{(k+1)}) − y(x^{(k)})|/|x|_p over the extreme points, against the statement's
    scale·N(cᵀA^{k+shift}B) computed in ``backend``."""
    law = ctx.law(RepeatQuery)
    k = int(ctx["k"])
    points = law.memory().extreme_points(len(B[0]))

    def absolute(v: Any) -> Any:
        return abs(v)

    def maximum(vs: list[Any]) -> Any:
        # balls (flint) are ordered by their midpoints; the maximum is separated from the others
        return max(vs, key=lambda v: float(v.mid()) if hasattr(v, "mid") else float(v))

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        lam = bk.vector([QQi(v) for v in LAMBDA])
        bm = bk.matrix([[QQi(v) for v in row] for row in B])
        cm = bk.matrix([[QQi(v) for v in C]])
        queries = []
        for p in points:
            words = bk.matrix([[QQi(Fraction(v))] * (k + 1) for v in p])  # the word, repeated
            y = bk.entries(bk.transpose(bk.matmul(cm, bk.recurrence(lam, bk.matmul(bm, words)))))
            queries.append(y[k] - y[k - 1] if k else y[0])
        lhs = law.lhs(queries, points, absolute=absolute, maximum=maximum)
        lag = law.lag(k)
        rows_b = [bk.entries(bk.columns(bk.transpose(bm), i, i + 1)) for i in range(len(LAMBDA))]
        ent = (bk.entries(lam), rows_b, bk.entries(bk.transpose(cm)))
        rhs = law.rhs(kernel(ent[0], ent[1], ent[2], lag), absolute=absolute, maximum=maximum,
                      number=lambda q: bk.entries(bk.vector([QQi(q)]))[0])
        return bk.vector_of([lhs]), bk.vector_of([rhs])

    return [identity_check(f"repeated-word query of the linear scorer vs the kernel's norm, k = {k}", backend,
                           compute, instance={"λ": [str(v) for v in LAMBDA], "k": k},
                           kappa=_kappa(law, k), n=2 * (k + 2))]


def strategy(ctx: Context) -> Any:
    """Scorers (λ ∈ [−1, 1]^N, B ∈ [−2, 2]^{N×d}, c ∈ [−2, 2]^N, N ≤ 3, d ≤ 2) and k ∈ 0…10."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    q = fractions_in(-2, 2, 4)

    def model(nd: tuple[int, int]) -> Any:
        n, d = nd
        return st.tuples(st.lists(fractions_in(-1, 1, 8), min_size=n, max_size=n),
                         st.lists(st.lists(q, min_size=d, max_size=d), min_size=n, max_size=n),
                         st.lists(q, min_size=n, max_size=n), st.integers(0, 10))

    return st.tuples(st.integers(1, 3), st.integers(1, 2)).flatmap(model)


def holds(instance: Any, ctx: Context) -> Instance:
    """Exact: the scores from the recurrence at the extreme points vs the statement."""
    lam, b, c, k = instance
    ok, values = judge(ctx.law(RepeatQuery), lam, b, c, k)
    return Instance(ok, "exact rational arithmetic (the recurrence run on the repeated word)",
                    {"λ": [str(v) for v in lam], "B": [[str(v) for v in r] for r in b],
                     "c": [str(v) for v in c],
                     **values, "y(x^(k)) at x = 1": str(scores(lam, b, c, [Fraction(1)] * len(b[0]), k))},
                    "" if ok else "the query differs from the kernel's norm")


CLAIMS = [
    Claim(
        id="W.memory-query",
        summary="App. B's repeated-word memory query recovers a stand-in scorer's memory |cᵀA^kB|₁ (IMDB "
                "experiment not reproduced)",
        title="Memory query by a repeated word (App. B), on a linear recurrent stand-in",
        statement=RepeatQuery(),
        provenance=Provenance("W", "App. B, Figures 5–6", QUOTE),
        tolerance="exact (SymPy, ℚ); flint: enclosure; mpmath/numpy/torch: c·n·κ·u with κ the cancellation "
                  "of the score difference (exact)",
        uses=("W.memory-def", "W.memory-linear"),
        params=(Param("k", 8, "repeat count k of the query (App. B's 'Repeat times')", int, check=at_least(0),
                      max=4096),),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading="the memory at repeat count k is the score's change when the word is repeated once more, "
                "sup_x |y(x^(k+1)) − y(x^(k))|/|x|_∞ (Def. 3.1's derivative form in discrete time)",
        notes="NOT a reproduction of App. B: the IMDB reviews, the trained (stacked) bidirectional LSTMs and "
              "the fine-tuned BERT are not available here, so Figures 5–6 (exponential decay for "
              "“good”/“bad”, slower for “ha”, BERT) are not checked. Checked: the query procedure itself, "
              "on a linear recurrent scorer whose memory is known in closed form (the discrete analogue of "
              "eq. (4)); for |λ_i| < 1 that memory decays exponentially, like Figure 5's LSTM curves.",
    ),
]
