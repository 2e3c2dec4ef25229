"""An arena of 200 people, none of them a bot: whether its seating keeps up.

    python bench/arena.py [--people 200] [--rounds 5] [--database postgres|sqlite]

Everyone joins a running arena with their arena page open (ratings spread as a site's are).
The first seating is made by two workers at once, as two Celery workers would run the tasks
of two pages opening together; it prints how long that took and that no one sits at two
tables. Then games end one at a time, in a random order, for ``--rounds`` rounds of every
table: each is played out (plain moves, the last one through the site's write path), then
its task runs as a worker
runs it (``arenas.services.game_ended``: the four freed, the standings told, whoever can sit
seated). For each end it measures the task's time, and counts who is left waiting; every
open page says it is there every 10 s, and the beat sweep, run every 2 s of the bench's own
time, seats whoever waited for the gap to widen. At the
end it prints the task's median, 95th percentile and worst time, how many games were played,
the longest anyone waited between two games, and what working out the standings and rendering
them for the pages costs with that many games.

Celery is not running: its tasks are called where the site would queue them. The database is
PostgreSQL's (``hearts_arena_<pid>`` on 127.0.0.1:5432, dropped at the end) or, with
``--database sqlite``, a file in a directory of its own.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._scratch import end_through_the_site, migrated_site, plain_move

SWEEP_EVERY = 2.0  # seconds, as beat's arena sweep


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="games each table plays, about")
    parser.add_argument("--database", default="postgres", choices=["postgres", "sqlite"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    with migrated_site("arena", args.database):
        _measure(args)


def play_to_the_end(game_id: int) -> None:
    """The game played out in memory with plain moves (bench._scratch), logged as the site logs
    moves, its last move made through the site's write path: the game ends, and is rated, as
    a live game does. (A resignation would not do: in a rated game it counts as leaving it,
    and bars the player from rated tables for a while, as it should.)"""
    from games.engine import Match, Move, Rules, parse_cards
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    match = Match(Rules.from_json(game.rules), bytes(game.seed), game.added_seeds)
    while not match.is_over:
        seat, kind, cards, choice = plain_move(match)
        match.apply(Move(kind, seat, tuple(parse_cards(cards)), choice))
    end_through_the_site(game, match)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _measure(args: argparse.Namespace) -> None:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connections
    from django.utils import timezone

    from arenas import selectors, services
    from arenas.models import Arena, ArenaGame, Entrant
    from games.models import Game, Seat
    from hearts_site import celery_app
    from ratings.maths import BASE, MU, POINTS_PER_MU
    from ratings.models import Rating

    settings.HEARTS_ARENA_SCHEDULE = []
    celery_app.send_task = lambda *a, **k: None  # type: ignore[method-assign]
    rng = random.Random(args.seed)
    arena = services.create_arena(
        "Bench arena",
        preset="standard",
        players=4,
        starts_at=timezone.now() - timedelta(minutes=1),
        minutes=600,
    )
    Arena.objects.filter(pk=arena.pk).update(started=True)
    people = []
    for n in range(args.people):
        person = User.objects.create_user(f"player{n}")
        rating = rng.gauss(1500, 250)
        mu = MU + (rating - BASE) / POINTS_PER_MU
        Rating.objects.create(user=person, mu=mu, sigma=2.0, games=30)
        people.append(person)
    began = time.monotonic()
    for person in people:
        services.join(person, arena.pk)
        services.page_opened(arena.pk, person.pk)
    joined = time.monotonic() - began
    print(
        f"database: {args.database}; {args.people} people joined a running arena in "
        f"{joined:.1f} s ({_ms(joined / args.people)} a join)"
    )

    # The first seating, by two workers at once.
    start = threading.Barrier(2)
    made: list[int] = []

    def seat() -> None:
        start.wait()
        made.append(len(services.pair(arena.pk)))
        connections.close_all()

    began = time.monotonic()
    threads = [threading.Thread(target=seat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    first = time.monotonic() - began
    more = len(services.pair(arena.pk))  # whoever the strict gaps left (the sweep's work)
    seats = Seat.objects.filter(table__status="playing", user__in=people)
    double = seats.values("user_id").distinct().count() != seats.count()
    print(
        f"first seating, two workers at once: {sum(made)} tables in {_ms(first)} "
        f"(each made {made}); {more} more at the next sweep; "
        f"{'SOMEONE AT TWO TABLES' if double else 'no one at two tables'}"
    )

    ended: list[float] = []
    waits: list[float] = []
    free_at: dict[int, float] = {}
    clock = time.monotonic()
    next_sweep = clock + SWEEP_EVERY
    next_beat = clock + services.HEARTBEAT_SECONDS
    target = args.rounds * args.people // 4
    while len(ended) < target:
        running = list(
            ArenaGame.objects.filter(arena=arena, game__status=Game.Status.PLAYING).values_list(
                "game_id", flat=True
            )
        )
        if time.monotonic() >= next_beat:  # every open page says it is still there
            Entrant.objects.filter(arena=arena).update(seen_at=timezone.now())
            next_beat = time.monotonic() + services.HEARTBEAT_SECONDS
        if not running:
            if not services.sweep():
                print("no game running and no one to seat: the arena stalled")
                break
            continue
        game_id = rng.choice(running)
        play_to_the_end(game_id)
        now = time.monotonic()
        for user_id in Entrant.objects.filter(game_id=game_id).values_list("user_id", flat=True):
            free_at[user_id] = now
        began = time.monotonic()
        services.game_ended(game_id)
        ended.append(time.monotonic() - began)
        if time.monotonic() >= next_sweep:
            services.sweep()
            next_sweep = time.monotonic() + SWEEP_EVERY
        now = time.monotonic()
        for user_id in Entrant.objects.filter(
            arena=arena, game__isnull=False, user_id__in=list(free_at)
        ).values_list("user_id", flat=True):
            waits.append(now - free_at.pop(user_id))
    total = time.monotonic() - clock
    played = ArenaGame.objects.filter(arena=arena).count()
    quantiles = statistics.quantiles(ended, n=20)
    print(
        f"{len(ended)} games ended one at a time in {total:.1f} s ({len(ended) / total:.0f} a "
        f"second); a game's end task (free four, tell the standings, seat): median "
        f"{_ms(statistics.median(ended))}, p95 {_ms(quantiles[18])}, worst {_ms(max(ended))}"
    )
    print(
        f"{played} arena games in all; {len(waits)} returns seated, the longest wait "
        f"{waits and max(waits):.2f} s, median {statistics.median(waits) if waits else 0:.2f} s; "
        f"{len(free_at)} still waiting at the end"
    )
    began = time.monotonic()
    rows = selectors.standings(arena)
    computed = time.monotonic() - began
    began = time.monotonic()
    services.announce_now(arena.pk)
    rendered = time.monotonic() - began
    print(
        f"standings of {len(rows)} people from {played} games: worked out in {_ms(computed)}, "
        f"worked out and rendered for every page once in {_ms(rendered)}; leader "
        f"{rows[0].name} with {rows[0].points} points in {rows[0].games} games"
    )


if __name__ == "__main__":
    main()
