"""Reads: the lobby, who may see a table and its games, who plays where, and what a rated game
did to the ratings. What the table shows is built from them in live/table_context.py."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Avg, Count, F, Prefetch, Q, QuerySet, Value
from django.db.models.functions import Coalesce

from ratings.maths import MU, SIGMA
from ratings.models import RatingChange

from .models import Game, GamePlayer, Table


def lobby_tables() -> QuerySet[Table]:
    """Public tables that are open or playing, newest first."""
    return (
        Table.objects.filter(private=False)
        .exclude(status=Table.Status.CLOSED)
        .annotate(
            taken=Count("seats", filter=Q(seats__user__isnull=False) | Q(seats__is_bot=True)),
        )
        .select_related("host")
        .prefetch_related("seats__user")[:50]
    )


def games_running() -> int:
    """How many games are being played now, at any table: one count."""
    return Game.objects.filter(status=Game.Status.PLAYING).count()


def featured_game() -> Game | None:
    """The running game at a public table whose people are rated highest on average (a rating
    as the leaderboard orders them; someone with no rated game yet counts as a newcomer, a bot
    not at all), the newest of equals: the lobby's game to watch. Two queries, its players
    with their users the second."""
    rating = F("players__user__rating__mu") - 3 * F("players__user__rating__sigma")
    newcomer = Value(MU - 3 * SIGMA)
    strength = Avg(Coalesce(rating, newcomer), filter=Q(players__is_bot=False))
    return (
        Game.objects.filter(status=Game.Status.PLAYING, table__private=False)
        .annotate(strength=strength)
        .order_by(F("strength").desc(nulls_last=True), "-started_at", "-pk")
        .select_related("table")
        .prefetch_related(Prefetch("players", GamePlayer.objects.select_related("user")))
        .first()
    )


# Who may see what (docs/privacy.md): a public table and its games are open to everyone; a
# private one only to the people seated at it, the players of its games and whoever carries its
# invite code. Everyone else is told the id does not exist.

Viewer = AbstractBaseUser | AnonymousUser | None


def is_invite_code(table: Table, code: str | None) -> bool:
    """Whether ``code`` is the table's invite code (compared in constant time)."""
    if not code:
        return False
    return secrets.compare_digest(code.encode("utf-8", "replace"), table.invite_code.encode())


def is_seated(table: Table, user: Viewer) -> bool:
    return bool(
        user is not None and user.is_authenticated and table.seats.filter(user_id=user.pk).exists()
    )


def can_view(table: Table, user: Viewer, code: str | None) -> bool:
    """The table page, its socket and its seating buttons."""
    return not table.private or is_invite_code(table, code) or is_seated(table, user)


def can_view_game(game: Game, user: Viewer, code: str | None) -> bool:
    """A game's page, replay, record and verification page: its table's, or a player's."""
    table = game.table
    if can_view(table, user, code):
        return True
    return bool(
        user is not None
        and user.is_authenticated
        and game.players.filter(user_id=user.pk, is_bot=False).exists()
    )


def access_code(table: Table, code: str | None) -> str:
    """The code for links onward from a private table's pages: the one that let the viewer in,
    or nothing (a public table, or a viewer who came in by their seat)."""
    return code if code and table.private and is_invite_code(table, code) else ""


def running_game(user: Viewer) -> Game | None:
    """The game ``user`` is playing now, if any (the latest, should there be two): where the
    lobby's and the header's "Your game" lead, where Play now takes them back, and why the
    rated queue turns them away."""
    if user is None or not user.is_authenticated:
        return None
    games = Game.objects.filter(
        status=Game.Status.PLAYING, players__user_id=user.pk, players__is_bot=False
    )
    return games.select_related("table").order_by("-started_at").first()


def public_games() -> QuerySet[Game]:
    """The games anyone may find in a list: those of public tables."""
    return Game.objects.filter(table__private=False)


def seat_among(players: list[GamePlayer], user: Viewer) -> int | None:
    """The seat of the person ``user`` among a game's ``players``, or None (a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    return next((p.seat for p in players if p.user_id == user.pk and not p.is_bot), None)


def rating_changes(game: Game) -> dict[int, RatingChange]:
    """What a finished rated game did to each seat's rating, by seat (nothing for another
    game, and no query either: the table asks at every move)."""
    if not game.rated or not game.is_over or game.void:
        return {}
    return {change.seat: change for change in RatingChange.objects.filter(game=game)}
