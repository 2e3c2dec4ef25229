"""Voiding a game among 10,000 rated ones: how long the ratings take to be worked out again,
and whether the games being played meanwhile wait for it.

    python bench/void.py [--games 10000] [--people 400] [--database sqlite]

It builds a history of ``--games`` rated games of four among ``--people`` people, written
straight into the tables (no game is played out: a void reads only the games' places and their
rating changes), each rated in the order the games ended through the site's own rating maths,
so that the rating changes and the ratings are what the site would have saved. Then it voids an
early game twice: first as the site did before (every person's row locked and every rating
recomputed from scratch, in one transaction), then as it does now (``moderation.voiding``: the
later games the void reaches rated again in batches, nothing locked but for two short moments),
and last, as it does now, a late game.

During each void, a process of its own plays as a daphne process would: a move in a running
casual game every 20 ms (``services.act``, one write), and every 200 ms the last move of a
rated game among the voided game's players, which ends that game and rates it. For each void it
prints the void's time and those moves' latencies (median and worst) while it ran, beside the
same with no void at all. At the end, every rating is compared with a fresh recompute.

The database is PostgreSQL's (``hearts_void_<pid>`` on 127.0.0.1:5432, dropped at the end) or,
with ``--database sqlite``, a file in a directory of its own.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._scratch import migrated_site, plain_move, set_up_django

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Event

    from django.contrib.auth.models import User


MOVE_EVERY = 0.02  # seconds between the player's moves
END_EVERY = 10  # one game ended every this many moves
ENDING_GAMES = 40  # games kept one move from their end, for each void
QUIET_SECONDS = 2.0  # moves measured with no void, for comparison


# The history --------------------------------------------------------------------------------


def build_history(games: int, people: int, rng: random.Random) -> list[int]:
    """``games`` rated games of four among ``people`` people, each ended a minute after the
    one before and rated in that order. Returns the games' ids in that order."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from games.engine import Rules, fingerprint, new_seed
    from games.models import Game, GamePlayer, Table
    from ratings import maths
    from ratings.models import Rating, RatingChange

    users = User.objects.bulk_create(User(username=f"player{n:04d}") for n in range(people))
    rules = Rules().to_json()
    line_ups = [rng.sample(users, 4) for _ in range(games)]
    tables = Table.objects.bulk_create(
        (Table(host=line_up[0], rules=rules, rated=True, status="closed") for line_up in line_ups),
        batch_size=2000,
    )
    start = timezone.now() - timedelta(minutes=games + 60)
    rows = []
    for n, table in enumerate(tables):
        seed = new_seed()
        places = _places(rng)
        rows.append(
            Game(
                table=table,
                rules=rules,
                seed=seed,
                fingerprint=fingerprint(seed),
                added_seeds=["", "", "", ""],
                status=Game.Status.FINISHED,
                rated=True,
                result={"reason": "target", "places": places, "totals": [], "forfeited": None},
                finished_at=start + timedelta(minutes=n),
            )
        )
    history = Game.objects.bulk_create(rows, batch_size=2000)
    GamePlayer.objects.bulk_create(
        (
            GamePlayer(game=game, seat=seat, user=user)
            for game, line_up in zip(history, line_ups, strict=True)
            for seat, user in enumerate(line_up)
        ),
        batch_size=5000,
    )
    skills: dict[int, maths.Skill] = {}
    counts: dict[int, int] = {}
    changes = []
    for game, line_up in zip(history, line_ups, strict=True):
        assert game.result is not None
        places = game.result["places"]
        before = [skills.get(user.pk, maths.Skill()) for user in line_up]
        after = maths.rate(before, places)
        for seat, (user, old, new) in enumerate(zip(line_up, before, after, strict=True)):
            skills[user.pk], counts[user.pk] = new, counts.get(user.pk, 0) + 1
            changes.append(
                RatingChange(
                    game=game,
                    user=user,
                    seat=seat,
                    place=places[seat],
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    games_after=counts[user.pk],
                )
            )
    RatingChange.objects.bulk_create(changes, batch_size=5000)
    Rating.objects.bulk_create(
        Rating(user_id=user_id, mu=skill.mu, sigma=skill.sigma, games=counts[user_id])
        for user_id, skill in skills.items()
    )
    return [game.pk for game in history]


def _places(rng: random.Random) -> list[int]:
    """A game's places by seat; one game in eight has two sharing a place."""
    order = rng.sample(range(4), 4)
    places = [0] * 4
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    if rng.random() < 1 / 8:
        tied = rng.randrange(3)
        places[order[tied + 1]] = places[order[tied]]
    return places


