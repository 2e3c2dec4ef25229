"""The lobby's top: how many people are online (each once, however many tabs, and gone a while
after the last closes), how many games are running, the best-rated public game to watch, and the
followed who are on as each lets them be seen; kept live by the lobby's socket."""

from __future__ import annotations

import os
import time
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from accounts import follows, presence
from games.models import Game
from live import consumers
from ratings.models import Rating
from tests.helpers.screens import Fragments
from tests.helpers.sockets import (
    TIMEOUT,
    lobby_socket,
    open_lobby_socket,
    session_cookie,
    socket_at,
)
from tests.helpers.tables import against_bots, people, signed_in

pytestmark = pytest.mark.django_db

BACKENDS = ["memory"] + (["redis"] if os.environ.get("REDIS_URL") else [])


@pytest.fixture(params=BACKENDS)
def presence_cache(request: pytest.FixtureRequest, settings: Any) -> str:
    """A presence cache of this test's own: the process's memory, and Redis (under a prefix of
    its own, since the run's parallel processes share the server) where there is one."""
    if request.param == "redis":
        cache = {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": f"presence-test-{uuid.uuid4().hex}",
        }
    else:
        cache = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "p"}
    settings.CACHES = {**settings.CACHES, "presence": cache}
    caches["presence"].clear()
    return str(request.param)


