"""Voiding a game: staff take a finished game out of the ratings, and it stays in the history.

A void game keeps its result, its record and its replay; it is marked void (and when), it is no
longer rated, and every rating is computed again from scratch without it. Recomputing
everything rather than only the later games of its players is what makes the numbers equal a
fresh ``recompute_ratings``, and a void is rare enough that the whole replay is affordable.
The void, its audit entry and the new ratings are saved in one transaction, or none of them.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from games.errors import ServiceError
from games.models import Game
from ratings.models import RatingChange
from ratings.services import recompute_all

from . import audit


def void_game(game_id: int, staff: User, reason: str) -> Game:
    """Mark the finished game ``game_id`` void for ``reason`` and rate every game again.

    The game row is locked first (as the games' services lock it), then ``recompute_all``
    locks the people, so a void and a game that ends at the same time wait for each other."""
    if not (staff.is_staff and staff.has_perm("games.change_game")):
        raise PermissionDenied("Only staff who may change games may void one")
    reason = reason.strip()
    if not reason:
        raise ServiceError("Say why the game is void: the reason goes into the audit log")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            raise ServiceError(f"{game} is still being played: only a finished game is voided")
        if game.void:
            raise ServiceError(f"{game} is void already")
        details = {
            "was_rated": game.rated,
            "rating_changes": RatingChange.objects.filter(game=game).count(),
        }
        game.void, game.rated, game.voided_at = True, False, timezone.now()
        game.save(update_fields=["void", "rated", "voided_at"])
        audit.record(staff, "void", game=game, reason=reason, details=details)
        recompute_all()
    return game