def one_move_from_the_end(line_up: list[User], rated: bool = True) -> dict[str, Any]:
    """A game of ``line_up`` played to its last move (written as the site writes moves, with
    its snapshot): the move, to be made later, that ends it."""
    from games import services
    from games.engine import Match, Rules
    from games.models import Game, MoveRecord

    table = services.create_table(line_up[0], rated=rated)
    for seat, person in enumerate(line_up[1:], start=1):
        services.take_seat(table.pk, person, seat)
    game = services.start_game(table.pk, line_up[0])
    rules = Rules.from_json(game.rules)
    match = Match(rules, bytes(game.seed), game.added_seeds)
    while not match.is_over:
        _play_a_plain_move(match)
    *before, last = match.moves
    MoveRecord.objects.bulk_create(
        MoveRecord.of(game, number, move) for number, move in enumerate(before, start=1)
    )
    held = Match.replay(rules, bytes(game.seed), before, game.added_seeds)
    game.version = len(before)
    game.keep_snapshot(held)
    Game.objects.filter(pk=game.pk).update(version=game.version, snapshot=game.snapshot)
    cards = [str(card) for card in last.cards]
    return dict(game=game.pk, seat=last.seat, kind=last.kind, cards=cards, choice=last.choice)


def _play_a_plain_move(match: Any) -> None:
    from games.engine import Move, parse_cards

    seat, kind, cards, choice = plain_move(match)
    match.apply(Move(kind, seat, tuple(parse_cards(cards)), choice))


# The player, in a process of its own ---------------------------------------------------------


@dataclass
class Timings:
    """When each of the player's moves started (time.monotonic, the same clock in every process
    here) and how long it took, in seconds."""

    moves: list[tuple[float, float]] = field(default_factory=list)
    ends: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def play_meanwhile(
    table_id: int, endings: list[dict[str, Any]], stop: Event, ready: Event, out: Queue[Any]
) -> None:
    """Until ``stop``: a move in the running game at ``table_id`` every MOVE_EVERY seconds,
    and every END_EVERY moves the last move of the next game of ``endings``."""
    set_up_django()
    from games import services
    from games.models import Table

    timings = Timings()
    host = Table.objects.select_related("host").get(pk=table_id).host
    ready.set()
    n = 0
    while not stop.is_set():
        n += 1
        if n % END_EVERY == 0 and endings:
            ending = endings.pop(0)
            game_id = ending.pop("game")
            began = time.monotonic()
            try:
                services.act(
                    game_id, ending.pop("seat"), ending.pop("kind"), version=None, **ending
                )
            except Exception as error:  # recorded and shown, not hidden
                timings.errors.append(repr(error))
            timings.ends.append((began, time.monotonic() - began))
        else:
            began = time.monotonic()
            try:
                _move(table_id, host)
            except Exception as error:
                timings.errors.append(repr(error))
            timings.moves.append((began, time.monotonic() - began))
        time.sleep(MOVE_EVERY)
    from django.db import connections

    connections.close_all()
    out.put(timings)


def _move(table_id: int, host: User) -> None:
    """One move in the table's game, judged on the game as loaded (as a relay holds it) and
    timed with its write; a rematch once the game is over."""
    from games import services
    from games.models import Table

    table = Table.objects.get(pk=table_id)
    game = table.current_game()
    assert game is not None
    if game.is_over:
        services.rematch(table_id, host)
        return
    state = services.running(game.pk)
    seat, kind, cards, choice = plain_move(state.match)
    services.act(
        game.pk, seat, kind, version=state.game.version, cards=cards, choice=choice, held=state
    )


# The voids ------------------------------------------------------------------------------------


