"""Table options: a rule set's options are honoured or refused, never dropped; the table shows
its rules in words; the end of a match links its pages; a host closes a waiting table."""

from __future__ import annotations

from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import selectors, services
from games.engine import PRESETS
from games.models import Game, Table
from games.words import describe, summary
from live.forms import TableForm

pytestmark = pytest.mark.django_db


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _posted(**fields: str) -> dict[str, str]:
    """The create-table form as a browser without JavaScript posts it: every option sent,
    the untouched ones at their initial (blank) values."""
    form: dict[str, str] = {"preset": "standard", "players": "4", "bot_level": "normal"}
    form.update({name: "" for name in ("target", "moon", "short_pack", "first_lead")})
    form.update({"ties": "", "clock": ""})
    return {**form, **fields}


def _create(user: User, **fields: str) -> Any:
    return _logged_in(user).post(reverse("table_create"), _posted(**fields))


# The form honours or refuses each option -----------------------------------------------


def test_a_club_table_with_the_jack_of_diamonds_is_refused_naming_the_option_and_the_set() -> None:
    alice = User.objects.create_user("alice")

    response = _create(alice, preset="club", jack_of_diamonds="on")

    assert response.status_code == 400
    assert "Club does not offer “Jack of diamonds \N{MINUS SIGN}10”" in response.content.decode()
    assert not Table.objects.exists()


def test_an_encyclopedia_table_to_fifty_is_refused_not_played_to_a_hundred() -> None:
    alice = User.objects.create_user("alice")

    response = _create(alice, preset="encyclopedia", target="50")

    assert response.status_code == 400
    assert "Encyclopedia plays to 100 points" in response.content.decode()
    assert not Table.objects.exists()


def test_a_club_table_to_fifty_plays_to_fifty_with_five_players() -> None:
    alice = User.objects.create_user("alice")

    _create(alice, preset="club", players="5", target="50")

    rules = Table.objects.get().engine_rules
    assert (rules.target, rules.players) == (50, 5)
    assert rules.moon is PRESETS["club"].rules.moon


def test_an_encyclopedia_table_keeps_every_option_it_offers() -> None:
    alice = User.objects.create_user("alice")

    _create(
        alice,
        preset="encyclopedia",
        players="3",
        short_pack="kitty",
        first_lead="left_of_dealer",
        jack_of_diamonds="on",
        shoot_the_sun="on",
        old_queen="on",
    )

    rules = Table.objects.get().engine_rules
    assert rules.kitty_size == 1
    assert rules.first_lead == "left_of_dealer"
    assert rules.jack_of_diamonds and rules.shoot_the_sun and rules.old_queen


def test_options_left_alone_follow_the_rule_set() -> None:
    alice = User.objects.create_user("alice")

    _create(alice, preset="club")

    assert Table.objects.get().engine_rules == PRESETS["club"].rules


def test_a_rule_set_refuses_a_table_size_it_is_not_played_at() -> None:
    form = TableForm(_posted(preset="club", players="6"))

    assert not form.is_valid()
    assert "Club is played by 4 or 5 players" in str(form.errors)


def test_a_custom_table_takes_every_option() -> None:
    alice = User.objects.create_user("alice")

    _create(alice, preset="custom", moon="choose", ties="play_on", clock="strict", target="40")

    rules = Table.objects.get().engine_rules
    assert (rules.moon, rules.ties, rules.clock, rules.target) == (
        "choose",
        "play_on",
        "strict",
        40,
    )


def test_the_rule_set_menu_says_what_each_set_allows() -> None:
    page = _logged_in(User.objects.create_user("alice")).get(reverse("lobby")).content.decode()

    assert 'value="club" data-players="4 5" data-options="target" data-targets="100 or 50"' in page
    assert 'data-options="jack_of_diamonds shoot_the_sun short_pack first_lead old_queen"' in page
    assert 'data-option="jack_of_diamonds"' in page
    assert "js/table_form.js" in page


# The table shows its rules -----------------------------------------------------------


def test_the_table_shows_its_rules_in_words_before_the_first_deal() -> None:
    alice = User.objects.create_user("alice")
    rules = PRESETS["encyclopedia"].make(5, jack_of_diamonds=True)
    table = services.create_table(
        alice, preset="encyclopedia", players=5, options={"jack_of_diamonds": True}
    )

    page = _logged_in(alice).get(reverse("table", args=[table.pk])).content.decode()

    assert summary(rules) in page
    assert "jack of diamonds \N{MINUS SIGN}10" in page
    assert "Rules at this table" in page
    assert 'id="rules-link"' in page
    for line in describe(rules):
        assert line.text in page


