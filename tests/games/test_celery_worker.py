"""A real Celery worker, fed through Redis, makes the bots' moves after alice's.

The worker runs in a thread of the test process, so it reaches the same test database: with
PostgreSQL through a connection of its own, and with SQLite through the in-memory database that
Django names ``file:memorydb_default?mode=memory&cache=shared``, which every connection of this
process shares. Shared-cache SQLite locks whole tables and does not wait for a lock: a reader in
one thread makes a writer in the other fail at once with "database table is locked". So, on
SQLite only, both connections read uncommitted data, which takes no read locks; the writers
never overlap, since the bots move only while alice waits and she moves only once they are done.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from pytest_django.fixtures import Settings

from games import services
from games.engine import Match, Phase
from games.models import Game
from hearts_site import celery_app

pytestmark = [
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="needs a real broker: set REDIS_URL (./dev test and CI always do)",
    ),
    pytest.mark.django_db(transaction=True),
]

PATIENCE = 10  # seconds; each bot waits HEARTS_BOT_DELAY before its move


@pytest.fixture
def worker(settings: Settings) -> Iterator[None]:
    settings.HEARTS_BOT_DELAY = 0.05
    conf = celery_app.conf
    hijack, routes = conf.worker_hijack_root_logger, conf.task_routes
    # The worker would otherwise take over the root logger, and pytest's capture with it.
    conf.worker_hijack_root_logger = False
    # A queue of this test's own: another worker on the same Redis (a second test run, a
    # development server) must not take these bots' moves to its own database.
    queue = f"test-bots-{uuid.uuid4().hex}"
    conf.task_routes = {"games.tasks.bot_move": {"queue": queue}}
    celery_app.amqp.flush_routes()
    database = connections.settings["default"]
    max_age = database.get("CONN_MAX_AGE", 0)
    database["CONN_MAX_AGE"] = 0  # the worker thread's connection closes after each task
    connection_created.connect(_read_without_locks)
    _read_without_locks(connection)
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, queues=[queue]):
            yield
    finally:
        connection_created.disconnect(_read_without_locks)
        database["CONN_MAX_AGE"] = max_age
        conf.worker_hijack_root_logger, conf.task_routes = hijack, routes
        celery_app.amqp.flush_routes()
        with celery_app.connection_for_write() as broker:
            bound = celery_app.amqp.queues[queue](broker.default_channel)
            bound.declare()  # so that this channel knows the bindings it must delete
            bound.delete()


def _read_without_locks(connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")


def _wait_for(game: Game, done: Callable[[Match], bool]) -> Match:
    deadline = time.monotonic() + PATIENCE
    while True:
        match = Game.objects.get(pk=game.pk).match()
        if done(match) and _nobody_is_writing():
            return match
        assert time.monotonic() < deadline, f"the bots stopped at version {match.version}"
        time.sleep(0.05)


def _nobody_is_writing() -> bool:
    """On SQLite the reads above may see a move before the worker commits it; until it has,
    alice's own move would find the tables locked. An empty transaction waits for that (its
    BEGIN IMMEDIATE takes the write lock)."""
    try:
        with transaction.atomic():
            pass
    except OperationalError:
        return False
    return True


def _moves_since(game: Game, version: int) -> list[tuple[str, int]]:
    return [(m.kind, m.seat) for m in game.moves.filter(number__gt=version)]


def test_the_worker_makes_the_bots_moves_after_each_of_alices(worker: None) -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    match = _wait_for(game, lambda m: m.version == 3)
    assert _moves_since(game, 0) == [("pass", 1), ("pass", 2), ("pass", 3)]
    assert services.seats_to_act(match) == [0]

    mine = [str(card) for card in match.hand.holding(0)[:3]]
    services.act(game.pk, 0, "pass", version=3, cards=mine)
    match = _wait_for(game, lambda m: m.hand.phase is Phase.PLAYING and m.hand.turn == 0)
    assert all(kind == "play" and seat != 0 for kind, seat in _moves_since(game, 4))

    for _ in range(3):  # alice plays a card; the bots play on until her turn comes again
        version = match.version
        card = str(match.hand.legal_plays(0)[0])
        services.act(game.pk, 0, "play", version=version, cards=[card])
        match = _wait_for(game, lambda m, v=version: m.version > v and m.hand.turn == 0)
        played = _moves_since(game, version)
        assert played[0] == ("play", 0)
        assert all(kind == "play" and seat != 0 for kind, seat in played[1:])
    assert game.moves.filter(seat=0, kind="play").count() == 3
