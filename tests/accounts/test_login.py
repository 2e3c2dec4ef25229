import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

PASSWORD = "felt-table-queen-of-spades"


def _sign_in(client: Client, username: str, password: str = PASSWORD):
    return client.post(reverse("login"), {"username": username, "password": password})


@pytest.mark.django_db
def test_the_sign_in_page_shows_the_form(client: Client) -> None:
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert b'<label for="id_username">' in response.content
    assert b'<label for="id_password">' in response.content


@pytest.mark.django_db
def test_signing_in_goes_to_the_lobby(client: Client) -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)

    response = _sign_in(client, "alice")

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert client.session[SESSION_KEY] == str(alice.pk)


@pytest.mark.django_db
def test_the_name_can_be_typed_in_any_case(client: Client) -> None:
    alice = User.objects.create_user("Alice", password=PASSWORD)

    response = _sign_in(client, "aLICE")

    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(alice.pk)


@pytest.mark.django_db
def test_a_wrong_password_is_refused_with_an_alert(client: Client) -> None:
    User.objects.create_user("bob", password=PASSWORD)

    response = _sign_in(client, "bob", "not-the-password")

    assert response.status_code == 200
    assert SESSION_KEY not in client.session
    assert b'role="alert"' in response.content
    assert b"correct username and password" in response.content


@pytest.mark.django_db
def test_signing_out_by_post_ends_the_session(client: Client) -> None:
    client.force_login(User.objects.create_user("carol", password=PASSWORD))

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_signing_out_by_get_is_refused_and_changes_nothing(client: Client) -> None:
    carol = User.objects.create_user("carol", password=PASSWORD)
    client.force_login(carol)

    response = client.get(reverse("logout"))

    assert response.status_code == 405
    assert client.session[SESSION_KEY] == str(carol.pk)


@pytest.mark.django_db
def test_the_nav_offers_sign_out_as_a_form_once_signed_in(client: Client) -> None:
    client.force_login(User.objects.create_user("dave", password=PASSWORD))

    html = client.get(reverse("profile", args=["dave"])).content.decode()

    assert f'<form method="post" action="{reverse("logout")}"' in html
    assert "Sign out</button>" in html
    assert f'href="{reverse("profile", args=["dave"])}"' in html


@pytest.mark.django_db
def test_repeated_failures_lock_sign_in_and_say_to_wait(client: Client, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("alice", password=PASSWORD)

    for _ in range(2):
        assert _sign_in(client, "alice", "wrong-guess").status_code == 200
    locked = _sign_in(client, "alice", "wrong-guess")

    assert locked.status_code == 429
    assert b"Too many sign-in attempts" in locked.content
    assert b"Please wait a minute" in locked.content

    # Even the right password is refused until the cool-off ends.
    again = _sign_in(client, "alice")
    assert again.status_code == 429
    assert SESSION_KEY not in client.session


def _words(html: str) -> str:
    """What a page says: its text (its title included) and its submit buttons' labels."""
    labels = re.findall(r'<input type="submit" value="([^"]*)"', html)
    return " ".join([*labels, re.sub(r"<[^>]+>", " ", html)])


@pytest.mark.django_db
def test_the_admins_sign_in_page_says_sign_in_as_the_sites_does(client: Client) -> None:
    admin = client.get(reverse("admin:login")).content.decode()
    site = client.get(reverse("login")).content.decode()

    for page in (site, admin):
        assert re.search(r"<title>\s*Sign in", page)
        assert not re.search(r"\blog ?in\b", _words(page), re.I)
    assert 'type="submit" value="Sign in"' in admin


@pytest.mark.django_db
def test_a_signed_in_person_who_is_not_staff_is_asked_to_sign_in_with_another_account(
    client: Client,
) -> None:
    User.objects.create_user("alice", password=PASSWORD)
    _sign_in(client, "alice")

    words = " ".join(_words(client.get(reverse("admin:login")).content.decode()).split())

    assert "You are signed in as alice" in words
    assert "sign in with a different account" in words
    assert not re.search(r"\blog ?in\b", words, re.I)
