"""The README's first command: the whole site comes up, prints its address, stops on Ctrl-C, and
keeps going when one of its processes dies. Its console stays quiet (the address, warnings,
errors, a process started again) unless it is asked to be verbose."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PATIENCE = 60  # seconds: a hang guard for each step, far above what one takes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve_env(var_dir: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("SECRET_KEY", None)
    env["HEARTS_VAR_DIR"] = str(var_dir)
    return {**env, **settings}


def start_serve(port: int, env: dict[str, str], *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "hearts_site.serve", "--port", str(port), *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def read_until_address(server: subprocess.Popen[str], address: str) -> list[str]:
    """The lines it printed up to its address; a thread reads the rest as they come (unread,
    they would fill the pipe and stall every process writing to it)."""
    assert server.stdout is not None
    lines = []
    for line in server.stdout:
        lines.append(line)
        if address in line:
            threading.Thread(target=lines.extend, args=(server.stdout,), daemon=True).start()
            return lines
    raise AssertionError("".join(lines))


def read_all(server: subprocess.Popen[str]) -> tuple[list[str], threading.Thread]:
    """Every line it prints, read by a thread that ends when it and its processes have
    exited."""
    assert server.stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lines.extend, args=(server.stdout,), daemon=True)
    reader.start()
    return lines, reader


def page(address: str) -> str:
    for _ in range(PATIENCE * 2):
        try:
            return urllib.request.urlopen(address, timeout=2).read().decode()
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"nothing answered at {address}")


def eventually(what: str, done: Callable[[], object]) -> object:
    deadline = time.monotonic() + PATIENCE
    while True:
        result = done()
        if result:
            return result
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.fixture
def stop_serve() -> Iterator[list[subprocess.Popen[str]]]:
    servers: list[subprocess.Popen[str]] = []
    yield servers
    for server in servers:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)


@pytest.mark.slow
def test_serve_runs_the_site_prints_its_address_and_stops_on_ctrl_c(tmp_path, stop_serve):
    port = free_port()
    server = start_serve(port, serve_env(tmp_path))
    stop_serve.append(server)
    address = f"http://127.0.0.1:{port}/"
    read_until_address(server, address)
    # The address is printed once it answers: no waiting for it.
    assert "Tables" in urllib.request.urlopen(address, timeout=10).read().decode()
    assert (tmp_path / "hearts.sqlite3").exists()
    assert all(pid_of(server, name) for name in ("redis", "worker", "reviewer", "beat", "web"))
    server.send_signal(signal.SIGINT)
    assert server.wait(timeout=30) is not None
    eventually("a process outlived the site", lambda: not site_processes(server))


# Killing the worker and Redis ------------------------------------------------------------


def site_processes(server: subprocess.Popen[str]) -> dict[int, tuple[int, str]]:
    """Every live process the serve command started, as pid: (parent, command)."""
    everyone = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # gone meanwhile
            continue
        state, parent = text.rsplit(")", 1)[1].split()[:2]
        if state != "Z":
            everyone[int(stat.parent.name)] = (int(parent), command)
    found: dict[int, tuple[int, str]] = {}
    parents = {server.pid}
    while parents:
        children = {pid: each for pid, each in everyone.items() if each[0] in parents}
        found.update(children)
        parents = set(children) - {server.pid}
    return found


def pid_of(server: subprocess.Popen[str], name: str) -> int:
    """The pid of the site's Redis server, of one of its Celery workers' main process (the
    games' worker, the reviews'), of beat or of daphne (0: none)."""
    processes = site_processes(server)
    marks = {"redis": "redis-server", "worker": "-Q celery", "beat": "hearts_site beat"}
    marks |= {"web": "hearts_site.asgi", "reviewer": "-Q reviews"}
    mine = {pid: parent for pid, (parent, command) in processes.items() if marks[name] in command}
    # The worker's pool processes have the same command line as the worker: their parent is it.
    return next((pid for pid, parent in mine.items() if parent not in mine), 0)


def redis_url_of(server: subprocess.Popen[str]) -> str:
    """The address of the Redis server the serve command started."""
    command = site_processes(server)[pid_of(server, "redis")][1]
    port = re.search(r"(?:--port |:)(\d+)", command)  # it shows its address as its title
    assert port, command
    return f"redis://127.0.0.1:{port.group(1)}/0"


BOTS_GAME = """
from django.contrib.auth.models import User
from games import services
alice = User.objects.create_user("alice")
table = services.create_table(alice, preset="custom", options={"target": 500}, bot_level="easy")
table.seats.update(user=None, is_bot=True)
print("game", services.start_game(table.pk, alice).pk)
"""


def start_a_bots_game(env: dict[str, str], server: subprocess.Popen[str]) -> int:
    shell = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", BOTS_GAME],
        env={**env, "REDIS_URL": redis_url_of(server)},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert shell.returncode == 0, shell.stderr
    return int(shell.stdout.split("game ")[-1])


def version_of_game(database: Path, game_id: int) -> int:
    with sqlite3.connect(database, timeout=10) as connection:
        row = connection.execute("SELECT version FROM games_game WHERE id = ?", (game_id,))
        return int(row.fetchone()[0])


def kill_and_see_it_replaced(server: subprocess.Popen[str], name: str) -> None:
    pid = pid_of(server, name)
    assert pid
    os.kill(pid, signal.SIGKILL)
    eventually(f"{name} was not started again", lambda: pid_of(server, name) not in (0, pid))


def bots_play_on(database: Path, game_id: int) -> None:
    version = version_of_game(database, game_id)
    eventually(
        f"the bots stopped at version {version}",
        lambda: version_of_game(database, game_id) > version + 2,
    )


@pytest.mark.slow
def test_serve_starts_a_killed_worker_or_redis_again_and_the_bots_play_on(tmp_path, stop_serve):
    """Four bots play a long match; the worker, then Redis, is killed under them. A bot task
    the dead worker held is made by the sweep (every second) once the bots' turn is overdue, 3 s
    after their delay: people's clocks are as the site runs them."""
    port = free_port()
    env = serve_env(tmp_path, HEARTS_BOT_DELAY="0.05")
    server = start_serve(port, env)
    stop_serve.append(server)
    address = f"http://127.0.0.1:{port}/"
    said = read_until_address(server, address)
    assert "Tables" in page(address)
    game_id = start_a_bots_game(env, server)
    database = tmp_path / "hearts.sqlite3"
    bots_play_on(database, game_id)

    kill_and_see_it_replaced(server, "worker")
    bots_play_on(database, game_id)
    # The console says so, even when it is quiet.
    restarted = re.compile(
        r"hearts: worker stopped (unexpectedly|while starting); starting it again"
    )
    eventually(
        "the console did not say the worker was started again",
        lambda: any(restarted.search(line) for line in said),
    )

    kill_and_see_it_replaced(server, "redis")
    bots_play_on(database, game_id)
    assert "Tables" in page(address)
    assert server.poll() is None


