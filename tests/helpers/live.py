"""The fixtures of tests that open the site's sockets or queue its tasks: a channel layer of
each test's own, the sockets' database connections closed after it, and a task queue of its own.
The root conftest registers this module as a plugin; the conftests of the folders whose tests
need them (tests/games, tests/moderation) ask for them for every test there."""

import copy
import uuid
from collections.abc import Iterator

import pytest
from asgiref.sync import SyncToAsync
from django.conf import settings as django_settings
from django.db import connections
from pytest_django.fixtures import Settings

from hearts_site import celery_app
from live import bot_pool, fast_writes, table_state


@pytest.fixture
def channel_layer_of_its_own(settings: Settings) -> None:
    """On Redis, the groups (``table-1``, ``lobby``) belong to every process that uses it: test
    runs in parallel, whose databases all count tables from 1, would hear each other's tables."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    config = layers["default"].get("CONFIG", {})
    if "hosts" in config:
        config["prefix"] = f"test-{uuid.uuid4().hex}"
        settings.CHANNEL_LAYERS = layers


@pytest.fixture
def close_socket_connections(settings: Settings) -> Iterator[None]:
    """Sockets reach the database from asgiref's thread for sync code. With the persistent
    connections DATABASE_URL asks for (conn_max_age=60), that thread's connection would stay
    open after the test, and PostgreSQL would refuse to drop the test database at the end.

    A relay's bots decide in a thread of the test's process (live/bot_pool.py), with the
    test's settings; tests/games/test_bot_pool.py tries the processes."""
    settings.HEARTS_BOT_PROCESSES = 0
    bot_pool.shut_down()
    yield
    bot_pool.shut_down()
    fast_writes.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    table_state.close_pool_connections()


@pytest.fixture
def task_queue() -> Iterator[str]:
    """The bots' and the clock's tasks go to a queue of this test's own: a worker on the same
    Redis (another test run, a development server) must not take them to its own database,
    and none of them is left behind in a queue somebody else reads."""
    conf = celery_app.conf
    routes = conf.task_routes
    queue = f"test-tasks-{uuid.uuid4().hex}"
    conf.task_routes = {
        app: {"queue": queue} for app in ("games.tasks.*", "pairing.tasks.*", "arenas.tasks.*")
    }
    _reroute()
    try:
        yield queue
    finally:
        conf.task_routes = routes
        _reroute()
        if django_settings.REDIS_URL:
            with celery_app.connection_for_write() as broker:
                bound = celery_app.amqp.queues[queue](broker.default_channel)
                bound.declare()  # so that this channel knows the bindings it must delete
                bound.delete()


def _reroute() -> None:
    """Make Celery read ``task_routes`` again: it keeps both the routes and its router."""
    celery_app.amqp.flush_routes()
    celery_app.amqp.__dict__.pop("router", None)
