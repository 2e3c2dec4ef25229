"""Dates, times and numbers follow the reader's language, one format of each a language
(hearts_site/formats/), and the reader's time zone where the browser told it (the cookie its
script sets: accounts/time_zones.py), UTC otherwise: the same moment reads the same on the arena
page, the list of games, the chat's report page and the chat itself."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arenas import services as arenas
from arenas.models import Arena
from chat import services as chat
from chat.models import ChatMessage, Room
from games import services as games
from games.models import Game
from tests.helpers.records import ended_early
from tests.helpers.tables import people

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("channel_layer_of_its_own", "close_socket_connections", "task_queue"),
]

MOMENT = datetime(2026, 12, 6, 18, 48, tzinfo=UTC)
# The moment in each language, in UTC and in Berlin's winter time (an hour ahead).
SHOWN = {
    "en": ("6 December 2026, 18:48", "6 December 2026, 19:48"),
    "de": ("6. Dezember 2026, 18:48", "6. Dezember 2026, 19:48"),
    "fr": ("6 décembre 2026 à 18:48", "6 décembre 2026 à 19:48"),
    "es": ("6 de diciembre de 2026, 18:48", "6 de diciembre de 2026, 19:48"),
}


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _everything_at_the_moment() -> tuple[Arena, ChatMessage]:
    """An arena that started at MOMENT, a game that ended then, and a spectator's message of
    then at another table, which another spectator may report."""
    arena = arenas.create_arena(
        "Test arena", preset="standard", players=4, starts_at=MOMENT, minutes=60
    )
    game = ended_early()
    Game.objects.filter(pk=game.pk).update(
        started_at=MOMENT - timedelta(hours=1), finished_at=MOMENT
    )
    erin, frank, _ = people("erin", "frank", "heidi")
    table = games.create_table(erin, preset="standard")
    games.take_seat(table.pk, frank, 1, table.invite_code)
    games.fill_with_bots(table.pk, erin)
    started = games.start_game(table.pk, erin)
    message = chat.say(
        User.objects.get(username="heidi"), table.pk, started.pk, Room.SPECTATORS, "hello"
    )
    ChatMessage.objects.filter(pk=message.pk).update(at=MOMENT)
    return arena, message


def _pages(arena: Arena, message: ChatMessage, language: str, zone: str | None) -> dict[str, str]:
    reader = Client(headers={"Accept-Language": language})
    reader.force_login(people("ivan")[0])  # a spectator, who may report heidi's message
    if zone is not None:
        reader.cookies["hearts_time_zone"] = zone
    return {
        "arena": reader.get(f"/arenas/{arena.pk}/").content.decode(),
        "games": reader.get(reverse("game_list")).content.decode(),
        "report": reader.get(reverse("chat_report", args=[message.pk])).content.decode(),
        "table": reader.get(message.table.get_absolute_url()).content.decode(),
    }


def _chat_time(table_page: str) -> str:
    found = re.search(r'<time class="chat-time" datetime="[^"]+">([^<]+)</time>', table_page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_one_moment_reads_the_same_on_the_arena_page_the_games_list_the_report_and_the_chat(
    language: str,
) -> None:
    arena, message = _everything_at_the_moment()
    pages = _pages(arena, message, language, zone=None)
    in_utc = SHOWN[language][0]
    for name in ("arena", "games", "report"):
        assert in_utc in _text(pages[name]), name
    assert f"{in_utc} UTC" in _text(pages["arena"]) and f"{in_utc} UTC" in _text(pages["report"])
    assert _chat_time(pages["table"]) == "18:48"
    for page in pages.values():
        assert "PM" not in _text(page) and "Déc" not in page and "Dez 2026" not in page


@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
def test_the_browsers_time_zone_shifts_every_pages_times_and_a_made_up_one_is_ignored(
    language: str,
) -> None:
    arena, message = _everything_at_the_moment()
    in_utc, in_berlin = SHOWN[language]
    pages = _pages(arena, message, language, zone="Europe/Berlin")
    for name in ("arena", "games", "report"):
        assert in_berlin in _text(pages[name]), name
    assert f"{in_berlin} CET" in _text(pages["arena"])
    assert _chat_time(pages["table"]) == "19:48"
    made_up = _pages(arena, message, language, zone="../../etc/passwd")
    assert f"{in_utc} UTC" in _text(made_up["arena"]) and _chat_time(made_up["table"]) == "18:48"


@pytest.mark.parametrize(("language", "points"), [("en", "2.3"), ("de", "2,3"), ("fr", "2,3")])
def test_an_arenas_shared_points_are_written_with_the_languages_decimal_mark(
    language: str, points: str
) -> None:
    arena = arenas.create_arena(
        "Test arena", preset="standard", players=4, starts_at=timezone.now(), minutes=60
    )
    Arena.objects.filter(pk=arena.pk).update(started=True)
    for person in people("alice", "bob", "carol", "dave"):
        arenas.join(person, arena.pk)
        arenas.page_opened(arena.pk, person.pk)
    [played] = arenas.pair(arena.pk)
    # Three players share first place: each takes a third of the first three places' 4 + 2 + 1.
    result = {"reason": "target", "places": [1, 1, 1, 4], "totals": [10, 10, 10, 70]}
    Game.objects.filter(pk=played.game_id).update(
        status=Game.Status.FINISHED, result=result, finished_at=timezone.now()
    )
    page = Client(headers={"Accept-Language": language}).get(f"/arenas/{arena.pk}/")
    cells = re.findall(r'<td class="points">([^<]+)</td>', page.content.decode())
    assert sorted(cells) == ["0", points, points, points]
