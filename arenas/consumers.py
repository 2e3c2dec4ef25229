"""An arena page's socket: it hears the arena's standings and games whenever they change
(rendered once by whoever changed them: arenas/services.py), keeps a joined person counted as
there to be seated, and sends them to their table the moment they are."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from live.consumers import REFUSED_CODE, AccountSocket
from live.table_state import in_pool
from pairing.services import in_language

from . import selectors, services


class ArenaConsumer(AccountSocket):
    arena_id: int = 0
    user_id: int | None = None
    counted = False  # counted in as a joined person's open page: counted out on closing
    groups_joined: tuple[str, ...] = ()
    heartbeat: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        if not await in_pool(selectors.arena_exists)(self.arena_id):
            await self.close(code=REFUSED_CODE)  # as the table's socket refuses a missing table
            return
        user = self.scope.get("user")
        # Listening before counting in: a seating that follows the count is heard.
        self.groups_joined = (services.arena_group(self.arena_id),)
        if user is not None and user.is_authenticated:
            self.user_id = user.pk
            self.groups_joined += (services.entrant_group(user.pk),)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        if self.user_id is not None:
            entry = await in_pool(services.page_opened)(self.arena_id, self.user_id)
            self.counted = entry is not None
        await self.join_account_group()
        await self.accept()
        if self.counted:
            self.heartbeat = asyncio.create_task(self._beat())

    async def _beat(self) -> None:
        assert self.user_id is not None
        while True:
            await asyncio.sleep(services.HEARTBEAT_SECONDS)
            await in_pool(services.page_seen)(self.arena_id, self.user_id)

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.leave_account_group()
        if self.counted and self.user_id is not None:
            # A page opened before its person joined never counted in (joining loads a new one).
            await in_pool(services.page_closed)(self.arena_id, self.user_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(
            text_data=_fragment("message", {"message": _("The arena takes no messages")})
        )

    async def arena_changed(self, event: dict[str, Any]) -> None:
        # Rendered in every language (arenas/services.py): this socket's.
        await self.send(text_data=in_language(event["html"]))

    async def arena_seated(self, event: dict[str, Any]) -> None:
        if "reason" in event:
            event = {**event, "reason": in_language(event["reason"])}
        await self.send(text_data=_fragment("seated", event))


def _fragment(name: str, context: dict[str, Any]) -> str:
    return render_to_string(f"arenas/arena.html#{name}", {**context, "oob": True})
