"""What the open API reads (api/v1.py): players, their games, one game, the games running, the
leaderboard and the arenas, as plain data in the formats docs/records.md describes.

What it never holds: a running game's seed, its deals, passes or moves (only its players and
the scores of the hands played out, as a spectator's screen shows them), a private table's
games, staff notes, reports, chat or anyone's e-mail. A closed account is named as closed.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from datetime import date, datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.urls import reverse

from accounts.models import shown_name
from arenas import selectors as arena_selectors
from arenas.models import Arena
from games import selectors as game_selectors
from games.engine import EARLY_ENDS, PRESETS, Match, Move, Rules, parse_cards
from games.history_selectors import finished_games
from games.models import Game, GamePlayer, MoveRecord
from games.records import FORMAT, match_record
from ratings.models import Rating, RatingChange
from ratings.selectors import leaderboard
from ratings.selectors import ranked as rated_page
from ratings.stats import player_stats

RECENT_FORM = 10  # a player's latest finished games, in their summary


def person(name: str) -> User | None:
    """The account called ``name`` (any case), closed ones too: the API says they are closed.
    A name no account could have (too long, a NUL, which PostgreSQL refuses) is nobody's."""
    if not name or len(name) > 150 or "\x00" in name:
        return None
    return User.objects.filter(username__iexact=name).first()


# A player ----------------------------------------------------------------------------------


def player(user: User) -> dict[str, Any]:
    """A player's profile: name, when they joined, their rating, their games counted per rule
    set and table size, their record and recent form. Public games only."""
    closed = not user.is_active
    rating = Rating.objects.filter(user=user).first()
    stats = player_stats(user, RECENT_FORM)
    counted: Counter[tuple[str, int, bool]] = Counter()
    seats = GamePlayer.objects.filter(
        user=user, is_bot=False, game__status=Game.Status.FINISHED, game__table__private=False
    ).values_list("game__table__preset", "game__rules", "game__rated")
    for preset, rules, rated in seats.iterator(chunk_size=2000):
        counted[(preset, int((rules or {}).get("players", 4)), bool(rated))] += 1
    sizes: dict[tuple[str, int], dict[str, Any]] = {}
    for (preset, players, rated), count in sorted(counted.items()):
        row = sizes.setdefault(
            (preset, players),
            {"rule_set": preset, "players": players, "games": 0, "rated_games": 0},
        )
        row["games"] += count
        if rated:
            row["rated_games"] += count
    return {
        "name": user.username,
        "shown_as": shown_name(user),
        "closed": closed,
        "joined": user.date_joined.date().isoformat(),
        "profile": reverse("profile", args=[user.username]),
        "rating": _rating(rating),
        "games": sorted(sizes.values(), key=lambda row: (-row["games"], row["rule_set"])),
        "record": {
            "games": stats.games,
            "wins": stats.wins,
            "hands": stats.hands,
            "points": stats.points,
            "moons": stats.moons,
        },
        "recent": [
            {
                "game": recent.game.pk,
                "finished_at": _time(recent.finished_at),
                "rule_set": recent.game.table.preset,
                "players": recent.players,
                "place": recent.place,
                "total": recent.total,
                "rated": recent.game.rated,
                "rating_change": recent.rating_change,
                "reason": recent.reason,
            }
            for recent in stats.recent
        ],
    }


def _rating(rating: Rating | None) -> dict[str, Any] | None:
    """The one rating a person has, over every rule set and size of rated game."""
    if rating is None or rating.games == 0:
        return None
    return {
        "rating": rating.display,
        "mu": round(rating.mu, 4),
        "sigma": round(rating.sigma, 4),
        "games": rating.games,
        "provisional": rating.is_provisional,
    }


# Lists of games ----------------------------------------------------------------------------


def games_of(
    user: User,
    *,
    rule_set: str | None = None,
    players: int | None = None,
    rated: bool | None = None,
    result: str | None = None,
    since: date | None = None,
    until: date | None = None,
) -> QuerySet[Game]:
    """A player's finished games at public tables, newest first, with the history list's
    filters (games/history_selectors.py) and the table size."""
    filters: dict[str, Any] = {"player": user.username, "preset": rule_set, "result": result}
    filters["since"], filters["until"] = since, until
    if rated is not None:
        filters["rated"] = "yes" if rated else "no"
    games = finished_games(filters).filter(
        players__user=user, players__is_bot=False
    )  # the exact account, not another of the same name in other case
    if players is not None:
        games = games.filter(rules__players=players)
    return games.distinct()


