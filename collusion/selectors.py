"""Reads: the rated games, replayed, as :mod:`collusion.signals` analyses them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from django.conf import settings

from games.engine import Match, Move, Rules, parse_cards
from games.models import Game, MoveRecord

from .signals import PairSignal, Player, RatedGame, rank_pairs

LATEST_GAMES = 1000  # the page reads this many of the latest rated games


def min_games() -> int:
    """The rated games a pair must share to be ranked (the setting COLLUSION_MIN_GAMES)."""
    return int(settings.COLLUSION_MIN_GAMES)


def rated_games(limit: int = LATEST_GAMES) -> Iterator[RatedGame]:
    """The latest rated games (with their rating changes), each replayed from its log."""
    games = list(
        Game.objects.filter(rated=True, status=Game.Status.FINISHED, rating_changes__isnull=False)
        .distinct()
        .order_by("-finished_at", "-pk")
        .prefetch_related("rating_changes__user")[:limit]
    )
    logs = _move_logs([game.pk for game in games])
    for game in games:
        changes = sorted(game.rating_changes.all(), key=lambda change: change.seat)
        rules = Rules.from_json(game.rules)
        yield RatedGame(
            game_id=game.pk,
            match=Match.replay(rules, bytes(game.seed), logs[game.pk], game.added_seeds),
            players=tuple(Player(change.user_id, change.user.username) for change in changes),
            places=tuple(change.place for change in changes),
            skills=tuple((change.mu_before, change.sigma_before) for change in changes),
            rating_changes=tuple(change.display_change for change in changes),
        )


def _move_logs(game_ids: list[int]) -> dict[int, list[Move]]:
    """The move log of each game, read as plain rows: a few hundred moves a game add up."""
    logs: defaultdict[int, list[Move]] = defaultdict(list)
    rows = (
        MoveRecord.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list("game_id", "kind", "seat", "cards", "choice", "timeout")
    )
    for game_id, kind, seat, cards, choice, timeout in rows.iterator(chunk_size=5000):
        logs[game_id].append(Move(kind, seat, tuple(parse_cards(cards)), choice, timeout))
    return logs


def ranked_pairs() -> list[PairSignal]:
    return rank_pairs(rated_games(), min_games())
