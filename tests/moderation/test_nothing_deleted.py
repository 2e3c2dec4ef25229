"""Nobody deletes people or what they did from the admin, superusers included: games, moves,
ratings, reports and the audit log point at them. Closing an account deactivates it instead:
the person is signed out and cannot sign in, their games stay and show them as a closed
account."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.test import Client, RequestFactory
from django.urls import reverse

from games import services
from games.models import Game, GamePlayer
from moderation.models import AuditEntry
from tests.helpers.moderators import moderator, with_two_factor

pytestmark = pytest.mark.django_db

PASSWORD = "felt-table-queen-of-spades"
USERS = reverse("admin:auth_user_changelist")
# What people did, and the people themselves: none of it is deleted from the admin.
KEPT = {
    "auth.User",
    "games.Table",
    "games.Seat",
    "games.Game",
    "games.GamePlayer",
    "games.MoveRecord",
    "ratings.Rating",
    "ratings.RatingChange",
    "reports.Report",
    "moderation.AuditEntry",
    "moderation.Sanction",
    "moderation.Mark",
    "fairplay.Abandonment",
}


@pytest.fixture
def root() -> User:
    return with_two_factor(User.objects.create_superuser("root_ops", password="not-used-here-9Qs"))


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_no_admin_page_deletes_people_or_what_they_did_even_for_a_superuser(root: User) -> None:
    request = RequestFactory().get("/admin/")
    request.user = root
    checked = set()

    for model, model_admin in admin.site._registry.items():
        if model is Group or model._meta.app_label == "axes":
            continue  # staff's groups and sign-in lockouts are no one's history
        label = model._meta.label
        assert not model_admin.has_delete_permission(request), label
        assert "delete_selected" not in model_admin.get_actions(request), label
        checked.add(label)

    assert checked >= KEPT


def test_a_superuser_is_not_offered_to_delete_a_person_and_a_forged_request_deletes_nobody(
    root: User,
) -> None:
    bob = User.objects.create_user("bob")
    client = _signed_in(root)

    listing = client.get(USERS).content.decode()
    change = client.get(reverse("admin:auth_user_change", args=[bob.pk])).content.decode()
    deleting = client.get(reverse("admin:auth_user_delete", args=[bob.pk]))
    forged = {"action": "delete_selected", "_selected_action": [str(bob.pk)], "post": "yes"}
    client.post(USERS, forged)

    assert 'name="action"' in listing and 'value="delete_selected"' not in listing
    assert "deletelink" not in change
    assert deleting.status_code == 403
    assert User.objects.filter(pk=bob.pk).exists()


def _four_playing() -> tuple[list[User], Game]:
    people = [
        User.objects.create_user(name, password=PASSWORD)
        for name in ("alice", "bob", "carol", "dave")
    ]
    table = services.create_table(people[0])
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    return people, services.start_game(table.pk, people[0])


def test_closing_an_account_signs_them_out_and_keeps_their_games_under_a_closed_name() -> None:
    (alice, bob, _, _), game = _four_playing()
    bob_elsewhere = _signed_in(bob)
    closing = {
        "action": "close",
        "_selected_action": [str(bob.pk)],
        "apply": "yes",
        "reason": "He asked us to close his account.",
    }

    _signed_in(moderator()).post(USERS, closing)

    bob.refresh_from_db()
    assert not bob.is_active
    assert not bob_elsewhere.get(reverse("lobby")).wsgi_request.user.is_authenticated
    signing_in = Client().post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert not signing_in.wsgi_request.user.is_authenticated
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result is not None
    assert game.result["forfeited"] == 1  # bob's seat: his game ended as his resignation
    assert GamePlayer.objects.get(game=game, seat=1).user == bob  # kept, not deleted
    record = _signed_in(alice).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "bob (closed account)" in record
    profile = Client().get(reverse("profile", args=["bob"])).content.decode()
    assert "(closed account)" in profile and "This account is closed." in profile
    entry = AuditEntry.objects.get(action="close")
    assert entry.user == bob and entry.reason == "He asked us to close his account."


def test_a_closed_accounts_name_says_so() -> None:
    from accounts.models import shown_name  # imported here: what it says is the test

    assert shown_name(User(username="wes")) == "wes"
    assert shown_name(User(username="wes", is_active=False)) == "wes (closed account)"