def summary(game: Game) -> dict[str, Any]:
    """What a list shows of a game: who sat where, the rules' name, how it ended. Reads the
    players as prefetched (``players__user``)."""
    result = game.result or {}
    return {
        "id": game.pk,
        "url": reverse("game_detail", args=[game.pk]),
        "table": game.table_id,
        "number": game.number,
        "rule_set": game.table.preset,
        "players": int(game.rules.get("players", 4)),
        "rated": game.rated,
        "void": game.void,
        "status": game.status,
        "started_at": _time(game.started_at),
        "finished_at": _time(game.finished_at),
        "seats": [_seat(p) for p in sorted(game.players.all(), key=lambda p: p.seat)],
        "result": _result(game, result) if game.is_over else None,
    }


def _seat(player: GamePlayer) -> dict[str, Any]:
    user = player.user
    return {
        "seat": player.seat,
        "name": None if player.is_bot or user is None else user.username,
        "shown_as": player.name,
        "bot": player.is_bot,
        "closed": bool(user is not None and not user.is_active),
    }


def _result(game: Game, result: dict[str, Any]) -> dict[str, Any]:
    reason = str(result.get("reason", game.status))
    return {
        "reason": reason,
        "ended_early": reason in EARLY_ENDS,
        "places": result.get("places") or [],
        "totals": result.get("totals") or [],
        "forfeited": result.get("forfeited"),
    }


# One game ----------------------------------------------------------------------------------


def viewable(game_id: int) -> Game | None:
    """The game, if it is at a public table: the API answers anyone, so a private table's
    games are not found in it (their players see them on the site)."""
    return (
        game_selectors.public_games()
        .select_related("table")
        .prefetch_related("players__user")
        .filter(pk=game_id)
        .first()
    )


def game(game: Game, moves: list[MoveRecord] | list[Logged] | None = None) -> dict[str, Any]:
    """A game in full once it is over (every hand's deal, passes and moves, the deal check);
    while it runs, what a spectator sees of it: the players and the scores of the hands
    played out, never a card still hidden nor the seed."""
    out = summary(game)
    rules = Rules.from_json(game.rules)
    out["rules"] = rules.to_json()
    if not game.is_over:
        out["running"] = _running(game)
        out["check"] = {
            "fingerprint": game.fingerprint,
            "seed": None,  # published when the game ends
            "added_seeds": list(game.added_seeds),
            "page": reverse("game_verify", args=[game.pk]),
        }
        return out
    if moves is None:
        moves = list(game.moves.order_by("number"))
    match = Match.replay(
        rules, bytes(game.seed), [row.to_engine() for row in moves], game.added_seeds
    )
    record = match_record(match)
    out["running"] = None
    out["format"] = FORMAT
    out["hands"] = record["hands"]
    out["moves"] = [
        {
            "number": row.number,
            "seat": row.seat,
            "kind": row.kind,
            "cards": row.cards.split() if row.cards else [],
            "choice": row.choice,
            "timeout": row.timeout,
            "at": _time(row.created_at),
        }
        for row in moves
    ]
    out["totals"] = record["totals"]
    out["rating_changes"] = [
        {
            "seat": change.seat,
            "name": change.user.username,
            "place": change.place,
            "before": change.display_before,
            "after": change.display_after,
            "change": change.display_change,
            "provisional": change.is_provisional,
        }
        for change in _changes(game)
    ]
    out["check"] = {
        "fingerprint": record["fingerprint"],
        "seed": record["seed"],
        "added_seeds": record["added_seeds"],
        "page": reverse("game_verify", args=[game.pk]),
        "checker": reverse("checker_script"),
    }
    return out


def _changes(game: Game) -> list[RatingChange]:
    if not game.rated or game.void:
        return []
    prefetched = getattr(game, "api_changes", None)
    if prefetched is not None:
        return sorted(prefetched, key=lambda change: change.seat)
    return list(game.rating_changes.select_related("user").order_by("seat"))


def etag(game: Game) -> str:
    """What changes a finished game's answer: nothing but its being voided (and so its rating
    changes undone) or a player's name or account closing; the game itself never does."""
    void = game.voided_at.timestamp() if game.voided_at else 0
    seats = "|".join(f"{p.seat}:{p.name}" for p in sorted(game.players.all(), key=lambda p: p.seat))
    names = hashlib.sha256(seats.encode()).hexdigest()[:12]
    return f'"g{game.pk}-v{game.version}-{int(game.void)}-{void:.0f}-{names}"'


