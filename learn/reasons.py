"""Where on a rules page each of the engine's refusals is explained.

The engine words its refusals (``Hand.why_not``) and gives each a code (:class:`Refusal`); each
names one rule, and the rules page gives every rule an anchor, so a refused card can link to the
rule that refuses it. A page may show the refusal in its reader's language
(``games.words.refusal_words``): its anchor is found from those words too.
"""

from __future__ import annotations

from typing import Final

from games.engine import ALL_CARDS, Refusal, Suit
from games.words import refusal_words

# The rule behind each refusal of a card in the hand (the others name no rule).
_ANCHORS: Final = (
    (Refusal.FIRST_LEAD, "rule-first_lead"),
    (Refusal.HEARTS_NOT_BROKEN, "rule-queen_breaks_hearts"),
    (Refusal.FIRST_TRICK, "rule-points_on_first_trick"),
    (Refusal.FOLLOW_SUIT, "rule-tricks"),
    (Refusal.OLD_QUEEN, "rule-old_queen"),
)


def anchor_of(refusal: Refusal | None) -> str | None:
    """The id on the rules page of the rule behind ``refusal``, if it names one."""
    return next((anchor for code, anchor in _ANCHORS if code is refusal), None)


def refusal_of(reason: str) -> Refusal | None:
    """The refusal of a card in the hand whose words ``reason`` is: the engine's own, or
    their translation into the language in use."""
    refusal = Refusal.of(reason)
    if refusal is not None:
        return refusal
    for code, _ in _ANCHORS:
        if reason in _all_words(code):
            return code
    return None


def _all_words(refusal: Refusal) -> list[str]:
    """Every way the language in use words ``refusal``, whatever card or suit it names."""
    if refusal is Refusal.FOLLOW_SUIT:
        return [refusal_words(refusal, suit=suit) for suit in Suit]
    if refusal is Refusal.FIRST_LEAD:
        clubs = [card for card in ALL_CARDS if card.suit is Suit.CLUBS]
        return [refusal_words(refusal, card=card) for card in clubs]
    return [refusal_words(refusal)]


def anchor_for(reason: str) -> str | None:
    """The id on the rules page of the rule behind ``reason`` (the engine's words, or their
    translation), if it names one.

    >>> anchor_for("You must follow clubs")
    'rule-tricks'
    >>> anchor_for("It is not your turn") is None
    True
    """
    return anchor_of(refusal_of(reason))