def void_as_before(game_id: int, staff: User) -> None:
    """The void as the site made it before: the game marked void, then, in the same
    transaction, every person's row locked and every rating recomputed from scratch."""
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game
    from moderation import audit
    from ratings.services import recompute_all

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        game.void, game.rated, game.voided_at = True, False, timezone.now()
        game.save(update_fields=["void", "rated", "voided_at"])
        audit.record(staff, "void", game=game, reason="bench: as before")
        list(User.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
        recompute_all()


def void_as_now(game_id: int, staff: User) -> None:
    from moderation.voiding import void_game

    void_game(game_id, staff, "bench: as now")


def measured(
    label: str, void: Any, game_id: int | None, staff: User, table_id: int, endings: list[Any]
) -> dict[str, Any]:
    """Void ``game_id`` with ``void`` (None: wait QUIET_SECONDS instead) while the player
    plays, and what the player saw while it ran."""
    context = multiprocessing.get_context("spawn")
    stop, ready, out = context.Event(), context.Event(), context.Queue()
    player = context.Process(target=play_meanwhile, args=(table_id, endings, stop, ready, out))
    player.start()
    ready.wait(timeout=60)
    time.sleep(0.5)  # a few moves before the void
    began = time.monotonic()
    if void is None:
        time.sleep(QUIET_SECONDS)
    else:
        void(game_id, staff)
    ended = time.monotonic()
    time.sleep(0.2)
    stop.set()
    timings: Timings = out.get(timeout=120)
    player.join(timeout=60)
    during = Timings(
        moves=[t for t in timings.moves if t[0] < ended and t[0] + t[1] > began],
        ends=[t for t in timings.ends if t[0] < ended and t[0] + t[1] > began],
        errors=timings.errors,
    )
    return {"label": label, "seconds": ended - began, "during": during}


def _ms(samples: list[tuple[float, float]]) -> str:
    if not samples:
        return "none"
    times = [duration * 1000 for _, duration in samples]
    return f"{len(times)}, median {statistics.median(times):.1f} ms, worst {max(times):.1f} ms"


def report(figures: dict[str, Any]) -> None:
    during: Timings = figures["during"]
    print(f"{figures['label']}: {figures['seconds']:.2f} s")
    print(f"    moves meanwhile: {_ms(during.moves)}")
    print(f"    games ended meanwhile (each rated as it ends): {_ms(during.ends)}")
    for error in during.errors:
        print(f"    error: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="rated games in the history")
    parser.add_argument("--people", type=int, default=400, help="people who played them")
    parser.add_argument("--database", default="postgres", choices=["postgres", "sqlite"])
    parser.add_argument("--seed", type=int, default=1, help="who plays whom, and the places")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    with migrated_site("void", args.database):
        _measure(args)


def _measure(args: argparse.Namespace) -> None:
    from django.contrib.auth.models import User

    from games import services
    from games.models import Game
    from ratings.services import recompute_all

    rng = random.Random(args.seed)
    began = time.monotonic()
    history = build_history(args.games, args.people, rng)
    print(
        f"database: {args.database}; {args.games} rated games of four among {args.people} "
        f"people, built and rated in {time.monotonic() - began:.1f} s"
    )
    staff = User.objects.create_user("staff", is_staff=True, is_superuser=True)
    casual = [User.objects.create_user(f"casual{n}") for n in range(4)]
    table = services.create_table(casual[0], preset="custom", options={"target": 500})
    for seat, person in enumerate(casual[1:], start=1):
        services.take_seat(table.pk, person, seat)
    services.start_game(table.pk, casual[0])

    def endings_for(game_id: int) -> list[dict[str, Any]]:
        line_up = [p.user for p in Game.objects.get(pk=game_id).players.select_related("user")]
        return [one_move_from_the_end(line_up) for _ in range(ENDING_GAMES)]

    n = len(history)
    early, also_early, late = history[n // 100], history[n // 100 + 1], history[n - 50]
    runs = [
        ("no void", None, early),
        (f"the void as before, game {n // 100 + 1} of {n}", void_as_before, early),
        (f"the void as now, game {n // 100 + 2} of {n}", void_as_now, also_early),
        (f"the void as now, game {n - 49} of {n}", void_as_now, late),
    ]
    for label, void, game_id in runs:
        report(measured(label, void, game_id, staff, table.pk, endings_for(game_id)))
    rated = every_rating()
    recompute_all()
    same = every_rating() == rated
    print(
        f"every rating and rating change as a fresh recompute has them: {'yes' if same else 'NO'}"
    )


def every_rating() -> tuple[dict[int, tuple[float, float, int]], set[tuple[Any, ...]]]:
    """Every rating and every rating change, as plain values to compare."""
    from ratings.models import Rating, RatingChange

    ratings = {
        user: (mu, sigma, games)
        for user, mu, sigma, games in Rating.objects.values_list("user_id", "mu", "sigma", "games")
    }
    changes = set(
        RatingChange.objects.values_list(
            "game_id",
            "user_id",
            "seat",
            "place",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "games_after",
        )
    )
    return ratings, changes


if __name__ == "__main__":
    main()
