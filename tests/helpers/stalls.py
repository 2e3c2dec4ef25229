"""A test socket's handshake that takes long says what is holding it: once it has waited
:data:`STALL_SECONDS`, every task of the test's event loop (each with the chain of what it
awaits) and every thread of the process, with their stacks, become a warning of the test,
which pytest's summary shows whether or not the test then passes. A plugin of the root
conftest, for the rare stall under a busy CI machine that a run by hand does not show (a
refused table socket waited more than 10 s in three CI runs).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import traceback
import warnings
from collections.abc import Iterator
from typing import Any

from channels.testing import WebsocketCommunicator

STALL_SECONDS = 5.0  # a handshake this long is said, with everything that waits


class StalledHandshake(UserWarning):
    """A test socket's handshake waited :data:`STALL_SECONDS`: what waited then."""


def _awaited(coroutine: Any) -> Iterator[str]:
    """Where a suspended coroutine stands, and what it awaits, down to the future at the end."""
    while coroutine is not None:
        frame = getattr(coroutine, "cr_frame", None) or getattr(coroutine, "gi_frame", None)
        if frame is not None:
            where = f"{frame.f_code.co_filename}:{frame.f_lineno}"
            yield f"    {where} in {frame.f_code.co_name}\n"
        awaited = getattr(coroutine, "cr_await", None) or getattr(coroutine, "gi_yieldfrom", None)
        a_coroutine = hasattr(awaited, "cr_frame") or hasattr(awaited, "gi_frame")
        if awaited is not None and not a_coroutine:
            yield f"    awaiting {awaited!r}\n"  # a future, at the end of the chain
            return
        coroutine = awaited


def what_waits() -> str:
    """Every task of the running loop and every thread of the process, where each stands."""
    lines = []
    for task in sorted(asyncio.all_tasks(), key=lambda task: task.get_name()):
        lines.append(f"task {task.get_name()}:\n")
        lines.extend(_awaited(task.get_coro()))
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    for ident, frame in sys._current_frames().items():
        lines.append(f"thread {names.get(ident, ident)}:\n")
        lines.extend(traceback.format_stack(frame))
    return "".join(lines)


def _said() -> asyncio.TimerHandle:
    def say() -> None:
        dump = what_waits()
        said = f"a handshake waited {STALL_SECONDS} s; what waits:\n{dump}"
        warnings.warn(said, StalledHandshake, stacklevel=1)  # from the loop: no caller to name

    return asyncio.get_running_loop().call_later(STALL_SECONDS, say)


_connect = WebsocketCommunicator.connect


async def _connect_told(self: WebsocketCommunicator, timeout: float = 1) -> Any:
    watch = _said()
    try:
        return await _connect(self, timeout)
    finally:
        watch.cancel()


def pytest_configure() -> None:
    WebsocketCommunicator.connect = _connect_told  # type: ignore[method-assign]
