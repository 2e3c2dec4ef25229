"""What a suspended or banned person is told: the reason staff wrote for them, word for word,
and never the note staff keep for each other, nor who reported them (the report form promises
that the reported player is not told who reported them)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from moderation import sanctions
from moderation.models import AuditEntry, Sanction
from moderation.sanctions import ModerationError
from reports.models import Report
from reports.services import file_report
from tests.helpers.moderators import moderator

pytestmark = pytest.mark.django_db

PASSWORD = "felt-table-queen-of-spades"
USERS = reverse("admin:auth_user_changelist")


def _ella_reports_wes() -> User:
    """wes, whom ella has reported."""
    ella = User.objects.create_user("ella")
    wes = User.objects.create_user("wes", password=PASSWORD)
    file_report(ella, wes, Report.Category.ABUSE, "Insults in the chat all game long.")
    return wes


def _names_ella(page: str) -> bool:
    return re.search(r"\bella\b", page, re.IGNORECASE) is not None


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("action", ["ban", "suspend"])
def test_the_form_says_which_text_the_person_reads_and_which_is_for_staff(action: str) -> None:
    wes = User.objects.create_user("wes")

    asked = _signed_in(moderator()).post(USERS, {"action": action, "_selected_action": [wes.pk]})

    page = asked.content.decode()
    assert "Reason (shown to the person)" in page
    assert "Note for staff (never shown to the person)" in page
    assert 'name="note"' in page


def test_a_banned_person_reads_the_reason_and_never_the_note_naming_who_reported_them() -> None:
    wes = _ella_reports_wes()
    wes_elsewhere = _signed_in(wes)
    banning = {
        "action": "ban",
        "_selected_action": [str(wes.pk)],
        "apply": "yes",
        "reason": "Abusive chat at your tables.",
        "note": "(report by ella)",
    }

    _signed_in(moderator()).post(USERS, banning)

    signed_out = wes_elsewhere.get(reverse("lobby")).content.decode()
    signing_in = Client().post(reverse("login"), {"username": "wes", "password": PASSWORD})
    for page in (signed_out, signing_in.content.decode()):
        assert "Your account is banned: Abusive chat at your tables." in page
        assert not _names_ella(page)
    assert Sanction.objects.get(user=wes).note == "(report by ella)"  # staff keep it
    assert AuditEntry.objects.get(action="ban").details["note"] == "(report by ella)"


def test_a_suspension_whose_reason_names_who_reported_the_person_is_refused() -> None:
    wes = _ella_reports_wes()
    staff = moderator()
    until = timezone.now() + timedelta(days=2)

    with pytest.raises(ModerationError, match="names ella, who reported them"):
        sanctions.suspend(staff, wes, until=until, reason="Abusive chat (reported by Ella).")
    assert not Sanction.objects.exists() and not AuditEntry.objects.exists()

    sanctions.suspend(staff, wes, until=until, reason="Abusive chat.", note="Ella's report.")
    assert Sanction.objects.get().reason == "Abusive chat."


def test_a_refused_reason_is_explained_on_the_admin_page() -> None:
    wes = _ella_reports_wes()
    banning = {
        "action": "ban",
        "_selected_action": [str(wes.pk)],
        "apply": "yes",
        "reason": "ella told us about your chat.",
    }

    shown = _signed_in(moderator()).post(USERS, banning, follow=True).content.decode()

    assert "put it in the note for staff" in shown
    assert not Sanction.objects.exists()
