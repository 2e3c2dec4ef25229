"""The sockets of these tests are the table's and the lobby's: the games tests' fixtures apply
(a channel layer of each test's own, the sockets' database connections closed after it)."""

from tests.games.conftest import (  # noqa: F401
    _channel_layer_of_its_own,
    _close_socket_connections,
    task_queue,
)
