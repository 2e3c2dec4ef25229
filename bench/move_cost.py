"""What one move costs the server early in a long match and late in it: ``services.act``, then
what the table's relay does with the news (games/relays.py): load the table's state once, and
render the fragments that changed for each of the four players and a spectator. A move starts
from the game's snapshot, not from its whole log, so the two figures should be within 15% of
each other. The pushes are timed both as another process makes them (the state loaded from
the database) and as the move's own process does (the state the move left in memory). The
whole table, as a socket that connects is sent it, is timed too.

Four people play one Standard match with the target raised to 500 points, on SQLite in a
directory of its own. At move 50, and at the same move of a hand about move 500 (a card to
the same trick of the deal), the same move is made again and again, each time in a
transaction that is rolled back, and the median is printed (the machine is noisy).

    python bench/move_cost.py [--repeats 200]
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

POINTS = (50, 500)


def _setup(var_dir: str) -> None:
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="hearts_site.settings",
        HEARTS_VAR_DIR=var_dir,
        SECRET_KEY=secrets.token_urlsafe(50),
    )
    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)


def _next_move(game_id: int) -> tuple[int, str, list[str], str]:
    """The seat the game waits for and a plain move for it: the lowest legal card, its first
    three cards to pass, or 'others' for a moon."""
    from games.engine import Phase
    from games.models import Game

    match = Game.objects.get(pk=game_id).live_match()
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        return seat, "pass", [str(card) for card in hand.holding(seat)[:3]], ""
    if hand.phase is Phase.MOON_CHOICE:
        return hand.turn, "moon", [], "others"
    return hand.turn, "play", [str(hand.legal_plays(hand.turn)[0])], ""


def _at(game_id: int, point: int, within: int | None) -> bool:
    """Whether the next move is the ``point``-th, or (``within`` given) the first from about
    there that is the same move of its hand as the first point's."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    if within is None:
        return game.version >= point - 1
    return game.version >= point - 60 and len(game.live_match().hand.moves) == within


def _one_move(
    game_id: int, move: tuple[int, str, list[str], str], viewers: list[Any], *, here: bool
) -> tuple[float, float]:
    """Seconds for the move and its pushes (``here``: from what the move left in memory, as
    in its own process), and for one whole table, in a transaction rolled back afterwards."""
    from django.db import transaction

    from games import effects, live, relays, services
    from games.models import Game

    seat, kind, cards, choice = move
    game = Game.objects.get(pk=game_id)
    live.forget()
    before = live.state_for(game.table_id)
    assert before is not None
    screens = []
    for viewer in viewers:
        screen = relays.Screen(viewer, "", "", _unused, _unused)
        push = live.render(before, viewer, code="", csrf_token="", keys=None)
        screen.shown, screen.keys = push.shown, push.keys
        screens.append(screen)
    made: list[Any] = []
    told = effects.game_changed
    effects.game_changed = lambda *args, **kwargs: made.append(kwargs.get("made"))  # type: ignore[assignment]
    try:
        with transaction.atomic():
            start = time.perf_counter()
            services.act(game_id, seat, kind, version=None, cards=cards, choice=choice)
            # What the table's relay does with the news: one state, every screen's fragments.
            jobs = [(screen, screen.keys, None) for screen in screens]
            shown = (game_id, game.version + 1)
            given = made[0] if here else None
            state, _ = relays._render_all(game.table_id, shown, jobs, given)
            assert state is not None
            pushes = time.perf_counter() - start
            start = time.perf_counter()
            live.render(state, viewers[0], code="", csrf_token="", keys=None)
            whole = time.perf_counter() - start
            transaction.set_rollback(True)
    finally:
        effects.game_changed = told  # type: ignore[assignment]
    return pushes, whole


async def _unused(*args: Any) -> None:
    raise AssertionError("nothing is sent here")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hearts-move-cost-") as var_dir:
        _setup(var_dir)
        from django.contrib.auth.models import AnonymousUser, User

        from games import services
        from games.models import Game

        people = [User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave")]
        viewers = [*people, AnonymousUser()]
        games, within = [], None  # the move's place in its hand: the same at both points
        for point in POINTS:
            table = services.create_table(people[0], preset="custom", options={"target": 500})
            for index, person in enumerate(people[1:], start=1):
                services.take_seat(table.pk, person, index)
            game_id = services.start_game(table.pk, people[0]).pk
            while not _at(game_id, point, within):
                seat, kind, cards, choice = _next_move(game_id)
                services.act(game_id, seat, kind, version=None, cards=cards, choice=choice)
            game = Game.objects.get(pk=game_id)
            assert not game.is_over, "the match ended too soon: raise the target"
            within = len(game.live_match().hand.moves)
            games.append((game, _next_move(game_id)))
        # The two points and the two ways take turns, so that the machine's swings fall on
        # all alike.
        times: list[list[float]] = [[] for _ in POINTS]
        heres: list[list[float]] = [[] for _ in POINTS]
        wholes: list[list[float]] = [[] for _ in POINTS]
        for round in range(10 + args.repeats):
            for (game, move), samples, here, whole in zip(games, times, heres, wholes, strict=True):
                pushes, one = _one_move(game.pk, move, viewers, here=False)
                kept, _ = _one_move(game.pk, move, viewers, here=True)
                if round >= 10:  # the first rounds warm the caches (templates, queries)
                    samples.append(pushes)
                    here.append(kept)
                    whole.append(one)
        figures = [statistics.median(samples) for samples in times]
        for (game, _), figure, here, whole in zip(games, figures, heres, wholes, strict=True):
            print(
                f"move {game.version + 1} (hand {game.live_match().hand.number}, its move "
                f"{within + 1}): {figure * 1000:.2f} ms (act, the state loaded once, the "
                "changed fragments pushed to four players and a spectator; median of "
                f"{args.repeats}); {statistics.median(here) * 1000:.2f} ms in the move's own "
                "process (the state from memory); the whole table for one player "
                f"{statistics.median(whole) * 1000:.2f} ms"
            )
        early, late = figures
        print(f"late in the match a move costs {100 * (late - early) / early:+.1f}% against early")


if __name__ == "__main__":
    main()
