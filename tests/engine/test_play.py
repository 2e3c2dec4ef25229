"""Playing the cards: the first lead, following suit, the first trick, hearts and the queen.

Hands are dealt by hand from card notation. Hand 4 of a four-player game (hand 3 with three
players, 5 with five, 6 with six) is a hold hand: play starts at once, without a pass.
"""

import pytest

from games.engine import (
    PRESETS,
    CardPlayed,
    FirstLead,
    Hand,
    HeartsBroken,
    IllegalMoveError,
    NotYourTurnError,
    Phase,
    Rules,
    TrickTaken,
    WrongPhaseError,
    parse_cards,
)
from games.engine.hand import ChooseBy

STANDARD = PRESETS["standard"].rules  # no points on the first trick
CLASSIC = PRESETS["classic"].rules  # points allowed on the first trick
CLUB = PRESETS["club"].rules  # points allowed, the queen breaks hearts
LEFT_OF_DEALER = PRESETS["encyclopedia"].make(first_lead="left_of_dealer")
OLD_QUEEN = PRESETS["encyclopedia"].make(old_queen=True)  # and no points on the first trick
OLD_QUEEN_OPEN = Rules(old_queen=True, points_on_first_trick=True)

# Seat 0 holds the 2♣; seat 2 holds no club; seat 3 holds the top clubs and the Q♠.
DEAL_A = (
    "2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 2H 3H",
    "6C 7C 8C 9C 6D 7D 8D 9D 5S 6S 7S 4H 5H",
    "TD JD QD KD AD 8S 9S TS JS 6H 7H 8H 9H",
    "TC JC QC KC AC QS KS AS TH JH QH KH AH",
)


def deal(rules, hands, number=4, kitty="", totals=None):
    return Hand(rules, number, [parse_cards(cards) for cards in hands], kitty, totals)


def cards(notation):
    return parse_cards(notation)


def play(hand, notation):
    """Play cards in turn order, each by whoever is to play."""
    events = []
    for card in notation.split():
        events += hand.play(hand.turn, card)
    return events


# The first lead ----------------------------------------------------------------------------


def test_the_holder_of_the_two_of_clubs_leads_the_first_trick():
    hand = deal(STANDARD, DEAL_A)

    assert hand.phase is Phase.PLAYING
    assert hand.turn == 0


def test_the_first_lead_must_be_the_two_of_clubs():
    hand = deal(STANDARD, DEAL_A)

    assert hand.legal_plays(0) == cards("2C")
    assert hand.why_not(0, cards("3C")[0]) == "The first lead must be the 2♣"
    with pytest.raises(IllegalMoveError, match="The first lead must be the 2♣"):
        hand.play(0, "3C")


def test_the_first_lead_is_the_two_of_clubs_whoever_holds_it():
    hand = deal(STANDARD, [*DEAL_A[2:], *DEAL_A[:2]])

    assert hand.turn == 2
    assert hand.legal_plays(2) == cards("2C")


def test_the_two_of_clubs_leads_from_the_hand_that_holds_it_after_the_pass():
    hand = deal(STANDARD, DEAL_A, number=1)  # hand 1 passes left
    hand.pass_cards(0, "2C 3C 4C")
    hand.pass_cards(1, "6C 7C 8C")
    hand.pass_cards(2, "TD JD QD")
    hand.pass_cards(3, "TC JC QC")

    assert hand.turn == 1
    assert hand.legal_plays(1) == cards("2C")


def test_with_five_players_the_two_of_clubs_is_removed_and_the_three_of_clubs_leads():
    hand = deal(
        PRESETS["club"].make(5),
        (
            "4C 5C 6C 7C 8C 3D 4D 5D 6D 7D",
            "9C TC JC QC KC 8D 9D TD JD QD",
            "3C AC KD AD 2S 3S 4S 5S 6S 7S",
            "8S 9S TS JS QS KS AS 2H 3H 4H",
            "5H 6H 7H 8H 9H TH JH QH KH AH",
        ),
        number=5,
    )

    assert hand.turn == 2
    assert hand.legal_plays(2) == cards("3C")
    assert hand.why_not(2, cards("AC")[0]) == "The first lead must be the 3♣"


