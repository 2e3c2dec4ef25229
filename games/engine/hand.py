"""One hand: the pass, thirteen tricks (fewer or more with other table sizes) and the score.

>>> from games.engine import Hand, Rules, parse_cards
>>> hand = Hand(
...     Rules(),
...     4,
...     [  # hand 4 holds the cards: no pass
...         parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
...         parse_cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
...         parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
...         parse_cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
...     ],
... )
>>> hand.turn, hand.legal_plays(0)
(0, [Card('2C')])
>>> hand.why_not(0, Card.parse("AC"))
'The first lead must be the 2♣'
>>> events = hand.play(0, "2C")
>>> hand.turn, hand.why_not(1, Card.parse("QD"))
(1, None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Any, NamedTuple, NoReturn

# The hand works on bit masks of cards (one bit a card, as cards.py lays them out), and turns
# them into Card objects only at its edges.
from .cards import ALL_CARDS, HEARTS_MASK, JD_BIT, PENALTY_MASK, QS_BIT, SUIT_MASKS

# isort: split
from .cards import Card, Suit, cards_of, format_cards, mask_of, parse_cards, points_of
from .deal import deal_masks
from .errors import (
    IllegalMoveError,
    InvalidPassError,
    NotYourTurnError,
    RecordError,
    WrongPhaseError,
)
from .events import (
    CardPlayed,
    Event,
    HandScored,
    HeartsBroken,
    KittyTaken,
    MoonChoiceAsked,
    MoonShot,
    PassesExchanged,
    PassMade,
    TrickTaken,
)
from .refusals import Refusal
from .rules import (
    JACK_OF_DIAMONDS_BONUS,
    PASS_SIZE,
    FirstLead,
    MoonRule,
    Rules,
    pass_direction_name,
)

_new = tuple.__new__


class Chooser:
    """Whoever chooses the cards of :meth:`Hand.play_on`: a class, not a callable, so that the
    compiled build calls its :meth:`pick` directly, without boxing its arguments. A chooser
    defined outside the build (a test's) is a function in a :class:`ChooseBy`."""

    def pick(self, trick: list[int], seat: int, legal: int, taken: list[int]) -> int:
        """The index of the card ``seat`` plays: ``trick`` holds the card indexes of the trick
        so far, ``legal`` is the mask of its legal cards and ``taken`` the mask of the cards
        each seat has taken."""
        raise NotImplementedError


class ChooseBy(Chooser):
    """A chooser that asks ``function(trick, seat, legal, taken)``, as :meth:`Chooser.pick`."""

    def __init__(self, function: Callable[[list[int], int, int, list[int]], int]) -> None:
        self.function = function

    def pick(self, trick: list[int], seat: int, legal: int, taken: list[int]) -> int:
        return self.function(trick, seat, legal, taken)


class Phase(StrEnum):
    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon_choice"  # the shooter decides how the moon scores
    OVER = "over"


class MoveKind(StrEnum):
    """What one entry of the move log is (its value is the string the log stores)."""

    PASS = "pass"  # three cards
    PLAY = "play"  # one card
    MOON = "moon"  # the shooter's choice of how the moon scores
    RESIGN = "resign"  # the game ends early against the seat (a Match's move, not a Hand's)


MOVE_KINDS = tuple(kind.value for kind in MoveKind)
MOON_CHOICES = (MoonRule.OTHERS.value, MoonRule.SELF.value)
# Enum members are slow to look up on their class (Python 3.11); the hot path uses these aliases.
_PLAYING = Phase.PLAYING
_PASS = MoveKind.PASS.value
_PLAY = MoveKind.PLAY.value
_ALONE = tuple((card,) for card in ALL_CARDS)


class Move(NamedTuple):
    """One entry of the move log.

    ``kind`` is ``pass`` (three cards), ``play`` (one card), ``moon`` (``choice`` is ``others``
    or ``self``) or ``resign`` (``choice`` says why: ``resigned``, ``left``, ``timed out``).
    ``timeout`` marks a pass or play that the table made for a seat whose time ran out.
    """

    kind: str
    seat: int
    cards: tuple[Card, ...] = ()
    choice: str = ""
    timeout: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.cards:
            data["cards"] = format_cards(self.cards)
        if self.choice:
            data["choice"] = self.choice
        if self.timeout:
            data["timeout"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> Move:
        try:
            kind, seat = data["kind"], data["seat"]
            cards = tuple(parse_cards(data.get("cards", "")))
            choice, timeout = data.get("choice", ""), data.get("timeout", False)
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise RecordError(f"Not a move: {data!r}") from error
        if kind not in MOVE_KINDS or not isinstance(seat, int):
            raise RecordError(f"Not a move: {data!r}")
        if not isinstance(choice, str) or not isinstance(timeout, bool):
            raise RecordError(f"Not a move: {data!r}")
        return cls(kind, seat, cards, choice, timeout)


class Trick(NamedTuple):
    leader: int
    cards: tuple[Card, ...]  # in the order played, from the leader round
    winner: int
    points: int  # penalty points in the trick's cards

    def seat_of(self, position: int, players: int) -> int:
        return (self.leader + position) % players


def legal_from(
    hand: int,
    trick: list[int],
    *,
    first: bool,
    hearts_broken: bool,
    old_queen: bool,
    must_lead: int = -1,
) -> int:
    """The cards of ``hand`` (a mask) that may be played onto ``trick`` (card indexes so far):
    the rule behind :meth:`Hand.legal_mask`, for whoever reasons about hands they imagine.

    ``first`` says the first trick is protected (no points on it unless the hand has nothing
    else); ``must_lead`` is the card the first lead must be, or -1.
    """
    if not trick:
        if must_lead >= 0:
            legal = 1 << must_lead
        elif not hearts_broken and hand & ~HEARTS_MASK:
            legal = hand & ~HEARTS_MASK
        else:
            legal = hand
    elif hand & SUIT_MASKS[trick[0] // 13]:
        legal = hand & SUIT_MASKS[trick[0] // 13]
    elif old_queen and hand & QS_BIT:
        # The queen must go now, unless the first trick is protected and she need not.
        legal = QS_BIT if not first or not hand & ~PENALTY_MASK else hand
    else:
        legal = hand
    if first and legal & ~PENALTY_MASK:
        legal &= ~PENALTY_MASK
    return legal


def _remove(hands: list[int], cards: int) -> None:
    """Takes ``cards`` out of every one of ``hands``."""
    for seat in range(len(hands)):
        hands[seat] &= ~cards


def winning_position(trick: list[int]) -> int:
    """The position in ``trick`` (card indexes in the order played, from the lead) of the card
    that takes it, or would if it ended now: the highest card of the suit led.

    >>> winning_position([Card.parse(c).index for c in ("5D", "QD", "AS", "9D")])
    1
    """
    first = trick[0]
    # The suit led holds the indexes from its two up to ``top``, one past its ace.
    top, best, position = first - first % 13 + 13, first, 0
    for i, card in enumerate(trick):
        if best < card < top:
            best, position = card, i
    return position


def trick_winner(trick: list[int], leader: int, players: int) -> int:
    """The seat that takes ``trick`` (card indexes, the first led by seat ``leader``), or would
    if it ended now.

    >>> trick_winner([Card.parse(c).index for c in ("5D", "QD", "AS", "9D")], 3, 4)
    0
    """
    return (leader + winning_position(trick)) % players


def trick_points(trick: list[int]) -> int:
    """The penalty points in the cards of ``trick`` (card indexes): see :func:`points_of`.

    >>> trick_points([Card.parse(c).index for c in ("5H", "QS", "AS", "9H")])
    15
    """
    mask = 0
    for card in trick:
        mask |= 1 << card
    return points_of(mask)


def hearts_breakers(rules: Rules) -> int:
    """The cards whose play breaks hearts, as a mask: every heart, and the Q♠ too where the
    rules say she breaks them.

    >>> cards_of(hearts_breakers(Rules(queen_breaks_hearts=True)) & ~HEARTS_MASK)
    [Card('QS')]
    >>> hearts_breakers(Rules()) == HEARTS_MASK
    True
    """
    return HEARTS_MASK | QS_BIT if rules.queen_breaks_hearts else HEARTS_MASK


def is_sun(rules: Rules, tricks_won: int) -> bool:
    """Whether a moon shot by a seat that won ``tricks_won`` tricks is the sun: every trick,
    where the rules score the sun.

    >>> is_sun(Rules(shoot_the_sun=True), 13), is_sun(Rules(shoot_the_sun=True), 12)
    (True, False)
    >>> is_sun(Rules(), 13)
    False
    """
    return rules.shoot_the_sun and tricks_won == rules.hand_size


def moon_points(rules: Rules, rule: MoonRule, shooter: int, sun: bool = False) -> list[int]:
    """Each seat's points for a moon shot by seat ``shooter``, scored by ``rule``: the moon's
    value (:func:`moon_value`, 26) to every other seat (``OTHERS``) or off the shooter
    (``SELF``); twice that for the sun. The J♦ comes on top (:func:`jack_points`). ``CHOOSE``
    and ``AUTOMATIC`` are decided first, by the shooter or by the totals, so they are a
    ``ValueError`` here.

    >>> moon_points(Rules(), MoonRule.OTHERS, 1)
    [26, 0, 26, 26]
    >>> moon_points(Rules(players=3), MoonRule.SELF, 0, sun=True)
    [-52, 0, 0]
    """
    if rule is not MoonRule.OTHERS and rule is not MoonRule.SELF:
        raise ValueError(f"A moon is scored for the others or the shooter, not {rule.value!r}")
    amount = moon_value(rules, sun)
    if rule is MoonRule.SELF:
        return [-amount if seat == shooter else 0 for seat in range(rules.players)]
    return [0 if seat == shooter else amount for seat in range(rules.players)]


def jack_points(rules: Rules, taken: int) -> int:
    """What the J♦ adds to the points of a seat that took the cards of ``taken`` (a mask):
    -10 if it is among them and the rules count it, else 0.

    >>> jack_points(Rules(jack_of_diamonds=True), mask_of(parse_cards("JD QS")))
    -10
    >>> jack_points(Rules(), mask_of(parse_cards("JD QS")))
    0
    """
    return -JACK_OF_DIAMONDS_BONUS if rules.jack_of_diamonds and taken & JD_BIT else 0


def points_in_play(rules: Rules) -> int:
    """The penalty points in play in one hand: what a moon gives away (26 with a full pack).

    >>> points_in_play(Rules()), points_in_play(Rules(players=6))
    (26, 26)
    """
    return points_of(mask_of(rules.deck))


def moon_value(rules: Rules, sun: bool = False) -> int:
    """What a moon scores (a sun twice that): the most one seat can be given by one.

    >>> moon_value(Rules()), moon_value(Rules(shoot_the_sun=True), sun=True)
    (26, 52)
    """
    return 2 * points_in_play(rules) if sun else points_in_play(rules)


def moon_open(taken: Sequence[int]) -> bool:
    """Whether a moon is still possible, from the points each seat has taken in the hand so
    far: nobody but (at most) one seat has taken a point.

    >>> moon_open([0, 0, 0, 0]), moon_open([0, 5, 0, 0]), moon_open([1, 5, 0, 0])
    (True, True, False)
    """
    return sum(1 for points in taken if points) <= 1


def moon_candidate(taken: Sequence[int]) -> int | None:
    """The seat that may be shooting the moon: the only one that has taken points so far in
    the hand (``taken``, each seat's), or ``None`` when nobody or several have.

    >>> moon_candidate([0, 5, 0, 0]), moon_candidate([0, 0, 0, 0]), moon_candidate([1, 5, 0, 0])
    (1, None, None)
    """
    takers = [seat for seat, points in enumerate(taken) if points]
    return takers[0] if len(takers) == 1 else None


class Hand:
    """The state of one hand. Ask (``legal_plays``, ``why_not``) before acting; every action
    returns the events it caused or raises an :class:`IllegalMoveError` and changes nothing.

    ``totals`` are the running totals before this hand: the automatic moon rule needs them.
    """

    __slots__ = (
        "_breakers", "_done", "_hands", "_legal", "_must_lead", "_passes", "_protect_first",
        "_taken", "_won", "dealer", "dealt", "direction", "hearts_broken", "kitty",
        "kitty_taker", "leader", "moves", "number", "pass_offset", "phase", "players",
        "points", "rules", "shooter", "sun", "totals_before", "trick", "tricks",
        "tricks_per_hand", "turn",
    )  # fmt: skip

    def __init__(
        self,
        rules: Rules,
        number: int,
        hands: Sequence[Iterable[Card | str]],
        kitty: Iterable[Card | str] = (),
        totals: Sequence[int] | None = None,
    ) -> None:
        if not hands:  # a blank that masked_hand or copy fills in: no table deals no hands
            return
        dealt = [parse_cards(cards) for cards in hands]
        masks = [mask_of(cards) for cards in dealt]
        kitty_mask = mask_of(parse_cards(kitty))
        _check_deal(rules, number, dealt, masks, kitty_mask, totals)
        self._setup(rules, number, masks, kitty_mask, totals)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: bytes,
        number: int,
        added_seeds: Sequence[str] = (),
        totals: Sequence[int] | None = None,
    ) -> Hand:
        """Hand ``number`` (from 1) dealt from the game's seed (see docs/fairness.md)."""
        masks, kitty = deal_masks(rules, seed, number, added_seeds)
        return masked_hand(rules, number, masks, kitty, totals)

    def _setup(
        self,
        rules: Rules,
        number: int,
        masks: list[int],
        kitty: int,
        totals: Sequence[int] | None,
    ) -> None:
        n = rules.players
        self.rules = rules
        self.number = number
        self.players = n
        self.dealer = rules.dealer(number)
        self.pass_offset = rules.pass_offset(number)
        self.direction = pass_direction_name(self.pass_offset, n)
        self.totals_before = tuple(totals) if totals is not None else (0,) * n
        self.dealt = tuple(masks)
        self.kitty = kitty
        self.tricks_per_hand = rules.hand_size
        self.moves: list[Move] = []
        self._hands = list(masks)
        self._passes = [0] * n
        self._taken = [0] * n
        self._won = [0] * n
        self.trick: list[int] = []  # card indexes of the trick in progress
        self.tricks: list[Trick] = []
        self._done = 0  # tricks taken in the hand, those play_on played out included
        self.leader = self.turn = -1
        self.hearts_broken = False
        self.kitty_taker: int | None = None
        self.shooter: int | None = None
        self.sun = False
        self.points: tuple[int, ...] | None = None
        self._must_lead = -1
        self._legal = -1  # the legal mask of the seat to play, once asked; -1 when unknown
        self._protect_first = not rules.points_on_first_trick
        self._breakers = hearts_breakers(rules)
        self.phase = Phase.PASSING
        if self.pass_offset == 0:
            self._start_play()

    def copy(self) -> Hand:
        """An independent copy of the state, for simulations (the move log is shared)."""
        # Field by field rather than a loop over __slots__: the compiled build (see
        # games/compiled.py) has no slots to loop over, and this is a play-out's first step.
        other = Hand(self.rules, self.number, ())
        other.rules = self.rules
        other.number = self.number
        other.players = self.players
        other.dealer = self.dealer
        other.pass_offset = self.pass_offset
        other.direction = self.direction
        other.totals_before = self.totals_before
        other.dealt = self.dealt
        other.kitty = self.kitty
        other.tricks_per_hand = self.tricks_per_hand
        other.leader = self.leader
        other.turn = self.turn
        other.hearts_broken = self.hearts_broken
        other.kitty_taker = self.kitty_taker
        other.shooter = self.shooter
        other.sun = self.sun
        other.points = self.points
        other._must_lead = self._must_lead
        other._legal = self._legal
        other._protect_first = self._protect_first
        other._breakers = self._breakers
        other.phase = self.phase
        other._hands = list(self._hands)
        other._passes = list(self._passes)
        other._taken = list(self._taken)
        other._won = list(self._won)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other._done = self._done
        other.moves = []
        return other

    # Questions -------------------------------------------------------------------------

    def holding(self, seat: int) -> list[Card]:
        """The cards in a seat's hand now, in pack order."""
        return cards_of(self._hands[seat])

    def passed(self, seat: int) -> list[Card] | None:
        """The three cards a seat chose to pass, once chosen."""
        return cards_of(self._passes[seat]) if self._passes[seat] else None

    def received(self, seat: int) -> list[Card] | None:
        """The cards passed to a seat, once the passes have been exchanged."""
        if self.pass_offset == 0 or self.phase is Phase.PASSING:
            return None
        return cards_of(self._passes[(seat - self.pass_offset) % self.players])

    def pass_target(self, seat: int) -> int:
        return (seat + self.pass_offset) % self.players

    def has_passed(self, seat: int) -> bool:
        return bool(self._passes[seat])

    def taken(self, seat: int) -> list[Card]:
        """Every card a seat has taken in tricks (and the kitty, if it took it)."""
        return cards_of(self._taken[seat])

    @property
    def taken_masks(self) -> tuple[int, ...]:
        """:meth:`taken` for every seat, as bit masks of card indexes (for bots and
        simulations; a copy, so that nobody outside the hand changes what it counts)."""
        return tuple(self._taken)

    def tricks_won(self, seat: int) -> int:
        return self._won[seat]

    def penalty_points(self) -> tuple[int, ...]:
        """Hearts and the queen each seat has taken so far, before any moon or jack."""
        return tuple(points_of(mask) for mask in self._taken)

    def seat_of_card_in_trick(self, position: int) -> int:
        return (self.leader + position) % self.players

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """(seat, card) for each card of the trick in progress."""
        return [(self.seat_of_card_in_trick(i), ALL_CARDS[c]) for i, c in enumerate(self.trick)]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def cards_played(self) -> int:
        return self._done * self.players + len(self.trick)

    def legal_plays(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now: empty unless it is that seat's turn to play."""
        if self.phase is not Phase.PLAYING or seat != self.turn:
            return []
        return cards_of(self.legal_mask(seat))

    def legal_mask(self, seat: int) -> int:
        """:meth:`legal_plays` as a bit mask of card indexes (for bots and simulations)."""
        if seat != self.turn or self.phase is not _PLAYING:
            return 0
        if self._legal >= 0:
            return self._legal
        legal = legal_from(
            self._hands[seat],
            self.trick,
            first=self._protect_first and not self._done,
            hearts_broken=self.hearts_broken,
            old_queen=self.rules.old_queen,
            must_lead=self._must_lead,
        )
        self._legal = legal
        return legal

    def is_legal(self, seat: int, card: Card) -> bool:
        return self.why_not(seat, card) is None

    def why_not(self, seat: int, card: Card) -> str | None:
        """``None`` if ``seat`` may play ``card`` now, else the reason in plain words."""
        refusal = self.refusal(seat, card)
        if refusal is None:
            return None
        if refusal is Refusal.NOT_HELD:
            return refusal.words(card=card)
        if refusal is Refusal.FIRST_LEAD:
            return refusal.words(card=ALL_CARDS[self._must_lead])
        if refusal is Refusal.FOLLOW_SUIT:
            return refusal.words(suit=Suit(self.trick[0] // 13))
        return refusal.words()

    def refusal(self, seat: int, card: Card) -> Refusal | None:
        """``None`` if ``seat`` may play ``card`` now, else why not: :meth:`why_not`'s code."""
        if self.phase is Phase.PASSING:
            return Refusal.PASSING
        if self.phase is not Phase.PLAYING:
            return Refusal.HAND_OVER
        if seat != self.turn:
            return Refusal.NOT_YOUR_TURN
        bit = 1 << card.index
        hand = self._hands[seat]
        if not hand & bit:
            return Refusal.NOT_HELD
        legal = self.legal_mask(seat)
        if legal & bit:
            return None
        if not self.trick:
            if self._must_lead >= 0:
                return Refusal.FIRST_LEAD
            if bit & HEARTS_MASK and not self.hearts_broken:
                return Refusal.HEARTS_NOT_BROKEN
            return Refusal.FIRST_TRICK
        led = Suit(self.trick[0] // 13)
        if hand & SUIT_MASKS[led] and card.suit is not led:
            return Refusal.FOLLOW_SUIT
        if legal == QS_BIT:
            return Refusal.OLD_QUEEN
        return Refusal.FIRST_TRICK

    def reasons(self, seat: int) -> dict[Card, str]:
        """For every card in the seat's hand that cannot be played now, why not."""
        reasons = {}
        for card in self.holding(seat):
            reason = self.why_not(seat, card)
            if reason is not None:
                reasons[card] = reason
        return reasons

    # Actions ---------------------------------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        """Carry out one logged move (``pass``, ``play`` or ``moon``)."""
        if move.kind == MoveKind.PASS:
            return self.pass_cards(move.seat, move.cards, timeout=move.timeout)
        if move.kind == MoveKind.PLAY and len(move.cards) == 1:
            return self.play(move.seat, move.cards[0], timeout=move.timeout)
        if move.kind == MoveKind.MOON:
            return self.choose_moon(move.seat, move.choice, timeout=move.timeout)
        raise RecordError(f"A hand cannot apply {move!r}")

    def pass_cards(
        self, seat: int, cards: Iterable[Card | str], *, timeout: bool = False
    ) -> list[Event]:
        """Choose three cards to pass. Nothing changes hands until every seat has passed."""
        chosen = parse_cards(cards)
        mask = mask_of(chosen)
        if len(chosen) != PASS_SIZE or mask.bit_count() != PASS_SIZE:
            self._check_pass(seat)
            raise InvalidPassError(f"Choose exactly {PASS_SIZE} different cards to pass")
        self.pass_mask(seat, mask, timeout)
        if self.phase is Phase.PASSING:
            return [PassMade(seat)]
        return [PassMade(seat), PassesExchanged(self.direction)]

    def pass_mask(self, seat: int, mask: int, timeout: bool = False) -> None:
        """:meth:`pass_cards` by bit mask, without building events (for simulations)."""
        self._check_pass(seat)
        if mask.bit_count() != PASS_SIZE:
            raise InvalidPassError(f"Choose exactly {PASS_SIZE} different cards to pass")
        if mask & ~self._hands[seat]:
            raise InvalidPassError("You can only pass cards from your own hand")
        self._passes[seat] = mask
        self.moves.append(_new(Move, (_PASS, seat, tuple(cards_of(mask)), "", timeout)))
        if all(self._passes):
            self._exchange()

    def _check_pass(self, seat: int) -> None:
        self._check_seat(seat)
        if self.phase is not Phase.PASSING:
            raise WrongPhaseError("This is not the time to pass cards")
        if self._passes[seat]:
            raise InvalidPassError("You have already passed")

    def holding_mask(self, seat: int) -> int:
        """:meth:`holding` as a bit mask of card indexes."""
        return self._hands[seat]

    def _exchange(self) -> None:
        n, hands = self.players, self._hands
        for seat, mask in enumerate(self._passes):
            hands[seat] &= ~mask
        for seat, mask in enumerate(self._passes):
            hands[(seat + self.pass_offset) % n] |= mask
        self._start_play()

    def _start_play(self) -> None:
        self.phase = Phase.PLAYING
        if self.rules.first_lead is FirstLead.LOWEST_CLUB:
            clubs = 0
            for mask in self._hands:
                clubs |= mask & SUIT_MASKS[Suit.CLUBS]
            low = clubs & -clubs
            self._must_lead = low.bit_length() - 1
            self.leader = next((s for s, mask in enumerate(self._hands) if mask & low), -1)
        if self.leader < 0 or self.rules.first_lead is not FirstLead.LOWEST_CLUB:
            # Also for an imagined hand with no clubs left (see view.imagine_hand).
            self._must_lead = -1
            self.leader = (self.dealer + 1) % self.players
        self.turn = self.leader

    def play(self, seat: int, card: Card | str, *, timeout: bool = False) -> list[Event]:
        """Play one card to the trick; returns what happened."""
        if card.__class__ is not Card:
            card = Card.parse(card)
        assert isinstance(card, Card)
        hearts_broken, tricks, kitty_taker = self.hearts_broken, len(self.tricks), self.kitty_taker
        self.play_index(seat, card.index, timeout)
        events: list[Event] = [CardPlayed(seat, card)]
        if self.hearts_broken and not hearts_broken:
            events.append(HeartsBroken(seat))
        if len(self.tricks) > tricks:
            trick = self.tricks[-1]
            events.append(TrickTaken(trick.winner, trick.cards, trick.points))
            if self.kitty_taker is not None and kitty_taker is None:
                events.append(KittyTaken(self.kitty_taker))
            if self.shooter is not None:
                events.append(MoonShot(self.shooter, self.sun))
            if self.phase is Phase.MOON_CHOICE:
                events.append(MoonChoiceAsked(self.turn))
            elif self.points is not None:
                events.append(HandScored(self.number, self.points))
        return events

    def play_index(self, seat: int, index: int, timeout: bool = False) -> None:
        """:meth:`play` by card index, without building events: the path simulations use.

        It checks the move exactly as :meth:`play` does.
        """
        bit = 1 << index
        legal = self._legal
        if legal < 0 or seat != self.turn:
            legal = self.legal_mask(seat)
        if not bit & legal:
            self._reject(seat, index)
        self._hands[seat] ^= bit
        self._must_lead = self._legal = -1
        # tuple.__new__ skips NamedTuple's slower Python-level constructor on this hot path.
        self.moves.append(_new(Move, (_PLAY, seat, _ALONE[index], "", timeout)))
        trick = self.trick
        trick.append(index)
        if not self.hearts_broken and bit & self._breakers:
            self.hearts_broken = True
        if len(trick) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self._take_trick()

    def play_on(self, choose: Chooser, stop: int = -1) -> None:
        """Plays on until seat ``stop`` is to play or the play is over, each card the one
        ``choose.pick(trick, seat, legal, taken)`` names: the card indexes of the trick so far, the
        seat to play, the mask of its legal cards, and the mask of the cards each seat has
        taken. The path of simulations: each card is checked as :meth:`play_index` checks it,
        but no move is logged and no trick recorded (:attr:`tricks` keeps those before; the
        cards taken, the turn and the score follow the play), so the hand is a copy to play
        out and throw away."""
        if self.phase is not _PLAYING:
            return
        hands, taken, players = self._hands, self._taken, self.players
        old_queen, breakers = self.rules.old_queen, self._breakers
        # The cards played here, as one mask: each seat's hand is what it held less these, and
        # is written back once, as play stops. A list of masks changed card by card would box
        # a new int object at every card (in the compiled build; a mask stays a machine word).
        played = 0
        while True:
            trick, seat, first = self.trick, self.turn, self._protect_first and not self._done
            broken, must_lead = self.hearts_broken, self._must_lead
            while seat != stop:
                held = hands[seat] & ~played
                follow = held & SUIT_MASKS[trick[0] // 13] if trick else 0
                if follow and not first:
                    legal = follow
                else:
                    legal = legal_from(
                        held,
                        trick,
                        first=first,
                        hearts_broken=broken,
                        old_queen=old_queen,
                        must_lead=must_lead,
                    )
                index = choose.pick(trick, seat, legal, taken)
                bit = 1 << index
                if not bit & legal:
                    self.turn, self.hearts_broken = seat, broken
                    _remove(hands, played)
                    self._reject(seat, index)
                played |= bit
                must_lead = -1
                trick.append(index)
                if not broken and bit & breakers:
                    broken = True
                if len(trick) == players:
                    break
                seat = (seat + 1) % players
            self.turn, self.hearts_broken = seat, broken
            self._must_lead, self._legal = must_lead, -1
            if len(trick) < players:  # stopped at seat ``stop``
                _remove(hands, played)
                return
            self._gather()
            trick.clear()
            if self._done == self.tricks_per_hand:
                _remove(hands, played)
                self._score()
                return

    def _reject(self, seat: int, index: int) -> NoReturn:
        self._check_seat(seat)
        reason = self.why_not(seat, ALL_CARDS[index]) or ""
        if self.phase is not Phase.PLAYING:
            raise WrongPhaseError(reason)
        raise (NotYourTurnError if seat != self.turn else IllegalMoveError)(reason)

    def _take_trick(self) -> None:
        """The trick in play goes to its taker, and into the record."""
        trick, leader = self.trick, self.leader
        winner, mask = self._gather()
        cards = tuple([ALL_CARDS[card] for card in trick])
        self.tricks.append(_new(Trick, (leader, cards, winner, points_of(mask))))
        self.trick = []
        if self._done == self.tricks_per_hand:
            self._score()

    def _gather(self) -> tuple[int, int]:
        """The full trick's cards go to its taker, who leads next: the taker, and the cards' mask.
        The trick stays as it is, for the caller to record or not."""
        trick = self.trick
        winner = trick_winner(trick, self.leader, self.players)
        mask = 0
        for card in trick:
            mask |= 1 << card
        self._taken[winner] |= mask
        self._won[winner] += 1
        if self.kitty and self.kitty_taker is None and mask & PENALTY_MASK:
            # The kitty goes, face down, to the first trick that holds a penalty card.
            self.kitty_taker = winner
            self._taken[winner] |= self.kitty
        self._done += 1
        self.leader = self.turn = winner
        return winner, mask

    def _score(self) -> None:
        self.turn = -1
        raw = [points_of(mask) for mask in self._taken]
        all_points = points_of(PENALTY_MASK)
        if all_points not in raw:
            self._finish(raw)
            return
        shooter = self.shooter = raw.index(all_points)
        self.sun = is_sun(self.rules, self._won[shooter])
        rule = self.rules.moon
        if rule is MoonRule.CHOOSE:
            self.phase = Phase.MOON_CHOICE
            self.turn = shooter
            return
        if rule is MoonRule.AUTOMATIC:
            rule = MoonRule.SELF if self._shooter_would_trail() else MoonRule.OTHERS
        self._finish(self._moon_points(rule))

    def _moon_points(self, rule: MoonRule) -> list[int]:
        assert self.shooter is not None
        return moon_points(self.rules, rule, self.shooter, self.sun)

    def _shooter_would_trail(self) -> bool:
        """Automatic moon: would giving the points away end the match with the shooter behind?"""
        points = self._with_jack(self._moon_points(MoonRule.OTHERS))
        totals = [before + p for before, p in zip(self.totals_before, points, strict=True)]
        shooter_total = totals[self.shooter] if self.shooter is not None else 0
        return max(totals) >= self.rules.target and shooter_total > min(totals)

    def _with_jack(self, points: list[int]) -> list[int]:
        rules = self.rules
        if not rules.jack_of_diamonds:  # most tables: a play-out's score without a zip
            return points
        return [p + jack_points(rules, mask) for p, mask in zip(points, self._taken, strict=True)]

    def _finish(self, points: list[int]) -> None:
        self.points = tuple(self._with_jack(points))
        self.phase = Phase.OVER
        self.turn = -1

    def choose_moon(self, seat: int, choice: str, timeout: bool = False) -> list[Event]:
        """The shooter's choice: ``"others"`` (everybody else +26) or ``"self"`` (-26)."""
        self._check_seat(seat)
        if self.phase is not Phase.MOON_CHOICE:
            raise WrongPhaseError("There is no moon to score")
        if seat != self.shooter:
            raise NotYourTurnError("Only the player who shot the moon chooses how it scores")
        if choice not in MOON_CHOICES:
            raise IllegalMoveError(
                "Choose 'others' (they take the points) or 'self' (you lose them)"
            )
        self.moves.append(Move(MoveKind.MOON.value, seat, choice=choice, timeout=timeout))
        self._finish(self._moon_points(MoonRule(choice)))
        assert self.points is not None
        return [HandScored(self.number, self.points)]

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMoveError(f"There is no seat {seat!r} at this table")

    # Records ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The deal and the moves: enough to rebuild this exact state with :meth:`from_json`."""
        return {
            "rules": self.rules.to_json(),
            "number": self.number,
            "dealt": [format_cards(cards_of(mask)) for mask in self.dealt],
            "kitty": format_cards(cards_of(self.kitty)),
            "totals": list(self.totals_before),
            "moves": [move.to_json() for move in self.moves],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hand:
        """Deal the recorded cards and replay the recorded moves."""
        try:
            rules = Rules.from_json(data["rules"])
            dealt = [parse_cards(cards) for cards in data["dealt"]]
            hand = cls(rules, data["number"], dealt, parse_cards(data["kitty"]), data["totals"])
            moves = [Move.from_json(move) for move in data["moves"]]
        except (KeyError, TypeError) as error:
            raise RecordError(f"Not a hand record: {error}") from error
        for move in moves:
            hand.apply(move)
        return hand

    def to_state(self, *, moves: bool = True) -> dict[str, Any]:
        """The whole state in JSON values (cards as bit masks), for :meth:`from_state` to
        restore without replaying a move: the part of a match's snapshot that is one hand.
        Without ``moves`` the restored hand's move log is empty (and the rest the same)."""
        return {
            "number": self.number,
            "totals": list(self.totals_before),
            "dealt": list(self.dealt),
            "kitty": self.kitty,
            "phase": self.phase.value,
            "hands": list(self._hands),
            "passes": list(self._passes),
            "taken": list(self._taken),
            "won": list(self._won),
            "trick": list(self.trick),
            "tricks": [
                [t.leader, [card.index for card in t.cards], t.winner, t.points]
                for t in self.tricks
            ],
            "leader": self.leader,
            "turn": self.turn,
            "must_lead": self._must_lead,
            "hearts_broken": self.hearts_broken,
            "kitty_taker": self.kitty_taker,
            "shooter": self.shooter,
            "sun": self.sun,
            "points": None if self.points is None else list(self.points),
            "moves": [move.to_json() for move in self.moves] if moves else [],
        }

    @classmethod
    def from_state(cls, rules: Rules, data: dict[str, Any]) -> Hand:
        """The hand :meth:`to_state` saved (a :class:`RecordError` for anything else)."""
        try:
            dealt = [int(mask) for mask in data["dealt"]]
            hand = masked_hand(
                rules, int(data["number"]), dealt, int(data["kitty"]), data["totals"]
            )
            hand.phase = Phase(data["phase"])
            hand._hands = [int(mask) for mask in data["hands"]]
            hand._passes = [int(mask) for mask in data["passes"]]
            hand._taken = [int(mask) for mask in data["taken"]]
            hand._won = [int(count) for count in data["won"]]
            hand.trick = [int(index) for index in data["trick"]]
            hand.tricks = [
                Trick(
                    int(leader), tuple(ALL_CARDS[int(i)] for i in cards), int(winner), int(points)
                )
                for leader, cards, winner, points in data["tricks"]
            ]
            hand._done = len(hand.tricks)
            hand.leader, hand.turn = int(data["leader"]), int(data["turn"])
            hand._must_lead = int(data["must_lead"])
            hand.hearts_broken = bool(data["hearts_broken"])
            hand.kitty_taker = _seat_or_none(data["kitty_taker"])
            hand.shooter = _seat_or_none(data["shooter"])
            hand.sun = bool(data["sun"])
            points = data["points"]
            hand.points = None if points is None else tuple(int(p) for p in points)
            hand.moves = [Move.from_json(move) for move in data["moves"]]
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise RecordError(f"Not a hand's state: {error!r}") from error
        n = rules.players
        lists = (hand._hands, hand._passes, hand._taken, hand._won, hand.dealt)
        if any(len(values) != n for values in lists) or len(hand.totals_before) != n:
            raise RecordError("Not a hand's state: it is not one of these rules' tables")
        return hand

    def snapshot(self) -> dict[str, Any]:
        """Everything about the state, in plain values: equal snapshots, equal states."""
        return {
            "phase": self.phase.value,
            "hands": [format_cards(cards_of(mask)) for mask in self._hands],
            "passes": [format_cards(cards_of(mask)) for mask in self._passes],
            "trick": format_cards(ALL_CARDS[c] for c in self.trick),
            "tricks": [(t.leader, format_cards(t.cards), t.winner) for t in self.tricks],
            "taken": [format_cards(cards_of(mask)) for mask in self._taken],
            "turn": self.turn,
            "hearts_broken": self.hearts_broken,
            "kitty_taker": self.kitty_taker,
            "shooter": self.shooter,
            "points": self.points,
            "moves": [move.to_json() for move in self.moves],
        }


def masked_hand(
    rules: Rules, number: int, masks: list[int], kitty: int, totals: Sequence[int] | None
) -> Hand:
    """Hand ``number`` with these cards (masks, a seat's each, and the kitty's), unchecked: for
    a deal the engine made itself, or one a bot imagines."""
    hand = Hand(rules, number, ())
    hand._setup(rules, number, masks, kitty, totals)
    return hand


def _seat_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _check_deal(
    rules: Rules,
    number: int,
    dealt: list[list[Card]],
    masks: list[int],
    kitty: int,
    totals: Sequence[int] | None,
) -> None:
    n = rules.players
    if len(dealt) != n or (totals is not None and len(totals) != n):
        raise IllegalMoveError(f"A hand of {n} players needs {n} hands and {n} totals")
    if number < 1:
        raise IllegalMoveError("Hands are numbered from 1")
    if any(len(cards) != rules.hand_size for cards in dealt):
        raise IllegalMoveError(f"Each player holds {rules.hand_size} cards")
    union = kitty
    for mask, cards in zip(masks, dealt, strict=True):
        if union & mask or mask.bit_count() != len(cards):
            raise IllegalMoveError("A card was dealt twice")
        union |= mask
    if union != mask_of(rules.deck) or kitty.bit_count() != rules.kitty_size:
        raise IllegalMoveError("The cards dealt are not the pack these rules play with")
