"""A person's record over the finished games they sat in, read from the games' move logs.

Points and moons come from replaying the games (``Match.replay``): each scored hand's points
and each hand's shooter. A finished game's log never changes, so each game is replayed once and
what it adds up to is kept as a ``GameTally``; a profile then reads the tallies. Wins come from
the result's places (a shared first place is a win: ``games.engine.is_win``), each shown as the site words places
(``games.words.ordinal``):

>>> ordinal(2), ordinal(11)
('2nd', '11th')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import EARLY_ENDS, EndReason, Match, Move, Rules, is_win
from games.models import Game, GamePlayer, MoveRecord
from games.words import ordinal

from .maths import change_text
from .models import GameTally, RatingChange

RECENT_GAMES = 10

# How a game ended against the player named, as a profile's list of games says it: "bob
# resigned" (the game pages' words, games.words.ENDED_EARLY, in a sentence of its own).
ENDED_EARLY_WORDS: dict[str, Promise] = {
    EndReason.RESIGNED: gettext_lazy("%(name)s resigned"),
    EndReason.LEFT: gettext_lazy("%(name)s left"),
    EndReason.TIMED_OUT: gettext_lazy("%(name)s ran out of time"),
}


@dataclass(frozen=True)
class RuleSetRecord:
    title: str
    games: int
    wins: int


@dataclass(frozen=True)
class RecentGame:
    game: Game
    rule_set: str
    finished_at: datetime | None
    place: int | None
    players: int
    total: int
    opponents: list[str]
    reason: str
    forfeited_by: str  # the name of whoever resigned, left or ran out of time; "" if nobody
    rating_change: int | None  # in displayed points; None for a casual game

    @property
    def place_text(self) -> str:
        return ordinal(self.place) if self.place else _("unplaced")

    @property
    def ended_early(self) -> bool:
        return self.reason in EARLY_ENDS and bool(self.forfeited_by)

    @property
    def ended_early_words(self) -> str:
        """Who ended the game early and how ("bob resigned"), in the game pages' words."""
        words = ENDED_EARLY_WORDS.get(self.reason)
        return str(words) % {"name": self.forfeited_by} if words else ""

    @property
    def rating_change_text(self) -> str:
        return change_text(self.rating_change or 0)


@dataclass
class PlayerStats:
    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    moons: int = 0
    by_rule_set: list[RuleSetRecord] = field(default_factory=list)
    recent: list[RecentGame] = field(default_factory=list)

    @property
    def points_per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None


def player_stats(
    person: User, recent: int = RECENT_GAMES, *, with_private: bool = False
) -> PlayerStats:
    """The person's record; the games of private tables count only ``with_private`` (their own
    profile, seen by themselves: docs/privacy.md)."""
    played = GamePlayer.objects.filter(user=person, is_bot=False, game__status=Game.Status.FINISHED)
    if not with_private:
        played = played.filter(game__table__private=False)
    seats = list(played.select_related("game__table").order_by("-game__finished_at", "-game_id"))
    stats = PlayerStats(games=len(seats))
    tallies = game_tallies([seat.game for seat in seats])
    games_by_set: Counter[str] = Counter()
    wins_by_set: Counter[str] = Counter()
    for seat in seats:
        tally = tallies[seat.game_id]
        stats.hands += tally.hands
        stats.points += tally.points[seat.seat]
        stats.moons += tally.moons[seat.seat]
        won = is_win(_place(seat.game, seat.seat))
        stats.wins += won
        games_by_set[seat.game.table.preset_title] += 1
        wins_by_set[seat.game.table.preset_title] += won
    stats.by_rule_set = [
        RuleSetRecord(title, games, wins_by_set[title])
        for title, games in sorted(games_by_set.items(), key=lambda item: (-item[1], item[0]))
    ]
    stats.recent = _recent(person, seats[:recent])
    return stats


def game_tallies(games: list[Game]) -> dict[int, GameTally]:
    """Each finished game's tally (by game id): stored ones, and the others worked out from
    the move logs now and stored for next time."""
    tallies = {t.game_id: t for t in GameTally.objects.filter(game_id__in=[g.pk for g in games])}
    missing = [game for game in games if game.pk not in tallies]
    if missing:
        moves = MoveRecord.logs_of([game.pk for game in missing])
        new = [tally_of(game, moves[game.pk]) for game in missing]
        GameTally.objects.bulk_create(new, ignore_conflicts=True)
        tallies.update((tally.game_id, tally) for tally in new)
    return tallies


def tally_of(game: Game, moves: list[Move]) -> GameTally:
    match = Match.replay(Rules.from_json(game.rules), bytes(game.seed), moves, game.added_seeds)
    scored = [hand for hand in match.hands if hand.points is not None]
    return GameTally(
        game=game,
        hands=len(scored),
        points=[
            sum(hand.points[seat] for hand in scored if hand.points)
            for seat in range(match.players)
        ],
        moons=[sum(hand.shooter == seat for hand in match.hands) for seat in range(match.players)],
    )


def _place(game: Game, seat: int) -> int | None:
    places = (game.result or {}).get("places") or []
    return int(places[seat]) if seat < len(places) else None


def _recent(person: User, seats: list[GamePlayer]) -> list[RecentGame]:
    prefetch_related_objects(
        [seat.game for seat in seats],
        Prefetch("players", queryset=GamePlayer.objects.select_related("user")),
    )
    changes = {
        change.game_id: change.display_change
        for change in RatingChange.objects.filter(
            user=person, game_id__in=[seat.game_id for seat in seats]
        )
    }
    recent = []
    for seat in seats:
        game = seat.game
        result = game.result or {}
        totals = result.get("totals") or []
        players = {player.seat: player for player in game.players.all()}
        forfeited = players.get(result.get("forfeited", -1))
        recent.append(
            RecentGame(
                game=game,
                rule_set=game.table.preset_title,
                finished_at=game.finished_at,
                place=_place(game, seat.seat),
                players=len(players),
                total=int(totals[seat.seat]) if seat.seat < len(totals) else 0,
                opponents=[p.name for p in players.values() if p.seat != seat.seat],
                reason=str(result.get("reason", "")),
                forfeited_by=forfeited.name if forfeited else "",
                rating_change=changes.get(game.pk),
            )
        )
    return recent
