"""Websockets: the live table and the lobby.

A table socket may watch (anyone) or play (the person in a seat). Every move is one small JSON
message; the consumer checks its shape and hands it to the table's relay in this process
(live/relays.py), which holds the table in memory, judges and writes the move, and pushes
every screen what changed. Errors go back to that socket only. A socket that reconnects says
what its screen shows (``?shown=game.version``): it gets the whole table if it missed
anything, else nothing.

Who may watch is judged from the table the relay holds, so a socket's handshake costs no
database call once its table is served here (Channels' session and user lookup aside).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import presence
from chat import selectors as chat_selectors
from chat.sockets import TableChat, is_chat_frame
from games import selectors, services
from games.errors import ServiceError
from hearts_site.converters import ID
from moderation import gates

from . import around, broadcasts, relays
from .frames import check_move_shape, read_frame
from .rooms import quietly
from .sockets import REFUSED_CODE, AccountSocket, Gathered, PageSocket
from .table_state import TableState, in_pool

log = logging.getLogger(__name__)

SHOWN = re.compile(rf"({ID})\.({ID})")
# The lobby's counts on its sockets' beat, rendered at most once in this while a process and
# language, however many lobby sockets it holds and whenever each of them beats.
COUNTS_SECONDS = 5.0


class TableConsumer(AccountSocket):
    chat: TableChat | None = None
    _rooms: chat_selectors.Rooms | None = None  # the chat's rooms, as the table last said

    async def connect(self) -> None:
        broadcasts.serve_from(asyncio.get_running_loop())
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        # Forms pushed over the socket need the CSRF token that a page render would put in;
        # the socket carries the same cookie (its unmasked secret is a valid form token).
        csrf = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
        self.screen = relays.Screen(self.user, "", csrf, self._push_table, self.close)
        # The page's own scheme and host, as its Origin says them (the origin check has made
        # sure it is this site's): a socket has no request to ask.
        self.screen.site = dict(self.scope.get("headers", [])).get(b"origin", b"").decode()
        # Its pushes come in the language its person reads (the account's, the cookie's, the
        # browser's), whatever the others at the table read.
        self.screen.language = self.language or settings.LANGUAGE_CODE
        self.relay: relays.Relay | None = await relays.join(
            self.table_id, self.screen, self.channel_layer
        )
        # Who may watch is judged from the table the relay keeps in memory (loaded once a
        # process), so that a round of tables sitting down at once does not queue on the
        # database before daphne's limit on a socket's handshake.
        code = await self.relay.admits(self.user, _query_value(self.scope, "code"))
        if code is None:
            await relays.leave(self.table_id, self.screen)
            self.relay = None
            await self.close(code=REFUSED_CODE)
            return
        self.screen.code = code  # carried on by the forms it renders
        if self.user is not None and self.user.is_authenticated:
            # Its person's sanctions, looked at now rather than on its first move, which then
            # goes the quick way (live/relays.py: the table in memory, the write from the loop).
            self.screen.refused = await in_pool(_play_refusal)(self.user)
            self.screen.checked = True
        await self.join_account_group()
        await self.accept()
        self.screen.ready = True
        await self.relay.request(self.screen, _shown(_query_value(self.scope, "shown")))
        # The chat, on the same socket: the messages the page missed (it says the last one it
        # shows: ?chat=id), then each new one of the rooms its person reads.
        self.chat = TableChat(
            self.table_id, self.user, self._send_html, self._chat_rooms, self._game_id
        )
        await self.chat.open(self.channel_layer, _after(_query_value(self.scope, "chat")))

    async def disconnect(self, code: int) -> None:
        if self.chat is not None:
            await self.chat.close()
        if getattr(self, "relay", None) is not None:
            await relays.leave(self.table_id, self.screen)
        await self.leave_account_group()

    def _chat_rooms(self) -> chat_selectors.Rooms:
        """The chat rooms of this socket's person, as the table in memory says: the players'
        if they sit at the table or play its game, else the spectators'. While the relay has
        dropped its table after a fault, to load it again, they are the rooms it last said:
        a player is not taken for a spectator meanwhile, to read the spectators' room while
        the game runs."""
        state = self.relay.state if self.relay is not None else None
        if state is None and self._rooms is not None:
            return self._rooms
        self._rooms = self._rooms_of(state)
        return self._rooms

    def _rooms_of(self, state: TableState | None) -> chat_selectors.Rooms:
        user = self.user
        signed_in = user is not None and user.is_authenticated
        player = (
            state is not None
            and signed_in
            and (user.pk in state.seated or state.seat_of(user) is not None)
        )
        game = None if state is None else state.game
        running = game is not None and not game.is_over
        return chat_selectors.rooms(player=bool(player), game_running=running)

    def _game_id(self) -> int | None:
        state = self.relay.state if self.relay is not None else None
        return None if state is None or state.game is None else state.game.pk

    async def chat_choices(self, event: dict[str, Any]) -> None:
        """This person muted or unmuted someone, or turned chat off or on."""
        if self.chat is not None:
            await self.chat.choices_changed()

    async def _send_html(self, html: str) -> None:
        await self.send(text_data=html)

    async def _push_table(self, html: str) -> None:
        """The table's push, with the chat box again if it changed the chat's rooms (the
        game's end opens the spectators' room to the players)."""
        if self.chat is None:
            await self._send_html(html)
        else:
            await self.chat.along(html)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            data = read_frame(text_data)
            if is_chat_frame(data):
                if self.chat is not None:
                    await self.chat.receive(data)
                return
            action, cards, choice, version = check_move_shape(data)
        except ServiceError as error:
            await self.send_error(str(error))
            return
        if self.relay is None:
            return
        await self.relay.move(self.screen, action, cards, choice, version)

    async def send_error(self, message: str) -> None:
        await self.send(text_data=flash(message))


class LobbyConsumer(PageSocket):
    around_sent = ""  # what its last beat sent

    async def connect(self) -> None:
        await self.join_groups(services.LOBBY_GROUP)
        await self.join_account_group()
        await self.accept()
        # Who is on changes without news of a table: the counts and the followed who are on
        # come again as often as presence itself is noted (accounts/presence.py), for all the
        # process's lobby sockets at once.
        self.gather(_lobby_sockets, self.scope.get("user"))

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby only listens; a frame still gets an answer, as at the table.
        await self.send(text_data=flash(_("The lobby takes no messages")))

    async def lobby_updated(self, event: dict[str, Any]) -> None:
        language = self.language or settings.LANGUAGE_CODE
        html = await in_pool(_lobby_list)(event.get("stamp"), language)
        await self.send(text_data=html)
        self.around_sent = ""  # its counts are newer than the beat's: the next beat sends again

    async def around_again(self, html: str) -> None:
        """The beat's counts and followed who are on, sent unless the page shows them already."""
        if html != self.around_sent:
            self.around_sent = html
            await quietly(self.send(text_data=html))


