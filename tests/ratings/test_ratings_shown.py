"""Where people see ratings: the end of a rated match at its table and on the game's page show
each player's change and new rating; the ratings page lists new players too, marked
provisional; and every page that shows ratings says where a rating starts."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from games.models import Game
from live import table_context
from ratings.models import Rating, RatingChange
from tests.helpers.finishing import play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

SEED_PLACES_1_2_3_4 = 47  # alice first, bob second, carol third, dave fourth
STARTING_WORDS = (
    "Everyone starts at 300, the site\N{RIGHT SINGLE QUOTATION MARK}s cautious guess before it "
    "has seen them play, and a rating is marked provisional until its player has 10 rated games."
)


def _text(html: str) -> str:
    """The words on the page, without tags or runs of white space."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _rated_game() -> Game:
    return play_out(start(people("alice", "bob", "carol", "dave")), SEED_PLACES_1_2_3_4)


def _shown_changes(game: Game) -> dict[str, str]:
    """Each player's new rating and change, in the words a result gives them."""
    changes = RatingChange.objects.filter(game=game).select_related("user")
    shown = {}
    for change in changes:
        sign = "+" if change.display_change > 0 else "\N{MINUS SIGN}"
        shown[change.user.username] = (
            f"rating {change.display_after} ({sign}{abs(change.display_change)}, provisional)"
        )
    return shown


def test_the_table_shows_each_players_rating_change_at_the_end_of_a_rated_match() -> None:
    game = _rated_game()
    shown = _shown_changes(game)

    page = _text(Client().get(game.table.get_absolute_url()).content.decode())

    assert "1st: alice" in page
    for name in ("alice", "bob", "carol", "dave"):
        assert re.search(rf"{name}, -?\d+ points · {re.escape(shown[name])}", page), name
    assert shown["alice"].startswith("rating ") and "(+" in shown["alice"]
    assert "(\N{MINUS SIGN}" in shown["dave"]


def test_the_result_pushed_to_the_table_carries_the_rating_changes() -> None:
    game = _rated_game()
    players = list(game.players.select_related("user"))
    context = {
        "table": game.table,
        "code": "",
        **table_context.public_context(game, game.live_match(), players),
    }

    html = _text(render_to_string("games/table.html#result", context))

    for words in _shown_changes(game).values():
        assert words in html


def test_a_casual_match_shows_no_rating_at_its_end() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave"), rated=False), 47)

    table_page = _text(Client().get(game.table.get_absolute_url()).content.decode())
    game_page = _text(Client().get(reverse("game_detail", args=[game.pk])).content.decode())

    assert "1st: alice" in table_page and "rating" not in table_page.split("Result")[-1]
    assert "· rating" not in game_page
    assert STARTING_WORDS not in game_page


def test_the_game_page_shows_each_players_rating_change_and_where_ratings_start() -> None:
    game = _rated_game()
    shown = _shown_changes(game)

    page = _text(Client().get(reverse("game_detail", args=[game.pk])).content.decode())

    for name in ("alice", "bob", "carol", "dave"):
        assert re.search(rf"{name} ?, -?\d+ points? · {re.escape(shown[name])}", page), name
    assert STARTING_WORDS in page


def test_the_ratings_page_lists_new_players_marked_provisional() -> None:
    _rated_game()
    Rating.objects.create(user=User.objects.create_user("erin"), mu=33.0, sigma=2.0, games=12)

    page = Client().get(reverse("leaderboard")).content.decode()

    names = re.findall(r'<th scope="row"><a href="/u/[^/]+/">([^<]+)</a>', page)
    assert names[0] == "erin"
    assert sorted(names[1:]) == ["alice", "bob", "carol", "dave"]
    rows = re.findall(r"<tr[^>]*>.*?</tr>", page, flags=re.S)
    provisional = {name for name in names for row in rows if name in row and "provisional" in row}
    assert provisional == {"alice", "bob", "carol", "dave"}
    assert STARTING_WORDS in _text(page)


def test_the_profile_says_where_a_rating_starts() -> None:
    User.objects.create_user("alice")

    page = _text(Client().get(reverse("profile", args=["alice"])).content.decode())

    assert STARTING_WORDS in page
