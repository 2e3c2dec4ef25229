"""Hostile frames at the sockets: whatever arrives, the sender gets an error reply on its own
socket, which stays open; the game does not change, and no reply shows a card the receiver
may not see. Alice, bob and carol play; dave watches."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games import services
from games.engine import ALL_CARDS, Card, Match
from games.engine.cards import RANK_NAMES
from games.models import Game, MoveRecord
from live.frames import check_move_shape, read_frame
from tests.helpers.sockets import (
    TIMEOUT,
    flash_error,
    htmx_move,
    lobby_socket,
    open_table_socket,
    session_cookie,
    version_of,
)

DEEP_FRAMES = ["[" * 1000, "[" * 2000 + "]" * 2000, '{"":' * 1000, '{"action": ' + "[" * 1500]


@dataclass(frozen=True)
class Table:
    table_id: int
    game_id: int
    cookies: dict[str, str]


def _three_people_playing() -> Table:
    alice, bob, carol, dave = (
        User.objects.create_user(n) for n in ("alice", "bob", "carol", "dave")
    )
    table = services.create_table(alice, preset="custom", players=3)
    services.take_seat(table.pk, bob, 1)
    services.take_seat(table.pk, carol, 2)
    game = services.start_game(table.pk, alice)
    cookies = {user.username: session_cookie(user) for user in (alice, bob, carol, dave)}
    return Table(table.pk, game.pk, cookies)


def _match(game_id: int) -> Match:
    return Game.objects.get(pk=game_id).match()


def _record(game_id: int) -> tuple[int, int]:
    """The game's version and the length of its move log."""
    return Game.objects.get(pk=game_id).version, MoveRecord.objects.filter(game_id=game_id).count()


def _holding(game_id: int, seat: int) -> set[Card]:
    return set(_match(game_id).hand.holding(seat))


def _first_three(game_id: int, seat: int) -> str:
    return " ".join(str(card) for card in _match(game_id).hand.holding(seat)[:3])


async def _send(socket: WebsocketCommunicator, frame: str | bytes) -> None:
    # As the server hands a frame over: the communicator's send_to refuses an empty one.
    kind = "bytes" if isinstance(frame, bytes) else "text"
    await socket.send_input({"type": "websocket.receive", kind: frame})


# What a reply shows ------------------------------------------------------------------------

_DISPLAY = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
_NAME = re.compile(rf"\b({'|'.join(RANK_NAMES)}) of (clubs|diamonds|hearts|spades)\b")
_BY_DISPLAY = {card.display: card for card in ALL_CARDS}
_BY_NAME = {card.name: card for card in ALL_CARDS}


def cards_shown(reply: str) -> set[Card]:
    """Every card a reply shows: in a hand button, by its symbol (Q♠) or in words."""
    shown = {Card.parse(notation) for notation in re.findall(r'data-card="(..)"', reply)}
    shown |= {_BY_DISPLAY[rank + suit] for rank, suit in _DISPLAY.findall(reply)}
    shown |= {_BY_NAME[f"{rank} of {suit}"] for rank, suit in _NAME.findall(reply)}
    return shown


def cards_named(frame: str | bytes) -> set[Card]:
    """The cards a frame itself names, in any way a reply could show them ("QS", "Q♠", "queen
    of spades"): an error may repeat them to their sender."""
    text = frame.decode("latin1") if isinstance(frame, bytes) else frame
    with contextlib.suppress(ValueError, RecursionError):  # "Q\\u2660", read, is Q♠
        text += json.dumps(json.loads(text), ensure_ascii=False)
    named = {card for card in ALL_CARDS if str(card).lower() in text.lower()}
    return named | cards_shown(text)


def test_the_card_finder_sees_every_way_a_card_is_shown() -> None:
    queen, ten = Card.parse("QS"), Card.parse("TH")
    assert cards_shown('<button data-card="QS">') == {queen}
    assert cards_shown("You do not hold the 10♥") == {ten}
    assert cards_shown("queen of spades, passed to you") == {queen}
    assert cards_named('{"cards": "Q♠"}') == cards_named('{"cards": "qs"}') == {queen}
    assert cards_named('{"cards": "Q\\u2660"}') == {queen}


# Frames one by one -------------------------------------------------------------------------


async def _refused_and_open(
    socket: WebsocketCommunicator, frame: str | bytes, table: Table, says: str
) -> None:
    before = await database_sync_to_async(_record)(table.game_id)
    await _send(socket, frame)
    error = flash_error(await socket.receive_from(timeout=TIMEOUT))
    assert error is not None
    assert says in error
    assert await database_sync_to_async(_record)(table.game_id) == before


async def _alice_at_the_table() -> tuple[Table, WebsocketCommunicator]:
    """Alice, bob and carol playing, and alice's socket at their table."""
    table = await database_sync_to_async(_three_people_playing)()
    alice, _ = await open_table_socket(table.table_id, table.cookies["alice"])
    return table, alice


