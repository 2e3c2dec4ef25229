"""The live board's fragments, each declared once: its id (the element htmx swaps by id), its
partial of templates/games/table.html, whom it is for, and the key of what it shows.

A fragment for ``EVERYONE`` is the same on every screen at the table, players' and
spectators' alike: it is rendered once a version for the whole table, from the public context
(no seat, no person, no card a spectator could not see), and the page's own CSS turns the
table so that its viewer's seat sits at the bottom (static/css/table.css). A fragment for a
``SEAT`` is rendered for one seat (or for the spectators, all alike) from that seat's private
context: the player's own hand and buttons.

A fragment is pushed to a screen only when its key differs from the key of what the screen
shows: the key holds the context's values the fragment shows. The clock's seconds are left
out: the page counts them down itself from the deadline, which is in the key.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from django.template.loader import render_to_string

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

    @property
    def partial(self) -> str:
        return f"games/table.html#{self.id}"

    def render(self, context: Context) -> str:
        global renders
        renders += 1
        return render_to_string(self.partial, context)


renders = 0  # fragments rendered by this process: bench/move_cost.py reads it


def _board_state(c: Context) -> Hashable:
    view = c["view"]
    return (
        c["game"].pk,
        c["version"],
        view.phase,
        view.hand_number,
        view.hearts_broken,
        c["to_play"],
    )


def _trick(c: Context) -> Hashable:
    view = c["view"]
    return repr((c["trick"], c["completed_trick"], c["last_trick"], view.phase, view.hand_number))


def _my_hand(c: Context) -> Hashable:
    view = c["view"]
    return repr(
        (
            c["me"],
            c["hand_cards"],
            view.my_turn,
            c["passing"],
            c["my_pass_done"],
            view.direction,
            view.passed,
        )
    )


def _controls(c: Context) -> Hashable:
    view = c["view"]
    return repr(
        (
            c["has_last_trick"],
            c["me"],
            c["game"].is_over,
            c["passing"],
            c["my_pass_done"],
            view.phase,
            view.my_turn,
            c["moon_choice"],
            view.direction,
        )
    )


def _scores(c: Context) -> Hashable:
    return repr(([(p.name, p.total) for p in c["players"]], c["hand_rows"], c["game"].is_over))


FRAGMENTS: tuple[Fragment, ...] = (
    Fragment("board-state", Audience.EVERYONE, _board_state),
    Fragment("status", Audience.EVERYONE, lambda c: c["status"]),
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
    ),
    Fragment("trick", Audience.EVERYONE, _trick),
    Fragment("my-hand", Audience.SEAT, _my_hand),
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
