"""A suspension or a ban closes every socket the person has open (code 4401) and ends their
running game as their resignation, which their table sees; a socket opened while its person is
banned has its moves refused with the reason; one the ban's close missed is closed at the
process's next look at its people's sanctions."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.utils import timezone

from games import services
from games.models import Game
from live import sockets as live_sockets
from moderation import sanctions
from moderation.models import Sanction
from tests.helpers.moderators import moderator
from tests.helpers.sockets import (
    TIMEOUT,
    flash_error,
    htmx_move,
    open_lobby_socket,
    open_table_socket,
    session_cookie,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _four_playing() -> tuple[Game, list[User], list[str]]:
    people = [User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    table = services.create_table(people[0])
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    game = services.start_game(table.pk, people[0])
    return game, people, [session_cookie(person) for person in people]


async def _until_closed(socket: WebsocketCommunicator) -> int:
    """Read what the socket is sent until it is closed; the close code."""
    while True:
        output: dict[str, Any] = await socket.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return int(output["code"])


async def test_a_ban_closes_the_persons_sockets_and_ends_their_game_as_a_resignation() -> None:
    game, people, cookies = await sync_to_async(_four_playing)()
    staff = await sync_to_async(moderator)()
    bobs_table, _ = await open_table_socket(game.table_id, cookies[1])
    bobs_lobby = await open_lobby_socket(cookies[1])
    alices_table, _ = await open_table_socket(game.table_id, cookies[0])

    await sync_to_async(sanctions.ban)(staff, people[1], reason="Cheating.")

    assert await _until_closed(bobs_table) == 4401
    assert await _until_closed(bobs_lobby) == 4401
    ended = await alices_table.receive_from(timeout=TIMEOUT)
    assert "resigned" in ended  # alice's table shows the game over, and why
    assert await alices_table.receive_nothing(timeout=0.3)  # and her socket stays open
    await sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.FINISHED
    assert game.result is not None and game.result["forfeited"] == 1
    await alices_table.disconnect()


async def test_a_suspension_leaves_other_peoples_sockets_open() -> None:
    _, people, cookies = await sync_to_async(_four_playing)()
    staff = await sync_to_async(moderator)()
    carols_lobby = await open_lobby_socket(cookies[2])

    until = timezone.now() + timedelta(days=1)
    await sync_to_async(sanctions.suspend)(staff, people[1], until=until, reason="Spam.")

    while not await carols_lobby.receive_nothing(timeout=0.3):
        output = await carols_lobby.receive_output(timeout=TIMEOUT)
        assert output["type"] == "websocket.send"  # the lobby's list: bob's game is over
    await carols_lobby.disconnect()


async def test_a_banned_persons_move_is_refused_with_the_reason_until_the_ban_is_lifted() -> None:
    game, people, cookies = await sync_to_async(_four_playing)()
    staff = await sync_to_async(moderator)()
    # Made directly, so that the game runs on: the socket's own look at the sanctions, as it
    # opens, refuses its moves.
    ban = await sync_to_async(Sanction.objects.create)(
        user=people[1], kind=Sanction.Kind.BAN, reason="Cheating.", staff=staff
    )
    socket, _ = await open_table_socket(game.table_id, cookies[1])

    await socket.send_to(text_data=json.dumps(htmx_move("resign")))

    reply = await socket.receive_from(timeout=TIMEOUT)
    assert flash_error(reply) == "Your account is banned: Cheating."
    # And again on the next move while the ban stands.
    await socket.send_to(text_data=json.dumps(htmx_move("resign")))
    reply = await socket.receive_from(timeout=TIMEOUT)
    assert flash_error(reply) == "Your account is banned: Cheating."
    await sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.PLAYING

    # Lifted while the socket stays open: its next move is looked at again, and made.
    await sync_to_async(Sanction.objects.filter(pk=ban.pk).update)(lifted_at=timezone.now())
    await socket.send_to(text_data=json.dumps(htmx_move("resign")))
    await socket.receive_from(timeout=TIMEOUT)
    await sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.FINISHED
    await socket.disconnect()


async def test_a_ban_that_missed_the_socket_closes_it_at_the_next_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A socket is not looked at again on its moves once it opened: the process looks at
    the sanctions of every person whose socket it holds, in one query, every
    ``KEPT_OUT_SECONDS``, and closes the sockets of those kept out."""
    monkeypatch.setattr(live_sockets, "KEPT_OUT_SECONDS", 0.3)
    game, people, cookies = await sync_to_async(_four_playing)()
    socket, _ = await open_table_socket(game.table_id, cookies[1])
    alices, _ = await open_table_socket(game.table_id, cookies[0])
    await socket.send_to(text_data=json.dumps(htmx_move("pass")))
    assert flash_error(await socket.receive_from(timeout=TIMEOUT))  # no cards: refused, seat kept
    staff = await sync_to_async(moderator)()
    await sync_to_async(Sanction.objects.create)(  # made directly: its message missed the socket
        user=people[1], kind=Sanction.Kind.BAN, reason="Cheating.", staff=staff
    )

    assert await _until_closed(socket) == 4401
    assert await alices.receive_nothing(timeout=0.5)  # alice's stays open
    await sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.PLAYING
    await alices.disconnect()
