"""What one seat knows about the hidden cards, and deals of them consistent with it.

Everything here is derived from a :class:`~games.engine.SeatView`: the cards the seat holds and
has seen played, the cards it passed (and to whom), the suits each player has shown to be void
in, how many cards each player holds, and the size of the face-down kitty.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine import SeatView, mask_of
from games.engine.cards import SUIT_MASKS


@dataclass(frozen=True)
class Knowledge:
    seat: int
    players: int
    mine: int  # the seat's own cards
    unseen: int  # cards held by others or lying in the kitty
    counts: tuple[int, ...]  # cards each seat holds now
    known: tuple[int, ...]  # cards known to be in each seat's hand (what this seat passed)
    voids: tuple[int, ...]  # per seat, a mask of the suits it cannot hold
    kitty_size: int  # unseen cards lying in the kitty (0 once this seat has seen it)
    kitty_taker: int | None


def learn(view: SeatView, respect_voids: bool = True) -> Knowledge:
    assert view.seat is not None
    n = view.players
    mine = mask_of(view.hand)
    seen = mine
    voids = [0] * n
    for trick in view.tricks:
        seen |= mask_of(trick.cards)
        _note_voids(voids, trick.leader, [c.index for c in trick.cards], n)
    if view.trick:
        seen |= mask_of(card for _, card in view.trick)
        _note_voids(voids, view.trick[0][0], [c.index for _, c in view.trick], n)
    if view.kitty:
        seen |= mask_of(view.kitty)
    unseen = mask_of(view.rules.deck) & ~seen
    known = [0] * n
    if view.passed and view.pass_target is not None and view.phase.value != "passing":
        known[view.pass_target] = mask_of(view.passed) & unseen
    kitty_size = 0 if view.kitty is not None else view.kitty_size
    if not respect_voids:
        voids = [0] * n
    return Knowledge(
        seat=view.seat,
        players=n,
        mine=mine,
        unseen=unseen,
        counts=view.card_counts,
        known=tuple(known),
        voids=tuple(voids),
        kitty_size=kitty_size,
        kitty_taker=view.kitty_taker,
    )


def _note_voids(voids: list[int], leader: int, cards: list[int], players: int) -> None:
    led = cards[0] // 13
    for position, card in enumerate(cards[1:], start=1):
        if card // 13 != led:
            voids[(leader + position) % players] |= SUIT_MASKS[led]


def sample(knowledge: Knowledge, rnd: random.Random, tries: int = 20) -> tuple[list[int], int]:
    """One deal of the unseen cards: (holdings for every seat, the kitty), consistent with
    the counts, the passed cards and, when it can be, the voids."""
    for attempt in range(tries + 1):
        dealt = _try_sample(knowledge, rnd, respect_voids=attempt < tries)
        if dealt is not None:
            return dealt
    raise AssertionError("a deal without void constraints always fits")


def _try_sample(
    knowledge: Knowledge, rnd: random.Random, respect_voids: bool
) -> tuple[list[int], int] | None:
    n, me = knowledge.players, knowledge.seat
    holdings = list(knowledge.known)
    holdings[me] = knowledge.mine
    room = [knowledge.counts[s] - knowledge.known[s].bit_count() for s in range(n)]
    room[me] = 0
    rest = knowledge.unseen
    for mask in knowledge.known:
        rest &= ~mask
    cards = [i for i in range(52) if rest >> i & 1]
    rnd.shuffle(cards)
    # Hidden cards go to the kitty slot (index n) too, while it is unseen.
    room.append(knowledge.kitty_size)
    holders = [*range(n), n]
    voids = [*knowledge.voids, 0] if respect_voids else [0] * (n + 1)

    # Who may hold a card depends only on its suit (voids) and on who still has room.
    by_suit = [[s for s in holders if not voids[s] & SUIT_MASKS[suit]] for suit in range(4)]
    cards.sort(key=lambda card: len(by_suit[card // 13]))  # the most constrained first
    kitty = 0
    for card in cards:
        seats = [s for s in by_suit[card // 13] if room[s] > 0]
        if not seats:
            return None
        seat = rnd.choices(seats, [room[s] for s in seats])[0] if len(seats) > 1 else seats[0]
        room[seat] -= 1
        if seat == n:
            kitty |= 1 << card
        else:
            holdings[seat] |= 1 << card
    return holdings, kitty
