"""The rule-based player's pass and moon choice (its card play is in :mod:`.policy`): pass
the danger cards, and take the moon's points in whichever way leaves the shooter best placed.

It reads only a :class:`~games.engine.SeatView`.
"""

from __future__ import annotations

from games.engine import Card, SeatView, Suit

QS = Card.parse("QS")
JD = Card.parse("JD")
KS = Card.parse("KS")
AS = Card.parse("AS")


def _danger(card: Card, view: SeatView) -> float:
    """How much a card wants to leave the hand (higher: pass or dump it first)."""
    spades = [c for c in view.hand if c.suit is Suit.SPADES]
    low_spades = sum(1 for c in spades if c.rank < QS.rank)
    if card == QS:
        return 100 if low_spades < 4 else 20
    if card in (AS, KS):
        return 90 if QS not in view.hand or low_spades < 4 else 30
    if card.suit is Suit.HEARTS:
        return 40 + card.rank * 3
    suit_size = sum(1 for c in view.hand if c.suit is card.suit)
    # Short suits are worth emptying: the void lets the queen and hearts go later.
    return card.rank * 2 + (12 - suit_size * 3)


def choose_pass(view: SeatView) -> list[Card]:
    ranked = sorted(view.hand, key=lambda card: _danger(card, view), reverse=True)
    return ranked[:3]


def choose_moon(view: SeatView) -> str:
    """Either choice moves the shooter the same points against everybody; giving them away also
    brings the end closer, which is good only for whoever is ahead."""
    assert view.seat is not None
    rules = view.rules
    sun = rules.shoot_the_sun and view.tricks_won[view.seat] == rules.hand_size
    amount = 52 if sun else 26
    mine = view.totals[view.seat] + _jack(view, view.seat)
    others = [
        total + amount + _jack(view, seat)
        for seat, total in enumerate(view.totals)
        if seat != view.seat
    ]
    if max(others) >= rules.target or mine >= rules.target:
        return "others" if mine < min(others) else "self"
    return "others" if mine <= min(others) - amount else "self"


def _jack(view: SeatView, seat: int) -> int:
    if not view.rules.jack_of_diamonds:
        return 0
    taken = any(trick.winner == seat and JD in trick.cards for trick in view.tricks)
    return -10 if taken else 0
