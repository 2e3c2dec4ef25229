"""When a resignation is in a hand that may end the match (and so does not count as leaving):
some seat could still reach the target in it, with the points out or a moon."""

from __future__ import annotations

import doctest

from fairplay import penalties
from fairplay.penalties import may_be_last_hand
from games.engine import Match, Phase, Rules


def everyone_passes(match: Match) -> None:
    for seat in range(match.players):
        match.pass_cards(seat, match.hand.holding(seat)[:3])


def play_one(match: Match) -> None:
    hand = match.hand
    match.play(hand.turn, hand.legal_plays(hand.turn)[0])
    if not match.is_over and match.hand.phase is Phase.PASSING:
        everyone_passes(match)


def test_far_from_the_target_no_hand_may_be_the_last() -> None:
    match = Match(Rules(), bytes(32))  # to 100
    assert not may_be_last_hand(match)


def test_within_a_hands_points_of_the_target_the_hand_may_be_the_last() -> None:
    match = Match(Rules(target=25), bytes(32))  # a moon would end it
    assert may_be_last_hand(match)


def test_once_the_points_fall_too_far_apart_to_reach_the_target_it_is_not_the_last() -> None:
    match = Match(Rules(target=25), bytes(32))
    everyone_passes(match)
    while sum(1 for points in match.hand.penalty_points() if points) < 2:
        play_one(match)
    taken = match.hand.penalty_points()
    out = 26 - sum(taken)
    assert all(points + out < 25 for points in taken)  # this deal spreads them so

    assert not may_be_last_hand(match)


def test_a_hand_may_be_the_last_once_a_total_is_within_its_points_of_the_target() -> None:
    match = Match(Rules(target=40), bytes(32))
    assert not may_be_last_hand(match)  # nobody can take 40 in the first hand
    everyone_passes(match)
    while match.hand.number == 1:
        play_one(match)
    assert not match.is_over and max(match.totals) + 26 >= 40  # this deal gets one so near

    assert may_be_last_hand(match)


def test_the_examples_in_the_penalties_docstrings_hold() -> None:
    assert doctest.testmod(penalties).failed == 0
