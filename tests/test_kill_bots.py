"""A daphne killed (SIGKILL) in the bots' turn: the table's bots go on moving from the other
daphne, soon, and no move is lost or made twice.

Two Play-now tables (one person and three bots of level normal, the bots' pause shortened to
``BOT_DELAY`` and ``TRICK_PAUSE``) play with the person's socket on the first of two daphne
processes (a worker and beat beside them; bench/load.py's site, on an SQLite file and a Redis
of its own). The table's relay there makes the bots' moves. Once each table has ``BEFORE``
moves, each person makes one more card at the same time, and as soon as every screen shows its
card made and the turn passed to a bot, the first daphne is killed: the bot whose move that
daphne owed never makes it there. Each person reconnects to the second daphne, saying what its
screen shows; the relay there loads the table and makes the overdue bot's move (the deadline's
sweep in Celery is the backstop, ``HEARTS_BOT_GRACE`` later), and the game goes on: the person
plays ``AFTER`` more cards there.

Every move the person's screen acknowledged must be in the move log, the log numbered 1 to the
game's version and replaying from its seed to it; bots must have moved after the kill and the
game come back to the person, whose screen then shows the version the database has. The time
from the kill to the first bot move after it is measured, with the pause the bot was due after
(no timed assertion but a generous bound: the figures are printed and in the findings).

Like tests/test_kill.py, the drill runs in a process of its own (``python -m
tests.test_kill_bots FINDINGS.json``), since the site's helpers set Django up on the site's own
database; it writes what it found for the test to judge.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import random
import re
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench import load
from tests.helpers import drills
from tests.helpers.drills import PATIENCE, Sent, acknowledged, play, within

TABLES = 2
BEFORE = 12  # moves in a table's log before the kill
AFTER = 8  # the person's acknowledged moves after it
# The site's bots' pause, shortened from 0.8 s and 1 s; the grace stays the site's (3 s).
TIMING = {"HEARTS_BOT_DELAY": "0.3", "HEARTS_TRICK_PAUSE": "0.3"}


@pytest.mark.slow
def test_a_daphne_killed_in_the_bots_turn_loses_no_move_and_its_bots_go_on(tmp_path):
    findings = tmp_path / "findings.json"

    done = drills.run_drill("tests.test_kill_bots", findings, TIMING)

    assert done.returncode == 0, f"{done.stderr[-4000:]}\nthe site's log: {tmp_path}/site.log"
    found = json.loads(findings.read_text())
    print(done.stdout)  # the measured gaps, for ``pytest -s``
    assert len(found["tables"]) == TABLES
    for table in found["tables"]:
        assert table["version_at_the_kill"] >= BEFORE
        assert table["bots_turn_at_the_kill"]
        assert table["acknowledged_but_not_logged"] == []
        assert table["numbers_not_consecutive"] == []
        assert table["timeouts"] == 0
        assert table["bot_moves_after_the_kill"] > 0
        # A generous bound, not a speed figure: the sweep's backstop alone comes far sooner.
        assert table["kill_to_first_bot_move_s"] < PATIENCE
        assert table["first_move_after_the_kill_by_a_bot"]
        assert table["shown_at_the_persons_turn"] == table["version_at_the_persons_turn"]
        assert table["version_at_the_persons_turn"] > table["version_at_the_kill"]
        assert table["acknowledged_after"] >= AFTER
        assert table["shown_at_the_end"] == table["version_at_the_end"]
        assert table["hand_unlike_the_database"] is False
    assert found["replays"]["mismatched"] == 0
    assert found["replays"]["running"] + found["replays"]["finished"] == TABLES
    assert found["site_log_errors"] == []


# The drill, in a process of its own ---------------------------------------------------------


@dataclass
class Client(drills.Client):
    """The person's page, held back before the kill to the cards the drill allows it, and
    timed on the second daphne."""

    allowed: int = 0  # cards it may play once its table has BEFORE moves (see may_move)
    reconnected_at: float = 0.0  # Unix times: its socket open on the second daphne,
    first_push_at: float = 0.0  # and the first push it had there

    @property
    def my_turn(self) -> bool:
        """Whether the screen waits on this person (and not on a bot)."""
        return self.screen.move(random.Random(0)) is not None

    @property
    def held(self) -> bool:
        """Whether its table has its ``BEFORE`` moves, the cards being played: then it plays
        only the cards the drill allows it, so that the kill comes right after one."""
        return self.screen.version >= BEFORE and self.screen.phase == "playing"

    def may_move(self) -> bool:
        return not self.held or self.allowed > 0

    def before_moving(self) -> None:
        if self.held:
            self.allowed -= 1

    def take(self, message: str) -> None:
        if self.after_the_kill and not self.first_push_at:
            self.first_push_at = time.time()
        super().take(message)


async def until_killed(clients: list[Client], web1: int) -> float:
    """The people play on the first daphne until each table has ``BEFORE`` moves. Then, each
    at its turn, they play one card together; once every screen shows its card made and a bot
    to move, the daphne is killed (again, if a person's card left the turn with them: they
    took the trick). Returns the Unix time of the kill."""
    tasks = [asyncio.create_task(drills.play_until_closed(client)) for client in clients]
    in_time = within(PATIENCE, "playing before the kill")

    async def until(condition: Callable[[], bool]) -> None:
        while not condition():
            in_time()
            for task in tasks:
                if task.done():
                    task.result()  # a client that failed says why
                    raise AssertionError("a socket closed before the kill")
            await asyncio.sleep(0.001)

    while True:
        # Every person at their turn with a card to play, holding it.
        await until(
            lambda: all(
                c.held and c.my_turn and c.pending is None and not c.screen.over for c in clients
            )
        )
        counts = [len(client.sent) for client in clients]
        for client in clients:
            client.allowed = 1
        await until(answered(clients, counts))
        made = all(c.sent[n].fate == "acknowledged" for c, n in zip(clients, counts, strict=True))
        if made and not any(client.my_turn for client in clients):
            break
    killed_at = time.time()
    os.kill(web1, signal.SIGKILL)
    await asyncio.wait_for(asyncio.gather(*tasks), PATIENCE)
    for client in clients:
        client.lost_with_the_daphne()  # none is expected in flight: the kill comes after the acks
    return killed_at


def answered(clients: list[Client], counts: list[int]) -> Callable[[], bool]:
    """Whether each client's move after its first ``counts`` has been answered."""
    return lambda: all(
        len(c.sent) > n and c.sent[n].fate != "pending"
        for c, n in zip(clients, counts, strict=True)
    )


