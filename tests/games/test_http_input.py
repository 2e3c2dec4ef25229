"""Odd HTTP input: numbers out of range, digits that are not ASCII, rules nested a thousand
deep, and methods no page takes. Each is a plain refusal (a 4xx, or the table's own error
message), never a server error. alice hosts a table; a finished game has a replay."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Seat, Table
from tests.helpers.finishing import play_out, start
from tests.helpers.pages import parameters, site_patterns
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

TWENTY_DIGITS = 10**19  # past the largest 64-bit integer a database column holds
SEED = "ab" * 32


def _client(user: User | None = None, *, csrf_checks: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf_checks)
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def table(alice: User) -> Table:
    return services.create_table(alice)


@pytest.fixture
def finished_game() -> Game:
    return play_out(start(people("carol", "dave", "erin", "fred")), 1)


def _errors(response: object) -> list[str]:
    request = response.wsgi_request  # type: ignore[attr-defined]
    return [str(message) for message in get_messages(request) if message.level_tag == "error"]


# Seats and ids out of range -------------------------------------------------------------------


@pytest.mark.parametrize("index", [4, 99, TWENTY_DIGITS])
def test_a_bot_for_a_seat_the_table_does_not_have_is_refused_in_words(
    alice: User, table: Table, index: int
) -> None:
    response = _client(alice).post(reverse("bot", args=[table.pk, index]), {"bot": "on"})
    assert response.status_code == 302
    assert _errors(response) == ["There is no such seat"]
    assert not Seat.objects.filter(table=table, is_bot=True).exists()


def test_sitting_in_a_seat_past_the_largest_number_is_refused_in_words(
    table: Table,
) -> None:
    bob = User.objects.create_user("bob")
    response = _client(bob).post(reverse("sit", args=[table.pk, TWENTY_DIGITS]))
    assert _errors(response) == ["There is no such seat"]
    assert not Seat.objects.filter(user=bob).exists()


@pytest.mark.parametrize(
    "url",
    [
        f"/t/{TWENTY_DIGITS}/",
        f"/g/{TWENTY_DIGITS}/",
        f"/g/{TWENTY_DIGITS}/record.json",
        f"/g/{TWENTY_DIGITS}/verify/",
    ],
)
def test_a_page_for_an_id_past_the_largest_number_is_not_found(url: str) -> None:
    assert Client().get(url).status_code == 404


@pytest.mark.parametrize("action", ["sit/1", "leave", "bot/1", "fill", "start", "rematch", "seed"])
def test_a_button_for_a_table_id_past_the_largest_number_is_not_found(
    alice: User, action: str
) -> None:
    assert _client(alice).post(f"/t/{TWENTY_DIGITS}/{action}/").status_code == 404


@pytest.mark.parametrize("url", ["/t/join/a%00b/", "/u/a%00b/", "/t/join/%E2%80%AE/"])
def test_an_invite_link_or_profile_with_a_character_no_name_has_is_not_found(url: str) -> None:
    """PostgreSQL refuses a NUL in a query: that was a server error."""
    assert Client().get(url).status_code == 404


# The replay's step and hand -------------------------------------------------------------------


# Superscripts, Arabic-Indic digits (which int reads) and a number int refuses to convert.
@pytest.mark.parametrize(
    "query", ["step=²", "hand=¹", "step=\u0661", "hand=\u0663", "step=" + "9" * 5000]
)
def test_a_replay_step_or_hand_that_is_not_plain_digits_shows_the_deal(
    finished_game: Game, query: str
) -> None:
    url = reverse("game_detail", args=[finished_game.pk])
    odd = Client().get(f"{url}?{query}")
    assert odd.status_code == 200
    assert odd.context["replay"]["number"] == 1


def test_a_replay_step_past_the_end_shows_the_last_step(finished_game: Game) -> None:
    response = Client().get(reverse("game_detail", args=[finished_game.pk]), {"step": "999999"})
    replay = response.context["replay"]
    assert replay["number"] == replay["count"]


# The paste-a-seed form ------------------------------------------------------------------------


def test_rules_nested_a_thousand_deep_are_refused_by_the_verify_form() -> None:
    response = Client().get(reverse("verify_form"), {"seed": SEED, "rules_json": "[" * 1000})
    assert response.status_code == 400
    assert "These rules are nested too deeply." in response.content.decode()


# Methods --------------------------------------------------------------------------------------


def _site_urls(table: Table, game: Game) -> list[str]:
    """A URL for every page of the site's own apps, filled with ids that exist."""
    values = {
        "table_id": table.pk,
        "game_id": game.pk,
        "index": 1,
        "code": table.invite_code,
        "username": "alice",
        "key": "standard",
        "kind": "legal",
        "seed": 1,
        "message_id": 1,
        "arena_id": 1,
        "challenge_id": 1,
        "uidb64": "MQ",
        "token": "set-password",
        "signed": "not-a-signed-link",
    }
    urls = []
    for pattern in site_patterns():
        kwargs = {name: values[name] for name in parameters(pattern)}
        urls.append(reverse(pattern.name, kwargs=kwargs))
    return urls


@pytest.mark.parametrize("method", ["put", "patch", "delete", "trace"])
@pytest.mark.parametrize("signed_in", [True, False], ids=["signed in", "signed out"])
def test_no_page_takes_a_method_that_is_not_get_head_or_post(
    alice: User, table: Table, finished_game: Game, method: str, signed_in: bool
) -> None:
    # With the CSRF check on, as a browser or a script meets the site: the method is refused
    # before the check would answer 403.
    client = _client(alice if signed_in else None, csrf_checks=True)
    urls = _site_urls(table, finished_game)
    assert len(urls) > 15
    answers = {url: getattr(client, method)(url).status_code for url in urls}
    assert answers == dict.fromkeys(urls, 405)


@pytest.mark.parametrize(
    "url",
    ["/", "/games/", "/verify/", "/ratings/", "/u/alice/", "/verify/check_record.py"],
)
def test_a_read_only_page_refuses_a_post(alice: User, url: str) -> None:
    assert _client(alice).post(url).status_code == 405
