"""Bans from rated tables for leaving rated games: they grow from one abandonment to the next up
to two days, run out on the clock, are forgiven after enough clean rated games, and the lobby
shows the player how long is left. Casual tables stay open to a banned player."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from fairplay.models import Abandonment
from games import services
from games.models import Game
from tests.helpers.fairplay import bans_in_the_past, game_of, table_of
from tests.helpers.tables import person

pytestmark = pytest.mark.django_db

# alice sits down herself (the host, bob, seats nobody but himself).
WITH_ALICE = ("bob", "alice", "carol", "dave")


def alice_leaves(others: tuple[str, str, str] = ("bob", "carol", "dave")) -> Game:
    """alice takes seat 1 at a rated table and resigns before the last hand."""
    game = game_of((others[0], "alice", *others[1:]))
    services.resign(game.pk, 1)
    return game


def ban_minutes(name: str) -> list[float]:
    """The length of each ban ``name`` earned, oldest first, in minutes."""
    rows = Abandonment.objects.filter(user=person(name)).order_by("at", "pk")
    return [(row.until - row.at) / timedelta(minutes=1) for row in rows]


def alice_sits_at(rated: bool) -> None:
    table = table_of(("erin",), rated=rated)
    services.take_seat(table.pk, person("alice"), 1)


def test_the_second_abandonment_bars_for_twenty_minutes_after_the_first_barred_for_ten() -> None:
    alice_leaves()
    assert ban_minutes("alice") == [10]

    bans_in_the_past(11)
    alice_leaves()

    assert ban_minutes("alice") == [10, 20]
    assert Abandonment.objects.filter(user=person("alice")).latest("at").level == 2


def test_bans_double_up_to_two_days() -> None:
    for _ in range(10):
        alice_leaves()
        bans_in_the_past(48 * 60 + 1)

    assert ban_minutes("alice") == [10, 20, 40, 80, 160, 320, 640, 1280, 2560, 48 * 60]


def test_a_banned_player_cannot_sit_at_a_rated_table_until_the_ban_runs_out() -> None:
    alice_leaves()

    with pytest.raises(services.ServiceError, match="for 10 more minutes"):
        alice_sits_at(rated=True)
    bans_in_the_past(9)
    with pytest.raises(services.ServiceError, match="for 1 more minute "):
        alice_sits_at(rated=True)
    bans_in_the_past(2)

    alice_sits_at(rated=True)


def test_a_banned_player_can_sit_at_a_casual_table() -> None:
    alice_leaves()

    alice_sits_at(rated=False)

    with pytest.raises(services.ServiceError, match="casual tables are open to you"):
        alice_sits_at(rated=True)


def test_clean_rated_games_forgive_and_the_next_ban_is_short_again(
    settings: Settings,
) -> None:
    settings.HEARTS_CLEAN_GAMES_TO_FORGIVE = 2
    alice_leaves()
    bans_in_the_past(11)
    alice_leaves()
    bans_in_the_past(21)

    # Two rated games that alice plays to their end (somebody else resigns each).
    services.resign(game_of(("alice", "erin", "fred", "gina")).pk, 1)
    assert not Abandonment.objects.filter(user=person("alice"), forgiven_at__isnull=False)
    services.resign(game_of(("alice", "hal", "ivy", "jo")).pk, 1)
    assert not Abandonment.objects.filter(user=person("alice"), forgiven_at__isnull=True)

    alice_leaves()
    assert ban_minutes("alice") == [10, 20, 10]


def test_casual_games_do_not_forgive(settings: Settings) -> None:
    settings.HEARTS_CLEAN_GAMES_TO_FORGIVE = 1
    alice_leaves()
    bans_in_the_past(11)

    services.resign(game_of(("alice", "erin", "fred", "gina"), rated=False).pk, 1)
    alice_leaves()

    assert ban_minutes("alice") == [10, 20]


def test_the_lobby_shows_a_banned_player_the_time_left(client: Client) -> None:
    alice_leaves()
    bans_in_the_past(11)
    alice_leaves()
    bans_in_the_past(2)  # 18 of her 20 minutes left, and some seconds

    client.force_login(person("alice"))
    page = client.get(reverse("lobby")).content.decode()
    assert "You are barred from rated tables for 18 more minutes (you left 2 rated games)" in page
    assert "Join the rated queue" not in page  # not offered a queue that would refuse her

    client.force_login(person("bob"))
    page = client.get(reverse("lobby")).content.decode()
    assert "barred" not in page and "Join the rated queue" in page


def test_the_lobby_shows_nothing_once_the_ban_has_run_out(client: Client) -> None:
    alice_leaves()
    client.force_login(person("alice"))
    bans_in_the_past(9)  # a minute of her ten left: the lobby still says so
    barred = client.get(reverse("lobby"))
    assert barred.status_code == 200
    assert "You are barred from rated tables" in barred.content.decode()
    assert "Join the rated queue" not in barred.content.decode()

    bans_in_the_past(1)
    free = client.get(reverse("lobby"))

    assert free.status_code == 200
    assert "barred" not in free.content.decode()
    assert "Join the rated queue" in free.content.decode()
