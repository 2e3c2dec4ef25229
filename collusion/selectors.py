"""Reads: the rated games, replayed, as :mod:`collusion.signals` analyses them."""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings

from games.engine import Match, Rules
from games.models import Game

from .signals import PairSignal, Player, RatedGame, rank_pairs

MIN_GAMES = 5  # rated games a pair must share to be ranked (setting COLLUSION_MIN_GAMES)
LATEST_GAMES = 2000  # the page reads this many of the latest rated games


def min_games() -> int:
    return int(getattr(settings, "COLLUSION_MIN_GAMES", MIN_GAMES))


def rated_games(limit: int = LATEST_GAMES) -> Iterator[RatedGame]:
    """The latest rated games (with their rating changes), each replayed from its log."""
    games = (
        Game.objects.filter(rated=True, status=Game.Status.FINISHED, rating_changes__isnull=False)
        .distinct()
        .order_by("-finished_at", "-pk")
        .prefetch_related("moves", "rating_changes__user")[:limit]
    )
    for game in games:
        changes = sorted(game.rating_changes.all(), key=lambda change: change.seat)
        moves = [row.to_engine() for row in game.moves.all()]
        rules = Rules.from_json(game.rules)
        yield RatedGame(
            game_id=game.pk,
            match=Match.replay(rules, bytes(game.seed), moves, game.added_seeds),
            players=tuple(Player(change.user_id, change.user.username) for change in changes),
            places=tuple(change.place for change in changes),
            skills=tuple((change.mu_before, change.sigma_before) for change in changes),
            rating_changes=tuple(change.display_change for change in changes),
        )


def ranked_pairs() -> list[PairSignal]:
    return rank_pairs(rated_games(), min_games())
