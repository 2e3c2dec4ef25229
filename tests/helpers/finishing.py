"""Finishing games quickly in tests: people at a table, and whole games played out by the
engine, saved as the site saves them, with the last move made through the site's write path
(so the game ends, and is rated, exactly as a live game is)."""

from __future__ import annotations

from django.contrib.auth.models import User

from bench._scratch import end_through_the_site
from games import services
from games.engine import Match, Rules, fingerprint
from games.models import Game
from ratings.models import Rating, RatingChange
from tests.helpers.engine import seed, step
from tests.helpers.tables import everyone_passes, people, play_one, table_with


def every_rating() -> tuple[dict[str, tuple[float, float, int]], list[tuple[object, ...]]]:
    """Every rating and every rating change, as plain values to compare."""
    ratings = {
        r.user.username: (r.mu, r.sigma, r.games) for r in Rating.objects.select_related("user")
    }
    changes: list[tuple[object, ...]] = sorted(
        (
            c.game_id,
            c.user.username,
            c.seat,
            c.place,
            c.mu_before,
            c.sigma_before,
            c.mu_after,
            c.sigma_after,
            c.games_after,
        )
        for c in RatingChange.objects.select_related("user")
    )
    return ratings, changes


def start(
    players: list[User], *, rated: bool = True, bots: int = 0, preset: str = "standard"
) -> Game:
    """A game with ``players`` in the first seats (the first one hosts) and bots in the rest."""
    table = table_with(players, rated=rated, preset=preset, players=len(players) + bots)
    if bots:
        services.fill_with_bots(table.pk, table.host)
    return services.start_game(table.pk, table.host)


def play_out(game: Game, seed_number: int) -> Game:
    """Deal ``game`` from a fixed seed and play it to the end: every seat passes its first three
    cards and plays its lowest legal card (``tests.helpers.engine.step``)."""
    match = Match(Rules.from_json(game.rules), deal_from(game, seed_number))
    while not match.is_over:
        step(match)
    return end_through_the_site(game, match)


def deal_from(game: Game, seed_number: int) -> bytes:
    """Deal ``game`` from the fixed seed ``seed_number`` (``tests.helpers.engine.seed``), with
    no added seeds; returns the seed."""
    seed_bytes = seed(seed_number)
    Game.objects.filter(pk=game.pk).update(
        seed=seed_bytes, fingerprint=fingerprint(seed_bytes), added_seeds=[]
    )
    return seed_bytes


def play_a_card(game: Game) -> None:
    """Everyone passes (if the hand starts with a pass), then whoever leads plays."""
    everyone_passes(game)
    play_one(game)


def a_season(*, last_resigned: bool = False) -> list[Game]:
    """Six rated games among five people, each line-up overlapping the next; the sixth ended
    by a resignation (its third player's, after the first card) if ``last_resigned``."""
    alice, bob, carol, dave, erin = people("alice", "bob", "carol", "dave", "erin")
    line_ups = [
        [alice, bob, carol, dave],
        [erin, alice, bob, carol],
        [dave, erin, alice, bob],
        [carol, dave, erin, alice],
        [bob, carol, dave, erin],
    ]
    games = [play_out(start(line_up), 40 + n) for n, line_up in enumerate(line_ups)]
    last = start([alice, carol, erin, bob])
    if last_resigned:
        play_a_card(last)
        services.resign(last.pk, 2)
    else:
        play_out(last, 45)
    return [*games, Game.objects.get(pk=last.pk)]
