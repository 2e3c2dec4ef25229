"""A daphne killed (SIGKILL) mid-game: its tables go on from another process with every move
it acknowledged.

Two tables of four people play with every socket on the first of two daphne processes (a worker
and beat beside them; bench/load.py's site, on an SQLite file and a Redis of its own). A move
is acknowledged when its mover's own screen shows it made: a version past the one it was made
on (and, for a pass, no pass left to make). Once each table has a dozen, the first daphne is
killed with a move on its way to it; every player reconnects to the second, saying what their
screen shows, and the table plays on there. Every acknowledged move must be in the move log, each
screen must come back showing the version the database has, the moves made on the second
daphne must reach all four screens, and the games must replay from their seeds and logs.

The site's helpers set Django up on the site's own database, where this pytest process has set
it up on the tests'. So the drill runs in a process of its own (this module run as a script,
``python -m tests.test_kill FINDINGS.json``), which writes what it found for the test to judge.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench import load

ROOT = Path(__file__).resolve().parent.parent
TABLES = 2
BEFORE = 12  # acknowledged moves a table before the kill
AFTER = 8  # and after it
THINK = 0.02  # seconds a player thinks at most
PATIENCE = 30.0  # seconds a stage may take before the drill gives up


@pytest.mark.slow
def test_a_daphne_killed_mid_game_loses_no_acknowledged_move_and_its_tables_go_on(tmp_path):
    findings = tmp_path / "findings.json"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}

    done = subprocess.run(
        [sys.executable, "-m", "tests.test_kill", str(findings)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, f"{done.stderr[-4000:]}\nthe site's log: {tmp_path}/site.log"
    found = json.loads(findings.read_text())
    assert len(found["tables"]) == TABLES
    for table in found["tables"]:
        assert table["acknowledged_before"] >= BEFORE
        assert table["acknowledged_but_not_logged"] == []
        assert table["shown_after_reconnecting"] == [table["version_after_the_kill"]] * 4
        assert table["acknowledged_after"] >= AFTER
        assert table["not_on_every_screen"] == []
        assert table["shown_at_the_end"] == [table["version_at_the_end"]] * 4
        assert table["hands_unlike_the_database"] == []
    assert found["replays"]["mismatched"] == 0
    assert found["replays"]["running"] == TABLES


# The drill, in a process of its own ---------------------------------------------------------


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
    seen: list[int] = field(default_factory=list)  # the versions shown since it connected
    acted_on: int = -1  # the version its last move was made on
    move_at: float | None = None  # when it makes the move its screen asks for

    @property
    def pending(self) -> Sent | None:
        last = self.sent[-1] if self.sent else None
        return last if last is not None and last.fate == "pending" else None

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
        self.seen.append(self.screen.version)
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

    def next_move(self, after_the_kill: bool) -> dict[str, str] | None:
        """The move to send now, if its screen asks for one and the player has thought."""
        if self.pending is not None or self.screen.version == self.acted_on:
            return None
        if self.screen.move(self.rng) is None:
            self.move_at = None
            return None
        now = time.monotonic()
        if self.move_at is None:
            self.move_at = now + self.rng.uniform(0, THINK)
        if now < self.move_at:
            return None
        self.move_at = None
        move = self.screen.move(self.rng)
        assert move is not None
        self.acted_on = self.screen.version
        cards = move["cards"].split()
        self.sent.append(Sent(move["action"], cards, self.screen.version, after_the_kill))
        return move


def acknowledged(table: list[Client], after_the_kill: bool) -> list[Sent]:
    return [
        move
        for client in table
        for move in client.sent
        if move.fate == "acknowledged" and move.after_the_kill is after_the_kill
    ]


async def play(
    client: Client,
    socket: Any,
    go_on: Callable[[], bool],
    moving: Callable[[], bool],
    after_the_kill: bool,
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
        if moving() and (move := client.next_move(after_the_kill)):
            await socket.send(json.dumps(move))


def within(seconds: float, doing: str) -> Callable[[], None]:
    deadline = time.monotonic() + seconds

    def check() -> None:
        assert time.monotonic() < deadline, f"gave up after {seconds:g} s {doing}"

    return check


async def until_killed(tables: list[list[Client]], web1: int) -> None:
    """Every client plays on the first daphne until each table has ``BEFORE`` acknowledged
    moves; then the daphne is killed, and every socket finds itself closed."""
    import websockets

    async def one(client: Client) -> None:
        async with load.connect(client.player) as socket:
            with contextlib.suppress(websockets.ConnectionClosed):
                await play(client, socket, lambda: True, lambda: True, after_the_kill=False)

    clients = [asyncio.create_task(one(client)) for table in tables for client in table]
    in_time = within(PATIENCE, "playing before the kill")
    # Killed while a move is on its way to it: written or not, never acknowledged.
    while any(len(acknowledged(table, False)) < BEFORE for table in tables) or not any(
        client.pending for table in tables for client in table
    ):
        in_time()
        await asyncio.sleep(0.001)
    os.kill(web1, signal.SIGKILL)
    await asyncio.wait_for(asyncio.gather(*clients), PATIENCE)
    for table in tables:
        for client in table:
            if client.pending is not None:
                client.pending.fate = "unknown"  # in flight: in the log or not
                client.acted_on = -1  # the page that reconnects may make it again


async def on_the_second(
    tables: list[list[Client]], web2: int, versions: list[int]
) -> list[list[int]]:
    """Every client reconnects to the second daphne, saying what its screen shows, and reads
    until its screen shows the table's version in the database (``versions``) or a few seconds
    have passed; what the screens show then is returned. Then the tables play on until each
    has ``AFTER`` more acknowledged moves, and their screens settle."""
    async with AsyncExitStack() as stack:
        sockets: dict[int, Any] = {}
        for table in tables:
            for client in table:
                client.player = dataclasses.replace(client.player, port=web2)
                client.seen = []
                shown = (client.game_id, client.screen.version)
                opened = await stack.enter_async_context(load.connect(client.player, shown))
                sockets[id(client)] = opened
        await asyncio.gather(
            *(
                read_until(client, sockets[id(client)], version, seconds=5.0)
                for table, version in zip(tables, versions, strict=True)
                for client in table
            )
        )
        after_reconnecting = [[client.screen.version for client in table] for table in tables]

        in_time = within(PATIENCE, "playing after the kill")

        def moving(table: list[Client]) -> Callable[[], bool]:
            return lambda: len(acknowledged(table, True)) < AFTER

        def go_on(table: list[Client]) -> Callable[[], bool]:
            def still() -> bool:
                in_time()
                unsettled = len({client.screen.version for client in table}) > 1
                return moving(table)() or unsettled or any(client.pending for client in table)

            return still

        await asyncio.gather(
            *(
                play(client, sockets[id(client)], go_on(table), moving(table), True)
                for table in tables
                for client in table
            )
        )
    return after_reconnecting


async def read_until(client: Client, socket: Any, version: int, seconds: float) -> None:
    """Reads until the screen shows ``version``, or for ``seconds`` at most."""
    deadline = time.monotonic() + seconds
    while client.screen.version != version and (left := deadline - time.monotonic()) > 0:
        try:
            client.take(await asyncio.wait_for(socket.recv(), left))
        except TimeoutError:
            return


def drill(var_dir: Path, log: Path) -> dict[str, Any]:
    """Starts the site, plays, kills the first daphne, plays on the second; what it found."""
    args = argparse.Namespace(
        database="sqlite",
        layout="one",
        webs=2,
        log=log,
        bots=False,
        target=100,
        bot_level="normal",
        spread="table",
    )
    site = load.start_site(args, var_dir)
    try:
        web1, web2 = site.layout.ports
        tables = [
            [
                Client(
                    player,
                    current_game(player.table_id),
                    random.Random(f"{player.table_id}/{player.seat}"),
                )
                for player in players
            ]
            for players in load.set_tables(0, TABLES, args, [web1])
        ]
        started = time.monotonic()
        asyncio.run(until_killed(tables, site.layout.processes["web1"].pid))
        killed_after = time.monotonic() - started
        after_the_kill = [game_version(table[0].game_id) for table in tables]
        shown = asyncio.run(on_the_second(tables, web2, after_the_kill))
        found = [
            findings(table, version, shown_then)
            for table, version, shown_then in zip(tables, after_the_kill, shown, strict=True)
        ]
        site.layout.stop()  # before the games are read for the last time
        replays = load.check_replays()
    finally:
        load.stop_site(site)
    return {"killed_after_s": killed_after, "tables": found, "replays": replays}


def current_game(table_id: int) -> int:
    from games.models import Game

    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    assert game is not None
    return game.pk


def game_version(game_id: int) -> int:
    from games.models import Game

    return Game.objects.get(pk=game_id).version


def findings(table: list[Client], version: int, shown_then: list[int]) -> dict[str, Any]:
    """What the drill found at one table: every acknowledged move before the kill looked up in
    the log, and what the screens showed after it and at the end against the database."""
    from games.engine import Phase
    from games.models import Game, MoveRecord

    game = Game.objects.get(pk=table[0].game_id)

    def logged(seat: int, move: Sent) -> bool:
        """Whether the move was in the log when the daphne was killed (a player who saw it
        lost might make it again after)."""
        rows = MoveRecord.objects.filter(
            game=game, seat=seat, kind=move.kind, number__gt=move.version, number__lte=version
        )
        if move.kind != "pass":  # the next move: nobody else could play then
            rows = rows.filter(number=move.version + 1)
        return any(sorted(row.cards.split()) == sorted(move.cards) for row in rows)

    before = [(client.player.seat, move) for client in table for move in client.sent]
    missing = [
        dataclasses.asdict(move) | {"seat": seat}
        for seat, move in before
        if move.fate == "acknowledged" and not move.after_the_kill and not logged(seat, move)
    ]
    in_flight = [(seat, move) for seat, move in before if move.fate == "unknown"]
    unseen = [
        dataclasses.asdict(move)
        for move in acknowledged(table, True)
        if any(max(client.seen, default=-1) <= move.version for client in table)
    ]
    match = game.live_match()
    hands = [
        client.player.seat
        for client in table
        if match.hand.phase is Phase.PLAYING
        and sorted(card for card, _ in client.screen.hand)
        != sorted(str(card) for card in match.hand.holding(client.player.seat))
    ]
    sent = [move for client in table for move in client.sent]
    return {
        "game": game.pk,
        "acknowledged_before": len(acknowledged(table, False)),
        "in_flight_at_the_kill": len(in_flight),
        "of_which_logged": sum(logged(seat, move) for seat, move in in_flight),
        "refused": sum(move.fate == "refused" for move in sent),
        "acknowledged_but_not_logged": missing,
        "version_after_the_kill": version,
        "shown_after_reconnecting": shown_then,
        "acknowledged_after": len(acknowledged(table, True)),
        "not_on_every_screen": unseen,
        "version_at_the_end": game.version,
        "shown_at_the_end": [client.screen.version for client in table],
        "hands_unlike_the_database": hands,
    }


def main() -> int:
    findings_file = Path(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="hearts-kill-") as var_dir:
        found = drill(Path(var_dir), findings_file.parent / "site.log")
    findings_file.write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