async def _lobby_beat(sockets: dict[LobbyConsumer, Any]) -> None:
    """The counts again, and the people each socket's person follows who are on: for all of a
    process's lobby sockets in one call to the pool, whose reads are the same few however many
    sockets there are (accounts/follows.py following_of)."""
    asked = [(socket.language or settings.LANGUAGE_CODE, user) for socket, user in sockets.items()]
    try:
        found = await in_pool(_lobby_around)(asked)
    except Exception as error:  # the database away a moment: the next beat, then
        log.warning("the lobby's counts failed: %r", error)
        return
    for socket, html in zip(sockets, found, strict=True):
        await socket.around_again(html)


_lobby_sockets = Gathered(lambda: presence.REFRESH, _lobby_beat)


# {what: (stamp, {language: html})}: one render a message (or a while) and language a process
_lobby_rendered: dict[str, tuple[Any, dict[str, str]]] = {}


def _rendered_once(what: str, stamp: Any, language: str, render: Callable[[], str]) -> str:
    """``render()``, in ``language``, once for all the lobby's sockets in this process that
    read it, for each ``stamp`` of ``what`` (a message's), not once a socket."""
    kept_stamp, kept = _lobby_rendered.get(what, (None, {}))
    if stamp is None or kept_stamp != stamp:
        kept = {}
        _lobby_rendered[what] = (stamp, kept)
    html = kept.get(language)
    if html is None:
        with translation.override(language):
            html = render()
        if stamp is not None:
            kept[language] = html
    return html


def _lobby_list(stamp: Any, language: str) -> str:
    """The lobby's list of tables, its counts and its featured game, after news of a table."""

    def render() -> str:
        context = {"tables": selectors.lobby_tables(), **around.for_everyone()}
        return "".join(
            render_to_string(f"games/lobby.html#{part}", context)
            for part in ("table-list", "lobby-counts", "featured-game")
        )

    return _rendered_once("list", stamp, language, render)


def _lobby_around(asked: list[tuple[str, Any]]) -> list[str]:
    """For each (language, person) of ``asked``, the lobby's counts (shared by all its sockets
    for :data:`COUNTS_SECONDS`) and the people the person follows who are on (for them alone:
    nothing for a visitor); each different list rendered once a language."""
    stamp = int(time.monotonic() // COUNTS_SECONDS)
    signed_in = [user for _, user in asked if user is not None and user.is_authenticated]
    on = around.followed_on_of(signed_in)
    rendered: dict[tuple[str, tuple[Any, ...]], str] = {}
    out = []
    for language, user in asked:
        html = _rendered_once(
            "counts",
            stamp,
            language,
            lambda: render_to_string("games/lobby.html#lobby-counts", around.counts()),
        )
        if user is not None and user.is_authenticated:
            rows = tuple(on.get(user.pk, ()))
            part = rendered.get((language, rows))
            if part is None:
                with translation.override(language):
                    context = {"followed_on": list(rows)}
                    part = render_to_string("games/lobby.html#followed-on", context)
                rendered[(language, rows)] = part
            html += part
        out.append(html)
    return out


flash = relays.flash


def _play_refusal(user: Any) -> str:
    """What ``user``'s sanctions say to their moves, in the active language, or "" if none
    keeps them from playing."""
    try:
        gates.check_may_play(user)
    except ServiceError as error:
        return str(error)
    return ""


def _shown(value: str | None) -> tuple[int, int] | None:
    """The (game, version) a reconnecting socket says its screen shows: "12.40"."""
    found = SHOWN.fullmatch(value or "")
    return (int(found.group(1)), int(found.group(2))) if found else None


def _after(value: str | None) -> int | None:
    """The last chat message a page shows ("?chat=120"), if it says one."""
    return int(value) if value is not None and re.fullmatch(ID, value) else None


def _query_value(scope: dict[str, Any], name: str) -> str | None:
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode()).get(name)
    return values[0] if values else None
