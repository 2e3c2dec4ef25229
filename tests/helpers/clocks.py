"""Games for the clock's tests: four people, or alice against the bots, under either clock."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.engine import Clock
from games.models import Game
from tests.helpers import tables
from tests.helpers.tables import FOUR, fresh


def four_people(clock: Clock = Clock.RELAXED, moon: str = "others") -> Game:
    """alice, bob, carol and dave at a Standard table with ``clock``, the game dealt."""
    options = {"clock": str(clock), "moon": moon}
    return tables.game_with(FOUR, preset="custom", options=options)


def against_bots(clock: Clock = Clock.RELAXED) -> Game:
    options = {} if clock is Clock.RELAXED else {"clock": "strict"}
    return tables.against_bots(preset="custom", options=options)


def overdue(game: Game) -> int:
    """Let the deadline of the turn in progress pass; returns the game's version."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return fresh(game).version
