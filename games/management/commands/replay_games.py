"""``manage.py replay_games``: replay every finished game from its seed and move log, the source
of truth, and report each whose stored figures differ from the replay: its result (reason,
places, totals, who it ended against), its version and fingerprint, its snapshot, the places
its rating changes were worked out from and its tally of points and moons. Changes nothing;
exits non-zero if any game differs (after an engine change, say: docs/records.md)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engine import HeartsError, Match, Move, Rules
from games.models import Game, MoveRecord
from ratings.models import GameTally, RatingChange
from ratings.stats import tally_of

CHUNK = 200  # games read at a time, each chunk's logs in one query


def replay_games() -> tuple[int, dict[int, list[str]]]:
    """Every finished game replayed: the number of games, and for each game that differs from
    its replay (by id) a line for each stored figure that is not the replay's."""
    finished = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    ids = list(finished.values_list("pk", flat=True))
    found: dict[int, list[str]] = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        logs = MoveRecord.logs_of(chunk)
        places: dict[int, dict[int, int]] = defaultdict(dict)
        rated = RatingChange.objects.filter(game_id__in=chunk)
        for game_id, seat, place in rated.values_list("game_id", "seat", "place"):
            places[game_id][seat] = place
        tallies = {tally.game_id: tally for tally in GameTally.objects.filter(game_id__in=chunk)}
        for game in Game.objects.filter(pk__in=chunk).order_by("pk"):
            lines = differences(game, logs[game.pk], places[game.pk], tallies.get(game.pk))
            if lines:
                found[game.pk] = lines
    return len(ids), found


def differences(
    game: Game, moves: Sequence[Move], places: dict[int, int], tally: GameTally | None
) -> list[str]:
    """What ``game``'s row (and its rating changes' ``places`` by seat, and its ``tally``) holds
    otherwise than the replay of its ``moves``, a line each."""
    name = f"Game {game.pk}"
    try:
        rules = Rules.from_json(game.rules)
        match = Match.replay(rules, bytes(game.seed), moves, game.added_seeds)
    except HeartsError as error:
        return [f"{name}: its log does not replay: {error}"]
    if match.result is None:
        return [f"{name}: its log of {len(moves)} moves does not finish the game"]
    stored = game.result if isinstance(game.result, dict) else {}
    replayed = {key: _plain(value) for key, value in vars(match.result).items()}
    lines = [
        _line(name, f"result {key}", stored.get(key), value)
        for key, value in replayed.items()
        if stored.get(key) != value
    ]
    if game.version != match.version:
        lines.append(_line(name, "version", game.version, match.version))
    if game.fingerprint != match.fingerprint:
        lines.append(_line(name, "fingerprint", game.fingerprint, match.fingerprint))
    lines += _snapshot(name, game.snapshot, match.to_snapshot())
    lines += [
        _line(name, f"rating change of seat {seat + 1}: place", place, _at(replayed, seat))
        for seat, place in sorted(places.items())
        if place != _at(replayed, seat)
    ]
    if tally is not None:
        lines += _tally(name, tally, tally_of(game, list(moves)))
    return lines


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _at(result: dict[str, Any], seat: int) -> int | None:
    places = result["places"]
    return int(places[seat]) if seat < len(places) else None


def _line(name: str, what: str, stored: Any, replayed: Any) -> str:
    return f"{name}: {what}: stored {stored!r}, replayed {replayed!r}"


def _snapshot(name: str, stored: Any, replayed: dict[str, Any]) -> list[str]:
    if stored == replayed:
        return []
    if not isinstance(stored, dict):
        return [f"{name}: snapshot: none stored (manage.py rebuild_snapshots makes it)"]
    keys = [key for key in replayed if stored.get(key) != replayed[key]]
    keys += [key for key in stored if key not in replayed]
    return [
        f"{name}: snapshot: {', '.join(keys)} not the replay's"
        " (manage.py rebuild_snapshots rebuilds it)"
    ]


def _tally(name: str, stored: GameTally, replayed: GameTally) -> list[str]:
    return [
        _line(name, f"tally {field}", getattr(stored, field), getattr(replayed, field))
        for field in ("hands", "points", "moons")
        if getattr(stored, field) != getattr(replayed, field)
    ]


class Command(BaseCommand):
    help = "Replay every finished game from its seed and move log; report those that differ."

    def handle(self, *args: Any, **options: Any) -> None:
        games, found = replay_games()
        for lines in found.values():
            for line in lines:
                self.stdout.write(line)
        self.stdout.write(f"{games} finished game(s) replayed, {len(found)} differ from the replay")
        if found:
            raise CommandError(f"{len(found)} finished game(s) differ from their replay")
