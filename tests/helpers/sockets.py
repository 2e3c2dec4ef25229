"""Helpers for the websocket tests: log a user in, open a table socket, read the fragments."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from html import unescape
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from hearts_site.asgi import application

# A page of the site at http://localhost opens its sockets with this Host and this Origin.
LOCAL_HOST = b"localhost"
LOCAL_ORIGIN = b"http://localhost"
# A socket's first message, or its answer to a move, can wait on a busy database for a moment;
# a refused table socket waited over 10 s (the Redis read timeout) in three CI runs, never by
# hand. Twice that, and a handshake over 5 s is reported with its stacks (tests/helpers/stalls.py).
TIMEOUT = 20


def session_cookie(user: User) -> str:
    """A session for ``user``, as the browser's cookie header would carry it."""
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def socket_at(
    path: str, cookie: str | None = None, *, origin: bytes = LOCAL_ORIGIN
) -> WebsocketCommunicator:
    """A socket to ``path`` as a page of the site opens it, with the session ``cookie``."""
    headers = [(b"host", LOCAL_HOST), (b"origin", origin)]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def table_socket(
    table_id: int,
    cookie: str | None = None,
    *,
    code: str | None = None,
    origin: bytes = LOCAL_ORIGIN,
) -> WebsocketCommunicator:
    path = f"/ws/table/{table_id}/" + (f"?code={code}" if code else "")
    return socket_at(path, cookie, origin=origin)


def lobby_socket(
    cookie: str | None = None, *, origin: bytes = LOCAL_ORIGIN
) -> WebsocketCommunicator:
    return socket_at("/ws/lobby/", cookie, origin=origin)


async def open_lobby_socket(cookie: str) -> WebsocketCommunicator:
    """A connected lobby socket of the person whose session ``cookie`` carries."""
    socket = lobby_socket(cookie)
    connected, close_code = await socket.connect(timeout=TIMEOUT)
    assert connected, f"the lobby socket was refused ({close_code})"
    return socket


async def open_table_socket(
    table_id: int, cookie: str | None = None, *, code: str | None = None
) -> tuple[WebsocketCommunicator, str]:
    """A connected socket and the whole table it was sent on connecting."""
    socket = table_socket(table_id, cookie, code=code)
    connected, close_code = await socket.connect(timeout=TIMEOUT)
    assert connected, f"the table socket was refused ({close_code})"
    return socket, await socket.receive_from(timeout=TIMEOUT)


def htmx_move(action: str, cards: str = "", version: int = 0, choice: str = "") -> dict[str, Any]:
    """A move as htmx's ws extension sends #move-form: every value a string, plus HEADERS."""
    return {
        "action": action,
        "cards": cards,
        "choice": choice,
        "version": str(version),
        "HEADERS": {
            "HX-Request": "true",
            "HX-Trigger": "move-form",
            "HX-Trigger-Name": None,
            "HX-Target": "move-form",
            "HX-Current-URL": "http://localhost/t/1/",
        },
    }


def data_cards(fragment: str) -> list[str]:
    """The cards of the hand buttons: only the receiving seat's own hand carries them (the
    cards played to the trick, which everyone sees, carry theirs too, but are no buttons)."""
    return re.findall(r'<button type="button" class="card[^"]*"\s+data-card="([^"]*)"', fragment)


def version_of(fragment: str) -> int | None:
    found = re.search(r'data-version="(\d+)"', fragment)
    return int(found.group(1)) if found else None


def flash_error(fragment: str) -> str | None:
    """The error message of a ``#flash`` fragment, or None if ``fragment`` is not an error."""
    found = re.search(
        r'<div id="flash" role="alert" class="flash flash-error">(.*?)</div>', fragment, re.S
    )
    return unescape(found.group(1)).strip() if found else None


async def page_beats(
    seen_at: Callable[[], dict[str, Any]], open_: set[str], closed: set[str], beats: int = 2
) -> dict[str, Any]:
    """Wait (up to ``TIMEOUT``) for ``beats`` beats of the open pages' heartbeat: each of
    ``open_`` seen later each time, by the times ``seen_at`` reads (a name each, from the
    database); then each of ``closed`` must still be as it was at the first beat (a beat under
    way as a page closed may still have written it once before). Returns the last times."""
    read = database_sync_to_async(seen_at)
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    times, before = await read(), None
    for beat in range(beats):
        while True:
            now = await read()
            if all(now[name] > times[name] for name in open_):
                break
            assert asyncio.get_running_loop().time() < deadline, f"no beat: {now}"
            await asyncio.sleep(0.05)
        times = now
        if beat == 0:
            before = now
    assert before is not None
    assert {name: times[name] for name in closed} == {name: before[name] for name in closed}
    return times
