"""A table as the process holding its sockets keeps it, and what its screens are pushed.

A table's relay (live/relays.py) keeps its :class:`TableState` in memory: the table, its
seats, and its running game (row, engine state and players, :class:`services.Running`). A move
from one of its sockets is judged against it and applied to it in place by the write path
(games/services.py), which loads nothing first; the state is loaded from the database only when
the process first serves the table, after another writer moved (a bot's worker, the clock, a
socket on another process), and when seats change.

What a move changes is pushed by the fragments of live/fragments.py: those for everyone are
rendered once a version for the whole table, those for a seat once for that seat, and only
when their key changed. The whole table (a socket that connects, a gap, a game that starts or
ends) is rendered for each screen from the viewer's context.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from games import selectors, words
from games.engine import Match
from games.models import Game, GamePlayer, Table
from games.selectors import Viewer
from games.services import Running

from . import fragments, table_context
from .fragments import Context, Keys

# The threads the sockets' database work and renders run in. Channels would run them all on the
# one thread it keeps for synchronous code, one after another: a move waiting on a round trip
# to the database would hold up every table of the process.
POOL = ThreadPoolExecutor(max_workers=settings.HEARTS_SOCKET_THREADS, thread_name_prefix="socket")


def in_pool(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a coroutine run in a thread of the pool, with the thread's database
    connection looked after as Channels does it (closed when obsolete or broken).

    A plain hand-off to the pool, not asgiref's (``DatabaseSyncToAsync``), whose bookkeeping
    around every call (its thread-sensitive contexts, the connections checked before and after)
    cost a move more than its write: the connections are checked before a call only once a
    second a thread, and after one that failed. It runs in the caller's language (which a
    thread of the pool would not otherwise know: Django keeps it a thread)."""

    async def run(*args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        call = contextvars.copy_context().run
        language = translation.get_language()
        return await loop.run_in_executor(
            POOL, call, _looked_after, function, args, kwargs, language
        )

    return run


_checked = threading.local()  # .at: when this thread last looked at its connections
CHECK_SECONDS = 1.0


def _looked_after(
    function: Callable[..., Any], args: tuple[Any, ...], kwargs: Any, language: str | None
) -> Any:
    now = time.monotonic()
    if now - getattr(_checked, "at", float("-inf")) > CHECK_SECONDS:
        close_old_connections()
        _checked.at = now
    try:
        if language is None or language == translation.get_language():
            return function(*args, **kwargs)
        with translation.override(language):
            return function(*args, **kwargs)
    except BaseException:
        close_old_connections()  # a connection the error broke is not used again
        raise


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


# A viewer as the fragments for a seat see them: (seat, person, CSRF token, invite code,
# language). All the spectators who came in alike and read one language share one: (None, None,
# "", code, language). Everything is rendered in the viewer's language: two screens at one table
# in two languages are two viewers, and the fragments for everyone are rendered once a language.
Variant = tuple[int | None, int | None, str, str, str]
SPECTATOR: Variant = (None, None, "", "", settings.LANGUAGE_CODE)  # without an invite code
PUBLIC = ("public", "", settings.LANGUAGE_CODE)  # what everyone sees, without a code
# How many renders a table keeps for the versions to come (:attr:`TableState._rendered`).
RENDERED_KEPT = 256


@dataclass
class TableState:
    """A table at one version of its current game (or before its first), as a process holds
    it. The renders of its current version are kept until the next move."""

    table: Table
    running: Running | None
    seated: frozenset[int]  # the people in the table's seats (not only the game's players)
    _contexts: dict[Hashable, Context] = field(default_factory=dict)
    _keys: dict[Hashable, Keys] = field(default_factory=dict)
    _html: dict[tuple[str, Hashable], str] = field(default_factory=dict)
    before: Keys = field(default_factory=dict)  # a spectator's keys at the version before
    _offered: dict[str, tuple[str, str]] = field(default_factory=dict)  # id: (key, HTML)
    # The fragments rendered at this table, by fragment, viewer and key, kept from one version to
    # the next: a fragment whose key comes back (a player's buttons on each turn, the status
    # line as the turn goes round) is not rendered again. A key holds all its fragment shows.
    _rendered: dict[tuple[str, Hashable, str], str] = field(default_factory=dict)
    # What the public context keeps from one version to the next (the trick taken, made once).
    _across: dict[Hashable, Any] = field(default_factory=dict)

    @property
    def game(self) -> Game | None:
        return None if self.running is None else self.running.game

    @property
    def match(self) -> Match | None:
        return None if self.running is None else self.running.match

    @property
    def players(self) -> list[GamePlayer]:
        return [] if self.running is None else self.running.players

    @property
    def shown(self) -> tuple[int, int] | None:
        """(game, version), what a socket's screen shows once it has this state."""
        game = self.game
        return None if game is None else (game.pk, game.version)

    @property
    def stale(self) -> bool:
        """A move applied to it was refused by the database: it must be loaded again."""
        return self.running is not None and self.running.stale

    def moved(self) -> None:
        """The game moved on in place: what was rendered for the version before is dropped."""
        self.before = {**self._keys.get(PUBLIC, {}), **self._keys.get(SPECTATOR, {})}
        self._contexts.clear()
        self._keys.clear()
        self._html.clear()
        self._offered = {}

    def offer(self, rendered: dict[str, tuple[str, str]]) -> None:
        """Fragments for everyone of this version rendered by another process (key, HTML, as
        a move's news carries them: ``public_news``), used instead of rendering them here
        where the key is the same."""
        self._offered = rendered

    # Who sees what ----------------------------------------------------------------------

    def seat_of(self, user: Viewer) -> int | None:
        return selectors.seat_among(self.players, user)

    def variant(
        self, user: Viewer, code: str, csrf: str, language: str = settings.LANGUAGE_CODE
    ) -> Variant:
        me = self.seat_of(user)
        person = user.pk if user is not None and user.is_authenticated else None
        if me is None and person not in self.seated:
            return (None, None, "", code, language)  # a spectator: like every other
        return (me, person, csrf, code, language)

    def admits(self, user: Viewer, code: str | None) -> bool:
        """Whether ``user`` (with the invite ``code`` they came with) may watch the table: as
        :func:`selectors.can_view`, from what is in memory."""
        if not self.table.private or selectors.is_invite_code(self.table, code):
            return True
        return user is not None and user.is_authenticated and user.pk in self.seated

    # Contexts, keys and renders, each once a version ----------------------------------------

    def public_context(self, code: str, language: str = settings.LANGUAGE_CODE) -> Context:
        context = self._contexts.get(("public", code, language))
        if context is None:
            game, match = self.game, self.match
            assert game is not None and match is not None
            with translation.override(language):
                context = {
                    "table": self.table,
                    "code": code,
                    **table_context.public_context(game, match, self.players, self._across),
                }
            self._contexts[("public", code, language)] = context
        return context

    def private_context(self, variant: Variant, user: Viewer) -> Context:
        context = self._contexts.get(variant)
        if context is None:
            game, match = self.game, self.match
            assert game is not None and match is not None
            me, _, csrf, code, language = variant
            with translation.override(language):
                context = {
                    "table": self.table,
                    "user": user if variant[1] is not None else None,
                    "csrf_token": csrf,
                    "code": code,
                    **table_context.private_context(game, match, self.players, me),
                }
            self._contexts[variant] = context
        return context

    def keys(self, variant: Variant, user: Viewer) -> Keys:
        """Every fragment's key, as the viewer of ``variant`` sees the table."""
        code, language = variant[3], variant[4]
        public = self._keys.get(("public", code, language))
        if public is None:
            with translation.override(language):
                public = fragments.keys_of(fragments.PUBLIC, self.public_context(code, language))
            self._keys[("public", code, language)] = public
        private = self._keys.get(variant)
        if private is None:
            # Read from the engine, without the seat's context: that is made only to render
            # a fragment of its own whose key changed.
            game, match = self.game, self.match
            assert game is not None and match is not None
            shows = table_context.seat_shows(game, match, variant[0])
            private = self._keys[variant] = fragments.keys_of(fragments.PRIVATE, shows)
        return {**public, **private}

    def fragment(self, fragment: fragments.Fragment, variant: Variant, user: Viewer) -> str:
        """The fragment's HTML for the viewer of ``variant``, rendered once for all alike."""
        public = fragment.audience is fragments.Audience.EVERYONE
        slot = (fragment.id, ("public", variant[3], variant[4]) if public else variant)
        html = self._html.get(slot)
        shared = public and not variant[3] and variant[4] == settings.LANGUAGE_CODE
        if html is None and shared and fragment.id in self._offered:
            key, offered = self._offered[fragment.id]
            if key == self.keys(variant, user)[fragment.id]:
                html = self._html[slot] = offered
        if html is None:
            # (The fragments made of pieces are not kept: their stencils are, a process.)
            kept = None
            if fragment.piece is None:
                kept = (fragment.id, slot[1], self.keys(variant, user)[fragment.id])
                html = self._rendered.get(kept)
            if html is None:
                if public:
                    context = self.public_context(variant[3], variant[4])
                else:
                    context = self.private_context(variant, user)
                with translation.override(variant[4]):
                    html = fragment.render(context)
                if kept is not None:
                    if len(self._rendered) >= RENDERED_KEPT:
                        self._rendered.clear()
                    self._rendered[kept] = html
            self._html[slot] = html
        return html


def load(table_id: int) -> TableState | None:
    """The table as the database has it now, or None if it is gone."""
    table = Table.objects.filter(pk=table_id).prefetch_related("seats__user").first()
    if table is None:
        return None
    seated = frozenset(seat.user_id for seat in table.seats.all() if seat.user_id is not None)
    game = table.current_game()
    if game is None:
        return TableState(table, None, seated)
    players = list(game.players.select_related("user"))
    game.table = table
    return TableState(table, Running(game, game.live_match(), players), seated)


@dataclass
class Push:
    html: str  # what to send: fragments, or nothing
    shown: tuple[int, int] | None
    keys: Keys


def whole(
    state: TableState,
    user: Viewer,
    *,
    code: str,
    csrf: str,
    site: str = "",
    language: str = settings.LANGUAGE_CODE,
) -> Push:
    """The whole table as ``user`` sees it, in ``language``: for a socket that connects, or
    after a gap. ``site`` is the page's scheme and host, for the links given whole (a private
    table's invite)."""
    base = {"table": state.table, "user": user, "csrf_token": csrf, "code": code, "site": site}
    game, match = state.game, state.match
    with translation.override(language):
        if game is None or match is None:
            return Push(render_to_string("games/_live.html", base), None, {})
        # The board is its fragments as this version's pushes have them, each rendered once
        # for everyone alike (live/fragments.py): only the page's frame around them is
        # rendered here, not the whole board again for every screen that connects.
        variant = state.variant(user, code, csrf, language)
        keys = state.keys(variant, user)
        board = "\n".join(state.fragment(f, variant, user) for f in fragments.FRAGMENTS)
        context = {
            **base,
            "game": game,
            "view": state.public_context(code, language)["view"],
            "board_view": table_context.board_view(variant[0]),
            "board_fragments": mark_safe(board),
        }
        return Push(render_to_string("games/_live.html", context), state.shown, keys)


def changed(
    state: TableState,
    user: Viewer,
    *,
    code: str,
    csrf: str,
    keys: Keys,
    language: str = settings.LANGUAGE_CODE,
) -> Push:
    """The fragments whose key differs from ``keys`` (what the screen shows, at an earlier
    version of the same game), each rendered once for everyone it is for (in its language)."""
    variant = state.variant(user, code, csrf, language)
    new = state.keys(variant, user)
    html = "".join(
        state.fragment(fragment, variant, user)
        for fragment in fragments.FRAGMENTS
        if new[fragment.id] != keys.get(fragment.id)
    )
    return Push(html, state.shown, new)


def notice(message: dict[str, Any], language: str) -> str:
    """The notice a table's message carries (games/effects.py, ``table_notice``) as every
    screen reading ``language`` is pushed it; nothing for a notice this process does not know."""
    with translation.override(language):
        text = words.notice(str(message.get("notice", "")), message.get("values") or {})
        return render_to_string("games/_notice.html", {"notice": text}) if text else ""


def public_news(state: TableState) -> dict[str, tuple[str, str]]:
    """The fragments a spectator (without an invite code) sees that changed since the version
    before, key and HTML, as a move's news carries them to the other processes' spectators:
    the fragments for everyone, and a spectator's own (no hand, the buttons anyone has)."""
    keys = state.keys(SPECTATOR, None)
    return {
        fragment.id: (keys[fragment.id], state.fragment(fragment, SPECTATOR, None))
        for fragment in fragments.FRAGMENTS
        if keys[fragment.id] != state.before.get(fragment.id)
    }
