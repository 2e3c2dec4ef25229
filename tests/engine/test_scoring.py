"""Scoring a hand: 26 penalty points, the moon, the sun, the jack of diamonds and the kitty.

Most hands here are dealt by hand and played out either trick by trick or with a plain policy
(the lowest legal card, or the highest for one seat), so that every score can be worked out by
reading the deal.
"""

import pytest

from games.engine import (
    PRESETS,
    CardPlayed,
    Hand,
    HandScored,
    IllegalMoveError,
    KittyTaken,
    MoonChoiceAsked,
    MoonRule,
    MoonShot,
    Move,
    NotYourTurnError,
    Phase,
    Rules,
    ShortPack,
    TrickTaken,
    WrongPhaseError,
    parse_cards,
)

STANDARD = PRESETS["standard"].rules  # the moon: others +26
PUBLISHED = PRESETS["published"].rules  # the moon: automatic
CLUB = PRESETS["club"].rules  # the moon: the shooter chooses
ENCYCLOPEDIA = PRESETS["encyclopedia"].rules  # the moon: the shooter -26


def deal(rules, hands, number=4, kitty="", totals=None):
    return Hand(rules, number, [parse_cards(cards) for cards in hands], kitty, totals)


def cards(notation):
    return parse_cards(notation)


def lowest(hand, seat):
    return hand.legal_plays(seat)[0]


def highest_for(shooter):
    """The highest legal card (in pack order) for the shooter, the lowest for the others."""

    def choose(hand, seat):
        legal = hand.legal_plays(seat)
        return legal[-1] if seat == shooter else legal[0]

    return choose


def play_out(hand, policy=lowest):
    """Play every remaining card by the policy; return the events of the last card."""
    events = []
    while hand.phase is Phase.PLAYING:
        events = hand.play(hand.turn, policy(hand, hand.turn))
    return events


def play_tricks(hand, tricks):
    """Play tricks written as the cards in the order played; return the last card's events."""
    events = []
    for trick in tricks:
        for card in trick.split():
            events = hand.play(hand.turn, card)
    return events


# Seat 0 holds the clubs, 1 the diamonds, 2 the hearts, 3 the spades. Played out with the
# lowest legal card, seat 0 leads a club to every trick and takes them all: the moon and the
# sun, with the J♦ among its cards.
SUITS = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
)

# Seat 0 shoots the moon but not the sun: seat 1 wins trick one with the A♣, and the J♦
# that seat 3 discards on it.
MOON = (
    "3C AS KS QS AH KH QH JH TH 9H 8H 7H 6H",
    "AC 2S 3S 4S 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "2C 4C 5C 6C 7C 8C 9C TC JC QC KC 5S 6S",
    "7S 8S 9S TS JS JD QD KD AD 2H 3H 4H 5H",
)
MOON_TRICKS = (
    "2C JD 3C AC",  # seat 2 leads; seat 1 wins
    "2S 5S 7S AS",  # seat 1 leads; seat 0 wins this and every trick after
    "KS 3S 6S 8S",
    "QS 4S 4C 9S",
    "AH 2D 5C 2H",
    "KH 3D 6C 3H",
    "QH 4D 7C 4H",
    "JH 5D 8C 5H",
    "TH 6D 9C TS",
    "9H 7D TC JS",
    "8H 8D JC QD",
    "7H 9D QC KD",
    "6H TD KC AD",
)


def moon(rules, totals=None):
    hand = deal(rules, MOON, totals=totals)
    play_tricks(hand, MOON_TRICKS)
    return hand


def sun(rules, totals=None):
    hand = deal(rules, SUITS, totals=totals)
    play_out(hand)
    return hand


# 26 points a hand --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        STANDARD,
        Rules(players=3),
        Rules(players=5),
        Rules(players=6),
        Rules(players=3, short_pack=ShortPack.KITTY),
        Rules(players=6, short_pack=ShortPack.KITTY),
    ],
    ids=["4", "3", "5", "6", "3 with kitty", "6 with kitty"],
)
@pytest.mark.parametrize("seed", [bytes(32), bytes(range(32))])
def test_every_hand_gives_out_26_penalty_points(rules, seed):
    hand = Hand.deal(rules, seed, rules.players)  # a hold hand
    play_out(hand)

    assert sum(hand.penalty_points()) == 26
    assert hand.shooter is not None or sum(hand.points) == 26


