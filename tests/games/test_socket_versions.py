"""A table socket knows which version its screen shows: the next version gets only the
fragments that changed, a version it has is skipped, a gap gets the whole table, and a socket
that reconnects gets what it missed (or nothing, if it missed nothing). After a gap the socket
pushes whatever differs from what the screen shows."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from games import services
from games.engine import Phase
from games.models import Game
from live import broadcasts
from tests.helpers.screens import Fragments, board_fragments, steady
from tests.helpers.sockets import (
    LOCAL_HOST,
    LOCAL_ORIGIN,
    TIMEOUT,
    data_cards,
    open_table_socket,
    session_cookie,
    version_of,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

WHOLE = 'id="live-table"'


def _four_people() -> tuple[Game, list[str]]:
    people = [User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    table = services.create_table(people[0])
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    game = services.start_game(table.pk, people[0])
    return game, [session_cookie(person) for person in people]


def _move(game_id: int) -> None:
    """The next move the game waits for: a seat's pass, or the turn's lowest legal card."""
    game = Game.objects.get(pk=game_id)
    match = game.live_match()
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        cards = [str(card) for card in hand.holding(seat)[:3]]
        services.act(game_id, seat, "pass", version=game.version, cards=cards)
    else:
        card = str(hand.legal_plays(hand.turn)[0])
        services.act(game_id, hand.turn, "play", version=game.version, cards=[card])


async def _tell(game: Game, version: int) -> None:
    """The table's group hears of ``version`` again, as a late or repeated message."""
    layer = get_channel_layer()
    assert layer is not None
    message = {"type": "table.updated", "game": game.pk, "version": version, "events": []}
    await layer.group_send(services.table_group(game.table_id), message)


def _socket(game: Game, cookie: str, shown: str) -> WebsocketCommunicator:
    headers = [(b"host", LOCAL_HOST), (b"origin", LOCAL_ORIGIN), (b"cookie", cookie.encode())]
    path = f"/ws/table/{game.table_id}/?shown={shown}"
    return WebsocketCommunicator(_application(), path, headers=headers)


def _application() -> Any:
    from hearts_site.asgi import application

    return application


async def test_the_next_version_pushes_only_what_changed_and_one_it_has_is_skipped() -> None:
    game, cookies = await sync_to_async(_four_people)()
    socket, whole = await open_table_socket(game.table_id, cookies[0])
    assert WHOLE in whole and version_of(whole) == 0

    await sync_to_async(_move)(game.pk)  # the first pass, by alice: seat 0
    push = await socket.receive_from(timeout=TIMEOUT)

    assert WHOLE not in push and version_of(push) == 1
    assert 'id="my-hand"' in push and data_cards(push)  # her own pass changed her hand
    await _tell(game, 1)
    await _tell(game, 0)
    assert await socket.receive_nothing(timeout=0.5)
    await sync_to_async(_move)(game.pk)  # bob's pass: alice's hand does not change
    push = await socket.receive_from(timeout=TIMEOUT)
    assert version_of(push) == 2 and 'id="my-hand"' not in push
    assert len(push) < len(whole) / 3
    await socket.disconnect()


async def test_after_a_missed_version_the_screen_shows_the_whole_table_as_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, cookies = await sync_to_async(_four_people)()
    socket, whole = await open_table_socket(game.table_id, cookies[1])
    screen = board_fragments(whole)
    monkeypatch.setattr(broadcasts, "send", lambda messages, here=None: None)  # two moves lost
    await sync_to_async(_move)(game.pk)
    await sync_to_async(_move)(game.pk)  # bob's own pass, among them
    monkeypatch.undo()

    await sync_to_async(_move)(game.pk)  # the socket hears of version 3, and shows 0
    push = await socket.receive_from(timeout=TIMEOUT)

    assert version_of(push) == 3
    screen.update(Fragments(push).found)
    fresh, now = await open_table_socket(game.table_id, cookies[1])
    assert steady(screen) == steady(board_fragments(now))
    for each in (socket, fresh):
        await each.disconnect()


async def test_a_socket_that_reconnects_gets_what_it_missed_or_nothing() -> None:
    game, cookies = await sync_to_async(_four_people)()
    await sync_to_async(_move)(game.pk)

    current = _socket(game, cookies[2], f"{game.pk}.1")
    connected, _ = await current.connect(timeout=TIMEOUT)
    assert connected
    assert await current.receive_nothing(timeout=0.5)  # its screen shows version 1 already
    await sync_to_async(_move)(game.pk)
    push = await current.receive_from(timeout=TIMEOUT)
    assert WHOLE not in push and version_of(push) == 2  # and it takes the next one from there

    behind = _socket(game, cookies[3], f"{game.pk}.0")
    connected, _ = await behind.connect(timeout=TIMEOUT)
    assert connected
    caught_up = await behind.receive_from(timeout=TIMEOUT)
    assert WHOLE in caught_up and version_of(caught_up) == 2

    other_game = _socket(game, cookies[3], f"{game.pk + 1}.2")
    connected, _ = await other_game.connect(timeout=TIMEOUT)
    assert connected
    assert WHOLE in await other_game.receive_from(timeout=TIMEOUT)
    for socket in (current, behind, other_game):
        await socket.disconnect()
