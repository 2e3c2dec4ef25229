"""One chat hub a table a process: the table's chat sockets in this daphne, and the messages
said at the table pushed to each of them.

A process with chat sockets at a table keeps one hub for it, which joins the table's chat
group once with a channel of its own, so that a message crosses Redis once for each process
that shows the table, whichever process it was said on. Each message is rendered at most
three times here for each language its readers read (for its writer, for the other people
signed in, for anonymous watchers) and sent to every socket that reads its room, but for those
of people who muted or block the writer or turned chat off. Redis may bring a message this
process has already pushed (the process hears its own sends at once: live/broadcasts.py); it
is pushed once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from channels.layers import BaseChannelLayer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from live.rooms import Crowd, Room, Seen, quietly

from .selectors import SAID, Choices, Rooms, shown
from .services import chat_group

log = logging.getLogger(__name__)

REMEMBERED = 512  # messages whose ids a hub keeps, to push each once


@dataclass(eq=False)
class Listener:
    """A socket's chat: whose it is, which rooms it reads (asked at each message: a seat taken
    changes them), their choices, how to send to it, and the language it reads."""

    user_id: int | None
    rooms: Callable[[], Rooms]
    send: Callable[[str], Awaitable[None]]
    choices: Choices = field(default_factory=Choices)
    language: str = field(default_factory=lambda: settings.LANGUAGE_CODE)
    # While its box is rendered again (chat/sockets.py), the messages pushed meanwhile wait:
    # sent before the box, they would be lost in a room the page does not show yet, or shown
    # twice in one the new box shows them in. ``boxed``: the messages the last box sent shows.
    held: list[tuple[int, str]] | None = None
    boxed: frozenset[int] = frozenset()

    def hears(self, news: dict[str, Any]) -> bool:
        if self.choices.off or news["author"] in self.choices.hidden:
            return False
        return news["room"] in self.rooms().reads

    async def tell(self, message_id: int, html: str) -> None:
        """Send a message's ``html``, unless its box is being sent again (then it waits) or
        the box it was sent shows the message already."""
        if self.held is not None:
            self.held.append((message_id, html))
        elif message_id not in self.boxed:
            await self.send(html)


def render_said(news: dict[str, Any], variant: str, language: str | None = None) -> str:
    """A message as pushed to a socket: added at the end of its room's log. ``variant`` is
    "own" (the writer's: no mute or report), "other" or "anonymous" (no buttons either); its
    buttons' words in ``language`` (else the one active)."""
    context = {"m": shown(news), "variant": variant}
    if language is None:
        return render_to_string("chat/_chat.html#said", context)
    with translation.override(language):
        return render_to_string("chat/_chat.html#said", context)


@dataclass(eq=False)
class Hub(Room):
    listeners: set[Listener] = field(default_factory=set)
    _pushed: Seen = field(default_factory=lambda: Seen(REMEMBERED))

    kind: ClassVar[str] = "chat"

    @property
    def group(self) -> str:
        return chat_group(self.table_id)

    @property
    def members(self) -> set[Listener]:
        return self.listeners

    def take(self, message: dict[str, Any]) -> None:
        self.push(message)

    async def receive(self, message: dict[str, Any]) -> None:
        try:
            self.push(message)
        except Exception:  # one bad message must not stop the chat
            log.exception("table %s chat could not push a message", self.table_id)

    def push(self, news: dict[str, Any]) -> None:
        """Send a message said at the table to every socket here that reads it."""
        if news.get("type") != SAID or not self._pushed.first_time(news["id"]):
            return
        rendered: dict[tuple[str, str], str] = {}
        for listener in list(self.listeners):
            if not listener.hears(news):
                continue
            if listener.user_id is None:
                variant = "anonymous"
            else:
                variant = "own" if listener.user_id == news["author"] else "other"
            key = (variant, listener.language)
            if key not in rendered:
                rendered[key] = render_said(news, variant, listener.language)
            said = listener.tell(news["id"], rendered[key])
            asyncio.get_running_loop().create_task(quietly(said))


# The hubs of this process, by event loop (a test may run its sockets' loops apart).
HUBS: Crowd[Hub] = Crowd(Hub)


async def join(table_id: int, listener: Listener, layer: BaseChannelLayer) -> Hub:
    """The table's hub in this process, started if ``listener`` is its first."""
    return await HUBS.join(table_id, listener, layer)


async def leave(table_id: int, listener: Listener) -> None:
    """``listener``'s socket closed; the hub stops with the table's last one here."""
    await HUBS.leave(table_id, listener)
