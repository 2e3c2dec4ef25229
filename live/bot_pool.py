"""The bots' decisions for the tables a daphne process holds, made in processes of their own.

A table's relay (live/relays.py) makes its bots' moves itself, where the table already lives,
rather than through a Celery task a move. The decision is the one part of a bot's move that
takes real CPU (a few ms, at most a second for strong), and the search holds Python's lock the
whole time: made on the event loop or in one of its threads, it would stall every socket of the
process. So the relay hands the seat's view (what the seat may see, never a hidden card) to a
small pool of processes, ``HEARTS_BOT_PROCESSES`` a daphne, each of which imports the bots and
nothing of Django, and waits for the answer without blocking. The move it answers is written
by the relay through the one write path, like a person's.

``HEARTS_BOT_PROCESSES=0`` decides in a thread of the process instead: for tests that drive a
relay in their own process and a bot whose decision takes a millisecond.

A pool process that dies (the machine short of memory, say) breaks the pool: the next decision
starts a new one and is asked again there, once. A pool process whose daphne died ends itself.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

from games.bots import decide_as
from games.engine import SeatView

log = logging.getLogger(__name__)

Decision = tuple[str, list[str], str]  # (kind, cards, choice), as services.act takes a move

_lock = threading.Lock()
_pool: Executor | None = None


def pool() -> Executor:
    """This process's pool of bot processes, started at its first decision."""
    global _pool
    with _lock:
        if _pool is None:
            processes = settings.HEARTS_BOT_PROCESSES
            if processes == 0:
                _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")
            else:
                # Spawned, not forked: a fork of daphne would copy its event loop, its threads'
                # locks and its sockets into a process that needs none of them.
                _pool = ProcessPoolExecutor(
                    max_workers=processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_outlive_no_parent,
                    initargs=(os.getpid(),),
                )
        return _pool


def _outlive_no_parent(parent: int) -> None:
    """In a bot process: end when the daphne that started it has gone (killed, say), which
    would otherwise leave it waiting for decisions that never come."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


PARENT_CHECK_SECONDS = 1.0


def warm() -> None:
    """Start the pool's processes now (they take a few tenths of a second to import the bots),
    so that a table's first bot move does not wait for them."""
    pool().submit(int)


def _broken(executor: Executor) -> None:
    global _pool
    with _lock:
        if _pool is executor:
            _pool = None
    executor.shutdown(wait=False, cancel_futures=True)


async def decide(level: str, view: SeatView) -> Decision:
    """The move a bot of ``level`` makes from ``view``, decided in the pool."""
    loop = asyncio.get_running_loop()
    for attempt in range(2):
        executor = pool()
        try:
            return await loop.run_in_executor(executor, decide_as, level, view)
        except BrokenProcessPool:
            log.warning("a bot process died: the pool starts again (try %s)", attempt + 1)
            _broken(executor)
    raise RuntimeError("the bots' processes keep dying")


def shut_down() -> None:
    """Stop the pool's processes: for tests, and a process that stops."""
    global _pool
    with _lock:
        executor, _pool = _pool, None
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)
