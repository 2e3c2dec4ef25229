"""A rematch refused because someone seated may no longer play at the table (bob, suspended after
the game) changes nothing there, and everyone at the table is told: the person who asked, the
other players and the spectators, each in their own language, that the rematch cannot start,
who cannot play (never why: that is bob's alone) and what is left to do."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from games import effects, services
from games.models import Game, Table
from live import broadcasts
from moderation import sanctions
from moderation.models import Sanction
from tests.helpers.moderators import moderator
from tests.helpers.sockets import TIMEOUT, open_table_socket, session_cookie
from tests.helpers.tables import FOUR, game_with, person

REFUSED = (
    "The rematch cannot start: bob cannot play at this table now. A rematch can start once "
    "they may play here again; to play on now, start a table from the lobby."
)
REASON = "Rude in chat."


def _finished_with_bob_suspended() -> Table:
    """alice hosts bob, carol and dave; dave resigns, which ends the game; then staff suspend
    bob."""
    game = game_with(FOUR)
    services.resign(game.pk, 3)
    until = timezone.now() + timedelta(days=1)
    sanctions.suspend(moderator(), person("bob"), until=until, reason=REASON)
    return Table.objects.get(pk=game.table_id)


def _notice(html: str) -> str:
    """The words of a pushed #table-notice, or "" if ``html`` is not one."""
    found = re.search(r'<p id="table-notice"[^>]*>(.*?)</p>', html, re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split()) if found else ""


# The write path ---------------------------------------------------------------------------------

Notices = list[tuple[int, str, dict[str, Any]]]


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> Notices:
    """The table's notices the services send (table, kind, values), kept here instead."""
    notices: Notices = []

    def keep(table_id: int, notice: str, **values: str) -> None:
        notices.append((table_id, notice, values))

    monkeypatch.setattr(effects, "table_notice", keep)
    return notices


@pytest.mark.django_db
def test_a_refused_rematch_leaves_the_table_as_it_was_and_tells_it_who_cannot_play(
    told: Notices,
) -> None:
    table = _finished_with_bob_suspended()

    with pytest.raises(services.ServiceError) as refused:
        services.rematch(table.pk, person("carol"))

    assert str(refused.value) == REFUSED
    assert REASON not in str(refused.value)
    assert told == [(table.pk, "rematch-refused", {"name": "bob"})]
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED  # not open again, nor in the lobby
    assert table.host == person("alice")
    assert Game.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_the_barred_player_asking_is_told_their_own_reason_and_the_table_their_name(
    told: Notices,
) -> None:
    table = _finished_with_bob_suspended()

    with pytest.raises(services.ServiceError) as refused:
        services.rematch(table.pk, person("bob"))  # his request came in before the suspension

    assert str(refused.value) == Sanction.objects.get(user=person("bob")).notice
    assert told == [(table.pk, "rematch-refused", {"name": "bob"})]
    assert Game.objects.filter(table=table).count() == 1


# Everyone at the table --------------------------------------------------------------------------


def _cookies() -> dict[str, str]:
    return {name: session_cookie(person(name)) for name in ("alice", "carol")}


def _carol_asks(table: Table) -> tuple[int, list[str]]:
    """carol presses Rematch: the page's status and the messages it is redirected with."""
    browser = Client()
    browser.force_login(person("carol"))
    response = browser.post(f"/t/{table.pk}/rematch/")
    return response.status_code, [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_refused_rematch_is_told_to_the_asker_the_players_and_the_spectators() -> None:
    table = await sync_to_async(_finished_with_bob_suspended)()
    cookies = await sync_to_async(_cookies)()
    carol, _ = await open_table_socket(table.pk, cookies["carol"])
    alice, _ = await open_table_socket(table.pk, cookies["alice"] + "; hearts_language=de")
    spectator, _ = await open_table_socket(table.pk, "hearts_language=es")
    sockets = (carol, alice, spectator)
    try:
        status, messages = await sync_to_async(_carol_asks)(table)
        pushed = [await socket.receive_from(timeout=TIMEOUT) for socket in sockets]
        for socket in sockets:  # heard here and through the layer: told once
            assert await socket.receive_nothing(timeout=0.5)
    finally:
        for socket in sockets:
            await socket.disconnect()

    assert status == 302 and messages == [REFUSED]
    to_carol, to_alice, to_spectator = map(_notice, pushed)
    assert to_carol == REFUSED + " Back to the lobby"
    # Each in their own language (the link's words tell it while the sentence awaits its
    # translators), and each names bob, never why he cannot play.
    assert "bob" in to_alice and to_alice.endswith("Zurück zur Lobby")
    assert "bob" in to_spectator and to_spectator.endswith("Volver a la sala")
    for told in (to_carol, to_alice, to_spectator):
        assert REASON not in told
    assert await Game.objects.filter(table_id=table.pk).acount() == 1
    assert (await Table.objects.aget(pk=table.pk)).status == Table.Status.CLOSED


# Through an outage of the channel layer -----------------------------------------------------------


def test_a_notice_kept_through_an_outage_does_not_take_the_place_of_the_tables_news(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept: broadcasts.Messages = {}
    monkeypatch.setattr(broadcasts, "_kept", kept)
    monkeypatch.setattr(broadcasts, "_resender", object())  # one is running: none started here
    news = {"type": "table.updated", "game": 1, "version": 7, "events": []}
    notice = {"type": "table.notice", "notice": "rematch-refused", "values": {"name": "bob"}}

    with broadcasts._lock:
        broadcasts._keep({"table-1": news})
        broadcasts._keep({"table-1": notice, "table-2": notice})

    assert kept == {"table-1": news, "table-2": notice}
