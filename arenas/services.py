"""Arenas: joining and pausing, the arena pages' sockets, seating the free entrants of a
running arena at rated tables of their own, a game's end, and beat's sweep (the start, the end,
the schedule of recurring arenas, the seating the widening gaps allow).

Everything is in the database, so every daphne and worker shares it and a restart loses no one.
Seating runs in Celery (arenas/tasks.py): when someone's arena page opens or they join, when
an arena game ends, and in beat's sweep. A seating locks the free entrants it reads ``FOR
UPDATE SKIP LOCKED`` (PostgreSQL), and claims each group by setting their ``game`` only where
it is empty: a seating that finds one of them taken rolls its table back, so no one is ever
seated at two tables. An entrant is free while not paused, not at a game, and with their arena
page open (the page counts itself in and out and says every ``HEARTBEAT_SECONDS`` that it is
there, as the rated queue's does); no new game starts once the arena has ended, and a game
still running then counts when it ends.
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from functools import partial, reduce
from operator import or_
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import selectors, services
from games.errors import ServiceError
from games.models import Game, GamePlayer
from hearts_site import celery_app
from live import broadcasts
from moderation import gates
from pairing import matching
from pairing.services import QUEUES, Queue, in_every_language, kept_apart, pairing_rating

from . import selectors as arena_selectors
from .models import Arena, ArenaGame, Entrant

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 10
STALE_SECONDS = 3 * HEARTBEAT_SECONDS
PAIR_TASK = "arenas.tasks.pair"
ENDED_TASK = "arenas.tasks.game_ended"


def arena_group(arena_id: int) -> str:
    """The channel group of an arena's open pages: they hear its standings."""
    return f"arena-{arena_id}"


def entrant_group(user_id: int) -> str:
    """The channel group of one person's arena pages: told where to go when seated."""
    return f"arena-player-{user_id}"


# Making arenas -----------------------------------------------------------------------------


def check_rules(preset: str, players: int) -> None:
    if Queue(preset, players) not in QUEUES:
        raise ServiceError(_("Choose one of the rule sets and table sizes the rated queue offers"))


def create_arena(
    name: str,
    *,
    preset: str,
    players: int,
    starts_at: datetime,
    minutes: int,
    created_by: User | None = None,
    schedule_key: str = "",
) -> Arena:
    check_rules(preset, players)
    if minutes < 1:
        raise ServiceError(_("An arena lasts a minute at least"))
    arena = Arena.objects.create(
        name=name,
        preset=preset,
        players=players,
        starts_at=starts_at,
        minutes=minutes,
        created_by=created_by,
        schedule_key=schedule_key,
    )
    return arena


# Joining and pausing -----------------------------------------------------------------------


def _arena(arena_id: int) -> Arena:
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        raise ServiceError(_("There is no such arena"))
    return arena


def check_may_join(user: User, arena: Arena, now: datetime | None = None) -> None:
    """Refuses, in words fit to show them, a person who may not join ``arena`` now (or, from
    the seating, be seated in it)."""
    if arena.ended or arena.state(now) == "finished":
        raise ServiceError(_("This arena is over: no one joins it now"))
    gates.check_may_queue(user)
    game = selectors.running_game(user)
    if game is not None and not Entrant.objects.filter(arena=arena, game=game).exists():
        raise ServiceError(
            _("You are playing a game elsewhere: finish it before joining the arena")
        )


def join(user: User, arena_id: int) -> Entrant:
    """``user`` joins the arena (or comes back from a pause): paired from now on while their
    arena page is open."""
    arena = _arena(arena_id)
    check_may_join(user, arena)
    now = timezone.now()
    with transaction.atomic():
        entrant = Entrant.objects.select_for_update().filter(arena=arena, user=user).first()
        if entrant is None:
            try:
                with transaction.atomic():
                    entrant = Entrant.objects.create(
                        arena=arena, user=user, rating=pairing_rating(user), joined_at=now
                    )
            except IntegrityError:  # the same join twice at once: the other one made it
                entrant = Entrant.objects.select_for_update().get(arena=arena, user=user)
        if entrant.paused or entrant.game_id is None:
            entrant.free_since = now  # the wait that widens whom they may sit with
        entrant.paused = False
        entrant.rating = pairing_rating(user)
        entrant.seen_at = now
        entrant.save(update_fields=["paused", "rating", "seen_at", "free_since"])
        announce(arena.pk)
        transaction.on_commit(partial(pair_soon, arena.pk))
    return entrant


