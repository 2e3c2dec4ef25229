"""An arena page's socket: a game's result moves the standings on every open page of the
arena, signed in or not; an entrant is sent to their table the moment they are seated; an
entrant's open page keeps them there to be seated, every page of the process in one beat; and
the socket takes no messages."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from arenas import services
from arenas.models import ArenaGame, Entrant
from tests.helpers.arenas import an_arena, running_arena
from tests.helpers.finishing import play_out
from tests.helpers.sockets import TIMEOUT, page_beats, session_cookie, socket_at

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
NAMES = ("alice", "bob", "carol", "dave")


def _arena_with_people() -> tuple[int, dict[str, str]]:
    arena = running_arena("Socket arena")
    people = [User.objects.create_user(name) for name in NAMES]
    for person in people:
        services.join(person, arena.pk)
    return arena.pk, {p.username: session_cookie(p) for p in people}


async def _socket(arena_id: int, cookie: str | None) -> WebsocketCommunicator:
    socket = socket_at(f"/ws/arena/{arena_id}/", cookie)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    return socket


async def _drain(socket: WebsocketCommunicator) -> list[str]:
    frames = []
    while not await socket.receive_nothing(timeout=0.3):
        frames.append(await socket.receive_from())
    return frames


async def test_the_entrants_are_sent_to_their_table_and_a_result_moves_every_pages_standings() -> (
    None
):
    arena_id, cookies = await database_sync_to_async(_arena_with_people)()
    sockets = {name: await _socket(arena_id, cookies[name]) for name in NAMES}
    watcher = await _socket(arena_id, None)
    made = await database_sync_to_async(services.pair)(arena_id)
    assert len(made) == 1
    url = made[0].table.get_absolute_url()
    for socket in sockets.values():
        shown = "".join(await _drain(socket))
        assert f'id="arena-table" href="{url}"' in shown
        assert "(playing)" in shown  # the standings, as they now are
    watched = "".join(await _drain(watcher))
    assert 'id="arena-live"' in watched and 'id="arena-table"' not in watched

    def finish() -> list[str]:
        played = ArenaGame.objects.get(pk=made[0].pk)
        for person in User.objects.all():
            services.pause(person, arena_id)  # no table after this one
        game = play_out(played.game, 1)
        services.game_ended(game.pk)
        assert game.result is not None
        return [str(p) for p in game.result["places"]]

    await database_sync_to_async(finish)()
    for socket in [*sockets.values(), watcher]:
        frames = await _drain(socket)
        assert frames, "the standings did not move"
        last = frames[-1]
        assert 'id="arena-live"' in last and "(playing)" not in last and "(paused)" in last
        assert '<td class="points">4</td>' in last  # the winner's
    await watcher.send_to(text_data='{"join": true}')
    assert "The arena takes no messages" in await watcher.receive_from(timeout=TIMEOUT)
    for socket in [*sockets.values(), watcher]:
        await socket.disconnect()


async def test_a_page_open_before_its_person_joined_does_not_count_them_out_on_closing() -> None:
    def arena_and_alice() -> tuple[int, str, int]:
        arena = an_arena("Socket arena")
        alice = User.objects.create_user("alice")
        return arena.pk, session_cookie(alice), alice.pk

    arena_id, cookie, alice_id = await database_sync_to_async(arena_and_alice)()
    before = await _socket(arena_id, cookie)  # the page she pressed Join on
    alice = await database_sync_to_async(User.objects.get)(pk=alice_id)
    await database_sync_to_async(services.join)(alice, arena_id)
    after = await _socket(arena_id, cookie)  # the page Join led to
    await before.disconnect()
    free = await database_sync_to_async(
        lambda: list(Entrant.objects.filter(sockets=1).values_list("user_id", flat=True))
    )()
    assert free == [alice_id]
    await after.disconnect()
    left = await database_sync_to_async(lambda: Entrant.objects.get(user_id=alice_id).sockets)()
    assert left == 0


async def test_an_arena_that_does_not_exist_refuses_its_socket_as_a_missing_table_does() -> None:
    cookie = await database_sync_to_async(
        lambda: session_cookie(User.objects.create_user("alice"))
    )()
    for path in ("/ws/table/999999/", "/ws/arena/999999/"):
        for signed_in in (cookie, None):
            socket = socket_at(path, signed_in)
            assert await socket.connect(timeout=TIMEOUT) == (False, 4403), path


async def test_the_entrants_open_pages_keep_them_there_to_be_seated_until_they_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(services, "HEARTBEAT_SECONDS", 0.2)
    arena_id, cookies = await database_sync_to_async(_arena_with_people)()
    other_id = await database_sync_to_async(lambda: an_arena("Second arena").pk)()
    alice, bob = [await _socket(arena_id, cookies[name]) for name in ("alice", "bob")]

    def join_carol_there() -> None:
        services.join(User.objects.get(username="carol"), other_id)

    await database_sync_to_async(join_carol_there)()
    carol_there = await _socket(other_id, cookies["carol"])

    def seen_at() -> dict[str, object]:
        rows = Entrant.objects.values_list("arena_id", "user__username", "seen_at")
        return {
            f"{name}@{'first' if arena == arena_id else 'second'}": at for arena, name, at in rows
        }

    # Two arenas' pages in one process, each still there; carol's and dave's first pages never
    # opened, so nothing says they are.
    open_ = {"alice@first", "bob@first", "carol@second"}
    await page_beats(seen_at, open_, {"carol@first", "dave@first"})
    await bob.disconnect()
    await page_beats(seen_at, {"alice@first", "carol@second"}, {"bob@first"})
    for socket in (alice, carol_there):
        await socket.disconnect()
