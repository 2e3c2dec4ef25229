"""What one seat may know: the input of the bot and of the table page.

A view holds the seat's own hand, the pass it made and the one it received, every card played
so far, the points taken and the totals; never another seat's hidden cards. A spectator's view
(``seat=None``) holds no hand at all. After the match is over the whole record is public and
the verification pages read the :class:`~games.engine.match.Match` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .cards import SUIT_MASKS, Card, Suit, cards_of, mask_of, points_of
from .hand import Hand, Phase, Trick, masked_hand
from .match import Match, Result
from .rules import FirstLead, Rules


@dataclass(frozen=True)
class SeatView:
    rules: Rules
    seat: int | None
    hand_number: int
    dealer: int
    direction: str  # of the pass: left, right, across, two left, two right or hold
    pass_target: int | None
    phase: Phase
    turn: int  # -1 when nobody is to play
    hand: tuple[Card, ...]
    passed: tuple[Card, ...] | None  # what this seat chose to pass
    received: tuple[Card, ...] | None  # what was passed to it (brass tabs at the table)
    has_passed: tuple[bool, ...]
    trick: tuple[tuple[int, Card], ...]  # the trick in progress: (seat, card)
    tricks: tuple[Trick, ...]  # the finished tricks of this hand
    hearts_broken: bool
    card_counts: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points_taken: tuple[int, ...]  # in this hand, as far as this seat can see
    kitty_size: int
    kitty_taker: int | None
    kitty: tuple[Card, ...] | None  # its cards, only for the seat that took it
    totals: tuple[int, ...]
    hand_points: tuple[tuple[int, ...], ...]
    last_hand: tuple[int, ...] | None  # points of the hand just finished
    shooter: int | None
    legal: tuple[Card, ...] = ()
    reasons: dict[Card, str] = field(default_factory=dict)
    result: Result | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat


def seat_view(match: Match, seat: int | None) -> SeatView:
    """Exactly what ``seat`` may know now (``None``: a spectator). Once the match is over
    (played out, resigned, timed out) nobody has a turn or a card to play."""
    hand = match.hand
    n = match.players
    over = match.result is not None
    public = SeatView(
        rules=match.rules,
        seat=None,
        hand_number=hand.number,
        dealer=hand.dealer,
        direction=hand.direction,
        pass_target=None,
        phase=hand.phase,
        turn=-1 if over else hand.turn,
        hand=(),
        passed=None,
        received=None,
        has_passed=tuple(hand.has_passed(s) for s in range(n)),
        trick=tuple(hand.current_trick),
        tricks=tuple(hand.tricks),
        hearts_broken=hand.hearts_broken,
        card_counts=tuple(hand.holding_mask(s).bit_count() for s in range(n)),
        tricks_won=tuple(hand.tricks_won(s) for s in range(n)),
        points_taken=_visible_points(hand, seat),
        kitty_size=hand.kitty.bit_count(),
        kitty_taker=hand.kitty_taker,
        kitty=None,
        totals=match.totals,
        hand_points=tuple(match.hand_points()),
        last_hand=match.hands[-1].points if match.hands else None,
        shooter=hand.shooter,
        result=match.result,
    )
    if seat is None:
        return public
    return replace(
        public,
        seat=seat,
        pass_target=hand.pass_target(seat) if hand.pass_offset else None,
        hand=tuple(hand.holding(seat)),
        passed=_tuple(hand.passed(seat)),
        received=_tuple(hand.received(seat)),
        kitty=tuple(cards_of(hand.kitty)) if hand.kitty_taker == seat else None,
        legal=() if over else tuple(hand.legal_plays(seat)),
        reasons=hand.reasons(seat) if hand.phase is Phase.PLAYING and not over else {},
    )


@dataclass(frozen=True)
class LastTrick:
    """The latest trick completed in a match: the ``number``-th (from 1) of hand
    ``hand_number``. Its cards were all played face up, so everyone may see it."""

    hand_number: int
    number: int
    trick: Trick

    def cards_by_seat(self, players: int) -> list[tuple[int, Card]]:
        """(seat, card) in the order played, from the leader round."""
        trick = self.trick
        return [(trick.seat_of(i, players), card) for i, card in enumerate(trick.cards)]


def last_trick(match: Match) -> LastTrick | None:
    """The latest trick completed: this hand's, or before its first is complete, the last
    trick of the hand before (``None`` before any trick is complete).

    >>> from .rules import Rules
    >>> last_trick(Match(Rules(), bytes(32))) is None
    True
    """
    hand = match.hand
    if hand.tricks:
        return LastTrick(hand.number, len(hand.tricks), hand.tricks[-1])
    before = match.hands[-1] if match.hands else None
    if before is None or not before.tricks or before is hand:
        return None
    return LastTrick(before.number, len(before.tricks), before.tricks[-1])


@dataclass(frozen=True)
class HandTaken:
    """What each seat took face up in the latest finished hand: the cards of its tricks, in
    the order they fell. The kitty stays face down; ``kitty_taker`` says who took it."""

    hand_number: int
    cards: tuple[tuple[Card, ...], ...]
    kitty_taker: int | None


def taken_in_last_hand(match: Match) -> HandTaken | None:
    """Each seat's tricks' cards in the latest finished (scored) hand, if any."""
    if not match.hands:
        return None
    hand = match.hands[-1]
    cards: list[list[Card]] = [[] for _ in range(hand.players)]
    for trick in hand.tricks:
        cards[trick.winner].extend(trick.cards)
    return HandTaken(hand.number, tuple(map(tuple, cards)), hand.kitty_taker)


def _tuple(cards: list[Card] | None) -> tuple[Card, ...] | None:
    return None if cards is None else tuple(cards)


def _visible_points(hand: Hand, seat: int | None) -> tuple[int, ...]:
    """Points in the tricks each seat took; the face-down kitty counts only for its taker's eyes
    until the hand is scored."""
    points = []
    for s in range(hand.players):
        mask = 0
        for trick in hand.tricks:
            if trick.winner == s:
                for card in trick.cards:
                    mask |= 1 << card.index
        if hand.kitty_taker == s and (s == seat or hand.is_over):
            mask |= hand.kitty
        points.append(points_of(mask))
    return tuple(points)


def imagine_hand(view: SeatView, holdings: Sequence[int], kitty: int = 0) -> Hand:
    """A hand in play as ``view``'s seat imagines it: the same public history and trick, with
    ``holdings`` (one card mask per seat, the seat's own included) and the kitty guessed.

    Bots search over such hands; they never see the real one. While the seat has still to
    pass, it is the hand as dealt, before anybody's pass.
    """
    rules = view.rules
    hand = masked_hand(rules, view.hand_number, list(holdings), kitty, view.totals)
    if view.phase is Phase.PASSING:
        return hand
    hand._passes = [0] * rules.players
    hand.phase = Phase.PLAYING
    for trick in view.tricks:
        mask = mask_of(trick.cards)
        hand._taken[trick.winner] |= mask
        hand._won[trick.winner] += 1
    hand.tricks = list(view.tricks)
    hand._done = len(view.tricks)
    if view.kitty_taker is not None:
        hand.kitty_taker = view.kitty_taker
        hand._taken[view.kitty_taker] |= kitty
    hand.hearts_broken = view.hearts_broken
    hand.trick = [card.index for _, card in view.trick]
    hand.leader = view.trick[0][0] if view.trick else view.turn
    hand.turn = view.turn
    hand._must_lead = _must_lead(view, holdings)
    return hand


def _must_lead(view: SeatView, holdings: Sequence[int]) -> int:
    """The card the first lead must be in an imagined hand, or -1."""
    if view.tricks or view.trick or view.rules.first_lead is not FirstLead.LOWEST_CLUB:
        return -1
    clubs = 0
    for mask in holdings:
        clubs |= mask & SUIT_MASKS[Suit.CLUBS]
    return (clubs & -clubs).bit_length() - 1


class Imagining:
    """:func:`imagine_hand` for one view and many deals, as a search asks it: the hand is made
    from the view once, and each deal's is a copy of it that holds the deal's cards."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.base: Hand | None = None  # imagined without a kitty: its cards taken lack it

    def hand(self, holdings: Sequence[int], kitty: int = 0) -> Hand:
        """``imagine_hand(view, holdings, kitty)``, the same state."""
        base = self.base
        if base is None:
            base = self.base = imagine_hand(self.view, holdings, 0)
        hand = base.copy()
        hand.dealt = tuple(holdings)
        hand._hands = list(holdings)
        hand.kitty = kitty
        taker = hand.kitty_taker
        if taker is not None:
            hand._taken[taker] = base._taken[taker] | kitty
        if hand.phase is not Phase.PASSING:
            hand._must_lead = _must_lead(self.view, holdings)
        return hand