def exported(games: QuerySet[Game], chunk: int = 100) -> Iterator[dict[str, Any]]:
    """Every game of ``games`` in full (:func:`game`), read ``chunk`` games at a time: the
    memory held is that of one chunk, however many games there are."""
    ids = games.values_list("pk", flat=True)
    batch: list[int] = []
    for pk in ids.iterator(chunk_size=chunk * 10):
        batch.append(pk)
        if len(batch) == chunk:
            yield from _full_games(batch)
            batch = []
    if batch:
        yield from _full_games(batch)


class Logged(NamedTuple):
    """One entry of a game's move log read as plain values, with what :func:`game` reads of a
    ``MoveRecord``: an export reads hundreds a game, which as model instances took it twice the
    time and three times the memory."""

    number: int
    seat: int
    kind: str
    cards: str
    choice: str
    timeout: bool
    created_at: datetime

    def to_engine(self) -> Move:
        return Move(self.kind, self.seat, tuple(parse_cards(self.cards)), self.choice, self.timeout)


def _full_games(ids: list[int]) -> Iterator[dict[str, Any]]:
    rows = (
        Game.objects.filter(pk__in=ids)
        .select_related("table")
        .prefetch_related(
            "players__user",
            Prefetch(
                "rating_changes",
                queryset=RatingChange.objects.select_related("user"),
                to_attr="api_changes",
            ),
        )
    )
    logs: dict[int, list[Logged]] = defaultdict(list)
    moves = MoveRecord.objects.filter(game_id__in=ids).order_by("game_id", "number")
    for game_id, *fields in moves.values_list("game_id", *Logged._fields).iterator(2000):
        logs[game_id].append(Logged(*fields))
    found = {row.pk: row for row in rows}
    for pk in ids:
        row = found.get(pk)
        if row is not None:
            yield game(row, logs[pk])


# Running games, the leaderboard, the arenas ------------------------------------------------


def running() -> QuerySet[Game]:
    """Games being played at public tables, the latest started first."""
    return (
        game_selectors.public_games()
        .filter(status=Game.Status.PLAYING)
        .select_related("table")
        .prefetch_related("players__user")
        .order_by("-started_at", "-pk")
    )


def running_game(game: Game) -> dict[str, Any]:
    return {**summary(game), "running": _running(game)}


def _running(game: Game) -> dict[str, Any]:
    """What a spectator's screen shows of a running game's score: its version, the hand, the
    points of each hand played out and the totals."""
    match = game.live_match()
    return {
        "version": game.version,
        "hand": match.hand.number,
        "scores": [list(hand.points) for hand in match.hands if hand.points is not None],
        "totals": list(match.totals),
    }


def board(rule_set: str | None = None, players: int | None = None) -> QuerySet[Rating]:
    """The leaderboard, highest first; with a rule set or a table size, those who have played a
    rated game of it, ranked by the one rating each person has."""
    rows = leaderboard()
    if rule_set is None and players is None:
        return rows
    played = GamePlayer.objects.filter(
        is_bot=False, game__rated=True, game__status=Game.Status.FINISHED
    )
    if rule_set is not None:
        played = played.filter(game__table__preset=rule_set)
    if players is not None:
        played = played.filter(game__rules__players=players)
    return rows.filter(user_id__in=played.values("user_id"))


def ranked(rows: QuerySet[Rating], offset: int, limit: int) -> Iterable[dict[str, Any]]:
    """A page of the leaderboard, ranked as its page ranks it (equal ratings share a rank)."""
    for rank, rating in rated_page(rows, offset, limit):
        yield {
            "rank": rank,
            "name": rating.user.username,
            "rating": rating.display,
            "games": rating.games,
            "provisional": rating.is_provisional,
        }


def arenas() -> dict[str, list[dict[str, Any]]]:
    """The arenas page's lists: upcoming, running and the latest finished."""
    return {
        state: [_arena(item["arena"]) for item in items]
        for state, items in arena_selectors.listed().items()
    }


def arena(arena: Arena) -> dict[str, Any]:
    """An arena with its standings: the arena page's rows, which the answer's schema reads
    (api/schemas.py StandingOut)."""
    out: dict[str, Any] = _arena(arena)
    out["standings"] = arena_selectors.standings(arena)
    return out


def _arena(arena: Arena) -> dict[str, Any]:
    return {
        "id": arena.pk,
        "name": arena.name,
        "url": arena.get_absolute_url(),
        "rule_set": arena.preset,
        "players": arena.players,
        "starts_at": _time(arena.starts_at),
        "minutes": arena.minutes,
        "state": "finished" if arena.ended else arena.state(),
    }


def rule_sets() -> list[str]:
    return list(PRESETS)


def _time(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
