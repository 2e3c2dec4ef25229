"""Websockets: the live table and the lobby.

A table socket may watch (anyone) or play (the person in a seat). Every move is one small JSON
message; the consumer checks its shape, then calls the service in a thread. Errors go back to
that socket only. When the group hears ``table.updated`` (the new version and the public part
of what happened: cards played, tricks taken, never a card still hidden; see games/effects.py),
each socket renders its own seat's table and pushes it; htmx swaps the fragments in by id.
"""

from __future__ import annotations

import json
import logging
from typing import Any, NoReturn

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string

from . import selectors, services
from .models import Game, Table

log = logging.getLogger(__name__)


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.group = services.table_group(self.table_id)
        table = await database_sync_to_async(Table.objects.filter(pk=self.table_id).first)()
        code = _query_value(self.scope, "code")
        allowed = table is not None and await database_sync_to_async(selectors.can_view)(
            table, self.user, code
        )
        if not allowed:
            await self.close(code=4403)
            return
        assert table is not None
        self.code = selectors.access_code(table, code)  # carried on by the forms it renders
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_table()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            data = read_frame(text_data)
        except services.ServiceError as error:
            await self.send_error(str(error))
            return
        try:
            await database_sync_to_async(self._move)(data)
        except services.StaleVersion as error:
            await self.send_error(str(error))
            await self.send_table()
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
        if action == "resign":
            services.resign(game.pk, seat)
            return
        services.act(game.pk, seat, action, version=version, cards=cards, choice=choice)

    async def table_updated(self, event: dict[str, Any]) -> None:
        await self.send_table()

    async def send_table(self) -> None:
        html = await database_sync_to_async(self._render)()
        if html is None:  # the table is gone
            await self.close(code=4404)
            return
        await self.send(text_data=html)

    def _render(self) -> str | None:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return None
        game = table.current_game()
        # Forms pushed over the socket need the CSRF token that a page render would put in;
        # the socket carries the same cookie (its unmasked secret is a valid form token).
        csrf = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
        context: dict[str, Any] = {
            "table": table,
            "user": self.user,
            "csrf_token": csrf,
            "code": self.code,
        }
        if game is not None:
            context.update(selectors.table_view(game, self.user))
        return render_to_string("games/_live.html", context)

    async def send_error(self, message: str) -> None:
        await self.send(text_data=flash(message))


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby only listens; a frame still gets an answer, as at the table.
        await self.send(text_data=flash("The lobby takes no messages"))

    async def lobby_updated(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(self._render)()
        await self.send(text_data=html)

    def _render(self) -> str:
        return render_to_string(
            "games/lobby.html#table-list", {"tables": selectors.lobby_tables(), "oob": True}
        )


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


def _query_value(scope: dict[str, Any], name: str) -> str | None:
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode()).get(name)
    return values[0] if values else None
