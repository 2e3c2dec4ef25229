"""The clocks with a real Celery worker and beat fed through Redis, on one-second deadlines:
beat's sweep enforces the turns left alone, and a worker that was down past a deadline enforces
it once when it comes back (see ``workers.py`` for how the worker reaches the test database)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from celery.beat import EmbeddedService
from django.conf import settings
from pytest_django.fixtures import Settings

from games import services
from games.engine import Clock, Phase
from games.models import Game, MoveRecord
from games.tasks import sweep_deadlines
from hearts_site import celery_app
from tests.helpers.clocks import against_bots, four_people
from tests.helpers.tables import everyone_passes, fresh
from tests.helpers.workers import running_worker, wait_for

pytestmark = [
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="needs a real broker: set REDIS_URL (./dev test and CI always do)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def one_second(settings: Settings) -> None:
    settings.HEARTS_BOT_DELAY = 0.05
    settings.HEARTS_CARD_SECONDS = 1
    settings.HEARTS_PASS_SECONDS = 1


@pytest.fixture
def worker(one_second: None, task_queue: str) -> Iterator[None]:
    with running_worker(task_queue), running_beat():
        yield


@contextmanager
def running_beat() -> Iterator[None]:
    """Celery beat in a thread of this process while the block runs, with the site's schedule:
    the sweep every ``HEARTS_SWEEP_SECONDS``, to the test's own queue like every task."""
    beat = EmbeddedService(celery_app, thread=True, scheduler_cls="celery.beat:Scheduler")
    beat.start()
    try:
        yield
    finally:
        beat.stop()


def moves(game: Game) -> list[tuple[str, int, bool, str]]:
    return [(m.kind, m.seat, m.timeout, m.choice) for m in MoveRecord.objects.filter(game=game)]


def test_relaxed_alice_left_alone_is_played_for_until_her_third_time_out(worker: None) -> None:
    game = against_bots()

    wait_for(game, lambda match: match.is_over)

    mine = [move for move in moves(game) if move[1] == 0]
    assert mine == [
        ("pass", 0, True, ""),
        ("play", 0, True, ""),
        ("resign", 0, False, "left"),
    ]
    game = fresh(game)
    assert game.result is not None
    assert game.result["reason"] == "left"
    assert game.result["places"][0] == 4


def test_strict_one_missed_deadline_ends_the_game(worker: None) -> None:
    game = against_bots(Clock.STRICT)
    match = fresh(game).match()
    services.act(game.pk, 0, "pass", version=0, cards=[str(c) for c in match.hand.holding(0)[:3]])

    wait_for(game, lambda match: match.is_over)

    game = fresh(game)
    assert game.result is not None
    assert game.result["reason"] == "timed out"
    assert game.result["forfeited"] == 0
    assert game.result["places"][0] == 4
    assert game.moves.filter(seat=0, kind="play").count() == 0


@pytest.mark.parametrize("queue_lost", [False, True], ids=["sweeps-waiting", "queue-lost"])
def test_a_worker_down_past_a_deadline_enforces_it_once_when_it_is_back(
    one_second: None, settings: Settings, task_queue: str, queue_lost: bool
) -> None:
    game = four_people()
    everyone_passes(game)  # the lead's deadline: one second from now
    settings.HEARTS_CARD_SECONDS = 60  # the turns after it wait longer than this test
    match = fresh(game).match()
    seat, version = match.hand.turn, match.version
    time.sleep(1.5)  # no worker: the deadline passes with nobody to enforce it
    assert fresh(game).version == version
    sweep_deadlines.delay()
    sweep_deadlines.delay()  # what beat queued meanwhile: each finds the turn overdue
    if queue_lost:  # a Redis that keeps no data restarted
        with celery_app.connection_for_write() as broker:
            celery_app.amqp.queues[task_queue](broker.default_channel).purge()

    with running_worker(task_queue), running_beat():
        wait_for(game, lambda match: match.version > version)
        time.sleep(1.5)  # another sweep or two, and any duplicate deadline task, come and go

    assert fresh(game).version == version + 1
    record = MoveRecord.objects.get(game=game, number=version + 1)
    assert (record.kind, record.seat, record.timeout) == ("play", seat, True)
    assert fresh(game).match().hand.phase is Phase.PLAYING
