"""What one seat may know: its own hand and pass, every card played, never a hidden card."""

import pytest

from games.engine import (
    PRESETS,
    Card,
    Match,
    Phase,
    Rules,
    cards_of,
    seat_view,
)
from tests.helpers.engine import play_until, seed, step


def hidden_from(match, seat):
    """The cards that seat cannot see: the other hands, less what it passed itself, and the
    kitty unless it took it."""
    hand = match.hand
    hidden = set()
    for other in range(match.players):
        if other != seat:
            hidden |= set(hand.holding(other))
    if seat is not None:
        hidden -= set(hand.passed(seat) or ())
    if hand.kitty_taker is None or hand.kitty_taker != seat:
        hidden |= set(cards_of(hand.kitty))
    return hidden


def shown(view):
    """Every card named anywhere in the view."""
    text = repr(view)
    return {card for card in map(Card, range(52)) if repr(card) in text}


# The moments of a match at which the views are checked: during the pass, after it, in the
# middle of a trick, in a later hand.
MOMENTS = {
    "first pass": lambda match: match.hand.has_passed(0),
    "three passes": lambda match: match.hand.has_passed(2),
    "exchanged": lambda match: match.hand.phase is Phase.PLAYING,
    "mid trick": lambda match: match.hand.cards_played == 6,
    "mid hand": lambda match: match.hand.cards_played == 30,
    "second hand": lambda match: match.hand.number == 2 and match.hand.cards_played == 9,
}


# A seat's own cards ------------------------------------------------------------------------


def test_a_seat_view_holds_that_seats_hand():
    match = Match(Rules(), seed(1))

    for seat in range(4):
        view = seat_view(match, seat)
        assert view.seat == seat
        assert view.hand == tuple(match.hand.holding(seat))
        assert len(view.hand) == 13


def test_a_seat_view_holds_its_own_pass_and_nothing_received_until_the_exchange():
    match = Match(Rules(), seed(1))
    step(match)  # seat 0 passes

    mine, theirs = seat_view(match, 0), seat_view(match, 1)

    assert mine.passed == tuple(match.hand.passed(0))
    assert mine.received is None
    assert theirs.passed is None
    assert theirs.received is None
    assert mine.has_passed == theirs.has_passed == (True, False, False, False)


def test_after_the_exchange_a_seat_view_holds_the_cards_it_passed_and_received():
    match = Match(Rules(), seed(1))
    play_until(match, lambda: match.hand.phase is Phase.PLAYING)

    for seat in range(4):
        view = seat_view(match, seat)
        assert view.passed == tuple(match.hand.passed(seat))
        assert view.received == tuple(match.hand.passed((seat - 1) % 4))  # hand 1 passes left
        assert view.pass_target == (seat + 1) % 4
        assert set(view.received) <= set(view.hand)


def test_a_seat_view_of_a_hold_hand_has_no_pass():
    match = Match(Rules(), seed(1))
    play_until(match, lambda: match.hand.number == 4)

    view = seat_view(match, 0)

    assert view.direction == "hold"
    assert (view.passed, view.received, view.pass_target) == (None, None, None)


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_seat_view_never_shows_a_card_hidden_from_that_seat(moment):
    match = Match(Rules(), seed(1))
    play_until(match, lambda: MOMENTS[moment](match))

    for seat in range(4):
        view = seat_view(match, seat)
        assert not shown(view) & hidden_from(match, seat)
        assert set(view.reasons) <= set(view.hand)


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_seat_view_shows_every_card_played_in_the_hand(moment):
    match = Match(Rules(), seed(1))
    play_until(match, lambda: MOMENTS[moment](match))
    hand = match.hand
    played = {card for trick in hand.tricks for card in trick.cards}
    played |= {card for _, card in hand.current_trick}

    for seat in [*range(4), None]:
        assert played <= shown(seat_view(match, seat))


def test_the_search_for_cards_in_a_view_finds_the_seats_own_cards():
    match = Match(Rules(), seed(1))
    view = seat_view(match, 0)

    assert shown(view) == set(match.hand.holding(0))
    assert shown(seat_view(match, 1)) & set(view.hand) == set()


# The spectator -----------------------------------------------------------------------------


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_spectator_view_holds_no_hand_and_no_hidden_card(moment):
    match = Match(Rules(), seed(1))
    play_until(match, lambda: MOMENTS[moment](match))

    view = seat_view(match, None)

    assert view.seat is None
    assert view.hand == ()
    assert (view.passed, view.received, view.kitty, view.pass_target) == (None,) * 4
    assert view.legal == ()
    assert view.reasons == {}
    assert not view.my_turn
    assert not shown(view) & hidden_from(match, None)


