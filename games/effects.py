"""What a change to a table or a game does once its transaction commits: the news to the
table's sockets (and to the lobby's, for seating and status) and the bots' next task.
Nothing happens if the transaction rolls back. A move schedules nothing for the clock: its
deadline is stored on the game, and the sweep in Celery beat enforces it (games/tasks.py).

The services call this module; it schedules the bots' task by name, so it needs neither
``games.tasks`` nor the services, and the tasks are free to call the services. It hands the
news to the live layer by a signal (games/signals.py, ``news``): the live layer imports the
games, never the other way round.

A table's group message for a move carries the game's new version and the public part of what
happened, from the engine's events: a card played and by whom, a trick taken by whom with its
cards and points, hearts broken, a hand scored, the moon, a seat that has passed. Never a
hidden card: :func:`public_events` passes only the fields listed in ``PUBLIC_FIELDS``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from games.engine import Event, event_to_json
from games.engine import events as happened
from hearts_site import celery_app

from . import signals

LOBBY_GROUP = "lobby"
TABLE_NOTICE = "table.notice"  # news that changes nothing at the table

# The bots' task of games/tasks.py, by the name Celery registers it under.
BOT_MOVE = "games.tasks.bot_move"

# What each event may tell everyone: a pass says only who has passed, never the cards.
PUBLIC_FIELDS: dict[type[Any], tuple[str, ...]] = {
    happened.PassMade: ("seat",),
    happened.PassesExchanged: ("direction",),
    happened.CardPlayed: ("seat", "card"),
    happened.HeartsBroken: ("seat",),
    happened.TrickTaken: ("seat", "cards", "points"),
    happened.KittyTaken: ("seat",),
    happened.MoonShot: ("seat", "sun"),
    happened.MoonChoiceAsked: ("seat",),
    happened.HandScored: ("number", "points"),
    happened.HandDealt: ("number", "direction"),
    happened.MatchEnded: ("reason", "places"),
}


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def public_events(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The events as everyone at the table may hear them; an event not listed is left out."""
    public = []
    for event in events:
        fields = PUBLIC_FIELDS.get(type(event))
        if fields is None:
            continue
        data = event_to_json(event)
        public.append({"type": data["type"], **{name: data[name] for name in fields}})
    return public


def trick_pause(events: Iterable[Event]) -> float:
    """How much later than usual the bots move after these events: a completed trick stays on
    the table ``HEARTS_TRICK_PAUSE`` seconds, so that everyone sees its four cards."""
    if any(isinstance(event, happened.TrickTaken) for event in events):
        return float(settings.HEARTS_TRICK_PAUSE)
    return 0.0


def table_changed(table_id: int, *, lobby: bool) -> None:
    """After commit, the table's sockets hear of a change at the table outside a game's moves
    (so the message has no version), and the lobby's too if ``lobby`` (a seat taken, left or
    given to a bot, a table created: what the lobby lists)."""
    _tell({table_group(table_id): {"type": "table.updated", "events": []}}, lobby)


def table_notice(table_id: int, notice: str, **values: str) -> None:
    """After commit (at once outside a transaction: a refusal that changed nothing), every
    screen at the table, players' and spectators' alike, is told ``notice`` (a
    ``words.Notice``, worded with ``values`` in each screen's language by the relay that shows
    it: live/relays.py). The stamp lets a relay that hears it twice (from its own process,
    then through the layer) tell it once."""
    message = {"type": TABLE_NOTICE, "notice": notice, "values": values, "stamp": uuid.uuid4().hex}
    _tell({table_group(table_id): message}, lobby=False)


def game_changed(
    table_id: int,
    game_id: int,
    version: int,
    events: Sequence[Event],
    *,
    lobby: bool,
    bots_to_move: bool,
    table: bool = True,
) -> None:
    """After commit: the table hears of the move (unless ``table`` is False: the table's
    relay that made it tells everyone itself, live/relays.py), the lobby only of a start or
    an end, and the bots' task is queued if a bot is to move."""
    message = table_news(game_id, version, events)
    messages = {table_group(table_id): message} if table else {}
    _tell(messages, lobby)
    if bots_to_move:
        countdown = settings.HEARTS_BOT_DELAY + trick_pause(events)
        transaction.on_commit(lambda: _schedule(BOT_MOVE, game_id, version, countdown=countdown))


def table_news(game_id: int, version: int, events: Sequence[Event]) -> dict[str, Any]:
    """The table's message for a move: the game's new version and what everyone may hear."""
    return {
        "type": "table.updated",
        "game": game_id,
        "version": version,
        "events": public_events(events),
    }


def _tell(messages: dict[str, dict[str, Any]], lobby: bool) -> None:
    # See live/broadcasts.py: a stalled channel layer delays the news, never the move.
    if lobby:  # the stamp lets a process render the lobby once for all its lobby sockets
        messages[LOBBY_GROUP] = {"type": "lobby.updated", "stamp": uuid.uuid4().hex}
    if messages:
        transaction.on_commit(lambda: signals.news.send(sender=None, messages=messages))


def _schedule(name: str, game_id: int, version: int, **options: Any) -> None:
    celery_app.send_task(name, args=(game_id, version), **options)
