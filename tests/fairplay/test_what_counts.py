"""Which games count against a player as leaving: a rated game ended by three time-outs in a
row, by a strict missed deadline or by resigning before the last hand. Casual games, games with
a bot, a resignation in a hand that may end the match and a dropped connection that comes back
in time do not."""

from __future__ import annotations

import pytest

from fairplay.models import Abandonment
from games import services
from games.models import Game, MoveRecord
from tests.helpers.fairplay import game_of, move_for, play_until, seat_to_act, table_of, times_out
from tests.helpers.tables import fresh, person

pytestmark = pytest.mark.django_db


def ending_of(game: Game) -> str:
    """How ``game`` ended, as its result says."""
    result = fresh(game).result
    assert result is not None
    return str(result["reason"])


def reasons_against(name: str) -> list[str]:
    return list(Abandonment.objects.filter(user=person(name)).values_list("reason", flat=True))


def test_three_time_outs_in_a_row_in_a_rated_game_count_as_leaving() -> None:
    game = game_of()
    for _ in range(3):
        play_until(game, 0)
        times_out(game)

    assert ending_of(game) == "left"
    assert reasons_against("alice") == ["left"]
    assert reasons_against("bob") == reasons_against("carol") == reasons_against("dave") == []


def test_a_strict_missed_deadline_in_a_rated_game_counts() -> None:
    game = game_of(clock="strict")
    play_until(game, 2)

    times_out(game)

    assert ending_of(game) == "timed out"
    assert reasons_against("carol") == ["timed out"]
    assert Abandonment.objects.count() == 1


def test_resigning_before_the_last_hand_counts() -> None:
    game = game_of()  # to 100: nobody can reach it in the first hand
    move_for(game, 1)

    services.resign(game.pk, 1)

    assert reasons_against("bob") == ["resigned"]


def test_resigning_in_a_hand_that_may_end_the_match_does_not_count() -> None:
    game = game_of(target=25)  # a moon in the first hand would end it

    services.resign(game.pk, 1)

    assert ending_of(game) == "resigned"
    assert reasons_against("bob") == []


def test_leaving_a_casual_game_never_counts() -> None:
    game = game_of(rated=False)

    services.resign(game.pk, 0)

    assert fresh(game).is_over
    assert Abandonment.objects.count() == 0


def test_leaving_a_game_with_a_bot_at_a_rated_table_never_counts() -> None:
    table = table_of(("alice", "bob", "carol"))  # rated, the fourth seat empty
    services.set_bot(table.pk, table.host, 3, True)
    game = services.start_game(table.pk, table.host)

    services.resign(game.pk, 0)

    assert fresh(game).is_over
    assert Abandonment.objects.count() == 0


def test_a_dropped_connection_that_comes_back_before_the_deadline_is_not_leaving() -> None:
    game = game_of(target=25)
    play_until(game, 0)
    times_out(game)  # alice's socket dropped: the table passed for her
    play_until(game, 0)
    times_out(game)  # and played her first card
    play_until(game, 0)
    move_for(game, 0)  # she is back before the third deadline and plays herself

    while not fresh(game).is_over:
        move_for(game, seat_to_act(game))

    assert fresh(game).status == Game.Status.FINISHED
    assert ending_of(game) == "target"
    assert MoveRecord.objects.filter(game=game, seat=0, timeout=True).count() == 2
    assert Abandonment.objects.count() == 0
