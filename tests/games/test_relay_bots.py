"""The bots' moves are made by the relay of the process holding the table's sockets
(live/relays.py, their decisions in live/bot_pool.py), not by a Celery task a move: a person
playing the bots sees them answer, every move goes through the write path, and no task is
queued for them. A table nobody has open is left to the deadline's sweep, as before."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import User

from games import services
from games.engine import Match, Rules, seat_view
from games.models import Game
from tests.helpers.sockets import TIMEOUT, htmx_move, open_table_socket, session_cookie

VERSION = re.compile(r'data-version="(\d+)"')
MY_TURN = re.compile(r'data-my-turn="([01])"')
PHASE = re.compile(r'data-phase="([a-z_]+)"')

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _queued(queue: str) -> list[str]:
    """The names of the tasks waiting in the test's own queue."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    waiting = client.lrange(queue, 0, -1)
    assert isinstance(waiting, list)  # redis-py types it for its async client too
    return [json.loads(raw)["headers"]["task"] for raw in waiting]


def _game(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


async def _shows(socket, done) -> int:
    """Read the screen's pushes until ``done(version, my turn, phase)`` holds of what it
    shows; the version then."""
    version, mine, phase = -1, False, ""
    for _ in range(400):
        html = await socket.receive_from(timeout=TIMEOUT)
        if found := VERSION.search(html):
            version = int(found.group(1))
        if found := MY_TURN.search(html):
            mine = found.group(1) == "1"
        if found := PHASE.search(html):
            phase = found.group(1)
        if done(version, mine, phase):
            return version
    raise AssertionError("the screen never showed it")


async def _my_turn(socket, after: int) -> int:
    """Read the screen's pushes until it shows the person's turn to play a card at a version
    past ``after``; that version."""
    return await _shows(
        socket, lambda version, mine, phase: mine and phase == "playing" and version > after
    )


async def test_the_relay_makes_the_bots_moves_and_queues_no_task_for_them(task_queue) -> None:
    alice = await sync_to_async(User.objects.create_user)("alice")
    game = await sync_to_async(services.play_now)(alice)
    started = await sync_to_async(_queued)(task_queue)  # the start's task, from the page
    socket, _ = await open_table_socket(game.table_id, await sync_to_async(session_cookie)(alice))

    # The bots pass as soon as the table is open here (her screen shows their three passes);
    # then alice passes.
    await _shows(socket, lambda version, mine, phase: version == 3)
    now = await sync_to_async(_game)(game.pk)
    hand = (await sync_to_async(now.live_match)()).hand
    cards = " ".join(str(card) for card in hand.holding(0)[:3])
    await socket.send_json_to(htmx_move("pass", cards, now.version))

    # Then the bots play until it is alice's turn, whoever led: her screen shows it.
    shown = await _my_turn(socket, now.version)
    game = await sync_to_async(_game)(game.pk)
    assert game.version == shown >= 4  # four passes, and the bots' cards before hers
    assert await sync_to_async(_queued)(task_queue) == started, "a task was queued for a bot"

    # Her card: the bots answer it, through the same write path, until she is asked again.
    match = await sync_to_async(game.live_match)()
    card = str(seat_view(match, 0).legal[0])
    await socket.send_json_to(htmx_move("play", card, game.version))
    again = await _my_turn(socket, game.version)
    await socket.disconnect()

    assert again > game.version
    replayed = await sync_to_async(_replayed)(game.pk)
    assert replayed, "the log replays to the game's state"
    assert await sync_to_async(_queued)(task_queue) == started


def _replayed(game_id: int) -> bool:
    game = _game(game_id)
    match = Match.replay(
        Rules.from_json(game.rules), bytes(game.seed), game.engine_moves(), game.added_seeds
    )
    return len(match.moves) == game.version and match.hand.holding(0) == (
        game.live_match().hand.holding(0)
    )


async def test_the_bots_wait_their_pause_after_a_move_made_here(settings) -> None:
    settings.HEARTS_BOT_DELAY = 0.6
    alice = await sync_to_async(User.objects.create_user)("alice")
    game = await sync_to_async(services.play_now)(alice)
    socket, _ = await open_table_socket(game.table_id, await sync_to_async(session_cookie)(alice))
    # The bots' passes come no sooner than the delay after the table was opened.
    await asyncio.sleep(0.3)
    assert (await sync_to_async(_game)(game.pk)).version == 0, "a bot moved before its pause"
    assert await _shows(socket, lambda version, mine, phase: version == 3) == 3
    await socket.disconnect()


async def test_with_no_socket_open_the_bots_are_left_to_the_tasks(task_queue) -> None:
    alice = await sync_to_async(User.objects.create_user)("alice")
    game = await sync_to_async(services.play_now)(alice)
    await asyncio.sleep(0.3)
    assert (await sync_to_async(_game)(game.pk)).version == 0  # no relay: nobody moved
    assert await sync_to_async(_queued)(task_queue) == ["games.tasks.bot_move"]


async def test_a_closed_table_cancels_the_bots_turn(settings) -> None:
    settings.HEARTS_BOT_DELAY = 0.4
    alice = await sync_to_async(User.objects.create_user)("alice")
    game = await sync_to_async(services.play_now)(alice)
    socket, _ = await open_table_socket(game.table_id, await sync_to_async(session_cookie)(alice))
    await socket.disconnect()  # before the bots' pause is over
    await asyncio.sleep(0.8)
    assert (await sync_to_async(_game)(game.pk)).version == 0
