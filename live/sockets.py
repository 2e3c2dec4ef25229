"""The base of every live page's socket: a signed-in person's sockets are closed at once by a
suspension or a ban, and each speaks its person's language. A page's socket that listens to
groups of its own and tells the page's services it is still open (an arena's, the queue's) is
a :class:`PageSocket`.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from accounts import challenge_views, languages, presence
from moderation import gates, sanctions

from .rooms import quietly
from .table_state import in_pool

ACCOUNT_CLOSED_CODE = 4401  # the person was suspended or banned, or this session ended
# How often a process looks at whether the people whose sockets it holds are kept out (a
# suspension, a ban, a closed account): the net under the account group's message, which
# closes their sockets at once unless it missed them (Redis down as it was sent). One query a
# process each time, on no move's path.
KEPT_OUT_SECONDS = presence.REFRESH
# A socket refused at its handshake (daphne answers it 403): a table or arena that does not
# exist or that its person may not watch, an address no route takes.
REFUSED_CODE = 4403

log = logging.getLogger(__name__)


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any socket address no route takes: refused, as a missing table is."""

    async def connect(self) -> None:
        await self.close(code=REFUSED_CODE)


class AccountSocket(AsyncWebsocketConsumer):
    """A signed-in person's sockets, each in their account's group, so that a suspension or a
    ban closes them all at once (moderation/sanctions.py)."""

    account_group: str | None = None
    # The language its person reads (accounts/languages.py), found at the handshake: what it is
    # sent, and its refusals, are in that language.
    language: str | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As Channels dispatches, without its hop to the process's one thread for synchronous
        code before every message (to close that thread's old database connections): each
        frame would wait there behind whatever else runs on it. These sockets' database work
        runs in the pool (live/table_state.py), whose calls close their own. Each message is handled
        in the socket's language."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if self.language is None:
            self.language = await in_pool(languages.of_scope)(self.scope)
        with translation.override(self.language):
            await handler(message)

    async def join_account_group(self) -> None:
        """A signed-in person's socket joins their account's group and keeps them online; a
        visitor's keeps them counted online (as their browser, once however many tabs)."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.account_group = sanctions.account_group(user.pk)
            await self.channel_layer.group_add(self.account_group, self.channel_name)
            _accounts.add(self, user.pk)
            await _still_online([user.pk])
        else:
            browser = visitor(self.scope, self.channel_name)
            _visitors.add(self, browser)
            await _look_at_visitors({self: browser})

    async def leave_account_group(self) -> None:
        _visitors.discard(self)
        if self.account_group is not None:
            _accounts.discard(self)
            await self.channel_layer.group_discard(self.account_group, self.channel_name)

    async def account_closed(self, event: dict[str, Any]) -> None:
        await self.close(code=ACCOUNT_CLOSED_CODE)

    async def sessions_ended(self, event: dict[str, Any]) -> None:
        """Some of the person's sessions were ended ("Sign out everywhere else", a new
        password): this socket closes if it was one of them (its page reloads, signed out)."""
        session = self.scope.get("session")
        if session is not None and session.session_key in event["sessions"]:
            await self.close(code=ACCOUNT_CLOSED_CODE)

    async def chat_choices(self, event: dict[str, Any]) -> None:
        """The person's chat choices changed (chat/services.py): only a table's socket shows a
        chat."""

    async def challenge_news(self, event: dict[str, Any]) -> None:
        """An invitation to a game to or from the person came, or ended (accounts/challenges.py):
        their notices again, as this socket's page shows them, with its forms' CSRF token."""
        csrf = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
        language = self.language or settings.LANGUAGE_CODE
        html = await in_pool(challenge_views.pushed_notices)(
            self.scope.get("user"), csrf, language, event
        )
        if html:
            await quietly(self.send(text_data=html))


class NoticeSocket(AccountSocket):
    """The socket of a page without a live one of its own (a profile, the history, the rules):
    its signed-in person's invitations come by it, and it keeps them online. It only listens."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=REFUSED_CODE)
            return
        await self.join_account_group()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave_account_group()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Frames are ignored: this socket takes no message."""


class PageSocket(AccountSocket):
    """A live page's socket that listens to groups of its own (its page's, its person's) and,
    while it is open, tells its page it still is, every so often, with its process's other
    such sockets (a :class:`Gathered`): an arena's page or the queue's. Closed, it leaves them
    all."""

    groups_joined: tuple[str, ...] = ()
    gathered_in: tuple[Gathered, ...] = ()

    async def join_groups(self, *groups: str) -> None:
        self.groups_joined += groups
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    def gather(self, gathered: Gathered, value: Any) -> None:
        """Looked at by ``gathered`` with ``value`` (its page seen, in its services), with the
        process's other sockets there, until it closes."""
        gathered.add(self, value)
        self.gathered_in += (gathered,)

    async def leave_groups(self) -> None:
        """Leave every group joined, the account's too, and every gathering."""
        for gathered in self.gathered_in:
            gathered.discard(self)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.leave_account_group()


