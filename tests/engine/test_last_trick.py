"""The latest completed trick and what each seat took in the hand just finished: what the
table shows once a trick or a hand is over."""

from games.engine import TrickTaken, last_trick, taken_in_last_hand
from games.engine.match import Match
from games.engine.rules import Rules
from tests.helpers.engine import seed, step


def _until_trick_taken(match):
    while True:
        events = step(match)
        taken = [event for event in events if isinstance(event, TrickTaken)]
        if taken:
            return taken[0]


def test_no_trick_is_shown_before_the_first_is_complete():
    match = Match(Rules(), seed(3))
    while match.hand.cards_played < 3:
        step(match)
    assert last_trick(match) is None
    assert taken_in_last_hand(match) is None


def test_the_last_trick_is_the_one_just_taken_with_each_card_by_its_seat():
    match = Match(Rules(), seed(3))
    event = _until_trick_taken(match)
    shown = last_trick(match)
    assert shown is not None
    assert (shown.hand_number, shown.number) == (1, 1)
    assert shown.trick.winner == event.seat
    assert shown.trick.points == event.points
    by_seat = shown.cards_by_seat(4)
    assert sorted(seat for seat, _ in by_seat) == [0, 1, 2, 3]
    assert by_seat[0][1].name == "two of clubs"


def test_the_last_trick_of_a_hand_stays_until_the_next_hand_has_one():
    match = Match(Rules(), seed(3))
    while match.hand.number == 1:
        step(match)
    shown = last_trick(match)
    assert shown is not None
    assert (shown.hand_number, shown.number) == (1, 13)
    assert shown.trick is match.hands[0].tricks[-1]
    _until_trick_taken(match)
    shown = last_trick(match)
    assert shown is not None
    assert (shown.hand_number, shown.number) == (2, 1)


def test_each_seat_is_shown_the_cards_it_took_in_the_hand_just_scored():
    match = Match(Rules(), seed(3))
    while match.hand.number == 1:
        step(match)
    taken = taken_in_last_hand(match)
    assert taken is not None
    assert taken.hand_number == 1
    assert sum(len(cards) for cards in taken.cards) == 52
    for seat, cards in enumerate(taken.cards):
        assert len(cards) == 4 * match.hands[0].tricks_won(seat)
        assert set(cards) == set(match.hands[0].taken(seat))