async def on_the_second(clients: list[Client], web2: int) -> list[dict[str, int]]:
    """Each person reconnects to the second daphne, saying what its screen shows, and waits,
    moving nothing, until the bots have brought the turn back to them: what its screen shows
    then, and the database. Then they play until each has ``AFTER`` more acknowledged moves,
    and (the tables waiting on them again) their screens settle."""
    async with contextlib.AsyncExitStack() as stack:
        sockets: dict[int, Any] = {}
        for client in clients:
            sockets[id(client)] = await drills.reconnect(client, web2, stack)
            client.reconnected_at = time.time()

        in_time = within(PATIENCE, "waiting for the bots after the kill")

        def until_my_turn(client: Client) -> Callable[[], bool]:
            def still() -> bool:
                in_time()
                return not client.my_turn and not client.screen.over

            return still

        await asyncio.gather(
            *(play(c, sockets[id(c)], until_my_turn(c), lambda: False) for c in clients)
        )
        at_the_turn = [
            {
                "shown": client.screen.version,
                "database": await asyncio.to_thread(drills.game_version, client.game_id),
            }
            for client in clients
        ]

        in_time = within(PATIENCE, "playing after the kill")

        def moving(client: Client) -> Callable[[], bool]:
            return lambda: len(acknowledged([client], True)) < AFTER

        def go_on(client: Client) -> Callable[[], bool]:
            def still() -> bool:
                in_time()
                waiting = not client.my_turn and not client.screen.over
                return moving(client)() or client.pending is not None or waiting

            return still

        for client in clients:
            client.allowed = 10**6  # plays freely now
        await asyncio.gather(*(play(c, sockets[id(c)], go_on(c), moving(c)) for c in clients))
    return at_the_turn


def drill(var_dir: Path, log: Path) -> dict[str, Any]:
    """Starts the site, plays, kills the first daphne in the bots' turn, plays on the second;
    what it found."""
    args = drills.site_args(log, bots=True)
    os.environ.update(TIMING)  # the site's processes take theirs from this one's
    with drills.running_site(args, var_dir) as site:
        web1, web2 = site.layout.ports
        clients = [
            Client(player, drills.current_game(player.table_id), random.Random(player.table_id))
            for (player,) in load.set_tables(0, TABLES, args, [web1])  # the person; the bots
        ]
        started = time.monotonic()
        killed_at = asyncio.run(until_killed(clients, site.layout.processes["web1"].pid))
        killed_after = time.monotonic() - started
        at_the_kill = [drills.game_version(client.game_id) for client in clients]
        at_the_turn = asyncio.run(on_the_second(clients, web2))
        found = [
            findings(client, version, turn, killed_at)
            for client, version, turn in zip(clients, at_the_kill, at_the_turn, strict=True)
        ]
        site.layout.stop()  # before the games are read for the last time
        replays = load.check_replays()
    from django.conf import settings

    return {
        "killed_after_s": killed_after,
        "bot_delay_s": settings.HEARTS_BOT_DELAY,
        "trick_pause_s": settings.HEARTS_TRICK_PAUSE,
        "bot_grace_s": settings.HEARTS_BOT_GRACE,
        "tables": found,
        "replays": replays,
        "site_log_errors": log_errors(log),
    }


