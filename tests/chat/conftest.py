"""What the chat's tests share: the live fixtures (a channel layer, database connections and a
task queue of each test's own), and rate counts of each test's own in Redis, since every test's
database counts people and tables from 1."""

import uuid

import pytest
from pytest_django.fixtures import Settings

from chat import rates


@pytest.fixture(autouse=True)
def _live(channel_layer_of_its_own: None, close_socket_connections: None, task_queue: str) -> None:
    """Every test here may open sockets and queue tasks."""


@pytest.fixture(autouse=True)
def _rates_of_its_own(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    monkeypatch.setattr(rates, "KEY_PREFIX", f"test-chat-rate-{uuid.uuid4().hex}")
    settings.HEARTS_BOT_DELAY = 0
    settings.HEARTS_TRICK_PAUSE = 0
