"""Comparing candidate moves on the same imagined deals, and stopping once the answer is clear.

Every deal scores each candidate still in the race (lower is better for the bot). Two
candidates' scores on one deal are paired: the deal's luck cancels in their difference, so a
few dozen deals usually settle what hundreds of unpaired ones would. After every
:attr:`Budget.check` deals (from :attr:`Budget.first` on), a candidate leaves the race once
choosing the leader over it is expected to cost less than :attr:`Budget.loss` points: either it
is worse beyond doubt, or the two are so alike that which one goes hardly matters. Two that
score the same in every deal (the 7 and the 9 of a suit when no deal tells them apart) are
taken for the same only after :attr:`Budget.alike` deals: a rare difference needs many deals to
show. The race ends when one candidate is left, or at
the budget: so many deals, so many scores over all candidates, and a wall-clock guard that only
a machine far too busy reaches. Most decisions are clear long before the budget; the budget is
spent on the close ones.

Work, not time, bounds a decision, so a busy machine makes the same choice, later.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from math import sqrt
from statistics import NormalDist
from typing import TypeVar

Deal = TypeVar("Deal")


@dataclass(frozen=True)
class Budget:
    deals: int  # deals at most
    work: int  # scores at most, over all the candidates and deals
    seconds: float | None = None  # a guard against a machine too busy to finish in time
    loss: float = 0.003  # points a candidate may be expected to be worth over the leader
    first: int = 16  # deals before anyone leaves the race: fewer often mislead
    # Deals without a single difference before two candidates count as the same: a difference
    # that comes once in twenty deals is missed by 16 deals four times in ten, and by 64 rarely.
    alike: int = 64
    check: int = 4  # deals between two looks at the standings


def race(
    count: int,
    deals: Iterable[Deal],
    score: Callable[[Deal, int], float],
    budget: Budget,
) -> int:
    """The index, from ``range(count)``, of the candidate with the lowest mean
    ``score(deal, candidate)`` over the ``deals`` it was tried in, the lower index between
    equals (only those still in the race at the end count)."""
    alive = list(range(count))
    if count == 1:
        return 0
    start = time.perf_counter()
    sums = [0.0] * count
    # Running sums of the products of two candidates' scores on the same deal: enough for the
    # spread of their difference without keeping every score.
    products = [[0.0] * count for _ in range(count)]
    work = 0
    for done, deal in enumerate(deals, start=1):
        scores = [score(deal, candidate) for candidate in alive]
        for i, a in enumerate(alive):
            sa = scores[i]
            sums[a] += sa
            row = products[a]
            for j in range(i, len(alive)):
                row[alive[j]] += sa * scores[j]
        work += len(alive)
        if done >= budget.first and done % budget.check == 0:
            alive = _survivors(alive, sums, products, done, budget)
            if len(alive) == 1:
                break
        if done >= budget.deals or work + len(alive) > budget.work:
            break
        if budget.seconds is not None and time.perf_counter() - start > budget.seconds:
            break
    return min(alive, key=lambda c: (sums[c], c))


def _survivors(
    alive: list[int], sums: list[float], products: list[list[float]], n: int, budget: Budget
) -> list[int]:
    """The candidates still in the race after ``n`` deals: the leader, and every other one
    that is neither worse beyond doubt nor the leader's equal."""
    leader = min(alive, key=lambda c: (sums[c], c))
    kept = []
    for c in alive:
        if c == leader:
            kept.append(c)
            continue
        a, b = min(c, leader), max(c, leader)
        mean = (sums[c] - sums[leader]) / n
        squares = (products[c][c] - 2 * products[a][b] + products[leader][leader]) / n
        spread = sqrt(max(squares - mean * mean, 0.0) / (n - 1))  # the mean's standard error
        if _loss(mean, spread) > budget.loss or (squares == 0.0 and n < budget.alike):
            kept.append(c)
    return kept


def _loss(mean: float, spread: float) -> float:
    """What choosing the leader is expected to cost against a candidate whose scores are
    ``mean`` higher with standard error ``spread``: the mean of the part of a normal
    distribution that lies below nothing, where the candidate is in truth the better one."""
    if spread <= 0.0:
        return max(-mean, 0.0)
    t = mean / spread
    return spread * _NORMAL.pdf(t) - mean * _NORMAL.cdf(-t)


_NORMAL = NormalDist()
