"""Where on a rules page each of the engine's refusals is explained.

The engine words its refusals (``Hand.why_not``) and gives each a code (:class:`Refusal`); each
names one rule, and the rules page gives every rule an anchor, so a refused card can link to the
rule that refuses it.
"""

from __future__ import annotations

from typing import Final

from games.engine import Refusal

# The rule behind each refusal of a card in the hand (the others name no rule).
_ANCHORS: Final = (
    (Refusal.FIRST_LEAD, "rule-first_lead"),
    (Refusal.HEARTS_NOT_BROKEN, "rule-queen_breaks_hearts"),
    (Refusal.FIRST_TRICK, "rule-points_on_first_trick"),
    (Refusal.FOLLOW_SUIT, "rule-tricks"),
    (Refusal.OLD_QUEEN, "rule-old_queen"),
)


def anchor_for(reason: str) -> str | None:
    """The id on the rules page of the rule behind ``reason`` (the engine's words), if it
    names one.

    >>> anchor_for("You must follow clubs")
    'rule-tricks'
    >>> anchor_for("It is not your turn") is None
    True
    """
    refusal = Refusal.of(reason)
    return next((anchor for code, anchor in _ANCHORS if code is refusal), None)
