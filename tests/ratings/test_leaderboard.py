"""The leaderboard lists every rated player, highest rating first (those still provisional
marked so), a page at a time."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings import views
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def _rated(name: str, mu: float, sigma: float, games: int) -> Rating:
    return Rating.objects.create(
        user=User.objects.create_user(name), mu=mu, sigma=sigma, games=games
    )


def _names(html: str) -> list[str]:
    return re.findall(r'<th scope="row"><a href="/u/[^/]+/">([^<]+)</a>', html)


def test_the_leaderboard_lists_every_rated_player_highest_first(client: Client) -> None:
    _rated("alice", 30.0, 3.0, 12)  # 1308
    _rated("bob", 32.0, 2.0, 40)  # 1548
    _rated("carol", 40.0, 5.0, 9)  # provisional: 1500 + 48 * 0 = 1500
    _rated("dave", 28.0, 2.5, 10)  # 1284

    response = client.get(reverse("leaderboard"))

    assert response.status_code == 200
    html = response.content.decode()
    assert _names(html) == ["bob", "carol", "alice", "dave"]
    assert "1548" in html and "1500" in html and "1308" in html and "1284" in html


def test_a_player_before_their_tenth_rated_game_is_marked_provisional(client: Client) -> None:
    _rated("alice", 30.0, 3.0, 10)
    _rated("carol", 40.0, 5.0, 9)

    html = client.get(reverse("leaderboard")).content.decode()

    carol = html[html.index(">carol<") : html.index("</tr>", html.index(">carol<"))]
    alice = html[html.index(">alice<") : html.index("</tr>", html.index(">alice<"))]
    assert '<span class="provisional">provisional</span>' in carol
    assert "provisional" not in alice


def test_the_leaderboard_orders_by_the_shown_number_not_by_the_mean(client: Client) -> None:
    _rated("alice", 35.0, 4.0, 20)  # 1404: the higher mean, but less sure
    _rated("bob", 33.0, 2.0, 20)  # 1596

    assert _names(client.get(reverse("leaderboard")).content.decode()) == ["bob", "alice"]


def test_the_leaderboard_goes_on_over_pages(client: Client) -> None:
    for n in range(55):
        _rated(f"player{n:02d}", 30.0 + n / 10, 2.0, 10)

    first = client.get(reverse("leaderboard")).content.decode()
    second = client.get(reverse("leaderboard"), {"page": 2}).content.decode()

    assert _names(first)[:2] == ["player54", "player53"]
    assert len(_names(first)) == 50
    assert _names(second) == ["player04", "player03", "player02", "player01", "player00"]
    assert '<td class="numeric">51</td>' in second
    assert "Next page" in first and "Previous page" in second


def test_equal_ratings_share_a_rank_and_the_next_skips_across_pages(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "PLAYERS_PER_PAGE", 2)
    _rated("alice", 30.0, 2.0, 12)  # 1452
    _rated("bob", 30.001, 2.0, 12)  # 1452 too, though surer by a hair
    _rated("carol", 30.0, 2.0, 12)  # 1452
    _rated("dave", 28.0, 2.0, 12)  # 1356

    first = client.get(reverse("leaderboard")).content.decode()
    second = client.get(reverse("leaderboard"), {"page": 2}).content.decode()

    assert _ranks(first) + _ranks(second) == ["1", "1", "1", "4"]


def _ranks(html: str) -> list[str]:
    return re.findall(r'<tr[^>]*>\s*<td class="numeric">(\d+)</td>', html)


def test_an_empty_leaderboard_says_why(client: Client) -> None:
    User.objects.create_user("alice")

    html = client.get(reverse("leaderboard")).content.decode()

    assert "Nobody has played a rated game yet." in html


def test_the_site_header_links_to_the_leaderboard(client: Client) -> None:
    html = client.get(reverse("lobby")).content.decode()

    assert f'<a href="{reverse("leaderboard")}">Ratings</a>' in html
