"""The rating service: rate a game once as it ends, or replay every rated game from scratch.

``rate_game`` runs inside the transaction that finishes the game (``games.services._finish``),
so a game's result and its rating changes are saved together or not at all. It locks the
players' user rows first, so two games that end at the same time with a person in common are
rated one after the other. ``recompute_all`` replays every rated game in the order they ended
(``finished_at``, then id) through the same arithmetic, and so gives the same numbers; it is
what moderators run after voiding a game.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from games.models import Game, GamePlayer

from . import maths
from .models import Rating, RatingChange


def is_rateable(game: Game, players: Sequence[GamePlayer]) -> bool:
    """Rated table, not voided, no bot, every seat a registered person from start to end, and
    a result with places."""
    user_ids = [player.user_id for player in players]
    return (
        game.rated
        and not game.void
        and game.status == Game.Status.FINISHED
        and bool(game.result and game.result.get("places"))
        and bool(players)
        and not any(player.is_bot for player in players)
        and None not in user_ids
        and len(set(user_ids)) == len(user_ids)
    )


def rate_game(game: Game) -> list[RatingChange]:
    """Update the ratings of everyone in ``game`` once; a second call changes nothing."""
    players = list(game.players.order_by("seat"))
    if not is_rateable(game, players):
        return []
    with transaction.atomic():
        user_ids = [player.user_id for player in players if player.user_id is not None]
        _lock_users(user_ids)
        if RatingChange.objects.filter(game=game).exists():
            return []
        ratings = {rating.user_id: rating for rating in Rating.objects.filter(user_id__in=user_ids)}
        for user_id in user_ids:
            ratings.setdefault(user_id, Rating(user_id=user_id))
        changes = _rate(game, players, ratings)
        for rating in ratings.values():
            rating.save()
        return RatingChange.objects.bulk_create(changes)


def recompute_all() -> tuple[int, int]:
    """Forget every rating and rate every rated finished game again, oldest first.

    Returns the number of games rated and of people with a rating."""
    with transaction.atomic():
        list(User.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        ratings: dict[int, Rating] = {}
        changes: list[RatingChange] = []
        rated = 0
        games = (
            Game.objects.filter(rated=True, status=Game.Status.FINISHED)
            .order_by("finished_at", "pk")
            .prefetch_related("players")
        )
        for game in games.iterator(chunk_size=500):
            players = sorted(game.players.all(), key=lambda player: player.seat)
            if not is_rateable(game, players):
                continue
            for player in players:
                assert player.user_id is not None
                ratings.setdefault(player.user_id, Rating(user_id=player.user_id))
            changes += _rate(game, players, ratings)
            rated += 1
        Rating.objects.bulk_create(ratings.values(), batch_size=500)
        RatingChange.objects.bulk_create(changes, batch_size=1000)
    return rated, len(ratings)


def _lock_users(user_ids: Sequence[int]) -> None:
    """Lock the people's rows in id order (the same order everywhere, so no deadlock)."""
    list(User.objects.select_for_update().filter(pk__in=user_ids).order_by("pk"))


def _rate(
    game: Game, players: Sequence[GamePlayer], ratings: dict[int, Rating]
) -> list[RatingChange]:
    """The changes one game makes; ``ratings`` (by user id) are updated in memory."""
    assert game.result is not None
    places = [int(place) for place in game.result["places"]]
    mine = [ratings[player.user_id] for player in players if player.user_id is not None]
    before = [rating.skill for rating in mine]
    after = maths.rate(before, places)
    changes = []
    for player, rating, old, new, place in zip(players, mine, before, after, places, strict=True):
        rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
        changes.append(
            RatingChange(
                game=game,
                user_id=rating.user_id,
                seat=player.seat,
                place=place,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                games_after=rating.games,
            )
        )
    return changes