def pause(user: User, arena_id: int) -> bool:
    """Take ``user`` out of the arena's pairing (they keep their points); whether they were in
    it. A game they are at goes on."""
    arena = _arena(arena_id)
    with transaction.atomic():
        changed = Entrant.objects.filter(arena=arena, user=user, paused=False).update(paused=True)
        if changed:
            announce(arena.pk)
    return bool(changed)


# The arena pages' sockets ------------------------------------------------------------------


def page_opened(arena_id: int, user_id: int) -> Entrant | None:
    """An arena page's socket opened: counted in. The person's entry, if they joined."""
    rows = Entrant.objects.filter(arena_id=arena_id, user_id=user_id)
    if not rows.update(sockets=F("sockets") + 1, seen_at=timezone.now()):
        return None
    transaction.on_commit(partial(pair_soon, arena_id))
    return rows.first()


def page_closed(arena_id: int, user_id: int) -> None:
    Entrant.objects.filter(arena_id=arena_id, user_id=user_id).update(
        sockets=F("sockets") - 1, seen_at=timezone.now()
    )


def pages_seen(entries: Iterable[tuple[int, int]]) -> None:
    """These (arena, person) pages are still open (every ``HEARTBEAT_SECONDS``, all of a
    process's at once: arenas/consumers.py): one write."""
    by_arena: dict[int, set[int]] = defaultdict(set)
    for arena_id, user_id in entries:
        by_arena[arena_id].add(user_id)
    if by_arena:
        which = reduce(or_, (Q(arena_id=a, user_id__in=u) for a, u in by_arena.items()))
        Entrant.objects.filter(which).update(seen_at=timezone.now())


def pair_soon(arena_id: int) -> None:
    """Queue the seating task for the arena: a worker seats whoever it can."""
    celery_app.send_task(PAIR_TASK, args=(arena_id,))


# Seating -----------------------------------------------------------------------------------


def _free(arena: Arena, now: datetime) -> QuerySet[Entrant]:
    """The entrants who may be seated now: not paused, at no game, their page open."""
    playing = GamePlayer.objects.filter(game__status=Game.Status.PLAYING, is_bot=False).values(
        "user_id"
    )
    return Entrant.objects.filter(
        arena=arena,
        paused=False,
        game__isnull=True,
        sockets__gt=0,
        seen_at__gte=now - timedelta(seconds=STALE_SECONDS),
    ).exclude(user_id__in=playing)


def pair(arena_id: int, now: datetime | None = None) -> list[ArenaGame]:
    """Seat every group of the arena's free entrants that can sit together now at a rated
    table of their own (never two of whom one blocks the other); the games made. Nothing once
    the arena has ended."""
    now = now or timezone.now()
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None or arena.ended or arena.state(now) != "running":
        return []
    made: list[ArenaGame] = []
    try:
        with transaction.atomic():
            locked = _free(arena, now).select_for_update(skip_locked=True, of=("self",))
            claimed = list(locked.select_related("user"))
            waiting = [matching.Waiting(e.pk, e.rating, e.free_since) for e in claimed]
            by_id = {e.pk: e for e in claimed}
            apart = kept_apart({e.user_id: e.pk for e in claimed})
            for group in matching.groups(waiting, arena.players, now, apart):
                played = _seat(arena, [by_id[w.key] for w in group])
                if played is not None:
                    made.append(played)
            if made:
                announce(arena.pk)
    except DatabaseError:
        # Another seating holds the entrants (SQLite has one writer): the next one tries again.
        log.info("Seating arena %s gave way to another seating", arena_id, exc_info=True)
        return []
    return made


class _Taken(Exception):
    """Someone in the group was seated by another seating first."""


def _seat(arena: Arena, group: Sequence[Entrant]) -> ArenaGame | None:
    """A rated table of ``group``, its game dealt; None (nothing kept) if one of them may no
    longer play (they are paused, told why) or was seated elsewhere first."""
    refused = []
    for entrant in group:
        try:
            check_may_join(entrant.user, arena)
        except ServiceError as error:
            # Told in every language: their page's socket picks the one it reads.
            said = in_every_language(partial(check_may_join, entrant.user, arena))
            refused.append((entrant, said or {settings.LANGUAGE_CODE: str(error)}))
    if refused:
        for entrant, reason in refused:
            Entrant.objects.filter(pk=entrant.pk).update(paused=True)
            transaction.on_commit(partial(_tell, entrant.user_id, {"reason": reason}))
        return None
    order = [entrant.user for entrant in group]
    secrets.SystemRandom().shuffle(order)  # who sits where, and so who leads first
    try:
        with transaction.atomic():
            table = services.create_table(
                order[0], preset=arena.preset, players=arena.players, rated=True, one_game=True
            )
            for index, user in enumerate(order[1:], start=1):
                services.take_seat(table.pk, user, index)
            game = services.start_game(table.pk, order[0])
            table = game.table
            ids = [entrant.pk for entrant in group]
            if Entrant.objects.filter(pk__in=ids, game__isnull=True).update(game=game) != len(ids):
                raise _Taken
            played = ArenaGame.objects.create(arena=arena, game=game, table=table)
    except _Taken:
        return None
    url = table.get_absolute_url()
    for user in order:
        transaction.on_commit(partial(_tell, user.pk, {"url": url}))
    log.info("Arena %s table %s: %s", arena.pk, table.pk, ", ".join(u.username for u in order))
    return played


