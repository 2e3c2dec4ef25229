"""The staff page lists the ranked pairs with their evidence tricks; nobody else may see it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.helpers.collusion import history
from tests.helpers.moderators import with_two_factor
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

URL = "/staff/collusion/"


def test_staff_see_the_pairs_ranked_with_links_to_the_evidence(client: Client) -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    games = history([alice, bob, carol, dave], 10, colluders=(alice, bob))
    client.force_login(with_two_factor(User.objects.create_user("erin", is_staff=True)))

    response = client.get(URL)

    assert response.status_code == 200
    html = response.content.decode()
    rows = re.findall(r'<th scope="row">(.*?)</th>', html)
    assert len(rows) == 6
    assert rows[0] == "alice and bob <strong>(flagged)</strong>"
    assert not any("flagged" in row for row in rows[1:])
    evidence = [game for game in games if reverse("game_detail", args=[game.pk]) in html]
    assert evidence, "no evidence trick links to its game"
    assert "fed carol the" in html or "fed dave the" in html


def test_a_player_who_is_not_staff_is_sent_to_sign_in(client: Client) -> None:
    client.force_login(User.objects.create_user("mallory"))

    response = client.get(URL)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_a_visitor_is_sent_to_sign_in(client: Client) -> None:
    response = client.get(URL)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_the_page_says_when_no_pair_has_played_enough(client: Client) -> None:
    client.force_login(with_two_factor(User.objects.create_user("erin", is_staff=True)))

    response = client.get(URL)

    assert "No pair of players has 5 rated games together yet." in response.content.decode()


def test_the_admin_index_links_to_the_page(client: Client) -> None:
    client.force_login(
        with_two_factor(User.objects.create_user("erin", is_staff=True, is_superuser=True))
    )

    response = client.get(reverse("admin:index"))

    assert response.status_code == 200
    assert f'href="{URL}"' in response.content.decode()
