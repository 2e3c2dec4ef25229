"""A real Celery worker in a thread of the test process, so that it reaches the same test
database: with PostgreSQL through a connection of its own, and with SQLite through the in-memory
database that Django names ``file:memorydb_default?mode=memory&cache=shared``, which every
connection of this process shares. Shared-cache SQLite locks whole tables and does not wait for
a lock: a reader in one thread makes a writer in the other fail at once with "database table is
locked". So, on SQLite only, both connections read uncommitted data, which takes no read locks;
the writers never overlap, since the tests move only while the worker has nothing to do.

Use the ``worker`` fixture (import it into the test module) with
``pytest.mark.django_db(transaction=True)``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import OperationalError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from pytest_django.fixtures import Settings

from games.engine import Match
from games.models import Game
from hearts_site import celery_app
from live import broadcasts

PATIENCE = 10  # seconds; each bot waits HEARTS_BOT_DELAY before its move


@pytest.fixture
def worker(settings: Settings, task_queue: str) -> Iterator[None]:
    """A Celery worker in a thread of this process, reading this test's own queue."""
    settings.HEARTS_BOT_DELAY = 0.05
    with running_worker(task_queue):
        yield


@contextmanager
def running_worker(queue: str) -> Iterator[None]:
    """A worker for ``queue`` while the block runs; stopping it leaves the queue as it is."""
    conf = celery_app.conf
    hijack = conf.worker_hijack_root_logger
    # The worker would otherwise take over the root logger, and pytest's capture with it.
    conf.worker_hijack_root_logger = False
    database = connections.settings["default"]
    max_age = database.get("CONN_MAX_AGE", 0)
    database["CONN_MAX_AGE"] = 0  # the worker thread's connection closes after each task
    connection_created.connect(_read_without_locks)
    _read_without_locks(connection)
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, queues=[queue]):
            yield
    finally:
        # Celery's solo pool, made in this thread, had it keep a loop for its sends as a pool
        # process's thread does (hearts_site/celery.py); the tasks ran in the worker's thread.
        broadcasts.stop_keeping_a_loop()
        connection_created.disconnect(_read_without_locks)
        database["CONN_MAX_AGE"] = max_age
        conf.worker_hijack_root_logger = hijack


def _read_without_locks(connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")


def wait_for(game: Game, done: Callable[[Match], bool]) -> Match:
    deadline = time.monotonic() + PATIENCE
    while True:
        match = Game.objects.get(pk=game.pk).match()
        if done(match) and nobody_is_writing():
            return match
        assert time.monotonic() < deadline, f"the game stopped at version {match.version}"
        time.sleep(0.05)


def nobody_is_writing() -> bool:
    """On SQLite the reads above may see a move before the worker commits it; until it has,
    alice's own move would find the tables locked. An empty transaction waits for that (its
    BEGIN IMMEDIATE takes the write lock)."""
    try:
        with transaction.atomic():
            pass
    except OperationalError:
        return False
    return True
