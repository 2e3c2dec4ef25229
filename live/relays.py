"""One relay a table a process: the table's state in memory, its moves, and its screens' pushes.

A daphne process with sockets at a table keeps one relay for it. The relay holds the table's
state (live/table_state.py) and is the one serial writer of the table in the process: its one task
takes, in the order they come, the moves of its sockets, their own requests (the whole table on
connecting, after a refused move) and the news of other processes (a bot's move from a worker,
the clock's sweep, seats taken, a move on another daphne), the news that piled up meanwhile
taken together. A notice (a rematch refused, say: news that changes nothing at the table) is
pushed to every screen as it comes, worded in each screen's language.

A move from one of its sockets is judged against the state in memory and written in one round
trip (games/services.py, :func:`services.act`); once it is in the database, the relay renders
what changed once for the table (the fragments for everyone) and once for each seat whose own
fragments changed (live/fragments.py), pushes each screen one frame, and sends the table's
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
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

from channels.layers import BaseChannelLayer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import effects, selectors, services
from games.effects import TABLE_NOTICE, table_group
from games.engine import EndReason, HeartsError, Move, MoveKind, Phase, parse_cards, seat_view
from games.selectors import Viewer
from moderation import gates

from . import bot_pool, broadcasts, fast_writes, table_state
from .fragments import Keys
from .rooms import REJOIN_SECONDS, Crowd, Room, Seen, quietly
from .table_state import TableState, in_pool

log = logging.getLogger(__name__)

# How long a relay counts on another process holding the table after that process last said so
# (each relay says it as it starts and again as it rejoins its group): while one does, a move's
# news goes to the table's group, with the fragments everyone sees, rendered once, for it to
# forward or use; while none does, it goes nowhere.
OTHERS_SECONDS = 2.5 * REJOIN_SECONDS
# How long a new relay tells its moves to the table's group whether or not it has heard of another
# process holding the table: well beyond the time the others' answers to its word take.
NEW_SECONDS = 5.0
# How much later than its due time a relay makes the bots' move of a version it heard of from
# another process (whose relay or worker makes it, unless it died meanwhile).
BACKUP_SECONDS = 1.0
# The moves whose news carries the move itself, for the other processes holding the table's
# players to follow without loading the game: those everyone sees. A pass's cards are hidden.
PUBLIC_MOVES = (MoveKind.PLAY, MoveKind.MOON)
# How many of the latest notices' stamps a relay keeps, to tell each notice once.
NOTICES_KEPT = 32


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
    # Whether its person's sanctions were looked at (as the socket opened, or at its first
    # move), and what they refuse it (a sanction's notice, or ""): once is enough. A suspension
    # or a ban saved later ends the person's games at once and closes their sockets
    # (moderation/sanctions.py), so no move of this socket comes after one. A refused socket's
    # moves are looked at again each time (the sanction may be lifted meanwhile).
    checked: bool = False
    refused: str = ""
    ready: bool = False  # accepted: news may be pushed to it
    site: str = ""  # the page's scheme and host, "https://hearts.example": for whole links
    language: str = settings.LANGUAGE_CODE  # what it reads (accounts/languages.py)


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


@dataclass(eq=False)
class _BotTurn:
    """The bots' turn at ``shown`` (game, version) is due: their moves are decided, in the
    bots' processes, if the table is still there."""

    shown: tuple[int, int]
    done: asyncio.Future[None]


@dataclass(eq=False)
class _BotMove:
    """A bot's move, decided on the table at ``shown``: written like a person's."""

    shown: tuple[int, int]
    seat: int
    kind: str
    cards: list[str]
    choice: str
    done: asyncio.Future[None]


Item = dict[str, Any] | _Request | _Move | _BotTurn | _BotMove
Pushes = list[tuple[Screen, table_state.Push]]
# What a move made in a pool thread returns: the state after it, the pushes made there, the
# refusal to show the mover (or "") and the news to send once its fragments are rendered.
Made = tuple[TableState | None, Pushes, str, dict[str, Any] | None]


