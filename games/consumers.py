"""Websockets: the live table and the lobby.

A table socket may watch (anyone) or play (the person in a seat). Every move is one small JSON
message; the consumer checks its shape, then calls the service in a thread. Errors go back to
that socket only. When the group hears ``table.updated`` (the game, its new version and the
public part of what happened: cards played, tricks taken, never a card still hidden; see
games/effects.py), each socket pushes only the fragments of the table that changed for its own
seat (games/live.py). A socket knows the version its screen shows and what each fragment on
it shows: it skips a message for a version it has, and after a gap (a message it never got,
or one that comes late) it pushes every fragment that differs from the screen. A socket that
reconnects says what its screen shows (``?shown=game.version``): it gets the whole table if it
missed anything, else nothing.

The work runs in threads of the process's pool, not on the one thread Channels keeps for
synchronous code, so that a move waiting on the database does not hold up every other table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any, NoReturn

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string

from moderation import gates, sanctions

from . import broadcasts, live, selectors, services
from .live import in_pool
from .models import Game, Table

log = logging.getLogger(__name__)

SHOWN = re.compile(r"(\d{1,18})\.(\d{1,18})")
ACCOUNT_CLOSED_CODE = 4401  # the person was suspended or banned


class AccountSocket(AsyncWebsocketConsumer):
    """A signed-in person's sockets, each in their account's group, so that a suspension or a
    ban closes them all at once (moderation/sanctions.py)."""

    account_group: str | None = None

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


class TableConsumer(AccountSocket):
    async def connect(self) -> None:
        broadcasts.serve_from(asyncio.get_running_loop())
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.group = services.table_group(self.table_id)
        self.shown: tuple[int, int] | None = None  # (game, version) on the screen
        self.keys: live.Keys | None = None  # what each fragment on the screen shows
        table = await in_pool(Table.objects.filter(pk=self.table_id).first)()
        code = _query_value(self.scope, "code")
        allowed = table is not None and await in_pool(selectors.can_view)(table, self.user, code)
        if not allowed:
            await self.close(code=4403)
            return
        assert table is not None
        self.code = selectors.access_code(table, code)  # carried on by the forms it renders
        # Forms pushed over the socket need the CSRF token that a page render would put in;
        # the socket carries the same cookie (its unmasked secret is a valid form token).
        self.csrf = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_account_group()
        await self.accept()
        await self.push(None, showing=_shown(_query_value(self.scope, "shown")))

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.leave_account_group()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            data = read_frame(text_data)
        except services.ServiceError as error:
            await self.send_error(str(error))
            return
        try:
            await in_pool(self._move)(data)
        except services.StaleVersion as error:
            await self.send_error(str(error))
            self.keys = None
            await self.push(None)
        except services.ServiceError as error:
            await self.send_error(str(error))
        except Exception:  # the socket must outlive a fault; the log has the details
            log.exception("move on table %s failed", self.table_id)
            await self.send_error("Something went wrong with that move: please try again")

    def _move(self, data: Any) -> None:
        action, cards, choice, version = services.check_move_shape(data)
        if self.user is None or not self.user.is_authenticated:
            raise services.ServiceError("Log in and take a seat to play")
        game = Game.objects.filter(table_id=self.table_id).order_by("-number").first()
        if game is None:
            raise services.ServiceError("The game has not started")
        seat = services.seat_of(game, self.user)
        if seat is None:
            raise services.ServiceError("You are watching this table: only its players can move")
        gates.check_may_play(self.user)
        if action == "resign":
            services.resign(game.pk, seat)
            return
        services.act(game.pk, seat, action, version=version, cards=cards, choice=choice)

    async def table_updated(self, event: dict[str, Any]) -> None:
        version, game = event.get("version"), event.get("game")
        if version is None or game is None:  # seating: no version, the whole table again
            self.keys = None
            await self.push(None)
            return
        if self.shown is not None and self.shown[0] == game and version <= self.shown[1]:
            return  # the screen has it already
        if self.shown is None or self.shown[0] != game:
            self.keys = None  # another game (a rematch), or nothing shown yet: the whole table
        # A gap (messages from two processes may arrive out of order, or one was dropped) needs
        # no whole table: the keys say what the screen shows, whatever version that was, and
        # every fragment that differs from it is pushed.
        await self.push((game, version))

    async def push(
        self, at_least: tuple[int, int] | None, showing: tuple[int, int] | None = None
    ) -> None:
        """Send what changed on the screen since what it shows, from the table's state at the
        version ``at_least`` or later (None: as it is now)."""
        push = await in_pool(self._render)(at_least, showing)
        if push is None:  # the table is gone
            await self.close(code=4404)
            return
        self.shown, self.keys = push.shown, push.keys
        if push.html:
            await self.send(text_data=push.html)

    def _render(
        self, at_least: tuple[int, int] | None, showing: tuple[int, int] | None
    ) -> live.Push | None:
        state = live.state_for(self.table_id, at_least)
        if state is None:
            return None
        return live.render(
            state, self.user, code=self.code, csrf_token=self.csrf, keys=self.keys, showing=showing
        )

    async def send_error(self, message: str) -> None:
        await self.send(text_data=flash(message))


class LobbyConsumer(AccountSocket):
    async def connect(self) -> None:
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        await self.join_account_group()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)
        await self.leave_account_group()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby only listens; a frame still gets an answer, as at the table.
        await self.send(text_data=flash("The lobby takes no messages"))

    async def lobby_updated(self, event: dict[str, Any]) -> None:
        html = await in_pool(_lobby_list)(event.get("stamp"))
        await self.send(text_data=html)


_lobby_rendered: tuple[Any, str] | None = None  # (stamp, html): one render a message a process


def _lobby_list(stamp: Any) -> str:
    """The lobby's list of tables, rendered once for all the lobby's sockets in this process
    for each message (its stamp), not once a socket."""
    global _lobby_rendered
    kept = _lobby_rendered
    if stamp is not None and kept is not None and kept[0] == stamp:
        return kept[1]
    html = render_to_string(
        "games/lobby.html#table-list", {"tables": selectors.lobby_tables(), "oob": True}
    )
    _lobby_rendered = (stamp, html)
    return html


def flash(error: str) -> str:
    """The error line a socket shows its own client alone."""
    return render_to_string("games/_flash.html", {"error": error})


def read_frame(text_data: str | None) -> Any:
    """The JSON value of a text frame, or a ServiceError saying why it has none.

    Only plain JSON: NaN and Infinity are not JSON, and a key given twice could be read either
    way. Python's parser recurses into nested arrays, so a deep frame raises RecursionError.
    """
    limit = settings.HEARTS_WS_MAX_MESSAGE
    unfit = services.ServiceError("That message is too long or not text")
    if text_data is None or len(text_data) > limit:
        raise unfit
    try:
        size = len(text_data.encode())
    except UnicodeEncodeError as error:  # a lone surrogate: no browser sends one
        raise unfit from error
    if size > limit:
        raise unfit
    try:
        return json.loads(text_data, parse_constant=_not_json, object_pairs_hook=_object)
    except (ValueError, RecursionError) as error:
        raise services.ServiceError("That message is not JSON") from error


def _not_json(constant: str) -> NoReturn:
    raise ValueError(f"{constant} is not JSON")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise ValueError("a key is given twice")
    return data


def _shown(value: str | None) -> tuple[int, int] | None:
    """The (game, version) a reconnecting socket says its screen shows: "12.40"."""
    found = SHOWN.fullmatch(value or "")
    return (int(found.group(1)), int(found.group(2))) if found else None


def _query_value(scope: dict[str, Any], name: str) -> str | None:
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode()).get(name)
    return values[0] if values else None
