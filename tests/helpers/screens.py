"""A screen as the browser holds it: the table's fragments by id, as pushes replace them."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# What differs between two renders of one version: the seconds left on the clock (the page
# counts them down itself) and the random seed offered to a player at every look.
CLOCK = re.compile(r'<span class="clock-seconds">\d+</span>|(?<=name="seed")[^>]*')


class Fragments(HTMLParser):
    """The top-level elements of a push (or of the board) by their ids, as their source."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "wbr", "source"}

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.depth = 0
        self.start: tuple[int, str] | None = None
        self.found: dict[str, str] = {}
        self.feed(html)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.start = (self._offset(), dict(attrs).get("id") or "")
        if tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        self.depth -= 1
        if self.depth == 0 and self.start is not None:
            offset, name = self.start
            end = self.html.index(">", self._offset()) + 1
            self.found[name] = self.html[offset:end]
            self.start = None


def board_fragments(whole: str) -> dict[str, str]:
    """The fragments of the whole table, as a screen holds them."""
    inner = whole[whole.index('<section id="board"') :]
    inner = inner[
        inner.index(">") + 1 : inner.rindex("</section>", 0, inner.index('<div id="flash"'))
    ]
    return Fragments(inner).found


def steady(fragments: dict[str, str]) -> dict[str, str]:
    """The fragments without what differs between two renders of one version."""
    return {name: CLOCK.sub("", html) for name, html in fragments.items()}
