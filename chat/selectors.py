"""Reads of the chat: which rooms a person at a table writes in and reads, a room's latest
messages as one person may see them, and a person's own choices (muted people, chat off)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import blocks
from games.models import Game, Table

from .models import HISTORY, ChatMessage, ChatSetting, Mute, Room

Viewer = AbstractBaseUser | AnonymousUser | None

SAID = "chat.said"  # the type of a message said at a table, as its chat group is told of it
# The one-tap phrases under the box, for phones and keyboards: sent in the writer's language,
# as if typed (the buttons say what they send).
PHRASES = (
    gettext_lazy("Good luck"),
    gettext_lazy("Good game"),
    gettext_lazy("Well played"),
    gettext_lazy("Thanks"),
)


@dataclass(frozen=True)
class Rooms:
    """The room a person at a table writes in, and the rooms they read."""

    writes: Room
    reads: frozenset[Room]


def rooms(*, player: bool, game_running: bool) -> Rooms:
    """A player writes in the players' room and reads it, and the spectators' room too once
    no game runs at the table (while one does, watchers cannot coach them); a spectator writes
    and reads the spectators' room alone.

    >>> sorted(str(room) for room in rooms(player=True, game_running=False).reads)
    ['players', 'spectators']
    >>> rooms(player=False, game_running=True).reads == {Room.SPECTATORS}
    True
    """
    if not player:
        return Rooms(Room.SPECTATORS, frozenset({Room.SPECTATORS}))
    reads = {Room.PLAYERS} if game_running else {Room.PLAYERS, Room.SPECTATORS}
    return Rooms(Room.PLAYERS, frozenset(reads))


def is_player(table: Table, game: Game | None, user: Viewer) -> bool:
    """Whether ``user`` sits at ``table`` or plays its current ``game``."""
    if user is None or not user.is_authenticated:
        return False
    if table.seats.filter(user_id=user.pk).exists():
        return True
    return game is not None and game.players.filter(user_id=user.pk, is_bot=False).exists()


@dataclass(frozen=True)
class Choices:
    """A person's own choices about chat."""

    off: bool = False
    muted: frozenset[int] = frozenset()
    blocked: frozenset[int] = frozenset()  # accounts/blocks.py; unblocked on their profile

    @property
    def hidden(self) -> frozenset[int]:
        """The people whose messages they do not see: those they muted or block."""
        return self.muted | self.blocked


def choices_of(user: Viewer) -> Choices:
    if user is None or not user.is_authenticated:
        return Choices()
    off = ChatSetting.objects.filter(user_id=user.pk, off=True).exists()
    muted = Mute.objects.filter(muter_id=user.pk).values_list("muted_id", flat=True)
    return Choices(off, frozenset(muted), blocks.blocked(user.pk))


def latest(
    table_id: int, reads: Iterable[str], hidden: frozenset[int], *, after: int = 0
) -> list[ChatMessage]:
    """The last ``HISTORY`` messages of each room in ``reads`` (those after message ``after``
    only, if given), but for those of the people ``hidden``, oldest first."""
    found: list[ChatMessage] = []
    for room in sorted(reads):
        messages = ChatMessage.objects.filter(table_id=table_id, room=room, pk__gt=after)
        messages = messages.exclude(author_id__in=hidden) if hidden else messages
        found += messages.select_related("author").order_by("-pk")[:HISTORY]
    return sorted(found, key=lambda message: message.pk)


def muted_here(table_id: int, reads: Iterable[str], muted: frozenset[int]) -> list[str]:
    """The names of the muted people who wrote in the rooms ``reads`` of table ``table_id``:
    the box says whose messages it leaves out, with a way to see them again."""
    if not muted:
        return []
    names = ChatMessage.objects.filter(table_id=table_id, room__in=reads, author_id__in=muted)
    return sorted(set(names.values_list("author__username", flat=True)))


def muted_people(user: User) -> list[User]:
    """The people ``user`` has muted, by name."""
    return list(User.objects.filter(pk__in=choices_of(user).muted).order_by("username"))


def has_muted(user: Viewer, person: User) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Mute.objects.filter(muter_id=user.pk, muted=person).exists()


def said_news(message: ChatMessage) -> dict[str, Any]:
    """What the table's chat group is told of ``message``: enough to show it, no more."""
    return {
        "type": SAID,
        "id": message.pk,
        "room": message.room,
        "author": message.author_id,
        "name": message.author.username,
        "text": message.text,
        "at": message.at.isoformat(),
    }


def shown(news: dict[str, Any]) -> dict[str, Any]:
    """What a message's template shows of it (``said_news``), with its time of day as the
    language writes it (hearts_site/formats/), in the time zone of the moment: the reader's on
    a page, UTC in a push, which the page's script then writes in the browser's own zone."""
    at = timezone.localtime(datetime.fromisoformat(news["at"]))
    return {**news, "at_time": formats.time_format(at)}


def box_context(table_id: int, user: Viewer, rooms: Rooms, choices: Choices) -> dict[str, Any]:
    """What the chat box of ``user`` at table ``table_id`` is rendered from."""
    signed_in = user is not None and user.is_authenticated
    me = user.pk if signed_in and user is not None else None
    rooms_shown: list[dict[str, Any]] = []
    found = [] if choices.off else latest(table_id, rooms.reads, choices.hidden)
    if not choices.off:
        for room in (Room.PLAYERS, Room.SPECTATORS):
            if room in rooms.reads:
                said = [
                    {**shown(said_news(m)), "variant": variant_of(me, m.author_id)}
                    for m in found
                    if m.room == room
                ]
                rooms_shown.append({"room": room, "title": _title(room), "said": said})
    return {
        "chat_table": table_id,
        "chat_off": choices.off,
        "chat_rooms": rooms_shown,
        "chat_writes": rooms.writes,
        "chat_writes_title": _title(rooms.writes),
        "chat_signed_in": signed_in,
        "chat_muted": [] if choices.off else muted_here(table_id, rooms.reads, choices.muted),
        "chat_after": max((m.pk for m in found), default=0) if rooms_shown else 0,
        "chat_phrases": PHRASES,
    }


def variant_of(me: int | None, author_id: int) -> str:
    if me is None:
        return "anonymous"
    return "own" if me == author_id else "other"


def _title(room: str) -> str:
    return _("Players' chat") if room == Room.PLAYERS else _("Spectators' chat")
