"""What the scale-out drills of the live pages share (tests/test_queue_scale_out.py,
tests/test_arena_scale_out.py, tests/test_chat_scale_out.py): bench/load.py's site of two
daphnes on an SQLite file and a Redis of its own, a person's session, a page's socket on one
daphne, and the table a page is sent to.

As the kill drills (tests/helpers/drills.py), each runs in a process of its own that sets Django
up on the site's database when the site starts: Django is imported only inside the functions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench import load
from tests.helpers import drills

if TYPE_CHECKING:
    from games.models import Table


def two_daphnes(var_dir: Path, log: Path) -> contextlib.AbstractContextManager[load.Site]:
    """bench/load.py's site with two daphnes, started in ``var_dir`` and stopped at the end."""
    args = argparse.Namespace(database="sqlite", layout="one", webs=2, log=log)
    return drills.running_site(args, var_dir)


def session_cookie(user: Any) -> str:
    """A session for ``user``, as the browser's cookie header would carry it."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def page_socket(path: str, cookie: str, port: int) -> Any:
    """The socket a page opens at ``path`` (``/ws/queue/``) on the daphne at ``port``, signed
    in with ``cookie``: awaited, or an async context manager."""
    import websockets

    return websockets.connect(
        f"ws://127.0.0.1:{port}{path}",
        origin=websockets.Origin(f"http://127.0.0.1:{port}"),
        additional_headers={"Cookie": cookie},
        open_timeout=30,
        ping_interval=None,
    )


async def sent_to(ws: Any, link: re.Pattern[str], seconds: float) -> str | None:
    """The table a page is sent to within ``seconds`` (the first group of ``link`` in a frame
    it is pushed), if any."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                frame = await ws.recv()
                if match := link.search(frame):
                    return match.group(1)
    except Exception:  # the time is up, or the socket closed
        return None


def plays_rated(table: Table) -> bool:
    """Whether ``table`` is rated and its game too (a rated table has a game)."""
    if not table.rated:
        return False
    game = table.current_game()
    assert game is not None, f"{table.get_absolute_url()} has no game"
    return game.rated
