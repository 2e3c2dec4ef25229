"""The open API's export of a player's games (GET /api/v1/players/<name>/games.ndjson): how fast
it streams a long history, and the memory it takes meanwhile.

    python bench/export.py [--games 5000] [--distinct 20] [--database postgres|sqlite]

One player, alice, has ``--games`` finished rated games at a public table with bob, carol and
dave, each with its rating changes. They are ``--distinct`` whole games played once by the
rule-based bot to the 100-point target (Standard rules), stored again and again: as the export
replays every game from its seed and its move log, each copy costs it what a game played on
the site costs. The games, their players and rating changes are inserted in bulk, and the move
logs copied in the database by one statement, so a history of thousands takes seconds to make.

The export is then read through the site's own URL by Django's test client, to its last line,
in a process of its own (so its memory is the export's alone, not the making of the games'):
it prints the games, the seconds, games a second, the bytes, MB a second, how long the first
line took, and how far the process's resident memory grew above what it held before (sampled
every 50 lines). The process sets aside what it loaded from the cyclic garbage collector
before the export, as the site's processes do (hearts_site/asgi.py).

The database is PostgreSQL's (``hearts_export_<pid>`` on 127.0.0.1:5432, dropped at the end)
or, with ``--database sqlite``, a file in a directory of its own.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._scratch import migrated_site, plain_move, set_up_django

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.engine import Match

PLAYERS = ("alice", "bob", "carol", "dave")
BATCH = 2000  # rows an insert
SAMPLE_EVERY = 50  # lines between two readings of the memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="the player's finished games")
    parser.add_argument("--distinct", type=int, default=20, help="games played, then repeated")
    parser.add_argument("--database", default="postgres", choices=["postgres", "sqlite"])
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    with migrated_site("export", args.database):
        _measure(args)


def _measure(args: argparse.Namespace) -> None:
    from django.db import connections

    began = time.monotonic()
    moves = _history(args.games, args.distinct)
    made = time.monotonic() - began
    print(
        f"database: {args.database}; {args.games} finished games of alice ({args.distinct} "
        f"played by the bot, repeated), {moves / args.games:.0f} moves a game, made in "
        f"{made:.1f} s"
    )
    connections.close_all()  # the export's process opens its own
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        figures = pool.apply(_export, ("alice",))
    assert figures["games"] == args.games, figures
    seconds = figures["seconds"]
    megabytes = figures["bytes"] / 1e6
    print(
        f"export: {figures['games']} games in {seconds:.2f} s, "
        f"{figures['games'] / seconds:.0f} games a second; {megabytes:.1f} MB, "
        f"{megabytes / seconds:.1f} MB a second; first line after "
        f"{figures['first'] * 1000:.0f} ms"
    )
    print(
        f"memory: resident {figures['rss_before'] / 1e6:.0f} MB before the export, "
        f"{figures['rss_peak'] / 1e6:.0f} MB at most while it streamed "
        f"(grew {(figures['rss_peak'] - figures['rss_before']) / 1e6:.1f} MB)"
    )


def _played(seed: bytes) -> Match:
    """A Standard game of four dealt from ``seed``, played to the end by the rule-based bot in
    every seat."""
    from games.bots import HeuristicBot, decide
    from games.engine import PRESETS, Match, Move, parse_cards, seat_view

    bot = HeuristicBot()
    match = Match(PRESETS["standard"].make(4), seed)
    while not match.is_over:
        seat = plain_move(match)[0]  # the seat the match waits for
        kind, cards, choice = decide(bot, seat_view(match, seat))
        match.apply(Move(kind, seat, tuple(parse_cards(cards)), choice))
    return match


def _history(count: int, distinct: int) -> int:
    """alice's ``count`` finished rated games, ``distinct`` ones played by the bot and the rest
    copies of them in turn, the newest finished now and each next an hour earlier, with their
    players, rating changes and move logs. Returns the number of moves logged."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.utils import timezone

    from games.engine import fingerprint
    from games.models import Game, GamePlayer, MoveRecord, Table

    people = [User.objects.create_user(name) for name in PLAYERS]
    matches = [_played(number.to_bytes(32, "big")) for number in range(1, distinct + 1)]
    rules = matches[0].rules.to_json()
    table = Table.objects.create(
        host=people[0], preset="standard", rules=rules, rated=True, status=Table.Status.CLOSED
    )
    newest = timezone.now()
    games = Game.objects.bulk_create(
        (
            Game(
                table=table,
                number=number,
                rules=rules,
                seed=match.seed,
                fingerprint=fingerprint(match.seed),
                added_seeds=[],
                version=len(match.moves),
                status=Game.Status.FINISHED,
                rated=True,
                result=_result(match),
                finished_at=newest - timedelta(hours=number - 1),
            )
            for number, match in (
                (number, matches[(number - 1) % distinct]) for number in range(1, count + 1)
            )
        ),
        batch_size=BATCH,
    )
    GamePlayer.objects.bulk_create(
        (
            GamePlayer(game=game, seat=seat, user=people[seat])
            for game in games
            for seat in range(4)
        ),
        batch_size=BATCH,
    )
    _rating_changes(games, matches, people)
    MoveRecord.objects.bulk_create(
        (
            MoveRecord.of(game, number, move)
            for game, match in zip(games[:distinct], matches, strict=False)
            for number, move in enumerate(match.moves, start=1)
        ),
        batch_size=BATCH,
    )
    # Every later game's log is a copy of the log of the game it repeats, made by the database.
    log, game_table = MoveRecord._meta.db_table, Game._meta.db_table
    columns = ("number", "kind", "seat", "cards", "choice", "timeout", "created_at")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {log} (game_id, {', '.join(columns)}) "
            f"SELECT later.id, {', '.join(f'logged.{column}' for column in columns)} "
            f"FROM {game_table} later "
            f"JOIN {game_table} played ON played.table_id = later.table_id "
            f"AND played.number = (later.number - 1) %% %s + 1 "
            f"JOIN {log} logged ON logged.game_id = played.id "
            f"WHERE later.table_id = %s AND later.number > %s",
            [distinct, table.pk, distinct],
        )
    return MoveRecord.objects.filter(game__table=table).count()


