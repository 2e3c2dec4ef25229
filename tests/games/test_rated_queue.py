"""The rated queue (pairing/): who may join, who is seated with whom and when, who leaves, and
that two seatings at once never put anyone at two tables."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import blocks
from fairplay.models import Abandonment
from games import services as games
from games.models import Game, Seat, Table
from moderation import sanctions
from pairing import matching, services
from pairing.models import Seeker
from pairing.services import DEFAULT_QUEUE, Queue
from ratings.models import Rating
from tests.helpers.moderators import moderator
from tests.helpers.races import raised_at_once
from tests.helpers.sockets import TIMEOUT, page_beats, session_cookie, socket_at

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def waiting(names: tuple[str, ...] | list[str], queue: Queue = DEFAULT_QUEUE) -> list[User]:
    """People in ``queue`` with their queue page open."""
    people = []
    for name in names:
        person = User.objects.create_user(name)
        services.join(person, queue)
        services.page_opened(person.pk)
        people.append(person)
    return people


def tables_of(person: User) -> list[Table]:
    return list(Table.objects.filter(seats__user=person))


@pytest.mark.django_db
def test_four_people_waiting_are_seated_at_a_rated_table_of_their_own_and_it_starts() -> None:
    people = waiting(NAMES[:4])
    [table] = services.pair(DEFAULT_QUEUE)
    assert table.rated and table.status == Table.Status.PLAYING
    assert {seat.user for seat in table.seats.all()} == set(people)
    assert not table.seats.filter(is_bot=True).exists()
    game = table.current_game()
    assert game is not None and game.rated and game.status == Game.Status.PLAYING
    assert not Seeker.objects.exists()


@pytest.mark.django_db
def test_three_wait_on_for_a_fourth_and_another_queue_does_not_count() -> None:
    waiting(NAMES[:3])
    waiting(NAMES[3:4], Queue("club", 4))
    assert services.pair(DEFAULT_QUEUE) == []
    assert services.pair(Queue("club", 4)) == []
    assert Seeker.objects.count() == 4
    assert services.waiting_in(DEFAULT_QUEUE) == 3


@pytest.mark.django_db
def test_eight_people_make_two_tables_each_person_at_exactly_one() -> None:
    people = waiting(NAMES)
    tables = services.pair(DEFAULT_QUEUE)
    assert len(tables) == 2
    assert all(len(tables_of(person)) == 1 for person in people)


@pytest.mark.django_db
@pytest.mark.parametrize("blocker, blocked", [(0, 1), (2, 1), (2, 3), (4, 0)])
def test_someone_blocked_is_never_seated_with_the_blocker_and_four_others_are(
    blocker: int, blocked: int
) -> None:
    people = waiting(NAMES[:5])
    blocks.block(people[blocker], people[blocked])
    [table] = services.pair(DEFAULT_QUEUE)
    seated = {seat.user for seat in table.seats.all()}
    assert len(seated) == 4 and not {people[blocker], people[blocked]} <= seated
    assert Seeker.objects.count() == 1
    assert services.pair(DEFAULT_QUEUE) == []  # the one left waits on for others


def test_the_examples_of_the_grouping_hold() -> None:
    assert doctest.testmod(matching).failed == 0


@pytest.mark.django_db
def test_a_much_stronger_player_waits_until_the_gap_has_widened() -> None:
    strong = User.objects.create_user("strong")
    Rating.objects.create(user=strong, mu=45.0, sigma=1.0, games=40)  # 2460 on the scale
    services.join(strong, DEFAULT_QUEUE)
    services.page_opened(strong.pk)
    newcomers = waiting(NAMES[:4])
    [table] = services.pair(DEFAULT_QUEUE)
    assert {seat.user for seat in table.seats.all()} == set(newcomers)
    others = waiting(NAMES[4:7])
    assert services.pair(DEFAULT_QUEUE) == []  # 960 points apart, only just joined
    later = timezone.now() + timedelta(seconds=100)
    for person in [strong, *others]:
        services.pages_seen([person.pk])
    Seeker.objects.update(seen_at=later)
    [table] = services.pair(DEFAULT_QUEUE, later)
    assert {seat.user for seat in table.seats.all()} == {strong, *others}


@pytest.mark.django_db
def test_someone_playing_a_game_cannot_join() -> None:
    alice = User.objects.create_user("alice")
    games.play_now(alice)
    with pytest.raises(games.ServiceError, match="playing a game"):
        services.join(alice, DEFAULT_QUEUE)
    assert not Seeker.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("sanction", ["suspended", "banned", "marked", "barred"])
def test_a_suspended_banned_marked_or_barred_person_cannot_join(sanction: str) -> None:
    staff = moderator("staff")
    wes = User.objects.create_user("wes")
    _sanction(staff, wes, sanction)
    with pytest.raises(games.ServiceError):
        services.join(wes, DEFAULT_QUEUE)
    assert not Seeker.objects.exists()
    services.join(User.objects.create_user("ella"), DEFAULT_QUEUE)  # the queue itself is open
    assert Seeker.objects.count() == 1


def _sanction(staff: User, person: User, sanction: str) -> None:
    if sanction == "suspended":
        sanctions.suspend(staff, person, until=timezone.now() + timedelta(days=1), reason="x")
    elif sanction == "banned":
        sanctions.ban(staff, person, reason="x")
    elif sanction == "marked":
        sanctions.mark(staff, person, reason="x")
    else:
        game = games.play_now(person)
        now = timezone.now()
        Abandonment.objects.create(
            user=person, game=game, at=now, reason="left", level=1, until=now + timedelta(hours=1)
        )
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)


@pytest.mark.django_db
def test_someone_suspended_while_waiting_is_not_seated_and_the_others_wait_on() -> None:
    staff = moderator("staff")
    people = waiting(NAMES[:4])
    sanctions.suspend(staff, people[2], until=timezone.now() + timedelta(days=1), reason="x")
    assert services.pair(DEFAULT_QUEUE) == []
    assert not Table.objects.exists()
    assert set(Seeker.objects.values_list("user__username", flat=True)) == {
        "alice",
        "bob",
        "dave",
    }
    waiting(NAMES[4:5])
    [table] = services.pair(DEFAULT_QUEUE)
    assert people[2] not in {seat.user for seat in table.seats.all()}


@pytest.mark.django_db
def test_a_closed_queue_page_leaves_the_queue_and_a_reloaded_one_keeps_its_place() -> None:
    alice, bob = waiting(NAMES[:2])
    joined = Seeker.objects.get(user=bob).joined_at
    services.page_closed(alice.pk)  # her tab closed
    services.page_closed(bob.pk)  # his page reloads: closed, then open again
    services.page_opened(bob.pk)
    services.sweep(timezone.now() + timedelta(seconds=services.GRACE_SECONDS + 1))
    assert list(Seeker.objects.values_list("user__username", flat=True)) == ["bob"]
    assert Seeker.objects.get(user=bob).joined_at == joined


@pytest.mark.django_db
def test_only_people_whose_page_is_open_are_seated() -> None:
    people = waiting(NAMES[:3])
    dave = User.objects.create_user("dave")
    services.join(dave, DEFAULT_QUEUE)  # joined, but his queue page never opened
    assert services.pair(DEFAULT_QUEUE) == []
    services.page_opened(dave.pk)
    [table] = services.pair(DEFAULT_QUEUE)
    assert {seat.user for seat in table.seats.all()} == {*people, dave}


@pytest.mark.django_db
def test_a_page_not_heard_from_for_long_leaves_the_queue_even_if_counted_in() -> None:
    """A daphne killed with the page's socket never counts it out; its heartbeat stops."""
    waiting(NAMES[:1])
    services.sweep(timezone.now() + timedelta(seconds=services.STALE_SECONDS + 1))
    assert not Seeker.objects.exists()


