"""The pass: three cards each, chosen in secret, exchanged only when every seat has chosen."""

import pytest

from games.engine import (
    PRESETS,
    Hand,
    IllegalMoveError,
    InvalidPassError,
    PassesExchanged,
    PassMade,
    Phase,
    Rules,
    WrongPhaseError,
    event_to_json,
    parse_cards,
)

SEED = bytes(range(32))

# One deal in pack order: seat 0 the clubs, 1 the diamonds, 2 the hearts, 3 the spades.
SUITS = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
)


def by_suit(number):
    return Hand(Rules(), number, [parse_cards(cards) for cards in SUITS])


def cards(notation):
    return parse_cards(notation)


def pass_lowest_three(hand):
    chosen = {seat: hand.holding(seat)[:3] for seat in range(hand.players)}
    for seat, three in chosen.items():
        hand.pass_cards(seat, three)
    return chosen


# Secret until every pass is in -------------------------------------------------------------


def test_nothing_changes_hands_until_the_last_pass_is_in():
    hand = by_suit(1)

    for seat in range(3):
        assert hand.pass_cards(seat, hand.holding(seat)[-3:]) == [PassMade(seat)]

    assert hand.phase is Phase.PASSING
    assert [hand.holding(seat) for seat in range(4)] == [cards(held) for held in SUITS]
    assert [hand.received(seat) for seat in range(4)] == [None] * 4
    assert [hand.has_passed(seat) for seat in range(4)] == [True, True, True, False]


def test_the_last_pass_exchanges_the_cards_and_starts_play():
    hand = by_suit(1)
    for seat in range(3):
        hand.pass_cards(seat, hand.holding(seat)[-3:])

    events = hand.pass_cards(3, "QS KS AS")

    assert events == [PassMade(3), PassesExchanged("left")]
    assert hand.phase is Phase.PLAYING
    assert hand.received(0) == cards("QS KS AS")
    assert hand.holding(0) == cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QS KS AS")


def test_a_seat_sees_its_own_choice_before_the_exchange_but_nothing_received():
    hand = by_suit(1)

    hand.pass_cards(1, "QD KD AD")

    assert hand.passed(1) == cards("QD KD AD")
    assert hand.passed(0) is None
    assert hand.received(2) is None


def test_the_event_of_a_pass_names_the_seat_and_not_the_cards():
    hand = by_suit(1)

    (event,) = hand.pass_cards(1, "QD KD AD")

    assert event_to_json(event) == {"type": "pass_made", "seat": 1}


# Exchanged by direction --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "number", "direction", "targets"),
    [
        (Rules(players=3), 1, "left", [1, 2, 0]),
        (Rules(players=3), 2, "right", [2, 0, 1]),
        (Rules(), 1, "left", [1, 2, 3, 0]),
        (Rules(), 2, "right", [3, 0, 1, 2]),
        (Rules(), 3, "across", [2, 3, 0, 1]),
        (Rules(players=5), 1, "left", [1, 2, 3, 4, 0]),
        (Rules(players=5), 2, "right", [4, 0, 1, 2, 3]),
        (Rules(players=5), 3, "two left", [2, 3, 4, 0, 1]),
        (Rules(players=5), 4, "two right", [3, 4, 0, 1, 2]),
        (Rules(players=6), 1, "left", [1, 2, 3, 4, 5, 0]),
        (Rules(players=6), 2, "right", [5, 0, 1, 2, 3, 4]),
        (Rules(players=6), 3, "two left", [2, 3, 4, 5, 0, 1]),
        (Rules(players=6), 4, "two right", [4, 5, 0, 1, 2, 3]),
        (Rules(players=6), 5, "across", [3, 4, 5, 0, 1, 2]),
        (PRESETS["encyclopedia"].make(5, short_pack="kitty"), 3, "two left", [2, 3, 4, 0, 1]),
    ],
)
def test_the_passed_cards_go_to_the_seat_the_direction_names(rules, number, direction, targets):
    hand = Hand.deal(rules, SEED, number)
    before = [set(hand.holding(seat)) for seat in range(rules.players)]

    chosen = pass_lowest_three(hand)

    assert hand.direction == direction
    for seat, target in enumerate(targets):
        assert hand.pass_target(seat) == target
        assert hand.received(target) == chosen[seat]
        assert set(hand.holding(target)) == before[target] - set(chosen[target]) | set(chosen[seat])
        assert len(hand.holding(target)) == rules.hand_size


