"""Who sits with whom: the grouping of a rated queue, by rating, the allowed gap widening the
longer people wait. Pure: it sees ratings and waiting times, never the database.

Everyone may sit with people whose ratings are within ``START_GAP`` of their own as soon as
they join (one class: a beta, 200 points, ratings/maths.py); the gap widens by
``WIDEN_PER_SECOND`` for every second waited, so that after a minute and a half anyone waiting
sits with anyone. A group is made only if its spread of ratings is within the gap of each of
its members (the narrowest, that of the one who joined last). The longest waiting is seated
first, with the group closest to them in rating that qualifies.

>>> from datetime import datetime, timedelta
>>> now = datetime(2026, 12, 2, 12, 0)
>>> def waiting(name, rating, seconds):
...     return Waiting(name, rating, now - timedelta(seconds=seconds))  # a name for the key
>>> queue = [
...     waiting("ann", 1500, 3),
...     waiting("bob", 1520, 2),
...     waiting("cy", 1480, 1),
...     waiting("di", 1510, 0),
...     waiting("ed", 2400, 0),
... ]
>>> [[w.key for w in group] for group in groups(queue, 4, now)]
[['cy', 'ann', 'di', 'bob']]
>>> queue = [
...     waiting("ann", 1500, 3),
...     waiting("bob", 1520, 2),
...     waiting("ed", 2400, 1),
...     waiting("di", 1510, 0),
... ]
>>> groups(queue, 4, now)
[]
>>> queue = [
...     waiting("ann", 1500, 95),
...     waiting("bob", 1520, 92),
...     waiting("ed", 2400, 100),
...     waiting("di", 1510, 90),
... ]
>>> [[w.key for w in group] for group in groups(queue, 4, now)]
[['ann', 'di', 'bob', 'ed']]

Two people kept ``apart`` (one blocks the other: accounts/blocks.py) are never in one group:
the one placed first sits with the nearest others, and the other waits.

>>> queue = [
...     waiting("ann", 1500, 4),
...     waiting("bob", 1510, 3),
...     waiting("cy", 1420, 2),
...     waiting("di", 1505, 1),
...     waiting("ed", 1490, 0),
... ]
>>> [[w.key for w in group] for group in groups(queue, 4, now)]
[['ed', 'ann', 'di', 'bob']]
>>> apart = {frozenset({"ann", "bob"})}
>>> [[w.key for w in group] for group in groups(queue, 4, now, apart)]
[['cy', 'ed', 'ann', 'di']]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

START_GAP = 200.0  # rating points apart people may sit at once
WIDEN_PER_SECOND = 10.0  # more points for every second waited


@dataclass(frozen=True)
class Waiting:
    key: int  # whatever the caller knows the person by
    rating: float
    since: datetime


def allowed_gap(waiting: Waiting, now: datetime) -> float:
    """How far apart in rating ``waiting`` may sit from the others at ``now``."""
    seconds = max(0.0, (now - waiting.since).total_seconds())
    return START_GAP + WIDEN_PER_SECOND * seconds


def groups(
    queue: Sequence[Waiting],
    size: int,
    now: datetime,
    apart: Collection[frozenset[int]] = frozenset(),
) -> list[list[Waiting]]:
    """The tables to make now from ``queue``: groups of ``size``, each listed by rating, no one
    in two, and no two of a pair in ``apart`` (pairs of keys) in one. Whoever has waited
    longest is placed first, in the qualifying run of ``size`` neighbours by rating (passing
    over those kept apart from them) with the smallest spread; a run that holds a pair kept
    apart does not qualify; someone no run qualifies for waits on."""
    by_rating = sorted(queue, key=lambda w: w.rating)
    made: list[list[Waiting]] = []
    for first in sorted(queue, key=lambda w: w.since):
        if first not in by_rating:
            continue  # seated with someone who waited longer
        near = [w for w in by_rating if frozenset({first.key, w.key}) not in apart]
        group = _closest_group(near, near.index(first), size, now, apart)
        if group is None:
            continue
        made.append(group)
        by_rating = [w for w in by_rating if w not in group]
    return made


def _closest_group(
    by_rating: list[Waiting],
    at: int,
    size: int,
    now: datetime,
    apart: Collection[frozenset[int]],
) -> list[Waiting] | None:
    best: tuple[float, list[Waiting]] | None = None
    for start in range(max(0, at - size + 1), min(at, len(by_rating) - size) + 1):
        group = by_rating[start : start + size]
        keys = {w.key for w in group}
        if any(pair <= keys for pair in apart):
            continue
        spread = group[-1].rating - group[0].rating
        if spread <= min(allowed_gap(w, now) for w in group) and (best is None or spread < best[0]):
            best = (spread, group)
    return best[1] if best else None
