"""The live board's fragments, each declared once: its id (the element htmx swaps by id), its
partial of templates/games/table.html, whom it is for, and the key of what it shows.

A fragment for ``EVERYONE`` is the same on every screen at the table, players' and
spectators' alike: it is rendered once a version for the whole table, from the public context
(no seat, no person, no card a spectator could not see), and the page's own CSS turns the
table so that its viewer's seat sits at the bottom (static/css/table.css). A fragment for a
``SEAT`` is rendered for one seat (or for the spectators, all alike) from that seat's private
context: the player's own hand and buttons.

A fragment is pushed to a screen only when its key differs from the key of what the screen
shows: the key holds the context's values the fragment shows (a seat's own, what the engine
says of the seat: live/table_context.py, ``seat_shows``). The clock's seconds are left out: the
page counts them down itself from the deadline, which is in the key. The fragments that go out
with most moves (the board's state, the seats, the trick, a hand) are pieces (live/pieces.py):
made from stencils rendered once a process, not by the template engine at each move.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import Any

from django.template.loader import render_to_string

from .pieces import Pieces

Context = dict[str, Any]
Keys = dict[str, str]


class Audience(Enum):
    EVERYONE = "everyone"  # one render a version for the whole table
    SEAT = "seat"  # one render for a seat (or for all the spectators), when its key changed


@dataclass(frozen=True)
class Fragment:
    id: str
    audience: Audience
    key: Callable[[Context], Hashable]
    # A fragment that goes out with most moves is a piece (live/pieces.py): its partial reads one
    # value of the context, made of pieces already, and is rendered once a process for each
    # shape of it, not once a move.
    piece: Pieces | None = None

    @property
    def partial(self) -> str:
        return f"games/table.html#{self.id}"

    def render(self, context: Context) -> str:
        if self.piece is not None:
            return self.piece(context[self.piece.name])
        global renders
        renders += 1
        return render_to_string(self.partial, context)


def _piece(fragment: str, name: str, *slots: str) -> Pieces:
    return Pieces(f"games/table.html#{fragment}", name, slots=slots, most=1024)


renders = 0  # fragments rendered by this process: bench/move_cost.py reads it


def _board_state(c: Context) -> Hashable:
    return c["board_state"]


def _trick(c: Context) -> Hashable:
    view = c["view"]
    return repr((c["trick"], c["completed_trick"], c["last_trick"], view.phase, view.hand_number))


# A seat's own fragments are keyed by what the engine says of the seat (live/table_context.py,
# ``seat_shows``), not by their context, which is made only to render them.


_my_hand = itemgetter(
    "me", "hand", "my_turn", "legal", "reasons", "received", "passed", "direction", "passing",
    "my_pass_done",
)  # fmt: skip
_controls = itemgetter(
    "has_last_trick", "me", "over", "passing", "my_pass_done", "phase", "my_turn", "moon_choice",
    "direction",
)  # fmt: skip


def _scores(c: Context) -> Hashable:
    return repr(([(p.name, p.total) for p in c["players"]], c["hand_rows"], c["game"].is_over))


FRAGMENTS: tuple[Fragment, ...] = (
    Fragment(
        "board-state",
        Audience.EVERYONE,
        _board_state,
        _piece("board-state", "board_state", "game", "version", "turn", "hand"),
    ),
    Fragment(
        "status",
        Audience.EVERYONE,
        lambda c: c["status"],
        _piece("status", "status", "others", "yours", "seats", "after"),
    ),
    Fragment(
        "hand-end",
        Audience.EVERYONE,
        lambda c: repr((c["last_hand_summary"], c["hand_taken"])),
    ),
    Fragment("timed-out", Audience.EVERYONE, lambda c: c["timed_out"]),
    Fragment(
        "seats",
        Audience.EVERYONE,
        lambda c: repr((c["players"], c["passing"], c["deadline_ms"])),
        _piece("seats", "seats", "plates"),
    ),
    Fragment(
        "trick",
        Audience.EVERYONE,
        _trick,
        _piece("trick", "on_table", "hand", "cards", "completed", "last"),
    ),
    Fragment(
        "my-hand",
        Audience.SEAT,
        _my_hand,
        _piece(
            "my-hand",
            "my_hand",
            "me",
            "pass_target",
            "direction",
            "buttons",
            "refusals",
            "passed_words",
        ),
    ),
    Fragment("controls", Audience.SEAT, _controls),
    Fragment("result", Audience.EVERYONE, lambda c: tuple(c["result_rows"])),
    Fragment("scores", Audience.EVERYONE, _scores),
    Fragment(
        "fairness",
        Audience.EVERYONE,
        lambda c: (c["game"].pk, c["game"].is_over, c["seed_hex"], c["code"]),
    ),
)

PUBLIC = tuple(f for f in FRAGMENTS if f.audience is Audience.EVERYONE)
PRIVATE = tuple(f for f in FRAGMENTS if f.audience is Audience.SEAT)


def keys_of(fragments: tuple[Fragment, ...], context: Context) -> Keys:
    """Each fragment's key for ``context``, as text: the same whichever process worked it out,
    so that a key can travel with the news (live/relays.py)."""
    return {fragment.id: repr(fragment.key(context)) for fragment in fragments}
