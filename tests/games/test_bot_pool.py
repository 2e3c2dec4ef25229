"""The bots' processes of a daphne (live/bot_pool.py): a decision made there is the one the bot
makes in the process itself, and a process that dies is replaced at the next decision."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from games.bots import decide_as
from games.engine import Match, Phase, Rules, seat_view
from live import bot_pool
from tests.helpers.engine import seed, step

ROOT = Path(__file__).resolve().parents[2]


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


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """``coroutine`` run to its end on an event loop of its own, in a thread of its own: as a
    daphne's loop asks its bot processes, whatever loop this test's thread may have running."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result(timeout=60)


@pytest.mark.usefixtures("processes")
def test_a_decision_made_in_the_bots_process_is_the_bots_own() -> None:
    async def decide_all() -> list[Any]:
        return [await bot_pool.decide("heuristic", view) for view in _positions()]

    made_there = _run(decide_all())

    assert made_there == [decide_as("heuristic", view) for view in _positions()]
    assert made_there[0][0] == "pass" and len(made_there[0][1]) == 3
    assert made_there[1][0] == "play"


@pytest.mark.usefixtures("processes")
def test_a_bots_process_that_dies_is_replaced_at_the_next_decision() -> None:
    view = _positions()[1]

    async def kill_then_decide() -> Any:
        await bot_pool.decide("heuristic", view)
        for pid in list(bot_pool.pool()._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        return await bot_pool.decide("heuristic", view)

    assert _run(kill_then_decide()) == decide_as("heuristic", view)


def test_a_bots_process_ends_when_the_process_that_started_it_is_killed(tmp_path) -> None:
    """A daphne killed (SIGKILL: nothing of it runs to stop its pool) leaves no bot process
    behind."""
    script = tmp_path / "daphne_like.py"
    script.write_text(
        "import asyncio, os, sys\n"
        "from django.conf import settings\n"
        "settings.configure(HEARTS_BOT_PROCESSES=1)\n"
        "from live import bot_pool\n"
        "async def main():\n"
        "    bot_pool.warm()\n"
        "    await asyncio.sleep(1)\n"
        "    print(*bot_pool.pool()._processes, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    started = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert started.stdout is not None
    (child,) = (int(pid) for pid in started.stdout.readline().split())
    os.kill(started.pid, signal.SIGKILL)
    started.wait()
    for _ in range(50):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the bot process outlived its daphne")
