"""What one move costs the process that holds its table: database round trips, fragments
rendered and CPU, for a table of four players and for four players and ten spectators, early in
a long match and late in it.

Each move goes the way a move from a table's socket goes (live/relays.py, ``Relay._make``):
judged against the table's state in memory, written in one conditional statement, then the news
for the other processes and every screen's push. Round trips are the SQL statements the move
sends (counted by Django); renders are the template engine's renders of the board's fragments
and of their pieces (live/fragments.py, live/pieces.py). The
screens are kept up to date as their sockets' would be, so each move pushes only what changed.

Four people play one Standard match with the target raised to 500 points; the figures are of
``--moves`` moves (default 200) from move 50 and from about move 500, medians and the worst,
on PostgreSQL (a database of its own on 127.0.0.1:5432, dropped at the end) or ``--database
sqlite`` (a file in a directory of its own).

    python bench/move_cost.py [--moves 200] [--database sqlite]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._scratch import plain_move, scratch_site

POINTS = (50, 500)
SPECTATORS = 10


def _setup() -> None:
    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)


async def _unused(*args: Any) -> None:
    raise AssertionError("nothing is sent here")


class Table:
    """A table's relay in this process, with the screens of its viewers kept up to date."""

    def __init__(self, table_id: int, viewers: list[Any]) -> None:
        from channels.layers import get_channel_layer

        from live import relays, table_state

        self.relay = relays.Relay(table_id, get_channel_layer())
        self.relay.channel = "bench"
        self.relay.state = table_state.load(table_id)
        self.screens: list[relays.Screen] = []
        self.relay.screens = set()
        self.people = {viewer.pk: viewer for viewer in viewers if viewer.is_authenticated}
        for viewer in viewers:
            screen = relays.Screen(viewer, "", "csrf", _unused, _unused, ready=True)
            assert self.relay.state is not None
            push = table_state.whole(self.relay.state, viewer, code="", csrf="csrf")
            screen.shown, screen.keys = push.shown, push.keys
            self.screens.append(screen)
            self.relay.screens.add(screen)

    def move(self) -> tuple[int, int, float]:
        """One move: its round trips, its renders and its CPU seconds."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from live import fragments, pieces, relays

        state = self.relay.state
        assert state is not None and state.running is not None
        seat, kind, cards, choice = plain_move(state.running.match)
        player = next(p for p in state.players if p.seat == seat)
        mover = next(s for s in self.screens if s.user.pk == player.user_id)
        mover.checked = time.monotonic()  # its sanctions looked at a moment ago
        assert state.game is not None
        done: asyncio.Future[None] = asyncio.Future(loop=_loop)
        move = relays._Move(mover, kind, cards, choice, state.game.version, done)
        renders = fragments.renders + pieces.renders
        with CaptureQueriesContext(connection) as queries:
            start = time.process_time()
            new, pushes, error, news = self.relay._make(move, self.screens)
            if new is not None and news is not None:
                pushes = self.relay._after(new, news)
            cpu = time.process_time() - start
        assert not error, error
        self.relay.state = new
        for screen, push in pushes:
            screen.shown, screen.keys = push.shown, push.keys
        return len(queries), fragments.renders + pieces.renders - renders, cpu


_loop = asyncio.new_event_loop()


def _figures(costs: list[tuple[int, int, float]]) -> str:
    trips = [c[0] for c in costs]
    renders = [c[1] for c in costs]
    cpu = [c[2] * 1000 for c in costs]
    return (
        f"round trips {statistics.mean(trips):.2f} a move (most {max(trips)}), "
        f"renders {statistics.mean(renders):.1f} (most {max(renders)}), "
        f"CPU median {statistics.median(cpu):.2f} ms, p90 "
        f"{statistics.quantiles(cpu, n=10)[-1]:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="moves measured at each point")
    parser.add_argument("--database", default="postgres", choices=["postgres", "sqlite"])
    args = parser.parse_args()
    with scratch_site("cost", args.database):
        _setup()
        _measure(args)


def _measure(args: argparse.Namespace) -> None:
    from django.contrib.auth.models import AnonymousUser, User

    from games import services

    people = [User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    watchers: list[Any] = [User.objects.create_user(f"watcher{n}") for n in range(SPECTATORS - 1)]
    watchers.append(AnonymousUser())
    print(f"database: {args.database}; {args.moves} moves from each point")
    for label, viewers in (
        ("four players", people),
        (f"four players and {SPECTATORS} spectators", [*people, *watchers]),
    ):
        host = people[0]
        table = services.create_table(host, preset="custom", options={"target": 500})
        for index, person in enumerate(people[1:], start=1):
            services.take_seat(table.pk, person, index)
        services.start_game(table.pk, host)
        at = Table(table.pk, viewers)
        for point in POINTS:
            while True:
                state = at.relay.state
                assert state is not None and state.game is not None
                if state.game.version >= point - 1:
                    break
                at.move()
            costs = [at.move() for _ in range(args.moves)]
            print(f"{label}, from move {point}: {_figures(costs)}")


if __name__ == "__main__":
    main()
