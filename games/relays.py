"""One relay a table a process: the table's state in memory, its moves, and its screens' pushes.

A daphne process with sockets at a table keeps one relay for it. The relay holds the table's
state (games/live.py) and is the one serial writer of the table in the process: its one task
takes, in the order they come, the moves of its sockets, their own requests (the whole table on
connecting, after a refused move) and the news of other processes (a bot's move from a worker,
the clock's sweep, seats taken, a move on another daphne), the news that piled up meanwhile
taken together.

A move from one of its sockets is judged against the state in memory and written in one round
trip (games/services.py, :func:`services.act`); once it is in the database, the relay renders
what changed once for the table (the fragments for everyone) and once for each seat whose own
fragments changed (games/fragments.py), pushes each screen one frame, and sends the table's
group one message for the other processes: the move's public events and version, with the
fragments for everyone that changed, never a hand. A process whose only screens at the table are
spectators' forwards those fragments as they are; one with players there loads the game from the
database and renders. The relay joins the table's group once, with a channel of its own, so that
a move crosses Redis once for each process that shows the table.

A socket's screen is described by what :class:`Screen` keeps: the (game, version) it shows and
the keys of its fragments. After a gap, every fragment that differs from the screen is pushed.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from channels.layers import BaseChannelLayer
from django.template.loader import render_to_string

from games.engine import EndReason, HeartsError, Move, MoveKind, parse_cards
from moderation import gates

from . import broadcasts, effects, live, selectors, services
from .effects import table_group
from .fragments import Keys
from .live import TableState, in_pool
from .selectors import Viewer

log = logging.getLogger(__name__)

# How often a relay joins its group again: a membership lapses after the layer's group expiry,
# and a Redis server that restarted has forgotten them all.
REJOIN_SECONDS = 60.0
RETRY_SECONDS = 0.5  # after the layer failed to deliver
# How long a socket's moves go without looking at its person's sanctions again. A suspension
# or a ban ends the person's games at once and closes their sockets (moderation/sanctions.py),
# so a move kept from before one is refused anyway; the look gives the sanction's own reason.
SANCTIONS_KEPT_SECONDS = 30.0
# The moves whose news carries the move itself, for the other processes holding the table's
# players to follow without loading the game: those everyone sees. A pass's cards are hidden.
PUBLIC_MOVES = (MoveKind.PLAY, MoveKind.MOON)


@dataclass(eq=False)
class Screen:
    """What a socket's screen shows, and how to send to it."""

    user: Viewer
    code: str
    csrf: str
    send: Callable[[str], Awaitable[None]]
    close: Callable[[int], Awaitable[None]]
    shown: tuple[int, int] | None = None  # (game, version)
    keys: Keys | None = None  # what each fragment shows; None: nothing known
    checked: float = float("-inf")  # when its person's sanctions were last looked at
    ready: bool = False  # accepted: news may be pushed to it
    site: str = ""  # the page's scheme and host, "https://hearts.example": for whole links


@dataclass(eq=False)
class _Request:
    """A socket's own push: the whole table (``showing``: what a reconnecting screen says it
    shows), resolved once sent."""

    screen: Screen
    showing: tuple[int, int] | None
    done: asyncio.Future[None]


@dataclass(eq=False)
class _Move:
    """A move from a socket, already of the right shape (frames.check_move_shape)."""

    screen: Screen
    action: str
    cards: list[str]
    choice: str
    version: int
    done: asyncio.Future[None]


Item = dict[str, Any] | _Request | _Move
Pushes = list[tuple[Screen, live.Push]]


