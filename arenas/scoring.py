"""An arena's points and standings, from its games' results alone. Pure: it sees places, never
the database.

Points come from a player's place in each game: at a table of ``n`` the winner scores ``n``,
second ``n - 2``, then one less for each place down to none for last:

=========  =============
 players    1st, 2nd, ...
=========  =============
 3          3, 1, 0
 4          4, 2, 1, 0
 5          5, 3, 2, 1, 0
 6          6, 4, 3, 2, 1, 0
=========  =============

Players tied for a place share the points of the places they fill: two tied first of four
score (4 + 2) / 2 = 3 each. A win is first place, alone or shared, as everywhere on the site
(``games.engine.is_win``). After two wins in a row a player is on a streak: each game they play
while on it scores double (a win keeps it, anything else ends it after that game), as in
lichess's arenas.

>>> points_for([1, 2, 3, 4])
[Fraction(4, 1), Fraction(2, 1), Fraction(1, 1), Fraction(0, 1)]
>>> points_for([1, 1, 3, 4])
[Fraction(3, 1), Fraction(3, 1), Fraction(1, 1), Fraction(0, 1)]
>>> [str(p) for p in points_for([2, 1, 2, 2])]
['1', '4', '1', '1']
>>> four = [("ann", 1500), ("bob", 1400), ("cy", 1450), ("di", 1300)]
>>> rows = standings(
...     four,
...     [
...         {"ann": 1, "bob": 2, "cy": 3, "di": 4},
...         {"ann": 1, "bob": 2, "cy": 3, "di": 4},
...         {"ann": 1, "bob": 2, "cy": 3, "di": 4},  # ann on a streak: 8
...         {"ann": 2, "bob": 1, "cy": 3, "di": 4},  # still doubled: 4; the streak ends
...     ],
... )
>>> [(r.place, r.key, str(r.points), r.games, r.streak) for r in rows]
[(1, 'ann', '20', 4, False), (2, 'bob', '10', 4, False), (3, 'cy', '4', 4, False), (4, 'di', '0', 4, False)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.engine import competition_ranks, is_win

STREAK = 2  # wins in a row that start a streak of double points


def place_points(players: int) -> list[int]:
    """The points of each place at a table of ``players``, first place first.

    >>> place_points(4), place_points(3), place_points(6)
    ([4, 2, 1, 0], [3, 1, 0], [6, 4, 3, 2, 1, 0])
    """
    return [players, *range(players - 2, -1, -1)]


def points_for(places: Sequence[int]) -> list[Fraction]:
    """Each seat's points from the places of one game (1 is first; tied seats share a place,
    the next place after them skipped, as the engine gives them)."""
    table = place_points(len(places))
    shares = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        filled = table[place - 1 : place - 1 + tied]
        shares.append(Fraction(sum(filled), tied))
    return shares


@dataclass
class Standing:
    key: int
    rating: float
    points: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    run: int = 0  # wins in a row, up to the last game
    place: int = 0

    @property
    def streak(self) -> bool:
        """On a streak: their next game scores double."""
        return self.run >= STREAK


def standings(
    entrants: Iterable[tuple[int, float]], games: Iterable[Mapping[int, int]]
) -> list[Standing]:
    """The standings of an arena: ``entrants`` as (user id, rating) in the order they joined, and
    its finished games in the order they ended, each the place of every player in it. Ranked
    by points, then wins, then the order of joining; tied rows share a place."""
    rows = {key: Standing(key, rating) for key, rating in entrants}
    for places in games:
        keys = list(places)
        shares = points_for([places[key] for key in keys])
        for key, share in zip(keys, shares, strict=True):
            row = rows.get(key)
            if row is None:
                continue  # not an entrant (left before the arena's records: never happens)
            doubled = row.streak
            row.points += share * 2 if doubled else share
            row.games += 1
            won = is_win(places[key])
            row.wins += won
            row.run = row.run + 1 if won else 0
    ranked = sorted(rows.values(), key=lambda r: (-r.points, -r.wins))
    ranks = competition_ranks([(-r.points, -r.wins) for r in ranked])
    for row, place in zip(ranked, ranks, strict=True):
        row.place = place
    return ranked


def shown(points: Fraction) -> str:
    """Points as the standings show them: whole, or with one decimal.

    >>> shown(Fraction(14)), shown(Fraction(7, 3)), shown(Fraction(5, 2))
    ('14', '2.3', '2.5')
    """
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.1f}"
