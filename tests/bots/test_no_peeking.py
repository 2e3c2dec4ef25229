"""A bot decides from its seat's view alone: deals that look the same from its seat get the same
card, and a view carries no hand or match to peek into."""

from __future__ import annotations

import gc
import pickle
import types
from itertools import combinations

import pytest

from games.bots import SearchBot, make_bot
from games.engine import Card, Hand, Match, Rules, ShortPack, Suit, cards_of, seat_view
from tests.helpers.bots import dealt, match_with, play_until

QS = Card.parse("QS")


def rearranged(hand: Hand, me: int) -> Hand:
    """The same hand with two hidden cards of one suit swapped between two other holders (seats
    or the face-down kitty), dealt again and replayed move by move.

    Swapping cards of one suit keeps every past play legal and every void true; passed cards,
    the Q♠ (the first trick may refuse her) and clubs (the lowest one leads) stay put.
    """
    n = hand.players
    passed = {card for seat in range(n) for card in hand.passed(seat) or ()}
    deals = [set(cards_of(mask)) for mask in hand.dealt] + [set(cards_of(hand.kitty))]
    hidden = [set(hand.holding(seat)) for seat in range(n)] + [set(cards_of(hand.kitty))]
    holders = [seat for seat in range(n) if seat != me]
    if hand.kitty and hand.kitty_taker != me:
        holders.insert(0, n)  # the kitty first: what it holds is hidden too
    for a, b in combinations(holders, 2):
        for x in sorted(hidden[a] - passed, key=lambda card: card.index):
            for y in sorted(hidden[b] - passed, key=lambda card: card.index):
                if x.suit is y.suit is not Suit.CLUBS and QS not in (x, y):
                    deals[a] ^= {x, y}
                    deals[b] ^= {x, y}
                    other = Hand(hand.rules, hand.number, deals[:n], deals[n], hand.totals_before)
                    for move in hand.moves:
                        other.apply(move)
                    return other
    raise AssertionError("no two hidden cards of one suit to swap")


def has_choice(hand: Hand) -> bool:
    return hand.legal_mask(hand.turn).bit_count() > 1


def same_view_elsewhere(
    rules: Rules, number: int, deal_seed: int, cards_played: int
) -> tuple[Match, Match, int]:
    """Two matches whose hidden cards differ but which look the same from the seat to play:
    the first one with a choice of cards once ``cards_played`` are down."""
    bots = [make_bot("heuristic") for _ in range(rules.players)]
    match = dealt(rules, number, deal_seed)
    hand = play_until(match, bots, lambda h: h.cards_played >= cards_played and has_choice(h))
    me = hand.turn
    other = rearranged(hand, me)
    assert [other.holding_mask(s) for s in range(rules.players)] != [
        hand.holding_mask(s) for s in range(rules.players)
    ] or other.kitty != hand.kitty
    return match, match_with(other), me


POSITIONS = {
    "after the first card": 1,
    "after two cards": 2,
    "mid-hand, leading": 24,
    "mid-hand, mid-trick": 26,
    "late": 36,
}
TABLES = {  # rules, hand number, deal
    "Standard, hold hand": (Rules(), 4, 7),
    "Standard, passing left": (Rules(), 1, 7),
    "3 players, the K♥ in the kitty": (Rules(players=3, short_pack=ShortPack.KITTY), 3, 1),
}


SEARCHES = {
    "normal": SearchBot(seconds=None, samples=20, seed=1),
    "reading the play": SearchBot(seconds=None, samples=20, mismatch=0.03, seed=1),
    "searching its next card": SearchBot(seconds=None, samples=6, lookahead=True, seed=1),
}


@pytest.mark.parametrize("bot", SEARCHES.values(), ids=SEARCHES.keys())
@pytest.mark.parametrize("cards_played", POSITIONS.values(), ids=POSITIONS.keys())
@pytest.mark.parametrize(("rules", "number", "deal_seed"), TABLES.values(), ids=TABLES.keys())
def test_deals_that_look_the_same_from_a_seat_get_the_same_card(
    rules, number, deal_seed, cards_played, bot
):
    real, imagined, me = same_view_elsewhere(rules, number, deal_seed, cards_played)

    view = seat_view(real, me)

    assert seat_view(imagined, me) == view
    assert len(view.legal) > 1
    assert bot.choose_play(view) == bot.choose_play(seat_view(imagined, me))


@pytest.mark.parametrize(("rules", "number", "deal_seed"), TABLES.values(), ids=TABLES.keys())
def test_deals_that_look_the_same_from_a_seat_get_the_same_pass(rules, number, deal_seed):
    real = dealt(rules, 1, deal_seed)  # hand 1 passes at every table
    me = 0
    imagined = match_with(rearranged(real.hand, me))
    bot = SearchBot(seconds=None, pass_deals=10, seed=1)

    view = seat_view(real, me)

    assert seat_view(imagined, me) == view
    assert bot.choose_pass(view) == bot.choose_pass(seat_view(imagined, me))


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through instances (not through classes, modules or
    functions, which lead everywhere)."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    seen, todo, found = set(), [root], []
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        found.append(obj)
        todo.extend(gc.get_referents(obj))
    return found


def test_a_seat_view_holds_no_hand_and_no_match():
    match = dealt(Rules(players=3, short_pack=ShortPack.KITTY), 1)
    hand = play_until(match, [make_bot("heuristic")] * 3, lambda hand: hand.cards_played == 20)

    view = seat_view(match, hand.turn)

    assert not [obj for obj in reachable(view) if isinstance(obj, Hand | Match)]


def test_a_bot_plays_from_a_bare_copy_of_the_view():
    match = dealt(Rules(), 4)
    hand = play_until(match, [make_bot("heuristic")] * 4, lambda hand: hand.cards_played == 17)
    view = seat_view(match, hand.turn)
    bot = SearchBot(seconds=None, samples=20, seed=1)

    bare = pickle.loads(pickle.dumps(view))
    del match, hand
    gc.collect()

    assert bot.choose_play(bare) == bot.choose_play(view)
    assert bot.choose_play(bare) in view.legal
