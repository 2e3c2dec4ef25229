"""Who the live layer's look at its sockets' people keeps out (moderation.gates.kept_out): a
ban, a suspension not yet over, a closed account; not a lifted sanction nor one that ended."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from moderation import gates, sanctions
from tests.helpers.moderators import moderator

pytestmark = pytest.mark.django_db


def test_the_banned_the_suspended_and_the_closed_are_kept_out_and_no_one_else() -> None:
    staff = moderator()
    banned, suspended, closed, lifted, served, free = (
        User.objects.create_user(name)
        for name in ("banned", "suspended", "closed", "lifted", "served", "free")
    )
    sanctions.ban(staff, banned, reason="Cheating.")
    sanctions.suspend(staff, suspended, until=timezone.now() + timedelta(days=1), reason="Spam.")
    sanctions.close_account(staff, closed, reason="Asked to.")
    sanctions.ban(staff, lifted, reason="A mistake.")
    sanctions.lift(staff, lifted, reason="It was a mistake.")
    sanctions.suspend(staff, served, until=timezone.now() + timedelta(days=1), reason="Spam.")
    served.sanctions.update(ends_at=timezone.now() - timedelta(minutes=1))

    everyone = [u.pk for u in (banned, suspended, closed, lifted, served, free)]

    assert gates.kept_out(everyone) == {banned.pk, suspended.pk, closed.pk}
    assert gates.kept_out([]) == set()
