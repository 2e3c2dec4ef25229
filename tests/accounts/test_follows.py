"""Following people: from a profile, undone there, listed on one's own page with who follows
back; private (no one else learns who follows whom); oneself and closed accounts refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Follow
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _follow(client: Client, name: str, action: str = "follow"):
    return client.post(reverse("follow", args=[name]), {"action": action}, follow=True)


def test_follow_from_a_profile_find_them_on_ones_list_and_unfollow() -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    mine, bobs = _client(alice), _client(bob)

    assert "Follow" in mine.get(reverse("profile", args=["bob"])).content.decode()
    answer = _follow(mine, "bob").content.decode()
    assert "You follow bob." in answer and "Unfollow" in answer
    _follow(mine, "bob")  # twice: still once
    _follow(mine, "carol")
    _follow(bobs, "alice")
    assert Follow.objects.filter(follower=alice).count() == 2

    listed = mine.get(reverse("following")).content.decode()
    assert listed.index(">bob<") < listed.index(">carol<")
    assert listed.count("(follows you)") == 1  # bob follows back; carol does not

    _follow(mine, "carol", "unfollow")
    assert ">carol<" not in mine.get(reverse("following")).content.decode()


def test_nobody_else_learns_who_follows_whom() -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    _follow(_client(alice), "bob")
    for viewer in (Client(), _client(carol), _client(bob)):
        page = viewer.get(reverse("profile", args=["bob"])).content.decode()
        assert "alice" not in page  # bob's profile does not say who follows him
    for viewer in (Client(), _client(carol)):
        page = viewer.get(reverse("profile", args=["alice"])).content.decode()
        assert "/u/bob/" not in page  # nor alice's whom she follows
    assert Client().get(reverse("following")).status_code == 302  # sign in first
    api = Client().get("/api/v1/players/alice").content.decode()
    assert "follow" not in api


def test_oneself_and_a_closed_account_cannot_be_followed() -> None:
    alice, bob = people("alice", "bob")
    bob.is_active = False
    bob.save()
    mine = _client(alice)
    assert "You cannot follow yourself" in _follow(mine, "alice").content.decode()
    assert "This account is closed" in _follow(mine, "bob").content.decode()
    assert not Follow.objects.exists()
    assert mine.get(reverse("follow", args=["bob"])).status_code == 405
