"""One relay a table a process: what the process's sockets at a table are sent, worked out once.

A daphne process that has sockets at a table joins the table's group once, with a channel of
the table's relay, not once for each socket: a move's news then crosses Redis once for each
process that shows the table, instead of once for each screen. The relay's one task takes the
table's news and its sockets' own requests (the whole table on connecting, after a refused
move) in the order they come, so the table is served by one serial writer in each process; the
news that has piled up while a push was being made is taken together. News sent by this very
process (a move made on one of its sockets) reaches the relay at once, not through Redis
(games/broadcasts.py). For all of them it loads
the table's state once and renders every socket's fragments in one job of the pool
(games/live.py), then sends each socket its own.

A socket's screen is described by what :class:`Screen` keeps: the (game, version) it shows and
the keys of its fragments. A message of a version the screen shows already is skipped; after a
gap, every fragment that differs from the screen is pushed.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from channels.layers import BaseChannelLayer

from . import broadcasts, live
from .effects import table_group
from .live import in_pool
from .selectors import Viewer

log = logging.getLogger(__name__)

# How often a relay joins its group again: a membership lapses after the layer's group expiry,
# and a Redis server that restarted has forgotten them all.
REJOIN_SECONDS = 60.0
RETRY_SECONDS = 0.5  # after the layer failed to deliver


@dataclass(eq=False)
class Screen:
    """What a socket's screen shows, and how to send to it."""

    user: Viewer
    code: str
    csrf: str
    send: Callable[[str], Awaitable[None]]
    close: Callable[[int], Awaitable[None]]
    shown: tuple[int, int] | None = None  # (game, version)
    keys: live.Keys | None = None  # what each fragment shows; None: nothing known


@dataclass(eq=False)
class _Request:
    """A socket's own push: the whole table (``showing``: what a reconnecting screen says it
    shows), resolved once sent."""

    screen: Screen
    showing: tuple[int, int] | None
    done: asyncio.Future[None]


