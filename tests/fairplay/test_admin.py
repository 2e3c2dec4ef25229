"""Staff see abandonments in the admin, read-only: nobody adds, changes or deletes one there."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from fairplay.models import Abandonment
from games import services
from tests.helpers.fairplay import game_of
from tests.helpers.moderators import with_two_factor

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(
        with_two_factor(User.objects.create_superuser("sam", password="not-used-here"))
    )
    return client


def test_staff_see_who_left_which_game_and_cannot_change_it(staff: Client) -> None:
    game = game_of(("bob", "alice", "carol", "dave"))
    services.resign(game.pk, 1)
    abandonment = Abandonment.objects.get()

    listing = staff.get(reverse("admin:fairplay_abandonment_changelist"))
    assert listing.status_code == 200
    assert "alice" in listing.content.decode()

    assert staff.get(reverse("admin:fairplay_abandonment_add")).status_code == 403
    delete = reverse("admin:fairplay_abandonment_delete", args=[abandonment.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 403
    assert Abandonment.objects.count() == 1
