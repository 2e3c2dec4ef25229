"""The chat of a table's socket (live/consumers.py): the frames that say something, each
checked here, and what the socket is pushed: the messages it missed on connecting, each new one
(through the table's hub, chat/hub.py), its own refusals, and the whole chat box again when its
person's choices change, or the rooms they read (with the table's push that changed them: at the
game's end its players read the spectators' room too, which their page's box did not have).

A chat frame is ``{"chat": "text", "room": "players"}`` (htmx's ``HEADERS`` ride along); it may
name its ``table``, which must be the socket's. A frame that is not one of these, a room the
person does not write in, a table other than the socket's or a field naming anyone else is
refused on that socket alone, and nothing is saved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from channels.layers import BaseChannelLayer
from django.conf import settings
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from games.selectors import Viewer
from live.table_state import in_pool

from . import hub, selectors, services
from .models import Room
from .selectors import Rooms

FIELDS = {"chat", "room", "table", "HEADERS"}


class ChatFrameError(ValueError):
    """A chat frame that is not one; the words say why."""


def is_chat_frame(data: Any) -> bool:
    return isinstance(data, dict) and "chat" in data


def read_chat_frame(data: dict[str, Any], table_id: int) -> tuple[str, str]:
    """The room and the text of a chat frame sent on table ``table_id``'s socket."""
    unknown = sorted(str(key) for key in data if key not in FIELDS)
    if unknown:
        raise ChatFrameError(
            _("A chat message has no field “%(field)s”") % {"field": unknown[0][:20]}
        )
    text, room = data.get("chat"), data.get("room")
    if not isinstance(text, str):
        raise ChatFrameError(_("A chat message is text"))
    if room not in Room.values:
        raise ChatFrameError(_("There is no such chat room: “players” or “spectators”"))
    table = data.get("table", table_id)
    if str(table) != str(table_id):
        raise ChatFrameError(_("This socket is for another table: write at the table you are at"))
    return room, text


def room_refusal(rooms: Rooms, room: str, user: Viewer) -> str | None:
    """Why ``user``, who writes in ``rooms.writes`` here, may not write in ``room``."""
    if user is None or not user.is_authenticated:
        return _("Sign in to chat")
    if room == rooms.writes:
        return None
    if room == Room.PLAYERS:
        return _("Only the players write in the players' chat: you are watching this table")
    return _("You are playing at this table: write in the players' chat")


def error_html(message: str) -> str:
    return render_to_string("chat/_chat.html#error", {"error": message})


class TableChat:
    """The chat of one socket at table ``table_id``. ``rooms`` and ``game_id`` are asked of the
    table as the socket's process holds it, at each message."""

    def __init__(
        self,
        table_id: int,
        user: Viewer,
        send: Callable[[str], Awaitable[None]],
        rooms: Callable[[], Rooms],
        game_id: Callable[[], int | None],
    ) -> None:
        self.table_id = table_id
        self.user = user if user is not None and user.is_authenticated else None
        self.send = send
        self.game_id = game_id
        user_id = None if self.user is None else self.user.pk
        # The language the socket reads, active while it is made (live/consumers.py): its
        # messages are rendered in it, whatever the others at the table read.
        language = translation.get_language() or settings.LANGUAGE_CODE
        self.listener = hub.Listener(user_id, rooms, send, language=language)
        self.shown: Rooms | None = None  # the rooms its page's box shows, as far as it knows
        self._boxing = asyncio.Lock()

    async def open(self, layer: BaseChannelLayer, after: int | None) -> None:
        """Hear the table's messages from now on; with ``after`` (the last message the page
        shows), be sent those said since."""
        if self.user is not None:
            self.listener.choices = await in_pool(selectors.choices_of)(self.user)
        await hub.join(self.table_id, self.listener, layer)
        self.shown = rooms = self.listener.rooms()
        if after is None or self.listener.choices.off:
            return
        if rooms.reads != {rooms.writes}:
            # A player once the game is over reads the spectators' room too, which a page
            # served while the game ran does not show: the box as it now is, not what it missed.
            await self._send_box()
            return
        html = await in_pool(self._since)(after)
        if html:
            await self.send(html)

    async def close(self) -> None:
        await hub.leave(self.table_id, self.listener)

    async def along(self, html: str) -> None:
        """Send ``html`` (a push of the table), and in the same frame the box again if the
        rooms its person reads or writes in have changed with it: the game is over, and its
        players read the spectators' room too (a page shows only the rooms its box has: a
        message for another would be lost); a rematch began; they sat down."""
        rooms = self.listener.rooms()
        if self.shown is None or rooms == self.shown:
            await self.send(html)
            return
        self.shown = rooms
        await self._send_box(before=html)

    async def _send_box(self, before: str = "") -> None:
        """The box as it now is (after ``before``); the messages pushed meanwhile are held and
        sent after it, but for those it shows (chat/hub.py, ``Listener.tell``)."""
        async with self._boxing:
            listener = self.listener
            listener.held = []
            try:
                html = await in_pool(self._box)()
                await self.send(before + html)
            finally:
                held, listener.held = listener.held, None
            for message_id, said in held:
                await listener.tell(message_id, said)

    async def receive(self, data: dict[str, Any]) -> None:
        try:
            room, text = read_chat_frame(data, self.table_id)
        except ChatFrameError as error:
            await self.send(error_html(str(error)))
            return
        if why := room_refusal(self.listener.rooms(), room, self.user):
            await self.send(error_html(why))
            return
        assert isinstance(self.user, User)
        try:
            await in_pool(self._say)(room, text)
        except services.ChatRefused as refused:
            await self.send(error_html(str(refused)))

    async def choices_changed(self) -> None:
        """Their person muted, unmuted, blocked or unblocked someone, or turned chat off or on
        (at any table, on any process): the box again, as it now is for them."""
        if self.user is None:
            return
        self.listener.choices = await in_pool(selectors.choices_of)(self.user)
        await self.send(await in_pool(self._box)())

    # Run in the pool's threads, which do not carry the socket's active language: each says
    # its words (a refusal, the buttons) in the language the socket reads.

    def _say(self, room: str, text: str) -> None:
        assert isinstance(self.user, User)
        with translation.override(self.listener.language):
            services.say(self.user, self.table_id, self.game_id(), room, text)

    def _since(self, after: int) -> str:
        choices = self.listener.choices
        found = selectors.latest(
            self.table_id, self.listener.rooms().reads, choices.hidden, after=after
        )
        me = self.listener.user_id
        return "".join(
            hub.render_said(
                selectors.said_news(message),
                selectors.variant_of(me, message.author_id),
                self.listener.language,
            )
            for message in found
        )

    def _box(self) -> str:
        rooms, choices = self.listener.rooms(), self.listener.choices
        context = selectors.box_context(self.table_id, self.user, rooms, choices)
        self.listener.boxed = frozenset(
            said["id"] for room in context["chat_rooms"] for said in room["said"]
        )
        with translation.override(self.listener.language):
            return render_to_string("chat/_chat.html#box", {**context, "oob": True})
