"""The rules for the names people sign up with.

Names are short, plain and cannot pass for one of the site's bots or its staff. The look-alike
check reads the name without case, separators or digits standing in for letters:

>>> reserved_word_in("Alice") is None
True
>>> reserved_word_in("R0b-0t")
'bot'
>>> reserved_word_in("adm1n")
'admin'
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

MIN_LENGTH = 3
MAX_LENGTH = 20
RESERVED_WORDS = ("bot", "admin", "moderator", "staff", "system", "hearts")

_ALLOWED = re.compile(r"[A-Za-z0-9_-]+")
# Digits that read as letters; "1" reads as either "l" or "i", so both readings are checked.
_LOOKALIKES = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "_": "", "-": ""})


def readings(name: str) -> set[str]:
    """The ways ``name`` can be read, ignoring case, separators and look-alike digits.

    >>> sorted(readings("B_0-1d"))
    ['boid', 'bold']
    """
    plain = name.lower().translate(_LOOKALIKES)
    return {plain.replace("1", "l"), plain.replace("1", "i")}


def reserved_word_in(name: str) -> str | None:
    """The reserved word that ``name`` contains or imitates, if any."""
    for reading in sorted(readings(name)):
        for word in RESERVED_WORDS:
            if word in reading:
                return word
    return None


def validate_username(name: str) -> None:
    """Raise ``ValidationError`` with a plain reason if ``name`` cannot be a username."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise ValidationError(
            f"Choose a name of {MIN_LENGTH} to {MAX_LENGTH} characters (this one has {len(name)}).",
            code="length",
        )
    if not _ALLOWED.fullmatch(name):
        raise ValidationError(
            "Use only letters (a to z), digits, underscores (_) and hyphens (-).",
            code="characters",
        )
    if word := reserved_word_in(name):
        raise ValidationError(
            f"Names that contain or look like “{word}” are reserved, so that nobody can pass "
            "for a bot or for the site's staff. Please choose another.",
            code="reserved",
        )
