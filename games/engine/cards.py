"""Cards and their two-character notation.

A card is a small immutable value. Its ``index`` (0-51) orders the pack by suit (clubs,
diamonds, hearts, spades) and then by rank (2 up to the ace); sets of cards are also handled as
bit masks of those indexes where speed matters.

>>> Card.parse("QS")
Card('QS')
>>> str(Card.parse("th")), Card.parse("TH").display
('TH', '10♥')
>>> Card.parse("QS").points
13
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from .errors import InvalidCardError

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_NAMES: Final = (
    *("two", "three", "four", "five", "six", "seven", "eight"),
    *("nine", "ten", "jack", "queen", "king", "ace"),
)


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def plural(self) -> str:
        return self.name.lower()


_SUITS = tuple(Suit)  # by index: cheaper than building the enum member each time


class Card:
    """One playing card. Equal cards are the same object (see :data:`ALL_CARDS`)."""

    __slots__ = ("index",)
    index: int

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise InvalidCardError(f"There is no card number {index}")
        if index < len(_MADE):
            return _MADE[index]
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        _MADE.append(card)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))

    @classmethod
    def parse(cls, notation: object) -> Card:
        """Read two-character notation, rank then suit; case does not matter."""
        if not isinstance(notation, str) or len(notation) != 2:
            raise InvalidCardError(f"{notation!r} is not a card: use two characters like 'QS'")
        rank, suit = RANK_CHARS.find(notation[0].upper()), SUIT_CHARS.find(notation[1].upper())
        if rank < 0 or suit < 0:
            raise InvalidCardError(
                f"{notation!r} is not a card: rank is one of {RANK_CHARS}, suit one of {SUIT_CHARS}"
            )
        return ALL_CARDS[suit * 13 + rank]

    @property
    def suit(self) -> Suit:
        return _SUITS[self.index // 13]

    @property
    def rank(self) -> int:
        """2 for a two up to 14 for an ace."""
        return self.index % 13 + 2

    @property
    def points(self) -> int:
        """Penalty points: one for a heart, thirteen for the queen of spades (:func:`points_of`)."""
        return points_of(1 << self.index)

    @property
    def display(self) -> str:
        """Rank and suit symbol for people: ``Q♠``, ``10♥``."""
        rank = "10" if self.index % 13 == 8 else RANK_CHARS[self.index % 13]
        return rank + SUIT_SYMBOLS[self.index // 13]

    @property
    def name(self) -> str:
        """Words for screen readers: ``queen of spades``."""
        return f"{RANK_NAMES[self.index % 13]} of {self.suit.plural}"

    def __str__(self) -> str:
        return RANK_CHARS[self.index % 13] + SUIT_CHARS[self.index // 13]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


_MADE: list[Card] = []  # every card is made once, here, so equal cards are one object
ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))

QS_INDEX: Final = 3 * 13 + 10
JD_INDEX: Final = 1 * 13 + 9
QS_BIT: Final = 1 << QS_INDEX
JD_BIT: Final = 1 << JD_INDEX
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
HEARTS_MASK: Final = SUIT_MASKS[Suit.HEARTS]
PENALTY_MASK: Final = HEARTS_MASK | QS_BIT
FULL_MASK: Final = (1 << 52) - 1


def parse_cards(notation: str | Iterable[str | Card]) -> list[Card]:
    """Read several cards: ``"2C QS TH"`` (spaces or commas) or an iterable of cards/strings."""
    items = notation.replace(",", " ").split() if isinstance(notation, str) else notation
    return [item if isinstance(item, Card) else Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    """The notation of several cards, separated by spaces: ``"2C QS TH"``."""
    return " ".join(str(card) for card in cards)


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


# The cards of every byte of a mask, by byte position: cards_of joins seven lookups.
_BYTE_CARDS: Final = tuple(
    tuple(
        tuple(ALL_CARDS[8 * pos + b] for b in range(8) if value >> b & 1 and 8 * pos + b < 52)
        for value in range(256)
    )
    for pos in range(7)
)


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, in pack order."""
    t = _BYTE_CARDS
    return list(
        t[0][mask & 255]
        + t[1][mask >> 8 & 255]
        + t[2][mask >> 16 & 255]
        + t[3][mask >> 24 & 255]
        + t[4][mask >> 32 & 255]
        + t[5][mask >> 40 & 255]
        + t[6][mask >> 48 & 15]
    )


def iter_indexes(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_HEARTS_SHIFT: Final = 13 * Suit.HEARTS
_COUNTS: Final = tuple(bin(value).count("1") for value in range(1 << 13))  # cards in 13 bits


def points_of(mask: int) -> int:
    """Penalty points in a set of cards (a mask): one for each heart, thirteen for the Q♠. The
    one place that says what a card costs; the J♦ option is scored on top (see
    :func:`~games.engine.hand.jack_points`).

    >>> points_of(mask_of(parse_cards("2H AH QS JD")))
    15
    """
    # The hearts' count from a table, not int.bit_count: the compiled build calls the latter as
    # a Python method, and a play-out asks this at every trick.
    return _COUNTS[mask >> _HEARTS_SHIFT & 0x1FFF] + (13 if mask & QS_BIT else 0)
