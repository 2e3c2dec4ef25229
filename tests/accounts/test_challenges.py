"""Challenges: invite someone to a game with a table's settings; they see it at once on any page
(with Accept and Decline), accepting seats both at one new private table, and an invitation
expires after two minutes, telling both; every refusal says why."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import blocks, challenges
from accounts.models import Challenge
from games import services
from games.models import Table
from moderation import sanctions
from tests.helpers.moderators import moderator
from tests.helpers.sockets import TIMEOUT, session_cookie, socket_at
from tests.helpers.tables import against_bots, people, signed_in

pytestmark = pytest.mark.django_db

CASUAL = {"preset": "standard", "players": "4", "bot_level": "normal"}


def _invite(client: Client, name: str, **form: Any):
    return client.post(reverse("challenge", args=[name]), {**CASUAL, **form}, follow=True)


def _settings(**changes: Any) -> dict[str, Any]:
    return {
        "preset": "standard",
        "players": 4,
        "options": {},
        "rated": False,
        "bot_level": "normal",
        **changes,
    }


def _accept(client: Client, challenge: Challenge):
    return client.post(reverse("challenge_accept", args=[challenge.pk]), follow=True)


def test_an_invitation_shows_on_any_page_of_the_invited_and_accepting_seats_both() -> None:
    alice, bob = people("alice", "bob")
    alices, bobs = signed_in(alice), signed_in(bob)

    form = alices.get(reverse("challenge", args=["bob"])).content.decode()
    assert "Invite bob to a game" in form and 'name="private"' not in form
    sent = _invite(alices, "bob", preset="custom", players="5", clock="strict").content.decode()
    assert "bob is invited: the invitation is open for 2 minutes." in sent
    assert "Waiting for bob to answer your invitation" in sent

    for page in ("game_list", "leaderboard", "learn"):
        shown = bobs.get(reverse(page)).content.decode()
        assert "<strong>alice</strong> invites you to a game:" in shown
        assert "Custom" in shown and "5 players" in shown and "casual" in shown
        assert "Accept" in shown and "Decline" in shown
    assert "invites you" not in Client().get(reverse("game_list")).content.decode()

    challenge = Challenge.objects.get()
    answer = _accept(bobs, challenge)
    table = Table.objects.get()
    assert answer.redirect_chain[-1][0] == table.get_absolute_url()
    assert table.private and table.preset == "custom" and table.players == 5
    assert table.rules["clock"] == "strict" and not table.rated
    seated = [seat.user for seat in table.seats.order_by("index")]
    assert seated[:2] == [alice, bob] and seated[2:] == [None, None, None]  # open to the link
    challenge.refresh_from_db()
    assert challenge.status == "accepted" and challenge.table == table
    assert "invites you" not in bobs.get(reverse("game_list")).content.decode()
    assert "Waiting for bob" not in alices.get(reverse("game_list")).content.decode()


def test_decline_and_withdraw_end_the_invitation_and_answering_twice_is_refused() -> None:
    alice, bob = people("alice", "bob")
    alices, bobs = signed_in(alice), signed_in(bob)
    _invite(alices, "bob")
    first = Challenge.objects.get()
    bobs.post(reverse("challenge_decline", args=[first.pk]))
    first.refresh_from_db()
    assert first.status == "declined"
    assert "This invitation was answered already" in _accept(bobs, first).content.decode()

    _invite(alices, "bob")
    second = Challenge.objects.latest("pk")
    alices.post(reverse("challenge_withdraw", args=[second.pk]))
    assert "alice withdrew this invitation" in _accept(bobs, second).content.decode()
    assert not Table.objects.exists()

    # Only its sender withdraws it, only its receiver answers it.
    _invite(alices, "bob")
    third = Challenge.objects.latest("pk")
    assert "There is no such invitation" in _accept(alices, third).content.decode()
    bobs.post(reverse("challenge_withdraw", args=[third.pk]), follow=True)
    third.refresh_from_db()
    assert third.status == "open"


def test_an_invitation_expires_after_two_minutes() -> None:
    alice, bob = people("alice", "bob")
    challenge = challenges.send(alice, bob, _settings())
    assert challenges.expire_due(timezone.now() + timedelta(seconds=60)) == 0
    assert challenges.expire_due(timezone.now() + timedelta(seconds=121)) == 1
    challenge.refresh_from_db()
    assert challenge.status == "expired"
    assert "This invitation expired" in _accept(signed_in(bob), challenge).content.decode()

    # One past its time that the sweep has not reached yet is refused all the same.
    late = challenges.send(alice, bob, _settings())
    Challenge.objects.filter(pk=late.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert "This invitation expired" in _accept(signed_in(bob), late).content.decode()
    late.refresh_from_db()
    assert late.status == "expired" and not Table.objects.exists()


def test_every_refusal_says_why() -> None:
    alice, _bob, carol, dan, erin, fay = people("alice", "bob", "carol", "dan", "erin", "fay")
    alices = signed_in(alice)
    assert "You cannot invite yourself" in _invite(alices, "alice").content.decode()

    dan.is_active = False
    dan.save()
    assert "The account of dan is closed" in _invite(alices, "dan").content.decode()

    staff = moderator()
    until = timezone.now() + timedelta(days=1)
    sanctions.suspend(staff, carol, until=until, reason="Abusive chat.")
    assert "carol cannot play at the moment" in _invite(alices, "carol").content.decode()
    refused = _invite(signed_in(carol), "bob").content.decode()
    assert "suspended" in refused

    blocks.block(erin, alice)
    assert "erin does not take invitations from you" in _invite(alices, "erin").content.decode()
    blocks.block(alice, fay)
    assert "You block fay: unblock them first" in _invite(alices, "fay").content.decode()
    assert not Challenge.objects.exists()

    _invite(alices, "bob")
    assert "You have invited bob already" in _invite(alices, "bob").content.decode()


def test_a_few_open_at_once_and_a_few_a_minute() -> None:
    alice, *others = people("alice", "b1", "b2", "b3", "b4", "b5", "b6")
    for other in others[: challenges.MOST_OPEN]:
        challenges.send(alice, other, _settings())
    with pytest.raises(challenges.ChallengeRefused, match="3 invitations waiting already"):
        challenges.send(alice, others[3], _settings())
    for challenge in Challenge.objects.all():
        challenges.withdraw(alice, challenge.pk)
    challenges.send(alice, others[3], _settings())
    challenges.send(alice, others[4], _settings())
    with pytest.raises(challenges.ChallengeRefused, match="wait a minute"):
        challenges.send(alice, others[5], _settings())


def test_a_rated_invitation_from_someone_barred_from_rated_tables_is_refused() -> None:
    alice, bob = people("alice", "bob")
    from moderation.models import Mark

    Mark.objects.create(user=alice, staff=moderator(), reason="Review.")
    with pytest.raises(challenges.ChallengeRefused, match="invite to a casual one"):
        challenges.send(alice, bob, _settings(rated=True))


def test_accepting_after_the_sender_sat_down_to_another_game_is_refused() -> None:
    alice, bob = people("alice", "bob")
    challenge = challenges.send(alice, bob, _settings())
    against_bots("alice")  # alice went to play elsewhere
    page = _accept(signed_in(bob), challenge).content.decode()
    assert "alice is playing another game now: the invitation is over" in page
    challenge.refresh_from_db()
    assert challenge.status == "expired"
    assert Table.objects.count() == 1  # alice's game only

    # And the one accepting finishes their own game first.
    other = challenges.send(bob, alice, _settings())
    with pytest.raises(challenges.ChallengeRefused, match="Finish your game first"):
        challenges.accept(alice, other.pk)


def test_nothing_in_an_invitation_touches_a_running_game() -> None:
    game = against_bots("alice")
    bob = people("bob")[0]
    version = game.version
    alice = game.players.get(seat=0).user
    assert alice is not None
    challenge = challenges.send(bob, alice, _settings())
    challenges.decline(alice, challenge.pk)
    game.refresh_from_db()
    assert game.version == version and game.status == "playing"


# Live: the invitation and its end, pushed to both people's pages --------------------------


def _account_socket(cookie: str | None) -> WebsocketCommunicator:
    return socket_at("/ws/account/", cookie)


async def _opened(cookie: str) -> WebsocketCommunicator:
    socket = _account_socket(f"{cookie}; csrftoken={'c' * 32}")  # as a page's forms left it
    connected, code = await socket.connect(timeout=TIMEOUT)
    assert connected, code
    return socket


async def _pushed(socket: WebsocketCommunicator, words: str) -> str:
    while True:
        html = await socket.receive_from(timeout=TIMEOUT)
        if words in html:
            return html


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_invited_page_gets_it_live_and_the_sender_is_taken_to_the_table() -> None:
    alice, bob = await sync_to_async(people)("alice", "bob")
    alices = await _opened(await sync_to_async(session_cookie)(alice))
    bobs = await _opened(await sync_to_async(session_cookie)(bob))

    challenge = await sync_to_async(challenges.send)(alice, bob, _settings())
    told = await _pushed(bobs, "invites you to a game")
    assert 'id="challenge-notices"' in told and 'hx-swap-oob="true"' in told
    assert reverse("challenge_accept", args=[challenge.pk]) in told
    assert 'name="csrfmiddlewaretoken"' in told
    assert "Waiting for bob" in await _pushed(alices, "Waiting for bob")

    table = await sync_to_async(challenges.accept)(bob, challenge.pk)
    accepted = await _pushed(alices, "bob accepted")
    assert f'id="challenge-table" href="{table.get_absolute_url()}"' in accepted
    assert "invites you" not in await _pushed(bobs, "challenge-notices")
    for socket in (alices, bobs):
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_both_are_told_when_it_expires_or_is_declined() -> None:
    alice, bob = await sync_to_async(people)("alice", "bob")
    alices = await _opened(await sync_to_async(session_cookie)(alice))
    bobs = await _opened(await sync_to_async(session_cookie)(bob))

    await sync_to_async(challenges.send)(alice, bob, _settings())
    later = timezone.now() + challenges.LASTS
    await sync_to_async(challenges.expire_due)(later)
    assert "Your invitation to bob expired unanswered." in await _pushed(alices, "expired")
    assert "The invitation from alice expired." in await _pushed(bobs, "expired")

    second = await sync_to_async(challenges.send)(alice, bob, _settings())
    await sync_to_async(challenges.decline)(bob, second.pk)
    assert "bob declined your invitation." in await _pushed(alices, "declined")
    for socket in (alices, bobs):
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_account_socket_is_for_people_signed_in_and_takes_no_message() -> None:
    socket = _account_socket(None)
    connected, code = await socket.connect(timeout=TIMEOUT)
    assert not connected and code == 4403
    alice = (await sync_to_async(people)("alice"))[0]
    mine = await _opened(await sync_to_async(session_cookie)(alice))
    await mine.send_to(text_data="{garbage")
    assert await mine.receive_nothing(timeout=0.3)
    await mine.disconnect()


def test_the_pages_with_a_live_socket_open_no_second_one() -> None:
    alice = people("alice")[0]
    mine = signed_in(alice)
    assert 'ws-connect="/ws/account/"' in mine.get(reverse("game_list")).content.decode()
    lobby = mine.get(reverse("lobby")).content.decode()
    assert 'ws-connect="/ws/account/"' not in lobby and 'ws-connect="/ws/lobby/"' in lobby
    table = services.create_table(alice)
    page = mine.get(table.get_absolute_url()).content.decode()
    assert 'ws-connect="/ws/account/"' not in page
    assert 'ws-connect="/ws/account/"' not in Client().get(reverse("game_list")).content.decode()


def test_a_followed_persons_row_and_a_profile_offer_the_invitation() -> None:
    alice, _bob = people("alice", "bob")
    mine = signed_in(alice)
    mine.post(reverse("follow", args=["bob"]), {"action": "follow"})
    invite = reverse("challenge", args=["bob"])
    assert invite in mine.get(reverse("following")).content.decode()
    assert invite in mine.get(reverse("profile", args=["bob"])).content.decode()
    assert (
        reverse("challenge", args=["alice"])
        not in mine.get(reverse("profile", args=["alice"])).content.decode()
    )


def test_a_finished_games_results_offer_to_follow_its_players_and_come_back() -> None:
    from tests.helpers.reviews import finished_game

    alice, bob = people("alice", "bob")
    game = finished_game([alice, bob], bots=2)
    page_url = reverse("game_detail", args=[game.pk])
    mine = signed_in(alice)
    results = mine.get(page_url).content.decode()
    follow = reverse("follow", args=["bob"])
    assert follow in results and reverse("follow", args=["alice"]) not in results
    assert "follow" not in Client().get(page_url).content.decode().lower().split("<main")[1]

    answer = mine.post(follow, {"action": "follow", "next": page_url}, follow=True)
    assert answer.redirect_chain[-1][0] == page_url
    assert "You follow bob." in answer.content.decode()
    assert follow not in answer.content.decode()  # followed now
    away = mine.post(follow, {"action": "follow", "next": "https://elsewhere.example/"})
    assert away.url == reverse("profile", args=["bob"])  # type: ignore[attr-defined]  # a redirect's
