"""The rules for the names people sign up with, and for any text of theirs the site shows.

Names are short, plain and cannot pass for one of the site's bots or its staff, for a word the
table shows in a seat ("you", "empty", "Seat 2"), or for someone who already plays here. The
reserved-word checks read the name without case, separators or digits standing in for letters:

>>> reserved_word_in("Alice") is None
True
>>> reserved_word_in("R0b-0t")
'bot'
>>> reserved_word_in("adm1n")
'admin'
>>> table_word_in("Seat_1"), table_word_in("y0u"), table_word_in("youngster")
('seat', 'you', None)

Two names are look-alikes when they share a key (``lookalike_keys``): the Unicode TR39
skeleton (ICU's, through PyICU) of the name as typed or in lower case, so that a capital I and
a small l, or "rn" and "m", are one. TR39 maps 0 to O and 1 to l but no other digit, so the
keys also read digits as the letters they stand in for (4 as a, 3 as e, 1 as i or l, ...):

>>> sorted(lookalike_keys("AIice"))
['aiice', 'alice']
>>> bool(lookalike_keys("4lice") & lookalike_keys("Alice"))
True

Text from people never carries characters that are invisible or turn text around:

>>> invisible_character_in("lucky \u202eseven")
'U+202E'
>>> shown_plain("lucky \u202eseven")
'lucky [U+202E]seven'
"""

from __future__ import annotations

import re

import icu
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MIN_LENGTH = 3
MAX_LENGTH = 20
RESERVED_WORDS = ("bot", "admin", "moderator", "staff", "system", "hearts")
# Words the table shows where a name goes (a seat's label, "(you)", "(gone)", "empty", ...): a
# name that is one of them, perhaps with a number after it, reads as the table speaking.
TABLE_WORDS = (
    "you",
    "gone",
    "empty",
    "host",
    "seat",
    "player",
    "nobody",
    "none",
    "dealer",
    "kitty",
    "spectator",
)

_ALLOWED = re.compile(r"[A-Za-z0-9_-]+")
# Digits that read as letters; "1" reads as either "l" or "i", so both readings are checked.
_DIGIT_LETTERS = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t"}
_DIGITS_AS_LETTERS = str.maketrans(_DIGIT_LETTERS)
_LOOKALIKES = str.maketrans({**_DIGIT_LETTERS, "_": "", "-": ""})  # and no separators
_SPOOF_CHECKER = icu.SpoofChecker()
# Invisible or direction-changing: default-ignorable code points (zero-width spaces and joiners,
# bidirectional controls, fillers, tag characters), controls, other format characters, line and
# paragraph separators, private use. Variation selectors 15 and 16 only choose between an
# emoji's text and picture forms, so "♥️" may stay.
_INVISIBLE = icu.UnicodeSet(
    r"[[:Default_Ignorable_Code_Point:][:Cc:][:Cf:][:Zl:][:Zp:][:Co:][:Cs:]-[\uFE0E\uFE0F]]"
)


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


def table_word_in(name: str) -> str | None:
    """The table's own word that ``name`` reads as (with or without a number after it), if any."""
    plain = name.lower().replace("_", "").replace("-", "").rstrip("0123456789")
    for reading in sorted(readings(plain)):
        if reading in TABLE_WORDS:
            return reading
    return None


def lookalike_keys(name: str) -> set[str]:
    """Keys that two names share when one could be taken for the other, in any case."""
    variants = {name, name.lower(), name.translate(_DIGITS_AS_LETTERS)}
    variants |= {v.replace("1", letter) for v in set(variants) for letter in "il"}
    return {_SPOOF_CHECKER.getSkeleton(0, v).lower() for v in variants}


def invisible_character_in(text: str) -> str | None:
    """The first invisible or direction-changing character of ``text`` ("U+202E"), if any."""
    for char in text:
        if _INVISIBLE.contains(char):
            return f"U+{ord(char):04X}"
    return None


def shown_plain(text: str) -> str:
    """``text`` with each invisible or direction-changing character written out as [U+XXXX]."""
    return "".join(f"[U+{ord(c):04X}]" if _INVISIBLE.contains(c) else c for c in text)


def validate_visible_text(text: str, what: str | None = None) -> None:
    """Raise ``ValidationError`` if ``text`` carries an invisible or direction-changing character.

    ``what`` names the text in the refusal ("Your comment"), in the reader's language."""
    if code := invisible_character_in(text):
        if what is None:
            message = _(
                "This text contains an invisible or direction-changing character (%(code)s). "
                "Please type it again without it."
            ) % {"code": code}
        else:
            message = _(
                "%(what)s contains an invisible or direction-changing character (%(code)s). "
                "Please type it again without it."
            ) % {"what": what, "code": code}
        raise ValidationError(message, code="invisible")


def validate_username(name: str) -> None:
    """Raise ``ValidationError`` with a plain reason if ``name`` cannot be a username."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise ValidationError(
            _("Choose a name of %(least)s to %(most)s characters (this one has %(length)s).")
            % {"least": MIN_LENGTH, "most": MAX_LENGTH, "length": len(name)},
            code="length",
        )
    if not _ALLOWED.fullmatch(name):
        raise ValidationError(
            _("Use only letters (a to z), digits, underscores (_) and hyphens (-)."),
            code="characters",
        )
    if word := reserved_word_in(name):
        raise ValidationError(
            _(
                "Names that contain or look like “%(word)s” are reserved, so that nobody can pass "
                "for a bot or for the site's staff. Please choose another."
            )
            % {"word": word},
            code="reserved",
        )
    if word := table_word_in(name):
        raise ValidationError(
            _(
                "Names that read as “%(word)s” are reserved: the table shows that word itself, "
                "and a player of that name would be taken for it. Please choose another."
            )
            % {"word": word},
            code="reserved",
        )
