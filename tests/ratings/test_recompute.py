"""Recomputing every rating from the games gives the live numbers again, minus voided games."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games import services
from games.models import Game
from ratings.maths import Skill, rate
from tests.helpers.finishing import every_rating, play_a_card, play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db


def _a_season() -> list[Game]:
    """Six rated games among five people, one of them ended by a resignation."""
    alice, bob, carol, dave, erin = people("alice", "bob", "carol", "dave", "erin")
    line_ups = [
        [alice, bob, carol, dave],
        [erin, alice, bob, carol],
        [dave, erin, alice, bob],
        [carol, dave, erin, alice],
        [bob, carol, dave, erin],
    ]
    games = [play_out(start(line_up), 40 + n) for n, line_up in enumerate(line_ups)]
    last = start([alice, carol, erin, bob])
    play_a_card(last)
    services.resign(last.pk, 2)
    return [*games, last]


def test_recomputing_gives_exactly_the_numbers_of_the_live_updates() -> None:
    _a_season()
    live = every_rating()
    assert len(live[1]) == 24

    call_command("recompute_ratings", stdout=StringIO())

    assert every_rating() == live


def test_recomputing_twice_changes_nothing() -> None:
    _a_season()
    call_command("recompute_ratings", stdout=StringIO())
    once = every_rating()

    call_command("recompute_ratings", stdout=StringIO())

    assert every_rating() == once


def test_a_voided_game_is_left_out_when_the_ratings_are_recomputed() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    voided = play_out(start([alice, bob, carol, dave]), 47)
    kept = play_out(start([alice, bob, carol, dave]), 6)
    Game.objects.filter(pk=voided.pk).update(rated=False)

    call_command("recompute_ratings", stdout=StringIO())

    expected = rate([Skill()] * 4, kept.result["places"])
    ratings, changes = every_rating()
    assert [ratings[name] for name in ("alice", "bob", "carol", "dave")] == [
        (skill.mu, skill.sigma, 1) for skill in expected
    ]
    assert {change[0] for change in changes} == {kept.pk}


def test_the_command_says_what_it_rated() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    play_out(start([alice, bob, carol, dave]), 47)
    play_out(start([alice, bob, carol, dave], rated=False), 6)
    out = StringIO()

    call_command("recompute_ratings", stdout=out)

    assert out.getvalue().strip() == "Rated 1 game: 4 people have a rating."
