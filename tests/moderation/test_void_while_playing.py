"""A void works out again only the later games it reaches, and games go on ending (and being
rated) meanwhile: a game that ends while the later games are rated again is neither lost nor
counted twice, and its end does not wait for the void."""

from __future__ import annotations

import threading
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection, connections

from games.models import Game
from moderation.voiding import void_game
from ratings import services as ratings
from ratings.models import RatingChange
from tests.helpers.finishing import a_season, every_rating, play_out, start
from tests.helpers.moderators import with_two_factor
from tests.helpers.tables import people


def _staff() -> User:
    return with_two_factor(User.objects.create_user("sam", is_staff=True, is_superuser=True))


def _recomputed_afresh() -> Any:
    call_command("recompute_ratings", stdout=StringIO())
    return every_rating()


def _between_batches(monkeypatch: pytest.MonkeyPatch, then: Any) -> None:
    """Run ``then`` once, as the void's replay is about to write its first batch of later
    games rated again (two games a batch)."""
    rate_batch_again = ratings._rate_batch_again
    calls: list[object] = []

    def in_the_middle(*args: Any) -> None:
        if not calls:
            calls.append(then())
        rate_batch_again(*args)

    monkeypatch.setattr(ratings, "BATCH_GAMES", 2)
    monkeypatch.setattr(ratings, "_rate_batch_again", in_the_middle)


@pytest.mark.django_db
def test_games_that_end_while_a_void_rates_the_later_games_again_count_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    games = a_season()
    alice, frank, gina, hal, ivy, jo, kim = people(
        "alice", "frank", "gina", "hal", "ivy", "jo", "kim"
    )
    meanwhile: list[Game] = []

    def two_games_end() -> None:
        # alice's numbers are being worked out again, so frank's first game is reached by the
        # void, and through him his second, where nobody else played a voided game's player.
        meanwhile.append(play_out(start([alice, frank, gina, hal]), 60))
        meanwhile.append(play_out(start([frank, ivy, jo, kim]), 61))

    _between_batches(monkeypatch, two_games_end)
    void_game(games[1].pk, _staff(), "bob and carol played as one")
    after_void = every_rating()

    assert len(meanwhile) == 2
    assert RatingChange.objects.filter(game__in=meanwhile).count() == 8
    assert after_void[0]["alice"][2] == 5  # five games, one void, one ended meanwhile
    assert after_void[0]["frank"][2] == 2
    assert _recomputed_afresh() == after_void


@pytest.mark.django_db(transaction=True)
def test_a_game_ends_and_is_rated_while_a_void_works_through_the_later_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite lets one writer in at a time: a void's batches take turns with games")
    games = a_season()
    last = start(people("alice", "bob", "carol", "dave"))
    ending = threading.Thread(target=_play_out_on_its_own_connection, args=(last,))
    ended_before_the_void_went_on: list[bool] = []

    def a_game_ends() -> None:
        ending.start()
        ending.join(timeout=60)  # had the void locked the players, this would be waiting
        ended_before_the_void_went_on.append(not ending.is_alive())

    _between_batches(monkeypatch, a_game_ends)
    try:
        void_game(games[0].pk, _staff(), "a bug dealt twice")
    finally:
        ending.join()
    after_void = every_rating()

    assert ended_before_the_void_went_on == [True]
    assert RatingChange.objects.filter(game=last).count() == 4
    assert after_void[0]["alice"][2] == 5  # five games, one void, one ended meanwhile
    assert _recomputed_afresh() == after_void


def _play_out_on_its_own_connection(game: Game) -> None:
    try:
        play_out(game, 62)
    finally:
        connections.close_all()
