"""What the benchmarks that run the site's code share: a site of their own to run it in (its
settings, and a PostgreSQL database made for the run and dropped after it, or SQLite in a
directory of its own), the plain move they make for whoever the game waits on, and a game
played in memory ended through the site's write path (which the tests' helpers use too).

A benchmark puts the checkout on ``sys.path`` first, then imports this module as
``bench._scratch``. Django is imported inside the functions: the module is imported before the
site's settings are chosen.
"""

from __future__ import annotations

import logging
import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine import Match
    from games.models import Game

POSTGRES = "postgres://postgres@127.0.0.1:5432"


def postgres(*statements: str) -> None:
    """Runs ``statements`` on the server's maintenance database (to make and drop databases)."""
    import psycopg

    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement.encode())


def site_settings(var_dir: str, database: str | None) -> None:
    """The environment the site's settings read, for a site of the benchmark's own: its files in
    ``var_dir``, its database ``database`` on the local PostgreSQL (SQLite in ``var_dir`` for
    None), no Redis of the developer's. Processes the benchmark starts inherit the same key."""
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="hearts_site.settings",
        HEARTS_VAR_DIR=var_dir,
        SECRET_KEY=os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
    )
    os.environ["BENCH_SECRET_KEY"] = os.environ["SECRET_KEY"]
    if database:
        os.environ["DATABASE_URL"] = f"{POSTGRES}/{database}"


@contextmanager
def scratch_site(name: str, database: str) -> Iterator[None]:
    """Runs the block in a site of its own (see :func:`site_settings`): on PostgreSQL
    (``database`` "postgres") a database ``hearts_<name>_<pid>`` made now and dropped after,
    even when the block fails; on "sqlite" a file in a directory removed after. Django is not
    set up here: the benchmark sets it up, and the database connections are closed after."""
    made = f"hearts_{name}_{os.getpid()}" if database == "postgres" else None
    if made:
        postgres(f'DROP DATABASE IF EXISTS "{made}"', f'CREATE DATABASE "{made}"')
    try:
        with tempfile.TemporaryDirectory(prefix=f"hearts-{name}-") as var_dir:
            site_settings(var_dir, made)
            yield
            from django.db import connections

            connections.close_all()
    finally:
        if made:
            postgres(f'DROP DATABASE IF EXISTS "{made}" WITH (FORCE)')


@contextmanager
def migrated_site(name: str, database: str) -> Iterator[None]:
    """Runs the block in a :func:`scratch_site` with Django set up and its database migrated."""
    with scratch_site(name, database):
        set_up_django()
        from django.core.management import call_command

        call_command("migrate", "--noinput", verbosity=0)
        yield


def set_up_django() -> None:
    """Django set up on the site's settings, in this process."""
    import django

    logging.disable(logging.WARNING)  # django-axes's word as it starts, in every process
    django.setup()


def plain_move(match: Match) -> tuple[int, str, list[str], str]:
    """The seat ``match`` waits for and a plain move for it: its first three cards to pass,
    "others" for a moon, or its lowest legal card. As (seat, kind, cards, choice)."""
    from games.engine import MoonRule, MoveKind, Phase

    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        return seat, MoveKind.PASS, [str(card) for card in hand.holding(seat)[:3]], ""
    if hand.phase is Phase.MOON_CHOICE:
        return hand.turn, MoveKind.MOON, [], MoonRule.OTHERS
    return hand.turn, MoveKind.PLAY, [str(hand.legal_plays(hand.turn)[0])], ""


def end_through_the_site(game: Game, match: Match) -> Game:
    """``game`` as ``match`` (its game, played to the end in memory) left it: every move but
    the last logged as the site logs moves, then the last made through ``services.act``, so
    that the game ends, and is rated, exactly as a live game does."""
    from games import services
    from games.models import Game, MoveRecord

    *before, last = match.moves
    MoveRecord.objects.bulk_create(
        MoveRecord.of(game, number, move) for number, move in enumerate(before, start=1)
    )
    Game.objects.filter(pk=game.pk).update(version=len(before))
    services.act(
        game.pk,
        last.seat,
        last.kind,
        version=len(before),
        cards=[str(card) for card in last.cards],
        choice=last.choice,
    )
    return Game.objects.get(pk=game.pk)


def rule_based_match(rules: object, seed: bytes, hands: int | None = None) -> Match:
    """A game the rule-based player plays in every seat, to its end (or ``hands`` hands): the
    same game from the same seed (the bot's review's benchmark and tests judge it)."""
    from games.bots import make_bot
    from games.engine import Match, Phase, Rules, seat_view

    assert isinstance(rules, Rules)
    match = Match(rules, seed)
    bot = make_bot("heuristic")
    while not match.is_over and (hands is None or len(match.hands) < hands):
        hand = match.hand
        if hand.phase is Phase.PASSING:
            seat = next(s for s in range(match.players) if not hand.has_passed(s))
            match.pass_cards(seat, bot.choose_pass(seat_view(match, seat)))
        elif hand.phase is Phase.MOON_CHOICE:
            match.choose_moon(hand.turn, "others")
        else:
            match.play(hand.turn, bot.choose_play(seat_view(match, hand.turn)))
    return match
