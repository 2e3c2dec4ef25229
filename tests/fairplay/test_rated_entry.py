"""A player barred from rated tables cannot get into a rated game by another door: hosting a
rated table, or a rematch with the same seats. Casual rematches go on. The lobby does not offer
a barred or marked player the Rated box, and tells them why if they tick it on an older page."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Table
from moderation import sanctions
from tests.helpers.fairplay import game_of
from tests.helpers.moderators import moderator
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


# Creating a table from the lobby ------------------------------------------------------------

CREATE_FORM = {"preset": "standard", "players": "4", "bot_level": "normal"}


def _signed_in(name: str) -> Client:
    client = Client()
    client.force_login(person(name))
    return client


def test_a_barred_player_who_ticks_rated_is_told_why_and_gets_no_table() -> None:
    _alice_leaves_a_rated_game()
    tables = Table.objects.count()

    response = _signed_in("alice").post(
        reverse("table_create"), {**CREATE_FORM, "rated": "on"}, follow=True
    )

    assert response.status_code == 200
    assert response.redirect_chain == [(reverse("lobby"), 302)]
    shown = [str(message) for message in get_messages(response.wsgi_request)]
    assert len(shown) == 1 and "You are barred from rated tables" in shown[0]
    assert Table.objects.count() == tables


def test_the_lobby_offers_the_rated_box_only_to_those_rated_tables_would_seat() -> None:
    _alice_leaves_a_rated_game()
    marked = person("erin")
    sanctions.mark(moderator(), marked, reason="Suspected point feeding.")

    for name in ("alice", "erin"):
        page = _signed_in(name).get(reverse("lobby")).content.decode()
        assert 'name="rated"' not in page, name
        assert "Rated tables are closed to you for now: your table will be casual." in page
        assert "Join the rated queue" not in page, name  # nor the queue, which would refuse
    page = _signed_in("bob").get(reverse("lobby")).content.decode()
    assert 'name="rated"' in page and "Join the rated queue" in page
    assert "Rated tables are closed to you" not in page


def test_a_marked_player_who_ticks_rated_is_told_why_and_a_casual_table_is_still_theirs() -> None:
    erin = person("erin")
    sanctions.mark(moderator(), erin, reason="Suspected point feeding.")
    client = _signed_in("erin")

    refused = client.post(reverse("table_create"), {**CREATE_FORM, "rated": "on"}, follow=True)
    casual = client.post(reverse("table_create"), CREATE_FORM)

    shown = [str(message) for message in get_messages(refused.wsgi_request)]
    assert shown == [
        "Your games are unrated while staff review your account, so rated tables are closed "
        "to you: choose an unrated table"
    ]
    (table,) = Table.objects.filter(host=erin)
    assert not table.rated
    assert casual["Location"] == table.get_absolute_url()
