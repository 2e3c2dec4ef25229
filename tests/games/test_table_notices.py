"""What the table shows a seat around passing and time-outs: the cards it chose to pass are
marked until the passes go round, and a time-out notice stays only until the next move."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from games.tasks import time_out
from live.table_context import build_context
from tests.helpers.clocks import four_people, overdue
from tests.helpers.tables import everyone_passes, fresh, play_one

pytestmark = pytest.mark.django_db


def context_for(game: Game, seat: int | None) -> dict[str, object]:
    game = fresh(game)
    return build_context(game, game.match(), list(game.players.all()), seat)


def test_the_cards_a_seat_passed_are_marked_until_the_passes_go_round() -> None:
    game = four_people()
    chosen = [str(card) for card in fresh(game).match().hand.holding(0)[:3]]
    services.act(game.pk, 0, "pass", version=None, cards=chosen)

    hand = context_for(game, 0)["hand_cards"]
    assert isinstance(hand, list)
    assert sorted(str(c.card) for c in hand if c.passed) == sorted(chosen)
    assert len(hand) == 13
    # Nobody else is told which cards they were.
    other = context_for(game, 1)["hand_cards"]
    assert isinstance(other, list)
    assert not any(c.passed for c in other)

    everyone_passes(game)
    hand = context_for(game, 0)["hand_cards"]
    assert isinstance(hand, list)
    assert not any(c.passed for c in hand)
    assert not {str(c.card) for c in hand} & set(chosen)


def test_a_time_out_notice_goes_with_the_next_move() -> None:
    game = four_people()
    everyone_passes(game)
    seat = fresh(game).match().hand.turn
    time_out(game.pk, overdue(game))
    name = ["alice", "bob", "carol", "dave"][seat]
    assert context_for(game, None)["timed_out"] == (
        f"Time ran out for {name}: the table played the 2♣ for them."
    )

    play_one(game)
    assert context_for(game, None)["timed_out"] == ""
