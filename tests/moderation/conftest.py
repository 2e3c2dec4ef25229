"""The sockets of these tests are the table's and the lobby's: they get the live fixtures of
tests/helpers/live.py (a channel layer of each test's own, the sockets' database connections
closed after it, a task queue of its own), as the games tests do."""

import pytest


@pytest.fixture(autouse=True)
def _live(channel_layer_of_its_own: None, close_socket_connections: None, task_queue: str) -> None:
    """Every test here may open sockets and queue tasks."""
