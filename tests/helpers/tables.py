"""People and their tables, made through the site's services: alice, bob, carol and dave seated
at a table, a game dealt to them or to one person and the bots, and the simplest moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.engine import Phase
from games.models import Game, Table

FOUR = ("alice", "bob", "carol", "dave")


def person(name: str) -> User:
    """The person called ``name``, signed up the first time they are asked for."""
    return User.objects.filter(username=name).first() or User.objects.create_user(name)


def signed_in(user: User) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def people(*names: str) -> list[User]:
    return [person(name) for name in names]


def table_with(names: Sequence[str | User] = FOUR, **table: Any) -> Table:
    """A table (``table`` as ``services.create_table`` takes it) hosted by the first of
    ``names``, the others seated in order."""
    host, *others = [name if isinstance(name, User) else person(name) for name in names]
    created = services.create_table(host, **table)
    for index, someone in enumerate(others, start=1):
        services.take_seat(created.pk, someone, index)
    return created


def game_with(names: Sequence[str | User] = FOUR, **table: Any) -> Game:
    """``table_with(names, **table)``, its game dealt."""
    created = table_with(names, **table)
    return services.start_game(created.pk, created.host)


def against_bots(name: str = "alice", **table: Any) -> Game:
    """``name`` alone at a table (``table`` as ``services.create_table`` takes it), the other
    seats filled with bots, the game dealt."""
    created = table_with([name], **table)
    services.fill_with_bots(created.pk, created.host)
    return services.start_game(created.pk, created.host)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def everyone_passes(game: Game, *, last: bool = False) -> None:
    """Every seat still to pass passes its first three cards (its ``last`` three); nothing
    happens outside a pass."""
    match = fresh(game).match()
    hand = match.hand
    if hand.phase is not Phase.PASSING:
        return
    for seat in range(match.players):
        if not hand.has_passed(seat):
            held = hand.holding(seat)
            cards = [str(card) for card in (held[-3:] if last else held[:3])]
            services.act(game.pk, seat, "pass", version=None, cards=cards)


def play_one(game: Game) -> None:
    """The seat to play plays its lowest legal card."""
    match = fresh(game).match()
    seat = match.hand.turn
    card = str(match.hand.legal_plays(seat)[0])
    services.act(game.pk, seat, "play", version=match.version, cards=[card])
