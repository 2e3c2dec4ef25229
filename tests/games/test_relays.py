"""A process serves each table through one relay (games/relays.py): the table's group holds one
member a process however many of its sockets show the table, the news still reaches every
socket, and the sockets come and go without the others missing anything."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import User

from games import services
from games.engine import Phase
from games.models import Game

from .sockets import TIMEOUT, open_table_socket, session_cookie, version_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _four_people() -> tuple[Game, list[str]]:
    people = [User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    table = services.create_table(people[0])
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    game = services.start_game(table.pk, people[0])
    return game, [session_cookie(person) for person in people]


def _pass(game_id: int) -> int:
    """The next seat's pass; the game's new version."""
    game = Game.objects.get(pk=game_id)
    hand = game.live_match().hand
    assert hand.phase is Phase.PASSING
    seat = next(s for s in range(4) if not hand.has_passed(s))
    cards = [str(card) for card in hand.holding(seat)[:3]]
    return services.act(game_id, seat, "pass", version=game.version, cards=cards).version


async def _members(group: str) -> int:
    """How many channels the group sends to, on either layer the tests run with."""
    layer = get_channel_layer()
    assert layer is not None
    if hasattr(layer, "groups"):  # InMemoryChannelLayer
        return len(layer.groups.get(group, {}))
    connection = layer.connection(layer.consistent_hash(group))
    return int(await connection.zcard(layer._group_key(group)))


async def test_a_process_joins_a_tables_group_once_however_many_of_its_sockets_watch() -> None:
    game, cookies = await sync_to_async(_four_people)()
    group = services.table_group(game.table_id)
    sockets = [(await open_table_socket(game.table_id, cookie))[0] for cookie in cookies]
    sockets.append((await open_table_socket(game.table_id))[0])  # and a spectator

    assert await _members(group) == 1
    version = await sync_to_async(_pass)(game.pk)
    for socket in sockets:  # one message across the layer, and every screen has the move
        assert version_of(await socket.receive_from(timeout=TIMEOUT)) == version

    for socket in sockets:
        await socket.disconnect()
    assert await _members(group) == 0  # the last socket gone, the process leaves the group


async def test_the_others_keep_getting_the_news_when_one_socket_closes() -> None:
    game, cookies = await sync_to_async(_four_people)()
    leaving, _ = await open_table_socket(game.table_id, cookies[0])
    staying, _ = await open_table_socket(game.table_id, cookies[1])
    await leaving.disconnect()

    version = await sync_to_async(_pass)(game.pk)

    assert version_of(await staying.receive_from(timeout=TIMEOUT)) == version
    await staying.disconnect()


async def test_a_socket_arriving_after_the_last_one_left_gets_the_news() -> None:
    game, cookies = await sync_to_async(_four_people)()
    first, _ = await open_table_socket(game.table_id, cookies[0])
    await first.disconnect()

    second, whole = await open_table_socket(game.table_id, cookies[0])
    assert version_of(whole) == 0
    version = await sync_to_async(_pass)(game.pk)

    assert version_of(await second.receive_from(timeout=TIMEOUT)) == version
    await second.disconnect()
