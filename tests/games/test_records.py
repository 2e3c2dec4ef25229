"""The downloadable record of a finished game: every field, and it replays to the same result."""

from __future__ import annotations

import json
from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import Match, Move, Rules, fingerprint, parse_cards
from games.models import Game
from games.records import game_record
from tests.helpers.records import ended_early, play_cards
from tests.helpers.tables import game_with

pytestmark = pytest.mark.django_db


def played_to_the_end() -> Game:
    """A short game (to 25 points) played to its end."""
    game = game_with(preset="custom", options={"target": 25})
    while not Game.objects.get(pk=game.pk).is_over:
        play_cards(game, 1)
    return Game.objects.get(pk=game.pk)


def test_the_record_of_a_finished_game_has_every_field() -> None:
    game = ended_early()
    record = game_record(game)
    assert list(record) == [
        "format", "game", "table", "number", "started_at", "finished_at", "rated", "players",
        "rules", "seed", "fingerprint", "added_seeds", "moves", "hands", "totals", "result",
    ]  # fmt: skip
    assert record["format"] == "hearts-record-v1"
    assert (record["game"], record["table"], record["number"]) == (game.pk, game.table_id, 1)
    assert record["rated"] is True
    assert record["players"] == [
        {"seat": 0, "name": "alice", "bot": False},
        {"seat": 1, "name": "bob", "bot": False},
        {"seat": 2, "name": "carol", "bot": False},
        {"seat": 3, "name": "dave", "bot": False},
    ]
    assert record["seed"] == bytes(game.seed).hex()
    assert record["fingerprint"] == fingerprint(bytes.fromhex(record["seed"]))
    assert record["started_at"] == game.started_at.isoformat()
    assert record["finished_at"] == game.finished_at.isoformat()  # type: ignore[union-attr]
    assert record["result"] == {
        "reason": "resigned",
        "places": record["result"]["places"],
        "totals": record["totals"],
        "forfeited": 2,
    }
    assert record["result"]["places"][2] == 4
    assert len(record["moves"]) == game.version


def test_the_record_lists_every_hand_dealt_with_its_passes_and_points() -> None:
    game = ended_early()
    hands = game_record(game)["hands"]
    assert [hand["number"] for hand in hands] == [1, 2]
    first, second = hands
    assert first["dealer"] == 0 and second["dealer"] == 1
    assert all(len(parse_cards(cards)) == 13 for cards in first["dealt"])
    assert first["kitty"] == ""
    # Each seat passed its three highest cards of the deal (the helper passes the last three).
    assert first["passes"] == [" ".join(cards.split()[-3:]) for cards in first["dealt"]]
    assert sum(first["points"]) in (26, 78)  # 78 when somebody shot the moon
    assert second["points"] is None  # the resignation cut it short: not scored
    assert all(len(passes.split()) == 3 for passes in second["passes"])


def test_the_record_replays_exactly_to_the_same_result() -> None:
    game = played_to_the_end()
    record = json.loads(json.dumps(game_record(game)))
    match = Match.replay(
        Rules.from_json(record["rules"]),
        bytes.fromhex(record["seed"]),
        [Move.from_json(move) for move in record["moves"]],
        record["added_seeds"],
    )
    assert match.result is not None and match.result.reason == "target"
    assert list(match.totals) == record["totals"] == record["result"]["totals"]
    assert list(match.result.places) == record["result"]["places"] == game.result["places"]  # type: ignore[index]
    assert [hand["points"] for hand in record["hands"]] == [list(p) for p in match.hand_points()]
    assert max(record["totals"]) >= 25


def test_the_record_is_exactly_the_engine_record_of_the_moves() -> None:
    game = ended_early()
    record = game_record(game)
    assert Match.from_json(record).to_json() == {
        key: record[key] for key in ("rules", "seed", "added_seeds", "moves")
    }


def test_a_bot_is_marked_as_a_bot_in_the_record() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)
    play_cards(game, 1)
    services.resign(game.pk, 0)
    players = game_record(Game.objects.get(pk=game.pk))["players"]
    assert [(p["name"], p["bot"]) for p in players] == [
        ("alice", False), ("Bot 2", True), ("Bot 3", True), ("Bot 4", True),
    ]  # fmt: skip


def test_the_record_downloads_as_a_json_file() -> None:
    game = ended_early()
    response = Client().get(reverse("game_record", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="hearts-game-{game.pk}.json"'
    assert json.loads(response.content) == json.loads(json.dumps(game_record(game)))


def test_the_record_of_a_running_game_is_not_found() -> None:
    game = game_with()
    play_cards(game, 2)
    response = Client().get(reverse("game_record", args=[game.pk]))
    assert response.status_code == 404
    assert bytes(game.seed).hex().encode() not in response.content


def test_a_game_resigned_before_a_card_keeps_its_deal_in_the_record() -> None:
    game = game_with()
    services.resign(game.pk, 1)
    record = game_record(Game.objects.get(pk=game.pk))
    assert record["result"] == {
        "reason": "resigned",
        "places": [1, 4, 1, 1],
        "totals": [0, 0, 0, 0],
        "forfeited": 1,
    }
    assert [hand["points"] for hand in record["hands"]] == [None]
    assert record["hands"][0]["passes"] == ["", "", "", ""]


def test_a_game_called_off_by_the_old_rule_gets_the_result_its_log_replays_to() -> None:
    game = game_with()
    services.resign(game.pk, 1)
    # How the site stored a resignation before the first card until the rule was mended.
    Game.objects.filter(pk=game.pk).update(
        status="aborted",
        result={"reason": "aborted", "places": [], "totals": [0, 0, 0, 0], "forfeited": 1},
    )
    migration = import_module("games.migrations.0003_resigning_before_a_card_loses")

    migration._replay_games_called_off(django_apps, None)

    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert game.result == {
        "reason": "resigned",
        "places": [1, 4, 1, 1],
        "totals": [0, 0, 0, 0],
        "forfeited": 1,
    }
    assert game_record(game)["result"] == game.result
