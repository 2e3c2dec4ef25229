"""The deals the search bot imagines agree with everything its seat knows: the voids players
have shown, the cards it passed, how many cards each seat holds, and the unseen kitty."""

from __future__ import annotations

import random

import pytest

from games.bots import knowledge as knowledge_module
from games.bots import make_bot
from games.bots.knowledge import Knowledge, learn, sample
from games.bots.search import finish
from games.engine import (
    PRESETS,
    Hand,
    Imagining,
    Phase,
    Rules,
    SeatView,
    ShortPack,
    Suit,
    imagine_hand,
    mask_of,
    parse_cards,
    seat_view,
)
from games.engine.cards import SUIT_MASKS
from tests.helpers.bots import DEAL, PASSES, dealt, match_with, play_tricks, play_until, step


def after_a_club_is_led() -> SeatView:
    """Seat 0's view once the 2♣ trick is done: seat 2 discarded on it."""
    match = match_with(Hand(Rules(), 1, DEAL))
    for seat, cards in enumerate(PASSES):
        match.pass_cards(seat, parse_cards(cards))
    play_tricks(match, ["2C 5C 9D 9C"])
    return seat_view(match, 0)


def deals(view: SeatView, count: int = 200, respect_voids: bool = True):
    knowledge = learn(view, respect_voids)
    rnd = random.Random(1)
    return [sample(knowledge, rnd) for _ in range(count)]


def voids_shown(view: SeatView) -> list[int]:
    """Per seat, a mask of the suits it has failed to follow (worked out here, independently)."""
    voids = [0] * view.players
    tricks = [(trick.leader, trick.cards) for trick in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(card for _, card in view.trick)))
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            if card.suit is not cards[0].suit:
                voids[(leader + position) % view.players] |= SUIT_MASKS[cards[0].suit]
    return voids


def test_a_seat_that_discarded_on_a_suit_is_never_dealt_that_suit():
    view = after_a_club_is_led()

    for holdings, _ in deals(view):
        assert not holdings[2] & SUIT_MASKS[Suit.CLUBS]


def test_without_void_reading_the_suit_is_dealt_to_it_sometimes():
    view = after_a_club_is_led()

    assert any(holdings[2] & SUIT_MASKS[Suit.CLUBS] for holdings, _ in deals(view, 50, False))


def test_the_cards_a_seat_passed_stay_with_the_player_it_passed_them_to():
    view = after_a_club_is_led()
    passed = mask_of(parse_cards(PASSES[0]))

    for holdings, _ in deals(view):
        assert holdings[1] & passed == passed


def test_imagined_deals_give_each_seat_its_count_and_every_unseen_card_once():
    view = after_a_club_is_led()
    played = mask_of(card for trick in view.tricks for card in trick.cards)

    for holdings, kitty in deals(view):
        assert [mask.bit_count() for mask in holdings] == list(view.card_counts)
        assert holdings[0] == mask_of(view.hand)
        assert kitty == 0
        union = 0
        for mask in holdings:
            assert not union & mask
            union |= mask
        assert union == mask_of(view.rules.deck) & ~played


@pytest.mark.parametrize("players", [3, 5, 6])
def test_an_unseen_kitty_gets_its_own_number_of_cards(players):
    rules = Rules(players=players, short_pack=ShortPack.KITTY)
    view = seat_view(dealt(rules, len(rules.pass_cycle)), 0)  # the hold hand: play starts
    assert view.kitty_size == rules.kitty_size > 0

    for holdings, kitty in deals(view, 50):
        assert kitty.bit_count() == rules.kitty_size
        assert not any(kitty & mask for mask in holdings)
        assert [mask.bit_count() for mask in holdings] == list(view.card_counts)


def test_the_seat_that_took_the_kitty_knows_its_cards():
    rules = Rules(players=3, short_pack=ShortPack.KITTY)
    match = dealt(rules, 3)
    hand = play_until(match, [make_bot("heuristic")] * 3, lambda h: h.kitty_taker is not None)
    view = seat_view(match, hand.kitty_taker)
    assert view.kitty is not None

    knowledge = learn(view)

    assert knowledge.kitty_size == 0
    assert not knowledge.unseen & mask_of(view.kitty)
    for holdings, kitty in deals(view, 50):
        assert kitty == 0
        assert not any(mask & mask_of(view.kitty) for mask in holdings)


RULES = {
    "Standard": Rules(),
    "5 players, kitty": Rules(players=5, short_pack=ShortPack.KITTY),
}


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_imagined_deals_respect_every_void_throughout_real_hands(rules, dealing):
    """The real deal fits what each seat knows, so an imagined one always can: none may fall
    back on ignoring a void."""
    bots = [make_bot("heuristic") for _ in range(rules.players)]
    bots[1] = make_bot("random", seed=1)  # it shows voids the careful players would not
    for deal_seed in range(1, 7):
        match = dealt(rules, deal_seed % len(rules.pass_cycle) + 1, deal_seed)
        hand = match.hand
        while not hand.is_over:
            if hand.phase is Phase.PLAYING:
                for seat in range(rules.players):
                    view = seat_view(match, seat)
                    voids = voids_shown(view)
                    for holdings, _ in deals(view, 3):
                        for other, mask in enumerate(holdings):
                            assert not mask & voids[other], (deal_seed, hand.cards_played, seat)
            step(match, bots)