# The kitty ---------------------------------------------------------------------------------

# Three players with a kitty: with this seed the kitty is the 9♥, and seat 1 takes it with
# trick ten.
KITTY_RULES = PRESETS["encyclopedia"].make(3, short_pack="kitty")
KITTY_SEED = seed(4)


def kitty_taken():
    match = Match(KITTY_RULES, KITTY_SEED)
    play_until(match, lambda: match.hand.kitty_taker is not None)
    return match


def test_nobody_sees_the_kitty_before_it_is_taken():
    match = Match(KITTY_RULES, KITTY_SEED)
    play_until(match, lambda: match.hand.cards_played == 9)

    for seat in [0, 1, 2, None]:
        view = seat_view(match, seat)
        assert view.kitty is None
        assert view.kitty_size == 1
        assert not shown(view) & hidden_from(match, seat)


def test_the_seat_that_takes_the_kitty_sees_its_cards():
    match = kitty_taken()

    view = seat_view(match, 1)

    assert match.hand.kitty_taker == 1
    assert view.kitty_taker == 1
    assert view.kitty == (Card.parse("9H"),)


@pytest.mark.parametrize("seat", [0, 2, None])
def test_the_other_seats_and_spectators_do_not_see_the_kitty(seat):
    match = kitty_taken()

    view = seat_view(match, seat)

    assert view.kitty_taker == 1
    assert view.kitty is None
    assert Card.parse("9H") not in shown(view)


@pytest.mark.parametrize("seat", [0, 2, None])
def test_the_kitty_cannot_be_read_from_the_tricks_in_another_seats_view(seat):
    match = kitty_taken()

    view = seat_view(match, seat)

    for trick in view.tricks:
        assert Card.parse("9H") not in trick.cards
        assert set(trick._asdict()) == {"leader", "cards", "winner", "points"}


def test_the_kitty_points_count_only_in_the_takers_own_view_until_the_hand_is_scored():
    match = kitty_taken()
    in_tricks = match.hand.penalty_points()[1] - 1  # the 9♥ is one point

    assert seat_view(match, 1).points_taken[1] == in_tricks + 1
    assert seat_view(match, 0).points_taken[1] == in_tricks
    assert seat_view(match, None).points_taken[1] == in_tricks


# Legal cards and reasons -------------------------------------------------------------------


def test_the_seat_to_play_sees_its_legal_cards_and_a_reason_for_every_other_card():
    match = Match(Rules(), seed(1))
    play_until(match, lambda: match.hand.cards_played == 2)
    seat = match.hand.turn

    view = seat_view(match, seat)

    assert view.my_turn
    assert view.legal == tuple(match.hand.legal_plays(seat))
    assert set(view.reasons) == set(view.hand) - set(view.legal)
    assert view.reasons
    assert all(reason == match.hand.why_not(seat, c) for c, reason in view.reasons.items())


def test_the_reasons_at_the_first_lead_name_the_two_of_clubs():
    match = Match(Rules(), seed(1))
    play_until(match, lambda: match.hand.phase is Phase.PLAYING)
    leader = match.hand.turn

    view = seat_view(match, leader)

    assert view.legal == (Card.parse("2C"),)
    assert set(view.reasons.values()) == {"The first lead must be the 2♣"}
    assert len(view.reasons) == 12


def test_a_seat_that_is_not_to_play_sees_no_legal_card_and_why():
    match = Match(Rules(), seed(1))
    play_until(match, lambda: match.hand.phase is Phase.PLAYING)
    other = (match.hand.turn + 1) % 4

    view = seat_view(match, other)

    assert not view.my_turn
    assert view.legal == ()
    assert set(view.reasons.values()) == {"It is not your turn"}
    assert set(view.reasons) == set(view.hand)


def test_there_are_no_reasons_during_the_pass():
    match = Match(Rules(), seed(1))

    assert seat_view(match, 0).reasons == {}
    assert seat_view(match, 0).legal == ()


def test_a_view_shows_the_totals_and_the_last_hand_and_the_result_at_the_end():
    match = Match(Rules(target=25), seed(2))
    play_until(match, lambda: match.hand.number == 2)

    view = seat_view(match, 0)

    assert view.totals == (3, 2, 13, 8)
    assert view.last_hand == (3, 2, 13, 8)
    assert view.hand_points == ((3, 2, 13, 8),)
    assert view.result is None
    play_until(match, lambda: match.is_over)
    assert seat_view(match, 0).result == match.result
