"""Staff act on people from the user admin, through a page that asks why first; the audit log
is theirs to read and nobody's to change; people who are not staff never reach the admin."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from moderation import sanctions
from moderation.audit import record
from moderation.models import AuditEntry, Sanction, sanction_in_force
from tests.helpers.moderators import moderator, with_two_factor

pytestmark = pytest.mark.django_db

USERS = reverse("admin:auth_user_changelist")


@pytest.fixture
def staff_client(client: Client) -> Client:
    """Signed in as erin, staff who may take every action on people and nothing more."""
    client.force_login(moderator())
    return client


def _act(client: Client, action: str, people: list[User], **form: str) -> Any:
    data = {"action": action, "_selected_action": [str(p.pk) for p in people], **form}
    return client.post(USERS, data)


def test_a_suspension_asks_for_the_reason_and_the_end_before_it_acts(
    staff_client: Client,
) -> None:
    bob = User.objects.create_user("bob")

    asked = _act(staff_client, "suspend", [bob])

    assert asked.status_code == 200
    page = asked.content.decode()
    assert 'name="reason"' in page and 'name="until"' in page and "bob" in page
    assert sanction_in_force(bob) is None
    until = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    done = _act(staff_client, "suspend", [bob], apply="yes", reason="Spam.", until=until)
    assert done.status_code == 302
    sanction = sanction_in_force(bob)
    assert sanction is not None and sanction.reason == "Spam." and sanction.ends_at is not None
    entry = AuditEntry.objects.get()
    assert (entry.staff.username, entry.action, entry.user) == ("mod_erin", "suspend", bob)


def test_a_ban_without_a_reason_is_asked_again(staff_client: Client) -> None:
    bob = User.objects.create_user("bob")

    response = _act(staff_client, "ban", [bob], apply="yes", reason="")

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Sanction.objects.exists()


def test_a_rename_to_a_look_alike_of_someone_is_refused_with_why(staff_client: Client) -> None:
    User.objects.create_user("Alice")
    rude = User.objects.create_user("Rude_Name")

    response = _act(
        staff_client, "rename", [rude], apply="yes", reason="Offensive.", new_name="AIice"
    )

    shown = staff_client.get(response["Location"]).content.decode()
    assert "could be taken for “Alice”" in shown
    rude.refresh_from_db()
    assert rude.username == "Rude_Name"


def test_marking_from_the_admin_and_filtering_by_marked(staff_client: Client) -> None:
    carol = User.objects.create_user("carol")
    User.objects.create_user("dave")

    _act(staff_client, "mark", [carol], apply="yes", reason="Suspected point feeding.")

    listed = staff_client.get(USERS, {"marked": "yes"}).content.decode()
    assert "carol" in listed and "dave" not in listed
    assert AuditEntry.objects.get().action == "mark"


def test_filtering_by_suspended_or_banned(staff_client: Client) -> None:
    erin = User.objects.get(username="mod_erin")
    sanctions.ban(erin, User.objects.create_user("bob"), reason="Cheating.")
    User.objects.create_user("carol")

    listed = staff_client.get(USERS, {"sanctioned": "yes"}).content.decode()

    assert "bob" in listed and "carol" not in listed


def test_staff_read_the_audit_log(staff_client: Client) -> None:
    erin = User.objects.get(username="mod_erin")
    sanctions.ban(erin, User.objects.create_user("bob"), reason="Cheating at table 7.")

    page = staff_client.get(reverse("admin:moderation_auditentry_changelist")).content.decode()

    assert "Cheating at table 7." in page and "ban" in page


def test_the_admin_offers_no_add_change_or_delete_of_an_audit_entry(client: Client) -> None:
    root = with_two_factor(User.objects.create_superuser("root_ops", password="not-used-here-9Qs"))
    client.force_login(root)
    entry = record(root, "ban", user=User.objects.create_user("bob"), reason="Cheating.")
    change = reverse("admin:moderation_auditentry_change", args=[entry.pk])

    assert client.get(reverse("admin:moderation_auditentry_add")).status_code == 403
    assert client.post(change, {"reason": "Nothing happened."}).status_code == 403
    assert (
        client.get(reverse("admin:moderation_auditentry_delete", args=[entry.pk])).status_code
        == 403
    )
    listing = client.get(reverse("admin:moderation_auditentry_changelist")).content.decode()
    assert "delete_selected" not in listing
    read = client.get(change).content.decode()
    assert "Cheating." in read and 'name="_save"' not in read
    entry.refresh_from_db()
    assert entry.reason == "Cheating."


def test_an_audit_entry_cannot_be_changed_or_deleted_in_code() -> None:
    erin = moderator()
    entry = record(erin, "ban", user=User.objects.create_user("bob"), reason="Cheating.")

    entry.reason = "Nothing happened."
    for attempt in (
        entry.save,
        entry.delete,
        AuditEntry.objects.all().delete,
        lambda: AuditEntry.objects.update(reason="Nothing happened."),
    ):
        with pytest.raises(ValueError, match="never"):
            attempt()

    assert AuditEntry.objects.get().reason == "Cheating."


def test_people_who_are_not_staff_never_reach_the_admin(client: Client) -> None:
    client.force_login(User.objects.create_user("bob"))

    for url in (reverse("admin:index"), USERS, reverse("admin:moderation_auditentry_changelist")):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]

    response = _act(client, "ban", [User.objects.create_user("carol")], apply="yes", reason="x")
    assert response.status_code == 302 and not Sanction.objects.exists()
