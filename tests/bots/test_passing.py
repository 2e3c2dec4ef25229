"""Passing as the source texts teach it: the danger goes, the low cards stay, and a hand that
can shoot the moon keeps its high cards. The rules of passing are the easy level's pass; the
normal and strong levels try the passes those rules rank first in imagined deals, and always
pass an unguarded Q♠."""

from __future__ import annotations

import dataclasses

import pytest

from games.bots import SearchBot, make_bot, passing
from games.engine import Hand, Rules, parse_cards, seat_view
from tests.helpers.bots import match_with


def passed(hand: str, bot_name: str = "easy", rules: Rules | None = None) -> set[str]:
    """The three cards a bot passes from ``hand`` on hand 1 (passing left)."""
    rules = rules or Rules()
    mine = parse_cards(hand)
    rest = [card for card in rules.deck if card not in mine]
    seats = [mine, rest[:13], rest[13:26], rest[26:39]]
    match = match_with(Hand(rules, 1, seats))
    bot = make_bot(bot_name, seed=1)
    view = seat_view(match, 0)
    if isinstance(bot, SearchBot):  # the same search on a fixed number of deals, not the clock
        bot = dataclasses.replace(bot, seconds=None, pass_deals=min(bot.pass_deals, 60))
        cards = bot.choose_pass(view)
        # Short of a moon shot, the pass is three of the six cards the rules rank first.
        assert passing.can_shoot(list(mine)) or set(cards) <= set(passing.ranked(view)[:6])
    else:
        cards = bot.choose_pass(view)
    assert len(set(cards)) == 3 and set(cards) <= set(mine)
    return {str(card) for card in cards}


# The heuristic player (the benchmark's opponent, and the model the search bot has of the
# other seats' passes) is cruder: it passes low hearts before making a void.
EVERY_BOT = ["easy", "normal", "strong", "heuristic"]


@pytest.mark.parametrize("bot", EVERY_BOT)
@pytest.mark.parametrize(
    "hand",
    [
        "QS 3S 2C 5C 8C 2D 6D 9D 3H 4H 6H 7H 8H",
        "QS 3S 5S 9S AC KC 4C 2D 6D 9D 3H 4H AH",
        "QS KS AS 2C 3C 4C 5C 6C 2D 3D 4D 2H 3H",
    ],
)
def test_an_unguarded_queen_of_spades_is_passed(bot: str, hand: str) -> None:
    assert "QS" in passed(hand, bot)


@pytest.mark.parametrize("bot", EVERY_BOT)
def test_the_queen_stays_behind_four_low_spades(bot: str) -> None:
    assert "QS" not in passed("QS 2S 3S 5S 7S 2C 5C 8C 2D 6D 3H 4H 6H", bot)


@pytest.mark.parametrize("bot", ["easy", "heuristic"])
def test_the_ace_and_king_of_spades_go_when_the_queen_is_not_held(bot: str) -> None:
    assert {"AS", "KS"} <= passed("AS KS 4S 2C 5C 8C 2D 6D 9D 3H 4H 6H 7H", bot)


def test_high_hearts_go_and_low_cards_stay() -> None:
    cards = passed("AH KH 3H 2H 4S 5S 6S 3C 4C 5C 2D 3D 4D")
    assert {"AH", "KH"} <= cards
    assert not cards & {"2H", "3H", "2D", "4S"}


def test_a_short_suit_is_emptied_to_make_a_void() -> None:
    # Nothing else is dangerous: the two diamonds go, leaving a void to throw on.
    cards = passed("9D 7D 2S 3S 4S 5S 2C 3C 4C 5C 6C 2H 3H")
    assert {"9D", "7D"} <= cards


@pytest.mark.parametrize("bot", ["easy", "normal", "strong"])
def test_a_hand_that_can_shoot_keeps_its_high_cards_and_passes_low_ones(bot: str) -> None:
    assert passed("AH KH QH JH TH 9H AS KS AC KC AD 2C 3D", bot) == {"2C", "3D", "9H"}


def test_high_hearts_without_stoppers_are_passed_as_danger() -> None:
    assert {"AH", "KH"} & passed("AH KH QH JH TH 9H 2S 3S 4C 5C 6D 7D 8D")


def test_with_the_jack_of_diamonds_rule_high_diamonds_stay() -> None:
    rules = Rules(jack_of_diamonds=True)
    cards = passed("JD AD 2S 3S 4S 5S 2C 3C 4C 5C 6C 2H 3H", rules=rules)
    assert not cards & {"JD", "AD"}


def test_the_rule_based_player_passes_its_three_most_dangerous_cards() -> None:
    # The heuristic bot is the model the search bot reads passes by: Q♠ first, then A♠/K♠,
    # then hearts from the top.
    assert passed("QS AS 2S AH 2C 3C 4C 5C 2D 3D 4D 5D 6D", "heuristic") == {"QS", "AS", "AH"}
