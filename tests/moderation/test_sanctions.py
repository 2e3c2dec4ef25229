"""Suspensions and bans keep a person out (sign-in, seats, moves) and say why and until when;
a running game ends against them; a suspension ends on the clock; lifting lets them back in.
Renames keep the old name in the audit log; a marked player's games are unrated."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import holder_of_a_lookalike
from games import services
from games.errors import ServiceError
from games.models import Game, Table
from moderation import gates, models, sanctions
from moderation.models import AuditEntry, Sanction
from moderation.sanctions import ModerationError
from tests.helpers.moderators import moderator

pytestmark = pytest.mark.django_db

PASSWORD = "felt-table-queen-of-spades"


@pytest.fixture
def staff() -> User:
    return moderator()


def _sign_in(client: Client, username: str) -> Any:
    return client.post(reverse("login"), {"username": username, "password": PASSWORD})


def _four_at_a_table(*, rated: bool = False) -> tuple[list[User], Table]:
    people = [
        User.objects.create_user(name, password=PASSWORD)
        for name in ("alice", "bob", "carol", "dave")
    ]
    table = services.create_table(people[0], rated=rated)
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    return people, table


def test_a_suspended_person_cannot_sign_in_and_is_told_why_and_until_when(
    client: Client, staff: User
) -> None:
    bob = User.objects.create_user("bob", password=PASSWORD)
    until = timezone.now() + timedelta(days=3)
    sanctions.suspend(staff, bob, until=until, reason="Abusive chat at table 12.")

    response = _sign_in(client, "bob")

    assert response.status_code == 200
    assert SESSION_KEY not in client.session
    page = response.content.decode()
    assert f"suspended until {until:%-d %B %Y, %H:%M} UTC" in page
    assert "Abusive chat at table 12." in page
    assert "correct username and password" not in page


def test_a_suspended_person_who_keeps_signing_in_is_told_why_each_time_not_locked_out(
    client: Client, staff: User, settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    bob = User.objects.create_user("bob", password=PASSWORD)
    sanctions.suspend(staff, bob, until=timezone.now() + timedelta(days=3), reason="Spam.")

    for _ in range(5):  # the right password, more times than the lockout allows wrong ones
        response = _sign_in(client, "bob")
        assert response.status_code == 200
        assert "Spam." in response.content.decode()
    for _ in range(2):  # a wrong password still counts
        wrong = client.post(reverse("login"), {"username": "bob", "password": "wrong-guess"})
        assert "correct username and password" in wrong.content.decode()
    locked = client.post(reverse("login"), {"username": "bob", "password": "wrong-guess"})
    assert locked.status_code == 429


def test_a_wrong_password_for_a_banned_name_says_nothing_of_the_ban(
    client: Client, staff: User
) -> None:
    bob = User.objects.create_user("bob", password=PASSWORD)
    sanctions.ban(staff, bob, reason="Cheating.")

    response = client.post(reverse("login"), {"username": "bob", "password": "wrong-guess"})

    page = response.content.decode()
    assert "correct username and password" in page
    assert "banned" not in page and "Cheating." not in page


def test_a_signed_in_person_who_is_banned_is_signed_out_at_the_next_page(
    client: Client, staff: User
) -> None:
    bob = User.objects.create_user("bob", password=PASSWORD)
    client.force_login(bob)
    sanctions.ban(staff, bob, reason="Point feeding in rated games.")

    response = client.get(reverse("lobby"))

    assert response.status_code == 403
    assert "Your account is banned: Point feeding in rated games." in response.content.decode()
    assert SESSION_KEY not in client.session
    assert client.get(reverse("lobby")).status_code == 200  # as anyone signed out


def test_a_suspended_person_cannot_take_a_seat(staff: User) -> None:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    table = services.create_table(alice)
    sanctions.suspend(staff, bob, until=timezone.now() + timedelta(hours=1), reason="Spam.")

    with pytest.raises(ServiceError, match=r"suspended until .*: Spam\."):
        services.take_seat(table.pk, bob, 1)

    assert not table.seats.filter(user=bob).exists()


def test_a_banned_person_cannot_move(staff: User) -> None:
    bob = User.objects.create_user("bob")
    Sanction.objects.create(user=bob, kind=Sanction.Kind.BAN, reason="Cheating.", staff=staff)

    with pytest.raises(ServiceError, match=r"banned: Cheating\."):
        gates.check_may_play(bob)


def test_a_ban_ends_the_running_game_as_the_banned_players_resignation(staff: User) -> None:
    people, table = _four_at_a_table(rated=True)
    game = services.start_game(table.pk, people[0])
    bob = people[1]

    sanctions.ban(staff, bob, reason="Cheating.")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    assert game.result["reason"] == "resigned"
    assert game.result["forfeited"] == 1  # bob's seat


def test_a_suspension_ends_on_the_clock(client: Client, staff: User) -> None:
    bob = User.objects.create_user("bob", password=PASSWORD)
    sanction = sanctions.suspend(
        staff, bob, until=timezone.now() + timedelta(days=1), reason="Spam."
    )
    assert _sign_in(client, "bob").status_code == 200  # refused

    Sanction.objects.filter(pk=sanction.pk).update(ends_at=timezone.now() - timedelta(seconds=1))

    assert _sign_in(client, "bob").status_code == 302
    assert client.session[SESSION_KEY] == str(bob.pk)
    gates.check_may_play(bob)


def test_lifting_a_ban_lets_the_person_back_in_and_is_logged(client: Client, staff: User) -> None:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob", password=PASSWORD)
    table = services.create_table(alice)
    sanctions.ban(staff, bob, reason="Cheating.")

    sanctions.lift(staff, bob, reason="Appeal upheld.")

    assert _sign_in(client, "bob").status_code == 302
    services.take_seat(table.pk, bob, 1)
    assert table.seats.filter(user=bob).exists()
    actions = list(AuditEntry.objects.filter(user=bob).values_list("action", "reason"))
    assert actions == [("lift", "Appeal upheld."), ("ban", "Cheating.")]


def test_a_suspension_is_logged_with_who_whom_why_and_until_when(staff: User) -> None:
    bob = User.objects.create_user("bob")
    until = timezone.now() + timedelta(days=7)

    sanctions.suspend(staff, bob, until=until, reason="Abusive chat.")

    entry = AuditEntry.objects.get()
    assert (entry.staff, entry.action, entry.user, entry.reason) == (
        staff,
        "suspend",
        bob,
        "Abusive chat.",
    )
    assert entry.details["until"] == until.isoformat()


def test_a_suspension_needs_a_reason_and_an_end_to_come(staff: User) -> None:
    bob = User.objects.create_user("bob")

    with pytest.raises(ModerationError, match="reason"):
        sanctions.ban(staff, bob, reason="  ")
    with pytest.raises(ModerationError, match="future"):
        sanctions.suspend(staff, bob, until=timezone.now() - timedelta(minutes=1), reason="x")

    assert not Sanction.objects.exists() and not AuditEntry.objects.exists()


def test_a_rename_keeps_the_old_name_in_the_audit_log(staff: User) -> None:
    bob = User.objects.create_user("Rude_Name")

    sanctions.rename(staff, bob, "player_bob", reason="Offensive name.")

    bob.refresh_from_db()
    assert bob.username == "player_bob"
    entry = AuditEntry.objects.get(action="rename")
    assert entry.details == {"old_name": "Rude_Name", "new_name": "player_bob"}
    assert entry.user == bob and entry.reason == "Offensive name."
    assert holder_of_a_lookalike("Player_B0b") == bob  # the new name's look-alikes are kept


def test_a_rename_follows_the_rules_names_are_chosen_by(staff: User) -> None:
    User.objects.create_user("Alice")
    bob = User.objects.create_user("Rude_Name")

    for name, why in [
        ("AIice", "could be taken for “Alice”"),
        ("x", "3 to 20"),
        ("adm1n", "reserved"),
    ]:
        with pytest.raises(ModerationError, match=why):
            sanctions.rename(staff, bob, name, reason="Offensive name.")

    bob.refresh_from_db()
    assert bob.username == "Rude_Name"
    assert not AuditEntry.objects.exists()


def test_a_marked_players_next_game_is_unrated(staff: User) -> None:
    people, table = _four_at_a_table(rated=True)
    sanctions.mark(staff, people[0], reason="Suspected point feeding.")  # alice, the host

    game = services.start_game(table.pk, people[0])

    assert not game.rated


def test_a_marked_player_cannot_sit_at_a_rated_table_but_may_at_an_unrated_one(
    staff: User,
) -> None:
    alice = User.objects.create_user("alice")
    carol = User.objects.create_user("carol")
    rated = services.create_table(alice, rated=True)
    unrated = services.create_table(alice)
    sanctions.mark(staff, carol, reason="Suspected point feeding.")

    with pytest.raises(ServiceError, match="rated tables are closed to you"):
        services.take_seat(rated.pk, carol, 1)
    services.take_seat(unrated.pk, carol, 1)

    assert unrated.seats.filter(user=carol).exists()


def test_lifting_a_mark_lets_games_be_rated_again_and_is_logged(staff: User) -> None:
    people, table = _four_at_a_table(rated=True)
    sanctions.mark(staff, people[0], reason="Suspected point feeding.")

    sanctions.unmark(staff, people[0], reason="Reviewed: no feeding.")

    assert services.start_game(table.pk, people[0]).rated
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert actions == ["unmark", "mark"]


def test_the_notice_says_why_and_until_when() -> None:
    ends = datetime(2026, 12, 8, 14, 30, tzinfo=UTC)
    suspension = Sanction(kind=Sanction.Kind.SUSPENSION, reason="Spam.", ends_at=ends)

    assert suspension.notice == "Your account is suspended until 8 December 2026, 14:30 UTC: Spam."
    assert doctest.testmod(models).failed == 0


def test_a_suspended_person_leaves_the_open_tables_they_sit_at(staff: User) -> None:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 2)

    sanctions.suspend(staff, bob, until=timezone.now() + timedelta(hours=1), reason="Spam.")

    assert not table.seats.filter(user=bob).exists()
    assert table.seats.filter(user=alice).exists()


def test_a_marked_player_leaves_the_rated_tables_they_sit_at(staff: User) -> None:
    alice = User.objects.create_user("alice")
    carol = User.objects.create_user("carol")
    rated = services.create_table(alice, rated=True)
    unrated = services.create_table(alice)
    services.take_seat(rated.pk, carol, 1)
    services.take_seat(unrated.pk, carol, 1)

    sanctions.mark(staff, carol, reason="Suspected point feeding.")

    assert not rated.seats.filter(user=carol).exists()
    assert unrated.seats.filter(user=carol).exists()
