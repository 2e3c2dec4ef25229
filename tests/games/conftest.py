"""What every test of the live game shares: bots that do not wait, a channel layer of its own,
and database connections that do not outlive the test."""

import copy
import uuid
from collections.abc import Iterator

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _bots_move_at_once(settings: Settings) -> None:
    settings.HEARTS_BOT_DELAY = 0


@pytest.fixture(autouse=True)
def _channel_layer_of_its_own(settings: Settings) -> None:
    """On Redis, the groups (``table-1``, ``lobby``) belong to every process that uses it: test
    runs in parallel, whose databases all count tables from 1, would hear each other's tables."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    config = layers["default"].get("CONFIG", {})
    if "hosts" in config:
        config["prefix"] = f"test-{uuid.uuid4().hex}"
        settings.CHANNEL_LAYERS = layers


@pytest.fixture(autouse=True)
def _close_socket_connections() -> Iterator[None]:
    """Sockets reach the database from asgiref's thread for sync code. With the persistent
    connections DATABASE_URL asks for (conn_max_age=60), that thread's connection would stay
    open after the test, and PostgreSQL would refuse to drop the test database at the end."""
    yield
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