@pytest.mark.django_db
def test_the_sweep_seats_the_queues_that_are_full() -> None:
    waiting(NAMES[:4])
    waiting(NAMES[4:7], Queue("published", 3))
    waiting(NAMES[7:8], Queue("club", 5))
    assert services.sweep() == 2
    assert Seeker.objects.get().user.username == "heidi"


@pytest.mark.django_db
def test_joining_another_queue_moves_you_and_joining_the_same_keeps_your_place() -> None:
    [alice] = waiting(NAMES[:1])
    first = Seeker.objects.get().joined_at
    services.join(alice, DEFAULT_QUEUE)
    assert Seeker.objects.get().joined_at == first
    services.join(alice, Queue("club", 5))
    seeker = Seeker.objects.get()
    assert (seeker.preset, seeker.players) == ("club", 5) and seeker.joined_at > first


# Two seatings at once ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_seatings_at_once_never_put_anyone_at_two_tables() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite one writer at a time: the seatings cannot overlap")
    for round_ in range(5):
        names = [f"{name}{round_}" for name in NAMES]
        people = waiting(names)
        errors = raised_at_once(lambda: services.pair(DEFAULT_QUEUE))
        assert errors == []
        services.pair(DEFAULT_QUEUE)  # whoever both skipped (each locked the other out)
        assert [len(tables_of(person)) for person in people] == [1] * 8
        assert Seat.objects.filter(user__in=people).count() == 8
        assert not Seeker.objects.exists()


# The pages and the socket -----------------------------------------------------------------


