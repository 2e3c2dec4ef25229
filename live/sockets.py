"""The base of every live page's socket: a signed-in person's sockets are closed at once by a
suspension or a ban, and each speaks its person's language. A page's socket that listens to
groups of its own and tells the page's services it is still open (an arena's, the queue's) is
a :class:`PageSocket`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from accounts import languages
from moderation import sanctions

from .table_state import in_pool

ACCOUNT_CLOSED_CODE = 4401  # the person was suspended or banned
# A socket refused at its handshake (daphne answers it 403): a table or arena that does not
# exist or that its person may not watch, an address no route takes.
REFUSED_CODE = 4403


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
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.account_group = sanctions.account_group(user.pk)
            await self.channel_layer.group_add(self.account_group, self.channel_name)

    async def leave_account_group(self) -> None:
        if self.account_group is not None:
            await self.channel_layer.group_discard(self.account_group, self.channel_name)

    async def account_closed(self, event: dict[str, Any]) -> None:
        await self.close(code=ACCOUNT_CLOSED_CODE)

    async def chat_choices(self, event: dict[str, Any]) -> None:
        """The person's chat choices changed (chat/services.py): only a table's socket shows a
        chat."""


class PageSocket(AccountSocket):
    """A live page's socket that listens to groups of its own (its page's, its person's) and,
    while it is open, tells its page it still is, every so often: an arena's page or the
    queue's. Closed, it leaves them all."""

    groups_joined: tuple[str, ...] = ()
    heartbeat: asyncio.Task[None] | None = None

    async def join_groups(self, *groups: str) -> None:
        self.groups_joined += groups
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    def keep_beating(self, seconds: float, beat: Callable[[], Awaitable[object]]) -> None:
        """Every ``seconds`` from now on, ``beat`` (the page seen, in its services)."""

        async def beating() -> None:
            while True:
                await asyncio.sleep(seconds)
                await beat()

        self.heartbeat = asyncio.create_task(beating())

    async def leave_groups(self) -> None:
        """Stop beating, and leave every group joined, the account's too."""
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.leave_account_group()
