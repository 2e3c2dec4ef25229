"""The search bot: determinized Monte Carlo over the hidden cards.

For each decision it deals the unseen cards many times, each deal consistent with what its
seat knows (voids shown, cards passed, counts, the kitty), plays every legal card in every deal
and finishes the hand with the fast rule-based policy, and keeps the card whose hands end best
for it: its own points minus the others' average, so that a moon counts for what it is worth.
It reads one seat's view only; the time and sample budgets bound every decision.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.engine import Card, Hand, Phase, SeatView, imagine_hand

from . import basic, passing
from .knowledge import learn, sample
from .policy import choose, queen_taken, shooter


@dataclass(frozen=True)
class SearchBot:
    seconds: float | None = 0.15  # time budget per decision (None: only the sample budget)
    samples: int = 400  # deals at most per decision
    respect_voids: bool = True
    seed: int | None = None

    def choose_pass(self, view: SeatView) -> list[Card]:
        return passing.choose_pass(view)

    def choose_moon(self, view: SeatView) -> str:
        return basic.choose_moon(view)

    def choose_play(self, view: SeatView) -> Card:
        legal = list(view.legal)
        if len(legal) <= 1:
            return legal[0]
        assert view.seat is not None
        start = time.perf_counter()
        rnd = random.Random(self.seed)
        knowledge = learn(view, self.respect_voids)
        me, n = view.seat, view.players
        legal = representatives(view, legal)
        if len(legal) == 1:
            return legal[0]
        totals = dict.fromkeys(legal, 0.0)
        done = 0
        while done < self.samples:
            holdings, kitty = sample(knowledge, rnd)
            base = imagine_hand(view, holdings, kitty)
            for card in legal:
                points = play_out(base, me, card.index)
                totals[card] += points[me] - (sum(points) - points[me]) / (n - 1)
            done += 1
            if self.seconds is not None and done >= 2:
                elapsed = time.perf_counter() - start
                if elapsed * (done + 1) / done > self.seconds:
                    break
        return min(legal, key=lambda card: (totals[card], card.index))


def representatives(view: SeatView, legal: list[Card]) -> list[Card]:
    """One card of each run of touching cards in a suit (the 7 and 8 are the same card once
    nobody else can hold anything between them): fewer candidates, more deals searched."""
    # Cards on the table still separate: the K♥ led splits a held A♥ from a held 2♥.
    out = {card.index for trick in view.tricks for card in trick.cards}
    mine = {card.index for card in view.hand}
    chosen: list[Card] = []
    for card in sorted(legal, key=lambda c: c.index):
        if chosen and chosen[-1].suit is card.suit:
            between = range(chosen[-1].index + 1, card.index)
            if all(i in out or i in mine for i in between) and _same_points(chosen[-1], card):
                continue
        chosen.append(card)
    return chosen


def _same_points(a: Card, b: Card) -> bool:
    return a.points == b.points and not {a.index, b.index} & {_QS, _JD}


_QS, _JD = Card.parse("QS").index, Card.parse("JD").index


def play_out(base: Hand, seat: int, card: int) -> tuple[int, ...]:
    hand = base.copy()
    hand.play_index(seat, card)
    playing = Phase.PLAYING
    moon_seat, queen_out = shooter(hand), queen_taken(hand)
    while hand.phase is playing:
        turn = hand.turn
        if not hand.trick:
            moon_seat, queen_out = shooter(hand), queen_taken(hand)
        hand.play_index(turn, choose(hand, turn, hand.legal_mask(turn), moon_seat, queen_out))
    if hand.phase is Phase.MOON_CHOICE:
        hand.choose_moon(hand.turn, "others")
    assert hand.points is not None
    return hand.points
