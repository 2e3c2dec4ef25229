"""The board's small repeated parts (a card of a hand, a card on the table, a seat's plate),
each rendered by its partial of templates/games/table.html once a process for every way it is
shown, and then taken as it is.

A piece's value is a small dataclass holding exactly what its partial shows, never changed once
made and equal and hashable by its fields (live/table_context.py, ``shown_value``), so that two
equal values make the same HTML in one language. Some of its fields may be *slots*: text the
partial only prints, or tests for being empty, never compares or filters (a player's name, a
seat's facts, a deadline, HTML made of other pieces already). The partial is rendered once for
each *shape* (the value with every slot that is not empty replaced by a mark, in each language)
and kept as a stencil, its text cut at the marks; a value's HTML is then the stencil with each
slot's text, escaped as the template escapes it (unless marked safe), put in at its marks. So a
card played by a seat is rendered once a process and language whoever plays it, not once a
table.

The fragments that go out with every move (live/fragments.py) are made of these, so that a move
renders only the pieces of a shape the process has not shown yet, and the template engine's
work a move does not grow with what the board shows.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import operator
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.template.loader import get_template
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language

renders = 0  # stencils rendered by this process: bench/move_cost.py reads it

# A slot's text escaped as the template escapes it: the same few names and facts come again and
# again.
escape = functools.lru_cache(maxsize=8192)(html.escape)

# A slot's mark: characters autoescaping and the words around it leave as they are.
_MARK = "\N{LEFT WHITE SQUARE BRACKET}{}\N{RIGHT WHITE SQUARE BRACKET}"
_MARKS = re.compile("\N{LEFT WHITE SQUARE BRACKET}([0-9]+)\N{RIGHT WHITE SQUARE BRACKET}")


class Pieces:
    """One kind of piece: its partial, the name its value takes in the partial's context, and
    the value's fields that are slots. Bounded: once ``most`` stencils are kept, the oldest
    half are dropped."""

    def __init__(
        self, partial: str, name: str, slots: tuple[str, ...] = (), most: int = 8192
    ) -> None:
        self.partial = partial
        self.name = name
        self.slots = slots
        self.most = most
        self._marks = {slot: _MARK.format(index) for index, slot in enumerate(slots)}
        self._slot_values = operator.attrgetter(*slots) if slots else None
        self._shape_values: Callable[[Any], Any] | None = None
        # Each shape's stencil in each language: the partial as rendered (no slots), or a format
        # string with a field for each mark.
        self._kept: dict[Any, str] = {}

    def __call__(self, value: Any) -> str:
        """The piece's HTML for ``value`` in the active language."""
        return self._html(value, get_language())

    def join(self, values: Iterable[Any]) -> SafeString:
        """The pieces of ``values``, one after another."""
        language = get_language()
        return mark_safe("".join([self._html(value, language) for value in values]))

    def _html(self, value: Any, language: str | None) -> str:
        if self._slot_values is None:
            stencil = self._kept.get((value, language))
            if stencil is None:
                stencil = self._kept[(value, language)] = self._stencil(value)
            return stencil
        if self._shape_values is None:
            shaped = [f.name for f in dataclasses.fields(value) if f.name not in self.slots]
            self._shape_values = operator.attrgetter(*shaped) if shaped else (lambda value: ())
        filled_in = self._slot_values(value)
        if len(self.slots) == 1:
            filled_in = (filled_in,)
        slot = (self._shape_values(value), tuple(map(bool, filled_in)), language)
        stencil = self._kept.get(slot)
        if stencil is None:
            marks = {name: mark for name, mark in self._marks.items() if getattr(value, name)}
            stencil = self._kept[slot] = self._stencil(dataclasses.replace(value, **marks))
        # Each slot's text as the template prints it: escaped, unless marked safe already.
        return stencil.format(
            *[text if isinstance(text, SafeData) else escape(str(text)) for text in filled_in]
        )

    def _stencil(self, shape: Any) -> str:
        """The partial rendered for ``shape``, as a format string whose fields are its marks
        (the text's own braces doubled)."""
        global renders
        renders += 1
        if len(self._kept) >= self.most:
            for old in list(self._kept)[: self.most // 2]:
                del self._kept[old]
        rendered = get_template(self.partial).render({self.name: shape})
        if not self.slots:
            return rendered
        cut = _MARKS.split(rendered.replace("{", "{{").replace("}", "}}"))
        return "".join(text if at % 2 == 0 else "{" + text + "}" for at, text in enumerate(cut))
