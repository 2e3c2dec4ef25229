"""A live page's room in a process (live/rooms.py): what the table's relay and the chat's hub
share. A kind of room made here, a board that notes what it hears, stands for any page."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
from channels.layers import get_channel_layer

from live import broadcasts, rooms
from live.rooms import Crowd, Room, Seen, quietly

pytestmark = pytest.mark.asyncio


@dataclass(eq=False)
class Board(Room):
    sockets: set[str] = field(default_factory=set)
    heard: list[int] = field(default_factory=list)
    seen: Seen = field(default_factory=lambda: Seen(8))

    kind: ClassVar[str] = "board"

    @property
    def group(self) -> str:
        return f"board-{self.table_id}"

    @property
    def members(self) -> set[str]:
        return self.sockets

    def take(self, message: dict[str, Any]) -> None:
        if self.seen.first_time(message["id"]):
            self.heard.append(message["id"])


async def _until(check: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)


async def test_news_sent_from_this_process_is_heard_at_once_and_pushed_once() -> None:
    board = Board(1, get_channel_layer())
    await board.start()
    try:
        broadcasts.serve_from(asyncio.get_running_loop())
        broadcasts.send({board.group: {"type": "board.news", "id": 7}})
        await asyncio.sleep(0)  # heard here at once, before Redis brings it back
        assert board.heard == [7]
        await asyncio.sleep(0.5)  # and again through Redis: not pushed twice
        assert board.heard == [7]
    finally:
        await board.stop()


async def test_news_from_another_process_reaches_the_room() -> None:
    layer = get_channel_layer()
    board = Board(2, layer)
    await board.start()
    try:
        await layer.group_send(board.group, {"type": "board.news", "id": 3})
        await _until(lambda: board.heard)
        assert board.heard == [3]
    finally:
        await board.stop()


async def test_a_room_that_redis_forgot_joins_its_group_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rooms, "REJOIN_SECONDS", 0.1)
    layer = get_channel_layer()
    board = Board(3, layer)
    await board.start()
    try:
        await layer.group_discard(board.group, board.channel)  # as after a Redis restart
        await asyncio.sleep(0.5)
        await layer.group_send(board.group, {"type": "board.news", "id": 5})
        await _until(lambda: board.heard)
        assert board.heard == [5]
    finally:
        await board.stop()


async def test_a_tables_room_starts_with_its_first_socket_and_stops_with_its_last() -> None:
    firsts: list[bool] = []
    crowd: Crowd[Board] = Crowd(Board, first=lambda: firsts.append(True))
    layer = get_channel_layer()
    room = await crowd.join(4, "alice", layer)
    assert await crowd.join(4, "bob", layer) is room  # one room for the table's sockets
    await crowd.leave(4, "alice")
    assert not any(task.done() for task in room.tasks)  # bob is still there
    await crowd.leave(4, "bob")
    assert all(task.done() for task in room.tasks)
    again = await crowd.join(4, "carol", layer)
    assert again is not room
    await crowd.leave(4, "carol")
    assert firsts == [True, True]  # before the process's first room, each time it had none


async def test_a_push_to_a_socket_that_closed_meanwhile_is_no_error() -> None:
    async def closed() -> None:
        raise RuntimeError("the socket closed")

    await quietly(closed())
