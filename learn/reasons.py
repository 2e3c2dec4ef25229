"""Where on a rules page each of the engine's refusals is explained.

The engine words its refusals (``Hand.why_not``); each names one rule, and the rules page gives
every rule an anchor, so a refused card can link to the rule that refuses it.
"""

from __future__ import annotations

from typing import Final

# The start of each refusal the engine gives for a card in the hand, and the rule behind it.
_ANCHORS: Final = (
    ("The first lead must be", "rule-first_lead"),
    ("Hearts are not broken yet", "rule-queen_breaks_hearts"),
    ("No points on the first trick", "rule-points_on_first_trick"),
    ("You must follow", "rule-tricks"),
    ("The old queen rule", "rule-old_queen"),
)


def anchor_for(reason: str) -> str | None:
    """The id on the rules page of the rule behind ``reason``, if it names one.

    >>> anchor_for("You must follow clubs")
    'rule-tricks'
    >>> anchor_for("It is not your turn") is None
    True
    """
    for start, anchor in _ANCHORS:
        if reason.startswith(start):
            return anchor
    return None
