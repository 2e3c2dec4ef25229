"""Each screen at a table reads its own language: the one its person chose (account or cookie)
or their browser asks for. Two people at one table in two languages each see the table, and
each move's push, in their own; a spectator in a third language too."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from accounts.models import SpokenLanguage
from tests.helpers.sockets import TIMEOUT, htmx_move, open_table_socket, session_cookie
from tests.helpers.tables import FOUR, game_with, people

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("channel_layer_of_its_own", "close_socket_connections"),
]


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _table() -> tuple[int, int, list[str], list[str]]:
    game = game_with(FOUR)
    players = people(*FOUR)
    SpokenLanguage.objects.create(user=players[1], code="fr")  # bob chose French
    hand = game.live_match().hand
    alices = " ".join(str(card) for card in hand.holding(0)[:3])
    return game.table_id, game.version, [session_cookie(p) for p in players], [alices]


async def test_two_people_at_one_table_each_read_the_table_in_their_own_language() -> None:
    table_id, version, cookies, (alices_pass,) = await sync_to_async(_table)()
    alice, alice_sees = await open_table_socket(table_id, cookies[0] + "; hearts_language=de")
    bob, bob_sees = await open_table_socket(table_id, cookies[1])  # his account says French
    carol, carol_sees = await open_table_socket(table_id, cookies[2])  # no choice: English
    spectator, watched = await open_table_socket(table_id, "hearts_language=es")
    try:
        assert "Wähle drei Karten" in _text(alice_sees)
        assert "Choisissez trois cartes" in _text(bob_sees) or "trois cartes" in _text(bob_sees)
        assert "Choose three cards" in _text(carol_sees)
        assert "Estándar, 4 jugadores" in _text(watched)
        for english in ("Choose three cards", "Hand 1", "Resign"):
            assert english not in _text(alice_sees) and english not in _text(bob_sees)

        await alice.send_json_to(htmx_move("pass", alices_pass, version=version))
        pushed = [await s.receive_from(timeout=TIMEOUT) for s in (alice, bob, carol, spectator)]
    finally:
        for socket in (alice, bob, carol, spectator):
            await socket.disconnect()

    to_alice, to_bob, to_carol, to_spectator = map(_text, pushed)
    assert "Warten, bis alle" in to_alice and "Waiting" not in to_alice
    assert "Waiting" not in to_bob and "Waiting" not in to_spectator
    assert to_carol != to_bob and to_carol != to_spectator


async def test_a_refusal_is_said_in_the_movers_language() -> None:
    table_id, version, cookies, _ = await sync_to_async(_table)()
    alice, _ = await open_table_socket(table_id, cookies[0] + "; hearts_language=es")
    try:
        await alice.send_json_to(htmx_move("pass", "2C 3C", version=version))
        refused = _text(await alice.receive_from(timeout=TIMEOUT))
    finally:
        await alice.disconnect()
    assert refused == "Elige exactamente 3 cartas distintas para pasar"