def _result(match: Match) -> dict[str, Any]:
    """The result as the site stores it when a game ends (``games.services._finish``)."""
    assert match.result is not None
    return match.result.to_json()


def _rating_changes(games: list[Any], matches: list[Match], people: list[User]) -> None:
    """Each game's four rating changes, as a rated game of four leaves them: the ratings here
    drift a little from game to game (what the export shows of them costs the same)."""
    from ratings.models import RatingChange

    def change(index: int, game: Any, seat: int) -> RatingChange:
        result = matches[index % len(matches)].result
        assert result is not None
        before = 25.0 + seat + (index % 7) * 0.1
        return RatingChange(
            game=game,
            user=people[seat],
            seat=seat,
            place=result.places[seat],
            mu_before=before,
            sigma_before=3.0,
            mu_after=before + 0.3 - 0.2 * result.places[seat],
            sigma_after=2.98,
            games_after=len(games) - index,
        )

    RatingChange.objects.bulk_create(
        (change(index, game, seat) for index, game in enumerate(games) for seat in range(4)),
        batch_size=BATCH,
    )


def _resident() -> int:
    """The process's resident memory now, in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _export(name: str) -> dict[str, float]:
    """In a process of its own: ``name``'s export read to its end through the site's URL, and
    its figures."""
    set_up_django()
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    url = f"/api/v1/players/{name}/games.ndjson"
    warm = client.get(url, {"since": "2999-01-01"})  # the URLs, the API and the ORM loaded
    assert warm.status_code == 200 and not b"".join(warm.streaming_content)
    # What is loaded is set aside from the cyclic garbage collector, as the site's processes
    # set aside theirs when they start (hearts_site/asgi.py).
    gc.collect()
    gc.freeze()
    before = peak = _resident()
    games = size = 0
    first = 0.0
    began = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200, response
    for line in response.streaming_content:
        if not games:
            first = time.perf_counter() - began
        games += 1
        size += len(line)
        if games % SAMPLE_EVERY == 0:
            peak = max(peak, _resident())
    seconds = time.perf_counter() - began
    peak = max(peak, _resident())
    return {
        "games": games,
        "seconds": seconds,
        "bytes": size,
        "first": first,
        "rss_before": before,
        "rss_peak": peak,
    }


if __name__ == "__main__":
    main()
