"""The queue page's socket: it keeps its person in the queue while it is open, tells them how
many wait, and sends them to their table the moment they are seated."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from games import selectors
from live.sockets import PageSocket, told_in_pool
from live.table_state import in_pool

from . import services

NOT_SIGNED_IN_CODE = 4403


class QueueConsumer(PageSocket):
    user_id: int | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_SIGNED_IN_CODE)
            return
        self.user_id = user.pk
        # Listening before counting in: a seating that follows the count is heard.
        await self.join_groups(services.seeker_group(user.pk))
        seeker = await in_pool(services.page_opened)(user.pk)
        await self.join_account_group()
        await self.accept()
        if seeker is None:
            # Seated while no page of theirs was open (a reload, a restart), or never queued.
            language = translation.get_language()
            await self.send(text_data=await in_pool(_not_waiting)(user, language))
            return
        await self.join_groups(services.Queue.of(seeker).group)
        self.gather(_pages, user.pk)

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()
        if self.user_id is not None:
            await in_pool(services.page_closed)(self.user_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(
            text_data=_fragment("message", {"message": _("The queue takes no messages")})
        )

    async def queue_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=_fragment("waiting", {"waiting": event["waiting"]}))

    async def queue_seated(self, event: dict[str, Any]) -> None:
        await self.send(text_data=_fragment("seated", {"url": event["url"]}))

    async def queue_left(self, event: dict[str, Any]) -> None:
        # Told by a worker in every language: this socket's.
        reason = services.in_language(event["reason"])
        await self.send(text_data=_fragment("left", {"reason": reason}))


# The queue pages of each process, by person: still open, all told at once.
_pages = told_in_pool(lambda: services.HEARTBEAT_SECONDS, services.pages_seen)


def _fragment(name: str, context: dict[str, Any]) -> str:
    return render_to_string(f"pairing/queue.html#{name}", {**context, "oob": True})


def _not_waiting(user: Any, language: str | None) -> str:
    """In the pool, whose threads do not carry the socket's language: told it."""
    game = selectors.running_game(user)
    with translation.override(language):
        if game is not None:
            return _fragment("seated", {"url": game.table.get_absolute_url()})
        return _fragment("left", {"reason": _("You are not in the queue.")})
