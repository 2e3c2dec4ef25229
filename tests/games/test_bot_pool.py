"""The bots' processes of a daphne (games/bot_pool.py): a decision made there is the one the bot
makes in the process itself, and a process that dies is replaced at the next decision."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from games import bot_pool
from games.bots import decide_as
from games.engine import Match, Phase, Rules, seat_view
from tests.helpers.engine import seed, step


@pytest.fixture
def processes(settings):
    settings.HEARTS_BOT_PROCESSES = 1
    bot_pool.shut_down()
    yield
    bot_pool.shut_down()


def _positions() -> list:
    """Views of a pass, a lead and cards later in a hand."""
    match = Match(Rules(), seed(3))
    views = [seat_view(match, 1)]
    while match.hand.phase is Phase.PASSING or len(match.hand.moves) < 20:
        step(match)
    views.append(seat_view(match, match.hand.turn))
    return views


@pytest.mark.usefixtures("processes")
def test_a_decision_made_in_the_bots_process_is_the_bots_own() -> None:
    async def decide_all() -> list:
        return [await bot_pool.decide("heuristic", view) for view in _positions()]

    made_there = asyncio.run(decide_all())

    assert made_there == [decide_as("heuristic", view) for view in _positions()]
    assert made_there[0][0] == "pass" and len(made_there[0][1]) == 3
    assert made_there[1][0] == "play"


@pytest.mark.usefixtures("processes")
def test_a_bots_process_that_dies_is_replaced_at_the_next_decision() -> None:
    view = _positions()[1]

    async def kill_then_decide() -> tuple:
        await bot_pool.decide("heuristic", view)
        pool = bot_pool.pool()
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        return await bot_pool.decide("heuristic", view)

    assert asyncio.run(kill_then_decide()) == decide_as("heuristic", view)
