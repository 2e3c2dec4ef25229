"""A process serves each table through one relay (live/relays.py): the table's group holds one
member a process however many of its sockets show the table, the news still reaches every
socket, and the sockets come and go without the others missing anything."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User

from games import services
from games.engine import Phase
from games.models import Game
from live import relays, table_state
from tests.helpers.screens import Fragments, board_fragments, steady
from tests.helpers.sockets import (
    TIMEOUT,
    data_cards,
    htmx_move,
    open_table_socket,
    session_cookie,
    version_of,
)
from tests.helpers.tables import FOUR, game_with, people

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _four_people() -> tuple[Game, list[str]]:
    game = game_with(FOUR)
    return game, [session_cookie(person) for person in people(*FOUR)]


def _pass(game_id: int) -> int:
    """The next seat's pass; the game's new version."""
    game = Game.objects.get(pk=game_id)
    hand = game.live_match().hand
    assert hand.phase is Phase.PASSING
    seat = next(s for s in range(4) if not hand.has_passed(s))
    cards = [str(card) for card in hand.holding(seat)[:3]]
    return services.act(game_id, seat, "pass", version=game.version, cards=cards).version


def _pass_untold(game_id: int) -> None:
    """The next seat's pass, made as a relay alone at its table makes it: told to nobody."""
    game = Game.objects.get(pk=game_id)
    hand = game.live_match().hand
    seat = next(s for s in range(4) if not hand.has_passed(s))
    cards = [str(card) for card in hand.holding(seat)[:3]]
    services.act(game_id, seat, "pass", version=game.version, cards=cards, publish=False)


async def _members(group: str) -> int:
    """How many channels the group sends to, on either layer the tests run with."""
    layer = get_channel_layer()
    assert layer is not None
    if hasattr(layer, "_get_layer"):  # RedisPubSubChannelLayer: this process's subscriptions
        here = layer._get_layer()
        return len(here.groups.get(here._get_group_channel_name(group), ()))
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


async def _screen_elsewhere(
    table_id: int, viewer: Any
) -> tuple[relays.Relay, relays.Screen, list[str]]:
    """A relay of the table as another process's would be, with one screen of ``viewer`` that
    has been sent the whole table: the relay, the screen and what it is sent from now on."""
    layer = get_channel_layer()
    assert layer is not None
    relay = relays.Relay(table_id, layer)
    await relay.start()
    sent: list[str] = []

    async def send(html: str) -> None:
        sent.append(html)

    async def close(code: int) -> None:
        raise AssertionError("the screen's socket stays open")

    screen = relays.Screen(viewer, "", "", send, close, ready=True)
    relay.screens.add(screen)
    await relay.request(screen)
    # The relay of this process's sockets hears that another process holds the table too (its
    # moves' news then carry the fragments everyone sees).
    here = relays._relays.get(asyncio.get_running_loop(), {}).get(table_id)
    for _ in range(100):
        if here is None or relay.answered:  # the relay here has answered this one's word
            break
        await asyncio.sleep(0.02)
    sent.clear()
    await relay.request(screen)  # after the table loaded again on hearing of the other
    return relay, screen, sent


async def _moved_and_heard(
    players: list[Any], seat: int, move: dict[str, Any], version: int, sent: list[str]
) -> None:
    """``seat`` makes ``move`` on its socket; every player's screen shows ``version``, and the
    screen elsewhere is sent something (within a few seconds)."""
    await players[seat].send_json_to(move)
    for socket in players:
        assert version_of(await socket.receive_from(timeout=TIMEOUT)) == version
    for _ in range(50):
        if sent:
            break
        await asyncio.sleep(0.05)


