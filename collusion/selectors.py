"""Reads: the rated games, replayed, as :mod:`collusion.signals` analyses them."""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings

from games.engine import Match, Rules
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
    logs = MoveRecord.logs_of([game.pk for game in games])
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


def ranked_pairs() -> list[PairSignal]:
    return rank_pairs(rated_games(), min_games())
