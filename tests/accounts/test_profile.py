import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

PASSWORD = "felt-table-queen-of-spades"


@pytest.mark.django_db
def test_a_profile_shows_the_name_the_joining_date_and_an_empty_games_list(
    client: Client,
) -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)

    response = client.get(reverse("profile", args=["alice"]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>alice</h1>" in html
    assert alice.date_joined.strftime("%Y-%m-%d") in html
    assert '<h2 id="games-heading">Games</h2>' in html
    assert "No games yet." in html
    assert response.context["games"] == []


@pytest.mark.django_db
def test_a_missing_player_has_no_profile(client: Client) -> None:
    response = client.get(reverse("profile", args=["nobody"]))

    assert response.status_code == 404


@pytest.mark.django_db
def test_profiles_are_public(client: Client) -> None:
    User.objects.create_user("bob", password=PASSWORD)

    assert client.get(reverse("profile", args=["bob"])).status_code == 200


@pytest.mark.django_db
def test_only_the_owner_sees_the_change_password_link(client: Client) -> None:
    carol = User.objects.create_user("carol", password=PASSWORD)
    User.objects.create_user("dave", password=PASSWORD)
    client.force_login(carol)
    link = f'href="{reverse("password_change")}"'

    assert link in client.get(reverse("profile", args=["carol"])).content.decode()
    assert link not in client.get(reverse("profile", args=["dave"])).content.decode()


@pytest.mark.django_db
def test_the_games_section_renders_alone_for_htmx() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)

    html = render_to_string("accounts/profile.html#games", {"games": [], "person": alice})

    assert html.strip().startswith('<div id="profile-games">')
    assert "No games yet." in html