async def _refused_and_plays_on(
    alice: WebsocketCommunicator, frame: str | bytes, table: Table, says: str
) -> None:
    """Alice's ``frame`` is refused (``_refused_and_open``), and her socket still takes her
    pass after it."""
    await _refused_and_open(alice, frame, table, says)
    await _still_plays(alice, table)
    await alice.disconnect()


async def _still_plays(alice: WebsocketCommunicator, table: Table) -> None:
    cards = await database_sync_to_async(_first_three)(table.game_id, 0)
    await alice.send_json_to(htmx_move("pass", cards, 0))
    update = await alice.receive_from(timeout=TIMEOUT)
    assert flash_error(update) is None, update
    assert version_of(update) == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("frame", DEEP_FRAMES, ids=["arrays", "closed", "objects", "in-a-move"])
async def test_a_deeply_nested_frame_is_refused_and_the_socket_stays_open(frame: str) -> None:
    table, alice = await _alice_at_the_table()

    await _refused_and_plays_on(alice, frame, table, "not JSON")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "frame",
    [
        '{"action": "pass", "cards": "2C 3C 4C", "version": NaN}',
        '{"action": "pass", "cards": "2C 3C 4C", "version": Infinity}',
        '{"action": "pass", "cards": "2C 3C 4C", "version": -Infinity}',
        '{"action": "resign", "action": "pass", "cards": "2C 3C 4C", "version": 0}',
    ],
    ids=["nan", "infinity", "minus-infinity", "a-key-twice"],
)
async def test_frames_that_are_not_plain_json_are_refused(frame: str) -> None:
    """NaN and Infinity are not JSON; a key given twice could be read either way."""
    table, alice = await _alice_at_the_table()

    await _refused_and_plays_on(alice, frame, table, "not JSON")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_frame_with_a_lone_surrogate_is_refused() -> None:
    table, alice = await _alice_at_the_table()

    await _refused_and_plays_on(alice, '{"action": "\ud800"}', table, "not text")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("version", [10**9, 10**40, int("9" * 4000)])
async def test_a_version_too_large_for_any_game_is_refused(version: int) -> None:
    table, alice = await _alice_at_the_table()
    cards = await database_sync_to_async(_first_three)(table.game_id, 0)
    frame = f'{{"action": "pass", "cards": "{cards}", "version": {version}}}'

    await _refused_and_plays_on(alice, frame, table, "which version")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_frames_at_a_finished_game_are_refused_and_the_socket_stays_open() -> None:
    table, alice = await _alice_at_the_table()
    bob, _ = await open_table_socket(table.table_id, table.cookies["bob"])
    await bob.send_json_to({"action": "resign", "version": 0})
    for socket in (alice, bob):
        assert "resigned" in await socket.receive_from(timeout=TIMEOUT)
    cards = await database_sync_to_async(_first_three)(table.game_id, 0)

    frames: list[tuple[str | bytes, str]] = [
        (json.dumps(htmx_move("pass", cards, 1)), "The game is over"),
        ('{"action": "resign", "version": 1}', "The game is over"),
        ("[" * 1000, "not JSON"),
        (b"\x00", "not text"),
    ]
    for frame, says in frames:
        await _refused_and_open(alice, frame, table, says)

    assert await bob.receive_nothing(timeout=0.2)
    for socket in (alice, bob):
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("frame", ["{}", "[" * 1000, "x" * 10_000, b"\x00\xff"])
async def test_a_frame_to_the_lobby_gets_an_error_and_the_lobby_still_hears_changes(
    frame: str | bytes,
) -> None:
    lobby = lobby_socket()
    connected, _ = await lobby.connect(timeout=TIMEOUT)
    assert connected

    await _send(lobby, frame)

    assert flash_error(await lobby.receive_from(timeout=TIMEOUT)) == "The lobby takes no messages"
    table_id = await database_sync_to_async(_alices_table)()
    assert f'href="/t/{table_id}/"' in await lobby.receive_from(timeout=TIMEOUT)
    await lobby.disconnect()


def _alices_table() -> int:
    return services.create_table(User.objects.create_user("alice")).pk


# Generated frames --------------------------------------------------------------------------

NOTATIONS = [str(card) for card in ALL_CARDS]
ODD_TEXT = st.one_of(
    st.text(max_size=12),
    st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3),
    st.sampled_from(["\u202e", "\u200b", "²", "①", "Q♠", "qs", "QS QS QS", "2C,3C,4C", " "]),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ODD_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ODD_TEXT, inner, max_size=3),
    max_leaves=6,
)
# Versions a move might carry (the game is at 0); field() also puts in anything at all.
VERSIONS = st.integers(0, 2) | st.sampled_from(["0", "1", "²", "-1"]) | st.integers(min_value=0)


