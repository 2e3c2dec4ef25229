"""Bad moves over the socket: a plain error on that socket only, nothing changed, and the socket
still works. Three people play (alice, bob and carol); dave watches."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User

from games import services
from games.engine import Match, Phase
from games.models import Game, MoveRecord
from tests.helpers.sockets import (
    TIMEOUT,
    flash_error,
    htmx_move,
    open_table_socket,
    session_cookie,
    socket_at,
    table_socket,
    version_of,
)

PLAYERS = ("alice", "bob", "carol")


@dataclass(frozen=True)
class LiveTable:
    table_id: int
    game_id: int
    invite_code: str
    cookies: dict[str, str]


def _three_people_playing(*, private: bool = False) -> LiveTable:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    dave = User.objects.create_user("dave")
    table = services.create_table(alice, preset="custom", players=3, private=private)
    services.take_seat(table.pk, bob, 1, table.invite_code)
    services.take_seat(table.pk, carol, 2, table.invite_code)
    game = services.start_game(table.pk, alice)
    cookies = {user.username: session_cookie(user) for user in (alice, bob, carol, dave)}
    return LiveTable(table.pk, game.pk, table.invite_code, cookies)


@pytest.fixture
def table(transactional_db: None) -> LiveTable:
    """Cards dealt; nobody has passed yet."""
    return _three_people_playing()


@pytest.fixture
def table_after_the_pass(table: LiveTable) -> LiveTable:
    """Everybody has passed their three lowest cards: the lowest club leads."""
    match = _match(table.game_id)
    for seat in range(3):
        cards = [str(card) for card in match.hand.holding(seat)[:3]]
        services.act(table.game_id, seat, "pass", version=None, cards=cards)
    return table


Connect = Callable[[str | None], Awaitable[WebsocketCommunicator]]


@pytest_asyncio.fixture
async def connect(table: LiveTable) -> AsyncIterator[Connect]:
    """Opens a socket at the table for a person by name (None: an anonymous visitor)."""
    opened: list[WebsocketCommunicator] = []

    async def open_socket(name: str | None) -> WebsocketCommunicator:
        cookie = table.cookies[name] if name else None
        socket, _ = await open_table_socket(table.table_id, cookie)
        opened.append(socket)
        return socket

    yield open_socket
    for socket in opened:
        # On Redis a consumer may take a second to stop listening: no need to wait for it.
        with contextlib.suppress(Exception):  # nor for one whose consumer crashed
            await socket.disconnect(timeout=0.2)


def _match(game_id: int) -> Match:
    return Game.objects.get(pk=game_id).match()


def _record(game_id: int) -> tuple[int, int]:
    """The game's version and the length of its move log."""
    version = Game.objects.get(pk=game_id).version
    return version, MoveRecord.objects.filter(game_id=game_id).count()


async def _send(socket: WebsocketCommunicator, message: str | bytes | dict[str, Any]) -> None:
    if isinstance(message, bytes):
        await socket.send_to(bytes_data=message)
    elif isinstance(message, str):
        await socket.send_to(text_data=message)
    else:
        await socket.send_json_to(message)


async def assert_refused(
    table: LiveTable,
    socket: WebsocketCommunicator,
    message: str | bytes | dict[str, Any],
    says: str,
    *,
    others: list[WebsocketCommunicator],
) -> str:
    """The socket is told why (in #flash, role=alert), nobody else hears a thing, nothing
    changes. Returns the message the socket was sent."""
    before = await database_sync_to_async(_record)(table.game_id)
    await _send(socket, message)
    reply = await socket.receive_from(timeout=TIMEOUT)
    error = flash_error(reply)
    assert error is not None, reply
    assert says in error
    for other in others:
        assert await other.receive_nothing(timeout=0.2)
    assert await database_sync_to_async(_record)(table.game_id) == before
    return error


async def assert_accepted(
    table: LiveTable,
    socket: WebsocketCommunicator,
    message: dict[str, Any],
    *,
    everyone: list[WebsocketCommunicator],
) -> None:
    """The move is made, and every socket at the table is sent the table after it."""
    version, moves = await database_sync_to_async(_record)(table.game_id)
    await _send(socket, message)
    for listener in everyone:
        update = await listener.receive_from(timeout=TIMEOUT)
        assert flash_error(update) is None, update
        assert version_of(update) == version + 1
    assert await database_sync_to_async(_record)(table.game_id) == (version + 1, moves + 1)


