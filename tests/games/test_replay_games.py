"""``manage.py replay_games``: every finished game replayed from its seed and log; a stored
figure that is not the replay's (a result, a snapshot, a rating change's place, a tally) is
reported, game by game, and the command fails."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game, MoveRecord
from ratings.models import GameTally, RatingChange
from ratings.stats import game_tallies
from tests.helpers.finishing import play_out, start
from tests.helpers.records import ended_early
from tests.helpers.tables import fresh, game_with, people

pytestmark = pytest.mark.django_db


def _finished_games() -> list[Game]:
    """Two rated games played to the end, their tallies counted, and one ended early by a
    resignation; and a game still being played, which is not replayed."""
    early = ended_early()
    whole = [play_out(start(people("erin", "frank", "grace", "heidi"), rated=True), 40 + n)
             for n in range(2)]  # fmt: skip
    game_tallies(whole)
    game_with(people("ivan", "judy", "mallory", "niaj"))
    return [early, *whole]


def _replay() -> str:
    out = StringIO()
    call_command("replay_games", stdout=out)
    return out.getvalue()


def test_finished_games_that_replay_to_their_stored_figures_pass() -> None:
    _finished_games()
    assert _replay().splitlines() == ["3 finished game(s) replayed, 0 differ from the replay"]


def test_a_game_whose_stored_result_is_not_the_replay_s_is_reported_and_the_command_fails() -> None:
    _, whole, _ = _finished_games()
    result = fresh(whole).result
    assert result is not None
    totals = [result["totals"][0] + 1, *result["totals"][1:]]
    Game.objects.filter(pk=whole.pk).update(result={**result, "totals": totals})

    out = StringIO()
    with pytest.raises(CommandError, match="1 finished game"):
        call_command("replay_games", stdout=out)

    assert out.getvalue().splitlines() == [
        f"Game {whole.pk}: result totals: stored {totals}, replayed {result['totals']}",
        "3 finished game(s) replayed, 1 differ from the replay",
    ]


def test_each_stored_figure_that_is_not_the_replay_s_is_told_game_by_game() -> None:
    early, whole, other = _finished_games()
    snapshot = fresh(early).snapshot
    assert snapshot is not None
    Game.objects.filter(pk=early.pk).update(snapshot={**snapshot, "totals": [0, 0, 0, 0]})
    change = RatingChange.objects.filter(game=whole).order_by("seat").first()
    assert change is not None
    RatingChange.objects.filter(pk=change.pk).update(place=change.place % 4 + 1)
    tally = GameTally.objects.get(game=whole)
    moons = [moons + 1 for moons in tally.moons]
    GameTally.objects.filter(game=whole).update(moons=moons, hands=tally.hands + 1)
    MoveRecord.objects.filter(game=other, number=fresh(other).version).delete()

    out = StringIO()
    with pytest.raises(CommandError, match="3 finished game"):
        call_command("replay_games", stdout=out)

    seat = change.seat
    assert out.getvalue().splitlines() == [
        f"Game {early.pk}: snapshot: totals not the replay's"
        " (manage.py rebuild_snapshots rebuilds it)",
        f"Game {whole.pk}: rating change of seat {seat + 1}: place:"
        f" stored {change.place % 4 + 1}, replayed {change.place}",
        f"Game {whole.pk}: tally hands: stored {tally.hands + 1}, replayed {tally.hands}",
        f"Game {whole.pk}: tally moons: stored {moons}, replayed {tally.moons}",
        f"Game {other.pk}: its log of {fresh(other).version - 1} moves does not finish the game",
        "3 finished game(s) replayed, 3 differ from the replay",
    ]
