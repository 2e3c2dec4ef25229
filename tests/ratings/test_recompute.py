"""Recomputing every rating from the games gives the live numbers again, minus voided games."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game
from ratings.maths import Skill, rate
from tests.helpers.finishing import a_season, every_rating, play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db


def test_recomputing_gives_exactly_the_numbers_of_the_live_updates() -> None:
    a_season(last_resigned=True)
    live = every_rating()
    assert len(live[1]) == 24

    call_command("recompute_ratings", stdout=StringIO())

    assert every_rating() == live


def test_recomputing_twice_changes_nothing() -> None:
    a_season(last_resigned=True)
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

    assert kept.result is not None
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