async def _first_three(table: LiveTable, seat: int) -> str:
    match = await database_sync_to_async(_match)(table.game_id)
    return " ".join(str(card) for card in match.hand.holding(seat)[:3])


def _pass(cards: str, version: int = 0) -> dict[str, Any]:
    return {"action": "pass", "cards": cards, "version": version}


# The message itself ----------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("message", "says"),
    [
        ('{"action": "pass", "cards', "not JSON"),
        ("pass 2C 3C 4C", "not JSON"),
        ('["pass", "2C 3C 4C", 0]', "A move is a JSON object"),
    ],
)
async def test_a_message_that_is_not_a_json_object_is_refused(
    table: LiveTable, connect: Connect, message: str, says: str
) -> None:
    alice, bob = await connect("alice"), await connect("bob")

    await assert_refused(table, alice, message, says, others=[bob])

    await assert_accepted(table, alice, _pass(await _first_three(table, 0)), everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_message_longer_than_the_limit_is_refused(
    table: LiveTable, connect: Connect
) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    move = _pass(await _first_three(table, 0))
    padded = json.dumps({**move, "padding": "x" * settings.HEARTS_WS_MAX_MESSAGE})

    await assert_refused(table, alice, padded, "too long", others=[bob])

    await assert_accepted(table, alice, move, everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_limit_counts_bytes_not_characters(table: LiveTable, connect: Connect) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    move = _pass(await _first_three(table, 0))
    padded = json.dumps(
        {**move, "padding": "é" * (settings.HEARTS_WS_MAX_MESSAGE - 200)}, ensure_ascii=False
    )
    assert len(padded) <= settings.HEARTS_WS_MAX_MESSAGE < len(padded.encode())

    await assert_refused(table, alice, padded, "too long", others=[bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_binary_message_is_refused(table: LiveTable, connect: Connect) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    move = _pass(await _first_three(table, 0))

    await assert_refused(table, alice, json.dumps(move).encode(), "not text", others=[bob])

    await assert_accepted(table, alice, move, everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_unknown_action_is_refused(table: LiveTable, connect: Connect) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    cards = await _first_three(table, 0)

    await assert_refused(
        table,
        alice,
        {"action": "fold", "cards": cards, "version": 0},
        "Unknown action",
        others=[bob],
    )

    await assert_accepted(table, alice, htmx_move("pass", cards, 0), everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("cards", "says"),
    [
        ("1S 2C 3C", "'1S' is not a card"),
        ("♠Q", "'♠Q' is not a card"),
        ("QS QS QS QS", "up to three cards like 'QS'"),
    ],
)
async def test_bad_card_notation_is_refused(
    table: LiveTable, connect: Connect, cards: str, says: str
) -> None:
    alice, bob = await connect("alice"), await connect("bob")

    await assert_refused(table, alice, _pass(cards), says, others=[bob])

    await assert_accepted(table, alice, _pass(await _first_three(table, 0)), everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "version",
    ["seven", None, True, 1.5, "-1", "²", "①"],  # the last two are digits to str.isdigit
)
async def test_a_version_that_is_not_a_number_is_refused(
    table: LiveTable, connect: Connect, version: Any
) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    cards = await _first_three(table, 0)

    await assert_refused(
        table,
        alice,
        {"action": "pass", "cards": cards, "version": version},
        "which version",
        others=[bob],
    )

    await assert_accepted(table, alice, _pass(cards), everyone=[alice, bob])


# Moves the rules refuse ------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_passing_a_card_from_another_hand_is_refused(
    table: LiveTable, connect: Connect
) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    mine = await _first_three(table, 0)
    bobs = await _first_three(table, 1)

    await assert_refused(
        table,
        alice,
        _pass(" ".join([*mine.split()[:2], bobs.split()[0]])),
        "own hand",
        others=[bob],
    )

    await assert_accepted(table, alice, _pass(mine), everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_playing_a_card_you_do_not_hold_is_refused(
    table_after_the_pass: LiveTable, connect: Connect
) -> None:
    table = table_after_the_pass
    match = await database_sync_to_async(_match)(table.game_id)
    leader = match.hand.turn
    elsewhere = match.hand.holding((leader + 1) % 3)[0]
    sockets = [await connect(name) for name in PLAYERS]
    others = [s for seat, s in enumerate(sockets) if seat != leader]
    version = match.version

    await assert_refused(
        table,
        sockets[leader],
        {"action": "play", "cards": str(elsewhere), "version": version},
        f"You do not hold the {elsewhere.display}",
        others=others,
    )

    lead = str(match.hand.legal_plays(leader)[0])
    await assert_accepted(
        table,
        sockets[leader],
        {"action": "play", "cards": lead, "version": version},
        everyone=sockets,
    )


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_playing_out_of_turn_is_refused(
    table_after_the_pass: LiveTable, connect: Connect
) -> None:
    table = table_after_the_pass
    match = await database_sync_to_async(_match)(table.game_id)
    leader, second = match.hand.turn, (match.hand.turn + 1) % 3
    sockets = [await connect(name) for name in PLAYERS]
    version = match.version
    early = str(match.hand.holding(second)[-1])

    await assert_refused(
        table,
        sockets[second],
        {"action": "play", "cards": early, "version": version},
        "It is not your turn",
        others=[s for seat, s in enumerate(sockets) if seat != second],
    )

    lead = str(match.hand.legal_plays(leader)[0])
    await assert_accepted(table, sockets[leader], _play(lead, version), everyone=sockets)
    match = await database_sync_to_async(_match)(table.game_id)
    follow = str(match.hand.legal_plays(second)[0])
    await assert_accepted(table, sockets[second], _play(follow, version + 1), everyone=sockets)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how_many", [0, 2])
async def test_playing_other_than_one_card_is_refused_in_plain_words(
    table_after_the_pass: LiveTable, connect: Connect, how_many: int
) -> None:
    table = table_after_the_pass
    match = await database_sync_to_async(_match)(table.game_id)
    leader = match.hand.turn
    sockets = [await connect(name) for name in PLAYERS]
    cards = " ".join(str(card) for card in match.hand.holding(leader)[:how_many])

    error = await assert_refused(
        table,
        sockets[leader],
        _play(cards, match.version),
        "",
        others=[s for seat, s in enumerate(sockets) if seat != leader],
    )

    assert "Move(" not in error
    assert "Card(" not in error


def _play(card: str, version: int) -> dict[str, Any]:
    return {"action": "play", "cards": card, "version": version}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_playing_during_the_pass_is_refused(table: LiveTable, connect: Connect) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    cards = await _first_three(table, 0)

    await assert_refused(
        table, alice, _play(cards.split()[0], 0), "choose three to pass first", others=[bob]
    )

    await assert_accepted(table, alice, _pass(cards), everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_second_pass_is_refused(table: LiveTable, connect: Connect) -> None:
    sockets = [await connect(name) for name in PLAYERS]
    alice, bob, carol = sockets
    await assert_accepted(table, alice, _pass(await _first_three(table, 0), 0), everyone=sockets)
    match = await database_sync_to_async(_match)(table.game_id)
    again = " ".join(str(card) for card in match.hand.holding(0)[3:6])

    await assert_refused(table, alice, _pass(again, 1), "already passed", others=[bob, carol])

    # The others pass, and play until alice's turn comes: then her card is taken.
    while True:
        match = await database_sync_to_async(_match)(table.game_id)
        seat, move = _a_legal_move(match)
        await assert_accepted(table, sockets[seat], move, everyone=sockets)
        if seat == 0:
            break


def _a_legal_move(match: Match) -> tuple[int, dict[str, Any]]:
    """The seat the game waits for, and a move it may make."""
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        cards = " ".join(str(card) for card in hand.holding(seat)[:3])
        return seat, _pass(cards, match.version)
    return hand.turn, _play(str(hand.legal_plays(hand.turn)[0]), match.version)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stale_version_is_refused_and_the_whole_table_sent_again(
    table_after_the_pass: LiveTable, connect: Connect
) -> None:
    table = table_after_the_pass
    names = ["alice", "bob", "carol"]
    match = await database_sync_to_async(_match)(table.game_id)
    leader = match.hand.turn
    follower = (leader + 1) % 3
    seen = match.version
    first, second = await connect(names[leader]), await connect(names[follower])
    lead = str(match.hand.legal_plays(leader)[0])
    await assert_accepted(table, first, _play(lead, seen), everyone=[first, second])

    await assert_refused(table, second, _play("2H", seen), "moved on", others=[first])
    again = await second.receive_from(timeout=TIMEOUT)
    assert 'id="live-table"' in again
    assert version_of(again) == seen + 1

    match = await database_sync_to_async(_match)(table.game_id)
    follow = str(match.hand.legal_plays(follower)[0])
    await assert_accepted(table, second, _play(follow, seen + 1), everyone=[first, second])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_version_from_the_future_is_stale_too(table: LiveTable, connect: Connect) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    mine = await _first_three(table, 0)

    await assert_refused(table, alice, _pass(mine, 5), "moved on", others=[bob])
    assert version_of(await alice.receive_from(timeout=TIMEOUT)) == 0

    await assert_accepted(table, alice, _pass(mine, 0), everyone=[alice, bob])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_at_a_finished_game_is_refused(table: LiveTable, connect: Connect) -> None:
    alice, bob = await connect("alice"), await connect("bob")
    mine = await _first_three(table, 0)
    await assert_accepted(table, bob, {"action": "resign", "version": 0}, everyone=[alice, bob])

    await assert_refused(table, alice, _pass(mine, 1), "The game is over", others=[bob])

    game_two, cards = await database_sync_to_async(_rematch)(table.table_id, "alice")
    for socket in (alice, bob):
        assert "Hand 1: choose three cards" in await socket.receive_from(timeout=TIMEOUT)
    rematch = replace(table, game_id=game_two)
    await assert_accepted(rematch, alice, _pass(cards, 0), everyone=[alice, bob])


def _rematch(table_id: int, name: str) -> tuple[int, str]:
    """The new game, and alice's three lowest cards in it."""
    game = services.rematch(table_id, User.objects.get(username=name))
    return game.pk, " ".join(str(card) for card in game.match().hand.holding(0)[:3])


# Who may move ----------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_spectator_cannot_move(table: LiveTable, connect: Connect) -> None:
    alice, dave = await connect("alice"), await connect("dave")
    alices = await _first_three(table, 0)

    await assert_refused(table, dave, _pass(alices, 0), "only its players can move", others=[alice])

    await assert_accepted(table, alice, _pass(alices, 0), everyone=[alice, dave])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_anonymous_visitor_cannot_move(table: LiveTable, connect: Connect) -> None:
    alice, visitor = await connect("alice"), await connect(None)
    alices = await _first_three(table, 0)

    await assert_refused(table, visitor, _pass(alices, 0), "Sign in", others=[alice])

    await assert_accepted(table, alice, _pass(alices, 0), everyone=[alice, visitor])


# Who may connect -------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_another_site_is_refused(table: LiveTable) -> None:
    socket = table_socket(table.table_id, table.cookies["alice"], origin=b"http://evil.example")

    connected, _ = await socket.connect(timeout=TIMEOUT)

    assert not connected


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path",
    [
        "/ws/arena/99999999999999999999/",  # past any 64-bit integer
        "/ws/arena/9223372036854775808/",  # one past the largest
        "/ws/table/99999999999999999999/",
        "/ws/table/9223372036854775808/?shown=1.99999999999999999999&chat=99999999999999999999",
        "/ws/nowhere/",
    ],
)
async def test_a_socket_address_past_any_rows_id_or_of_no_route_is_refused_not_a_500(
    path: str,
) -> None:
    """An HTTP address with such an id is a 404; its socket is refused as a missing table's."""
    cookie = await database_sync_to_async(lambda: session_cookie(User.objects.create_user("x")))()
    socket = socket_at(path, cookie)

    assert await socket.connect(timeout=TIMEOUT) == (False, 4403)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_private_table_socket_needs_the_invite_code() -> None:
    table = await database_sync_to_async(_three_people_playing)(private=True)

    for cookie, code in [(table.cookies["dave"], None), (None, None), (None, "not-the-code")]:
        refused = table_socket(table.table_id, cookie, code=code)
        connected, close_code = await refused.connect(timeout=TIMEOUT)
        assert not connected
        assert close_code == 4403

    watcher, first = await open_table_socket(table.table_id, code=table.invite_code)
    assert version_of(first) == 0
    player, _ = await open_table_socket(table.table_id, table.cookies["bob"])  # seated: no code
    for socket in (watcher, player):
        await socket.disconnect()