# What the console says -----------------------------------------------------------------------


def stop_and_read(server: subprocess.Popen[str], lines: list[str], reader: threading.Thread) -> str:
    """Ctrl-C, then everything it printed."""
    server.send_signal(signal.SIGINT)
    server.wait(timeout=PATIENCE)
    reader.join(timeout=PATIENCE)
    assert not reader.is_alive(), "a process of the site still holds the console"
    return "".join(lines)


@pytest.mark.slow
def test_serve_says_its_address_and_not_each_task_while_the_bots_play(tmp_path, stop_serve):
    port = free_port()
    env = serve_env(tmp_path, HEARTS_BOT_DELAY="0.05")
    server = start_serve(port, env)
    stop_serve.append(server)
    lines, reader = read_all(server)
    address = f"http://127.0.0.1:{port}/"
    eventually("no address printed", lambda: any(address in line for line in lines))
    assert "Tables" in page(address)
    # The worker's tasks (the bots' moves, the sweep every second) run meanwhile.
    game_id = start_a_bots_game(env, server)
    bots_play_on(tmp_path / "hearts.sqlite3", game_id)

    said = stop_and_read(server, lines, reader)
    assert f"Hearts is running at {address}" in said
    for chatter in ("Task games.tasks", "Sending due task", "sweep_deadlines", "GET /"):
        assert chatter not in said, said
    assert "No directory at" not in said
    assert "CRIT" not in said
    # Nothing that reads as a fault: no banner art, no advice to servers that save to disk,
    # no warning that the person who started it is root, no library's start-up line.
    first_screen = said.split(address)[0]
    assert "Hearts: the web server (daphne), a Celery worker and beat, Redis (embedded)" in (
        first_screen
    )
    assert f"SQLite in {tmp_path / 'hearts.sqlite3'}" in first_screen
    for fault in ("WARNING", "Warning", "oO0OoO0OoO0Oo", "overcommit", "superuser", "AXES"):
        assert fault not in said, said
    assert "Redis version=" in (tmp_path / "redis.log").read_text()  # kept, in var/


