"""Voiding a game: staff take a finished game out of the ratings, and it stays in the history.

A void game keeps its result, its record and its replay; it is marked void (and when), it is no
longer rated, and the ratings it changed are worked out again without it: its players' later
games and, in turn, the later games of everyone those reached, in the order they ended
(``ratings.services``, :func:`~ratings.services.rate_again_after`). The numbers are those a
fresh ``recompute_ratings`` gives, but the games before it are left alone, and the games that
end meanwhile are not held back while the later ones are rated again.

The void, its audit entry and the removal of its rating changes are saved in one transaction;
the later games are then rated again a batch at a time, and the new ratings saved last.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.models import Game
from ratings.models import RatingChange
from ratings.services import one_replay_at_a_time, rate_again_after, unrate_game

from . import audit
from .permissions import without_two_factor


def void_game(game_id: int, staff: User, reason: str) -> Game:
    """Mark the finished game ``game_id`` void for ``reason`` and rate its later games again.

    The game row is locked first (as the games' services lock it); one void or recompute of
    the ratings runs at a time."""
    if not (staff.is_staff and staff.has_perm("games.change_game")):
        raise PermissionDenied("Only staff who may change games may void one")
    if why := without_two_factor(staff):
        raise ServiceError(why)
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Say why the game is void: the reason goes into the audit log"))
    with one_replay_at_a_time():
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.status != Game.Status.FINISHED:
                raise ServiceError(
                    _("%(game)s is still being played: only a finished game is voided")
                    % {"game": game}
                )
            if game.void:
                raise ServiceError(_("%(game)s is void already") % {"game": game})
            details = {
                "was_rated": game.rated,
                "rating_changes": RatingChange.objects.filter(game=game).count(),
            }
            game.void, game.rated, game.voided_at = True, False, timezone.now()
            game.save(update_fields=["void", "rated", "voided_at"])
            audit.record(staff, "void", game=game, reason=reason, details=details)
            replay = unrate_game(game)
        rate_again_after(replay)
    return game
