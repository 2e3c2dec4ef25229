"""The board's small repeated parts (a card of a hand, a card on the table, a seat's plate),
each rendered by its partial of templates/games/table.html once a process for every way it is
shown, and then taken as it is.

A piece's value is a small frozen dataclass holding exactly what its partial shows, so that two
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
import operator
import re
from collections.abc import Callable, Iterable
from html import escape
from typing import Any

from django.template.loader import get_template
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language

renders = 0  # stencils rendered by this process: bench/move_cost.py reads it

# A slot's mark: characters autoescaping and the words around it leave as they are.
_MARK = "\N{LEFT WHITE SQUARE BRACKET}{}\N{RIGHT WHITE SQUARE BRACKET}"
_MARKS = re.compile("\N{LEFT WHITE SQUARE BRACKET}([0-9]+)\N{RIGHT WHITE SQUARE BRACKET}")

# A stencil: the text between the marks, and for each mark the slot it takes.
Stencil = tuple[tuple[str, ...], tuple[int, ...]]


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
        self._kept: dict[tuple[Any, str | None], Stencil] = {}

    def __call__(self, value: Any) -> str:
        """The piece's HTML for ``value`` in the active language."""
        return self._html(value, get_language())

    def join(self, values: Iterable[Any]) -> SafeString:
        """The pieces of ``values``, one after another."""
        language = get_language()
        return mark_safe("".join([self._html(value, language) for value in values]))

    def _html(self, value: Any, language: str | None) -> str:
        filled_in: tuple[Any, ...] = ()
        if self._slot_values is None:
            slot: tuple[Any, str | None] = (value, language)
        else:
            if self._shape_values is None:
                shaped = [f.name for f in dataclasses.fields(value) if f.name not in self.slots]
                self._shape_values = operator.attrgetter(*shaped) if shaped else (lambda value: ())
            filled_in = self._slot_values(value)
            if len(self.slots) == 1:
                filled_in = (filled_in,)
            empty = tuple(not text for text in filled_in)
            slot = ((type(value), self._shape_values(value), empty), language)
        stencil = self._kept.get(slot)
        if stencil is None:
            shape = value
            if self.slots:
                marks = {name: mark for name, mark in self._marks.items() if getattr(value, name)}
                shape = dataclasses.replace(value, **marks)
            stencil = self._kept[slot] = self._stencil(shape)
        texts, takes = stencil
        if not takes:
            return texts[0]
        values = filled_in
        filled = [texts[0]]
        for text, index in zip(texts[1:], takes, strict=True):
            slot_value = values[index]
            # As the template prints it: escaped, unless marked safe already.
            text_in = str(slot_value)
            filled.append(text_in if isinstance(slot_value, SafeData) else escape(text_in))
            filled.append(text)
        return "".join(filled)

    def _stencil(self, shape: Any) -> Stencil:
        global renders
        renders += 1
        if len(self._kept) >= self.most:
            for old in list(self._kept)[: self.most // 2]:
                del self._kept[old]
        html = get_template(self.partial).render({self.name: shape})
        cut = _MARKS.split(html)
        return tuple(cut[0::2]), tuple(int(index) for index in cut[1::2])
