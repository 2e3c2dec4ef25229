"""The rule-based player that plays the search's deals out, with and without the refinements
the search uses (the plain one is the heuristic bot)."""

from __future__ import annotations

import pytest

from games.bots import HeuristicBot
from games.bots.policy import Player, choose
from games.engine import Card, Hand, Rules, mask_of, seat_view
from tests.helpers.bots import match_with, play_tricks


def cards(text: str) -> list[int]:
    return [Card.parse(name).index for name in text.split()]


def mask(text: str) -> int:
    return mask_of(map(Card.parse, text.split()))


def pick(
    trick: str, legal: str, *, refined: bool, first: bool = False, queen_out: bool = False
) -> str:
    index = choose(
        cards(trick),
        4,
        seat=1,
        legal=mask(legal),
        moon_seat=-1,
        queen_out=queen_out,
        first=first,
        refined=refined,
    )
    return legal.split()[cards(legal).index(index)]


def test_on_the_first_trick_the_refined_player_sheds_its_highest_club() -> None:
    assert pick("2C", "5C 9C KC", refined=False, first=True) == "5C"
    assert pick("2C", "5C 9C KC", refined=True, first=True) == "KC"


def test_only_on_the_first_trick_does_it_throw_a_high_card_it_could_duck_with() -> None:
    assert pick("TC", "5C 9C KC", refined=True, first=True) == "KC"
    assert pick("TC", "5C 9C KC", refined=True) == "9C"


def test_the_refined_player_leads_a_low_spade_to_drive_out_the_queen() -> None:
    hand = "2D 4C 5S 9S JH"
    assert pick("", hand, refined=False) == "2D"
    assert pick("", hand, refined=True) == "5S"


@pytest.mark.parametrize(
    ("hand", "why"),
    [
        ("2D 4C 5S QS", "she is in its own hand"),
        ("2D 4C 5S KS", "its king would be caught under her"),
        ("2D 4C 5S AS", "its ace would be caught under her"),
    ],
)
def test_no_spade_is_led_to_drive_out_a_queen_it_should_fear(hand: str, why: str) -> None:
    assert pick("", hand, refined=True) == "2D", why


def test_once_the_queen_has_fallen_spades_are_led_like_any_suit() -> None:
    assert pick("", "3D 4C 5S 9S", refined=True, queen_out=True) == "3D"


def test_a_clean_trick_it_must_win_it_wins_with_its_highest_card() -> None:
    assert pick("4D", "8D JD AD", refined=False) == "8D"
    assert pick("4D", "8D JD AD", refined=True) == "AD"


def test_it_still_wins_as_cheaply_as_it_can_when_points_or_spades_are_at_stake() -> None:
    assert pick("4D 3H", "8D JD AD", refined=True) == "8D"
    assert pick("4S", "8S JS AS", refined=True) == "8S"


def test_the_chooser_knows_the_first_trick_from_what_nobody_has_taken_yet() -> None:
    hand = mask("5C 9C KC")
    nothing = [0, 0, 0, 0]
    one_trick = [mask("2C 3C 4C 6C"), 0, 0, 0]
    at_first = Player(4, nothing, refined=True)
    assert at_first.pick(cards("TC"), 1, hand, nothing) == Card.parse("KC").index
    after_it = Player(4, one_trick, refined=True)
    assert after_it.pick(cards("TC"), 1, hand, one_trick) == Card.parse("9C").index


HANDS = [
    "2C 9C KC 2D 3D 4D 5D 6D 2H 3H 4H 2S 3S",
    "3C 4C AC 7D 8D 9D TD 5H 6H 7H 4S 5S 6S",
    "5C 6C 7C JD QD KD AD 8H 9H TH 7S 8S 9S",
    "8C TC JC QC JH QH KH AH TS JS QS KS AS",
]


@pytest.mark.parametrize(("refined", "card"), [(False, "3C"), (True, "AC")])
def test_the_heuristic_bot_can_play_with_the_refinements(refined: bool, card: str) -> None:
    match = match_with(Hand(Rules(), 4, HANDS))
    play_tricks(match, ["2C"])

    assert HeuristicBot(refined).choose_play(seat_view(match, 1)) == Card.parse(card)