@dataclass(eq=False)
class Relay:
    table_id: int
    layer: BaseChannelLayer
    screens: set[Screen] = field(default_factory=set)
    channel: str = ""
    inbox: asyncio.Queue[Item] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    state: TableState | None = None
    heard: tuple[int, int] | None = None  # the latest (game, version) the news told of
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
            if not isinstance(item, dict) and not item.done.done():
                item.done.set_result(None)
        try:
            await self.layer.group_discard(self.group, self.channel)
        except Exception as error:  # the membership lapses with the group's expiry
            log.warning("table %s relay could not leave its group: %r", self.table_id, error)

    async def admits(self, user: Viewer, code: str | None) -> str | None:
        """The invite code a screen of ``user`` carries on (see selectors.access_code), or
        None if they may not watch the table: from the state in memory, loaded if need be."""
        state = self.state
        if state is None or state.stale:
            state = await in_pool(live.load)(self.table_id)
            if state is None:
                return None
            if self.state is None or self.state.stale:
                self.state = state
        if not state.admits(user, code):
            return None
        return selectors.access_code(state.table, code)

    async def request(self, screen: Screen, showing: tuple[int, int] | None = None) -> None:
        """Push the whole table to ``screen`` (nothing, if it shows ``showing`` and that is
        the latest), in turn with the table's news."""
        done = asyncio.get_running_loop().create_future()
        await self.inbox.put(_Request(screen, showing, done))
        await done

    async def move(
        self, screen: Screen, action: str, cards: list[str], choice: str, version: int
    ) -> None:
        """Make a move of ``screen``'s person, in turn with the table's news; a refusal goes
        to that screen alone."""
        done = asyncio.get_running_loop().create_future()
        await self.inbox.put(_Move(screen, action, cards, choice, version, done))
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
            if message.get("type") == "table.updated" and message.get("origin") != self.channel:
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
                waiting: list[dict[str, Any] | _Request] = []
                for item in batch:
                    if isinstance(item, _Move):
                        if waiting:
                            await self._push(waiting)
                            waiting = []
                        await self._move(item)
                    else:
                        waiting.append(item)
                if waiting:
                    await self._push(waiting)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad push must not stop the table's news
                log.exception("table %s relay failed to push", self.table_id)
                self.state = None  # loaded again for what comes next
            finally:
                for item in batch:
                    if not isinstance(item, dict) and not item.done.done():
                        item.done.set_result(None)

    # Moves ----------------------------------------------------------------------------

    async def _move(self, move: _Move) -> None:
        screens = list(self.screens)
        try:
            state, pushes, error, news = await in_pool(self._make)(move, screens)
        except Exception:  # the socket must outlive a fault; the log has the details
            log.exception("move on table %s failed", self.table_id)
            self.state = None
            await _quietly(
                move.screen.send(flash("Something went wrong with that move: please try again"))
            )
            return
        self.state = state
        if state is not None and state.shown is not None:
            self.heard = max(self.heard or state.shown, state.shown)
        if error:
            await _quietly(move.screen.send(flash(error)))
        if news is not None and state is not None:
            pushes = self._after(state, news)
        await self._send(pushes, state)

    def _make(
        self, move: _Move, screens: list[Screen]
    ) -> tuple[TableState | None, Pushes, str, dict[str, Any] | None]:
        """In a pool thread: the move judged against the state in memory and written. Returns
        the state after it, the pushes made here (the whole table, for a move refused as
        stale or a game that ended), the refusal to show the mover (or "") and, for a move
        made in a game that goes on, the news to send once its fragments are rendered."""
        state = self.state
        if state is None or state.stale or (self.heard and state.shown != self.heard):
            state = live.load(self.table_id)
        if state is None:
            return None, [], "This table is gone", None
        screen, user = move.screen, move.screen.user
        game = state.game
        try:
            if user is None or not user.is_authenticated:
                raise services.ServiceError("Sign in and take a seat to play")
            if game is None:
                raise services.ServiceError("The game has not started")
            seat = state.seat_of(user)
            if seat is None:
                raise services.ServiceError(
                    "You are watching this table: only its players can move"
                )
            if time.monotonic() - screen.checked > SANCTIONS_KEPT_SECONDS:
                gates.check_may_play(user)  # type: ignore[arg-type]  # refused in its own words
                screen.checked = time.monotonic()
            resign = move.action == MoveKind.RESIGN
            outcome = services.act(
                game.pk,
                seat,
                move.action,
                version=None if resign else move.version,
                cards=move.cards,
                choice=EndReason.RESIGNED if resign else move.choice,
                held=state.running,
                publish=False,
            )
        except services.StaleVersion as error:
            if state.stale:
                state = live.load(self.table_id)
                if state is None:
                    return None, [], str(error), None
            return state, [(screen, _whole(state, screen))], str(error), None
        except services.ServiceError as error:
            if state.stale:  # another writer was first, and the move is refused now
                loaded = live.load(self.table_id)
                return loaded, [], str(error), None
            return state, [], str(error), None
        assert state.game is not None
        news = effects.table_news(state.game.pk, outcome.version, outcome.events)
        news["origin"] = self.channel
        if not state.game.is_over:
            if move.action in PUBLIC_MOVES:  # another process holding the table follows it
                deadline = state.game.deadline
                news["move"] = {
                    "kind": move.action,
                    "seat": seat,
                    "cards": move.cards,
                    "choice": move.choice,
                    "deadline": None if deadline is None else deadline.timestamp(),
                }
            state.moved()
            return state, [], "", news
        # The table changes too: its status, the seeds for a rematch.
        broadcasts.send({self.group: news}, here=False)
        state = live.load(self.table_id)
        if state is None:
            return None, [], "", None
        pushes = self._pushes(state, screens)
        return state, pushes, "", None

    def _after(self, state: TableState, news: dict[str, Any]) -> Pushes:
        """A move's news to the other processes and every screen's push: rendered on the
        event loop, not in the pool (a few fragments, whose rendering in a pool thread would
        make the loop wait behind it for Python's lock, on every socket it serves)."""
        if not state.table.private:
            news["public"] = live.public_news(state)
        broadcasts.send({self.group: news}, here=False)
        return self._pushes(state, list(self.screens))

    # The table's news and its screens' requests -------------------------------------------

    async def _push(self, batch: list[dict[str, Any] | _Request]) -> None:
        news = [item for item in batch if isinstance(item, dict)]
        requests = [item for item in batch if isinstance(item, _Request)]
        # Seats taken or left (news without a version) want the table as it is now.
        seating = any(message.get("version") is None for message in news)
        versions = [_shown_by(message) for message in news if message.get("version") is not None]
        if versions:
            latest = max(versions)
            if self.heard is None or latest > self.heard:
                self.heard = latest
        if not seating and not requests and self._forward(news):
            return
        if not seating and not requests and len(news) == 1 and self._follow(news[0]):
            assert self.state is not None
            await self._send(self._pushes(self.state, list(self.screens)), self.state)
            return
        state = self.state
        behind = state is not None and self.heard is not None and state.shown != self.heard
        load = state is None or state.stale or seating or behind
        screens = list(self.screens)
        state, pushes = await in_pool(self._catch_up)(load, screens, requests, seating)
        self.state = state
        await self._send(pushes, state)

    def _catch_up(
        self, load: bool, screens: list[Screen], requests: list[_Request], seating: bool
    ) -> tuple[TableState | None, Pushes]:
        """In a pool thread: the state (loaded again if ``load``), and the push of every screen
        behind it, and of every request."""
        state = live.load(self.table_id) if load else self.state
        if state is None:
            return None, []
        pushes = []
        asked = {request.screen: request.showing for request in requests}
        for screen in screens:
            if screen in asked:
                showing = asked[screen]
                if showing is not None and showing == state.shown and not seating:
                    variant = state.variant(screen.user, screen.code, screen.csrf)
                    push = live.Push("", state.shown, state.keys(variant, screen.user))
                else:
                    push = _whole(state, screen)
            elif not screen.ready:
                continue
            elif seating:
                push = _whole(state, screen)
            elif screen.shown != state.shown:
                push = self._push_for(state, screen)
            else:
                continue
            pushes.append((screen, push))
        return state, pushes

    def _pushes(self, state: TableState, screens: list[Screen]) -> Pushes:
        return [(screen, self._push_for(state, screen)) for screen in screens if screen.ready]

    @staticmethod
    def _push_for(state: TableState, screen: Screen) -> live.Push:
        shown = screen.shown
        if shown is None or screen.keys is None or state.shown is None:
            return _whole(state, screen)
        if shown[0] != state.shown[0]:  # another game
            return _whole(state, screen)
        return live.changed(
            state, screen.user, code=screen.code, csrf=screen.csrf, keys=screen.keys
        )

    def _follow(self, message: dict[str, Any]) -> bool:
        """Whether the state in memory was brought to the news's version by applying the move
        it tells of (a card or a moon's choice, which everyone sees, made by a relay of another
        process holding the table's players too): nothing loaded then, and the fragments for
        everyone it carries are used as they are."""
        state, played = self.state, message.get("move")
        if state is None or state.running is None or state.stale or not played:
            return False
        game_id, version = _shown_by(message)
        if state.shown != (game_id, version - 1):
            return False
        running = state.running
        move = Move(
            played["kind"], played["seat"], tuple(parse_cards(played["cards"])), played["choice"]
        )
        try:
            running.match.apply(move)
        except HeartsError:  # not what this process holds after all: loaded again
            running.stale = True
            return False
        if running.match.is_over:
            running.stale = True  # the game's end changes the table too: loaded again
            return False
        deadline = played.get("deadline")
        running.game.version = version
        running.game.deadline = None if deadline is None else datetime.fromtimestamp(deadline, UTC)
        running.player(move.seat).timeouts_in_a_row = 0  # as the move's write set it
        state.moved()
        state.offer(message.get("public") or {})
        return True

    def _forward(self, news: list[dict[str, Any]]) -> bool:
        """Whether the news was served by forwarding what it carries, as it is: one move of
        another process, every screen here a spectator (no invite code) showing the version
        just before it. Nothing is loaded or rendered then."""
        if len(news) != 1 or "public" not in news[0] or self.state is None or not self.screens:
            return False
        message = news[0]
        game, version = _shown_by(message)
        state = self.state
        for screen in self.screens:
            if not screen.ready:
                return False
            if screen.shown != (game, version - 1) or screen.keys is None:
                return False
            if state.variant(screen.user, screen.code, screen.csrf) != live.SPECTATOR:
                return False
        fragments: dict[str, tuple[str, str]] = message["public"]
        for screen in list(self.screens):
            assert screen.keys is not None
            html = "".join(
                text for name, (key, text) in fragments.items() if screen.keys.get(name) != key
            )
            screen.keys = {**screen.keys, **{name: key for name, (key, _) in fragments.items()}}
            screen.shown = (game, version)
            if html:
                asyncio.get_running_loop().create_task(_quietly(screen.send(html)))
        return True

    async def _send(self, pushes: Pushes, state: TableState | None) -> None:
        for screen, push in pushes:
            if screen not in self.screens:
                continue  # closed meanwhile
            if state is None:  # the table is gone
                await _quietly(screen.close(4404))
                continue
            if screen.code and not state.admits(screen.user, screen.code):
                # The host made a new invite link: the old one lets nobody watch any more.
                await _quietly(screen.close(4403))
                continue
            screen.shown, screen.keys = push.shown, push.keys
            if push.html:
                await _quietly(screen.send(push.html))


def _whole(state: TableState, screen: Screen) -> live.Push:
    """The whole table as ``screen`` shows it."""
    return live.whole(state, screen.user, code=screen.code, csrf=screen.csrf, site=screen.site)


def flash(error: str) -> str:
    """The error line a socket shows its own client alone."""
    return render_to_string("games/_flash.html", {"error": error})


def _shown_by(message: dict[str, Any]) -> tuple[int, int]:
    return (int(message["game"]), int(message["version"]))


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
