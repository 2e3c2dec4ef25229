"""The one number people see: the cautious estimate on a chess-like scale, provisional at first."""

from __future__ import annotations

import doctest

import pytest

import ratings.maths
import ratings.stats
from ratings.maths import MU, SIGMA, Skill, display_rating, is_provisional, rate


def test_a_newcomer_shows_300_and_a_sure_average_player_nearly_1500() -> None:
    assert display_rating(MU, SIGMA) == 300
    assert display_rating(MU, 0.0) == 1500
    assert display_rating(MU, 1.0) == 1356


def test_a_rating_is_never_below_zero() -> None:
    assert display_rating(10.0, 8.0) == 0


def test_a_player_is_provisional_for_their_first_ten_rated_games() -> None:
    assert [is_provisional(games) for games in (0, 1, 9, 10, 11)] == [
        True,
        True,
        True,
        False,
        False,
    ]


def test_winning_raises_and_losing_lowers_the_shown_number() -> None:
    winner, second, third, last = rate([Skill()] * 4, [1, 2, 3, 4])

    assert winner.display > second.display > third.display > last.display
    assert second.display > display_rating(MU, SIGMA) > last.display


def test_equal_places_with_equal_ratings_give_equal_ratings() -> None:
    after = rate([Skill()] * 4, [2, 1, 2, 4])

    assert after[0] == after[2]
    assert after[1].mu > after[0].mu > after[3].mu


def test_places_must_be_a_games_places() -> None:
    with pytest.raises(ValueError, match="One place per player"):
        rate([Skill()] * 4, [1, 2, 3])
    with pytest.raises(ValueError, match="Not a game's places"):
        rate([Skill()] * 2, [0, 1])


@pytest.mark.parametrize("module", [ratings.maths, ratings.stats])
def test_the_examples_in_the_docstrings_hold(module: object) -> None:
    failed, attempted = doctest.testmod(module, report=False)  # type: ignore[arg-type]

    assert attempted > 0
    assert failed == 0
