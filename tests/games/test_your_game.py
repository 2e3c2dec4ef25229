"""Coming back to a game: while a person plays one, the header and the lobby lead back to it,
and Play now takes them back to it instead of dealing a second game (whose first would time
them out three times and count them as leaving)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Table

pytestmark = pytest.mark.django_db


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _your_game_links(page: str) -> list[str]:
    """Where the page's "Your game" links lead."""
    return re.findall(r'<a[^>]*href="([^"]+)"[^>]*>(?:Your game|Back to your game)</a>', page)


def test_the_header_leads_a_player_back_to_the_game_they_are_playing() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    page = _logged_in(alice).get(reverse("game_list")).content.decode()

    header = page.split('<main id="content"')[0]
    assert _your_game_links(header) == [game.table.get_absolute_url()]


def test_the_lobby_says_your_game_is_still_on_and_leads_back_to_it() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    page = _logged_in(alice).get(reverse("lobby")).content.decode()

    lobby = page.split('<main id="content"')[1]
    assert "Your game is still on" in lobby
    assert _your_game_links(lobby) == [game.table.get_absolute_url()]


def test_nobody_is_led_to_a_game_they_are_not_playing() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    game = services.play_now(alice)
    services.resign(game.pk, 0)  # alice's game is over
    services.play_now(User.objects.create_user("carol"))  # somebody else's game

    for client in (_logged_in(alice), _logged_in(bob), Client()):
        page = client.get(reverse("lobby")).content.decode()

        assert _your_game_links(page) == []
        assert "Your game is still on" not in page


def test_play_now_during_a_game_goes_back_to_it_and_says_so() -> None:
    alice = User.objects.create_user("alice")
    client = _logged_in(alice)
    first = client.post(reverse("play_now"))

    again = client.post(reverse("play_now"), follow=True)

    assert again.redirect_chain == [(first["Location"], 302)]
    assert Table.objects.count() == 1 and Game.objects.count() == 1
    assert "You are in the middle of a game, so here it is." in again.content.decode()


def test_play_now_back_to_a_private_game_keeps_its_invite_code() -> None:
    alice, bob, carol, dave = (User.objects.create_user(name) for name in ("al", "bo", "cy", "di"))
    table = services.create_table(alice, private=True)
    for index, person in enumerate((bob, carol, dave), start=1):
        services.take_seat(table.pk, person, index, table.invite_code)
    services.start_game(table.pk, alice)

    response = _logged_in(bob).post(reverse("play_now"))

    assert response["Location"] == f"{table.get_absolute_url()}?code={table.invite_code}"
    assert Table.objects.count() == 1


def test_the_service_refuses_a_second_game_and_names_the_first() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    with pytest.raises(services.AlreadyPlaying) as refused:
        services.play_now(alice)

    assert refused.value.game == game


def test_play_now_after_the_game_is_over_deals_a_new_one() -> None:
    alice = User.objects.create_user("alice")
    first = services.play_now(alice)
    services.resign(first.pk, 0)

    second = services.play_now(alice)

    assert second.table_id != first.table_id
    assert second.status == Game.Status.PLAYING
