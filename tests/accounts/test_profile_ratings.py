"""A profile shows the person's rating (provisional at first) with its history, their record
over finished games, and their latest games."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import EndReason
from ratings.models import Rating, RatingChange
from ratings.stats import player_stats
from tests.helpers.finishing import play_a_card, play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db


def _page(client: Client, name: str) -> str:
    response = client.get(reverse("profile", args=[name]))
    assert response.status_code == 200
    return response.content.decode()


def _alices_three_games() -> list[int]:
    """alice always in seat 0: a rated Standard game she wins with a moon (47), a rated one in
    second place with a moon (6), then a casual Club game in third (18). Then one still
    going, which does not count."""
    four = people("alice", "bob", "carol", "dave")
    first = play_out(start(four), 47)
    second = play_out(start(four), 6)
    third = play_out(start(four, rated=False, preset="club"), 18)
    play_a_card(start(four))
    return [first.pk, second.pk, third.pk]


def test_a_new_player_has_no_rating_and_no_record_yet(client: Client) -> None:
    User.objects.create_user("alice")

    html = _page(client, "alice")

    assert "No rated games yet." in html
    assert "No finished games yet." in html
    assert "<svg" not in html
    assert f'href="{reverse("leaderboard")}"' in html


def test_the_rating_is_shown_as_one_number_marked_provisional_at_first(client: Client) -> None:
    play_out(start(people("alice", "bob", "carol", "dave")), 47)
    alice = Rating.objects.get(user__username="alice")

    html = _page(client, "alice")

    assert f'<span class="rating-number">{alice.display}</span>' in html
    assert '<span class="provisional">provisional</span>' in html
    assert "after 1 rated game;" in html
    assert alice.display > 300


def test_an_established_rating_is_not_provisional(client: Client) -> None:
    alice = User.objects.create_user("alice")
    Rating.objects.create(user=alice, mu=33.0, sigma=2.0, games=10)

    html = _page(client, "alice")

    assert '<span class="rating-number">1596</span>' in html
    assert '<span class="provisional">' not in html
    assert "after 10 rated games" in html


def test_the_rating_history_is_a_chart_with_the_same_figures_as_a_table(client: Client) -> None:
    first, second, _ = _alices_three_games()
    changes = {
        c.game_id: c for c in Rating.objects.get(user__username="alice").user.rating_changes.all()
    }

    html = _page(client, "alice")

    svg = html[html.index("<svg") : html.index("</svg>")]
    assert 'role="img"' in svg
    assert re.search(r'<polyline class="line" fill="none" points="([\d.]+,[\d.]+ ?){3}"', svg)
    assert f"From 300 to {changes[second].display_after} over 2 rated games" in svg
    table = html[html.index('<details class="rating-history">') : html.index("</details>")]
    rows = re.findall(
        r'href="/g/(\d+)/">.*?</a></td>.*?<td class="numeric">(\d+)</td>', table, re.S
    )
    assert rows == [
        (str(second), str(changes[second].display_after)),
        (str(first), str(changes[first].display_after)),
    ]


def test_the_record_counts_games_wins_points_per_hand_moons_and_rule_sets(client: Client) -> None:
    _alices_three_games()

    html = _page(client, "alice")

    record = re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", html)
    assert record == [
        ("Games played", "3"),
        ("Games won", "1"),
        ("Average points per hand", "6.2"),  # 47 + 48 + 79 points in 10 + 8 + 10 hands
        ("Moons shot", "2"),
    ]
    rule_sets = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td class="numeric">(\d+)</td><td class="numeric">(\d+)</td></tr>',
        html,
    )
    assert rule_sets == [("Standard", "2", "1"), ("Club", "1", "0")]


def test_the_latest_games_link_to_their_pages_and_to_all_of_the_players_games(
    client: Client,
) -> None:
    first, second, third = _alices_three_games()

    html = _page(client, "alice")

    games = html[html.index('<div id="profile-games">') :]
    links = re.findall(r'<a href="/g/(\d+)/">Game \d+</a>', games)
    assert links == [str(third), str(second), str(first)]
    assert "Club, 3rd of 4 with 79 points" in games
    assert "Standard, 1st of 4 with 47 points" in games
    assert "against bob, carol, dave." in games
    assert "Casual." in games
    for game_id in (first, second):
        change = RatingChange.objects.get(game_id=game_id, user__username="alice").display_change
        sign = "+" if change > 0 else "\N{MINUS SIGN}" if change < 0 else "±"
        assert f"Rating {sign}{abs(change)}." in games
    assert games.count("Rating ") == 2
    assert f'<a href="{reverse("game_list")}?player=alice">All games of alice</a>' in games


def test_a_resignation_shows_as_an_early_end_on_the_profile(client: Client) -> None:
    game = start(people("alice", "bob", "carol", "dave"))
    play_a_card(game)
    services.resign(game.pk, 1)

    bobs, alices = _page(client, "bob"), _page(client, "alice")

    assert "4th of 4 with 0 points (bob resigned)" in bobs
    assert "1st of 4 with 0 points (bob resigned)" in alices
    assert "Rating \N{MINUS SIGN}" in bobs


def test_a_game_lost_on_the_clock_reads_as_on_the_game_pages(client: Client) -> None:
    game = start(people("alice", "bob", "carol", "dave"))
    play_a_card(game)
    services.resign(game.pk, 2, EndReason.TIMED_OUT)

    assert "4th of 4 with 0 points (carol ran out of time)" in _page(client, "carol")


def test_another_players_games_do_not_count(client: Client) -> None:
    _alices_three_games()
    erin = User.objects.create_user("erin")

    assert player_stats(erin).games == 0
    assert "No finished games yet." in _page(client, "erin")


def test_the_games_section_renders_alone_with_the_latest_games() -> None:
    _alices_three_games()
    alice = User.objects.get(username="alice")

    html = render_to_string(
        "accounts/profile.html#games", {"games": player_stats(alice).recent, "person": alice}
    )

    assert html.count('<a href="/g/') == 3
