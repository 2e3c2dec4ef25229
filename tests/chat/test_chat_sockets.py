"""Chat on the table's socket: alice, bob and carol play a three-player game; dave and erin
watch. Each room's messages reach the screens in that room and no other; refusals go to the
writer's socket alone and save nothing."""

from __future__ import annotations

import asyncio
import json
import re
from html import unescape

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from chat import services as chat
from chat.models import ChatMessage
from games import services
from tests.helpers.sockets import TIMEOUT, open_table_socket, session_cookie, table_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
NAMES = ("alice", "bob", "carol", "dave", "erin")


def _table_in_play() -> tuple[int, dict[str, str]]:
    alice, bob, carol, *_ = (User.objects.create_user(n) for n in NAMES)
    table = services.create_table(alice, preset="custom", players=3)
    services.take_seat(table.pk, bob, 1)
    services.take_seat(table.pk, carol, 2)
    services.start_game(table.pk, alice)
    return table.pk, {u.username: session_cookie(u) for u in User.objects.all()}


async def _everyone(table_id: int, cookies: dict[str, str]) -> dict[str, WebsocketCommunicator]:
    sockets = {}
    for name in NAMES:
        sockets[name], _ = await open_table_socket(table_id, cookies[name])
    await _drain(sockets.values())
    return sockets


async def _drain(sockets, seconds: float = 0.3) -> None:
    for socket in sockets:
        while not await socket.receive_nothing(timeout=seconds):
            await socket.receive_from()


async def _said(socket: WebsocketCommunicator, seconds: float = 0.5) -> list[str]:
    """The texts of the chat messages pushed to ``socket`` within ``seconds``."""
    texts = []
    while not await socket.receive_nothing(timeout=seconds):
        frame = await socket.receive_from()
        texts += [unescape(t) for t in re.findall(r'<span class="chat-text">(.*?)</span>', frame, re.S)]
    return texts


async def _error(socket: WebsocketCommunicator) -> str:
    frame = await socket.receive_from(timeout=TIMEOUT)
    found = re.search(r'<p id="chat-error"[^>]*>(.*?)</p>', frame, re.S)
    assert found, frame
    return unescape(found.group(1))


def _say(text: str, room: str, **more) -> str:
    return json.dumps({"chat": text, "room": room, "HEADERS": {"HX-Request": "true"}, **more})


async def _close(sockets) -> None:
    for socket in sockets.values():
        await socket.disconnect()


async def test_each_room_is_heard_only_by_the_screens_in_it() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    await sockets["alice"].send_to(text_data=_say("Good luck", "players"))
    await sockets["dave"].send_to(text_data=_say("Alice will win", "spectators"))
    heard = {name: await _said(socket) for name, socket in sockets.items()}
    assert heard == {
        "alice": ["Good luck"],
        "bob": ["Good luck"],
        "carol": ["Good luck"],
        "dave": ["Alice will win"],
        "erin": ["Alice will win"],
    }
    await _close(sockets)
