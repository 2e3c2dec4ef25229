"""The rating maths: one multi-player update per game, and the number people see.

Skill is openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation for rankings):
each person has a mean ``mu`` and an uncertainty ``sigma``, a newcomer starts at
``mu = 25, sigma = 25/3``, and one rated game updates everyone at the table at once from the
places the game gave (1 = first; equal places are a tie and are passed as equal ranks).

The number shown is the conservative estimate ``mu - 3 * sigma`` (the skill we are about 99.7%
sure the person has at least) on a scale like chess ratings::

    rating = 1500 + 48 * (mu - 3 * sigma - 25), never below 0

25 (a newcomer's ``mu``) is 1500, and one ``beta`` (25/6, the spread of one game's performance
around the skill) is 200 points, as one class is in chess. A newcomer therefore shows 300 and
climbs as the games make the site surer of them: the rating is marked provisional for the first
``PROVISIONAL_GAMES`` rated games.

Ties are shared by averaging: a game with tied places is rated once for every order in which
the ties could have been broken, and everyone gets the mean of those updates. So people sharing
a place with equal ratings change equally, and the place behind a tie stays behind it. (Passing
equal ranks to openskill 6.2 instead lets the place just behind a tie for first gain as much as
the tied winners: places 1, 1, 3, 4 from equal ratings gave +0.93 mu to each of the first
three; see vivekjoshy/openskill.py issues 155 and 201.)

>>> display_rating(MU, SIGMA)
300
>>> display_rating(30.0, 2.0)
1452
>>> ranks_from_places([1, 1, 3, 4])
[1.0, 1.0, 3.0, 4.0]
>>> [round(s.mu, 2) for s in rate([Skill()] * 4, [1, 1, 3, 4])]
[27.17, 27.17, 24.69, 20.96]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BASE = 1500
POINTS_PER_MU = 48  # 200 points per beta (25/6)
PROVISIONAL_GAMES = 10

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


def display_rating(mu: float, sigma: float) -> int:
    return max(0, round(BASE + POINTS_PER_MU * (mu - 3 * sigma - MU)))


STARTING_RATING = display_rating(MU, SIGMA)  # a newcomer's, before their first rated game


def change_text(change: int) -> str:
    """A change of the shown rating in words: "+12", "\N{MINUS SIGN}8" (a minus sign, as it is
    read) or "±0".

    >>> [change_text(change) for change in (12, -8, 0)] == ["+12", "\N{MINUS SIGN}8", "±0"]
    True
    """
    return f"+{change}" if change > 0 else f"\N{MINUS SIGN}{-change}" if change < 0 else "±0"


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def ranks_from_places(places: Sequence[int]) -> list[float]:
    """The ranks openskill is given: the places themselves (equal places tie)."""
    if not places or min(places) < 1:
        raise ValueError(f"Not a game's places: {list(places)!r}")
    return [float(place) for place in places]


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Everyone's skill after one game, seat by seat.

    >>> after = rate([Skill()] * 4, [1, 2, 3, 4])
    >>> [round(s.mu, 2) for s in after]
    [27.8, 26.55, 24.69, 20.96]
    """
    if len(skills) != len(places):
        raise ValueError("One place per player")
    orders = tie_breaks(ranks_from_places(places))
    mu, sigma = [0.0] * len(skills), [0.0] * len(skills)
    for ranks in orders:
        teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
        for seat, team in enumerate(MODEL.rate(teams, ranks=ranks)):
            mu[seat] += team[0].mu / len(orders)
            sigma[seat] += team[0].sigma / len(orders)
    return [Skill(m, s) for m, s in zip(mu, sigma, strict=True)]


def tie_breaks(ranks: Sequence[float]) -> list[list[float]]:
    """Every strict ranking that breaks the ties of ``ranks`` (the ranking itself if it has
    none): the orders a tie could have gone.

    >>> tie_breaks([1, 1, 3])
    [[1, 2, 3], [2, 1, 3]]
    """
    groups: dict[float, list[int]] = {}
    for seat, rank in enumerate(ranks):
        groups.setdefault(rank, []).append(seat)
    orders: list[list[float]] = [[0.0] * len(ranks)]
    for start, seats in enumerate_groups(groups):
        orders = [
            _placed(order, seats, perm, start)
            for order in orders
            for perm in itertools.permutations(seats)
        ]
    return orders


def enumerate_groups(groups: dict[float, list[int]]) -> list[tuple[int, list[int]]]:
    """(first strict rank, seats) for each group of equal ranks, best first."""
    out, start = [], 1
    for rank in sorted(groups):
        out.append((start, groups[rank]))
        start += len(groups[rank])
    return out


def _placed(order: list[float], seats: list[int], perm: tuple[int, ...], start: int) -> list[float]:
    order = list(order)
    for offset, seat in enumerate(perm):
        order[seat] = start + offset
    return order
