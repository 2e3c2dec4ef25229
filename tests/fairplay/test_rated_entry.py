"""A player barred from rated tables cannot get into a rated game by another door: hosting a
rated table, or a rematch with the same seats. Casual rematches go on."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.helpers.fairplay import game_of
from tests.helpers.tables import person

pytestmark = pytest.mark.django_db


def _alice_leaves_a_rated_game() -> Game:
    game = game_of(("bob", "alice", "carol", "dave"))
    services.resign(game.pk, 1)
    return game


def test_a_barred_player_cannot_host_a_rated_table() -> None:
    _alice_leaves_a_rated_game()

    with pytest.raises(services.ServiceError, match="barred from rated tables"):
        services.create_table(person("alice"), rated=True)
    services.create_table(person("alice"), rated=False)  # a casual one is fine


def test_a_rated_rematch_with_a_barred_player_does_not_start() -> None:
    game = _alice_leaves_a_rated_game()

    with pytest.raises(services.ServiceError, match="alice cannot play at this table now"):
        services.rematch(game.table_id, person("bob"))
    with pytest.raises(services.ServiceError, match="barred from rated tables"):
        services.rematch(game.table_id, person("alice"))
    assert Game.objects.filter(table_id=game.table_id).count() == 1


def test_a_casual_rematch_with_the_same_player_starts() -> None:
    game = game_of(("bob", "alice", "carol", "dave"), rated=False)
    services.resign(game.pk, 1)

    assert services.rematch(game.table_id, person("bob")).number == 2
