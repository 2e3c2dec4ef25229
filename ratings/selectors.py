"""Reads: the leaderboard, and one person's rating history drawn as a chart."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import F, QuerySet

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