def status_line(port: int, path: str) -> str:
    """The first line of daphne's answer, as it sent it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n" not in answer:
            answer += sock.recv(4096)
    return answer.split(b"\r\n", 1)[0].decode()


@pytest.mark.slow
def test_serve_keeps_a_clients_errors_and_a_normal_stop_off_the_console(tmp_path, stop_serve):
    """A page not found, a query of too many fields and the API's refusal of a bad parameter
    are the client's errors: not one line of them at the console's level, and no traceback.
    Each status line names its status."""
    port = free_port()
    server = start_serve(port, serve_env(tmp_path))
    stop_serve.append(server)
    lines, reader = read_all(server)
    address = f"http://127.0.0.1:{port}/"
    eventually("no address printed", lambda: any(address in line for line in lines))

    assert status_line(port, "/api/v1/games/2") == "HTTP/1.1 404 Not Found"
    fields = "&".join(f"k{n}=v" for n in range(2000))
    assert status_line(port, f"/learn/rules/?{fields}") == "HTTP/1.1 400 Bad Request"
    assert (
        status_line(port, "/api/v1/leaderboard?rule_set=chess")
        == "HTTP/1.1 422 Unprocessable Entity"
    )

    said = stop_and_read(server, lines, reader)
    for chatter in ("Not Found", "Unprocessable", "Traceback", "DATA_UPLOAD", "Warm shutdown"):
        assert chatter not in said, said


@pytest.mark.slow
def test_serve_verbose_says_every_sweep_and_task(tmp_path, stop_serve):
    port = free_port()
    server = start_serve(port, serve_env(tmp_path), "--verbose")
    stop_serve.append(server)
    lines, reader = read_all(server)
    address = f"http://127.0.0.1:{port}/"
    eventually("no address printed", lambda: any(address in line for line in lines))
    eventually(
        "no task was said",
        lambda: any("Task games.tasks.sweep_deadlines" in line for line in lines),
    )
    said = stop_and_read(server, lines, reader)
    assert "Sending due task sweep-deadlines" in said
    assert "Redis version=" in said  # everything said, the embedded Redis's lines too
    assert "No directory at" not in said


def test_the_site_starts_without_warning_of_a_missing_static_folder(tmp_path):
    """WhiteNoise warns of a STATIC_ROOT that is not there (nothing collected into it yet)."""
    check = subprocess.run(
        [
            sys.executable, "-W", "error::UserWarning", "-c",
            "import django; django.setup(); from whitenoise.middleware import "
            "WhiteNoiseMiddleware; WhiteNoiseMiddleware(lambda request: None)",
        ],
        env=serve_env(
            tmp_path / "var",
            DJANGO_SETTINGS_MODULE="hearts_site.settings",
            SECRET_KEY="a-key-only-for-this-check-" + "x" * 40,
        ),
        cwd=ROOT,
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr
    assert "No directory at" not in check.stderr