def seat_0_knows(
    mine: str, unseen: str, counts: tuple[int, ...], voids: tuple[int, ...]
) -> Knowledge:
    """What seat 0 of four knows: its cards, the unseen ones, every seat's count, and the suits
    seats 1 to 3 are void in (no pass to remember, no kitty)."""
    return Knowledge(
        seat=0,
        players=4,
        mine=mask_of(parse_cards(mine)),
        unseen=mask_of(parse_cards(unseen)),
        counts=counts,
        known=(0, 0, 0, 0),
        voids=(0, *voids),
        kitty_size=0,
        kitty_taker=None,
    )


@pytest.fixture(params=["counted", "card by card"])
def dealing(request, monkeypatch):
    """Both ways a dealer deals: by counting the deals that fit, and (when counting would take
    too long: five or six players with many voids) card by card."""
    if request.param == "card by card":
        monkeypatch.setattr(knowledge_module, "MOST_WORK", 0)
    knowledge_module.dealer.cache_clear()
    yield request.param
    knowledge_module.dealer.cache_clear()


def test_a_tightly_constrained_ending_is_dealt_within_the_voids(dealing):
    """Three tricks left (seen in play between random bots). Seat 2 cannot hold hearts, seats 1
    and 3 must then take the six hearts, so the three diamonds can only be seat 2's."""
    diamonds, hearts = SUIT_MASKS[Suit.DIAMONDS], SUIT_MASKS[Suit.HEARTS]
    clubs, spades = SUIT_MASKS[Suit.CLUBS], SUIT_MASKS[Suit.SPADES]
    knowledge = seat_0_knows(
        "4C 7H JS", "2D 4D JD 3H 6H 8H 9H TH KH", (3, 3, 3, 3), (diamonds, hearts, clubs | spades)
    )
    rnd = random.Random(1)

    for _ in range(50):
        holdings, _ = sample(knowledge, rnd)
        assert not holdings[2] & hearts


def every_deal(knowledge: Knowledge) -> list[list[int]]:
    """Every way to hand the unseen cards to the other seats, by brute force (small cases)."""
    seats = [s for s in range(knowledge.players) if s != knowledge.seat]
    cards = [i for i in range(52) if knowledge.unseen >> i & 1]
    found = []

    def place(at: int, holdings: list[int]) -> None:
        if at == len(cards):
            found.append(list(holdings))
            return
        bit = 1 << cards[at]
        for s in seats:
            if not bit & knowledge.voids[s] and holdings[s].bit_count() < knowledge.counts[s]:
                holdings[s] |= bit
                place(at + 1, holdings)
                holdings[s] ^= bit

    place(0, [knowledge.mine if s == knowledge.seat else 0 for s in range(knowledge.players)])
    return found


def test_every_deal_that_fits_is_as_likely_as_any_other():
    """Seat 1 cannot hold spades and seat 2 cannot hold hearts. Seat 3, which can hold both,
    takes more of them, so it has room for fewer diamonds than the others: handing the cards
    out one at a time wherever there is room would give seat 1 too many diamonds."""
    clubs, hearts, spades = (SUIT_MASKS[s] for s in (Suit.CLUBS, Suit.HEARTS, Suit.SPADES))
    knowledge = seat_0_knows(
        "2C 3C 4C",
        "2D 3D 4D 5D 2H 3H 4H 2S 3S 4S",
        (3, 3, 3, 4),
        (clubs | spades, clubs | hearts, clubs),
    )
    every = every_deal(knowledge)
    rnd = random.Random(1)
    drawn = [sample(knowledge, rnd)[0] for _ in range(6000)]

    for card in parse_cards("2D 2H 2S"):
        for seat in (1, 2, 3):
            exact = sum(1 for h in every if h[seat] >> card.index & 1) / len(every)
            seen = sum(1 for h in drawn if h[seat] >> card.index & 1) / len(drawn)
            assert seen == pytest.approx(exact, abs=0.025), (card, seat)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        PRESETS["club"].rules,
        Rules(players=3, short_pack=ShortPack.KITTY, jack_of_diamonds=True),
        Rules(players=5, short_pack=ShortPack.KITTY),
    ],
    ids=["standard", "club", "three with a kitty", "five with a kitty"],
)
def test_a_search_imagines_each_deal_as_the_engine_does_from_the_view(rules: Rules) -> None:
    """Imagining makes the public part of a hand once and copies it for every deal: each deal's
    hand is the one imagine_hand makes from scratch, before the pass, at the first lead, in the
    middle of a trick and after the kitty was taken, and both play out alike."""
    match = dealt(rules, 1)
    heuristic = [make_bot("heuristic")] * rules.players
    checked = 0
    while not match.hand.is_over:
        hand = match.hand
        seat = hand.turn if hand.phase is Phase.PLAYING else 0
        view = seat_view(match, seat)
        dealer = knowledge_module.dealer(learn(view))
        imagining, rnd = Imagining(view), random.Random(checked)
        for _ in range(3):
            holdings, kitty = dealer.deal(rnd)
            copied, fresh = imagining.hand(holdings, kitty), imagine_hand(view, holdings, kitty)
            assert copied.snapshot() == fresh.snapshot()
            assert (copied.leader, copied.turn, copied.legal_mask(seat)) == (
                fresh.leader,
                fresh.turn,
                fresh.legal_mask(seat),
            )
            if hand.phase is Phase.PLAYING:
                assert finish(copied) == finish(fresh)
        checked += 1
        step(match, heuristic)
    assert checked > rules.hand_size


def test_the_dealers_shuffle_is_the_random_modules_card_for_card() -> None:
    for size in range(40):
        mine, theirs = list(range(size)), list(range(size))
        ours, reference = random.Random(size), random.Random(size)
        knowledge_module.shuffle(mine, ours)
        reference.shuffle(theirs)
        assert mine == theirs
        assert ours.random() == reference.random()  # as many draws taken from the generator
