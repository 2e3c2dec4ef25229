"""What a chat message may say, as text: a pure helper of the chat's write path.

Messages are stored and shown as plain text (the templates escape them; nothing in them becomes
a link or markup). Characters that change the direction of the text around them or are not
seen at all could make a message read otherwise than it was written, so they are dropped, but
for the joiner and the variation selectors that emoji are made of. Other control characters
go too, a tab becomes a space, and more than one empty line in a row is one.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.validators import invisible_character_in

from .models import MAX_LENGTH

# The invisible characters emoji sequences are written with (the zero-width joiner, and the
# text and emoji variation selectors): harmless, and a family or a flag is made of them.
EMOJI_JOINERS = frozenset("\u200d\ufe0e\ufe0f")
_EMPTY_LINES = re.compile(r"\n[ \n]*\n")


def cleaned(text: str) -> str:
    r"""``text`` as it is kept: invisible and control characters out, the ends trimmed.

    >>> cleaned("  hi\r\n\r\n\r\nthere\t!\u202e ")
    'hi\n\nthere !'
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    kept = "".join(char for char in text if _shown(char))
    return _EMPTY_LINES.sub("\n\n", kept).strip()


def refusal(text: str) -> str | None:
    """Why ``text`` (cleaned) cannot be sent, or None.

    >>> refusal("")
    'Write something first'
    >>> refusal("x" * 501)
    'A message is at most 500 characters: this one has 501'
    """
    if not text:
        return _("Write something first")
    if len(text) > MAX_LENGTH:
        return ngettext(
            "A message is at most %(most)s characters: this one has %(count)s",
            "A message is at most %(most)s characters: this one has %(count)s",
            len(text),
        ) % {"most": MAX_LENGTH, "count": len(text)}
    return None


def _shown(char: str) -> bool:
    if char == "\n" or char in EMOJI_JOINERS:
        return True
    if unicodedata.category(char) == "Cc":
        return False
    return invisible_character_in(char) is None