@dataclass(eq=False)
class Relay:
    table_id: int
    layer: BaseChannelLayer
    screens: set[Screen] = field(default_factory=set)
    channel: str = ""
    inbox: asyncio.Queue[dict[str, Any] | _Request] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _hear: Callable[[dict[str, Any]], object] = field(default=lambda message: None)

    @property
    def group(self) -> str:
        return table_group(self.table_id)

    async def start(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        loop = asyncio.get_running_loop()
        self._hear = lambda message: loop.call_soon_threadsafe(self.inbox.put_nowait, message)
        broadcasts.listen_here(self.group, self._hear)
        self.tasks = [
            asyncio.create_task(self._listen(), name=f"relay-{self.table_id}-listen"),
            asyncio.create_task(self._serve(), name=f"relay-{self.table_id}-serve"),
            asyncio.create_task(self._rejoin(), name=f"relay-{self.table_id}-rejoin"),
        ]

    async def stop(self) -> None:
        broadcasts.stop_listening_here(self.group, self._hear)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if isinstance(item, _Request) and not item.done.done():
                item.done.set_result(None)
        try:
            await self.layer.group_discard(self.group, self.channel)
        except Exception as error:  # the membership lapses with the group's expiry
            log.warning("table %s relay could not leave its group: %r", self.table_id, error)

    async def request(self, screen: Screen, showing: tuple[int, int] | None = None) -> None:
        """Push the whole table to ``screen`` (nothing, if it shows ``showing`` and that is
        the latest), in turn with the table's news."""
        done = asyncio.get_running_loop().create_future()
        await self.inbox.put(_Request(screen, showing, done))
        await done

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis down or restarting: try again shortly
                log.warning("table %s relay could not read its news: %r", self.table_id, error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if message.get("type") == "table.updated":
                await self.inbox.put(message)

    async def _rejoin(self) -> None:
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            try:
                await self.layer.group_add(self.group, self.channel)
            except Exception as error:
                log.warning("table %s relay could not rejoin its group: %r", self.table_id, error)

    async def _serve(self) -> None:
        while True:
            batch = [await self.inbox.get()]
            while not self.inbox.empty():
                batch.append(self.inbox.get_nowait())
            try:
                await self._push(batch)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad push must not stop the table's news
                log.exception("table %s relay failed to push", self.table_id)
            finally:
                for item in batch:
                    if isinstance(item, _Request) and not item.done.done():
                        item.done.set_result(None)

    async def _push(self, batch: list[dict[str, Any] | _Request]) -> None:
        news = [item for item in batch if isinstance(item, dict)]
        requests = [item for item in batch if isinstance(item, _Request)]
        # The news's latest (game, version), or None: seats taken or left (no version), or
        # only requests, either of which wants the table as it is now.
        seating = any(message.get("version") is None for message in news)
        latest = None if seating or not news else max(map(_shown_by, news))
        targets = _targets(self.screens, news, latest, requests)
        if not targets:
            return
        at_least = None if requests else latest
        # A move made in this process left the game row and match in memory (games/effects.py).
        made = next((m["made"] for m in news if "made" in m and _shown_by(m) == latest), None)
        state, pushes = await in_pool(_render_all)(self.table_id, at_least, targets, made)
        for (screen, _, _), push in zip(targets, pushes, strict=True):
            if state is None:  # the table is gone
                await _quietly(screen.close(4404))
                continue
            assert push is not None
            if screen not in self.screens:
                continue  # closed meanwhile
            screen.shown, screen.keys = push.shown, push.keys
            if push.html:
                await _quietly(screen.send(push.html))


def _shown_by(message: dict[str, Any]) -> tuple[int, int]:
    return (int(message["game"]), int(message["version"]))


def _targets(
    screens: set[Screen],
    news: list[dict[str, Any]],
    latest: tuple[int, int] | None,
    requests: list[_Request],
) -> list[tuple[Screen, live.Keys | None, tuple[int, int] | None]]:
    """Each screen that needs a push, with the keys to render against (None: the whole table)
    and what a reconnecting screen says it shows."""
    targets: dict[Screen, tuple[live.Keys | None, tuple[int, int] | None]] = {}
    if news:
        for screen in screens:
            if latest is None:  # seats taken or left: the whole table again
                targets[screen] = (None, None)
            elif screen.shown is None or screen.shown[0] != latest[0]:
                targets[screen] = (None, None)  # nothing shown yet, or another game
            elif screen.shown[1] < latest[1]:
                targets[screen] = (screen.keys, None)
    for request in requests:
        targets[request.screen] = (None, request.showing)
    return [(screen, keys, showing) for screen, (keys, showing) in targets.items()]


def _render_all(
    table_id: int,
    at_least: tuple[int, int] | None,
    jobs: list[tuple[Screen, live.Keys | None, tuple[int, int] | None]],
    made: live.Made | None = None,
) -> tuple[live.TableState | None, list[live.Push | None]]:
    """In a pool thread: the table's state loaded once (or taken from the move that ``made``
    it), and each screen's push from it."""
    state = live.state_for(table_id, at_least, made)
    if state is None:
        return None, [None] * len(jobs)
    pushes: list[live.Push | None] = []
    for screen, keys, showing in jobs:
        if keys is not None and screen.shown == state.shown:
            pushes.append(live.Push("", screen.shown, keys))  # nothing new for this screen
            continue
        pushes.append(
            live.render(
                state,
                screen.user,
                code=screen.code,
                csrf_token=screen.csrf,
                keys=keys,
                showing=showing,
            )
        )
    return state, pushes


async def _quietly(sending: Awaitable[None]) -> None:
    try:
        await sending
    except Exception as error:  # the socket closed meanwhile
        log.debug("a push to a closed socket: %r", error)


# The relays of this process, by event loop (a test may run each of its sockets' loops apart).
_relays: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, Relay]] = (
    weakref.WeakKeyDictionary()
)
_guard: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


async def join(table_id: int, screen: Screen, layer: BaseChannelLayer) -> Relay:
    """The table's relay in this process, started if ``screen`` is its first."""
    loop = asyncio.get_running_loop()
    async with _guard.setdefault(loop, asyncio.Lock()):
        relays = _relays.setdefault(loop, {})
        relay = relays.get(table_id)
        if relay is None:
            relay = Relay(table_id, layer)
            await relay.start()
            relays[table_id] = relay
        relay.screens.add(screen)
        return relay


async def leave(table_id: int, screen: Screen) -> None:
    """``screen`` is closed; the relay stops with its table's last screen in this process."""
    loop = asyncio.get_running_loop()
    async with _guard.setdefault(loop, asyncio.Lock()):
        relays = _relays.get(loop, {})
        relay = relays.get(table_id)
        if relay is None:
            return
        relay.screens.discard(screen)
        if relay.screens:
            return
        del relays[table_id]
        if not relays:
            _relays.pop(loop, None)
    await relay.stop()