def test_the_table_shows_its_rules_during_play() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    page = _logged_in(alice).get(reverse("table", args=[game.table_id])).content.decode()

    assert 'id="board"' in page
    assert summary(game.table.engine_rules) in page


# The end of a match ----------------------------------------------------------------


def test_a_finished_game_links_its_page_its_replay_and_its_deal_check() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)
    services.resign(game.pk, 0)

    page = _logged_in(alice).get(reverse("table", args=[game.table_id])).content.decode()

    game_page = reverse("game_detail", args=[game.pk])
    assert f'href="{game_page}">The game\N{RIGHT SINGLE QUOTATION MARK}s page' in page
    assert f'href="{game_page}#replay-heading">Replay it' in page
    assert f'href="{reverse("game_verify", args=[game.pk])}">Check its deals' in page
    assert "4th: alice" in page
    assert "Rematch" in page


# Closing a waiting table -------------------------------------------------------------


def test_the_host_closes_a_waiting_table_and_it_leaves_the_lobby() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 1)

    response = _logged_in(alice).post(reverse("close_table", args=[table.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert table not in selectors.lobby_tables()
    lobby = Client().get(reverse("lobby")).content.decode()
    assert reverse("table", args=[table.pk]) not in lobby
    bobs_view = _logged_in(bob).get(reverse("table", args=[table.pk])).content.decode()
    assert "The host has closed this table" in bobs_view
    assert "Sit here" not in bobs_view


def test_only_the_host_closes_a_table() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)

    with pytest.raises(services.ServiceError, match="Only the host"):
        services.close_table(table.pk, bob)

    assert Table.objects.get().status == Table.Status.OPEN


def test_a_table_whose_game_has_started_cannot_be_closed() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    response = _logged_in(alice).post(reverse("close_table", args=[game.table_id]), follow=True)

    assert "it can no longer be closed" in response.content.decode()
    assert Game.objects.get().status == Game.Status.PLAYING
    assert Table.objects.get().status == Table.Status.PLAYING


def test_the_close_button_is_offered_to_the_host_only() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    url = reverse("table", args=[table.pk])

    assert "Close the table" in _logged_in(alice).get(url).content.decode()
    assert "Close the table" not in _logged_in(bob).get(url).content.decode()


def test_fill_with_bots_is_offered_only_while_a_seat_is_empty() -> None:
    alice = User.objects.create_user("alice")
    table = services.create_table(alice)
    url = reverse("table", args=[table.pk])

    assert "Fill empty seats with bots" in _logged_in(alice).get(url).content.decode()
    services.fill_with_bots(table.pk, alice)
    page = _logged_in(alice).get(url).content.decode()
    assert "Fill empty seats with bots" not in page
    assert "Start the game" in page


@pytest.mark.django_db(transaction=True)  # the lobby hears of it after commit
def test_closing_a_table_tells_the_lobby_and_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    layer = get_channel_layer()
    assert layer is not None
    heard: list[str] = []
    send = layer.group_send

    async def group_send(group: str, message: dict[str, Any]) -> None:
        heard.append(group)
        await send(group, message)

    alice = User.objects.create_user("alice")
    table = services.create_table(alice)
    monkeypatch.setattr(layer, "group_send", group_send)

    services.close_table(table.pk, alice)

    assert "lobby" in heard
    assert services.table_group(table.pk) in heard


def test_nobody_sits_at_a_closed_table() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.close_table(table.pk, alice)

    with pytest.raises(services.ServiceError, match="closed this table"):
        services.take_seat(table.pk, bob, 1)


def test_a_closed_table_does_not_start_even_once_its_seats_are_filled() -> None:
    alice = User.objects.create_user("alice")
    table = services.create_table(alice)
    services.fill_with_bots(table.pk, alice)
    services.close_table(table.pk, alice)

    response = _logged_in(alice).post(reverse("start", args=[table.pk]), follow=True)

    assert "The host has closed this table" in response.content.decode()
    assert not Game.objects.exists()
    assert Table.objects.get().status == Table.Status.CLOSED
    assert table not in selectors.lobby_tables()
    with pytest.raises(services.ServiceError, match="The host has closed this table"):
        services.start_game(table.pk, alice)


def test_the_seats_of_a_closed_table_stay_as_they_were() -> None:
    alice = User.objects.create_user("alice")
    table = services.create_table(alice)
    services.set_bot(table.pk, alice, 1, True)
    services.close_table(table.pk, alice)

    for change in (
        lambda: services.set_bot(table.pk, alice, 1, False),
        lambda: services.set_bot(table.pk, alice, 2, True),
        lambda: services.fill_with_bots(table.pk, alice),
    ):
        with pytest.raises(services.ServiceError, match="The host has closed this table"):
            change()

    assert [seat.is_bot for seat in table.seats.all()] == [False, True, False, False]
