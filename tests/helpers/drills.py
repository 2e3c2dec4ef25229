"""What the kill drills share (tests/test_kill.py, tests/test_kill_bots.py): a player's page
that keeps its screen across reconnections and tells which of its moves were acknowledged, the
loop that reads its socket and makes its moves, the site of two daphnes they start, and the
running of a drill in a process of its own.

A drill kills a daphne (SIGKILL) and goes on from the other, so it starts bench/load.py's site,
whose helpers set Django up on the site's own database: the test runs the drill's module as a
script (``run_drill``), which writes what it found (``write_findings``) for the test to judge.
A drill that needs more of a page subclasses ``Client``: ``may_move`` holds its moves back, and
``before_moving`` is told of each move just before it is made.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import load

ROOT = Path(__file__).resolve().parent.parent.parent
THINK = 0.02  # seconds a player thinks at most
PATIENCE = 30.0  # seconds a stage may take before the drill gives up


@dataclass
class Sent:
    """A move a client sent: on which version, and what became of it as its screen saw it."""

    kind: str
    cards: list[str]
    version: int
    after_the_kill: bool
    fate: str = "pending"  # acknowledged, refused, or (sent to the killed daphne) unknown


@dataclass
class Client:
    """One player's page: its screen, kept across reconnections, and the moves it sent."""

    player: load.Player
    game_id: int
    rng: random.Random
    screen: load.Screen = field(default_factory=load.Screen)
    sent: list[Sent] = field(default_factory=list)
    acted_on: int = -1  # the version its last move was made on
    move_at: float | None = None  # when it makes the move its screen asks for
    after_the_kill: bool = False  # reconnected to the second daphne

    @property
    def pending(self) -> Sent | None:
        """The move it sent whose fate its screen has not told yet, if any."""
        last = self.sent[-1] if self.sent else None
        return last if last is not None and last.fate == "pending" else None

    def may_move(self) -> bool:
        """Whether it may make the move its screen asks for (always, unless a drill holds it)."""
        return True

    def before_moving(self) -> None:
        """Told just before each move is made (nothing, unless a drill counts them)."""

    def take(self, message: str) -> None:
        """A push: the screen takes it in, and it tells what became of the move in flight."""
        my_turn = self.screen.my_turn
        self.screen.update(message)
        # Whose turn it is, from the seat's own controls (their play button). The board's
        # data-my-turn comes in a fragment rendered alike for everyone, where it speaks for
        # no seat (bench/load.py's Screen reads it, and waits for a turn that never shows).
        if 'class="controls"' in message:
            my_turn = 'id="play-button"' in message
        self.screen.my_turn = my_turn
        move = self.pending
        if move is None:
            return
        if load.ERROR.search(message):
            move.fate = "refused"
            self.acted_on = -1  # try again, from what the screen shows now
        elif self.screen.version > move.version and (
            move.kind != "pass" or not self.screen.can_pass
        ):
            move.fate = "acknowledged"

    def next_move(self) -> dict[str, str] | None:
        """The move to send now, if its screen asks for one and the player has thought."""
        if self.pending is not None or self.screen.version == self.acted_on:
            return None
        if not self.may_move() or self.screen.move(self.rng) is None:
            self.move_at = None
            return None
        now = time.monotonic()
        if self.move_at is None:
            self.move_at = now + self.rng.uniform(0, THINK)
        if now < self.move_at:
            return None
        self.move_at = None
        self.before_moving()
        move = self.screen.move(self.rng)
        assert move is not None
        self.acted_on = self.screen.version
        cards = move["cards"].split()
        self.sent.append(Sent(move["action"], cards, self.screen.version, self.after_the_kill))
        return move

    def lost_with_the_daphne(self) -> None:
        """The daphne it was on is killed: a move in flight may be in the log or not, and the
        page that reconnects may make it again."""
        if self.pending is not None:
            self.pending.fate = "unknown"
            self.acted_on = -1


def acknowledged(clients: Iterable[Client], after_the_kill: bool) -> list[Sent]:
    """The moves of ``clients`` their screens acknowledged, after the kill or before it."""
    return [
        move
        for client in clients
        for move in client.sent
        if move.fate == "acknowledged" and move.after_the_kill is after_the_kill
    ]


