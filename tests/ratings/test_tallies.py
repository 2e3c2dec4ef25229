"""A finished game's move log is added up once per game and kept, for the profiles to read."""

from __future__ import annotations

import pytest

from ratings.models import GameTally
from ratings.stats import player_stats
from tests.helpers.finishing import play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db


def test_a_games_tally_holds_each_seats_points_and_moons_over_the_scored_hands() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)

    alice = game.players.get(seat=0).user
    assert alice is not None
    player_stats(alice)

    tally = GameTally.objects.get(game=game)
    assert tally.hands == 10
    assert game.result is not None
    assert tally.points == game.result["totals"] == [47, 74, 84, 107]
    assert tally.moons == [1, 0, 0, 0]


def test_the_tallies_are_worked_out_once_and_read_afterwards() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    play_out(start([alice, bob, carol, dave]), 47)
    play_out(start([bob, carol, dave, alice]), 6)
    first = player_stats(alice)

    again = player_stats(alice)
    for_bob = player_stats(bob)

    assert GameTally.objects.count() == 2
    assert (again.games, again.hands, again.points, again.moons) == (
        first.games,
        first.hands,
        first.points,
        first.moons,
    )
    assert (first.hands, first.points, first.moons) == (18, 47 + 106, 1)
    assert (for_bob.hands, for_bob.points, for_bob.moons) == (18, 74 + 48, 1)
