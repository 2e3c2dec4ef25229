"""What one seat knows about the hidden cards, and deals of them consistent with it.

Everything here is derived from a :class:`~games.engine.SeatView`: the cards the seat holds and
has seen played, the cards it passed (and to whom), the suits each player has shown to be void
in, how many cards each player holds, and the size of the face-down kitty.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from math import factorial

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
        seen |= mask_of([card for _, card in view.trick])
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


def sample(knowledge: Knowledge, rnd: random.Random) -> tuple[list[int], int]:
    """One deal of the unseen cards: (holdings for every seat, the kitty), drawn uniformly from
    every deal consistent with the counts, the passed cards and the voids."""
    return dealer(knowledge).deal(rnd)


MOST_WORK = 2000  # ways to split a suit a dealer looks at while counting, at most


@lru_cache(maxsize=16)
def dealer(knowledge: Knowledge) -> Dealer:
    """The :class:`Dealer` for ``knowledge``: one decision draws many deals from the same one."""
    found = Dealer(knowledge)
    if not found.possible:  # what the seat knows contradicts itself: deal without the voids
        found = Dealer(replace(knowledge, voids=(0,) * knowledge.players))
    return found


class Dealer:
    """Deals the unseen cards uniformly among the deals that fit a :class:`Knowledge`.

    Holders are the other seats and the unseen kitty, each with room for so many cards. Suits
    that some holder cannot have (a void it showed) are dealt first, one at a time: how many of
    the suit's cards each holder gets is drawn in proportion to the number of whole deals that
    share those counts, counted exactly (ways to split this suit, times the ways to deal the
    rest into the room left). The other suits, which any holder may have, are then shuffled
    into the room left as one pile. Dealing card by card, each where there is room, would
    favour the players with voids: they would get too many of the cards they can take.

    Counting is quick but for five or six players with many voids early in the hand; past
    :data:`MOST_WORK` the dealer instead places the cards one at a time, each where the rest can
    still fit, in proportion to the room (a little less fair, and quick).
    """

    def __init__(self, knowledge: Knowledge) -> None:
        n, me = knowledge.players, knowledge.seat
        self.players = n
        self.fixed = list(knowledge.known)
        self.fixed[me] = knowledge.mine
        rest = knowledge.unseen
        for mask in knowledge.known:
            rest &= ~mask
        rooms = [knowledge.counts[s] - knowledge.known[s].bit_count() for s in range(n)]
        rooms.append(knowledge.kitty_size)  # the kitty is holder n
        self.holders = [h for h in range(n + 1) if h != me and rooms[h] > 0]
        voids = [*knowledge.voids, 0]
        self.rooms = tuple(rooms[h] for h in self.holders)
        # Suits some holder may not have: their cards, and which holders may take them.
        self.split: list[tuple[list[int], tuple[bool, ...]]] = []
        self.pile: list[int] = []
        for suit_mask in SUIT_MASKS:
            cards = [i for i in range(52) if (rest & suit_mask) >> i & 1]
            takes = tuple(not voids[h] & suit_mask for h in self.holders)
            if cards and not all(takes):
                self.split.append((cards, takes))
            else:
                self.pile.extend(cards)
        self.cards = self.pile + [card for cards, _ in self.split for card in cards]
        # The suits each holder may have, as a 4-bit set (for dealing card by card).
        self.suits = [
            sum(1 << suit for suit in range(4) if not voids[h] & SUIT_MASKS[suit])
            for h in self.holders
        ]
        self._choices: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]]
        self._choices = {}
        self.exact, self._work = True, 0
        if sum(self.rooms) != len(self.cards):
            self.possible = False
            return
        try:
            self.possible = self._count(0, self.rooms) > 0
        except _TooMany:
            self.exact = False
            self.possible = self._greedy(random.Random(0), careful=True) is not None

    def deal(self, rnd: random.Random) -> tuple[list[int], int]:
        got = self._exact(rnd) if self.exact else self._greedy(rnd)
        if got is None:
            got = self._greedy(rnd, careful=True)
        assert got is not None
        holdings = list(self.fixed)
        kitty = 0
        for holder, mask in zip(self.holders, got, strict=True):
            if holder == self.players:
                kitty = mask
            else:
                holdings[holder] |= mask
        return holdings, kitty

    def _exact(self, rnd: random.Random) -> list[int]:
        got = [0] * len(self.holders)
        rooms = self.rooms
        for level, (cards, _) in enumerate(self.split):
            options, totals = self._options(level, rooms)
            counts = options[bisect_right(totals, rnd.randrange(totals[-1]))]
            _hand_out(cards, counts, got, rnd)
            rooms = tuple(r - c for r, c in zip(rooms, counts, strict=True))
        _hand_out(self.pile, rooms, got, rnd)
        return got

    def _greedy(self, rnd: random.Random, careful: bool = False) -> list[int] | None:
        """Card by card, the suits fewest holders may have first, each card to a holder with
        room for it (that leaves room for the cards still to come, if ``careful``), or None
        when a card finds no holder."""
        takes = self.suits
        cards = list(self.cards)
        shuffle(cards, rnd)
        cards.sort(key=lambda card: sum(t >> card // 13 & 1 for t in takes))
        left = [0, 0, 0, 0]
        for card in cards:
            left[card // 13] += 1
        rooms, got = list(self.rooms), [0] * len(self.holders)
        for card in cards:
            suit = card // 13
            left[suit] -= 1
            fits = [
                h
                for h in range(len(rooms))
                if rooms[h]
                and takes[h] >> suit & 1
                and (not careful or _fits(left, rooms, takes, h))
            ]
            if not fits:
                return None
            holder = rnd.choices(fits, [rooms[h] for h in fits])[0]
            rooms[holder] -= 1
            got[holder] |= 1 << card
        return got

    def _options(
        self, level: int, rooms: tuple[int, ...]
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """The ways to split suit ``level`` into ``rooms`` that leave a deal of the rest, and
        their running total of whole deals."""
        key = (level, rooms)
        found = self._choices.get(key)
        if found is None:
            options, totals, total = [], [], 0
            cards, takes = self.split[level]
            for counts in _splits(len(cards), rooms, takes):
                self._work += 1
                if self._work > MOST_WORK:
                    raise _TooMany
                left = tuple(r - c for r, c in zip(rooms, counts, strict=True))
                ways = _multinomial(len(cards), counts) * self._count(level + 1, left)
                if ways:
                    total += ways
                    options.append(counts)
                    totals.append(total)
            found = self._choices[key] = (options, totals)
        return found

    def _count(self, level: int, rooms: tuple[int, ...]) -> int:
        """The deals of suit ``level`` onwards (and the pile) into ``rooms``."""
        if level == len(self.split):  # the room left is the pile's size
            return _multinomial(len(self.pile), rooms)
        totals = self._options(level, rooms)[1]
        return totals[-1] if totals else 0


class _TooMany(Exception):
    pass


def _fits(left: list[int], rooms: list[int], takes: list[int], holder: int) -> bool:
    """Can the cards still to place (``left`` per suit) go somewhere once ``holder`` takes one?
    For every set of suits, the cards of those suits must fit in the room of the holders that
    take any of them (Hall's condition; it is enough for this transport problem)."""
    rooms = list(rooms)
    rooms[holder] -= 1
    for suits in range(1, 16):
        need = sum(left[suit] for suit in range(4) if suits >> suit & 1)
        if need and need > sum(r for r, t in zip(rooms, takes, strict=True) if t & suits):
            return False
    return True


def _splits(
    total: int, rooms: tuple[int, ...], takes: tuple[bool, ...]
) -> Iterator[tuple[int, ...]]:
    """Every way to give ``total`` cards to the holders, at most ``rooms`` each, only to the
    holders that ``takes``."""
    if not rooms:
        if total == 0:
            yield ()
        return
    most = min(total, rooms[0]) if takes[0] else 0
    for first in range(most + 1):
        for rest in _splits(total - first, rooms[1:], takes[1:]):
            yield (first, *rest)


def _multinomial(total: int, counts: tuple[int, ...]) -> int:
    ways = _FACTORIALS[total]
    for count in counts:
        ways //= _FACTORIALS[count]
    return ways


_FACTORIALS = [factorial(n) for n in range(53)]


def _hand_out(
    cards: list[int], counts: tuple[int, ...], got: list[int], rnd: random.Random
) -> None:
    """Shuffles ``cards`` and gives each holder its count of them."""
    cards = list(cards)
    shuffle(cards, rnd)
    at = 0
    for holder, count in enumerate(counts):
        for card in cards[at : at + count]:
            got[holder] |= 1 << card
        at += count


def shuffle(cards: list[int], rnd: random.Random) -> None:
    """``rnd.shuffle(cards)``: the same order from the same generator, in the compiled build's
    own code instead of the random module's Python (a tenth of a decision's time)."""
    getrandbits = rnd.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        # random.Random._randbelow(i + 1): the fewest bits that hold i, drawn until below i + 1.
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