async def _still_online(user_ids: Iterable[int]) -> None:
    try:
        await in_pool(presence.here)(user_ids)
    except Exception as error:  # Redis away: they show offline until the next look
        log.warning("could not note who is online: %r", error)


class Gathered:
    """Sockets of one event loop (a daphne process's), each with what it is gathered by, looked
    at all together every ``seconds()`` while there are any: one batch of work for all of a
    process's sockets, not one a socket. ``look`` is given them, as they are at that moment."""

    def __init__(
        self, seconds: Callable[[], float], look: Callable[[dict[Any, Any]], Awaitable[object]]
    ) -> None:
        self.seconds = seconds
        self.look = look
        self._of: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Held] = (
            weakref.WeakKeyDictionary()
        )

    def _held(self) -> _Held:
        loop = asyncio.get_running_loop()
        held = self._of.get(loop)
        if held is None:
            held = self._of[loop] = _Held()
        return held

    def add(self, socket: Any, value: Any) -> None:
        held = self._held()
        held.sockets[socket] = value
        if held.task is None or held.task.done():
            held.task = asyncio.get_running_loop().create_task(self._looking(held))

    def discard(self, socket: Any) -> None:
        self._held().sockets.pop(socket, None)

    async def _looking(self, held: _Held) -> None:
        while held.sockets:
            await asyncio.sleep(self.seconds())
            if not held.sockets:
                break
            try:
                await self.look(dict(held.sockets))
            except Exception as error:  # the next look, then
                log.warning("a look at this process's sockets failed: %r", error)


def told_in_pool(seconds: Callable[[], float], tell: Callable[[set[Any]], object]) -> Gathered:
    """A :class:`Gathered` whose look gives ``tell`` (synchronous: run in the sockets' pool)
    the set of its sockets' values at once: the pages still open, for their services to note
    in one write."""

    async def look(sockets: dict[Any, Any]) -> None:
        await in_pool(tell)(set(sockets.values()))

    return Gathered(seconds, look)


class _Held:
    """What a :class:`Gathered` holds in one event loop."""

    def __init__(self) -> None:
        self.sockets: dict[Any, Any] = {}
        self.task: asyncio.Task[None] | None = None


async def _look_at_accounts(sockets: dict[AccountSocket, int]) -> None:
    """Their people are still online, and those kept out since are closed out."""
    # One pipeline for all of them (accounts/presence.py), and one query.
    await _still_online(set(sockets.values()))
    out = await in_pool(gates.kept_out)(set(sockets.values()))
    for socket, user_id in sockets.items():
        if user_id in out:
            _accounts.discard(socket)
            await quietly(socket.close(code=ACCOUNT_CLOSED_CODE))


# The signed-in sockets of each process, by person, looked at every KEPT_OUT_SECONDS.
_accounts = Gathered(lambda: KEPT_OUT_SECONDS, _look_at_accounts)


def visitor(scope: dict[str, Any], channel_name: str) -> str:
    """What tells a visitor's browser apart, for the count of everyone online: its CSRF
    cookie's digest (accounts/presence.py browser), or the socket itself for a browser
    without one."""
    token = scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
    if not token:
        return f"socket:{channel_name}"
    return presence.browser(token)


async def _look_at_visitors(sockets: dict[AccountSocket, str]) -> None:
    try:
        await in_pool(presence.visitors_here)(set(sockets.values()))
    except Exception as error:  # Redis away: they are not counted until the next look
        log.warning("could not count the visitors online: %r", error)


# The sockets of each process's visitors, by browser, counted online every REFRESH.
_visitors = Gathered(lambda: presence.REFRESH, _look_at_visitors)
