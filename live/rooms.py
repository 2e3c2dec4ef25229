"""A live page's room in this process: what every live page (a table, its chat) keeps once a
process for all its sockets there, so that news crosses Redis once for each process that shows
the page, however many sockets it holds.

A room joins its group with a channel of its own, hears what this process sends the group at
once (live/broadcasts.py) as well as what comes through the layer, reads the layer again after
a failure, and joins the group again every ``REJOIN_SECONDS``: a membership lapses with the
group's expiry, and with a Redis restart. A kind of room says what its group is, what it does
with a message, and what more it runs; :class:`Crowd` keeps the rooms of one kind by key,
started with their first socket and stopped with their last.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from channels.layers import BaseChannelLayer

from . import broadcasts

log = logging.getLogger(__name__)

REJOIN_SECONDS = 60.0  # a membership lapses with the group's expiry, and with a Redis restart
RETRY_SECONDS = 0.5  # before reading the layer again after it failed


@dataclass(eq=False)
class Room:
    """One page's room in this process: ``table_id`` names the page (a table and its chat)."""

    table_id: int
    layer: BaseChannelLayer
    channel: str = ""
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _hear: Callable[[dict[str, Any]], object] = field(default=lambda message: None)

    kind: ClassVar[str] = "room"  # in the task names and the logs: "table 7 chat …"

    @property
    def group(self) -> str:
        raise NotImplementedError

    @property
    def members(self) -> set[Any]:
        """The sockets of this process in the room (whatever stands for one)."""
        raise NotImplementedError

    def take(self, message: dict[str, Any]) -> None:
        """What the room does with a message this process sent the group, on the loop."""
        raise NotImplementedError

    async def receive(self, message: dict[str, Any]) -> None:
        """What the room does with a message from the layer: as with one sent here."""
        self.take(message)

    def more_tasks(self) -> dict[str, Coroutine[Any, Any, None]]:
        """What else the room runs while it is open, by name, beside reading and rejoining."""
        return {}

    def stopping(self) -> list[asyncio.Task[None]]:
        """Before the room's tasks are cancelled: what more of its own to cancel with them."""
        return []

    def stopped(self) -> None:
        """Once the room's tasks have ended, before it leaves its group."""

    async def rejoined(self) -> None:
        """Once the room is in its group again, every ``REJOIN_SECONDS``."""

    async def start(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        loop = asyncio.get_running_loop()
        self._hear = lambda message: loop.call_soon_threadsafe(self.take, message)
        broadcasts.listen_here(self.group, self._hear)
        runs = {"listen": self._listen(), **self.more_tasks(), "rejoin": self._rejoin()}
        self.tasks = [
            asyncio.create_task(run, name=f"{self.kind}-{self.table_id}-{name}")
            for name, run in runs.items()
        ]

    async def stop(self) -> None:
        broadcasts.stop_listening_here(self.group, self._hear)
        tasks = [*self.tasks, *self.stopping()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.stopped()
        try:
            await self.layer.group_discard(self.group, self.channel)
        except Exception as error:  # the membership lapses with the group's expiry
            log.warning(
                "table %s %s could not leave its group: %r", self.table_id, self.kind, error
            )

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis down or restarting: try again shortly
                log.warning(
                    "table %s %s could not read its news: %r", self.table_id, self.kind, error
                )
                await asyncio.sleep(RETRY_SECONDS)
                continue
            await self.receive(message)

    async def _rejoin(self) -> None:
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            try:
                await self.layer.group_add(self.group, self.channel)
            except Exception as error:
                log.warning(
                    "table %s %s could not rejoin its group: %r", self.table_id, self.kind, error
                )
                continue
            await self.rejoined()


class Seen:
    """What a room has already pushed, by id, the latest ``kept`` of them: the process hears
    its own sends at once and again through Redis, and pushes each once."""

    def __init__(self, kept: int) -> None:
        self._ids: deque[Hashable] = deque(maxlen=kept)

    def first_time(self, key: Hashable) -> bool:
        """Whether ``key`` is new (it is remembered from now on)."""
        if key in self._ids:
            return False
        self._ids.append(key)
        return True

    def __contains__(self, key: object) -> bool:
        return key in self._ids


async def quietly(sending: Awaitable[None]) -> None:
    """Send to a socket that may have closed meanwhile: a lost push to a gone page is no
    error."""
    try:
        await sending
    except Exception as error:  # the socket closed meanwhile
        log.debug("a push to a closed socket: %r", error)


R = TypeVar("R", bound=Room)


class Crowd(Generic[R]):
    """The rooms of one kind in this process, by table, each started with its first socket
    and stopped with its last; kept by event loop (a test may run its sockets' loops apart).
    ``first`` runs before the process's first room of the kind starts."""

    def __init__(
        self, make: Callable[[int, BaseChannelLayer], R], first: Callable[[], object] = lambda: None
    ) -> None:
        self.make = make
        self.first = first
        self.by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, R]] = (
            weakref.WeakKeyDictionary()
        )
        self._guard: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    async def join(self, table_id: int, member: Any, layer: BaseChannelLayer) -> R:
        """The table's room in this process, started if ``member`` is its first."""
        loop = asyncio.get_running_loop()
        async with self._guard.setdefault(loop, asyncio.Lock()):
            rooms = self.by_loop.setdefault(loop, {})
            room = rooms.get(table_id)
            if room is None:
                if not rooms:
                    self.first()
                room = self.make(table_id, layer)
                await room.start()
                rooms[table_id] = room
            room.members.add(member)
            return room

    async def leave(self, table_id: int, member: Any) -> None:
        """``member``'s socket closed; the room stops with the table's last one here."""
        loop = asyncio.get_running_loop()
        async with self._guard.setdefault(loop, asyncio.Lock()):
            rooms = self.by_loop.get(loop, {})
            room = rooms.get(table_id)
            if room is None:
                return
            room.members.discard(member)
            if room.members:
                return
            del rooms[table_id]
            if not rooms:
                self.by_loop.pop(loop, None)
        await room.stop()