def findings(
    client: Client, version: int, at_the_turn: dict[str, int], killed_at: float
) -> dict[str, Any]:
    """What the drill found at one table: the person's acknowledged moves looked up in the
    log, the log's numbers, the bots' moves after the kill and when the first came, and what
    the screen showed against the database."""
    from django.conf import settings

    from games.models import Game

    game = Game.objects.get(pk=client.game_id)
    seat = client.player.seat

    def logged(move: Sent) -> bool:
        # Before the kill, in the log when the daphne was killed.
        return drills.logged(game, seat, move, until=None if move.after_the_kill else version)

    missing = [
        dataclasses.asdict(move)
        for move in client.sent
        if move.fate == "acknowledged" and not logged(move)
    ]
    numbers = list(game.moves.order_by("number").values_list("number", flat=True))
    # 1, 2, ... the game's version: none missing, none twice.
    gaps = [
        (a, b)
        for a, b in zip([0, *numbers], [*numbers, game.version + 1], strict=True)
        if b != a + 1
    ]
    timeline = load.timeline(game)  # the start, then each move: its time, its bot's pause
    after = timeline[version + 1 :]
    first = after[0] if after else None
    began = timeline[version]  # the person's card, whose bot's turn the kill fell in
    last_sent = next((move for move in reversed(client.sent) if not move.after_the_kill), None)
    # Every bot move's answer beyond its pause, the one after the kill left out: for comparison.
    beyond = None if first is None else first.at - began.at - began.pause
    answers = [answer for answer in load.bot_answers(timeline, 0, float("inf")) if answer != beyond]
    match = game.live_match()
    hand_differs = drills.hand_unlike_the_database(client, match)
    return {
        "game": game.pk,
        "version_at_the_kill": version,
        # The last move before the kill is the person's card, acknowledged: a bot was to move.
        "bots_turn_at_the_kill": bool(
            last_sent
            and last_sent.fate == "acknowledged"
            and last_sent.version + 1 == version
            and not began.bot
        ),
        "acknowledged_before": len(acknowledged([client], False)),
        "acknowledged_after": len(acknowledged([client], True)),
        "refused": sum(move.fate == "refused" for move in client.sent),
        "acknowledged_but_not_logged": missing,
        "numbers_not_consecutive": gaps,
        "timeouts": game.moves.filter(timeout=True).count(),
        "bot_moves_after_the_kill": sum(move.bot for move in after),
        "first_move_after_the_kill_by_a_bot": first is not None and first.bot,
        "pause_s": began.pause,
        "kill_to_first_bot_move_s": None if first is None else first.at - killed_at,
        # From the person's card to that bot move, beyond the pause it was due after.
        "first_bot_move_beyond_its_pause_s": beyond,
        # Before the deadline, when the sweep would make it: so the second daphne's relay did.
        "first_bot_move_before_the_sweep": first is not None
        and first.at < began.at + began.pause + settings.HEARTS_BOT_GRACE,
        "median_bot_move_beyond_its_pause_s": statistics.median(answers) if answers else None,
        "kill_to_reconnected_s": client.reconnected_at - killed_at,
        "kill_to_first_push_s": client.first_push_at - killed_at,
        "shown_at_the_persons_turn": at_the_turn["shown"],
        "version_at_the_persons_turn": at_the_turn["database"],
        "version_at_the_end": game.version,
        "shown_at_the_end": client.screen.version,
        "hand_unlike_the_database": hand_differs,
    }


ERRORS = re.compile(r"Traceback|\bERROR\b|\bCRITICAL\b|Exception")


def log_errors(log: Path) -> list[str]:
    """The lines of the site's log that tell of an error or an exception, each with the lines
    of its traceback after it, to the exception's own (so that a failure says what it was)."""
    if not log.exists():
        return []
    lines = log.read_text(errors="replace").splitlines()
    found = []
    for number, line in enumerate(lines):
        if not ERRORS.search(line):
            continue
        if "Traceback" in line:  # its frames, indented, then the exception's own line
            rest = lines[number + 1 : number + 60]
            frames = next((i for i, after in enumerate(rest) if not after[:1].isspace()), -1)
            line = "\n".join([line, *rest[: frames + 1]])
        found.append(line)
    return found


def main() -> int:
    found = drills.write_findings(drill, prefix="hearts-kill-bots-")
    for table in found["tables"]:
        gap = table["kill_to_first_bot_move_s"]
        if gap is None:
            print(f"game {table['game']}: no move after the kill")
            continue
        print(
            f"game {table['game']}: the first bot move {gap:.3f} s after the kill "
            f"(its pause {table['pause_s']:g} s + 1 s = {table['pause_s'] + 1:g} s; "
            f"{table['first_bot_move_beyond_its_pause_s']:.3f} s beyond the pause from the "
            f"person's card; {table['median_bot_move_beyond_its_pause_s']:.3f} s the median "
            f"bot move), {table['bot_moves_after_the_kill']} bot moves after it, the first "
            f"{'before' if table['first_bot_move_before_the_sweep'] else 'NOT before'} the "
            f"deadline's sweep was due"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
