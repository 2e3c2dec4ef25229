"""The seed stays secret until the game ends: no page, socket message or log line shows it, and
every one that shows the game afterwards does. The seed of the table's next game stays secret
even then."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import Match, Phase
from games.models import Game, Table
from games.tasks import play_bots, time_out
from tests.helpers.sockets import TIMEOUT, htmx_move, open_table_socket, session_cookie, version_of
from tests.helpers.tables import FOUR, people, table_with

# The pages that could show a game: its table, the lobby, the players' profiles, the list of
# games, and the game's own pages (replay, record, verification).
GAME_PAGES = ("game_detail", "game_record", "game_verify")


def _logged_in(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _spellings(seed: bytes) -> list[str]:
    return [seed.hex(), seed.hex().upper(), repr(seed)]


def _pages(table: Table, game: Game | None, viewers: Iterable[User | None]) -> list[str]:
    """Every page that could show the game, as each viewer (None: nobody signed in) sees it."""
    urls = [
        reverse("table", args=[table.pk]),
        reverse("lobby"),
        reverse("game_list"),
        reverse("game_list") + "?player=alice",
        *(reverse("profile", args=[name]) for name in ("alice", "bob", "carol")),
    ]
    if game is not None:
        urls += [reverse(name, args=[game.pk]) for name in GAME_PAGES]
    pages = []
    for viewer in viewers:
        client = _logged_in(viewer)
        for url in urls:
            response = client.get(url)
            assert response.status_code in (200, 404), (url, response.status_code)
            pages.append(f"{url}\n{response.content.decode()}")
    return pages


def _shown_in(seed: bytes, texts: Iterable[str]) -> list[str]:
    """The beginning of every text that spells ``seed`` somehow."""
    return [text[:80] for text in texts if any(s in text for s in _spellings(seed))]


def _logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{record.getMessage()} {record.args!r} {record.exc_text}" for record in caplog.records]


def _alice_bob_carol_and_a_bot() -> tuple[Table, list[User | None]]:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    dave = User.objects.create_user("dave")  # watching, signed in
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 1)
    services.take_seat(table.pk, carol, 2)
    services.set_bot(table.pk, alice, 3, True)
    return table, [alice, bob, carol, dave, None]


def _move_someone(game: Game, step: int) -> None:
    """One step of play: the bots through their task, people through the service, and now and
    then a person's turn left to the clock."""
    game = Game.objects.get(pk=game.pk)
    match = game.match()
    waiting = services.seats_to_act(match)
    if 3 in waiting:
        assert play_bots(game.pk, game.version) > 0
    elif step % 5 == 0 and not _timed_out_last_turn(game, waiting):
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert time_out(game.pk, game.version) > 0
    else:
        hand = match.hand
        assert waiting, (match.is_over, hand.phase, hand.turn, [m.to_json() for m in hand.moves])
        _a_legal_move(game, match, waiting[0])


def _timed_out_last_turn(game: Game, waiting: list[int]) -> bool:
    """Whether the person to move ran out of time at their last turn: left to the clock again
    (and a third time) they would leave, and the game would end before the test is through."""
    player = game.players.filter(seat__in=waiting[:1]).first()
    return player is not None and player.timeouts_in_a_row > 0


def _a_legal_move(game: Game, match: Match, seat: int) -> None:
    hand = match.hand
    if hand.phase is Phase.PASSING:
        cards = [str(card) for card in hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=game.version, cards=cards)
    elif hand.phase is Phase.MOON_CHOICE:
        services.act(game.pk, seat, "moon", version=game.version, choice="others")
    else:
        card = str(hand.legal_plays(seat)[0])
        services.act(game.pk, seat, "play", version=game.version, cards=[card])


