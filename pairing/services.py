"""The rated queue: joining and leaving it, the queue pages' sockets, and seating the people
it groups (pairing/matching.py) at a rated table of their own.

The queue is the ``Seeker`` table, so every daphne and worker shares it and a restart loses
nobody. Seating runs in a Celery task (pairing/tasks.py): when someone's queue page opens, and
in beat's sweep, which also lets the gaps widen and drops whoever left. A seating claims its
people by deleting their rows inside its transaction, locked ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL: a seating that finds one of them gone (another seated them first) rolls its table
back, so no one ever sits at two tables.

A queue page is there while its socket is: the socket counts itself in on opening and out on
closing, and says every ``HEARTBEAT_SECONDS`` that it is still there (a daphne that died never
counted its sockets out). Whoever has no page open for ``GRACE_SECONDS`` (a tab closed; a
reload comes back sooner) or has not been seen for ``STALE_SECONDS`` leaves the queue; only
people whose page is open are seated.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import blocks
from games import selectors, services
from games.engine import PRESETS
from games.errors import ServiceError
from games.models import Table
from games.words import preset_title
from hearts_site import celery_app
from live import broadcasts
from moderation import gates
from ratings.maths import BASE, MU, POINTS_PER_MU
from ratings.models import Rating

from . import matching
from .models import Seeker

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 10
GRACE_SECONDS = 10
STALE_SECONDS = 3 * HEARTBEAT_SECONDS
PAIR_TASK = "pairing.tasks.pair"


@dataclass(frozen=True)
class Queue:
    """One rule set at one table size."""

    preset: str
    players: int

    @property
    def key(self) -> str:
        return f"{self.preset}-{self.players}"

    @property
    def title(self) -> str:
        return rules_title(self.preset, self.players)

    @property
    def group(self) -> str:
        """The channel group of the queue pages waiting in it."""
        return f"queue-{self.key}"

    @classmethod
    def of(cls, seeker: Seeker) -> Queue:
        return cls(seeker.preset, seeker.players)

    @classmethod
    def from_key(cls, key: str) -> Queue:
        preset, _dash, players = key.rpartition("-")
        queue = cls(preset, int(players)) if players.isdigit() else None
        if queue is None or queue not in QUEUES:
            raise ServiceError(_("Choose one of the rule sets and table sizes offered"))
        return queue


def rules_title(preset: str, players: int) -> str:
    """A rule set at a table size, in words: "Standard, 4 players" (the rule set's own name)."""
    return ngettext("%(rules)s, %(players)s player", "%(rules)s, %(players)s players", players) % {
        "rules": preset_title(preset),
        "players": players,
    }


# Every rule set at each table size it is played at, Standard with four first (the default).
QUEUES: tuple[Queue, ...] = tuple(
    Queue(key, players) for key, preset in PRESETS.items() for players in preset.players
)
DEFAULT_QUEUE = Queue("standard", 4)


def seeker_group(user_id: int) -> str:
    """The channel group of one person's queue pages: told where to go when seated."""
    return f"seeker-{user_id}"


def pairing_rating(user: User) -> float:
    """The rating the queue groups people by: their skill on the rating scale (a newcomer's is
    1500), not the cautious rating shown, which starts low for everyone until they have
    played (ratings/maths.py)."""
    mu = Rating.objects.filter(user=user).values_list("mu", flat=True).first()
    return BASE + POINTS_PER_MU * ((MU if mu is None else mu) - MU)


# Joining and leaving ---------------------------------------------------------------------


def check_may_join(user: User) -> None:
    """Refuses, in words fit to show them, a person who may not wait for a rated table."""
    gates.check_may_queue(user)
    game = selectors.running_game(user)
    if game is not None:
        raise ServiceError(_("You are playing a game: finish it before joining the rated queue"))


def join(user: User, queue: Queue) -> Seeker:
    """Put ``user`` in ``queue`` (out of any other); they keep their place if already in it."""
    if queue not in QUEUES:
        raise ServiceError(_("Choose one of the rule sets and table sizes offered"))
    check_may_join(user)
    now = timezone.now()
    with transaction.atomic():
        seeker = Seeker.objects.select_for_update().filter(user=user).first()
        before = Queue.of(seeker) if seeker else None
        if seeker is None or before != queue:
            seeker = seeker or Seeker(user=user)
            seeker.preset, seeker.players = queue.preset, queue.players
            seeker.joined_at = now
        seeker.rating = pairing_rating(user)
        seeker.seen_at = now
        seeker.save()
        _announce({queue} if before in (None, queue) else {queue, before})
    return seeker


def leave(user: User) -> bool:
    """Take ``user`` out of the queue; whether they were in it."""
    with transaction.atomic():
        seeker = Seeker.objects.select_for_update().filter(user=user).first()
        if seeker is None:
            return False
        seeker.delete()
        _announce({Queue.of(seeker)})
    return True


def seeker_of(user: User) -> Seeker | None:
    return Seeker.objects.filter(user=user).first()


def waiting_in(queue: Queue) -> int:
    return Seeker.objects.filter(preset=queue.preset, players=queue.players).count()


# The queue pages' sockets ----------------------------------------------------------------


def page_opened(user_id: int) -> Seeker | None:
    """A queue page's socket opened: counted in. Its person's place in the queue, if any."""
    now = timezone.now()
    rows = Seeker.objects.filter(user_id=user_id)
    if not rows.update(sockets=F("sockets") + 1, seen_at=now):
        return None
    seeker = rows.first()
    if seeker is not None:
        transaction.on_commit(lambda: pair_soon(Queue.of(seeker)))
    return seeker


def page_closed(user_id: int) -> None:
    """A queue page's socket closed: counted out; its person leaves the queue if no page of
    theirs is back within ``GRACE_SECONDS`` (the sweep)."""
    Seeker.objects.filter(user_id=user_id).update(sockets=F("sockets") - 1, seen_at=timezone.now())


def pages_seen(user_ids: Iterable[int]) -> None:
    """These people's queue pages are still open (every ``HEARTBEAT_SECONDS``, all of a
    process's at once: pairing/consumers.py): one write."""
    Seeker.objects.filter(user_id__in=list(user_ids)).update(seen_at=timezone.now())


def pair_soon(queue: Queue) -> None:
    """Queue the seating task for ``queue``: a worker seats whoever it can."""
    celery_app.send_task(PAIR_TASK, args=(queue.preset, queue.players))


# Seating ---------------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> int:
    """Drop whoever left the queue, then seat every queue with people enough; returns how
    many tables were made."""
    now = now or timezone.now()
    gone = Seeker.objects.filter(
        Q(sockets__lte=0, seen_at__lt=now - timedelta(seconds=GRACE_SECONDS))
        | Q(seen_at__lt=now - timedelta(seconds=STALE_SECONDS))
    )
    left = {Queue(p, n) for p, n in gone.values_list("preset", "players")}
    if gone.delete()[0]:
        _announce(left)
    full = (
        _present(now)
        .values("preset", "players")
        .annotate(waiting=Count("id"))
        .filter(waiting__gte=F("players"))
    )
    queues = [Queue(row["preset"], row["players"]) for row in full]
    return sum(len(pair(queue, now)) for queue in queues if queue in QUEUES)


def _present(now: datetime) -> QuerySet[Seeker]:
    """Those whose queue page is open: the only ones seated."""
    return Seeker.objects.filter(sockets__gt=0, seen_at__gte=now - timedelta(seconds=STALE_SECONDS))


def kept_apart(keys: Mapping[int, int]) -> set[frozenset[int]]:
    """Of people to be seated (``keys``: the key each is known by, by user id), the pairs of
    keys never seated together, as one of the two blocks the other: one query."""
    return {frozenset(keys[user_id] for user_id in pair) for pair in blocks.apart(keys)}


def pair(queue: Queue, now: datetime | None = None) -> list[Table]:
    """Seat everyone ``queue`` can group now at rated tables of their own, never two people of
    whom one blocks the other at one; the tables made."""
    now = now or timezone.now()
    made: list[Table] = []
    try:
        with transaction.atomic():
            present = _present(now).filter(preset=queue.preset, players=queue.players)
            locked = present.select_for_update(skip_locked=True, of=("self",))
            claimed = list(locked.select_related("user"))
            waiting = [matching.Waiting(s.pk, s.rating, s.joined_at) for s in claimed]
            by_id = {s.pk: s for s in claimed}
            apart = kept_apart({s.user_id: s.pk for s in claimed})
            for group in matching.groups(waiting, queue.players, now, apart):
                table = _seat([by_id[w.key] for w in group], queue)
                if table is not None:
                    made.append(table)
    except DatabaseError:
        # Another seating holds the queue (SQLite has one writer): the next sweep tries again.
        log.info("Seating %s gave way to another seating", queue.key, exc_info=True)
        return []
    return made


class _Taken(Exception):
    """Someone in the group was seated by another seating first."""


def _seat(group: Sequence[Seeker], queue: Queue) -> Table | None:
    """A rated table of ``group``, its game dealt; None (nothing kept) if one of them may no
    longer play (they leave the queue, told why) or was seated elsewhere first."""
    users = [seeker.user for seeker in group]
    refused = _refused(group)
    if refused:
        for seeker, reason in refused:
            seeker.delete()
            transaction.on_commit(partial(_tell_left, seeker.user_id, reason))
        _announce({queue})
        return None
    order = list(users)
    secrets.SystemRandom().shuffle(order)  # who sits where, and so who leads first
    try:
        with transaction.atomic():
            claimed = Seeker.objects.filter(pk__in=[s.pk for s in group]).delete()[0]
            if claimed != len(group):
                raise _Taken
            table = services.create_table(
                order[0], preset=queue.preset, players=queue.players, rated=True
            )
            for index, user in enumerate(order[1:], start=1):
                services.take_seat(table.pk, user, index)
            table = services.start_game(table.pk, order[0]).table
    except _Taken:
        return None
    url = table.get_absolute_url()
    messages = {seeker_group(u.pk): {"type": "queue.seated", "url": url} for u in users}
    transaction.on_commit(lambda: broadcasts.send(messages))
    _announce({queue})
    log.info("Rated table %s: %s", table.pk, ", ".join(u.username for u in order))
    return table


def _refused(group: Sequence[Seeker]) -> list[tuple[Seeker, dict[str, str]]]:
    refused = []
    for seeker in group:
        try:
            check_may_join(seeker.user)
        except ServiceError as error:
            said = in_every_language(partial(check_may_join, seeker.user))
            refused.append((seeker, said or {settings.LANGUAGE_CODE: str(error)}))
    return refused


def _tell_left(user_id: int, reason: dict[str, str]) -> None:
    broadcasts.send({seeker_group(user_id): {"type": "queue.left", "reason": reason}})


# Words for a socket ----------------------------------------------------------------------


def in_every_language(check: Callable[[], object]) -> dict[str, str]:
    """The refusal (a ``ServiceError``) that ``check`` raises, in each language the site speaks:
    {language code: words}. For a refusal told over a socket by a worker, which does not know
    the language its person reads: the socket picks theirs (:func:`in_language`)."""
    said = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            try:
                check()
            except ServiceError as error:
                said[code] = str(error)
    return said


def in_language(said: str | Mapping[str, str], language: str | None = None) -> str:
    """Of words told in every language (:func:`in_every_language`), those of ``language`` (the
    one active: the socket's), else English's, else any."""
    if isinstance(said, str):
        return said
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    found = said.get(language) or said.get(settings.LANGUAGE_CODE)
    return found if found is not None else next(iter(said.values()), "")


def _announce(queues: set[Queue]) -> None:
    """After commit, the queue pages waiting in ``queues`` hear how many wait there now."""

    def send() -> None:
        broadcasts.send(
            {q.group: {"type": "queue.changed", "waiting": waiting_in(q)} for q in queues}
        )

    if queues:
        transaction.on_commit(send)
