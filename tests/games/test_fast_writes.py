"""The moves a daphne writes from its event loop (live/fast_writes.py) that wait for a
connection go together, in one transaction and one round trip, each still checked against its
own game's version: a stale one among them is refused alone and the others are logged."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from games import services
from games.models import Game
from live import fast_writes, table_state
from tests.helpers.tables import game_with

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="moves are written from the event loop on PostgreSQL only",
    ),
]


def _games(count: int) -> list[int]:
    return [game_with([f"{name}{n}" for name in "abcd"]).table_id for n in range(count)]


def _first_pass(table_id: int) -> services.Judged:
    """Seat 0's pass judged against the table as loaded now (not written)."""
    state = table_state.load(table_id)
    assert state is not None and state.running is not None
    cards = [str(card) for card in state.running.match.hand.holding(0)[:3]]
    judged = services.judge(state.running, 0, "pass", state.running.game.version, cards, "")
    assert judged.alone
    return judged


def _logged(table_id: int) -> int:
    return Game.objects.get(table_id=table_id).moves.count()


@pytest.fixture
def one_connection(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(settings, "HEARTS_LOOP_CONNECTIONS", 1)
    monkeypatch.setattr(fast_writes, "COUNT_BATCHES", True)
    fast_writes.batches.clear()
    yield
    fast_writes.close_all()


async def test_moves_waiting_for_the_connection_go_together_and_a_stale_one_alone_is_refused(
    one_connection: None,
) -> None:
    tables = await sync_to_async(_games)(4)
    first, again, *others = [
        await sync_to_async(_first_pass)(table) for table in [tables[0], *tables]
    ]

    written = await asyncio.gather(*(fast_writes.write(move) for move in [first, again, *others]))

    # The first had the connection to itself; the four that waited meanwhile went together,
    # the same table's second pass (judged on the version the first one moved on) refused.
    assert fast_writes.batches == [1, 4]
    assert written == [True, False, True, True, True]
    assert [await sync_to_async(_logged)(table) for table in tables] == [1, 1, 1, 1]


async def test_a_lone_move_goes_alone_and_waits_for_nobody(one_connection: None) -> None:
    tables = await sync_to_async(_games)(2)
    for table in tables:
        assert await fast_writes.write(await sync_to_async(_first_pass)(table))

    assert fast_writes.batches == [1, 1]
    assert [await sync_to_async(_logged)(table) for table in tables] == [1, 1]