def test_a_pass_goes_to_the_seat_on_the_left_in_hand_one():
    hand = by_suit(1)
    pass_lowest_three(hand)

    assert hand.holding(1) == cards("2C 3C 4C 5D 6D 7D 8D 9D TD JD QD KD AD")
    assert hand.holding(0) == cards("5C 6C 7C 8C 9C TC JC QC KC AC 2S 3S 4S")


def test_a_pass_goes_to_the_seat_on_the_right_in_hand_two():
    hand = by_suit(2)
    pass_lowest_three(hand)

    assert hand.received(3) == cards("2C 3C 4C")
    assert hand.holding(0) == cards("5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D")


def test_a_pass_goes_across_in_hand_three():
    hand = by_suit(3)
    pass_lowest_three(hand)

    assert hand.received(2) == cards("2C 3C 4C")
    assert hand.received(0) == cards("2H 3H 4H")


def test_the_cards_of_a_pass_can_be_given_in_any_order_and_notation():
    hand = by_suit(1)

    hand.pass_cards(0, ["ac", parse_cards("2C")[0], "kc"])

    assert hand.passed(0) == cards("2C KC AC")


# Refused passes ----------------------------------------------------------------------------


def test_a_seat_cannot_pass_twice():
    hand = by_suit(1)
    hand.pass_cards(0, "2C 3C 4C")

    with pytest.raises(InvalidPassError, match="You have already passed"):
        hand.pass_cards(0, "5C 6C 7C")


@pytest.mark.parametrize("notation", ["2C 3C", "2C 3C 4C 5C", ""])
def test_a_pass_must_be_exactly_three_cards(notation):
    hand = by_suit(1)

    with pytest.raises(InvalidPassError, match="Choose exactly 3 different cards to pass"):
        hand.pass_cards(0, notation)


def test_a_pass_cannot_name_the_same_card_twice():
    hand = by_suit(1)

    with pytest.raises(InvalidPassError, match="Choose exactly 3 different cards to pass"):
        hand.pass_cards(0, "2C 2C 3C")


def test_a_seat_can_only_pass_cards_from_its_own_hand():
    hand = by_suit(1)

    with pytest.raises(InvalidPassError, match="You can only pass cards from your own hand"):
        hand.pass_cards(0, "2C 3C 2D")


def test_a_seat_that_is_not_at_the_table_cannot_pass():
    hand = by_suit(1)

    with pytest.raises(IllegalMoveError, match="There is no seat 4 at this table"):
        hand.pass_cards(4, "2C 3C 4C")


def test_a_refused_pass_is_an_illegal_move_and_a_value_error():
    assert issubclass(InvalidPassError, IllegalMoveError)
    assert issubclass(InvalidPassError, ValueError)


@pytest.mark.parametrize(
    ("seat", "notation"),
    [(0, "2C 3C"), (0, "2C 2C 3C"), (0, "2C 3C 2D"), (1, "5D 6D 7D"), (5, "2C 3C 4C")],
)
def test_a_refused_pass_changes_nothing(seat, notation):
    hand = by_suit(1)
    hand.pass_cards(1, "2D 3D 4D")
    before = hand.snapshot()

    with pytest.raises(IllegalMoveError):
        hand.pass_cards(seat, notation)

    assert hand.snapshot() == before


# Hold hands --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "number"), [(3, 3), (4, 4), (5, 5), (6, 6), (4, 8)])
def test_a_hold_hand_skips_the_pass_and_starts_with_play(players, number):
    hand = Hand.deal(Rules(players=players), SEED, number)

    assert hand.direction == "hold"
    assert hand.phase is Phase.PLAYING
    assert hand.received(0) is None
    assert hand.holding(hand.turn)[0] == Rules(players=players).lowest_club_in_pack


def test_no_cards_can_be_passed_in_a_hold_hand():
    hand = by_suit(4)
    before = hand.snapshot()

    with pytest.raises(WrongPhaseError, match="This is not the time to pass cards"):
        hand.pass_cards(0, "2C 3C 4C")

    assert hand.snapshot() == before


def test_no_cards_can_be_passed_once_play_has_started():
    hand = by_suit(1)
    pass_lowest_three(hand)

    with pytest.raises(WrongPhaseError, match="This is not the time to pass cards"):
        hand.pass_cards(0, hand.holding(0)[:3])
