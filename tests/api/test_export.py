"""The open API's export of a player's games (GET /api/v1/players/<name>/games.ndjson): every
finished game at public tables, newest first, one JSON object a line, each as /games/<id> gives
it; narrowed by the list's filters; streamed, so that the memory it takes does not grow with the
number of games."""

from __future__ import annotations

import asyncio
import gc
import json
import re
import tracemalloc
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import StreamingHttpResponse
from django.test import Client

from api import selectors
from games.engine import PRESETS
from games.records import match_record
from tests.helpers.exports import played, stored_games
from tests.helpers.tables import FOUR, people

pytestmark = pytest.mark.django_db

NEWEST = datetime(2025, 6, 30, 12, 0, tzinfo=UTC)
STANDARD = PRESETS["standard"].make(4)
URL = "/api/v1/players/{}/games.ndjson"


@pytest.fixture(autouse=True)
def no_limit(settings: Any) -> None:
    """The API's limits are the subject of tests of their own: these make many requests."""
    settings.HEARTS_API_RATE = settings.HEARTS_API_SIGNED_IN_RATE = "100000/m"


def export(name: str, **query: str) -> StreamingHttpResponse:
    response = Client().get(URL.format(name), query)
    assert response.status_code == 200, response
    assert isinstance(response, StreamingHttpResponse), response
    return response


def lines(response: StreamingHttpResponse) -> Iterator[dict[str, Any]]:
    """Each line of the export as it arrives: one JSON object, ended by a newline."""
    content = response.streaming_content
    assert isinstance(content, Iterator), "the test client reads a plain iterator"
    for line in content:
        assert isinstance(line, bytes) and line.endswith(b"\n") and line.count(b"\n") == 1
        yield json.loads(line)


def ids(name: str, **query: str) -> list[int]:
    return [game["id"] for game in lines(export(name, **query))]


def single(game_id: int) -> dict[str, Any]:
    """A game as /games/<id> gives it."""
    response = Client().get(f"/api/v1/games/{game_id}")
    assert response.status_code == 200
    return response.json()


# Thousands of games ------------------------------------------------------------------------


def test_an_export_of_5000_games_streams_them_all_newest_first_in_the_memory_of_a_few() -> None:
    players = people(*FOUR)
    # Games ended early at different points: before a card, after the pass, in the first
    # tricks and later in the first hand, each replayed by the export.
    matches = [played(STANDARD, 60 + n, moves=moves) for n, moves in enumerate((0, 4, 9, 14))]
    made = stored_games(players, matches, 5000, newest=NEWEST, apart=timedelta(hours=1))

    # The last ten days: some 250 games, the same player's export narrowed by a filter.
    since = (NEWEST - timedelta(days=10)).date()
    recent = sum(1 for number in range(5000) if (NEWEST - timedelta(hours=number)).date() >= since)
    assert 200 < recent < 300
    assert len(ids("alice", since=NEWEST.date().isoformat())) == 13  # what an export loads, loaded
    small_peak, small = _consumed("alice", since=since.isoformat())
    assert small["count"] == recent and small["ids"] == made[:recent]

    big_peak, big = _consumed("alice")
    assert big["count"] == 5000
    assert big["ids"] == made  # every game once, newest first
    kept = big["kept"]
    assert kept["id"] == made[1233] and kept["moves"] and kept["hands"] and kept["check"]["seed"]

    # Twenty times the games, about the same memory: holding every game read, or every line
    # written, would take several times as much.
    assert big_peak < 1.5 * small_peak, (big_peak, small_peak)


def _consumed(name: str, **query: str) -> tuple[int, dict[str, Any]]:
    """The most memory held from the export's request until it is read to its end (beyond
    what was held before), and what was read: how many games, their ids and the 1,234th game.

    What was loaded before is set aside from the cyclic garbage collector (as the site's
    processes set aside theirs, hearts_site/asgi.py), and the collector runs after every
    hundred lines: a chunk's model instances refer to each other, and would otherwise wait
    for the collector's next full pass, at a time that depends on the whole process rather
    than on the export."""
    read: dict[str, Any] = {"count": 0, "ids": [], "kept": None}
    gc.freeze()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for game in lines(export(name, **query)):
            assert game["status"] == "finished" and "moves" in game
            read["count"] += 1
            read["ids"].append(game["id"])
            if read["count"] == 1234:
                read["kept"] = game
            if read["count"] % 100 == 0:
                gc.collect()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        gc.unfreeze()
    return peak - before, read


# What is exported ----------------------------------------------------------------------------


@pytest.fixture
def history() -> dict[str, list[int]]:
    """alice's games at public tables, newest first: four casual Standard games (two played to
    the target, two resigned) a day apart from NEWEST, two rated ones ten days back and two of
    the Classic rule set twenty days back; two more at a private table, and one at a public
    table alice was not at."""
    alice, bob, carol, dave, erin = people(*FOUR, "erin")
    four = [alice, bob, carol, dave]
    whole = played(STANDARD, 1)
    early = played(STANDARD, 2, moves=9)
    day = timedelta(days=1)
    casual = stored_games(four, [whole, early], 4, newest=NEWEST, apart=day)
    rated = stored_games(four, [early], 2, newest=NEWEST - 10 * day, apart=day, rated=True)
    classic = played(PRESETS["classic"].make(4), 3, moves=30)
    other = stored_games(four, [classic], 2, newest=NEWEST - 20 * day, apart=day, preset="classic")
    private = stored_games(four, [whole, early], 2, newest=NEWEST, apart=day, private=True)
    without = stored_games([erin, bob, carol, dave], [early], 1, newest=NEWEST, apart=day)
    return {
        "all": casual + rated + other,
        "casual": casual,
        "whole": casual[0::2],
        "early": casual[1::2],
        "rated": rated,
        "classic": other,
        "private": private,
        "without": without,
    }


