"""The rules of Hearts, in pure Python: cards, options, the verifiable deal, hands and matches.

Nothing here knows about Django, the database or the network; the site, the bots, the
verification page and the tests all ask this package.

A worked example: a match under the Standard rules, dealt from a seed.

>>> from games.engine import Match, Rules, PRESETS, Card
>>> match = Match(PRESETS["standard"].rules, bytes.fromhex("00" * 32))
>>> hand = match.hand
>>> hand.number, hand.direction
(1, 'left')

Every seat passes three cards; nothing changes hands until the last pass is in.

>>> for seat in range(4):
...     events = match.pass_cards(seat, hand.holding(seat)[:3])
>>> events[-1]
PassesExchanged(direction='left')

Whoever holds the lowest club must lead it; the engine says why any other card is refused.

>>> leader = hand.turn
>>> hand.legal_plays(leader)
[Card('2C')]
>>> hand.why_not(leader, hand.holding(leader)[-1])
'The first lead must be the 2♣'
>>> match.play(leader, "2C")
[CardPlayed(seat=..., card=Card('2C'))]

Playing out of turn, or an illegal card, raises an ``IllegalMoveError`` (a ``ValueError``)
with the same words and changes nothing:

>>> match.play(leader, hand.holding(leader)[0])
Traceback (most recent call last):
...
games.engine.errors.NotYourTurnError: It is not your turn

The log of moves and the seed are the whole record:

>>> copy = Match.from_json(match.to_json())
>>> copy.snapshot() == match.snapshot()
True

What one seat may know, for the bot and the table page, is :func:`seat_view`.
"""

from games.compiled import package_path

# The compiled build of this package's hot modules, when it is up to date (games/compiled.py).
__path__ = package_path(__name__, __path__)

from .cards import (
    ALL_CARDS,
    Card,
    Suit,
    cards_of,
    format_cards,
    mask_of,
    parse_cards,
    points_of,
)
from .deal import Deal, deal_hand, deal_masks, fingerprint, new_seed, shuffle
from .errors import (
    HeartsError,
    IllegalMoveError,
    InvalidCardError,
    InvalidPassError,
    InvalidRulesError,
    MatchOverError,
    NotYourTurnError,
    RecordError,
    WrongPhaseError,
)
from .events import (
    CardPlayed,
    Event,
    HandDealt,
    HandScored,
    HeartsBroken,
    KittyTaken,
    MatchEnded,
    MoonChoiceAsked,
    MoonShot,
    PassesExchanged,
    PassMade,
    TrickTaken,
    event_to_json,
)
from .hand import (
    MOVE_KINDS,
    Hand,
    Move,
    MoveKind,
    Phase,
    Trick,
    hearts_breakers,
    is_sun,
    jack_points,
    legal_from,
    moon_candidate,
    moon_open,
    moon_points,
    moon_value,
    points_in_play,
    trick_points,
    trick_winner,
    winning_position,
)
from .match import (
    EARLY_ENDS,
    END_REASONS,
    EndReason,
    Match,
    Result,
    competition_ranks,
    is_win,
    places_for,
)
from .refusals import Refusal
from .rules import (
    CARD_SECONDS,
    PASS_SECONDS,
    PRESETS,
    Clock,
    FirstLead,
    MoonRule,
    Preset,
    Rules,
    ShortPack,
    TieRule,
    pass_direction_name,
)
from .view import (
    HandTaken,
    Imagining,
    LastTrick,
    SeatView,
    imagine_hand,
    last_trick,
    seat_view,
    taken_in_last_hand,
)

__all__ = [
    "ALL_CARDS",
    "CARD_SECONDS",
    "EARLY_ENDS",
    "END_REASONS",
    "MOVE_KINDS",
    "PASS_SECONDS",
    "PRESETS",
    "Card",
    "CardPlayed",
    "Clock",
    "Deal",
    "EndReason",
    "Event",
    "FirstLead",
    "Hand",
    "HandDealt",
    "HandScored",
    "HandTaken",
    "HeartsBroken",
    "HeartsError",
    "IllegalMoveError",
    "Imagining",
    "InvalidCardError",
    "InvalidPassError",
    "InvalidRulesError",
    "KittyTaken",
    "LastTrick",
    "Match",
    "MatchEnded",
    "MatchOverError",
    "MoonChoiceAsked",
    "MoonRule",
    "MoonShot",
    "Move",
    "MoveKind",
    "NotYourTurnError",
    "PassMade",
    "PassesExchanged",
    "Phase",
    "Preset",
    "RecordError",
    "Refusal",
    "Result",
    "Rules",
    "SeatView",
    "ShortPack",
    "Suit",
    "TieRule",
    "Trick",
    "TrickTaken",
    "WrongPhaseError",
    "cards_of",
    "competition_ranks",
    "deal_hand",
    "deal_masks",
    "event_to_json",
    "fingerprint",
    "format_cards",
    "hearts_breakers",
    "imagine_hand",
    "is_sun",
    "is_win",
    "jack_points",
    "last_trick",
    "legal_from",
    "mask_of",
    "moon_candidate",
    "moon_open",
    "moon_points",
    "moon_value",
    "new_seed",
    "parse_cards",
    "pass_direction_name",
    "places_for",
    "points_in_play",
    "points_of",
    "seat_view",
    "shuffle",
    "taken_in_last_hand",
    "trick_points",
    "trick_winner",
    "winning_position",
]
