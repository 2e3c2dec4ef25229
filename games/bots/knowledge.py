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


def sample(knowledge: Knowledge, rnd: random.Random, tries: int = 3) -> tuple[list[int], int]:
    """One deal of the unseen cards: (holdings for every seat, the kitty), consistent with
    the counts, the passed cards and the voids.

    A quick deal card by card nearly always fits; when a tight ending defeats it a few times,
    each card goes only where the cards still to come can also be placed.
    """
    for _ in range(tries):
        dealt = _deal(knowledge, rnd, careful=False)
        if dealt is not None:
            return dealt
    dealt = _deal(knowledge, rnd, careful=True)
    if dealt is None:  # what the seat knows contradicts itself: deal without the voids
        dealt = _deal(knowledge, rnd, careful=False, respect_voids=False)
    assert dealt is not None
    return dealt


def _deal(
    knowledge: Knowledge, rnd: random.Random, careful: bool, respect_voids: bool = True
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
    # The suits each holder may take, as a 4-bit set.
    takes = [
        sum(1 << suit for suit in range(4) if not voids[s] & SUIT_MASKS[suit]) for s in holders
    ]
    by_suit = [[s for s in holders if takes[s] >> suit & 1] for suit in range(4)]
    cards.sort(key=lambda card: len(by_suit[card // 13]))  # the most constrained first
    left = [0, 0, 0, 0]
    for card in cards:
        left[card // 13] += 1
    kitty = 0
    for card in cards:
        suit = card // 13
        left[suit] -= 1
        seats = [s for s in by_suit[suit] if room[s] > 0]
        if careful:
            seats = [s for s in seats if _fits(left, room, takes, s)]
        if not seats:
            return None
        seat = rnd.choices(seats, [room[s] for s in seats])[0] if len(seats) > 1 else seats[0]
        room[seat] -= 1
        if seat == n:
            kitty |= 1 << card
        else:
            holdings[seat] |= 1 << card
    return holdings, kitty


def _fits(left: list[int], room: list[int], takes: list[int], seat: int) -> bool:
    """Can the cards still to place (``left`` per suit) go somewhere once ``seat`` takes one?
    For every set of suits, the cards of those suits must fit in the room of the holders that
    take any of them (Hall's condition; it is enough for this transport problem)."""
    room = list(room)
    room[seat] -= 1
    for suits in range(1, 16):
        need = sum(left[suit] for suit in range(4) if suits >> suit & 1)
        if need and need > sum(r for r, t in zip(room, takes, strict=True) if t & suits):
            return False
    return True