async def play(
    client: Client, socket: Any, go_on: Callable[[], bool], moving: Callable[[], bool]
) -> None:
    """Reads the socket while ``go_on()``, and makes the moves its screen asks for while
    ``moving()``."""
    while go_on():
        wait = 0.05 if client.move_at is None else client.move_at - time.monotonic()
        try:
            message = await asyncio.wait_for(socket.recv(), timeout=min(0.05, max(0.0, wait)))
        except TimeoutError:
            message = None
        if isinstance(message, str):
            client.take(message)
        if moving() and (move := client.next_move()):
            await socket.send(json.dumps(move))


async def play_until_closed(client: Client) -> None:
    """Connects to the client's daphne and plays there until its socket closes (the kill)."""
    import websockets

    async with load.connect(client.player) as socket:
        with contextlib.suppress(websockets.ConnectionClosed):
            await play(client, socket, lambda: True, lambda: True)


async def reconnect(client: Client, port: int, stack: AsyncExitStack) -> Any:
    """The client's socket to the daphne at ``port``, opened saying what its screen shows (it
    closes with ``stack``); its moves from now on are after the kill."""
    client.player = dataclasses.replace(client.player, port=port)
    client.after_the_kill = True
    shown = (client.game_id, client.screen.version)
    return await stack.enter_async_context(load.connect(client.player, shown))


def within(seconds: float, doing: str) -> Callable[[], None]:
    """A check that fails once ``seconds`` have passed, saying what the drill was ``doing``."""
    deadline = time.monotonic() + seconds

    def check() -> None:
        assert time.monotonic() < deadline, f"gave up after {seconds:g} s {doing}"

    return check


def site_args(log: Path, bots: bool) -> argparse.Namespace:
    """bench/load.py's arguments for the drills' site: two daphnes on an SQLite file, the
    tables' sockets all on one, with people only or (``bots``) one person and three bots."""
    return argparse.Namespace(
        database="sqlite",
        layout="one",
        webs=2,
        log=log,
        proxy=None,
        bots=bots,
        target=100,
        bot_level="normal",
        spread="table",
    )


@contextlib.contextmanager
def running_site(args: argparse.Namespace, var_dir: Path) -> Iterator[load.Site]:
    """bench/load.py's site, started in ``var_dir`` and stopped at the end, come what may."""
    site = load.start_site(args, var_dir)
    try:
        yield site
    finally:
        load.stop_site(site)


def current_game(table_id: int) -> int:
    """The id of the table's latest game."""
    from games.models import Game

    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    assert game is not None
    return game.pk


def game_version(game_id: int) -> int:
    """The game's version in the database."""
    from games.models import Game

    return Game.objects.get(pk=game_id).version


def logged(game: Any, seat: int, move: Sent, until: int | None) -> bool:
    """Whether ``move`` of ``seat`` is in the game's move log (by number ``until``, if given)."""
    from games.models import MoveRecord

    rows = MoveRecord.objects.filter(game=game, seat=seat, kind=move.kind)
    rows = rows.filter(number__gt=move.version)
    if until is not None:
        rows = rows.filter(number__lte=until)
    if move.kind != "pass":  # the next move: nobody else could play then
        rows = rows.filter(number=move.version + 1)
    return any(sorted(row.cards.split()) == sorted(move.cards) for row in rows)


def hand_unlike_the_database(client: Client, match: Any) -> bool:
    """Whether, the cards being played, the client's screen shows another hand than its seat
    holds in the live match."""
    from games.engine import Phase

    return match.hand.phase is Phase.PLAYING and sorted(
        card for card, _ in client.screen.hand
    ) != sorted(str(card) for card in match.hand.holding(client.player.seat))


def run_drill(
    module: str, findings: Path, env: Mapping[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Runs the drill ``module`` as a script (``python -m module FINDINGS``), with ``env``
    added to the environment and neither the tests' database nor their Redis (it starts its
    own site), for ``timeout`` seconds at the most."""
    inherited = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    return subprocess.run(
        [sys.executable, "-m", module, str(findings)],
        cwd=ROOT,
        env={**inherited, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def write_findings(drill: Callable[[Path, Path], dict[str, Any]], prefix: str) -> dict[str, Any]:
    """Runs ``drill(var_dir, log)`` in a temporary directory named from ``prefix``, the site's
    log beside the findings file the command line names; writes what it found there as JSON,
    and returns it."""
    findings_file = Path(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix=prefix) as var_dir:
        found = drill(Path(var_dir), findings_file.parent / "site.log")
    findings_file.write_text(json.dumps(found, indent=1))
    return found
