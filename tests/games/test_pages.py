"""The pages: the lobby, creating tables, play now, the table page and private tables."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Table
from tests.helpers.pages import page_parts
from tests.helpers.sockets import data_cards

pytestmark = pytest.mark.django_db


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _table_url(table: Table) -> str:
    return reverse("table", args=[table.pk])


# The lobby -------------------------------------------------------------------------------


def test_the_lobby_invites_a_visitor_to_register_or_sign_in() -> None:
    response = Client().get(reverse("lobby"))

    assert response.status_code == 200
    page = response.content.decode()
    assert reverse("register") in page
    assert reverse("login") in page
    assert "Play now against three bots" not in page


def test_the_lobby_offers_a_signed_in_person_play_now_and_a_new_table() -> None:
    alice = User.objects.create_user("alice")

    response = _logged_in(alice).get(reverse("lobby"))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Play now against three bots" in page
    assert f'action="{reverse("table_create")}"' in page
    assert "strong also plans its next card" in page  # what the bot levels mean


def test_the_lobby_lists_public_tables_and_not_private_ones() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    public = services.create_table(alice)
    private = services.create_table(bob, private=True)

    page = Client().get(reverse("lobby")).content.decode()

    assert f'href="{_table_url(public)}"' in page
    assert "alice\N{RIGHT SINGLE QUOTATION MARK}s table" in page
    assert f'href="{_table_url(private)}"' not in page
    assert "bob\N{RIGHT SINGLE QUOTATION MARK}s table" not in page


# Creating tables -------------------------------------------------------------------------


def _table_form(**changes: str) -> dict[str, str]:
    """The create-table form as a browser posts it, untouched fields at their initial values."""
    return {
        "preset": "standard",
        "players": "4",
        "bot_level": "normal",
        "target": "100",
        "moon": "others",
        "short_pack": "remove",
        "first_lead": "lowest_club",
        "ties": "share",
        "clock": "relaxed",
        **changes,
    }


def test_the_table_form_makes_a_table_and_goes_to_it() -> None:
    alice = User.objects.create_user("alice")

    response = _logged_in(alice).post(
        reverse("table_create"), _table_form(preset="custom", players="3", target="50", rated="on")
    )

    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == _table_url(table)
    assert table.host == alice
    assert table.rated
    assert table.engine_rules.players == 3
    assert table.engine_rules.target == 50


def test_a_private_table_form_goes_to_the_table_with_its_code() -> None:
    alice = User.objects.create_user("alice")

    response = _logged_in(alice).post(reverse("table_create"), _table_form(private="on"))

    table = Table.objects.get()
    assert table.private
    assert response["Location"] == f"{_table_url(table)}?code={table.invite_code}"


def test_rules_the_engine_does_not_play_are_shown_again_with_the_reason() -> None:
    alice = User.objects.create_user("alice")

    response = _logged_in(alice).post(reverse("table_create"), _table_form(players="5"))

    assert response.status_code == 400
    assert "Standard is played by 4 players" in response.content.decode()
    assert not Table.objects.exists()


def test_a_visitor_who_is_not_logged_in_cannot_make_a_table() -> None:
    response = Client().post(reverse("table_create"), _table_form())

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Table.objects.exists()


# Play now and the table page -------------------------------------------------------------


def test_play_now_goes_to_a_table_showing_alices_thirteen_cards() -> None:
    alice = User.objects.create_user("alice")
    client = _logged_in(alice)

    response = client.post(reverse("play_now"))

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == _table_url(game.table)
    page = client.get(response["Location"]).content.decode()
    cards = data_cards(page)
    assert len(cards) == 13
    assert cards == [str(card) for card in game.match().hand.holding(0)]
    assert 'id="move-form"' in page
    assert 'name="version" value="0"' in page


def test_a_spectator_sees_the_table_without_a_hand() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    game = services.play_now(alice)

    for client in (_logged_in(bob), Client()):
        response = client.get(_table_url(game.table))

        assert response.status_code == 200
        page = response.content.decode()
        assert 'id="board"' in page
        assert data_cards(page) == []
        assert 'id="hand"' not in page
        assert 'data-seated="0"' in page


def test_play_now_sends_a_visitor_who_is_not_logged_in_to_the_login_page() -> None:
    response = Client().post(reverse("play_now"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Game.objects.exists()


def test_play_now_is_a_post() -> None:
    alice = User.objects.create_user("alice")

    assert _logged_in(alice).get(reverse("play_now")).status_code == 405


# Private tables --------------------------------------------------------------------------


def test_a_private_table_is_not_found_without_its_code() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice, private=True)

    assert Client().get(_table_url(table)).status_code == 404
    assert _logged_in(bob).get(_table_url(table)).status_code == 404
    assert _logged_in(bob).get(_table_url(table), {"code": "not-the-code"}).status_code == 404


def test_a_private_table_opens_with_its_code_and_for_its_players() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice, private=True)

    with_code = _logged_in(bob).get(_table_url(table), {"code": table.invite_code})

    assert with_code.status_code == 200
    assert f"?code={table.invite_code}" in with_code.content.decode()  # the socket's address
    assert _logged_in(alice).get(_table_url(table)).status_code == 200


def test_the_invite_link_leads_to_the_private_table() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice, private=True)

    response = _logged_in(bob).get(reverse("invite", args=[table.invite_code]), follow=True)

    assert response.status_code == 200
    assert response.redirect_chain == [(f"{_table_url(table)}?code={table.invite_code}", 302)]
    assert "Sit here" in response.content.decode()
    assert Client().get(reverse("invite", args=["no-such-code"])).status_code == 404


# The Content-Security-Policy -------------------------------------------------------------


@pytest.mark.parametrize("started", [False, True])
def test_the_table_page_has_no_inline_scripts_or_styles(started: bool) -> None:
    alice = User.objects.create_user("alice")
    table = services.play_now(alice).table if started else services.create_table(alice)

    response = _logged_in(alice).get(_table_url(table))

    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
    page = page_parts(response.content)
    assert page.scripts, "the table page loads its scripts"
    assert all(script.get("src") for script in page.scripts)
    assert page.inline_script_text == ""
    assert page.style_elements == 0
    assert page.style_attributes == []
    assert page.event_handlers == []
