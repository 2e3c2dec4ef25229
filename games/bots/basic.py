"""The rule-based player's pass and moon choice (its card play is in :mod:`.policy`): pass
the danger cards, and take the moon's points in whichever way leaves the shooter best placed.

It reads only a :class:`~games.engine.SeatView`.
"""

from __future__ import annotations

from games.engine import (
    Card,
    MoonRule,
    SeatView,
    Suit,
    cards_of,
    is_sun,
    jack_points,
    mask_of,
    moon_points,
)
from games.engine.cards import QS_BIT, QS_INDEX, SUIT_MASKS, iter_indexes
from games.engine.rules import PASS_SIZE

SPADES_MASK = SUIT_MASKS[Suit.SPADES]


def pass_mask(hand: int, count: int = 3) -> int:
    """The ``count`` cards of ``hand`` (a mask) that the rule-based player passes: the most
    dangerous ones (see :func:`_dangers`), the lower card first between equals."""
    ranked = sorted(_dangers(hand), key=lambda pair: (-pair[0], pair[1]))
    chosen = 0
    for _, card in ranked[:count]:
        chosen |= 1 << card
    return chosen


def _dangers(hand: int) -> list[tuple[int, int]]:
    """(danger, card) for every card of ``hand``: how much a card wants to leave (higher: pass
    or dump it first)."""
    low_spades = (hand & SPADES_MASK & (QS_BIT - 1)).bit_count()
    has_queen = bool(hand & QS_BIT)
    out = []
    for card in iter_indexes(hand):
        rank = card % 13 + 2
        suit = card // 13
        if card == QS_INDEX:
            danger = 100 if low_spades < 4 else 20
        elif suit == Suit.SPADES and rank > 12:
            danger = 90 if not has_queen or low_spades < 4 else 30
        elif suit == Suit.HEARTS:
            danger = 40 + rank * 3
        else:
            # Short suits are worth emptying: the void lets the queen and hearts go later.
            danger = rank * 2 + 12 - (hand & SUIT_MASKS[suit]).bit_count() * 3
        out.append((danger, card))
    return out


def choose_pass(view: SeatView) -> list[Card]:
    return cards_of(pass_mask(mask_of(view.hand), PASS_SIZE))


def choose_moon(view: SeatView) -> str:
    """Either choice moves the shooter the same points against everybody; giving them away also
    brings the end closer, which is good only for whoever is ahead."""
    me, rules = view.seat, view.rules
    assert me is not None
    given = moon_points(rules, MoonRule.OTHERS, me, is_sun(rules, view.tricks_won[me]))
    amount = max(given)  # what the moon moves, either way
    taken = [0] * view.players
    for trick in view.tricks:
        taken[trick.winner] |= mask_of(trick.cards)
    after = [
        total + points + jack_points(rules, mask)
        for total, points, mask in zip(view.totals, given, taken, strict=True)
    ]
    mine = after[me]
    others = after[:me] + after[me + 1 :]
    if max(others) >= rules.target or mine >= rules.target:
        return "others" if mine < min(others) else "self"
    return "others" if mine <= min(others) - amount else "self"
