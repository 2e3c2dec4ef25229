"""Following people: from a profile, undone there, listed on one's own page with who follows
back; private (no one else learns who follows whom); oneself and closed accounts refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Follow
from tests.helpers.tables import people, signed_in

pytestmark = pytest.mark.django_db


def _follow(client: Client, name: str, action: str = "follow"):
    return client.post(reverse("follow", args=[name]), {"action": action}, follow=True)


def test_follow_from_a_profile_find_them_on_ones_list_and_unfollow() -> None:
    alice, bob, _carol = people("alice", "bob", "carol")
    mine, bobs = signed_in(alice), signed_in(bob)

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
    _follow(signed_in(alice), "bob")
    for viewer in (Client(), signed_in(carol), signed_in(bob)):
        page = viewer.get(reverse("profile", args=["bob"])).content.decode()
        assert "alice" not in page  # bob's profile does not say who follows him
    for viewer in (Client(), signed_in(carol)):
        page = viewer.get(reverse("profile", args=["alice"])).content.decode()
        assert "/u/bob/" not in page  # nor alice's whom she follows
    assert Client().get(reverse("following")).status_code == 302  # sign in first
    api = Client().get("/api/v1/players/alice").content.decode()
    assert "follow" not in api


def test_oneself_and_a_closed_account_cannot_be_followed() -> None:
    alice, bob = people("alice", "bob")
    bob.is_active = False
    bob.save()
    mine = signed_in(alice)
    assert "You cannot follow yourself" in _follow(mine, "alice").content.decode()
    assert "This account is closed" in _follow(mine, "bob").content.decode()
    assert not Follow.objects.exists()
    assert mine.get(reverse("follow", args=["bob"])).status_code == 405


@pytest.fixture
def presence_here(settings):
    """This process's own presence keys, expiring as the site's do (the run's Redis is shared
    by its parallel test processes)."""
    settings.CACHES = {
        **settings.CACHES,
        "presence": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "p"},
    }
    from django.core.cache import caches

    caches["presence"].clear()


def test_whom_one_follows_shows_online_or_playing_as_each_lets_them(presence_here) -> None:
    from accounts import follows, presence
    from tests.helpers.finishing import start

    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    mine = signed_in(alice)
    for name in ("bob", "carol", "dave"):
        _follow(mine, name)
    _follow(signed_in(bob), "alice")  # bob follows alice back; carol and dave do not
    follows.choose_shown_to(dave, "everyone")
    presence.here([bob.pk, carol.pk, dave.pk])
    start([dave], bots=3)

    rows = {row.person.username: row for row in follows.following(alice)}
    assert rows["bob"].status == "online"  # shown to people bob follows: alice
    assert rows["carol"].status == ""  # carol follows nobody: alice sees nothing
    assert rows["dave"].status == "playing" and rows["dave"].watch.startswith("/t/")
    follows.choose_shown_to(bob, "nobody")
    assert follows.following(alice)[0].status == ""
    page = mine.get(reverse("following")).content.decode()
    assert "playing now" in page and "online now" not in page

    answer = mine.post(reverse("following"), {"shown_to": "x"}, follow=True)
    assert "Choose who may see when you are online" in answer.content.decode()
    mine.post(reverse("following"), {"shown_to": "nobody"})
    assert follows.shown_to(alice.pk) == "nobody"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_two_tabs_are_one_presence_which_ends_a_while_after_the_last_closes(
    presence_here, monkeypatch: pytest.MonkeyPatch
) -> None:
    from asgiref.sync import sync_to_async

    from accounts import presence
    from tests.helpers.sockets import open_lobby_socket, session_cookie

    monkeypatch.setattr(presence, "TTL", 1)
    alice = await sync_to_async(User.objects.create_user)("alice")
    cookie = await sync_to_async(session_cookie)(alice)
    tabs = [await open_lobby_socket(cookie), await open_lobby_socket(cookie)]
    assert presence.online([alice.pk]) == {alice.pk: True}
    await tabs[0].disconnect()
    assert presence.online([alice.pk]) == {alice.pk: True}
    await tabs[1].disconnect()
    import asyncio

    await asyncio.sleep(1.2)  # the key's time to live, here 1 s (60 on the site)
    assert presence.online([alice.pk]) == {alice.pk: False}
    assert alice.pk in presence.last_seen([alice.pk])
