"""The verification pages: a running game shows its fingerprint and added seeds but never its
seed; a finished game publishes the seed and its record for the browser to re-deal; the form
re-deals any pasted seed with the engine and refuses bad input politely."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import Match, Rules, ShortPack, deal_hand, fingerprint, format_cards
from games.models import Game, GamePlayer, MoveRecord, Table
from tests.helpers.engine import seed, step

pytestmark = pytest.mark.django_db

NAMES = ("alice", "bob", "carol", "dave")


def _game(*, finished: bool, added: tuple[str, ...] = ()) -> Game:
    """A game of alice, bob, carol and dave: played to the end, or a few moves in."""
    users = [User.objects.create_user(name, password="x") for name in NAMES]
    rules = Rules()
    table = Table.objects.create(host=users[0], rules=rules.to_json(), status=Table.Status.PLAYING)
    game = Game.objects.create(
        table=table, rules=rules.to_json(), seed=seed(21), added_seeds=list(added)
    )
    for index, user in enumerate(users):
        GamePlayer.objects.create(game=game, seat=index, user=user)
    match = Match(rules, seed(21), added)
    while not match.is_over and (finished or match.version < 6):
        step(match)
    MoveRecord.objects.bulk_create(
        MoveRecord.of(game, number, move) for number, move in enumerate(match.moves, start=1)
    )
    game.version = match.version
    if finished:
        assert match.result is not None
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = {"reason": match.result.reason, "places": list(match.result.places)}
    game.save()
    return game


def _verify_page(game: Game) -> str:
    response = Client().get(reverse("game_verify", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _embedded_record(page: str) -> dict[str, Any]:
    found = re.search(
        r'<script id="game-record" type="application/json">(.*?)</script>', page, re.S
    )
    assert found, "the record is embedded for the browser's check"
    record: dict[str, Any] = json.loads(found.group(1))
    return record


def test_a_running_game_shows_its_fingerprint_and_added_seeds_but_not_its_seed() -> None:
    game = _game(finished=False, added=("alice's text", "", "carol", "dave"))
    page = _verify_page(game)
    assert fingerprint(seed(21)) in page
    assert unescape(page).count("alice's text") == 1
    assert "nothing (the empty text)" in page
    assert seed(21).hex() not in page
    assert 'id="game-record"' not in page
    assert "Kept secret until the game ends" in page


def test_a_game_without_added_seeds_says_so() -> None:
    page = _verify_page(_game(finished=False))
    assert "None: this table did not use added seeds." in page


def test_a_finished_game_publishes_its_seed_and_record_for_the_check() -> None:
    game = _game(finished=True, added=("alice", "", "carol", "dave"))
    page = _verify_page(game)
    assert f'<code class="hex" id="seed">{seed(21).hex()}</code>' in page
    record = _embedded_record(page)
    assert record["seed"] == seed(21).hex()
    assert record["fingerprint"] == fingerprint(seed(21))
    assert record["added_seeds"] == ["alice", "", "carol", "dave"]
    assert len(record["hands"]) > 1
    assert 'src="/static/js/verify.js"' in page
    # Without JavaScript: the record to download, the checker, and the command to run it.
    assert reverse("game_record", args=[game.pk]) in page
    assert reverse("checker_script") in page
    assert f"check_record.py hearts-game-{game.pk}.json" in page


def test_the_verify_page_has_no_inline_script_and_speaks_its_verdict_aloud() -> None:
    page = _verify_page(_game(finished=True))
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert all('type="application/json"' in attrs or not body.strip() for attrs, body in scripts)
    assert "style=" not in page
    assert 'id="verify-verdict"' in page and 'aria-live="polite"' in page


def test_an_unknown_game_has_no_verify_page() -> None:
    assert Client().get(reverse("game_verify", args=[999])).status_code == 404


def test_the_checker_script_can_be_downloaded() -> None:
    response = Client().get(reverse("checker_script"))
    assert response.status_code == 200
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert body.startswith(b"#!/usr/bin/env python3")
    assert "attachment" in response["Content-Disposition"]


# The paste-a-seed form ----------------------------------------------------------------------


def _form(**query: Any) -> tuple[int, str]:
    response = Client().get(reverse("verify_form"), query)
    return response.status_code, unescape(response.content.decode())


def _dealt_rows(page: str) -> list[str]:
    return re.findall(r'<td class="cards">([^<]*)</td>', page)


def _pack_order(cards: Any) -> str:
    return format_cards(sorted(cards, key=lambda card: card.index))


def test_the_empty_form_explains_added_seeds_and_deals_nothing() -> None:
    status, page = _form()
    assert status == 200
    assert "four empty added seeds deal\n      other cards than none at all" in page
    assert '<label for="id_seed">' in page
    assert _dealt_rows(page) == []


def test_the_form_shows_the_engines_deals_and_the_seeds_fingerprint() -> None:
    status, page = _form(seed=seed(5).hex(), players=4, short_pack="remove", hands=3)
    assert status == 200
    assert fingerprint(seed(5)) in page
    expected = []
    for number in (1, 2, 3):
        expected += [_pack_order(hand) for hand in deal_hand(Rules(), seed(5), number).hands]
    assert _dealt_rows(page) == expected
    assert "Hand 2, dealt by seat 2" in page


def test_the_form_deals_a_kitty_and_added_seeds_one_line_per_seat() -> None:
    rules = Rules(players=3, short_pack=ShortPack.KITTY)
    status, page = _form(
        seed=seed(5).hex().upper(),
        players=3,
        short_pack="kitty",
        uses_added="on",
        added="alice\r\n\r\ncarol\r\n",
        hands=1,
    )
    assert status == 200
    deal = deal_hand(rules, seed(5), 1, ("alice", "", "carol"))
    assert _dealt_rows(page) == [_pack_order(hand) for hand in deal.hands] + [
        _pack_order(deal.kitty)
    ]


def test_empty_added_seeds_are_not_the_same_as_none() -> None:
    common = {"seed": seed(5).hex(), "players": 4, "short_pack": "remove", "hands": 1}
    _, without = _form(**common)
    _, empty = _form(**common, uses_added="on", added="\n\n\n")
    assert _dealt_rows(without) != _dealt_rows(empty)
    deal = deal_hand(Rules(), seed(5), 1, ("", "", "", ""))
    assert _dealt_rows(empty) == [_pack_order(hand) for hand in deal.hands]


def test_the_rules_of_a_record_can_be_pasted_instead() -> None:
    rules = Rules(players=5)
    status, page = _form(
        seed=seed(5).hex(), players=4, short_pack="remove", hands=1,
        rules_json=json.dumps(rules.to_json()),
    )  # fmt: skip
    assert status == 200
    assert _dealt_rows(page) == [_pack_order(h) for h in deal_hand(rules, seed(5), 1).hands]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"seed": "abc"}, "A seed is exactly 64 hexadecimal digits"),
        ({"seed": "g" * 64}, "A seed is exactly 64 hexadecimal digits"),
        ({"players": "7"}, "Select a valid choice"),
        ({"players": "4", "short_pack": "kitty"}, "Four players share the whole pack"),
        ({"uses_added": "on", "added": "alice\nbob"}, "exactly 4 added seeds"),
        ({"added": "alice\nbob\ncarol\ndave"}, "Tick this box to use the added seeds"),
        ({"rules_json": "{players: 4"}, "These rules are not valid JSON."),
        ({"rules_json": '{"players": 9}'}, "These rules cannot be used"),
        ({"rules_json": '{"colour": "red"}'}, "Unknown option: colour"),
        ({"hands": "0"}, "greater than or equal to 1"),
        ({"hands": "1000"}, "less than or equal to 40"),
        ({"hands": "many"}, "Enter a whole number"),
        ({"seed": "é" * 64}, "A seed is exactly 64 hexadecimal digits"),
        ({"players": "four"}, "Select a valid choice"),
        ({"short_pack": "sideways"}, "Select a valid choice"),
        ({"rules_json": "[4]"}, "Rules must be an object of options"),
        ({"rules_json": '{"players": "4"}'}, "Hearts is played by 3, 4, 5 or 6 players"),
        ({"rules_json": '{"players": 4, "target": 1e9}'}, "The target must be a whole number"),
    ],
)
def test_bad_input_gets_a_clear_message_on_the_form(query: dict[str, str], message: str) -> None:
    data = {"seed": seed(5).hex(), "players": "4", "short_pack": "remove", "hands": "1"}
    status, page = _form(**(data | query))
    assert status == 400
    assert message in page
    assert _dealt_rows(page) == []
