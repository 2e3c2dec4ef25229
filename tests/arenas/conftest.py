"""What the arenas' tests share: no recurring arenas unless a test sets some, and the
live fixtures (a channel layer, database connections and a task queue of each
test's own)."""

import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _no_schedule(settings: Settings) -> None:
    settings.HEARTS_ARENA_SCHEDULE = []
    settings.HEARTS_BOT_DELAY = 0
    settings.HEARTS_TRICK_PAUSE = 0


@pytest.fixture(autouse=True)
def _live(channel_layer_of_its_own: None, close_socket_connections: None, task_queue: str) -> None:
    """Every test here may open sockets and queue tasks."""
