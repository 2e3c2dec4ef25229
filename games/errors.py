"""The errors the games' services raise: a request the site refuses, with a message fit to show
the person who made it.

They live apart from the services so that the code the services call (moderation's gates,
fair play's penalties) can raise them without importing the services back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from .models import Game


class ServiceError(ValueError):
    """A request the site refuses; the message is fit to show the person who made it, in their
    language (translated where it is raised)."""


class StaleVersion(ServiceError):
    def __init__(self) -> None:
        super().__init__(_("The table moved on before your move arrived: here it is again"))


class GameOver(ServiceError):
    def __init__(self) -> None:
        super().__init__(_("The game is over"))


class AlreadyPlaying(ServiceError):
    """The person is playing a game already: ``game``, where they are taken back to."""

    def __init__(self, game: Game) -> None:
        super().__init__(
            _(
                "You are in the middle of a game, so here it is. Finish it (or resign) before "
                "starting another."
            )
        )
        self.game = game


class PlayerBarred(ServiceError):
    """Someone seated may not play at the table now (suspended, banned, or barred from rated
    tables since they sat down): ``name``, whose account is ``user_id``. The message is the
    gate's own reason when they asked to start themselves, else only that they cannot play
    there now: nobody else is told why."""

    def __init__(self, message: str, *, user_id: int, name: str) -> None:
        super().__init__(message)
        self.user_id = user_id
        self.name = name
