"""Games stored by the code before issue 28 moved the rules into the engine, the words into
games/words.py and the history and the table into their layers (tests/data/stored_games.jsonl,
made from 44e08bc: docs/records.md) replay with the code at hand, from their seeds and logs, to
the same points, results, records, replays' words, outcomes, places, table's words and rules in
words."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine import PRESETS
from tests.helpers.stored_games import WANTS, differences, replayed, stored_games

GAMES = list(stored_games())


@pytest.mark.parametrize("game", GAMES, ids=[game["table"] for game in GAMES])
def test_a_stored_game_replays_to_what_its_players_saw(game: dict[str, Any]) -> None:
    told = differences(game)
    assert not told, "\n".join(told)


def test_a_figure_or_a_word_changed_in_a_stored_game_is_told() -> None:
    game = copy.deepcopy(GAMES[0])
    game["seen"]["record"]["hands"][2]["points"][1] += 1
    game["seen"]["steps"][7] = game["seen"]["steps"][7].replace(" plays ", " lays ")
    told = differences(game)
    assert [line.split(" was ")[0] for line in told] == [
        f"{game['table']}: record: ['hands'][2]['points'][1]",
        f"{game['table']}: steps: [7]",
    ]


def test_the_stored_games_cover_every_rule_set_table_size_moon_and_end() -> None:
    tables = {(game["preset"], game["rules"]["players"]) for game in GAMES}
    offered = {(key, players) for key, preset in PRESETS.items() for players in preset.players}
    assert offered | {("custom", players) for players in (3, 4, 5, 6)} <= tables
    ends = {game["seen"]["record"]["result"]["reason"] for game in GAMES}
    assert ends == {"target", "resigned", "left", "timed out"}
    late = {move.split()[1] for game in GAMES for move in game["moves"] if "timeout" in move}
    assert late == {"pass", "play", "moon"}
    matches = [replayed(game) for game in GAMES]
    for want, shows in WANTS.items():  # moons of every rule, suns, ties, kitties...
        assert any(shows(match) for match in matches), want
