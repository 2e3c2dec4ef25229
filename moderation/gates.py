"""Where the rest of the site asks moderation whether a person may do something. The games'
services call these; each raises ``games.errors.ServiceError`` (shown to that person) or
answers. What each checks is filled in by the moderation and fair-play code it names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from fairplay import penalties
from games.errors import ServiceError
from games.models import Game, Table

from .models import Mark, Sanction, is_marked, sanction_in_force


def check_may_sit(user: User, table: Table) -> None:
    """Before ``user`` takes a seat at ``table``."""
    check_may_play(user)
    if table.rated and is_marked(user):
        raise ServiceError(
            _(
                "Your games are unrated while staff review your account, so rated tables are "
                "closed to you: choose an unrated table"
            )
        )
    penalties.check_may_sit(user, table)


def check_may_start(user: User, table: Table) -> None:
    """Before a game starts at ``table`` with ``user`` seated (they sat down earlier, and may
    have been suspended or banned, or barred from rated tables, since: a rematch, say). A mark
    does not stop it: the game is unrated (``may_be_rated``)."""
    check_may_play(user)
    penalties.check_may_sit(user, table)


def check_may_queue(user: User) -> None:
    """Before ``user`` joins the rated queue, and again before the queue seats them: as for
    sitting at a rated table."""
    check_may_play(user)
    if is_marked(user):
        raise ServiceError(
            _(
                "Your games are unrated while staff review your account, so the rated queue is "
                "closed to you: casual tables are open"
            )
        )
    ban = penalties.ban_of(user)
    if ban is not None:
        raise ServiceError(ban.refusal())


def may_play_rated(user: User) -> bool:
    """Whether rated tables and the rated queue are open to ``user`` now: what the lobby
    offers them."""
    try:
        check_may_queue(user)
    except ServiceError:
        return False
    return True


def check_may_play(user: User) -> None:
    """Before ``user`` moves in a game (also the bots' and the clock's moves are not asked)."""
    if sanction := sanction_in_force(user):
        raise ServiceError(sanction.notice)


def kept_out(user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` kept out now: a suspension or a ban in force, or a closed
    account. One query, for the live layer's look at the people whose sockets it holds."""
    ids = set(user_ids)
    if not ids:
        return set()
    in_force = Sanction.objects.in_force().filter(user_id__in=ids).order_by()
    sanctioned = in_force.values_list("user_id", flat=True)
    closed = (
        User.objects.filter(pk__in=ids, is_active=False).order_by().values_list("pk", flat=True)
    )
    return set(sanctioned.union(closed))


def may_be_rated(users: Sequence[User]) -> bool:
    """Whether a game of these people may be rated (every seat a person, the table rated):
    not if staff have marked one of them."""
    marked = Mark.objects.filter(user__in=users, lifted_at__isnull=True)
    return not marked.exists()


def after_game(game: Game) -> None:
    """In the transaction that ends ``game``, after it is rated."""
    penalties.record_game(game)
