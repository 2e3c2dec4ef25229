"""What the lobby shows of the site around it, kept live by its socket (live/consumers.py): how
many people are online and how many games are running, the best-rated running game to watch,
and which of the people one follows are on now."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from redis.exceptions import RedisError

from accounts import follows, presence
from games import selectors

ON = ("playing", "online")  # what follows.Followed.status says of someone who is on

log = logging.getLogger(__name__)


def viewer_here(request: HttpRequest) -> None:
    """The person opening the lobby is online from now, so that the count they read includes
    them (their lobby socket notes them again a moment later, then every REFRESH): a
    signed-in person, or a visitor's browser that has been here before (its CSRF cookie; a
    first request without one is not counted, or every cookieless fetch would count anew)."""
    try:
        if request.user.is_authenticated:
            presence.here([request.user.pk])
        elif cookie := request.COOKIES.get(settings.CSRF_COOKIE_NAME):
            presence.visitors_here([presence.browser(cookie)])
    except RedisError as error:  # the lobby still opens
        log.warning("could not note who is online: %r", error)


def counts() -> dict[str, int | None]:
    """How many people are online (None while Redis cannot say: the lobby still opens) and how
    many games are running: what every lobby shows alike."""
    try:
        online: int | None = presence.online_count()
    except RedisError as error:
        log.warning("could not count who is online: %r", error)
        online = None
    return {"online": online, "running": selectors.games_running()}


@dataclass(frozen=True)
class Featured:
    """The lobby's game to watch, as it names it: the best-rated running game of a public
    table (games/selectors.py)."""

    url: str  # its table's
    people: str  # their names: "alice, bob"
    bots: int
    rule_set: str


def featured() -> Featured | None:
    game = selectors.featured_game()
    if game is None:
        return None
    players = list(game.players.all())
    return Featured(
        url=game.table.get_absolute_url(),
        people=", ".join(player.name for player in players if not player.is_bot),
        bots=sum(player.is_bot for player in players),
        rule_set=game.table.preset_title,
    )


def for_everyone() -> dict[str, Any]:
    """The counts and the featured game: the part of the lobby's top that is the same for
    everyone."""
    return {**counts(), "featured": featured()}


def followed_on(user: object) -> list[follows.Followed]:
    """The people ``user`` follows who are online or playing now, as each lets them see it;
    nobody for a visitor."""
    if not isinstance(user, User):
        return []
    return followed_on_of([user]).get(user.pk, [])


def followed_on_of(users: Iterable[User]) -> dict[int, list[follows.Followed]]:
    """:func:`followed_on` of each of ``users`` (by id), all at once (the lobby's beat, for
    all its sockets' people); nobody while Redis cannot say who is on."""
    try:
        everyone = follows.following_of(users, on_only=True)
    except RedisError as error:
        log.warning("could not see who is on: %r", error)
        return {}
    return {person: [row for row in rows if row.status in ON] for person, rows in everyone.items()}