@st.composite
def moves(draw: st.DrawFn, hand: list[str]) -> dict[str, object]:
    """A frame shaped like a move, most of it close to one (cards of the hand or the pack,
    small versions, htmx's envelope); each field may be anything."""

    def field(likely: st.SearchStrategy[object]) -> object:
        return draw(JSON_VALUES | ODD_TEXT) if draw(st.integers(0, 4)) == 4 else draw(likely)

    notation = st.sampled_from(hand) | st.sampled_from(NOTATIONS)
    move = {
        "action": field(st.sampled_from(["pass", "play", "moon", "resign"])),
        "cards": field(
            st.lists(notation, max_size=4).map(" ".join) | st.lists(notation, max_size=4)
        ),
        "version": field(VERSIONS),
        "choice": field(st.sampled_from(["", "add", "subtract", "timed out"])),
        "HEADERS": field(st.just(htmx_move("pass")["HEADERS"])),
        "padding": field(st.none()),
    }
    left_out = draw(st.sets(st.sampled_from(sorted(move)), max_size=2))
    return {name: value for name, value in move.items() if name not in left_out}


RAW = st.sampled_from(
    [
        *DEEP_FRAMES,
        "",
        " ",
        "null",
        "NaN",
        "-Infinity",
        "1e999",
        "9" * 4000,
        "9" * 5000,
        '"\\ud800"',
        '{"action": "pass", "action": "play"}',
        '{"action": "pass", "cards": "2C 3C 4C", "version": 0',
        "x" * 5000,
        '{"action": "\ud800"}',
    ]
)


def frames(hand: list[str]) -> st.SearchStrategy[str | bytes]:
    """Any frame; half of them like moves."""
    garbage = st.one_of(
        JSON_VALUES.map(json.dumps),
        st.text(max_size=40),
        RAW,
        st.binary(min_size=1, max_size=40),
    )
    return moves(hand).map(json.dumps) | garbage


def _would_be_played(frame: str | bytes, holding: set[Card]) -> bool:
    """Whether alice's frame is a move the game would take at version 0 (before anyone has
    passed): a resignation, or a pass of three cards of her own. Those are not hostile."""
    try:
        data = read_frame(frame) if isinstance(frame, str) else None
        action, cards, _, version = check_move_shape(data)
    except services.ServiceError:
        return False
    if action == "resign":
        return True
    passing = {Card.parse(notation) for notation in cards}
    return (
        action == "pass" and version == 0 and len(passing) == len(cards) == 3 and passing <= holding
    )


@pytest.mark.django_db(transaction=True)
def test_no_generated_frame_changes_the_game_shows_a_hidden_card_or_closes_a_socket() -> None:
    table = _three_people_playing()
    holding = _holding(table.game_id, 0)
    before = _record(table.game_id)
    with asyncio.Runner() as runner:
        alice, bob, dave = (
            runner.run(open_table_socket(table.table_id, table.cookies[name]))[0]
            for name in ("alice", "bob", "dave")
        )
        sockets = {"alice": alice, "dave": dave}

        @settings(
            max_examples=200,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        @given(who=st.sampled_from(["alice", "dave"]), frame=frames(sorted(map(str, holding))))
        def throw(who: str, frame: str | bytes) -> None:
            if who == "alice" and _would_be_played(frame, holding):
                return
            # Alice sees her own cards, dave no card at all (nobody has played one yet); an
            # error may repeat to either the cards their own frame named.
            may_see = (holding if who == "alice" else set()) | cards_named(frame)
            for reply in runner.run(_replies(sockets[who], frame)):
                reply.encode()  # daphne sends it as UTF-8: a lone surrogate would kill it
                assert cards_shown(reply) <= may_see, reply
            assert _record(table.game_id) == before

        throw()

        for socket in (alice, bob, dave):
            assert runner.run(socket.receive_nothing(timeout=0.2))
        runner.run(_everyone_sees_alices_pass(table, alice, [alice, bob, dave]))
        for socket in (alice, bob, dave):
            runner.run(socket.disconnect())


async def _replies(socket: WebsocketCommunicator, frame: str | bytes) -> list[str]:
    """The error the frame is answered with, and the whole table after it if the frame was a
    move made on another version of the table."""
    await _send(socket, frame)
    reply = await socket.receive_from(timeout=TIMEOUT)
    error = flash_error(reply)
    assert error is not None, reply
    event(error.split(":")[0])  # which refusals the frames met, in --hypothesis-show-statistics
    if "moved on" not in error:
        return [reply]
    again = await socket.receive_from(timeout=TIMEOUT)
    assert version_of(again) == 0
    return [reply, again]


async def _everyone_sees_alices_pass(
    table: Table, alice: WebsocketCommunicator, everyone: list[WebsocketCommunicator]
) -> None:
    cards = await database_sync_to_async(_first_three)(table.game_id, 0)
    await alice.send_json_to(htmx_move("pass", cards, 0))
    for socket in everyone:
        update = await socket.receive_from(timeout=TIMEOUT)
        assert flash_error(update) is None, update
        assert version_of(update) == 1