def test_each_heart_taken_scores_one_and_the_queen_thirteen():
    hand = deal(
        ENCYCLOPEDIA,
        (
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD",
            "AC 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD 2S",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "JD 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ),
    )

    events = play_out(hand)

    # Seat 1 wins trick one (2♥) with the A♣; seat 0 takes everything else.
    assert [trick.winner for trick in hand.tricks] == [1] + [0] * 12
    assert hand.points == (25, 1, 0, 0)
    assert events[-1] == HandScored(4, (25, 1, 0, 0))
    assert hand.shooter is None
    assert hand.phase is Phase.OVER


# The moon ----------------------------------------------------------------------------------


def test_a_seat_that_takes_every_penalty_card_shoots_the_moon():
    hand = moon(STANDARD)

    assert hand.penalty_points() == (26, 0, 0, 0)
    assert hand.tricks_won(1) == 1
    assert hand.shooter == 0
    assert not hand.sun


def test_with_the_moon_for_others_every_other_seat_takes_26():
    hand = deal(STANDARD, MOON)

    events = play_tricks(hand, MOON_TRICKS)

    assert hand.points == (0, 26, 26, 26)
    assert events[-2:] == [MoonShot(0, False), HandScored(4, (0, 26, 26, 26))]


def test_with_the_moon_for_the_shooter_the_shooter_takes_minus_26():
    assert moon(ENCYCLOPEDIA).points == (-26, 0, 0, 0)
    assert moon(Rules(moon=MoonRule.SELF)).points == (-26, 0, 0, 0)


def test_when_the_shooter_chooses_the_hand_waits_for_the_choice():
    hand = deal(CLUB, MOON)

    events = play_tricks(hand, MOON_TRICKS)

    assert hand.phase is Phase.MOON_CHOICE
    assert hand.turn == 0
    assert hand.points is None
    assert events[-2:] == [MoonShot(0, False), MoonChoiceAsked(0)]


@pytest.mark.parametrize(
    ("choice", "points"), [("others", (0, 26, 26, 26)), ("self", (-26, 0, 0, 0))]
)
def test_the_shooter_chooses_whether_the_others_take_26_or_it_takes_minus_26(choice, points):
    hand = moon(CLUB)

    events = hand.choose_moon(0, choice)

    assert events == [HandScored(4, points)]
    assert hand.points == points
    assert hand.phase is Phase.OVER
    assert hand.moves[-1] == Move("moon", 0, choice=choice)


def test_only_the_shooter_chooses_how_the_moon_scores():
    hand = moon(CLUB)
    before = hand.snapshot()

    with pytest.raises(NotYourTurnError, match="Only the player who shot the moon chooses"):
        hand.choose_moon(1, "others")

    assert hand.snapshot() == before


def test_the_moon_choice_is_others_or_self_and_nothing_else():
    hand = moon(CLUB)
    before = hand.snapshot()

    with pytest.raises(IllegalMoveError, match="Choose 'others'"):
        hand.choose_moon(0, "both")

    assert hand.snapshot() == before


def test_no_card_is_played_while_the_shooter_chooses():
    hand = moon(CLUB)

    with pytest.raises(WrongPhaseError):
        hand.play(0, "AH")


@pytest.mark.parametrize(
    ("totals", "points"),
    [
        ((0, 0, 0, 0), (0, 26, 26, 26)),  # nobody reaches the target
        ((60, 73, 10, 10), (0, 26, 26, 26)),  # 99: the match goes on
        ((60, 74, 10, 10), (-26, 0, 0, 0)),  # 100 ends it with the shooter behind
        ((10, 80, 30, 30), (0, 26, 26, 26)),  # it ends with the shooter first
        ((40, 80, 14, 14), (0, 26, 26, 26)),  # the shooter tied with the lowest is not behind
        ((41, 80, 14, 14), (-26, 0, 0, 0)),  # one point more and it is behind
    ],
    ids=["short of target", "99", "100", "shooter first", "tied lowest", "behind by one"],
)
def test_the_automatic_moon_gives_26_to_the_others_unless_that_ends_the_match_with_the_shooter_behind(
    totals, points
):
    assert moon(PUBLISHED, totals=totals).points == points


def test_the_automatic_moon_uses_the_target_of_the_rules():
    rules = PUBLISHED.replace(target=50)

    assert moon(rules, totals=(30, 24, 0, 0)).points == (-26, 0, 0, 0)
    assert moon(rules, totals=(30, 23, 0, 0)).points == (0, 26, 26, 26)


@pytest.mark.parametrize(
    ("jack", "points"), [(False, (-26, 0, 0, 0)), (True, (0, 16, 26, 26))], ids=["off", "on"]
)
def test_the_automatic_moon_counts_the_jack_of_another_seat_before_deciding(jack, points):
    # Seat 1 holds the J♦: 80 + 26 - 10 = 96 does not reach 100; 80 + 26 = 106 does.
    rules = PUBLISHED.replace(jack_of_diamonds=jack)

    assert moon(rules, totals=(50, 80, 0, 0)).points == points


@pytest.mark.parametrize(
    ("jack", "points"), [(False, (-26, 0, 0, 0)), (True, (-10, 26, 26, 26))], ids=["off", "on"]
)
def test_the_automatic_moon_counts_the_shooters_jack_before_deciding(jack, points):
    # The shooter takes the J♦: 50 - 10 = 40 ties the lowest (14 + 26) and is not behind.
    rules = Rules(moon=MoonRule.AUTOMATIC, jack_of_diamonds=jack)

    assert sun(rules, totals=(50, 80, 14, 14)).points == points


# The sun -----------------------------------------------------------------------------------


def test_taking_every_trick_is_only_a_moon_without_the_sun_option():
    hand = sun(STANDARD)

    assert hand.tricks_won(0) == 13
    assert not hand.sun
    assert hand.points == (0, 26, 26, 26)


def test_taking_every_trick_shoots_the_sun_for_52_to_the_others():
    hand = deal(Rules(shoot_the_sun=True), SUITS)

    events = play_out(hand)

    assert hand.sun
    assert hand.points == (0, 52, 52, 52)
    assert events[-2:] == [MoonShot(0, True), HandScored(4, (0, 52, 52, 52))]


def test_the_sun_takes_52_from_the_shooter_where_the_moon_rule_subtracts():
    assert sun(PRESETS["encyclopedia"].make(shoot_the_sun=True)).points == (-52, 0, 0, 0)


@pytest.mark.parametrize(
    ("choice", "points"), [("others", (0, 52, 52, 52)), ("self", (-52, 0, 0, 0))]
)
def test_the_shooter_of_the_sun_chooses_between_52_for_the_others_and_minus_52(choice, points):
    hand = sun(Rules(moon=MoonRule.CHOOSE, shoot_the_sun=True))

    assert hand.phase is Phase.MOON_CHOICE
    hand.choose_moon(0, choice)
    assert hand.points == points


@pytest.mark.parametrize(
    ("totals", "points"),
    [((0, 0, 0, 0), (0, 52, 52, 52)), ((60, 50, 0, 0), (-52, 0, 0, 0))],
    ids=["short of target", "shooter behind"],
)
def test_the_automatic_sun_gives_52_to_the_others_unless_that_ends_the_match_with_the_shooter_behind(
    totals, points
):
    rules = Rules(moon=MoonRule.AUTOMATIC, shoot_the_sun=True)

    assert sun(rules, totals=totals).points == points


def test_a_moon_that_misses_a_trick_is_not_a_sun():
    hand = moon(PRESETS["encyclopedia"].make(shoot_the_sun=True))

    assert not hand.sun
    assert hand.points == (-26, 0, 0, 0)


# The jack of diamonds ----------------------------------------------------------------------


def test_whoever_takes_the_jack_of_diamonds_scores_minus_10_on_top():
    hand = deal(
        PRESETS["encyclopedia"].make(jack_of_diamonds=True),
        (
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD",
            "AC 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD 2S",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "JD 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ),
    )

    play_out(hand)

    # Seat 1 wins trick one: the 2♥ and the J♦ that seat 3 discards on it.
    assert hand.tricks[0].cards == tuple(cards("2C AC 2H JD"))
    assert hand.points == (25, 1 - 10, 0, 0)


def test_without_the_jack_option_the_jack_of_diamonds_scores_nothing():
    hand = moon(STANDARD)

    assert cards("JD")[0] in hand.taken(1)
    assert hand.points == (0, 26, 26, 26)


@pytest.mark.parametrize(
    ("moon_rule", "points"),
    [(MoonRule.OTHERS, (0, 26 - 10, 26, 26)), (MoonRule.SELF, (-26, -10, 0, 0))],
)
def test_the_jack_is_not_needed_for_a_moon_and_scores_on_top_of_it(moon_rule, points):
    hand = moon(Rules(moon=moon_rule, jack_of_diamonds=True))

    assert hand.shooter == 0
    assert hand.points == points


@pytest.mark.parametrize(
    ("rules", "points"),
    [
        (Rules(jack_of_diamonds=True), (-10, 26, 26, 26)),
        (Rules(moon=MoonRule.SELF, jack_of_diamonds=True), (-36, 0, 0, 0)),
        (
            PRESETS["encyclopedia"].make(jack_of_diamonds=True, shoot_the_sun=True),
            (-62, 0, 0, 0),
        ),
    ],
)
def test_a_shooter_who_also_takes_the_jack_scores_minus_10_on_top(rules, points):
    assert sun(rules).points == points


def test_the_jack_is_added_after_the_moon_choice():
    hand = moon(Rules(moon=MoonRule.CHOOSE, jack_of_diamonds=True))

    assert hand.choose_moon(0, "self") == [HandScored(4, (-26, -10, 0, 0))]


# The kitty ---------------------------------------------------------------------------------

KITTY_RULES = PRESETS["encyclopedia"].make(3, short_pack="kitty")

# Three players, a kitty of one card, the A♥. Seat 0 leads every club and wins; seat 2
# discards its hearts on those tricks from trick two on, then wins the spades at the end.
KITTY_DEAL = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2S 3S 4S 5S",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 6S 7S 8S 9S",
    "TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
)


def test_the_kitty_goes_to_the_winner_of_the_first_trick_that_holds_a_penalty_card():
    hand = deal(KITTY_RULES, KITTY_DEAL, number=3, kitty="AH")

    first = play_tricks(hand, ["2C 2D TS"])
    second = play_tricks(hand, ["3C 3D 2H"])

    assert hand.tricks[0].winner == 0
    assert KittyTaken(0) not in first
    assert second[-1] == KittyTaken(0)
    assert hand.kitty_taker == 0
    assert cards("AH")[0] in hand.taken(0)
    assert hand.penalty_points() == (2, 0, 0)


def test_the_kitty_cards_never_join_a_hand():
    hand = deal(KITTY_RULES, KITTY_DEAL, number=3, kitty="AH")
    play_tricks(hand, ["2C 2D TS", "3C 3D 2H"])

    assert all(cards("AH")[0] not in hand.holding(seat) for seat in range(3))
    assert len(hand.holding(0)) == 15


def test_the_kitty_counts_for_the_seat_that_takes_it():
    hand = deal(KITTY_RULES, KITTY_DEAL, number=3, kitty="AH")

    play_out(hand)

    assert hand.kitty_taker == 0
    assert [trick.winner for trick in hand.tricks] == [0] * 13 + [2] * 4
    assert hand.points == (12 + 1, 0, 13)


def test_the_jack_of_diamonds_counts_with_the_kitty():
    hand = deal(KITTY_RULES.replace(jack_of_diamonds=True), KITTY_DEAL, number=3, kitty="AH")

    play_out(hand)

    assert hand.points == (13 - 10, 0, 13)


def test_the_kitty_counts_towards_a_moon():
    # Seat 0 holds every heart but the 2♥, which lies in the kitty; it takes every trick.
    hand = deal(
        KITTY_RULES,
        (
            "AC KC 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS KS AS",
            "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D 8D 2S 3S 4S 5S",
            "8C 9C TC JC QC 9D TD JD QD KD AD 6S 7S 8S 9S TS JS",
        ),
        number=3,
        kitty="2H",
    )

    play_out(hand, highest_for(0))

    assert hand.kitty_taker == 0
    assert hand.tricks_won(0) == 17
    assert hand.shooter == 0
    assert hand.points == (-26, 0, 0)


def test_the_events_of_the_last_card_tell_the_trick_and_the_score():
    hand = deal(STANDARD, MOON)
    play_tricks(hand, MOON_TRICKS[:-1])

    events = play_tricks(hand, ["6H TD KC AD"])

    assert events == [
        CardPlayed(3, cards("AD")[0]),
        TrickTaken(0, tuple(cards("6H TD KC AD")), 1),
        MoonShot(0, False),
        HandScored(4, (0, 26, 26, 26)),
    ]
