"""The search bot: determinized Monte Carlo over the hidden cards.

For each card it plays, it deals the unseen cards many times, each deal consistent with what
its seat knows (voids shown, cards passed, counts, the kitty) and, if asked to
(:mod:`.reading`), weighted by how the others played; plays each legal card still in the race
(:mod:`.race`) in every deal and finishes the hand with the fast rule-based policy (with its
refinements, unless told not to), and keeps the card whose hands end best for it: its own
points minus the others' average, so that a moon counts for what it is worth. With ``lookahead`` it also tries every card it could
play at its next turn in each deal and counts the best of them, instead of the policy's.

It passes the same way: it deals the other hands, lets their seats pass as the rule-based
player would, and plays each candidate pass out in every deal. The candidates are every three
of the six cards the rules of passing rank most dangerous; an unguarded Q♠ is in all of them.

It reads one seat's view only. Deals and play-outs bound every decision (the same work on a
busy machine as on a quiet one); the wall clock only guards it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from math import inf

from games.engine import Card, Hand, Imagining, Phase, SeatView, cards_of, mask_of

from . import basic, passing
from .knowledge import dealer, learn
from .policy import Player
from .race import Budget, race
from .reading import deals, read

MUST_GO = 100  # a card this dangerous (see passing.danger) is passed whatever the search says


@dataclass(frozen=True)
class SearchBot:
    # A guard on the wall-clock time of a decision (None: none); the deals and the work bound
    # it, so that a busy machine decides the same, later.
    seconds: float | None = 0.15
    samples: int = 400  # deals at most per decision
    respect_voids: bool = True
    seed: int | None = None
    # Weight of a deal for each earlier card another seat played that the rule-based player
    # would not have played from the hand the deal gives it (1: the play is not read).
    mismatch: float = 1.0
    pass_deals: int = 0  # deals at most to try each pass in (0: pass by the rules alone)
    # Search the seat's own next card too, in each deal, instead of leaving it to the policy.
    lookahead: bool = False
    refined: bool = True  # play the deals out with the policy's refinements (policy.choose)
    # A candidate leaves the race once choosing the leader over it is expected to cost less
    # than this (see .race); None: every candidate is tried in every deal, to the budget.
    loss: float | None = 0.003
    work: int = 0  # play-outs at most per card decision, over all candidates (0: no bound)
    pass_work: int = 0  # the same for a pass

    def choose_pass(self, view: SeatView) -> list[Card]:
        if not self.pass_deals or passing.can_shoot(list(view.hand)):
            return passing.choose_pass(view)
        assert view.seat is not None
        rnd = random.Random(self.seed)
        me = view.seat
        candidates = pass_candidates(view)
        if len(candidates) == 1:
            return cards_of(candidates[0])

        def score(base: Hand, candidate: int) -> float:
            return pass_out(base, me, candidates[candidate], self.refined)

        budget = self._budget(self.pass_deals, self.pass_work)
        return cards_of(candidates[race(len(candidates), passing_deals(view, rnd), score, budget)])

    def choose_moon(self, view: SeatView) -> str:
        return basic.choose_moon(view)

    def choose_play(self, view: SeatView) -> Card:
        legal = list(view.legal)
        if len(legal) <= 1:
            return legal[0]
        assert view.seat is not None
        rnd = random.Random(self.seed)
        knowledge = learn(view, self.respect_voids)
        me = view.seat
        legal = representatives(view, legal)
        if len(legal) == 1:
            return legal[0]
        if self.mismatch < 1.0:
            guard = None if self.seconds is None else time.perf_counter() + self.seconds / 2
            hidden = deals(knowledge, read(view), rnd, self.mismatch, deadline=guard)
        else:
            hidden = endless(dealer(knowledge).deal, rnd)
        bases = imagined(view, hidden)
        evaluate = best_next if self.lookahead else play_out

        def score(base: Hand, candidate: int) -> float:
            return evaluate(base, me, legal[candidate].index, self.refined)

        return legal[race(len(legal), bases, score, self._budget(self.samples, self.work))]

    def _budget(self, deals: int, work: int) -> Budget:
        loss = -inf if self.loss is None else self.loss
        return Budget(deals, work or 1 << 62, self.seconds, loss=loss)


def pass_candidates(view: SeatView) -> list[int]:
    """The passes worth searching, as masks: every three of the six cards the rules of passing
    rank most dangerous, the rule's own choice first; an unguarded Q♠ goes in every one."""
    ranked = passing.ranked(view)
    must = [card for card in ranked[:3] if passing.danger(card, ranked, view) >= MUST_GO]
    free = [card for card in ranked[:6] if card not in must]
    return [mask_of(must) | mask_of(rest) for rest in combinations(free, 3 - len(must))]


