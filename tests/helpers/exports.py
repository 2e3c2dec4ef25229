"""Many finished games, quickly: a few matches played once by the engine, then stored again and
again as the site stores finished games (the table, the game with its seed, fingerprint, rules
and result, its players and its move log), by bulk inserts in large batches. Each stored game
replays from its seed and its log to the result it is stored with, as a game the site played
does; thousands take seconds, where playing each through the site would take minutes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User

from games.engine import Match, Rules, fingerprint, format_cards
from games.models import Game, GamePlayer, MoveRecord, Table
from tests.helpers.engine import seed, step

BATCH = 2000  # rows an insert


def played(rules: Rules, seed_number: int, *, moves: int | None = None) -> Match:
    """A match of ``rules`` dealt from the fixed seed ``seed_number`` and played with plain
    moves (``tests.helpers.engine.step``) to the end; with ``moves``, only that many, then
    resigned by seat ``moves`` (modulo the players): a game ended early."""
    match = Match(rules, seed(seed_number))
    while not match.is_over and (moves is None or len(match.moves) < moves):
        step(match)
    if not match.is_over:
        match.resign(len(match.moves) % match.players)
    return match


def stored_games(
    players: Sequence[User | None],
    matches: Sequence[Match],
    count: int,
    *,
    newest: datetime,
    apart: timedelta,
    preset: str = "standard",
    rated: bool = False,
    private: bool = False,
) -> list[int]:
    """``count`` finished games at one table (numbered as rematches) hosted by the first of
    ``players``, who sit in seat order (None for a bot), each a copy of one of ``matches`` in
    turn (all of the table's rules, all over). The first finished at ``newest``, each next one
    ``apart`` earlier. Returns their ids, newest first."""
    rules = matches[0].rules
    assert all(match.rules == rules and match.is_over for match in matches)
    assert len(players) == rules.players
    host = next(person for person in players if person is not None)
    table = Table.objects.create(
        status=Table.Status.CLOSED,
        host=host,
        preset=preset,
        rules=rules.to_json(),
        rated=rated,
        private=private,
    )
    rows = [
        Game(
            table=table,
            number=number,
            rules=rules.to_json(),
            seed=match.seed,
            fingerprint=fingerprint(match.seed),
            added_seeds=list(match.added_seeds),
            version=len(match.moves),
            status=Game.Status.FINISHED,
            rated=rated,
            result=_result(match),
            finished_at=newest - (number - 1) * apart,
        )
        for number, match in ((n, matches[(n - 1) % len(matches)]) for n in range(1, count + 1))
    ]
    games = Game.objects.bulk_create(rows, batch_size=BATCH)
    GamePlayer.objects.bulk_create(
        (
            GamePlayer(game=game, seat=seat, user=person, is_bot=person is None)
            for game in games
            for seat, person in enumerate(players)
        ),
        batch_size=BATCH,
    )
    logs = [_log(match) for match in matches]
    MoveRecord.objects.bulk_create(
        (
            MoveRecord(game=game, number=number, **fields)
            for index, game in enumerate(games)
            for number, fields in enumerate(logs[index % len(logs)], start=1)
        ),
        batch_size=BATCH,
    )
    return [game.pk for game in games]


def _result(match: Match) -> dict[str, object]:
    """The result as the site stores it when a game ends (``games.services._finish``)."""
    assert match.result is not None
    return match.result.to_json()


def _log(match: Match) -> list[dict[str, object]]:
    """Each move of ``match`` as its log entry's fields (``MoveRecord.of``)."""
    return [
        {
            "kind": move.kind,
            "seat": move.seat,
            "cards": format_cards(move.cards),
            "choice": move.choice,
            "timeout": move.timeout,
        }
        for move in match.moves
    ]
