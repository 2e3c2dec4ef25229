"""What every test of the live game shares: bots that do not wait, and the live fixtures of
tests/helpers/live.py (a channel layer, database connections and a task queue of its own)."""

import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _bots_move_at_once(settings: Settings) -> None:
    settings.HEARTS_BOT_DELAY = 0
    settings.HEARTS_TRICK_PAUSE = 0


@pytest.fixture(autouse=True)
def _live(channel_layer_of_its_own: None, close_socket_connections: None, task_queue: str) -> None:
    """Every test here may open sockets and queue tasks."""
