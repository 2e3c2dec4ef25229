"""The words people read, in one place: a table's rules, the options' names, places, how a game
ended and its result.

Every sentence about the rules is built from the ``Rules`` values and the engine's constants, so
the words can never disagree with the game being played. Pages (the table, the lobby, the rules
pages) call :func:`describe` for the full list and :func:`summary` for one line; the create-table
form, the rules pages' table of differences, the game pages, the profile and the staff's pages
take their option names, ordinals and end reasons from here.

Each sentence is one message of the site's catalogs (locale/), with named placeholders, in the
language active when it is asked for: the functions translate when called, the module's tables
(option names, end reasons) are lazy and translate when shown. The engine has no Django and words
in English; its cards, suits, pass directions and refusals are put in the page's language here
(:func:`card_name`, :func:`card_as_object`, :func:`suit_name`, :func:`direction_words`,
:func:`refusal_text`).

>>> summary(Rules())
'4 players · to 100 · moon: others take 26'
>>> summary(Rules(jack_of_diamonds=True, target=50))
'4 players · to 50 · moon: others take 26 · jack of diamonds \N{MINUS SIGN}10'
>>> [line.option for line in describe(Rules())][:3]
['players', 'short_pack', 'pass']
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from django.utils.functional import lazy
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.engine import (
    ALL_CARDS,
    CARD_SECONDS,
    PASS_SECONDS,
    PRESETS,
    Card,
    Clock,
    EndReason,
    FirstLead,
    Hand,
    MoonRule,
    Move,
    MoveKind,
    Refusal,
    Rules,
    ShortPack,
    Suit,
    TieRule,
    moon_value,
    pass_direction_name,
    points_in_play,
)
from games.engine.rules import JACK_OF_DIAMONDS_BONUS as JACK_BONUS
from games.engine.rules import PASS_SIZE

QUEEN: Final = Card.parse("QS")
JACK: Final = Card.parse("JD")
_STANDARD: Final = Rules()
MINUS: Final = "\N{MINUS SIGN}"


def in_each_language(function: Callable[..., str]) -> Callable[..., str]:
    """``function``, whose words follow from its arguments and the active language alone, worked
    out once a process for each: the board's words a move (a seat's facts, a card's refusal) are
    asked for again and again, each time through the catalogs."""
    kept: dict[tuple[Any, ...], str] = {}

    @functools.wraps(function)
    def worded(*args: Any, **kwargs: Any) -> str:
        slot = (get_language(), args, tuple(kwargs.items()))
        try:
            text = kept.get(slot)
        except TypeError:  # an argument that is not hashable (a list): worded afresh
            return function(*args, **kwargs)
        if text is None:
            if len(kept) >= 4096:
                kept.clear()
            text = kept[slot] = function(*args, **kwargs)
        return text

    return worded


def _fill(text: object, values: Mapping[str, object]) -> str:
    return str(text) % values


# A lazy message with its placeholders filled in when shown, in the language of that moment:
# ``_lazy_filled(gettext_lazy("The %(queen)s breaks hearts"), {"queen": "Q♠"})``.
_lazy_filled = lazy(_fill, str)


class _Translated(dict[str, Any]):
    """Lazy words by key, each translated when looked up (``table[key]``, ``table.get(key)``):
    a page or a record that looks one up gets plain words, in the language of that moment.
    Tables read while modules load (a form's labels, a model's choices) stay plain dicts of
    lazy words instead."""

    def __getitem__(self, key: str) -> str:
        return str(super().__getitem__(key))

    def get(self, key: str, default: Any = None) -> Any:
        value = super().get(key)
        return default if value is None else str(value)


def _minus(number: int) -> str:
    """A number taken off, with a true minus sign (``MINUS``) before it."""
    return f"{MINUS}{number}"


def plural_count(number: int) -> int:
    """The number that picks a plural form: points may be negative, and minus ten are
    "points" as ten are (minus one stays as it is, plural in English as it always read)."""
    return number if number >= -1 else -number


def and_list(items: list[str]) -> str:
    """Words listed: "a", "a and b", "a, b and c".

    >>> and_list(["alice"]), and_list(["alice", "bob", "carol"])
    ('alice', 'alice, bob and carol')
    """
    if len(items) < 2:
        return "".join(items)
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


# The engine's cards, suits and directions in words -------------------------------------------

# A suit in a card's name ("the queen of spades").
_SUITS_IN_NAMES: Final = {
    Suit.CLUBS: pgettext_lazy("suit in a card's name: the two of clubs", "clubs"),
    Suit.DIAMONDS: pgettext_lazy("suit in a card's name: the two of diamonds", "diamonds"),
    Suit.HEARTS: pgettext_lazy("suit in a card's name: the two of hearts", "hearts"),
    Suit.SPADES: pgettext_lazy("suit in a card's name: the two of spades", "spades"),
}
# A suit on its own ("You must follow clubs", "your turn (clubs led)").
_SUITS: Final = {
    Suit.CLUBS: pgettext_lazy("suit: you must follow clubs", "clubs"),
    Suit.DIAMONDS: pgettext_lazy("suit: you must follow diamonds", "diamonds"),
    Suit.HEARTS: pgettext_lazy("suit: you must follow hearts", "hearts"),
    Suit.SPADES: pgettext_lazy("suit: you must follow spades", "spades"),
}
# A card's name, by rank from the two: what a screen reader says of it ("queen of spades").
_NAMES: Final = (
    gettext_lazy("two of %(suit)s"),
    gettext_lazy("three of %(suit)s"),
    gettext_lazy("four of %(suit)s"),
    gettext_lazy("five of %(suit)s"),
    gettext_lazy("six of %(suit)s"),
    gettext_lazy("seven of %(suit)s"),
    gettext_lazy("eight of %(suit)s"),
    gettext_lazy("nine of %(suit)s"),
    gettext_lazy("ten of %(suit)s"),
    gettext_lazy("jack of %(suit)s"),
    gettext_lazy("queen of %(suit)s"),
    gettext_lazy("king of %(suit)s"),
    gettext_lazy("ace of %(suit)s"),
)
# The same with its article, as the object of a sentence: "Bob plays the jack of clubs", "Bob
# passed you the jack of clubs, the three of diamonds and the ace of spades" (the table's words
# of what was played and passed, static/js/table.js). A language whose articles or nouns change
# with the role the card has in its sentence says the card in that form: German's accusative,
# "den Kreuz-Buben, die Karo-Drei, das Pik-Ass".
_OBJECTS: Final = (
    # Translators: a card as the object of a sentence ("Bob plays ...", "Bob passed you ...,
    # ... and ..."), in the case such a sentence gives it (German: den Kreuz-Buben).
    pgettext_lazy("card as object, accusative", "the two of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the three of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the four of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the five of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the six of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the seven of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the eight of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the nine of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the ten of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the jack of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the queen of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the king of %(suit)s"),
    pgettext_lazy("card as object, accusative", "the ace of %(suit)s"),
)
# The engine's pass directions (``pass_direction_name``), as they follow "pass": "pass left".
_DIRECTIONS: Final = {
    "left": pgettext_lazy("pass direction: pass left", "left"),
    "right": pgettext_lazy("pass direction: pass right", "right"),
    "across": pgettext_lazy("pass direction: pass across", "across"),
    "two left": pgettext_lazy("pass direction: pass two seats to the left", "two left"),
    "two right": pgettext_lazy("pass direction: pass two seats to the right", "two right"),
    "hold": pgettext_lazy("pass direction: a hand without passing", "hold"),
}
_BY_DISPLAY: Final = {card.display: card for card in ALL_CARDS}


@in_each_language
def card_name(card: Card) -> str:
    """A card in words, as a screen reader says it (the engine's ``Card.name``).

    >>> card_name(QUEEN)
    'queen of spades'
    """
    return _NAMES[card.rank - 2] % {"suit": _SUITS_IN_NAMES[card.suit]}


@in_each_language
def card_as_object(card: Card) -> str:
    """A card in words with its article, as the object of a sentence names it ("Bob plays
    ...", "Bob passed you ...").

    >>> card_as_object(JACK)
    'the jack of diamonds'
    """
    return _OBJECTS[card.rank - 2] % {"suit": _SUITS_IN_NAMES[card.suit]}


def suit_name(suit: Suit) -> str:
    """A suit on its own, in the plural (the engine's ``Suit.plural``): "clubs"."""
    return str(_SUITS[suit])


@in_each_language
def direction_words(direction: str) -> str:
    """A pass direction (``pass_direction_name``: "left", "two right", "hold") in words."""
    words = _DIRECTIONS.get(direction)
    return direction if words is None else str(words)


# The engine's refusals of a card, in words ---------------------------------------------------


def refusal_words(refusal: Refusal, *, card: Card | None = None, suit: Suit | None = None) -> str:
    """Why a card may not be played (the engine's :class:`Refusal`), in the page's language:
    ``card`` is the card it names (the one not held, the one the first lead must be), ``suit``
    the suit to follow; as ``Refusal.words`` says it in English.

    >>> refusal_words(Refusal.FOLLOW_SUIT, suit=Suit.CLUBS)
    'You must follow clubs'
    """
    shown = "" if card is None else card.display
    if refusal is Refusal.PASSING:
        return _("Cards are being passed: choose three to pass first")
    if refusal is Refusal.HAND_OVER:
        return _("The hand is over")
    if refusal is Refusal.NOT_YOUR_TURN:
        return _("It is not your turn")
    if refusal is Refusal.NOT_HELD:
        return _("You do not hold the %(card)s") % {"card": shown}
    if refusal is Refusal.FIRST_LEAD:
        return _("The first lead must be the %(card)s") % {"card": shown}
    if refusal is Refusal.HEARTS_NOT_BROKEN:
        return _("Hearts are not broken yet")
    if refusal is Refusal.FIRST_TRICK:
        return _("No points on the first trick")
    if refusal is Refusal.FOLLOW_SUIT:
        return _("You must follow %(suit)s") % {"suit": "" if suit is None else suit_name(suit)}
    return _("The old queen rule: the %(queen)s must be discarded now") % {"queen": QUEEN.display}


# The engine's other refusals of a move (its errors' English words), in the reader's language.
ENGINE_ERRORS: dict[str, Any] = {
    f"Choose exactly {PASS_SIZE} different cards to pass": gettext_lazy(
        "Choose exactly 3 different cards to pass"
    ),
    "You can only pass cards from your own hand": gettext_lazy(
        "You can only pass cards from your own hand"
    ),
    "This is not the time to pass cards": gettext_lazy("This is not the time to pass cards"),
    "You have already passed": gettext_lazy("You have already passed"),
    "There is no moon to score": gettext_lazy("There is no moon to score"),
    "Only the player who shot the moon chooses how it scores": gettext_lazy(
        "Only the player who shot the moon chooses how it scores"
    ),
    "Choose 'others' (they take the points) or 'self' (you lose them)": gettext_lazy(
        "Choose 'others' (they take the points) or 'self' (you lose them)"
    ),
    "The game is over": gettext_lazy("The game is over"),
}


@in_each_language
def refusal_text(text: str) -> str:
    """The engine's words for a refusal (``Hand.why_not``, an error's message) in the page's
    language; other words as they are.

    >>> refusal_text("The first lead must be the 2♣"), refusal_text("Play something")
    ('The first lead must be the 2♣', 'Play something')
    """
    refusal = Refusal.of(text) if text else None
    if refusal is None:
        other = ENGINE_ERRORS.get(text)
        return text if other is None else str(other)
    named = text[len(refusal.words()) :]  # what follows the fixed words: a card or a suit
    if refusal in (Refusal.NOT_HELD, Refusal.FIRST_LEAD):
        card = _BY_DISPLAY.get(named)
        return text if card is None else refusal_words(refusal, card=card)
    if refusal is Refusal.FOLLOW_SUIT:
        suit = next((suit for suit in Suit if suit.plural == named), None)
        return text if suit is None else refusal_words(refusal, suit=suit)
    return refusal_words(refusal)


# The rules in words ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleLine:
    """One rule in words.

    ``option`` is the :class:`Rules` field it describes (``"moon"``, ``"target"``...) or a
    topic derived from several (``"pass"``, ``"points"``); ``title`` is a short heading and
    ``text`` one or two plain sentences.
    """

    option: str
    title: str
    text: str


def describe(rules: Rules) -> list[RuleLine]:
    """Every rule of ``rules`` in words, in the order a newcomer would want to read them.

    The options are always the same and in the same order, whatever their values, so pages
    may pick lines by ``option``.
    """
    return [line(rules) for line in _LINES]


def summary(rules: Rules) -> str:
    """One short line: players, target and moon, then whatever differs from Standard."""
    parts = [
        ngettext("%(count)s player", "%(count)s players", rules.players) % {"count": rules.players},
        pgettext("the target score, in a table's summary", "to %(target)s")
        % {"target": rules.target},
        _moon_short(rules),
    ]
    parts += [text for option, text in _extras(rules) if _differs(rules, option)]
    return " · ".join(parts)


def _players(rules: Rules) -> RuleLine:
    text = ngettext(
        "%(players)s player, %(cards)s cards each, dealt from a pack of %(pack)s. The deal"
        " moves one seat to the left every hand.",
        "%(players)s players, %(cards)s cards each, dealt from a pack of %(pack)s. The deal"
        " moves one seat to the left every hand.",
        rules.players,
    ) % {"players": rules.players, "cards": rules.hand_size, "pack": len(rules.deck)}
    return RuleLine("players", _("Players and cards"), text)


def _short_pack(rules: Rules) -> RuleLine:
    if rules.kitty_size:
        text = ngettext(
            "The card left over after the deal lies face down as a kitty. Whoever wins the first"
            " trick that holds a penalty card takes the kitty too: its cards score for that"
            " player but never join a hand.",
            "The %(count)s cards left over after the deal lie face down as a kitty. Whoever wins"
            " the first trick that holds a penalty card takes the kitty too: its cards score for"
            " that player but never join a hand.",
            rules.kitty_size,
        ) % {"count": rules.kitty_size}
        return RuleLine("short_pack", _("The kitty"), text)
    removed = rules.removed_cards
    if not removed:
        return RuleLine(
            "short_pack", _("The pack"), _("The whole pack is dealt; nothing is left over.")
        )
    text = ngettext(
        "%(cards)s is taken out so that the pack deals evenly.",
        "%(cards)s are taken out so that the pack deals evenly.",
        len(removed),
    ) % {"cards": _card_list(removed)}
    return RuleLine("short_pack", _("Cards taken out"), text)


def _passing(rules: Rules) -> RuleLine:
    directions = [pass_direction_name(offset, rules.players) for offset in rules.pass_cycle]
    passes = [direction_words(d) for d in directions if d != "hold"]
    text = ngettext(
        "Before the play each player passes %(count)s card, chosen before seeing what arrives."
        " The direction changes every hand: %(directions)s, then a hand with no passing, and"
        " round again.",
        "Before the play each player passes %(count)s cards, chosen before seeing what arrives."
        " The direction changes every hand: %(directions)s, then a hand with no passing, and"
        " round again.",
        PASS_SIZE,
    ) % {"count": PASS_SIZE, "directions": ", ".join(passes)}
    return RuleLine("pass", _("Passing"), text)


def _points(rules: Rules) -> RuleLine:
    hearts = [card for card in rules.deck if card.suit is Suit.HEARTS]
    text = ngettext(
        "Each heart you take costs %(heart)s point and the %(queen)s costs %(queen_points)s:"
        " %(total)s points in every hand. Low scores are good.",
        "Each heart you take costs %(heart)s points and the %(queen)s costs %(queen_points)s:"
        " %(total)s points in every hand. Low scores are good.",
        hearts[0].points,
    ) % {
        "heart": hearts[0].points,
        "queen": QUEEN.display,
        "queen_points": QUEEN.points,
        "total": points_in_play(rules),
    }
    return RuleLine("points", _("Penalty cards"), text)


def _tricks(rules: Rules) -> RuleLine:
    text = _(
        "Play goes to the left, one card from each of the %(players)s players per trick."
        " Anyone holding the suit that opened the trick must play it; a player without it may"
        " play anything. The best card in the opening suit wins the trick and starts the next."
    ) % {"players": rules.players}
    return RuleLine("tricks", _("Tricks and following suit"), text)


def _first_lead(rules: Rules) -> RuleLine:
    if rules.first_lead is FirstLead.LEFT_OF_DEALER:
        text = _(
            "The player to the left of the dealer leads the first trick with any card they"
            " like, except a heart."
        )
    elif rules.short_pack is ShortPack.KITTY:
        text = _(
            "Whoever holds the lowest club leads it to the first trick: the %(club)s, or the"
            " next club up when it lies in the kitty."
        ) % {"club": rules.lowest_club_in_pack.display}
    else:
        text = _("Whoever holds the %(club)s leads it to the first trick.") % {
            "club": rules.lowest_club_in_pack.display
        }
    return RuleLine("first_lead", _("The first lead"), text)


def _first_trick(rules: Rules) -> RuleLine:
    if rules.points_on_first_trick:
        text = _("Hearts and the %(queen)s may be played on the first trick.")
    else:
        text = _(
            "No points on the first trick: no heart and no %(queen)s may be played to it,"
            " unless a hand holds nothing else."
        )
    return RuleLine("points_on_first_trick", _("The first trick"), text % {"queen": QUEEN.display})


def _breaking_hearts(rules: Rules) -> RuleLine:
    if rules.queen_breaks_hearts:
        text = _(
            "Hearts may not be led until a heart or the %(queen)s has been played to a trick"
            " (hearts are broken), unless the leader holds nothing but hearts."
        )
    else:
        text = _(
            "Hearts may not be led until a heart has been played to a trick (hearts are"
            " broken), unless the leader holds nothing but hearts. Playing the %(queen)s does"
            " not break hearts."
        )
    return RuleLine("queen_breaks_hearts", _("Breaking hearts"), text % {"queen": QUEEN.display})


def _moon(rules: Rules) -> RuleLine:
    if rules.moon is MoonRule.OTHERS:
        text = _(
            "Take every penalty card in a hand and you shoot the moon: everybody else takes"
            " %(points)s and you take nothing."
        )
    elif rules.moon is MoonRule.SELF:
        text = _(
            "Take every penalty card in a hand and you shoot the moon: you take %(points)s off"
            " your total and the others take nothing."
        )
    elif rules.moon is MoonRule.CHOOSE:
        text = _(
            "Take every penalty card in a hand and you shoot the moon: you choose whether"
            " everybody else takes %(points)s or you take %(points)s off."
        )
    else:
        text = _(
            "Take every penalty card in a hand and you shoot the moon: everybody else takes"
            " %(points)s, except when giving them away would finish the match with someone"
            " doing better than you: then %(points)s come off your own total."
        )
    return RuleLine("moon", _("Shooting the moon"), text % {"points": moon_value(rules)})


def _sun(rules: Rules) -> RuleLine:
    if not rules.shoot_the_sun:
        text = _("Taking every trick counts as a moon, nothing more.")
    else:
        text = _(
            "Take every trick and you shoot the sun: it scores like a moon, but with %(sun)s"
            " points instead of %(moon)s."
        ) % {"sun": moon_value(rules, sun=True), "moon": moon_value(rules)}
    return RuleLine("shoot_the_sun", _("Shooting the sun"), text)


def _jack(rules: Rules) -> RuleLine:
    if not rules.jack_of_diamonds:
        text = _("The %(jack)s is an ordinary card worth nothing.")
    else:
        text = _(
            "Whoever takes the %(jack)s scores %(bonus)s, on top of whatever else the hand"
            " gives. A moon does not need it."
        )
    text %= {"jack": JACK.display, "bonus": _minus(JACK_BONUS)}
    return RuleLine("jack_of_diamonds", _("The jack of diamonds"), text)


def _old_queen(rules: Rules) -> RuleLine:
    if not rules.old_queen:
        text = _("You may keep the %(queen)s for as long as you like.")
    else:
        text = _(
            "Whoever holds the %(queen)s must discard it at the first chance: the first time"
            " they cannot follow suit."
        )
    return RuleLine("old_queen", _("The old queen"), text % {"queen": QUEEN.display})


def _target(rules: Rules) -> RuleLine:
    text = _(
        "The match ends after the hand in which somebody reaches %(target)s points. The lowest"
        " total wins."
    ) % {"target": rules.target}
    return RuleLine("target", _("End of the match"), text)


def _ties(rules: Rules) -> RuleLine:
    if rules.ties is TieRule.PLAY_ON:
        text = _("If two or more share the lowest total, another hand is played to settle it.")
    else:
        text = _("Players who share the lowest total share first place.")
    return RuleLine("ties", _("Equal totals"), text)


def _clock(rules: Rules) -> RuleLine:
    if rules.clock is Clock.STRICT:
        text = _(
            "You have %(card)s seconds to play a card and %(pass)s to pass. Strict clock:"
            " missing a deadline ends the game, with that player placed last."
        )
    else:
        text = _(
            "You have %(card)s seconds to play a card and %(pass)s to pass. Relaxed clock: when"
            " time runs out a safe card or pass is played for you; three time-outs in a row"
            " count as leaving the table."
        )
    text %= {"card": CARD_SECONDS, "pass": PASS_SECONDS}
    return RuleLine("clock", _("The clock"), text)


_LINES: Final[tuple[Callable[[Rules], RuleLine], ...]] = (
    _players,
    _short_pack,
    _passing,
    _points,
    _tricks,
    _first_lead,
    _first_trick,
    _breaking_hearts,
    _moon,
    _sun,
    _jack,
    _old_queen,
    _target,
    _ties,
    _clock,
)


def _moon_short(rules: Rules) -> str:
    points = moon_value(rules)
    if rules.moon is MoonRule.OTHERS:
        return _("moon: others take %(points)s") % {"points": points}
    if rules.moon is MoonRule.SELF:
        return _("moon: shooter takes %(points)s") % {"points": _minus(points)}
    if rules.moon is MoonRule.CHOOSE:
        return _("moon: shooter chooses")
    return _("moon: automatic")


def _extras(rules: Rules) -> list[tuple[str, str]]:
    return [
        ("short_pack", _("kitty") if rules.kitty_size else _("cards taken out")),
        ("points_on_first_trick", _("points on the first trick")),
        ("queen_breaks_hearts", _("%(queen)s breaks hearts") % {"queen": QUEEN.display}),
        ("shoot_the_sun", _("sun %(points)s") % {"points": moon_value(rules, sun=True)}),
        ("jack_of_diamonds", _("jack of diamonds %(bonus)s") % {"bonus": _minus(JACK_BONUS)}),
        ("old_queen", _("old queen")),
        ("first_lead", _("left of the dealer leads")),
        ("ties", _("ties: another hand")),
        ("clock", _("strict clock")),
    ]


def _differs(rules: Rules, option: str) -> bool:
    if option == "short_pack":
        return rules.kitty_size > 0
    return bool(getattr(rules, option) != getattr(_STANDARD, option))


def _card_list(cards: tuple[Card, ...]) -> str:
    """Cards taken out of the pack, listed: "The 2♣ and the 2♦"."""
    names = [
        pgettext("a low card taken out of the pack: the 2♣", "the %(card)s") % {"card": c.display}
        for c in cards
    ]
    return capfirst(and_list(names))


# The options' names ------------------------------------------------------------------------

# Each option's name in the rules pages' table of differences.
OPTION_TITLES: Final = _Translated(
    {
        "players": gettext_lazy("Players"),
        "short_pack": gettext_lazy("Leftover cards"),
        "first_lead": gettext_lazy("First lead"),
        "points_on_first_trick": gettext_lazy("Points on the first trick"),
        "queen_breaks_hearts": _lazy_filled(
            gettext_lazy("The %(queen)s breaks hearts"), {"queen": QUEEN.display}
        ),
        "moon": gettext_lazy("Shooting the moon"),
        "shoot_the_sun": gettext_lazy("Shooting the sun"),
        "jack_of_diamonds": _lazy_filled(
            gettext_lazy("Jack of diamonds %(bonus)s"), {"bonus": _minus(JACK_BONUS)}
        ),
        "old_queen": gettext_lazy("The old queen rule"),
        "target": gettext_lazy("Target"),
        "ties": gettext_lazy("Equal lowest totals"),
        "clock": gettext_lazy("Clock"),
    }
)
# Short words for each option's values, for that table.
OPTION_VALUES: Final[dict[str, dict[str, Any]]] = {
    "short_pack": _Translated(
        {
            ShortPack.REMOVE: gettext_lazy("taken out"),
            ShortPack.KITTY: gettext_lazy("kitty"),
        }
    ),
    "first_lead": _Translated(
        {
            FirstLead.LOWEST_CLUB: gettext_lazy("lowest club"),
            FirstLead.LEFT_OF_DEALER: gettext_lazy("left of the dealer"),
        }
    ),
    "moon": _Translated(
        {
            MoonRule.OTHERS: gettext_lazy("others +26"),
            MoonRule.SELF: _lazy_filled(gettext_lazy("shooter %(points)s"), {"points": _minus(26)}),
            MoonRule.CHOOSE: gettext_lazy("shooter chooses"),
            MoonRule.AUTOMATIC: gettext_lazy("automatic"),
        }
    ),
    "ties": _Translated(
        {
            TieRule.SHARE: gettext_lazy("share first place"),
            TieRule.PLAY_ON: gettext_lazy("play another hand"),
        }
    ),
    "clock": _Translated(
        {
            Clock.RELAXED: pgettext_lazy("the clock", "relaxed"),
            Clock.STRICT: pgettext_lazy("the clock", "strict"),
        }
    ),
}
YES_NO: Final = {True: gettext_lazy("yes"), False: gettext_lazy("no")}
ALLOWED: Final = {True: gettext_lazy("allowed"), False: gettext_lazy("forbidden")}

# Each option's label on the create-table form, and the words of its choices.
FORM_LABELS: Final[dict[str, Any]] = {
    "target": gettext_lazy("Target"),
    "moon": gettext_lazy("Shooting the moon"),
    "short_pack": gettext_lazy("Odd cards"),
    "first_lead": gettext_lazy("First lead"),
    "ties": gettext_lazy("Tied lowest"),
    "clock": gettext_lazy("Clock"),
    "points_on_first_trick": gettext_lazy("Points allowed on the first trick"),
    "queen_breaks_hearts": gettext_lazy("The queen breaks hearts"),
    "shoot_the_sun": gettext_lazy("Shooting the sun"),
    "jack_of_diamonds": _lazy_filled(
        gettext_lazy("Jack of diamonds %(bonus)s"), {"bonus": _minus(JACK_BONUS)}
    ),
    "old_queen": gettext_lazy("Old queen rule"),
}
FORM_CHOICES: Final[dict[str, dict[str, Any]]] = {
    "moon": {
        MoonRule.OTHERS: gettext_lazy("Everybody else takes 26"),
        MoonRule.SELF: gettext_lazy("The shooter takes 26 off"),
        MoonRule.CHOOSE: gettext_lazy("The shooter chooses"),
        MoonRule.AUTOMATIC: gettext_lazy(
            "Automatic: others +26 unless that leaves the shooter behind"
        ),
    },
    "short_pack": {
        ShortPack.REMOVE: gettext_lazy("Take low cards out"),
        ShortPack.KITTY: gettext_lazy("Deal them to a kitty"),
    },
    "first_lead": {
        FirstLead.LOWEST_CLUB: gettext_lazy("The lowest club leads"),
        FirstLead.LEFT_OF_DEALER: gettext_lazy("The player left of the dealer leads"),
    },
    "ties": {
        TieRule.SHARE: gettext_lazy("share"),
        TieRule.PLAY_ON: gettext_lazy("play another hand"),
    },
    "clock": {
        Clock.RELAXED: pgettext_lazy("the clock", "relaxed"),
        Clock.STRICT: pgettext_lazy("the clock", "strict"),
    },
}
AS_THE_SET_SAYS: Final = gettext_lazy("As the rule set says")


# The rules in short, one sentence an option (the game pages) ---------------------------------


def rules_in_short(rules: Rules) -> list[str]:
    """One short sentence per option, as the table's players met them."""
    lines = [
        ngettext(
            "%(players)s player, to %(target)s points.",
            "%(players)s players, to %(target)s points.",
            rules.players,
        )
        % {"players": rules.players, "target": rules.target}
    ]
    if rules.removed_cards:
        removed = ", ".join(card.display for card in rules.removed_cards)
        lines.append(_("Removed from the pack: %(cards)s.") % {"cards": removed})
    if rules.short_pack is ShortPack.KITTY and rules.kitty_size:
        # The English reads "cards" for one card too, as the game pages always said it.
        lines.append(
            ngettext(
                "A kitty of %(count)s cards goes to whoever takes the first penalty card.",
                "A kitty of %(count)s cards goes to whoever takes the first penalty card.",
                rules.kitty_size,
            )
            % {"count": rules.kitty_size}
        )
    if rules.first_lead is FirstLead.LOWEST_CLUB:
        lines.append(_("The lowest club in play leads the first trick."))
    else:
        lines.append(_("The player left of the dealer leads the first trick."))
    lines.append(
        _("Points may be played on the first trick.")
        if rules.points_on_first_trick
        else _("No hearts and no %(queen)s on the first trick.") % {"queen": QUEEN.display}
    )
    if rules.queen_breaks_hearts:
        lines.append(_("The %(queen)s breaks hearts.") % {"queen": QUEEN.display})
    lines.append(_MOON_IN_SHORT[rules.moon])
    if rules.shoot_the_sun:
        lines.append(_("Shooting the sun (every trick) counts 52."))
    if rules.jack_of_diamonds:
        lines.append(
            _("The %(jack)s takes %(points)s points off whoever wins it.")
            % {"jack": JACK.display, "points": JACK_BONUS}
        )
    if rules.old_queen:
        lines.append(
            _("The %(queen)s must be discarded at the first chance.") % {"queen": QUEEN.display}
        )
    lines.append(
        _("Equal lowest totals share first place.")
        if rules.ties is TieRule.SHARE
        else _("Equal lowest totals play another hand.")
    )
    lines.append(
        _("Strict clock: a missed deadline ends the game.")
        if rules.clock is Clock.STRICT
        else _("Relaxed clock: the table plays for a player out of time.")
    )
    return lines


_MOON_IN_SHORT: Final = _Translated(
    {
        MoonRule.OTHERS: gettext_lazy("Shooting the moon adds 26 to everyone else."),
        MoonRule.SELF: gettext_lazy("Shooting the moon takes 26 off the shooter."),
        MoonRule.CHOOSE: gettext_lazy(
            "The moon shooter chooses: 26 to everyone else or 26 off their own total."
        ),
        MoonRule.AUTOMATIC: gettext_lazy(
            "Shooting the moon adds 26 to everyone else, unless that leaves the shooter behind at"
            " the end; then 26 come off the shooter instead."
        ),
    }
)


# Places, end reasons and results -------------------------------------------------------------


def empty_seat(seat: int) -> str:
    """The name of a seat nobody sits in (a game's record before a player's name is known).

    >>> empty_seat(0)
    'Seat 1'
    """
    return _("Seat %(number)s") % {"number": seat + 1}


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if number == 1:
        return pgettext("a place: first", "1st")
    if 10 <= number % 100 <= 20:
        text = pgettext("a place: 4th, 11th, 12th, 13th...", "%(number)sth")
    elif number % 10 == 1:
        text = pgettext("a place: 21st, 31st...", "%(number)sst")
    elif number % 10 == 2:
        text = pgettext("a place: 2nd, 22nd...", "%(number)snd")
    elif number % 10 == 3:
        text = pgettext("a place: 3rd, 23rd...", "%(number)srd")
    else:
        text = pgettext("a place: 4th, 11th, 12th, 13th...", "%(number)sth")
    return text % {"number": number}


# How a game ended early, after the name of the player it ended against: "carol ran out of
# time" (the game pages and the replay).
ENDED_EARLY: Final[dict[str, str]] = _Translated(
    {
        EndReason.RESIGNED: pgettext_lazy("a game ended early: carol resigned", "resigned"),
        EndReason.LEFT: pgettext_lazy("a game ended early: carol left", "left"),
        EndReason.TIMED_OUT: pgettext_lazy(
            "a game ended early: carol ran out of time", "ran out of time"
        ),
    }
)
# The same, as a note after that player's line of the table's result: "(out of time)".
ENDED_EARLY_NOTES: Final[dict[str, str]] = _Translated(
    {
        EndReason.RESIGNED: pgettext_lazy("a note on a result line: (resigned)", "resigned"),
        EndReason.LEFT: pgettext_lazy("a note on a result line: (left)", "left"),
        EndReason.TIMED_OUT: pgettext_lazy("a note on a result line: (out of time)", "out of time"),
    }
)
# The same, for the staff's list of abandonments.
ABANDONMENT_REASONS: Final[dict[str, Any]] = {
    EndReason.LEFT: gettext_lazy("Three time-outs in a row"),
    EndReason.TIMED_OUT: gettext_lazy("A missed deadline (strict clock)"),
    EndReason.RESIGNED: gettext_lazy("Resigned before the last hand"),
}


def outcome(winners: list[str], ended_early: tuple[str, str] | None = None) -> str:
    """The result in a few words: won by alice, shared by alice and bob; with ``ended_early``
    (the name and the end reason) who ended it how: "; carol resigned".

    >>> outcome(["alice", "bob"], ("carol", "timed out"))
    'Shared by alice and bob; carol ran out of time'
    """
    if len(winners) == 1:
        text = _("Won by %(name)s") % {"name": winners[0]}
    else:
        text = _("Shared by %(names)s") % {"names": and_list(winners)}
    if ended_early is None:
        return text
    name, reason = ended_early
    if reason == EndReason.RESIGNED:
        ended = _("%(outcome)s; %(name)s resigned")
    elif reason == EndReason.LEFT:
        ended = _("%(outcome)s; %(name)s left")
    else:
        ended = _("%(outcome)s; %(name)s ran out of time")
    return ended % {"outcome": text, "name": name}


# The replay in words -------------------------------------------------------------------------


def replay_step(hand: Hand, made: int, names: list[str], resign: Move | None = None) -> str:
    """A replay's step in words: hand ``hand`` with its first ``made`` moves made, or the game's
    end by ``resign`` (a resignation's move: ``choice`` is how it ended)."""
    if resign is not None:
        reason = resign.choice or EndReason.RESIGNED
        name = {"name": names[resign.seat]}
        if reason == EndReason.LEFT:
            return _("%(name)s left: the game ends.") % name
        if reason == EndReason.TIMED_OUT:
            return _("%(name)s ran out of time: the game ends.") % name
        return _("%(name)s resigned: the game ends.") % name
    if made == 0:
        dealt = {"number": hand.number, "dealer": names[hand.dealer]}
        if hand.pass_offset == 0:
            return _("Hand %(number)s, dealt by %(dealer)s: a hold hand, no passing.") % dealt
        return _(
            "Hand %(number)s, dealt by %(dealer)s: everyone passes three cards %(direction)s."
        ) % {**dealt, "direction": direction_words(hand.direction)}
    move = hand.moves[made - 1]
    words = _move_words(hand, move, names)
    if move.timeout:
        words = _("%(move)s (the table moved for them: time ran out)") % {"move": words}
    words += "."
    if move.kind == MoveKind.PASS and made == hand.players:
        words += " " + _("The passes change hands.")
    if move.kind == MoveKind.PLAY and not hand.trick:
        trick = hand.tricks[-1]
        taker = {"name": names[trick.winner], "points": points_words(trick.points)}
        if trick.points:
            words += " " + _("%(name)s takes the trick (%(points)s).") % taker
        else:
            words += " " + _("%(name)s takes the trick.") % taker
    if made == len(hand.moves) and hand.points is not None:
        scores = signed_scores(zip(names, hand.points, strict=True))
        words += " " + _("Hand %(number)s scores: %(scores)s.") % {
            "number": hand.number,
            "scores": scores,
        }
    return words


def _move_words(hand: Hand, move: Move, names: list[str]) -> str:
    name = names[move.seat]
    if move.kind == MoveKind.PASS:
        return _("%(name)s passes %(cards)s %(direction)s to %(target)s") % {
            "name": name,
            "cards": ", ".join(card.display for card in move.cards),
            "direction": direction_words(hand.direction),
            "target": names[hand.pass_target(move.seat)],
        }
    if move.kind == MoveKind.PLAY:
        card = move.cards[0]
        return _("%(name)s plays the %(card)s (%(card_name)s)") % {
            "name": name,
            "card": card.display,
            "card_name": card_name(card),
        }
    value = {"name": name, "points": moon_value(hand.rules)}
    if move.choice == MoonRule.OTHERS:
        return _("%(name)s shot the moon and chose adding %(points)s to everyone else") % value
    return _("%(name)s shot the moon and chose taking %(points)s off their own total") % value


def points_words(points: int) -> str:
    """1 point, 13 points.

    >>> points_words(1), points_words(0)
    ('1 point', '0 points')
    """
    return ngettext("%(count)s point", "%(count)s points", plural_count(points)) % {"count": points}


# The verification form's words for what happens to the cards that do not divide evenly.
VERIFY_SHORT_PACK: Final[dict[str, str]] = _Translated(
    {
        ShortPack.REMOVE: gettext_lazy("Removed from the pack"),
        ShortPack.KITTY: gettext_lazy("Dealt to a kitty"),
    }
)


# The table's notices of what changed nothing in its game, told to every screen at the table
# (games/effects.py, ``table_notice``), each in its own language.


class Notice(StrEnum):
    """A notice's kind, as the table's message carries it."""

    REMATCH_REFUSED = "rematch-refused"


def rematch_refused(name: str) -> str:
    """A rematch refused because ``name``, seated, may not play at the table now: why is
    theirs alone to know. A finished table's seats stay as they are (nobody can free one or
    give it to a bot), so what is left is to wait for them or to start another table.

    >>> rematch_refused("bob").split(". ")[0]
    'The rematch cannot start: bob cannot play at this table now'
    """
    return _(
        "The rematch cannot start: %(name)s cannot play at this table now. A rematch can start "
        "once they may play here again; to play on now, start a table from the lobby."
    ) % {"name": name}


NOTICES: Final[dict[str, Callable[..., str]]] = {Notice.REMATCH_REFUSED: rematch_refused}


def notice(kind: str, values: Mapping[str, str]) -> str:
    """A notice as the table's message carries it (its kind and values), in words; nothing
    for a kind this process does not know (a newer one's, while the site is updated)."""
    worded = NOTICES.get(kind)
    return "" if worded is None else worded(**values)


def signed_scores(scores: Iterable[tuple[str, int]]) -> str:
    """Each player's points, signed: "alice +0, bob +26"."""
    return ", ".join(f"{name} {points:+d}" for name, points in scores)


def either(values: Iterable[str]) -> str:
    """Alternatives in words: "100 or 50"."""
    words = ""
    for value in values:
        words = value if not words else _("%(one)s or %(other)s") % {"one": words, "other": value}
    return words


# What the engine says of rules it refuses, in the reader's language (the engine's words are
# English, and it has no Django).
_RULES_REFUSALS: Final = {
    "Hearts is played by 3, 4, 5 or 6 players": gettext_lazy(
        "Hearts is played by 3, 4, 5 or 6 players"
    ),
    "The target must be a whole number": gettext_lazy("The target must be a whole number"),
    "The target must be between 25 and 500 points": gettext_lazy(
        "The target must be between 25 and 500 points"
    ),
    "Four players share the whole pack: there is no kitty": gettext_lazy(
        "Four players share the whole pack: there is no kitty"
    ),
    "Rules must be an object of options": gettext_lazy("Rules must be an object of options"),
}


def rules_refusal(message: str) -> str:
    """The engine's reason for refusing rules (``InvalidRulesError``) in the reader's language,
    or as the engine says it when the site does not know its words."""
    if message in _RULES_REFUSALS:
        return str(_RULES_REFUSALS[message])
    if found := re.fullmatch(r"(.+) is played by ([\d or]+) players", message):
        return _("%(rule_set)s is played by %(sizes)s players") % {
            "rule_set": found[1],
            "sizes": either(found[2].split(" or ")),
        }
    if found := re.fullmatch(r"(.+) plays to ([\d or]+) points", message):
        return _("%(rule_set)s plays to %(targets)s points") % {
            "rule_set": found[1],
            "targets": either(found[2].split(" or ")),
        }
    if found := re.fullmatch(r"Unknown option: (.+)", message):
        return _("Unknown option: %(options)s") % {"options": found[1]}
    if found := re.fullmatch(r"(\w+) must be one of ([\w, ]+), not (.+)", message):
        return _("%(option)s must be one of %(choices)s, not %(value)s") % {
            "option": found[1],
            "choices": found[2],
            "value": found[3],
        }
    if found := re.fullmatch(r"(\w+) must be true or false", message):
        return _("%(option)s must be true or false") % {"option": found[1]}
    return message


# The rule sets' names ---------------------------------------------------------------------------

# The engine's presets (games/engine/rules.py PRESETS) by key, named in the reader's language.
PRESET_TITLES: dict[str, Any] = {
    "standard": pgettext_lazy("rule set", "Standard"),
    "published": pgettext_lazy("rule set", "Published"),
    "classic": pgettext_lazy("rule set", "Classic"),
    "club": pgettext_lazy("rule set", "Club"),
    "encyclopedia": pgettext_lazy("rule set", "Encyclopedia"),
}


def preset_title(key: str) -> str:
    """A rule set's name in the reader's language ("Standard"); the engine's for one added
    there and not yet here."""
    title = PRESET_TITLES.get(key)
    if title is not None:
        return str(title)
    preset = PRESETS.get(key)
    if preset is None:  # a table whose options were chosen one by one
        return pgettext("rule set", "Custom")
    return preset.title
