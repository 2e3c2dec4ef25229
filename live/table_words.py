"""What the live table says: its status line, the notices of its moves, and what its seats,
cards and tricks say, in the reader's language.

The words of the rules, places, results and cards these sentences use come from games/words.py;
only the table's screens (live/table_context.py) say these.

>>> seat_facts(13, 1, 20)
'13 cards · 1 point · total 20'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.engine import Card, EndReason, Suit
from games.words import (
    ENDED_EARLY_NOTES,
    direction_words,
    in_each_language,
    ordinal,
    plural_count,
    points_words,
    signed_scores,
    suit_name,
)

# Words that read differently for the players they speak of come in two forms, one for those
# players ("your turn") and one for everyone else ("Bob to play"): the table sends both, and
# each screen shows its own (live/table_context.py, ``Worded``).

GAME_OVER: Final = gettext_lazy("The game is over.")
# The taker of a trick, for them; :func:`the_trick` follows it.
YOU_TAKE: Final = pgettext_lazy("the taker of a trick, followed by: the trick", "You take")


@in_each_language
def seat_facts(cards: int, points: int, total: int, *, total_unbroken: bool = False) -> str:
    """What a seat shows of its cards and points; ``total_unbroken`` joins the total's words
    with no-break spaces, so that a narrow seat (a phone's side seats) never breaks "total 20"
    over two lines.

    >>> seat_facts(13, 1, 20)
    '13 cards · 1 point · total 20'
    >>> seat_facts(13, 1, 20, total_unbroken=True)
    '13 cards · 1 point · total\xa020'
    """
    total_words = _("total %(total)s") % {"total": total}
    if total_unbroken:
        total_words = total_words.replace(" ", "\N{NO-BREAK SPACE}")
    return _("%(cards)s · %(points)s · %(total)s") % {
        "cards": ngettext("%(count)s card", "%(count)s cards", cards) % {"count": cards},
        "points": points_words(points),
        "total": total_words,
    }


def card_title(card: str, reason: str, *, received: bool, passed: str) -> str:
    """The tooltip of a card (``card``: its display) in a player's hand: whether it was passed
    to them, the direction they chose to pass it (``passed``, the engine's name for it, if they
    did) and why they may not play it (``reason``, in words already).

    >>> card_title("Q♣", "You must follow hearts", received=True, passed="")
    'Q♣ (passed to you): You must follow hearts'
    """
    text = card
    if received:
        text = _("%(card)s (passed to you)") % {"card": text}
    if passed:
        text = _("%(card)s (passed %(direction)s)") % {
            "card": text,
            "direction": direction_words(passed),
        }
    if reason:
        text = _("%(card)s: %(reason)s") % {"card": text, "reason": reason}
    return text


def card_spoken(card: str, reason: str, *, received: bool, passed: str) -> str:
    """The same, as a screen reader says it (``card``: its name; ``reason`` only on the
    player's turn).

    >>> card_spoken("queen of clubs", "You must follow hearts", received=False, passed="left")
    'queen of clubs, passed left. You must follow hearts'
    """
    text = card
    if received:
        text = _("%(card)s, passed to you") % {"card": text}
    if passed:
        text = _("%(card)s, passed %(direction)s") % {
            "card": text,
            "direction": direction_words(passed),
        }
    if reason:
        text = _("%(card)s. %(reason)s") % {"card": text, "reason": reason}
    return text


@in_each_language
def played_by(card: str, name: str) -> str:
    """A card on the table and who played it ("Q♣ from Bob"; "queen of clubs from Bob")."""
    return _("%(card)s from %(name)s") % {"card": card, "name": name}


@in_each_language
def takes(name: str) -> str:
    """The taker of a trick, for everyone but them ("Bob takes"; for them, ``YOU_TAKE``)."""
    return pgettext("the taker of a trick, followed by: the trick", "%(name)s takes") % {
        "name": name
    }


@in_each_language
def the_trick(points: int) -> str:
    """What follows the taker of a trick: " the trick", and its points if it holds any.

    >>> takes("Bob") + the_trick(2), YOU_TAKE + the_trick(0)
    ('Bob takes the trick: 2 points', 'You take the trick')
    """
    if points:
        return pgettext(
            "follows the taker of a trick: Bob takes / You take", " the trick: %(points)s"
        ) % {"points": points_words(points)}
    return pgettext("follows the taker of a trick: Bob takes / You take", " the trick")


@in_each_language
def waiting_for_passes(hand: int, direction: str) -> str:
    """``direction``: the engine's name of the pass direction, as are those below."""
    return _("Hand %(number)s: waiting for everyone to pass %(direction)s.") % {
        "number": hand,
        "direction": direction_words(direction),
    }


@in_each_language
def choose_your_pass(hand: int, direction: str) -> str:
    return _("Hand %(number)s: choose three cards to pass %(direction)s.") % {
        "number": hand,
        "direction": direction_words(direction),
    }


@in_each_language
def choosing_moon(hand: int, name: str) -> str:
    return _("Hand %(number)s: %(name)s shot the moon and is choosing how it scores.") % {
        "number": hand,
        "name": name,
    }


@in_each_language
def choose_your_moon(hand: int) -> str:
    return _("Hand %(number)s: you shot the moon! Choose how it scores.") % {"number": hand}


@in_each_language
def to_play(hand: int, name: str) -> str:
    return _("Hand %(number)s: %(name)s to play.") % {"number": hand, "name": name}


@in_each_language
def your_turn(hand: int, led: Suit | None) -> str:
    """The status line on a player's turn, with the suit ``led`` to the trick, or ``None``
    when they lead it.

    >>> your_turn(3, Suit.CLUBS), your_turn(3, None)
    ('Hand 3: your turn (clubs led).', 'Hand 3: your lead.')
    """
    if led is None:
        return _("Hand %(number)s: your lead.") % {"number": hand}
    return _("Hand %(number)s: your turn (%(suit)s led).") % {
        "number": hand,
        "suit": suit_name(led),
    }


@in_each_language
def you_passed(cards: Iterable[Card], direction: str) -> str:
    """What a player passed, until the passes are exchanged: "You passed 2♣, 3♣, 4♣ left."."""
    return _("You passed %(cards)s %(direction)s.") % {
        "cards": ", ".join(card.display for card in cards),
        "direction": direction_words(direction),
    }


# The table's notices of the move it made for a player out of time.


def passed_for(name: str) -> str:
    return _("Time ran out for %(name)s: the table passed three cards for them.") % {"name": name}


def moon_chosen_for(name: str) -> str:
    return _("Time ran out for %(name)s: the table chose how the moon scores.") % {"name": name}


def played_for(name: str, card: str) -> str:
    """``card``: the display of the card the table played."""
    return _("Time ran out for %(name)s: the table played the %(card)s for them.") % {
        "name": name,
        "card": card,
    }


def ended_by_clock(reason: str, name: str) -> str:
    """The table's notice of a game the clock ended against ``name`` (``reason`` is ``left``
    or ``timed out``)."""
    if reason == EndReason.LEFT:
        return _("%(name)s ran out of time three times in a row and left the game.") % {
            "name": name
        }
    return _("%(name)s ran out of time: the game ends against them.") % {"name": name}


def result_line(place: int, name: str, total: int, ended_early: str | None = None) -> str:
    """A seat's line of a finished game's result: "1st: alice, 45 points", and for the player
    the game ended against, how ("4th: bob, 60 points (resigned)").

    >>> result_line(4, "bob", 60, "timed out")
    '4th: bob, 60 points (out of time)'
    """
    # The English reads "points" for one point too, as the table always said it.
    values = {"place": ordinal(place), "name": name, "total": total}
    count = plural_count(total)
    if ended_early in ENDED_EARLY_NOTES:
        values["note"] = ENDED_EARLY_NOTES[ended_early]
        return (
            ngettext(
                "%(place)s: %(name)s, %(total)s points (%(note)s)",
                "%(place)s: %(name)s, %(total)s points (%(note)s)",
                count,
            )
            % values
        )
    return (
        ngettext(
            "%(place)s: %(name)s, %(total)s points", "%(place)s: %(name)s, %(total)s points", count
        )
        % values
    )


def hand_scored(hand: int, scores: list[tuple[str, int]]) -> str:
    """What a hand scored, by each player's name.

    >>> hand_scored(2, [("alice", 0), ("bob", 26)])
    'Hand 2 scored: alice +0, bob +26.'
    """
    return _("Hand %(number)s scored: %(scores)s.") % {
        "number": hand,
        "scores": signed_scores(scores),
    }
