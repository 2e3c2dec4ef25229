"""Celery tasks: bots' moves and the clock, through the same service as people's moves.

A task carries the game's version when it was scheduled; if the game has moved on, the task
does nothing, so a duplicate or late delivery changes nothing, and a deadline task that comes
early does nothing either. Bots decide outside any transaction: no lock is held while they
think. The services queue the bots' tasks by name, after commit (games/effects.py).

The clock is a sweep that Celery beat runs every ``HEARTS_SWEEP_SECONDS`` (1): a move only
stores its turn's deadline on the game, and publishes nothing for it, since nearly every turn
is played in time. Each sweep queues a deadline task for every turn that is overdue (a worker
was down, a task was lost) and for every turn due within the next two sweeps' time (two, so
that a sweep started late misses none), timed for its deadline: a time-out comes at its
second, not up to a sweep late. However many of these tasks a turn gets, it is enforced once:
the service's lock and version check see to that. Nothing but Celery and the tests imports
this module.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games.bots import decide, make_bot, safe_bot
from games.engine import Phase, seat_view

from . import services
from .models import Game

log = logging.getLogger(__name__)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_move(game_id: int, version: int) -> None:
    play_bots(game_id, version)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def enforce_deadline(game_id: int, version: int) -> None:
    time_out(game_id, version)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Queue a deadline task for every turn that is overdue, and for every turn due within
    two ``HEARTS_SWEEP_SECONDS`` (before the next sweep, even one that starts late) timed for
    its deadline; returns how many it queued.

    The overdue turns go to tasks too rather than being timed out here: a time-out takes a
    transaction and maybe a bot's thinking, so a sweep that found many (after a worker was
    down) would make them one after another, the last ones late, and outlast its interval
    while beat started the next sweep on the same turns. As tasks they run side by side on all
    the workers, and the sweep stays one query on an index; a turn two sweeps both queue costs
    its second task one read."""
    now = timezone.now()
    due = Game.objects.filter(
        status=Game.Status.PLAYING,
        deadline__lte=now + timedelta(seconds=2 * settings.HEARTS_SWEEP_SECONDS),
    ).order_by("deadline")
    queued = 0
    for game_id, version, deadline in due.values_list("pk", "version", "deadline"):
        eta = deadline if deadline is not None and deadline > now else None  # else at once
        enforce_deadline.apply_async((game_id, version), eta=eta)
        queued += 1
    return queued


def time_out(game_id: int, version: int) -> int:
    """The table's moves for the seats whose deadline at ``version`` has passed: the bot's
    safe card or pass for people (a time-out, see :func:`services.act`), the bots' own moves
    for bots whose task never came. Returns the number of moves made."""
    try:
        state = services.running(game_id)
    except Game.DoesNotExist:
        return 0
    game, match = state.game, state.match
    if game.is_over or game.version != version:
        return 0
    if game.deadline is None or timezone.now() < game.deadline:
        return 0
    bots = state.bots
    waiting = services.seats_to_act(match)
    made = 0
    if any(seat in bots for seat in waiting):
        made += play_bots(game_id, version, state)
    safe = safe_bot()
    for seat in waiting:
        if seat in bots:
            continue
        view = seat_view(state.match, seat)
        kind, cards, choice = decide(safe, view)
        try:
            services.act(
                game_id,
                seat,
                kind,
                version=version,
                cards=cards,
                choice=choice,
                timeout=True,
                held=state,
            )
        except services.ServiceError:  # moved meanwhile (StaleVersion), or over
            log.debug("game %s: seat %s's time-out at version %s is stale", game_id, seat, version)
            return made
        made += 1
        if view.phase is not Phase.PASSING:
            break
    return made


def play_bots(game_id: int, version: int, state: services.Running | None = None) -> int:
    """Make the moves the bots owe at ``version``: every bot's pass, or one card or choice.
    Returns the number of moves made."""
    if state is None:
        try:
            state = services.running(game_id)
        except Game.DoesNotExist:
            return 0
    if state.game.is_over or state.game.version != version:
        return 0
    bots = state.bots
    bot = make_bot(state.game.table.bot_level)
    made = 0
    for seat in services.seats_to_act(state.match):
        if seat not in bots:
            continue
        view = seat_view(state.match, seat)
        kind, cards, choice = decide(bot, view)
        try:
            outcome = services.act(
                game_id, seat, kind, version=version, cards=cards, choice=choice, held=state
            )
        except (services.StaleVersion, services.GameOver):
            # Somebody else moved first (their move scheduled what comes next: the relay of the
            # process holding the table makes its bots' moves too), or ended the game (a
            # resignation) since the game was read. Nothing is wrong: nothing above debug.
            log.debug(
                "game %s: seat %s's move at version %s was made already", game_id, seat, version
            )
            return made
        made += 1
        version = outcome.version
        if view.phase is not Phase.PASSING:
            return made  # one card at a time, so that people can follow the play
    return made


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def review_game(review_id: int) -> None:
    """The bot's review of a game (games/reviews.py), on the ``reviews`` queue's worker."""
    from . import reviews

    reviews.run(review_id)


@shared_task(ignore_result=True)
def sweep_reviews() -> int:
    from . import reviews

    return reviews.sweep()
