"""The race between candidate moves: settled ones stop early, close ones use the budget, and
the budget's deals and work are never exceeded."""

from __future__ import annotations

import random
from itertools import count

from games.bots.race import Budget, race

BUDGET = Budget(deals=400, work=100_000)


def counted(scores):
    """A scoring function over deals numbered 0, 1, ... that counts its calls."""
    calls = []

    def score(deal, candidate):
        calls.append((deal, candidate))
        return scores(deal, candidate)

    return score, calls


def test_a_candidate_worse_in_every_deal_leaves_the_race_at_the_first_look():
    luck = random.Random(1)
    noise = [luck.uniform(-10, 10) for _ in range(400)]
    score, calls = counted(lambda deal, c: noise[deal] + (3 if c == 0 else 0))

    assert race(2, count(), score, BUDGET) == 1
    assert len({deal for deal, _ in calls}) == BUDGET.first


def test_candidates_that_score_alike_in_every_deal_are_settled_for_the_first_of_them():
    score, calls = counted(lambda deal, c: deal % 7)

    assert race(3, count(), score, BUDGET) == 0
    assert len({deal for deal, _ in calls}) == BUDGET.alike


def test_a_difference_that_shows_only_now_and_then_is_not_taken_for_a_tie():
    # Candidate 1 is two points worse in one deal of twenty, and alike in the rest.
    score, calls = counted(lambda deal, c: deal % 5 + (2 if c == 1 and deal % 20 == 19 else 0))

    assert race(2, count(), score, BUDGET) == 0
    assert len({deal for deal, _ in calls}) > BUDGET.first


def test_candidates_too_close_to_tell_apart_are_tried_to_the_budget():
    luck = random.Random(2)
    noise = [[luck.gauss(0, 8) for _ in range(2)] for _ in range(400)]
    score, calls = counted(lambda deal, c: noise[deal][c])

    race(2, count(), score, BUDGET)

    assert len({deal for deal, _ in calls}) == BUDGET.deals


def test_the_work_budget_bounds_the_scores_over_all_candidates():
    luck = random.Random(3)
    noise = [[luck.gauss(0, 8) for _ in range(5)] for _ in range(400)]
    score, calls = counted(lambda deal, c: noise[deal][c])

    race(5, count(), score, Budget(deals=400, work=103))

    assert 100 <= len(calls) <= 103


def test_the_better_of_two_noisy_candidates_wins_most_races():
    wins = 0
    for seed in range(40):
        luck = random.Random(seed)
        noise = [luck.gauss(0, 8) for _ in range(400)]
        # Paired: the same deal's luck for both, and a point apart on average.
        jitter = [luck.gauss(0, 2) for _ in range(400)]
        score = lambda deal, c, n=noise, j=jitter: n[deal] + (j[deal] + 1 if c == 0 else 0)  # noqa: E731
        wins += race(2, count(), score, BUDGET) == 1

    assert wins >= 38


def test_a_race_without_eliminations_tries_every_candidate_in_every_deal():
    score, calls = counted(lambda deal, c: c)  # candidate 0 is better in every deal

    assert race(3, count(), score, Budget(deals=50, work=10_000, loss=-1.0)) == 0
    assert len(calls) == 150
