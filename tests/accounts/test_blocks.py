"""Blocking someone from their profile, and unblocking them there: they stop following the
blocker and cannot follow again (in words that do not say why), never see when the blocker is
online, and their chat is hidden from the blocker as a mute hides it. Silent: nothing the blocked
person sees says so. (The rated queue and the arenas: tests/games/test_rated_queue.py,
tests/arenas/test_arenas.py; the live chat: tests/chat/test_chat_sockets.py.)"""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts import blocks, follows, presence
from accounts.models import Block, Follow
from chat import services as chat
from chat.models import Room
from tests.helpers.tables import game_with, people, signed_in

pytestmark = pytest.mark.django_db


def _block(client: Client, name: str, action: str = "block") -> str:
    answer = client.post(reverse("block", args=[name]), {"action": action}, follow=True)
    return answer.content.decode()


def _profile(client: Client, name: str) -> str:
    """A profile as its viewer sees it, but for what changes at each request (the form's token,
    the scripts' nonce)."""
    page = client.get(reverse("profile", args=[name])).content.decode()
    return re.sub(r'(value|nonce)="[^"]*"|"X-CSRFToken": "\w+"', "", page)


def test_block_from_a_profile_and_unblock_there() -> None:
    alice, _bob = people("alice", "bob")
    mine = signed_in(alice)
    assert ">Block</button>" in _profile(mine, "bob")

    page = _block(mine, "bob")
    assert "You block bob." in page and ">Unblock</button>" in page
    assert "You block this person: they cannot challenge or follow you" in page
    assert Block.objects.filter(blocker=alice).count() == 1
    _block(mine, "bob")  # twice: still once
    assert Block.objects.count() == 1

    page = _block(mine, "bob", "unblock")
    assert "You no longer block bob." in page and ">Block</button>" in page
    assert "You block this person" not in page
    assert not Block.objects.exists()


def test_nobody_blocks_themselves_and_only_a_signed_in_person_by_a_post() -> None:
    [alice] = people("alice")
    mine = signed_in(alice)
    assert "You cannot block yourself" in _block(mine, "alice")
    assert ">Block</button>" not in _profile(mine, "alice")
    assert mine.get(reverse("block", args=["alice"])).status_code == 405
    assert Client().post(reverse("block", args=["alice"]), {"action": "block"}).status_code == 302
    assert ">Block</button>" not in _profile(Client(), "alice")
    assert not Block.objects.exists()


def test_the_blocked_person_sees_the_blockers_profile_as_before() -> None:
    alice, bob = people("alice", "bob")
    bobs = signed_in(bob)
    before = _profile(bobs, "alice")
    _block(signed_in(alice), "bob")
    assert _profile(bobs, "alice") == before


def test_blocking_ends_their_follow_and_they_cannot_follow_again() -> None:
    alice, bob = people("alice", "bob")
    bobs = signed_in(bob)
    bobs.post(reverse("follow", args=["alice"]), {"action": "follow"})
    assert ">alice<" in bobs.get(reverse("following")).content.decode()

    _block(signed_in(alice), "bob")
    assert ">alice<" not in bobs.get(reverse("following")).content.decode()
    answer = bobs.post(reverse("follow", args=["alice"]), {"action": "follow"}, follow=True)
    page = answer.content.decode()
    assert "You cannot follow this person" in page and "blocked" not in page.lower()
    assert not Follow.objects.filter(follower=bob).exists()

    _block(signed_in(alice), "bob", "unblock")
    bobs.post(reverse("follow", args=["alice"]), {"action": "follow"})
    assert Follow.objects.filter(follower=bob, followed=alice).exists()


@pytest.fixture
def presence_of_its_own(settings: Settings) -> None:
    """This test's own presence keys (the run's Redis is shared by its parallel processes)."""
    settings.CACHES = {
        **settings.CACHES,
        "presence": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "b"},
    }
    caches["presence"].clear()


def test_the_person_blocked_never_sees_the_blocker_online(presence_of_its_own: None) -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    for shown in (alice, carol):
        follows.choose_shown_to(shown, "everyone")
    blocks.block(alice, bob)
    # A follow made at the very moment of the block (it ends the follows before it).
    for followed in (alice, carol):
        Follow.objects.create(follower=bob, followed=followed)
    presence.here([alice.pk, carol.pk])

    rows = {row.person.username: row for row in follows.following(bob)}
    assert rows["carol"].status == "online"
    assert rows["alice"].status == "" and rows["alice"].last_seen is None
    page = signed_in(bob).get(reverse("following")).content.decode()
    assert page.count("online now") == 1


def test_the_blocked_persons_chat_is_hidden_from_the_blocker_alone_until_unblocked() -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    game = game_with([alice, bob, carol], preset="custom", players=3)
    chat.say(bob, game.table_id, game.pk, Room.PLAYERS, "rude words")
    url = reverse("table", args=[game.table_id])
    mine = signed_in(alice)

    _block(mine, "bob")
    page = mine.get(url).content.decode()
    assert "rude words" not in page
    assert "You muted" not in page  # the box offers to show muted people again, not blocked
    assert "rude words" in signed_in(carol).get(url).content.decode()
    assert "You have muted nobody" in _profile(mine, "alice")

    _block(mine, "bob", "unblock")
    assert "rude words" in mine.get(url).content.decode()
