"""What a table's socket pushes: the whole table, or only the fragments an event changed.

The board (templates/games/table.html) is made of fragments, each with an id: the board's state
(game, version, phase, whose turn), the status line, the hand just scored, the time-out notice,
the seats, the trick, the player's own hand, the buttons, the result, the score sheet and the
deal's fairness. :func:`fragment_keys` says what each shows, in values taken from the seat's
context; a socket remembers the keys of what its screen shows and, for the next version, renders
and sends only the fragments whose key changed. htmx swaps each in by its id.

The state a push is rendered from is loaded once per process for all the sockets of a table
(:func:`state_for`): the game row with its snapshot, never the move log. What spectators see is
the same for all of them, so their fragments are rendered once per version and shared.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections
from django.template.loader import render_to_string

from games.engine import Match

from . import selectors
from .models import Game, GamePlayer, Table
from .selectors import Viewer

FRAGMENTS = (
    "board-state",
    "status",
    "hand-end",
    "timed-out",
    "seats",
    "trick",
    "my-hand",
    "controls",
    "result",
    "scores",
    "fairness",
)

Keys = dict[str, Hashable]

# Tables whose latest state a process keeps; a table past this is loaded again when it moves.
KEPT_TABLES = 5000


# The threads the sockets' database work and renders run in. Channels would run them all on the
# one thread it keeps for synchronous code, one after another: a move waiting on a row lock or
# a round trip to the database would hold up every table of the process.
POOL = ThreadPoolExecutor(max_workers=settings.HEARTS_SOCKET_THREADS, thread_name_prefix="socket")


def in_pool(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a coroutine run in a thread of the pool, with the thread's database
    connection looked after as Channels does it (closed when obsolete or broken)."""
    return DatabaseSyncToAsync(function, thread_sensitive=False, executor=POOL)


def close_pool_connections() -> None:
    """Close the database connections of every thread of the pool: for tests, whose database
    cannot be dropped while a connection to it is open."""
    threads = settings.HEARTS_SOCKET_THREADS
    everyone = threading.Barrier(threads)

    def close() -> None:
        everyone.wait(timeout=10)  # so that each thread of the pool takes one
        connections.close_all()

    for future in [POOL.submit(close) for _ in range(threads)]:
        future.result()


@dataclass
class TableState:
    """A table as it stands at one version of its current game, for all the sockets of this
    process (read-only once loaded)."""

    table: Table
    game: Game | None
    match: Match | None
    players: list[GamePlayer]
    seated: frozenset[int]  # the users in the table's seats (not only the game's players)
    lock: threading.Lock = field(default_factory=threading.Lock)
    spectators: dict[str, tuple[Keys, dict[str, str]]] = field(default_factory=dict)
    # The spectators' fragments at the version before, by code: those whose key has not
    # changed are not rendered again.
    earlier: dict[str, tuple[Keys, dict[str, str]]] = field(default_factory=dict)

    @property
    def shown(self) -> tuple[int, int] | None:
        """(game, version), what a socket's screen shows once it has this state."""
        return None if self.game is None else (self.game.pk, self.game.version)


_lock = threading.Lock()
_latest: OrderedDict[int, TableState] = OrderedDict()
_loading: dict[int, threading.Lock] = {}


Made = tuple[Game, Match]  # a move's game row and match, as the move left them


def state_for(
    table_id: int, shown: tuple[int, int] | None = None, made: Made | None = None
) -> TableState | None:
    """The table's state at the version ``shown`` (game, version) or later, loaded from the
    database unless this process has it already, or ``made`` it (a move of this process, at
    that version); with ``shown`` None, always loaded afresh (seating changed, or a socket
    connects). None if the table is gone."""
    with _lock:
        loading = _loading.setdefault(table_id, threading.Lock())
    with loading:  # one load a table at a time: the others wait for it and share it
        with _lock:
            kept = _latest.get(table_id)
        have = None if kept is None else kept.shown
        if shown is not None and have is not None and have[0] == shown[0] and have[1] >= shown[1]:
            return kept
        if shown is not None and kept is not None and have is not None and have[0] == shown[0]:
            state = _next_version(kept, made)  # a move: only the game row has changed
        else:
            state = _load(table_id)
        with _lock:
            if state is None:
                _latest.pop(table_id, None)
                _loading.pop(table_id, None)
            else:
                _latest[table_id] = state
                _latest.move_to_end(table_id)
                while len(_latest) > KEPT_TABLES:
                    gone, _ = _latest.popitem(last=False)
                    _loading.pop(gone, None)
        return state


def forget(table_id: int | None = None) -> None:
    """Drop what this process keeps (of one table, or all): for tests."""
    with _lock:
        if table_id is None:
            _latest.clear()
        else:
            _latest.pop(table_id, None)


