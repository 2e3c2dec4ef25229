"""Reading the other players' cards from how they played.

Every card another seat played was a choice from the hand it held then. A deal of the hidden
cards in which the rule-based player (:mod:`.policy`) would have made the same choices is more
likely than one in which it would not, and a deal in which a card played could not have been
legal is impossible. :func:`deals` walks among the deals that :mod:`.knowledge` allows, by
swapping two hidden cards between holders at a time (Metropolis), so that each deal is kept in
proportion to ``mismatch`` to the power of the plays it fails to explain.

Only public facts go in: the cards played, in order, and who played them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from games.engine import FirstLead, SeatView, hearts_breakers, legal_from, trick_winner

from .knowledge import Knowledge, dealer
from .policy import choose, queen_taken, shooter

# A hand that could not have made one of its plays counts this many misses, and FORBIDDING
# more for each card in it that forbade the play, so that a walk through impossible deals
# heads steeply for possible ones.
IMPOSSIBLE = 200  # more than the most misses a possible hand can have (13 a play)
FORBIDDING = 4


@dataclass(frozen=True)
class Decision:
    """One earlier play by another seat, with the public state it was made in."""

    card: int
    trick: list[int]  # the cards before it in its trick
    later: int  # the cards the seat played from this one on: its hand then was these + now
    first: bool  # on a protected first trick
    hearts_broken: bool
    moon_seat: int
    queen_out: bool


@dataclass(frozen=True)
class Reading:
    players: int
    old_queen: bool
    decisions: tuple[tuple[Decision, ...], ...]  # per seat; the reading seat's own are left out

    def misses(self, seat: int, hand: int) -> int:
        """How far ``seat``'s plays are from the rule-based player's, had it held ``hand`` now:
        for each play, the cards it would have chosen before the one played (at least
        IMPOSSIBLE if one of the plays would have been illegal)."""
        count = 0
        for d in self.decisions[seat]:
            held = hand | d.later
            legal = legal_from(
                held,
                d.trick,
                first=d.first,
                hearts_broken=d.hearts_broken,
                old_queen=self.old_queen,
            )
            if not legal >> d.card & 1:
                count += IMPOSSIBLE + FORBIDDING * (legal & hand).bit_count()
                continue
            # Each card the rule-based player would have played first is one miss: a lead of
            # the 9 from a hand with three lower safe cards misses three times.
            while legal & (legal - 1):
                picked = choose(d.trick, self.players, seat, legal, d.moon_seat, d.queen_out)
                if picked == d.card:
                    break
                count += 1
                legal &= ~(1 << picked)
        return count


def read(view: SeatView) -> Reading:
    """The decisions of every other seat so far in this hand, from ``view``'s public facts."""
    rules, n = view.rules, view.players
    breakers = hearts_breakers(rules)
    history = [
        ((trick.leader + i) % n, card.index)
        for trick in view.tricks
        for i, card in enumerate(trick.cards)
    ]
    history.extend((seat, card.index) for seat, card in view.trick)
    taken = [0] * n
    broken = False
    trick: list[int] = []
    leader = history[0][0] if history else 0
    tricks_done = 0
    raw: list[list[tuple[int, Decision]]] = [[] for _ in range(n)]
    for position, (seat, card) in enumerate(history):
        if not trick:
            leader = seat
        forced_lead = position == 0 and rules.first_lead is FirstLead.LOWEST_CLUB
        if seat != view.seat and not forced_lead:
            decision = Decision(
                card=card,
                trick=list(trick),
                later=0,
                first=not rules.points_on_first_trick and tricks_done == 0,
                hearts_broken=broken,
                moon_seat=shooter(taken),
                queen_out=queen_taken(taken),
            )
            raw[seat].append((position, decision))
        trick.append(card)
        if (1 << card) & breakers:
            broken = True
        if len(trick) == n:
            winner = trick_winner(trick, leader, n)
            for c in trick:
                taken[winner] |= 1 << c
            trick = []
            tricks_done += 1
    decisions = []
    for seat in range(n):
        plays = [(i, c) for i, (s, c) in enumerate(history) if s == seat]
        done = []
        for position, decision in raw[seat]:
            later = 0
            for i, c in plays:
                if i >= position:
                    later |= 1 << c
            done.append(replace(decision, later=later))
        decisions.append(tuple(done))
    return Reading(players=n, old_queen=rules.old_queen, decisions=tuple(decisions))


def deals(
    knowledge: Knowledge,
    reading: Reading,
    rnd: random.Random,
    mismatch: float,
    burn_in: int = 40,
    steps: int = 4,
    restart: int = 12,
    deadline: float | None = None,
) -> Iterator[tuple[list[int], int]]:
    """Endless deals of the hidden cards, each kept in proportion to ``mismatch`` to the power
    of the plays it leaves unexplained.

    A walk of swaps from a fresh deal gives ``restart`` deals, ``steps`` swaps apart, after
    ``burn_in`` swaps (more while the deal is impossible, until ``deadline`` by
    :func:`time.perf_counter`); then a new walk starts, so that one stuck walk cannot speak for
    all the deals.
    """
    n = knowledge.players
    deal = dealer(knowledge).deal
    if not any(reading.decisions):
        while True:
            yield deal(rnd)
    fixed = [*knowledge.known, 0]
    fixed[knowledge.seat] = knowledge.mine
    voids = [*knowledge.voids, 0]
    # A walk comes back to the same hands often, so each hand's misses are worked out once.
    known: dict[tuple[int, int], int] = {}

    def misses(seat: int, hand: int) -> int:
        if seat == n:  # the kitty made no plays
            return 0
        found = known.get((seat, hand))
        if found is None:
            found = known[seat, hand] = reading.misses(seat, hand)
        return found

    while True:
        dealt, kitty = deal(rnd)
        holdings = [*dealt, kitty]  # the kitty is holder n
        holders = [s for s in range(n + 1) if holdings[s] & ~fixed[s]]
        if len(holders) < 2:
            yield dealt, kitty
            continue
        current = [misses(s, holdings[s]) for s in range(n + 1)]
        proposals = burn_in
        for _ in range(restart):
            for step in range(MOST_STEPS):
                if step >= proposals and (
                    max(current) < IMPOSSIBLE
                    or (deadline is not None and step % 64 == 0 and time.perf_counter() > deadline)
                ):
                    break
                a, b = rnd.sample(holders, 2)
                x = _any_card(holdings[a] & ~fixed[a] & ~voids[b], rnd)
                y = _any_card(holdings[b] & ~fixed[b] & ~voids[a], rnd)
                if not x or not y:
                    continue
                swap = x | y
                new_a, new_b = holdings[a] ^ swap, holdings[b] ^ swap
                miss_a, miss_b = misses(a, new_a), misses(b, new_b)
                change = miss_a + miss_b - current[a] - current[b]
                if change <= 0 or rnd.random() < mismatch**change:
                    holdings[a], holdings[b] = new_a, new_b
                    current[a], current[b] = miss_a, miss_b
            yield holdings[:n], holdings[n]
            proposals = steps


MOST_STEPS = 3000  # a bound on the steps between deals, when the walk starts far off


def _any_card(mask: int, rnd: random.Random) -> int:
    """One card of ``mask`` at random, as a one-bit mask (0 if there is none)."""
    if not mask:
        return 0
    for _ in range(rnd.randrange(mask.bit_count())):
        mask &= mask - 1
    return mask & -mask


__all__ = ["IMPOSSIBLE", "Decision", "Reading", "deals", "read"]