@pytest.mark.django_db
def test_no_page_and_no_log_line_shows_the_seed_before_the_game_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    table, viewers = _alice_bob_carol_and_a_bot()
    seed = bytes(table.next_seed)
    assert not _shown_in(seed, _pages(table, None, viewers))

    game = services.start_game(table.pk, table.host)
    assert bytes(game.seed) == seed
    table.refresh_from_db()
    next_seed = bytes(table.next_seed)
    pages: list[str] = []
    for step in range(30):  # the passes, the clock, the bot's task and seven tricks
        _move_someone(game, step)
        if step in (2, 7, 29):
            pages += _pages(table, game, viewers)
    assert Game.objects.get(pk=game.pk).moves.filter(timeout=True).exists()
    assert not _shown_in(seed, pages)
    assert not _shown_in(seed, _logged(caplog))

    services.resign(game.pk, 1)

    after = _pages(table, game, viewers)
    table_pages = [page for page in after if page.startswith(reverse("table", args=[table.pk]))]
    assert len(_shown_in(seed, table_pages)) == len(viewers)
    for name in GAME_PAGES:
        url = reverse(name, args=[game.pk])
        assert _shown_in(seed, [page for page in after if page.startswith(url + "\n")])
    assert not _shown_in(next_seed, pages + after + _logged(caplog))


async def _next(socket: WebsocketCommunicator) -> str:
    return await socket.receive_from(timeout=TIMEOUT)


async def _receive_until(socket: WebsocketCommunicator, version: int) -> list[str]:
    messages: list[str] = []
    while not messages or version_of(messages[-1]) != version:
        messages.append(await _next(socket))
    return messages


def _four_people() -> tuple[int, list[str]]:
    table = table_with(FOUR)
    return table.pk, [session_cookie(person) for person in people(*FOUR)]


def _next_move(table_id: int) -> tuple[int, dict[str, object]]:
    game = Game.objects.filter(table_id=table_id).get()
    match = game.match()
    seat = services.seats_to_act(match)[0]
    if match.hand.phase is Phase.PASSING:
        cards = " ".join(str(card) for card in match.hand.holding(seat)[:3])
        return seat, htmx_move("pass", cards, game.version)
    return seat, htmx_move("play", str(match.hand.legal_plays(seat)[0]), game.version)


def _seeds(table_id: int) -> tuple[bytes, bytes]:
    table = Table.objects.get(pk=table_id)
    game = table.current_game()
    return (bytes(game.seed) if game else bytes(table.next_seed)), bytes(table.next_seed)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_socket_message_shows_the_seed_before_the_game_ends() -> None:
    table_id, cookies = await database_sync_to_async(_four_people)()
    seed, _ = await database_sync_to_async(_seeds)(table_id)
    sockets = []
    before: list[str] = []
    for cookie in [*cookies, None]:  # each seat, and a spectator
        socket, first = await open_table_socket(table_id, cookie)
        sockets.append(socket)
        before.append(first)
    bob = await database_sync_to_async(User.objects.get)(username="bob")
    await database_sync_to_async(services.add_seed)(table_id, bob, "bob's")
    before += [await _next(socket) for socket in sockets]
    alice = await database_sync_to_async(User.objects.get)(username="alice")
    await database_sync_to_async(services.start_game)(table_id, alice)
    started = [(await _receive_until(socket, 0))[-1] for socket in sockets]
    before += started
    for version in range(1, 4 + 8 + 1):  # the passes and two tricks, sent by the players
        seat, move = await database_sync_to_async(_next_move)(table_id)
        await sockets[seat].send_json_to(move)
        for socket in sockets:
            before += await _receive_until(socket, version)

    await sockets[1].send_json_to(htmx_move("resign", version=version))
    after = [(await _receive_until(socket, version + 1))[-1] for socket in sockets]

    game_seed, next_seed = await database_sync_to_async(_seeds)(table_id)
    assert game_seed == seed
    assert all("bob&#x27;s" in table for table in started)  # the added seed is public
    assert not _shown_in(seed, before)
    assert len(_shown_in(seed, after)) == len(sockets)
    assert not _shown_in(next_seed, before + after)
    for socket in sockets:
        await socket.disconnect()