def _next_version(kept: TableState, made: Made | None = None) -> TableState | None:
    """The table after a move of its game: the game row reloaded (or the one the move
    ``made``), its table, seats and players kept (a move changes none of them), unless the
    game has ended, when the table changes too (its status; the seats' seeds for the next game
    are shown)."""
    assert kept.game is not None
    if made is not None and made[0].pk == kept.game.pk and not made[0].is_over:
        game, match = made
    else:
        loaded = Game.objects.filter(pk=kept.game.pk).first()
        if loaded is None or loaded.is_over:
            return _load(kept.table.pk)
        game, match = loaded, loaded.live_match()
    return TableState(kept.table, game, match, kept.players, kept.seated, earlier=kept.spectators)


def _load(table_id: int) -> TableState | None:
    table = Table.objects.filter(pk=table_id).prefetch_related("seats__user").first()
    if table is None:
        return None
    game = table.current_game()
    seated = frozenset(seat.user_id for seat in table.seats.all() if seat.user_id is not None)
    if game is None:
        return TableState(table, None, None, [], seated)
    players = list(game.players.select_related("user"))
    return TableState(table, game, game.live_match(), players, seated)


@dataclass
class Push:
    html: str  # what to send: fragments, or nothing
    shown: tuple[int, int] | None
    keys: Keys


def render(
    state: TableState,
    user: Viewer,
    *,
    code: str,
    csrf_token: str,
    keys: Keys | None,
    showing: tuple[int, int] | None = None,
) -> Push:
    """What the socket of ``user`` sends for ``state``: only the fragments whose keys differ
    from ``keys``, what its screen shows; the whole table if that is not known (None), unless
    the screen shows this very version (``showing``, said by a socket that reconnects), when
    there is nothing to send."""
    base = {"table": state.table, "user": user, "csrf_token": csrf_token, "code": code}
    if state.game is None or state.match is None:
        return Push(render_to_string("games/_live.html", base), None, {})
    me = selectors.seat_among(state.players, user)
    shared = me is None and _user_id(user) not in state.seated
    resumed = keys is None and showing is not None and showing == state.shown
    if shared and (keys is not None or resumed):
        new, fragments = _spectator_fragments(state, base)
        if resumed:
            return Push("", state.shown, new)
        assert keys is not None
        changed = [name for name in FRAGMENTS if new[name] != keys.get(name)]
        return Push("".join(fragments[name] for name in changed), state.shown, new)
    context = {**base, **selectors.build_context(state.game, state.match, state.players, me)}
    new = fragment_keys(context)
    if resumed:
        return Push("", state.shown, new)
    if keys is None:
        return Push(render_to_string("games/_live.html", context), state.shown, new)
    html = "".join(
        render_to_string(f"games/table.html#{name}", context)
        for name in FRAGMENTS
        if new[name] != keys.get(name)
    )
    return Push(html, state.shown, new)


def _spectator_fragments(state: TableState, base: dict[str, Any]) -> tuple[Keys, dict[str, str]]:
    """Every fragment as a spectator sees it, worked out once a version for all of them (a
    private table's spectators by the code they came in with, which its links carry); only
    the fragments that changed since the version before are rendered again."""
    assert state.game is not None and state.match is not None
    code = base["code"]
    with state.lock:
        if code not in state.spectators:
            context = {
                **base,
                "user": None,
                "csrf_token": "",
                **selectors.build_context(state.game, state.match, state.players, None),
            }
            keys = fragment_keys(context)
            before_keys, before = state.earlier.get(code, ({}, {}))
            state.spectators[code] = (
                keys,
                {
                    name: before[name]
                    if name in before and before_keys.get(name) == keys[name]
                    else render_to_string(f"games/table.html#{name}", context)
                    for name in FRAGMENTS
                },
            )
        return state.spectators[code]


def fragment_keys(context: dict[str, Any]) -> Keys:
    """For each fragment of the board, the values from ``context`` that it shows: a fragment is
    pushed again only when its key changes. The clock's seconds are left out: the page counts
    them down itself from the deadline (which is in the key)."""
    view, game = context["view"], context["game"]
    players = context["players"]
    return {
        "board-state": (game.pk, context["version"], view.phase, context["to_play"]),
        "status": context["status"],
        "hand-end": repr((context["last_hand_summary"], context["hand_taken"])),
        "timed-out": context["timed_out"],
        "seats": repr((players, context["passing"], context["deadline_ms"])),
        "trick": repr(
            (
                context["trick"],
                context["completed_trick"],
                context["last_trick"],
                view.phase,
                view.hand_number,
            )
        ),
        "my-hand": repr(
            (
                context["me"],
                context["hand_cards"],
                view.my_turn,
                context["passing"],
                context["my_pass_done"],
                view.direction,
                view.passed,
            )
        ),
        "controls": repr(
            (
                context["has_last_trick"],
                context["me"],
                game.is_over,
                context["passing"],
                context["my_pass_done"],
                view.phase,
                view.my_turn,
                context["moon_choice"],
                view.direction,
            )
        ),
        "result": tuple(context["result_rows"]),
        "scores": repr(
            (
                [(p.name, p.total) for p in players],
                context["hand_rows"],
                game.is_over,
            )
        ),
        "fairness": (game.pk, game.is_over, context["seed_hex"], context["code"]),
    }


def _user_id(user: Viewer) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None
