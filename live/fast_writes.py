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

The moves that wait for a connection meanwhile (under load, when all are busy) go together
over the next one free: one transaction, one round trip (psycopg's pipeline), each move still
its own row and its own check of its game's version (:func:`write`).
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
    """A loop's connections: the free ones, how many there are, and the moves waiting for one.

    A move waits on its own outcome only, never in line for a connection: whenever one is
    free and moves wait, a task sends them all over it (:meth:`send_waiting`)."""

    def __init__(self) -> None:
        # A place for each connection, None until the connection is first needed.
        self.free: list[psycopg.AsyncConnection | None] = [None] * settings.HEARTS_LOOP_CONNECTIONS
        self.all: set[psycopg.AsyncConnection] = set()
        self.waiting: list[_Write] = []
        self.sending: set[asyncio.Task[None]] = set()

    def send_waiting(self) -> None:
        while self.free and self.waiting:
            connection, batch, self.waiting = self.free.pop(), self.waiting, []
            task = asyncio.get_running_loop().create_task(self._send_then_free(connection, batch))
            self.sending.add(task)
            task.add_done_callback(self.sending.discard)

    async def _send_then_free(
        self, connection: psycopg.AsyncConnection | None, batch: list[_Write]
    ) -> None:
        try:
            connection = await _send(self, connection, batch)
        finally:
            self.free.append(connection)
            self.send_waiting()


class _Write:
    """One move's statement, waiting to be sent, and what became of it."""

    __slots__ = ("done", "sql", "values")

    def __init__(self, sql: bytes, values: list[object], done: asyncio.Future[bool]) -> None:
        self.sql, self.values, self.done = sql, values, done


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Connections] = (
    weakref.WeakKeyDictionary()
)
batches: list[int] = []  # the size of each batch sent, for tests to read (kept when asked)
COUNT_BATCHES = False


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
    judged on (False: another writer was first). Raises if the connection failed.

    Moves that wait for a connection meanwhile go together: as soon as one is free, every move
    waiting then goes over it, in one transaction and one round trip (psycopg's pipeline), each
    still its own row and its own check of its game's version, so a stale one is refused alone.
    A lone move goes alone, as a statement of its own: moves wait for nobody."""
    sql, values = statement(judged)
    loop = asyncio.get_running_loop()
    pool = _loops.get(loop)
    if pool is None:
        pool = _loops[loop] = _Connections()
    mine = _Write(sql, values, loop.create_future())
    pool.waiting.append(mine)
    pool.send_waiting()
    try:
        return await asyncio.shield(mine.done)
    except asyncio.CancelledError:  # given up (the process stopping): not sent, if it waits
        if mine in pool.waiting:
            pool.waiting.remove(mine)
        raise


async def _send(
    pool: _Connections, connection: psycopg.AsyncConnection | None, batch: list[_Write]
) -> psycopg.AsyncConnection | None:
    """Sends ``batch`` over ``connection`` (made first if there is none); the connection to
    give back (None once it failed: every move of the batch gets its error)."""
    if COUNT_BATCHES:
        batches.append(len(batch))
    try:
        if connection is None or connection.closed:
            pool.all.discard(connection)  # type: ignore[arg-type]
            connection = None
            connection = await _connect()
            pool.all.add(connection)
        if len(batch) == 1:
            written = [await _one(connection, batch[0])]
        else:
            try:
                written = await _together(connection, batch)
            except psycopg.IntegrityError:  # one of them was logged by another writer: alone
                written = [await _one(connection, move) for move in batch]
    except BaseException as error:
        if connection is not None:
            pool.all.discard(connection)
            await connection.close()
        for move in batch:
            if not move.done.done():
                move.done.set_exception(error)
        if not isinstance(error, Exception):
            raise
        return None
    for move, result in zip(batch, written, strict=True):
        move.done.set_result(result)
    return connection


async def _one(connection: psycopg.AsyncConnection, move: _Write) -> bool:
    try:
        async with connection.cursor() as cursor:
            await cursor.execute(move.sql, move.values, prepare=True)
            return cursor.rowcount == 1
    except psycopg.IntegrityError:  # the log's unique (game, number): another writer
        return False


async def _together(connection: psycopg.AsyncConnection, batch: list[_Write]) -> list[bool]:
    cursors = [connection.cursor() for _ in batch]
    async with connection.transaction(), connection.pipeline():
        for cursor, move in zip(cursors, batch, strict=True):
            await cursor.execute(move.sql, move.values, prepare=True)
    written = [cursor.rowcount == 1 for cursor in cursors]
    for cursor in cursors:
        await cursor.close()
    return written


def close_all() -> None:
    """Close every loop's connections, from outside the loops: for tests, whose database is
    dropped at the end."""
    for pool in list(_loops.values()):
        for connection in list(pool.all):
            connection.pgconn.finish()
    _loops.clear()
