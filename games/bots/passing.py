"""Passing as the source texts teach it: pass the danger, not the rubbish.

The Q♠ goes unless at least four other spades guard her; the A♠ and K♠ go when the queen is not
in the hand to be guarded; high hearts go; a short club or diamond suit is emptied to make a
void; low cards stay, because they duck later. With the jack of diamonds worth -10, high
diamonds stay. A hand strong enough to shoot the moon keeps its high cards and passes its low
ones instead.
"""

from __future__ import annotations

from games.engine import Card, SeatView, Suit

QUEEN, KING, ACE = 12, 13, 14


def choose_pass(view: SeatView) -> list[Card]:
    hand = list(view.hand)
    if can_shoot(hand):
        return sorted(hand, key=lambda card: (card.rank, card.suit is Suit.HEARTS))[:3]
    return ranked(view)[:3]


def ranked(view: SeatView) -> list[Card]:
    """The hand, the card that most wants to go first."""
    hand = list(view.hand)
    return sorted(hand, key=lambda card: (-danger(card, hand, view), card.index))


def can_shoot(hand: list[Card]) -> bool:
    """Long, high hearts and stoppers elsewhere: a hand that can take every point."""
    hearts = [card for card in hand if card.suit is Suit.HEARTS]
    high_hearts = sum(1 for card in hearts if card.rank >= QUEEN)
    high = sum(1 for card in hand if card.rank >= QUEEN)
    low = sum(1 for card in hand if card.rank <= 6)
    return len(hearts) >= 6 and high_hearts >= 2 and high >= 6 and low <= 3


def danger(card: Card, hand: list[Card], view: SeatView) -> float:
    suit_cards = [c for c in hand if c.suit is card.suit]
    spades = [c for c in hand if c.suit is Suit.SPADES]
    has_queen = any(c.rank == QUEEN for c in spades)
    guards = sum(1 for c in spades if c.rank < QUEEN)
    if card.suit is Suit.SPADES:
        if card.rank == QUEEN:
            return 100 if guards < 4 else 10
        if card.rank >= KING:
            return 30 if has_queen and guards >= 4 else 85
        return -10  # low spades guard against the queen
    if card.suit is Suit.HEARTS:
        return 40 + card.rank * 2 if card.rank >= 10 else card.rank * 2
    if card.suit is Suit.DIAMONDS and view.rules.jack_of_diamonds and card.rank >= 11:
        return -20  # the jack is worth having, and the cards that can win it
    void_bonus = {1: 35, 2: 22, 3: 6}.get(len(suit_cards), 0)
    return card.rank * 2 + void_bonus + (4 if card.rank == 2 and card.suit is Suit.CLUBS else 0)
