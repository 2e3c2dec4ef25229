"""Chat on the table's socket: alice, bob and carol play a three-player game; dave and erin
watch. Each room's messages reach the screens in that room and no other; refusals go to the
writer's socket alone and save nothing."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from chat import services as chat
from chat import sockets as sockets_module
from chat.models import ChatMessage
from games import services
from games.models import Game
from live import relays
from tests.helpers.moderators import with_two_factor
from tests.helpers.sockets import (
    TIMEOUT,
    htmx_move,
    open_table_socket,
    session_cookie,
    socket_at,
)

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
        texts += [
            unescape(t) for t in re.findall(r'<span class="chat-text">(.*?)</span>', frame, re.S)
        ]
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
    heard = {name: await _said(socket) for name, socket in sockets.items()}
    await sockets["dave"].send_to(text_data=_say("Alice will win", "spectators"))
    for name, socket in sockets.items():
        heard[name] += await _said(socket)
    assert heard == {
        "alice": ["Good luck"],
        "bob": ["Good luck"],
        "carol": ["Good luck"],
        "dave": ["Alice will win"],
        "erin": ["Alice will win"],
    }
    await _close(sockets)


async def test_a_forged_room_a_stranger_field_or_another_table_is_refused_and_saves_nothing() -> (
    None
):
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    dave, alice = sockets["dave"], sockets["alice"]
    await dave.send_to(text_data=_say("psst: bob holds the queen", "players"))
    assert "Only the players write in the players' chat" in await _error(dave)
    await alice.send_to(text_data=_say("hi", "spectators"))
    assert "write in the players' chat" in await _error(alice)
    await alice.send_to(text_data=_say("hi", "players", author="bob"))
    assert "A chat message has no field “author”" in await _error(alice)
    await alice.send_to(text_data=_say("hi", "players", table=table_id + 1))
    assert "This socket is for another table" in await _error(alice)
    await alice.send_to(text_data=_say("hi", "kitchen"))
    assert "There is no such chat room" in await _error(alice)
    await alice.send_to(text_data=json.dumps({"chat": ["hi"], "room": "players"}))
    assert "A chat message is text" in await _error(alice)
    # A frame over the socket's limit, and one that is not JSON, are refused unread.
    await alice.send_to(text_data=_say("x" * 5000, "players"))
    assert "That message is too long or not text" in await alice.receive_from(timeout=TIMEOUT)
    await alice.send_to(text_data='{"chat": "hi", "room": "players"')
    assert "That message is not JSON" in await alice.receive_from(timeout=TIMEOUT)
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    assert all([await _said(s, 0.2) == [] for s in sockets.values()])
    await _close(sockets)


async def test_a_watcher_who_is_not_signed_in_reads_the_spectators_but_cannot_write() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    anonymous, _ = await open_table_socket(table_id)
    await _drain([anonymous])
    await anonymous.send_to(text_data=_say("hello", "spectators"))
    assert await _error(anonymous) == "Sign in to chat"
    await sockets["erin"].send_to(text_data=_say("nice lead", "spectators"))
    assert await _said(anonymous) == ["nice lead"]
    writers = await database_sync_to_async(
        lambda: list(ChatMessage.objects.values_list("author__username", flat=True))
    )()
    assert writers == ["erin"]
    await anonymous.disconnect()
    await _close(sockets)


async def test_a_long_message_is_refused_with_its_length_and_a_script_is_only_text() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    bob = sockets["bob"]
    await bob.send_to(text_data=_say("x" * 600, "players"))
    assert await _error(bob) == "A message is at most 500 characters: this one has 600"
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    await bob.send_to(text_data=_say("<script>alert(1)</script>\n<b>bold</b>", "players"))
    frame = await sockets["carol"].receive_from(timeout=TIMEOUT)
    assert "<script>" not in frame and "<b>" not in frame
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\n&lt;b&gt;bold&lt;/b&gt;" in frame
    await _drain(sockets.values())
    await asyncio.sleep(1.05)  # one message a second
    await bob.send_to(text_data=_say("y" * 500, "players"))
    assert await _said(sockets["alice"]) == ["y" * 500]
    await _close(sockets)


async def test_a_second_message_within_a_second_is_refused_and_so_is_a_sixth_in_ten(
    settings,
) -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    carol = sockets["carol"]
    await carol.send_to(text_data=_say("one", "players"))
    await carol.send_to(text_data=_say("two", "players"))
    texts, frames = [], []
    while not await carol.receive_nothing(timeout=0.5):
        frames.append(await carol.receive_from())
    assert any("One message a second: wait a moment" in unescape(f) for f in frames)
    assert await _said(sockets["alice"]) == ["one"]
    settings.HEARTS_CHAT_GAP = 0.0
    for n in range(2, 7):
        await carol.send_to(text_data=_say(f"message {n}", "players"))
        await asyncio.sleep(0.05)
    frames = []
    while not await carol.receive_nothing(timeout=0.5):
        frames.append(unescape(await carol.receive_from()))
    assert any("At most 5 messages in 10 seconds" in f for f in frames)
    texts = await database_sync_to_async(
        lambda: list(ChatMessage.objects.values_list("text", flat=True))
    )()
    assert texts == ["one", "message 2", "message 3", "message 4", "message 5"]
    await _close(sockets)


async def test_a_muted_person_is_not_heard_by_the_muter_at_once_but_is_by_everyone_else() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)

    def alice_mutes_bob() -> None:
        chat.mute(User.objects.get(username="alice"), User.objects.get(username="bob"))

    await database_sync_to_async(alice_mutes_bob)()
    box = await sockets["alice"].receive_from(timeout=TIMEOUT)  # her box, as it now is
    assert 'id="chat"' in box
    await sockets["bob"].send_to(text_data=_say("you play badly", "players"))
    assert await _said(sockets["alice"]) == []
    assert await _said(sockets["carol"]) == ["you play badly"]
    await _close(sockets)


async def test_a_blocked_person_is_not_heard_by_the_blocker_from_the_block_on() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)

    def alice_blocks_bob_on_his_profile() -> None:
        alice = Client()
        alice.force_login(User.objects.get(username="alice"))
        alice.post(reverse("block", args=["bob"]), {"action": "block"})

    await database_sync_to_async(alice_blocks_bob_on_his_profile)()
    box = await sockets["alice"].receive_from(timeout=TIMEOUT)  # her box, as it now is
    assert 'id="chat"' in box
    await sockets["bob"].send_to(text_data=_say("you play badly", "players"))
    assert await _said(sockets["alice"]) == []
    assert await _said(sockets["carol"]) == ["you play badly"]
    await _close(sockets)


async def test_a_chat_banned_person_is_refused_with_the_reason_and_their_words_stay() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    await sockets["bob"].send_to(text_data=_say("first words", "players"))
    assert await _said(sockets["alice"]) == ["first words"]
    await _drain(sockets.values())

    def ban_bob() -> None:
        from moderation import sanctions

        staff = with_two_factor(User.objects.create_superuser("staffer"))
        bob = User.objects.get(username="bob")
        sanctions.chat_ban(staff, bob, reason="Insults at the table.")

    await database_sync_to_async(ban_bob)()
    await asyncio.sleep(1.05)
    await sockets["bob"].send_to(text_data=_say("more words", "players"))
    assert await _error(sockets["bob"]) == "You are banned from chat: Insults at the table."
    assert await _said(sockets["alice"]) == []
    texts = await database_sync_to_async(
        lambda: list(ChatMessage.objects.values_list("text", flat=True))
    )()
    assert texts == ["first words"]
    await _close(sockets)


async def test_with_chat_off_nothing_arrives_and_writing_is_refused() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    await database_sync_to_async(
        lambda: chat.turn_chat(User.objects.get(username="carol"), on=False)
    )()
    box = await sockets["carol"].receive_from(timeout=TIMEOUT)
    assert "Chat is off" in box
    await sockets["alice"].send_to(text_data=_say("anyone?", "players"))
    assert await _said(sockets["carol"]) == []
    assert await _said(sockets["bob"]) == ["anyone?"]
    await sockets["carol"].send_to(text_data=_say("me", "players"))
    assert await _error(sockets["carol"]) == "Your chat is off: turn it on to write"
    await _close(sockets)


async def test_a_socket_that_reconnects_is_sent_the_messages_it_missed_in_its_rooms() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    await sockets["alice"].send_to(text_data=_say("before", "players"))
    await _drain(sockets.values())
    first = await database_sync_to_async(lambda: ChatMessage.objects.get().pk)()
    await sockets["bob"].disconnect()
    await sockets["carol"].send_to(text_data=_say("while bob was away", "players"))
    await sockets["dave"].send_to(text_data=_say("spectators only", "spectators"))
    await _drain(sockets.values())
    bob = socket_at(f"/ws/table/{table_id}/?chat={first}", cookies["bob"])
    connected, _ = await bob.connect(timeout=TIMEOUT)
    assert connected
    missed = await _said(bob, 1.0)
    assert "while bob was away" in missed
    assert "before" not in missed and "spectators only" not in missed
    await bob.disconnect()
    del sockets["bob"]
    await _close(sockets)


class Page:
    """A table page's chat as htmx makes it of what it was served and then pushed: the rooms
    its box shows, each with its messages' texts. A message pushed for a room the page does
    not show is lost, as htmx drops an out-of-band swap whose target is not there."""

    BOX = re.compile(r'<aside id="chat".*?</aside>', re.S)
    LOG = re.compile(r'<ol class="chat-log" id="chat-log-(\w+)"[^>]*>(.*?)</ol>', re.S)
    SAID = re.compile(r'<ol hx-swap-oob="beforeend:#chat-log-(\w+)">(.*?)</ol>', re.S)
    TEXT = re.compile(r'<span class="chat-text">(.*?)</span>', re.S)

    def __init__(self, html: str) -> None:
        self.rooms: dict[str, list[str]] = {}
        self.take(html)

    def take(self, html: str) -> None:
        if box := self.BOX.search(html):
            self.rooms = {
                room: [unescape(t) for t in self.TEXT.findall(said)]
                for room, said in self.LOG.findall(box.group(0))
            }
        for room, said in self.SAID.findall(html):
            if room in self.rooms:
                self.rooms[room] += [unescape(t) for t in self.TEXT.findall(said)]

    async def follow(
        self,
        socket: WebsocketCommunicator,
        seconds: float = 0.5,
        until: Callable[[], bool] | None = None,
    ) -> None:
        """Take every frame ``socket`` is pushed until it is quiet for ``seconds``, or, given
        ``until``, until that holds (at most 10 s: a busy machine may be slower than
        ``seconds`` between two frames)."""
        if until is None:
            while not await socket.receive_nothing(timeout=seconds):
                self.take(await socket.receive_from())
            return
        deadline = asyncio.get_running_loop().time() + 10
        while not until() and asyncio.get_running_loop().time() < deadline:
            if not await socket.receive_nothing(timeout=seconds):
                self.take(await socket.receive_from())


def _page(table_id: int, name: str) -> str:
    client = Client()
    client.force_login(User.objects.get(username=name))
    return client.get(reverse("table", args=[table_id])).content.decode()


@pytest.mark.parametrize("ended", ["on her socket", "elsewhere"])
async def test_the_spectators_messages_reach_a_players_page_as_soon_as_the_game_is_over(
    settings, ended: str
) -> None:
    settings.HEARTS_CHAT_GAP = 0.0
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    # bob's page was served while the game ran: the players' chat alone.
    bob = Page(await database_sync_to_async(_page)(table_id, "bob"))
    assert list(bob.rooms) == ["players"]
    sockets = await _everyone(table_id, cookies)
    game = await database_sync_to_async(lambda: Game.objects.get(table_id=table_id))()

    # alice resigns: through the table's relay here, or where the table hears of it as news
    # (another process, the deadline's worker).
    if ended == "on her socket":
        await sockets["alice"].send_json_to(htmx_move("resign", version=game.version))
    else:
        await database_sync_to_async(services.resign)(game.pk, 0)
    await bob.follow(sockets["bob"])
    await _drain(sockets.values())
    for n in range(3):
        for name in ("dave", "erin"):
            await sockets[name].send_to(text_data=_say(f"{name} {n}", "spectators"))
    spoken = [f"{name} {n}" for n in range(3) for name in ("dave", "erin")]
    await bob.follow(
        sockets["bob"], until=lambda: sorted(bob.rooms.get("spectators", [])) == sorted(spoken)
    )
    assert sorted(bob.rooms["spectators"]) == sorted(spoken)
    await _close(sockets)


async def test_a_players_page_served_during_the_game_opens_the_spectators_room_on_reconnecting(
    settings,
) -> None:
    settings.HEARTS_CHAT_GAP = 0.0
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    bob = Page(await database_sync_to_async(_page)(table_id, "bob"))
    sockets = await _everyone(table_id, cookies)
    await sockets["bob"].disconnect()
    del sockets["bob"]
    # While bob's socket is away, the game ends and the spectators speak.
    game = await database_sync_to_async(lambda: Game.objects.get(table_id=table_id))()
    await database_sync_to_async(services.resign)(game.pk, 0)
    await _drain(sockets.values())
    await sockets["dave"].send_to(text_data=_say("well played", "spectators"))
    await _drain(sockets.values())

    socket = socket_at(f"/ws/table/{table_id}/?chat=0", cookies["bob"])
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    await bob.follow(socket)

    assert bob.rooms["spectators"] == ["well played"]
    await socket.disconnect()
    await _close(sockets)


async def test_messages_said_while_a_players_box_is_sent_again_are_each_shown_once(
    settings, monkeypatch
) -> None:
    settings.HEARTS_CHAT_GAP = 0.0
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    bob = Page(await database_sync_to_async(_page)(table_id, "bob"))
    sockets = await _everyone(table_id, cookies)
    game = await database_sync_to_async(lambda: Game.objects.get(table_id=table_id))()
    dave, erin = await database_sync_to_async(
        lambda: (User.objects.get(username="dave"), User.objects.get(username="erin"))
    )()
    box_context = sockets_module.selectors.box_context

    def said_around(table_id: int, user: User, *args: Any) -> dict[str, Any]:
        # One message said just before bob's box is read (it is in the box, and pushed
        # too), one just after (pushed, not in the box): each reaches his page once.
        if user.username != "bob":
            return box_context(table_id, user, *args)
        chat.say(dave, table_id, game.pk, "spectators", "before the box")
        context = box_context(table_id, user, *args)
        chat.say(erin, table_id, game.pk, "spectators", "after the box")
        return context

    monkeypatch.setattr(sockets_module.selectors, "box_context", said_around)
    await sockets["alice"].send_json_to(htmx_move("resign", version=game.version))
    await bob.follow(sockets["bob"])

    assert sorted(bob.rooms["spectators"]) == ["after the box", "before the box"]
    await _close(sockets)


async def test_a_player_is_not_taken_for_a_spectator_while_the_table_is_loaded_again() -> None:
    table_id, cookies = await database_sync_to_async(_table_in_play)()
    sockets = await _everyone(table_id, cookies)
    # The table's relay dropped the table after a fault, to load it again with its next news.
    relay = relays._relays[asyncio.get_running_loop()][table_id]
    relay.state = None

    await sockets["dave"].send_to(text_data=_say("Alice holds the queen", "spectators"))
    await sockets["alice"].send_to(text_data=_say("Good luck", "players"))

    heard = {name: await _said(socket) for name, socket in sockets.items()}
    assert heard["alice"] == heard["bob"] == ["Good luck"]
    assert heard["dave"] == heard["erin"] == ["Alice holds the queen"]
    await _close(sockets)
