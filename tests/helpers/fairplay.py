"""Rated games of named people, played through ``games.services`` and the clock's task."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import F
from django.utils import timezone

from fairplay.models import Abandonment
from games import services
from games.engine import Phase
from games.models import Game, Table
from games.tasks import enforce_deadline
from tests.helpers.tables import FOUR, fresh, table_with


def table_of(names: tuple[str, ...] = FOUR, *, rated: bool = True, **options: Any) -> Table:
    """A custom table hosted by the first of ``names``, the others seated in order."""
    return table_with(names, preset="custom", options=options, rated=rated)


def game_of(names: tuple[str, ...] = FOUR, *, rated: bool = True, **options: Any) -> Game:
    table = table_of(names, rated=rated, **options)
    return services.start_game(table.pk, table.host)


def seat_to_act(game: Game) -> int:
    """The seat the game waits for (the lowest, while several still pass)."""
    return services.seats_to_act(fresh(game).live_match())[0]


def move_for(game: Game, seat: int) -> None:
    """``seat`` passes its first three cards or plays its first legal card."""
    game = fresh(game)
    hand = game.live_match().hand
    if hand.phase is Phase.PASSING:
        cards = [str(card) for card in hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=game.version, cards=cards)
    else:
        card = str(hand.legal_plays(seat)[0])
        services.act(game.pk, seat, "play", version=game.version, cards=[card])


def times_out(game: Game) -> None:
    """The deadline of the turn in progress passes and the clock's task acts on it."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    enforce_deadline(game.pk, fresh(game).version)


def play_until(game: Game, seat: int) -> None:
    """Everyone else moves until ``seat`` is the only one the game waits for."""
    while True:
        waiting = services.seats_to_act(fresh(game).live_match())
        if waiting == [seat]:
            return
        move_for(game, next(s for s in waiting if s != seat))


def bans_in_the_past(minutes: int) -> None:
    """Every abandonment happened ``minutes`` earlier than recorded, its ban too."""
    earlier = timedelta(minutes=minutes)
    Abandonment.objects.update(at=F("at") - earlier, until=F("until") - earlier)
