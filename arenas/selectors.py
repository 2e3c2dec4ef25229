"""Reads of the arenas: the lists, an arena's standings worked out from its games' results
(arenas/scoring.py; a void game counts for nothing), the games being played, what the lobby
and a profile show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count
from django.utils import timezone

from games.models import Game, GamePlayer
from ratings.selectors import ratings_of

from . import scoring
from .models import Arena, ArenaGame, Entrant

FINISHED_SHOWN = 20  # finished arenas on the list
PODIUM = 3


@dataclass(frozen=True)
class Row:
    place: int
    user_id: int
    name: str
    rating: int  # as the profile and the leaderboard show it, not the seating's
    provisional: bool
    points: str  # as the page shows them (scoring.shown)
    points_number: float  # the same, as a number: the API's
    games: int
    wins: int
    streak: bool
    paused: bool
    playing: bool

    @property
    def podium(self) -> bool:
        return self.place <= PODIUM


def results(arena: Arena) -> list[dict[int, int]]:
    """The places of the people in each of the arena's finished games that count (not void),
    in the order the games ended: {user id: place}."""
    games = (
        Game.objects.filter(arena_game__arena=arena, status=Game.Status.FINISHED, void=False)
        .order_by("finished_at", "pk")
        .values_list("pk", "result")
    )
    ordered = list(games)
    seats: dict[int, dict[int, int]] = {pk: {} for pk, _ in ordered}
    players = GamePlayer.objects.filter(game_id__in=seats, is_bot=False, user__isnull=False)
    for game_id, seat, user_id in players.values_list("game_id", "seat", "user_id"):
        seats[game_id][seat] = user_id
    found = []
    for pk, result in ordered:
        places = (result or {}).get("places") or []
        found.append({user: places[seat] for seat, user in seats[pk].items() if seat < len(places)})
    return found


def standings(arena: Arena) -> list[Row]:
    """Everyone who joined, ranked by the points of the arena's games."""
    entrants = list(
        Entrant.objects.filter(arena=arena).select_related("user").order_by("joined_at", "pk")
    )
    by_user = {e.user_id: e for e in entrants}
    ratings = ratings_of(by_user)
    ranked = scoring.standings(((e.user_id, e.rating) for e in entrants), results(arena))
    rows = []
    for standing in ranked:
        entrant = by_user[standing.key]
        rating = ratings[entrant.user_id]
        rows.append(
            Row(
                place=standing.place,
                user_id=entrant.user_id,
                name=entrant.user.username,
                rating=rating.display,
                provisional=rating.is_provisional,
                points=scoring.shown(standing.points),
                points_number=round(float(standing.points), 1),
                games=standing.games,
                wins=standing.wins,
                streak=standing.streak,
                paused=entrant.paused,
                playing=entrant.game_id is not None,
            )
        )
    return rows


def playing(arena: Arena) -> list[dict[str, Any]]:
    """The arena's games being played, each with its players' names and its table."""
    games = (
        ArenaGame.objects.filter(arena=arena, game__status=Game.Status.PLAYING)
        .select_related("table")
        .order_by("pk")
    )
    shown = []
    ids = {played.game_id: played for played in games}
    names: dict[int, list[str]] = {game_id: [] for game_id in ids}
    players = GamePlayer.objects.filter(game_id__in=ids).order_by("seat")
    for game_id, username in players.values_list("game_id", "user__username"):
        names[game_id].append(username or "")
    for game_id, played in ids.items():
        shown.append({"url": played.table.get_absolute_url(), "names": names[game_id]})
    return shown


def live_context(arena: Arena, now: datetime | None = None) -> dict[str, Any]:
    """What every open page of the arena shows alike: its state, standings and games."""
    now = now or timezone.now()
    return {
        "arena": arena,
        "state": "finished" if arena.ended else arena.state(now),
        "standings": standings(arena),
        "playing": playing(arena),
        "now": now,
    }


def listed(now: datetime | None = None) -> dict[str, list[dict[str, Any]]]:
    """The arenas page: upcoming, running and the latest finished, each with how many joined
    and its leader."""
    now = now or timezone.now()
    arenas = Arena.objects.annotate(joined=Count("entrants"))
    upcoming = arenas.filter(starts_at__gt=now).order_by("starts_at")
    started = list(arenas.filter(starts_at__lte=now).order_by("-starts_at")[:100])
    running = [a for a in started if not a.ended and a.state(now) == "running"]
    finished = [a for a in started if a not in running][:FINISHED_SHOWN]
    return {
        "upcoming": [_summary(a, now, leader=False) for a in upcoming[:FINISHED_SHOWN]],
        "running": [_summary(a, now) for a in running],
        "finished": [_summary(a, now) for a in finished],
    }


def _summary(arena: Arena, now: datetime, *, leader: bool = True) -> dict[str, Any]:
    joined: int = getattr(arena, "joined", 0)
    rows = standings(arena) if leader and joined else []
    first = rows[0] if rows and rows[0].games else None
    return {"arena": arena, "joined": joined, "leader": first}


def for_lobby(user: User | None, now: datetime | None = None) -> dict[str, Any]:
    """The lobby's arenas: the running ones and the next to start, and whether ``user`` is in."""
    now = now or timezone.now()
    running = [
        a
        for a in Arena.objects.filter(starts_at__lte=now, ended=False).order_by("starts_at")
        if a.state(now) == "running"
    ]
    upcoming = Arena.objects.filter(starts_at__gt=now).order_by("starts_at").first()
    joined: set[int] = set()
    if user is not None and user.is_authenticated:
        ids = [a.pk for a in running] + ([upcoming.pk] if upcoming else [])
        joined = set(
            Entrant.objects.filter(user=user, arena_id__in=ids, paused=False).values_list(
                "arena_id", flat=True
            )
        )
    return {"running": running, "upcoming": upcoming, "joined": joined}


def arena_exists(arena_id: int) -> bool:
    return Arena.objects.filter(pk=arena_id).exists()


def entry_of(arena: Arena, user: User | None) -> Entrant | None:
    if user is None or not user.is_authenticated:
        return None
    return Entrant.objects.filter(arena=arena, user=user).first()


def finished_places(user: User) -> list[dict[str, Any]]:
    """The finished arenas ``user`` played a game in, newest first, with their final place."""
    arenas = (
        Arena.objects.filter(entrants__user=user, ended=True).order_by("-starts_at").distinct()[:50]
    )
    shown = []
    for arena in arenas:
        mine = next((row for row in standings(arena) if row.user_id == user.pk), None)
        if mine is not None and mine.games:
            shown.append({"arena": arena, "row": mine})
    return shown