async def test_another_processs_spectators_are_sent_the_moves_fragments_as_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process holding the players' sockets sends one message a move with what a
    spectator sees that changed (never a hand); a process whose screens there are spectators'
    forwards it as it is, without loading or rendering anything."""
    game, cookies = await sync_to_async(_four_people)()
    players = [(await open_table_socket(game.table_id, cookie))[0] for cookie in cookies]
    elsewhere, spectator, sent = await _screen_elsewhere(game.table_id, AnonymousUser())
    screen = board_fragments(sent.pop())
    loads: list[int] = []
    monkeypatch.setattr(table_state, "load", lambda table_id: loads.append(table_id))
    try:
        match = await sync_to_async(lambda: Game.objects.get(pk=game.pk).live_match())()
        seat = next(s for s in range(4) if not match.hand.has_passed(s))
        cards = " ".join(str(card) for card in match.hand.holding(seat)[:3])
        await _moved_and_heard(players, seat, htmx_move("pass", cards, version=0), 1, sent)
    finally:
        monkeypatch.undo()
        await elsewhere.stop()
        for socket in players:
            await socket.disconnect()

    [forwarded] = sent
    assert loads == [] and spectator.shown == (game.pk, 1)
    assert data_cards(forwarded) == []  # never a hand
    screen.update(Fragments(forwarded).found)
    state = await sync_to_async(table_state.load)(game.table_id)
    assert state is not None
    whole = await sync_to_async(table_state.whole)(state, AnonymousUser(), code="", csrf="")
    assert steady(screen) == steady(board_fragments(whole.html))


async def test_another_process_holding_players_follows_a_card_without_loading_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card's news carries the card (everyone sees it): a process whose screens at the table
    include a player applies it to the table it holds, and pushes that player what changed,
    without a read of the database."""
    game, cookies = await sync_to_async(_four_people)()
    for _ in range(4):
        await sync_to_async(_pass)(game.pk)
    players = [(await open_table_socket(game.table_id, cookie))[0] for cookie in cookies]
    bob = await sync_to_async(User.objects.get)(username="bob")
    elsewhere, screen_of_bob, sent = await _screen_elsewhere(game.table_id, bob)
    screen = board_fragments(sent.pop())
    loads: list[int] = []
    monkeypatch.setattr(table_state, "load", lambda table_id: loads.append(table_id))
    try:
        match = await sync_to_async(lambda: Game.objects.get(pk=game.pk).live_match())()
        seat, version = match.hand.turn, match.version
        card = str(match.hand.legal_plays(seat)[0])
        move = htmx_move("play", card, version=version)
        await _moved_and_heard(players, seat, move, version + 1, sent)
    finally:
        monkeypatch.undo()
        await elsewhere.stop()
        for socket in players:
            await socket.disconnect()

    [followed] = sent
    assert loads == [] and screen_of_bob.shown == (game.pk, version + 1)
    screen.update(Fragments(followed).found)
    state = await sync_to_async(table_state.load)(game.table_id)
    assert state is not None
    whole = await sync_to_async(table_state.whole)(state, bob, code="", csrf="")
    assert steady(screen) == steady(board_fragments(whole.html))


