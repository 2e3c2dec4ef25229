"""Errors raised by the engine: all are ``ValueError`` subclasses with a plain-words message."""

from __future__ import annotations


class HeartsError(ValueError):
    """Base class of every error the engine raises."""


class InvalidCardError(HeartsError):
    """Card notation that does not name a card, such as ``"1S"`` or ``"QX"``."""


class InvalidRulesError(HeartsError):
    """An option value or a combination of options that the engine does not play."""


class RecordError(HeartsError):
    """A serialized hand, match or move that cannot be read back."""


class IllegalMoveError(HeartsError):
    """A pass, play or choice that the rules do not allow now.

    ``str(error)`` is the reason in plain words, fit to show a player.
    """


class NotYourTurnError(IllegalMoveError):
    """A seat acted when it was somebody else's turn."""


class WrongPhaseError(IllegalMoveError):
    """An action that does not belong to the current phase (a play during the pass, ...)."""


class InvalidPassError(IllegalMoveError):
    """A pass that is not three distinct cards from the passer's hand, or a second pass."""


class MatchOverError(IllegalMoveError):
    """Any action at a match that has already ended."""