@dataclass(eq=False)
class Relay(Room):
    screens: set[Screen] = field(default_factory=set)
    inbox: asyncio.Queue[Item] = field(default_factory=asyncio.Queue)
    state: TableState | None = None
    heard: tuple[int, int] | None = None  # the latest (game, version) the news told of
    news: tuple[int, int] | None = None  # the latest that came as another process's news
    # The bots: the version whose move this relay made (with the pause after it), the version
    # whose bots' turn is planned, its timer, and the decisions under way.
    made: tuple[tuple[int, int] | None, float] | None = None
    planned: tuple[int, int] | None = None
    _timer: asyncio.TimerHandle | None = None
    _deciding: set[asyncio.Task[None]] = field(default_factory=set)
    others_until: float = float("-inf")  # until when another process is counted on
    answered: set[Any] = field(default_factory=set)  # the processes that answered this one
    born: float = field(default_factory=time.monotonic)
    told: Seen = field(default_factory=lambda: Seen(NOTICES_KEPT))  # the notices' stamps

    kind: ClassVar[str] = "relay"

    @property
    def group(self) -> str:
        return table_group(self.table_id)

    @property
    def members(self) -> set[Screen]:
        return self.screens

    def take(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait(message)

    def more_tasks(self) -> dict[str, Coroutine[Any, Any, None]]:
        return {"serve": self._serve()}

    async def start(self) -> None:
        await super().start()
        await self._announce(reply=False)

    def stopping(self) -> list[asyncio.Task[None]]:
        self._cancel_bots()
        return list(self._deciding)

    def stopped(self) -> None:
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if not isinstance(item, dict) and not item.done.done():
                item.done.set_result(None)

    async def admits(self, user: Viewer, code: str | None) -> str | None:
        """The invite code a screen of ``user`` carries on (see selectors.access_code), or
        None if they may not watch the table: from the state in memory, loaded if need be."""
        state = self.state
        if state is None or state.stale:
            state = await in_pool(table_state.load)(self.table_id)
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

    async def receive(self, message: dict[str, Any]) -> None:
        if message.get("origin") == self.channel:
            return
        if message.get("type") in ("table.updated", TABLE_NOTICE):
            await self.inbox.put(message)
        elif message.get("type") == "table.relay":
            self.others_until = time.monotonic() + OTHERS_SECONDS
            if not message.get("reply"):  # a newcomer: it learns of this one too
                await self._announce(reply=True)
            elif message.get("origin") not in self.answered:
                # Another process holds the table and answers this one's word, so it has
                # only now heard of this one: the moves it made before then were told to
                # nobody. The table is loaded again (what the screens miss is pushed).
                self.answered.add(message.get("origin"))
                await self.inbox.put({"type": "table.updated", "events": [], "reload": True})

    async def _announce(self, *, reply: bool) -> None:
        """Tell the other processes holding the table that this one holds it too. Best
        effort: a process that does not hear it renders what it needs itself."""
        message = {"type": "table.relay", "origin": self.channel, "reply": reply}
        try:
            await self.layer.group_send(self.group, message)
        except Exception as error:
            log.warning("table %s relay could not announce itself: %r", self.table_id, error)

    def _others(self) -> bool:
        """Whether another process may hold the table: one said so lately, or this relay is
        new (the others it has not heard of yet load the table as it is when they hear of it,
        but would miss what it makes before it hears of them)."""
        now = time.monotonic()
        return now < self.others_until or now < self.born + NEW_SECONDS

    async def rejoined(self) -> None:
        await self._announce(reply=True)  # renewed, without asking every other for theirs

    async def _serve(self) -> None:
        while True:
            batch = [await self.inbox.get()]
            while not self.inbox.empty():
                batch.append(self.inbox.get_nowait())
            try:
                waiting: list[dict[str, Any] | _Request] = []
                for item in batch:
                    if isinstance(item, _Request) or (
                        isinstance(item, dict) and not _is_notice(item)
                    ):
                        waiting.append(item)
                        continue
                    if waiting:
                        await self._push(waiting)
                        waiting = []
                    if isinstance(item, dict):
                        await self._tell(item)
                    elif isinstance(item, _Move):
                        await self._apply(self._make, item, item.screen)
                    elif isinstance(item, _BotMove):
                        await self._apply(self._make_bot, item, None)
                    else:
                        self._bot_turn(item)
                if waiting:
                    await self._push(waiting)
                self._plan_bots()
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

    async def _apply(
        self,
        make: Callable[[Any, list[Screen]], Made],
        move: _Move | _BotMove,
        mover: Screen | None,
    ) -> None:
        """A person's move (``mover``: their screen) or a bot's, made in a pool thread by
        ``make``; then every screen's push."""
        screens = list(self.screens)
        # A refusal is worded in the mover's language.
        language = settings.LANGUAGE_CODE if mover is None else mover.language
        made = await self._made_here(move) if fast_writes.available() else None
        if made is None:
            try:
                made = await in_pool(_speaking(language, make))(move, screens)
            except Exception:  # the socket must outlive a fault; the log has the details
                log.exception("move on table %s failed", self.table_id)
                self.state = None
                if mover is not None:
                    with translation.override(language):
                        text = flash(_("Something went wrong with that move: please try again"))
                    await quietly(mover.send(text))
                return
        state, pushes, error, news = made
        self.state = state
        if state is not None and state.shown is not None:
            self.heard = max(self.heard or state.shown, state.shown)
        if error and mover is not None:
            with translation.override(language):
                text = flash(error)
            await quietly(mover.send(text))
        if news is not None and state is not None:
            pushes = self._after(state, news)
        await self._send(pushes, state)

    async def _made_here(self, move: _Move | _BotMove) -> Made | None:
        """A plain move judged against the table in memory and written from the event loop
        (live/fast_writes.py), or None: the pool's way then makes it (a table to load first,
        a person's sanctions to look at, a resignation, a refusal to word, a move written with
        more than its one statement, a write that failed or found another writer first, which
        leaves the state stale, so that it is loaded and the move judged again)."""
        state = self.state
        if state is None or state.running is None or state.stale:
            return None
        if self.heard and state.shown != self.heard:
            return None
        if isinstance(move, _Move):
            user = move.screen.user
            if move.action == MoveKind.RESIGN or user is None or not user.is_authenticated:
                return None
            if not move.screen.checked or move.screen.refused:
                return None
            seat = state.seat_of(user)
            if seat is None:
                return None
            kind, cards, choice, version = move.action, move.cards, move.choice, move.version
        else:
            if state.running.game.pk != move.shown[0]:
                return None
            seat, kind, cards, choice = move.seat, move.kind, move.cards, move.choice
            version = move.shown[1]
        try:
            judged = services.judge(state.running, seat, kind, version, cards, choice)
        except services.ServiceError:
            return None
        if not judged.alone:
            return None
        try:
            written = await fast_writes.write(judged)
        except Exception as error:
            log.warning("table %s: a move's write from the loop failed: %r", self.table_id, error)
            return None
        if not written:
            return None
        outcome = services.settle(judged, publish=False)
        return state, [], "", self._news(state, seat, kind, cards, choice, outcome)

    def _news(
        self,
        state: TableState,
        seat: int,
        kind: str,
        cards: list[str],
        choice: str,
        outcome: services.Outcome,
    ) -> dict[str, Any]:
        """A move's news, in a game that goes on; the state moves on to it."""
        assert state.game is not None
        news = effects.table_news(state.game.pk, outcome.version, outcome.events)
        news["origin"] = self.channel
        if kind in PUBLIC_MOVES:  # another process holding the table follows it
            deadline = state.game.deadline
            news["move"] = {
                "kind": kind,
                "seat": seat,
                "cards": cards,
                "choice": choice,
                "deadline": None if deadline is None else deadline.timestamp(),
            }
        state.moved()
        # This relay makes the bots' next move, if theirs it is: after the pause.
        self.made = (state.shown, effects.trick_pause(outcome.events))
        return news

    def _held(self) -> TableState | None:
        """The state a move is judged against: the one in memory, unless it is behind."""
        state = self.state
        if state is None or state.stale or (self.heard and state.shown != self.heard):
            state = table_state.load(self.table_id)
        return state

    def _make(self, move: _Move, screens: list[Screen]) -> Made:
        """In a pool thread: a person's move judged against the state in memory and written.
        Returns the state after it, the pushes made here (the whole table, for a move refused
        as stale or a game that ended), the refusal to show the mover (or "") and, for a move
        made in a game that goes on, the news to send once its fragments are rendered."""
        state = self._held()
        if state is None:
            return None, [], "This table is gone", None
        screen, user = move.screen, move.screen.user
        try:
            if user is None or not user.is_authenticated:
                raise services.ServiceError("Sign in and take a seat to play")
            if state.game is None:
                raise services.ServiceError("The game has not started")
            seat = state.seat_of(user)
            if seat is None:
                raise services.ServiceError(
                    "You are watching this table: only its players can move"
                )
            if not screen.checked or screen.refused:
                gates.check_may_play(user)  # type: ignore[arg-type]  # refused in its own words
                screen.checked, screen.refused = True, ""
        except services.ServiceError as error:
            return state, [], str(error), None
        resign = move.action == MoveKind.RESIGN
        return self._write(
            state,
            screens,
            seat,
            move.action,
            move.cards,
            EndReason.RESIGNED if resign else move.choice,
            None if resign else move.version,
            screen,
        )

    def _make_bot(self, move: _BotMove, screens: list[Screen]) -> Made:
        """In a pool thread: a bot's move, decided on the table at ``move.shown``, written as
        a person's is (refused, and dropped, if the game has moved on meanwhile)."""
        state = self._held()
        if state is None:
            return None, [], "", None
        if state.game is None or state.game.pk != move.shown[0]:
            return state, [], "", None
        return self._write(
            state, screens, move.seat, move.kind, move.cards, move.choice, move.shown[1], None
        )

    def _write(
        self,
        state: TableState,
        screens: list[Screen],
        seat: int,
        kind: str,
        cards: list[str],
        choice: str,
        version: int | None,
        mover: Screen | None,
    ) -> Made:
        """The move through the write path (services.act) against the state in memory; what
        :meth:`_make` returns."""
        assert state.game is not None
        try:
            outcome = services.act(
                state.game.pk,
                seat,
                kind,
                version=version,
                cards=cards,
                choice=choice,
                held=state.running,
                publish=False,
            )
        except services.StaleVersion as error:
            now = table_state.load(self.table_id) if state.stale else state
            if now is None:
                return None, [], str(error), None
            if mover is None:
                return now, [], "", None
            return now, [(mover, _whole(now, mover))], str(error), None
        except services.ServiceError as error:
            # Stale: another writer was first, and the move is refused now.
            return table_state.load(self.table_id) if state.stale else state, [], str(error), None
        assert state.game is not None
        if not state.game.is_over:
            return state, [], "", self._news(state, seat, kind, cards, choice, outcome)
        news = effects.table_news(state.game.pk, outcome.version, outcome.events)
        news["origin"] = self.channel
        # The table changes too: its status, the seeds for a rematch.
        broadcasts.send({self.group: news}, here=False)
        loaded = table_state.load(self.table_id)
        if loaded is None:
            return None, [], "", None
        return loaded, self._pushes(loaded, screens), "", None

    # The bots ---------------------------------------------------------------------------

    def _plan_bots(self) -> None:
        """If the state in memory waits on bots, their turn is timed: after the pause, for a
        move this relay made; at the turn's due time (its deadline less the grace) for a
        state loaded here (a table that came to this process when the one holding it died);
        a second later for a move another process made, whose own relay or worker makes
        the bots' move unless it died meanwhile. The write decides between two makers."""
        state = self.state
        running = None if state is None else state.running
        if state is None or running is None or state.stale or running.game.is_over:
            self._cancel_bots()
            return
        shown = state.shown
        if shown == self.planned:
            return
        self._cancel_bots()
        waiting = services.seats_to_act(running.match)
        bots = running.bots
        if not any(seat in bots for seat in waiting):
            return
        if self.made is not None and self.made[0] == shown:
            wait = settings.HEARTS_BOT_DELAY + self.made[1]
        else:
            deadline = running.game.deadline
            if set(waiting) <= bots and deadline is not None:
                left = (deadline - timezone.now()).total_seconds()
                wait = left - settings.HEARTS_BOT_GRACE
            else:  # the passes, a person's among them: from now
                wait = settings.HEARTS_BOT_DELAY
            if shown == self.news:
                wait += BACKUP_SECONDS
        assert shown is not None
        loop = asyncio.get_running_loop()
        turn = _BotTurn(shown, loop.create_future())
        self.planned = shown
        self._timer = loop.call_later(max(0.0, wait), self.inbox.put_nowait, turn)

    def _cancel_bots(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self.planned = None

    def _bot_turn(self, turn: _BotTurn) -> None:
        """The bots' turn is due: if the state in memory is still at its version, each bot
        that owes a move (all the bots' passes, or one card or choice) has it decided in the
        bots' processes, and the answers come back to the inbox as moves."""
        state = self.state
        if self._timer is not None and self.planned == turn.shown:
            self._timer = None
        if state is None or state.running is None or state.stale or state.shown != turn.shown:
            return
        if self.heard is not None and self.heard > turn.shown:
            return  # behind: caught up first, and planned again
        running = state.running
        match = running.match
        seats = [seat for seat in services.seats_to_act(match) if seat in running.bots]
        if not seats:
            return
        if match.hand.phase is not Phase.PASSING:
            seats = seats[:1]  # one card at a time, so that people can follow the play
        views = [seat_view(match, seat) for seat in seats]
        task = asyncio.create_task(self._decide(turn.shown, state.table.bot_level, seats, views))
        self._deciding.add(task)
        task.add_done_callback(self._deciding.discard)

    async def _decide(
        self, shown: tuple[int, int], level: str, seats: list[int], views: list[Any]
    ) -> None:
        try:
            decisions = await asyncio.gather(*(bot_pool.decide(level, view) for view in views))
        except asyncio.CancelledError:
            raise
        except Exception:  # the deadline's sweep makes the move
            log.exception("the bots of table %s could not decide", self.table_id)
            return
        loop = asyncio.get_running_loop()
        for seat, (kind, cards, choice) in zip(seats, decisions, strict=True):
            await self.inbox.put(_BotMove(shown, seat, kind, cards, choice, loop.create_future()))

    def _after(self, state: TableState, news: dict[str, Any]) -> Pushes:
        """A move's news to the other processes and every screen's push: rendered on the
        event loop, not in the pool (a few fragments, whose rendering in a pool thread would
        make the loop wait behind it for Python's lock, on every socket it serves)."""
        if self._others():  # else nobody hears it: no other process holds the table
            if not state.table.private:
                news["public"] = table_state.public_news(state)
            broadcasts.send({self.group: news}, here=False)
        return self._pushes(state, list(self.screens))

    async def _tell(self, message: dict[str, Any]) -> None:
        """A notice for every screen at the table (games/effects.py, ``table_notice``): worded
        once for each language its screens read, and told once, however often it is heard."""
        stamp = str(message.get("stamp"))
        if not self.told.first_time(stamp):
            return
        worded: dict[str, str] = {}
        for screen in list(self.screens):
            if not screen.ready:
                continue
            html = worded.get(screen.language)
            if html is None:
                html = worded[screen.language] = table_state.notice(message, screen.language)
            if html:
                await quietly(screen.send(html))

    # The table's news and its screens' requests -------------------------------------------

    async def _push(self, batch: list[dict[str, Any] | _Request]) -> None:
        news = [item for item in batch if isinstance(item, dict)]
        requests = [item for item in batch if isinstance(item, _Request)]
        # Seats taken or left (news without a version) want the table as it is now; a
        # process that learnt of this one late, only the state loaded again.
        reload = any(message.get("reload") for message in news)
        news = [message for message in news if not message.get("reload")]
        seating = any(message.get("version") is None for message in news)
        versions = [_shown_by(message) for message in news if message.get("version") is not None]
        if versions:
            latest = max(versions)
            if self.heard is None or latest > self.heard:
                self.heard = latest
            self.news = max(self.news or latest, latest)
        if not reload and not seating and not requests and self._forward(news):
            return
        if not reload and not seating and not requests and len(news) == 1 and self._follow(news[0]):
            assert self.state is not None
            await self._send(self._pushes(self.state, list(self.screens)), self.state)
            return
        state = self.state
        behind = state is not None and self.heard is not None and state.shown != self.heard
        load = state is None or state.stale or seating or behind or reload
        screens = list(self.screens)
        state, pushes = await in_pool(self._catch_up)(load, screens, requests, seating)
        self.state = state
        await self._send(pushes, state)

    def _catch_up(
        self, load: bool, screens: list[Screen], requests: list[_Request], seating: bool
    ) -> tuple[TableState | None, Pushes]:
        """In a pool thread: the state (loaded again if ``load``), and the push of every screen
        behind it, and of every request."""
        state = table_state.load(self.table_id) if load else self.state
        if state is None:
            return None, []
        pushes = []
        asked = {request.screen: request.showing for request in requests}
        for screen in screens:
            if screen in asked:
                showing = asked[screen]
                if showing is not None and showing == state.shown and not seating:
                    variant = state.variant(screen.user, screen.code, screen.csrf, screen.language)
                    push = table_state.Push("", state.shown, state.keys(variant, screen.user))
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
    def _push_for(state: TableState, screen: Screen) -> table_state.Push:
        shown = screen.shown
        if shown is None or screen.keys is None or state.shown is None:
            return _whole(state, screen)
        if shown[0] != state.shown[0]:  # another game
            return _whole(state, screen)
        return table_state.changed(
            state,
            screen.user,
            code=screen.code,
            csrf=screen.csrf,
            keys=screen.keys,
            language=screen.language,
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
            variant = state.variant(screen.user, screen.code, screen.csrf, screen.language)
            if variant != table_state.SPECTATOR:
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
                asyncio.get_running_loop().create_task(quietly(screen.send(html)))
        return True

    async def _send(self, pushes: Pushes, state: TableState | None) -> None:
        for screen, push in pushes:
            if screen not in self.screens:
                continue  # closed meanwhile
            if state is None:  # the table is gone
                await quietly(screen.close(4404))
                continue
            if screen.code and not state.admits(screen.user, screen.code):
                # The host made a new invite link: the old one lets nobody watch any more.
                await quietly(screen.close(4403))
                continue
            screen.shown, screen.keys = push.shown, push.keys
            if push.html:
                await quietly(screen.send(push.html))


def _whole(state: TableState, screen: Screen) -> table_state.Push:
    """The whole table as ``screen`` shows it."""
    return table_state.whole(
        state,
        screen.user,
        code=screen.code,
        csrf=screen.csrf,
        site=screen.site,
        language=screen.language,
    )


def _speaking(language: str, make: Callable[..., Made]) -> Callable[..., Made]:
    """``make`` run in ``language``: the words of what it refuses."""

    def spoken(*args: Any) -> Made:
        with translation.override(language):
            return make(*args)

    return spoken


def flash(error: str) -> str:
    """The error line a socket shows its own client alone."""
    return render_to_string("games/_flash.html", {"error": error})


def _is_notice(message: dict[str, Any]) -> bool:
    """Whether the table's ``message`` is a notice, which changes nothing at the table."""
    return message.get("type") == TABLE_NOTICE


def _shown_by(message: dict[str, Any]) -> tuple[int, int]:
    return (int(message["game"]), int(message["version"]))


# The relays of this process, by event loop (a test may run each of its sockets' loops apart);
# this process's first table starts its bots' processes.
RELAYS: Crowd[Relay] = Crowd(Relay, first=bot_pool.warm)
_relays = RELAYS.by_loop


async def join(table_id: int, screen: Screen, layer: BaseChannelLayer) -> Relay:
    """The table's relay in this process, started if ``screen`` is its first."""
    return await RELAYS.join(table_id, screen, layer)


async def leave(table_id: int, screen: Screen) -> None:
    """``screen`` is closed; the relay stops with its table's last screen in this process."""
    await RELAYS.leave(table_id, screen)
