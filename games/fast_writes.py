"""A move written from the event loop of the daphne process that holds its table, over one
asynchronous connection to PostgreSQL a loop, instead of from a thread of the process's pool.

The pool's threads (games/live.py) run beside the event loop under Python's one lock: under
load a move waited there for a thread, then for the lock at every step of its round trip to
the database, far longer than its own work (bench/load.py at 300 tables: 190 to 320 ms on
average for the slow ones, 30 to 45 ms to run them). A plain move (games/services.py's
``Judged.alone``: no time-out counted, not the game's end) is judged on the loop against the
table in memory and sent here as the same one statement, bound and prepared on the server;
anything else still takes the pool's way. A connection that fails is dropped, and the move
goes the pool's way, which loads the table again and judges it again.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

import psycopg
from django.conf import settings
from django.db import connections

from .models import Game
from .services import Judged, statement

log = logging.getLogger(__name__)

_connections: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, psycopg.AsyncConnection] = (
    weakref.WeakKeyDictionary()
)


def available() -> bool:
    """Whether moves are written from the loop here: on PostgreSQL, unless turned off."""
    return settings.HEARTS_LOOP_WRITES and connections[Game.objects.db].vendor == "postgresql"


async def _connection() -> psycopg.AsyncConnection:
    loop = asyncio.get_running_loop()
    connection = _connections.get(loop)
    if connection is None or connection.closed:
        params = connections[Game.objects.db].settings_dict
        connection = await psycopg.AsyncConnection.connect(
            dbname=params["NAME"],
            user=params["USER"] or None,
            password=params["PASSWORD"] or None,
            host=params["HOST"] or None,
            port=params["PORT"] or None,
            autocommit=True,
        )
        _connections[loop] = connection
    return connection


async def write(judged: Judged) -> bool:
    """Send a judged move's one statement; whether the game was still at the version it was
    judged on (False: another writer was first). Raises if the connection failed."""
    sql, values = statement(judged)
    connection = await _connection()
    try:
        async with connection.cursor() as cursor:
            await cursor.execute(sql, values, prepare=True)
            return cursor.rowcount == 1
    except psycopg.IntegrityError:  # the log's unique (game, number): another writer
        return False
    except BaseException:
        await connection.close()
        raise


def close_all() -> None:
    """Close every loop's connection, from outside the loops: for tests, whose database is
    dropped at the end."""
    for connection in list(_connections.values()):
        connection.pgconn.finish()
    _connections.clear()
