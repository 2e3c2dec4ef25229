"""The search bot reads the other players' cards from how they played: deals in which a card
played would have been illegal never come up, and deals in which the rule-based player would
have played otherwise come up less often."""

from __future__ import annotations

import random

import pytest

from games.bots import make_bot
from games.bots.knowledge import learn, sample
from games.bots.reading import IMPOSSIBLE, deals, read
from games.engine import PRESETS, Card, Hand, Rules, SeatView, mask_of, seat_view
from games.engine.cards import HEARTS_MASK, QS_BIT
from tests.helpers.bots import DEAL, PASSES, dealt, match_with, play_tricks, play_until

# Hand 4 keeps its cards. Seat 1 holds every heart, so on the 2♣ it must play one of them.
ALL_HEARTS = [
    "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S 5S",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "6C 7C 8C 9C 7D 8D 9D TD 6S 7S 8S 9S TS",
    "TC JC QC KC AC JD QD KD AD JS QS KS AS",
]


def hidden_deals(
    view: SeatView, count: int, reading: bool, mismatch: float = 0.1
) -> list[list[int]]:
    knowledge, rnd = learn(view), random.Random(7)
    if not reading:
        return [sample(knowledge, rnd)[0] for _ in range(count)]
    walk = deals(knowledge, read(view), rnd, mismatch)
    return [next(walk)[0] for _ in range(count)]


def test_a_point_card_on_the_first_trick_shows_a_hand_of_nothing_else() -> None:
    match = match_with(Hand(Rules(), 4, ALL_HEARTS))
    play_tricks(match, ["2C 2H 6C TC"])
    view = seat_view(match, 0)
    # Knowing only that seat 1 has no club, a plain deal gives it diamonds and spades too.
    assert any(holdings[1] & ~HEARTS_MASK for holdings in hidden_deals(view, 50, False))
    # Read, the 2♥ on a protected first trick leaves it nothing but hearts and the Q♠.
    for holdings in hidden_deals(view, 200, True):
        assert holdings[1] & ~(HEARTS_MASK | QS_BIT) == 0


def test_a_player_who_did_not_dump_the_queen_when_void_is_unlikely_to_hold_her() -> None:
    match = match_with(Hand(Rules(), 1, DEAL))
    for seat, cards in enumerate(PASSES):
        match.pass_cards(seat, [Card.parse(card) for card in cards.split()])
    # Every card here is the rule-based player's. Seat 2 has no club: it threw its highest
    # card on the first trick (no points allowed there) and the 7♥ on the second, where the
    # rule-based player would have thrown the Q♠ had it held her.
    play_tricks(match, ["2C 5C AD AC", "9C 3C 8C 7H"])
    view = seat_view(match, 0)

    def share_with_the_queen(reading: bool) -> float:
        found = hidden_deals(view, 600, reading)
        return sum(1 for holdings in found if holdings[2] & QS_BIT) / len(found)

    assert share_with_the_queen(False) > 0.25  # about a third: any of the three others
    assert share_with_the_queen(True) < 0.2


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("cards_played", [9, 22, 37])
def test_the_real_hands_of_rule_based_players_explain_all_their_plays(
    preset: str, cards_played: int
) -> None:
    rules = PRESETS[preset].make()
    match = dealt(rules, 1, deal_seed=cards_played)
    bots = [make_bot("heuristic") for _ in range(rules.players)]
    hand = play_until(match, bots, lambda h: h.cards_played == cards_played)
    reading = read(seat_view(match, 0))
    assert any(reading.decisions[1:])
    for seat in range(1, rules.players):
        assert reading.misses(seat, hand.holding_mask(seat)) == 0


def test_a_hand_that_could_not_have_played_a_card_is_impossible() -> None:
    match = match_with(Hand(Rules(), 4, ALL_HEARTS))
    play_tricks(match, ["2C 2H 6C TC"])
    reading = read(seat_view(match, 0))
    clubs_and_hearts = mask_of([Card.parse("7C"), Card.parse("3H")])
    assert reading.misses(1, clubs_and_hearts) >= IMPOSSIBLE
