"""Reads: the leaderboard, and one person's rating history drawn as a chart."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import F, QuerySet

from games.engine import competition_ranks

from .maths import display_rating
from .models import Rating, RatingChange


def leaderboard() -> QuerySet[Rating]:
    """Everyone with a rated game, highest displayed rating first; those still provisional are
    listed too (the page marks them), so that a new player finds themselves there."""
    return (
        Rating.objects.filter(games__gt=0, user__is_active=True)
        .select_related("user")
        .alias(conservative=F("mu") - 3 * F("sigma"))
        .order_by("-conservative", "user__username")
    )


def rating_of(person: User) -> Rating | None:
    return Rating.objects.filter(user=person).first()


def ratings_of(user_ids: Iterable[int]) -> dict[int, Rating]:
    """Each person's rating, as the profile and the leaderboard show it; someone with no rated
    game yet gets a newcomer's (unsaved), which shows the starting rating, provisional."""
    ids = set(user_ids)
    found = {rating.user_id: rating for rating in Rating.objects.filter(user_id__in=ids)}
    return {pk: found.get(pk) or Rating(user_id=pk) for pk in ids}


TIES_READ = 100  # rows read at a time, going back from a page, to find a tie that began before it


def ranked(rows: QuerySet[Rating], offset: int, limit: int) -> list[tuple[int, Rating]]:
    """A page of the leaderboard ``rows`` (highest first), each with its rank: equal ratings as
    shown share one and the next rank skips as many (1, 1, 1, 4), across pages too."""
    page = list(rows[offset : offset + limit])
    if not page:
        return []
    tied = _tied_before(rows, offset, page[0].display)
    keys = [-page[0].display] * tied + [-rating.display for rating in page]
    ranks = competition_ranks(keys, start=offset + 1 - tied)[tied:]
    return list(zip(ranks, page, strict=True))


def _tied_before(rows: QuerySet[Rating], offset: int, shown: int) -> int:
    """How many of the rows just before ``offset`` show the rating ``shown``: a tie that began on
    an earlier page (rarely more than a few rows, read back a hundred at a time)."""
    tied = 0
    while offset > 0:
        start = max(0, offset - TIES_READ)
        before = rows.values_list("mu", "sigma")[start:offset]
        for mu, sigma in reversed(list(before)):
            if display_rating(mu, sigma) != shown:
                return tied
            tied += 1
        offset = start
    return tied


# The history chart ---------------------------------------------------------------------------

CHART_GAMES = 100  # the chart shows this many of the latest rated games
WIDTH, HEIGHT = 480, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28  # room for the axis labels


@dataclass(frozen=True)
class ChartPoint:
    number: int  # the person's rated game count after this game (0: before the first)
    rating: int
    finished_at: datetime | None
    game_id: int | None
    x: float
    y: float


@dataclass(frozen=True)
class Tick:
    value: int
    y: float


@dataclass(frozen=True)
class HistoryChart:
    points: list[ChartPoint]
    ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def first(self) -> ChartPoint:
        return self.points[0]

    @property
    def last(self) -> ChartPoint:
        return self.points[-1]

    @property
    def highest(self) -> int:
        return max(p.rating for p in self.points)

    @property
    def lowest(self) -> int:
        return min(p.rating for p in self.points)

    @property
    def games(self) -> list[ChartPoint]:
        """The points that are games (not the newcomer's starting point), latest first."""
        return [p for p in reversed(self.points) if p.game_id is not None]


def history_chart(person: User, *, with_private: bool = False) -> HistoryChart | None:
    """The person's displayed rating after each of their latest rated games, as chart points;
    None before their first rated game. The games of private tables are left out unless
    ``with_private`` (their own profile, seen by themselves: docs/privacy.md)."""
    rated = RatingChange.objects.filter(user=person)
    if not with_private:
        rated = rated.filter(game__table__private=False)
    changes = list(
        rated.select_related("game").order_by("-game__finished_at", "-game_id")[:CHART_GAMES]
    )[::-1]
    if not changes:
        return None
    first = changes[0]
    values: list[tuple[int, int, datetime | None, int | None]] = [
        (first.games_after - 1, first.display_before, None, None)
    ]
    values += [(c.games_after, c.display_after, c.game.finished_at, c.game_id) for c in changes]
    low, high = _range(v[1] for v in values)
    steps = max(1, len(values) - 1)
    points = [
        ChartPoint(number, rating, when, game_id, _x(i, steps), _y(rating, low, high))
        for i, (number, rating, when, game_id) in enumerate(values)
    ]
    ticks = [Tick(value, _y(value, low, high)) for value in _tick_values(low, high)]
    return HistoryChart(points, ticks)


def _range(ratings: Iterable[int]) -> tuple[int, int]:
    values = list(ratings)
    step = 100
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        high = low + step
    return low, high


def _tick_values(low: int, high: int) -> list[int]:
    step = 100
    while (high - low) / step > 5:
        step *= 2
    return list(range(low, high + 1, step))


def _x(index: int, steps: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * index / steps


def _y(rating: int, low: int, high: int) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (high - rating) / (high - low)