@pytest.fixture
def quick_beats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby's beat every 0.2 s, its renders of this test's own."""
    monkeypatch.setattr(presence, "REFRESH", 0.2)
    monkeypatch.setattr(consumers, "_lobby_rendered", {})


def _part(page: str, name: str) -> str:
    """The fragment with id ``name`` of a page or a push, as the socket swaps it."""
    start = page.index(f'id="{name}"')
    return Fragments(page[page.rindex("<", 0, start) :]).found[name]


def _lobby(client: Client | None = None) -> str:
    return (client or Client()).get(reverse("lobby")).content.decode()


def _rated(user: User, mu: float) -> None:
    Rating.objects.create(user=user, mu=mu, sigma=2.0, games=30)


def test_a_person_on_several_tabs_is_one_presence_and_gone_a_minute_after(
    presence_cache: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = people("alice", "bob")
    noted = time.time()
    presence.here([alice.pk, bob.pk])
    presence.here([alice.pk])  # her second tab, held by another process
    assert presence.online_count() == 2
    assert "<strong>2</strong> people online" in _part(_lobby(), "lobby-counts")

    later = noted + presence.TTL - 1
    monkeypatch.setattr(presence.time, "time", lambda: later)
    presence.here([bob.pk])  # only bob's sockets are still open
    assert presence.online_count() == 2
    monkeypatch.setattr(presence.time, "time", lambda: later + 2)  # a minute after alice's
    assert presence.online_count() == 1
    assert "<strong>1</strong> person online" in _part(_lobby(), "lobby-counts")
    monkeypatch.setattr(presence.time, "time", lambda: later + presence.TTL + 1)
    assert presence.online_count() == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_two_people_with_three_lobby_sockets_are_two_people_online(
    presence_cache: str,
) -> None:
    alice, bob = await database_sync_to_async(people)("alice", "bob")
    alices = await database_sync_to_async(session_cookie)(alice)
    bobs = await database_sync_to_async(session_cookie)(bob)
    tabs = [await open_lobby_socket(alices), await open_lobby_socket(alices)]
    tabs.append(await open_lobby_socket(bobs))
    page = await database_sync_to_async(_lobby)()
    for tab in tabs:
        await tab.disconnect()

    assert "<strong>2</strong> people online" in _part(page, "lobby-counts")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_visitors_with_a_live_page_open_are_counted_online_each_browser_once(
    presence_cache: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await database_sync_to_async(against_bots)("alice")
    token = "visitorscsrftoken" * 2
    one_browser = f"csrftoken={token}"
    tabs = [
        socket_at("/ws/lobby/", one_browser),
        socket_at(f"/ws/table/{table.table_id}/", one_browser),  # watching, in another tab
        socket_at("/ws/lobby/", "csrftoken=anotherbrowserstoken0000000000000"),
        socket_at("/ws/lobby/"),  # a browser without cookies: its socket, then
    ]
    for tab in tabs:
        assert (await tab.connect(timeout=TIMEOUT))[0]
    assert await database_sync_to_async(presence.online_count)() == 3
    if presence_cache == "redis":  # the cookie itself is kept nowhere
        client = caches["presence"]._cache.get_client()  # type: ignore[attr-defined]  # private
        assert not any(token.encode() in key for key in client.keys("*"))
        members = client.zrange(caches["presence"].make_and_validate_key(presence.ONLINE), 0, -1)
        assert not any(token.encode() in member for member in members)
    for tab in tabs:
        await tab.disconnect()
    later = time.time() + presence.TTL + 1  # a minute after the last tab closed
    monkeypatch.setattr(presence.time, "time", lambda: later)
    assert await database_sync_to_async(presence.online_count)() == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_whoever_opens_the_lobby_reads_a_count_with_themselves_in_it(
    presence_cache: str,
) -> None:
    def open_lobbies() -> tuple[str, int, str, str]:
        alice = people("alice")[0]
        hers = _part(_lobby(signed_in(alice)), "lobby-counts")
        visitor = Client()
        _lobby(visitor)  # a first visit: its browser gets its cookie, and is not counted yet
        first = presence.online_count()
        again = _part(_lobby(visitor), "lobby-counts")
        return hers, first, again, visitor.cookies["csrftoken"].value

    hers, first, again, cookie = await database_sync_to_async(open_lobbies)()
    assert "<strong>1</strong> person online" in hers
    assert first == 1
    assert "<strong>2</strong> people online" in again
    # Its lobby's socket, a moment later, counts the same browser, not another.
    socket = socket_at("/ws/lobby/", f"csrftoken={cookie}")
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert await database_sync_to_async(presence.online_count)() == 2
    await socket.disconnect()


def test_the_lobby_counts_the_running_games_and_features_the_best_rated_public_one(
    presence_cache: str,
) -> None:
    assert "No game running" in _part(_lobby(), "featured-game")
    alice, bob, carol, erin = people("alice", "bob", "carol", "erin")
    _rated(bob, 30.0)
    _rated(carol, 28.0)
    _rated(erin, 40.0)  # rated highest, but at a private table
    against_bots("alice")
    best = against_bots("bob")
    against_bots("carol")
    against_bots("erin", private=True)
    finished = against_bots("dave")
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)

    page = _lobby()
    assert "<strong>4</strong> games running" in _part(page, "lobby-counts")
    featured = _part(page, "featured-game")
    assert f'href="/t/{best.table_id}/"' in featured
    assert "bob and 3 bots" in featured and "Standard" in featured
    assert "erin" not in page
    assert _part(_lobby(signed_in(alice)), "featured-game") == featured


def test_the_featured_game_takes_a_few_queries_however_many_games_run(
    presence_cache: str, django_assert_max_num_queries: Any
) -> None:
    from games import selectors

    for name in ("alice", "bob", "carol", "dave"):
        against_bots(name)
    with django_assert_max_num_queries(2):
        game = selectors.featured_game()
        assert game is not None and [p.name for p in game.players.all()]
    with django_assert_max_num_queries(1):
        assert selectors.games_running() == 4


def test_the_followed_who_are_on_are_shown_as_each_lets_them_be_seen(
    presence_cache: str,
) -> None:
    alice, bob, carol, dave, erin = people("alice", "bob", "carol", "dave", "erin")
    for other in (bob, carol, dave, erin):
        follows.follow(alice, other)
    follows.follow(bob, alice)  # bob lets the people he follows see him: alice
    follows.choose_shown_to(dave, "everyone")
    follows.choose_shown_to(erin, "everyone")
    presence.here([bob.pk, carol.pk, dave.pk])
    playing = against_bots("dave")

    on = _part(_lobby(signed_in(alice)), "followed-on")
    assert 'href="/u/bob/"' in on and "online now" in on
    assert 'href="/u/dave/"' in on and "playing now" in on
    assert f'href="/t/{playing.table_id}/"' in on  # to watch him
    assert "carol" not in on  # she follows nobody: alice may not see her
    assert "erin" not in on  # offline
    follows.choose_shown_to(bob, "nobody")
    assert "bob" not in _part(_lobby(signed_in(alice)), "followed-on")
    assert 'id="followed-on"' not in _lobby()  # a visitor follows nobody


def test_the_lobby_opens_while_redis_cannot_say_who_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from redis.exceptions import ConnectionError as RedisDown

    def down(*args: Any) -> Any:
        raise RedisDown("Redis is away")

    for name in ("online_count", "online", "here", "visitors_here"):
        monkeypatch.setattr(presence, name, down)
    alice, bob = people("alice", "bob")
    follows.follow(alice, bob)
    answer = signed_in(alice).get(reverse("lobby"))
    assert answer.status_code == 200
    counts = _part(answer.content.decode(), "lobby-counts")
    assert "games running" in counts and "online" not in counts


def test_start_a_table_is_folded_under_its_button_unless_the_form_came_back_wrong() -> None:
    alice = people("alice")[0]
    mine = signed_in(alice)
    assert '<details class="new-table" id="new-table">' in _lobby(mine)
    refused = mine.post(reverse("table_create"), {"preset": "nonsense"}).content.decode()
    assert '<details class="new-table" id="new-table" open>' in refused


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_game_starting_pushes_the_lobby_its_counts_and_featured_game(
    presence_cache: str,
) -> None:
    socket = lobby_socket()
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    assert await socket.receive_nothing()

    game = await database_sync_to_async(against_bots)("alice")
    pushed = ""
    while "<strong>1</strong> game running" not in pushed:  # the table made and filled first
        pushed = await socket.receive_from(timeout=TIMEOUT)
    parts = Fragments(pushed).found
    assert set(parts) == {"table-list", "lobby-counts", "featured-game"}
    assert f'href="/t/{game.table_id}/"' in parts["featured-game"]
    assert "alice and 3 bots" in parts["featured-game"]
    await socket.disconnect()


def _alice_follows_bob_who_is_on() -> tuple[User, User]:
    alice, bob = people("alice", "bob")
    follows.follow(alice, bob)
    follows.choose_shown_to(bob, "everyone")
    presence.here([bob.pk])
    return alice, bob


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_brings_the_counts_and_the_followed_who_are_on_when_they_change(
    presence_cache: str, quick_beats: None
) -> None:
    alice, _bob = await database_sync_to_async(_alice_follows_bob_who_is_on)()
    mine = await open_lobby_socket(await database_sync_to_async(session_cookie)(alice))
    visitors = lobby_socket()
    assert (await visitors.connect(timeout=TIMEOUT))[0]

    parts = Fragments(await mine.receive_from(timeout=TIMEOUT)).found
    assert set(parts) == {"lobby-counts", "followed-on"}
    # bob, alice here, and the visitor on the lobby beside her
    assert "<strong>3</strong> people online" in parts["lobby-counts"]
    assert 'href="/u/bob/"' in parts["followed-on"] and "online now" in parts["followed-on"]
    shown = Fragments(await visitors.receive_from(timeout=TIMEOUT)).found
    assert shown == {"lobby-counts": parts["lobby-counts"]}  # the same for everyone
    assert await mine.receive_nothing(timeout=0.6)  # beats that have nothing new send nothing
    await mine.disconnect()
    await visitors.disconnect()


def _followers_of_someone_on(count: int) -> list[User]:
    """``count`` people, each following a person of their own who is on and lets everyone see
    it, and one more who is offline."""
    found = []
    for number in range(count):
        me, on, off = people(f"fan{number}", f"star{number}", f"away{number}")
        follows.follow(me, on)
        follows.follow(me, off)
        follows.choose_shown_to(on, "everyone")
        follows.choose_shown_to(off, "everyone")
        presence.here([on.pk])
        found.append(me)
    return found


def test_the_lobby_beat_reads_as_much_for_forty_sockets_as_for_one_and_each_sees_their_own(
    presence_cache: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(consumers, "_lobby_rendered", {})
    fans = _followers_of_someone_on(40)
    asked: list[tuple[str, Any]] = [("en", fan) for fan in fans]
    with CaptureQueriesContext(connection) as one:
        consumers._lobby_around(asked[:1])
    with CaptureQueriesContext(connection) as forty:
        shown = consumers._lobby_around([*asked, ("de", fans[0]), ("en", None)])
    assert len(forty) <= len(one) + 1  # the counts' read, made once a while, aside
    for number, html in enumerate(shown[:40]):
        on = _part(html, "followed-on")
        assert f'href="/u/star{number}/"' in on and "online now" in on, on
        assert "away" not in on  # offline
        assert f"star{number + 1}/" not in on and f"star{number - 1}/" not in on
    assert 'href="/u/star0/"' in _part(shown[40], "followed-on")  # in German as well
    assert "followed-on" not in shown[41]  # a visitor follows nobody
    assert _part(shown[41], "lobby-counts") == _part(shown[0], "lobby-counts")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_one_beat_brings_each_lobby_socket_of_the_process_its_own_people(
    presence_cache: str, quick_beats: None
) -> None:
    fans = await database_sync_to_async(_followers_of_someone_on)(3)
    sockets = [
        await open_lobby_socket(await database_sync_to_async(session_cookie)(fan)) for fan in fans
    ]
    for number, socket in enumerate(sockets):
        on = Fragments(await socket.receive_from(timeout=TIMEOUT)).found["followed-on"]
        assert f'href="/u/star{number}/"' in on
        assert [f"star{other}/" in on for other in range(3)].count(True) == 1
    await sockets[1].disconnect()  # the others' beats go on
    star = await database_sync_to_async(User.objects.get)(username="star0")
    await database_sync_to_async(follows.choose_shown_to)(star, "nobody")
    # Beats sent before it still show star0 (the count online changed as the others came).
    while "star0" in Fragments(await sockets[0].receive_from(timeout=TIMEOUT)).found["followed-on"]:
        pass
    for _ in range(10):  # those it had, then nothing new: beats with nothing new send nothing
        if await sockets[2].receive_nothing(timeout=0.6):
            break
    else:
        pytest.fail("every beat sent the third socket something")
    for socket in (sockets[0], sockets[2]):
        await socket.disconnect()
