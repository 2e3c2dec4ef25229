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

import asyncio
import dataclasses
import json
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench import load
from tests.helpers import drills
from tests.helpers.drills import PATIENCE, Sent, acknowledged, play, within

TABLES = 2
BEFORE = 12  # acknowledged moves a table before the kill
AFTER = 8  # and after it


@pytest.mark.slow
def test_a_daphne_killed_mid_game_loses_no_acknowledged_move_and_its_tables_go_on(tmp_path):
    findings = tmp_path / "findings.json"

    done = drills.run_drill("tests.test_kill", findings)

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
class Client(drills.Client):
    """One player's page, which also keeps the versions its screen showed."""

    seen: list[int] = field(default_factory=list)  # the versions shown since it connected

    def take(self, message: str) -> None:
        super().take(message)
        self.seen.append(self.screen.version)


async def until_killed(tables: list[list[Client]], web1: int) -> None:
    """Every client plays on the first daphne until each table has ``BEFORE`` acknowledged
    moves; then the daphne is killed, and every socket finds itself closed."""
    clients = [
        asyncio.create_task(drills.play_until_closed(client))
        for table in tables
        for client in table
    ]
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
            client.lost_with_the_daphne()


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
                client.seen = []
                sockets[id(client)] = await drills.reconnect(client, web2, stack)
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
                play(client, sockets[id(client)], go_on(table), moving(table))
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
    args = drills.site_args(log, bots=False)
    with drills.running_site(args, var_dir) as site:
        web1, web2 = site.layout.ports
        tables = [
            [
                Client(
                    player,
                    drills.current_game(player.table_id),
                    random.Random(f"{player.table_id}/{player.seat}"),
                )
                for player in players
            ]
            for players in load.set_tables(0, TABLES, args, [web1])
        ]
        started = time.monotonic()
        asyncio.run(until_killed(tables, site.layout.processes["web1"].pid))
        killed_after = time.monotonic() - started
        after_the_kill = [drills.game_version(table[0].game_id) for table in tables]
        shown = asyncio.run(on_the_second(tables, web2, after_the_kill))
        found = [
            findings(table, version, shown_then)
            for table, version, shown_then in zip(tables, after_the_kill, shown, strict=True)
        ]
        site.layout.stop()  # before the games are read for the last time
        replays = load.check_replays()
    return {"killed_after_s": killed_after, "tables": found, "replays": replays}


def findings(table: list[Client], version: int, shown_then: list[int]) -> dict[str, Any]:
    """What the drill found at one table: every acknowledged move before the kill looked up in
    the log, and what the screens showed after it and at the end against the database."""
    from games.models import Game

    game = Game.objects.get(pk=table[0].game_id)

    def logged(seat: int, move: Sent) -> bool:
        """Whether the move was in the log when the daphne was killed (a player who saw it
        lost might make it again after)."""
        return drills.logged(game, seat, move, until=version)

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
        client.player.seat for client in table if drills.hand_unlike_the_database(client, match)
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
    drills.write_findings(drill, prefix="hearts-kill-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
