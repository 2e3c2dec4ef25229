"""A move written from the event loop of the daphne process that holds its table, over a few
asynchronous connections to PostgreSQL a loop, instead of from a thread of the process's pool.

The pool's threads (live/table_state.py) run beside the event loop under Python's one lock: under
load a move waited there for a thread, then for the lock at every step of its round trip to
the database, far longer than its own work (bench/load.py at 300 tables: 190 to 320 ms on
average for the slow ones, 30 to 45 ms to run them). A plain move (games/services.py's
``Judged.alone``: no time-out counted, not the game's end) is judged on the loop against the
table in memory and sent here as the same one statement, bound and prepared on the server;
anything else still takes the pool's way. A connection sends one statement at a time, so a loop
keeps ``HEARTS_LOOP_CONNECTIONS`` of them and a write takes one that is free (with one, every
table's write queued behind the others'). A connection that fails is dropped, and the move
goes the pool's way, which loads the table again and judges it again.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

import psycopg
from django.conf import settings
from django.db import connections

from games.models import Game
from games.services import Judged, statement

log = logging.getLogger(__name__)


class _Connections:
    """A loop's connections: the free ones, and how many there are."""

    def __init__(self) -> None:
        self.free: asyncio.Queue[psycopg.AsyncConnection | None] = asyncio.Queue()
        for _ in range(settings.HEARTS_LOOP_CONNECTIONS):
            self.free.put_nowait(None)  # a place for a connection, made when first needed
        self.all: set[psycopg.AsyncConnection] = set()


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Connections] = (
    weakref.WeakKeyDictionary()
)


def available() -> bool:
    """Whether moves are written from the loop here: on PostgreSQL, unless turned off."""
    return (
        settings.HEARTS_LOOP_CONNECTIONS > 0 and connections[Game.objects.db].vendor == "postgresql"
    )


async def _connect() -> psycopg.AsyncConnection:
    params = connections[Game.objects.db].settings_dict
    return await psycopg.AsyncConnection.connect(
        dbname=params["NAME"],
        user=params["USER"] or None,
        password=params["PASSWORD"] or None,
        host=params["HOST"] or None,
        port=params["PORT"] or None,
        autocommit=True,
    )


async def write(judged: Judged) -> bool:
    """Send a judged move's one statement; whether the game was still at the version it was
    judged on (False: another writer was first). Raises if the connection failed."""
    sql, values = statement(judged)
    loop = asyncio.get_running_loop()
    pool = _loops.get(loop)
    if pool is None:
        pool = _loops[loop] = _Connections()
    connection = await pool.free.get()
    try:
        if connection is None or connection.closed:
            pool.all.discard(connection)  # type: ignore[arg-type]
            connection = None
            connection = await _connect()
            pool.all.add(connection)
        async with connection.cursor() as cursor:
            await cursor.execute(sql, values, prepare=True)
            return cursor.rowcount == 1
    except psycopg.IntegrityError:  # the log's unique (game, number): another writer
        return False
    except BaseException:
        if connection is not None:
            pool.all.discard(connection)
            await connection.close()
        connection = None
        raise
    finally:
        pool.free.put_nowait(connection)


def close_all() -> None:
    """Close every loop's connections, from outside the loops: for tests, whose database is
    dropped at the end."""
    for pool in list(_loops.values()):
        for connection in list(pool.all):
            connection.pgconn.finish()
    _loops.clear()
