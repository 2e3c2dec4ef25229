"""Penalties for leaving rated games: what counts, how long the bans last, when they are forgiven.

A rated game ended against a person counts against them as an abandonment when it ended by
three time-outs in a row ("left"), by a strict missed deadline ("timed out"), or by resigning
before the last hand (see :func:`may_be_last_hand`). Casual games and games with a bot are
never rated, so they never count. A dropped connection is not leaving: only the clock's
time-outs end a game, and a move of the player's own before the deadline starts their count of
time-outs again.

Each abandonment bars its player from rated tables (casual ones stay open) for
``HEARTS_ABANDONMENT_BAN_MINUTES`` (10) times 2^(n-1), at most ``HEARTS_ABANDONMENT_BAN_MAX_MINUTES``
(two days), where n counts their abandonments not yet forgiven, this one included. After
``HEARTS_CLEAN_GAMES_TO_FORGIVE`` (10) clean rated games since the latest one (games that did
not count against them), every abandonment of theirs is forgiven: the next one bars for the
first length again.

>>> [ban_length(n).total_seconds() // 60 for n in (1, 2, 3, 9, 10)]
[10.0, 20.0, 40.0, 2560.0, 2880.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import Match
from games.errors import ServiceError
from games.models import Game, GamePlayer, Table

from .models import Abandonment


def ban_length(level: int) -> timedelta:
    """How long the ``level``-th abandonment not yet forgiven bars its player from rated tables."""
    first = timedelta(minutes=settings.HEARTS_ABANDONMENT_BAN_MINUTES)
    longest = timedelta(minutes=settings.HEARTS_ABANDONMENT_BAN_MAX_MINUTES)
    return min(first * 2 ** min(level - 1, 32), longest)


def clean_games_to_forgive() -> int:
    """Clean rated games, since the latest abandonment, that forgive them all."""
    games: int = settings.HEARTS_CLEAN_GAMES_TO_FORGIVE
    return games


# After a game ---------------------------------------------------------------------------


def record_game(game: Game) -> Abandonment | None:
    """Count a finished ``game`` for and against its players: the abandonment of the person it
    ended against, if it counts, and a clean game for everyone it does not count against.
    Nothing for a game that is not rated. Runs in the transaction that ends the game (from
    ``moderation.gates.after_game``). Returns the abandonment recorded."""
    if not game.rated or game.result is None:
        return None
    players = list(game.players.filter(is_bot=False, user__isnull=False).select_related("user"))
    leaver = _leaver(game, players)
    abandonment = None if leaver is None else _record_abandonment(leaver, game)
    for player in players:
        if player.user is not None and player.user != leaver:
            _forgive_after_clean_games(player.user, game)
    return abandonment


def _leaver(game: Game, players: list[GamePlayer]) -> User | None:
    """The person whose leaving ended ``game``, if it counts against them."""
    assert game.result is not None
    seat = game.result.get("forfeited")
    reason = game.result.get("reason")
    if seat is None or reason not in Abandonment.Reason.values:
        return None
    if reason == Abandonment.Reason.RESIGNED and may_be_last_hand(game.live_match()):
        return None
    return next((player.user for player in players if player.seat == seat), None)


def may_be_last_hand(match: Match) -> bool:
    """Whether the hand in play in ``match`` could still end it (the engine's
    :meth:`Match.may_be_last_hand`): whether some seat could reach the target in it, with the
    points it has taken in the hand and every point still out, or with a moon while one is
    still possible (nobody else has taken a point yet; a sun counts double where the rules
    allow one).

    A resignation counts as leaving only when the match would not have ended with the hand in
    play, and that is certain only when no seat can reach the target in it: so a resignation
    in a hand that may be the last does not count. Near the end of a match (someone within a
    hand's points of the target) that is every hand; under the lowest target, 25, it is also
    the first hand until the points have fallen too far apart for anyone to reach 25.
    """
    return match.may_be_last_hand()


def _record_abandonment(user: User, game: Game) -> Abandonment:
    # Two games of one person ending at once are counted one after the other: each ban's
    # level counts the other's abandonment.
    User.objects.select_for_update().filter(pk=user.pk).first()
    at = game.finished_at or timezone.now()
    level = _unforgiven(user).count() + 1
    assert game.result is not None
    return Abandonment.objects.create(
        user=user,
        game=game,
        at=at,
        reason=game.result["reason"],
        level=level,
        until=at + ban_length(level),
    )


def _forgive_after_clean_games(user: User, game: Game) -> None:
    """``game`` was a clean one for ``user``: with enough of them since their latest
    abandonment, forgive every abandonment of theirs."""
    latest = _unforgiven(user).first()
    if latest is None:
        return
    earlier = (
        GamePlayer.objects.filter(
            user=user,
            is_bot=False,
            game__rated=True,
            game__status=Game.Status.FINISHED,
            game__finished_at__gt=latest.at,
        )
        .exclude(game=game)
        .exclude(game__abandonments__user=user)
    )
    if earlier.count() + 1 >= clean_games_to_forgive():  # this game is not saved as over yet
        _unforgiven(user).update(forgiven_at=game.finished_at or timezone.now())


def _unforgiven(user: User) -> QuerySet[Abandonment]:
    return Abandonment.objects.filter(user=user, forgiven_at__isnull=True).order_by("-at", "-pk")


# Bans -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ban:
    """A bar from rated tables: until when, and for how many abandonments not yet forgiven."""

    until: datetime
    games: int

    def notice(self, now: datetime | None = None) -> str:
        """The words the lobby shows the barred player."""
        left = _time_left(self.until - (now or timezone.now()))
        return ngettext(
            "You are barred from rated tables for %(time)s (you left %(count)s rated game)",
            "You are barred from rated tables for %(time)s (you left %(count)s rated games)",
            self.games,
        ) % {"time": left, "count": self.games}

    def refusal(self, now: datetime | None = None) -> str:
        """The words that refuse the barred player a rated table (casual ones stay open)."""
        left = _time_left(self.until - (now or timezone.now()))
        return ngettext(
            "You are barred from rated tables for %(time)s (you left %(count)s rated game); "
            "casual tables are open to you",
            "You are barred from rated tables for %(time)s (you left %(count)s rated games); "
            "casual tables are open to you",
            self.games,
        ) % {"time": left, "count": self.games}


def ban_of(user: AbstractBaseUser | AnonymousUser) -> Ban | None:
    """The ban from rated tables that ``user`` is serving now, if any."""
    if not user.is_authenticated:
        return None
    unforgiven = Abandonment.objects.filter(user_id=user.pk, forgiven_at__isnull=True)
    longest = unforgiven.filter(until__gt=timezone.now()).order_by("-until").first()
    if longest is None:
        return None
    return Ban(longest.until, unforgiven.count())


def check_may_sit(user: User, table: Table) -> None:
    """A player serving a ban cannot sit at a rated table; casual tables stay open to them."""
    if not table.rated:
        return
    ban = ban_of(user)
    if ban is not None:
        raise ServiceError(ban.refusal())


def _time_left(left: timedelta) -> str:
    """A time left as people say it, rounded up to the minute.

    >>> _time_left(timedelta(minutes=22, seconds=1)), _time_left(timedelta(seconds=30))
    ('23 more minutes', '1 more minute')
    >>> _time_left(timedelta(hours=2)), _time_left(timedelta(hours=1, minutes=5))
    ('2 more hours', '1 more hour and 5 minutes')
    """
    minutes = max(1, math.ceil(left.total_seconds() / 60))
    if minutes < 60:
        return ngettext("%(count)s more minute", "%(count)s more minutes", minutes) % {
            "count": minutes
        }
    hours, minutes = divmod(minutes, 60)
    more_hours = ngettext("%(count)s more hour", "%(count)s more hours", hours) % {"count": hours}
    if not minutes:
        return more_hours
    # "1 more hour and 5 minutes"
    return _("%(hours)s and %(minutes)s") % {
        "hours": more_hours,
        "minutes": ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes},
    }
