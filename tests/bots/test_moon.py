"""Moons: how a shooter scores one when it may choose, and the search bot stopping one."""

from __future__ import annotations

import pytest

from games.bots import HeuristicBot, SearchBot
from games.engine import Card, Hand, Match, MoonRule, Phase, Rules, seat_view
from tests.helpers.bots import match_with, play_tricks

# Seat 0 holds every club: it leads them all and wins every trick, taking every point.
ALL_CLUBS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def shot_the_moon(totals: tuple[int, ...], rules: Rules | None = None) -> Match:
    """Seat 0 has just shot the moon (hand 4, no pass) with the match at ``totals``."""
    rules = rules or Rules(moon=MoonRule.CHOOSE)
    match = match_with(Hand(rules, 4, ALL_CLUBS, totals=totals), totals)
    hand = match.hand
    while hand.phase is Phase.PLAYING:
        match.play(hand.turn, hand.legal_plays(hand.turn)[0])
    assert hand.phase is Phase.MOON_CHOICE
    return match


MOON_BOTS = {"heuristic": HeuristicBot(), "search": SearchBot(seconds=None, samples=20, seed=1)}


@pytest.mark.parametrize("bot", MOON_BOTS.values(), ids=MOON_BOTS.keys())
def test_the_shooter_takes_26_off_itself_when_giving_them_away_would_end_the_match_behind(bot):
    # Others +26 would make 101, 86 and 76: the match would end with the shooter (80) second.
    match = shot_the_moon((80, 75, 60, 50))
    view = seat_view(match, 0)
    assert (view.shooter, view.totals) == (0, (80, 75, 60, 50))

    assert bot.choose_moon(view) == "self"


@pytest.mark.parametrize("bot", MOON_BOTS.values(), ids=MOON_BOTS.keys())
def test_the_shooter_gives_26_away_when_that_ends_the_match_with_it_winning(bot):
    # Others +26 would make 106, 96 and 86: the match ends and the shooter (50) wins it.
    match = shot_the_moon((50, 80, 70, 60))

    choice = bot.choose_moon(seat_view(match, 0))

    assert choice == "others"
    match.choose_moon(0, choice)
    assert match.result is not None and match.result.winners == (0,)


def test_the_shooter_of_the_sun_gives_52_away_when_that_ends_the_match_with_it_winning():
    # The sun moves 52: others +52 would make 102, 107 and 110 and the shooter (60) wins. Taking
    # 52 off itself instead only leads, and the match goes on.
    rules = Rules(moon=MoonRule.CHOOSE, shoot_the_sun=True)
    match = shot_the_moon((60, 50, 55, 58), rules)
    assert match.hand.sun

    assert HeuristicBot().choose_moon(seat_view(match, 0)) == "others"


# Seat 1 wins the A♣ trick and then leads ten diamonds, on which the others, out of diamonds,
# throw the Q♠ and ten hearts: 23 points, all its own. It leads the K♥; seat 0, last to play,
# holds the A♥ and the 2♥. Ducking lets seat 1 lead its last diamond and take the A♥ with it:
# the moon. Seats 2 and 3 have shown they hold no diamond, so the last one is seat 1's.
STOPPABLE = [
    "2C 2D 3D AH 2H 3H 4H 5H 2S 3S 4S 5S 6S",
    "AC AD KD QD JD TD 9D 8D 7D 6D 5D 4D KH",
    "3C 4C 5C 6C 7C 8C 6H 7H 8H 9H QS 7S 8S",
    "9C TC JC QC KC TH JH QH 9S TS JS KS AS",
]
TRICKS = [
    "2C AC 3C 9C",
    "AD QS TH 2D",
    "KD 6H JH 3D",
    "QD 7H QH 3H",
    "JD 8H TC 4H",
    "TD 9H JC 5H",
    "9D 4C QC 2S",
    "8D 5C KC 3S",
    "7D 6C 9S 4S",
    "6D 7C TS 5S",
    "5D 8C JS 6S",
    "KH 7S KS",
]


def test_the_search_bot_takes_a_cheap_heart_trick_to_stop_a_moon():
    match = match_with(Hand(Rules(), 4, STOPPABLE))
    play_tricks(match, TRICKS)
    view = seat_view(match, 0)
    assert view.points_taken == (0, 23, 0, 0)
    assert set(view.legal) == {Card.parse("AH"), Card.parse("2H")}

    assert SearchBot(seconds=None, samples=20, seed=1).choose_play(view) == Card.parse("AH")
