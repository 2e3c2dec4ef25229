"""An arena page's socket: it hears the arena's standings and games whenever they change
(rendered once by whoever changed them: arenas/services.py), keeps a joined person counted as
there to be seated, and sends them to their table the moment they are."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from live.sockets import REFUSED_CODE, PageSocket, told_in_pool
from live.table_state import in_pool
from pairing.services import in_language

from . import selectors, services


class ArenaConsumer(PageSocket):
    arena_id: int = 0
    user_id: int | None = None
    counted = False  # counted in as a joined person's open page: counted out on closing

    async def connect(self) -> None:
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        if not await in_pool(selectors.arena_exists)(self.arena_id):
            await self.close(code=REFUSED_CODE)  # as the table's socket refuses a missing table
            return
        user = self.scope.get("user")
        # Listening before counting in: a seating that follows the count is heard.
        groups: tuple[str, ...] = (services.arena_group(self.arena_id),)
        if user is not None and user.is_authenticated:
            self.user_id = user.pk
            groups += (services.entrant_group(user.pk),)
        await self.join_groups(*groups)
        if self.user_id is not None:
            entry = await in_pool(services.page_opened)(self.arena_id, self.user_id)
            self.counted = entry is not None
        await self.join_account_group()
        await self.accept()
        if self.counted:
            self.gather(_pages, (self.arena_id, self.user_id))

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()
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


# The arena pages of each process whose people are counted in, by arena and person: still
# open, all told at once.
_pages = told_in_pool(lambda: services.HEARTBEAT_SECONDS, services.pages_seen)


def _fragment(name: str, context: dict[str, Any]) -> str:
    return render_to_string(f"arenas/arena.html#{name}", {**context, "oob": True})