@pytest.mark.django_db
def test_joining_from_the_lobby_shows_the_queue_and_leaving_is_one_click() -> None:
    alice = User.objects.create_user("alice")
    client = Client()
    client.force_login(alice)
    lobby = client.get("/").content.decode()
    assert "Join the rated queue" in lobby and 'href="/queue/"' in lobby
    response = client.post("/queue/join/", {"queue": "standard-4"}, follow=True)
    page = response.content.decode()
    assert "Waiting for a rated table: Standard, 4 players" in page
    assert "You are the only one waiting in this queue so far." in page
    assert 'ws-connect="/ws/queue/"' in page
    response = client.post("/queue/leave/", follow=True)
    assert "You have left the rated queue." in response.content.decode()
    assert not Seeker.objects.exists()


@pytest.mark.django_db
def test_a_queue_that_does_not_exist_is_refused_with_a_reason() -> None:
    alice = User.objects.create_user("alice")
    client = Client()
    client.force_login(alice)
    for key in ("custom-4", "standard-5", "standard", "", "x" * 500):
        page = client.post("/queue/join/", {"queue": key}, follow=True).content.decode()
        assert "Choose one of the rule sets and table sizes offered" in page
    assert not Seeker.objects.exists()


@pytest.mark.django_db
def test_the_queue_page_of_someone_playing_takes_them_to_their_game() -> None:
    alice = User.objects.create_user("alice")
    game = games.play_now(alice)
    client = Client()
    client.force_login(alice)
    response = client.get("/queue/")
    assert response.status_code == 302 and response["Location"] == f"/t/{game.table_id}/"
    assert Client().get("/queue/").status_code == 302  # and strangers are asked to sign in


def queue_socket(cookie: str | None) -> WebsocketCommunicator:
    return socket_at("/ws/queue/", cookie)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_queue_pages_are_told_the_count_and_sent_to_their_table() -> None:
    names = NAMES[:4]
    people = await sync_to_async(lambda: [User.objects.create_user(n) for n in names])()
    sockets = []
    for person in people:
        await sync_to_async(services.join)(person, DEFAULT_QUEUE)
        socket = queue_socket(await sync_to_async(session_cookie)(person))
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        sockets.append(socket)
    counted = await sync_to_async(lambda: list(Seeker.objects.values_list("sockets", flat=True)))()
    assert counted == [1, 1, 1, 1]
    await sockets[0].send_to(text_data="garbage")
    assert "The queue takes no messages" in await _until(sockets[0], "flash")
    [table] = await sync_to_async(services.pair)(DEFAULT_QUEUE)
    for socket in sockets:
        seated = await _until(socket, "queue-table")
        assert f'href="/t/{table.pk}/"' in seated
        await socket.disconnect()


async def _until(socket: WebsocketCommunicator, marker: str) -> str:
    while True:
        frame = await socket.receive_from(timeout=TIMEOUT)
        if marker in frame:
            return str(frame)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stranger_is_refused_and_someone_seated_while_away_is_sent_to_the_table() -> None:
    refused = queue_socket(None)
    connected, code = await refused.connect(timeout=TIMEOUT)
    assert not connected and code == 4403
    alice = await sync_to_async(User.objects.create_user)("alice")
    game = await sync_to_async(games.play_now)(alice)
    socket = queue_socket(await sync_to_async(session_cookie)(alice))
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    assert f'href="/t/{game.table_id}/"' in await _until(socket, "queue-table")
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_closing_the_queue_page_counts_it_out_and_the_sweep_then_drops_it() -> None:
    alice = await sync_to_async(User.objects.create_user)("alice")
    await sync_to_async(services.join)(alice, DEFAULT_QUEUE)
    socket = queue_socket(await sync_to_async(session_cookie)(alice))
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    await socket.disconnect()
    seeker = await sync_to_async(Seeker.objects.get)(user=alice)
    assert seeker.sockets == 0
    later = timezone.now() + timedelta(seconds=services.GRACE_SECONDS + 1)
    await sync_to_async(services.sweep)(later)
    assert not await sync_to_async(Seeker.objects.exists)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_open_queue_pages_keep_their_people_waiting_until_they_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every queue page of a process says it is still open in one beat; a closed one stops."""
    monkeypatch.setattr(services, "HEARTBEAT_SECONDS", 0.2)

    def three_waiting() -> list[str]:
        people = [User.objects.create_user(name) for name in NAMES[:3]]
        for person in people:
            services.join(person, DEFAULT_QUEUE)
        return [session_cookie(person) for person in people[:2]]  # carol's page never opens

    sockets = []
    for cookie in await sync_to_async(three_waiting)():
        socket = queue_socket(cookie)
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        sockets.append(socket)

    def seen_at() -> dict[str, object]:
        return dict(Seeker.objects.values_list("user__username", "seen_at"))

    alice, bob = sockets
    await page_beats(seen_at, {"alice", "bob"}, {"carol"})
    await bob.disconnect()
    await page_beats(seen_at, {"alice"}, {"bob", "carol"})
    await alice.disconnect()
