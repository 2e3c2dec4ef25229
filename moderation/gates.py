"""Where the rest of the site asks moderation whether a person may do something. The games'
services call these; each raises ``games.services.ServiceError`` (shown to that person) or
answers. What each checks is filled in by the moderation and fair-play code it names."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User

from games.models import Game, Table


def check_may_sit(user: User, table: Table) -> None:
    """Before ``user`` takes a seat at ``table``."""


def check_may_play(user: User) -> None:
    """Before ``user`` moves in a game (also the bots' and the clock's moves are not asked)."""


def may_be_rated(users: Sequence[User]) -> bool:
    """Whether a game of these people may be rated (every seat a person, the table rated)."""
    return True


def after_game(game: Game) -> None:
    """In the transaction that ends ``game``, after it is rated."""
