"""Telling the sockets after a commit, so that a stalled channel layer neither holds up the move
that caused the news nor loses it.

A send waits at most ``HEARTS_BROADCAST_TIMEOUT`` seconds (one from a daphne's event loop,
which nothing waits for, ``LOOP_PATIENCE`` times that). What could not be sent (Redis
paused, down or restarting) is kept, the latest message per group (a table's notice, which
changes nothing, never in place of its news), and a thread of this process sends it again
once the layer answers a ping. Until then new messages join the kept ones at once instead of
waiting on the layer too, so the moves made during an outage return at once.
A table's message carries the game's version (games/effects.py), so a socket that gets only
the latest one kept sees the gap and catches up, and one sent twice does no harm.

In a daphne process the sends run on its event loop (:func:`serve_from`) and the thread that
committed the move does not wait for them: a move's thread is one of the few that also render
every socket's pushes, and a send waits on several round trips to Redis. A Celery worker's pool
process, which has no event loop running, keeps one for the thread that runs its tasks
(:func:`keep_a_loop`): through ``async_to_sync`` each send would start a thread and a loop of
its own and connect to Redis again, which cost a bot's move more than its database work.

A group that this process itself listens to (a table its sockets show: live/relays.py) hears
the message at once as well, without the round trip through Redis, and even while Redis does
not answer; it hears it again from Redis, and skips it then, since it has that version.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # between tries of a layer that failed
LOOP_PATIENCE = 5  # times HEARTS_BROADCAST_TIMEOUT a send from the event loop may take

Messages = dict[str, dict[str, Any]]  # group name: message

_lock = threading.Lock()
_kept: Messages = {}
_resender: threading.Thread | None = None
_loop: asyncio.AbstractEventLoop | None = None  # the daphne process's, once a socket opened
_thread = threading.local()  # .loop: the event loop a thread keeps for its sends (keep_a_loop)
_here: dict[str, Callable[[dict[str, Any]], object]] = {}  # group: who hears it in this process


def listen_here(group: str, hear: Callable[[dict[str, Any]], object]) -> None:
    """From now on ``hear`` (thread-safe) is called with each message this process sends to
    ``group``, as soon as it is sent."""
    _here[group] = hear


def stop_listening_here(group: str, hear: Callable[[dict[str, Any]], object]) -> None:
    if _here.get(group) is hear:
        del _here[group]


def serve_from(loop: asyncio.AbstractEventLoop) -> None:
    """Send from now on from ``loop`` (the process's event loop, where its sockets live),
    without waiting, when a thread other than the loop's sends."""
    global _loop
    _loop = loop


def keep_a_loop() -> None:
    """From now on this thread sends on an event loop that it keeps, with its connections to
    the channel layer, instead of a new thread, loop and connections for every send; it still
    waits for each send. For a thread that sends without a loop running, again and again: the
    one that runs a Celery pool process's tasks (hearts_site/celery.py)."""
    _thread.loop = asyncio.new_event_loop()


def stop_keeping_a_loop() -> None:
    """Close the loop this thread kept, if any, with its connections: for tests."""
    loop = getattr(_thread, "loop", None)
    if loop is not None:
        del _thread.loop
        loop.close()


def send(messages: Messages, *, here: bool = True) -> None:
    """Send each group its message; keep them to send again if the layer does not answer.
    ``here`` False: this process's own listeners are not told (they made the news)."""
    for group, message in messages.items():
        if here and (hear := _here.get(group)) is not None:
            try:
                hear(message)
            except RuntimeError:  # its event loop is closed (a test's): nobody hears it now
                stop_listening_here(group, hear)
    layer = get_channel_layer()
    if layer is None:
        return
    with _lock:
        if _kept:  # the layer failed and has not answered since: do not wait on it again
            _keep(messages)
            return
    loop = _loop
    if loop is not None and loop.is_running():
        if _on(loop):  # from the loop itself: sent by a task of its own
            loop.create_task(_send_or_keep(layer, messages))
        else:
            asyncio.run_coroutine_threadsafe(_send_or_keep(layer, messages), loop)
        return
    try:
        kept = getattr(_thread, "loop", None)
        if kept is not None:
            kept.run_until_complete(_send_all(layer, messages))
        else:
            async_to_sync(_send_all)(layer, messages)
    except Exception as error:  # a lost broadcast must never undo a committed move
        _failed(messages, error)


async def _send_or_keep(layer: Any, messages: Messages) -> None:
    try:
        # On the loop nothing waits for the send, so it may wait longer before it counts as
        # failed: a loop busy with a burst of moves is slow to hear Redis's answer, and a
        # failure sends the process's news through the resender until Redis answers a ping.
        await _send_all(layer, messages, settings.HEARTS_BROADCAST_TIMEOUT * LOOP_PATIENCE)
    except Exception as error:
        _failed(messages, error)


def _failed(messages: Messages, error: Exception) -> None:
    log.warning("broadcast failed (%r): sent again when the channel layer answers", error)
    with _lock:
        _keep(messages)


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether this thread runs ``loop``."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def pending() -> Messages:
    """The messages kept to send again: empty while the layer answers."""
    with _lock:
        return dict(_kept)


async def _send_all(layer: Any, messages: Messages, timeout: float | None = None) -> None:
    sends = (layer.group_send(group, message) for group, message in messages.items())
    await asyncio.wait_for(asyncio.gather(*sends), timeout or settings.HEARTS_BROADCAST_TIMEOUT)


async def _ping_then_send(layer: Any, messages: Messages) -> None:
    # A send that times out may still be carried out when a paused server resumes; a ping
    # first keeps those to one per kept message instead of one per try.
    connection = getattr(layer, "connection", None)  # RedisChannelLayer's client for a shard
    if connection is not None:
        await asyncio.wait_for(connection(0).ping(), settings.HEARTS_BROADCAST_TIMEOUT)
    await _send_all(layer, messages)


def _keep(messages: Messages) -> None:
    """Called with the lock held."""
    global _resender
    for group, message in messages.items():
        # A notice changes nothing at its table (games/effects.py, table_notice): the table's
        # kept news, which a screen must not miss, is not dropped for it.
        if "notice" in message and group in _kept:
            continue
        _kept[group] = message
    if _resender is None:
        _resender = threading.Thread(target=_send_kept, name="broadcast-resender", daemon=True)
        _resender.start()


def _send_kept() -> None:
    """Until everything kept is sent: wait a little, try again."""
    global _resender
    loop = asyncio.new_event_loop()  # one for all its tries: the layer keeps a pool a loop
    try:
        while True:
            time.sleep(RETRY_SECONDS)
            messages = pending()
            layer = get_channel_layer()
            if layer is not None:
                try:
                    loop.run_until_complete(_ping_then_send(layer, messages))
                except Exception:  # still down: the next round tries again
                    continue
            with _lock:
                for group, message in messages.items():
                    if _kept.get(group) is message:  # not replaced by a newer one meanwhile
                        del _kept[group]
                if not _kept:
                    _resender = None
                    log.info("the channel layer answers again: kept broadcasts sent")
                    return
    finally:
        loop.close()
