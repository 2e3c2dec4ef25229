"""A name staff renamed someone away from stays out of use, and so do its look-alikes: its games
and reports still read it, and a newcomer under it could be taken for the person it named."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from moderation import sanctions
from moderation.sanctions import ModerationError
from tests.helpers.moderators import moderator

pytestmark = pytest.mark.django_db

PASSWORD = "felt-table-queen-of-spades"


def _register(username: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(reverse("register"), data)


@pytest.fixture
def renamed() -> User:
    """Someone staff renamed from "Rude_Name" to "player_wes"."""
    wes = User.objects.create_user("Rude_Name")
    sanctions.rename(moderator(), wes, "player_wes", reason="Offensive name.")
    return wes


@pytest.mark.parametrize("name", ["Rude_Name", "rude_name", "RUDE_NAME", "Rud3_Name", "Rude_Narne"])
def test_a_name_staff_renamed_someone_away_from_cannot_be_registered(
    renamed: User, name: str
) -> None:
    response = _register(name)

    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert errors == [f"“{name}” is not available. Please choose another name."]
    assert not User.objects.filter(username__iexact=name).exists()


def test_a_name_unlike_it_can_be_registered(renamed: User) -> None:
    assert _register("Polite_Name").status_code == 302


def test_staff_cannot_give_it_to_someone_else_but_may_give_it_back(renamed: User) -> None:
    staff = moderator("mod_finn")
    bob = User.objects.create_user("bob")

    with pytest.raises(ModerationError, match="kept out of use"):
        sanctions.rename(staff, bob, "rude_name", reason="He asked for it.")

    sanctions.rename(staff, renamed, "Rude_Name", reason="Renamed by mistake.")
    renamed.refresh_from_db()
    assert renamed.username == "Rude_Name"