def test_with_six_players_the_four_of_clubs_leads():
    hand = deal(
        PRESETS["encyclopedia"].make(6),
        (
            "5C 6C 7C 8C 9C TC JC QC",
            "KC AC 3D 4D 5D 6D 7D 8D",
            "9D TD JD QD KD AD 3S 4S",
            "4C 5S 6S 7S 8S 9S TS JS",
            "QS KS AS 2H 3H 4H 5H 6H",
            "7H 8H 9H TH JH QH KH AH",
        ),
        number=6,
    )

    assert hand.turn == 3
    assert hand.legal_plays(3) == cards("4C")
    assert hand.why_not(3, cards("5S")[0]) == "The first lead must be the 4♣"


def test_when_the_two_of_clubs_lies_in_the_kitty_the_three_of_clubs_leads():
    hand = deal(
        PRESETS["encyclopedia"].make(3, short_pack="kitty"),
        (
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2S 3S 4S 5S",
            "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 6S 7S 8S 9S TS",
            "JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        ),
        number=3,
        kitty="2C",
    )

    assert hand.turn == 1
    assert hand.legal_plays(1) == cards("3C")
    assert hand.why_not(1, cards("AC")[0]) == "The first lead must be the 3♣"


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_left_of_the_dealer_the_seat_after_the_dealer_leads_the_first_trick(number):
    hand = Hand.deal(LEFT_OF_DEALER, bytes(32), number)
    for seat in range(4):
        if hand.phase is Phase.PASSING:
            hand.pass_cards(seat, hand.holding(seat)[:3])

    assert hand.dealer == (number - 1) % 4
    assert hand.turn == (hand.dealer + 1) % 4


def test_left_of_the_dealer_the_first_lead_need_not_be_the_two_of_clubs():
    hand = deal(LEFT_OF_DEALER, DEAL_A)  # seat 3 deals hand 4; seat 0 leads

    assert hand.turn == 0
    assert hand.legal_plays(0) == cards("2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S")
    play(hand, "2S")
    assert hand.turn == 1


# Seat 0 leads left of the dealer; it holds the Q♠ and hearts; seat 1 holds the 2♣.
DEAL_L = (
    "5C 3C 4C 2D 3D 4D 2S 3S 4S QS 2H 3H 4H",
    "2C 6C 7C 8C 9C 5D 6D 7D 8D 5S 6S 7S 5H",
    "TC JC QC KC AC 9D TD JD QD 8S 9S TS 6H",
    "KD AD JS KS AS 7H 8H 9H TH JH QH KH AH",
)


def test_left_of_the_dealer_the_leader_cannot_lead_a_heart_or_the_queen_on_trick_one():
    hand = deal(LEFT_OF_DEALER, DEAL_L)

    assert hand.legal_plays(0) == cards("3C 4C 5C 2D 3D 4D 2S 3S 4S")
    assert hand.why_not(0, cards("QS")[0]) == "No points on the first trick"
    assert hand.why_not(0, cards("2H")[0]) == "Hearts are not broken yet"


def test_left_of_the_dealer_with_points_allowed_the_queen_may_lead_trick_one_but_no_heart():
    rules = Rules(first_lead=FirstLead.LEFT_OF_DEALER, points_on_first_trick=True)
    hand = deal(rules, DEAL_L)

    assert hand.legal_plays(0) == cards("3C 4C 5C 2D 3D 4D 2S 3S 4S QS")
    assert hand.why_not(0, cards("2H")[0]) == "Hearts are not broken yet"


# Seat 0 holds the Q♠ and twelve hearts; the others hold one ace and twelve of a suit.
DEAL_QUEEN_AND_HEARTS = (
    "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "AH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
)


def test_left_of_the_dealer_a_leader_with_only_the_queen_and_hearts_leads_the_queen_on_trick_one():
    hand = deal(LEFT_OF_DEALER, DEAL_QUEEN_AND_HEARTS)

    assert hand.legal_plays(0) == cards("QS")
    assert hand.why_not(0, cards("2H")[0]) == "Hearts are not broken yet"


def test_left_of_the_dealer_a_leader_with_nothing_but_hearts_may_lead_one_on_trick_one():
    hand = deal(
        LEFT_OF_DEALER,
        (
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ),
    )

    assert hand.legal_plays(0) == cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")


# Following suit and the first trick --------------------------------------------------------


def test_a_follower_must_follow_the_suit_led():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C")

    assert hand.legal_plays(1) == cards("6C 7C 8C 9C")
    assert hand.why_not(1, cards("6D")[0]) == "You must follow clubs"
    with pytest.raises(IllegalMoveError, match="You must follow clubs"):
        hand.play(1, "6D")


def test_a_follower_may_play_any_card_of_the_suit_led():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C")

    assert all(hand.is_legal(1, card) for card in cards("6C 7C 8C 9C"))


def test_no_heart_may_be_discarded_on_the_first_trick_when_points_are_forbidden():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C 6C")

    assert hand.legal_plays(2) == cards("TD JD QD KD AD 8S 9S TS JS")
    assert hand.why_not(2, cards("6H")[0]) == "No points on the first trick"
    with pytest.raises(IllegalMoveError, match="No points on the first trick"):
        hand.play(2, "6H")


def test_the_queen_cannot_be_discarded_on_the_first_trick_when_points_are_forbidden():
    hand = deal(
        STANDARD,
        (
            "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
            "9C TC JC QC KC AC 8D 9D TD JD QD KD AD",
            "2S QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
            "3S 4S 5S 6S 7S 8S 9S TS JS KS AS KH AH",
        ),
    )
    play(hand, "2C 9C")

    assert hand.legal_plays(2) == cards("2S")
    assert hand.why_not(2, cards("QS")[0]) == "No points on the first trick"


def test_a_heart_may_be_discarded_on_the_first_trick_when_points_are_allowed():
    hand = deal(CLASSIC, DEAL_A)
    play(hand, "2C 6C")

    assert hand.legal_plays(2) == hand.holding(2)
    assert hand.is_legal(2, cards("6H")[0])
    assert play(hand, "6H") == [CardPlayed(2, cards("6H")[0]), HeartsBroken(2)]


# Seat 0 leads left of the dealer; seat 1's only spade is the Q♠.
DEAL_S = (
    "2S 3S 4S 5S 2C 3C 4C 5C 6C 2D 3D 4D 5D",
    "QS 7C 8C 9C TC JC 6D 7D 8D 9D TD 2H 3H",
    "6S 7S 8S 9S TS JS QC KC AC JD QD KD 4H",
    "KS AS AD 5H 6H 7H 8H 9H TH JH QH KH AH",
)


def test_a_follower_whose_only_spade_is_the_queen_must_play_it_on_a_spade_lead_on_trick_one():
    hand = deal(LEFT_OF_DEALER, DEAL_S)
    play(hand, "2S")

    assert hand.legal_plays(1) == cards("QS")
    assert hand.why_not(1, cards("7C")[0]) == "You must follow spades"


# As DEAL_S, but seat 1 holds the K♠ as well as the Q♠.
DEAL_S2 = (
    DEAL_S[0],
    "QS KS 8C 9C TC JC 6D 7D 8D 9D TD 2H 3H",
    DEAL_S[2],
    "7C AS AD 5H 6H 7H 8H 9H TH JH QH KH AH",
)


def test_a_follower_with_another_spade_cannot_play_the_queen_on_a_spade_lead_on_trick_one():
    hand = deal(LEFT_OF_DEALER, DEAL_S2)
    play(hand, "2S")

    assert hand.legal_plays(1) == cards("KS")


def test_the_queen_refused_on_a_spade_lead_on_trick_one_is_refused_for_points_not_for_suit():
    hand = deal(LEFT_OF_DEALER, DEAL_S2)
    play(hand, "2S")

    assert hand.why_not(1, cards("QS")[0]) == "No points on the first trick"


# Seat 2 holds nothing but the Q♠ and hearts; seat 0 leads the 2♣ and seat 1 follows.
DEAL_P = (
    "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
    "9C TC JC QC KC AC 8D 9D TD JD QD KD AD",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
)


def test_a_discarder_holding_only_hearts_and_the_queen_may_play_them_on_the_first_trick():
    hand = deal(STANDARD, DEAL_P)
    play(hand, "2C 9C")

    assert hand.legal_plays(2) == hand.holding(2)
    assert len(hand.holding(2)) == 13
    assert play(hand, "5H")[-1] == HeartsBroken(2)


# Leading hearts and the queen --------------------------------------------------------------


def test_a_heart_cannot_lead_before_hearts_are_broken():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C 6C AD TC")  # seat 3 wins

    assert not hand.hearts_broken
    assert hand.legal_plays(3) == cards("JC QC KC AC QS KS AS")
    assert hand.why_not(3, cards("TH")[0]) == "Hearts are not broken yet"
    with pytest.raises(IllegalMoveError, match="Hearts are not broken yet"):
        hand.play(3, "TH")


def test_a_heart_may_lead_once_hearts_are_broken():
    hand = deal(CLASSIC, DEAL_A)
    play(hand, "2C 6C 6H TC")  # seat 2 breaks hearts; seat 3 wins

    assert hand.hearts_broken
    assert hand.is_legal(3, cards("TH")[0])


def test_a_hand_of_nothing_but_hearts_may_lead_one_before_hearts_are_broken():
    hand = deal(
        STANDARD,
        (
            "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
            "9C TC JC QC KC 8D 9D TD JD QD KD AD QS",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS AH",
            "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        ),
    )
    play(hand, "2C 9C 2S AC")  # seat 3 wins and holds nothing but hearts

    assert not hand.hearts_broken
    assert hand.legal_plays(3) == cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert play(hand, "KH") == [CardPlayed(3, cards("KH")[0]), HeartsBroken(3)]


def test_the_queen_of_spades_may_lead_before_hearts_are_broken():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C 6C AD TC")

    assert hand.is_legal(3, cards("QS")[0])
    play(hand, "QS")
    assert hand.current_trick == [(3, cards("QS")[0])]


def test_with_the_queen_breaks_hearts_a_queen_lead_breaks_hearts():
    hand = deal(CLUB, DEAL_A)
    play(hand, "2C 6C AD TC")

    assert play(hand, "QS") == [CardPlayed(3, cards("QS")[0]), HeartsBroken(3)]
    play(hand, "2S 5S 8S")  # seat 3 wins with the queen
    assert hand.is_legal(3, cards("TH")[0])


def test_without_the_queen_breaks_hearts_the_queen_does_not_break_hearts():
    hand = deal(CLASSIC, DEAL_A)
    play(hand, "2C 6C AD TC")

    assert play(hand, "QS") == [CardPlayed(3, cards("QS")[0])]
    play(hand, "2S 5S 8S")
    assert not hand.hearts_broken
    assert hand.why_not(3, cards("TH")[0]) == "Hearts are not broken yet"


# Seat 3 wins trick one and then holds only the Q♠ and hearts.
DEAL_D = (
    "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
    "9C TC JC QC KC 8D 9D TD JD QD KD AD KH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS AH",
    "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
)


@pytest.mark.parametrize("rules", [STANDARD, CLUB], ids=["standard", "queen breaks hearts"])
def test_a_leader_with_only_the_queen_and_hearts_must_lead_the_queen_while_hearts_are_unbroken(
    rules,
):
    hand = deal(rules, DEAL_D)
    play(hand, "2C 9C 2S AC")

    assert not hand.hearts_broken
    assert hand.legal_plays(3) == cards("QS")
    assert hand.why_not(3, cards("2H")[0]) == "Hearts are not broken yet"


# The old queen rule ------------------------------------------------------------------------

# Seat 1 wins trick one with the A♣ and leads clubs again; seat 2 holds no club but the Q♠.
DEAL_Q = (
    "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 2S 3S 4S",
    "8C 9C TC JC QC AC 6D 7D 8D 9D 5S 6S 7S",
    "TD JD QD KD AD QS 2H 3H 4H 5H 6H 7H 8H",
    "KC 8S 9S TS JS KS AS 9H TH JH QH KH AH",
)


def test_under_the_old_queen_rule_a_discard_must_be_the_queen():
    hand = deal(OLD_QUEEN, DEAL_Q)
    play(hand, "2C AC TD KC 8C")

    assert hand.legal_plays(2) == cards("QS")
    reason = "The old queen rule: the Q♠ must be discarded now"
    assert hand.why_not(2, cards("JD")[0]) == reason
    assert hand.why_not(2, cards("2H")[0]) == reason
    with pytest.raises(IllegalMoveError, match=reason):
        hand.play(2, "JD")


def test_without_the_old_queen_rule_a_discarder_may_keep_the_queen():
    hand = deal(PRESETS["encyclopedia"].rules, DEAL_Q)
    play(hand, "2C AC TD KC 8C")

    assert hand.legal_plays(2) == cards("JD QD KD AD 2H 3H 4H 5H 6H 7H 8H QS")


def test_the_queen_may_be_discarded_on_the_first_trick_when_points_are_allowed():
    hand = deal(CLASSIC, DEAL_Q)
    play(hand, "2C AC")

    assert hand.legal_plays(2) == hand.holding(2)
    assert hand.is_legal(2, cards("QS")[0])


def test_a_queen_discarded_breaks_hearts_when_the_queen_breaks_hearts():
    hand = deal(OLD_QUEEN, DEAL_Q)
    play(hand, "2C AC TD KC 8C")

    assert play(hand, "QS") == [CardPlayed(2, cards("QS")[0]), HeartsBroken(2)]


def test_under_the_old_queen_rule_the_first_trick_protection_wins_over_the_discard():
    hand = deal(OLD_QUEEN, DEAL_Q)
    play(hand, "2C AC")

    assert hand.legal_plays(2) == cards("TD JD QD KD AD")
    assert hand.why_not(2, cards("QS")[0]) == "No points on the first trick"


def test_under_the_old_queen_rule_with_points_allowed_the_queen_is_discarded_on_trick_one():
    hand = deal(OLD_QUEEN_OPEN, DEAL_Q)
    play(hand, "2C AC")

    assert hand.legal_plays(2) == cards("QS")
    assert hand.why_not(2, cards("TD")[0]) == "The old queen rule: the Q♠ must be discarded now"


def test_under_the_old_queen_rule_a_discarder_with_only_points_on_trick_one_plays_the_queen():
    hand = deal(OLD_QUEEN, DEAL_P)
    play(hand, "2C 9C")

    assert hand.legal_plays(2) == cards("QS")


def test_the_old_queen_rule_does_not_bind_a_follower_who_can_follow_suit():
    hand = deal(OLD_QUEEN_OPEN, DEAL_A)
    play(hand, "2C 6C AD")

    assert hand.legal_plays(3) == cards("TC JC QC KC AC")


def test_the_old_queen_rule_does_not_bind_a_leader():
    hand = deal(OLD_QUEEN_OPEN, DEAL_A)
    play(hand, "2C 6C AD TC")

    assert hand.legal_plays(3) == cards("JC QC KC AC QS KS AS")


# Turns, phases and the trick ---------------------------------------------------------------


def test_a_seat_cannot_play_out_of_turn():
    hand = deal(STANDARD, DEAL_A)

    assert hand.why_not(1, cards("6C")[0]) == "It is not your turn"
    assert hand.legal_plays(1) == []
    with pytest.raises(NotYourTurnError, match="It is not your turn"):
        hand.play(1, "6C")


def test_a_seat_cannot_play_a_card_it_does_not_hold():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C")

    assert hand.why_not(1, cards("AS")[0]) == "You do not hold the A♠"
    with pytest.raises(IllegalMoveError, match="You do not hold the A♠"):
        hand.play(1, "AS")


def test_a_seat_that_is_not_at_the_table_cannot_play():
    hand = deal(STANDARD, DEAL_A)

    with pytest.raises(IllegalMoveError, match="There is no seat 4 at this table"):
        hand.play(4, "2C")


def test_no_card_can_be_played_while_cards_are_being_passed():
    hand = deal(STANDARD, DEAL_A, number=1)

    assert hand.phase is Phase.PASSING
    assert hand.legal_plays(0) == []
    with pytest.raises(WrongPhaseError, match="Cards are being passed: choose three to pass"):
        hand.play(0, "2C")


def test_no_card_can_be_played_once_the_hand_is_over():
    hand = deal(STANDARD, DEAL_QUEEN_AND_HEARTS[1:] + DEAL_QUEEN_AND_HEARTS[:1])
    while not hand.is_over:
        play(hand, str(hand.legal_plays(hand.turn)[0]))

    assert hand.why_not(0, cards("AH")[0]) == "The hand is over"
    with pytest.raises(WrongPhaseError, match="The hand is over"):
        hand.play(0, "AH")


def test_no_moon_can_be_chosen_when_nobody_shot_the_moon():
    hand = deal(CLUB, DEAL_A)

    with pytest.raises(WrongPhaseError, match="There is no moon to score"):
        hand.choose_moon(0, "self")


@pytest.mark.parametrize(
    ("seat", "card", "error"),
    [
        (1, "6D", IllegalMoveError),  # must follow clubs
        (2, "TD", NotYourTurnError),
        (1, "AS", IllegalMoveError),  # not held
        (7, "6C", IllegalMoveError),  # no such seat
    ],
)
def test_a_refused_play_changes_nothing(seat, card, error):
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C")
    before = hand.snapshot()

    with pytest.raises(error):
        hand.play(seat, card)

    assert hand.snapshot() == before
    assert hand.legal_plays(1) == cards("6C 7C 8C 9C")


def test_a_refused_play_during_the_pass_changes_nothing():
    hand = deal(STANDARD, DEAL_A, number=1)
    hand.pass_cards(0, "2C 3C 4C")
    before = hand.snapshot()

    with pytest.raises(WrongPhaseError):
        hand.play(0, "5C")

    assert hand.snapshot() == before


def test_the_highest_card_of_the_suit_led_wins_the_trick():
    hand = deal(STANDARD, DEAL_A)

    events = play(hand, "2C 6C AD TC")  # the A♦ is higher but not of the suit led

    assert events[-1] == TrickTaken(3, tuple(cards("2C 6C AD TC")), 0)
    assert hand.tricks[0].winner == 3
    assert hand.tricks_won(3) == 1
    assert hand.taken(3) == cards("2C 6C TC AD")


def test_the_leader_wins_when_nobody_plays_higher_in_the_suit_led():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C 6C AD TC JC 3C 7C KD")  # seat 3 leads the J♣

    assert hand.tricks[1].winner == 3


def test_the_winner_of_a_trick_leads_the_next():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C 9C AD TC")

    assert hand.turn == 3
    assert hand.legal_plays(0) == []
    assert hand.current_trick == []
    play(hand, "AS 2S 5S 8S")
    assert hand.turn == 3


def test_a_trick_with_hearts_and_the_queen_carries_their_points():
    hand = deal(CLASSIC, DEAL_A)
    play(hand, "2C 6C 6H TC")  # seat 3 takes one heart

    events = play(hand, "QS 2S 5S 8S")

    assert events[-1] == TrickTaken(3, tuple(cards("QS 2S 5S 8S")), 13)
    assert hand.penalty_points() == (0, 0, 0, 14)


def test_playing_on_in_a_simulation_refuses_a_card_that_breaks_the_rules():
    hand = deal(STANDARD, DEAL_A)
    play(hand, "2C")

    with pytest.raises(IllegalMoveError, match="You must follow clubs"):
        hand.play_on(ChooseBy(lambda trick, seat, legal, taken: cards("6D")[0].index))
    assert set(hand.holding(1)) == set(cards(DEAL_A[1]))
