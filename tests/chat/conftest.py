"""What the chat's tests share: the live fixtures (a channel layer, database connections and a
task queue of each test's own), and no pause for the bots. (Each test's own rate counts in
Redis are every test's: tests/conftest.py.)"""

import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _live(channel_layer_of_its_own: None, close_socket_connections: None, task_queue: str) -> None:
    """Every test here may open sockets and queue tasks."""


@pytest.fixture(autouse=True)
def _no_pause(settings: Settings) -> None:
    settings.HEARTS_BOT_DELAY = 0
    settings.HEARTS_TRICK_PAUSE = 0