async def test_the_heading_says_rated_once_a_rated_game_has_started() -> None:
    """Whoever opened the page before the start sees the heading the game gives it."""

    def seated() -> tuple[int, list[str]]:
        people = [User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave")]
        table = services.create_table(people[0], rated=True)
        for index, person in enumerate(people[1:], start=1):
            services.take_seat(table.pk, person, index)
        return table.pk, [session_cookie(person) for person in people]

    table_id, cookies = await sync_to_async(seated)()
    socket, before = await open_table_socket(table_id, cookies[1])
    assert '<small id="table-kind">Standard, 4 players, rated unless a bot sits</small>' in before

    host = await sync_to_async(User.objects.get)(username="alice")
    await sync_to_async(services.start_game)(table_id, host)
    started = await socket.receive_from(timeout=TIMEOUT)
    await socket.disconnect()

    assert '<small id="table-kind">Standard, 4 players, rated</small>' in started


async def test_a_relay_alone_at_its_table_tells_nobody_of_its_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nobody else holds the table (a listener that is no relay says nothing): once the relay
    is past its first seconds, a move made there sends no news at all, and a relay that comes
    later loads the table as it is."""
    monkeypatch.setattr(relays, "NEW_SECONDS", 0.0)
    game, cookies = await sync_to_async(_four_people)()
    players = [(await open_table_socket(game.table_id, cookie))[0] for cookie in cookies]
    layer = get_channel_layer()
    assert layer is not None
    listener = await layer.new_channel()
    await layer.group_add(f"table-{game.table_id}", listener)
    heard: list[dict[str, Any]] = []
    try:
        match = await sync_to_async(lambda: Game.objects.get(pk=game.pk).live_match())()
        cards = " ".join(str(card) for card in match.hand.holding(0)[:3])
        await players[0].send_json_to(htmx_move("pass", cards, version=0))
        for socket in players:
            assert version_of(await socket.receive_from(timeout=TIMEOUT)) == 1
        while True:
            try:
                heard.append(await asyncio.wait_for(layer.receive(listener), 0.5))
            except TimeoutError:
                break
        elsewhere, spectator, sent = await _screen_elsewhere(game.table_id, AnonymousUser())
        await elsewhere.stop()
    finally:
        await layer.group_discard(f"table-{game.table_id}", listener)
        for socket in players:
            await socket.disconnect()

    assert [message for message in heard if message["type"] != "table.relay"] == []
    assert version_of(sent[0]) == 1 and spectator.shown == (game.pk, 1)


async def test_a_relay_that_learns_late_of_another_loads_the_table_again() -> None:
    """Another process answers a relay's word only once it has heard it: the moves it made
    before then were told to nobody. On that answer the relay loads the table again, and its
    screens are pushed what they missed."""
    game, _ = await sync_to_async(_four_people)()
    elsewhere, spectator, sent = await _screen_elsewhere(game.table_id, AnonymousUser())
    layer = get_channel_layer()
    assert layer is not None
    try:
        sent.clear()
        await sync_to_async(_pass_untold)(game.pk)
        await asyncio.sleep(0.3)
        assert spectator.shown == (game.pk, 0) and sent == []
        answer = {"type": "table.relay", "origin": "another-process", "reply": True}
        await layer.group_send(f"table-{game.table_id}", answer)
        for _ in range(100):
            if spectator.shown == (game.pk, 1):
                break
            await asyncio.sleep(0.05)
    finally:
        await elsewhere.stop()

    assert spectator.shown == (game.pk, 1)
    assert sent and version_of("".join(sent)) == 1


@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="moves are written from the event loop on PostgreSQL only",
)
async def test_a_plain_move_is_written_from_the_event_loop_and_a_refusal_the_pools_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On PostgreSQL a plain move is judged and written on the event loop (live/fast_writes.py),
    never in a thread of the pool; a move refused goes the pool's way, which words it."""
    game, cookies = await sync_to_async(_four_people)()
    players = [(await open_table_socket(game.table_id, cookie))[0] for cookie in cookies]
    made_in_the_pool: list[Any] = []
    pool_make = relays.Relay._make

    def counted(self: relays.Relay, move: Any, screens: Any) -> Any:
        made_in_the_pool.append(move.action)
        return pool_make(self, move, screens)

    monkeypatch.setattr(relays.Relay, "_make", counted)
    for socket in players:  # each screen's sanctions looked at once, the pool's way
        socket_seat = players.index(socket)
        match = await sync_to_async(lambda: Game.objects.get(pk=game.pk).live_match())()
        cards = " ".join(str(card) for card in match.hand.holding(socket_seat)[:3])
        version = await sync_to_async(lambda: Game.objects.get(pk=game.pk).version)()
        await socket.send_json_to(htmx_move("pass", cards, version=version))
        for each in players:
            await each.receive_from(timeout=TIMEOUT)
    made_in_the_pool.clear()
    try:
        match = await sync_to_async(lambda: Game.objects.get(pk=game.pk).live_match())()
        seat, version = match.hand.turn, match.version
        card = str(match.hand.legal_plays(seat)[0])
        await players[seat].send_json_to(htmx_move("play", card, version=version))
        for socket in players:
            assert version_of(await socket.receive_from(timeout=TIMEOUT)) == version + 1
        wrong = str(match.hand.holding((seat + 1) % 4)[0])
        await players[seat].send_json_to(htmx_move("play", wrong, version=version + 1))
        refusal = await players[seat].receive_from(timeout=TIMEOUT)
    finally:
        for socket in players:
            await socket.disconnect()

    assert made_in_the_pool == ["play"], "the card was written from the loop, the refusal not"
    assert "flash-error" in refusal
    logged = await sync_to_async(lambda: Game.objects.get(pk=game.pk).moves.count())()
    assert logged == version + 1


@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="moves are written from the event loop on PostgreSQL only",
)
async def test_moves_go_on_when_the_loops_connections_to_the_database_are_killed() -> None:
    """The loop's connections (live/fast_writes.py) killed by the database between two moves:
    the next move still lands once, on every screen, and the one after it is written from the
    loop again over a new connection."""
    from django.db import connection

    from live import fast_writes

    game, cookies = await sync_to_async(_four_people)()
    players = [(await open_table_socket(game.table_id, cookie))[0] for cookie in cookies]

    async def next_move() -> int:
        match = await sync_to_async(lambda: Game.objects.get(pk=game.pk).live_match())()
        hand, version = match.hand, match.version
        if hand.phase is Phase.PASSING:
            seat = next(s for s in range(4) if not hand.has_passed(s))
            move = htmx_move("pass", " ".join(map(str, hand.holding(seat)[:3])), version=version)
        else:
            seat = hand.turn
            move = htmx_move("play", str(hand.legal_plays(seat)[0]), version=version)
        await players[seat].send_json_to(move)
        for socket in players:
            assert version_of(await socket.receive_from(timeout=TIMEOUT)) == version + 1
        return version + 1

    def kill_loop_connections() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND query LIKE '%games_moverecord%'"
            )
            return int(cursor.fetchone()[0])

    try:
        for _ in range(6):  # four passes, the 2♣ and a card: the loop's writes
            await next_move()
        assert fast_writes._loops, "the plain moves were written from the loop"
        assert await sync_to_async(kill_loop_connections)() >= 1
        version = await next_move()
        version = await next_move()
    finally:
        for socket in players:
            await socket.disconnect()

    logged = await sync_to_async(lambda: list(Game.objects.get(pk=game.pk).moves.all()))()
    assert [move.number for move in logged] == list(range(1, version + 1))
