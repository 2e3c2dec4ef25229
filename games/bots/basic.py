"""A sound rule-based baseline: pass the danger, duck when it can, dump the danger when void.

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


def _winner_so_far(view: SeatView) -> Card | None:
    if not view.trick:
        return None
    led = view.trick[0][1].suit
    return max((card for _, card in view.trick if card.suit is led), key=lambda c: c.rank)


def choose_play(view: SeatView) -> Card:
    legal = list(view.legal)
    if len(legal) == 1:
        return legal[0]
    if not view.trick:
        return _lead(view, legal)
    led = view.trick[0][1].suit
    following = [card for card in legal if card.suit is led]
    if not following:  # void: dump the most dangerous card
        return max(legal, key=lambda card: _danger(card, view))
    best = _winner_so_far(view)
    assert best is not None
    ducks = [card for card in following if card.rank < best.rank]
    last_to_play = len(view.trick) == view.players - 1
    trick_points = sum(card.points for _, card in view.trick)
    if ducks:
        return max(ducks, key=lambda card: card.rank)
    if last_to_play and trick_points == 0 and not (led is Suit.SPADES and QS in following):
        # Taking a clean trick last costs nothing: get rid of the highest card.
        return max(following, key=lambda card: (card != QS, card.rank))
    return min(following, key=lambda card: (card == QS, card.rank))


def _lead(view: SeatView, legal: list[Card]) -> Card:
    played = {card for trick in view.tricks for card in trick.cards}
    queen_out = QS in played or QS in view.hand

    def lead_risk(card: Card) -> tuple[int, int]:
        risky = card.suit is Suit.SPADES and card.rank >= QS.rank and not queen_out
        return (int(risky) * 2 + int(card.suit is Suit.HEARTS), card.rank)

    return min(legal, key=lead_risk)


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