def test_every_public_game_of_the_player_is_exported_newest_first(history) -> None:
    assert ids("alice") == history["all"]
    assert ids("ALICE") == history["all"]  # the name in any case
    assert set(ids("bob")) == set(history["all"] + history["without"])


def test_the_filters_narrow_the_export(history) -> None:
    assert ids("alice", rated="true") == history["rated"]
    assert ids("alice", rated="false") == history["casual"] + history["classic"]
    assert ids("alice", result="finished") == history["whole"]
    assert ids("alice", result="early") == history["early"] + history["rated"] + history["classic"]
    assert ids("alice", rule_set="classic") == history["classic"]
    assert ids("alice", rule_set="classic", rated="true") == []
    day = timedelta(days=1)
    since, until = (NEWEST - 11 * day).date(), (NEWEST - day).date()
    assert ids("alice", since=since.isoformat(), until=until.isoformat()) == (
        history["casual"][1:] + history["rated"]
    )
    assert ids("alice", since=NEWEST.date().isoformat()) == history["casual"][:1]
    assert ids("alice", until=(NEWEST - 20 * day).date().isoformat()) == history["classic"]


def test_a_private_tables_games_are_in_no_export(history) -> None:
    for name in ("alice", "bob", "carol", "dave", "erin"):
        assert not set(ids(name)) & set(history["private"])


def test_an_unknown_player_is_not_found_and_bad_filters_are_refused(history) -> None:
    missing = Client().get(URL.format("nobody"))
    assert missing.status_code == 404
    assert missing.json() == {"detail": "No player called 'nobody'"}
    for refused, status in (
        ({"since": "2025-06-30", "until": "2025-06-01"}, 400),
        ({"rule_set": "poker"}, 422),
        ({"result": "won"}, 422),
        ({"since": "last week"}, 422),
    ):
        assert Client().get(URL.format("alice"), refused).status_code == status, refused


def test_a_player_without_public_games_gets_an_empty_export(history) -> None:
    people("frank")
    assert export("frank").getvalue() == b""


def test_each_line_is_the_game_as_its_own_address_gives_it(history) -> None:
    exported = {game["id"]: game for game in lines(export("alice"))}
    for game_id in (history["whole"][0], history["early"][0], history["rated"][0]):
        assert exported[game_id] == single(game_id)


def test_a_whole_game_is_exported_with_every_hand_and_move(history) -> None:
    whole = next(lines(export("alice")))
    assert whole["id"] == history["whole"][0]
    match = played(STANDARD, 1)
    assert len(whole["moves"]) == len(match.moves)
    assert whole["hands"] == match_record(match)["hands"]
    assert whole["totals"] == list(match.totals)
    assert whole["result"]["reason"] == "target" and not whole["result"]["ended_early"]
    assert whole["check"]["fingerprint"] == match.fingerprint


# The response --------------------------------------------------------------------------------


def test_the_export_is_a_streamed_ndjson_attachment(history) -> None:
    response = export("alice")
    assert response.streaming
    assert response["Content-Type"].split(";")[0] == "application/x-ndjson"
    assert response["Content-Disposition"] == 'attachment; filename="hearts-games-alice.ndjson"'
    filtered = export("alice", rated="true")
    assert re.fullmatch(
        r'attachment; filename="hearts-games-alice-\d+\.ndjson"', filtered["Content-Disposition"]
    )
    assert len(list(lines(filtered))) == 2


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
def test_served_as_the_site_serves_it_the_first_lines_leave_before_the_last_game_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored_games(
        people(*FOUR), [played(STANDARD, 5, moves=4)], 300, newest=NEWEST, apart=timedelta(hours=1)
    )
    read: list[int] = []  # the games the export has read, as it reads them
    reading = selectors.exported

    def counted(games: Any, chunk: int = 100) -> Iterator[dict[str, Any]]:
        for game in reading(games, chunk):
            read.append(game["id"])
            yield game

    monkeypatch.setattr(selectors, "exported", counted)
    sent = _served(URL.format("alice"), lambda: len(read))
    assert len(read) == 300
    assert sum(body.count(b"\n") for _, body in sent) == 300
    assert sent[0][0] <= 100  # the first line left while the first hundred were being read


def _served(path: str, progress: Callable[[], int]) -> list[tuple[int, bytes]]:
    """The answer's body as the site's ASGI handler sends it to daphne: each piece with
    ``progress()`` when it was sent."""
    pieces: list[tuple[int, bytes]] = []
    asked: list[bool] = []

    async def receive() -> dict[str, Any]:
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never goes away
        raise AssertionError

    async def send(message: Mapping[str, Any]) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            pieces.append((progress(), message["body"]))

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"localhost")],
        "client": ("127.0.0.1", 40000),
        "server": ("localhost", 80),
    }
    # As Django's test client does: the test's connection, in its transaction, stays open.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        async_to_sync(ASGIHandler())(scope, receive, send)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return pieces
