"""The rule-based player, on bit masks: the heuristic bot, and every seat in the search's
play-outs.

Lead low in a safe suit; follow with the highest card that still loses, else the lowest (the
highest when last to a clean trick); when void, dump the Q♠, then high spades while she is out,
then the highest heart, then the highest card. A seat that has taken every point so far and
enough of them plays for the moon instead: it takes tricks with its highest cards.

The search plays its deals out with three more habits (``refined``): on the first trick it
follows with its highest card, to be rid of it while points may not fall (under most rules);
leading while the Q♠ is still out and it holds neither her nor a higher spade, it leads its
lowest spade, to drive her out; and when it must win a clean trick of another suit, it wins
with its highest card rather than its lowest. A player with them takes 0.8 points a hand fewer
than three plain ones at the same tables (2,000 duplicate deals; each habit gains on its own).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games.engine import Card, SeatView, Suit, mask_of, points_of, trick_points, winning_position
from games.engine.cards import HEARTS_MASK, PENALTY_MASK, QS_BIT, SUIT_MASKS
from games.engine.hand import Chooser

HIGH_SPADES: Final = (1 << (3 * 13 + 11)) | (1 << (3 * 13 + 12))  # K♠ and A♠
LOW_SPADES: Final = SUIT_MASKS[Suit.SPADES] & (QS_BIT - 1)  # 2♠ to J♠
MOON_THRESHOLD: Final = 16  # points taken, all by one seat, before the play-out expects a shot


def highest(mask: int) -> int:
    """The card of highest rank in ``mask`` (any suit)."""
    best, best_rank = -1, -1
    for suit_mask in SUIT_MASKS:
        part = mask & suit_mask
        if part:
            card = part.bit_length() - 1
            if card % 13 > best_rank:
                best, best_rank = card, card % 13
    return best


def lowest(mask: int) -> int:
    best, best_rank = -1, 99
    for suit_mask in SUIT_MASKS:
        part = mask & suit_mask
        if part:
            card = (part & -part).bit_length() - 1
            if card % 13 < best_rank:
                best, best_rank = card, card % 13
    return best


def shooter(taken: list[int]) -> int:
    """The seat that has taken every point so far (``taken``: the cards each seat has won),
    with enough of them to be trying, or -1."""
    holders = [s for s, mask in enumerate(taken) if mask & PENALTY_MASK]
    if len(holders) != 1:
        return -1
    return holders[0] if points_of(taken[holders[0]]) >= MOON_THRESHOLD else -1


def queen_taken(taken: list[int]) -> bool:
    return any(mask & QS_BIT for mask in taken)


def choose(
    trick: list[int],
    players: int,
    seat: int,
    legal: int,
    moon_seat: int,
    queen_out: bool,
    first: bool = False,
    refined: bool = False,
) -> int:
    """The card ``seat`` plays from its ``legal`` ones onto ``trick`` (card indices in play
    order). ``moon_seat``, ``queen_out`` and ``first`` (the first trick of the hand) change only
    between tricks, so the caller works them out once a trick (see :func:`shooter` and
    :func:`queen_taken`); ``refined`` adds the search's habits (see the module's text)."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if seat == moon_seat:
        return highest(legal)
    if not trick:
        spades = legal & LOW_SPADES
        if refined and spades and not queen_out and not legal & (QS_BIT | HIGH_SPADES):
            return (spades & -spades).bit_length() - 1
        safe = legal & ~HEARTS_MASK
        if not queen_out:
            safe &= ~(HIGH_SPADES | QS_BIT)
        return lowest(safe or legal)
    led = trick[0] // 13
    follow = legal & SUIT_MASKS[led]
    if follow:
        rest = follow & ~QS_BIT or follow
        if refined and first:
            return rest.bit_length() - 1
        best = trick[winning_position(trick)]
        below = follow & ((1 << best) - 1)
        if below:
            return below.bit_length() - 1
        if not trick_points(trick) and (
            len(trick) == players - 1 or (refined and led != Suit.SPADES)
        ):
            return rest.bit_length() - 1
        return (rest & -rest).bit_length() - 1
    if legal & QS_BIT:
        return QS_BIT.bit_length() - 1
    if not queen_out and legal & HIGH_SPADES:
        return (legal & HIGH_SPADES).bit_length() - 1
    hearts = legal & HEARTS_MASK
    if hearts and moon_seat < 0:
        return hearts.bit_length() - 1
    return highest(legal & ~HEARTS_MASK or legal)


class Player(Chooser):
    """The rule-based player for :meth:`Hand.play_on <games.engine.Hand.play_on>`, from a
    position where the seats have taken ``taken``; ``refined``: with the search's habits."""

    def __init__(self, players: int, taken: Sequence[int], refined: bool = False) -> None:
        self.players = players
        self.refined = refined
        self.moon_seat, self.queen_out, self.first = trick_facts(list(taken))

    def pick(self, trick: list[int], seat: int, legal: int, taken: list[int]) -> int:
        if not trick:
            self.moon_seat, self.queen_out, self.first = trick_facts(taken)
        return choose(
            trick,
            self.players,
            seat,
            legal,
            self.moon_seat,
            self.queen_out,
            self.first,
            self.refined,
        )


def trick_facts(taken: list[int]) -> tuple[int, bool, bool]:
    """What :func:`choose` wants to know between tricks, from the cards each seat has taken:
    the seat shooting the moon (see :func:`shooter`), whether the Q♠ has been taken, and
    whether no trick has been (the first trick is still to come)."""
    union = 0
    for mask in taken:  # a loop, not functools.reduce: the compiled build runs it natively
        union |= mask
    if not union & PENALTY_MASK:  # most tricks: nobody has taken a point yet
        return -1, False, not union
    # Nobody can be shooting before the points taken, all together, are enough.
    moon_seat = shooter(taken) if points_of(union) >= MOON_THRESHOLD else -1
    return moon_seat, bool(union & QS_BIT), False


def choose_card(view: SeatView, refined: bool = False) -> Card:
    """The rule-based player's card for the seat of ``view``."""
    assert view.seat is not None
    taken = [0] * view.players
    for done in view.tricks:
        taken[done.winner] |= mask_of(done.cards)
    trick = [card.index for _, card in view.trick]
    legal, first = mask_of(view.legal), not view.tricks
    index = choose(
        trick,
        view.players,
        view.seat,
        legal,
        shooter(taken),
        queen_taken(taken),
        first=first,
        refined=refined,
    )
    return next(card for card in view.legal if card.index == index)