def passing_deals(view: SeatView, rnd: random.Random) -> Iterator[Hand]:
    """Endless imagined deals of the hand ``view`` is passing in, the other seats' passes made
    as the rule-based player would make them (the seat's own is left to make)."""
    assert view.seat is not None
    me = view.seat
    deal = dealer(learn(view)).deal
    imagine = Imagining(view)
    while True:
        holdings, kitty = deal(rnd)
        hand = imagine.hand(holdings, kitty)
        for seat in range(view.players):
            if seat != me:
                hand.pass_mask(seat, basic.pass_mask(holdings[seat]))
        yield hand


def pass_out(base: Hand, seat: int, passed: int, refined: bool = True) -> float:
    """``seat``'s margin when it passes the cards of mask ``passed`` and the policy plays the
    hand out."""
    hand = base.copy()
    hand.pass_mask(seat, passed)
    return margin(finish(hand, refined), seat)


def endless(
    deal: Callable[[random.Random], tuple[list[int], int]], rnd: random.Random
) -> Iterator[tuple[list[int], int]]:
    # A generator function, not a generator expression: the compiled build makes the latter a
    # list, which an endless one never finishes.
    while True:
        yield deal(rnd)


def imagined(view: SeatView, deals: Iterator[tuple[list[int], int]]) -> Iterator[Hand]:
    imagine = Imagining(view)
    for holdings, kitty in deals:
        yield imagine.hand(holdings, kitty)


def margin(points: tuple[int, ...], seat: int) -> float:
    """``seat``'s points less the others' average (lower is better for it)."""
    return points[seat] - (sum(points) - points[seat]) / (len(points) - 1)


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


def play_out(base: Hand, seat: int, card: int, refined: bool = True) -> float:
    """``seat``'s margin when it plays ``card`` and the policy plays the rest."""
    hand = base.copy()
    hand.play_index(seat, card)
    return margin(finish(hand, refined), seat)


def best_next(base: Hand, seat: int, card: int, refined: bool = True) -> float:
    """``seat``'s margin when it plays ``card``, the policy plays on to its next turn, and it
    then plays whichever card ends best in this deal."""
    hand = base.copy()
    hand.play_index(seat, card)
    advance(hand, seat, refined)
    if hand.phase is not Phase.PLAYING:
        return margin(finish(hand, refined), seat)
    legal = hand.legal_mask(seat)
    best = float("inf")
    while legal:
        bit = legal & -legal
        legal ^= bit
        best = min(best, play_out(hand, seat, bit.bit_length() - 1, refined))
    return best


def finish(hand: Hand, refined: bool = True) -> tuple[int, ...]:
    """Plays ``hand`` to its end with the rule-based player in every seat; the points."""
    advance(hand, refined=refined)
    if hand.phase is Phase.MOON_CHOICE:
        hand.choose_moon(hand.turn, "others")
    assert hand.points is not None
    return hand.points


def advance(hand: Hand, stop: int = -1, refined: bool = True) -> None:
    """Plays ``hand`` on with the rule-based player until seat ``stop`` is to play or the
    play is over."""
    hand.play_on(Player(hand.players, hand.taken_masks, refined), stop)