def _tell(user_id: int, news: dict[str, Any]) -> None:
    broadcasts.send({entrant_group(user_id): {"type": "arena.seated", **news}})


# A game's end ------------------------------------------------------------------------------


def game_finished(game_id: int) -> None:
    """After a game ends (games.signals): if it was an arena's, queue the task that frees its
    players and seats them again."""
    if ArenaGame.objects.filter(game_id=game_id).exists():
        celery_app.send_task(ENDED_TASK, args=(game_id,))


def game_ended(game_id: int) -> None:
    """An arena game is over: its players are free (their waiting starts now), the standings
    move on every arena page, and whoever can sit again is seated."""
    played = ArenaGame.objects.filter(game_id=game_id).first()
    if played is None:
        return
    Entrant.objects.filter(arena_id=played.arena_id, game_id=game_id).update(
        game=None, free_since=timezone.now()
    )
    # The pages hear it once: from the seating if it made a table, else now.
    if not pair(played.arena_id):
        announce_now(played.arena_id)


# Beat's sweep ------------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> int:
    """The arenas' clock: make the scheduled ones, tell the start and the end of each once,
    free whoever a lost task left at a finished game, and seat every running arena; returns
    how many games were made."""
    now = now or timezone.now()
    schedule(now)
    for arena in Arena.objects.filter(started=False, starts_at__lte=now):
        if Arena.objects.filter(pk=arena.pk, started=False).update(started=True):
            announce_now(arena.pk)
    for arena in Arena.objects.filter(started=True, ended=False):
        if arena.ends_at <= now and Arena.objects.filter(pk=arena.pk, ended=False).update(
            ended=True
        ):
            announce_now(arena.pk)
    stuck = Entrant.objects.filter(game__status=Game.Status.FINISHED)
    for arena_id in set(stuck.values_list("arena_id", flat=True)):
        stuck.filter(arena_id=arena_id).update(game=None, free_since=now)
        announce_now(arena_id)
    running = Arena.objects.filter(started=True, ended=False).values_list("pk", flat=True)
    return sum(len(pair(arena_id, now)) for arena_id in running)


def schedule(now: datetime) -> list[Arena]:
    """Make the next arena of each entry of ``HEARTS_ARENA_SCHEDULE`` that is not made yet:
    each starts on the hour (or its ``every`` minutes past midnight UTC) and is made once, by
    whichever sweep gets there first."""
    made = []
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    for entry in settings.HEARTS_ARENA_SCHEDULE:
        every = timedelta(minutes=entry["every"])
        starts_at = midnight + every * ((now - midnight) // every + 1)
        if Arena.objects.filter(schedule_key=entry["key"], starts_at=starts_at).exists():
            continue
        try:
            with transaction.atomic():
                made.append(
                    create_arena(
                        entry["name"],
                        preset=entry["preset"],
                        players=entry["players"],
                        starts_at=starts_at,
                        minutes=entry["minutes"],
                        schedule_key=entry["key"],
                    )
                )
        except IntegrityError:
            pass  # another sweep made it
    return made


# Telling the pages -------------------------------------------------------------------------


def announce(arena_id: int) -> None:
    """After commit, every open page of the arena hears its standings and games as they now
    are: rendered once here, the same for everyone."""
    transaction.on_commit(partial(announce_now, arena_id))


def announce_now(arena_id: int) -> None:
    """The arena's standings and games rendered once in each language the site speaks (the
    pages read their own: arenas/consumers.py), and sent to its group."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return
    context = {**arena_selectors.live_context(arena), "oob": True}
    html = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            html[code] = render_to_string("arenas/arena.html#live", context)
    broadcasts.send({arena_group(arena_id): {"type": "arena.changed", "html": html}})
