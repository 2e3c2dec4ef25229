"""Why the engine refuses a card: each refusal has a code and its words, fit to show a player.

Pages and Learn ask the code (a rule's anchor on the rules page, a drill's choices) and never
copy the words; :meth:`Refusal.of` reads the engine's own words back into their code.

>>> Refusal.FOLLOW_SUIT.words(suit=Suit.CLUBS)
'You must follow clubs'
>>> Refusal.of("The first lead must be the 2♣")
<Refusal.FIRST_LEAD: 'first_lead'>
>>> Refusal.of("Play something") is None
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from .cards import Card, Suit


class Refusal(StrEnum):
    """The reason a card cannot be played now (``Hand.why_not`` words it)."""

    PASSING = "passing"
    HAND_OVER = "hand_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_HELD = "not_held"
    FIRST_LEAD = "first_lead"
    HEARTS_NOT_BROKEN = "hearts_not_broken"
    FIRST_TRICK = "first_trick"
    FOLLOW_SUIT = "follow_suit"
    OLD_QUEEN = "old_queen"

    def words(self, *, card: Card | None = None, suit: Suit | None = None) -> str:
        """The refusal in plain words: ``card`` is the card it names (the one not held, the one
        the first lead must be), ``suit`` the suit to follow."""
        return _WORDS[self].format(
            card="" if card is None else card.display, suit="" if suit is None else suit.plural
        )

    @classmethod
    def of(cls, text: str) -> Refusal | None:
        """The refusal whose words ``text`` is, or ``None`` for other words."""
        for refusal, template in _WORDS.items():
            fixed = template.split("{", 1)[0]
            if text == template or ("{" in template and fixed and text.startswith(fixed)):
                return refusal
        return None


_WORDS: Final[dict[Refusal, str]] = {
    Refusal.PASSING: "Cards are being passed: choose three to pass first",
    Refusal.HAND_OVER: "The hand is over",
    Refusal.NOT_YOUR_TURN: "It is not your turn",
    Refusal.NOT_HELD: "You do not hold the {card}",
    Refusal.FIRST_LEAD: "The first lead must be the {card}",
    Refusal.HEARTS_NOT_BROKEN: "Hearts are not broken yet",
    Refusal.FIRST_TRICK: "No points on the first trick",
    Refusal.FOLLOW_SUIT: "You must follow {suit}",
    Refusal.OLD_QUEEN: "The old queen rule: the Q♠ must be discarded now",
}
